# Included by _movegen.pyx (one module: the kernels inline across these files).
# How a kernel sees a hand (Ctx): wildcards taken out, a pattern byte per rank.

cdef struct Ctx:
    uint64_t once
    uint64_t twice
    int level_index         # rank index of the level (level - 2)
    int W                   # wildcards held, 0..2
    int rank_cards          # the cards of the thirteen ranks held, wildcards included
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
    c.rank_cards = gf_popcount64(no) + gf_popcount64(nt) + c.W
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
