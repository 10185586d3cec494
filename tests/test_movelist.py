"""The native entry points (``_movelist``: MoveList, legal_moves, has_legal_follow) against
their pure-Python twin (``movelist``), and the native Hand/Move makers (``_values``).

The twins must agree on everything a caller sees: the moves and their order, each Move,
iteration, membership, the bulk forms, pickling, the array setters and the errors."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from guandan_fast import PASS, Hand, Move
from guandan_fast.engine import backend, movelist
from guandan_fast.engine.deal import deal_cards
from guandan_fast.engine.kinds import MoveArrays

native = pytest.importorskip("guandan_fast.engine._movelist")
values = pytest.importorskip("guandan_fast.engine._values")

TWINS = [pytest.param(native, id="native"), pytest.param(movelist, id="python")]
BACKENDS = ["native", "reference"]


def _cases(n: int = 12) -> list[tuple[Hand, int, object]]:
    """Dealt hands at random levels, each leading and following a move of the next hand."""
    rng = random.Random(7)
    cases: list[tuple[Hand, int, object]] = []
    while len(cases) < n:
        hands = deal_cards(rng)
        level = rng.randint(2, 14)
        for seat in range(4):
            nxt = native.legal_moves(hands[(seat + 1) % 4], level)
            last = nxt[rng.randrange(len(nxt))]
            cases += [(hands[seat], level, None), (hands[seat], level, last), (hands[seat], level, last.to_platform())]
    return cases[:n]


CASES = _cases()


def _same_lists(ours, theirs) -> None:
    assert len(ours) == len(theirs) == ours.count()
    assert ours.level == theirs.level
    for name in ("kinds", "keys", "cards"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))
    assert list(ours) == list(theirs)
    assert list(ours.rows()) == list(theirs.rows())
    assert [ours.row(i) for i in range(-len(ours), len(ours))] == [theirs.row(i) for i in range(-len(ours), len(ours))]
    assert all(type(part) is int for i in range(len(ours)) for part in ours.row(i))
    assert ours.to_platform() == theirs.to_platform()
    np.testing.assert_array_equal(ours.to_numpy(), theirs.to_numpy())


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize(("hand", "level", "last"), CASES)
def test_twins_list_the_same_moves(hand, level, last, name):
    for strongest in (False, True):
        ours = native.legal_moves(hand, level, last, strongest=strongest, backend=name)
        theirs = movelist.legal_moves(hand, level, last, strongest=strongest, backend=name)
        _same_lists(ours, theirs)
        target = last if isinstance(last, Move) else PASS
        assert all(move.beats(target) for move in ours)
    assert native.has_legal_follow(hand, level, last, backend=name) == movelist.has_legal_follow(
        hand, level, last, backend=name
    )


@pytest.mark.parametrize("twin", TWINS)
def test_indexing_membership_and_slices(twin):
    moves = twin.legal_moves("S3 H3 C3 D4 D4 S5 S6 S7 HR", 3)
    n = len(moves)
    assert moves[-1] == moves[n - 1] and moves[np.int64(2)] == moves[2]
    assert moves[1:4] == [moves[1], moves[2], moves[3]]
    assert all(move in moves for move in moves)
    assert moves[0].level == 3 and moves[0].table_args == (int(moves[0].kind), moves[0].key, len(moves[0].cards))
    other_level = twin.legal_moves("S3 H3 C3 D4 D4 S5 S6 S7 HR", 4)[0]
    assert other_level not in moves and "S3" not in moves and PASS not in moves
    with pytest.raises(IndexError, match=f"index {n} is out of bounds for axis 0 with size {n}"):
        moves[n]
    with pytest.raises(IndexError, match=f"index {-n - 1} is out of bounds"):
        moves[-n - 1]
    with pytest.raises(IndexError):
        moves[1.5]
    assert moves.row(-1) == next(reversed(list(moves.rows())))
    with pytest.raises(IndexError, match=f"index {n} is out of bounds for axis 0 with size {n}"):
        moves.row(n)


@pytest.mark.parametrize("twin", TWINS)
def test_pickle_and_wrapping_arrays(twin):
    moves = twin.legal_moves("S3 H3 C3 D4 D4 S5 S6 S7 HR SB", 5, ["Single", "4", ["S4"]])
    copy = pickle.loads(pickle.dumps(moves))
    assert type(copy) is type(moves) and list(copy) == list(moves) and copy.level == 5
    wrapped = twin.MoveList(moves, 5)
    assert list(wrapped) == list(moves) and repr(wrapped) == f"<MoveList of {len(moves)} moves at level 5>"


@pytest.mark.parametrize("twin", TWINS)
def test_setting_an_array_replaces_it(twin):
    moves = twin.legal_moves("S3 H3 C3 D4 D4 S5 S6 S7", 2)
    first = moves[0]
    moves.cards = moves.cards[::-1]
    assert moves[0] != first and moves[-1].cards == first.cards
    moves.keys = np.full(len(moves), 7, dtype=np.uint8)
    assert {move.key for move in moves} == {7}
    moves.kinds = moves.kinds[:3]
    assert len(moves) == 3 and len(list(moves.rows())) == 3


@pytest.mark.parametrize("twin", TWINS)
def test_bad_input_names_the_fault(twin):
    with pytest.raises(ValueError, match="level"):
        twin.legal_moves("S3", 15)
    with pytest.raises(TypeError):
        twin.legal_moves(3.5, 2)
    with pytest.raises(ValueError, match="do not read as"):
        twin.legal_moves("S3 S4", 2, ["Pair", "3", ["S3", "S4"]])
    with pytest.raises(ValueError, match="level 3, not at level 2"):
        twin.has_legal_follow("S3 S4", 2, twin.legal_moves("S5", 3)[0])
    with pytest.raises(ValueError, match="unknown backend"):
        twin.legal_moves("S3", 2, backend="java")


def test_the_default_backend_reaches_the_native_entry_points():
    try:
        backend.set_default_backend("reference")
        moves = native.legal_moves("S3 H3 S4", 2)
        assert type(moves) is native.MoveList and len(moves) == len(movelist.legal_moves("S3 H3 S4", 2))
        assert native.has_legal_follow("S3 H3 S4", 2, ["Single", "3", ["D3"]])
        assert not native.has_legal_follow("S3 H3 S4", 2, ["Single", "2", ["S2"]])  # the level card
    finally:
        backend.set_default_backend("native")


def test_makers_build_the_classes_bound():
    hand = values.new_hand(5, 1)
    assert type(hand) is Hand and hand == Hand("S2 S2 C2")
    move = values.new_move_of((2, 3, 1 << 4 | 1 << 5, 0, 2), 7)  # the pair S3 H3
    assert type(move) is Move and move == Move(2, 3, "S3 H3", 7) and move.table_args == (2, 3, 2)
    with pytest.raises(AttributeError):
        move.key = 4  # still immutable


class _WithDict:
    pass


class _Slotted:
    __slots__ = ("_once",)


class _LaterSlotMissing:
    # CPython lays slots out in sorted order: _once comes after A..D, far from Hand's _once
    __slots__ = ("A", "B", "C", "D", "_once")  # and there is no _twice


class _Liar(type):
    def __subclasscheck__(cls, other):
        return True


class _Big(metaclass=_Liar):  # claims every class as a subclass (issubclass would believe it)
    __slots__ = tuple(f"s{i}" for i in range(40))


class _Borrower:
    """Holds another class's descriptors, far past its own end."""

    __slots__ = ()
    _once = _Big.__dict__["s38"]
    _twice = _Big.__dict__["s39"]


