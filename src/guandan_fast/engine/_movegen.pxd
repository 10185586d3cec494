# C-level API of the native move generator, for other Cython modules.
#
#     from guandan_fast.engine._movegen cimport (
#         MoveBuffer, movebuf_init, movebuf_free, movebuf_clear, generate_into,
#     )
#
#     cdef MoveBuffer buf
#     if movebuf_init(&buf, 256) != 0:
#         raise MemoryError()
#     try:
#         with nogil:
#             n = generate_into(once, twice, level, last_kind, last_key, last_size, strongest, &buf)
#         # n >= 0: moves 0..n-1 are buf.kinds[i], buf.keys[i], (buf.cards[2*i], buf.cards[2*i+1])
#         # n == -1: out of memory;  n == -2: invalid arguments (see check_args)
#     finally:
#         movebuf_free(&buf)
#
# Encoding (the same as the Python API, see guandan_fast.engine.moves and guandan_fast.engine.hand):
#
# * a hand or a move's cards are two 54-bit planes: ``once`` (bit i: at least one copy of
#   card i) and ``twice`` (bit i: both copies), twice a subset of once; card index
#   i = 4 * (rank - 2) + suit (suits S H C D = 0..3), 52 = SB, 53 = HR;
# * ``level`` is 2..14 (2..A);
# * kinds are the MoveType codes 0..10 (0 = PASS) and keys are as in guandan_fast.engine.moves;
# * the move to beat is (last_kind, last_key, last_size), last_size its number of cards;
#   last_kind == 0 (PASS, with key 0 and size 0) means the hand leads.
#
# Every function here is ``noexcept nogil`` and thread-safe: the only shared state is
# read-only tables filled once when the module is imported, and a MoveBuffer belongs to
# one thread at a time.

from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.number cimport PyNumber_Index
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport malloc, realloc, free


# -- the vocabulary, declared once for every native module ------------------------------------

cdef enum:
    # move kinds: the MoveType codes of guandan_fast.engine.kinds
    K_PASS = 0
    K_SINGLE = 1
    K_PAIR = 2
    K_TRIPS = 3
    K_THREE_TWO = 4
    K_STRAIGHT = 5
    K_THREE_PAIR = 6
    K_TWO_TRIPS = 7
    K_STRAIGHT_FLUSH = 8
    K_BOMB = 9
    K_FOUR_JOKERS = 10
    # powers above the natural ranks 2..14 (keys of singles, pairs, ...)
    LEVEL_POWER = 15
    SB_POWER = 16
    HR_POWER = 17
    # bomb tiers (guandan_fast.engine.kinds.bomb_tier): 4 < 5 < straight flush < 6 < ... < 10 < four jokers
    SF_TIER = 2
    FJ_TIER = 8
    # table sizes: card indices 0..53, kind codes 0..10, keys 0..17
    NUM_CARDS = 54
    NUM_KINDS = 11
    NUM_KEYS = 18

cdef inline int bomb_tier(int kind, int size) noexcept nogil:
    """A move's tier on the bomb ladder (guandan_fast.engine.kinds.bomb_tier), -1 for no bomb."""
    if kind == K_BOMB:
        return size - 4 if size <= 5 else size - 3
    if kind == K_STRAIGHT_FLUSH:
        return SF_TIER
    if kind == K_FOUR_JOKERS:
        return FJ_TIER
    return -1


cdef inline bint move_beats(int kind, int key, int size, int last_kind, int last_key, int last_size) noexcept nogil:
    """Whether move (kind, key, size), a valid reading, may be played on the move to beat
    (RULES.md §5; a leader, last_kind 0, may play any move). The one copy of the rule:
    ``Move.beats`` and the play state (``engine/state.pxd``) use it."""
    cdef int tier, last_tier
    if kind == 0:
        return False
    if last_kind == 0:
        return True
    tier = bomb_tier(kind, size)
    last_tier = bomb_tier(last_kind, last_size)
    if tier < 0:
        return last_tier < 0 and kind == last_kind and size == last_size and key > last_key
    return tier > last_tier or (tier == last_tier and key > last_key)


cdef extern from *:
    """
    #include <stdint.h>
    #define GF_FULL_PLANE ((((uint64_t)1) << 54) - 1)
    #define GF_SB_BIT (((uint64_t)1) << 52)
    #define GF_HR_BIT (((uint64_t)1) << 53)
    #define GF_RANK_CARDS ((((uint64_t)1) << 52) - 1)
    #define GF_RANK_GROUP_ONES ((uint64_t)0x1111111111111ULL)
    """
    # plane masks: every card, and the small / big joker
    const uint64_t FULL_PLANE "GF_FULL_PLANE"
    const uint64_t SB_BIT "GF_SB_BIT"
    const uint64_t HR_BIT "GF_HR_BIT"
    # the 52 cards of the ranks 2..A (no joker), and bit 0 of each rank's 4-bit group
    const uint64_t RANK_CARDS "GF_RANK_CARDS"
    const uint64_t RANK_GROUP_ONES "GF_RANK_GROUP_ONES"


