"""Seat-swapped matches between two agents: :func:`play_matches` (and :func:`play_arenas`,
several pairings of agents on one seed in one run).

Match seeds come in mirrored pairs: matches ``2k`` and ``2k + 1`` use the same seed, so
the same cards are dealt in every deal of both (``Match`` draws each deal's cards from its
seed), with agent A on seats 0 and 2 in the first and on seats 1 and 3 in the second.
Each seat gets its own agent instance, built fresh for every match from a seed derived
from the arena seed, the match index and the seat, and every match is played in one task:
the results are the same whatever the number of workers, local or on Ray.

The 95% confidence interval of A's win rate is a normal interval on the pairs: each pair's
score is the mean of its two matches (a win 1, a draw ½, a loss 0), which cancels most of
the luck of the cards the two share; when every pair scores the same (or there is one
pair) the normal interval says nothing, and the Wilson interval over the pairs is given.
"""

from __future__ import annotations

import copy
import hashlib
import math
import statistics
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any, TypedDict, Union

from ..agents import Agent, as_agent, make_agent, parse_agent_spec
from ..agents.base import AgentFunction, checked_choice
from ..engine.cards import as_index
from ..engine.match import Match
from ..engine.rules import Rules
from .progress import ProgressBar
from .runner import check_positive, run_tasks

#: An agent as the arena takes it: a name with options (``"pimc:playouts=64"``), a
#: ``(name, options)`` pair, or an agent or function (copied afresh for every match).
AgentSpec = Union[str, tuple[str, dict[str, Any]], Agent, AgentFunction]  # noqa: UP007 - a runtime alias
Z95 = 1.959963984540054


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (stable across processes and Python versions)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1


def build_agent(spec: AgentSpec, seed: int) -> Agent:
    """A fresh agent from a spec; named agents get ``seed`` unless their options name one."""
    if isinstance(spec, str):
        spec = parse_agent_spec(spec)
    if isinstance(spec, tuple):
        name, options = spec
        return make_agent(name, **{"seed": seed, **options})
    return copy.deepcopy(as_agent(spec))


def agent_label(spec: AgentSpec) -> str:
    if isinstance(spec, str):
        return spec
    if isinstance(spec, tuple):
        name, options = spec
        return name + (":" + ",".join(f"{k}={v}" for k, v in options.items()) if options else "")
    return repr(spec)


@dataclass(frozen=True)
class MatchResult:
    """One match, seen from agent A. ``score``: 1 a win, 0.5 a draw, 0 a loss;
    ``points``: A's level points summed over the deals (+n when A's team finished first
    and went up n, -n when B's did). The timings are measured, not part of the result."""

    index: int
    a_team: int
    score: float
    deals: int
    points: int
    decisions: tuple[int, int]
    seconds: tuple[float, float] = field(compare=False)
    slowest: tuple[float, float] = field(compare=False, default=(0.0, 0.0))


def play_match(spec_a: AgentSpec, spec_b: AgentSpec, seed: int, index: int, rules: Rules | None) -> MatchResult:
    """Play match ``index`` of an arena with seed ``seed`` (A's team: ``index % 2``)."""
    pair, a_team = divmod(index, 2)
    match = Match(derive_seed("match", seed, pair), rules)
    agents = [
        build_agent(spec_a if seat % 2 == a_team else spec_b, derive_seed("agent", seed, index, seat))
        for seat in range(4)
    ]
    decisions, seconds, slowest = [0, 0], [0.0, 0.0], [0.0, 0.0]
    while not match.over:
        deal = match.deal
        seat = deal.current_seat
        side = 0 if seat % 2 == a_team else 1
        start = time.perf_counter()
        choice = checked_choice(agents[seat], deal, seat)
        took = time.perf_counter() - start
        seconds[side] += took
        slowest[side] = max(slowest[side], took)
        decisions[side] += 1
        match.step(choice)
    points = 0
    for record in match.records:
        team, up = record.outcome
        points += up if team == a_team else -up
    score = 0.5 if match.winner is None else float(match.winner == a_team)
    return MatchResult(
        index, a_team, score, match.deals_played, points, (decisions[0], decisions[1]), (seconds[0], seconds[1]),
        (slowest[0], slowest[1]),
    )


