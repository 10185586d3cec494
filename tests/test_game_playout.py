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
from guandan_fast.engine.deal import Deal
from guandan_fast.engine.state import State
from guandan_fast.search.playout import random_deals


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
    for absurd in (2**31, 2**40, 2**62, 2**70):  # refused before any allocation: no MemoryError
        with pytest.raises(ValueError, match="number of playouts"):
            deal.playouts(absurd)
        with pytest.raises(ValueError, match="number of playouts"):
            deal.world_playouts(np.zeros((1, 4, 2), dtype=np.uint64), [0], absurd)
    from guandan_fast.search.infoset import sample_hands

    worlds = sample_hands(deal, deal.to_act, 2, 0)
    with pytest.raises(ValueError, match="more than one call plays"):  # worlds x moves x playouts
        deal.world_playouts(worlds, [0, 0], 2**30)


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
            state._state.passes,
        )

    states: dict[Any, Deal] = {}
    root = key_of(deal)
    states[root] = deal
    return dict(solve(root))


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


# ---------------------------------------------------------------------------------------------
# The native entry points check their arguments themselves
# ---------------------------------------------------------------------------------------------
def native_args(deal: Deal) -> dict[str, Any]:
    """A deal's play state as the keyword arguments of State.position (the tests change
    one value at a time)."""
    state = deal._state
    return {
        "hands": state.hand_planes,
        "level": state.level,
        "to_act": state.to_act,
        "last": state.last,
        "last_seat": state.last_seat,
        "passes": state.passes,
        "finished": state.finish_order,
    }


def call_playout(args: dict[str, Any], seed: Any = 0) -> Any:
    from guandan_fast.search import _playout

    return _playout.playout(State.position(**args), seed=seed)


def call_playouts(args: dict[str, Any], seed: Any = 0, n: Any = 2) -> Any:
    from guandan_fast.search import _playout

    return _playout.playouts(State.position(**args), seed=seed, n=n)


def following_deal() -> Deal:
    """Seat 0 played S3, seat 1 passed: seat 2 follows (a single S3 to beat)."""
    deal = Deal.start(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], 2, leader=0)
    deal.step(["Single", "3", ["S3"]])
    deal.step(["PASS", "PASS", "PASS"])
    return deal


S3, H3, S2 = 1 << 4, 1 << 5, 1 << 0


