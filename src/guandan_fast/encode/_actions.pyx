# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""Native part of the fixed action space (:mod:`guandan_fast.encode.actions`).

Kernels over a move list's arrays (``MoveList.kinds``, ``.keys``, ``.cards``): the
structural id of every move, and the canonical move among those of one id, or of every id. The
layout itself (which id a kind, key and size get) is declared once, in Python, by
``guandan_fast.encode.actions`` and handed here by :func:`set_layout` when that module is
imported; this module only knows card planes (card ``i = 4 * rank_index + suit``, bits
52 and 53 the jokers, see :mod:`guandan_fast.engine.cards`).
"""

from libc.stdint cimport uint8_t, int16_t, uint64_t

cimport numpy as cnp

from guandan_fast.engine._bitops cimport gf_ctz64, gf_popcount64
from guandan_fast.engine._movegen cimport FULL_PLANE, HR_BIT, NUM_KEYS, NUM_KINDS, SB_BIT, as_integer, wild_bit

cnp.import_array()

cdef enum:
    NO_ID = -1

cdef uint64_t JOKER_BITS = SB_BIT | HR_BIT

# The layout, filled once by set_layout (read-only afterwards): the id of (kind, key) at
# the kind's smallest size, and for kinds of several sizes (bombs) the ids per extra card.
cdef int16_t FIRST_ID[NUM_KINDS][NUM_KEYS]
cdef int SIZE_MIN[NUM_KINDS]
cdef int SIZE_MAX[NUM_KINDS]
cdef int SIZE_STRIDE[NUM_KINDS]
cdef bint LAYOUT_SET = False


def set_layout(first_id, size_min, size_max, size_stride):
    """Install the id layout: ``first_id[kind][key]`` (-1: no such move), and per kind the
    sizes it comes in and how many ids one more card moves the id by. Everything is checked
    before anything is written (the tables are process-wide): ValueError/TypeError."""
    global LAYOUT_SET
    cdef int kind, key
    table = [[_layout_int(v, "first_id", -1, 32767) for v in _row(row, NUM_KEYS, "a first_id row")]
             for row in _row(first_id, NUM_KINDS, "first_id")]
    smallest = [_layout_int(v, "size_min", 0, 54) for v in _row(size_min, NUM_KINDS, "size_min")]
    largest = [_layout_int(v, "size_max", 0, 54) for v in _row(size_max, NUM_KINDS, "size_max")]
    strides = [_layout_int(v, "size_stride", 0, 32767) for v in _row(size_stride, NUM_KINDS, "size_stride")]
    for kind in range(NUM_KINDS):
        if smallest[kind] > largest[kind]:
            raise ValueError(f"kind {kind}: size_min {smallest[kind]} above size_max {largest[kind]}")
        for key in range(NUM_KEYS):
            if table[kind][key] + strides[kind] * (largest[kind] - smallest[kind]) > 32767:
                raise ValueError(f"kind {kind}, key {key}: its ids pass 32767 (int16)")
    for kind in range(NUM_KINDS):
        for key in range(NUM_KEYS):
            FIRST_ID[kind][key] = table[kind][key]
        SIZE_MIN[kind] = smallest[kind]
        SIZE_MAX[kind] = largest[kind]
        SIZE_STRIDE[kind] = strides[kind]
    LAYOUT_SET = True


def _row(values, Py_ssize_t length, str what):
    """``values`` as a list of ``length`` entries (TypeError/ValueError otherwise)."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{what} must be a sequence, not {type(values).__name__}")
    try:
        items = list(values)
    except TypeError:
        raise TypeError(f"{what} must be a sequence, not {type(values).__name__}") from None
    if len(items) != length:
        raise ValueError(f"{what} must have {length} entries, not {len(items)}")
    return items


def _layout_int(value, str what, long low, long high):
    number = as_integer(value, f"an entry of {what}")
    if not low <= number <= high:
        raise ValueError(f"an entry of {what} is {number}, outside {low}..{high}")
    return number


cdef inline int _move_id(int kind, int key, uint64_t once, uint64_t twice) noexcept nogil:
    """The id of one move, or NO_ID when (kind, key, size) is outside the layout (the size
    is counted only for kinds of several sizes)."""
    cdef int size, first
    if kind < 0 or kind >= NUM_KINDS or key < 0 or key >= NUM_KEYS:
        return NO_ID
    first = FIRST_ID[kind][key]
    if first < 0 or SIZE_MIN[kind] == SIZE_MAX[kind]:
        return first
    size = gf_popcount64(once) + gf_popcount64(twice)
    if size < SIZE_MIN[kind] or size > SIZE_MAX[kind]:
        return NO_ID
    return first + SIZE_STRIDE[kind] * (size - SIZE_MIN[kind])


