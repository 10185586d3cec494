"""A hand: any sub-multiset of the 108-card double deck, kept as two bit planes.

Bit layout (what the native core consumes): two 54-bit planes over the card
indices of :mod:`guandan_fast.engine.cards`.

* ``once``  has bit ``i`` set when the hand holds at least one copy of card ``i``;
* ``twice`` has bit ``i`` set when it holds both copies.

``twice`` is always a subset of ``once``, so a card's count is
``once_bit + twice_bit`` and the hand's size is ``popcount(once) + popcount(twice)``.
As a numpy array a hand is ``uint64[2] = (once, twice)``; as one Python int it is
``once | twice << 64`` (:attr:`Hand.packed`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from operator import attrgetter
from types import ModuleType
from typing import TYPE_CHECKING, Union

import numpy as np

from .cards import CARD_BITS, CARD_NAMES, NUM_CARDS, as_index, parse_card

if TYPE_CHECKING:
    from .moves import Move

_values: ModuleType | None
try:  # the native maker of trusted hands (see new_hand)
    from ..engine import _values
except ImportError:  # pragma: no cover - exercised only where the extension is not built
    _values = None
_canonical_planes: Callable[[object], tuple[int, int] | None] | None
try:  # the native reader of canonical card strings (Hand.parse falls back to Python)
    from ._cardtext import canonical_planes as _canonical_planes
except ImportError:  # pragma: no cover - exercised only where the extension is not built
    _canonical_planes = None

FULL_PLANE = (1 << NUM_CARDS) - 1

CardsLike = Union["Hand", str, Iterable[str]]


def check_planes(once: object, twice: object) -> tuple[int, int]:
    """Validate two bit planes; ValueError for bits that are no card or a third copy."""
    planes = []
    for name, plane in (("once", once), ("twice", twice)):
        value = as_index(plane, f"hand plane {name!r} must be an integer")
        if not 0 <= value <= FULL_PLANE:
            raise ValueError("hand planes may only use bits 0..53 (one per card)")
        planes.append(value)
    once_bits, twice_bits = planes
    if twice_bits & ~once_bits:
        raise ValueError("bad hand planes: a card marked 'twice' must also be marked 'once'")
    return once_bits, twice_bits


class Hand:
    """An immutable multiset of cards (each of the 54 distinct cards 0, 1 or 2 times)."""

    __slots__ = ("_once", "_twice")

    _once: int
    _twice: int

    def __init__(self, cards: Iterable[str] = ()) -> None:
        if isinstance(cards, str):
            cards = cards.split()
        elif isinstance(cards, Hand):
            self._once, self._twice = cards._once, cards._twice
            return
        elif not isinstance(cards, Iterable):
            raise TypeError(f"a hand is built from card strings, not {type(cards).__name__}")
        self._once, self._twice = planes_of_names(cards)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Hand:
        """A hand from platform notation separated by spaces or commas: ``"S2 H2 SB"``."""
        if not isinstance(text, str):
            raise TypeError(f"Hand.parse takes a string, not {type(text).__name__}")
        planes = _canonical_planes(text) if _canonical_planes is not None else None
        if planes is None:  # another notation, or a fault to name
            planes = planes_of_names(text.replace(",", " ").split())
        return cls._trusted(*planes)

    @classmethod
    def from_indices(cls, indices: Iterable[int]) -> Hand:
        """A hand from card indices (0..53, see :mod:`guandan_fast.engine.cards`)."""
        checked = []
        for value in indices:
            index = as_index(value, "a card index must be an integer")
            if not 0 <= index < NUM_CARDS:
                raise ValueError(f"card index {index} is outside 0..53")
            checked.append(index)
        return cls._trusted(*_planes_of(checked))

    @classmethod
    def from_bits(cls, once: int, twice: int = 0) -> Hand:
        """A hand from its two bit planes (validated)."""
        hand = cls.__new__(cls)
        hand._once, hand._twice = check_planes(once, twice)
        return hand

    @classmethod
    def _trusted(cls, once: int, twice: int) -> Hand:
        """A hand from planes already known to be valid (no checks: internal use; hot
        paths call :func:`new_hand` directly)."""
        if cls is Hand:
            return new_hand(once, twice)
        hand = _new_object(cls)
        hand._once, hand._twice = once, twice
        return hand

    @classmethod
    def from_counts(cls, counts: object) -> Hand:
        """A hand from 54 per-card counts (each 0, 1 or 2) in card-index order."""
        array = np.asarray(counts)
        if array.shape != (NUM_CARDS,):
            raise ValueError(f"card counts must have shape ({NUM_CARDS},), not {array.shape}")
        if array.dtype.kind not in "iu":
            raise TypeError(f"card counts must be integers, not {array.dtype}")
        if array.min(initial=0) < 0 or array.max(initial=0) > 2:
            bad = int(np.flatnonzero((array < 0) | (array > 2))[0])
            raise ValueError(f"card {CARD_NAMES[bad]} has count {int(array[bad])}: counts are 0, 1 or 2")
        weights = 1 << np.arange(NUM_CARDS, dtype=np.uint64)
        once = int(np.bitwise_or.reduce(weights[array >= 1], initial=np.uint64(0)))
        twice = int(np.bitwise_or.reduce(weights[array == 2], initial=np.uint64(0)))
        return cls._trusted(once, twice)

    @classmethod
    def from_numpy(cls, planes: object) -> Hand:
        """A hand from ``uint64[2] = (once, twice)``, the layout of :meth:`to_numpy`."""
        array = np.asarray(planes)
        if array.shape != (2,) or array.dtype != np.uint64:
            raise ValueError(f"hand planes must be a uint64 array of shape (2,), not {array.dtype} {array.shape}")
        return cls.from_bits(int(array[0]), int(array[1]))

    # -- views ----------------------------------------------------------------------------
    # read through C-level getters: no Python frame per access (the game reads them per step)
    once = property(attrgetter("_once"), doc="The plane of the cards held at least once (bit i: card i).")
    twice = property(attrgetter("_twice"), doc="The plane of the cards held twice.")

    @property
    def packed(self) -> int:
        """Both planes in one int: ``once | twice << 64``."""
        return self._once | self._twice << 64

    def to_numpy(self) -> np.ndarray:
        return np.array([self._once, self._twice], dtype=np.uint64)

    def counts(self) -> np.ndarray:
        """Per-card counts, ``uint8[54]`` in card-index order."""
        bits = np.arange(NUM_CARDS, dtype=np.uint64)
        once = (np.uint64(self._once) >> bits) & np.uint64(1)
        twice = (np.uint64(self._twice) >> bits) & np.uint64(1)
        return (once + twice).astype(np.uint8)

    def count(self, card: str | int) -> int:
        """How many copies (0, 1 or 2) of one card the hand holds."""
        index = parse_card(card) if isinstance(card, str) else as_index(card, "a card is a string or an index 0-53")
        if not 0 <= index < NUM_CARDS:
            raise ValueError(f"card index {index} is outside 0..53")
        return (self._once >> index & 1) + (self._twice >> index & 1)

    def indices(self) -> Iterator[int]:
        """Card indices in ascending order, a card held twice appearing twice."""
        once, twice = self._once, self._twice
        while once:
            low = once & -once
            index = low.bit_length() - 1
            yield index
            if twice & low:
                yield index
            once ^= low

    def distinct(self) -> list[int]:
        """The distinct card indices held, ascending (a card held twice named once)."""
        return list(Hand._trusted(self._once, 0).indices())

    def __iter__(self) -> Iterator[str]:
        return (CARD_NAMES[i] for i in self.indices())

    def to_platform(self) -> list[str]:
        """Canonical card strings, sorted by rank (2..A, then SB, HR) and suit (S H C D)."""
        return card_names(self._once, self._twice)

    def __len__(self) -> int:
        return self._once.bit_count() + self._twice.bit_count()

    def __bool__(self) -> bool:
        return self._once != 0

    def __contains__(self, item: object) -> bool:
        """``"S2" in hand``; a Hand or Move is contained when all its cards are."""
        if isinstance(item, str):
            return bool(self._once >> parse_card(item) & 1)
        other = _as_multiset(item)
        return other is not None and self.contains(other)

    def contains(self, other: Hand) -> bool:
        """Whether ``other`` is a sub-multiset of this hand."""
        return not (other._once & ~self._once) and not (other._twice & ~self._twice)

    # -- arithmetic (new hands; the receiver never changes) -----------------------------
    def clash(self, other: Hand) -> int | None:
        """The lowest card of which this hand and ``other`` together hold three copies, if any."""
        both = (self._twice & other._once) | (other._twice & self._once)
        return (both & -both).bit_length() - 1 if both else None

    def add(self, cards: CardsLike | Move) -> Hand:
        """This hand with ``cards`` added; ValueError if a card would have three copies."""
        other = as_hand(cards)
        clash = self.clash(other)
        if clash is not None:
            raise ValueError(f"adding would give three copies of {CARD_NAMES[clash]}")
        return Hand._trusted(
            self._once | other._once, self._twice | other._twice | (self._once & other._once)
        )

    def remove(self, cards: CardsLike | Move) -> Hand:
        """This hand without ``cards``; ValueError if the hand does not hold them."""
        other = as_hand(cards)
        if not self.contains(other):
            missing = Hand._trusted(other._once & ~self._once | other._twice & ~self._twice, 0)
            raise ValueError(f"the hand does not hold {' '.join(missing)}")
        return Hand._trusted(
            (self._once & ~other._once) | (self._twice & ~other._twice), self._twice & ~other._once
        )

    __add__ = add
    __sub__ = remove

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Hand):
            return NotImplemented
        return self._once == other._once and self._twice == other._twice

    def __hash__(self) -> int:
        return hash((self._once, self._twice))

    def __repr__(self) -> str:
        return f"Hand({' '.join(self)!r})"

    def __str__(self) -> str:
        return " ".join(self)


def card_names(once: int, twice: int) -> list[str]:
    """Card strings of two valid planes, in index order (a card held twice named twice)."""
    names = []
    while once:
        low = once & -once
        name = CARD_NAMES[low.bit_length() - 1]
        names.append(name)
        if twice & low:
            names.append(name)
        once ^= low
    return names


def planes_of_names(names: Iterable[str]) -> tuple[int, int]:
    """The planes of card strings (any notation :func:`~guandan_fast.engine.cards.parse_card` reads);
    ValueError/TypeError name the first bad card or a third copy."""
    if type(names) is not list:
        names = list(names)
    try:  # canonical names, the common case: one dict lookup a card, then whole-list arithmetic
        bits = [CARD_BITS[name] for name in names]
    except (KeyError, TypeError):
        return _planes_of(map(parse_card, names))
    distinct = set(bits)
    once = sum(distinct)
    twice = sum(bits) - once
    # twice is the cards held twice exactly when no card is there three times (then the
    # sum carries and twice has fewer bits than the extra copies)
    if len(bits) != len(distinct) + twice.bit_count():
        return _planes_of(map(parse_card, names))  # names the third copy
    return once, twice


def _planes_of(indices: Iterable[int]) -> tuple[int, int]:
    once = twice = 0
    for index in indices:
        bit = 1 << index
        if twice & bit:
            raise ValueError(f"three copies of card {CARD_NAMES[index]}: the deck has two")
        twice |= once & bit
        once |= bit
    return once, twice


def _as_multiset(item: object) -> Hand | None:
    if isinstance(item, Hand):
        return item
    cards = getattr(item, "cards", None)
    return cards if isinstance(cards, Hand) else None


#: Hands read from card strings, by string (bounded: emptied when full).
_PARSED: dict[str, Hand] = {}
PARSED_CACHE_SIZE = 4096


def forget_parsed() -> None:
    """Empty the memory of card strings read by :func:`as_hand` (every string is new again)."""
    _PARSED.clear()


def as_hand(cards: object) -> Hand:
    """Accept a Hand, a Move (its cards), a string of cards or an iterable of card strings.

    A card string is read once and remembered (the last few thousand), since callers tend to
    pass the same hand again and again."""
    if type(cards) is Hand:  # the common case, checked first (hot path)
        return cards
    if type(cards) is str:
        hand = _PARSED.get(cards)
        if hand is None:
            hand = Hand.parse(cards)
            if len(_PARSED) >= PARSED_CACHE_SIZE:
                _PARSED.clear()
            _PARSED[cards] = hand
        return hand
    multiset = _as_multiset(cards)
    if multiset is not None:
        return multiset
    if isinstance(cards, str):
        return Hand.parse(cards)
    if isinstance(cards, Iterable):
        return Hand(cards)  # type: ignore[arg-type]
    raise TypeError(f"expected a Hand, a card string or an iterable of card strings, not {type(cards).__name__}")


_new_object = object.__new__


def _new_hand_in_python(once: int, twice: int) -> Hand:
    hand = _new_object(Hand)
    hand._once, hand._twice = once, twice
    return hand


#: A Hand of planes already known to be valid, nothing checked: the native maker when it is
#: built (it writes the two slots in place), else the same in Python.
new_hand: Callable[[int, int], Hand]
if _values is not None:
    _values.bind_hand(Hand)
    new_hand = _values.new_hand
else:  # pragma: no cover - exercised only where the extension is not built
    new_hand = _new_hand_in_python
