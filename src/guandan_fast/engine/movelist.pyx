# cython: language_level=3, freethreading_compatible=True
"""The moves of one call: :class:`MoveList`, and the entry points that make one,
:func:`legal_moves` and :func:`has_legal_follow`.

A list holds its moves in memory of its own (it is a :class:`~guandan_fast.engine._movegen.Moves`,
the native generator's result type): the native generator writes straight into it, the
reference's arrays are copied in. :class:`~guandan_fast.engine.moves.Move` objects are made
only on iteration or indexing, so bulk users pay nothing per move. In a following call the
kernel is a third of the time; the rest is the call itself, so the common argument forms (a
Hand, an int level, no move / a Move / a platform triple) are read in C.

Every move a list holds is a legal reading at its level: a list made from arrays
(``MoveList(moves, level)``, an array set on it, or unpickled) checks each row as
``Move(...)`` checks a move.
"""

cimport cython
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcmp, memcpy

from guandan_fast.engine._movegen cimport (
    FULL_PLANE, K_PASS, Args, Moves, NUM_KEYS, NUM_KINDS, fill_generated, has_legal_follow_c, reads_as_c,
    renew_moves, share_moves,
)
from guandan_fast.engine._notation cimport Reading, read_native
from guandan_fast.engine.hand cimport Hand, as_hand
from guandan_fast.engine.moves cimport Move, make_move

import numpy as np
cimport numpy as cnp

cnp.import_array()

from guandan_fast.engine import _movegen
from guandan_fast.engine import backend as _backend
from guandan_fast.engine.backend import generator
from guandan_fast.engine.cards import as_index, check_flag, level_char, parse_level
from guandan_fast.engine.hand import card_names
from guandan_fast.engine.kinds import LEADING, PLATFORM_NAMES, MoveArrays, MoveType
from guandan_fast.engine.notation import read

__all__ = ["MOVE_DTYPE", "MoveList", "has_legal_follow", "legal_moves", "read_last"]

#: Structured dtype of :meth:`MoveList.to_numpy`.
MOVE_DTYPE = np.dtype([("kind", np.uint8), ("key", np.uint8), ("cards", np.uint64, (2,))])
# bytes of one move in a list's memory (and in its pickle): two planes, its kind and key
cdef enum:
    MOVE_BYTES = 18

# the generators of the backends named in calls (backend.generator fills it; never rebound)
cdef dict _NAMED_GENERATORS = _backend._named_generators
_NUMPY_INTEGER = np.integer
_NUMPY_TIME_SPAN = np.timedelta64


