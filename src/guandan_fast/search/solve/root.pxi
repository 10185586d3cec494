# Included by _solve.pyx (one module: the search inlines across these files).
# The root: null-window tests of each action, the C API (solve_state, solve_line).

cdef void _begin(SolveContext* c, const PlayState* s, int objective, const SolveLimits* limits) noexcept nogil:
    cdef int seat, at
    cdef uint64_t k
    # every solve starts with an empty table of the same size (the memory of a larger one
    # is kept to grow into): no result depends on an earlier solve
    c.table_bits = TABLE_BITS_MIN
    c.mask = (<uint64_t>1 << TABLE_BITS_MIN) - 1
    if c.stamp == 0xFFFFFFFFU:
        for k in range(<uint64_t>1 << c.capacity_bits):
            c.table[k].stamp = 0
        c.stamp = 0
    c.stamp += 1
    c.stored = 0
    c.table_bits_max = limits.table_bits if TABLE_BITS_MIN <= limits.table_bits <= TABLE_BITS_MAX else TABLE_BITS_MAX
    c.objective = objective
    c.use_table = limits.use_table
    c.stopped = STOP_NONE
    c.nodes = 0
    c.max_nodes = limits.max_nodes if limits.max_nodes > 0 else 0
    c.stop = limits.stop
    c.check_signals = limits.check_signals
    c.deadline = 0
    c.next_signal_check = 0
    if limits.time_ms > 0 or limits.check_signals:
        c.next_signal_check = gf_now_ms()
        if limits.time_ms > 0:
            c.deadline = c.next_signal_check + limits.time_ms
        c.next_signal_check += SIGNAL_EVERY_MS
    at = 0
    for seat in range(4):   # the table key: one bit per card each seat holds now
        c.root_once[seat] = s.once[seat]
        c.root_twice[seat] = s.twice[seat]
        c.offset[seat] = at
        at += hand_size(s.once[seat], s.twice[seat])
        _set_key(c, seat, s.once[seat], s.twice[seat])


cdef inline int _test(SolveContext* c, PlayState* s, MoveBuffer* m, Py_ssize_t i, int team, int t) noexcept nogil:
    """Action i's value for ``team`` when >= t, else a bound < t (fail-soft)."""
    cdef PlayUndo undo
    cdef uint64_t saved[2]
    cdef int v
    _make(c, s, m, i, &undo, saved)
    if _over(c, s):
        v = _outcome(c, s, team)
    elif (s.to_act & 1) == team:
        v = _search(c, s, 1, t - 1, t)
    else:
        v = -_search(c, s, 1, -t, -t + 1)
    _unmake(c, s, &undo, saved)
    return v


cdef inline void _settle(int8_t* lower, int8_t* upper, int v, int t) noexcept nogil:
    """Tighten an action's bounds with the outcome v of the test ">= t" (no value is 0)."""
    if v >= t:
        if v > lower[0]:
            lower[0] = <int8_t>(v if v != 0 else 1)
    elif v < upper[0]:
        upper[0] = <int8_t>(v if v != 0 else -1)


