"""The entry points (``movelist``: MoveList, legal_moves, has_legal_follow) on the native core,
held to the reference oracle, and MoveList as a value: what a caller sees of a list (the moves,
each Move, iteration, membership, the bulk forms, pickling, the array setters) and its errors."""

from __future__ import annotations

import copy
import pickle
import random
import sys

import numpy as np
import pytest

from guandan_fast import PASS, Hand, Move, MoveType, legal_moves_batch
from guandan_fast.engine import backend
from guandan_fast.engine.deal import deal_cards
from guandan_fast.engine.kinds import MoveArrays
from guandan_fast.engine.movelist import MoveList, has_legal_follow, legal_moves

BACKENDS = ["native", "reference"]


def _cases(n: int = 12) -> list[tuple[Hand, int, object]]:
    """Dealt hands at random levels, each leading and following a move of the next hand."""
    rng = random.Random(7)
    cases: list[tuple[Hand, int, object]] = []
    while len(cases) < n:
        hands = deal_cards(rng)
        level = rng.randint(2, 14)
        for seat in range(4):
            nxt = legal_moves(hands[(seat + 1) % 4], level)
            last = nxt[rng.randrange(len(nxt))]
            cases += [(hands[seat], level, None), (hands[seat], level, last), (hands[seat], level, last.to_platform())]
    return cases[:n]


CASES = _cases()


def _consistent(moves: MoveList) -> None:
    """Every view of one list tells the same moves."""
    n = len(moves)
    assert n == moves.count() == len(moves.kinds) == len(moves.keys) == len(moves.cards)
    listed = list(moves)
    assert listed == [moves[i] for i in range(n)] == moves[:] and len(set(listed)) == n
    rows = list(moves.rows())
    assert rows == [moves.row(i) for i in range(n)] == [moves.row(i - n) for i in range(n)]
    assert rows == [(int(m.kind), m.key, m.cards.once, m.cards.twice) for m in listed]
    assert all(type(part) is int for row in rows for part in row)
    assert moves.to_platform() == [m.to_platform() for m in listed]
    table = moves.to_numpy()
    assert [(int(r["kind"]), int(r["key"]), int(r["cards"][0]), int(r["cards"][1])) for r in table] == rows
    assert all(m.level == moves.level and m in moves for m in listed)


@pytest.mark.parametrize(("hand", "level", "last"), CASES)
def test_native_lists_equal_the_reference_oracle(hand, level, last):
    for strongest in (False, True):
        ours = legal_moves(hand, level, last, strongest=strongest)
        theirs = legal_moves(hand, level, last, strongest=strongest, backend="reference")
        for moves in (ours, theirs):
            assert type(moves) is MoveList and moves.level == level
            _consistent(moves)
        assert set(ours.rows()) == set(theirs.rows())
        target = last if isinstance(last, Move) else Move.from_platform(last, level) if last else PASS
        assert all(move.beats(target) for move in ours)
    assert has_legal_follow(hand, level, last) == has_legal_follow(hand, level, last, backend="reference")


def test_indexing_membership_and_slices():
    moves = legal_moves("S3 H3 C3 D4 D4 S5 S6 S7 HR", 3)
    n = len(moves)
    assert moves[-1] == moves[n - 1] and moves[np.int64(2)] == moves[2] and moves.row(np.int64(2)) == moves.row(2)
    assert moves[1:4] == [moves[1], moves[2], moves[3]]
    assert all(move in moves for move in moves)
    assert moves[0].level == 3 and moves[0].cards in Hand("S3 H3 C3 D4 D4 S5 S6 S7 HR")
    other_level = legal_moves("S3 H3 C3 D4 D4 S5 S6 S7 HR", 4)[0]
    assert other_level not in moves and "S3" not in moves and PASS not in moves
    with pytest.raises(IndexError, match=f"index {n} is out of bounds for axis 0 with size {n}"):
        moves[n]
    with pytest.raises(IndexError, match=f"index {-n - 1} is out of bounds"):
        moves[-n - 1]
    with pytest.raises(TypeError, match="indices must be integers or slices, not float"):
        moves[1.5]  # as a Python list says (numpy's IndexError named no type)
    assert moves.row(-1) == next(reversed(list(moves.rows())))
    with pytest.raises(IndexError, match=f"index {n} is out of bounds for axis 0 with size {n}"):
        moves.row(n)


