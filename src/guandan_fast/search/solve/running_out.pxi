# Included by _solve.pyx (one module: the search inlines across these files).
# Running out: the proof that a seat goes out before any opponent can play.

cdef inline int _run_bound(SolveContext* c, const PlayState* s, int team) noexcept nogil:
    """The least value ``team`` gets when its seat to act goes out before every other seat
    still holding cards but its partner: first (+1; with "points" at least +1), second
    after a partner (+3) or after an opponent (-2: that team gets at most 2), third
    (+2 after the partner, or -1)."""
    if c.objective == OBJECTIVE_FIRST or s.nfinish == 0:
        return 1
    if (s.finish[0] & 1) == team:
        return 3 if s.nfinish == 1 else 2
    return -2 if s.nfinish == 1 else -1


cdef inline int _pair_bound(SolveContext* c, const PlayState* s, int team) noexcept nogil:
    """The least value ``team`` gets when its seat to act and then its partner go out before
    every opponent still holding cards: a 1-2 (+3) when nobody is out yet, third and last
    behind an opponent's first (-1: that team's partner is last); else what going out
    next gives already (_run_bound)."""
    if c.objective == OBJECTIVE_POINTS and s.nfinish == 0:
        return 3
    if c.objective == OBJECTIVE_POINTS and s.nfinish == 1 and (s.finish[0] & 1) != team:
        return -1
    return _run_bound(c, s, team)


cdef inline bint _is_move(MoveBuffer* m, Py_ssize_t n, uint64_t once, uint64_t twice) noexcept nogil:
    """Whether one of the n moves has exactly these cards."""
    cdef Py_ssize_t i
    for i in range(n):
        if m.cards[2 * i] == once and m.cards[2 * i + 1] == twice and m.kinds[i] != K_PASS:
            return True
    return False


cdef bint _runs(MoveBuffer* m, Py_ssize_t n, const int32_t* sure, int count, int start,
                uint64_t once, uint64_t twice, bint last_free, int* budget) noexcept nogil:
    """Whether the hand (once, twice) splits into unbeatable moves sure[j] (j >= start:
    the order they are played in does not matter) and, when ``last_free``, one last move
    of the list that may be any."""
    cdef int j
    cdef Py_ssize_t i
    cdef uint64_t mo, mt
    if once == 0 or (last_free and _is_move(m, n, once, twice)):
        return True
    for j in range(start, count):
        budget[0] -= 1
        if budget[0] < 0:
            return False
        i = sure[j]
        mo = m.cards[2 * i]
        mt = m.cards[2 * i + 1]
        if (mo & ~once) or (mt & ~twice):
            continue
        if _runs(m, n, sure, count, j, (once & ~mo) | (twice & ~mt), twice & ~mo, last_free, budget):
            return True
    return False


cdef inline bint _unbeatable(const PlayState* s, int kind, int key, int size) noexcept nogil:
    """Whether no opponent of the seat to act can beat the move (on their hands now)."""
    cdef int seat = s.to_act & 3, left = seat ^ 1, right = seat ^ 3
    if s.once[left] and has_legal_follow_c(s.once[left], s.twice[left], s.level, kind, key, size) != 0:
        return False
    if s.once[right] and has_legal_follow_c(s.once[right], s.twice[right], s.level, kind, key, size) != 0:
        return False
    return True


cdef int _unbeatable_rows(const PlayState* s, MoveBuffer* m, Py_ssize_t first, Py_ssize_t n,
                          int32_t* sure) noexcept nogil:
    """The rows first..n-1 of ``m`` that no opponent can beat, into ``sure`` (at most
    RUN_MOVES); their number. The answer depends on a move's kind, key and size only, and
    a list holds the moves of one kind and key mostly together (a full house's key comes
    once per number of wildcards in its triple): a row like the one before it takes its
    answer."""
    cdef int count = 0, kind, key, size, seen_kind = -1, seen_key = -1, seen_size = -1
    cdef bint unbeaten = False
    cdef Py_ssize_t i
    for i in range(first, n):
        kind = m.kinds[i]
        key = m.keys[i]
        size = hand_size(m.cards[2 * i], m.cards[2 * i + 1])
        if kind != seen_kind or key != seen_key or size != seen_size:
            unbeaten = _unbeatable(s, kind, key, size)
            seen_kind, seen_key, seen_size = kind, key, size
        if unbeaten:
            sure[count] = <int32_t>i
            count += 1
            if count == RUN_MOVES:
                break
    return count


cdef bint _plays_out(const PlayState* s, MoveBuffer* m, Py_ssize_t n, MoveBuffer* lead, bint last_free) noexcept nogil:
    """Whether the seat to act (its actions the n rows of ``m``) can play out its hand
    before any opponent plays a card: leading, its hand splits into moves no opponent can
    beat and (``last_free``) one last move; following, it first beats the move to beat
    with one no opponent can beat, then leads the rest that way. Each unbeatable move wins
    its trick — the opponents must pass, the partner passes, the hands of the others do
    not change — so the seat leads again; the last move empties its hand. Without
    ``last_free`` every move is unbeatable, the last one too: then its partner leads next
    (接风). A bounded search: False may be a miss, True is a proof. ``lead``: room for the
    follower's leading moves."""
    cdef int seat = s.to_act & 3, count, budget = RUN_BUDGET, first_count
    cdef int32_t sure[RUN_MOVES]
    cdef int32_t beats[RUN_MOVES]
    cdef Py_ssize_t nl, k, i
    cdef uint64_t once = s.once[seat], twice = s.twice[seat], mo, mt
    if s.last_kind == K_PASS:
        count = _unbeatable_rows(s, m, 0, n, sure)
        return (count > 0 or last_free) and _runs(m, n, sure, count, 0, once, twice, last_free, &budget)
    first_count = _unbeatable_rows(s, m, 1, n, beats)   # row 0 is the pass
    if first_count == 0:
        return False
    nl = generate_into(once, twice, s.level, K_PASS, 0, 0, False, lead)   # its leading moves
    if nl <= 0:
        return False
    count = _unbeatable_rows(s, lead, 0, nl, sure)
    for k in range(first_count):
        i = beats[k]
        mo = m.cards[2 * i]
        mt = m.cards[2 * i + 1]
        if _runs(lead, nl, sure, count, 0, (once & ~mo) | (twice & ~mt), twice & ~mo, last_free, &budget):
            return True
        if budget < 0:
            return False
    return False


cdef int _pair_out(SolveContext* c, const PlayState* s, MoveBuffer* m, Py_ssize_t n) noexcept nogil:
    """PAIR_OUT when the seat to act plays out its hand with unbeatable moves only
    (_plays_out), and then its partner, leading next (接风) with its hand and the
    opponents' as they are now, plays out its own the same way: both go out before any
    opponent plays. SEAT_OUT when only the first half was proven (the seat plays out,
    its last move unbeatable too: a proof for _plays_out with a free last move, which
    need not be searched again); 0 otherwise."""
    cdef int partner = (s.to_act & 3) ^ 2
    cdef PlayState view
    cdef Py_ssize_t np
    if s.once[partner] == 0 or not _plays_out(s, m, n, &c.leads, False):
        return 0
    np = generate_into(s.once[partner], s.twice[partner], s.level, K_PASS, 0, 0, False, &c.leads)
    if np <= 0:
        return SEAT_OUT
    view = s[0]   # the partner leading, against the same opponents and their hands
    state_lead(&view, partner)
    return PAIR_OUT if _plays_out(&view, &c.leads, np, &c.leads, True) else SEAT_OUT