cdef inline int _count(uint64_t once, uint64_t twice, uint64_t bits) noexcept nogil:
    return gf_popcount64(once & bits) + gf_popcount64(twice & bits)


cdef inline int _bit_count(uint64_t once, uint64_t twice, uint64_t bit) noexcept nogil:
    """Copies of the one card ``bit`` in (once, twice)."""
    return <int>((once & bit) != 0) + <int>((twice & bit) != 0)


cdef inline uint64_t _bomb_groups(uint64_t once, uint64_t twice) noexcept nogil:
    """Cards of the hand's bomb groups: every rank of which it holds 4 or more cards, and
    the jokers when it holds all four."""
    cdef uint64_t groups = 0, rank_bits
    cdef int rank
    for rank in range(13):
        rank_bits = (<uint64_t>15) << (4 * rank)
        if _count(once, twice, rank_bits) >= 4:
            groups |= rank_bits
    if _count(once, twice, JOKER_BITS) == 4:
        groups |= JOKER_BITS
    return groups


cdef inline uint64_t _power_order(uint64_t plane, int level) noexcept nogil:
    """The plane with the level rank's four bits moved above the aces: bit ``4 * i + suit``
    is then the i-th rank by power (2..A without the level rank, then the level rank),
    and bits 52, 53 stay the jokers, the highest powers."""
    cdef int shift = 4 * (level - 2)
    cdef uint64_t below = plane & (((<uint64_t>1) << shift) - 1)
    cdef uint64_t level_bits = (plane >> shift) & 15
    cdef uint64_t above = (plane >> (shift + 4)) & (((<uint64_t>1) << (48 - shift)) - 1)
    return below | (above << shift) | (level_bits << 48) | (plane & JOKER_BITS)


cdef int _lower_cards(uint64_t once_a, uint64_t twice_a, uint64_t once_b, uint64_t twice_b,
                      int level) noexcept nogil:
    """1 when cards A come first in ascending (power, suit) order (the sorted lists compared
    element by element; both hold as many cards), 0 otherwise: at the lowest card whose
    count differs, the one holding more of it is lower."""
    cdef uint64_t oa = _power_order(once_a, level), ta = _power_order(twice_a, level)
    cdef uint64_t ob = _power_order(once_b, level), tb = _power_order(twice_b, level)
    cdef uint64_t differ = (oa ^ ob) | (ta ^ tb)
    cdef int bit
    if differ == 0:
        return 0
    bit = gf_ctz64(differ)
    return <int>(((oa >> bit) & 1) + ((ta >> bit) & 1)) > <int>(((ob >> bit) & 1) + ((tb >> bit) & 1))


cdef inline bint _better(uint64_t once, uint64_t twice, uint64_t best_once, uint64_t best_twice,
                         uint64_t wild, uint64_t groups, int level) noexcept nogil:
    """Whether move A = (once, twice) comes before move B = (best_once, best_twice) of the
    same id: fewer wildcards, then fewer cards from bomb groups, then lower cards."""
    cdef int wilds = _bit_count(once, twice, wild), best_wilds = _bit_count(best_once, best_twice, wild)
    cdef int broken, best_broken
    if wilds != best_wilds:
        return wilds < best_wilds
    if (((once ^ best_once) | (twice ^ best_twice)) & groups) == 0:  # same cards from the bomb groups
        return _lower_cards(once, twice, best_once, best_twice, level)
    broken = _count(once, twice, groups)
    best_broken = _count(best_once, best_twice, groups)
    if broken != best_broken:
        return broken < best_broken
    return _lower_cards(once, twice, best_once, best_twice, level)


cdef Py_ssize_t _ids_kernel(const uint8_t* kinds, const uint8_t* keys, const uint64_t* cards, Py_ssize_t n,
                            int16_t* out, uint8_t* mask, Py_ssize_t mask_size) noexcept nogil:
    """out[i] = id of move i (n moves, cards as (once, twice) pairs) and mask[id] = 1 when
    mask is not NULL; returns the first move with no id (or one beyond the mask), else -1."""
    cdef Py_ssize_t i
    cdef int move_id
    for i in range(n):
        move_id = _move_id(kinds[i], keys[i], cards[2 * i], cards[2 * i + 1])
        if move_id < 0 or (mask != NULL and move_id >= mask_size):
            return i
        out[i] = <int16_t>move_id
        if mask != NULL:
            mask[move_id] = 1
    return -1


