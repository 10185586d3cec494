# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""Native random playouts: the rest of a deal played by uniformly random legal actions.

Everything between a call and its result runs in C without the GIL: a seeded PRNG
(splitmix64, exactly uniform draws), the move generator of ``_movegen``
(``generate_into``), the trick logic of RULES.md §7 (players out are skipped, 接风, a
leader never passes) and the finishing order (a deal ends on a 1-2 finish or with three
players out). The Python face is :meth:`guandan_fast.engine.deal.Deal.playout`; this module
only sees bit planes.

A *state* is what :class:`guandan_fast.engine.deal.Deal` holds in its play phase: the four
hands as (once, twice) planes, the level, the seat to act, the move to beat as
(kind, key, size) — kind 0 when the seat to act leads —, the seat that made it
(``greater``, -1 when leading), the passes since, and the seats already out in order.

Each turn the seat to act draws uniformly among its legal actions: its complete move
list from ``generate_into`` — the list ``legal_moves(hand, level, last)`` returns — and,
when it follows, the pass. A seat's leading list is kept while its hand is unchanged: a
batch of playouts from one state shares the lists of its first turns (in ``random_deals``
every deal is fresh and the cache never hits; checking it costs two comparisons a lead).

Playout ``i`` of a batch with seed ``s`` is the playout with seed ``s + i``.

``policy=1`` plays the greedy rules instead (see ``_greedy``), a cheap rollout for search
(``PIMCAgent``); ``policy=2`` plays MinPlaysAgent's rules exactly (see ``_planned``), on
the exact solver of ``_solver`` (its C face, ``_solver.pxd``). Both draw nothing, so a
batch plays the game once and repeats its result.

``world_playouts`` runs a whole search step in one call: the same state with the hands
replaced by each of several sampled worlds, each of several candidate moves played, then
playouts to the end.
"""

from libc.stdint cimport uint8_t, int8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free

import numpy as np
cimport numpy as cnp

from cpython.pyport cimport PY_SSIZE_T_MAX

from guandan_fast.engine._bitops cimport gf_popcount64, gf_ctz64
from guandan_fast.engine._random cimport rng_next, rng_below, shuffle_cards, add_card
from guandan_fast.engine._movegen cimport (
    FULL_PLANE,
    K_PASS,
    K_STRAIGHT_FLUSH,
    MoveBuffer,
    as_integer,
    bomb_tier,
    check_args,
    generate_into,
    movebuf_free,
    movebuf_init,
    wild_bit,
)
from guandan_fast.search._minplays cimport (
    Solver,
    hash_slot,
    solver_count_within,
    solver_decompose,
    solver_free,
    solver_init,
    solver_prepare,
)

cnp.import_array()

cdef enum:
    MAX_STEPS = 1024        # a deal has at most 108 plays, each followed by at most 3 passes
    ERR_MEMORY = -1
    ERR_GENERATOR = -2
    ERR_STUCK = -3
    ERR_WORLD = -4          # a world's hands do not fit the state (see _check_world)


cdef inline int _size(uint64_t once, uint64_t twice) noexcept nogil:
    return gf_popcount64(once) + gf_popcount64(twice)


# -- state, move-list cache, action log ---------------------------------------------------------
cdef struct State:
    uint64_t once[4]
    uint64_t twice[4]
    int level
    int to_act
    int last_kind
    int last_key
    int last_size
    int greater
    int passes
    int finish[4]
    int nfinish
    int done


cdef struct Plan:
    # One optimal decomposition of a hand (the "minplays" policy), valid while the seat's
    # planes match.
    uint64_t once
    uint64_t twice
    int valid
    int count
    uint8_t kinds[108]
    uint8_t keys[108]
    uint64_t cards[216]


cdef enum:
    MEMO_PLAYS = 16             # decompositions of at most this many plays are remembered
    MEMO_BITS = 11              # 2048 slots, direct-mapped


cdef struct Memo:
    # A remembered decomposition (count 0: an empty slot)
    uint64_t once
    uint64_t twice
    int count
    uint8_t kinds[MEMO_PLAYS]
    uint8_t keys[MEMO_PLAYS]
    uint64_t cards[2 * MEMO_PLAYS]


cdef struct Cache:
    # The leading move list of each seat, valid while the seat's planes match. A cache
    # serves one call, whose deals are all played at one level.
    MoveBuffer buf[4]
    uint64_t once[4]
    uint64_t twice[4]
    int valid[4]
    MoveBuffer scratch      # the moves of the seat following now
    int planning            # the solver and plans below are in use ("minplays" policy)
    Solver solver
    Plan plans[4]
    int ready               # the solver is prepared for the hand (ready_once, ready_twice)
    uint64_t ready_once
    uint64_t ready_twice
    Memo* memo              # the hands decomposed in this call (one call: one level)


cdef struct Log:
    # One row per action (a NULL Log: not recording).
    int8_t* seats
    uint8_t* kinds
    uint8_t* keys
    uint64_t* cards         # 2 per action: once, twice
    int n


cdef int _cache_init(Cache* c, int policy) noexcept nogil:
    cdef int seat, failed = 0
    c.planning = 0
    c.ready = 0
    for seat in range(4):
        c.valid[seat] = 0
        c.plans[seat].valid = 0
        if movebuf_init(&c.buf[seat], 512) != 0:
            failed = 1
    if movebuf_init(&c.scratch, 256) != 0:
        failed = 1
    if policy == POLICY_MINPLAYS and not failed:
        c.memo = <Memo*>calloc(1 << MEMO_BITS, sizeof(Memo))
        if c.memo == NULL:
            failed = 1
        elif solver_init(&c.solver) != 0:
            free(c.memo)
            failed = 1
        else:
            c.planning = 1
    if failed:
        _cache_free(c)
        return ERR_MEMORY
    return 0


cdef void _cache_free(Cache* c) noexcept nogil:
    cdef int seat
    for seat in range(4):
        movebuf_free(&c.buf[seat])
    movebuf_free(&c.scratch)
    if c.planning:
        solver_free(&c.solver)
        free(c.memo)
        c.planning = 0


cdef inline MoveBuffer* _leading(Cache* c, State* s, int seat) noexcept nogil:
    """The complete leading move list of ``seat``'s hand (cached); NULL on failure."""
    cdef Py_ssize_t n
    if not (c.valid[seat] and c.once[seat] == s.once[seat] and c.twice[seat] == s.twice[seat]):
        n = generate_into(s.once[seat], s.twice[seat], s.level, 0, 0, 0, False, &c.buf[seat])
        if n < 0:
            c.valid[seat] = 0
            return NULL
        c.valid[seat] = 1
        c.once[seat] = s.once[seat]
        c.twice[seat] = s.twice[seat]
    return &c.buf[seat]