cdef object _as_index(object index, str words):
    """:func:`~guandan_fast.engine.cards.as_index`, with its usual case after an int, a
    numpy integer, told here at once (a Python call costs an index 2.5 times as much)."""
    if isinstance(index, _NUMPY_INTEGER) and not isinstance(index, _NUMPY_TIME_SPAN):
        return int(index)
    return as_index(index, words)


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
    ``MoveList(moves, level)`` copies any object with the three arrays (a
    :class:`~guandan_fast.engine.kinds.MoveArrays`, another list), checking that each row is
    a legal reading at ``level``; an array set on a list is checked the same way. Two lists are
    equal when they hold the same moves in the same order at the same level. The
    arrays are read-only (a row written in place would be a move its cards do not read
    as): copy one to change it, and set it back to check it.
    """

    def __init__(self, moves, level):
        level = parse_level(level)
        try:
            kinds, keys, cards = moves.kinds, moves.keys, moves.cards
        except AttributeError:
            raise TypeError(f"a MoveList is made from an object with kinds, keys and cards arrays (a MoveArrays, "
                            f"another list), not {type(moves).__name__}") from None
        self._take_checked(kinds, keys, cards, level)
        self.level = level

    @classmethod
    def _trusted(cls, moves, level):
        """A list of a generator's result (rows known to be legal readings: not checked)."""
        cdef MoveList made = MoveList.__new__(MoveList)
        cdef Moves result
        if isinstance(moves, Moves):  # the native generator's result: copied from its memory
            result = moves
            _copy_rows(made, result.kinds_at, result.keys_at, result.cards_at, result.n)
        else:
            kinds, keys, cards = _layout(moves.kinds, moves.keys, moves.cards)
            made._copy(kinds, keys, cards)
        made.level = level
        return made

    cdef int _take_checked(self, kinds, keys, cards, int level) except -1:
        """Replace the moves by these arrays once each row is known to be a legal reading."""
        kinds, keys, cards = _as_arrays(kinds, keys, cards)
        _check_rows(kinds, keys, cards, level)
        return self._copy(kinds, keys, cards)

    cdef int _copy(self, cnp.ndarray kinds, cnp.ndarray keys, cnp.ndarray cards) except -1:
        """Replace the moves by copies of three arrays of the list's own layout (their
        lengths checked: the copy reads ``n`` rows of each)."""
        if kinds.ndim != 1 or keys.ndim != 1 or cards.ndim != 2 or keys.shape[0] != kinds.shape[0] \
                or cards.shape[0] != kinds.shape[0] or cards.shape[1] != 2:
            raise ValueError(f"a move list's arrays are kinds[n], keys[n] and cards[n, 2], not shapes "
                             f"{np.shape(kinds)}, {np.shape(keys)} and {np.shape(cards)}")
        return _copy_rows(self, <const uint8_t*>cnp.PyArray_DATA(kinds), <const uint8_t*>cnp.PyArray_DATA(keys),
                          <const uint64_t*>cnp.PyArray_DATA(cards), kinds.shape[0])

    @property
    def kinds(self):
        """``uint8[n]``: the MoveType code of each move."""
        return self.kinds_array()

    @kinds.setter
    def kinds(self, value):
        self._take_checked(value, self.keys_array(), self.cards_array(), self.level)

    @property
    def keys(self):
        """``uint8[n]``: the key of each move."""
        return self.keys_array()

    @keys.setter
    def keys(self, value):
        self._take_checked(self.kinds_array(), value, self.cards_array(), self.level)

    @property
    def cards(self):
        """``uint64[n, 2]``: the ``(once, twice)`` planes of each move."""
        return self.cards_array()

    @cards.setter
    def cards(self, value):
        self._take_checked(self.kinds_array(), self.keys_array(), value, self.level)

    def __len__(self):
        return self.n

    def count(self):
        """Number of moves (python-chess style)."""
        return self.n

    cdef object _move(self, Py_ssize_t i):
        """Move ``i`` (0 <= i < n)."""
        return make_move(self.kinds_at[i], self.keys_at[i], self.cards_at[2 * i], self.cards_at[2 * i + 1], self.level)

    cdef Py_ssize_t _index(self, object index) except -1:
        """The row of an integer ``index`` (negative from the end; :func:`as_index`: never a
        bool): TypeError for anything else, IndexError, as numpy words it, outside the list
        (however large the integer)."""
        if type(index) is not int:
            index = _as_index(index, "a move list row is read by an integer index")
        _check_index(index, self.n)
        cdef Py_ssize_t i = index
        return i + self.n if i < 0 else i

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[j] for j in range(*index.indices(self.n))]
        if type(index) is not int:  # checked and made an int here, so _index takes it as it is
            index = _as_index(index, "move list indices must be integers or slices")
        return self._move(self._index(index))

    def __iter__(self):
        cdef Py_ssize_t i = 0
        while i < self.n:  # the length read again at each move: an array set meanwhile ends it
            yield self._move(i)
            i += 1

    def __contains__(self, move):
        cdef Py_ssize_t i
        cdef Move m
        if not isinstance(move, Move) or (<Move>move).level != self.level:
            return False
        m = move
        for i in range(self.n):
            if (self.cards_at[2 * i] == m.cards.once and self.cards_at[2 * i + 1] == m.cards.twice
                    and self.kinds_at[i] == m.code and self.keys_at[i] == m.key):
                return True
        return False

    def __eq__(self, other):
        """Lists are equal when they hold the same moves in the same order at the same level
        (as Python lists compare); a list is mutable (its arrays can be set), so unhashable."""
        if not isinstance(other, MoveList):
            return NotImplemented
        cdef MoveList that = other
        cdef Py_ssize_t n = self.n
        if that.level != self.level or that.n != n:
            return False
        return n == 0 or (memcmp(self.kinds_at, that.kinds_at, <size_t>n) == 0
                          and memcmp(self.keys_at, that.keys_at, <size_t>n) == 0
                          and memcmp(self.cards_at, that.cards_at, <size_t>n * 2 * sizeof(uint64_t)) == 0)

    __hash__ = None

    def row(self, index):
        """Move ``index`` as plain ints ``(kind, key, once, twice)``, without building a Move."""
        cdef Py_ssize_t i = self._index(index)
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
        out = np.empty(self.n, dtype=MOVE_DTYPE)
        out["kind"], out["key"], out["cards"] = self.kinds_array(), self.keys_array(), self.cards_array()
        return out

    # -- pickling and copies: the rows are checked again when loaded ----------------------
    def __reduce__(self):
        cdef Py_ssize_t n = self.n
        return _restore_list, (self.level, (<char*>self.cards_at)[:16 * n] + (<char*>self.kinds_at)[:n]
                               + (<char*>self.keys_at)[:n])

    def _shared(self):
        """A list of the same moves over the same memory, its arrays read-only (how a Deal
        hands out the list it keeps: no copy, and nothing written reaches the deal's)."""
        cdef MoveList made = MoveList.__new__(MoveList)
        share_moves(made, self)
        made.level = self.level
        return made

    def __setstate__(self, state):
        # only a forged pickle sets state on a list (its own pickles have none)
        raise TypeError("a MoveList is unpickled from its moves, not given a state")

    def __copy__(self):
        cdef MoveList made = MoveList.__new__(MoveList)
        made._copy(self.kinds_array(), self.keys_array(), self.cards_array())
        made.level = self.level
        return made

    def __deepcopy__(self, memo):
        return self.__copy__()

    def __repr__(self):
        return f"<MoveList of {self.n} moves at level {self.level}>"


