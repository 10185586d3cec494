"""The :class:`Move` value: (type, key, cards) at a level, and its platform triple (RULES.md §3-6).

The vocabulary a move is made of — :class:`MoveType`, keys, the bomb ladder, :func:`beats`,
the platform's names — lives in :mod:`guandan_fast.engine.kinds`, below the generators; a move
is checked by the generator of :mod:`guandan_fast.engine.backend` (native or reference).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from types import ModuleType
from typing import Any, Final

from .backend import generator
from .cards import level_char, parse_level
from .hand import Hand, _values, as_hand, card_names, new_hand
from .kinds import (
    PLATFORM_NAMES,
    SEQUENCE_TYPES,
    MoveType,
    beats,
    bomb_tier,
    platform_rank,
    platform_row,
)

__all__ = [
    "PASS",
    "PLATFORM_NAMES",
    "SEQUENCE_TYPES",
    "Move",
    "MoveType",
    "beats",
    "bomb_tier",
    "platform_rank",
    "read_platform",
    "sort_key",
]

#: MoveType members by code (an index is cheaper than calling the enum).
_KINDS: Final = tuple(MoveType)


class Move:
    """A legal play: its type, its key (strength inside the type) and its cards, at a level.

    Two moves are equal when type, key, cards and level are equal (RULES.md §4): which
    wildcard stood for what is not part of a move.
    """

    __slots__ = ("cards", "key", "kind", "level", "table_args")

    kind: MoveType
    key: int
    cards: Hand
    level: int
    #: ``(kind, key, size)`` as plain ints: how the native core is told the move to beat.
    table_args: tuple[int, int, int]

    def __new__(cls, kind: MoveType | int, key: int, cards: Any, level: int | str) -> Move:
        """A move, validated: ``cards`` must really read as ``kind`` with ``key`` at ``level``."""
        level = parse_level(level)
        kind = MoveType(kind)
        cards = as_hand(cards)
        if type(key) is not int and not isinstance(key, bool):
            key = _plain(key)
        if kind is MoveType.PASS:
            if cards or key:
                raise ValueError("a pass has no cards and no key")
        else:
            check_reading(kind, key, cards.once, cards.twice, level)
        return cls._trusted(kind, key, cards, level)

    @classmethod
    def _trusted(cls, kind: MoveType, key: int, cards: Hand, level: int) -> Move:
        """A move already known to be a legal reading (the generators' output)."""
        return _made(kind, key, cards, level, (int(kind), key, cards._once.bit_count() + cards._twice.bit_count()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Move is immutable")

    def __reduce__(self) -> str | tuple[Any, ...]:
        """Pickle and copy by value; the pass comes back as the one :data:`PASS`."""
        if self.kind is MoveType.PASS:
            return "PASS"
        return (_restore_move, (int(self.kind), self.key, self.cards.once, self.cards.twice, self.level))

    # -- platform interchange ---------------------------------------------------------------
    @property
    def rank(self) -> str:
        """The platform's rank field of this move (RULES.md §6)."""
        return platform_rank(self.kind, self.key, self.level)

    def to_platform(self) -> list[Any]:
        """``[type, rank, cards]`` as the competition platform writes it."""
        if self.kind is MoveType.PASS:
            return ["PASS", "PASS", "PASS"]
        return [self.kind.platform_name, self.rank, self.cards.to_platform()]

    @classmethod
    def from_platform(cls, action: object, level: int | str) -> Move:
        """Read a platform triple, checking that its cards really form that reading."""
        if type(level) is not int or not 2 <= level <= 14:
            level = parse_level(level)
        row = generator().read_checked(action, level)  # the hot path: one native call
        if row is None:
            row = read_slowly(action, level)
            if row is None:
                return PASS
        return _move_of_row(row, level)

    # -- strength -------------------------------------------------------------------------
    @property
    def tier(self) -> int:
        """Bomb tier (see :func:`bomb_tier`), -1 for a move that is no bomb."""
        return bomb_tier(self.kind, len(self.cards))

    def beats(self, other: Move | None) -> bool:
        """Whether this move may be played on ``other`` (``None`` or PASS: leading)."""
        if other is None:
            other = PASS
        if not isinstance(other, Move):
            raise TypeError(f"a move can only beat a Move, not {type(other).__name__}")
        if other.kind is not MoveType.PASS and self.kind is not MoveType.PASS and other.level != self.level:
            raise ValueError("moves of different levels cannot be compared")
        return beats(*self.table_args, *other.table_args)

    # -- value semantics ------------------------------------------------------------------
    def _identity(self) -> tuple[int, int, int, int, int]:
        return (self.kind, self.key, self.cards.once, self.cards.twice, self.level)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Move):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __repr__(self) -> str:
        if self.kind is MoveType.PASS:
            return "PASS"
        return f"Move({self.kind.platform_name} {self.rank}: {' '.join(self.cards)} @ level {level_char(self.level)})"


class _Unfrozen(Move):
    """A move being made in Python: Move refuses setattr, while this class (the same
    slots) sets them as plain attributes; :func:`_made_in_python` then gives the object
    the class Move (a third of the time of setting Move's slots through their descriptors)."""

    __slots__ = ()
    __setattr__ = object.__setattr__


def _made_in_python(kind: MoveType, key: int, cards: Hand, level: int, table_args: tuple[int, int, int]) -> Move:
    move = object.__new__(_Unfrozen)
    move.kind = kind
    move.key = key
    move.cards = cards
    move.level = level
    move.table_args = table_args
    move.__class__ = Move
    return move


def _move_of_row_in_python(row: tuple[int, int, int, int, int], level: int) -> Move:
    kind, key, once, twice, size = row
    return _made(_KINDS[kind], key, new_hand(once, twice), level, (kind, key, size))


#: ``_made(kind, key, cards, level, table_args)``: a new Move of these slot values
#: (trusted: nothing is checked), and ``_move_of_row(row, level)``: the Move of a
#: generator's ``read_checked`` row. Native makers when built (they write the slots in
#: place), else the same in Python.
_made: Callable[[MoveType, int, Hand, int, tuple[int, int, int]], Move]
_move_of_row: Callable[[tuple[int, int, int, int, int], int], Move]
if _values is not None:
    _values.bind_move(Move, _KINDS)
    _made, _move_of_row = _values.new_move, _values.new_move_of
else:  # pragma: no cover - exercised only where the extension is not built
    _made, _move_of_row = _made_in_python, _move_of_row_in_python


def read_platform(action: object, level: int) -> tuple[MoveType, int, Hand]:
    """The (type, key, cards) a platform triple names, without checking that the cards
    form that reading (see :func:`~guandan_fast.engine.kinds.platform_row`, the same as plain ints)."""
    kind, key, once, twice = platform_row(action, level)
    return _KINDS[kind], key, new_hand(once, twice)


def read_slowly(action: object, level: int, gen: ModuleType | None = None) -> tuple[int, int, int, int, int] | None:
    """What a platform triple that the generator's ``read_checked`` turned down reads as:
    ``(kind, key, once, twice, size)``, None for a pass; otherwise TypeError/ValueError
    naming the fault (a spelling ``read_checked`` does not take, or cards that lie)."""
    kind, key, once, twice = platform_row(action, level)
    if kind == MoveType.PASS:
        return None
    check_reading(kind, key, once, twice, level, gen)
    return kind, key, once, twice, once.bit_count() + twice.bit_count()


def check_reading(kind: int, key: object, once: int, twice: int, level: int, gen: ModuleType | None = None) -> None:
    """ValueError unless the cards ``(once, twice)`` read as (kind, key) at ``level``, asked
    of ``gen`` (default: the chosen generator, see :mod:`guandan_fast.engine.backend`)."""
    if gen is None:
        gen = generator()
    if type(key) is not int or not 0 <= key <= 17 or not gen.reads_as(once, twice, level, kind, key):
        raise ValueError(
            f"cards {' '.join(card_names(once, twice)) or '(none)'} do not read as {PLATFORM_NAMES[_KINDS[kind]]} "
            f"with key {key} at level {level_char(level)}"
        )


def _plain(key: object) -> object:
    """An integer key (numpy integers included) as an int; anything else unchanged (it
    then reads as nothing)."""
    try:
        return operator.index(key)  # type: ignore[arg-type]
    except TypeError:
        return key


def sort_key(move: Move) -> tuple[int, int, int, int]:
    """A fixed order for move lists: by type, key, then cards."""
    return (move.kind, move.key, move.cards.once, move.cards.twice)


def _restore_move(kind: int, key: int, once: int, twice: int, level: int) -> Move:
    """Rebuild a pickled move (its planes are checked again; its reading was checked when made)."""
    return Move._trusted(MoveType(kind), key, Hand.from_bits(once, twice), level)


def _make_pass() -> Move:
    return Move._trusted(MoveType.PASS, 0, Hand(), 0)


#: The pass: a follower's move that plays no card.
PASS: Final = _make_pass()
