# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""Native playouts: the rest of a deal played by a policy (uniformly random legal actions,
or the deterministic rules of ``_policies``), and whole random deals, all in C without the GIL.

Between a call and its result everything runs in C: a seeded PRNG (splitmix64, exactly
uniform draws), the move generator of ``_movegen`` (``generate_into``) and the rules of play
of ``engine/state.pxd`` (``state_play``: players out skipped, 接风, a leader never passes,
the finishing order), on a copy of the :c:type:`PlayState` of a deal's
:class:`~guandan_fast.engine.state.State`. The Python face is
:meth:`guandan_fast.engine.deal.Deal.playout` (and ``playouts``, ``world_playouts``).

Each turn the seat to act draws uniformly among its legal actions: its complete move
list from ``generate_into`` — the list ``legal_moves(hand, level, last)`` returns — and,
when it follows, the pass (draw 0, as in ``Deal.legal_actions()``). A seat's leading list is
kept while its hand is unchanged: a batch of playouts from one state shares the lists of
its first turns (in ``random_deals`` every deal is fresh and the cache never hits;
checking it costs two comparisons a lead).

Playout ``i`` of a batch with seed ``s`` is the playout with seed ``s + i``.

``policy=1`` plays the greedy rules instead, ``policy=2`` MinPlaysAgent's rules and
``policy=3`` the same with their tactics (see ``_policies.pyx``). These draw nothing, so
a batch plays the game once and repeats its result.

