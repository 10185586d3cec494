"""The model: cards, levels, hands as bit planes, moves, the bomb ladder, the platform triple."""

from __future__ import annotations

import numpy as np
import pytest

from guandan_fast import PASS, Hand, Move, MoveType, classify, legal_moves, parse_card, parse_level
from guandan_fast.engine.cards import CARD_NAMES, card_power, wildcard


# -- cards and levels -------------------------------------------------------------------------
def test_card_indices_follow_the_documented_layout() -> None:
    assert parse_card("S2") == 0 and parse_card("H2") == 1 and parse_card("D2") == 3
    assert parse_card("SA") == 48 and parse_card("DA") == 51
    assert parse_card("SB") == 52 and parse_card("HR") == 53
    assert [parse_card(name) for name in CARD_NAMES] == list(range(54))


@pytest.mark.parametrize("text, canonical", [("s10", "ST"), ("♥q", "HQ"), (" dk ", "DK"), ("sb", "SB"), ("♣2", "C2")])
def test_card_aliases_parse_to_canonical_names(text: str, canonical: str) -> None:
    assert CARD_NAMES[parse_card(text)] == canonical


@pytest.mark.parametrize("level, value", [("2", 2), ("t", 10), ("10", 10), ("A", 14), (7, 7), (14, 14)])
def test_levels_parse_from_characters_and_ints(level: object, value: int) -> None:
    assert parse_level(level) == value


def test_power_order_puts_the_level_rank_above_the_ace() -> None:
    level = 7
    assert card_power(parse_card("SA"), level) < card_power(parse_card("C7"), level)
    assert card_power(parse_card("C7"), level) < card_power(parse_card("SB"), level) < card_power(parse_card("HR"), level)
    assert card_power(parse_card("S8"), level) == 8
    assert wildcard(level) == parse_card("H7")


# -- hands ------------------------------------------------------------------------------------
def test_hand_planes_count_each_copy() -> None:
    hand = Hand.parse("S2 S2 H3 SB")
    assert hand.once == (1 << 0) | (1 << 5) | (1 << 52)
    assert hand.twice == 1 << 0
    assert len(hand) == 4
    assert hand.packed == hand.once | hand.twice << 64
    assert hand.to_platform() == ["S2", "S2", "H3", "SB"]


def test_hand_round_trips_through_counts_numpy_and_bits() -> None:
    hand = Hand.parse("HR HR SB DA CA CA H9 S3")
    counts = hand.counts()
    assert counts.dtype == np.uint8 and counts.shape == (54,)
    assert counts[parse_card("CA")] == 2 and counts[parse_card("S4")] == 0 and counts.sum() == 8
    assert Hand.from_counts(counts) == hand
    assert Hand.from_numpy(hand.to_numpy()) == hand
    assert Hand.from_bits(hand.once, hand.twice) == hand
    assert Hand(hand.to_platform()) == hand and Hand(hand) == hand


def test_hand_containment_add_and_remove() -> None:
    hand = Hand.parse("S5 S5 D5 HR")
    assert "S5" in hand and "C5" not in hand
    assert hand.count("S5") == 2 and hand.count("D5") == 1
    assert Hand.parse("S5 D5") in hand and Hand.parse("D5 D5") not in hand
    smaller = hand.remove("S5 HR")
    assert smaller == Hand.parse("S5 D5") and len(hand) == 4
    assert smaller.add(["S5", "HR"]) == hand
    assert hand - Hand.parse("S5 S5") == Hand.parse("D5 HR")


