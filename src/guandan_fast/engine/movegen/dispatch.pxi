# Included by _movegen.pyx (one module: the kernels inline across these files).
# The kernels' entry points: a kind's moves, a whole list, argument checks, the readings
# of a card set (classify, reads_as).

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


cdef int reads_as_c(uint64_t once, uint64_t twice, int level, int kind, int key) noexcept nogil:
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
