# Included by _solve.pyx (one module: the search inlines across these files).
# The alpha-beta search itself (negamax over teams, fail-soft).

cdef inline void _make(SolveContext* c, PlayState* s, MoveBuffer* m, Py_ssize_t i, PlayUndo* undo,
                       uint64_t* saved) noexcept nogil:
    cdef int seat = s.to_act & 3
    saved[0] = c.held[seat]
    state_make(s, m.kinds[i], m.keys[i], m.cards[2 * i], m.cards[2 * i + 1], undo)
    if m.kinds[i] != K_PASS:
        _set_key(c, seat, s.once[seat], s.twice[seat])


cdef inline void _unmake(SolveContext* c, PlayState* s, PlayUndo* undo, const uint64_t* saved) noexcept nogil:
    state_unmake(s, undo)
    c.held[undo.seat & 3] = saved[0]


cdef inline int _bit_length(int64_t n) noexcept nogil:
    cdef int bits = 0
    while n > 0 and bits < 255:
        n >>= 1
        bits += 1
    return bits


cdef int _forced(SolveContext* c, PlayState* s, int depth, int team, int alpha, int beta) noexcept nogil:
    """The value of a position whose only action is the pass: its child's."""
    cdef PlayUndo undo
    cdef int v
    state_make(s, K_PASS, 0, 0, 0, &undo)   # a pass changes no hand: the key stays
    if _over(c, s):
        v = _outcome(c, s, team)
    elif (s.to_act & 1) == team:
        v = _search(c, s, depth + 1, alpha, beta)
    else:
        v = -_search(c, s, depth + 1, -beta, -alpha)
    state_unmake(s, &undo)
    return v


cdef int _search(SolveContext* c, PlayState* s, int depth, int alpha, int beta) noexcept nogil:
    """The value of ``s`` (a game that is on) for the team of its seat to act when it lies
    strictly inside (alpha, beta); else a bound on the side of the window it falls (fail-soft).
    Returns 0 once ``c.stopped`` is set (the caller drops the result)."""
    cdef int team = s.to_act & 1, lo, hi, v, best = WINDOW_LOW, child_alpha, out
    cdef int best_kind = -1, best_key = 0, best_size = 0, lower, upper
    cdef uint32_t meta = 0, table_move = 0
    cdef uint64_t h = 0, lo_key = 0, hi_key = 0
    cdef uint64_t saved[2]
    cdef TableEntry* e
    cdef Ply* p
    cdef Py_ssize_t n, i
    cdef PlayUndo undo
    cdef int64_t nodes_before = c.nodes
    c.nodes += 1
    if (c.nodes & (POLL_EVERY - 1)) == 0 or (c.max_nodes > 0 and c.nodes >= c.max_nodes):
        if _poll(c):
            return 0
    _range(c, s, team, &lo, &hi)
    if lo >= beta:
        return lo
    if hi <= alpha:
        return hi
    p = _ply(c, depth)
    if p == NULL:
        c.stopped = STOP_MEMORY
        return 0
    if s.last_kind != K_PASS:
        # following: the actions first (few, and often only the pass: then the position
        # is its child's, which the table holds, and this one is not stored)
        n = state_actions(s, &p.moves)
        if n < 0 or _ply_room(p, n) != 0:
            c.stopped = STOP_MEMORY
            return 0
        if n >= POLL_MOVES and _poll(c):
            return 0
        if n == 1:
            return _forced(c, s, depth, team, alpha, beta)
    if c.use_table:
        meta = _meta(c, s)
        _key(c, &lo_key, &hi_key)
        h = _hash(lo_key, hi_key, meta)
        e = _probe(c, h, lo_key, hi_key, meta)
        if e != NULL:
            if e.lower > lo:
                lo = e.lower
            if e.upper < hi:
                hi = e.upper
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            if e.move_kind != 0xFF:
                table_move = _pack(e.move_kind, e.move_key, e.move_size)
    # values outside [lo, hi] are impossible: narrow the window to them
    if alpha < lo - 1:
        alpha = lo - 1
    if beta > hi:
        beta = hi
    if s.last_kind == K_PASS:
        n = state_actions(s, &p.moves)
        if n < 0 or _ply_room(p, n) != 0:
            c.stopped = STOP_MEMORY
            return 0
        if n >= POLL_MOVES and _poll(c):  # a huge hand: its nodes are slow (limits held to a node or so)
            return 0
    # a proof by running out, where its bound cuts off
    v = _pair_bound(c, s, team)
    out = 0
    if (v >= beta or v >= hi) and v > lo and v > _run_bound(c, s, team):
        out = _pair_out(c, s, &p.moves, n)
        if out == PAIR_OUT:
            if c.use_table:
                _store(c, h, lo_key, hi_key, meta, v, hi, -1, 0, 0, _bit_length(c.nodes - nodes_before))
            return v
    v = _run_bound(c, s, team)
    if (v >= beta or v >= hi) and v > lo and (out == SEAT_OUT or _plays_out(s, &p.moves, n, &c.leads, True)):
        if c.use_table:
            _store(c, h, lo_key, hi_key, meta, v, hi, -1, 0, 0, _bit_length(c.nodes - nodes_before))
        return v
    _order_moves(s, p, n, table_move)
    while True:
        i = _next_move(p, n)
        if i < 0:
            break
        _make(c, s, &p.moves, i, &undo, saved)
        if _over(c, s):
            v = _outcome(c, s, team)
        else:
            child_alpha = alpha if alpha > best else best
            if (s.to_act & 1) == team:
                v = _search(c, s, depth + 1, child_alpha, beta)
            else:
                v = -_search(c, s, depth + 1, -beta, -child_alpha)
        _unmake(c, s, &undo, saved)
        if c.stopped:
            return 0
        if v > best:
            best = v
            best_kind = p.moves.kinds[i]
            best_key = p.moves.keys[i]
            best_size = hand_size(p.moves.cards[2 * i], p.moves.cards[2 * i + 1])
            if best >= beta:   # beta <= hi: also the top of the range reached
                break
    if c.use_table:
        lower = lo
        upper = hi
        if best >= beta:
            lower = best
        elif best <= alpha:
            upper = best
        else:
            lower = best
            upper = best
        if lower < lo:
            lower = lo
        if upper > hi:
            upper = hi
        _store(c, h, lo_key, hi_key, meta, lower, upper, best_kind, best_key, best_size, _bit_length(c.nodes - nodes_before))
    return best