@pytest.mark.parametrize("name", BACKENDS)
def test_pickles_copies_and_wrapping_arrays(name):
    moves = legal_moves("S3 H3 C3 D4 D4 S5 S6 S7 HR SB", 5, ["Single", "4", ["S4"]], backend=name)
    for again in (pickle.loads(pickle.dumps(moves)), copy.copy(moves), copy.deepcopy(moves)):
        assert type(again) is MoveList and list(again) == list(moves) and again.level == 5 and again is not moves
    wrapped = MoveList(moves, 5)
    assert list(wrapped) == list(moves) and repr(wrapped) == f"<MoveList of {len(moves)} moves at level 5>"
    assert list(MoveList(MoveArrays(moves.kinds, moves.keys, moves.cards), "5")) == list(moves)
    empty = legal_moves("S3", 5, ["Single", "A", ["SA"]], backend=name)
    assert len(pickle.loads(pickle.dumps(empty))) == 0


def test_lists_compare_by_their_moves_and_level():
    hand = "S3 H3 C3 D4 D4 S5 S6 S7 HR SB"
    moves = legal_moves(hand, 5)
    assert moves == legal_moves(Hand(hand), "5") and (moves != legal_moves(hand, 5)) is False
    assert moves == pickle.loads(pickle.dumps(moves)) == copy.copy(moves) == MoveList(moves, 5)
    assert moves != legal_moves(hand, 6)  # the same cards at another level: other moves
    assert moves != legal_moves(hand, 5, ["Single", "4", ["S4"]])  # a subset
    reordered = MoveList(MoveArrays(moves.kinds[::-1], moves.keys[::-1], moves.cards[::-1]), 5)
    assert reordered != moves and list(reordered) == list(moves)[::-1]  # order counts, as in a list
    assert moves != list(moves) and moves.__eq__(list(moves)) is NotImplemented
    assert legal_moves("S3", 5, ["Single", "A", ["SA"]]) == legal_moves("S4", 5, ["Single", "A", ["SA"]])
    with pytest.raises(TypeError, match="unhashable"):
        hash(moves)  # a list's arrays can be set: no hash, as a Python list


def test_a_list_is_a_copy_of_the_arrays_it_is_given():
    moves = legal_moves("S3 H3 C3 D4 D4 S5 S6 S7", 2)
    kinds, keys, cards = moves.kinds.copy(), moves.keys.copy(), moves.cards.copy()
    wrapped = MoveList(MoveArrays(kinds, keys, cards), 2)
    cards[:] = 0  # the caller's arrays change: the list does not
    assert list(wrapped) == list(moves)


def test_setting_an_array_replaces_it():
    moves = legal_moves("S3 H3 C3 D4 D4 S5 S6 S7", 2)
    first, n = moves[0], len(moves)
    order = np.arange(n)[::-1]
    # an array set alone is checked against the others: reversed cards pair rows that are no move
    with pytest.raises(ValueError, match="do not read as"):
        moves.cards = moves.cards[order]
    assert moves[0] == first  # a refused array changes nothing
    held = moves.kinds  # a view handed out before keeps what it saw
    moves.__init__(MoveArrays(moves.kinds[order], moves.keys[order], moves.cards[order]), 2)
    assert moves[-1] == first and len(moves) == n and held[0] == first.kind
    # the singles S3 and H3 have the same kind and key: their cards may trade places
    s3, h3 = (next(i for i, m in enumerate(moves) if m.to_platform() == ["Single", "3", [card]]) for card in ("S3", "H3"))
    cards = moves.cards.copy()
    cards[[s3, h3]] = cards[[h3, s3]]
    moves.cards = cards
    assert moves[s3].cards == Hand("H3") and moves[h3].cards == Hand("S3") and len(moves) == n
    with pytest.raises(ValueError, match="shapes"):
        moves.kinds = moves.kinds[:3]
    with pytest.raises(ValueError, match="do not read as"):
        moves.keys = np.full(n, 7, dtype=np.uint8)
    assert len(moves) == n and moves[h3].cards == Hand("S3")


