# Included by _movegen.pyx (one module: the kernels inline across these files).
# The Python face, 2/4: Moves, the result object, and the memory its numpy views share.

cdef extern from "numpy/arrayobject.h":
    # steals a reference to ``descr`` (also when it fails)
    object _new_array "PyArray_NewFromDescr" (PyTypeObject* subtype, cnp.dtype descr, int nd,
                                              cnp.npy_intp* dims, cnp.npy_intp* strides, void* data,
                                              int flags, object base)

# the dtypes of the result arrays, looked up once
cdef cnp.dtype _UINT8 = cnp.PyArray_DescrFromType(cnp.NPY_UINT8)
cdef cnp.dtype _UINT64 = cnp.PyArray_DescrFromType(cnp.NPY_UINT64)


@cython.freelist(16)
@cython.auto_pickle(False)  # never pickled (Cython's generated refusal would also land in the module)
cdef class _Memory:
    """The memory of a :class:`Moves`' moves once a numpy view of it exists: the base of
    every view, so a view keeps the memory alive without holding the Moves (a Moves
    caching views that held it would be a reference cycle, freed only by the collector)."""

    cdef uint64_t* cards_at
    cdef uint8_t* kinds_at
    cdef uint8_t* keys_at
    cdef bint separate
    cdef size_t keep_bytes  # nonzero: one batch block of this size, offered to the next batches

    def __dealloc__(self):
        if self.keep_bytes:
            _give_back_block(<uint8_t*>self.cards_at, self.keep_bytes)
            return
        free(self.cards_at)
        if self.separate:
            free(self.kinds_at)
            free(self.keys_at)


cdef _Memory _lent_memory(Moves owner):
    """The :class:`_Memory` that owns the memory of ``owner``'s moves, made (and the memory
    lent to it) the first time a view of them, or another Moves sharing them, is made."""
    cdef _Memory memory
    with cython.critical_section(owner):  # one _Memory per Moves, also without a GIL (two
        memory = owner._memory            # threads racing to a view make two views at worst)
        if memory is None:
            memory = _Memory.__new__(_Memory)
            memory.cards_at, memory.kinds_at, memory.keys_at = owner.cards_at, owner.kinds_at, owner.keys_at
            memory.separate = owner.separate
            owner._memory = memory  # from now on the memory is freed with the last of owner and its views
            owner.lent = True
    return memory


cdef object _view(Moves owner, cnp.dtype descr, int nd, void* data):
    """A read-only numpy array over ``n`` rows of the memory of ``owner``, which moves
    into a :class:`_Memory` (the view's base) at the first view."""
    return _array_over(_lent_memory(owner), descr, nd, owner.n, data)


cdef int share_moves(Moves target, Moves source) except -1:
    if target.cards_at != NULL or target.lent:
        raise ValueError("share_moves fills a new, empty Moves")
    target._memory = _lent_memory(source)
    target.cards_at, target.kinds_at, target.keys_at = source.cards_at, source.kinds_at, source.keys_at
    target.separate = source.separate
    target.n = source.n
    target.lent = True
    return 0


cdef object _array_over(_Memory memory, cnp.dtype descr, int nd, Py_ssize_t n, void* data):
    """A read-only C-contiguous array of ``n`` rows (``nd`` 2: rows of two) at ``data``,
    inside the memory ``memory`` owns, which is its base. Read-only for good (its base
    offers no writable buffer, so numpy refuses to make it writable): rows written into
    it would become moves that are no legal reading of their cards."""
    cdef cnp.npy_intp dims[2]
    dims[0] = n
    dims[1] = 2
    Py_INCREF(descr)  # the reference _new_array steals
    view = _new_array(<PyTypeObject*>cnp.ndarray, descr, nd, dims, NULL, data, cnp.NPY_ARRAY_CARRAY_RO, None)
    cnp.set_array_base(<cnp.ndarray>view, memory)
    return view


@cython.freelist(16)
cdef class Moves:
    """The moves of one :func:`generate` or :func:`classify` call.

    ``len(moves)`` is the number of moves; :attr:`kinds` (``uint8[n]``), :attr:`keys`
    (``uint8[n]``) and :attr:`cards` (``uint64[n, 2]``) are read-only numpy arrays over
    the object's memory, made on first access (the moves themselves are all computed by the
    call), so a caller who only counts the moves or reads one array pays for no other.
    The memory is one block (cards, then kinds, then keys): a leading list is written
    straight into it (grown by realloc when it fills), a following list copied in from
    the call's stack buffer; a following list that outgrew that buffer keeps the three
    arrays it grew in, without a copy.
    """

    def __cinit__(self):
        self.cards_at = NULL
        self.kinds_at = NULL
        self.keys_at = NULL
        self.separate = False
        self.lent = False
        self.n = 0

    def __dealloc__(self):
        if self.lent:  # a view was made: the memory is the _Memory's (a C flag: a collector's
            return     # tp_clear may have emptied _memory already)
        free(self.cards_at)
        if self.separate:
            free(self.kinds_at)
            free(self.keys_at)

    def __len__(self):
        return self.n

    cdef object kinds_array(self):
        if self._kinds is None:
            self._kinds = _view(self, _UINT8, 1, self.kinds_at)
        return self._kinds

    cdef object keys_array(self):
        if self._keys is None:
            self._keys = _view(self, _UINT8, 1, self.keys_at)
        return self._keys

    cdef object cards_array(self):
        if self._cards is None:
            self._cards = _view(self, _UINT64, 2, self.cards_at)
        return self._cards

    @property
    def kinds(self):
        """``uint8[n]``: the MoveType code of each move."""
        return self.kinds_array()

    @property
    def keys(self):
        """``uint8[n]``: the key of each move."""
        return self.keys_array()

    @property
    def cards(self):
        """``uint64[n, 2]``: the (once, twice) planes of each move."""
        return self.cards_array()

    def __reduce__(self):
        cdef Py_ssize_t n = self.n
        return _unpickle_moves, (n, (<char*>self.cards_at)[:16 * n] + (<char*>self.kinds_at)[:n]
                                 + (<char*>self.keys_at)[:n])

    def __repr__(self):
        return f"<Moves: {self.n} moves>"