def hands_with(once: list[Any], twice: list[Any]) -> list[tuple[Any, Any]]:
    return list(zip(once, twice))


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        # the move to beat
        ({"last": (1, 99, S3, 0)}, ValueError, "key of the move to beat"),
        ({"last": (1, 3, S3 | H3, 0)}, ValueError, "do not fit its kind"),  # a pair is no single
        ({"last": (1, 5, S3, 0)}, ValueError, "no reading"),  # S3 is no single 5
        ({"last": (11, 3, S3, 0)}, ValueError, "kind of the move to beat"),
        ({"last": (1, 3, S3)}, ValueError, "kind, key, once, twice"),
        ({"last": None}, ValueError, "last_seat must be -1"),
        ({"last": (1, -1, S3, 0)}, ValueError, "key of the move to beat"),
        ({"last": (1, 3.0, S3, 0)}, TypeError, "key of the move to beat"),
        # levels and seats
        ({"level": 2**40}, ValueError, "level"),
        ({"level": 1}, ValueError, "level"),
        ({"level": 2.0}, TypeError, "level"),
        ({"level": "2"}, TypeError, "level"),
        ({"to_act": 4}, ValueError, "to_act"),
        ({"to_act": -1}, ValueError, "to_act"),
        ({"to_act": True}, TypeError, "bool"),
        ({"to_act": 0}, ValueError, "last_seat"),  # the seat that made the move to beat
        ({"to_act": 3}, ValueError, "seat 2 acts"),  # not the seat after one pass
        ({"last_seat": 9}, ValueError, "last_seat"),
        ({"last_seat": -1}, ValueError, "last_seat"),
        ({"last_seat": 1}, ValueError, "acts"),
        ({"passes": 0}, ValueError, "seat 1 acts"),
        ({"passes": 3}, ValueError, "passes"),  # the trick would have ended
        ({"passes": 4}, ValueError, "passes"),
        ({"passes": 1.0}, TypeError, "passes"),
        # hands
        ({"hands": hands_with([1.7, 0, 0, 0], [0] * 4)}, TypeError, "once"),
        ({"hands": hands_with([0] * 4, [0, 0, 0, 1.0])}, TypeError, "twice"),
        ({"hands": hands_with([1 << 54, 1, 2, 4], [0] * 4)}, ValueError, "once"),
        ({"hands": hands_with([-1, 1, 2, 4], [0] * 4)}, ValueError, "once"),
        ({"hands": hands_with([1, 2, 4], [0] * 3)}, ValueError, "four"),
        ({"hands": [(1, 0, 0)] * 4}, ValueError, "pair of planes"),
        ({"hands": hands_with([1, 1 << 8, 1 << 10, 1 << 12], [2, 0, 0, 0])}, ValueError, "twice within once"),
        # three copies of a card across the four seats (bit 0 is S2, bit 4 is S3, the card played)
        ({"hands": hands_with([S2, S2, S2 | 1 << 10, 1 << 12], [0, S2, 0, 0])}, ValueError, "S2 appears more than twice"),
        ({"hands": hands_with([S3, S3, S3 | 1 << 10, 1 << 12], [0] * 4)}, ValueError, "S3 appears more than twice"),
        # who is out
        ({"finished": [1]}, ValueError, "out"),
        ({"finished": [0.0]}, TypeError, "finished"),
        ({"finished": "0"}, TypeError, "finished"),
        ({"finished": 0}, TypeError, "finished"),
    ],
)
def test_a_state_refuses_positions_no_deal_can_be_in(change: dict[str, Any], error: type[Exception], message: str) -> None:
    args = native_args(following_deal())
    assert (args["to_act"], args["last_seat"], args["passes"], args["last"][0]) == (2, 0, 1, 1)
    call_playout(args)  # the state itself is fine
    args.update(change)
    with pytest.raises(error, match=message):
        State.position(**args)


def test_a_state_refuses_positions_with_seats_out() -> None:
    # an endgame: seat 0 out first, then seat 1 goes out with an unbeaten play
    deal = Deal.start(["", "S5", "S7 S8", "S9 ST"], 2, leader=1, finished=[0])
    deal.step(["Single", "5", ["S5"]])
    args = native_args(deal)
    assert (args["to_act"], args["last_seat"], args["finished"]) == (2, 1, [0, 1])
    call_playout(args)
    changes: list[tuple[dict[str, Any], str]] = [
        ({"finished": [1, 0]}, "last seat to go out"),  # last_seat is out: it went out last
        ({"finished": [0, 2]}, "already over"),
        ({"finished": [0, 1, 2]}, "at most two"),
        ({"finished": [0, 0]}, "at most two"),
        ({"finished": [0, 1], "passes": 2}, "passes"),  # only seats 2 and 3 can answer
        ({"to_act": 0}, "hold cards"),
    ]
    for change, message in changes:
        bad = {**args, **change}
        with pytest.raises(ValueError, match=message):
            State.position(**bad)
    leading = native_args(Deal.start(["", "S5", "S7 S8", "S9 ST"], 2, leader=1, finished=[0]))
    with pytest.raises(ValueError, match="passes must be 0"):
        State.position(**{**leading, "passes": 1})
    with pytest.raises(ValueError, match="out"):
        State.position(**{**leading, "finished": []})


def test_the_native_entry_points_take_a_state() -> None:
    from guandan_fast.search import _playout

    deal = following_deal()
    state = State.position(**native_args(deal))
    assert _playout.playout(state, seed=1) == _playout.playout(deal._state, seed=1)
    for bad in (tuple(native_args(deal).values()), native_args(deal), None, "once", deal):
        with pytest.raises(TypeError, match="State"):
            _playout.playout(bad, seed=1)
        with pytest.raises(TypeError, match="State"):
            _playout.playouts(bad, seed=1, n=2)
    tribute = Deal.random(seed=3, previous_finish=[0, 1, 2, 3])
    with pytest.raises(ValueError, match="play phase"):
        _playout.playout(tribute._state, seed=1)


