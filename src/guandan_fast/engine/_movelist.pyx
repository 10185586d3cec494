# cython: language_level=3, freethreading_compatible=True
"""The native twin of :mod:`guandan_fast.engine.movelist`: :class:`MoveList`, :func:`legal_moves`
and :func:`has_legal_follow`, with the same arguments, results and errors.

In a following call the kernel is a third of the time; the rest was Python around it
(the call's frame, the generator's argument conversion, a result object and a list
object). Here the hand's planes go straight to the native generator, its moves are
written into the list's own memory (the list is a :class:`~guandan_fast.engine._movegen.Moves`),
and the list is a static type (a subtype of ``Moves``). With the reference backend the list
holds the reference generator's arrays instead.
"""

from libc.stdint cimport uint64_t

from guandan_fast.engine._bitops cimport gf_popcount64
from guandan_fast.engine._movegen cimport K_PASS, Args, Moves, fill_generated, has_legal_follow_c
from guandan_fast.engine._values cimport make_move_of

import numpy as np
cimport numpy as cnp

cnp.import_array()

from guandan_fast.engine import _movegen
from guandan_fast.engine import backend as _backend
from guandan_fast.engine.hand import Hand, new_hand
from guandan_fast.engine.kinds import MoveArrays
from guandan_fast.engine.movelist import MOVE_DTYPE, call_args
from guandan_fast.engine.moves import Move, MoveType

# the generators of the backends named in calls (backend.generator fills it; never rebound)
cdef dict _NAMED_GENERATORS = _backend._named_generators


cdef int _check_index(object index, Py_ssize_t n) except -1:
    """IndexError, as numpy words it, for an int ``index`` outside a list of ``n`` moves
    (however large the int: it is compared as a Python int)."""
    if not -n <= index < n:
        raise IndexError(f"index {index} is out of bounds for axis 0 with size {n}")
    return 0


cdef class MoveList(Moves):
    """The moves of one call, held as parallel numpy arrays.

    ``kinds[i]`` (:class:`~guandan_fast.engine.moves.MoveType` codes), ``keys[i]`` and
    ``cards[i] = (once, twice)`` describe move ``i``; :class:`~guandan_fast.engine.moves.Move`
    objects are made only on iteration or indexing, so bulk users pay nothing per move.
    ``MoveList(moves, level)`` wraps any object with the three arrays (a
    :class:`~guandan_fast.engine.kinds.MoveArrays`); :func:`legal_moves` writes the native
    generator's moves into the list's own memory, whose arrays are made when first read.
    """

    #: The level the moves were made at.
    cdef public object level
    cdef object _lookup
    # the moves are the arrays _kinds, _keys and _cards (given, or set on the list), not the
    # list's own memory
    cdef bint _given

    def __init__(self, moves, level):
        self._take(moves.kinds, moves.keys, moves.cards)
        self.level = level

    cdef void _take(self, kinds, keys, cards) noexcept:
        self._kinds = kinds
        self._keys = keys
        self._cards = cards
        self._given = True
        self._lookup = None

    @property
    def kinds(self):
        """``uint8[n]``: the MoveType code of each move."""
        return self.kinds_array()

    @kinds.setter
    def kinds(self, value):
        self._take(value, self.keys_array(), self.cards_array())

    @property
    def keys(self):
        """``uint8[n]``: the key of each move."""
        return self.keys_array()

    @keys.setter
    def keys(self, value):
        self._take(self.kinds_array(), value, self.cards_array())

    @property
    def cards(self):
        """``uint64[n, 2]``: the ``(once, twice)`` planes of each move."""
        return self.cards_array()

    @cards.setter
    def cards(self, value):
        self._take(self.kinds_array(), self.keys_array(), value)

    def __len__(self):
        return len(self._kinds) if self._given else self.n

    def count(self):
        """Number of moves (python-chess style)."""
        return len(self)

    cdef object _own_move(self, Py_ssize_t i):
        """Move ``i`` (0 <= i < n) of the list's own memory."""
        cdef uint64_t once = self.cards_at[2 * i], twice = self.cards_at[2 * i + 1]
        return make_move_of(self.kinds_at[i], self.keys_at[i], once, twice, self.level,
                            gf_popcount64(once) + gf_popcount64(twice))

    cdef object _array_move(self, index):
        """Move ``index`` read from the arrays (given, or views of the list's own memory),
        as the Python twin reads them: any index numpy takes, any integer planes."""
        once, twice = self.cards_array()[index]
        return Move._trusted(MoveType(int(self.kinds_array()[index])), int(self.keys_array()[index]),
                             new_hand(int(once), int(twice)), self.level)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[j] for j in range(*index.indices(len(self)))]
        if type(index) is int and not self._given:
            return self._own_move(self._own_index(index))
        if type(index) is int:
            _check_index(index, len(self))
        return self._array_move(index)

    cdef Py_ssize_t _own_index(self, object index) except -1:
        """The row of an int ``index`` into the list's own memory (negative from the end);
        IndexError, as numpy words it, outside the list (however large the int)."""
        _check_index(index, self.n)
        cdef Py_ssize_t i = index
        return i + self.n if i < 0 else i

    def __iter__(self):
        cdef Py_ssize_t i
        if self._given:
            for i in range(len(self._kinds)):
                yield self._array_move(i)
        else:
            for i in range(self.n):
                yield self._own_move(i)

    def __contains__(self, move):
        cdef Py_ssize_t i
        cdef uint64_t once, twice
        cdef int kind, key
        if not isinstance(move, Move) or move.level != self.level:
            return False
        if self._given:
            if self._lookup is None:
                self._lookup = set(self.rows())
            return (int(move.kind), move.key, move.cards.once, move.cards.twice) in self._lookup
        kind, key = move.kind, move.key
        once, twice = move.cards.once, move.cards.twice
        for i in range(self.n):
            if (self.cards_at[2 * i] == once and self.cards_at[2 * i + 1] == twice
                    and self.kinds_at[i] == kind and self.keys_at[i] == key):
                return True
        return False

    def row(self, index):
        """Move ``index`` as plain ints ``(kind, key, once, twice)``, without building a Move."""
        cdef Py_ssize_t i
        if self._given or type(index) is not int:
            if type(index) is int:
                _check_index(index, len(self))
            cards = self.cards_array()
            return self.kinds_array().item(index), self.keys_array().item(index), cards.item(index, 0), cards.item(index, 1)
        i = self._own_index(index)
        return self.kinds_at[i], self.keys_at[i], self.cards_at[2 * i], self.cards_at[2 * i + 1]

    def rows(self):
        """Every move as plain ints ``(kind, key, once, twice)``, without building Moves."""
        cards = self.cards_array()
        return zip(self.kinds_array().tolist(), self.keys_array().tolist(), cards[:, 0].tolist(), cards[:, 1].tolist())

    def to_platform(self):
        """Every move as a platform triple ``[type, rank, cards]``."""
        return [move.to_platform() for move in self]

    def to_numpy(self):
        """One structured row per move: ``kind`` (uint8), ``key`` (uint8), ``cards`` (uint64[2])."""
        out = np.empty(len(self), dtype=MOVE_DTYPE)
        out["kind"], out["key"], out["cards"] = self.kinds_array(), self.keys_array(), self.cards_array()
        return out

    def __reduce__(self):
        return MoveList, (MoveArrays(self.kinds_array(), self.keys_array(), self.cards_array()), self.level)

    def __repr__(self):
        return f"<MoveList of {len(self)} moves at level {self.level}>"


