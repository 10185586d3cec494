"""The PettingZoo AEC environment of Guandan (needs ``pip install 'guandan_fast[envs]'``).

Agents ``player_0`` .. ``player_3`` are the seats (``player_0`` and ``player_2`` one
team). The action space is ``Discrete(NUM_ACTIONS)`` over the fixed action space of
:mod:`guandan_fast.encode.actions` (an id is played as its canonical move); observations
are ``{"observation": float32 Box, "action_mask": int8 Box}``, the mask all zeros for a
seat that is not to act. Rewards and the observation layout: :mod:`guandan_fast.envs._table`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "guandan_fast.envs.pettingzoo_env needs pettingzoo and gymnasium: pip install 'guandan_fast[envs]'"
    ) from error

from ..encode.actions import NUM_ACTIONS
from ._table import RENDER_MODES, TableEnv, observation_box

AGENTS = tuple(f"player_{seat}" for seat in range(4))
SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}


class GuandanAECEnv(TableEnv, AECEnv):  # type: ignore[misc]
    """Guandan as a PettingZoo AEC environment: one deal (``mode="deal"``) or a whole
    match (``mode="match"``, tribute and return are actions too). ``options``: ``level``
    (of a deal, default 2), ``rules``, ``observation`` (the layout, ``"full-v1"`` or
    ``"danzero"``), ``max_deals`` (cuts a match short)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "guandan_v0", "is_parallelizable": False}

    def __init__(self, mode: str = "deal", *, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self._set_table(mode, render_mode, options)
        self.possible_agents = list(AGENTS)
        box = observation_box(self._table)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        self._observation_space = spaces.Dict({"observation": box, "action_mask": mask})
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self._no_mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        self._no_mask.flags.writeable = False

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._table.reset(seed)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self._table.to_act]  # type: ignore[index]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's encoded view and its action mask (read-only; all zeros unless it is
        the seat to act)."""
        seat = SEATS[agent]
        table = self._table
        legal = table.legal()[1].view(np.int8) if seat == table.to_act else self._no_mask
        return {"observation": table.observe(seat), "action_mask": legal}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self._table
        table.play(action)
        self._cumulative_rewards[agent] = 0.0
        if table.over or table.truncated:
            for seat, name in enumerate(AGENTS):
                self.rewards[name] = table.rewards[seat]
                self.terminations[name] = table.over
                self.truncations[name] = table.truncated
            self._accumulate_rewards()
        else:  # every step but the last rewards nobody: self.rewards holds zeros
            self.agent_selection = AGENTS[table.to_act]  # type: ignore[index]
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        """Nothing to release (the environment holds no external resources)."""