def test_native_seeds_and_counts() -> None:
    from guandan_fast.search import _playout

    native_module: Any = _playout  # called with wrong argument types on purpose

    args = native_args(following_deal())
    for seed, error in [(-1, ValueError), (1 << 64, ValueError), (1.5, TypeError), ("1", TypeError), (None, TypeError)]:
        with pytest.raises(error, match="seed"):
            call_playout(args, seed=seed)
        with pytest.raises(error, match="seed"):
            call_playouts(args, seed=seed)
        with pytest.raises(error, match="seed"):
            native_module.random_deals(1, seed)
    top = (1 << 64) - 1
    assert call_playout(args, seed=np.uint64(top)) == call_playout(args, seed=top)
    rows = call_playouts(args, seed=top, n=3)  # seeds wrap around: top, 0, 1
    assert rows.tolist() == [list(call_playout(args, seed=s)) for s in (top, 0, 1)]
    for n, error in [(-1, ValueError), (2.0, TypeError), (1 << 70, ValueError), (1 << 31, ValueError)]:
        with pytest.raises(error, match="number of playouts"):
            call_playouts(args, n=n)
        with pytest.raises(error, match="number of deals"):
            native_module.random_deals(n, 0)
    for level, error in [(2**40, ValueError), (15, ValueError), (7.0, TypeError)]:
        with pytest.raises(error, match="level"):
            native_module.random_deals(1, 0, level)
    numpy_args = {**args, "hands": np.array(args["hands"], dtype=np.uint64), "to_act": np.int8(2), "level": np.int64(2)}
    assert call_playout(numpy_args, seed=np.int64(5)) == call_playout(args, seed=5)


def test_native_playout_accepts_every_state_of_real_deals() -> None:
    """The consistency checks accept whatever a Deal can be in, 接风 and endgames included."""
    checked = 0
    for number in range(40):
        if number % 4 == 3:
            deal = Deal.start(["", "S5 S6 S6", "S7 S8 C8", "S9 ST D9"], 2 + number % 13, seed=number, finished=[0])
        else:
            deal = mid_deal(number, 0, level=2 + number % 13)
        rng = random.Random(number)
        while deal.phase != "done":
            if deal.phase == "play":
                call_playout(native_args(deal), seed=number)
                checked += 1
            actions = deal.legal_actions()
            deal.step(actions[rng.randrange(len(actions))])
    assert checked > 2000


# ---------------------------------------------------------------------------------------------
# The greedy rollout policy (Deal.playouts(policy="greedy"))
# ---------------------------------------------------------------------------------------------
def test_greedy_playouts_are_legal_and_draw_nothing() -> None:
    """Every greedy action replays through Deal.step; the seed changes nothing."""
    for number in range(40):
        deal = mid_deal(number, [0, 3, 25, 60][number % 4], level=2 + number % 13)
        if deal.phase == "tribute" or deal.phase == "return":
            continue
        finish, actions = deal.playout(number, record=True, policy="greedy")
        assert replay(deal, actions).finish_order == finish
        assert deal.playout(number + 1, record=True, policy="greedy") == (finish, actions)
        assert deal.playouts(3, seed=number, policy="greedy").tolist() == [finish] * 3
    assert len({tuple(Deal.random(seed=s, level=2).playout(0, policy="greedy")) for s in range(30)}) > 3