``world_playouts`` runs a whole search step in one call: the same state with the hands
replaced by each of several sampled worlds, each of several candidate moves played, then
playouts to the end.
"""

cimport cython
from libc.stdint cimport uint8_t, int8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

import numpy as np
cimport numpy as cnp

from guandan_fast.engine.arrays import integer_array

from guandan_fast.engine._random cimport rng_next, rng_below, shuffle_cards, add_card
from guandan_fast.engine._movegen cimport (
    FULL_PLANE,
    K_PASS,
    MoveBuffer,
    as_in_range,
    as_integer,
    generate_into,
    movebuf_free,
    movebuf_init,
)
from guandan_fast.engine.state cimport (
    MAX_ACTIONS,
    PHASE_PLAY,
    PlayState,
    State,
    hand_size,
    state_clear,
    state_play,
)
from guandan_fast.search._policies cimport (
    POLICY_MINPLAYS,
    POLICY_RANDOM,
    POLICY_TACTICS,
    Policy,
    policy_choose,
    policy_free,
    policy_init,
)

cnp.import_array()

cdef enum:
    ERR_MEMORY = -1
    ERR_GENERATOR = -2
    ERR_STUCK = -3
    ERR_WORLD = -4          # a world's hands do not fit the state (see _check_world)
    MAX_PLAYOUTS = 2147483647   # playouts (or worlds x moves x playouts) of one call

#: The most playouts one call plays (a bigger count is a ValueError, not an allocation).
PLAYOUT_LIMIT = MAX_PLAYOUTS


# -- the leading lists, the policy, the action log ------------------------------------------------
cdef struct Cache:
    # The leading move list of each seat, valid while the seat's planes match, and the
    # policy. A cache serves one call at a time, whose deals are all played at one level
    # (a call that takes a kept cache forgets its leading lists first).
    MoveBuffer buf[4]
    uint64_t once[4]
    uint64_t twice[4]
    int valid[4]
    MoveBuffer scratch      # the moves of the seat following now
    Policy policy


cdef struct Log:
    # One row per action (a NULL Log: not recording).
    int8_t* seats
    uint8_t* kinds
    uint8_t* keys
    uint64_t* cards         # 2 per action: once, twice
    int n


cdef int _cache_init(Cache* c, int policy) noexcept nogil:
    cdef int seat, failed = 0
    for seat in range(4):
        c.valid[seat] = 0
        if movebuf_init(&c.buf[seat], 512) != 0:
            failed = 1
    if movebuf_init(&c.scratch, 256) != 0:
        failed = 1
    if policy_init(&c.policy, policy) != 0:
        failed = 1
    if failed:
        _cache_free(c)
        return ERR_MEMORY
    return 0


cdef void _cache_free(Cache* c) noexcept nogil:
    cdef int seat
    for seat in range(4):
        movebuf_free(&c.buf[seat])
    movebuf_free(&c.scratch)
    policy_free(&c.policy)


# The caches of finished calls, kept for the next calls of their policy (at most
# KEPT_PER_POLICY a policy, about 2 MB each for the rules): a fresh cache costs its
# allocations and, for the rules, the page faults of its tables (30-40 µs a call here, more
# than a short endgame playout), and a kept one brings what its policy learnt about the
# hands of its level (decompositions, the min-plays solver's table), which is the same
# whichever call learnt it: the results are those of fresh caches. A cache serves one call
# at a time; slot ``policy * KEPT_PER_POLICY + i`` holds caches of ``policy`` only.
cdef enum:
    KEPT_PER_POLICY = 4
    KEPT_SLOTS = (POLICY_TACTICS + 1) * KEPT_PER_POLICY
cdef Cache* _kept_caches[KEPT_SLOTS]
cdef object _kept_lock = []  # locked (cython.critical_section) where there is no GIL


cdef Cache* _take_cache(int policy) except NULL:
    """A kept cache of ``policy`` (0..POLICY_TACTICS, checked by the caller), else a new one
    (MemoryError when out of memory)."""
    cdef Cache* c = NULL
    cdef int i, seat
    with cython.critical_section(_kept_lock):
        for i in range(policy * KEPT_PER_POLICY, (policy + 1) * KEPT_PER_POLICY):
            if _kept_caches[i] != NULL:
                c, _kept_caches[i] = _kept_caches[i], NULL
                break
    if c != NULL:
        for seat in range(4):  # the leading lists are of the last call's level
            c.valid[seat] = 0
        return c
    c = <Cache*>malloc(sizeof(Cache))
    if c == NULL or _cache_init(c, policy) != 0:
        free(c)
        raise MemoryError("out of memory in a native playout")
    return c


cdef void _give_back_cache(Cache* c, bint keep) noexcept:
    """Keep ``c`` for the next calls of its policy (``keep``: no allocation failed during its
    call), or free it."""
    cdef int i, policy = c.policy.policy
    if keep:
        with cython.critical_section(_kept_lock):
            for i in range(policy * KEPT_PER_POLICY, (policy + 1) * KEPT_PER_POLICY):
                if _kept_caches[i] == NULL:
                    _kept_caches[i] = c
                    return
    _cache_free(c)
    free(c)


def _release_kept_caches():
    """Free the kept caches (tests, and callers who want the memory back now); the number freed."""
    cdef int i, freed = 0
    with cython.critical_section(_kept_lock):
        for i in range(KEPT_SLOTS):
            if _kept_caches[i] != NULL:
                _cache_free(_kept_caches[i])
                free(_kept_caches[i])
                _kept_caches[i] = NULL
                freed += 1
    return freed


cdef inline MoveBuffer* _leading(Cache* c, PlayState* s, int seat) noexcept nogil:
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
    if log == NULL or log.n >= MAX_ACTIONS:
        return
    log.seats[log.n] = <int8_t>seat
    log.kinds[log.n] = <uint8_t>kind
    log.keys[log.n] = <uint8_t>key
    log.cards[2 * log.n] = mo
    log.cards[2 * log.n + 1] = mt
    log.n += 1


# -- the playout loop ---------------------------------------------------------------------------------
cdef inline Py_ssize_t _choose(PlayState* s, MoveBuffer* moves, bint leading, Cache* c, int policy,
                               uint64_t* rng, int* failed) noexcept nogil:
    """The index of the move ``policy`` plays among ``moves`` (-1: the pass, which a
    follower draws as 0 of n + 1 when the policy is random)."""
    if policy != POLICY_RANDOM:
        return policy_choose(&c.policy, s, moves, leading, failed)
    if leading:
        return rng_below(rng, <uint32_t>moves.n)
    return <Py_ssize_t>rng_below(rng, <uint32_t>(moves.n + 1)) - 1


cdef int _run(PlayState* s, uint64_t seed, Cache* c, Log* log, int policy) noexcept nogil:
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
        if steps > MAX_ACTIONS:
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
                state_play(s, K_PASS, 0, 0, 0)
                continue
        if failed:
            return ERR_MEMORY
        _log(log, seat, moves.kinds[i], moves.keys[i], moves.cards[2 * i], moves.cards[2 * i + 1])
        state_play(s, moves.kinds[i], moves.keys[i], moves.cards[2 * i], moves.cards[2 * i + 1])
    return 0


cdef void _deal_random(PlayState* s, uint64_t* rng, int level) noexcept nogil:
    """Shuffle the 108 cards (Fisher-Yates), 27 to each seat, a random leader."""
    cdef int deck[108]
    cdef int i
    for i in range(108):
        deck[i] = i >> 1
    shuffle_cards(deck, 108, rng)
    state_clear(s, level)
    for i in range(108):
        add_card(&s.once[i // 27], &s.twice[i // 27], deck[i])
    s.to_act = rng_below(rng, 4)



# -- Python entry points -------------------------------------------------------------------------
# Every argument is checked here, whatever the caller: TypeError for something that is no
# integer (bool and float included) or no State, ValueError for a value out of range. A
# State holds only positions a deal can be in (it checks them when made).

cdef uint64_t _seed(object value) except? 0xFFFFFFFFFFFFFFFF:
    v = as_integer(value, "seed")
    if not 0 <= v <= 0xFFFFFFFFFFFFFFFF:
        raise ValueError(f"seed must be an integer 0 <= seed < 2**64, not {v}")
    return <uint64_t>v


cdef PlayState _state_from(object state) except *:
    """The play state of a :class:`~guandan_fast.engine.state.State` in its play phase (or
    done: a playout of a finished deal is its finishing order)."""
    if not isinstance(state, State):
        raise TypeError(f"a playout starts from a guandan_fast.engine.state.State (a Deal's), not {type(state).__name__}")
    if (<State>state).phase < PHASE_PLAY:
        raise ValueError("playouts start in the play phase")
    return (<State>state).s


cdef _raise(int code):
    if code == ERR_MEMORY:
        raise MemoryError("out of memory in a native playout")
    if code == ERR_GENERATOR:
        raise RuntimeError("the native move generator failed during a playout")
    raise RuntimeError("a native playout did not end (a bug: please report it with the seed)")


def playout(state, seed, bint record=False, policy=POLICY_RANDOM):
    """Play a state to its end with uniformly random legal actions.

    ``state`` is a deal's :class:`~guandan_fast.engine.state.State` in its play phase (or
    done); ``seed`` is 0 <= seed < 2**64.

    Returns the finishing order (a tuple of the four seats, first to last) or, with
    ``record``, ``(finish, seats, kinds, keys, cards)``: one row per action in the order
    played (kind 0 is a pass), cards as uint64 ``(once, twice)`` rows. ``policy``: 0 random
    play, 1 the greedy rules, 2 MinPlaysAgent's rules, 3 the same with their tactics (see
    :func:`playouts`).
    """
    cdef PlayState s = _state_from(state)
    cdef uint64_t start_seed = _seed(seed)
    cdef int rule = as_in_range(policy, "policy", POLICY_RANDOM, POLICY_TACTICS)
    cdef int code
    cdef Cache* cache
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
        seats = np.empty(MAX_ACTIONS, dtype=np.int8)
        kinds = np.empty(MAX_ACTIONS, dtype=np.uint8)
        keys = np.empty(MAX_ACTIONS, dtype=np.uint8)
        cards = np.empty((MAX_ACTIONS, 2), dtype=np.uint64)
        log.seats = <int8_t*>seats.data
        log.kinds = <uint8_t*>kinds.data
        log.keys = <uint8_t*>keys.data
        log.cards = <uint64_t*>cards.data
    cache = _take_cache(rule)
    with nogil:
        code = _run(&s, start_seed, cache, &log if record else NULL, rule) if not s.done else 0
    _give_back_cache(cache, code == 0)
    if code != 0:
        _raise(code)
    finish_order = (s.finish[0], s.finish[1], s.finish[2], s.finish[3])
    if not record:
        return finish_order
    n = log.n
    return finish_order, seats[:n], kinds[:n], keys[:n], cards[:n]


cdef int _play_many(const PlayState* start, int deal_level, uint64_t first_seed, Py_ssize_t count,
                    int8_t* rows, int policy, Cache* cache) noexcept nogil:
    """Play ``count`` deals by ``policy`` (``cache``'s), finishing orders into ``rows`` (4
    seats a row); 0 or an error.

    Deal ``i`` uses the random stream seeded with ``first_seed + i``: it continues
    ``start``, or (``start`` NULL) is dealt afresh at ``deal_level`` from that stream."""
    cdef PlayState s
    cdef uint64_t rng
    cdef Py_ssize_t i
    cdef int code = 0, k
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
        if not s.done:
            code = _run(&s, rng, cache, NULL, policy)
        if code != 0:
            break
        for k in range(4):
            rows[4 * i + k] = <int8_t>s.finish[k]
    return code


cdef _finishing_orders(const PlayState* start, int deal_level, uint64_t first_seed, Py_ssize_t count, int policy):
    cdef cnp.ndarray[int8_t, ndim=2] out = np.empty((count, 4), dtype=np.int8)
    cdef int8_t* rows = <int8_t*>out.data
    cdef int code
    cdef Cache* cache = _take_cache(policy)
    with nogil:
        code = _play_many(start, deal_level, first_seed, count, rows, policy, cache)
    _give_back_cache(cache, code == 0)
    if code != 0:
        _raise(code)
    return out


def playouts(state, seed, n, policy=POLICY_RANDOM):
    """``n`` playouts of one state; playout ``i`` is :func:`playout` with seed ``seed + i``
    (mod 2**64). Returns an ``int8`` array of shape ``(n, 4)``: the finishing orders.

    ``policy``: 0 uniformly random play, 1 the greedy rules, 2 MinPlaysAgent's rules, 3 the
    same with their tactics (1 to 3 are deterministic: the game is played once and its
    row repeated; the seed is not used)."""
    cdef PlayState start = _state_from(state)
    cdef uint64_t first_seed = _seed(seed)
    cdef Py_ssize_t count = as_in_range(n, "the number of playouts", 0, MAX_PLAYOUTS)
    cdef int code = as_in_range(policy, "policy", POLICY_RANDOM, POLICY_TACTICS)
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


cdef int _check_world(const PlayState* base, const uint64_t* planes, uint64_t one, uint64_t two) noexcept nogil:
    """0 when the hands ``planes`` (once, twice per seat) may replace ``base``'s: valid
    planes, each seat the same number of cards, together the same cards (``one``, ``two``:
    ``base``'s multiset). The state is then one a deal can be in, as ``base`` is."""
    cdef int seat
    cdef uint64_t o, t, w_one, w_two, w_over
    for seat in range(4):
        o = planes[2 * seat]
        t = planes[2 * seat + 1]
        if (o | t) & ~FULL_PLANE or t & ~o or hand_size(o, t) != hand_size(base.once[seat], base.twice[seat]):
            return ERR_WORLD
    _multiset(planes, &w_one, &w_two, &w_over)
    if w_over or w_one != one or w_two != two:
        return ERR_WORLD
    return 0


cdef int _world_playouts(const PlayState* base, const uint64_t* worlds, Py_ssize_t nworlds,
                         const uint8_t* kinds, const uint8_t* keys, const uint64_t* cards, Py_ssize_t nmoves,
                         Py_ssize_t n, uint64_t first_seed, int policy, Cache* cache, int8_t* rows,
                         Py_ssize_t* bad) noexcept nogil:
    """For world ``w`` (``worlds[8 w : 8 w + 8]``) and move ``m`` (kind 0: the pass), play
    the move from ``base`` with the world's hands and then ``n`` playouts, playout ``r``
    seeded ``first_seed + w n + r``; finishing orders into ``rows[((w nmoves + m) n + r) 4 :]``.
    0 or an error; ERR_WORLD with ``bad[0]`` the world that does not fit and ``bad[1]``
    the move whose cards its seat to act does not hold (-1: the hands do not fit)."""
    cdef PlayState s, after, s_run
    cdef Py_ssize_t w, m, r, at
    cdef int seat, k, code = 0, played
    cdef uint64_t one, two, over, mo, mt
    cdef uint64_t base_planes[8]
    for seat in range(4):
        base_planes[2 * seat] = base.once[seat]
        base_planes[2 * seat + 1] = base.twice[seat]
    _multiset(base_planes, &one, &two, &over)
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
                state_play(&after, K_PASS, 0, 0, 0)
            else:
                mo = cards[2 * m]
                mt = cards[2 * m + 1]
                if mo & ~s.once[s.to_act] or mt & ~s.twice[s.to_act]:
                    bad[0] = w
                    bad[1] = m
                    code = ERR_WORLD
                    break
                state_play(&after, kinds[m], keys[m], mo, mt)
            played = 0
            for r in range(n):
                at = 4 * ((w * nmoves + m) * n + r)
                if played and policy != POLICY_RANDOM:  # deterministic: the same game again
                    for k in range(4):
                        rows[at + k] = rows[at - 4 + k]
                    continue
                s_run = after
                code = 0 if s_run.done else _run(&s_run, first_seed + <uint64_t>(w * n + r), cache, NULL, policy)
                if code != 0:
                    break
                played = 1
                for k in range(4):
                    rows[at + k] = <int8_t>s_run.finish[k]
            if code != 0:
                break
        if code != 0:
            break
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
    cdef PlayState start = _state_from(state)
    cdef uint64_t first_seed = _seed(seed)
    cdef Py_ssize_t count = as_in_range(n, "the number of playouts", 0, MAX_PLAYOUTS)
    cdef int rule = as_in_range(policy, "policy", POLICY_RANDOM, POLICY_TACTICS)
    world_array = integer_array(worlds, np.uint64, "worlds")
    if world_array.ndim != 3 or world_array.shape[1] != 4 or world_array.shape[2] != 2:
        raise ValueError(f"worlds must be hand planes of shape (w, 4, 2), not {world_array.shape}")
    cdef cnp.ndarray[uint64_t, ndim=3] planes = world_array
    kind_array = integer_array(move_kinds, np.uint8, "the moves' kinds")
    key_array = integer_array(move_keys, np.uint8, "the moves' keys")
    card_array = integer_array(move_cards, np.uint64, "the moves' cards")
    if kind_array.ndim != 1 or key_array.ndim != 1 or card_array.ndim != 2:
        raise ValueError("the moves' kinds and keys (length m) and cards (shape (m, 2)) must describe the same moves")
    cdef cnp.ndarray[uint8_t, ndim=1] kinds = kind_array
    cdef cnp.ndarray[uint8_t, ndim=1] keys = key_array
    cdef cnp.ndarray[uint64_t, ndim=2] cards = card_array
    cdef Py_ssize_t nworlds = planes.shape[0], nmoves = kinds.shape[0], m, i, nlegal
    if keys.shape[0] != nmoves or cards.shape[0] != nmoves or cards.shape[1] != 2:
        raise ValueError("the moves' kinds and keys (length m) and cards (shape (m, 2)) must describe the same moves")
    if start.done:
        raise ValueError("world playouts start from a deal that is on")
    if nworlds * nmoves > MAX_PLAYOUTS or (nworlds * nmoves and count > MAX_PLAYOUTS // (nworlds * nmoves)):
        raise ValueError(f"{nworlds} worlds x {nmoves} moves x {count} playouts is more than one call plays "
                         f"({MAX_PLAYOUTS})")
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
    cdef Cache* cache = _take_cache(rule)
    with nogil:
        code = _world_playouts(&start, <const uint64_t*>planes.data, nworlds, <const uint8_t*>kinds.data,
                               <const uint8_t*>keys.data, <const uint64_t*>cards.data, nmoves, count, first_seed,
                               rule, cache, <int8_t*>out.data, bad)
    _give_back_cache(cache, code == 0 or code == ERR_WORLD)  # (a world that does not fit is refused unplayed)
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
    cdef Py_ssize_t count = as_in_range(n, "the number of deals", 0, MAX_PLAYOUTS)
    cdef uint64_t first_seed = _seed(seed)
    cdef int deal_level = as_in_range(level, "level", 2, 14)
    return _finishing_orders(NULL, deal_level, first_seed, count, POLICY_RANDOM)
