# The native min-plays solver's C face, for other kernels (the "minplays" playout policy of
# _playout): a Solver owns its memo table, dedupe set and move buffer (one per thread). The
# memo is kept across the hands of one level: decompositions and counts of hands that share
# sub-hands (a hand, then the hand less a play) reuse what the earlier ones found, with the
# same answers as a fresh solver.
#
#     cdef Solver solver
#     if solver_init(&solver) != 0: ...           # out of memory
#     count = solver_decompose(&solver, once, twice, level, prefer, rows)
#     # count >= 0: play k of an optimal decomposition is row rows[k] of solver.buf
#     solver_prepare(&solver, once, twice, level, whole)  # then, for sub-hands of that hand:
#     fewest = solver_count_within(&solver, sub_once, sub_twice, bound)
#     solver_free(&solver)

from libc.stdint cimport int32_t, uint32_t, uint64_t

from guandan_fast.engine._movegen cimport HR_BIT, SB_BIT, FULL_PLANE, MoveBuffer


# -- lanes: a hand as 16 card counts, one byte each ----------------------------------------------
# Every rule but the straight flush's is blind to suits, so much about a hand depends only on
# how many cards of each rank it holds: lanes 0..12 count the non-wild cards of ranks 2..A,
# 13 and 14 the jokers SB and HR, 15 the wildcards. Lanes 0..7 are the bytes of ``lo``,
# 8..15 those of ``hi``; a count is at most 8, so bytewise arithmetic never carries. The
# min-plays search runs on them, and the perfect-information solver (_solve) keys the
# hands that can hold no straight flush by them.

cdef inline uint64_t nibble_counts(uint64_t x) noexcept nogil:
    """Each 4-bit nibble of x replaced by its number of set bits."""
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    return (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)


cdef inline uint64_t spread_nibbles(uint64_t v) noexcept nogil:
    """The 8 nibbles of a 32-bit value, one per byte."""
    v = (v | (v << 16)) & 0x0000FFFF0000FFFFULL
    v = (v | (v << 8)) & 0x00FF00FF00FF00FFULL
    return (v | (v << 4)) & 0x0F0F0F0F0F0F0F0FULL


cdef inline void hand_lanes(uint64_t once, uint64_t twice, uint64_t wild, uint64_t* lo, uint64_t* hi) noexcept nogil:
    """The 16 lanes of a hand (or a move's cards) given as planes; ``wild`` the wildcard's bit."""
    # per rank: at most 4 + 4 copies, so a nibble (<= 8) never carries into the next
    cdef uint64_t suited = FULL_PLANE & ~(SB_BIT | HR_BIT)   # every card but the jokers
    cdef uint64_t ranks = nibble_counts(once & ~wild & suited) + nibble_counts(twice & ~wild & suited)
    lo[0] = spread_nibbles(ranks & 0xFFFFFFFFULL)
    hi[0] = (spread_nibbles(ranks >> 32)
             | <uint64_t>((once >> 52 & 1) + (twice >> 52 & 1)) << 40
             | <uint64_t>((once >> 53 & 1) + (twice >> 53 & 1)) << 48
             | <uint64_t>(((once & wild) != 0) + ((twice & wild) != 0)) << 56)


cdef enum:
    WHOLE_BOMBS = 4     # a solver mode flag (solver_decompose's prefer | WHOLE_BOMBS): every rank
                        # of four or more natural cards is played as one bomb holding all of them


