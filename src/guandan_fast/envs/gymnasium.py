"""A single-agent Gymnasium environment: one seat learns, the other three follow given
policies (needs ``pip install 'guandan_fast[envs]'``).

Actions are ids of the fixed action space (:mod:`guandan_fast.encode.actions`);
:meth:`GuandanGymEnv.action_masks` is the ``bool[NUM_ACTIONS]`` mask sb3-contrib's
``MaskablePPO`` asks for. The reward of a step is the learner's (see
:mod:`guandan_fast.envs._table`): nonzero only on the step that ends the game.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "guandan_fast.envs.GuandanGymEnv needs gymnasium: pip install 'guandan_fast[envs]'"
    ) from error

from ..engine.cards import check_seat
from ..encode.actions import NUM_ACTIONS
from ._table import RENDER_MODES, TableEnv, check_policies, observation_box


class GuandanGymEnv(TableEnv, gymnasium.Env):  # type: ignore[misc]
    """Guandan for one learner at ``seat``; ``opponents`` plays the three other seats in
    turn order after it: None (uniformly random legal actions), one policy for all three,
    or three. A policy is ``f(deal, seat) -> index into deal.legal_actions()`` or an agent
    with that ``act`` method.

    ``mode`` and ``options`` as for :class:`~guandan_fast.envs.pettingzoo.GuandanAECEnv`.
    ``on_illegal``: an id the learner may not take ends the episode with
    :attr:`illegal_reward` and ``info["illegal_action"]`` (``"end"``, so that any
    ``action_space`` sample is a valid step), or raises ValueError (``"raise"``)."""

    metadata = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        seat: int = 0,
        opponents: Any = None,
        mode: str = "deal",
        *,
        render_mode: str | None = None,
        on_illegal: str = "end",
        **options: Any,
    ) -> None:
        if on_illegal not in ("end", "raise"):
            raise ValueError(f"on_illegal must be 'end' or 'raise', not {on_illegal!r}")
        self.seat = check_seat(seat)
        self.on_illegal = on_illegal
        policies = check_policies(opponents, 3)
        self._policies = {(seat + k) % 4: policies[k - 1] for k in (1, 2, 3)}
        self._no_mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        self._no_mask.flags.writeable = False
        self._set_table(mode, render_mode, options)
        self.observation_space = observation_box(self._table)
        #: The reward of an illegal id with ``on_illegal="end"``: the worst the game can give.
        self.illegal_reward = -3.0 if mode == "deal" else -1.0
        self.action_space = spaces.Discrete(NUM_ACTIONS)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        seeds = self.np_random.integers(2**63, size=2).tolist()
        self._table.reset(seeds[0])
        self._opponents_rng = random.Random(seeds[1])  # the random seats' draws
        self._others()
        return self._table.observe(self.seat), {}

    def action_masks(self) -> np.ndarray:
        """``bool[NUM_ACTIONS]``: the ids the learner may take now (all False once over;
        read-only)."""
        if self._table.to_act != self.seat:
            return self._no_mask
        return self._table.legal()[1]

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        table = self._table
        if table.to_act != self.seat:
            raise ValueError("the game is over: reset the environment")
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} is not an id 0..{NUM_ACTIONS - 1}")
        if self.on_illegal == "end" and not table.legal()[1][action]:
            return table.observe(self.seat), self.illegal_reward, True, False, {"illegal_action": True}
        table.play(int(action))
        reward = float(table.rewards[self.seat]) + self._others()
        if self.render_mode == "human":
            self.render()
        return table.observe(self.seat), reward, table.over, table.truncated, {}

    def _others(self) -> float:
        """Let the other seats act until the learner's turn or the end; their steps' rewards
        to the learner."""
        table, reward = self._table, 0.0
        while (seat := table.to_act) is not None and seat != self.seat:
            policy = self._policies[seat]
            table.step_index(table.random_index(self._opponents_rng) if policy is None else policy(table.deal, seat))
            reward += float(table.rewards[self.seat])
        return reward
