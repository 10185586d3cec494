# cython: language_level=3, cdivision=True, freethreading_compatible=True
"""Native core: legal-move generation over bitmask hands (see guandan_fast.engine.hand).

The kernels (every ``noexcept nogil`` function below) work on plain C integers and
arrays; the Python entry points at the bottom validate their arguments, run a kernel
into a growable C buffer and copy the result into fresh numpy arrays.

How a hand is seen by the kernels (``Ctx``):

* the two wildcards (hearts of the level rank) are taken out and counted (``W``);
* every rank r (rank index 0..12 = 2..A) keeps a *pattern* byte: the 4-bit suit mask of
  its natural cards held at least once (low nibble) and held twice (high nibble);
* a static table lists, for each of the 81 possible patterns, the distinct
  sub-multisets of that rank's cards grouped by size (``SUB_OFF`` / ``SUB_DATA``), so a
  demand "k natural cards of rank r" is a slice of that table and "n cards of rank r"
  is the slices k = n - W .. n, with n - k wildcards making up the rest.

Every combination type is then a cross product of such slices (written straight into
the output), which by construction never produces the same (kind, key, cards) twice,
except for a full house whose pair is the two wildcards: its cards do not depend on
the pair's rank, so it is written once. The ``strongest`` lists drop the readings that
another reading of the same cards beats; the rules for that are at each generator.

Speed: what a leading list costs is mostly mispredicted branches (loops whose length
depends on the hand), not instructions, so the kernels write a few rows more than they
keep where that makes a loop's length the same for every hand: four rows of a rank's
sub-multisets whatever their number (``_rank_rows``, ``_of_rank``), four products per
source (``_widen``, ``_cross``); the rows past the count are room made but not kept.

Bounds: the kernels index only fixed-size C arrays and the move buffer, with indices
bounded by construction (pattern bytes < 256, sub-multiset sizes <= 8, at most 13 ranks,
5 slots, 3 wildcard counts; ``SUB_DATA`` is padded for the four-row reads past a slice;
the option lists of a slot, the combinations of two slots and those of a straight's
first four slots are sized for the most a rank can hold, with room for the rows written
past the count: ``SLOT_ROOM``, ``HEAD_ROOM``, ``PREFIX_ROOM``, ``PAIR_ROOM``), and every
write to the buffer is one ``_emit`` (which grows it or stops) or lies below the room
``_reserve`` returned (a run of counted moves, with the slack its writes need reserved
too; fewer than counted only when the buffer cannot grow, and then ``failed`` is set).
``scripts/memcheck.py`` checks the last under valgrind, with buffers grown to exactly the
room asked for. Every entry point checks its arguments (``check_args``) before any kernel
runs.
"""

cimport cython
from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint8_t, uint16_t, uint64_t, int64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memmove, memset

cimport numpy as cnp

from guandan_fast.engine._bitops cimport gf_popcount64, gf_ctz64

cnp.import_array()

import numpy as np

from guandan_fast.engine.cards import CARD_NAMES
from guandan_fast.engine.kinds import _CODE_BY_PLATFORM_NAME, _POSITION_BY_CHAR, _RANK_BY_CHAR

# --------------------------------------------------------------------------------------
# Constants and read-only tables
# --------------------------------------------------------------------------------------

# The vocabulary (kinds K_*, powers, tiers, plane masks) is declared in _movegen.pxd.

cdef enum:
    # moves held on the stack while classifying (the readings of one card set are few)
    READINGS_ROOM = 64
    # bytes per move in one block of moves: two uint64 planes, the kind and the key
    MOVE_BYTES = 18

# The four 16-bit suit lanes of _straight_flushes: bit 0, bit 1 and bit 10 of each lane;
# SUIT_LANES[nib]: bit 0 of the lane of each suit in the 4-bit suit mask ``nib``.
cdef uint64_t SUIT_LANES[16]
cdef uint64_t LANE_ONES = 0x0001000100010001ULL
cdef uint64_t LANE_BIT_1 = 0x0002000200020002ULL
cdef uint64_t LANE_BIT_10 = 0x0400040004000400ULL

# Sub-multisets of one rank's natural cards, for each pattern byte ``o | t << 4``
# (o: suits held at least once, t: suits held twice, t a subset of o): the entries of
# size k are SUB_DATA[SUB_OFF[p][k] : SUB_OFF[p][k + 1]], each a pattern byte itself.
# Patterns with t not a subset of o have no entries. Filled once at import; read-only.
cdef uint8_t SUB_DATA[1296 + 16]  # (16 entries of padding: _rank_rows reads whole rows)
cdef uint16_t SUB_OFF[256][10]
# NIB_CARDS[nib][j]: the j-th suit bit of the 4-bit suit mask ``nib``, then zeros.
cdef uint8_t NIB_CARDS[16][4]
# Number of bits set in each 5-bit value.
cdef uint8_t POP5[32]
# Number of cards in the sub-multiset of each pattern byte (bits of o plus bits of t).
cdef uint8_t SUB_SIZE[256]


cdef void _build_tables() noexcept:
    cdef int p, o, t, s, k, combo, rest, take, size, sub_o, sub_t, pos = 0
    cdef int counts[4]
    for p in range(16):
        SUIT_LANES[p] = 0
        for s in range(4):
            if p >> s & 1:
                SUIT_LANES[p] |= <uint64_t>1 << (16 * s)
    for p in range(32):
        POP5[p] = <uint8_t>((p & 1) + (p >> 1 & 1) + (p >> 2 & 1) + (p >> 3 & 1) + (p >> 4 & 1))
    for p in range(16):
        k = 0
        for s in range(4):
            NIB_CARDS[p][s] = 0
        for s in range(4):
            if p >> s & 1:
                NIB_CARDS[p][k] = <uint8_t>(1 << s)
                k += 1
    for p in range(256):
        SUB_SIZE[p] = <uint8_t>(POP5[p & 15] + POP5[p >> 4])
    for p in range(256):
        o = p & 15
        t = p >> 4
        if t & ~o:
            for k in range(10):
                SUB_OFF[p][k] = pos
            continue
        for s in range(4):
            counts[s] = ((o >> s) & 1) + ((t >> s) & 1)
        for k in range(10):
            SUB_OFF[p][k] = pos
            if k == 9:
                break
            # every choice of 0..counts[s] copies per suit, in base 3
            for combo in range(81):
                rest = combo
                size = 0
                sub_o = 0
                sub_t = 0
                for s in range(4):
                    take = rest % 3
                    rest = rest // 3
                    if take > counts[s]:
                        size = -1
                        break
                    size += take
                    if take >= 1:
                        sub_o |= 1 << s
                    if take == 2:
                        sub_t |= 1 << s
                if size == k:
                    SUB_DATA[pos] = <uint8_t>(sub_o | (sub_t << 4))
                    pos += 1

    for p in range(pos, 1296 + 16):
        SUB_DATA[p] = 0


_build_tables()


# --------------------------------------------------------------------------------------
# The move buffer
# --------------------------------------------------------------------------------------

cdef inline Py_ssize_t _max_size(Py_ssize_t a, Py_ssize_t b) noexcept nogil:
    return a if a > b else b


cdef int _block_init(MoveBuffer* b, Py_ssize_t cap) noexcept nogil:
    """Start an empty buffer whose arrays lie in one heap block with room for ``cap``
    moves (see ``MoveBuffer.block``), to be taken over whole by :func:`_hold_block`; 0, or
    -1 when out of memory."""
    cdef uint8_t* block = <uint8_t*>malloc(<size_t>cap * MOVE_BYTES)
    if block == NULL:
        return -1
    _block_start(b, block, cap)
    return 0


cdef void _block_start(MoveBuffer* b, uint8_t* block, Py_ssize_t cap) noexcept nogil:
    """Start an empty buffer in ``block``, the buffer's own, with room for ``cap`` moves."""
    movebuf_borrow(b, block + 16 * cap, block + 17 * cap, <uint64_t*>block, cap)
    b.borrowed = 0
    b.block = block


cdef extern from *:
    """
    #ifndef GF_TIGHT_BUFFERS
    #define GF_TIGHT_BUFFERS 0
    #endif
    """
    # Nonzero in a build for scripts/memcheck.py only: buffers start on the heap with room
    # for one move and grow to exactly the room asked for, so that any write past the room
    # made lies past the end of a heap block, where valgrind sees it.
    const int TIGHT_BUFFERS "GF_TIGHT_BUFFERS"


cdef int _grow(MoveBuffer* b, Py_ssize_t need) noexcept nogil:
    """Make room for ``need`` moves in all (doubling at least); 0 on success, -1 (and
    ``failed`` set) when the buffer cannot grow."""
    cdef Py_ssize_t cap
    cdef uint8_t* block
    cdef uint8_t* kinds
    cdef uint8_t* keys
    cdef uint64_t* cards
    if b.failed or b.fixed or b.cap <= 0 or need > (<Py_ssize_t>1 << 40):
        b.failed = 1
        return -1
    cap = need if TIGHT_BUFFERS else _max_size(b.cap * 2, need)
    if b.block != NULL:  # one block: grown in place where the heap allows, kinds and keys moved up
        block = <uint8_t*>realloc(b.block, <size_t>cap * MOVE_BYTES)
        if block == NULL:
            b.failed = 1
            return -1
        memmove(block + 17 * cap, block + 17 * b.cap, <size_t>b.n)
        memmove(block + 16 * cap, block + 16 * b.cap, <size_t>b.n)
        b.block = block
        b.cards = <uint64_t*>block
        b.kinds = block + 16 * cap
        b.keys = block + 17 * cap
        b.cap = cap
        return 0
    if b.borrowed:  # the caller's arrays: move to memory of our own
        kinds = <uint8_t*>malloc(<size_t>cap)
        keys = <uint8_t*>malloc(<size_t>cap)
        cards = <uint64_t*>malloc(<size_t>cap * 2 * sizeof(uint64_t))
        if kinds == NULL or keys == NULL or cards == NULL:
            free(kinds)
            free(keys)
            free(cards)
            b.failed = 1
            return -1
        memcpy(kinds, b.kinds, <size_t>b.n)
        memcpy(keys, b.keys, <size_t>b.n)
        memcpy(cards, b.cards, <size_t>b.n * 2 * sizeof(uint64_t))
        b.kinds = kinds
        b.keys = keys
        b.cards = cards
        b.borrowed = 0
        b.cap = cap
        return 0
    kinds = <uint8_t*>realloc(b.kinds, <size_t>cap)
    if kinds == NULL:
        b.failed = 1
        return -1
    b.kinds = kinds
    keys = <uint8_t*>realloc(b.keys, <size_t>cap)
    if keys == NULL:
        b.failed = 1
        return -1
    b.keys = keys
    cards = <uint64_t*>realloc(b.cards, <size_t>cap * 2 * sizeof(uint64_t))
    if cards == NULL:
        b.failed = 1
        return -1
    b.cards = cards
    b.cap = cap
    return 0


