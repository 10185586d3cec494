"""Game speed: native random playouts, and one turn of a deal driven from Python.

Run ``pytest benchmarks/bench_playout.py``. Each benchmark puts its headline figure in
``extra_info`` (shown with ``--benchmark-json`` or ``--benchmark-columns``) and in the
closing summary:

* ``random_deals``: complete random deals (shuffle, play) entirely in C, per second;
* ``deal.playouts``: the rest of a fresh 27-card deal, a batch from Python, per second;
* ``deal.playout``: one playout per Python call (the per-call overhead included);
* ``deal.playouts(1, policy="tactics")`` from a new endgame position each call (≤ 6 cards a
  seat), what an MCTS's leaf evaluations do;
* ``world_playouts``: the search's rollouts, the tactics rules for all four seats, from the
  first lead of dealt hands in sampled worlds after each of the first candidates, per second;
* ``turn``: ``legal_actions()`` + ``step(action)`` from Python, µs per turn, over whole
  random deals (and the same with ``legal_moves()`` + ``step(index)``).

All on one core (the playouts run in one thread).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import GAME_SPEED

from guandan_fast.engine.deal import Deal
from guandan_fast.search.infoset import sample_hands
from guandan_fast.search.playout import random_deals

BATCH = 200


def _per_second(benchmark: Any, count: int, label: str) -> None:
    if benchmark.stats is None:  # --benchmark-disable
        return
    median = benchmark.stats.stats.median
    rate = count / median
    benchmark.extra_info["per_second"] = round(rate)
    GAME_SPEED[label] = f"{rate:,.0f} / s (median {median * 1e6 / count:.1f} µs each)"


def test_random_deals_native(benchmark: Any) -> None:
    seeds = iter(range(0, 1 << 40, BATCH))
    rows = benchmark(lambda: random_deals(BATCH, next(seeds)))
    assert rows.shape == (BATCH, 4)
    _per_second(benchmark, BATCH, "random_deals (full deals, all in C)")


def test_deal_playouts_batch(benchmark: Any) -> None:
    deal = Deal.random(seed=1)
    seeds = iter(range(0, 1 << 40, BATCH))
    rows = benchmark(lambda: deal.playouts(BATCH, next(seeds)))
    assert rows.shape == (BATCH, 4)
    _per_second(benchmark, BATCH, "deal.playouts (full deal from Python, batch)")


def test_world_rollouts_of_the_rules(benchmark: Any) -> None:
    deals = [Deal.random(seed=seed) for seed in range(12)]
    for deal in deals:
        while deal.phase != "play":
            deal.step(0)
    cases = [(deal, sample_hands(deal, deal.current_seat, 16, seed), list(range(min(8, len(deal.legal_actions())))))
             for seed, deal in enumerate(deals)]

    def run() -> int:
        # one finishing order (the last axis) per world, action and playout
        return sum(deal.world_playouts(worlds, actions, 1, 0, policy="tactics").size // 4 for deal, worlds, actions in cases)

    rollouts = benchmark(run)
    assert rollouts == sum(len(worlds) * len(actions) for _, worlds, actions in cases)
    _per_second(benchmark, rollouts, "world_playouts (tactics rollouts from the first lead)")


def test_deal_playout_single_calls(benchmark: Any) -> None:
    deal = Deal.random(seed=2)
    seeds = iter(range(1 << 40))

    def run() -> None:
        for _ in range(50):
            deal.playout(next(seeds))

    benchmark(run)
    _per_second(benchmark, 50, "deal.playout (one call per full deal)")


def _endgames(count: int) -> list[Deal]:
    """Distinct endgame positions (every seat in play with at most 6 cards), all levels,
    reached by the tactics rules from dealt hands."""
    from guandan_fast.agents import MinPlaysAgent

    rules, out, seed = MinPlaysAgent(tactics=True), [], 0
    while len(out) < count:
        deal = Deal.random(seed, level=2 + seed % 13)
        seed += 1
        while not deal.done and (deal.phase != "play" or max(deal.cards_left()) > 6):
            deal.step(rules.act(deal, deal.current_seat))
        if not deal.done:
            out.append(deal)
    return out


def test_rules_playout_per_endgame_position(benchmark: Any) -> None:
    """One tactics playout per call from each of 100 endgame positions never played before in
    the run (an MCTS's leaf evaluations): each round gets new positions, so what a call keeps
    for the next (its policy's memory of the level's hands) is not flattered by repeats."""
    rounds = 5
    pool = iter(_endgames(100 * (rounds + 1)))

    def next_positions() -> tuple[tuple[list[Deal]], dict[str, Any]]:
        return ([next(pool) for _ in range(100)],), {}

    def run(positions: list[Deal]) -> None:
        for deal in positions:
            deal.playouts(1, 0, policy="tactics")

    benchmark.pedantic(run, setup=next_positions, rounds=rounds, warmup_rounds=1)
    _per_second(benchmark, 100, "deal.playouts(1, policy='tactics'), one call per new endgame position")


def _turns(deal: Deal, seed: int, *, by_index: bool) -> int:
    rng = random.Random(seed)
    turns = 0
    while deal.phase != "done":
        if by_index:
            count = len(deal.legal_moves()) + deal.following
            deal.step(rng.randrange(count))
        else:
            actions = deal.legal_actions()
            deal.step(actions[rng.randrange(len(actions))])
        turns += 1
    return turns


@pytest.mark.parametrize("by_index", [False, True], ids=["legal_actions+step", "legal_moves+step_index"])
def test_turn_from_python(benchmark: Any, by_index: bool) -> None:
    starts = [Deal.random(seed=seed) for seed in range(8)]
    counter = iter(range(1 << 40))
    turns: list[int] = []

    def setup() -> tuple[tuple[Deal, int], dict[str, Any]]:
        number = next(counter)
        return (starts[number % len(starts)].clone(), number), {}

    def run(deal: Deal, number: int) -> None:
        turns.append(_turns(deal, number, by_index=by_index))

    benchmark.pedantic(run, setup=setup, rounds=40, warmup_rounds=2)
    if benchmark.stats is None:
        return
    per_turn = benchmark.stats.stats.median / (sum(turns) / len(turns))
    benchmark.extra_info["us_per_turn"] = round(per_turn * 1e6, 2)
    label = "legal_actions() + step(action)" if not by_index else "legal_moves() + step(index)"
    GAME_SPEED[f"turn: {label}"] = f"{per_turn * 1e6:.1f} µs per turn ({sum(turns) / len(turns):.0f} turns a deal)"