def test_greedy_policy_choices() -> None:
    first = lambda deal: deal.playout(0, record=True, policy="greedy")[1][0][1]
    # Leading: the lowest cards in the largest combination, the bomb of fours kept whole.
    lead = Deal.start(["S3 H3 D3 S9 H9 S4 H4 C4 D4 SK", "S5", "S6", "S7"], 2, leader=0)
    assert first(lead) == ["ThreeWithTwo", "3", ["S3", "H3", "D3", "S9", "H9"]]
    # Following an opponent: the cheapest single that splits no pair (the 6s stay whole).
    follow = Deal.start(["S5 D5", "S6 H6 SQ SK", "S7 S8", "S9 ST"], 2, leader=0)
    follow.step(["Single", "5", ["S5"]])
    assert first(follow) == ["Single", "Q", ["SQ"]]
    # Following the partner: pass, unless the move empties the hand.
    partner = Deal.start(["S5 D5", "S3 H4", "SQ SK", "S9 ST"], 2, leader=0)
    partner.step(["Single", "5", ["S5"]])
    partner.step(["PASS", "PASS", "PASS"])
    assert first(partner) == ["PASS", "PASS", "PASS"]
    partner = Deal.start(["S5 D5", "S3 H4", "SK", "S9 ST"], 2, leader=0)
    partner.step(["Single", "5", ["S5"]])
    partner.step(["PASS", "PASS", "PASS"])
    assert first(partner) == ["Single", "K", ["SK"]]
    # Bombing only when an opponent is about to finish (seat 0 holds one card, not seven).
    calm = Deal.start(["S5 D5 S6 S7 S8 S9 ST CT", "S4 H4 C4 D4 S3 SK", "SQ H7 H8 H9", "C9 CJ CQ CK"], 2, leader=0)
    calm.step(["Single", "5", ["S5"]])
    assert first(calm) == ["Single", "K", ["SK"]]
    calm = Deal.start(["S5 D5 S6 S7 S8 S9 ST CT", "S4 H4 C4 D4 S3", "SQ H7 H8 H9", "C9 CJ CQ CK"], 2, leader=0)
    calm.step(["Single", "5", ["S5"]])
    assert first(calm) == ["PASS", "PASS", "PASS"]
    threat = Deal.start(["S5 D5", "S4 H4 C4 D4 S3", "SQ H7 H8 H9", "C9 CJ CQ CK"], 2, leader=0)
    threat.step(["Single", "5", ["S5"]])
    assert first(threat) == ["Bomb", "4", ["S4", "H4", "C4", "D4"]]


# ---------------------------------------------------------------------------------------------
# The minplays rollout policy (MinPlaysAgent's rules in native code)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("policy", ["minplays", "tactics"])
def test_minplays_playouts_are_legal_deterministic_and_play_the_rules(policy: str) -> None:
    """Every action replays through Deal.step, the seed changes nothing, and every action
    is the one the rules take in that position: the Python oracle (tests/minplays_rules.py,
    on min_plays) and MinPlaysAgent (which plays the native policy); "tactics" leads
    differently in some positions (counted)."""
    import minplays_rules

    from guandan_fast.agents import MinPlaysAgent

    tactics = policy == "tactics"
    agent, checked, followed, changed = MinPlaysAgent(tactics=tactics), 0, 0, 0
    for number in range(30):
        deal = mid_deal(number, [0, 3, 25, 60][number % 4], level=2 + number % 13)
        if deal.phase != "play":
            continue
        finish, actions = deal.playout(number, record=True, policy=policy)
        assert replay(deal, actions).finish_order == finish
        assert deal.playout(number + 1, record=True, policy=policy) == (finish, actions)
        assert deal.playouts(2, seed=number, policy=policy).tolist() == [finish] * 2
        game = deal.clone()
        for seat, action in actions:
            choice = minplays_rules.play(game, tactics)
            assert game.legal_actions()[choice] == action
            assert agent.act(game, seat) == choice
            changed += choice != minplays_rules.play(game)
            followed += game.following and action[0] != "PASS"
            game.step(action)
            checked += 1
    assert checked > 1000 and followed > 100
    assert (changed > 20) if tactics else changed == 0


