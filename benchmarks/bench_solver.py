"""min_plays speed on dealt 27-card hands: ``pytest benchmarks/bench_solver.py``.

* ``min_plays`` over a fixed set of dealt hands (Hand objects, and card strings: the
  form users pass), the mean per hand from pytest-benchmark;
* the median and worst hand, each hand timed alone (best of three calls), printed in the
  closing summary and kept in ``extra_info``.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import pytest
from conftest import GAME_SPEED

from guandan_fast.engine.deal import deal_cards
from guandan_fast.search.minplays import min_plays

HANDS = 400


@pytest.fixture(scope="module")
def hands() -> list[tuple[Any, int]]:
    rng = random.Random(2026)
    return [(deal_cards(rng)[rng.randrange(4)], rng.randint(2, 14)) for _ in range(HANDS)]


def test_min_plays_per_hand(benchmark: Any, hands: list[tuple[Any, int]]) -> None:
    counts = benchmark(lambda: [min_plays(hand, level)[0] for hand, level in hands])
    assert len(counts) == HANDS
    times = []
    for hand, level in hands:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            min_plays(hand, level)
            best = min(best, time.perf_counter() - start)
        times.append(best)
    median, worst = statistics.median(times) * 1e6, max(times) * 1e6
    benchmark.extra_info.update(median_us=round(median, 1), worst_us=round(worst, 1))
    GAME_SPEED["min_plays (27-card hands)"] = f"median {median:.0f} µs, worst {worst / 1000:.2f} ms per hand"
    _mean(benchmark, "min_plays (27-card hands), a Hand")


def test_min_plays_card_strings(benchmark: Any, hands: list[tuple[Any, int]]) -> None:
    """The same hands as card strings, the form users pass (after the first round the
    strings are remembered, as for ``legal_moves``; next to a 60 µs solve, reading one is
    noise either way)."""
    texts = [(str(hand), level) for hand, level in hands]
    counts = benchmark(lambda: [min_plays(text, level)[0] for text, level in texts])
    assert counts == [min_plays(hand, level)[0] for hand, level in hands]
    _mean(benchmark, "min_plays (27-card hands), a card string")


def _mean(benchmark: Any, label: str) -> None:
    if benchmark.stats is None:  # --benchmark-disable
        return
    GAME_SPEED[label] = f"mean {benchmark.stats.stats.mean / HANDS * 1e6:.0f} µs per hand"