cdef inline void _emit(MoveBuffer* b, int kind, int key, uint64_t once, uint64_t twice) noexcept nogil:
    cdef Py_ssize_t n = b.n
    if n >= b.cap:
        if _grow(b, n + 1) != 0:
            return
    b.kinds[n] = <uint8_t>kind
    b.keys[n] = <uint8_t>key
    b.cards[2 * n] = once
    b.cards[2 * n + 1] = twice
    b.n = n + 1


cdef inline Py_ssize_t _reserve(MoveBuffer* b, Py_ssize_t count) noexcept nogil:
    """Room for ``count`` more moves: returns ``count``, or less when the buffer cannot
    grow (then ``failed`` is set)."""
    if b.n + count > b.cap:
        if _grow(b, b.n + count) != 0:
            return b.cap - b.n if b.cap > b.n else 0
    return count


cdef inline uint64_t* _open_rows(MoveBuffer* b, int key, Py_ssize_t count, Py_ssize_t slack,
                                 Py_ssize_t* room) noexcept nogil:
    """Rows for ``count`` moves of one key after the last move, and ``slack`` rows more
    for writes past them where the buffer has or can get that room: their keys are
    written (one memset; byte stores in the callers' loops would alias the cards; the
    kinds are the generator's to write, once for all its runs: :func:`_fill_kind`), the
    cards of the first row are returned. ``room[0]`` gets how many rows there are:
    ``count + slack``, else ``count``, or fewer when the buffer cannot grow (then, and only
    then, ``failed`` is set: a buffer that cannot grow still takes a list that fits it)."""
    if slack > 0 and (b.n + count + slack <= b.cap or (not b.fixed and _grow(b, b.n + count + slack) == 0)):
        room[0] = count + slack
    else:
        room[0] = _reserve(b, count)
    memset(b.keys + b.n, key, <size_t>room[0])
    return b.cards + 2 * b.n


cdef inline void _fill_kind(MoveBuffer* b, Py_ssize_t start, int kind) noexcept nogil:
    """The kind of the moves ``start`` .. of one generator's runs (:func:`_open_rows`)."""
    if b.n > start:
        memset(b.kinds + start, kind, <size_t>(b.n - start))


cdef inline bint _close_rows(MoveBuffer* b, Py_ssize_t written, Py_ssize_t counted) noexcept nogil:
    """Keep the ``written`` rows of an :func:`_open_rows` run; False (and ``failed`` set)
    when fewer than the ``counted`` moves fitted: the list is incomplete."""
    b.n += written
    if written != counted:
        b.failed = 1
        return False
    return True


cdef inline int _rank_rows(uint64_t* dst, uint8_t p, int k, int sh) noexcept nogil:
    """The sub-multisets of ``k`` natural cards of the rank of pattern ``p`` (its cards at
    bits ``sh`` on) as interleaved (once, twice) rows into ``dst``; their number.
    Four rows are written whatever their number (most ranks have at most four: a loop of
    one length, whose exit is never mispredicted), so ``dst`` needs room for four."""
    cdef int j, lo = SUB_OFF[p][k], n = SUB_OFF[p][k + 1] - lo
    cdef uint8_t b
    for j in range(4):
        b = SUB_DATA[lo + j]
        dst[2 * j] = <uint64_t>(b & 15) << sh
        dst[2 * j + 1] = <uint64_t>(b >> 4) << sh
    for j in range(4, n):  # (a loop of its own: one over max(n, 4) rows measured 3% slower)
        b = SUB_DATA[lo + j]
        dst[2 * j] = <uint64_t>(b & 15) << sh
        dst[2 * j + 1] = <uint64_t>(b >> 4) << sh
    return n


# --------------------------------------------------------------------------------------
# Kernels
# --------------------------------------------------------------------------------------

cdef struct Ctx:
    uint64_t once
    uint64_t twice
    int level_index         # rank index of the level (level - 2)
    int W                   # wildcards held, 0..2
    uint64_t wo[4]          # planes of w wildcards, w = 0..2 (and 3: none, for the rows
    uint64_t wt[4]          # _of_rank writes past its run, never kept)
    uint64_t counts         # the natural cards of each rank r, counted in its 4-bit group
    uint8_t pat[13]         # pattern byte of the natural cards of each rank
    int cnt[13]             # natural cards of each rank
    int pw[13]              # power of each rank
    unsigned int bomb_ranks   # bit r: rank r has enough cards for a bomb (with the wildcards)
    unsigned int at_least[4]  # sequence positions 1..14 (bit p) of the ranks with >= j natural cards
    int sbc                 # small jokers held
    int hrc                 # big jokers held
    bint strongest
    MoveBuffer* out