cdef int _copy_rows(MoveList moves, const uint8_t* kinds, const uint8_t* keys, const uint64_t* cards,
                    Py_ssize_t n) except -1:
    """Replace the moves of ``moves`` by copies of n rows."""
    renew_moves(moves, n)
    if n > 0:
        memcpy(moves.kinds_at, kinds, <size_t>n)
        memcpy(moves.keys_at, keys, <size_t>n)
        memcpy(moves.cards_at, cards, <size_t>n * 2 * sizeof(uint64_t))
    return 0


cdef MoveList list_of_rows(const uint8_t* kinds, const uint8_t* keys, const uint64_t* cards, Py_ssize_t n, int level):
    cdef MoveList made = MoveList.__new__(MoveList)
    _copy_rows(made, kinds, keys, cards, n)
    made.level = level
    return made


def _restore_list(level, data):
    """A pickled list: its moves' bytes (the layout of its memory), each row checked."""
    if type(data) is not bytes:
        raise TypeError(f"bad pickled move list: bytes expected, not {type(data).__name__}")
    cdef Py_ssize_t size = len(<bytes>data), n = size // MOVE_BYTES
    if size % MOVE_BYTES:
        raise ValueError(f"bad pickled move list: {size} bytes is no whole number of moves")
    raw = np.frombuffer(data, dtype=np.uint8)
    cards = raw[: 16 * n].view(np.uint64).reshape(n, 2)
    return MoveList(MoveArrays(raw[16 * n : 17 * n], raw[17 * n :], cards), level)


cdef tuple _as_arrays(kinds, keys, cards):
    """The three arrays of a list as ``uint8[n]``, ``uint8[n]``, ``uint64[n, 2]`` (C-contiguous,
    aligned; copies where needed); TypeError/ValueError for any other shape, type or range."""
    arrays = []
    for name, value in (("kinds", kinds), ("keys", keys), ("cards", cards)):
        array = np.asarray(value)
        if array.dtype.kind not in "iu":
            raise TypeError(f"a move list's {name} must be an integer array, not {array.dtype}")
        arrays.append(array)
    kinds, keys, cards = arrays
    if kinds.ndim != 1:
        raise ValueError(f"a move list's kinds must be one-dimensional, not of shape {kinds.shape}")
    n = kinds.shape[0]
    if keys.shape != (n,) or cards.shape != (n, 2):
        raise ValueError(f"a move list's arrays must have shapes ({n},), ({n},) and ({n}, 2), "
                         f"not {kinds.shape}, {keys.shape} and {cards.shape}")
    if n:
        _in_range("kinds", kinds, 0, NUM_KINDS - 1)
        _in_range("keys", keys, 0, NUM_KEYS - 1)
        _in_range("cards", cards, 0, FULL_PLANE)
    return _layout(kinds, keys, cards)


cdef tuple _layout(kinds, keys, cards):
    """Three arrays of values in range as the list's own layout (copies where needed)."""
    return (np.require(kinds, np.uint8, ["C", "A"]), np.require(keys, np.uint8, ["C", "A"]),
            np.require(cards, np.uint64, ["C", "A"]))


cdef int _in_range(str name, cnp.ndarray array, object low, object high) except -1:
    if array.min() < low or array.max() > high:
        bad = np.flatnonzero(((array < low) | (array > high)).reshape(array.shape[0], -1).any(axis=1))[0]
        raise ValueError(f"move {bad} of the list: its {name} are outside {low}..{high}")
    return 0