cdef inline void _log(Log* log, int seat, int kind, int key, uint64_t mo, uint64_t mt) noexcept nogil:
    if log == NULL or log.n >= MAX_STEPS:
        return
    log.seats[log.n] = <int8_t>seat
    log.kinds[log.n] = <uint8_t>kind
    log.keys[log.n] = <uint8_t>key
    log.cards[2 * log.n] = mo
    log.cards[2 * log.n + 1] = mt
    log.n += 1


# -- the rules of play (RULES.md §7), as guandan_fast.engine.deal.Deal -------------------------------
cdef inline int _next_active(State* s, int seat) noexcept nogil:
    cdef int step, other
    for step in range(1, 4):
        other = (seat + step) & 3
        if s.once[other]:
            return other
    return seat


cdef inline bint _check_end(State* s) noexcept nogil:
    """End the deal on a 1-2 finish (the losers listed in turn order after the second
    finisher) or when three players are out."""
    cdef int after
    if s.nfinish >= 2 and s.finish[1] == (s.finish[0] ^ 2):
        after = s.finish[1]
        while s.nfinish < 4:
            after = _next_active(s, after)
            s.finish[s.nfinish] = after
            s.nfinish += 1
    elif s.nfinish == 3:
        s.finish[3] = 6 - s.finish[0] - s.finish[1] - s.finish[2]  # the seats sum to 0+1+2+3
        s.nfinish = 4
    else:
        return False
    s.done = 1
    return True


cdef inline void _play(State* s, int kind, int key, uint64_t mo, uint64_t mt) noexcept nogil:
    cdef int seat = s.to_act
    cdef uint64_t o = s.once[seat], t = s.twice[seat]
    s.once[seat] = (o & ~mo) | (t & ~mt)
    s.twice[seat] = t & ~mo
    s.last_kind = kind
    s.last_key = key
    s.last_size = _size(mo, mt)
    s.greater = seat
    s.passes = 0
    if s.once[seat] == 0:
        s.finish[s.nfinish] = seat
        s.nfinish += 1
        if _check_end(s):
            return
    s.to_act = _next_active(s, seat)


cdef inline void _pass(State* s) noexcept nogil:
    cdef int seat = s.to_act, other, others = 0, greater = s.greater
    s.passes += 1
    for other in range(4):
        if other != greater and s.once[other]:
            others += 1
    if s.passes < others:
        s.to_act = _next_active(s, seat)
        return
    # Everyone still holding cards passed: the trick ends.
    s.last_kind = K_PASS
    s.last_key = 0
    s.last_size = 0
    s.greater = -1
    s.passes = 0
    if s.once[greater]:
        s.to_act = greater
    else:  # 接风: the partner of the player who went out leads. It always holds cards: had it
        # been out already, ``greater`` going out would have ended the deal (1-2, or three out),
        # and _state_from refuses states of a deal that is over, so there is no other branch.
        s.to_act = greater ^ 2


# -- the greedy policy -------------------------------------------------------------------------
# A cheap rule of thumb for search rollouts, close to how MinPlaysAgent plays without its
# exact solver: keep bombs, the wildcard and whole ranks together; lead low cards in the
# largest combination; follow an opponent with the cheapest move that beats, a partner not
# at all; bomb only when an opponent is about to finish. Deterministic (no draw).
cdef enum:
    POLICY_RANDOM = 0
    POLICY_GREEDY = 1
    POLICY_MINPLAYS = 2
    THREAT_LAST = 6             # the seat to beat holds at most this many cards ...
    THREAT_ANY = 3              # ... or any opponent at most this many: bombing is worth it
    COST_BREAKS = 1 << 15       # the move spends the wildcard or cuts a bomb
    COST_SPLITS = 1 << 11       # per rank the move takes only part of
    COST_BOMB = 1 << 20         # above any plain move; the ladder below it


cdef inline int _power(int card, int level) noexcept nogil:
    """The card's rank order at ``level``: 2..A as 0..12 skipping the level, the level 13,
    the jokers 14 and 15."""
    if card >= 52:
        return card - 38
    if (card >> 2) == level - 2:
        return 13
    return card >> 2


cdef inline int _lowest_power(uint64_t cards, int level) noexcept nogil:
    cdef int low = 16, p
    while cards:
        p = _power(gf_ctz64(cards), level)
        if p < low:
            low = p
        cards &= cards - 1
    return low


cdef inline uint64_t _bomb_ranks(uint64_t once, uint64_t twice) noexcept nogil:
    """The card bits of every rank of which the hand holds four cards or more."""
    cdef uint64_t out = 0, nibble
    cdef int r
    for r in range(13):
        nibble = 0xFULL << (4 * r)
        if _size(once & nibble, twice & nibble) >= 4:
            out |= nibble
    return out


cdef inline int _bomb_cost(int kind, int key, int size) noexcept nogil:
    """A bomb's place on the ladder (cheapest first)."""
    return COST_BOMB + 64 * bomb_tier(kind, size) + key