cdef inline uint64_t wild_bit(int level) noexcept nogil:
    """The plane bit of the wildcard at ``level`` (2..14): the heart of the level rank."""
    return (<uint64_t>1) << (4 * (level - 2) + 1)


cdef inline object as_integer(object value, str what):
    """The one integer-argument check of the native modules: ``value`` as a Python int (an
    int or anything with ``__index__``, never a bool); TypeError names ``what``. Callers
    check the range with their own message."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an integer, not bool")
    try:
        return PyNumber_Index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None


cdef inline object as_in_range(object value, str what, object low, object high):
    """An integer argument (:func:`as_integer`) in ``low..high``, as a Python int; ValueError
    naming ``what`` outside (callers assign it to the C type the range fits)."""
    number = as_integer(value, what)
    if not low <= number <= high:
        raise ValueError(f"{what} must be {low}..{high}, not {number}")
    return number


cdef inline long long as_long_long(object value, str what) except? -1:
    """An integer argument (:func:`as_integer`) as a C long long; ValueError beyond its range."""
    cdef int overflow = 0
    cdef long long result
    if type(value) is not int:  # the common case (an exact int) needs no conversion
        value = as_integer(value, what)
    result = PyLong_AsLongLongAndOverflow(value, &overflow)
    if overflow:
        raise ValueError(f"{what} is out of range: {value}")
    return result


cdef inline uint64_t as_plane(object value, str what) except? 0xFFFFFFFFFFFFFFFF:
    """A hand plane argument: an integer of bits 0..53 (one per card)."""
    cdef long long v = as_long_long(value, what)
    if v < 0 or <uint64_t>v > FULL_PLANE:
        raise ValueError(f"hand plane {what!r} may only use bits 0..53 (one per card), got {value}")
    return <uint64_t>v


cdef inline int as_small(object value, str what) except? -1:
    """A small integer argument (-1000..1000: levels, kinds, keys, sizes, codes), whose
    range the caller checks."""
    cdef long long v = as_long_long(value, what)
    if v < -1000 or v > 1000:
        raise ValueError(f"{what} is out of range: {value}")
    return <int>v


cdef struct MoveBuffer:
    # A growable list of moves, in three parallel C arrays.
    uint8_t* kinds          # kinds[i]: MoveType code of move i
    uint8_t* keys           # keys[i]: key of move i
    uint64_t* cards         # cards[2*i], cards[2*i+1]: once / twice planes of move i
    Py_ssize_t n            # number of moves held
    Py_ssize_t cap          # room for this many moves
    int failed              # set when the buffer could not grow: the result is incomplete
    int fixed               # nonzero: never grow (a full buffer sets ``failed``); internal
    int borrowed            # nonzero: the arrays belong to the caller (e.g. on its stack);
                            # growing moves the moves to heap memory of the buffer's own
    uint8_t* block          # non-NULL: the three arrays lie in this one heap block (cards,
                            # then kinds at 16 * cap, then keys at 17 * cap), grown by realloc


cdef inline void movebuf_free(MoveBuffer* b) noexcept nogil:
    """Release the buffer's memory (safe to call twice, or after a failed init)."""
    if b.block != NULL:
        free(b.block)
    elif not b.borrowed:
        free(b.kinds)
        free(b.keys)
        free(b.cards)
    b.block = NULL
    b.borrowed = 0
    b.kinds = NULL
    b.keys = NULL
    b.cards = NULL
    b.n = 0
    b.cap = 0


cdef inline int movebuf_init(MoveBuffer* b, Py_ssize_t cap) noexcept nogil:
    """Allocate room for ``cap`` (>= 1) moves; 0 on success, -1 when out of memory
    (then the buffer holds no memory and movebuf_free is still safe)."""
    if cap < 1:
        cap = 1
    b.n = 0
    b.failed = 0
    b.fixed = 0
    b.borrowed = 0
    b.block = NULL
    b.kinds = <uint8_t*>malloc(<size_t>cap)
    b.keys = <uint8_t*>malloc(<size_t>cap)
    b.cards = <uint64_t*>malloc(<size_t>cap * 2 * sizeof(uint64_t))
    if b.kinds == NULL or b.keys == NULL or b.cards == NULL:
        movebuf_free(b)
        return -1
    b.cap = cap
    return 0