cdef int solve_state(SolveContext* c, const PlayState* state, int objective, const SolveLimits* limits,
                     SolveResult* r) noexcept nogil:
    cdef PlayState s = state[0]
    cdef int team = s.to_act & 1, lo, hi, t, v, root_lo, root_hi
    cdef Ply* p
    cdef Py_ssize_t n, i, j, k, reps = 0
    cdef PlayUndo undo
    cdef uint64_t saved[2]
    cdef bint exact, tested
    cdef int phase
    memset(r, 0, sizeof(SolveResult))
    r.best = -1
    _begin(c, &s, objective, limits)
    p = _ply(c, 0)
    n = state_actions(&s, &p.moves) if p != NULL else -1
    if n < 0 or _ply_room(p, n) != 0 or _result_room(c, n) != 0:
        r.stopped = STOP_MEMORY
        return -1
    if n == 0:   # the deal is done: nothing to solve
        return -2
    r.actions = n
    r.lowers = c.lowers
    r.uppers = c.uppers
    # the actions in search order, one of each group of equivalent ones
    _order_moves(&s, p, n, 0)
    for i in range(n):   # an equivalent action shares the row of the one kept
        c.rows[i] = <int32_t>i if p.scores[i] >= 0 else -2 - p.scores[i]
    reps = _sorted_order(p, n, c.order)
    # the bounds every action starts with: its game's end, or the range after it (with
    # "first" and a player already out, every action ends the game: its first is known)
    for k in range(reps):
        i = c.order[k]
        _make(c, &s, &p.moves, i, &undo, saved)
        if _over(c, &s):
            lo = hi = _outcome(c, &s, team)
        else:
            _range(c, &s, s.to_act & 1, &lo, &hi)
            if (s.to_act & 1) != team:
                lo, hi = -hi, -lo
        _unmake(c, &s, &undo, saved)
        c.lowers[i] = <int8_t>lo
        c.uppers[i] = <int8_t>hi
    # null-window tests: every action's sign first (phase 0), then the magnitudes, one test
    # per action and sweep
    phase = 0
    while phase < 2 and not c.stopped:
        tested = False
        root_lo = WINDOW_LOW
        for k in range(reps):
            if c.lowers[c.order[k]] > root_lo:
                root_lo = c.lowers[c.order[k]]
        for k in range(reps):
            i = c.order[k]
            lo = c.lowers[i]
            hi = c.uppers[i]
            if lo == hi or (not limits.all_actions and hi <= root_lo):
                continue
            if lo < 0 < hi:
                t = 1
            elif phase == 0:
                continue
            elif lo > 0:
                t = lo + 1
            else:
                t = hi
            if not limits.all_actions and t <= root_lo:
                t = root_lo + 1
            v = _test(c, &s, &p.moves, i, team, t)
            if c.stopped:
                break
            _settle(&c.lowers[i], &c.uppers[i], v, t)
            if c.lowers[i] > root_lo:
                root_lo = c.lowers[i]
            tested = True
        if not tested:
            phase += 1
    # the result
    exact = True
    root_lo = WINDOW_LOW
    root_hi = WINDOW_LOW
    for i in range(n):
        j = c.rows[i]
        c.lowers[i] = c.lowers[j]
        c.uppers[i] = c.uppers[j]
        if c.lowers[i] > root_lo:
            root_lo = c.lowers[i]
            r.best = <int>i
        if c.uppers[i] > root_hi:
            root_hi = c.uppers[i]
    for i in range(n):
        if c.lowers[i] != c.uppers[i] and (limits.all_actions or c.uppers[i] > root_lo):
            exact = False
    r.lower = root_lo
    r.upper = root_hi
    r.exact = exact and root_lo == root_hi
    r.stopped = c.stopped
    r.nodes = c.nodes
    return -1 if c.stopped == STOP_MEMORY else 0


cdef bint _equivalent(const PlayState* s, MoveBuffer* m, Py_ssize_t i, Py_ssize_t j) noexcept nogil:
    """Whether actions i and j of the seat to act lead to the same position (the same kind
    and key, the same rank counts, from a hand that can form no straight flush)."""
    cdef uint64_t wild = wild_bit(s.level), lo_i, hi_i, lo_j, hi_j
    if m.kinds[i] != m.kinds[j] or m.keys[i] != m.keys[j]:
        return False
    hand_lanes(m.cards[2 * i], m.cards[2 * i + 1], wild, &lo_i, &hi_i)
    hand_lanes(m.cards[2 * j], m.cards[2 * j + 1], wild, &lo_j, &hi_j)
    return lo_i == lo_j and hi_i == hi_j


cdef Py_ssize_t solve_line(SolveContext* c, const PlayState* state, int value, int first_row,
                           LineAction* line) noexcept nogil:
    cdef PlayState s = state[0]
    cdef Ply* p = _ply(c, 0)
    cdef Py_ssize_t n, i, count = 0
    cdef int team, seat
    cdef PlayUndo undo
    cdef uint64_t saved[2]
    cdef bint found
    if p == NULL:
        return -1
    for seat in range(4):
        _set_key(c, seat, s.once[seat], s.twice[seat])
    while not _over(c, &s) and not c.stopped and count < MAX_ACTIONS:
        team = s.to_act & 1
        n = state_actions(&s, &p.moves)
        if n < 0 or _ply_room(p, n) != 0:
            return -1
        found = False
        if count == 0 and 0 <= first_row < n:
            i = first_row
            found = True
        else:
            _order_moves(&s, p, n, 0)
            while not c.stopped:
                i = _next_move(p, n)
                if i < 0:
                    break
                if _test(c, &s, &p.moves, i, team, value) >= value and not c.stopped:
                    found = True
                    break
        if not found:
            break
        line[count].seat = s.to_act
        line[count].kind = p.moves.kinds[i]
        line[count].key = p.moves.keys[i]
        line[count].once = p.moves.cards[2 * i]
        line[count].twice = p.moves.cards[2 * i + 1]
        count += 1
        _make(c, &s, &p.moves, i, &undo, saved)
        if not _over(c, &s) and (s.to_act & 1) != team:
            value = -value
    return count
