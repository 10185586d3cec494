"""Type stubs of :mod:`guandan_fast.engine.hand` (``hand.pyx``): the :class:`Hand` value."""

from collections.abc import Callable, Iterable, Iterator
from typing import Any, SupportsIndex, TypeAlias

import numpy as np
import numpy.typing as npt
from typing_extensions import Self, disjoint_base

from .moves import Move

__all__ = [
    "FULL_PLANE",
    "PARSED_CACHE_SIZE",
    "CardsLike",
    "Hand",
    "as_hand",
    "card_names",
    "check_planes",
    "forget_parsed",
    "new_hand",
    "planes_of_names",
]

FULL_PLANE: int
PARSED_CACHE_SIZE: int

@disjoint_base
class Hand:
    """An immutable multiset of cards (each of the 54 distinct cards 0, 1 or 2 times).

    ``Hand(cards)`` reads card strings (``"S2 H2 SB"`` or an iterable of names) or copies
    another hand; :meth:`parse`, :meth:`from_indices`, :meth:`from_bits`,
    :meth:`from_counts` and :meth:`from_numpy` read the other forms.
    """

    def __new__(cls, cards: Hand | str | Iterable[str] = ()) -> Self: ...
    @property
    def once(self) -> int:
        """The plane of the cards held at least once (bit i: card i)."""
    @property
    def twice(self) -> int:
        """The plane of the cards held twice."""
    @classmethod
    def parse(cls, text: str) -> Hand:
        """A hand from platform notation separated by spaces or commas: ``"S2 H2 SB"``."""
    @classmethod
    def from_indices(cls, indices: Iterable[SupportsIndex]) -> Hand:
        """A hand from card indices (0..53, see :mod:`guandan_fast.engine.cards`)."""
    @classmethod
    def from_bits(cls, once: SupportsIndex, twice: SupportsIndex = 0) -> Hand:
        """A hand from its two bit planes (validated)."""
    @classmethod
    def _trusted(cls, once: int, twice: int) -> Hand: ...
    @classmethod
    def from_counts(cls, counts: object) -> Hand:
        """A hand from 54 per-card counts (each 0, 1 or 2) in card-index order."""
    @classmethod
    def from_numpy(cls, planes: object) -> Hand:
        """A hand from ``uint64[2] = (once, twice)``, the layout of :meth:`to_numpy`."""
    @property
    def packed(self) -> int:
        """Both planes in one int: ``once | twice << 64``."""
    def to_numpy(self) -> npt.NDArray[np.uint64]:
        """The planes as ``uint64[2] = (once, twice)``."""
    def counts(self) -> npt.NDArray[np.uint8]:
        """Per-card counts, ``uint8[54]`` in card-index order."""
    def count(self, card: str | int) -> int:
        """How many copies (0, 1 or 2) of one card the hand holds."""
    def indices(self) -> Iterator[int]:
        """Card indices in ascending order, a card held twice appearing twice."""
    def distinct(self) -> list[int]:
        """The distinct card indices held, ascending (a card held twice named once)."""
    def __iter__(self) -> Iterator[str]: ...
    def to_platform(self) -> list[str]:
        """Canonical card strings, sorted by rank (2..A, then SB, HR) and suit (S H C D)."""
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def __contains__(self, item: object) -> bool:
        """``"S2" in hand``; a Hand or Move is contained when all its cards are."""
    def contains(self, other: Hand) -> bool:
        """Whether ``other`` is a sub-multiset of this hand."""
    def clash(self, other: Hand) -> int | None:
        """The lowest card of which this hand and ``other`` together hold three copies, if any."""
    def common(self, cards: CardsLike | Move) -> Hand:
        """The cards this hand and ``cards`` both hold, each as often as the one holding it
        fewer times (a multiset intersection)."""
    def add(self, cards: CardsLike | Move) -> Hand:
        """This hand with ``cards`` added; ValueError if a card would have three copies."""
    def remove(self, cards: CardsLike | Move) -> Hand:
        """This hand without ``cards``; ValueError if the hand does not hold them."""
    def __add__(self, cards: CardsLike | Move) -> Hand: ...
    def __sub__(self, cards: CardsLike | Move) -> Hand: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> tuple[Callable[[int, int], Hand], tuple[int, int]]: ...
    def __setstate__(self, state: object) -> None: ...
    def __copy__(self) -> Hand: ...
    def __deepcopy__(self, memo: dict[int, Any]) -> Hand: ...

def check_planes(once: object, twice: object) -> tuple[int, int]:
    """Validate two bit planes; ValueError for bits that are no card or a third copy."""

def new_hand(once: int, twice: int) -> Hand:
    """A Hand of valid planes (not checked)."""

def card_names(once: int, twice: int) -> list[str]:
    """Card strings of two valid planes, in index order (a card held twice named twice)."""

def planes_of_names(names: Iterable[str]) -> tuple[int, int]:
    """The planes of card strings; ValueError/TypeError name the first bad card or a third copy."""

def forget_parsed() -> None:
    """Empty the memory of card strings read by :func:`as_hand`."""

def as_hand(cards: object) -> Hand:
    """Accept a Hand, a Move (its cards), a string of cards or an iterable of card strings."""

CardsLike: TypeAlias = Hand | str | Iterable[str]

def planes_array(hands: Iterable[CardsLike]) -> npt.NDArray[np.uint64]:
    """``uint64[n, 2]``: the ``(once, twice)`` rows of a sequence of hands."""
