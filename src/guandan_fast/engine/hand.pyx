# cython: language_level=3, freethreading_compatible=True
"""A hand: any sub-multiset of the 108-card double deck, kept as two bit planes.

Bit layout (what the native core consumes): two 54-bit planes over the card
indices of :mod:`guandan_fast.engine.cards`.

* ``once``  has bit ``i`` set when the hand holds at least one copy of card ``i``;
* ``twice`` has bit ``i`` set when it holds both copies.

``twice`` is always a subset of ``once``, so a card's count is
``once_bit + twice_bit`` and the hand's size is ``popcount(once) + popcount(twice)``.
As a numpy array a hand is ``uint64[2] = (once, twice)``; as one Python int it is
``once | twice << 64`` (:attr:`Hand.packed`).

:class:`Hand` is an extension type whose two planes are C fields (``hand.pxd``): native
modules, and users' Cython extensions, read ``hand.once`` / ``hand.twice`` without a
Python call, and make trusted hands with :func:`make_hand`. Every way in from Python
checks the planes (construction, :meth:`Hand.from_bits`, unpickling); a hand never
changes once made.
"""

cimport cython
from libc.stdint cimport uint64_t

from guandan_fast.engine._bitops cimport gf_ctz64, gf_hand_add, gf_popcount64

from collections.abc import Iterable
from typing import Union

import numpy as np

from guandan_fast.engine._cardtext import canonical_planes
from guandan_fast.engine.cards import CARD_BITS, CARD_NAMES, NUM_CARDS, as_index, parse_card

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

FULL_PLANE = (1 << NUM_CARDS) - 1
cdef uint64_t _FULL = (<uint64_t>1 << NUM_CARDS) - 1

CardsLike = Union["Hand", str, Iterable[str]]


def check_planes(once, twice):
    """Validate two bit planes; ValueError for bits that are no card or a third copy
    (TypeError for planes that are no integers)."""
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