cdef inline int _splits(uint64_t once, uint64_t twice, uint64_t mo, uint64_t mt, uint64_t wild) noexcept nogil:
    """How many ranks (jokers apart) the move takes only part of, the wildcard aside."""
    cdef int card, count = 0
    cdef uint64_t group, left = mo & ~wild
    while left:
        card = gf_ctz64(left)
        group = ((1ULL << card) if card >= 52 else (0xFULL << (card & ~3))) & ~wild
        if _size(mo & group, mt & group) < _size(once & group, twice & group):
            count += 1
        left &= ~group
    return count


cdef inline int _greedy_cost(State* s, int seat, int hand_size, MoveBuffer* m, Py_ssize_t i, uint64_t bombs,
                             uint64_t wild, bint leading) noexcept nogil:
    """The cost of move ``i`` (lower is better); -1 when it empties the hand."""
    cdef int kind = m.kinds[i], key = m.keys[i], size, cost = 0
    cdef uint64_t mo = m.cards[2 * i], mt = m.cards[2 * i + 1]
    size = _size(mo, mt)
    if size == hand_size:
        return -1
    if kind >= K_STRAIGHT_FLUSH:
        return _bomb_cost(kind, key, size)
    if (mo & wild) or (mo & bombs):
        cost += COST_BREAKS
    if leading:
        return cost + 16 * _lowest_power(mo, s.level) + (15 - size)
    return cost + COST_SPLITS * _splits(s.once[seat], s.twice[seat], mo, mt, wild) + 64 * key + _lowest_power(mo, s.level)


cdef inline bint _threatened(State* s, int seat) noexcept nogil:
    """Whether an opponent of ``seat`` is about to finish: the seat to beat holds at most
    THREAT_LAST cards, or an opponent in play at most THREAT_ANY."""
    cdef int other
    if _size(s.once[s.greater], s.twice[s.greater]) <= THREAT_LAST:
        return True
    for other in range(1, 4, 2):  # the two opponents, seat + 1 and seat + 3
        other = (seat + other) & 3
        if s.once[other] and _size(s.once[other], s.twice[other]) <= THREAT_ANY:
            return True
    return False


cdef Py_ssize_t _greedy(State* s, MoveBuffer* m, bint leading) noexcept nogil:
    """The greedy policy's choice among the ``m.n`` moves of the seat to act; -1: pass."""
    cdef int seat = s.to_act, cost, best_cost = -1
    cdef Py_ssize_t i, best = -1
    cdef uint64_t wild = wild_bit(s.level)
    cdef uint64_t bombs = _bomb_ranks(s.once[seat], s.twice[seat])
    cdef int hand_size = _size(s.once[seat], s.twice[seat])
    cdef bint threat
    for i in range(m.n):
        cost = _greedy_cost(s, seat, hand_size, m, i, bombs, wild, leading)
        if cost < 0:
            return i
        if best < 0 or cost < best_cost:
            best = i
            best_cost = cost
    if leading or best < 0:
        return best
    if s.greater == (seat ^ 2):
        return -1
    if best_cost < COST_SPLITS:
        return best
    threat = _threatened(s, seat)
    return best if threat else -1


# -- the minplays policy --------------------------------------------------------------------------
# MinPlaysAgent's rules (agents/minplays.py), natively: count(hand) is min_plays' count,
# a decomposition is min_plays(prefer="bombs")'s, both remembered per call (Memo). Lead the
# weakest play of the decomposition that is no bomb (lowest key, then most cards; a bomb
# when nothing else is left). Follow: a move that empties the hand; else pass a partner;
# else the weakest plain move that keeps the count (count(rest) <= n - 1; fewest plays
# left, then lowest key); else, when an opponent is about to finish, the plain move with
# the best rest; else a bomb when an opponent is about to finish or it leaves
# count(rest) <= BOMB_TO_FINISH (best rest, then lowest tier and key); else pass. Ties go
# to the first move listed, as in MinPlaysAgent.
cdef enum:
    BOMB_TO_FINISH = 2
    PREFER_BOMBS = 1            # solver.PREFER["bombs"]
    NO_BOUND = 1 << 28          # above any count


cdef inline Memo* _memo_slot(Cache* c, uint64_t once, uint64_t twice) noexcept nogil:
    return &c.memo[hash_slot(once, twice, (1 << MEMO_BITS) - 1)]


cdef int _decompose(Cache* c, uint64_t once, uint64_t twice, int level, Plan* plan) noexcept nogil:
    """``plan`` := one optimal decomposition of a hand that is not empty (remembered); 0,
    or -1 when out of memory."""
    cdef Py_ssize_t rows[108]
    cdef Py_ssize_t count, k, row
    cdef Memo* slot = _memo_slot(c, once, twice)
    plan.once = once
    plan.twice = twice
    if slot.count > 0 and slot.once == once and slot.twice == twice:
        plan.count = slot.count
        for k in range(slot.count):
            plan.kinds[k] = slot.kinds[k]
            plan.keys[k] = slot.keys[k]
            plan.cards[2 * k] = slot.cards[2 * k]
            plan.cards[2 * k + 1] = slot.cards[2 * k + 1]
        plan.valid = 1
        return 0
    c.ready = 0  # a decomposition ends the solver's preparation
    count = solver_decompose(&c.solver, once, twice, level, PREFER_BOMBS, rows)
    if count < 0:
        plan.valid = 0
        return -1
    for k in range(count):
        row = rows[k]
        plan.kinds[k] = c.solver.buf.kinds[row]
        plan.keys[k] = c.solver.buf.keys[row]
        plan.cards[2 * k] = c.solver.buf.cards[2 * row]
        plan.cards[2 * k + 1] = c.solver.buf.cards[2 * row + 1]
    plan.count = <int>count
    plan.valid = 1
    if 0 < count <= MEMO_PLAYS:
        slot.once = once
        slot.twice = twice
        slot.count = <int>count
        for k in range(count):
            slot.kinds[k] = plan.kinds[k]
            slot.keys[k] = plan.keys[k]
            slot.cards[2 * k] = plan.cards[2 * k]
            slot.cards[2 * k + 1] = plan.cards[2 * k + 1]
    return 0