@dataclass
class ArenaResult:
    """The matches played (by index) and their summary; ``interrupted`` after Ctrl-C, when
    the summary covers the complete pairs played so far."""

    agent_a: str
    agent_b: str
    seed: int
    requested: int
    matches: list[MatchResult]
    interrupted: bool = False

    @property
    def pairs(self) -> list[tuple[MatchResult, MatchResult]]:
        """The complete mirrored pairs, by seed index."""
        by_index = {m.index: m for m in self.matches}
        return [(by_index[i], by_index[i + 1]) for i in range(0, self.requested, 2) if i in by_index and i + 1 in by_index]

    def summary(self) -> dict[str, Any]:
        """Win rate of A with its 95% CI, level points per deal (all points over all deals,
        with the CI of that ratio over pairs), draws, deals, and each side's milliseconds per decision: the mean and the
        slowest decision."""
        pairs = self.pairs
        played = [m for pair in pairs for m in pair]
        scores = [(a.score + b.score) / 2 for a, b in pairs]
        deals = sum(m.deals for m in played)
        pair_points = [a.points + b.points for a, b in pairs]
        pair_deals = [a.deals + b.deals for a, b in pairs]
        decisions = [sum(m.decisions[side] for m in played) for side in (0, 1)]
        seconds = [sum(m.seconds[side] for m in played) for side in (0, 1)]
        return {
            "agent_a": self.agent_a,
            "agent_b": self.agent_b,
            "seed": self.seed,
            "matches": len(played),
            "pairs": len(pairs),
            "interrupted": self.interrupted,
            "wins": sum(m.score == 1 for m in played),
            "draws": sum(m.score == 0.5 for m in played),
            "losses": sum(m.score == 0 for m in played),
            "win_rate": statistics.fmean(scores) if scores else math.nan,
            "win_rate_ci95": paired_interval(scores),
            "deals": deals,
            "points_per_deal": sum(pair_points) / deals if deals else math.nan,
            "points_per_deal_ci95": ratio_interval(pair_points, pair_deals),
            "ms_per_decision": [1000 * s / d if d else math.nan for s, d in zip(seconds, decisions)],
            "max_ms_per_decision": [1000 * max((m.slowest[side] for m in played), default=math.nan) for side in (0, 1)],
        }

    def format(self) -> str:
        s = self.summary()
        low, high = s["win_rate_ci95"]
        plow, phigh = s["points_per_deal_ci95"]
        lines = [
            (
                f"{s['agent_a']} (A) vs {s['agent_b']} (B), seed {s['seed']}: {s['matches']} matches "
                f"({s['pairs']} seat-swapped pairs), {s['deals']} deals"
                + (f" — interrupted, {len(self.matches)} of {self.requested} matches played" if self.interrupted else "")
            ),
            f"  A wins {s['wins']}, draws {s['draws']}, loses {s['losses']}",
            f"  win rate of A: {s['win_rate']:.3f}  95% CI [{low:.3f}, {high:.3f}]",
            f"  level points per deal (A): {s['points_per_deal']:+.3f}  95% CI [{plow:+.3f}, {phigh:+.3f}]",
            (
                f"  ms per decision: A {s['ms_per_decision'][0]:.3f}, B {s['ms_per_decision'][1]:.3f}"
                f" (slowest: A {s['max_ms_per_decision'][0]:.1f}, B {s['max_ms_per_decision'][1]:.1f})"
            ),
        ]
        return "\n".join(lines)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval, normal (NaN with fewer than two values)."""
    n = len(values)
    mean = statistics.fmean(values) if n else math.nan
    half = Z95 * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.nan
    return mean, mean - half, mean + half


def paired_interval(values: Sequence[float]) -> tuple[float, float]:
    """95% interval of the mean of ``values``, rates in [0, 1] (one per pair): normal; when
    they are all equal, the Wilson interval with n = the number of pairs (NaN with no pairs)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan)
    mean = statistics.fmean(values)
    spread = statistics.stdev(values) if n > 1 else 0.0
    if spread == 0:
        return wilson_interval(mean, n)
    half = Z95 * spread / math.sqrt(n)
    return (max(0.0, mean - half), min(1.0, mean + half))


