"""The contracts other modules build on: Deal.played, Deal.plays and Deal.with_hands."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import numpy as np
import pytest

from guandan_fast import PASS, Hand
from guandan_fast.engine.cards import parse_card
from guandan_fast.engine.deal import Deal
from guandan_fast.engine.moves import MoveType

PASS_TRIPLE = ["PASS", "PASS", "PASS"]


def planes(cards: str) -> list[int]:
    hand = Hand(cards)
    return [hand.once, hand.twice]


def trick_deal() -> Deal:
    """Seat 0 leads a pair, 1 beats it, 2 and 3 pass, 0 passes: 1 leads again."""
    deal = Deal.start(["S3 H3 S9", "S5 D5 S7 C7", "S8 SQ", "SJ SK"], 2, leader=0)
    deal.step(["Pair", "3", ["S3", "H3"]])
    deal.step(["Pair", "5", ["S5", "D5"]])
    deal.step(PASS_TRIPLE)
    deal.step(PASS)
    deal.step(0)
    assert (deal.to_act, deal.following) == (1, False)
    return deal


def test_played_and_plays_follow_each_action() -> None:
    deal = trick_deal()
    assert deal.played.dtype == np.uint64 and deal.played.shape == (4, 2)
    assert deal.played.tolist() == [planes("S3 H3"), planes("S5 D5"), [0, 0], [0, 0]]
    assert deal.plays == (
        (0, int(MoveType.PAIR), 3, Hand("S3 H3").once, 0),
        (1, int(MoveType.PAIR), 5, Hand("S5 D5").once, 0),
        (2, 0, 0, 0, 0),
        (3, 0, 0, 0, 0),
        (0, 0, 0, 0, 0),
    )
    deal.step(["Pair", "7", ["S7", "C7"]])
    assert deal.played.tolist()[1] == planes("S5 D5 S7 C7")
    assert deal.plays[-1] == (1, int(MoveType.PAIR), 7, Hand("S7 C7").once, 0)
    assert all(type(x) is int for row in deal.plays for x in row)


def test_played_counts_a_card_played_twice_in_the_twice_plane() -> None:
    deal = Deal.start(["S3 S3 S9", "S4", "S5", "S6"], 2, leader=0)
    deal.step(["Single", "3", ["S3"]])
    for _ in range(3):
        deal.step(PASS)
    deal.step(["Single", "3", ["S3"]])
    assert deal.played.tolist()[0] == planes("S3 S3")
    assert Hand.from_numpy(deal.played[0]) == Hand("S3 S3")


def test_played_rows_and_plays_agree_with_the_move_list_rows() -> None:
    deal = Deal.random(seed=5)
    rows = []
    while not deal.done:
        seat = deal.to_act
        pick = len(deal.legal_actions()) // 2
        move = PASS if deal.following and pick == 0 else deal.legal_moves()[pick - deal.following]
        deal.step(pick)
        rows.append((seat, int(move.kind), move.key, move.cards.once, move.cards.twice))
    assert deal.plays == tuple(rows)
    for seat in range(4):
        union = Hand()
        for row in rows:
            if row[0] == seat:
                union = union.add(Hand.from_bits(row[3], row[4]))
        assert Hand.from_numpy(deal.played[seat]) == union


def test_tribute_and_return_are_no_plays() -> None:
    deal = Deal.start(["S3 S4 S5 ST", "S6 S7 S8", "S9 SJ SQ", "SA SK C4 C4"], 2, previous_finish=[0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["SA"]])
    deal.step(["back", "back", ["S3"]])
    assert deal.plays == () and not deal.played.any()
    deal.step(["Single", "4", ["C4"]])
    assert deal.plays == ((3, int(MoveType.SINGLE), 4, Hand("C4").once, 0),)


def test_played_is_read_only_and_plays_cannot_be_changed() -> None:
    deal = trick_deal()
    with pytest.raises(ValueError, match="read-only"):
        deal.played[0, 0] = 1
    plays = deal.plays
    assert isinstance(plays, tuple)
    with pytest.raises(AttributeError):
        deal.plays = ()  # type: ignore[misc]
    before = deal.played.tolist()
    deal.step(["Pair", "7", ["S7", "C7"]])
    assert plays == deal.plays[:-1] and before != deal.played.tolist()


@pytest.mark.parametrize("make", [Deal.clone, copy.copy, copy.deepcopy, lambda d: pickle.loads(pickle.dumps(d))])
def test_copies_keep_played_and_plays_and_are_independent(make: Any) -> None:
    deal = trick_deal()
    deal.played  # noqa: B018 - fill the cached array
    other = make(deal)
    assert other.played.tolist() == deal.played.tolist() and other.plays == deal.plays
    other.step(["Pair", "7", ["S7", "C7"]])
    assert len(other.plays) == len(deal.plays) + 1
    assert deal.played.tolist()[1] == planes("S5 D5")
    assert other.played.tolist()[1] == planes("S5 D5 S7 C7")


# ---------------------------------------------------------------------------------------------
# with_hands
# ---------------------------------------------------------------------------------------------
def test_with_hands_swaps_unseen_cards_and_keeps_everything_else() -> None:
    deal = trick_deal()  # hands now: S9 | S7 C7 | S8 SQ | SJ SK; seat 1 leads
    world = deal.with_hands(["S9", "S7 C7", "SJ SK", "S8 SQ"])
    assert [str(h) for h in world.hands] == ["S9", "S7 C7", "SJ SK", "S8 SQ"]
    assert [str(h) for h in deal.hands] == ["S9", "S7 C7", "S8 SQ", "SJ SK"]
    for name in ("phase", "to_act", "history", "finish_order", "tribute", "last_move", "last_seat", "plays"):
        assert getattr(world, name) == getattr(deal, name), name
    assert world.played.tolist() == deal.played.tolist()
    assert (world.level, world.rules, world.team_levels) == (deal.level, deal.rules, deal.team_levels)
    # The new hands are really played: seat 2 now holds SJ SK.
    for game in (world, deal):
        game.step(["Single", "7", ["S7"]])
    assert world.to_act == 2 and ["Single", "K", ["SK"]] in world.legal_actions()
    assert deal.legal_actions() == [PASS_TRIPLE, ["Single", "8", ["S8"]], ["Single", "Q", ["SQ"]]]


def test_with_hands_mid_trick_keeps_the_move_to_beat() -> None:
    deal = Deal.start(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], 2, leader=0)
    deal.step(["Single", "4", ["S4"]])
    world = deal.with_hands(["S3", "S5 S8", "S7 S6", "S9 ST"])
    assert world.last_move == deal.last_move and world.to_act == 1
    assert world.legal_actions() == [PASS_TRIPLE, ["Single", "5", ["S5"]], ["Single", "8", ["S8"]]]
    assert deal.legal_actions() == [PASS_TRIPLE, ["Single", "5", ["S5"]], ["Single", "6", ["S6"]]]


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (["S9 S7", "C7", "S8 SQ", "SJ SK"], "seat 0 has 2 cards, the deal gives it 1"),
        (["S9", "S7 C7", "S8 SQ", "SJ SA"], "exactly the cards"),
        (["S9", "S7 S7", "S8 SQ", "SJ SK"], "exactly the cards"),
        (["S9", "S7 C7", "S8 SQ"], "exactly four hands"),
        (["S9", "S7 C7", "S8 SQ", "SJ XX"], "unknown card"),
    ],
)
def test_with_hands_refuses_other_counts_or_cards(hands: list[str], message: str) -> None:
    deal = trick_deal()
    before = (deal.hands, deal.plays, deal.legal_actions())
    with pytest.raises(ValueError, match=message):
        deal.with_hands(hands)
    assert (deal.hands, deal.plays, deal.legal_actions()) == before


def test_with_hands_in_a_double_tribute_keeps_a_chosen_tribute_card() -> None:
    # Seats 0 and 2 went 1-2; 1 then 3 pay. Seat 1 chose SA; it must keep it in any world.
    deal = Deal.start(["S3 S4", "SA S6", "S5 S7", "SK S8"], 2, previous_finish=[0, 2])
    deal.step(["tribute", "tribute", ["SA"]])
    assert deal.public_holdings().chosen == ((1, parse_card("SA")),)
    assert deal.public_holdings().cards[1] == Hand("SA")
    with pytest.raises(ValueError, match="seat 1 has chosen to pay SA"):
        deal.with_hands(["S3 S4", "SK S6", "S5 S7", "SA S8"])
    world = deal.with_hands(["S3 S4", "SA S8", "S5 S7", "SK S6"])
    assert world.legal_actions() == [["tribute", "tribute", ["SK"]]]
    world.step(0)
    assert world.tribute["payments"] == [(1, 0, parse_card("SA")), (3, 2, parse_card("SK"))]


# ---------------------------------------------------------------------------------------------
# step checks a triple or a Move against the hand and the move to beat, without the move
# list: it must accept exactly the legal actions
# ---------------------------------------------------------------------------------------------
def readings_of_subsets(hand: Hand, level: int, rng: Any, count: int) -> list[Any]:
    """Every reading (as a Move) of ``count`` random sub-multisets of ``hand``."""
    from guandan_fast import classify

    cards = list(hand)
    out = []
    for _ in range(count):
        size = rng.choice((1, 2, 3, 4, 5, 6))
        if size <= len(cards):
            out.extend(classify(rng.sample(cards, size), level))
    return out


@pytest.mark.parametrize("seed", range(4))
def test_step_accepts_exactly_the_legal_actions(seed: int) -> None:
    import random

    rng = random.Random(seed)
    deal = Deal.random(seed=seed, level=rng.choice((2, 7, 13)))
    for _ in range(12):
        if deal.done:
            break
        legal = deal.legal_actions()
        legal_set = {(a[0], a[1], tuple(a[2])) for a in legal}
        candidates = readings_of_subsets(deal.hands[deal.to_act], deal.level, rng, 30)
        for move in candidates:
            triple = move.to_platform()
            is_legal = (triple[0], triple[1], tuple(triple[2])) in legal_set
            for action in (triple, move):
                other = deal.clone()
                if is_legal:
                    other.step(action)
                    assert other.plays[-1][1:] == (int(move.kind), move.key, move.cards.once, move.cards.twice)
                else:
                    with pytest.raises(ValueError, match="illegal"):
                        other.step(action)
        deal.step(rng.randrange(len(legal)))


def test_a_triple_naming_cards_that_do_not_form_it_is_refused() -> None:
    deal = Deal.start(["S3 S4 S5 S6 S7", "S8", "S9", "ST"], 2, leader=0)
    for triple in (
        ["Single", "4", ["S3"]],
        ["Pair", "3", ["S3", "S4"]],
        ["Straight", "4", ["S3", "S4", "S5", "S6", "S7"]],
        ["Bomb", "3", ["S3", "S4", "S5", "S6"]],
    ):
        with pytest.raises(ValueError, match="illegal action for seat 0"):
            deal.step(triple)
    deal.step(["StraightFlush", "3", ["S3", "S4", "S5", "S6", "S7"]])
    assert deal.done is False and deal.finish_order == [0]


def test_a_triple_read_before_does_not_excuse_a_malformed_one() -> None:
    deal = Deal.start(["S3 S4", "S5 S6", "S7 S8", "S9 ST"], 2, leader=0)
    deal.step(["Single", "3", ["S3"]])
    deal.clone().step(["PASS", "PASS", "PASS"])  # read and remembered
    for bad, error in (
        (["PASS", "PASS", ["P", "A", "S", "S"]], ValueError),
        (["PASS", "PASS", [["S3"]]], ValueError),
        (["Single", "3", [["S3"]]], TypeError),
        (["Single", "3", "S3"], TypeError),
        ([["Single"], "3", ["S3"]], TypeError),
        (["Single", "3"], ValueError),
        (7.0, TypeError),
        ("PASS", TypeError),
    ):
        with pytest.raises(error):
            deal.step(bad)
    assert deal.to_act == 1 and len(deal.plays) == 1


def test_current_seat_is_to_act_as_an_int_and_raises_once_done() -> None:
    from guandan_fast import Match
    from guandan_fast.engine.rules import Rules

    deal = trick_deal()
    assert deal.current_seat == deal.to_act == 1 and type(deal.current_seat) is int
    finished = Deal.start(["S3", "S4", "S5", "S6"], 2, leader=0)
    finished.step(["Single", "3", ["S3"]])
    finished.step(["Single", "4", ["S4"]])
    finished.step(["Single", "5", ["S5"]])
    assert finished.done and finished.to_act is None
    with pytest.raises(ValueError, match="the deal is done"):
        _ = finished.current_seat
    match = Match(seed=1, rules=Rules(deal_cap=1))
    while not match.over:
        assert match.current_seat == match.to_act == match.deal.current_seat
        match.step(0)
    with pytest.raises(ValueError, match="the match is over"):
        _ = match.current_seat


def test_with_hands_keeps_what_the_table_saw_each_seat_receive() -> None:
    # Seat 3 (last) pays SA to seat 0 (first), who returns S3: the table saw both cards change hands.
    deal = Deal.start(["S3 S5", "S6 S7", "S8 S9", "SA S4"], 2, previous_finish=[0, 1, 2, 3])
    deal.step(["tribute", "tribute", ["SA"]])
    assert deal.phase == "return" and deal.public_holdings().cards == (Hand("SA"), Hand(), Hand(), Hand())
    with pytest.raises(ValueError, match="seat 0 holds SA for all to see"):
        deal.with_hands(["S3 S5 S6", "SA S7", "S8 S9", "S4"])
    deal.step(["back", "back", ["S3"]])
    assert deal.public_holdings().cards == (Hand("SA"), Hand(), Hand(), Hand("S3"))
    for hands, seat, card in ((["S5 S6", "SA S7", "S8 S9", "S3 S4"], 0, "SA"), (["SA S5", "S3 S7", "S8 S9", "S4 S6"], 3, "S3")):
        before = deal.clone()
        with pytest.raises(ValueError, match=f"seat {seat} holds {card} for all to see"):
            deal.with_hands(hands)
        assert deal.hands == before.hands and deal.history == before.history and deal == before  # refused: nothing changed
        # a platform mirror may follow a server against the table; the deal stays usable
        world = deal.with_hands(hands, check_public=False)
        assert world.legal_actions() and world.unseen(2).known[seat] == Hand()  # known only while there
        assert len(world.sample_worlds(1, 3)) == 3
    world = deal.with_hands(["SA S6", "S5 S7", "S8 S9", "S3 S4"])  # the unseen S5 and S6 may move
    assert world.hands[0] == Hand("SA S6")
    with pytest.raises(TypeError, match="check_public must be True or False"):
        deal.with_hands(["SA S6", "S5 S7", "S8 S9", "S3 S4"], check_public="no")  # type: ignore[arg-type]


def test_with_hands_keeps_the_big_jokers_of_an_anti_tribute_with_their_seats() -> None:
    deal = Deal.start(["S3 S5", "S6 S7", "S8 S9", "HR HR S4"], 2, previous_finish=[0, 1, 2, 3])
    assert deal.tribute["kind"] == "anti" and deal.public_holdings()[1:] == (2, (3,), ())
    with pytest.raises(ValueError, match=r"the big jokers not played stay with the seats .* \(3,\)"):
        deal.with_hands(["S3 S5", "S6 HR", "S8 S9", "S7 HR S4"])
    assert deal.with_hands(["S3 S5", "S6 S4", "S8 S9", "S7 HR HR"]).hands[3] == Hand("S7 HR HR")


def test_a_receiver_without_its_tribute_card_may_still_return_one() -> None:
    from guandan_fast.engine.rules import Rules

    deal = Deal.start(["S3 S5", "S6 S7", "S8 S9", "SA S4"], 2, previous_finish=[0, 1, 2, 3],
                      rules=Rules(return_received_card=False))
    deal.step(["tribute", "tribute", ["SA"]])
    world = deal.with_hands(["S3 S5 S6", "SA S7", "S8 S9", "S4"], check_public=False)
    assert world.legal_actions() == [["back", "back", ["S3"]], ["back", "back", ["S5"]], ["back", "back", ["S6"]]]
