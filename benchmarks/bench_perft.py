"""perft speed: ``pytest benchmarks/bench_perft.py``.

* ``gf.perft(Deal.random(seed=1), 3)`` (4,303,049 leaves: the docs/c-api.md example) and
  to depth 4 (36,456,618), native, one core: leaf nodes per second (the last ply bulk
  counted: its actions are counted, not made);
* in the same run, the Python count of the same depth-3 tree over ``Deal.clone()`` /
  ``step()``: the plain count (every action stepped, the definition) and the count with the
  same bulk counting (``len(legal_actions())`` at the last ply), each once (seconds); the
  closing summary gives both ratios to the native count.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from conftest import GAME_SPEED

from guandan_fast import Deal, perft

LEAVES = {3: 4_303_049, 4: 36_456_618}
_native_seconds: dict[int, float] = {}


def plain_count(deal: Deal, depth: int) -> int:
    if depth == 0:
        return 1
    if deal.done:
        return 0
    total = 0
    for index in range(len(deal.legal_actions())):
        child = deal.clone()
        child.step(index)
        total += plain_count(child, depth - 1)
    return total


def bulk_count(deal: Deal, depth: int) -> int:
    if depth == 0:
        return 1
    if deal.done:
        return 0
    count = len(deal.legal_actions())
    if depth == 1:
        return count
    total = 0
    for index in range(count):
        child = deal.clone()
        child.step(index)
        total += bulk_count(child, depth - 1)
    return total


@pytest.mark.parametrize("depth", [3, 4])
def test_perft_native(benchmark: Any, depth: int) -> None:
    deal = Deal.random(seed=1)
    count = benchmark.pedantic(perft, args=(deal, depth), rounds=5 if depth == 3 else 2, warmup_rounds=1)
    assert count == LEAVES[depth]
    if benchmark.stats is None:  # --benchmark-disable
        return
    seconds = benchmark.stats.stats.median
    _native_seconds[depth] = seconds
    benchmark.extra_info["leaves_per_second"] = round(count / seconds)
    GAME_SPEED[f"perft(Deal.random(seed=1), {depth}), native"] = (
        f"{count:,} leaves in {seconds * 1e3:.0f} ms: {count / seconds / 1e6:.0f} M leaves/s"
    )


@pytest.mark.parametrize("count", [plain_count, bulk_count], ids=["plain", "bulk"])
def test_perft_python(benchmark: Any, count: Any) -> None:
    """The same depth-3 tree counted in Python, once (skipped when benchmarks are disabled:
    it takes seconds)."""
    deal = Deal.random(seed=1)
    if benchmark.disabled:
        assert count(deal, 2) == perft(deal, 2)
        return
    start = time.perf_counter()
    leaves = benchmark.pedantic(count, args=(deal, 3), rounds=1, iterations=1)
    seconds = time.perf_counter() - start
    assert leaves == LEAVES[3]
    native = _native_seconds.get(3)
    ratio = f", {seconds / native:,.0f}x the native time" if native else ""
    what = "every action stepped" if count is plain_count else "last ply counted"
    GAME_SPEED[f"perft(Deal.random(seed=1), 3), Python ({what})"] = (
        f"{seconds:.1f} s: {leaves / seconds / 1e6:.2f} M leaves/s{ratio}"
    )
