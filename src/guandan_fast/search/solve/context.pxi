# Included by _solve.pyx (one module: the search inlines across these files).
# The solve context: its allocation, the limits, the per-depth move buffers and the result's arrays.

cdef int solve_context_init(SolveContext* c) noexcept nogil:
    memset(c, 0, sizeof(SolveContext))
    c.plies = <Ply*>calloc(MAX_PLY, sizeof(Ply))
    if c.plies == NULL or movebuf_init(&c.leads, 64) != 0:
        return -1
    return _table_alloc(c, TABLE_BITS_MIN)


cdef void solve_context_free(SolveContext* c) noexcept nogil:
    cdef int k
    if c.plies != NULL:
        for k in range(c.nplies):
            movebuf_free(&c.plies[k].moves)
            free(c.plies[k].scores)
            free(c.plies[k].seen)
    free(c.plies)
    movebuf_free(&c.leads)
    free(c.table_memory)
    free(c.lowers)
    free(c.uppers)
    free(c.rows)
    free(c.order)
    memset(c, 0, sizeof(SolveContext))


cdef void solve_limits_none(SolveLimits* limits) noexcept nogil:
    limits.max_nodes = 0
    limits.time_ms = 0
    limits.stop = NULL
    limits.check_signals = 0
    limits.use_table = 1
    limits.table_bits = 0
    limits.all_actions = 1


cdef Ply* _ply(SolveContext* c, int depth) noexcept nogil:
    """The buffers of a depth (made on first use); NULL when out of memory."""
    if depth >= MAX_PLY:
        return NULL
    while c.nplies <= depth:
        if movebuf_init(&c.plies[c.nplies].moves, 64) != 0:
            return NULL
        c.nplies += 1
    return &c.plies[depth]


cdef int _ply_room(Ply* p, Py_ssize_t n) noexcept nogil:
    """Room for the scores and the dedupe set of n actions; 0, or -1 when out of memory."""
    cdef Py_ssize_t room = p.room if p.room > 0 else 64
    cdef int32_t* scores
    cdef uint64_t* seen
    if n <= p.room:
        return 0
    while room < n:
        room *= 2
    scores = <int32_t*>realloc(p.scores, <size_t>room * sizeof(int32_t))
    if scores == NULL:
        return -1
    p.scores = scores
    seen = <uint64_t*>realloc(p.seen, <size_t>(2 * room) * sizeof(uint64_t))
    if seen == NULL:
        return -1
    p.seen = seen
    p.room = room
    return 0


cdef int _result_room(SolveContext* c, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t room = c.room if c.room > 0 else 64
    cdef void* grown
    if n <= c.room:
        return 0
    while room < n:
        room *= 2
    grown = realloc(c.lowers, <size_t>room)
    if grown == NULL:
        return -1
    c.lowers = <int8_t*>grown
    grown = realloc(c.uppers, <size_t>room)
    if grown == NULL:
        return -1
    c.uppers = <int8_t*>grown
    grown = realloc(c.rows, <size_t>room * sizeof(int32_t))
    if grown == NULL:
        return -1
    c.rows = <int32_t*>grown
    grown = realloc(c.order, <size_t>room * sizeof(int32_t))
    if grown == NULL:
        return -1
    c.order = <int32_t*>grown
    c.room = room
    return 0