def ratio_interval(numerators: Sequence[float], denominators: Sequence[float]) -> tuple[float, float]:
    """95% interval of ``sum(numerators) / sum(denominators)`` (one of each per pair, e.g. level
    points and deals): the ratio's normal interval by the delta method, from the spread of
    ``numerator - ratio * denominator`` over the pairs — the interval of the ratio reported,
    not of the mean of per-pair ratios, which weighs a short pair as much as a long one (NaN
    with fewer than two pairs or no denominator)."""
    n = len(numerators)
    if len(denominators) != n:
        raise ValueError(f"ratio_interval needs one denominator per numerator, not {len(denominators)} for {n}")
    total = sum(denominators)
    if n < 2 or total <= 0:
        return (math.nan, math.nan)
    ratio = sum(numerators) / total
    residuals = [x - ratio * d for x, d in zip(numerators, denominators)]
    half = Z95 * statistics.stdev(residuals) / math.sqrt(n) / (total / n)
    return (ratio - half, ratio + half)


def wilson_interval(rate: float, n: int) -> tuple[float, float]:
    z2 = Z95 * Z95
    centre = (rate + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_matches(
    agent_a: AgentSpec,
    agent_b: AgentSpec,
    matches: int,
    seed: int = 0,
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    rules: Rules | None = None,
    progress: bool = False,
) -> ArenaResult:
    """Play ``matches`` matches (an even number: seat-swapped pairs on the same cards)
    between A and B; see the module docstring for the seeds and the interval.

    ``workers``: local processes (default: one per CPU; 1 plays here, in this process);
    ``ray_address``: run on Ray instead (``"local"``, ``"auto"`` or an address). Ctrl-C
    stops the run and returns what was played, with ``interrupted`` set."""
    options = RunOptions(workers=workers, ray_address=ray_address, rules=rules, progress=progress)
    (result,) = play_arenas([(agent_a, agent_b)], matches, seed, options)
    return result


class RunOptions(TypedDict):
    """Where and how an arena runs: :func:`play_matches`'s keyword arguments."""

    workers: int | None
    ray_address: str | None
    rules: Rules | None
    progress: bool


def play_arenas(
    pairings: Sequence[tuple[AgentSpec, AgentSpec]], matches: int, seed: int, options: RunOptions
) -> list[ArenaResult]:
    """:func:`play_matches` for several ``(A, B)`` pairings in one run, on the same seed (so
    on the same cards), their matches interleaved (match 0 of each, then match 1, ...) so
    that they share the workers and the machine's load alike, and an interruption leaves
    them equally far; ``options`` are :func:`play_matches`'s keyword arguments."""
    rules = options["rules"]
    matches = check_positive(matches, "the number of matches")
    if matches % 2:
        raise ValueError(f"the number of matches must be even (seat-swapped pairs), not {matches}")
    seed = as_index(seed, "the arena seed must be an integer")  # a numpy integer seeds the same matches as its int
    for pairing in pairings:
        if len(pairing) != 2:
            raise ValueError(f"a pairing is two agents (A, B), not {len(pairing)}")
        for spec in pairing:  # fail here, not in a worker
            build_agent(spec, 0)
    if rules is not None and not isinstance(rules, Rules):
        raise TypeError(f"rules must be a guandan_fast.Rules, not {type(rules).__name__}")
    results = [ArenaResult(agent_label(a), agent_label(b), seed, matches, []) for a, b in pairings]
    bar = ProgressBar(matches * len(pairings)) if options["progress"] else None
    if bar is not None:
        each = " each" if len(pairings) > 1 else ""
        bar.set_label(" / ".join(f"{r.agent_a} vs {r.agent_b}" for r in results) + f": {matches} matches{each}")
    tasks = [(a, b, seed, index, rules) for index in range(matches) for a, b in pairings]
    interrupted = False
    try:
        runs = run_tasks(play_match, tasks, workers=options["workers"], ray_address=options["ray_address"])
        with closing(runs) as done:
            for task, match in done:
                results[task % len(pairings)].matches.append(match)
                if bar is not None:
                    bar.tick()
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar is not None:
            bar.close()
    for result in results:
        result.interrupted = interrupted
        result.matches.sort(key=lambda m: m.index)
    return results
