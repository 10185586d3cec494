"""Random playouts (Deal.playout, Deal.playouts, random_deals): determinism, validity, and
agreement with the Python rules (replay through Deal.step; exact distribution)."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import pytest

from guandan_fast import Hand
from guandan_fast.game import NATIVE_PLAYOUT, Deal, random_deals

native = pytest.mark.skipif(not NATIVE_PLAYOUT, reason="the native _playout extension is not built")


def is_order(row: Any) -> bool:
    return sorted(int(seat) for seat in row) == [0, 1, 2, 3]


def mid_deal(seed: int, plays: int, *, level: int = 2, previous: list[int] | None = None) -> Deal:
    """A deal advanced by ``plays`` random actions (it may still be in the tribute phase)."""
    deal = Deal.random(seed=seed, level=level, previous_finish=previous)
    rng = random.Random(seed)
    for _ in range(plays):
        if deal.phase == "done":
            break
        actions = deal.legal_actions()
        deal.step(actions[rng.randrange(len(actions))])
    return deal


def replay(deal: Deal, actions: list[tuple[int, list[Any]]]) -> Deal:
    """Replay a playout's actions through Deal.step, each one checked against legal_actions."""
    copy = deal.clone()
    total = sum(len(hand) for hand in copy.hands)
    played = Hand()
    for seat, action in actions:
        assert copy.to_act == seat
        assert action in copy.legal_actions()
        copy.step(action)
        if action[0] not in ("PASS", "tribute", "back"):
            played = played.add(action[2])
        assert sum(len(hand) for hand in copy.hands) + len(played) == total
    assert copy.phase == "done"
    return copy


def test_playout_is_deterministic_and_leaves_the_deal_alone() -> None:
    deal = mid_deal(1, 10)
    before = (deal.hands, deal.history, deal.to_act, deal.phase)
    first = deal.playout(42, record=True)
    assert deal.playout(42, record=True) == first
    assert (deal.hands, deal.history, deal.to_act, deal.phase) == before
    assert is_order(first[0]) and deal.playout(42) == first[0]
    orders = {tuple(deal.playout(seed)) for seed in range(60)}
    assert len(orders) > 3  # different seeds, different games


def test_playout_replays_through_deal_step() -> None:
    """Every native action is legal for the Python Deal and leads to the same finish."""
    count = 0
    for number in range(100):
        previous = [0, 1, 2, 3] if number % 3 == 0 else ([1, 3, 0, 2] if number % 3 == 1 else None)
        deal = mid_deal(number, [0, 0, 3, 25, 60][number % 5], level=2 + number % 13, previous=previous)
        for seed in range(3):
            finish, actions = deal.playout(seed, record=True)
            assert replay(deal, actions).finish_order == finish
            count += 1
    assert count == 300


def test_batch_equals_single_playouts() -> None:
    deal = mid_deal(3, 7)
    batch = deal.playouts(25, seed=1000)
    assert batch.shape == (25, 4) and batch.dtype == np.int8
    assert [list(row) for row in batch.tolist()] == [deal.playout(1000 + i) for i in range(25)]
    assert deal.playouts(0).shape == (0, 4)
    tribute = Deal.random(seed=4, previous_finish=[0, 1, 2, 3])
    assert tribute.phase == "tribute"
    assert [list(row) for row in tribute.playouts(5, seed=9).tolist()] == [tribute.playout(9 + i) for i in range(5)]


def test_playouts_of_a_finished_deal_return_its_order() -> None:
    deal = Deal.start(["S3", "S4", "S5", "S6 S7"], 2, leader=0)
    for card in ("S3", "S4", "S5"):
        deal.step(["Single", card[1], [card]])
    assert deal.playout(1) == deal.finish_order == [0, 1, 2, 3]
    assert deal.playouts(2).tolist() == [[0, 1, 2, 3]] * 2


