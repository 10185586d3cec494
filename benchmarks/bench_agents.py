"""Agent speed, decisions per second: ``pytest benchmarks/bench_agents.py``.

The positions are the decisions of a few deals played by random actions (every phase,
leading and following, early and late), the same for every agent; each agent decides
every position once per round. The closing summary gives decisions/s and ms per decision
for ``random``, ``minplays`` (plain, and with its tactics), ``pimc`` (its default budget,
the 20 ms time cap, and searching at every decision instead of in the endgame only) and
``search`` (its deadlines: 10 ms before the endgame, 50 ms in it), and
deals/s of a whole one-deal arena match between ``minplays`` and ``random``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import GAME_SPEED

from guandan_fast.agents import make_agent
from guandan_fast.arena import play_matches
from guandan_fast.engine.deal import Deal
from guandan_fast.engine.rules import Rules

DEALS = 3


@pytest.fixture(scope="module")
def positions() -> list[Deal]:
    rng, out = random.Random(2026), []
    for seed in range(DEALS):
        deal = Deal.random(seed, level=rng.randint(2, 14), previous_finish=rng.sample(range(4), 4))
        while not deal.done:
            out.append(deal.clone())
            deal.step(rng.randrange(len(deal.legal_actions())))
    return out[::4]  # every fourth decision: a spread of the deal, fewer to time


def _record(benchmark: Any, decisions: int, label: str) -> None:
    if benchmark.stats is None:  # --benchmark-disable
        return
    median = benchmark.stats.stats.median
    benchmark.extra_info["decisions_per_second"] = round(decisions / median, 1)
    GAME_SPEED[label] = f"{decisions / median:,.1f} decisions / s ({median * 1000 / decisions:.2f} ms each)"


@pytest.mark.parametrize(
    "spec",
    [
        ("random", {}),
        ("minplays", {}),
        ("minplays", {"tactics": True}),
        ("pimc", {}),
        ("pimc", {"budget_ms": 20}),
        ("pimc", {"endgame": None}),
        ("search", {}),
    ],
    ids=["random", "minplays", "minplays-tactics", "pimc", "pimc-20ms", "pimc-search-always", "search"],
)
def test_decisions_per_second(benchmark: Any, positions: list[Deal], spec: tuple[str, dict]) -> None:
    name, options = spec

    def decide_all() -> list[int]:
        agent = make_agent(name, seed=0, **options)
        return [agent.act(deal, deal.to_act) for deal in positions]

    # a round first, untimed: the positions' own caches (their legal actions, read once a
    # deal) would otherwise be filled in the first agent's rounds only
    choices = benchmark.pedantic(decide_all, rounds=3, iterations=1, warmup_rounds=1)
    assert len(choices) == len(positions)
    label = name + "".join(f" {k}={v}" for k, v in options.items())
    _record(benchmark, len(positions), f"agent {label}")


def test_arena_deals_per_second(benchmark: Any) -> None:
    result = benchmark.pedantic(
        lambda: play_matches("minplays", "random", 4, seed=1, workers=1, rules=Rules(deal_cap=1)), rounds=2, iterations=1
    )
    assert result.summary()["deals"] == 4
    if benchmark.stats is not None:
        median = benchmark.stats.stats.median
        GAME_SPEED["arena minplays vs random (one process)"] = f"{4 / median:,.1f} deals / s"