cdef Py_ssize_t _canonical_kernel(const int16_t* ids, const uint64_t* cards, Py_ssize_t n, int target,
                                  uint64_t hand_once, uint64_t hand_twice, int level) noexcept nogil:
    """The row of the first move with id ``target`` in the canonical order, -1 when none has it."""
    cdef Py_ssize_t i, best = -1
    cdef uint64_t wild = wild_bit(level)  # the heart of the level rank
    cdef uint64_t groups = _bomb_groups(hand_once, hand_twice)
    for i in range(n):
        if ids[i] == target and (best < 0 or _better(cards[2 * i], cards[2 * i + 1], cards[2 * best],
                                                     cards[2 * best + 1], wild, groups, level)):
            best = i
    return best


cdef Py_ssize_t _table_kernel(const int16_t* ids, const uint64_t* cards, Py_ssize_t n, int16_t* rows,
                              Py_ssize_t table_size, int offset, uint64_t hand_once, uint64_t hand_twice,
                              int level) noexcept nogil:
    """rows[id] = offset + the row of the canonical move of each id among the n moves (rows
    filled with -1 by the caller); returns the first row whose id is outside the table, else -1."""
    cdef Py_ssize_t i, best
    cdef int move_id
    cdef uint64_t wild = wild_bit(level)
    cdef uint64_t groups = _bomb_groups(hand_once, hand_twice)
    for i in range(n):
        move_id = ids[i]
        if move_id < 0 or move_id >= table_size:
            return i
        best = rows[move_id] - offset
        if best < 0 or _better(cards[2 * i], cards[2 * i + 1], cards[2 * best], cards[2 * best + 1], wild, groups, level):
            rows[move_id] = <int16_t>(i + offset)
    return -1


cdef _check_hand(uint64_t hand_once, uint64_t hand_twice, int level):
    if not 2 <= level <= 14:
        raise ValueError(f"bad level {level}: a level is 2..14")
    if hand_once & ~FULL_PLANE or hand_twice & ~hand_once:
        raise ValueError("bad hand planes: bits outside 0..53, or 'twice' not within 'once'")


cdef const void* _column(object array, str name, int typenum, int ndim, Py_ssize_t rows, Py_ssize_t width) except NULL:
    """The data of a C-contiguous, aligned, native-order array of that type and shape."""
    if not isinstance(array, cnp.ndarray):
        raise TypeError(f"{name} must be a numpy array, not {type(array).__name__}")
    cdef cnp.ndarray a = <cnp.ndarray>array
    if cnp.PyArray_TYPE(a) != typenum or cnp.PyArray_NDIM(a) != ndim:
        raise TypeError(f"{name} must be a {ndim}-d array of {cnp.PyArray_DescrFromType(typenum)}, not {array.dtype} {cnp.PyArray_NDIM(a)}-d")
    if not cnp.PyArray_IS_C_CONTIGUOUS(a) or not cnp.PyArray_ISALIGNED(a) or not cnp.PyArray_ISNOTSWAPPED(a):
        raise ValueError(f"{name} must be C-contiguous, aligned and in native byte order")
    if cnp.PyArray_DIM(a, 0) != rows or (ndim == 2 and cnp.PyArray_DIM(a, 1) != width):
        raise ValueError(f"{name} has shape {array.shape}: expected {rows} rows" + (f" of {width}" if ndim == 2 else ""))
    return cnp.PyArray_DATA(a)