@cython.freelist(64)
cdef class Hand:
    """An immutable multiset of cards (each of the 54 distinct cards 0, 1 or 2 times).

    ``Hand(cards)`` reads card strings (``"S2 H2 SB"`` or an iterable of names) or copies
    another hand; :meth:`parse`, :meth:`from_indices`, :meth:`from_bits`,
    :meth:`from_counts` and :meth:`from_numpy` read the other forms.
    """

    def __cinit__(self, cards=()):
        # the one constructor: made with no argument (as the native makers make it), a hand
        # is empty, which is a valid hand
        if type(cards) is tuple and not cards:
            return
        if isinstance(cards, str):
            cards = cards.split()
        elif isinstance(cards, Hand):
            self.once, self.twice = (<Hand>cards).once, (<Hand>cards).twice
            return
        elif isinstance(cards, (bytes, bytearray, memoryview)):  # iterated, they would be ints
            raise TypeError(f"a hand is built from card strings such as 'S2 H3', not {type(cards).__name__} (decode it first)")
        elif not isinstance(cards, Iterable):
            raise TypeError(f"a hand is built from card strings, not {type(cards).__name__}")
        self.once, self.twice = planes_of_names(cards)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def parse(cls, text):
        """A hand from platform notation separated by spaces or commas: ``"S2 H2 SB"``."""
        if not isinstance(text, str):
            raise TypeError(f"Hand.parse takes a string, not {type(text).__name__}")
        planes = canonical_planes(text)
        if planes is None:  # another notation, or a fault to name
            planes = planes_of_names(text.replace(",", " ").split())
        return _of_class(cls, planes[0], planes[1])

    @classmethod
    def from_indices(cls, indices):
        """A hand from card indices (0..53, see :mod:`guandan_fast.engine.cards`)."""
        checked = []
        for value in indices:
            index = as_index(value, "a card index must be an integer")
            if not 0 <= index < NUM_CARDS:
                raise ValueError(f"card index {index} is outside 0..53")
            checked.append(index)
        once, twice = _planes_of(checked)
        return _of_class(cls, once, twice)

    @classmethod
    def from_bits(cls, once, twice=0):
        """A hand from its two bit planes (validated)."""
        once, twice = check_planes(once, twice)
        return _of_class(cls, once, twice)

    @classmethod
    def _trusted(cls, once, twice):
        """A hand from planes already known to be valid (no checks: internal use; native
        code calls :func:`make_hand`)."""
        return _of_class(cls, once, twice)

    @classmethod
    def from_counts(cls, counts):
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
        return _of_class(cls, once, twice)

    @classmethod
    def from_numpy(cls, planes):
        """A hand from ``uint64[2] = (once, twice)``, the layout of :meth:`to_numpy`."""
        array = np.asarray(planes)
        # any byte order (int() reads each value right), as legal_moves_batch takes it
        if array.shape != (2,) or array.dtype.kind != "u" or array.dtype.itemsize != 8:
            raise ValueError(f"hand planes must be a uint64 array of shape (2,), not {array.dtype} {array.shape}")
        return cls.from_bits(int(array[0]), int(array[1]))

    # -- views ----------------------------------------------------------------------------
    @property
    def packed(self):
        """Both planes in one int: ``once | twice << 64``."""
        return self.once | (<object>self.twice) << 64

    def to_numpy(self):
        """The planes as ``uint64[2] = (once, twice)``."""
        return np.array([self.once, self.twice], dtype=np.uint64)

    def counts(self):
        """Per-card counts, ``uint8[54]`` in card-index order."""
        bits = np.arange(NUM_CARDS, dtype=np.uint64)
        once = (np.uint64(self.once) >> bits) & np.uint64(1)
        twice = (np.uint64(self.twice) >> bits) & np.uint64(1)
        return (once + twice).astype(np.uint8)

    def count(self, card):
        """How many copies (0, 1 or 2) of one card the hand holds."""
        index = parse_card(card) if isinstance(card, str) else as_index(card, "a card is a string or an index 0-53")
        if not 0 <= index < NUM_CARDS:
            raise ValueError(f"card index {index} is outside 0..53")
        return <int>((self.once >> <int>index) & 1) + <int>((self.twice >> <int>index) & 1)

    def indices(self):
        """Card indices in ascending order, a card held twice appearing twice."""
        cdef uint64_t once = self.once, twice = self.twice, low
        cdef int index
        while once:
            low = once & (~once + 1)
            index = gf_ctz64(once)
            yield index
            if twice & low:
                yield index
            once ^= low

    def distinct(self):
        """The distinct card indices held, ascending (a card held twice named once)."""
        cdef uint64_t once = self.once
        cdef list out = []
        while once:
            out.append(gf_ctz64(once))
            once &= once - 1
        return out

    def __iter__(self):
        return iter(card_names(self.once, self.twice))

    def to_platform(self):
        """Canonical card strings, sorted by rank (2..A, then SB, HR) and suit (S H C D)."""
        return card_names(self.once, self.twice)

    def __len__(self):
        return gf_popcount64(self.once) + gf_popcount64(self.twice)

    def __bool__(self):
        return self.once != 0

    def __contains__(self, item):
        """``"S2" in hand``; a Hand or Move is contained when all its cards are."""
        if isinstance(item, str):
            return bool((self.once >> <int>parse_card(item)) & 1)
        other = _as_multiset(item)
        return other is not None and self.contains(other)

    def contains(self, Hand other not None):
        """Whether ``other`` is a sub-multiset of this hand."""
        return not (other.once & ~self.once) and not (other.twice & ~self.twice)

    # -- arithmetic (new hands; the receiver never changes) -----------------------------
    def clash(self, Hand other not None):
        """The lowest card of which this hand and ``other`` together hold three copies, if any."""
        cdef uint64_t both = (self.twice & other.once) | (other.twice & self.once)
        return gf_ctz64(both) if both else None

    def common(self, cards):
        """The cards this hand and ``cards`` both hold, each as often as the one holding it
        fewer times (a multiset intersection)."""
        cdef Hand other = as_hand(cards)
        return make_hand(self.once & other.once, self.twice & other.twice)

    def add(self, cards):
        """This hand with ``cards`` added; ValueError if a card would have three copies."""
        cdef Hand other = as_hand(cards)
        cdef uint64_t both = (self.twice & other.once) | (other.twice & self.once)
        if both:
            raise ValueError(f"adding would give three copies of {CARD_NAMES[gf_ctz64(both)]}")
        cdef uint64_t once = self.once, twice = self.twice
        gf_hand_add(&once, &twice, other.once, other.twice)
        return make_hand(once, twice)

    def remove(self, cards):
        """This hand without ``cards``; ValueError if the hand does not hold them."""
        cdef Hand other = as_hand(cards)
        cdef uint64_t missing = (other.once & ~self.once) | (other.twice & ~self.twice)
        if missing:
            raise ValueError(f"the hand does not hold {' '.join(card_names(missing, 0))}")
        return make_hand((self.once & ~other.once) | (self.twice & ~other.twice), self.twice & ~other.once)

    def __add__(self, cards):
        return self.add(cards)

    def __sub__(self, cards):
        return self.remove(cards)

    def __eq__(self, other):
        if not isinstance(other, Hand):
            return NotImplemented
        return self.once == (<Hand>other).once and self.twice == (<Hand>other).twice

    def __ne__(self, other):
        if not isinstance(other, Hand):
            return NotImplemented
        return self.once != (<Hand>other).once or self.twice != (<Hand>other).twice

    def __hash__(self):
        return hash((self.once, self.twice))

    def __repr__(self):
        return f"Hand({' '.join(self)!r})"

    def __str__(self):
        return " ".join(self)

    # -- pickling and copies: by value, checked again when loaded -------------------------
    def __reduce__(self):
        return _restore_hand, (self.once, self.twice)

    def __setstate__(self, state):
        # only a forged pickle sets state on a value (its own pickles have none)
        raise TypeError("a Hand is immutable: it is unpickled from its planes, not given a state")

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def _restore_hand(once, twice):
    """A pickled hand, its planes checked as :meth:`Hand.from_bits` checks them."""
    return Hand.from_bits(once, twice)