cdef inline int _min(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int _max(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline int _rank_at(int position) noexcept nogil:
    """Rank index standing at a sequence position 1..14 (1 and 14 are both A)."""
    if position == 1 or position == 14:
        return 12
    return position - 2


cdef inline uint64_t _nibble_bits(uint64_t x) noexcept nogil:
    """Bit 4r of ``x`` moved to bit r (r = 0..15): a per-rank flag word as a rank mask."""
    x &= 0x1111111111111111ULL
    x = (x | (x >> 3)) & 0x0303030303030303ULL
    x = (x | (x >> 6)) & 0x000F000F000F000FULL
    x = (x | (x >> 12)) & 0x000000FF000000FFULL
    return (x | (x >> 24)) & 0xFFFFULL


cdef inline uint64_t _nibble_counts(uint64_t x) noexcept nogil:
    """The number of set bits of each 4-bit group of ``x``, in that group."""
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    return (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)


cdef inline unsigned int _ranks_with(uint64_t counts, int least) noexcept nogil:
    """The ranks (bit r) whose count (group r of ``counts``, 0..8) is at least ``least``
    (1..8): adding 8 - least sets bit 3 of a group exactly then, and no group carries."""
    return <unsigned int>_nibble_bits((counts + <uint64_t>(8 - least) * RANK_GROUP_ONES) >> 3)


cdef inline void _setup(Ctx* c, uint64_t once, uint64_t twice, int level, bint strongest,
                        MoveBuffer* out) noexcept nogil:
    cdef int r, j, li = level - 2
    cdef uint64_t wbit = wild_bit(level)
    cdef uint64_t no = once & ~wbit & RANK_CARDS
    cdef uint64_t nt = twice & ~wbit & RANK_CARDS
    # the natural cards of each rank, counted in its 4-bit group (0..8): no group overflows
    cdef uint64_t counts = _nibble_counts(no) + _nibble_counts(nt)
    c.once = once
    c.twice = twice
    c.counts = counts
    c.level_index = li
    c.W = (1 if once & wbit else 0) + (1 if twice & wbit else 0)
    c.wo[0] = 0
    c.wo[1] = wbit
    c.wo[2] = wbit
    c.wt[0] = 0
    c.wt[1] = 0
    c.wt[2] = wbit
    c.wo[3] = 0
    c.wt[3] = 0
    for r in range(13):
        c.pat[r] = <uint8_t>(((no >> (4 * r)) & 15) | (((nt >> (4 * r)) & 15) << 4))
        c.cnt[r] = <int>((counts >> (4 * r)) & 15)
        c.pw[r] = r + 2
    c.pw[li] = LEVEL_POWER
    c.at_least[0] = 0x7FFE
    for j in range(1, 4):
        # positions 2..14 of the ranks, and A at 1 as well as at 14
        c.at_least[j] = _ranks_with(counts, j) << 2
        c.at_least[j] |= (c.at_least[j] >> 13) & 2u
    c.bomb_ranks = _ranks_with(counts, 4 - c.W)  # W <= 2
    c.sbc = (1 if once & SB_BIT else 0) + (1 if twice & SB_BIT else 0)
    c.hrc = (1 if once & HR_BIT else 0) + (1 if twice & HR_BIT else 0)
    c.strongest = strongest
    c.out = out


cdef inline unsigned int _ranks_above(Ctx* c, int min_key) noexcept nogil:
    """The ranks (bit r) of power above ``min_key``, found without a branch per rank."""
    cdef unsigned int ranks = 0
    cdef int r
    for r in range(13):
        ranks |= <unsigned int>(c.pw[r] > min_key) << r
    return ranks


cdef void _singles(Ctx* c, int min_key) noexcept nogil:
    """Every distinct card alone; a wildcard alone is only a level card (power 15)."""
    cdef uint64_t m = c.once
    cdef int i, key
    while m:
        i = gf_ctz64(m)
        m &= m - 1
        if i == 52:
            key = SB_POWER
        elif i == 53:
            key = HR_POWER
        else:
            key = c.pw[i >> 2]
        if key > min_key:
            _emit(c.out, K_SINGLE, key, <uint64_t>1 << i, 0)


cdef inline void _of_rank(Ctx* c, int need, int r) noexcept nogil:
    """Every set of ``need`` cards of rank r (natural cards and wildcards), their kind not
    written (:func:`_fill_kind`).

    The sets with k = kmin .. kmax natural cards are one contiguous slice of the
    sub-multiset table (sizes ascending), each completed by ``need - k`` wildcards: one
    run of rows, room made once. As in :func:`_rank_rows`, the first four rows are
    written whatever the count (room is made for them; those past the run are not kept):
    the loop exit is mispredicted only for ranks of more than four sets."""
    cdef int w, sh = 4 * r
    cdef int kmin = _max(need - c.W, 0)
    cdef int kmax = _min(need, c.cnt[r])
    cdef uint8_t p = c.pat[r], b
    cdef Py_ssize_t i, lo, count, room
    cdef uint64_t* cards
    if kmin == 0 and c.strongest and r != c.level_index:
        kmin = 1
    if kmin > kmax:
        return
    lo = SUB_OFF[p][kmin]
    count = SUB_OFF[p][kmax + 1] - lo
    cards = _open_rows(c.out, c.pw[r], count, 4 - count if count < 4 else 0, &room)
    if room >= 4:  # four rows whatever the count (see _rank_rows), then the rest
        for i in range(4):
            b = SUB_DATA[lo + i]
            w = (need - SUB_SIZE[b]) & 3  # in the run: kmin <= its size <= kmax, 0 <= w <= W
            cards[2 * i] = (<uint64_t>(b & 15) << sh) | c.wo[w]
            cards[2 * i + 1] = (<uint64_t>(b >> 4) << sh) | c.wt[w]
        i = 4
    else:
        i = 0
    for i in range(i, _min(count, room)):
        b = SUB_DATA[lo + i]
        w = need - SUB_SIZE[b]
        cards[2 * i] = (<uint64_t>(b & 15) << sh) | c.wo[w]
        cards[2 * i + 1] = (<uint64_t>(b >> 4) << sh) | c.wt[w]
    _close_rows(c.out, _min(count, room), count)


cdef void _same_rank(Ctx* c, int kind, int need, int min_key) noexcept nogil:
    """Pairs (need 2), trips (3) or bombs of ``need`` cards of one rank, above ``min_key``.

    The two wildcards are a pair of every rank in the complete list; in the strongest
    list only of the level rank, their highest reading (no other cards of this family
    have two readings; see :func:`_of_rank`).
    """
    cdef int r
    cdef MoveBuffer* out = c.out
    cdef Py_ssize_t start = out.n
    # the ranks with cards enough (with the wildcards), found without a branch per rank
    cdef unsigned int ranks = _ranks_above(c, min_key)
    if need > c.W:
        ranks &= _ranks_with(c.counts, need - c.W) if need - c.W <= 8 else 0
    while ranks:
        r = gf_ctz64(ranks)
        ranks &= ranks - 1
        _of_rank(c, need, r)
        if out.failed:
            return
    _fill_kind(out, start, kind)
    if need == 2:
        if c.sbc == 2 and SB_POWER > min_key:
            _emit(out, K_PAIR, SB_POWER, SB_BIT, SB_BIT)
        if c.hrc == 2 and HR_POWER > min_key:
            _emit(out, K_PAIR, HR_POWER, HR_BIT, HR_BIT)


cdef inline Py_ssize_t _put_pairs(uint64_t* cards, Py_ssize_t at, Py_ssize_t room, uint64_t base_o, uint64_t base_t,
                                  const uint64_t* adds, Py_ssize_t n) noexcept nogil:
    """Write the cards ``base | adds[i]`` of n moves from row ``at`` on (``adds`` holds
    interleaved (once, twice) pairs, like the rows), as many as fit below ``room``; the
    next row. One straight loop of whole rows, which the compiler vectorizes."""
    cdef Py_ssize_t i
    cdef uint64_t* row = cards + 2 * at
    if n > room - at:
        n = room - at
    for i in range(n):
        row[2 * i] = base_o | adds[2 * i]
        row[2 * i + 1] = base_t | adds[2 * i + 1]
    return at + n


cdef enum:
    # rows of one list of pairs of _three_with_two: two joker pairs, the two wildcards, and
    # for each rank its pairs of natural cards (at most 10) and of one natural card and a
    # wildcard (4)
    PAIR_ROOM = 3 + 13 * 14


cdef int _pair_list(Ctx* c, int wild_row, uint64_t* rows, int* start) noexcept nogil:
    """The pairs a triple of ``3 - wild_row`` wildcards can take, as interleaved (once,
    twice) rows into ``rows``, twice over (the second copy right after the first): the
    joker pairs (and the two wildcards, for a triple of natural cards) first, then rank by rank in order of power (the level rank last), each
    rank's pairs of natural cards and, when ``wild_row`` is 0 or 1, its pairs of a natural
    card and a wildcard (that wildcard's bit: in ``once`` beside no other wildcard, in
    ``twice`` beside the triple's one). ``start[q]``: the first row of the rank of power
    order q (``start[13]``: after the last). The number of rows of one copy."""
    cdef int q, o, m, i, n = 0, li = c.level_index
    cdef uint64_t wbit = c.wo[1]
    cdef uint64_t add_o = wbit if wild_row == 0 else 0
    cdef uint64_t add_t = wbit if wild_row == 1 else 0
    if c.sbc == 2:
        rows[2 * n] = SB_BIT
        rows[2 * n + 1] = SB_BIT
        n += 1
    if c.hrc == 2:
        rows[2 * n] = HR_BIT
        rows[2 * n + 1] = HR_BIT
        n += 1
    if wild_row == 0 and c.W == 2:  # the two wildcards, beside a triple of natural cards (one move)
        rows[2 * n] = wbit
        rows[2 * n + 1] = wbit
        n += 1
    for q in range(13):
        o = q + (1 if q >= li else 0) if q < 12 else li  # the ranks by power, the level's last
        start[q] = n
        n += _rank_rows(&rows[2 * n], c.pat[o], 2, 4 * o)
        if wild_row == 0 or wild_row == 1:
            m = _rank_rows(&rows[2 * n], c.pat[o], 1, 4 * o)
            for i in range(n, n + 4):  # four rows at least written (see _rank_rows)
                rows[2 * i] |= add_o
                rows[2 * i + 1] |= add_t
            n += m
    start[13] = n
    memcpy(&rows[2 * n], rows, <size_t>n * 2 * sizeof(uint64_t))
    return n


cdef void _three_with_two(Ctx* c, int min_key) noexcept nogil:
    """A triple of rank r and a pair of another rank o (or of jokers); key: the triple's.

    The same cards come from different (r, o) only when the pair is the two wildcards
    (then o is free): that move is written once. Cards with natural cards of both
    ranks and at most two of r (``kr <= 2``, ``ko >= 1``) also read as a triple of o
    and a pair of r: the strongest list keeps the reading of higher power, so it pairs
    such a triple only with ranks of lower power.

    For each number of wildcards in the triple, the pairs it can take are listed once
    (:func:`_pair_list`), by power and twice over, so that the pairs allowed with a triple
    of rank r are one contiguous run: every rank but r (from the rank after r, wrapping
    round), or the jokers and the ranks of lower power. Each triple is then written as
    that run.
    """
    cdef uint64_t rows[2 * 2 * PAIR_ROOM]
    cdef int by_power[14]  # the first row of each rank (in order of power) in ``rows``
    cdef int r, q, kr, wr, key, j, sh, n, lo, hi, li = c.level_index, W = c.W
    cdef Py_ssize_t total, room, at
    cdef uint8_t b, p
    cdef uint64_t to, tt
    cdef uint64_t* cards
    cdef MoveBuffer* out = c.out
    cdef Py_ssize_t first = out.n
    cdef unsigned int above = _ranks_above(c, min_key), ranks
    for wr in range(_min(W, 2) + 1):
        kr = 3 - wr
        n = _pair_list(c, wr if W > wr else -1, rows, by_power)
        ranks = (c.at_least[kr] >> 2) & above & 0x1FFFu  # the ranks with kr natural cards
        while ranks:
            r = gf_ctz64(ranks)
            ranks &= ranks - 1
            key = c.pw[r]
            p = c.pat[r]
            q = r - (1 if r > li else 0) if r != li else 12  # r's place in the order of power
            if c.strongest and kr <= 2:  # the jokers and the ranks of lower power
                lo = 0
                hi = by_power[q]
            else:  # every rank but r
                lo = by_power[q + 1]
                hi = n + by_power[q]
            total = (hi - lo) * (SUB_OFF[p][kr + 1] - SUB_OFF[p][kr])
            if total == 0:
                continue
            sh = 4 * r
            cards = _open_rows(out, key, total, 0, &room)
            at = 0
            for j in range(SUB_OFF[p][kr], SUB_OFF[p][kr + 1]):
                b = SUB_DATA[j]
                to = (<uint64_t>(b & 15) << sh) | c.wo[wr]
                tt = (<uint64_t>(b >> 4) << sh) | c.wt[wr]
                at = _put_pairs(cards, at, room, to, tt, &rows[2 * lo], hi - lo)
            if not _close_rows(out, at, total):
                return
    _fill_kind(out, first, K_THREE_TWO)


cdef enum:
    # Options of one slot of a tube or plate: the sub-multisets of one rank of at most
    # three cards (at most 16 of them, for a rank held twice in every suit)
    SLOT_ROOM = 16
    # Combinations of the first two slots of a tube, with the same number of wildcards
    # (at most 10 x 10 pairs of natural cards), and room for the rows written past them
    HEAD_ROOM = 104


cdef void _sequences(Ctx* c, int kind, int nslots, int need, int max_key, int min_key) noexcept nogil:
    """Sequences of ``nslots`` consecutive ranks with ``need`` cards each (tubes: 3 x 2,
    plates: 2 x 3), lowest position key = min_key + 1 .. max_key.

    Each rank's options are listed once for all windows, grouped by the wildcards they
    use: its sub-multisets of ``need - w`` natural cards, plus ``w`` wildcards (their
    bits are added to the whole move). A window's moves are the first slots' combinations
    (``head``) crossed with the last slot's options, with at most W wildcards in all:
    counted first, room made once, each option of the last slot written with a whole
    head group in one run.

    ``c.at_least[j]`` (j = 1..need) has bit p set when the rank at position p has at
    least j cards: a window short of more cards than there are wildcards is skipped at once.

    Readings: the same cards read at a higher position exactly when the lowest slot is
    all wildcards (they then fill one more slot at the top; A low and A high never meet
    in one card set), so the strongest list drops those windows below ``max_key``.
    """
    cdef uint64_t opt[13][3][2 * SLOT_ROOM]  # interleaved (once, twice) rows, like the moves'
    cdef int opt_n[13][3]
    cdef uint64_t head[3][2 * HEAD_ROOM]
    cdef int head_n[3]
    cdef const uint64_t* first[3]
    cdef const int* first_n
    cdef int ranks[3]
    cdef int key, i, j, r, w, v, u, k, miss, sh, n, last, W = c.W
    cdef uint8_t p
    cdef Py_ssize_t total, room, at
    cdef uint64_t* cards
    cdef MoveBuffer* out = c.out
    cdef unsigned int window = (1u << nslots) - 1
    cdef unsigned int listed = 0  # the ranks whose options are listed (on first use)
    cdef Py_ssize_t start = out.n
    cdef unsigned int windows = 0  # the windows with cards enough, found without a branch
    for key in range(_max(min_key + 1, 1), max_key + 1):
        miss = need * nslots
        for j in range(1, need + 1):
            miss -= POP5[(c.at_least[j] >> key) & window]
        windows |= <unsigned int>(miss <= W) << key
    while windows:
        key = gf_ctz64(windows)
        windows &= windows - 1
        for i in range(nslots):
            r = _rank_at(key + i)
            ranks[i] = r
            if listed >> r & 1:
                continue
            listed |= 1u << r
            p = c.pat[r]
            sh = 4 * r
            for w in range(3):
                k = need - w
                opt_n[r][w] = _rank_rows(opt[r][w], p, k, sh) if k >= 0 and w <= W else 0
        last = ranks[nslots - 1]
        # the first slots' combinations by wildcards used; in a strongest list below the
        # top, the lowest slot may not be all wildcards
        if nslots == 2:  # a plate: a slot of three cards is never all wildcards
            r = ranks[0]
            for w in range(3):
                first[w] = opt[r][w]
            first_n = opt_n[r]
        else:
            r = ranks[0]
            u = ranks[1]
            head_n[0] = 0
            head_n[1] = 0
            head_n[2] = 0
            for w in range(W + 1):
                if w == need and c.strongest and key < max_key:
                    continue
                for v in range(W + 1 - w):
                    n = head_n[w + v]
                    for i in range(opt_n[r][w]):  # four rows at least (see _rank_rows): an
                        for j in range(_max(opt_n[u][v], 4)):  # exit mispredicted only past four
                            head[w + v][2 * (n + j)] = opt[r][w][2 * i] | opt[u][v][2 * j]
                            head[w + v][2 * (n + j) + 1] = opt[r][w][2 * i + 1] | opt[u][v][2 * j + 1]
                        n += opt_n[u][v]
                    head_n[w + v] = n
            for w in range(3):
                first[w] = head[w]
            first_n = head_n
        total = 0
        for v in range(W + 1):
            for w in range(W + 1 - v):
                total += <Py_ssize_t>opt_n[last][v] * first_n[w]
        if total == 0:
            continue
        cards = _open_rows(out, key, total, 0, &room)
        at = 0
        for v in range(W + 1):
            for j in range(opt_n[last][v]):
                for w in range(W + 1 - v):
                    at = _put_pairs(cards, at, room, opt[last][v][2 * j] | c.wo[v + w],
                                    opt[last][v][2 * j + 1] | c.wt[v + w], first[w], first_n[w])
        if not _close_rows(out, at, total):
            return
    _fill_kind(out, start, kind)


cdef enum:
    # The products of a straight's first slots with one number of wildcards: at most 4^4
    # with none, 4 x 4^3 with one, 6 x 4^2 with two (a rank has at most four distinct
    # natural cards); and 4 more, for the whole-row writes of _widen
    PREFIX_ROOM = 260


cdef inline int _widen(const uint64_t* src, int n, const uint64_t* opts, int n_opts,
                       uint64_t* dst) noexcept nogil:
    """Every ``src[i] | opts[j]`` (j < n_opts <= 4) into ``dst``; their number.

    Each entry of ``src`` writes four entries (``opts`` is padded to four) and keeps the
    first ``n_opts``: no branch depends on ``n_opts``. ``dst`` needs room for three
    entries past the result."""
    cdef int i, m = 0
    cdef uint64_t x, o0 = opts[0], o1 = opts[1], o2 = opts[2], o3 = opts[3]
    for i in range(n):
        x = src[i]
        dst[m] = x | o0
        dst[m + 1] = x | o1
        dst[m + 2] = x | o2
        dst[m + 3] = x | o3
        m += n_opts
    return m


cdef inline Py_ssize_t _put_run(uint64_t* cards, Py_ssize_t at, Py_ssize_t room, uint64_t base_o, uint64_t base_t,
                                const uint64_t* adds, Py_ssize_t n) noexcept nogil:
    """Write the cards ``(base_o | adds[i], base_t)`` of n moves from row ``at`` on, as many
    as fit below ``room``; the next row."""
    cdef Py_ssize_t i
    cdef uint64_t* row = cards + 2 * at
    if n > room - at:
        n = room - at
    for i in range(n):
        row[2 * i] = base_o | adds[i]
        row[2 * i + 1] = base_t
    return at + n


cdef inline int _extend(uint64_t* dst, const uint64_t* src, int n, const uint64_t* opts, int n_opts,
                        const uint64_t* skipped, int n_skipped) noexcept nogil:
    """One more slot for the products ``src`` (n of them): each with one of the slot's
    ``opts`` (:func:`_widen`), then the products ``skipped`` that leave the slot to a
    wildcard, unchanged; their number (``dst`` needs room for three entries past it)."""
    cdef int i, m = _widen(src, n, opts, n_opts, dst)
    for i in range(n_skipped):
        dst[m + i] = skipped[i]
    return m + n_skipped


cdef inline uint64_t* _cross(uint64_t* row, const uint64_t* products, int n, const uint64_t* opts, int n_opts,
                             uint64_t add_o, uint64_t t) noexcept nogil:
    """The rows ``(products[i] | opts[j] | add_o, t)`` for i < n, j < n_opts <= 4 from
    ``row`` on; the row after them. Each product writes four rows (``opts`` is padded to
    four) and keeps the first ``n_opts`` (1..4, as :func:`_widen`): ``row`` needs room for
    three rows past the result."""
    cdef int i
    cdef uint64_t x, o0 = opts[0] | add_o, o1 = opts[1] | add_o, o2 = opts[2] | add_o, o3 = opts[3] | add_o
    for i in range(n):
        x = products[i]
        row[0] = x | o0
        row[1] = t
        row[2] = x | o1
        row[3] = t
        row[4] = x | o2
        row[5] = t
        row[6] = x | o3
        row[7] = t
        row += 2 * n_opts
    return row


cdef bint _straight_window(Ctx* c, int key, const uint64_t* slot, int n_slot, bint slot_wild,
                           uint64_t (*products)[PREFIX_ROOM], const int* n_products) noexcept nogil:
    """The straights of one window: every option of its fifth slot (the ``n_slot`` natural
    cards ``slot``, and a wildcard when ``slot_wild``) with each product of the other four
    slots using few enough wildcards (``products[g]``: the ``n_products[g]`` with g
    wildcards): per group, the natural options in one pass (:func:`_cross`), the wildcard
    in one run. False when the buffer could not grow (the list is incomplete)."""
    cdef int g, i, W = c.W
    cdef Py_ssize_t count = 0, room, at = 0
    cdef uint64_t* cards
    cdef uint64_t* row
    for g in range(W + 1):
        count += <Py_ssize_t>n_products[g] * (n_slot + (1 if slot_wild and g < W else 0))
    if count == 0:
        return True
    cards = _open_rows(c.out, key, count, 3, &room)  # three rows of slack for _cross
    if room < count + 3:  # the buffer cannot grow: as many rows as fit, one at a time
        for g in range(W + 1):
            for i in range(n_slot):
                at = _put_run(cards, at, room, slot[i] | c.wo[g], c.wt[g], products[g], n_products[g])
            if slot_wild and g < W:
                at = _put_run(cards, at, room, c.wo[g + 1], c.wt[g + 1], products[g], n_products[g])
        return _close_rows(c.out, at, count)
    row = cards
    for g in range(W + 1):
        if n_slot > 0:  # (with no option, _cross would still write four rows, past the room)
            row = _cross(row, products[g], n_products[g], slot, n_slot, c.wo[g], c.wt[g])
        if slot_wild and g < W:
            at = _put_run(cards, (row - cards) // 2, room, c.wo[g + 1], c.wt[g + 1], products[g], n_products[g])
            row = cards + 2 * at
    return _close_rows(c.out, (row - cards) // 2, count)


cdef void _straights(Ctx* c, int min_key) noexcept nogil:
    """Straights: five consecutive ranks of one card each, lowest position key =
    min_key + 1 .. 10.

    The one-card case of :func:`_sequences`, enumerated directly. Each rank's options are
    its distinct natural cards (listed once for all windows, padded to four), and in a
    window a wildcard may stand in any slot while wildcards are left. Two windows share
    four slots: the products of the four slots from each even position p (2..10) on are
    built once, slot by slot, grouped by the wildcards they use (``_widen``: no branch on
    a slot's number of options), and serve the window at p - 1 (crossed with its lowest
    slot) and the window at p (crossed with its top slot), each option of the fifth slot
    written with a whole group in one run. A window short of more cards than there are
    wildcards is skipped at once. Readings as in :func:`_sequences`: the strongest list
    drops the windows below the top whose lowest slot is a wildcard (the products whose
    first slot is natural come first in each group, so the window at p keeps a prefix).
    """
    cdef uint64_t natural[13][4]  # natural[r]: the distinct natural cards of rank r (then zeros)
    cdef int n_natural[13]
    # the products so far (and the next ones), by wildcards used: first those with a
    # natural card in the first slot (``first_natural`` of them), then those with a wildcard
    cdef uint64_t prefix[2][3][PREFIX_ROOM]
    cdef int prefix_n[2][3]
    cdef int first_natural[2][3]
    cdef int kept[3]
    cdef int key, p, i, j, r, g, m, slot, cur, low, high, W = c.W
    cdef unsigned int nib, windows = 0
    cdef Py_ssize_t start = c.out.n
    for r in range(13):
        nib = c.pat[r] & 15
        for j in range(4):
            natural[r][j] = <uint64_t>NIB_CARDS[nib][j] << (4 * r)
        n_natural[r] = POP5[nib]
    for key in range(_max(min_key + 1, 1), 11):  # the windows with cards enough
        if 5 - POP5[(c.at_least[1] >> key) & 31] <= W:
            windows |= 1u << key
    for p in range(2, 11, 2):
        low = windows >> (p - 1) & 1
        high = windows >> p & 1
        if not (low or high):
            continue
        # the products of the slots at p .. p + 3 (ranks p - 2 .. p + 1)
        r = p - 2
        for i in range(4):
            prefix[0][0][i] = natural[r][i]
        prefix_n[0][0] = first_natural[0][0] = n_natural[r]
        prefix[0][1][0] = 0
        prefix_n[0][1] = 1 if W > 0 else 0
        first_natural[0][1] = 0
        prefix_n[0][2] = first_natural[0][2] = 0
        cur = 0
        for slot in range(1, 4):
            r = p - 2 + slot
            for g in range(W + 1):
                # natural first slot: widened, or (a wildcard here) one fewer wildcard before
                m = _extend(prefix[1 - cur][g], prefix[cur][g], first_natural[cur][g], natural[r], n_natural[r],
                            prefix[cur][g - 1] if g > 0 else NULL, first_natural[cur][g - 1] if g > 0 else 0)
                first_natural[1 - cur][g] = m
                m += _extend(&prefix[1 - cur][g][m], &prefix[cur][g][first_natural[cur][g]],
                             prefix_n[cur][g] - first_natural[cur][g], natural[r], n_natural[r],
                             &prefix[cur][g - 1][first_natural[cur][g - 1]] if g > 0 else NULL,
                             prefix_n[cur][g - 1] - first_natural[cur][g - 1] if g > 0 else 0)
                prefix_n[1 - cur][g] = m
            cur = 1 - cur
        if low:  # the window at p - 1: its lowest slot (a wildcard only in a complete list)
            r = _rank_at(p - 1)
            if not _straight_window(c, p - 1, natural[r], n_natural[r], not c.strongest, prefix[cur], prefix_n[cur]):
                return
        if high:  # the window at p: its top slot; a strongest list below the top keeps the
            for g in range(W + 1):  # products with a natural first slot
                kept[g] = first_natural[cur][g] if c.strongest and p < 10 else prefix_n[cur][g]
            r = _rank_at(p + 4)
            if not _straight_window(c, p, natural[r], n_natural[r], True, prefix[cur], kept):
                return
    _fill_kind(c.out, start, K_STRAIGHT)


cdef void _straight_flushes(Ctx* c, int min_key) noexcept nogil:
    """Straight flushes, lowest position key = min_key + 1 .. 10.

    The four suits are seen at once: a 64-bit word holds, in lane s (bits 16s..16s+15),
    bit p for each position 1..14 of a natural card of suit s (A at 1 and 14). Adding up
    the empty slots of every window of every suit bit-slice by bit-slice marks the
    windows short of at most W cards; only those are visited. A suit holds at most one
    distinct natural card per slot, so such a window with ``m`` empty slots is written
    directly: wildcards fill the empty slots and any spare ones (at most ``W - m``)
    replace held cards, one move per choice of replaced slots. Readings: the strongest
    list drops the windows below the top whose lowest slot is a wildcard.
    """
    cdef int s, r, key, i, j, m, held, spare, at, first, W = c.W
    cdef uint64_t lanes = 0, empty, one = 0, two = 0, three = 0, windows
    cdef uint64_t whole, wo, wt
    cdef uint64_t bits[5]
    cdef unsigned int present
    cdef bint low_natural
    cdef MoveBuffer* out = c.out
    for r in range(13):
        lanes |= SUIT_LANES[c.pat[r] & 15] << (r + 2)
    lanes |= (lanes >> 13) & LANE_BIT_1  # A stands at 1 (bit 14 -> bit 1) as well as at 14
    # windows (bit key of a lane) with fewer than 1, 2, 3 empty slots
    for i in range(5):
        empty = ~(lanes >> i)
        three |= two & empty
        two |= one & empty
        one |= empty
    windows = ~(one if W == 0 else two if W == 1 else three)
    first = _max(min_key + 1, 1)  # the lowest key allowed, in every lane
    windows &= ((0x7FEu >> first) << first) * LANE_ONES
    if c.strongest:  # below the top, the lowest slot must be natural
        windows &= lanes | LANE_BIT_10
    while windows:
        at = gf_ctz64(windows)
        windows &= windows - 1
        s = at >> 4
        key = at & 15
        present = <unsigned int>(lanes >> at) & 31
        held = POP5[present]
        m = 5 - held
        low_natural = c.strongest and key < 10
        whole = 0
        for i in range(5):
            bits[i] = (<uint64_t>1 << (4 * _rank_at(key + i) + s)) if present >> i & 1 else 0
            whole |= bits[i]
        _emit(out, K_STRAIGHT_FLUSH, key, whole | c.wo[m], c.wt[m])
        spare = W - m
        if spare >= 1:  # one held card replaced by a wildcard
            wo = c.wo[m + 1]
            wt = c.wt[m + 1]
            for i in range(1 if low_natural else 0, 5):
                if bits[i]:
                    _emit(out, K_STRAIGHT_FLUSH, key, (whole ^ bits[i]) | wo, wt)
        if spare >= 2:  # two held cards replaced
            wo = c.wo[2]
            wt = c.wt[2]
            for i in range(1 if low_natural else 0, 5):
                if bits[i]:
                    for j in range(i + 1, 5):
                        if bits[j]:
                            _emit(out, K_STRAIGHT_FLUSH, key, (whole ^ bits[i] ^ bits[j]) | wo, wt)
        if out.failed:
            return


cdef void _bombs(Ctx* c, int last_tier, int last_key) noexcept nogil:
    """Every bomb above (last_tier, last_key) on the ladder (last_tier -1: every bomb).

    Bombs of one rank are written rank by rank, only for the ranks with enough cards."""
    cdef int r, size, tier
    cdef unsigned int ranks = c.bomb_ranks
    cdef MoveBuffer* out = c.out
    cdef Py_ssize_t start = out.n
    while ranks:
        r = gf_ctz64(ranks)
        ranks &= ranks - 1
        for size in range(4, _min(10, c.cnt[r] + c.W) + 1):
            tier = bomb_tier(K_BOMB, size)
            if tier > last_tier or (tier == last_tier and c.pw[r] > last_key):
                _of_rank(c, size, r)
        if out.failed:
            return
    _fill_kind(out, start, K_BOMB)
    if SF_TIER > last_tier:
        _straight_flushes(c, -1)
    elif SF_TIER == last_tier:
        _straight_flushes(c, last_key)
    if FJ_TIER > last_tier and c.sbc == 2 and c.hrc == 2:
        _emit(out, K_FOUR_JOKERS, 0, SB_BIT | HR_BIT, SB_BIT | HR_BIT)


cdef void _of_kind(Ctx* c, int kind, int min_key) noexcept nogil:
    """Every move of one non-bomb kind with a key above ``min_key``."""
    if kind == K_SINGLE:
        _singles(c, min_key)
    elif kind == K_PAIR:
        _same_rank(c, K_PAIR, 2, min_key)
    elif kind == K_TRIPS:
        _same_rank(c, K_TRIPS, 3, min_key)
    elif kind == K_THREE_TWO:
        _three_with_two(c, min_key)
    elif kind == K_STRAIGHT:
        _straights(c, min_key)
    elif kind == K_THREE_PAIR:
        _sequences(c, K_THREE_PAIR, 3, 2, 12, min_key)
    elif kind == K_TWO_TRIPS:
        _sequences(c, K_TWO_TRIPS, 2, 3, 13, min_key)


cdef inline int _kind_size(int kind) noexcept nogil:
    """Cards in a move of a fixed-size kind (0 for PASS, -1 for bombs of 4..10)."""
    if kind == K_PASS:
        return 0
    if kind == K_SINGLE:
        return 1
    if kind == K_PAIR:
        return 2
    if kind == K_TRIPS:
        return 3
    if kind == K_THREE_PAIR or kind == K_TWO_TRIPS:
        return 6
    if kind == K_FOUR_JOKERS:
        return 4
    if kind == K_BOMB:
        return -1
    return 5


cdef void _generate(Ctx* c, int last_kind, int last_key, int last_size) noexcept nogil:
    cdef int kind, last_tier
    if last_kind == K_PASS:
        for kind in range(K_SINGLE, K_TWO_TRIPS + 1):
            _of_kind(c, kind, -1)
            if c.out.failed:
                return
        _bombs(c, -1, -1)
        return
    last_tier = bomb_tier(last_kind, last_size)
    if last_tier < 0:
        if last_size == _kind_size(last_kind):
            _of_kind(c, last_kind, last_key)
            if c.out.failed:
                return
        _bombs(c, -1, -1)
    else:
        _bombs(c, last_tier, last_key)


cdef int check_args(uint64_t once, uint64_t twice, int level,
                    int last_kind, int last_key, int last_size) noexcept nogil:
    cdef int size, lo, hi
    if (once | twice) & ~FULL_PLANE:
        return 1
    if twice & ~once:
        return 2
    if level < 2 or level > 14:
        return 3
    if last_kind < K_PASS or last_kind > K_FOUR_JOKERS:
        return 4
    size = _kind_size(last_kind)
    if size >= 0:
        if last_size != size:
            return 5
    elif last_size < 4 or last_size > 10:
        return 5
    if last_kind == K_PASS or last_kind == K_FOUR_JOKERS:
        lo = 0
        hi = 0
    elif last_kind == K_SINGLE or last_kind == K_PAIR:
        lo = 2
        hi = HR_POWER
    elif last_kind == K_TRIPS or last_kind == K_THREE_TWO or last_kind == K_BOMB:
        lo = 2
        hi = LEVEL_POWER
    elif last_kind == K_THREE_PAIR:
        lo = 1
        hi = 12
    elif last_kind == K_TWO_TRIPS:
        lo = 1
        hi = 13
    else:  # straight, straight flush
        lo = 1
        hi = 10
    if last_key < lo or last_key > hi:
        return 6
    return 0


cdef Py_ssize_t generate_append(uint64_t once, uint64_t twice, int level,
                                int last_kind, int last_key, int last_size,
                                bint strongest, MoveBuffer* out) noexcept nogil:
    cdef Ctx c
    cdef Py_ssize_t start = out.n
    if check_args(once, twice, level, last_kind, last_key, last_size) != 0:
        return -2
    if out.failed:
        return -1
    _setup(&c, once, twice, level, strongest, out)
    _generate(&c, last_kind, last_key, last_size)
    if out.failed:
        return -1
    return out.n - start


cdef Py_ssize_t generate_into(uint64_t once, uint64_t twice, int level,
                              int last_kind, int last_key, int last_size,
                              bint strongest, MoveBuffer* out) noexcept nogil:
    out.n = 0
    out.failed = 0
    return generate_append(once, twice, level, last_kind, last_key, last_size, strongest, out)


cdef int has_legal_follow_c(uint64_t once, uint64_t twice, int level,
                            int last_kind, int last_key, int last_size) noexcept nogil:
    cdef Ctx c
    cdef MoveBuffer one
    cdef uint8_t kind_store[1]
    cdef uint8_t key_store[1]
    cdef uint64_t card_store[2]
    if check_args(once, twice, level, last_kind, last_key, last_size) != 0:
        return -2
    if last_kind == K_PASS:
        return 1 if once else 0
    # a buffer of one move that never grows: the first move found stops the search
    movebuf_borrow(&one, kind_store, key_store, card_store, 1)
    one.fixed = 1
    _setup(&c, once, twice, level, False, &one)
    _generate(&c, last_kind, last_key, last_size)
    return 1 if one.n > 0 else 0


cdef Py_ssize_t _classify_append(uint64_t once, uint64_t twice, int level, int only, MoveBuffer* out) noexcept nogil:
    """Every reading of exactly these cards (of kind ``only``; -1: of any kind): the moves
    of the kinds of that size whose cards are the whole hand."""
    cdef Ctx c
    cdef Py_ssize_t start = out.n, i, n
    cdef int size
    if check_args(once, twice, level, K_PASS, 0, 0) != 0:
        return -2
    size = gf_popcount64(once) + gf_popcount64(twice)
    _setup(&c, once, twice, level, False, out)
    if size == 1:
        _singles(&c, -1)
    elif size == 2:
        _same_rank(&c, K_PAIR, 2, -1)
    elif size == 3:
        _same_rank(&c, K_TRIPS, 3, -1)
    elif size == 5:
        if only < 0 or only == K_THREE_TWO:
            _three_with_two(&c, -1)
        if only < 0 or only == K_STRAIGHT:
            _straights(&c, -1)
        if only < 0 or only == K_STRAIGHT_FLUSH:
            _straight_flushes(&c, -1)
    elif size == 6:
        if only < 0 or only == K_THREE_PAIR:
            _of_kind(&c, K_THREE_PAIR, -1)
        if only < 0 or only == K_TWO_TRIPS:
            _of_kind(&c, K_TWO_TRIPS, -1)
    if size == 4 and c.sbc == 2 and c.hrc == 2:
        _emit(out, K_FOUR_JOKERS, 0, SB_BIT | HR_BIT, SB_BIT | HR_BIT)
    if 4 <= size <= 10 and (only < 0 or only == K_BOMB):
        _same_rank(&c, K_BOMB, size, -1)
    if out.failed:
        return -1
    n = start
    for i in range(start, out.n):
        if out.cards[2 * i] == once and out.cards[2 * i + 1] == twice:
            out.kinds[n] = out.kinds[i]
            out.keys[n] = out.keys[i]
            out.cards[2 * n] = once
            out.cards[2 * n + 1] = twice
            n += 1
    out.n = n
    return n - start


cdef int _reads_as_c(uint64_t once, uint64_t twice, int level, int kind, int key) noexcept nogil:
    """1 when the cards read as (kind, key), 0 when not, -1 out of memory, -2 bad arguments."""
    cdef MoveBuffer buf
    cdef uint8_t kind_store[READINGS_ROOM]
    cdef uint8_t key_store[READINGS_ROOM]
    cdef uint64_t card_store[2 * READINGS_ROOM]
    cdef Py_ssize_t i, n
    cdef int found = 0
    movebuf_borrow(&buf, kind_store, key_store, card_store, READINGS_ROOM)
    n = _classify_append(once, twice, level, kind, &buf)
    if n < 0:
        movebuf_free(&buf)
        return <int>n
    for i in range(n):
        if buf.kinds[i] == kind and buf.keys[i] == key:
            found = 1
            break
    movebuf_free(&buf)
    return found


# --------------------------------------------------------------------------------------
# Python entry points: validate, run a kernel, copy into numpy arrays
# --------------------------------------------------------------------------------------

cdef inline long long _as_int(object value, str what) except? -1:
    """An integer argument (:func:`as_integer`) as a C long long."""
    cdef int overflow = 0
    cdef long long result
    if type(value) is not int:  # the common case (an exact int) needs no conversion
        value = as_integer(value, what)
    result = PyLong_AsLongLongAndOverflow(value, &overflow)
    if overflow:
        raise ValueError(f"{what} is out of range: {value}")
    return result


cdef inline uint64_t _as_plane(object value, str what) except? 0xFFFFFFFFFFFFFFFF:
    cdef long long v = _as_int(value, what)
    if v < 0 or <uint64_t>v > FULL_PLANE:
        raise ValueError(f"hand plane {what!r} may only use bits 0..53 (one per card), got {value}")
    return <uint64_t>v


cdef inline int _as_small(object value, str what) except? -1:
    cdef long long v = _as_int(value, what)
    if v < -1000 or v > 1000:
        raise ValueError(f"{what} is out of range: {value}")
    return <int>v


cdef int _hand_args(Args* a, object once, object twice, object level) except -1:
    """Convert (once, twice, level) into ``a``, the move part set to the pass."""
    a.once = _as_plane(once, "once")
    a.twice = _as_plane(twice, "twice")
    a.level = _as_small(level, "level")
    a.kind = K_PASS
    a.key = 0
    a.size = 0
    return 0


cdef int _last_args(Args* a, object last_kind, object last_key, object last_size) except -1:
    """Convert the move to beat into ``a`` and check all of ``a`` (ValueError names the fault)."""
    a.kind = _as_small(last_kind, "last_kind")
    a.key = _as_small(last_key, "last_key")
    a.size = _as_small(last_size, "last_size")
    _check(a.once, a.twice, a.level, a.kind, a.key, a.size)
    return 0


cdef str _arg_error(int code, int level, int last_kind, int last_key, int last_size):
    if code == 1:
        return "hand planes may only use bits 0..53 (one per card)"
    if code == 2:
        return "bad hand planes: a card marked 'twice' must also be marked 'once' (a third copy is impossible)"
    if code == 3:
        return f"bad level {level}: a level is 2..14 (2..A)"
    if code == 4:
        return f"bad last_kind {last_kind}: a move kind is 0..10"
    if code == 5:
        return f"bad last_size {last_size} for a move of kind {last_kind}"
    return f"bad last_key {last_key} for a move of kind {last_kind}"


cdef _check(uint64_t once, uint64_t twice, int level, int last_kind, int last_key, int last_size):
    cdef int code = check_args(once, twice, level, last_kind, last_key, last_size)
    if code != 0:
        raise ValueError(_arg_error(code, level, last_kind, last_key, last_size))


cdef extern from "numpy/arrayobject.h":
    # steals a reference to ``descr`` (also when it fails)
    object _new_array "PyArray_NewFromDescr" (PyTypeObject* subtype, cnp.dtype descr, int nd,
                                              cnp.npy_intp* dims, cnp.npy_intp* strides, void* data,
                                              int flags, object base)

# the dtypes of the result arrays, looked up once
cdef cnp.dtype _UINT8 = cnp.PyArray_DescrFromType(cnp.NPY_UINT8)
cdef cnp.dtype _UINT64 = cnp.PyArray_DescrFromType(cnp.NPY_UINT64)


@cython.freelist(16)
cdef class _Memory:
    """The memory of a :class:`Moves`' moves once a numpy view of it exists: the base of
    every view, so a view keeps the memory alive without holding the Moves (a Moves
    caching views that held it would be a reference cycle, freed only by the collector)."""

    cdef uint64_t* cards_at
    cdef uint8_t* kinds_at
    cdef uint8_t* keys_at
    cdef bint separate
    cdef size_t keep_bytes  # nonzero: one batch block of this size, offered to the next batches

    def __dealloc__(self):
        if self.keep_bytes:
            _give_back_block(<uint8_t*>self.cards_at, self.keep_bytes)
            return
        free(self.cards_at)
        if self.separate:
            free(self.kinds_at)
            free(self.keys_at)


cdef object _view(Moves owner, cnp.dtype descr, int nd, void* data):
    """A numpy array over ``n`` rows of the memory of ``owner``, which moves into a
    :class:`_Memory` (the view's base) at the first view."""
    cdef _Memory memory
    with cython.critical_section(owner):  # one _Memory per Moves, also without a GIL (two
        memory = owner._memory            # threads racing to a view make two views at worst)
        if memory is None:
            memory = _Memory.__new__(_Memory)
            memory.cards_at, memory.kinds_at, memory.keys_at = owner.cards_at, owner.kinds_at, owner.keys_at
            memory.separate = owner.separate
            owner._memory = memory  # from now on the memory is freed with the last of owner and its views
            owner.lent = True
    return _array_over(memory, descr, nd, owner.n, data)


cdef object _array_over(_Memory memory, cnp.dtype descr, int nd, Py_ssize_t n, void* data):
    """A C-contiguous array of ``n`` rows (``nd`` 2: rows of two) at ``data``, inside the
    memory ``memory`` owns, which is its base."""
    cdef cnp.npy_intp dims[2]
    dims[0] = n
    dims[1] = 2
    Py_INCREF(descr)  # the reference _new_array steals
    view = _new_array(<PyTypeObject*>cnp.ndarray, descr, nd, dims, NULL, data, cnp.NPY_ARRAY_CARRAY, None)
    cnp.set_array_base(<cnp.ndarray>view, memory)
    return view


@cython.freelist(16)
cdef class Moves:
    """The moves of one :func:`generate` or :func:`classify` call.

    ``len(moves)`` is the number of moves; :attr:`kinds` (``uint8[n]``), :attr:`keys`
    (``uint8[n]``) and :attr:`cards` (``uint64[n, 2]``) are numpy arrays over the
    object's memory, made on first access (the moves themselves are all computed by the
    call), so a caller who only counts the moves or reads one array pays for no other.
    The memory is one block (cards, then kinds, then keys): a leading list is written
    straight into it (grown by realloc when it fills), a following list copied in from
    the call's stack buffer; a following list that outgrew that buffer keeps the three
    arrays it grew in, without a copy.
    """

    def __cinit__(self):
        self.cards_at = NULL
        self.kinds_at = NULL
        self.keys_at = NULL
        self.separate = False
        self.lent = False
        self.n = 0

    def __dealloc__(self):
        if self.lent:  # a view was made: the memory is the _Memory's (a C flag: a collector's
            return     # tp_clear may have emptied _memory already)
        free(self.cards_at)
        if self.separate:
            free(self.kinds_at)
            free(self.keys_at)

    def __len__(self):
        return self.n

    cdef object kinds_array(self):
        if self._kinds is None:
            self._kinds = _view(self, _UINT8, 1, self.kinds_at)
        return self._kinds

    cdef object keys_array(self):
        if self._keys is None:
            self._keys = _view(self, _UINT8, 1, self.keys_at)
        return self._keys

    cdef object cards_array(self):
        if self._cards is None:
            self._cards = _view(self, _UINT64, 2, self.cards_at)
        return self._cards

    @property
    def kinds(self):
        """``uint8[n]``: the MoveType code of each move."""
        return self.kinds_array()

    @property
    def keys(self):
        """``uint8[n]``: the key of each move."""
        return self.keys_array()

    @property
    def cards(self):
        """``uint64[n, 2]``: the (once, twice) planes of each move."""
        return self.cards_array()

    def __reduce__(self):
        cdef Py_ssize_t n = self.n
        return _unpickle_moves, (n, (<char*>self.cards_at)[:16 * n] + (<char*>self.kinds_at)[:n]
                                 + (<char*>self.keys_at)[:n])

    def __repr__(self):
        return f"<Moves: {self.n} moves>"


def _unpickle_moves(n, data):
    """A :class:`Moves` from its pickled form: the number of moves and their bytes."""
    cdef Py_ssize_t count = n
    cdef const unsigned char[::1] raw = data
    # the count comes from the data: check it before multiplying (no overflow)
    if count < 0 or count > raw.shape[0] // MOVE_BYTES or raw.shape[0] != count * MOVE_BYTES:
        raise ValueError(f"bad pickled moves: {raw.shape[0]} bytes for {count} moves")
    cdef Moves moves = _new_moves(count)
    if count > 0:
        memcpy(moves.cards_at, &raw[0], <size_t>(count * MOVE_BYTES))
    return moves


cdef Moves _new_moves(Py_ssize_t n):
    """A :class:`Moves` of ``n`` moves in one block, not filled in."""
    cdef Moves moves = Moves.__new__(Moves)
    _give_block(moves, n)
    return moves


cdef int _give_block(Moves moves, Py_ssize_t n) except -1:
    """Give the empty ``moves`` one block of room for exactly ``n`` moves, not filled in."""
    cdef uint8_t* block = <uint8_t*>malloc(<size_t>(n if n > 0 else 1) * MOVE_BYTES)
    if block == NULL:
        raise MemoryError()
    moves.cards_at = <uint64_t*>block
    moves.kinds_at = block + 16 * n
    moves.keys_at = block + 17 * n
    moves.n = n
    return 0


cdef int _hold(Moves moves, MoveBuffer* b, Py_ssize_t n) except -1:
    """Make the empty ``moves`` hold the first ``n`` moves of ``b``: copied into one block
    when the buffer is the caller's (on its stack), else the buffer's own arrays, taken
    over (then ``b`` is left empty)."""
    cdef void* smaller
    if b.borrowed or n < b.n:
        _give_block(moves, n)
        if n > 0:
            memcpy(moves.cards_at, b.cards, <size_t>n * 2 * sizeof(uint64_t))
            memcpy(moves.kinds_at, b.kinds, <size_t>n)
            memcpy(moves.keys_at, b.keys, <size_t>n)
        return 0
    moves.separate = True
    moves.n = n
    # give back the room the list did not use (shrinking in place; on failure keep it all)
    smaller = realloc(b.cards, <size_t>(n if n > 0 else 1) * 2 * sizeof(uint64_t))
    moves.cards_at = <uint64_t*>smaller if smaller != NULL else b.cards
    smaller = realloc(b.kinds, <size_t>(n if n > 0 else 1))
    moves.kinds_at = <uint8_t*>smaller if smaller != NULL else b.kinds
    smaller = realloc(b.keys, <size_t>(n if n > 0 else 1))
    moves.keys_at = <uint8_t*>smaller if smaller != NULL else b.keys
    b.cards = NULL
    b.kinds = NULL
    b.keys = NULL
    b.n = 0
    b.cap = 0
    return 0


cdef int _hold_block(Moves moves, MoveBuffer* b, Py_ssize_t n) except -1:
    """Make the empty ``moves`` hold the ``n`` moves of ``b``, a buffer of one block
    (:func:`_block_init`): the block becomes the result's, kinds and keys moved down behind
    the cards and the room not used given back; ``b`` is left empty."""
    cdef uint8_t* block = b.block
    cdef void* smaller
    memmove(block + 16 * n, b.kinds, <size_t>n)
    memmove(block + 17 * n, b.keys, <size_t>n)
    smaller = realloc(block, <size_t>(n if n > 0 else 1) * MOVE_BYTES)
    if smaller != NULL:
        block = <uint8_t*>smaller
    b.block = NULL
    b.cards = NULL
    b.kinds = NULL
    b.keys = NULL
    b.n = 0
    b.cap = 0
    moves.cards_at = <uint64_t*>block
    moves.kinds_at = block + 16 * n
    moves.keys_at = block + 17 * n
    moves.n = n
    return 0


cdef enum:
    # room for this many moves at once, on the stack of ``generate``, while following (a
    # dealt hand has at most a few hundred answers); a longer list moves to arrays of its
    # own and grows there
    LIST_CAPACITY = 1024
    # the same, in the result's own block, while leading (a dealt hand leads with 760 moves
    # on average; one in twenty has more than 2,048, and the block then grows by realloc)
    LEAD_CAPACITY = 2048
    # a batch's room per hand while following (a dealt hand has a few dozen answers)
    FOLLOW_CAPACITY = 256
    # generate releases the GIL for hands of more cards than this (a dealt hand has 27)
    BIG_HAND = 27


def generate(once, twice, level, last_kind, last_key, last_size, strongest):
    """generate(once, twice, level, last_kind, last_key, last_size, strongest)

    The legal moves of the hand ``(once, twice)`` at ``level``: leading when
    ``last_kind`` is 0 (PASS, key 0, size 0), else the moves that beat the move
    (last_kind, last_key, last_size). Every reading (complete list), or one per
    (kind, cards) when ``strongest``. Returns ``(kinds uint8[n], keys uint8[n],
    cards uint64[n, 2])`` as a :class:`Moves`.
    """
    cdef Args a
    _hand_args(&a, once, twice, level)
    _last_args(&a, last_kind, last_key, last_size)
    cdef Moves moves = Moves.__new__(Moves)
    fill_generated(moves, a.once, a.twice, a.level, a.kind, a.key, a.size, strongest)
    return moves


cdef int fill_generated(Moves moves, uint64_t once, uint64_t twice, int level, int last_kind, int last_key,
                        int last_size, bint strongest) except -1:
    cdef MoveBuffer buf
    cdef uint8_t kind_store[LIST_CAPACITY]
    cdef uint8_t key_store[LIST_CAPACITY]
    cdef uint64_t card_store[2 * LIST_CAPACITY]
    cdef Py_ssize_t n
    if moves.cards_at != NULL or moves.lent:
        raise ValueError("fill_generated fills a new, empty Moves")
    if last_kind == K_PASS or TIGHT_BUFFERS:  # a long list: written in place into the result's memory
        if _block_init(&buf, 1 if TIGHT_BUFFERS else LEAD_CAPACITY) != 0:
            raise MemoryError()
    else:
        movebuf_borrow(&buf, kind_store, key_store, card_store, LIST_CAPACITY)
    try:
        if gf_popcount64(once) + gf_popcount64(twice) > BIG_HAND:
            with nogil:  # a big hand can take a while: let other threads run
                n = generate_append(once, twice, level, last_kind, last_key, last_size, strongest, &buf)
        else:
            n = generate_append(once, twice, level, last_kind, last_key, last_size, strongest, &buf)
        if n == -2:  # the arguments, checked once by the kernel: name the fault
            _check(once, twice, level, last_kind, last_key, last_size)
        if n < 0:
            raise MemoryError()
        if buf.block != NULL:
            _hold_block(moves, &buf, n)
        else:
            _hold(moves, &buf, n)
        return 0
    finally:
        movebuf_free(&buf)


def classify(once, twice, level):
    """classify(once, twice, level)

    Every legal reading of exactly the cards ``(once, twice)`` at ``level`` (no move
    when they form no combination), as :class:`Moves` like :func:`generate`.
    """
    cdef Args a
    cdef MoveBuffer buf
    cdef uint8_t kind_store[READINGS_ROOM]
    cdef uint8_t key_store[READINGS_ROOM]
    cdef uint64_t card_store[2 * READINGS_ROOM]
    cdef Py_ssize_t n
    _hand_args(&a, once, twice, level)
    _check(a.once, a.twice, a.level, K_PASS, 0, 0)
    movebuf_borrow(&buf, kind_store, key_store, card_store, READINGS_ROOM)
    try:
        n = _classify_append(a.once, a.twice, a.level, -1, &buf)
        if n < 0:
            raise MemoryError()
        moves = Moves.__new__(Moves)
        _hold(moves, &buf, n)
        return moves
    finally:
        movebuf_free(&buf)


def reads_as(once, twice, level, kind, key):
    """reads_as(once, twice, level, kind, key) -> bool

    Whether the cards ``(once, twice)`` read as a move of ``kind`` with ``key`` at
    ``level`` (one of their :func:`classify` readings).
    """
    cdef Args a
    cdef int found
    _hand_args(&a, once, twice, level)
    a.kind = _as_small(kind, "kind")
    a.key = _as_small(key, "key")
    _check(a.once, a.twice, a.level, K_PASS, 0, 0)
    found = _reads_as_c(a.once, a.twice, a.level, a.kind, a.key)
    if found < 0:
        raise MemoryError()
    return found == 1


# Platform triples: the fast path of guandan_fast.engine.kinds.platform_row for well-formed triples in
# canonical notation (anything else is left to the Python reader, which names the fault). The
# tables are the Python vocabulary's own (guandan_fast.engine.cards, guandan_fast.engine.kinds).
cdef dict _TYPE_CODES = dict(_CODE_BY_PLATFORM_NAME)
cdef dict _CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
# rank fields: a sequence's lowest position (A low is 1), else the natural rank 2..14 or a
# joker's power (singles, pairs, ...)
cdef dict _POSITION_KEYS = dict(_POSITION_BY_CHAR)
cdef dict _RANK_KEYS = {**_RANK_BY_CHAR, "B": SB_POWER, "R": HR_POWER}


cdef inline bint _is_sequence(int kind) noexcept nogil:
    return kind == K_STRAIGHT or kind == K_THREE_PAIR or kind == K_TWO_TRIPS or kind == K_STRAIGHT_FLUSH


cdef object _checked_row(object action, object level):
    """``(kind, key, once, twice, size)`` of a well-formed platform triple in canonical
    notation whose cards read as it names; None for anything else."""
    cdef uint64_t once = 0, twice = 0, bit
    cdef int kind, key, lv
    if type(action) is not list or len(<list>action) != 3 or type(level) is not int:
        return None
    lv = level
    if lv < 2 or lv > 14:
        return None
    type_name, rank, cards = <list>action
    if type(cards) is not list:
        return None
    code = _TYPE_CODES.get(type_name)
    if code is None:
        return None
    for name in <list>cards:
        index = _CARD_INDEX.get(name)
        if index is None:
            return None
        bit = (<uint64_t>1) << <int>index
        if twice & bit:
            return None
        twice |= once & bit
        once |= bit
    kind = code
    if kind == K_BOMB and (rank == "JOKER" or rank == "R"):
        kind = K_FOUR_JOKERS
        key = 0
    else:
        found = (_POSITION_KEYS if _is_sequence(kind) else _RANK_KEYS).get(rank)
        if found is None:
            return None
        key = found
        if key == lv and not _is_sequence(kind):
            key = LEVEL_POWER
    if _reads_as_c(once, twice, lv, kind, key) != 1:
        return None
    return (kind, key, once, twice, gf_popcount64(once) + gf_popcount64(twice))


def read_checked(action, level):
    """read_checked(action, level) -> (kind, key, once, twice, size) or None

    The move a platform triple names at ``level`` (an int 2..14), when the triple is
    well formed and its cards read as it says; None otherwise (the caller then reads it
    with :func:`guandan_fast.engine.kinds.platform_row`, which names the fault). A pass is None.
    """
    return _checked_row(action, level)


def has_legal_follow(once, twice, level, last_kind, last_key, last_size):
    """has_legal_follow(once, twice, level, last_kind, last_key, last_size) -> bool

    Whether the hand has a move that beats (last_kind, last_key, last_size) (a pass
    does not count); stops at the first one. With last_kind 0 (leading): whether the
    hand holds any card.
    """
    cdef Args a
    _hand_args(&a, once, twice, level)
    _last_args(&a, last_kind, last_key, last_size)
    cdef int result = has_legal_follow_c(a.once, a.twice, a.level, a.kind, a.key, a.size)
    return result == 1


# The output of a batch: one block per call (cards, then kinds at 16 * cap, then keys at
# 17 * cap, as MoveBuffer.block), about 14 kB of moves a dealt hand leading, with room for
# 1,024 moves a hand (256 following; pages never touched cost nothing). Memory fresh from the system costs a page fault per
# page touched (measured on a virtual machine: 3,300 faults a 1,000-hand batch, about 8 µs
# a hand, four times the generation itself), so the blocks of batches the caller has
# dropped are kept, a few and up to KEPT_BYTES in all (4,096 hands leading take 72 MiB),
# and reused by the next batches, already mapped, instead of going back to the system.
cdef enum:
    KEPT_BLOCKS = 8
cdef size_t KEPT_BYTES = 256 << 20
cdef uint8_t* _kept[KEPT_BLOCKS]
cdef size_t _kept_size[KEPT_BLOCKS]
cdef size_t _kept_total = 0
cdef object _kept_lock = []  # locked (cython.critical_section) where there is no GIL


cdef uint8_t* _take_block(size_t want, size_t* size):
    """The smallest kept block of at least ``want`` bytes, else a new one (NULL when out
    of memory); its size in ``size``."""
    global _kept_total
    cdef int i, best = -1
    cdef uint8_t* block = NULL
    with cython.critical_section(_kept_lock):
        for i in range(KEPT_BLOCKS):
            if _kept[i] != NULL and _kept_size[i] >= want and (best < 0 or _kept_size[i] < _kept_size[best]):
                best = i
        if best >= 0:
            block, size[0] = _kept[best], _kept_size[best]
            _kept[best] = NULL
            _kept_total -= size[0]
    if block == NULL:
        block = <uint8_t*>malloc(want)
        size[0] = want
    return block


cdef void _give_back_block(uint8_t* block, size_t size) noexcept:
    """Keep a dropped batch's block for the next batches, or free it when the keep is full."""
    global _kept_total
    cdef int i
    with cython.critical_section(_kept_lock):
        if _kept_total + size <= KEPT_BYTES:
            for i in range(KEPT_BLOCKS):
                if _kept[i] == NULL:
                    _kept[i], _kept_size[i] = block, size
                    _kept_total += size
                    return
    free(block)


def _release_kept_blocks():
    """Free the kept blocks (tests, and callers who want the memory back now); the number freed."""
    global _kept_total
    cdef int i, freed = 0
    with cython.critical_section(_kept_lock):
        for i in range(KEPT_BLOCKS):
            if _kept[i] != NULL:
                free(_kept[i])
                _kept[i] = NULL
                freed += 1
        _kept_total = 0
    return freed


cdef tuple _batch_arrays(MoveBuffer* b):
    """``(kinds, keys, cards)`` over the ``b.n`` moves of the one-block buffer ``b``, whose
    block their base (a :class:`_Memory`) takes over, to be kept for the next batches when
    they are all dropped; ``b`` is left empty."""
    cdef Py_ssize_t n = b.n
    cdef _Memory memory = _Memory.__new__(_Memory)
    memory.cards_at, memory.kinds_at, memory.keys_at = b.cards, b.kinds, b.keys
    memory.separate = False
    memory.keep_bytes = 0 if TIGHT_BUFFERS else <size_t>b.cap * MOVE_BYTES
    b.block = b.kinds = b.keys = NULL
    b.cards = NULL
    b.n = b.cap = 0
    return (
        _array_over(memory, _UINT8, 1, n, memory.kinds_at),
        _array_over(memory, _UINT8, 1, n, memory.keys_at),
        _array_over(memory, _UINT64, 2, n, memory.cards_at),
    )


def generate_batch(hands, levels, last_kind, last_key, last_size, strongest):
    """generate_batch(hands, levels, last_kind, last_key, last_size, strongest)

    :func:`generate` over many hands at once, without the GIL: ``hands`` is a
    C-contiguous ``uint64[n, 2]`` array of (once, twice) rows, ``levels`` one level
    (int) or a C-contiguous ``uint8[n]`` array. Returns ``(kinds, keys, cards,
    offsets)`` where hand i's moves are rows ``offsets[i]:offsets[i + 1]`` (``offsets``
    is ``int64[n + 1]``).
    """
    cdef int lk = _as_small(last_kind, "last_kind")
    cdef int lkey = _as_small(last_key, "last_key")
    cdef int lsize = _as_small(last_size, "last_size")
    cdef bint strong = strongest
    cdef int one_level = 0
    cdef cnp.ndarray hand_array, level_array
    cdef const uint64_t* hp
    cdef const uint8_t* lp = NULL
    cdef Py_ssize_t n, i, bad = -1
    cdef int lv
    cdef int64_t* op
    cdef MoveBuffer buf
    cdef Py_ssize_t got = 0
    cdef uint8_t* block
    cdef size_t size
    cdef Py_ssize_t per_hand

    if not isinstance(hands, np.ndarray):
        raise TypeError(f"hands must be a numpy uint64 array of shape (n, 2), not {type(hands).__name__}")
    hand_array = hands
    if hand_array.dtype != np.uint64:
        raise TypeError(f"hands must have dtype uint64, not {hand_array.dtype}")
    if hand_array.ndim != 2 or hand_array.shape[1] != 2:
        raise ValueError(f"hands must have shape (n, 2), not {hands.shape}")
    if not cnp.PyArray_IS_C_CONTIGUOUS(hand_array):
        raise ValueError("hands must be a C-contiguous array (use numpy.ascontiguousarray)")
    if not cnp.PyArray_ISALIGNED(hand_array) or not cnp.PyArray_ISNOTSWAPPED(hand_array):
        raise ValueError("hands must be an aligned array in native byte order")
    n = hand_array.shape[0]

    if isinstance(levels, np.ndarray):
        level_array = levels
        if level_array.dtype != np.uint8:
            raise TypeError(f"levels must have dtype uint8, not {level_array.dtype}")
        if level_array.ndim != 1 or level_array.shape[0] != n:
            raise ValueError(f"levels must have shape ({n},), not {levels.shape}")
        if not cnp.PyArray_IS_C_CONTIGUOUS(level_array):
            raise ValueError("levels must be a C-contiguous array")
        lp = <const uint8_t*>cnp.PyArray_DATA(level_array)
    else:
        one_level = _as_small(levels, "level")
        if one_level < 2 or one_level > 14:
            raise ValueError(f"bad level {one_level}: a level is 2..14 (2..A)")

    hp = <const uint64_t*>cnp.PyArray_DATA(hand_array)
    _check(0, 0, 2, lk, lkey, lsize)
    cdef cnp.npy_intp odim = n + 1
    cdef cnp.ndarray offsets = cnp.PyArray_EMPTY(1, &odim, cnp.NPY_INT64, 0)
    op = <int64_t*>cnp.PyArray_DATA(offsets)
    # room for about as many moves as a dealt hand has: memory never touched costs nothing
    if TIGHT_BUFFERS:
        block, size = <uint8_t*>malloc(MOVE_BYTES), MOVE_BYTES
    else:
        per_hand = LIST_CAPACITY if lk == K_PASS else FOLLOW_CAPACITY
        block = _take_block(<size_t>(per_hand if n < 64 else _min(n, 4096) * per_hand) * MOVE_BYTES, &size)
    if block == NULL:
        raise MemoryError()
    _block_start(&buf, block, <Py_ssize_t>(size // MOVE_BYTES))
    try:
        with nogil:
            for i in range(n):
                op[i] = buf.n
                lv = lp[i] if lp != NULL else one_level
                got = generate_append(hp[2 * i], hp[2 * i + 1], lv, lk, lkey, lsize, strong, &buf)
                if got < 0:
                    bad = i
                    break
            op[n] = buf.n
        if got == -2:
            lv = lp[bad] if lp != NULL else one_level
            raise ValueError(f"hand {bad}: " + _arg_error(
                check_args(hp[2 * bad], hp[2 * bad + 1], lv, lk, lkey, lsize), lv, lk, lkey, lsize))
        if got < 0:
            raise MemoryError()
        # the block the kernel wrote becomes the result's (copying the moves out cost as
        # much again as writing them)
        return _batch_arrays(&buf) + (offsets,)
    finally:
        movebuf_free(&buf)


def hand_size(once, twice):
    """Number of cards in a hand given as two planes (validated)."""
    cdef uint64_t o = _as_plane(once, "once")
    cdef uint64_t t = _as_plane(twice, "twice")
    _check(o, t, 2, K_PASS, 0, 0)
    return gf_popcount64(o) + gf_popcount64(t)

