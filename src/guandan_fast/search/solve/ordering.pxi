# Included by _solve.pyx (one module: the search inlines across these files).
# Move ordering: which actions are searched first (never a value), and which are skipped as
# equivalent to an earlier one (suit symmetry, where no straight flush can be formed).

cdef inline bint _no_straight_flush(uint64_t once, uint64_t twice, uint64_t wild) noexcept nogil:
    """True when no straight flush can be formed from the hand: no suit has, in a window of
    five ranks (A-low included), as many cards as five minus the wildcards. An over-estimate
    of what can be formed (a wildcard is counted as itself and as any card), so True is safe;
    it stays True for every part of the hand."""
    cdef int wilds = ((once & wild) != 0) + ((twice & wild) != 0), suit, low
    cdef uint64_t ranks
    for suit in range(4):
        ranks = (once >> suit) & RANK_GROUP_ONES & RANK_CARDS   # bit 4r: rank r of this suit held
        if gf_popcount64(ranks) + wilds < 5:
            continue
        if gf_popcount64(ranks & 0x1111ULL) + <int>((ranks >> 48) & 1) + wilds >= 5:   # A 2 3 4 5
            return False
        for low in range(9):   # ranks low .. low + 4 (2-6 up to 10-A)
            if gf_popcount64(ranks & (0x11111ULL << (4 * low))) + wilds >= 5:
                return False
    return True


cdef inline uint32_t _pack(int kind, int key, int size) noexcept nogil:
    return <uint32_t>(kind | (key << 8) | (size << 16)) + 1   # 0: no move


cdef Py_ssize_t _order_moves(const PlayState* s, Ply* p, Py_ssize_t n,
                             uint32_t table_move) noexcept nogil:
    """Score the n actions of ``p`` (the larger first), ``-2 - j`` for an action equivalent
    to the earlier one j (the same kind and key, the same rank counts, from a hand that can
    form no straight flush: never searched; the root reads j); returns the number kept."""
    cdef int seat = s.to_act & 3, kind, key, size
    cdef int held = hand_size(s.once[seat], s.twice[seat])
    cdef bint following = s.last_kind != K_PASS
    cdef bint partner_leads = following and s.last_seat == (seat ^ 2)
    cdef uint64_t wild = wild_bit(s.level)
    cdef bint blind = _no_straight_flush(s.once[seat], s.twice[seat], wild)
    cdef uint32_t packed
    cdef uint64_t mask = 0, slot, lo, hi, sig, o, t
    cdef Py_ssize_t i, kept = 0
    cdef bint duplicate
    cdef int32_t score
    cdef MoveBuffer* m = &p.moves
    if blind:
        mask = 64
        while mask < <uint64_t>(2 * n):
            mask *= 2
        mask -= 1   # at most 2 * room slots (room >= n is a power of two times 64)
        for i in range(<Py_ssize_t>(mask + 1)):
            p.seen[i] = 0
    for i in range(n):
        kind = m.kinds[i]
        key = m.keys[i]
        o = m.cards[2 * i]
        t = m.cards[2 * i + 1]
        size = hand_size(o, t)
        if blind and kind != K_PASS:
            # an open-addressing set of the kept actions: (hash << 32) | (row + 1)
            hand_lanes(o, t, wild, &lo, &hi)
            sig = ((lo * 0x9E3779B97F4A7C15ULL) ^ ((hi + <uint64_t>(kind | key << 8)) * 0xC2B2AE3D27D4EB4FULL))
            sig ^= sig >> 29
            slot = sig & mask
            sig &= 0xFFFFFFFF00000000ULL
            duplicate = False
            while p.seen[slot] != 0:
                if (p.seen[slot] & 0xFFFFFFFF00000000ULL) == sig and _equivalent(s, m, i, <Py_ssize_t>(p.seen[slot] & 0xFFFFFFFFULL) - 1):
                    duplicate = True
                    break
                slot = (slot + 1) & mask
            if duplicate:
                p.scores[i] = -1 - <int32_t>(p.seen[slot] & 0xFFFFFFFFULL)   # -2 - j
                continue
            p.seen[slot] = sig | <uint64_t>(i + 1)
        packed = _pack(kind, key, size)
        if kind != K_PASS and size == held:
            score = SCORE_OUT
        elif packed == table_move:
            score = SCORE_TABLE
        else:
            score = _heuristic(kind, key, size, following, partner_leads)
        p.scores[i] = score
        kept += 1
    return kept


cdef inline int32_t _heuristic(int kind, int key, int size, bint following, bint partner_leads) noexcept nogil:
    """The static order of actions: a pass first on one's partner's move, else after every
    beat; the smallest beat first, bombs after the other beats (low tiers first); leads
    with the most cards first, low keys first. (Measured on endgames cut from played
    deals: killer moves and a history of cut-offs, tried too, searched 2-40 times more.)"""
    cdef int tier
    if kind == K_PASS:
        return SCORE_PASS_PARTNER if partner_leads else (1 << 16)
    if following:
        tier = bomb_tier(kind, size)
        if tier >= 0:
            return (1 << 20) - key - 32 * (tier + 1)
        return (1 << 20) + (1 << 19) - key
    return (1 << 20) + size * 32 - key


cdef int _descending(const void* a, const void* b) noexcept nogil:
    cdef uint64_t x = (<const uint64_t*>a)[0], y = (<const uint64_t*>b)[0]
    return (x < y) - (x > y)


cdef Py_ssize_t _sorted_order(Ply* p, Py_ssize_t n, int32_t* order) noexcept nogil:
    """The kept actions (score >= 0) into ``order`` in the order :func:`_next_move` takes
    them (the best score first, then the lowest index), by one sort rather than a scan per
    action (a huge hand's root has 10**5 actions); returns how many. Uses ``p.seen``
    (2 * room >= n entries) as scratch."""
    cdef Py_ssize_t i, k, kept = 0
    for i in range(n):
        if p.scores[i] >= 0:
            p.seen[kept] = (<uint64_t>p.scores[i] << 32) | <uint64_t>(0xFFFFFFFFU - <uint32_t>i)
            kept += 1
    qsort(p.seen, <size_t>kept, sizeof(uint64_t), _descending)
    for k in range(kept):
        order[k] = <int32_t>(0xFFFFFFFFU - <uint32_t>(p.seen[k] & 0xFFFFFFFFU))
    return kept


cdef inline Py_ssize_t _next_move(Ply* p, Py_ssize_t n) noexcept nogil:
    """The best-scored action not yet taken (taken: score -1), or -1."""
    cdef Py_ssize_t i, best = -1
    cdef int32_t top = -1
    for i in range(n):
        if p.scores[i] > top:
            top = p.scores[i]
            best = i
    if best >= 0:
        p.scores[best] = -1
    return best