def _unpickle_moves(n, data):
    """A :class:`Moves` from its pickled form: the number of moves and their bytes."""
    cdef Py_ssize_t count = n
    cdef const unsigned char[::1] raw = data
    # the count comes from the data: check it before multiplying (no overflow)
    if count < 0 or count > raw.shape[0] // MOVE_BYTES or raw.shape[0] != count * MOVE_BYTES:
        raise ValueError(f"bad pickled moves: {raw.shape[0]} bytes for {count} moves")
    cdef Moves moves = _new_moves(count)
    if count > 0:
        memcpy(moves.cards_at, &raw[0], <size_t>(count * MOVE_BYTES))
    return moves


cdef Moves _new_moves(Py_ssize_t n):
    """A :class:`Moves` of ``n`` moves in one block, not filled in."""
    cdef Moves moves = Moves.__new__(Moves)
    _give_block(moves, n)
    return moves


cdef int _give_block(Moves moves, Py_ssize_t n) except -1:
    """Give the empty ``moves`` one block of room for exactly ``n`` moves, not filled in."""
    cdef uint8_t* block = <uint8_t*>malloc(<size_t>(n if n > 0 else 1) * MOVE_BYTES)
    if block == NULL:
        raise MemoryError()
    moves.cards_at = <uint64_t*>block
    moves.kinds_at = block + 16 * n
    moves.keys_at = block + 17 * n
    moves.n = n
    return 0


cdef int renew_moves(Moves moves, Py_ssize_t n) except -1:
    # let go of the memory (freed unless lent to views, which keep it) and of the views
    if not moves.lent:
        free(moves.cards_at)
        if moves.separate:
            free(moves.kinds_at)
            free(moves.keys_at)
    moves.cards_at = NULL
    moves.kinds_at = NULL
    moves.keys_at = NULL
    moves.separate = False
    moves.lent = False
    moves.n = 0
    moves._kinds = None
    moves._keys = None
    moves._cards = None
    moves._memory = None
    return _give_block(moves, n)


cdef int _hold(Moves moves, MoveBuffer* b, Py_ssize_t n) except -1:
    """Make the empty ``moves`` hold the first ``n`` moves of ``b``: copied into one block
    when the buffer is the caller's (on its stack), else the buffer's own arrays, taken
    over (then ``b`` is left empty)."""
    cdef void* smaller
    if b.borrowed or n < b.n:
        _give_block(moves, n)
        if n > 0:
            memcpy(moves.cards_at, b.cards, <size_t>n * 2 * sizeof(uint64_t))
            memcpy(moves.kinds_at, b.kinds, <size_t>n)
            memcpy(moves.keys_at, b.keys, <size_t>n)
        return 0
    moves.separate = True
    moves.n = n
    # give back the room the list did not use (shrinking in place; on failure keep it all)
    smaller = realloc(b.cards, <size_t>(n if n > 0 else 1) * 2 * sizeof(uint64_t))
    moves.cards_at = <uint64_t*>smaller if smaller != NULL else b.cards
    smaller = realloc(b.kinds, <size_t>(n if n > 0 else 1))
    moves.kinds_at = <uint8_t*>smaller if smaller != NULL else b.kinds
    smaller = realloc(b.keys, <size_t>(n if n > 0 else 1))
    moves.keys_at = <uint8_t*>smaller if smaller != NULL else b.keys
    b.cards = NULL
    b.kinds = NULL
    b.keys = NULL
    b.n = 0
    b.cap = 0
    return 0


cdef int _hold_block(Moves moves, MoveBuffer* b, Py_ssize_t n) except -1:
    """Make the empty ``moves`` hold the ``n`` moves of ``b``, a buffer of one block
    (:func:`_block_init`): the block becomes the result's, kinds and keys moved down behind
    the cards and the room not used given back; ``b`` is left empty."""
    cdef uint8_t* block = b.block
    cdef void* smaller
    memmove(block + 16 * n, b.kinds, <size_t>n)
    memmove(block + 17 * n, b.keys, <size_t>n)
    smaller = realloc(block, <size_t>(n if n > 0 else 1) * MOVE_BYTES)
    if smaller != NULL:
        block = <uint8_t*>smaller
    b.block = NULL
    b.cards = NULL
    b.kinds = NULL
    b.keys = NULL
    b.n = 0
    b.cap = 0
    moves.cards_at = <uint64_t*>block
    moves.kinds_at = block + 16 * n
    moves.keys_at = block + 17 * n
    moves.n = n
    return 0
