"""The pure-Python twin of :mod:`guandan_fast.engine._movelist`: :class:`MoveList`,
:func:`legal_moves` and :func:`has_legal_follow` (:mod:`guandan_fast.engine.api` hands out the
native ones when the extension is built, else these; both take and return the same).

Both generators (see :mod:`guandan_fast.engine.backend`) fill either list: the list holds a
generator's result (a :class:`~guandan_fast.engine.kinds.MoveArrays` or the native ``Moves``)
and builds :class:`~guandan_fast.engine.moves.Move` objects only when asked.
"""

from __future__ import annotations

from collections.abc import Iterator
from operator import attrgetter
from types import ModuleType
from typing import Any

import numpy as np

from ..engine import backend as _backend
from .backend import Backend, generator
from .cards import parse_level
from .hand import Hand, as_hand, new_hand
from .kinds import LEADING, MoveArrays
from .moves import Move, MoveType, read_slowly

__all__ = ["MOVE_DTYPE", "MoveList", "call_args", "has_legal_follow", "last_args", "legal_moves"]

#: Structured dtype of :meth:`MoveList.to_numpy`.
MOVE_DTYPE = np.dtype([("kind", np.uint8), ("key", np.uint8), ("cards", np.uint64, (2,))])


class MoveList:
    """The moves of one call, held as parallel numpy arrays.

    ``kinds[i]`` (:class:`~guandan_fast.engine.moves.MoveType` codes), ``keys[i]`` and
    ``cards[i] = (once, twice)`` describe move ``i``; :class:`Move` objects are made
    only on iteration or indexing, and :meth:`row` / :meth:`rows` give plain ints, so
    bulk users pay nothing per move. ``MoveList(moves, level)`` wraps any object with the
    three arrays (a :class:`~guandan_fast.engine.kinds.MoveArrays`, or a generator's result).

    This is the pure-Python class. Where the extension is built, the lists handed out
    (and ``guandan_fast.MoveList``) are its native twin, ``guandan_fast.engine._movelist.MoveList``,
    with the same methods and errors, which holds a native list's moves in memory of its own.
    """

    __slots__ = ("_lookup", "_moves", "level")

    def __init__(self, moves: MoveArrays, level: int) -> None:
        # legal_moves fills the same three slots itself (see _new_list)
        self._moves = moves
        self.level = level
        self._lookup: set[tuple[int, int, int, int]] | None = None

    def _set_kinds(self, kinds: np.ndarray) -> None:
        self._rebind(kinds, self._moves.keys, self._moves.cards)

    def _set_keys(self, keys: np.ndarray) -> None:
        self._rebind(self._moves.kinds, keys, self._moves.cards)

    def _set_cards(self, cards: np.ndarray) -> None:
        self._rebind(self._moves.kinds, self._moves.keys, cards)

    # read through C-level getters (no Python frame per access: the game reads them per step)
    kinds = property(attrgetter("_moves.kinds"), _set_kinds, doc="``uint8[n]``: the MoveType code of each move.")
    keys = property(attrgetter("_moves.keys"), _set_keys, doc="``uint8[n]``: the key of each move.")
    cards = property(
        attrgetter("_moves.cards"), _set_cards, doc="``uint64[n, 2]``: the ``(once, twice)`` planes of each move."
    )

    def _rebind(self, kinds: np.ndarray, keys: np.ndarray, cards: np.ndarray) -> None:
        """Arrays set on the list replace its own (the generator's result is left as it is)."""
        self._moves = MoveArrays(kinds, keys, cards)
        self._lookup = None

    def __len__(self) -> int:
        return len(self._moves)

    def count(self) -> int:
        """Number of moves (python-chess style)."""
        return len(self._moves)

    # (type checkers read the overloads of the native twin's stub, _movelist.pyi)
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        moves = self._moves
        try:
            once, twice = moves.cards[index]
        except OverflowError:  # an int too large for numpy: outside the list, as any other
            raise IndexError(f"index {index} is out of bounds for axis 0 with size {len(self)}") from None
        return Move._trusted(
            MoveType(int(moves.kinds[index])), int(moves.keys[index]), new_hand(int(once), int(twice)), self.level
        )

    def __iter__(self) -> Iterator[Move]:
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, move: object) -> bool:
        if not isinstance(move, Move) or move.level != self.level:
            return False
        if self._lookup is None:
            self._lookup = set(self.rows())
        return (int(move.kind), move.key, move.cards.once, move.cards.twice) in self._lookup

    def row(self, index: int) -> tuple[int, int, int, int]:
        """Move ``index`` as plain ints ``(kind, key, once, twice)``, without building a Move."""
        moves = self._moves
        cards = moves.cards
        try:
            return moves.kinds.item(index), moves.keys.item(index), cards.item(index, 0), cards.item(index, 1)
        except OverflowError:  # an int too large for numpy: outside the list, as any other
            raise IndexError(f"index {index} is out of bounds for axis 0 with size {len(self)}") from None

    def rows(self) -> Iterator[tuple[int, int, int, int]]:
        """Every move as plain ints ``(kind, key, once, twice)``, without building Moves."""
        moves = self._moves
        return zip(moves.kinds.tolist(), moves.keys.tolist(), moves.cards[:, 0].tolist(), moves.cards[:, 1].tolist())

    def to_platform(self) -> list[list[Any]]:
        """Every move as a platform triple ``[type, rank, cards]``."""
        return [move.to_platform() for move in self]

    def to_numpy(self) -> np.ndarray:
        """One structured row per move: ``kind`` (uint8), ``key`` (uint8), ``cards`` (uint64[2])."""
        out = np.empty(len(self), dtype=MOVE_DTYPE)
        out["kind"], out["key"], out["cards"] = self.kinds, self.keys, self.cards
        return out

    def __repr__(self) -> str:
        return f"<MoveList of {len(self)} moves at level {self.level}>"