cdef object _read_call(Args* c, object hand, object level, object last, object backend):
    """Read a call's arguments into ``c`` and return the generator to ask: in C for the
    common forms (a Hand, an int level, the default backend or one a call has named
    before, and no move, a Move of that level or a platform triple the generator reads),
    else by :func:`guandan_fast.engine.movelist.call_args`, which names any fault."""
    if backend is None:
        gen = _backend._default_generator
    else:  # a backend named in the call: its generator, once a call has resolved the name
        gen = _NAMED_GENERATORS.get(backend) if type(backend) is str else None
    if type(hand) is Hand and type(level) is int and gen is not None and 2 <= level <= 14:
        c.level = level
        c.once = hand._once
        c.twice = hand._twice
        if last is None:
            c.kind = c.key = c.size = K_PASS
            return gen
        if type(last) is Move:
            if last.level == level:
                c.kind, c.key, c.size = last.table_args
                return gen
        elif type(last) is list:  # a platform triple, read and checked by the generator
            row = gen.read_checked(last, level)
            if row is not None:
                c.kind, c.key, c.size = row[0], row[1], row[4]
                return gen
    hand, c.level, gen, c.kind, c.key, c.size = call_args(hand, level, last, backend)
    c.once = hand._once
    c.twice = hand._twice
    return gen


def legal_moves(hand, level, last=None, *, strongest=False, backend=None):
    """Every legal move of ``hand`` at ``level``: leading, or beating ``last``.

    ``hand`` is a :class:`~guandan_fast.engine.hand.Hand`, a card string (``"S2 H2 SB"``) or an
    iterable of card strings; ``last`` is None (leading), a
    :class:`~guandan_fast.engine.moves.Move` or a platform triple. The list is complete (every
    reading) unless ``strongest`` keeps one per (type, cards). Passing is always allowed
    to a follower and is not listed.
    """
    cdef Args c
    gen = _read_call(&c, hand, level, last, backend)
    cdef MoveList moves = MoveList.__new__(MoveList)
    if gen is _movegen:
        fill_generated(moves, c.once, c.twice, c.level, c.kind, c.key, c.size, strongest)
    else:
        result = gen.generate(c.once, c.twice, c.level, c.kind, c.key, c.size, strongest)
        moves._take(result.kinds, result.keys, result.cards)
    moves.level = c.level
    return moves


def has_legal_follow(hand, level, last, *, backend=None):
    """Whether ``hand`` can beat ``last`` (a pass does not count); stops at the first move.

    ``last`` is a :class:`~guandan_fast.engine.moves.Move` or a platform triple (None or PASS:
    whether the hand can lead at all, that is whether it holds a card).
    """
    cdef Args c
    gen = _read_call(&c, hand, level, last, backend)
    cdef int found
    if gen is _movegen:
        found = has_legal_follow_c(c.once, c.twice, c.level, c.kind, c.key, c.size)
        if found >= 0:
            return found == 1
    return gen.has_legal_follow(c.once, c.twice, c.level, c.kind, c.key, c.size)


def read_only(cnp.ndarray kinds not None, cnp.ndarray keys not None, cnp.ndarray cards not None):
    """Make three arrays read-only (a Deal's cached move list; cheaper than ``setflags``)."""
    cnp.PyArray_CLEARFLAGS(kinds, cnp.NPY_ARRAY_WRITEABLE)
    cnp.PyArray_CLEARFLAGS(keys, cnp.NPY_ARRAY_WRITEABLE)
    cnp.PyArray_CLEARFLAGS(cards, cnp.NPY_ARRAY_WRITEABLE)
