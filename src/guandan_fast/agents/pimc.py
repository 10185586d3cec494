"""Perfect-information Monte Carlo (PIMC): sampled worlds × rollouts, on top of the
:class:`~guandan_fast.agents.MinPlaysAgent` rules.

For a play decision of ``seat``: draw worlds — the other three hands redrawn uniformly
among those consistent with what the seat knows (``infoset.sample_hands``) — and in each
world try every candidate action and finish the deal with a rollout policy, all rollouts
of a few worlds in one native call (``Deal.world_playouts``). A candidate scores the mean
deal result for the seat's team over its rollouts.

Objective
    ``"first"`` (default): +1 when the team finishes first (wins the deal), -1 when the
    other team does — what a one-deal match or a win rate counts, and less noisy;
    ``"points"``: +n when the team goes up n levels, -n when the other team does.
Rollouts
    ``"minplays"`` (default): the MinPlays rules for all four seats, in native code (the
    same choices as :class:`MinPlaysAgent`, ``Deal.playouts(policy="minplays")``) — so a
    search step is a policy-improvement step over the rules; deterministic, one per world
    and candidate;
    ``"tactics"``: the same rules with their tactics (``MinPlaysAgent(tactics=True)``);
    ``"greedy"``: cheaper native rules (lead the lowest cards in the largest combination,
    follow an opponent with the cheapest move that keeps ranks, bombs and the wildcard
    whole, pass on a partner, bomb only when an opponent is about to finish) —
    deterministic, one per world and candidate;
    ``"random"``: uniformly random play in native code, ``playouts // worlds`` per world
    and candidate (at least one).
Candidates
    the rules' own choice and the actions they consider sensible
    (:meth:`MinPlaysAgent.sensible`: the plays of the decomposition when leading; the
    pass, the moves that keep the decomposition and the two best bombs when following),
    at most ``max_candidates``.
When to search
    rollouts judge a position well only near its end, so the agent searches once some
    seat still in play holds at most ``endgame`` cards (``None``: always) and plays the
    rules' choice before that; it keeps the rules' choice unless another candidate scores
    more than ``margin`` better (in the objective's units) plus ``confidence`` standard
    errors of that gain (paired over the worlds played: few worlds, a wider bar).

Tribute and return choices are the rules'. Deterministic per ``seed`` unless
``budget_ms`` is set: then worlds are drawn until the time is spent (at least one) or all
``worlds`` are done, and the result depends on the machine's speed.
"""

from __future__ import annotations

import inspect
import math
import time
from typing import Any

import numpy as np

from ..engine.cards import bounded, seeded_random
from ..engine.deal import Deal
from ..search.infoset import sample_hands
from .base import MOST_WORLDS, check_turn, non_negative, time_budget
from .minplays import MinPlaysAgent

ROLLOUTS = ("random", "greedy", "minplays", "tactics")
OBJECTIVES = ("points", "first")
_WORLDS_AT_ONCE = 8


def team_results(finishes: np.ndarray, seat: int, objective: str = "points") -> np.ndarray:
    """Finishing orders' deal results for ``seat``'s team (``finishes[..., 4]`` -> ``[...]``):
    the levels won (+) or lost (-), or with ``objective="first"`` +1 when the team finishes
    first, else -1."""
    first = finishes[..., 0].astype(np.int64)
    sign = np.where((first ^ seat) & 1 == 0, 1, -1)
    if objective == "first":
        return sign
    partner_place = np.argmax(finishes == (first ^ 2)[..., None], axis=-1)
    results: np.ndarray = sign * (4 - partner_place)  # numpy's stub: an array product of unknown dtype is Any
    return results


#: Named option sets: ``PIMCAgent(preset="v0.1")`` (``pimc:preset=v0.1``) is PIMC with the
#: defaults it had when the search agent was added (its baseline), whatever they become.
PRESETS: dict[str, dict[str, object]] = {
    "v0.1": {
        "playouts": 64,
        "budget_ms": None,
        "rollout": "minplays",
        "worlds": 48,
        "endgame": 12,
        "margin": 0.15,
        "max_candidates": 16,
        "objective": "first",
        "confidence": 0.0,
    },
}