#: A MoveList made without running ``__init__`` (its Python frame is a tenth of a following
#: call); the caller fills the slots ``_moves``, ``level`` and ``_lookup``.
_new_list = object.__new__


def last_args(last: Any, level: int, gen: ModuleType | None = None) -> tuple[int, int, int]:
    """``(kind, key, size)`` of the move to beat: None or PASS (leading), a :class:`Move`, or
    a platform triple, read without building a Move and checked by ``gen`` (default: the
    chosen generator) as :meth:`Move.from_platform` checks it."""
    if last is None:
        return LEADING
    if isinstance(last, Move):
        if last.kind is not MoveType.PASS and last.level != level:
            raise ValueError(f"the last move was made at level {last.level}, not at level {level}")
        return last.table_args
    if gen is None:
        gen = generator()
    row = gen.read_checked(last, level)
    if row is None:
        row = read_slowly(last, level, gen)
        if row is None:
            return LEADING
    return row[0], row[1], row[4]


def call_args(hand: Any, level: Any, last: Any, backend: Backend | None) -> tuple[Hand, int, ModuleType, int, int, int]:
    """The arguments of a :func:`legal_moves` or :func:`has_legal_follow` call, read: the
    hand as a Hand, the level as an int, the generator to ask, and the move to beat as
    ``(kind, key, size)`` (ValueError/TypeError naming a fault)."""
    if type(hand) is not Hand:
        hand = as_hand(hand)
    if type(level) is not int or not 2 <= level <= 14:
        level = parse_level(level)
    gen = _backend._default_generator if backend is None else None  # read, not called: the hot path
    if gen is None:
        gen = generator(backend)
    if type(last) is Move and last.level == level:  # the common case, checked first (hot path)
        kind, key, size = last.table_args
    else:
        kind, key, size = last_args(last, level, gen)
    return hand, level, gen, kind, key, size


def legal_moves(
    hand: Any,
    level: int | str,
    last: Any = None,
    *,
    strongest: bool = False,
    backend: Backend | None = None,
) -> MoveList:
    """Every legal move of ``hand`` at ``level``: leading, or beating ``last``.

    ``hand`` is a :class:`Hand`, a card string (``"S2 H2 SB"``) or an iterable of card
    strings; ``last`` is None (leading), a :class:`Move` or a platform triple. The list is
    complete (every reading, RULES.md §4) unless ``strongest`` keeps one per (type, cards).
    Passing is always allowed to a follower and is not listed.
    """
    hand, level, gen, kind, key, size = call_args(hand, level, last, backend)
    moves = _new_list(MoveList)
    moves._moves = gen.generate(hand._once, hand._twice, level, kind, key, size, strongest)
    moves.level = level
    moves._lookup = None
    return moves


def has_legal_follow(hand: Any, level: int | str, last: Any, *, backend: Backend | None = None) -> bool:
    """Whether ``hand`` can beat ``last`` (a pass does not count); stops at the first move.

    ``last`` is a :class:`Move` or a platform triple (None or PASS: whether the hand can
    lead at all, that is whether it holds a card).
    """
    hand, level, gen, kind, key, size = call_args(hand, level, last, backend)
    return gen.has_legal_follow(hand._once, hand._twice, level, kind, key, size)
