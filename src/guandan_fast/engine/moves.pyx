# cython: language_level=3, freethreading_compatible=True
"""The :class:`Move` value: (type, key, cards) at a level, and its platform triple (RULES.md §3-6).

The vocabulary a move is made of — :class:`MoveType`, keys, the bomb ladder, :func:`beats`,
the platform's names — lives in :mod:`guandan_fast.engine.kinds`, below the generators; a move
is checked by the generator of :mod:`guandan_fast.engine.backend` (native or reference), and
read from and written as a platform triple by :mod:`guandan_fast.engine.notation`.

:class:`Move` is an extension type whose parts are C fields (``moves.pxd``): native modules
and users' extensions read a move's kind code, key, size, level and cards without a Python
call, and make trusted moves with :func:`make_move`. Every way in from Python checks that
the cards really form the reading (construction, :meth:`Move.from_platform`, unpickling);
a move never changes once made.
"""

cimport cython
from libc.stdint cimport uint64_t

from guandan_fast.engine._bitops cimport gf_popcount64
from guandan_fast.engine._movegen cimport move_beats
from guandan_fast.engine._notation cimport Reading, read_native
from guandan_fast.engine.hand cimport Hand, as_hand, make_hand

import operator

from guandan_fast.engine import _movegen
from guandan_fast.engine import backend as _backend
from guandan_fast.engine.cards import bounded, level_char, parse_level
from guandan_fast.engine.kinds import PLATFORM_NAMES, SEQUENCE_TYPES, MoveType, bomb_tier
from guandan_fast.engine.notation import check_reading, rank_field, read, triple

__all__ = [
    "PASS",
    "PLATFORM_NAMES",
    "SEQUENCE_TYPES",
    "Move",
    "MoveType",
    "beats",
    "bomb_tier",
    "sort_key",
]

#: MoveType members by code (an index is cheaper than calling the enum).
cdef tuple _KINDS = tuple(MoveType)
cdef enum:
    K_PASS = 0
    NUM_KINDS = 11
    NUM_KEYS = 18

# the empty hand every pass holds
cdef Hand _NO_CARDS = make_hand(0, 0)


@cython.freelist(64)
cdef class Move:
    """A legal play: its type, its key (strength inside the type) and its cards, at a level.

    ``Move(kind, key, cards, level)`` checks that ``cards`` really read as ``kind`` with
    ``key`` at ``level``. Two moves are equal when type, key, cards and level are equal
    (RULES.md §4): which wildcard stood for what is not part of a move.
    """

    def __cinit__(self):
        self.cards = _NO_CARDS  # a move made by a native maker is filled in after this

    def __init__(self, kind, key, cards, level):
        """A move, validated: ``cards`` must really read as ``kind`` with ``key`` at ``level``."""
        if self.made:
            raise AttributeError("Move is immutable")
        level = parse_level(level)
        if not isinstance(kind, MoveType):
            if isinstance(kind, bool) or not hasattr(kind, "__index__"):
                raise TypeError(f"a move's kind must be a MoveType or its integer code, not {type(kind).__name__}")
            kind = operator.index(kind)
        kind = MoveType(kind)
        cdef Hand hand = as_hand(cards)
        if isinstance(key, bool):
            raise TypeError("a move's key must be an integer, not bool")
        if type(key) is not int:
            key = _plain(key)
        if kind is MoveType.PASS:
            if hand.once or key:
                raise ValueError("a pass has no cards and no key")
        else:
            check_reading(kind, key, hand.once, hand.twice, level)
        _fill(self, kind, key, hand, level)

    @classmethod
    def _trusted(cls, kind, key, cards, level):
        """A move already known to be a legal reading (internal use; native code calls
        :func:`make_move`). Its kind and key must still be in range: the tables (and the
        play state) are indexed by them."""
        if not (0 <= kind < NUM_KINDS and 0 <= key < NUM_KEYS):
            raise ValueError(f"no move has kind {kind!r} and key {key!r}")
        cdef Move move = cls.__new__(cls)
        _fill(move, kind, key, cards, level)
        return move

    def __setattr__(self, name, value):
        raise AttributeError("Move is immutable")

    def __delattr__(self, name):
        raise AttributeError("Move is immutable")

    @property
    def kind(self):
        """The :class:`MoveType`."""
        return _KINDS[self.code]

    # -- platform interchange ---------------------------------------------------------------
    @property
    def rank(self):
        """The platform's rank field of this move (RULES.md §6)."""
        return rank_field(self.code, self.key, self.level)

    def to_platform(self):
        """``[type, rank, cards]`` as the competition platform writes it."""
        return triple(self.code, self.key, self.cards.once, self.cards.twice, self.level)

    @staticmethod
    def from_platform(action, level):
        """Read a platform triple, checking that its cards really form that reading."""
        cdef Reading r
        if type(level) is not int or not 2 <= level <= 14:
            level = parse_level(level)
        gen = _backend._default_generator
        if gen is _movegen and read_native(action, level, &r):  # the hot path, in C
            return make_move(r.kind, r.key, r.once, r.twice, level)
        row = read(action, level)  # another spelling, the reference backend, a pass or a fault
        if row is None:
            return PASS
        return make_move(row[0], row[1], row[2], row[3], level)

    # -- strength -------------------------------------------------------------------------
    @property
    def tier(self):
        """Bomb tier (see :func:`bomb_tier`), -1 for a move that is no bomb."""
        return bomb_tier(self.code, self.size)

    def beats(self, other):
        """Whether this move may be played on ``other`` (``None`` or PASS: leading)."""
        if other is None:
            return self.code != K_PASS
        if not isinstance(other, Move):
            raise TypeError(f"a move can only beat a Move, not {type(other).__name__}")
        cdef Move last = other
        if last.code != K_PASS and self.code != K_PASS and last.level != self.level:
            raise ValueError("moves of different levels cannot be compared")
        return move_beats(self.code, self.key, self.size, last.code, last.key, last.size)

    # -- value semantics ------------------------------------------------------------------
    def __eq__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        return _same(self, <Move>other)

    def __ne__(self, other):
        if not isinstance(other, Move):
            return NotImplemented
        return not _same(self, <Move>other)

    def __hash__(self):
        return hash((self.kind, self.key, self.cards.once, self.cards.twice, self.level))

    def __repr__(self):
        if self.code == K_PASS:
            return "PASS"
        return (f"Move({PLATFORM_NAMES[_KINDS[self.code]]} {self.rank}: {' '.join(self.cards)} "
                f"@ level {level_char(self.level)})")

    # -- pickling and copies: by value, checked again when loaded -------------------------
    def __reduce__(self):
        """Pickle by value; a pass comes back as the one :data:`PASS`."""
        if self is PASS:
            return "PASS"
        return _restore_move, (self.code, self.key, self.cards.once, self.cards.twice, self.level)

    def __setstate__(self, state):
        # only a forged pickle sets state on a value (its own pickles have none)
        raise TypeError("a Move is immutable: it is unpickled from its parts, not given a state")

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