@pytest.mark.parametrize(
    ("kinds", "keys", "cards", "error", "words"),
    [
        ([1], [3], [[1 << 4, 0]], None, ""),  # the single S3
        ([1], [3], [[1 << 4]], ValueError, "shapes"),
        ([1, 1], [3], [[1 << 4, 0]], ValueError, "shapes"),
        ([[1]], [3], [[1 << 4, 0]], ValueError, "one-dimensional"),
        ([1.0], [3], [[1 << 4, 0]], TypeError, "integer array"),
        ([1], ["3"], [[1 << 4, 0]], TypeError, "integer array"),
        ([11], [3], [[1 << 4, 0]], ValueError, "kinds are outside"),
        ([-1], [3], [[1 << 4, 0]], ValueError, "kinds are outside"),
        ([1], [18], [[1 << 4, 0]], ValueError, "keys are outside"),
        ([1], [3], [[1 << 54, 0]], ValueError, "cards are outside"),
        ([1], [3], [[-1, 0]], ValueError, "cards are outside"),
        ([0], [0], [[0, 0]], ValueError, "is a pass"),
        ([1], [3], [[1 << 4, 1 << 4]], ValueError, "do not read as"),  # S3 S3 is a pair
        ([1], [3], [[1 << 4, 1 << 5]], ValueError, "marked 'twice'"),
        ([1], [4], [[1 << 4, 0]], ValueError, "do not read as Single with key 4"),
    ],
)
def test_a_list_of_arrays_holds_legal_readings_only(kinds, keys, cards, error, words):
    arrays = MoveArrays(np.array(kinds), np.array(keys), np.array(cards))
    if error is None:
        assert list(MoveList(arrays, 2)) == [Move.from_platform(["Single", "3", ["S3"]], 2)]
        return
    with pytest.raises(error, match=words):
        MoveList(arrays, 2)


def test_bad_input_names_the_fault():
    with pytest.raises(ValueError, match="level"):
        legal_moves("S3", 15)
    with pytest.raises(TypeError):
        legal_moves(3.5, 2)
    with pytest.raises(ValueError, match="do not read as"):
        legal_moves("S3 S4", 2, ["Pair", "3", ["S3", "S4"]])
    with pytest.raises(ValueError, match="level 3, not at level 2"):
        has_legal_follow("S3 S4", 2, legal_moves("S5", 3)[0])
    with pytest.raises(ValueError, match="unknown backend"):
        legal_moves("S3", 2, backend="java")
    with pytest.raises(ValueError, match="level"):
        MoveList(legal_moves("S3", 2), 15)
    with pytest.raises(AttributeError):
        legal_moves("S3", 2).level = 3  # type: ignore[misc]


def test_the_default_backend_reaches_the_entry_points():
    try:
        backend.set_default_backend("reference")
        moves = legal_moves("S3 H3 S4", 2)
        assert type(moves) is MoveList and set(moves) == set(legal_moves("S3 H3 S4", 2, backend="native"))
        assert has_legal_follow("S3 H3 S4", 2, ["Single", "3", ["D3"]])
        assert not has_legal_follow("S3 H3 S4", 2, ["Single", "2", ["S2"]])  # the level card
    finally:
        backend.set_default_backend("native")


def test_any_int_outside_the_list_is_an_index_error():
    moves = legal_moves("S3 H3 S4", 2)
    for index in (2**63, -(2**63) - 1, 10**30):
        with pytest.raises(IndexError):
            moves[index]
        with pytest.raises(IndexError):
            moves.row(index)


def test_given_arrays_are_read_as_ints():
    moves = legal_moves("S3 H3 S4", 2)
    wrapped = MoveList(MoveArrays(moves.kinds.astype(np.int64), moves.keys, moves.cards.astype(np.int64)), 2)
    assert list(wrapped) == list(moves)


def test_a_shared_list_reads_the_same_memory_read_only():
    """How a Deal hands out the list it keeps: no copy, read-only arrays, alive as long as
    either list (or a view) is; setting an array gives the shared list memory of its own."""
    import gc

    moves = legal_moves("S3 H3 C3 D4 D4 S5 S6 S7", 2)
    rows = list(moves.rows())
    shared = moves._shared()
    assert list(shared.rows()) == rows and shared.level == 2 and shared.cards.base is moves.cards.base
    with pytest.raises(ValueError, match="read-only"):
        shared.cards[0, 0] = 0
    del moves
    gc.collect()
    assert list(shared.rows()) == rows and [m.cards for m in shared] == [Hand.from_bits(r[2], r[3]) for r in rows]
    shared.__init__(MoveArrays(shared.kinds[::-1], shared.keys[::-1], shared.cards[::-1]), 2)
    assert list(shared.rows()) == rows[::-1]


