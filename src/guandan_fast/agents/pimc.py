"""Perfect-information Monte Carlo (PIMC): sampled worlds × rollouts.

For a decision of ``seat``: draw worlds — the other three hands redrawn uniformly among
those consistent with what the seat knows (``deal.sample_worlds``) — and in each world
try every candidate action and finish the deal with a rollout policy. Each candidate
scores the mean deal result for the seat's team (+n when the team finishes first and goes
up n levels, -n when the other team does); the best mean is played (ties: the lower
index). Rollouts:

``"random"``
    uniformly random play in native code (``Deal.playouts``), ``playouts // worlds``
    per world and candidate (at least one);
``"minplays"``
    the :class:`~guandan_fast.agents.MinPlaysAgent` rules for all four seats, in
    Python: deterministic, so one per world and candidate, and much slower.

Candidates: every legal action when there are at most ``max_candidates``; else, when
leading, the plays of the hand's min-plays decomposition, and when following the pass and
the weakest moves (bombs last, lowest tier and key first). Tribute and return choices are
MinPlaysAgent's. Deterministic per ``seed`` unless ``budget_ms`` is set: then worlds are
drawn until the time is spent (at least one) or ``playouts`` are reached, and the result
depends on the machine's speed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import numpy as np

from ..game import Deal
from .base import action_count, check_turn
from .minplays import MinPlaysAgent

ROLLOUTS = ("random", "minplays")
_WORLDS_AT_ONCE = 8


def team_result(finish: list[int], seat: int) -> int:
    """A finishing order's deal result for ``seat``'s team."""
    first = finish[0]
    up = 4 - finish.index(first ^ 2)
    return up if (first ^ seat) & 1 == 0 else -up


def deal_result(deal: Deal, seat: int) -> int:
    """The finished deal's result for ``seat``'s team."""
    team, up = deal.outcome  # type: ignore[misc]
    return up if team == seat % 2 else -up


class PIMCAgent:
    """See :mod:`guandan_fast.agents.pimc`. ``playouts``: rollouts per candidate action and
    decision; ``worlds``: sampled worlds they are spread over; ``budget_ms``: an optional
    time cap per decision."""

    def __init__(
        self,
        playouts: int = 64,
        budget_ms: float | None = None,
        seed: int | str | None = 0,
        rollout: str = "random",
        worlds: int = 8,
        max_candidates: int = 16,
        candidates_from: str = "minplays",
    ) -> None:
        for name, value in (("playouts", playouts), ("worlds", worlds), ("max_candidates", max_candidates)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"PIMCAgent {name} must be an integer, not {type(value).__name__}")
            if value < 1:
                raise ValueError(f"PIMCAgent {name} must be at least 1, not {value}")
        if budget_ms is not None and not budget_ms > 0:
            raise ValueError(f"PIMCAgent budget_ms must be a positive number of milliseconds, not {budget_ms!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout {rollout!r}: use one of {', '.join(ROLLOUTS)}")
        self.playouts, self.budget_ms, self.seed, self.rollout = playouts, budget_ms, seed, rollout
        self.worlds, self.max_candidates = min(worlds, playouts), max_candidates
        if candidates_from not in ("minplays", "all"):
            raise ValueError(f"candidates_from is 'minplays' or 'all', not {candidates_from!r}")
        self.candidates_from = candidates_from
        self._rng = random.Random(seed)
        self._rules = MinPlaysAgent()

    def __repr__(self) -> str:
        budget = "" if self.budget_ms is None else f", budget_ms={self.budget_ms}"
        return f"PIMCAgent(playouts={self.playouts}{budget}, seed={self.seed!r}, rollout={self.rollout!r}, worlds={self.worlds})"

    def act(self, deal: Deal, seat: int) -> int:
        seat = check_turn(deal, seat)
        count = action_count(deal)
        if deal.phase != "play":
            return self._rules.act(deal, seat)
        seed = self._rng.getrandbits(63)
        if count == 1:
            return 0
        candidates = self.candidates(deal, seat, count)
        if len(candidates) == 1:
            return candidates[0]
        totals = np.zeros(len(candidates))
        per_world = max(1, self.playouts // self.worlds)
        deadline = None if self.budget_ms is None else time.perf_counter() + self.budget_ms / 1000
        for world_seed, world in enumerate(self._worlds(deal, seat, seed), seed):
            world.legal_moves()  # cached once, shared by the clones below
            for k, action in enumerate(candidates):
                child = world.clone()
                child.step(action)
                totals[k] += self._rollouts(child, seat, per_world, world_seed)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return candidates[int(np.argmax(totals))]

    def _worlds(self, deal: Deal, seat: int, seed: int) -> Iterator[Deal]:
        """World ``i`` is ``deal.sample_world(seat, seed + i)``, drawn a few at a time (a
        time budget may stop early)."""
        for start in range(0, self.worlds, _WORLDS_AT_ONCE):
            yield from deal.sample_worlds(seat, min(_WORLDS_AT_ONCE, self.worlds - start), seed + start)

    def candidates(self, deal: Deal, seat: int, count: int) -> list[int]:
        """The action indices searched (see the module docstring)."""
        if count <= self.max_candidates and self.candidates_from == "all":
            return list(range(count))
        pick = self._rules.act(deal, seat)
        others = [i for i in self._rules.sensible(deal, seat) if i != pick]
        return sorted([pick, *others[: self.max_candidates - 1]])

    def _rollouts(self, deal: Deal, seat: int, n: int, seed: int) -> float:
        """Sum of ``n`` rollout results for ``seat``'s team from ``deal``."""
        if deal.done:
            return n * deal_result(deal, seat)
        if self.rollout == "random":
            return float(sum(team_result(finish, seat) for finish in deal.playouts(n, seed).tolist()))
        rules = self._rules
        while not deal.done:
            deal.step(rules.act(deal, deal.to_act))  # type: ignore[arg-type]
        return float(deal_result(deal, seat))
