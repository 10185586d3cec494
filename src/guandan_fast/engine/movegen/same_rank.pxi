# Included by _movegen.pyx (one module: the kernels inline across these files).
# Moves of one rank: singles, pairs, trips, and the bombs (their ladder included).

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
