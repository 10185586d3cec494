# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""Native part of the fixed action space (:mod:`guandan_fast.encode.actions`).

Two kernels over a move list's arrays (``MoveList.kinds``, ``.keys``, ``.cards``):
the structural id of every move, and the canonical move among those with one id. The
layout itself (which id a kind, key and size get) is declared once, in Python, by
``guandan_fast.encode.actions`` and handed here by :func:`set_layout` when that module is
imported; this module only knows card planes (card ``i = 4 * rank_index + suit``, bits
52 and 53 the jokers, see :mod:`guandan_fast.cards`).
"""

from libc.stdint cimport uint8_t, int16_t, uint64_t

cimport numpy as cnp

from guandan_fast._bitops cimport gf_popcount64

cnp.import_array()

cdef enum:
    TABLE_KINDS = 11        # kind codes 0..10 (guandan_fast.moves.MoveType)
    TABLE_KEYS = 18         # keys 0..17
    NO_ID = -1

cdef uint64_t FULL_PLANE = (<uint64_t>1 << 54) - 1
cdef uint64_t JOKER_BITS = (<uint64_t>3) << 52

# The layout, filled once by set_layout (read-only afterwards): the id of (kind, key) at
# the kind's smallest size, and for kinds of several sizes (bombs) the ids per extra card.
cdef int16_t FIRST_ID[TABLE_KINDS][TABLE_KEYS]
cdef int SIZE_MIN[TABLE_KINDS]
cdef int SIZE_MAX[TABLE_KINDS]
cdef int SIZE_STRIDE[TABLE_KINDS]
cdef bint LAYOUT_SET = False


def set_layout(first_id, size_min, size_max, size_stride):
    """Install the id layout: ``first_id[kind][key]`` (-1: no such move), and per kind the
    sizes it comes in and how many ids one more card moves the id by."""
    global LAYOUT_SET
    cdef int kind, key
    if len(first_id) != TABLE_KINDS or any(len(row) != TABLE_KEYS for row in first_id):
        raise ValueError(f"the layout table must be {TABLE_KINDS} x {TABLE_KEYS}")
    for kind in range(TABLE_KINDS):
        for key in range(TABLE_KEYS):
            FIRST_ID[kind][key] = first_id[kind][key]
        SIZE_MIN[kind] = size_min[kind]
        SIZE_MAX[kind] = size_max[kind]
        SIZE_STRIDE[kind] = size_stride[kind]
    LAYOUT_SET = True


cdef inline int _move_id(int kind, int key, uint64_t once, uint64_t twice) noexcept nogil:
    """The id of one move, or NO_ID when (kind, key, size) is outside the layout (the size
    is counted only for kinds of several sizes)."""
    cdef int size, first
    if kind < 0 or kind >= TABLE_KINDS or key < 0 or key >= TABLE_KEYS:
        return NO_ID
    first = FIRST_ID[kind][key]
    if first < 0 or SIZE_MIN[kind] == SIZE_MAX[kind]:
        return first
    size = gf_popcount64(once) + gf_popcount64(twice)
    if size < SIZE_MIN[kind] or size > SIZE_MAX[kind]:
        return NO_ID
    return first + SIZE_STRIDE[kind] * (size - SIZE_MIN[kind])


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
    """The ids of a move list ``(kinds uint8[n], keys uint8[n], cards uint64[n, 2])`` as a
    new ``int16[following + n]`` (``PASS_ID`` 0 first when ``following``), and, when
    ``mask_size`` > 0, a new ``bool[mask_size]`` marking them (else None). TypeError or
    ValueError for arrays of another type or length, or a move outside the layout."""
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


cdef inline int _count(uint64_t once, uint64_t twice, uint64_t bits) noexcept nogil:
    return gf_popcount64(once & bits) + gf_popcount64(twice & bits)


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


cdef inline int _suit_count(uint64_t once, uint64_t twice, int bit) noexcept nogil:
    return <int>((once >> bit) & 1) + <int>((twice >> bit) & 1)


cdef int _lower_cards(uint64_t once_a, uint64_t twice_a, uint64_t once_b, uint64_t twice_b,
                      int level) noexcept nogil:
    """1 when cards A come first in ascending (power, suit) order (the sorted lists compared
    element by element; both hold as many cards), 0 otherwise."""
    cdef int power, rank_index, suit, bit, count_a, count_b
    for power in range(2, 18):
        if power == level:
            continue  # the level rank is not at its natural place but at power 15
        if power <= 14:
            rank_index = power - 2
        elif power == 15:
            rank_index = level - 2
        else:
            rank_index = -1
        for suit in range(4):
            if rank_index >= 0:
                bit = 4 * rank_index + suit
            elif suit == 0:
                bit = 52 + (power - 16)  # SB, HR
            else:
                break
            count_a = _suit_count(once_a, twice_a, bit)
            count_b = _suit_count(once_b, twice_b, bit)
            if count_a != count_b:
                return 1 if count_a > count_b else 0
    return 0


cdef Py_ssize_t _canonical_kernel(const int16_t* ids, const uint64_t* cards, Py_ssize_t n, int target,
                                  uint64_t hand_once, uint64_t hand_twice, int level) noexcept nogil:
    """The best row with id ``target`` among n moves (see canonical_row), -1 when none has it."""
    cdef Py_ssize_t i, best = -1
    cdef uint64_t wild = (<uint64_t>1) << (4 * (level - 2) + 1)  # the heart of the level rank
    cdef uint64_t groups = _bomb_groups(hand_once, hand_twice)
    cdef uint64_t once, twice
    cdef int wilds, broken, best_wilds = 0, best_broken = 0
    for i in range(n):
        if ids[i] != target:
            continue
        once = cards[2 * i]
        twice = cards[2 * i + 1]
        wilds = _count(once, twice, wild)
        broken = _count(once, twice, groups)
        if (best < 0 or wilds < best_wilds
                or (wilds == best_wilds and (broken < best_broken or (
                    broken == best_broken and _lower_cards(once, twice, cards[2 * best], cards[2 * best + 1], level))))):
            best = i
            best_wilds = wilds
            best_broken = broken
    return best


def canonical_row(ids, cards, int target, uint64_t hand_once, uint64_t hand_twice, int level):
    """The row of the canonical move with id ``target`` among the moves ``(ids int16[n],
    cards uint64[n, 2])`` of the hand ``(hand_once, hand_twice)`` at ``level``, or -1 when
    no move has that id.

    Canonical: fewest wildcards, then fewest cards taken from the hand's bomb groups, then
    the lowest cards in ascending (power, suit) order."""
    if not isinstance(ids, cnp.ndarray):
        raise TypeError(f"ids must be a numpy array, not {type(ids).__name__}")
    cdef Py_ssize_t row, n = cnp.PyArray_SIZE(<cnp.ndarray>ids)
    cdef const int16_t* ip = <const int16_t*>_column(ids, "ids", cnp.NPY_INT16, 1, n, 0)
    cdef const uint64_t* cp = <const uint64_t*>_column(cards, "cards", cnp.NPY_UINT64, 2, n, 2)
    if not 2 <= level <= 14:
        raise ValueError(f"bad level {level}: a level is 2..14")
    if hand_once & ~FULL_PLANE or hand_twice & ~hand_once:
        raise ValueError("bad hand planes: bits outside 0..53, or 'twice' not within 'once'")
    with nogil:
        row = _canonical_kernel(ip, cp, n, target, hand_once, hand_twice, level)
    return row