def move_ids(kinds, keys, cards, bint following, int mask_size):
    """The ids of a move list ``(kinds uint8[n], keys uint8[n], cards uint64[n, 2])`` as
    ``deal.legal_actions()`` lists it after a pass when ``following``: a new
    ``int16[following + n]`` (0, the pass, first when following) and, when ``mask_size``
    > 0, a new ``bool[mask_size]`` marking them (else None). TypeError or ValueError for
    arrays of another type or length, or a move outside the layout."""
    if not LAYOUT_SET:
        raise RuntimeError("the action layout is not installed (import guandan_fast.encode.actions)")
    if not isinstance(kinds, cnp.ndarray):
        raise TypeError(f"kinds must be a numpy array, not {type(kinds).__name__}")
    cdef Py_ssize_t n = cnp.PyArray_SIZE(<cnp.ndarray>kinds), bad = -1
    cdef const uint8_t* kp = <const uint8_t*>_column(kinds, "kinds", cnp.NPY_UINT8, 1, n, 0)
    cdef const uint8_t* yp = <const uint8_t*>_column(keys, "keys", cnp.NPY_UINT8, 1, n, 0)
    cdef const uint64_t* cp = <const uint64_t*>_column(cards, "cards", cnp.NPY_UINT64, 2, n, 2)
    cdef cnp.npy_intp dims[1]
    dims[0] = n + following
    cdef cnp.ndarray ids = cnp.PyArray_EMPTY(1, dims, cnp.NPY_INT16, 0)
    cdef int16_t* ip = <int16_t*>cnp.PyArray_DATA(ids)
    cdef cnp.ndarray mask = None
    cdef uint8_t* mp = NULL
    if mask_size > 0:
        dims[0] = mask_size
        mask = cnp.PyArray_ZEROS(1, dims, cnp.NPY_BOOL, 0)
        mp = <uint8_t*>cnp.PyArray_DATA(mask)
    if following:
        ip[0] = 0
        if mp != NULL:
            mp[0] = 1
    if n > 0:
        with nogil:
            bad = _ids_kernel(kp, yp, cp, n, ip + following, mp, mask_size)
    if bad >= 0:
        raise ValueError(f"move {bad} (kind {kp[bad]}, key {yp[bad]}) has no id in the action space")
    return ids, mask


def canonical_row(ids, cards, int target, uint64_t hand_once, uint64_t hand_twice, int level):
    """The row of the canonical move of id ``target`` among the moves ``(ids int16[n],
    cards uint64[n, 2])`` of the hand ``(hand_once, hand_twice)`` at ``level``, or -1 when
    no move has that id: fewest wildcards, then fewest cards taken from the hand's bomb
    groups, then the lowest cards in ascending (power, suit) order."""
    if not isinstance(ids, cnp.ndarray):
        raise TypeError(f"ids must be a numpy array, not {type(ids).__name__}")
    cdef Py_ssize_t row, n = cnp.PyArray_SIZE(<cnp.ndarray>ids)
    cdef const int16_t* ip = <const int16_t*>_column(ids, "ids", cnp.NPY_INT16, 1, n, 0)
    cdef const uint64_t* cp = <const uint64_t*>_column(cards, "cards", cnp.NPY_UINT64, 2, n, 2)
    _check_hand(hand_once, hand_twice, level)
    with nogil:
        row = _canonical_kernel(ip, cp, n, target, hand_once, hand_twice, level)
    return row


def canonical_table(ids, cards, uint64_t hand_once, uint64_t hand_twice, int level, int table_size, int offset):
    """For every id below ``table_size``, ``offset`` + the row of its canonical move among
    the moves ``(ids int16[n], cards uint64[n, 2])`` (as :func:`canonical_row` picks it),
    or -1 when no move has that id: a new ``int16[table_size]``."""
    if not isinstance(ids, cnp.ndarray):
        raise TypeError(f"ids must be a numpy array, not {type(ids).__name__}")
    cdef Py_ssize_t bad = -1, i, n = cnp.PyArray_SIZE(<cnp.ndarray>ids)
    cdef const int16_t* ip = <const int16_t*>_column(ids, "ids", cnp.NPY_INT16, 1, n, 0)
    cdef const uint64_t* cp = <const uint64_t*>_column(cards, "cards", cnp.NPY_UINT64, 2, n, 2)
    _check_hand(hand_once, hand_twice, level)
    if not 1 <= table_size <= 32767 or not 0 <= offset or n + offset > 32767:
        raise ValueError(f"a table of {table_size} ids for {n} moves from row {offset} is outside int16")
    cdef cnp.npy_intp dims[1]
    dims[0] = table_size
    cdef cnp.ndarray rows = cnp.PyArray_EMPTY(1, dims, cnp.NPY_INT16, 0)
    cdef int16_t* rp = <int16_t*>cnp.PyArray_DATA(rows)
    for i in range(table_size):
        rp[i] = -1
    if n > 0:
        with nogil:
            bad = _table_kernel(ip, cp, n, rp, table_size, offset, hand_once, hand_twice, level)
    if bad >= 0:
        raise ValueError(f"row {bad} has id {ip[bad]}, outside a table of {table_size}")
    return rows
