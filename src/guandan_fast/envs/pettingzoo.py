"""The PettingZoo AEC environment of Guandan (needs ``pip install 'guandan_fast[envs]'``).

Agents ``player_0`` .. ``player_3`` are the seats (``player_0`` and ``player_2`` one
team). The action space is ``Discrete(NUM_ACTIONS)`` over the fixed action space of
:mod:`guandan_fast.encode.actions` (an id is played as its canonical move); observations
are ``{"observation": float32 Box, "action_mask": int8 Box}``, the mask all zeros for a
seat that is not to act (and the same mask in ``infos[agent]["action_mask"]`` of the
seat to act). Rewards and the observation layout: :mod:`guandan_fast.envs._table`.

PettingZoo's conventions: :func:`raw_env` is the environment itself, :func:`env` the
same wrapped in PettingZoo's ``OrderEnforcingWrapper``; both are also
:mod:`guandan_fast.envs.guandan_v0`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "guandan_fast.envs.pettingzoo_env needs pettingzoo and gymnasium: pip install 'guandan_fast[envs]'"
    ) from error

from ..encode.actions import NUM_ACTIONS
from ..engine.rules import Rules
from ._table import DEFAULT_LAYOUT, RENDER_FPS, RENDER_MODES, TableEnv, observation_box

AGENTS = tuple(f"player_{seat}" for seat in range(4))
SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}


# pettingzoo ships no type information (no py.typed), so mypy sees AECEnv as Any
class GuandanAECEnv(TableEnv, AECEnv):  # type: ignore[misc]
    """Guandan as a PettingZoo AEC environment: one deal (``mode="deal"``) or a whole
    match (``mode="match"``, tribute and return are actions too). ``level`` (of a deal,
    default 2), ``rules``, ``observation`` (the layout, ``"full-v1"`` or ``"danzero"``),
    ``max_deals`` (cuts a match short).

    ``reset(seed=s)`` restarts the environment's random stream, which later unseeded
    resets go on drawing from. Outside an episode — before the first ``reset``, or an
    action other than None once the game is over — ``step``, ``observe`` and ``last``
    raise ValueError, as do an unknown agent name and an id the seat may not take (which
    changes nothing)."""

    # pettingzoo.AECEnv declares metadata an instance attribute (so not a ClassVar here)
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": list(RENDER_MODES),
        "name": "guandan_v0",
        "is_parallelizable": False,
        "render_fps": RENDER_FPS,
    }

    def __init__(
        self,
        mode: str = "deal",
        *,
        render_mode: str | None = None,
        level: int | str = 2,
        rules: Rules | None = None,
        observation: str = DEFAULT_LAYOUT,
        max_deals: int | None = None,
    ) -> None:
        super().__init__()
        self._set_table(mode, render_mode, {"level": level, "rules": rules, "observation": observation, "max_deals": max_deals})
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        box = observation_box(self._table)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        self._observation_space = spaces.Dict({"observation": box, "action_mask": mask})
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self._no_mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._no_mask.flags.writeable = False
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        self._seat_of(agent)
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        self._seat_of(agent)
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._table.reset(seed)
        self._started = True
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._select(self._table.current_seat)
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's encoded view and its action mask (read-only; all zeros unless it is
        the seat to act)."""
        seat = self._seat_of(agent)
        self._check_started()
        table = self._table
        legal = self._mask() if seat == table.to_act else self._no_mask
        return {"observation": table.observe(seat), "action_mask": legal}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self._check_started()
        last: tuple[Any, float, bool, bool, dict[str, Any]] = super().last(observe)
        return last

    def step(self, action: Any) -> None:
        self._check_started()
        if not self.agents:
            raise ValueError("the game is over and every agent has left: reset the environment")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table
        table.play(action)
        self._cumulative_rewards[agent] = 0.0
        self.infos[agent] = {}
        if table.over or table.truncated:
            for seat, name in enumerate(AGENTS):
                self.rewards[name] = table.rewards[seat]
                self.terminations[name] = table.over
                self.truncations[name] = table.truncated
            self._accumulate_rewards()
        else:  # every step but the last rewards nobody: self.rewards holds zeros
            self._select(table.current_seat)
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        """Nothing to release (the environment holds no external resources)."""

    def _select(self, seat: int) -> None:
        """Hand the turn to ``seat``: its name, and its mask in its info."""
        self.agent_selection = AGENTS[seat]
        self.infos[self.agent_selection] = {"action_mask": self._mask()}

    def _mask(self) -> np.ndarray:
        return self._table.legal()[1].view(np.int8)

    def _check_started(self) -> None:
        if not self._started:
            raise ValueError("the environment has not been reset: call reset() first")

    @staticmethod
    def _seat_of(agent: object) -> int:
        seat = SEATS.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise ValueError(f"no agent {agent!r} in this environment: the agents are {', '.join(AGENTS)}")
        return seat


def raw_env(mode: str = "deal", **options: Any) -> GuandanAECEnv:
    """The environment without wrappers (PettingZoo's ``raw_env``): :class:`GuandanAECEnv`."""
    return GuandanAECEnv(mode, **options)


def env(mode: str = "deal", **options: Any) -> OrderEnforcingWrapper:
    """The environment in PettingZoo's ``OrderEnforcingWrapper`` (PettingZoo's ``env``)."""
    return OrderEnforcingWrapper(GuandanAECEnv(mode, **options))