def _count(value: object, name: str, most: int = 2**31 - 1) -> int:
    return bounded(value, f"PIMCAgent {name}", 1, most)  # at most what one native call plays or draws


class PIMCAgent:
    """See :mod:`guandan_fast.agents.pimc`. ``playouts``: rollouts per candidate and
    decision, spread over ``worlds`` sampled worlds; ``budget_ms``: an optional time cap
    per decision (with the greedy or minplays rollout, one per world: ``playouts`` only caps
    ``worlds``); ``endgame`` and ``margin``: when to search and when to leave the rules;
    ``objective``: ``"first"`` or ``"points"``; ``preset``: a name in :data:`PRESETS`
    whose options replace the defaults (an option given with a value other than its
    default still wins)."""

    def __init__(
        self,
        playouts: int = 64,
        budget_ms: float | None = None,
        seed: int | str | None = 0,
        rollout: str = "minplays",
        worlds: int = 48,
        endgame: int | None = 12,
        margin: float = 0.15,
        max_candidates: int = 16,
        objective: str = "first",
        confidence: float = 0.0,
        preset: str | None = None,
    ) -> None:
        if preset is not None:
            if not isinstance(preset, str) or preset not in PRESETS:
                raise ValueError(f"PIMCAgent preset must be one of {', '.join(PRESETS)}, not {preset!r}")
            given: dict[str, Any] = {
                "playouts": playouts, "budget_ms": budget_ms, "rollout": rollout, "worlds": worlds,
                "endgame": endgame, "margin": margin, "max_candidates": max_candidates,
                "objective": objective, "confidence": confidence,
            }  # fmt: skip
            chosen: dict[str, Any] = {k: (PRESETS[preset][k] if v == _DEFAULTS[k] else v) for k, v in given.items()}
            playouts, budget_ms, rollout, worlds = (
                chosen["playouts"],
                chosen["budget_ms"],
                chosen["rollout"],
                chosen["worlds"],
            )
            endgame, margin, max_candidates = chosen["endgame"], chosen["margin"], chosen["max_candidates"]
            objective, confidence = chosen["objective"], chosen["confidence"]
        self.preset = preset
        self.playouts = _count(playouts, "playouts", MOST_WORLDS)
        self.max_candidates = _count(max_candidates, "max_candidates")
        self.worlds = min(_count(worlds, "worlds", MOST_WORLDS), playouts)
        budget_ms = time_budget(budget_ms, "PIMCAgent budget_ms")
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout {rollout!r}: use one of {', '.join(ROLLOUTS)}")
        if objective not in OBJECTIVES:
            raise ValueError(f"unknown objective {objective!r}: use one of {', '.join(OBJECTIVES)}")
        if isinstance(endgame, str) and endgame.strip().lower() == "none":
            endgame = None  # (as a command-line spec writes it: "pimc:endgame=none")
        if endgame is not None:
            _count(endgame, "endgame")
        margin, confidence = non_negative(margin, "PIMCAgent margin"), non_negative(confidence, "PIMCAgent confidence")
        self.confidence = confidence
        self.budget_ms, self.seed, self.rollout, self.endgame, self.margin = budget_ms, seed, rollout, endgame, margin
        self.objective = objective
        self._rng = seeded_random(seed, "PIMCAgent seed")
        self._rules = MinPlaysAgent()

    def __repr__(self) -> str:
        budget = "" if self.budget_ms is None else f", budget_ms={self.budget_ms}"
        return (
            f"PIMCAgent(playouts={self.playouts}{budget}, seed={self.seed!r}, rollout={self.rollout!r}, "
            f"worlds={self.worlds}, endgame={self.endgame}, margin={self.margin}, objective={self.objective!r}, "
            f"confidence={self.confidence})"
        )

    def act(self, deal: Deal, seat: int) -> int:
        seat = check_turn(deal, seat)
        pick, sensible = self._rules.choices(deal, seat)  # one solve of the hand for both
        if deal.phase != "play":
            return pick
        seed = self._rng.getrandbits(63)
        if self.endgame is not None and min(n for n in deal.cards_left() if n) > self.endgame:
            return pick
        others = [i for i in sensible if i != pick]
        candidates = [pick, *others[: self.max_candidates - 1]]
        if len(candidates) == 1:
            return pick
        results = self.world_results(deal, seat, candidates, seed)
        means = results.mean(axis=0).tolist()
        best = max(range(len(candidates)), key=lambda k: (means[k], -candidates[k]))
        gain = results[:, best] - results[:, 0]  # paired: the same worlds
        noise = self.confidence * paired_standard_error(gain)
        return candidates[best] if means[best] - means[0] > self.margin + noise else pick

    def evaluate(self, deal: Deal, seat: int, candidates: list[int], seed: int) -> list[float]:
        """The mean rollout result of each candidate action for ``seat``'s team."""
        means: list[float] = self.world_results(deal, seat, candidates, seed).mean(axis=0).tolist()
        return means

    def world_results(self, deal: Deal, seat: int, candidates: list[int], seed: int) -> np.ndarray:
        """The mean rollout result for ``seat``'s team of each candidate in each world
        played: ``float[worlds, candidates]``."""
        per_world = 1 if self.rollout != "random" else max(1, self.playouts // self.worlds)
        deadline = None if self.budget_ms is None else time.perf_counter() + self.budget_ms / 1000
        worlds = sample_hands(deal, seat, self.worlds, seed)  # world i from the stream seed + i
        return rollout_results(
            deal,
            seat,
            candidates,
            worlds,
            self.objective,
            deadline,
            per_world=per_world,
            seed=seed,
            policy=self.rollout,
        )


def paired_standard_error(gains: np.ndarray) -> float:
    """The standard error of the mean of ``gains``, one candidate's gain over the rules'
    choice in each world (paired: the same worlds, so the worlds' own luck cancels); 0.0 for
    fewer than two worlds, whose spread is unknown."""
    if len(gains) < 2:
        return 0.0
    return float(gains.std(ddof=1)) / math.sqrt(len(gains))


def rollout_results(
    deal: Deal,
    seat: int,
    candidates: list[int],
    worlds: np.ndarray,
    objective: str,
    deadline: float | None,
    *,
    per_world: int = 1,
    seed: int = 0,
    policy: str = "minplays",
    at_least_one: bool = True,
) -> np.ndarray:
    """Each candidate's mean rollout result for ``seat``'s team in each world judged
    (``float[judged, candidates]``, the first worlds of ``worlds``): ``per_world`` native
    rollouts of ``policy`` a world and candidate (world ``i`` from the stream ``seed + i *
    per_world``). With a ``deadline`` (a ``time.perf_counter()`` time) a world is played
    alone first (even past the deadline when ``at_least_one``), then chunks sized from the
    speed measured so far so that they end by the deadline; none starts that would not."""
    rows, start, total = [], 0, len(worlds)
    chunk = total if deadline is None else 1
    while start < total:
        if deadline is not None and time.perf_counter() >= deadline and not (at_least_one and start == 0):
            break
        count = min(chunk, total - start)
        began = time.perf_counter()
        finishes = deal.world_playouts(worlds[start : start + count], candidates, per_world, seed + start * per_world,
                                       policy=policy)  # fmt: skip
        rows.append(team_results(finishes, seat, objective).mean(axis=2))
        start += count
        if deadline is not None:
            now = time.perf_counter()
            chunk = min(_WORLDS_AT_ONCE, int((deadline - now) * count / max(now - began, 1e-9)))
            if chunk < 1:
                break
    if not rows:
        return np.zeros((0, len(candidates)))
    return np.concatenate(rows).astype(np.float64)


#: The defaults of :class:`PIMCAgent`'s options, read from its signature.
_DEFAULTS: dict[str, object] = {
    name: parameter.default
    for name, parameter in inspect.signature(PIMCAgent.__init__).parameters.items()
    if name not in ("self", "seed", "preset")
}