@pytest.mark.parametrize("cls", [_WithDict, _Slotted, int, _LaterSlotMissing, _Borrower])
def test_makers_refuse_classes_they_cannot_fill(cls):
    with pytest.raises(TypeError):
        values.bind_hand(cls)
    for _ in range(1000):  # a refused binding changes nothing: the slots are still Hand's
        hand = values.new_hand(5, 1)
    assert type(hand) is Hand and (hand.once, hand.twice) == (5, 1)


@pytest.mark.parametrize("twin", TWINS)
def test_any_int_outside_the_list_is_an_index_error(twin):
    moves = twin.legal_moves("S3 H3 S4", 2)
    for index in (2**63, -(2**63) - 1, 10**30):
        with pytest.raises(IndexError):
            moves[index]
        with pytest.raises(IndexError):
            moves.row(index)


@pytest.mark.parametrize("twin", TWINS)
def test_given_arrays_are_read_as_ints(twin):
    moves = twin.legal_moves("S3 H3 S4", 2)
    wrapped = twin.MoveList(MoveArrays(moves.kinds, moves.keys, moves.cards.astype(np.int64)), 2)
    assert list(wrapped) == list(moves)


def test_python_makers_make_what_the_native_ones_make():
    from guandan_fast.engine import hand as hand_module
    from guandan_fast.engine import moves as moves_module

    assert hand_module._new_hand_in_python(5, 1) == values.new_hand(5, 1)
    row = (2, 3, 1 << 4 | 1 << 5, 0, 2)
    made = moves_module._move_of_row_in_python(row, 7)
    assert type(made) is Move and made == values.new_move_of(row, 7) and made.table_args == (2, 3, 2)
    parts = (made.kind, 3, made.cards, 7, (2, 3, 2))
    assert moves_module._made_in_python(*parts) == values.new_move(*parts)


@pytest.mark.parametrize("name", BACKENDS)
def test_arrays_outlive_their_list_and_do_not_hold_it(name):
    import sys

    expected = [list(movelist.legal_moves(hand, level, last, backend=name).rows()) for hand, level, last in CASES]
    arrays = []
    for hand, level, last in CASES:
        moves = native.legal_moves(hand, level, last, backend=name)
        held = sys.getrefcount(moves)
        arrays.append((moves.kinds, moves.keys, moves.cards))
        # the views' base is the memory, not the list: a view holding the list while the list
        # caches the view was a cycle numpy arrays hide from the collector (a leak per list)
        assert sys.getrefcount(moves) == held
        del moves
    for (kinds, keys, cards), rows in zip(arrays, expected):
        assert list(zip(kinds.tolist(), keys.tolist(), cards[:, 0].tolist(), cards[:, 1].tolist())) == rows