cdef int _check_rows(cnp.ndarray kinds, cnp.ndarray keys, cnp.ndarray cards, int level) except -1:
    """ValueError naming the first row that is no legal reading at ``level`` (a pass, planes
    that are no hand, or cards that do not read as the row's kind and key), asked of the
    default generator."""
    cdef Py_ssize_t i, n = kinds.shape[0]
    cdef const uint8_t* kind_at = <const uint8_t*>cnp.PyArray_DATA(kinds)
    cdef const uint8_t* key_at = <const uint8_t*>cnp.PyArray_DATA(keys)
    cdef const uint64_t* card_at = <const uint64_t*>cnp.PyArray_DATA(cards)
    cdef uint64_t once, twice
    cdef int found
    gen = generator()
    for i in range(n):
        once, twice = card_at[2 * i], card_at[2 * i + 1]
        if kind_at[i] == K_PASS:
            raise ValueError(f"move {i} of the list is a pass: a move list holds no pass")
        if twice & ~once:
            raise ValueError(f"move {i} of the list: a card marked 'twice' must also be marked 'once'")
        if gen is _movegen:
            found = reads_as_c(once, twice, level, kind_at[i], key_at[i])
            if found < 0:
                raise MemoryError()
        else:
            found = gen.reads_as(once, twice, level, kind_at[i], key_at[i])
        if not found:
            raise ValueError(
                f"move {i} of the list: cards {' '.join(card_names(once, twice))} do not read as "
                f"{PLATFORM_NAMES[MoveType(kind_at[i])]} with key {key_at[i]} at level {level_char(level)}"
            )
    return 0


def read_last(last, level, gen=None):
    """``(last_kind, last_key, last_size)`` of the move to beat: None or PASS (leading), a
    :class:`~guandan_fast.engine.moves.Move`, or a platform triple, read without building a
    Move and checked by ``gen`` (default: the chosen generator) as
    :meth:`~guandan_fast.engine.moves.Move.from_platform` checks it."""
    cdef Move move
    if last is None:
        return LEADING
    if isinstance(last, Move):
        move = last
        if move.code != K_PASS and move.level != level:
            raise ValueError(f"the last move was made at level {move.level}, not at level {level}")
        return move.code, move.key, move.size
    row = read(last, level, gen)
    if row is None:
        return LEADING
    return row[0], row[1], row[4]


cdef object _read_call(Args* c, object hand, object level, object last, object backend):
    """Read a call's arguments into ``c`` and return the generator to ask: in C for the
    common forms (a Hand, an int level, the default backend or one a call has named
    before, and no move, a Move of that level or a platform triple the generator reads),
    else in full, naming any fault."""
    cdef Hand cards
    cdef Reading r
    if backend is None:
        gen = _backend._default_generator
    else:  # a backend named in the call: its generator, once a call has resolved the name
        gen = _NAMED_GENERATORS.get(backend) if type(backend) is str else None
    if type(hand) is Hand and type(level) is int and gen is not None and 2 <= level <= 14:
        c.level = level
        c.once = (<Hand>hand).once
        c.twice = (<Hand>hand).twice
        if last is None:
            c.kind = c.key = c.size = K_PASS
            return gen
        if type(last) is Move:
            if (<Move>last).level == level:
                c.kind, c.key, c.size = (<Move>last).code, (<Move>last).key, (<Move>last).size
                return gen
        elif type(last) is list and gen is _movegen:  # a platform triple, read and checked in C
            if read_native(last, level, &r):
                c.kind, c.key, c.size = r.kind, r.key, r.size
                return gen
    cards = as_hand(hand)
    if type(level) is not int or not 2 <= level <= 14:
        level = parse_level(level)
    gen = generator(backend)
    c.kind, c.key, c.size = read_last(last, level, gen)
    c.level = level
    c.once = cards.once
    c.twice = cards.twice
    return gen


def legal_moves(hand, level, last=None, *, strongest=False, backend=None):
    """Every legal move of ``hand`` at ``level``: leading, or beating ``last``.

    ``hand`` is a :class:`~guandan_fast.engine.hand.Hand`, a card string (``"S2 H2 SB"``) or an
    iterable of card strings; ``last`` is None (leading), a
    :class:`~guandan_fast.engine.moves.Move` or a platform triple. The list is complete (every
    reading, RULES.md §4) unless ``strongest`` keeps one per (type, cards). Passing is always
    allowed to a follower and is not listed.
    """
    cdef Args c
    if strongest is not False and strongest is not True:  # numpy's bool too; not "yes"
        strongest = check_flag(strongest, "strongest")
    gen = _read_call(&c, hand, level, last, backend)
    cdef MoveList moves = MoveList.__new__(MoveList)
    if gen is _movegen:
        fill_generated(moves, c.once, c.twice, c.level, c.kind, c.key, c.size, strongest)
    else:
        result = gen.generate(c.once, c.twice, c.level, c.kind, c.key, c.size, strongest)
        kinds, keys, cards = _layout(result.kinds, result.keys, result.cards)
        moves._copy(kinds, keys, cards)
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
