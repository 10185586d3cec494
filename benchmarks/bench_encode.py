"""Encoder speed: native states and action features beside the Python transcription.

Run ``pytest benchmarks/bench_encode.py``. The positions are every play-phase position
(one seat each, in turn) of random matches, tribute deals included; the leads for the
action features are the opening leads of fresh random deals (about 760 moves each), their
move lists generated beforehand (generation is the move generator's benchmark). The
closing summary shows the median µs per state or per call, states per second, the best
round (a guide on a busy machine), and the median speed-up over the plain-Python
transcription of DanZero's client (``tests/danzero_reference.py``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import ENCODE_SPEED

from guandan_fast import Deal, Match
from guandan_fast.encode import action_features, state, states

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from danzero_reference import reference_state

POSITIONS = 2000
REFERENCE_POSITIONS = 100
LEADS = 50
#: Plays before a position counts as late in its deal.
LATE = 100
#: Median seconds per state of this session, by label (for the speed-up line).
MEDIANS: dict[str, float] = {}


def _positions(count: int, seed: int = 0) -> list[tuple[Deal, int]]:
    positions: list[tuple[Deal, int]] = []
    match, rng = Match(seed), random.Random(seed)
    while len(positions) < count:
        if match.over:
            seed += 1
            match, rng = Match(seed), random.Random(seed)
        deal = match.deal
        if deal.phase == "play":
            positions.append((deal.clone(), len(positions) % 4))
        match.step(rng.randrange(len(deal.legal_actions())))
    return positions


@pytest.fixture(scope="module")
def positions() -> list[tuple[Deal, int]]:
    return _positions(POSITIONS)


def _report(benchmark: Any, label: str, count: int) -> None:
    if benchmark.stats is None:  # --benchmark-disable
        return
    each = benchmark.stats.stats.median / count
    best = benchmark.stats.stats.min / count
    MEDIANS[label] = each
    benchmark.extra_info["us_each"] = round(each * 1e6, 3)
    ENCODE_SPEED[label] = f"{each * 1e6:8.2f} µs each, {1 / each:12,.0f} / s  (best round {best * 1e6:.2f} µs)"
    reference = MEDIANS.get("state danzero: Python transcription")
    native = MEDIANS.get("state danzero: native, one call each")
    if reference and native:
        ENCODE_SPEED["state danzero: native vs transcription"] = f"{reference / native:,.0f}x"


@pytest.mark.parametrize("layout", ["danzero", "full-v1"])
def test_state_single_calls(benchmark: Any, positions: list[tuple[Deal, int]], layout: str) -> None:
    sample = positions[:500]

    def run() -> None:
        for deal, seat in sample:
            state(deal, seat, layout)

    benchmark(run)
    _report(benchmark, f"state {layout}: native, one call each", len(sample))


@pytest.mark.parametrize("layout", ["danzero", "full-v1"])
def test_state_late_in_deals(benchmark: Any, positions: list[tuple[Deal, int]], layout: str) -> None:
    """Positions after 100 or more plays: the full layout's history must not cost more late."""
    sample = [(deal, seat) for deal, seat in positions if len(deal.plays) >= LATE][:300]
    assert len(sample) >= 100

    def run() -> None:
        for deal, seat in sample:
            state(deal, seat, layout)

    benchmark(run)
    _report(benchmark, f"state {layout}: native, after {LATE}+ plays", len(sample))


def test_state_transcription(benchmark: Any, positions: list[tuple[Deal, int]]) -> None:
    sample = positions[:REFERENCE_POSITIONS]

    def run() -> None:
        for deal, seat in sample:
            reference_state(deal, seat)

    benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    _report(benchmark, "state danzero: Python transcription", len(sample))


@pytest.mark.parametrize("layout", ["danzero", "full-v1"])
def test_states_batch(benchmark: Any, positions: list[tuple[Deal, int]], layout: str) -> None:
    deals = [deal for deal, _ in positions]
    seats = [seat for _, seat in positions]
    out = benchmark(states, deals, seats, layout)
    assert out.shape[0] == len(deals)
    _report(benchmark, f"states {layout}: native batch", len(deals))


@pytest.mark.parametrize("layout", ["danzero", "full-v1"])
def test_action_features_of_a_lead(benchmark: Any, layout: str) -> None:
    leads = [Deal.random(seed) for seed in range(LEADS)]
    moves = sum(len(deal.legal_actions()) for deal in leads)  # generates and caches the lists

    def run() -> None:
        for deal in leads:
            action_features(deal, layout)

    benchmark(run)
    _report(benchmark, f"action_features {layout}: a lead ({moves / LEADS:.0f} moves)", LEADS)
