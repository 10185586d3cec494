"""World sampling speed on a mid-deal position: ``pytest benchmarks/bench_infoset.py``.

* ``infoset.sample_hands``: worlds as planes, drawn in native code (µs per world);
* ``Deal.sample_worlds``: the same worlds as ``Deal`` objects (``with_hands`` per world);
* ``Deal.sample_world``: one world per Python call.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import GAME_SPEED

from guandan_fast import Deal
from guandan_fast.search import infoset

BATCH = 1000


@pytest.fixture(scope="module")
def mid_deal() -> Deal:
    """A deal 40 random actions in: about a third of the cards played."""
    deal = Deal.random(seed=4)
    rng = random.Random(4)
    for _ in range(40):
        deal.step(rng.randrange(len(deal.legal_actions())))
    return deal


def _per_world(benchmark: Any, count: int, label: str) -> None:
    if benchmark.stats is None:  # --benchmark-disable
        return
    each = benchmark.stats.stats.median / count * 1e6
    benchmark.extra_info["us_per_world"] = round(each, 2)
    GAME_SPEED[label] = f"{each:.2f} µs per world"


def test_sample_hands_native(benchmark: Any, mid_deal: Deal) -> None:
    seeds = iter(range(0, 1 << 40, BATCH))
    planes = benchmark(lambda: infoset.sample_hands(mid_deal, 0, BATCH, next(seeds)))
    assert planes.shape == (BATCH, 4, 2)
    _per_world(benchmark, BATCH, "infoset.sample_hands (mid-deal, planes)")


def test_sample_worlds_as_deals(benchmark: Any, mid_deal: Deal) -> None:
    seeds = iter(range(0, 1 << 40, 100))
    worlds = benchmark(lambda: mid_deal.sample_worlds(0, 100, next(seeds)))
    assert len(worlds) == 100
    _per_world(benchmark, 100, "Deal.sample_worlds (mid-deal, Deal objects)")


def test_sample_world_single_calls(benchmark: Any, mid_deal: Deal) -> None:
    seeds = iter(range(1 << 40))
    world = benchmark(lambda: mid_deal.sample_world(1, next(seeds)))
    assert world.cards_left() == mid_deal.cards_left()
    _per_world(benchmark, 1, "Deal.sample_world (one per call)")
