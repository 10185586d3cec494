"""The native core on the hands most likely to break it, against the reference.

The 17,000+-move family (both wildcards and all eight copies of six consecutive ranks),
ten-card bombs, four jokers, A-low and A-high sequences at level A, hands of 0, 1 and
108 cards, the corner cases RULES.md spells out, and the C-level API of ``_movegen.pxd``
used from another Cython module.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pytest
from cython_build import build_extensions, load

from guandan_fast import Hand, MoveType, legal_moves
from guandan_fast.engine import _movegen, api
from guandan_fast.engine.cards import wildcard
from guandan_fast.engine.reference import beats

DECK = [index for index in range(54) for _ in range(2)]
Row = tuple[int, int, int, int]
B, FJ, SF = int(MoveType.BOMB), int(MoveType.FOUR_JOKERS), int(MoveType.STRAIGHT_FLUSH)


def native_rows(hand: Hand, level: int, last: tuple[int, int, int] = (0, 0, 0), strongest: bool = False) -> set[Row]:
    moves = _movegen.generate(hand.once, hand.twice, level, *last, strongest)
    kinds, keys, cards = moves.kinds, moves.keys, moves.cards
    rows = list(zip(kinds.tolist(), keys.tolist(), cards[:, 0].tolist(), cards[:, 1].tolist()))
    assert len(set(rows)) == len(rows), "a move listed twice"
    return set(rows)


def reference_rows(hand: Hand, level: int, strongest: bool = False) -> set[Row]:
    return {
        (int(m.kind), m.key, m.cards.once, m.cards.twice)
        for m in api.legal_moves(hand, level, strongest=strongest, backend="reference")
    }


def size(r: Row) -> int:
    return r[2].bit_count() + r[3].bit_count()


def beating(rows: set[Row], last: tuple[int, int, int]) -> set[Row]:
    return {r for r in rows if beats(r[0], r[1], size(r), *last)}


def strongest_of(rows: set[Row]) -> set[Row]:
    best: dict[tuple[int, int, int], int] = {}
    for kind, key, once, twice in rows:
        best[(kind, once, twice)] = max(key, best.get((kind, once, twice), -1))
    return {(kind, key, once, twice) for (kind, once, twice), key in best.items()}


def check_against_reference(hand: Hand, level: int, lasts: list[tuple[int, int, int]] = ()) -> set[Row]:
    """Leading and following, complete and strongest; returns the complete leading set."""
    complete = reference_rows(hand, level)
    strongest = strongest_of(complete)
    assert native_rows(hand, level) == complete
    assert native_rows(hand, level, strongest=True) == strongest
    for last in lasts:
        assert native_rows(hand, level, last) == beating(complete, last), last
        assert native_rows(hand, level, last, True) == beating(strongest, last), last
        has = _movegen.has_legal_follow(hand.once, hand.twice, level, *last)
        assert has is bool(beating(complete, last)), last
    return complete


#: a spread of moves to follow, as (kind, key, size): every bomb tier and common types
LASTS = [
    (1, 14, 1),
    (1, 15, 1),
    (2, 9, 2),
    (2, 16, 2),
    (3, 10, 3),
    (4, 8, 5),
    (5, 1, 5),
    (5, 9, 5),
    (6, 1, 6),
    (6, 11, 6),
    (7, 1, 6),
    (7, 12, 6),
    (B, 14, 4),
    (B, 15, 5),
    (SF, 1, 5),
    (SF, 9, 5),
    (B, 3, 6),
    (B, 15, 8),
    (B, 7, 9),
    (B, 14, 10),
    (B, 15, 10),
    (FJ, 0, 4),
]


def six_ranks(level: int, start: int) -> Hand:
    """Both wildcards plus all 4 suits x 2 copies of the six ranks from rank index ``start``."""
    wild = wildcard(level)
    cards = [4 * r + s for r in range(start, start + 6) for s in range(4) for _ in range(2)]
    return Hand.from_indices([c for c in cards if c != wild] + [wild, wild])


@pytest.mark.parametrize(("level", "start"), [(2, 1), (14, 0), (9, 7), (5, 2), (13, 7)])
def test_six_consecutive_ranks_with_both_wildcards(level: int, start: int) -> None:
    hand = six_ranks(level, start)
    complete = check_against_reference(hand, level, LASTS)
    assert len(complete) > 17_000


def test_the_biggest_hand_of_the_family_exceeds_thirty_thousand_moves() -> None:
    """Its speed is measured in benchmarks/ (the worst-hand case), not asserted here."""
    sizes = {(level, start): len(native_rows(six_ranks(level, start), level)) for level in range(2, 15) for start in range(8)}
    assert max(sizes.values()) > 30_000
    assert sizes[2, 1] == 37_026  # bench.worst_hand(), held to the reference in the test above


@pytest.mark.parametrize("level", [2, 8, 14])
def test_full_double_deck(level: int) -> None:
    """108 cards: every bomb of 4..10, four jokers, every sequence (the reference takes ~1 s)."""
    hand = Hand.from_indices(DECK)
    complete = check_against_reference(hand, level, [(B, 15, 10), (FJ, 0, 4), (SF, 9, 5), (7, 12, 6)])
    assert len(complete) > 100_000
    assert (FJ, 0, hand.once >> 52 << 52, hand.twice >> 52 << 52) in complete
    assert {r[1] for r in complete if r[0] == B and size(r) == 10} == {r for r in range(2, 15) if r != level}


def test_empty_and_one_card_hands() -> None:
    assert native_rows(Hand(), 2) == set()
    assert native_rows(Hand(), 2, (1, 3, 1)) == set()
    assert _movegen.has_legal_follow(0, 0, 2, 1, 3, 1) is False
    for level in (2, 9, 14):
        for card in range(54):
            hand = Hand.from_indices([card])
            got = check_against_reference(hand, level, [(1, 2, 1), (1, 15, 1), (2, 3, 2)])
            assert len(got) == 1 and next(iter(got))[0] == MoveType.SINGLE


@pytest.mark.parametrize("level", [2, 7, 14])
def test_ten_and_nine_card_bombs(level: int) -> None:
    for rank in range(13):
        wild = wildcard(level)
        cards = [4 * rank + s for s in range(4) for _ in range(2) if 4 * rank + s != wild] + [wild, wild]
        hand = Hand.from_indices(cards)
        complete = check_against_reference(hand, level, [(B, 15, 9), (B, 14, 10), (B, 15, 10), (FJ, 0, 4), (SF, 10, 5)])
        tens = [r for r in complete if r[0] == B and size(r) == 10]
        power = 15 if rank + 2 == level else rank + 2
        if rank + 2 == level:  # the level rank has six natural cards and two wildcards: eight
            assert tens == []
        else:
            assert [r[1] for r in tens] == [power]


def test_four_jokers() -> None:
    jokers = Hand("SB SB HR HR")
    for level in (2, 14):
        complete = check_against_reference(jokers, level, LASTS)
        assert (FJ, 0, jokers.once, jokers.twice) in complete
        assert native_rows(jokers, level, (FJ, 0, 4)) == set()
        assert native_rows(jokers, level, (B, 15, 10)) == {(FJ, 0, jokers.once, jokers.twice)}
    hand = Hand("SB SB HR HR S3 S3 H3 H3 C3 D3 D3 S4 H4 C4 D4 S5 H2 H2")
    check_against_reference(hand, 2, LASTS)
    check_against_reference(hand, 3, LASTS)


def test_a_low_and_a_high_sequences_at_level_a() -> None:
    level = 14  # the wildcards are HA; A still stands low (A2345) or high (TJQKA), never both
    hands = [
        "SA S2 S3 S4 S5 ST SJ SQ SK HA",
        "SA SA DA D2 D2 C2 S3 S3 HA HA",
        "SK SK CK SA CA DA S2 D2 C2",
        "CA DA S2 C2 S3 D3 SQ CQ SK DK HA",
        "SA DA CA SK DK CK HA HA S2 S3",
        "HA HA ST SJ SQ SK S2 S3 S4",
        "DA D2 D3 D4 DT DJ DQ DK HA",
    ]
    for text in hands:
        hand = Hand(text)
        complete = check_against_reference(
            hand, level, [(5, 1, 5), (5, 9, 5), (6, 1, 6), (7, 1, 6), (7, 12, 6), (SF, 1, 5)]
        )
        for r in complete:
            if r[0] in (5, 6, 7, 8):
                assert 1 <= r[1] <= {5: 10, 6: 12, 7: 13, 8: 10}[r[0]]
    # no wrap-around: K A 2 3 4 is no straight, with or without wildcards
    assert not any(r[0] == 5 for r in native_rows(Hand("SK SA S2 S3 S4"), 9))
    assert not any(r[0] == 6 for r in native_rows(Hand("SK SK SA SA S2 S2"), 9))
    assert {r[1] for r in native_rows(Hand("SK SK CK SA SA CA S2 S2 C2"), 9) if r[0] == 7} == {1, 13}


def test_rule_examples() -> None:
    # RULES.md §4 examples at level 2 (wildcard H2)
    w = Hand("H2")
    assert native_rows(w, 2) == {(1, 15, w.once, 0)}  # a wildcard alone is only a level single
    ww = Hand("H2 H2")
    pairs = {r for r in native_rows(ww, 2) if r[0] == MoveType.PAIR}
    assert {r[1] for r in pairs} == set(range(3, 15)) | {15}  # 13 pairs: every rank
    assert {r[1] for r in native_rows(ww, 2, strongest=True) if r[0] == MoveType.PAIR} == {15}
    straight = Hand("S3 S4 S5 S6 H2")
    five = {r for r in native_rows(straight, 2) if size(r) == 5}
    assert {(r[0], r[1]) for r in five} == {(5, 2), (5, 3), (8, 2), (8, 3)}
    assert {(r[0], r[1]) for r in native_rows(straight, 2, strongest=True) if size(r) == 5} == {(5, 3), (8, 3)}
    flush = Hand("DT DJ DQ DK DA")
    assert {(r[0], r[1]) for r in native_rows(flush, 9) if size(r) == 5} == {(5, 10), (8, 10)}
    full = Hand("CA CA DA H2 H2")
    assert {(r[0], r[1]) for r in native_rows(full, 2) if size(r) == 5} == {(4, 14), (B, 14)}
    # five natural cards of one rank are a bomb, never a full house
    assert {(r[0], r[1]) for r in native_rows(Hand("S9 S9 H9 C9 D9"), 2) if size(r) == 5} == {(B, 9)}
    # joker pairs complete full houses; SB HR is no pair
    jokers = Hand("S5 C5 D5 SB SB HR HR")
    rows = native_rows(jokers, 2)
    assert {r for r in rows if r[0] == 4} == {
        (4, 5, Hand("S5 C5 D5 SB SB").once, Hand("S5 C5 D5 SB SB").twice),
        (4, 5, Hand("S5 C5 D5 HR HR").once, Hand("S5 C5 D5 HR HR").twice),
    }
    assert not any(r[0] == 2 and r[2] == Hand("SB HR").once and r[3] == 0 for r in native_rows(Hand("SB HR"), 2))
    for text, level in [
        ("S5 C5 D5 SB SB HR HR H2 H2", 2),
        ("S5 C5 H2 H2 SK DK", 2),
        ("SA DA H7 H7 SK", 7),
        ("SQ SQ CQ H3 DK DK SB SB HR", 3),
    ]:
        check_against_reference(Hand(text), level, LASTS)


def test_wildcards_in_every_kind_of_straight_flush() -> None:
    for level in (2, 6, 10, 14):
        for suit in "SHCD":
            cards = [suit + r for r in "34567"]
            hand = Hand(cards[:3] + ["H" + "23456789TJQKA"[level - 2]] * 2)
            check_against_reference(hand, level, [(SF, 1, 5), (SF, 3, 5), (B, 15, 5), (B, 2, 6)])


def test_public_api_on_adversarial_hands(backend: str) -> None:
    hand = six_ranks(2, 1)
    if backend == "reference":
        hand = Hand("S3 S3 H3 C3 D4 D4 S5 C5 H2 H2 SB SB HR HR")
    moves = legal_moves(hand, 2, backend=backend)
    assert len(moves) == len(set(moves))
    assert api.has_legal_follow(hand, 2, ["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]], backend=backend) is False


# -- the C-level API, from another Cython module -------------------------------------------

C_API_TEST = textwrap.dedent(
    """
    # cython: language_level=3
    from libc.stdint cimport uint64_t
    from guandan_fast.engine._movegen cimport (
        MoveBuffer,
        movebuf_init,
        movebuf_free,
        movebuf_clear,
        generate_into,
        generate_append,
        has_legal_follow_c,
        check_args,
    )

    def run(uint64_t once, uint64_t twice, int level, int kind, int key, int size, bint strongest, int cap):
        cdef MoveBuffer buf
        cdef Py_ssize_t n, again
        if movebuf_init(&buf, cap) != 0:
            raise MemoryError()
        try:
            with nogil:
                n = generate_into(once, twice, level, kind, key, size, strongest, &buf)
                # a second call clears the buffer first
                again = generate_into(once, twice, level, kind, key, size, strongest, &buf)
            if n < 0:
                return n
            assert again == n == buf.n
            return [(buf.kinds[i], buf.keys[i], buf.cards[2 * i], buf.cards[2 * i + 1]) for i in range(n)]
        finally:
            movebuf_free(&buf)
            movebuf_free(&buf)  # safe twice

    def append_twice(uint64_t once, uint64_t twice, int level):
        cdef MoveBuffer buf
        cdef Py_ssize_t a, b
        movebuf_init(&buf, 1)
        a = generate_append(once, twice, level, 0, 0, 0, False, &buf)
        b = generate_append(once, twice, level, 0, 0, 0, False, &buf)
        total = buf.n
        movebuf_clear(&buf)
        cleared = buf.n
        movebuf_free(&buf)
        return a, b, total, cleared

    def has(uint64_t once, uint64_t twice, int level, int kind, int key, int size):
        return has_legal_follow_c(once, twice, level, kind, key, size)

    def check(uint64_t once, uint64_t twice, int level, int kind, int key, int size):
        return check_args(once, twice, level, kind, key, size)
    """
)


@pytest.fixture(scope="module")
def c_api_module(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return load(build_extensions(tmp_path_factory.mktemp("capi"), {"capi_user": C_API_TEST}), "capi_user")


def test_c_api_generate_into_matches_the_python_entry(c_api_module: Any) -> None:
    hand = six_ranks(2, 1)
    for last in [(0, 0, 0), (2, 9, 2), (B, 14, 4)]:
        for strongest in (False, True):
            for cap in (1, 7, 100_000):  # a buffer of one move must grow to 37,000
                rows = c_api_module.run(hand.once, hand.twice, 2, *last, strongest, cap)
                assert set(rows) == native_rows(hand, 2, last, strongest)
    assert c_api_module.run(1 << 54, 0, 2, 0, 0, 0, False, 8) == -2
    assert c_api_module.run(0, 1, 2, 0, 0, 0, False, 8) == -2
    assert c_api_module.run(1, 0, 15, 0, 0, 0, False, 8) == -2
    assert c_api_module.run(1, 0, 2, 11, 0, 0, False, 8) == -2
    assert c_api_module.run(1, 0, 2, 1, 18, 1, False, 8) == -2


def test_c_api_append_has_and_check(c_api_module: Any) -> None:
    hand = Hand("S3 S3 C4 D4 H2 SB SB")  # no bomb
    n = len(native_rows(hand, 2))
    assert c_api_module.append_twice(hand.once, hand.twice, 2) == (n, n, 2 * n, 0)
    assert c_api_module.has(hand.once, hand.twice, 2, 2, 16, 2) == 0
    assert c_api_module.has(hand.once, hand.twice, 2, 2, 15, 2) == 1
    assert c_api_module.has(hand.once, hand.twice, 2, 0, 0, 0) == 1
    assert c_api_module.has(0, 0, 2, 0, 0, 0) == 0
    assert c_api_module.has(0, 1, 2, 0, 0, 0) == -2
    assert c_api_module.check(hand.once, hand.twice, 2, 0, 0, 0) == 0
    assert [
        c_api_module.check(*args) for args in [(1 << 55, 0, 2, 0, 0, 0), (0, 1, 2, 0, 0, 0), (1, 0, 1, 0, 0, 0)]
    ] == [
        1,
        2,
        3,
    ]
    assert [c_api_module.check(1, 0, 2, *last) for last in [(12, 0, 0), (2, 5, 3), (2, 1, 2)]] == [4, 5, 6]


def test_batch_of_adversarial_hands_equals_single_calls() -> None:
    hands = [six_ranks(2, 1), Hand.from_indices(DECK), Hand(), Hand("SB SB HR HR"), six_ranks(14, 0)]
    planes = np.array([(h.once, h.twice) for h in hands], dtype=np.uint64)
    levels = np.array([2, 8, 3, 4, 14], dtype=np.uint8)
    kinds, keys, cards, offsets = _movegen.generate_batch(planes, levels, 0, 0, 0, False)
    for i, hand in enumerate(hands):
        a, b = int(offsets[i]), int(offsets[i + 1])
        rows = set(zip(kinds[a:b].tolist(), keys[a:b].tolist(), cards[a:b, 0].tolist(), cards[a:b, 1].tolist()))
        assert rows == native_rows(hand, int(levels[i]))


def test_the_play_state_refuses_forged_and_missing_moves() -> None:
    """``Move._trusted`` (a move made without its reading checked) still refuses a kind or
    key that indexes past the tables; the play state refuses None."""
    import guandan_fast as gf
    from guandan_fast.engine.moves import Move

    deal = gf.Deal.random(seed=1)
    before = (deal.current_seat, [str(hand) for hand in deal.hands], deal.legal_actions())
    cards = gf.Hand.parse(str(deal.hands[deal.current_seat]).split()[0])
    for kind, key in ((200, 3), (11, 3), (-1, 3), (1, 18), (1, -1)):
        with pytest.raises(ValueError, match="no move has kind"):
            Move._trusted(kind, key, cards, deal.level)
    with pytest.raises(TypeError):
        deal._state.step_move(None)
    assert (deal.current_seat, [str(hand) for hand in deal.hands], deal.legal_actions()) == before


def test_a_trusted_move_list_checks_its_array_lengths() -> None:
    """``MoveList._trusted`` copies n rows of each array: lengths that disagree are refused
    (the copy would read past the shorter arrays)."""
    from guandan_fast.engine.movelist import MoveList

    class Rows:
        kinds = np.ones(3, np.uint8)
        keys = np.ones(1, np.uint8)
        cards = np.zeros((3, 2), np.uint64)

    with pytest.raises(ValueError, match="kinds\\[n\\], keys\\[n\\]"):
        MoveList._trusted(Rows(), 2)
    Rows.keys, Rows.cards = np.ones(3, np.uint8), np.zeros(3, np.uint64)
    with pytest.raises(ValueError, match="cards\\[n, 2\\]"):
        MoveList._trusted(Rows(), 2)