cdef inline bint _same(Move a, Move b) noexcept:
    return (a.code == b.code and a.key == b.key and a.level == b.level
            and a.cards.once == b.cards.once and a.cards.twice == b.cards.twice)


cdef int _fill(Move move, object kind, object key, Hand cards, object level) except -1:
    """Fill a new move with parts already checked (``kind`` a code or MoveType member)."""
    move.code = kind
    move.key = key
    move.cards = cards
    move.level = 0 if kind == K_PASS else level  # a pass has no level: every pass equals PASS
    move.size = gf_popcount64(cards.once) + gf_popcount64(cards.twice)
    move.made = True
    return 0


cdef Move make_move(int code, int key, uint64_t once, uint64_t twice, int level):
    if not 0 <= code < NUM_KINDS or not 0 <= key < NUM_KEYS:
        raise ValueError(f"no move has kind {code} and key {key}")
    cdef Move move = Move.__new__(Move)
    move.code = code
    move.key = key
    move.cards = make_hand(once, twice)
    move.level = 0 if code == K_PASS else level  # a pass has no level (see Move.__init__)
    move.size = gf_popcount64(once) + gf_popcount64(twice)
    move.made = True
    return move


cdef object _plain(object key):
    """An integer key (numpy integers included) as an int; anything else unchanged (it
    then reads as nothing)."""
    try:
        return operator.index(key)
    except TypeError:
        return key


def beats(kind, key, size, last_kind, last_key, last_size):
    """Whether a move (kind, key, number of cards) may be played on the move to beat (kind
    0, the pass: leading): the native rule (``move_beats`` of ``_movegen.pxd``), as
    :meth:`Move.beats` and the play state apply it. Kinds, keys and sizes outside what a
    move can have are a ValueError."""
    return move_beats(bounded(kind, "kind", 0, NUM_KINDS - 1), bounded(key, "key", 0, NUM_KEYS - 1),
                      bounded(size, "size", 0, 108), bounded(last_kind, "last_kind", 0, NUM_KINDS - 1),
                      bounded(last_key, "last_key", 0, NUM_KEYS - 1), bounded(last_size, "last_size", 0, 108))


def sort_key(move):
    """A fixed order for move lists: by type, key, then cards."""
    return (move.kind, move.key, move.cards.once, move.cards.twice)


def _restore_move(kind, key, once, twice, level):
    """A pickled move, checked again as ``Move(...)`` checks it (its planes, its level and
    that the cards form that reading); a pass is :data:`PASS`."""
    if type(kind) is int and kind == K_PASS:
        if key != 0 or once != 0 or twice != 0:
            raise ValueError("a pass has no cards and no key")
        return PASS
    return Move(kind, key, Hand.from_bits(once, twice), level)


#: The pass: a follower's move that plays no card.
PASS = make_move(K_PASS, 0, 0, 0, 0)