cdef inline void movebuf_borrow(MoveBuffer* b, uint8_t* kinds, uint8_t* keys, uint64_t* cards,
                                Py_ssize_t cap) noexcept nogil:
    """Start an empty buffer on the caller's arrays (room for ``cap`` >= 1 moves, ``cards``
    for 2 * cap planes): no allocation until they are full. movebuf_free is still due."""
    b.kinds = kinds
    b.keys = keys
    b.cards = cards
    b.n = 0
    b.cap = cap
    b.failed = 0
    b.fixed = 0
    b.borrowed = 1
    b.block = NULL


cdef inline void movebuf_clear(MoveBuffer* b) noexcept nogil:
    """Forget the moves held (keeping the memory) and clear the failure flag."""
    b.n = 0
    b.failed = 0


cdef int check_args(uint64_t once, uint64_t twice, int level,
                    int last_kind, int last_key, int last_size) noexcept nogil
    # 0 when the arguments are valid, else a nonzero code: 1 bits outside 0..53, 2 twice not
    # a subset of once, 3 level outside 2..14, 4 last_kind outside 0..10, 5 last_size not the
    # size of a move of that kind, 6 last_key outside that kind's range.

cdef Py_ssize_t generate_into(uint64_t once, uint64_t twice, int level,
                              int last_kind, int last_key, int last_size,
                              bint strongest, MoveBuffer* out) noexcept nogil
    # Clear ``out`` and fill it with the legal moves of the hand (leading when last_kind == 0,
    # else the moves that beat the last one, RULES.md §5): the complete list (every reading)
    # or, with ``strongest``, one reading per (kind, cards), the one with the highest key.
    # Returns the number of moves, -1 when the buffer could not grow (out of memory; the
    # buffer then holds no usable list) or -2 for invalid arguments (check_args;
    # ``out`` is then left empty). Never reads or writes outside the buffer.

cdef Py_ssize_t generate_append(uint64_t once, uint64_t twice, int level,
                                int last_kind, int last_key, int last_size,
                                bint strongest, MoveBuffer* out) noexcept nogil
    # As generate_into, but appends to the moves already in ``out`` (returns the number of
    # moves appended, or -1 / -2 as above).

cdef int has_legal_follow_c(uint64_t once, uint64_t twice, int level,
                            int last_kind, int last_key, int last_size) noexcept nogil
    # 1 when the hand has a move that beats (last_kind, last_key, last_size), else 0 (a
    # leader, last_kind == 0, has one when the hand is not empty); -2 for invalid
    # arguments. Stops at the first move found; allocates nothing.

cdef int reads_as_c(uint64_t once, uint64_t twice, int level, int kind, int key) noexcept nogil
    # 1 when the cards (once, twice) read as a move of ``kind`` with ``key`` at ``level`` (one of
    # their readings), 0 when not, -1 out of memory, -2 for invalid planes or level (check_args).


cdef struct Args:
    # the arguments of an entry point, converted: a hand, its level, and a move
    # (kind, key, size): the move to beat, or a reading asked about (size unused)
    uint64_t once
    uint64_t twice
    int level
    int kind
    int key
    int size


# -- the result object of generate and classify, for modules that hand out moves ---------------
cdef class Moves:
    # The moves of one call in memory of their own (see _movegen.pyx): cards_at[2*i],
    # cards_at[2*i+1], kinds_at[i], keys_at[i] for i < n.
    cdef uint64_t* cards_at
    cdef uint8_t* kinds_at
    cdef uint8_t* keys_at
    cdef bint separate  # three allocations (else kinds_at and keys_at lie in cards_at's block)
    cdef Py_ssize_t n
    # the numpy views (or, in a subclass, arrays set in their place), made on first access
    cdef object _kinds
    cdef object _keys
    cdef object _cards
    # once a view exists, the owner of the memory (a _Memory, the views' base; else None),
    # and whether the memory is lent to it (then Moves never frees it)
    cdef object _memory
    cdef bint lent
    cdef object kinds_array(self)
    cdef object keys_array(self)
    cdef object cards_array(self)

cdef int share_moves(Moves target, Moves source) except -1
    # Make the new, empty ``target`` hold ``source``'s moves without a copy: the same memory,
    # kept alive by whichever of them (and their views, read-only as every Moves' are) lives
    # longest. Setting an array on either later gives it memory of its own.

cdef int renew_moves(Moves moves, Py_ssize_t n) except -1
    # Give ``moves`` room for exactly ``n`` moves in one new block, not filled in (the caller
    # writes all n), letting go of its moves and views (views made earlier keep their memory).

cdef int fill_generated(Moves moves, uint64_t once, uint64_t twice, int level, int last_kind, int last_key,
                        int last_size, bint strongest) except -1
    # generate_into for Python callers: the moves into ``moves`` (new and empty, of class Moves
    # or a subclass). ValueError names invalid arguments, MemoryError when out of memory.