cdef inline bint _in_plan(Plan* plan, MoveBuffer* m, Py_ssize_t i) noexcept nogil:
    """Whether move ``i`` takes exactly the cards of one play of the plan."""
    cdef int k
    for k in range(plan.count):
        if plan.cards[2 * k] == m.cards[2 * i] and plan.cards[2 * k + 1] == m.cards[2 * i + 1]:
            return True
    return False


cdef inline int _ready(Cache* c, uint64_t once, uint64_t twice, int level) noexcept nogil:
    """The solver prepared to count sub-hands of this hand (kept until another hand or a
    decomposition); 0, or -1 when out of memory."""
    if c.ready and c.ready_once == once and c.ready_twice == twice:
        return 0
    c.ready = 0
    if solver_prepare(&c.solver, once, twice, level) != 0:
        return -1
    c.ready = 1
    c.ready_once = once
    c.ready_twice = twice
    return 0


cdef inline int _rest_count(Cache* c, State* s, MoveBuffer* m, Py_ssize_t i, int bound) noexcept nogil:
    """The fewest plays of the seat to act's hand without move ``i`` (the solver prepared
    for the hand), when below ``bound``; else a lower bound >= ``bound``."""
    cdef uint64_t once = s.once[s.to_act], twice = s.twice[s.to_act], mo = m.cards[2 * i], mt = m.cards[2 * i + 1]
    cdef uint64_t rest_once = (once & ~mo) | (twice & ~mt), rest_twice = twice & ~mo
    cdef Memo* slot = _memo_slot(c, rest_once, rest_twice)
    if slot.count > 0 and slot.once == rest_once and slot.twice == rest_twice:
        return slot.count
    return solver_count_within(&c.solver, rest_once, rest_twice, bound)


cdef Py_ssize_t _planned(State* s, MoveBuffer* m, bint leading, Cache* c, int* failed) noexcept nogil:
    """The minplays policy's choice among the ``m.n`` moves of the seat to act; -1: pass.
    ``failed[0]`` is set when the solver ran out of memory."""
    cdef int seat = s.to_act, k, best_k = -1, hand_size, rest, n, tier
    cdef int keep_rest = 0, plain_rest = 0, bomb_rest = 0, bomb_tier_key = 0
    cdef Py_ssize_t i, keep = -1, plain = -1, bomb = -1
    cdef uint64_t once = s.once[seat], twice = s.twice[seat]
    cdef Plan* plan = &c.plans[seat]
    cdef bint threat, is_plain
    if not (plan.valid and plan.once == once and plan.twice == twice):
        if _decompose(c, once, twice, s.level, plan) != 0:
            failed[0] = 1
            return -1
    if leading:
        for k in range(plan.count):  # the weakest plain play: lowest key, then most cards
            if best_k < 0 or ((plan.kinds[k] < K_STRAIGHT_FLUSH) > (plan.kinds[best_k] < K_STRAIGHT_FLUSH)) or (
                    (plan.kinds[k] < K_STRAIGHT_FLUSH) == (plan.kinds[best_k] < K_STRAIGHT_FLUSH) and (
                        plan.keys[k] < plan.keys[best_k] or (plan.keys[k] == plan.keys[best_k] and _size(
                            plan.cards[2 * k], plan.cards[2 * k + 1]) > _size(plan.cards[2 * best_k],
                                                                              plan.cards[2 * best_k + 1])))):
                best_k = k
        for i in range(m.n):
            if (best_k >= 0 and m.kinds[i] == plan.kinds[best_k] and m.keys[i] == plan.keys[best_k]
                    and m.cards[2 * i] == plan.cards[2 * best_k] and m.cards[2 * i + 1] == plan.cards[2 * best_k + 1]):
                return i
        return _greedy(s, m, True)  # not reached: the decomposition's plays are leading moves
    hand_size = _size(once, twice)
    for i in range(m.n):
        if _size(m.cards[2 * i], m.cards[2 * i + 1]) == hand_size:
            return i
    if s.greater == (seat ^ 2):
        return -1
    # count(rest) >= n - 1 always (the move and a decomposition of the rest empty the hand),
    # so the move to follow with is the first of the lowest key among those leaving n - 1.
    # A play of the plan leaves n - 1 without a solve; only moves before the best such play
    # (lower key, or the same key listed earlier) need one.
    n = plan.count
    for i in range(m.n):
        if m.kinds[i] < K_STRAIGHT_FLUSH and (keep < 0 or m.keys[i] < m.keys[keep]) and _in_plan(plan, m, i):
            keep = i
    for i in range(m.n):
        if m.kinds[i] >= K_STRAIGHT_FLUSH or (keep >= 0 and (m.keys[i] > m.keys[keep] or (
                m.keys[i] == m.keys[keep] and i >= keep))):
            continue
        if _ready(c, once, twice, s.level) != 0:
            failed[0] = 1
            return -1
        if _rest_count(c, s, m, i, n) < n:
            keep = i
    if keep >= 0:
        return keep
    threat = _threatened(s, seat)
    if not threat and n - 1 > BOMB_TO_FINISH:
        return -1
    if _ready(c, once, twice, s.level) != 0:
        failed[0] = 1
        return -1
    for i in range(m.n):
        is_plain = m.kinds[i] < K_STRAIGHT_FLUSH
        if is_plain and not threat:
            continue
        rest = _rest_count(c, s, m, i, NO_BOUND)
        if is_plain:
            if plain < 0 or rest < plain_rest or (rest == plain_rest and m.keys[i] < m.keys[plain]):
                plain = i
                plain_rest = rest
        elif threat or rest <= BOMB_TO_FINISH:
            tier = 64 * bomb_tier(m.kinds[i], _size(m.cards[2 * i], m.cards[2 * i + 1])) + m.keys[i]
            if bomb < 0 or rest < bomb_rest or (rest == bomb_rest and tier < bomb_tier_key):
                bomb = i
                bomb_rest = rest
                bomb_tier_key = tier
    if threat and plain >= 0:
        return plain
    return bomb


