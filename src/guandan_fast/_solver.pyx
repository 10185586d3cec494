# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""Native exact solver of the fewest leading plays that empty a hand (最少手数).

The search is a depth-first branch and bound over *partitions* of the hand into legal
leading moves, all without the GIL:

* the hand's leading moves are generated once (``generate_into``, one reading per
  (kind, cards)); a leading move is legal in any sub-hand holding its cards, so the moves
  of every sub-hand are the root moves it contains;
* canonical order: every partition has exactly one play holding the remaining hand's
  *pivot* card (jokers first, then the other cards by index, the level rank's cards and
  the wildcards last), so each node branches only on the moves whose own pivot is that
  card — moves are bucketed by pivot once, and permutations of one partition are never
  searched twice;
* a memo (open addressing on the 108-bit remaining hand, owned by the caller's
  :class:`MinPlays`) keeps exact values and proven lower bounds (fail-soft), so a
  sub-hand reached by different partitions is solved once;
* a per-rank lower bound (see ``_lower_bound``) and the best cost so far prune.

Costs are additive per play: 1 per play, or 1024 per play plus a tie-break penalty (the
``prefer`` option of :func:`guandan_fast.min_plays`), so the same search returns a
decomposition with the fewest plays and, among those, the smallest penalty.
"""

from libc.stdint cimport uint8_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free, qsort

import numpy as np
cimport numpy as cnp

from guandan_fast._bitops cimport gf_popcount64, gf_ctz64
from guandan_fast._movegen cimport (
    MoveBuffer, movebuf_init, movebuf_free, generate_into, check_args,
)

cnp.import_array()

cdef enum:
    KIND_SINGLE = 1
    KIND_PAIR = 2
    KIND_STRAIGHT_FLUSH = 8
    KIND_BOMB = 9
    KIND_FOUR_JOKERS = 10
    NUM_CARDS = 54
    UNIT_TIED = 1024          # cost of one play when a tie-break penalty is added
    PENALTY_MAJOR = 32        # > 27: a major penalty outweighs any number of minor ones
    TABLE_BITS = 15
    INFINITE = 1 << 28
    MAX_PLAY = 10             # the largest move: a bomb of ten cards
    NUM_LANES = 16
    JOKER_LANES = 3 << 13
    WILD_LANE = 1 << 15

# Tie-breaks (the prefer option); the codes are solver.PREFER's.
cdef enum:
    PREFER_NONE = 0           # any decomposition with the fewest plays
    PREFER_BOMBS = 1          # most bomb plays (bombs, straight flushes, four jokers), then fewest singles
    PREFER_SINGLES = 2        # fewest singles, then fewest pairs

cdef uint64_t LOW7 = 0x7F7F7F7F7F7F7F7FULL
cdef uint64_t HIGH1 = 0x8080808080808080ULL
cdef uint64_t GATHER = 0x0102040810204080ULL   # byte bits 0, 8, .. 56 -> bits 56..63


cdef struct Play:
    # A count pattern: how many cards of each lane the play takes.
    uint64_t lo
    uint64_t hi
    int32_t cost
    int32_t pivot             # bucket: the pattern's own pivot lane
    int32_t size


cdef struct Entry:
    uint64_t lo
    uint64_t hi
    uint32_t stamp            # the search that wrote it (older stamps are empty slots)
    int32_t value             # exact cost, or a proven lower bound
    int32_t exact
    int32_t best              # exact entries: index of the first play of an optimal decomposition


cdef struct Search:
    Play* plays
    Py_ssize_t nplays
    int starts[NUM_LANES + 1] # plays of pivot lane c are plays[starts[c]:starts[c + 1]]
    Entry* table
    uint64_t table_mask
    uint32_t stamp
    uint32_t late             # lane mask: the level rank's non-wild cards, pivots after the others
    int unit                  # the cost of a play without penalty
    long nodes


# -- lanes: a hand as 16 card counts, one byte each ----------------------------------------------
# Every rule but the straight flush's is blind to suits, so the fewest plays depend only on
# how many cards of each rank the hand holds: lanes 0..12 count the non-wild cards of ranks
# 2..A, 13 and 14 the jokers SB and HR, 15 the wildcards. Lanes 0..7 are the bytes of ``lo``,
# 8..15 those of ``hi``; a count is at most 8, so bytewise arithmetic never carries.

cdef inline void _lanes(uint64_t once, uint64_t twice, uint64_t wild, uint64_t* lo, uint64_t* hi) noexcept nogil:
    cdef uint64_t nibble = 0xF, words[2]
    cdef int lane
    words[0] = 0
    words[1] = 0
    for lane in range(13):
        words[lane >> 3] |= <uint64_t>(gf_popcount64(once & nibble & ~wild) + gf_popcount64(twice & nibble & ~wild)) << (8 * (lane & 7))
        nibble <<= 4
    words[1] |= <uint64_t>((once >> 52 & 1) + (twice >> 52 & 1)) << 40
    words[1] |= <uint64_t>((once >> 53 & 1) + (twice >> 53 & 1)) << 48
    words[1] |= <uint64_t>(((once & wild) != 0) + ((twice & wild) != 0)) << 56
    lo[0] = words[0]
    hi[0] = words[1]


cdef inline uint32_t _nonzero_lanes(uint64_t lo, uint64_t hi) noexcept nogil:
    """Bit c set when lane c is not empty."""
    cdef uint64_t l = (((lo & LOW7) + LOW7) | lo) & HIGH1
    cdef uint64_t h = (((hi & LOW7) + LOW7) | hi) & HIGH1
    return <uint32_t>(((l >> 7) * GATHER) >> 56) | (<uint32_t>(((h >> 7) * GATHER) >> 56) << 8)


cdef inline bint _fits(uint64_t lo, uint64_t hi, Play* p) noexcept nogil:
    """Whether every lane of the pattern is at most the hand's."""
    return (((lo | HIGH1) - p.lo) & HIGH1) == HIGH1 and (((hi | HIGH1) - p.hi) & HIGH1) == HIGH1


