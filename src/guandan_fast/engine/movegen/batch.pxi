# Included by _movegen.pyx (one module: the kernels inline across these files).
# The Python face, 4/4: generate_batch, and the memory kept for batches.

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
    cdef int lk = as_small(last_kind, "last_kind")
    cdef int lkey = as_small(last_key, "last_key")
    cdef int lsize = as_small(last_size, "last_size")
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
        one_level = as_small(levels, "level")
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
    cdef uint64_t o = as_plane(once, "once")
    cdef uint64_t t = as_plane(twice, "twice")
    _check(o, t, 2, K_PASS, 0, 0)
    return gf_popcount64(o) + gf_popcount64(t)
