# Included by _movegen.pyx (one module: the kernels inline across these files).
# Full houses (ThreeWithTwo): a triple and a pair of another rank.

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
        ranks = (c.at_least[kr] >> 2) & above & 0x1FFFu  # the ranks with kr natural cards
        if not ranks:  # no triple: the pairs are not listed
            continue
        n = _pair_list(c, wr if W > wr else -1, rows, by_power)
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
