"""Solver speed, one core: ``pytest benchmarks/bench_solve.py``.

Positions cut from real deals: ``Deal.random(seed)`` played by the MinPlays rules (its
recorded playout replayed), the first position where no seat holds more than N cards
(seeds ``0 .. GUANDAN_BENCH_SOLVE_SEEDS - 1``, default 200; the deals that end first give
none).

* N = 4, 6, 8, 10: ``gf.solve(deal)`` ("points") on each position of the set, stopped at
  10 s (the pytest-benchmark figure: the whole set, mean per round). The closing summary
  and ``extra_info``: the median per position (each solved alone, best of 3 under 50 ms),
  the 90th percentile, the worst, how many stopped at 10 s, nodes per second, and on the first 30 positions, where it
  finishes within 1 s, the median of a plain minimax in Python over ``Deal.clone()``/``step()`` (no
  pruning; a memo of the positions seen) against the solver's on the same positions;
* the reach: N = 10, 12, ... 20 (``GUANDAN_BENCH_SOLVE_REACH_SEEDS`` seeds, default 60),
  each position solved alone with ``time_ms=2000`` (a stopped one counts as 2 s): the
  median per N, and the largest N whose median is within 1 s.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any

import pytest
from conftest import GAME_SPEED
from workload import endgame

from guandan_fast import Deal, solve

SEEDS = int(os.environ.get("GUANDAN_BENCH_SOLVE_SEEDS", "200"))
REACH_SEEDS = int(os.environ.get("GUANDAN_BENCH_SOLVE_REACH_SEEDS", "60"))
#: The plain minimax tries the first positions of a set, and gives up on one after this long.
PLAIN_POSITIONS = 30
PLAIN_SECONDS = 1.0
#: A solve of the reach stops after this long (it then counts as that long).
REACH_MS = 2000.0
#: A solve of the endgame sets stops after this long (a few 10-card positions take minutes);
#: it then counts as that long, and the summary says how many stopped.
LIMIT_MS = 10_000.0


def endgames(cards: int, seeds: int) -> list[Deal]:
    found = (endgame(seed, cards) for seed in range(seeds))
    return [deal for deal in found if deal is not None and not deal.done]


class GaveUp(Exception):
    pass


def plain_minimax(deal: Deal, deadline: float) -> int:
    """The value for the team to act by plain minimax (every action played out; a memo of
    the positions seen, keyed by what the deal shows), "points"."""
    memo: dict[Any, int] = {}

    def value(position: Deal, passes: int) -> int:
        last = position.last_move
        key = (
            position.hands,
            position.current_seat,
            None if last is None else (int(last.kind), last.key, last.cards.once, last.cards.twice),
            position.last_seat,
            tuple(position.finish_order),
            passes,
        )
        if key in memo:
            return memo[key]
        if time.perf_counter() > deadline:
            raise GaveUp
        team = position.current_seat % 2
        following = position.following
        best = -4
        for index in range(len(position.legal_actions())):
            child = position.clone()
            child.step(index)
            if child.done:
                result = child.result(team)
                assert result is not None
                v = result
            else:
                v = value(child, passes + 1 if following and index == 0 else 0)
                v = v if child.current_seat % 2 == team else -v
            best = max(best, v)
        memo[key] = best
        return best

    return value(deal, 0)


def timed(deal: Deal, repeat: int = 3, **limits: Any) -> tuple[float, Any]:
    """The best of up to ``repeat`` solves (one when it takes 50 ms or more), in seconds,
    and the solution."""
    best = float("inf")
    solution = None
    for _ in range(repeat):
        start = time.perf_counter()
        solution = solve(deal, **limits)
        best = min(best, time.perf_counter() - start)
        if best >= 0.05:
            break
    return best, solution


def solve_all(deals: list[Deal]) -> int:
    return sum(solve(deal, time_ms=LIMIT_MS).nodes for deal in deals)


@pytest.mark.parametrize("cards", [4, 6, 8, 10])
def test_solve_endgames(benchmark: Any, cards: int) -> None:
    deals = endgames(cards, SEEDS if not benchmark.disabled else 12)
    assert deals
    nodes = benchmark.pedantic(solve_all, args=(deals,), rounds=3 if cards < 10 else 1, warmup_rounds=0)
    assert nodes > 0
    if benchmark.disabled:
        return
    alone = []
    searched = stopped = 0
    for deal in deals:
        seconds, solution = timed(deal, time_ms=LIMIT_MS)
        assert solution.exact or solution.stopped == "time_ms"
        stopped += not solution.exact
        alone.append(seconds)
        searched += solution.nodes
    times = sorted(alone)
    median = statistics.median(times)
    plain = []
    for deal, seconds in list(zip(deals, alone))[:PLAIN_POSITIONS]:
        start = time.perf_counter()
        try:
            value = plain_minimax(deal, start + PLAIN_SECONDS)
        except GaveUp:
            continue
        plain.append((time.perf_counter() - start, seconds))
        assert value == solve(deal).value  # the plain minimax finished: the solver does too
    info = {
        "positions": len(deals),
        "median_ms": round(median * 1e3, 4),
        "p90_ms": round(times[int(0.9 * len(times))] * 1e3, 3),
        "worst_ms": round(times[-1] * 1e3, 1),
        "stopped_at_limit": stopped,
        "nodes_per_second": round(searched / sum(times)),
        "plain_finished": len(plain),
    }
    line = (
        f"{len(deals)} positions: median {median * 1e3:.3f} ms, p90 {info['p90_ms']} ms, worst {info['worst_ms']} ms"
        f" ({stopped} stopped at {LIMIT_MS / 1e3:.0f} s), {info['nodes_per_second'] / 1e6:.1f} M nodes/s"
    )
    if plain:
        plain_median = statistics.median(p for p, _ in plain)
        solver_median = statistics.median(s for _, s in plain)
        info["plain_median_ms"] = round(plain_median * 1e3, 2)
        line += (
            f"; plain minimax finished {len(plain)} in {PLAIN_SECONDS:.0f} s, median {plain_median * 1e3:.1f} ms"
            f" (solver {solver_median * 1e3:.3f} ms on those)"
        )
    else:
        line += f"; plain minimax finished none in {PLAIN_SECONDS:.0f} s"
    benchmark.extra_info.update(info)
    GAME_SPEED[f"solve, <= {cards} cards per seat"] = line


def reach_medians(seeds: int, limit_ms: float, sizes: range = range(10, 21, 2)) -> dict[int, float]:
    """The median seconds of a solve at each size of ``sizes`` (cards per seat) on the
    endgames of ``seeds`` deals (a solve stopped at ``limit_ms`` counts as that), up to the
    first size whose median passes 1 s."""
    medians = {}
    for cards in sizes:
        deals = endgames(cards, seeds)
        assert deals, cards
        times = []
        for deal in deals:
            seconds, solution = timed(deal, 1, time_ms=limit_ms)
            times.append(seconds if solution.exact else limit_ms / 1e3)
        medians[cards] = statistics.median(times)
        if medians[cards] > 1.0:
            break
    return medians


def test_solve_reach(benchmark: Any) -> None:
    """The largest N whose median solve is within 1 s (run once, untimed by pytest-benchmark)."""
    if benchmark.disabled:  # the same measurement, small: two sizes of three deals, 20 ms a solve
        medians = reach_medians(3, 20.0, range(10, 13, 2))
        assert list(medians) == [10, 12] and all(0 < median <= 0.02 + 0.5 for median in medians.values())
        return
    medians = reach_medians(REACH_SEEDS, REACH_MS)
    for cards, median in medians.items():
        benchmark.extra_info[f"median_ms_{cards}"] = round(median * 1e3, 2)
    reach = max((cards for cards, median in medians.items() if median <= 1.0), default=None)
    benchmark.extra_info["reach_cards_per_seat"] = reach
    benchmark.pedantic(lambda: None, rounds=1)
    shown = ", ".join(f"{cards}: {median * 1e3:.1f} ms" for cards, median in medians.items())
    GAME_SPEED["solve, reach within 1 s (median)"] = f"{reach} cards per seat (medians {shown})"