cdef inline int _pivot(uint32_t lanes, uint32_t late) noexcept nogil:
    """The pivot lane of a non-empty hand: jokers, then the ranks low to high but the level
    rank, then the level rank, then the wildcards."""
    if lanes & JOKER_LANES:
        return gf_ctz64(lanes & JOKER_LANES)
    if lanes & ~(late | WILD_LANE):
        return gf_ctz64(lanes & ~(late | WILD_LANE))
    return gf_ctz64(lanes)


cdef inline int _lower_bound(uint64_t lo, uint64_t hi) noexcept nogil:
    """Fewest plays any partition of the hand can have (a cheap, valid bound).

    A play has at most 6 cards unless it is a bomb of one rank (wildcards added), so
    ``ceil(cards / longest)`` with ``longest`` = max(6, the largest bomb the hand could make).
    """
    cdef int wilds = <int>(hi >> 56)
    cdef int cards = wilds, longest = 6, lane, count
    for lane in range(15):
        count = <int>(((lo if lane < 8 else hi) >> (8 * (lane & 7))) & 0xFF)
        cards += count
        if lane < 13 and count + wilds > longest:
            longest = count + wilds
    if longest > MAX_PLAY:
        longest = MAX_PLAY
    return (cards + longest - 1) // longest


cdef inline uint64_t _slot(uint64_t lo, uint64_t hi, uint64_t mask) noexcept nogil:
    cdef uint64_t h = lo * 0x9E3779B97F4A7C15ULL ^ (hi + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL
    h ^= h >> 29
    return h & mask


cdef int _search(Search* s, uint64_t lo, uint64_t hi, int ub) noexcept nogil:
    """The cost of the best partition of the hand (lo, hi) when it is < ``ub`` (exact), else
    a lower bound >= ``ub`` of it (fail-soft)."""
    if lo == 0 and hi == 0:
        return 0
    s.nodes += 1
    cdef Entry* e = &s.table[_slot(lo, hi, s.table_mask)]
    cdef int lb
    if e.stamp == s.stamp and e.lo == lo and e.hi == hi:
        if e.exact or e.value >= ub:
            return e.value
        lb = e.value
    else:
        lb = _lower_bound(lo, hi) * s.unit
        if lb >= ub:
            return lb
    cdef int pivot = _pivot(_nonzero_lanes(lo, hi), s.late)
    cdef int best = INFINITE, best_play = -1, floor = INFINITE
    cdef int i, v, cap
    cdef Play* p
    for i in range(s.starts[pivot], s.starts[pivot + 1]):
        p = &s.plays[i]
        if not _fits(lo, hi, p):
            continue
        cap = best if best < ub else ub
        v = p.cost + _search(s, lo - p.lo, hi - p.hi, cap - p.cost)
        if v < cap:
            best = v
            best_play = i
            if best <= lb:
                break
        elif v < floor:
            floor = v
    # _search may have overwritten this slot: write it again.
    e = &s.table[_slot(lo, hi, s.table_mask)]
    e.lo = lo
    e.hi = hi
    e.stamp = s.stamp
    if best < ub:
        e.value = best
        e.exact = 1
        e.best = best_play
        return best
    e.value = floor if floor > lb else lb
    e.exact = 0
    return e.value


cdef int _play_order(const void* a, const void* b) noexcept nogil:
    """By pivot, then the most cards first, then the cheapest, then by pattern (total order)."""
    cdef const Play* x = <const Play*>a
    cdef const Play* y = <const Play*>b
    if x.pivot != y.pivot:
        return -1 if x.pivot < y.pivot else 1
    if x.size != y.size:
        return -1 if x.size > y.size else 1
    if x.hi != y.hi:
        return -1 if x.hi < y.hi else 1
    if x.lo != y.lo:
        return -1 if x.lo < y.lo else 1
    if x.cost != y.cost:
        return -1 if x.cost < y.cost else 1
    return 0


cdef inline int _play_cost(int kind, int prefer) noexcept nogil:
    """A play's cost under a tie-break. A straight flush counts as a straight here: the
    search sees rank counts only (its cards may or may not share a suit)."""
    if prefer == PREFER_BOMBS:
        return UNIT_TIED + (0 if kind == KIND_BOMB or kind == KIND_FOUR_JOKERS else PENALTY_MAJOR) + (kind == KIND_SINGLE)
    if prefer == PREFER_SINGLES:
        return UNIT_TIED + (PENALTY_MAJOR if kind == KIND_SINGLE else 0) + (kind == KIND_PAIR)
    return 1


cdef int _prepare(Search* s, MoveBuffer* buf, Py_ssize_t n, int level, int prefer) noexcept nogil:
    """The distinct count patterns of the generator's n moves (the cheapest reading of
    each), bucketed by pivot lane; -1 when out of memory."""
    cdef Py_ssize_t i, kept
    cdef int c
    cdef Play* p
    cdef uint64_t wild = 1ULL << (4 * (level - 2) + 1)
    s.late = 1U << (level - 2)
    s.unit = 1 if prefer == PREFER_NONE else UNIT_TIED
    s.plays = <Play*>malloc(<size_t>(n if n > 0 else 1) * sizeof(Play))
    if s.plays == NULL:
        return -1
    for i in range(n):
        p = &s.plays[i]
        _lanes(buf.cards[2 * i], buf.cards[2 * i + 1], wild, &p.lo, &p.hi)
        p.size = gf_popcount64(buf.cards[2 * i]) + gf_popcount64(buf.cards[2 * i + 1])
        p.cost = _play_cost(buf.kinds[i], prefer)
        p.pivot = _pivot(_nonzero_lanes(p.lo, p.hi), s.late)
    qsort(s.plays, <size_t>n, sizeof(Play), _play_order)
    kept = 0
    for i in range(n):  # equal patterns are adjacent, the cheapest first: keep that one
        if kept == 0 or s.plays[i].lo != s.plays[kept - 1].lo or s.plays[i].hi != s.plays[kept - 1].hi:
            s.plays[kept] = s.plays[i]
            kept += 1
    s.nplays = kept
    i = 0
    for c in range(NUM_LANES + 1):
        while i < kept and s.plays[i].pivot < c:
            i += 1
        s.starts[c] = <int>i
    return 0


cdef inline void _take(uint64_t* once, uint64_t* twice, uint64_t cards, int count,
                       uint64_t* mo, uint64_t* mt) noexcept nogil:
    """Move ``count`` cards among ``cards`` (one rank's bits) from the hand into the move."""
    cdef uint64_t bit, left
    while count > 0:
        left = once[0] & cards
        if left == 0:
            return
        while left and count > 0:
            bit = left & (~left + 1)
            left ^= bit
            if twice[0] & bit:
                twice[0] &= ~bit
            else:
                once[0] &= ~bit
            mt[0] |= mo[0] & bit
            mo[0] |= bit
            count -= 1


cdef Py_ssize_t _realize(Play* p, uint64_t* once, uint64_t* twice, uint64_t wild,
                         MoveBuffer* buf, Py_ssize_t n) noexcept nogil:
    """Cards of the hand for one pattern, taken out of it; the row of the generator's move
    with exactly those cards (a bomb reading first), -1 if there is none (impossible)."""
    cdef uint64_t mo = 0, mt = 0
    cdef int lane, count
    cdef Py_ssize_t i, found = -1
    for lane in range(16):
        count = <int>(((p.lo if lane < 8 else p.hi) >> (8 * (lane & 7))) & 0xFF)
        if count == 0:
            continue
        if lane < 13:
            _take(once, twice, (0xFULL << (4 * lane)) & ~wild, count, &mo, &mt)
        elif lane == 15:
            _take(once, twice, wild, count, &mo, &mt)
        else:
            _take(once, twice, 1ULL << (52 + lane - 13), count, &mo, &mt)
    for i in range(n):
        if buf.cards[2 * i] == mo and buf.cards[2 * i + 1] == mt:
            if found < 0 or buf.kinds[i] >= KIND_STRAIGHT_FLUSH:
                found = i
    return found


cdef class MinPlays:
    """A reusable solver: owns the memo table (one solver per thread; not thread-safe)."""

    cdef Entry* table
    cdef uint64_t mask
    cdef uint32_t stamp
    cdef MoveBuffer buf
    cdef readonly long nodes

    def __cinit__(self):
        self.mask = (1ULL << TABLE_BITS) - 1
        self.table = <Entry*>malloc(<size_t>(self.mask + 1) * sizeof(Entry))
        if self.table == NULL or movebuf_init(&self.buf, 1024) != 0:
            raise MemoryError()
        cdef uint64_t i
        for i in range(self.mask + 1):
            self.table[i].stamp = 0
        self.stamp = 0

    def __dealloc__(self):
        free(self.table)
        movebuf_free(&self.buf)

    def solve(self, uint64_t once, uint64_t twice, int level, int prefer):
        """solve(once, twice, level, prefer) -> (count, kinds, keys, cards)

        The fewest leading plays that empty the hand and one optimal decomposition, its
        plays as ``kinds uint8[count]``, ``keys uint8[count]``, ``cards uint64[count, 2]``.
        ``prefer``: 0 none, 1 bombs, 2 singles (see :data:`guandan_fast.solver.PREFER`)."""
        if check_args(once, twice, level, 0, 0, 0) != 0:
            raise ValueError("bad hand planes or level")
        if not 0 <= prefer <= 2:
            raise ValueError(f"bad prefer code {prefer}")
        cdef Search s
        cdef Py_ssize_t n, row
        cdef int count = 0, k, failed = 0
        cdef uint64_t lo, hi, o = once, t = twice
        cdef uint64_t wild = 1ULL << (4 * (level - 2) + 1)
        cdef Entry* e
        cdef Play* p
        cdef Py_ssize_t rows[108]
        if self.stamp == 0xFFFFFFFF:
            for k in range(<int>(self.mask + 1)):
                self.table[k].stamp = 0
            self.stamp = 0
        self.stamp += 1
        s.table = self.table
        s.table_mask = self.mask
        s.stamp = self.stamp
        s.nodes = 0
        s.plays = NULL
        try:
            with nogil:
                n = generate_into(once, twice, level, 0, 0, 0, True, &self.buf)
                if n >= 0 and _prepare(&s, &self.buf, n, level, prefer) != 0:
                    n = -1
                if n >= 0:
                    _lanes(once, twice, wild, &lo, &hi)
                    _search(&s, lo, hi, INFINITE)
                    # Walk one optimal decomposition (a slot overwritten on the way is
                    # solved again) and give each pattern cards of the hand.
                    while (lo != 0 or hi != 0) and count < 108:
                        e = &s.table[_slot(lo, hi, s.table_mask)]
                        if not (e.stamp == s.stamp and e.lo == lo and e.hi == hi and e.exact):
                            _search(&s, lo, hi, INFINITE)
                            e = &s.table[_slot(lo, hi, s.table_mask)]
                        p = &s.plays[e.best]
                        row = _realize(p, &o, &t, wild, &self.buf, n)
                        if row < 0:
                            failed = 1
                            break
                        rows[count] = row
                        count += 1
                        lo -= p.lo
                        hi -= p.hi
            if n < 0:
                raise MemoryError()
            if failed or o != 0:
                raise RuntimeError("min_plays: a decomposition could not be given cards (a bug)")
            self.nodes = s.nodes
            kinds = np.empty(count, dtype=np.uint8)
            keys = np.empty(count, dtype=np.uint8)
            cards = np.empty((count, 2), dtype=np.uint64)
            for k in range(count):
                kinds[k] = self.buf.kinds[rows[k]]
                keys[k] = self.buf.keys[rows[k]]
                cards[k, 0] = self.buf.cards[2 * rows[k]]
                cards[k, 1] = self.buf.cards[2 * rows[k] + 1]
            return count, kinds, keys, cards
        finally:
            free(s.plays)