cdef inline uint64_t nonzero_lanes_high(uint64_t lanes) noexcept nogil:
    """The high bit of each non-empty lane (byte) of ``lanes``."""
    return (((lanes & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL) | lanes) & 0x8080808080808080ULL


cdef inline uint64_t whole_lanes_lo(uint64_t lo) noexcept nogil:
    """The high bit of each of lanes 0..7 (ranks 2..9) holding four or more cards."""
    return ((lo | 0x8080808080808080ULL) - 0x0404040404040404ULL) & 0x8080808080808080ULL


cdef inline uint64_t whole_lanes_hi(uint64_t hi) noexcept nogil:
    """The same for lanes 8..12 (ranks T..A; not the jokers' nor the wildcards' lanes)."""
    return ((hi | 0x8080808080808080ULL) - 0x0404040404040404ULL) & 0x0000008080808080ULL


cdef inline bint holds_whole_rank(uint64_t lo, uint64_t hi) noexcept nogil:
    """Whether the hand of lanes (lo, hi) holds four or more natural cards of a rank 2..A: a
    rank the tactics' decompositions (the solver's WHOLE_BOMBS mode) play as one bomb."""
    return (whole_lanes_lo(lo) | whole_lanes_hi(hi)) != 0


cdef inline uint64_t hash_slot(uint64_t lo, uint64_t hi, uint64_t mask) noexcept nogil:
    """A slot of a power-of-two hash table (``mask`` = size - 1) for the 128-bit key (lo, hi)."""
    cdef uint64_t h = lo * 0x9E3779B97F4A7C15ULL ^ (hi + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL
    h ^= h >> 29
    return h & mask


cdef struct Entry:
    uint64_t lo
    uint64_t hi
    uint32_t stamp            # the search that wrote it (older stamps are empty slots)
    int32_t value             # exact cost, or a proven lower bound
    int32_t best              # -1: value is a lower bound; else exact, and the index of the first
                              # play of an optimal partition in the plays of search ``owner``
    uint32_t owner            # the search's ROOT_BITS root and its mode above them (Search.owner):
                              # an entry of another mode is an empty slot to a search


cdef struct Dedupe:
    # A hash set of patterns (open addressing; slots of older stamps are empty), grown as needed.
    uint32_t* stamps
    int32_t* rows
    uint64_t mask
    uint32_t stamp


cdef struct Play:
    # A count pattern: how many cards of each lane the play takes.
    uint64_t lo
    uint64_t hi
    int32_t cost
    int32_t size


cdef struct Search:
    Play* plays
    int* lists                # the plays touching lane c: lists[starts[c]:starts[c + 1]]
    int starts[17]            # NUM_LANES + 1
    Entry* table
    uint64_t table_mask
    uint32_t stamp
    int unit                  # the cost of a play without penalty
    uint32_t owner            # mode << ROOT_BITS | root: the mode (a decomposition's tie-break
                              # 0..3, plus WHOLE_BOMBS 4; or MODE_COUNT 8, plus 4) and the
                              # decomposition (0 for counts)
    long nodes


cdef struct Solver:
    Entry* table
    uint64_t mask
    uint32_t stamp
    MoveBuffer buf            # the hand's leading moves of the last solve
    Dedupe dedupe
    long nodes                # search nodes of the last solve
    int cost                  # the last decomposition's cost: plays, then penalties (see _play_cost); -1: none
    Search search             # the prepared hand (solver_prepare), plays NULL when none
    uint64_t wild             # the prepared hand's wildcard bit
    int table_level           # the level the table's entries are for (0: none yet): they are
                              # kept across the hands of that level
    uint32_t roots            # decompositions so far (the root of the next, below 1 << ROOT_BITS)


cdef int solver_init(Solver* solver) noexcept nogil
cdef void solver_free(Solver* solver) noexcept nogil
cdef int solver_prepare(Solver* solver, uint64_t once, uint64_t twice, int level, bint whole) noexcept nogil
cdef int solver_count_within(Solver* solver, uint64_t once, uint64_t twice, int bound) noexcept nogil
cdef Py_ssize_t solver_decompose(Solver* solver, uint64_t once, uint64_t twice, int level, int prefer,
                                 Py_ssize_t* rows) noexcept nogil
    # prefer: 0 none, 1 bombs, 2 singles, 3 high, plus 4 to keep every rank of four or more
    # natural cards whole as one bomb (else -3); see solver_decompose in _minplays.pyx.
    # solver_prepare's ``whole``: the counts under the same rule
