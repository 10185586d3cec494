"""The move vocabulary: kinds, keys, the bomb ladder and the platform's names (RULES.md §3-6).

Both move generators (the reference and the native core), the platform notation
(:mod:`~guandan_fast.engine.notation`) and the :class:`~guandan_fast.engine.moves.Move` value sit
on top of this module, which knows nothing of them. A move is described here by plain ints:
its kind (a :class:`MoveType` code), its key and its number of cards.

Key encoding (shared with the native core):

* ``Single``, ``Pair``, ``Trips``, ``ThreeWithTwo`` and ``Bomb``: the power of the rank
  (2..14 natural, 15 the level rank, 16 ``SB``, 17 ``HR``); for ``ThreeWithTwo`` the triple's;
* ``Straight``, ``StraightFlush``, ``ThreePair``, ``TwoTrips``: the lowest position,
  1 for A low, otherwise the natural rank (2..13) of the lowest card;
* four jokers: 0.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Final

from .cards import RANKS


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
#: The move to beat when leading: (kind, key, size) of the pass.
LEADING: Final = (0, 0, 0)
#: Bomb tiers, low to high: 4 < 5 < straight flush < 6 < 7 < 8 < 9 < 10 < four jokers.
STRAIGHT_FLUSH_TIER: Final = 2
FOUR_JOKERS_TIER: Final = 8

_SEQUENCE_CODES: Final = frozenset(map(int, SEQUENCE_TYPES))  # plain ints: IntEnum comparisons are slow
_BOMB: Final = int(MoveType.BOMB)
_FOUR_JOKERS: Final = int(MoveType.FOUR_JOKERS)
#: Type code of each platform type name (a four-joker bomb is told apart by its rank).
_CODE_BY_PLATFORM_NAME: Final = {
    name: int(kind) for kind, name in PLATFORM_NAMES.items() if kind not in (MoveType.PASS, MoveType.FOUR_JOKERS)
}
#: Position (sequences) or natural rank (the others) of each platform rank character.
_POSITION_BY_CHAR: Final = {char: (1 if char == "A" else i + 2) for i, char in enumerate(RANKS)}
_RANK_BY_CHAR: Final = {char: i + 2 for i, char in enumerate(RANKS)}


class MoveArrays:
    """Moves as three parallel numpy arrays: the result shape of both generators'
    ``generate`` and ``classify`` (the native core returns its own type of the same shape).

    ``len()`` is the number of moves; ``kinds[i]`` (``uint8``, :class:`MoveType` codes),
    ``keys[i]`` (``uint8``) and ``cards[i] = (once, twice)`` (``uint64[n, 2]``) describe move ``i``.
    """

    __slots__ = ("cards", "keys", "kinds")

    def __init__(self, kinds: Any, keys: Any, cards: Any) -> None:
        self.kinds = kinds
        self.keys = keys
        self.cards = cards

    def __len__(self) -> int:
        return len(self.kinds)

    def __repr__(self) -> str:
        return f"<MoveArrays: {len(self)} moves>"


def bomb_tier(kind: int, size: int) -> int:
    """Tier of a bomb on the ladder, or -1 for a move that is no bomb."""
    if kind == MoveType.BOMB:
        return size - 4 if size <= 5 else size - 3
    if kind == MoveType.STRAIGHT_FLUSH:
        return STRAIGHT_FLUSH_TIER
    if kind == MoveType.FOUR_JOKERS:
        return FOUR_JOKERS_TIER
    return -1