def test_tactics_follow_with_a_sure_way_out() -> None:
    """The tactics follow with a move the unseen cards cannot beat when the rest's plan then
    has at most one play they can beat (the seat leads out), over a partner's play too; the
    plain rules pass the partner and follow an opponent with the weakest keeping move."""
    import minplays_rules

    from guandan_fast.agents import MinPlaysAgent

    first = lambda deal, policy: deal.playout(0, record=True, policy=policy)[1][0][1]
    # Over the partner's 5: the big joker leaves a pair of 3s nobody can beat.
    partner = Deal.start(["S5 D9 C7", "S4 C6 D8 H9", "HR S3 D3", "SJ CQ DK HA"], 2, leader=0)
    partner.step(["Single", "5", ["S5"]])
    partner.step(["PASS", "PASS", "PASS"])
    # Over an opponent's 8: an ace nobody can beat leaves the joker, an ace and the 9 (only
    # the 9 can be beaten); the plain rules play the 9, which keeps the count.
    opponent = Deal.start(["S4 C6 D8 H9", "HR S9 SA DA", "S5 D9 C7", "SJ CQ DK HT"], 2, leader=0)
    opponent.step(["Single", "8", ["D8"]])
    # With a pair of 3s for the aces, the unseen cards hold a pair of 9s (H9, D9) that beats
    # it: after the joker two plays could be beaten, so no sure way out.
    not_sure = Deal.start(["S4 C6 D8 H9", "HR S9 S3 D3", "S5 D9 C7", "SJ CQ DK HT"], 2, leader=0)
    not_sure.step(["Single", "8", ["D8"]])
    cases = [
        (partner, ["Single", "R", ["HR"]], ["PASS", "PASS", "PASS"]),
        (opponent, ["Single", "A", ["SA"]], ["Single", "9", ["S9"]]),
        (not_sure, ["Single", "9", ["S9"]], ["Single", "9", ["S9"]]),
    ]
    for deal, tactics_choice, plain_choice in cases:
        seat = deal.current_seat
        actions = deal.legal_actions()
        assert first(deal, "tactics") == tactics_choice
        assert actions[MinPlaysAgent(tactics=True).act(deal, seat)] == tactics_choice
        assert actions[minplays_rules.play(deal, True)] == tactics_choice
        assert first(deal, "minplays") == plain_choice
        assert actions[minplays_rules.play(deal, False)] == plain_choice


def test_minplays_policy_choices() -> None:
    first = lambda deal: deal.playout(0, record=True, policy="minplays")[1][0][1]
    # Following an opponent (seat 0 keeps 7 cards, no threat): a plain play of the decomposition,
    # none breaking it: the pair of 6s and the straight stay whole, so seat 1 passes.
    calm = ["S5 D5 S7 C7 H8 D3 CJ CQ", "S6 H6 S9 HT SJ SQ SK", "S7 S8 H7 H8", "C9 DT C9 CT"]
    follow = Deal.start(calm, 2, leader=0)
    follow.step(["Single", "5", ["S5"]])
    assert first(follow) == ["PASS", "PASS", "PASS"]
    # With an ace as well, the 9 keeps the count (T J Q K A is still a straight): the lowest key.
    follow = Deal.start([calm[0], "S6 H6 SA S9 HT SJ SQ SK", *calm[2:]], 2, leader=0)
    follow.step(["Single", "5", ["S5"]])
    assert first(follow) == ["Single", "9", ["S9"]]
    # Under a threat (seat 0 holds one card): the plain move with the fewest plays left (a 6:
    # the straight stays), else a bomb.
    threat = Deal.start(["S5 D5", *calm[1:]], 2, leader=0)
    threat.step(["Single", "5", ["S5"]])
    assert first(threat) == ["Single", "6", ["S6"]]
    bomb = Deal.start(["S5 D5", "S4 H4 C4 D4 S3", "SQ H7 H8 H9", "C9 CJ CQ CK"], 2, leader=0)
    bomb.step(["Single", "5", ["S5"]])
    assert first(bomb) == ["Bomb", "4", ["S4", "H4", "C4", "D4"]]
    # A partner's play is passed unless the hand can go out.
    partner = Deal.start(["S5 D5", "S3 H4", "SQ SK", "S9 ST"], 2, leader=0)
    partner.step(["Single", "5", ["S5"]])
    partner.step(["PASS", "PASS", "PASS"])
    assert first(partner) == ["PASS", "PASS", "PASS"]