def test_move_arrays_are_read_only_for_good():
    """A row written in place would make a Move its cards do not read as (one S3 played as
    four jokers, say) that a Deal would then play: every move array is read-only, and numpy
    cannot make it writable; a changed array is set on the list, which checks it."""
    moves = legal_moves("S3 H3 S4", 2)
    single = legal_moves_batch([Hand.parse("S3 H3 S4")], 2)
    joined = legal_moves_batch([Hand.parse("S3 H3 S4")] * 200, 2, threads=2)
    arrays = [moves.kinds, moves.keys, moves.cards, single.kinds, single.cards, single[0].keys, joined.keys]
    for array in arrays:
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 10
    for array in arrays[:-1]:  # over the native memory: never writable again
        with pytest.raises(ValueError, match="cannot set WRITEABLE"):
            array.setflags(write=True)
    kinds = moves.kinds.copy()
    kinds[0] = 10  # row 0 is the single S3: as a four-joker bomb it is no reading
    with pytest.raises(ValueError, match="move 0 of the list"):
        moves.kinds = kinds
    assert list(moves.rows()) == list(legal_moves("S3 H3 S4", 2).rows())


@pytest.mark.parametrize("name", BACKENDS)
def test_arrays_outlive_their_list_and_do_not_hold_it(name):
    expected = [list(legal_moves(hand, level, last, backend=name).rows()) for hand, level, last in CASES]
    arrays = []
    for hand, level, last in CASES:
        moves = legal_moves(hand, level, last, backend=name)
        held = sys.getrefcount(moves)
        arrays.append((moves.kinds, moves.keys, moves.cards))
        # the views' base is the memory, not the list: a view holding the list while the list
        # caches the view was a cycle numpy arrays hide from the collector (a leak per list)
        assert sys.getrefcount(moves) == held
        del moves
    for (kinds, keys, cards), rows in zip(arrays, expected):
        assert list(zip(kinds.tolist(), keys.tolist(), cards[:, 0].tolist(), cards[:, 1].tolist())) == rows


def test_a_default_backend_is_set_by_name_only() -> None:
    from guandan_fast.engine.backend import resolve_backend, set_default_backend

    before = resolve_backend()
    for bad, error in ((None, TypeError), (5, TypeError), (b"native", TypeError), ("gpu", ValueError)):
        with pytest.raises(error, match="native' or 'reference"):
            set_default_backend(bad)  # type: ignore[arg-type]
        assert resolve_backend() == before  # nothing changed
    with pytest.raises(TypeError, match="a backend is named by a string"):
        legal_moves("S2", 2, backend=["native"])  # type: ignore[arg-type]


def test_every_pass_is_the_pass() -> None:
    import pickle

    made = Move(MoveType.PASS, 0, [], 7)  # a pass has no level
    assert made == PASS and made.level == 0 and hash(made) == hash(PASS)
    assert pickle.loads(pickle.dumps(made)) is PASS and pickle.loads(pickle.dumps(PASS)) is PASS
    with pytest.raises(ValueError, match="a pass has no cards"):
        Move(MoveType.PASS, 3, [], 7)


def test_bytes_are_no_cards_and_the_beats_rule_takes_what_moves_have() -> None:
    from guandan_fast.engine.moves import beats

    for raw in (b"S2 S2", bytearray(b"S2")):
        with pytest.raises(TypeError, match=f"card strings such as 'S2 H3', not {type(raw).__name__}"):
            legal_moves(raw, 2)  # iterated, bytes would be ints
    assert beats(MoveType.PAIR, 5, 2, MoveType.PAIR, 4, 2) and not beats(MoveType.PAIR, 4, 2, MoveType.PAIR, 5, 2)
    assert beats(np.int64(1), 3, 1, 0, 0, 0)  # leading: anything but a pass
    for args, error, words in (
        ((100, 0, 1, 0, 0, 0), ValueError, "kind must be an integer 0..10, not 100"),
        ((1, 2**31, 1, 0, 0, 0), ValueError, "key must be an integer 0..17"),
        ((1, 3, 1, 1, 2, -1), ValueError, "last_size must be an integer 0..108"),
        ((1.0, 3, 1, 0, 0, 0), TypeError, "kind must be an integer"),
    ):
        with pytest.raises(error, match=words):
            beats(*args)