cdef inline Py_ssize_t _choose(State* s, MoveBuffer* moves, bint leading, Cache* c, int policy,
                               uint64_t* rng, int* failed) noexcept nogil:
    """The index of the move ``policy`` plays among ``moves`` (-1: the pass, which a
    follower draws as 0 of n + 1 when the policy is random)."""
    if policy == POLICY_GREEDY:
        return _greedy(s, moves, leading)
    if policy == POLICY_MINPLAYS:
        return _planned(s, moves, leading, c, failed)
    if leading:
        return rng_below(rng, <uint32_t>moves.n)
    return <Py_ssize_t>rng_below(rng, <uint32_t>(moves.n + 1)) - 1


cdef int _run(State* s, uint64_t seed, Cache* c, Log* log, int policy) noexcept nogil:
    """Play ``s`` to its end by ``policy``: uniformly random legal actions, or greedy; 0, or
    a negative error.

    Leading, the seat chooses from its complete move list (cached per hand); following, from
    ``generate_into`` with the move to beat (cheaper than filtering the leading list) and
    the pass, which is draw 0."""
    cdef uint64_t rng = seed
    cdef MoveBuffer* moves
    cdef Py_ssize_t n, i
    cdef int seat, steps = 0, failed = 0
    while not s.done:
        steps += 1
        if steps > MAX_STEPS:
            return ERR_STUCK
        seat = s.to_act
        if s.last_kind == K_PASS:
            moves = _leading(c, s, seat)
            if moves == NULL:
                return ERR_GENERATOR
            n = moves.n
            if n == 0:
                return ERR_STUCK
            i = _choose(s, moves, True, c, policy, &rng, &failed)
        else:
            moves = &c.scratch
            n = generate_into(s.once[seat], s.twice[seat], s.level, s.last_kind, s.last_key, s.last_size,
                              False, moves)
            if n < 0:
                return ERR_GENERATOR
            i = _choose(s, moves, False, c, policy, &rng, &failed)
            if failed:
                return ERR_MEMORY
            if i < 0:
                _log(log, seat, K_PASS, 0, 0, 0)
                _pass(s)
                continue
        if failed:
            return ERR_MEMORY
        _log(log, seat, moves.kinds[i], moves.keys[i], moves.cards[2 * i], moves.cards[2 * i + 1])
        _play(s, moves.kinds[i], moves.keys[i], moves.cards[2 * i], moves.cards[2 * i + 1])
    return 0