def test_hand_removes_a_move_and_accepts_the_full_double_deck() -> None:
    deck = Hand(CARD_NAMES * 2)
    assert len(deck) == 108 and deck.counts().max() == 2
    move = Move.from_platform(["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]], 2)
    assert move in deck
    assert len(deck.remove(move)) == 104


# -- moves ------------------------------------------------------------------------------------
def test_platform_round_trip_and_rank_field() -> None:
    straight = Move.from_platform(["Straight", "A", ["HA", "S2", "C3", "D4", "H5"]], 9)
    assert straight.kind is MoveType.STRAIGHT and straight.key == 1
    assert straight.to_platform() == ["Straight", "A", ["S2", "C3", "D4", "H5", "HA"]]
    assert Move.from_platform(straight.to_platform(), 9) == straight
    level_pair = Move.from_platform(["Pair", "9", ["S9", "C9"]], 9)
    assert level_pair.key == 15 and level_pair.rank == "9"
    jokers = Move.from_platform(["Pair", "B", ["SB", "SB"]], 9)
    assert jokers.key == 16 and jokers.to_platform()[1] == "B"


@pytest.mark.parametrize(
    "action",
    [["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]], ["FourKings", "JOKER", ["SB", "HR", "SB", "HR"]], ["Bomb", "R", ["HR", "HR", "SB", "SB"]]],
)
def test_four_jokers_aliases(action: list) -> None:
    move = Move.from_platform(action, 2)
    assert move.kind is MoveType.FOUR_JOKERS
    assert move.to_platform() == ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]


def test_pass_round_trips() -> None:
    assert Move.from_platform(["PASS", "PASS", "PASS"], 5) is PASS
    assert PASS.to_platform() == ["PASS", "PASS", "PASS"]


def test_rules_examples_at_level_two(backend: str) -> None:
    assert legal_moves("H2", 2, backend=backend).to_platform() == [["Single", "2", ["H2"]]]
    pairs = [m for m in legal_moves("H2 H2", 2, backend=backend) if m.kind is MoveType.PAIR]
    assert sorted(m.rank for m in pairs) == sorted("23456789TJQKA")
    strongest = legal_moves("H2 H2", 2, strongest=True, backend=backend)
    assert sorted(map(tuple, (m[:2] for m in strongest.to_platform()))) == [("Pair", "2"), ("Single", "2")]
    sequences = {(m[0], m[1]) for m in legal_moves("S3 S4 S5 S6 H2", 2, backend=backend).to_platform() if len(m[2]) == 5}
    assert sequences == {("Straight", "2"), ("Straight", "3"), ("StraightFlush", "2"), ("StraightFlush", "3")}
    assert {(m.kind.platform_name, m.rank) for m in classify("DT DJ DQ DK DA", 2, backend=backend)} == {
        ("Straight", "T"),
        ("StraightFlush", "T"),
    }
    assert {(m.kind.platform_name, m.rank) for m in classify("CA CA DA H2 H2", 2, backend=backend)} == {
        ("ThreeWithTwo", "A"),
        ("Bomb", "A"),
    }


def test_no_wrapping_sequences_and_no_joker_in_sequences(backend: str) -> None:
    assert classify("SK SA S2 S3 S4", 9, backend=backend) == []
    assert classify("S3 S4 S5 S6 SB", 9, backend=backend) == []
    assert [m.rank for m in classify("ST SJ SQ SK SA", 9, backend=backend)] == ["T", "T"]
    assert classify("SB HR", 9, backend=backend) == []


def test_wildcard_never_stands_for_a_joker(backend: str) -> None:
    assert classify("SB H5", 5, backend=backend) == []
    assert classify("HR HR H5 S3 S3", 5, backend=backend)[0].rank == "3"  # triple 3 from the wildcard


def test_full_house_needs_two_ranks(backend: str) -> None:
    readings = {(m.kind.platform_name, m.rank) for m in classify("S4 S4 D4 C4 H9", 9, backend=backend)}
    assert readings == {("Bomb", "4")}


BOMB_LADDER = [
    ["Bomb", "3", ["S3", "S3", "C3", "D3"]],
    ["Bomb", "A", ["SA", "SA", "CA", "DA"]],
    ["Bomb", "2", ["S2", "S2", "C2", "D2", "C2"]],
    ["StraightFlush", "A", ["SA", "S2", "S3", "S4", "S5"]],
    ["StraightFlush", "T", ["ST", "SJ", "SQ", "SK", "SA"]],
    ["Bomb", "3", ["S3", "S3", "C3", "C3", "D3", "D3"]],
    ["Bomb", "3", ["S3", "S3", "C3", "C3", "D3", "D3", "H3"]],
    ["Bomb", "3", ["S3", "S3", "C3", "C3", "D3", "D3", "H3", "H3"]],
    ["Bomb", "4", ["S4", "S4", "C4", "C4", "D4", "D4", "H4", "H4", "H2"]],
    ["Bomb", "4", ["S4", "S4", "C4", "C4", "D4", "D4", "H4", "H4", "H2", "H2"]],
    ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]],
]


def test_bomb_ladder_is_a_strict_order() -> None:
    ladder = [Move.from_platform(action, 2) for action in BOMB_LADDER]
    for i, low in enumerate(ladder):
        for j, high in enumerate(ladder):
            assert high.beats(low) == (j > i), (high, low)


def test_plain_moves_beat_only_their_own_type_with_a_higher_key() -> None:
    pair_7 = Move.from_platform(["Pair", "7", ["S7", "D7"]], 2)
    pair_a = Move.from_platform(["Pair", "A", ["SA", "DA"]], 2)
    pair_2 = Move.from_platform(["Pair", "2", ["S2", "D2"]], 2)
    single_a = Move.from_platform(["Single", "A", ["SA"]], 2)
    bomb = Move.from_platform(BOMB_LADDER[0], 2)
    assert pair_a.beats(pair_7) and not pair_7.beats(pair_a)
    assert pair_2.beats(pair_a), "the level rank is above A"
    assert not single_a.beats(pair_7) and not pair_a.beats(pair_a)
    assert bomb.beats(pair_2) and not pair_2.beats(bomb)
    assert pair_7.beats(None) and pair_7.beats(PASS) and not PASS.beats(pair_7)


def test_following_lists_only_beating_moves(backend: str) -> None:
    last = ["Pair", "K", ["SK", "DK"]]
    moves = legal_moves("S3 S3 SA DA H2 S2 SB SB", 2, last, backend=backend)
    assert {(m.kind.platform_name, m.rank) for m in moves} == {("Pair", "A"), ("Pair", "2"), ("Pair", "B")}


def test_move_list_views(backend: str) -> None:
    moves = legal_moves("S3 S4 S5 S6 H2", 2, backend=backend)
    assert moves.count() == len(moves) == 13
    assert Move.from_platform(["Straight", "3", ["S3", "S4", "S5", "S6", "H2"]], 2) in moves
    assert Move.from_platform(["Pair", "6", ["S6", "H2"]], 2) in moves
    assert Move.from_platform(["Single", "5", ["S5"]], 3) not in moves  # another level
    table = moves.to_numpy()
    assert table.shape == (13,) and set(table.dtype.names or ()) == {"kind", "key", "cards"}
    assert [Move._trusted(MoveType(int(r["kind"])), int(r["key"]), Hand.from_bits(*map(int, r["cards"])), 2) for r in table] == list(moves)
    assert moves[-1] == list(moves)[-1] and moves[1:3] == list(moves)[1:3]


def test_moves_pickle_and_copy_by_value() -> None:
    import copy
    import pickle

    move = Move.from_platform(["ThreeWithTwo", "A", ["CA", "CA", "DA", "H2", "H2"]], 2)
    for clone in (pickle.loads(pickle.dumps(move)), copy.deepcopy(move), copy.copy(move)):
        assert clone == move and hash(clone) == hash(move) and clone.to_platform() == move.to_platform()
    assert pickle.loads(pickle.dumps(PASS)) is PASS and copy.deepcopy(PASS) is PASS
    moves = legal_moves("S3 S4 S5 S6 H2", 2)
    assert list(pickle.loads(pickle.dumps(moves))) == list(moves)


def test_numpy_integers_are_integers() -> None:
    assert parse_level(np.int64(9)) == 9 and parse_level(np.uint8(14)) == 14
    assert Hand.parse("S3 S3").count(np.int64(4)) == 2
    assert len(legal_moves("S3 S4", np.int16(5))) == 2


def test_the_game_and_the_model_read_platform_triples_alike() -> None:
    from guandan_fast import Deal

    action = ["Bomb", "joker", ["SB", "SB", "HR", "HR"]]
    assert Move.from_platform(action, 2).kind is MoveType.FOUR_JOKERS
    deal = Deal.start(["SB SB HR HR S3", "S4", "S5", "S6"], 2, leader=0)
    deal.step(action)
    assert deal.hands[0] == Hand.parse("S3")
    with pytest.raises(ValueError, match="tribute and back are not moves"):
        deal.step(["tribute", "tribute", ["S3"]])