# ---------------------------------------------------------------------------------------------
# Playouts in sampled worlds after candidate actions (Deal.world_playouts, one native call)
# ---------------------------------------------------------------------------------------------
def test_world_playouts_equal_cloned_deals_played_out() -> None:
    """Row [i, j, r] is the deal with world i's hands, action j played, then playout
    seed + i n + r: the Python path of with_hands, step and playouts, both policies; a
    deterministic policy's rows repeat (the game is played once)."""
    from guandan_fast.search.infoset import sample_hands

    checked = 0
    for number in range(24):
        deal = mid_deal(number, [3, 30, 70][number % 3], level=2 + number % 13)
        if deal.phase != "play":
            continue
        worlds = sample_hands(deal, deal.to_act, 3, number)
        actions = list(range(min(4, len(deal.legal_actions()))))
        for policy in ("random", "greedy", "minplays"):
            out = deal.world_playouts(worlds, actions, 3, number, policy=policy)
            assert out.shape == (3, len(actions), 3, 4) and out.dtype == np.int8
            for i, world in enumerate(worlds.tolist()):
                other = deal.with_hands([Hand._trusted(once, twice) for once, twice in world])
                for j, action in enumerate(actions):
                    child = other.clone()
                    child.step(action)
                    expected = child.playouts(3, number + 3 * i, policy=policy)
                    if child.phase == "done":
                        expected = np.array([child.finish_order] * 3)
                    assert out[i, j].tolist() == expected.tolist()
                    checked += 1
            if policy != "random":
                assert (out == out[:, :, :1]).all()
    assert checked > 200


