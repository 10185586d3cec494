# Included by _movegen.pyx (one module: the kernels inline across these files).
# The Python face, 3/4: generate, classify, reads_as, has_legal_follow.

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
    # a hand of at most this many cards leads on the stack too (a few dozen moves, copied
    # out): the lead's block would be a large allocation, which costs more than the copy
    # (glibc consolidates its free lists before each: a quarter of a small hand's call)
    SMALL_LEAD = 15


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
    cdef int cards = gf_popcount64(once) + gf_popcount64(twice)
    if moves.cards_at != NULL or moves.lent:
        raise ValueError("fill_generated fills a new, empty Moves")
    if (last_kind == K_PASS and cards > SMALL_LEAD) or TIGHT_BUFFERS:  # a long list: written in place into the result's memory
        if _block_init(&buf, 1 if TIGHT_BUFFERS else LEAD_CAPACITY) != 0:
            raise MemoryError()
    else:
        movebuf_borrow(&buf, kind_store, key_store, card_store, LIST_CAPACITY)
    try:
        if cards > BIG_HAND:
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
    a.kind = as_small(kind, "kind")
    a.key = as_small(key, "key")
    _check(a.once, a.twice, a.level, K_PASS, 0, 0)
    found = reads_as_c(a.once, a.twice, a.level, a.kind, a.key)
    if found < 0:
        raise MemoryError()
    return found == 1


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
