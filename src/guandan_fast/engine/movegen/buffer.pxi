# Included by _movegen.pyx (one module: the kernels inline across these files).
# The move buffer: growing it, and writing runs of counted moves into it.

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
