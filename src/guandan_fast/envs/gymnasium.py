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

from ..encode.actions import NUM_ACTIONS
from ..engine.cards import bounded, check_seat
from ..engine.rules import Rules
from ._table import DEFAULT_LAYOUT, RENDER_FPS, RENDER_MODES, TableEnv, check_policies, observation_box


class GuandanGymEnv(TableEnv, gymnasium.Env):
    """Guandan for one learner at ``seat``; ``opponents`` plays the three other seats in
    turn order after it: None (uniformly random legal actions), one policy for all three,
    or three. A policy is ``f(deal, seat) -> index into deal.legal_actions()`` or an agent
    with that ``act`` method.

    ``mode`` (``"deal"`` or ``"match"``), ``level``, ``rules``, ``observation`` and
    ``max_deals`` as for :class:`~guandan_fast.envs.pettingzoo.GuandanAECEnv`.
    ``on_illegal``: an id the learner may not take ends the episode with
    :attr:`illegal_reward` and ``info["illegal_action"]`` (``"end"``, so that any
    ``action_space`` sample is a valid step), or raises ValueError (``"raise"``).

    ``info["action_mask"]`` is :meth:`action_masks` after every ``reset`` and ``step``.
    Outside an episode (before the first ``reset``, after the last step) ``step`` raises
    ValueError."""

    # gymnasium.Env declares metadata an instance attribute (so not a ClassVar here)
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}  # noqa: RUF012

    def __init__(
        self,
        seat: int = 0,
        opponents: Any = None,
        mode: str = "deal",
        *,
        render_mode: str | None = None,
        on_illegal: str = "end",
        level: int | str = 2,
        rules: Rules | None = None,
        observation: str = DEFAULT_LAYOUT,
        max_deals: int | None = None,
    ) -> None:
        if on_illegal not in ("end", "raise"):
            raise ValueError(f"on_illegal must be 'end' or 'raise', not {on_illegal!r}")
        self.seat = check_seat(seat)
        self.on_illegal = on_illegal
        policies = check_policies(opponents, 3)
        self._policies = {(seat + k) % 4: policies[k - 1] for k in (1, 2, 3)}
        self._no_mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        self._no_mask.flags.writeable = False
        self._set_table(mode, render_mode, {"level": level, "rules": rules, "observation": observation, "max_deals": max_deals})
        self.observation_space = observation_box(self._table)
        #: The reward of an illegal id with ``on_illegal="end"``: the worst the game can give.
        self.illegal_reward = -3.0 if mode == "deal" else -1.0
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        #: Whether an episode is under way (False before the first reset and after its end).
        self._playing = self._started = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new episode: ``seed`` (an integer >= 0) restarts the environment's random
        stream, which later unseeded resets go on drawing from (Gymnasium's ``np_random``)."""
        super().reset(seed=None if seed is None else bounded(seed, "seed", 0))
        seeds = self.np_random.integers(2**63, size=2).tolist()
        self._table.reset(seeds[0])
        self._opponents_rng = random.Random(seeds[1])  # the random seats' draws
        self._playing = self._started = True
        self._others()
        self._playing = self._table.to_act == self.seat
        return self._table.observe(self.seat), {"action_mask": self.action_masks()}

    def action_masks(self) -> np.ndarray:
        """``bool[NUM_ACTIONS]``: the ids the learner may take now (all False outside an
        episode; read-only)."""
        if not self._playing:
            return self._no_mask
        return self._table.legal()[1]

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """One action id of the learner, then the other seats' actions up to its next turn
        (or the end). TypeError/ValueError for something that is no id of the space, or
        outside an episode; an id the learner may not take: see ``on_illegal``."""
        if not self._playing:
            raise ValueError(
                "the episode is over: call reset()" if self._started else "the environment has not been reset: call reset() first"
            )
        action = bounded(action, "an action id", 0, NUM_ACTIONS - 1)
        table = self._table
        if self.on_illegal == "end" and not table.legal()[1][action]:
            self._playing = False
            info = {"illegal_action": True, "action_mask": self._no_mask}
            return table.observe(self.seat), self.illegal_reward, True, False, info
        table.play(action)
        reward = float(table.rewards[self.seat]) + self._others()
        self._playing = table.to_act == self.seat
        if self.render_mode == "human":
            self.render()
        return table.observe(self.seat), reward, table.over, table.truncated, {"action_mask": self.action_masks()}

    def _others(self) -> float:
        """Let the other seats act until the learner's turn or the end; their steps' rewards
        to the learner."""
        table, reward = self._table, 0.0
        try:
            while (seat := table.to_act) is not None and seat != self.seat:
                policy = self._policies[seat]
                table.step_index(table.random_index(self._opponents_rng) if policy is None else policy(table.deal, seat))
                reward += float(table.rewards[self.seat])
        except BaseException:
            # an opponent's policy failed (or gave a bad index): the episode cannot go on, and
            # the learner must never act in another seat's turn
            self._playing = False
            raise
        return reward