cdef Hand make_hand(uint64_t once, uint64_t twice):
    hand = <Hand>Hand.__new__(Hand)
    hand.once = once
    hand.twice = twice
    return hand


cdef object _of_class(object cls, uint64_t once, uint64_t twice):
    """A hand of ``cls`` (Hand or a subclass) with planes already checked."""
    if cls is Hand:
        return make_hand(once, twice)
    cdef Hand hand = cls.__new__(cls)
    hand.once = once
    hand.twice = twice
    return hand


def new_hand(once, twice):
    """new_hand(once, twice) -> Hand, trusted: the planes are not checked (internal use)."""
    return make_hand(once, twice)


def card_names(uint64_t once, uint64_t twice):
    """Card strings of two valid planes, in index order (a card held twice named twice)."""
    cdef list names = []
    cdef uint64_t low
    while once:
        low = once & (~once + 1)
        name = CARD_NAMES[gf_ctz64(once)]
        names.append(name)
        if twice & low:
            names.append(name)
        once ^= low
    return names


def planes_of_names(names):
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


def _planes_of(indices):
    cdef uint64_t once = 0, twice = 0, bit
    for index in indices:
        bit = (<uint64_t>1) << <int>index
        if twice & bit:
            raise ValueError(f"three copies of card {CARD_NAMES[index]}: the deck has two")
        twice |= once & bit
        once |= bit
    return once, twice


cdef object _as_multiset(object item):
    if isinstance(item, Hand):
        return item
    cards = getattr(item, "cards", None)
    return cards if isinstance(cards, Hand) else None


#: Hands read from card strings, by string (bounded: emptied when full).
cdef dict _PARSED = {}
PARSED_CACHE_SIZE = 4096


def forget_parsed():
    """Empty the memory of card strings read by :func:`as_hand` (every string is new again)."""
    _PARSED.clear()


cpdef Hand as_hand(object cards):
    """Accept a Hand, a Move (its cards), a string of cards or an iterable of card strings.

    A card string is read once and remembered (the last few thousand), since callers tend to
    pass the same hand again and again."""
    if type(cards) is Hand:  # the common case, checked first (hot path)
        return <Hand>cards
    if type(cards) is str:
        hand = _PARSED.get(cards)
        if hand is None:
            hand = Hand.parse(cards)
            if len(_PARSED) >= PARSED_CACHE_SIZE:
                _PARSED.clear()
            _PARSED[cards] = hand
        return <Hand>hand
    multiset = _as_multiset(cards)
    if multiset is not None:
        return <Hand>multiset
    if isinstance(cards, str):
        return Hand.parse(cards)
    if isinstance(cards, Iterable):
        return Hand(cards)
    raise TypeError(f"expected a Hand, a card string or an iterable of card strings, not {type(cards).__name__}")


def planes_array(hands):
    """``uint64[n, 2]``: the ``(once, twice)`` rows of ``hands``, a sequence of what
    :func:`as_hand` takes, read here in C (a batch of hands given as a list: numpy reads a
    list of Python integer pairs at about four times the cost)."""
    cdef list items = list(hands)
    cdef Py_ssize_t i, n = len(items)
    out = np.empty((n, 2), dtype=np.uint64)
    cdef uint64_t[:, ::1] rows = out
    cdef Hand hand
    for i in range(n):
        hand = as_hand(items[i])
        rows[i, 0] = hand.once
        rows[i, 1] = hand.twice
    return out