def test_bad_playout_arguments() -> None:
    deal = mid_deal(1, 0)
    with pytest.raises(ValueError):
        deal.playout(-1)
    with pytest.raises(ValueError):
        deal.playout(1 << 64)
    with pytest.raises(TypeError):
        deal.playout("7")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        deal.playouts(2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        deal.playouts(-1)


def test_python_fallback_policy_replays() -> None:
    deal = mid_deal(5, 4)
    finish, actions = deal._python_playout(3, True)
    assert replay(deal, actions).finish_order == finish
    assert deal._python_playout(3, False)[0] == finish


# ---------------------------------------------------------------------------------------------
# The native policy against the exact distribution the Python rules imply
# ---------------------------------------------------------------------------------------------
def exact_distribution(deal: Deal) -> dict[tuple[int, ...], Fraction]:
    """The exact distribution of finishing orders under uniformly random legal actions,
    computed through the Python Deal (memoised on the public state)."""

    @cache
    def solve(key: Any) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        state = states[key]
        if state.phase == "done":
            return ((tuple(state.finish_order), Fraction(1)),)
        actions = state.legal_actions()
        total: dict[tuple[int, ...], Fraction] = {}
        for action in actions:
            child = state.clone()
            child.step(action)
            child_key = key_of(child)
            states.setdefault(child_key, child)
            for order, p in solve(child_key):
                total[order] = total.get(order, Fraction(0)) + p / len(actions)
        return tuple(total.items())

    def key_of(state: Deal) -> Any:
        last = state.last_move
        return (
            state.hands,
            state.to_act,
            None if last is None else (last.kind, last.key, last.cards),
            state.last_seat,
            tuple(state.finish_order),
            state.phase,
            state._passes,
        )

    states: dict[Any, Deal] = {}
    root = key_of(deal)
    states[root] = deal
    return dict(solve(root))


@native
@pytest.mark.parametrize(
    ("hands", "level", "leader"),
    [
        (["S3 S4 D4", "S6 D6 S7", "H2 S9", "ST SJ HJ"], 2, 0),  # a wildcard, pairs
        (["S9", "C5 C5 D5 D5 S2", "S7 S8", "ST HT"], 2, 0),  # 接风 and a bomb
        (["SB HR", "H7 S3 S4", "SA SA", "C6 D6 HK"], 7, 2),  # jokers, the level rank
    ],
)
def test_native_playouts_follow_the_exact_distribution(hands: list[str], level: int, leader: int) -> None:
    deal = Deal.start(hands, level, leader=leader)
    exact = exact_distribution(deal)
    assert abs(sum(exact.values()) - 1) == 0
    n = 40_000
    rows = deal.playouts(n, seed=77)
    counts: dict[tuple[int, ...], int] = {}
    for row in map(tuple, rows.tolist()):
        counts[row] = counts.get(row, 0) + 1
    assert set(counts) <= set(exact)
    chi2 = sum((counts.get(order, 0) - n * float(p)) ** 2 / (n * float(p)) for order, p in exact.items())
    dof = len(exact) - 1
    assert chi2 < dof + 6 * (2 * dof) ** 0.5 + 10, (chi2, dof)


# ---------------------------------------------------------------------------------------------
# Whole random deals in native code
# ---------------------------------------------------------------------------------------------
@native
def test_random_deals() -> None:
    rows = random_deals(2000, seed=5, level="7")
    assert rows.shape == (2000, 4)
    assert all(is_order(row) for row in rows.tolist())
    assert np.array_equal(rows, random_deals(2000, seed=5, level=7))
    assert np.array_equal(rows[10:20], random_deals(10, seed=15, level=7))
    firsts = np.bincount(rows[:, 0], minlength=4)
    assert firsts.min() > 350  # every seat finishes first about a quarter of the time
    with pytest.raises(ValueError):
        random_deals(-1)
    with pytest.raises(ValueError):
        random_deals(1, level=15)


@native
def test_playouts_run_in_parallel_threads() -> None:
    """The native batch releases the GIL and shares no state: threads give the same rows."""
    from concurrent.futures import ThreadPoolExecutor

    deal = mid_deal(8, 5)
    expected = [deal.playouts(300, seed=1000 * k) for k in range(4)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda k: deal.playouts(300, seed=1000 * k), range(4)))
    assert all(np.array_equal(a, b) for a, b in zip(expected, got))
    with ThreadPoolExecutor(max_workers=2) as pool:
        deals = list(pool.map(lambda k: random_deals(500, seed=k), (1, 2)))
    assert np.array_equal(deals[0], random_deals(500, seed=1))