def test_world_playouts_refuse_what_does_not_fit() -> None:
    from guandan_fast.search import _playout
    from guandan_fast.search.infoset import sample_hands

    deal = mid_deal(4, 12)
    seat = deal.to_act
    worlds = sample_hands(deal, seat, 2, 0)
    args = native_args(deal)
    moves = ([0], [0], np.zeros((1, 2), dtype=np.uint64))  # the pass
    other = (seat + 1) % 4
    emptied, beyond = worlds.copy(), worlds.copy()
    emptied[1, other] = 0  # seat ``other`` loses its cards in world 1
    beyond[0, other, 0] |= 1 << 60  # a bit beyond the 54 cards
    for planes, message in ((emptied, "world 1 does not fit"), (beyond, "world 0 does not fit"),
                            (worlds[:, :3], "shape")):
        with pytest.raises(ValueError, match=message):
            _playout.world_playouts(State.position(**args), worlds=planes, move_kinds=[], move_keys=[],
                                    move_cards=np.zeros((0, 2), dtype=np.uint64), seed=0, n=1)
    leading = deal.legal_moves().rows()[0] if not deal.following else None
    if leading is None:
        with pytest.raises(ValueError, match="no legal action"):
            _playout.world_playouts(State.position(**args), worlds=worlds, move_kinds=[1], move_keys=[99], move_cards=[[1, 0]],
                                    seed=0, n=1)
    else:
        with pytest.raises(ValueError, match="move 0 is no legal action"):
            _playout.world_playouts(State.position(**args), worlds=worlds, move_kinds=moves[0], move_keys=moves[1],
                                    move_cards=moves[2], seed=0, n=1)
    with pytest.raises(ValueError, match="the same moves"):
        _playout.world_playouts(State.position(**args), worlds=worlds, move_kinds=[0, 0], move_keys=[0], move_cards=[[0, 0]],
                                seed=0, n=1)
    with pytest.raises(ValueError, match="out of range"):
        deal.world_playouts(worlds, [10_000])
    with pytest.raises(TypeError, match="sequence of action indices"):
        deal.world_playouts(worlds, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown playout policy"):
        deal.world_playouts(worlds, [0], policy="smart")
    with pytest.raises(ValueError, match="play phase"):
        Deal.random(seed=3, previous_finish=[0, 1, 2, 3]).world_playouts(worlds, [0])


def test_world_playouts_refuse_a_move_a_world_does_not_hold() -> None:
    """A world where the seat to act holds other cards than the move's is refused."""
    from guandan_fast.search.infoset import sample_hands

    deal = Deal.start(["S5 D5 S6", "S7 S8 S9", "ST SJ SQ", "SK SA H9"], 2, leader=0)
    worlds = sample_hands(deal, 1, 8, 0)  # seat 1's view: seat 0's hand is redrawn
    s5 = Hand("S5")
    lacking = [i for i, (once, twice) in enumerate(worlds[:, 0].tolist()) if not Hand._trusted(once, twice).contains(s5)]
    assert 0 < len(lacking) < 8
    five = deal.legal_actions().index(["Single", "5", ["S5"]])
    held = [i for i in range(8) if i not in lacking]
    assert deal.world_playouts(worlds[held], [five]).shape == (len(held), 1, 1, 4)
    with pytest.raises(ValueError, match=f"world {lacking[0]}: the seat to act does not hold the cards of move 0"):
        deal.world_playouts(worlds, [five])


def test_bad_playout_policy() -> None:
    deal = mid_deal(1, 5)
    with pytest.raises(ValueError, match="unknown playout policy 'smart'"):
        deal.playouts(2, policy="smart")
    with pytest.raises(ValueError, match="unknown playout policy"):
        deal.playout(0, policy=1)  # type: ignore[arg-type]
    tribute = Deal.random(seed=3, previous_finish=[0, 1, 2, 3])
    assert tribute.phase == "tribute"
    with pytest.raises(ValueError, match="greedy playouts run in native code from the play phase"):
        tribute.playouts(2, policy="greedy")
    args = native_args(mid_deal(2, 30))
    from guandan_fast.search import _playout

    for policy, error in ((4, ValueError), (-1, ValueError), (True, TypeError), (1.0, TypeError)):
        with pytest.raises(error, match="policy"):
            _playout.playouts(State.position(**args), seed=0, n=1, policy=policy)
        with pytest.raises(error, match="policy"):
            _playout.playout(State.position(**args), seed=0, policy=policy)
        with pytest.raises(error, match="policy"):
            _playout.world_playouts(State.position(**args), worlds=np.zeros((0, 4, 2), dtype=np.uint64), move_kinds=[], move_keys=[],
                                    move_cards=np.zeros((0, 2), dtype=np.uint64), seed=0, n=1, policy=policy)


def test_calls_that_reuse_kept_caches_answer_as_fresh_ones() -> None:
    """A call takes the cache an earlier call of its policy left (its move lists, the rules'
    decompositions and min-plays table): the results are those of a fresh cache whatever
    came before, also for the same hands at another level right after (a cache's leading
    lists are of its last call's level, and are forgotten when it is taken)."""
    from guandan_fast.agents import MinPlaysAgent
    from guandan_fast.search import _playout
    from guandan_fast.search.infoset import sample_hands

    rules, cases = MinPlaysAgent(tactics=True), []
    for i in range(12):
        hands = Deal.random(i).hands
        for level in (2 + i % 13, 14 - i % 13):  # the same hands at two levels, one after the other
            deal = Deal.start(list(hands), level=level, leader=i % 4)
            for _ in range(i * 4):
                deal.step(rules.act(deal, deal.current_seat))
            assert not deal.done
            cases.append((deal, sample_hands(deal, deal.current_seat, 3, i)))

    def results(deal: Deal, worlds: np.ndarray) -> list[str]:
        actions = list(range(min(3, len(deal.legal_actions()))))
        return [
            repr(out)
            for policy in ("tactics", "minplays", "greedy", "random")
            for out in (
                deal.world_playouts(worlds, actions, 2, 7, policy=policy).tobytes(),
                deal.playouts(2, 7, policy=policy).tobytes(),
                deal.playout(7, record=True, policy=policy),
            )
        ]

    fresh = []
    for deal, worlds in cases:
        _playout._release_kept_caches()
        fresh.append(results(deal, worlds))
    assert _playout._release_kept_caches() >= 1  # the calls left their caches
    assert [results(deal, worlds) for deal, worlds in cases] == fresh

    # the first lead of a call whose last call ended with the same hand leading (a 5 is the
    # level card at 5, which nothing here beats, and a low single at 2)
    start = ["S5 D5", "S6 D6 H9", "C7 D7 DK", "H8 S8 SA"]
    for policy in ("random", "minplays", "tactics"):
        _playout._release_kept_caches()
        alone = Deal.start(start, level=5, leader=0).playout(3, record=True, policy=policy)
        Deal.start(start, level=2, leader=0).playout(3, record=True, policy=policy)
        assert Deal.start(start, level=5, leader=0).playout(3, record=True, policy=policy) == alone