cdef void _deal_random(State* s, uint64_t* rng, int level) noexcept nogil:
    """Shuffle the 108 cards (Fisher-Yates), 27 to each seat, a random leader."""
    cdef int deck[108]
    cdef int i, seat
    for i in range(108):
        deck[i] = i >> 1
    shuffle_cards(deck, 108, rng)
    for seat in range(4):
        s.once[seat] = 0
        s.twice[seat] = 0
    for i in range(108):
        add_card(&s.once[i // 27], &s.twice[i // 27], deck[i])
    s.level = level
    s.to_act = rng_below(rng, 4)
    s.last_kind = K_PASS
    s.last_key = 0
    s.last_size = 0
    s.greater = -1
    s.passes = 0
    s.nfinish = 0
    s.done = 0


# -- Python entry points -------------------------------------------------------------------------
# Every argument is checked here, whatever the caller (Deal checks its own state first, but
# these functions are public): TypeError for something that is no integer (bool and float
# included), ValueError for a value out of range or a state no deal can be in.

cdef int _small(object value, str what, int lo, int hi) except? -1:
    """An integer argument that must lie in lo..hi."""
    v = as_integer(value, what)
    if not lo <= v <= hi:
        raise ValueError(f"{what} must be {lo}..{hi}, not {v}")
    return <int>v


cdef uint64_t _seed(object value) except? 0xFFFFFFFFFFFFFFFF:
    v = as_integer(value, "seed")
    if not 0 <= v <= 0xFFFFFFFFFFFFFFFF:
        raise ValueError(f"seed must be an integer 0 <= seed < 2**64, not {v}")
    return <uint64_t>v


cdef Py_ssize_t _count(object value, str what) except? -1:
    v = as_integer(value, what)
    if not 0 <= v <= PY_SSIZE_T_MAX:
        raise ValueError(f"{what} must be >= 0, not {v}")
    return <Py_ssize_t>v


cdef uint64_t _plane(object value, str what) except? 0xFFFFFFFFFFFFFFFF:
    v = as_integer(value, what)
    if not 0 <= v <= FULL_PLANE:
        raise ValueError(f"{what} must be a hand plane (bits 0..53, one per card), not {v}")
    return <uint64_t>v


cdef str _card_name(uint64_t bits):
    from guandan_fast.engine.cards import CARD_NAMES
    return CARD_NAMES[gf_ctz64(bits)]


cdef State _state_from(object state) except *:
    """A validated playout state: exactly the states a Deal in its play phase can be in,
    given as its ten values ``(once, twice, level, to_act, last_kind, last_key, last_size,
    greater, passes, finish)`` (what ``Deal._play_state()`` returns)."""
    cdef State s
    if not isinstance(state, (tuple, list)) or len(state) != 10:
        raise TypeError("a playout state is a tuple of ten values: (once, twice, level, to_act, last_kind, "
                        "last_key, last_size, greater, passes, finish)")
    once, twice, level, to_act, last_kind, last_key, last_size, greater, passes, finish = state
    cdef int seat, k, code, others, at
    cdef uint64_t one = 0, two = 0, over = 0, plane
    if len(once) != 4 or len(twice) != 4:
        raise ValueError("a state has four hands: once and twice must each hold four planes")
    s.level = _small(level, "level", 2, 14)
    s.to_act = _small(to_act, "to_act", 0, 3)
    s.last_kind = _small(last_kind, "last_kind", 0, 10)
    s.last_key = _small(last_key, "last_key", 0, 255)
    s.last_size = _small(last_size, "last_size", 0, 108)
    s.greater = _small(greater, "greater", -1, 3)
    s.passes = _small(passes, "passes", 0, 3)
    for seat in range(4):
        s.once[seat] = _plane(once[seat], f"once[{seat}]")
        s.twice[seat] = _plane(twice[seat], f"twice[{seat}]")
        if s.twice[seat] & ~s.once[seat]:
            raise ValueError(f"bad hand planes for seat {seat}: a card marked 'twice' must also be marked 'once'")
        # Count the copies of each card on the table: one copy per bit of each plane.
        plane = s.once[seat]
        over |= two & plane
        two |= one & plane
        one |= plane
        plane = s.twice[seat]
        over |= two & plane
        two |= one & plane
        one |= plane
    if over:
        raise ValueError(f"card {_card_name(over)} appears more than twice across the four hands (the deck has two)")
    if isinstance(finish, (str, bytes)) or not hasattr(finish, "__iter__"):
        raise TypeError(f"finish must be a sequence of seats, not {type(finish).__name__}")
    order = [_small(seat_value, "a seat of finish", 0, 3) for seat_value in finish]
    if len(order) > 2 or len(set(order)) != len(order):
        raise ValueError(f"bad finishing order {order}: at most two distinct seats can be out mid-deal")
    if len(order) == 2 and order[1] == (order[0] ^ 2):
        raise ValueError(f"the deal is already over: seats {order[0]} and {order[1]} finished 1-2")
    for seat in range(4):
        if (seat in order) != (s.once[seat] == 0):
            raise ValueError(f"seat {seat}: a seat is out (listed in finish) exactly when its hand is empty")
    s.nfinish = len(order)
    for k in range(4):
        s.finish[k] = order[k] if k < s.nfinish else -1
    s.done = 0
    if s.once[s.to_act] == 0:
        raise ValueError(f"the seat to act ({s.to_act}) must hold cards")
    code = check_args(s.once[s.to_act], s.twice[s.to_act], s.level, s.last_kind, s.last_key, s.last_size)
    if code != 0:
        raise ValueError(
            f"bad move to beat (last_kind {s.last_kind}, last_key {s.last_key}, last_size {s.last_size}): "
            + ("its size does not fit its kind" if code == 5 else "its key is out of range for its kind")
        )
    if s.last_kind == K_PASS:
        if s.greater != -1 or s.passes != 0:
            raise ValueError("the seat to act leads (last_kind 0): greater must be -1 and passes 0")
        return s
    # Following: ``greater`` made the move to beat, then ``passes`` players passed in turn.
    if s.greater == -1 or s.greater == s.to_act:
        raise ValueError(f"greater ({s.greater}) must be the seat that made the move to beat, not the seat to act")
    if s.once[s.greater] == 0 and s.finish[s.nfinish - 1] != s.greater:
        raise ValueError(f"greater ({s.greater}) holds no cards, so it must be the last seat that went out")
    others = 0
    for seat in range(4):
        if seat != s.greater and s.once[seat]:
            others += 1
    if s.passes >= others:
        raise ValueError(f"{s.passes} passes: the trick would have ended ({others} players can answer)")
    at = s.greater
    for k in range(s.passes + 1):
        at = _next_active(&s, at)
    if at != s.to_act:
        raise ValueError(f"after seat {s.greater}'s play and {s.passes} passes, seat {at} acts, not seat {s.to_act}")
    return s


cdef _raise(int code):
    if code == ERR_MEMORY:
        raise MemoryError("out of memory in a native playout")
    if code == ERR_GENERATOR:
        raise RuntimeError("the native move generator failed during a playout")
    raise RuntimeError("a native playout did not end (a bug: please report it with the seed)")


def playout(state, seed, bint record=False, policy=POLICY_RANDOM):
    """Play a state to its end with uniformly random legal actions.

    ``state`` is the ten values of a deal in its play phase (``Deal._play_state()``: once,
    twice, level, to_act, last_kind, last_key, last_size, greater, passes, finish) and must
    be one such a deal can be in (ValueError otherwise, TypeError for a value that is no
    integer); ``seed`` is 0 <= seed < 2**64.

    Returns the finishing order (a tuple of the four seats, first to last) or, with
    ``record``, ``(finish, seats, kinds, keys, cards)``: one row per action in the order
    played (kind 0 is a pass), cards as uint64 ``(once, twice)`` rows. ``policy``: 0 random
    play, 1 the greedy rules, 2 MinPlaysAgent's rules (see :func:`playouts`).
    """
    cdef State s = _state_from(state)
    cdef uint64_t start_seed = _seed(seed)
    cdef int rule = _small(policy, "policy", POLICY_RANDOM, POLICY_MINPLAYS)
    cdef int code
    cdef Cache cache
    cdef Log log
    cdef cnp.ndarray[int8_t, ndim=1] seats
    cdef cnp.ndarray[uint8_t, ndim=1] kinds, keys
    cdef cnp.ndarray[uint64_t, ndim=2] cards
    log.seats = NULL
    log.kinds = NULL
    log.keys = NULL
    log.cards = NULL
    log.n = 0
    if record:
        seats = np.empty(MAX_STEPS, dtype=np.int8)
        kinds = np.empty(MAX_STEPS, dtype=np.uint8)
        keys = np.empty(MAX_STEPS, dtype=np.uint8)
        cards = np.empty((MAX_STEPS, 2), dtype=np.uint64)
        log.seats = <int8_t*>seats.data
        log.kinds = <uint8_t*>kinds.data
        log.keys = <uint8_t*>keys.data
        log.cards = <uint64_t*>cards.data
    if _cache_init(&cache, rule) != 0:
        raise MemoryError("out of memory in a native playout")
    with nogil:
        code = _run(&s, start_seed, &cache, &log if record else NULL, rule)
        _cache_free(&cache)
    if code != 0:
        _raise(code)
    finish_order = (s.finish[0], s.finish[1], s.finish[2], s.finish[3])
    if not record:
        return finish_order
    n = log.n
    return finish_order, seats[:n], kinds[:n], keys[:n], cards[:n]


cdef int _play_many(const State* start, int deal_level, uint64_t first_seed, Py_ssize_t count,
                    int8_t* rows, int policy) noexcept nogil:
    """Play ``count`` deals, finishing orders into ``rows`` (4 seats a row); 0 or an error.

    Deal ``i`` uses the random stream seeded with ``first_seed + i``: it continues
    ``start``, or (``start`` NULL) is dealt afresh at ``deal_level`` from that stream."""
    cdef Cache cache
    cdef State s
    cdef uint64_t rng
    cdef Py_ssize_t i
    cdef int code = 0, k
    if _cache_init(&cache, policy) != 0:
        return ERR_MEMORY
    for i in range(count):
        if start != NULL and policy != POLICY_RANDOM and i > 0:
            # a deterministic policy replays one game: copy its finishing order
            for k in range(4):
                rows[4 * i + k] = rows[k]
            continue
        rng = first_seed + <uint64_t>i
        if start == NULL:
            _deal_random(&s, &rng, deal_level)
            rng = rng_next(&rng)
        else:
            s = start[0]
        code = _run(&s, rng, &cache, NULL, policy)
        if code != 0:
            break
        for k in range(4):
            rows[4 * i + k] = <int8_t>s.finish[k]
    _cache_free(&cache)
    return code


cdef _finishing_orders(const State* start, int deal_level, uint64_t first_seed, Py_ssize_t count, int policy):
    cdef cnp.ndarray[int8_t, ndim=2] out = np.empty((count, 4), dtype=np.int8)
    cdef int8_t* rows = <int8_t*>out.data
    cdef int code
    with nogil:
        code = _play_many(start, deal_level, first_seed, count, rows, policy)
    if code != 0:
        _raise(code)
    return out


def playouts(state, seed, n, policy=POLICY_RANDOM):
    """``n`` playouts of one state; playout ``i`` is :func:`playout` with seed ``seed + i``
    (mod 2**64). Returns an ``int8`` array of shape ``(n, 4)``: the finishing orders.

    ``policy``: 0 uniformly random play, 1 the greedy rules, 2 MinPlaysAgent's rules (1 and
    2 are deterministic: the game is played once and its row repeated; the seed is not
    used)."""
    cdef State start = _state_from(state)
    cdef uint64_t first_seed = _seed(seed)
    cdef Py_ssize_t count = _count(n, "the number of playouts")
    cdef int code = _small(policy, "policy", POLICY_RANDOM, POLICY_MINPLAYS)
    return _finishing_orders(&start, start.level, first_seed, count, code)


cdef inline void _multiset(const uint64_t* planes, uint64_t* one, uint64_t* two, uint64_t* over) noexcept nogil:
    """The cards of four hands (``planes``: once, twice per seat) counted as a multiset:
    ``one`` the cards held at least once, ``two`` at least twice, ``over`` more often."""
    cdef int k
    cdef uint64_t plane
    one[0] = 0
    two[0] = 0
    over[0] = 0
    for k in range(8):
        plane = planes[k]
        over[0] |= two[0] & plane
        two[0] |= one[0] & plane
        one[0] |= plane


cdef int _check_world(const State* base, const uint64_t* planes, uint64_t one, uint64_t two) noexcept nogil:
    """0 when the hands ``planes`` (once, twice per seat) may replace ``base``'s: valid
    planes, each seat the same number of cards, together the same cards (``one``, ``two``:
    ``base``'s multiset). The state is then one a deal can be in, as ``base`` is."""
    cdef int seat
    cdef uint64_t o, t, w_one, w_two, w_over
    for seat in range(4):
        o = planes[2 * seat]
        t = planes[2 * seat + 1]
        if (o | t) & ~FULL_PLANE or t & ~o or _size(o, t) != _size(base.once[seat], base.twice[seat]):
            return ERR_WORLD
    _multiset(planes, &w_one, &w_two, &w_over)
    if w_over or w_one != one or w_two != two:
        return ERR_WORLD
    return 0


cdef int _world_playouts(const State* base, const uint64_t* worlds, Py_ssize_t nworlds,
                         const uint8_t* kinds, const uint8_t* keys, const uint64_t* cards, Py_ssize_t nmoves,
                         Py_ssize_t n, uint64_t first_seed, int policy, int8_t* rows,
                         Py_ssize_t* bad) noexcept nogil:
    """For world ``w`` (``worlds[8 w : 8 w + 8]``) and move ``m`` (kind 0: the pass), play
    the move from ``base`` with the world's hands and then ``n`` playouts, playout ``r``
    seeded ``first_seed + w n + r``; finishing orders into ``rows[((w nmoves + m) n + r) 4 :]``.
    0 or an error; ERR_WORLD with ``bad[0]`` the world that does not fit and ``bad[1]``
    the move whose cards its seat to act does not hold (-1: the hands do not fit)."""
    cdef Cache cache
    cdef State s, after, s_run
    cdef Py_ssize_t w, m, r, at
    cdef int seat, k, code = 0, played
    cdef uint64_t one, two, over, mo, mt
    cdef uint64_t base_planes[8]
    for seat in range(4):
        base_planes[2 * seat] = base.once[seat]
        base_planes[2 * seat + 1] = base.twice[seat]
    _multiset(base_planes, &one, &two, &over)
    if _cache_init(&cache, policy) != 0:
        return ERR_MEMORY
    for w in range(nworlds):
        if _check_world(base, &worlds[8 * w], one, two) != 0:
            bad[0] = w
            bad[1] = -1
            code = ERR_WORLD
            break
        s = base[0]
        for seat in range(4):
            s.once[seat] = worlds[8 * w + 2 * seat]
            s.twice[seat] = worlds[8 * w + 2 * seat + 1]
        for m in range(nmoves):
            after = s
            if kinds[m] == K_PASS:
                _pass(&after)
            else:
                mo = cards[2 * m]
                mt = cards[2 * m + 1]
                if mo & ~s.once[s.to_act] or mt & ~s.twice[s.to_act]:
                    bad[0] = w
                    bad[1] = m
                    code = ERR_WORLD
                    break
                _play(&after, kinds[m], keys[m], mo, mt)
            played = 0
            for r in range(n):
                at = 4 * ((w * nmoves + m) * n + r)
                if played and policy != POLICY_RANDOM:  # deterministic: the same game again
                    for k in range(4):
                        rows[at + k] = rows[at - 4 + k]
                    continue
                s_run = after
                code = _run(&s_run, first_seed + <uint64_t>(w * n + r), &cache, NULL, policy)
                if code != 0:
                    break
                played = 1
                for k in range(4):
                    rows[at + k] = <int8_t>s_run.finish[k]
            if code != 0:
                break
        if code != 0:
            break
    _cache_free(&cache)
    return code


def world_playouts(state, worlds, move_kinds, move_keys, move_cards, seed, n, policy=POLICY_RANDOM):
    """Playouts of one state in several worlds after several candidate moves.

    The state is :func:`playout`'s; ``worlds`` are hands that may replace its hands, as
    hand planes ``uint64[w, 4, 2]`` (what ``infoset.sample_hands`` gives): each seat keeps
    its number of cards and the four hands together hold the same cards. The moves are
    rows of the seat to act's legal moves: ``move_kinds``, ``move_keys`` ``uint8[m]`` and
    ``move_cards`` ``uint64[m, 2]`` (kind 0: the pass, when following); the seat must hold
    each move's cards in every world. Returns ``int8[w, m, n, 4]``, the finishing orders:
    world ``i``, move ``j`` played, then playout ``r`` seeded ``seed + i n + r`` whatever
    the move (common random numbers). ``policy`` as in :func:`playouts`."""
    cdef State start = _state_from(state)
    cdef uint64_t first_seed = _seed(seed)
    cdef Py_ssize_t count = _count(n, "the number of playouts")
    cdef int rule = _small(policy, "policy", POLICY_RANDOM, POLICY_MINPLAYS)
    cdef cnp.ndarray[uint64_t, ndim=3] planes = np.ascontiguousarray(worlds, dtype=np.uint64)
    cdef cnp.ndarray[uint8_t, ndim=1] kinds = np.ascontiguousarray(move_kinds, dtype=np.uint8)
    cdef cnp.ndarray[uint8_t, ndim=1] keys = np.ascontiguousarray(move_keys, dtype=np.uint8)
    cdef cnp.ndarray[uint64_t, ndim=2] cards = np.ascontiguousarray(move_cards, dtype=np.uint64)
    if planes.shape[1] != 4 or planes.shape[2] != 2:
        raise ValueError(f"worlds must be hand planes of shape (w, 4, 2), not {tuple(np.shape(worlds))}")
    cdef Py_ssize_t nworlds = planes.shape[0], nmoves = kinds.shape[0], m, i, nlegal
    if keys.shape[0] != nmoves or cards.shape[0] != nmoves or cards.shape[1] != 2:
        raise ValueError("the moves' kinds and keys (length m) and cards (shape (m, 2)) must describe the same moves")
    cdef MoveBuffer legal
    cdef bint found
    if movebuf_init(&legal, 256) != 0:
        raise MemoryError("out of memory in a native playout")
    try:
        nlegal = generate_into(start.once[start.to_act], start.twice[start.to_act], start.level, start.last_kind,
                               start.last_key, start.last_size, False, &legal)
        if nlegal < 0:
            raise RuntimeError("the native move generator failed")
        for m in range(nmoves):
            if kinds[m] == K_PASS:
                found = start.last_kind != K_PASS
            else:
                found = False
                for i in range(nlegal):
                    if (legal.kinds[i] == kinds[m] and legal.keys[i] == keys[m] and legal.cards[2 * i] == cards[m, 0]
                            and legal.cards[2 * i + 1] == cards[m, 1]):
                        found = True
                        break
            if not found:
                raise ValueError(f"move {m} is no legal action of the seat to act (a pass only when following)")
    finally:
        movebuf_free(&legal)
    cdef cnp.ndarray[int8_t, ndim=4] out = np.empty((nworlds, nmoves, count, 4), dtype=np.int8)
    cdef Py_ssize_t bad[2]
    cdef int code
    bad[0] = bad[1] = -1  # set by the kernel when a world or move does not fit
    with nogil:
        code = _world_playouts(&start, <const uint64_t*>planes.data, nworlds, <const uint8_t*>kinds.data,
                               <const uint8_t*>keys.data, <const uint64_t*>cards.data, nmoves, count, first_seed,
                               rule, <int8_t*>out.data, bad)
    if code == ERR_WORLD:
        if bad[1] >= 0:
            raise ValueError(f"world {bad[0]}: the seat to act does not hold the cards of move {bad[1]}")
        raise ValueError(
            f"world {bad[0]} does not fit the state: each seat keeps its number of cards and the four hands "
            "together hold the same cards, in valid hand planes"
        )
    if code != 0:
        _raise(code)
    return out


def random_deals(n, seed, level=2):
    """``n`` complete random deals, all in C: shuffle, a random leader, random play.

    Deal ``i`` draws its cards, leader and actions from the stream seeded with
    ``seed + i`` (mod 2**64). Returns the finishing orders, ``int8`` of shape ``(n, 4)``.
    """
    cdef Py_ssize_t count = _count(n, "the number of deals")
    cdef uint64_t first_seed = _seed(seed)
    cdef int deal_level = _small(level, "level", 2, 14)
    return _finishing_orders(NULL, deal_level, first_seed, count, POLICY_RANDOM)
