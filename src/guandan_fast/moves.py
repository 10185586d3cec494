"""Moves: (type, key, cards) at a level, the bomb ladder, and the platform triple (RULES.md §3-6).

Key encoding (shared with the native core):

* ``Single``, ``Pair``, ``Trips``, ``ThreeWithTwo`` and ``Bomb``: the power of the rank
  (2..14 natural, 15 the level rank, 16 ``SB``, 17 ``HR``); for ``ThreeWithTwo`` the triple's;
* ``Straight``, ``StraightFlush``, ``ThreePair``, ``TwoTrips``: the lowest position,
  1 for A low, otherwise the natural rank (2..13) of the lowest card;
* four jokers: 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any, Final

from .cards import (
    BIG_JOKER_POWER,
    LEVEL_POWER,
    RANKS,
    SMALL_JOKER_POWER,
    level_char,
    parse_level,
    position_char,
    power_char,
)
from .hand import Hand, as_hand


class MoveType(IntEnum):
    """Combination types; the values are the type codes of the native arrays."""

    PASS = 0
    SINGLE = 1
    PAIR = 2
    TRIPS = 3
    THREE_WITH_TWO = 4
    STRAIGHT = 5
    THREE_PAIR = 6
    TWO_TRIPS = 7
    STRAIGHT_FLUSH = 8
    BOMB = 9
    FOUR_JOKERS = 10

    @property
    def platform_name(self) -> str:
        return PLATFORM_NAMES[self]

    @property
    def is_sequence(self) -> bool:
        return self in SEQUENCE_TYPES


PLATFORM_NAMES: Final = {
    MoveType.PASS: "PASS",
    MoveType.SINGLE: "Single",
    MoveType.PAIR: "Pair",
    MoveType.TRIPS: "Trips",
    MoveType.THREE_WITH_TWO: "ThreeWithTwo",
    MoveType.STRAIGHT: "Straight",
    MoveType.THREE_PAIR: "ThreePair",
    MoveType.TWO_TRIPS: "TwoTrips",
    MoveType.STRAIGHT_FLUSH: "StraightFlush",
    MoveType.BOMB: "Bomb",
    MoveType.FOUR_JOKERS: "Bomb",
}
SEQUENCE_TYPES: Final = frozenset(
    {MoveType.STRAIGHT, MoveType.STRAIGHT_FLUSH, MoveType.THREE_PAIR, MoveType.TWO_TRIPS}
)
#: Cards in a move of each fixed-size type (bombs run from 4 to 10).
TYPE_SIZES: Final = {
    MoveType.SINGLE: 1,
    MoveType.PAIR: 2,
    MoveType.TRIPS: 3,
    MoveType.THREE_WITH_TWO: 5,
    MoveType.STRAIGHT: 5,
    MoveType.THREE_PAIR: 6,
    MoveType.TWO_TRIPS: 6,
    MoveType.STRAIGHT_FLUSH: 5,
    MoveType.FOUR_JOKERS: 4,
}
_TYPES_BY_PLATFORM_NAME: Final = {
    name: kind for kind, name in PLATFORM_NAMES.items() if kind is not MoveType.FOUR_JOKERS
}
#: Bomb tiers, low to high: 4 < 5 < straight flush < 6 < 7 < 8 < 9 < 10 < four jokers.
STRAIGHT_FLUSH_TIER: Final = 2
FOUR_JOKERS_TIER: Final = 8


def bomb_tier(kind: int, size: int) -> int:
    """Tier of a bomb on the ladder, or -1 for a move that is no bomb."""
    if kind == MoveType.BOMB:
        return size - 4 if size <= 5 else size - 3
    if kind == MoveType.STRAIGHT_FLUSH:
        return STRAIGHT_FLUSH_TIER
    if kind == MoveType.FOUR_JOKERS:
        return FOUR_JOKERS_TIER
    return -1


def beats(kind: int, key: int, size: int, last_kind: int, last_key: int, last_size: int) -> bool:
    """Whether move (kind, key, size) beats the move on the table (RULES.md §5)."""
    if kind == MoveType.PASS:
        return False
    if last_kind == MoveType.PASS:
        return True
    tier, last_tier = bomb_tier(kind, size), bomb_tier(last_kind, last_size)
    if tier < 0:
        return last_tier < 0 and kind == last_kind and size == last_size and key > last_key
    return tier > last_tier or (tier == last_tier and key > last_key)


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

    def __init__(self, kind: MoveType | int, key: int, cards: Any, level: int | str) -> None:
        """A move, validated: ``cards`` must really read as ``kind`` with ``key`` at ``level``."""
        level = parse_level(level)
        kind = MoveType(kind)
        cards = as_hand(cards)
        if kind is MoveType.PASS:
            if cards or key:
                raise ValueError("a pass has no cards and no key")
        else:
            from .reference import classify  # the model defers to the rules' reference reading

            if not any(m.kind is kind and m.key == key for m in classify(cards, level)):
                raise ValueError(
                    f"cards {' '.join(cards) or '(none)'} do not read as {kind.platform_name} "
                    f"with key {key} at level {level_char(level)}"
                )
        self._set(kind, key, cards, level)

    def _set(self, kind: MoveType, key: int, cards: Hand, level: int) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "level", level)
        object.__setattr__(self, "table_args", (int(kind), key, len(cards)))

    @classmethod
    def _trusted(cls, kind: MoveType, key: int, cards: Hand, level: int) -> Move:
        """A move already known to be a legal reading (the generators' output)."""
        move = cls.__new__(cls)
        move._set(kind, key, cards, level)
        return move

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
        level = parse_level(level)
        kind, key, cards = read_platform(action, level)
        return PASS if kind is MoveType.PASS else cls(kind, key, cards, level)

    # -- strength -------------------------------------------------------------------------
    @property
    def tier(self) -> int:
        """Bomb tier (see :func:`bomb_tier`), -1 for a move that is no bomb."""
        return bomb_tier(self.kind, len(self.cards))

    @property
    def is_bomb(self) -> bool:
        return self.tier >= 0

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


_SEQUENCE_CODES: Final = frozenset(map(int, SEQUENCE_TYPES))  # plain ints: IntEnum comparisons are slow


def platform_rank(kind: int, key: int, level: int) -> str:
    """The platform's rank field of a move (RULES.md §6), from its type code and key."""
    if kind in _SEQUENCE_CODES:
        return position_char(key)
    if kind == 10:  # MoveType.FOUR_JOKERS
        return "JOKER"
    if kind == 0:  # MoveType.PASS
        return "PASS"
    return power_char(key, level)


def read_platform(action: object, level: int) -> tuple[MoveType, int, Hand]:
    """The (type, key, cards) a platform triple names, without checking that the cards
    form that reading (the caller does: :meth:`Move.from_platform`, or a lookup in a move
    list); the pass reads as ``(PASS, 0, empty hand)``. TypeError/ValueError name the fault."""
    if not isinstance(action, Sequence) or isinstance(action, (str, bytes)):
        raise TypeError(f"a platform action is a [type, rank, cards] list, not {type(action).__name__}")
    if len(action) != 3:
        raise ValueError(f"a platform action has 3 fields [type, rank, cards], not {len(action)}")
    type_name, rank, cards = action
    if not isinstance(type_name, str) or not isinstance(rank, str):
        raise TypeError("the type and rank of a platform action must be strings")
    if type_name == "PASS":
        if rank != "PASS" or cards not in ("PASS", [], ()):
            raise ValueError(f"malformed pass {list(action)!r}: expected ['PASS', 'PASS', 'PASS']")
        return MoveType.PASS, 0, Hand()
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        raise TypeError("the cards of a platform action must be a list of card strings")
    hand = Hand(cards)
    if type_name == "FourKings" or (type_name == "Bomb" and rank.strip().upper() in ("JOKER", "R")):
        return MoveType.FOUR_JOKERS, 0, hand
    kind = _TYPES_BY_PLATFORM_NAME.get(type_name)
    if kind is None or kind is MoveType.PASS:
        raise ValueError(f"unknown action type {type_name!r} (tribute and back are not moves)")
    return kind, _key_from_rank(kind, rank, level), hand


def _key_from_rank(kind: MoveType, rank: str, level: int) -> int:
    text = rank.strip().upper()
    if text == "10":
        text = "T"
    if kind in SEQUENCE_TYPES:
        if len(text) == 1 and text in RANKS:
            return 1 if text == "A" else RANKS.index(text) + 2
    elif text == "B":
        return SMALL_JOKER_POWER
    elif text == "R":
        return BIG_JOKER_POWER
    elif len(text) == 1 and text in RANKS:
        natural = RANKS.index(text) + 2
        return LEVEL_POWER if natural == level else natural
    raise ValueError(f"bad rank {rank!r} for a {kind.platform_name}")


def _restore_move(kind: int, key: int, once: int, twice: int, level: int) -> Move:
    """Rebuild a pickled move (its planes are checked again; its reading was checked when made)."""
    return Move._trusted(MoveType(kind), key, Hand.from_bits(once, twice), level)


def _make_pass() -> Move:
    move = Move.__new__(Move)
    move._set(MoveType.PASS, 0, Hand(), 0)
    return move


#: The pass: a follower's move that plays no card.
PASS: Final = _make_pass()
