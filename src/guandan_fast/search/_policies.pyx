# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""The deterministic playout policies, natively: the greedy rules (a cheap rollout for
search) and MinPlaysAgent's rules (on the exact solver of ``_minplays``, its C face
``_minplays.pxd``), written once here. The playout loop (``_playout``) plays them for every
seat of a playout; :class:`Chooser` gives one decision of a :class:`~guandan_fast.Deal`
to Python (what :class:`~guandan_fast.agents.MinPlaysAgent` plays).

Both work on the play state of ``engine/state.pxd`` and the complete move list of the seat
to act (its leading list, or the moves that beat), and choose a move or the pass.
"""

from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from guandan_fast.engine._bitops cimport gf_ctz64, gf_hand_add, gf_hand_remove
from guandan_fast.engine._movegen cimport (
    HR_POWER,
    K_PASS,
    K_SINGLE,
    K_STRAIGHT_FLUSH,
    MoveBuffer,
    as_integer,
    bomb_tier,
    generate_into,
    has_legal_follow_c,
    movebuf_free,
    movebuf_init,
    wild_bit,
)
from guandan_fast.engine.state cimport PHASE_PLAY, PlayState, State, hand_size
from guandan_fast.search._minplays cimport (
    hand_lanes,
    hash_slot,
    WHOLE_BOMBS,
    holds_whole_rank,
    solver_count_within,
    solver_decompose,
    solver_free,
    solver_init,
    solver_prepare,
)

#: The policies by name: their codes (``policy`` of the native playout entry points).
POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY, "minplays": POLICY_MINPLAYS, "tactics": POLICY_TACTICS}


# -- the greedy policy -------------------------------------------------------------------------
# A cheap rule of thumb for search rollouts, close to how MinPlaysAgent plays without its
# exact solver: keep bombs, the wildcard and whole ranks together; lead low cards in the
# largest combination; follow an opponent with the cheapest move that beats, a partner not
# at all; bomb only when an opponent is about to finish. Deterministic (no draw).
cdef enum:
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
        if hand_size(once & nibble, twice & nibble) >= 4:
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
        if hand_size(mo & group, mt & group) < hand_size(once & group, twice & group):
            count += 1
        left &= ~group
    return count


cdef inline int _greedy_cost(const PlayState* s, int seat, int held, MoveBuffer* m, Py_ssize_t i, uint64_t bombs,
                             uint64_t wild, bint leading) noexcept nogil:
    """The cost of move ``i`` (lower is better); -1 when it empties the hand."""
    cdef int kind = m.kinds[i], key = m.keys[i], size, cost = 0
    cdef uint64_t mo = m.cards[2 * i], mt = m.cards[2 * i + 1]
    size = hand_size(mo, mt)
    if size == held:
        return -1
    if kind >= K_STRAIGHT_FLUSH:
        return _bomb_cost(kind, key, size)
    if (mo & wild) or (mo & bombs):
        cost += COST_BREAKS
    if leading:
        return cost + 16 * _lowest_power(mo, s.level) + (15 - size)
    return cost + COST_SPLITS * _splits(s.once[seat], s.twice[seat], mo, mt, wild) + 64 * key + _lowest_power(mo, s.level)


cdef inline bint _threatened(const PlayState* s, int seat) noexcept nogil:
    """Whether an opponent of ``seat`` is about to finish: the seat to beat holds at most
    THREAT_LAST cards, or an opponent in play at most THREAT_ANY."""
    cdef int other
    if hand_size(s.once[s.last_seat], s.twice[s.last_seat]) <= THREAT_LAST:
        return True
    for other in range(1, 4, 2):  # the two opponents, seat + 1 and seat + 3
        other = (seat + other) & 3
        if s.once[other] and hand_size(s.once[other], s.twice[other]) <= THREAT_ANY:
            return True
    return False


cdef Py_ssize_t _greedy(const PlayState* s, MoveBuffer* m, bint leading) noexcept nogil:
    """The greedy policy's choice among the ``m.n`` moves of the seat to act; -1: pass."""
    cdef int seat = s.to_act, cost, best_cost = -1
    cdef Py_ssize_t i, best = -1
    cdef uint64_t wild = wild_bit(s.level)
    cdef uint64_t bombs = _bomb_ranks(s.once[seat], s.twice[seat])
    cdef int held = hand_size(s.once[seat], s.twice[seat])
    cdef bint threat
    for i in range(m.n):
        cost = _greedy_cost(s, seat, held, m, i, bombs, wild, leading)
        if cost < 0:
            return i
        if best < 0 or cost < best_cost:
            best = i
            best_cost = cost
    if leading or best < 0:
        return best
    if s.last_seat == (seat ^ 2):
        return -1
    if best_cost < COST_SPLITS:
        return best
    threat = _threatened(s, seat)
    return best if threat else -1


# -- the minplays policy --------------------------------------------------------------------------
# MinPlaysAgent's rules (agents/minplays.py), natively: count(hand) is min_plays' count,
# a decomposition is min_plays(prefer="bombs")'s (for the tactics, prefer="high" and both
# with whole=True: every rank of four or more natural cards one bomb), both remembered
# per level (Memo). Lead the
# weakest play of the decomposition that is no bomb (lowest key, then most cards; a bomb
# when nothing else is left). Follow: a move that empties the hand; else pass a partner;
# else the weakest plain move that keeps the count (count(rest) <= n - 1: the lowest key,
# the first listed); else, when an opponent is about to finish, the plain move with
# the best rest; else a bomb when an opponent is about to finish or it leaves
# count(rest) <= BOMB_TO_FINISH (best rest, then lowest tier and key); else pass. Ties go
# to the first move listed, as in MinPlaysAgent. The "tactics" policy is the same with its
# own decomposition ("high") and eight rules: follow an opponent with a play of the plan first
# (_weakest_keep's plan_first), follow a partner's low play with a low play of the plan while
# the partner is not close to going out (_over_partner), follow with no plain move that breaks
# a bomb of the plan (_keeps_bombs: in every plain follow above and below, the threatened one
# included, but for a sure way out), lead the plays nobody can beat first when at most one
# other is left (_sure_lead), follow (a partner too) with a move nobody can beat that leaves such
# a hand (_sure_follow), two for an opponent that could go out (_tactical_lead, and
# _strongest_keep when the next seat could go out on the trick), and bomb only when an
# opponent is about to finish — for a bomb, the seat to beat holding at most
# BOMB_THREAT_LAST cards (THREAT_LAST's number, tuned apart), SPARE_BOMB_CARDS more per bomb
# of the plan beyond the first — the bomb empties the hand or _sure_follow takes it (never
# for a short rest: BOMB_TO_FINISH is the plain rules');
# measured by the arena (docs/agents.md, "How strong: the search agent").
cdef enum:
    BOMB_TO_FINISH = 2
    BOMB_THREAT_LAST = 6        # "tactics": a bomb over an opponent holding this many cards or fewer ...
    SPARE_BOMB_CARDS = 6        # ... and this many more per bomb of the plan beyond the first
    DANGER_CARDS = 6            # "tactics": an opponent with this many cards or fewer is watched
    OVER_PARTNER_KEY = 12       # "tactics": over a partner's play, a play of the plan up to this key (a queen)
    PREFER_BOMBS = 1            # solver.PREFER["bombs"]: the minplays policy's decompositions
    PREFER_HIGH = 3             # solver.PREFER["high"]: the tactics policy's (with WHOLE_BOMBS: its plans and counts)
    NO_BOUND = 1 << 28          # above any count


cdef inline Memo* _memo_slot(Policy* c, uint64_t once, uint64_t twice) noexcept nogil:
    return &c.memo[hash_slot(once, twice, (1 << MEMO_BITS) - 1)]


cdef int _decompose(Policy* c, uint64_t once, uint64_t twice, int level, Plan* plan) noexcept nogil:
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
        _keep_bombs(c, plan, level)
        return 0
    c.ready = 0  # a decomposition ends the solver's preparation
    count = solver_decompose(&c.solver, once, twice, level,
                             PREFER_HIGH | WHOLE_BOMBS if c.policy == POLICY_TACTICS else PREFER_BOMBS, rows)
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
    _keep_bombs(c, plan, level)
    if 0 < count <= MEMO_PLAYS:
        c.memo_used = 1
        slot.once = once
        slot.twice = twice
        slot.count = <int>count
        for k in range(count):
            slot.kinds[k] = plan.kinds[k]
            slot.keys[k] = plan.keys[k]
            slot.cards[2 * k] = plan.cards[2 * k]
            slot.cards[2 * k + 1] = plan.cards[2 * k + 1]
    return 0


cdef inline void _keep_bombs(Policy* c, Plan* plan, int level) noexcept nogil:
    """``plan.kept_once``, ``plan.kept_twice`` := the natural cards of the plan's bombs for
    the tactics (the wildcards apart: a move may spend one and leave a smaller bomb), nothing
    for the plain rules."""
    cdef int k
    cdef uint64_t wild = wild_bit(level)
    plan.kept_once = 0
    plan.kept_twice = 0
    if c.policy != POLICY_TACTICS:
        return
    for k in range(plan.count):
        if plan.kinds[k] >= K_STRAIGHT_FLUSH:
            gf_hand_add(&plan.kept_once, &plan.kept_twice, plan.cards[2 * k] & ~wild, plan.cards[2 * k + 1] & ~wild)


cdef inline bint _keeps_bombs(const PlayState* s, MoveBuffer* m, Py_ssize_t i, const Plan* plan) noexcept nogil:
    """Whether the hand left by move ``i`` still holds ``plan``'s kept cards: the tactics
    follow with a plain move only when it breaks no bomb of their plan (a plain reading of
    a straight flush's cards included); a plain break that keeps the count costs the bomb,
    which takes the lead back whenever it is needed. (Nothing kept, the plain rules' and a
    hand without bombs: every move keeps it, without taking the move out.)"""
    if (plan.kept_once | plan.kept_twice) == 0:
        return True
    cdef uint64_t rest_once = s.once[s.to_act], rest_twice = s.twice[s.to_act]
    gf_hand_remove(&rest_once, &rest_twice, m.cards[2 * i], m.cards[2 * i + 1])
    return (plan.kept_once & ~rest_once) == 0 and (plan.kept_twice & ~rest_twice) == 0


cdef inline bint _in_plan(Plan* plan, MoveBuffer* m, Py_ssize_t i) noexcept nogil:
    """Whether move ``i`` takes exactly the cards of one play of the plan."""
    cdef int k
    for k in range(plan.count):
        if plan.cards[2 * k] == m.cards[2 * i] and plan.cards[2 * k + 1] == m.cards[2 * i + 1]:
            return True
    return False


cdef inline int _ready(Policy* c, uint64_t once, uint64_t twice, int level) noexcept nogil:
    """The solver prepared to count sub-hands of this hand (kept until another hand or a
    decomposition); 0, or -1 when out of memory."""
    if c.ready and c.ready_once == once and c.ready_twice == twice:
        return 0
    c.ready = 0
    if solver_prepare(&c.solver, once, twice, level, c.policy == POLICY_TACTICS) != 0:
        return -1
    c.ready = 1
    c.ready_once = once
    c.ready_twice = twice
    return 0


cdef inline int _rest_count(Policy* c, const PlayState* s, MoveBuffer* m, Py_ssize_t i, int bound) noexcept nogil:
    """The fewest plays of the seat to act's hand without move ``i`` (the solver prepared
    for the hand), when below ``bound``; else a lower bound >= ``bound``."""
    cdef uint64_t rest_once = s.once[s.to_act], rest_twice = s.twice[s.to_act]
    gf_hand_remove(&rest_once, &rest_twice, m.cards[2 * i], m.cards[2 * i + 1])
    cdef Memo* slot = _memo_slot(c, rest_once, rest_twice)
    if slot.count > 0 and slot.once == rest_once and slot.twice == rest_twice:
        return slot.count
    return solver_count_within(&c.solver, rest_once, rest_twice, bound)


cdef int _weakest_play(Plan* plan, bint bombs, unsigned int sizes_out, const uint8_t* only) noexcept nogil:
    """The weakest play of the plan (lowest key, then most cards; the first listed on ties)
    among its plain plays (``bombs``: its bombs) whose number of cards is not a bit of
    ``sizes_out`` (and, unless ``only`` is NULL, whose flag ``only[k]`` is set); -1 when
    there is none."""
    cdef int k, size, best = -1, best_size = 0
    for k in range(plan.count):
        if (plan.kinds[k] >= K_STRAIGHT_FLUSH) != bombs or (only != NULL and not only[k]):
            continue
        size = hand_size(plan.cards[2 * k], plan.cards[2 * k + 1])
        if sizes_out >> size & 1:
            continue
        if best < 0 or plan.keys[k] < plan.keys[best] or (plan.keys[k] == plan.keys[best] and size > best_size):
            best, best_size = k, size
    return best


cdef int _tactical_lead(const PlayState* s, Plan* plan) noexcept nogil:
    """The "tactics" policy's lead when an opponent in play holds at most DANGER_CARDS
    cards: the weakest plain play of the plan whose number of cards no such opponent holds
    (they cannot go out on it), else the strongest plain play (the hardest to beat); -1
    when no opponent is that close to going out, or the plan holds bombs only (then the
    MinPlays lead)."""
    cdef int seat = s.to_act, other, k, size, best
    cdef unsigned int danger = 0
    for other in range(1, 4, 2):  # the two opponents, seat + 1 and seat + 3
        other = (seat + other) & 3
        if s.once[other]:
            size = hand_size(s.once[other], s.twice[other])
            if size <= DANGER_CARDS:
                danger |= 1u << size
    if not danger:
        return -1
    best = _weakest_play(plan, False, danger, NULL)
    if best >= 0:
        return best
    for k in range(plan.count):
        if plan.kinds[k] < K_STRAIGHT_FLUSH and (best < 0 or plan.keys[k] > plan.keys[best]):
            best = k
    return best


cdef inline void _unseen(const PlayState* s, uint64_t* once, uint64_t* twice) noexcept nogil:
    """The cards the seat to act cannot see: the other three hands together, which are
    exactly the cards neither in its hand nor played (public knowledge for that seat)."""
    cdef int other, seat
    once[0] = 0
    twice[0] = 0
    for other in range(1, 4):
        seat = (s.to_act + other) & 3
        gf_hand_add(once, twice, s.once[seat], s.twice[seat])


cdef bint _leads_out(const Plan* plan, uint64_t unseen_once, uint64_t unseen_twice, int level,
                     uint8_t* sure) noexcept nogil:
    """Whether at most one play of ``plan`` can be beaten by the unseen cards (:func:`_unseen`,
    all of them in one hand: a play they cannot beat, no seat can): a seat holding the lead
    then leads out, the plays nobody can beat first and the other last. Unless ``sure`` is
    NULL, ``sure[k]`` is set for the plays nobody can beat (read only when True)."""
    cdef int k, beatable = 0
    cdef bint beaten
    for k in range(plan.count):
        beaten = has_legal_follow_c(unseen_once, unseen_twice, level, plan.kinds[k], plan.keys[k],
                                    hand_size(plan.cards[2 * k], plan.cards[2 * k + 1])) != 0
        if sure != NULL:
            sure[k] = not beaten
        beatable += beaten
        if beatable > 1:
            return False
    return True


cdef int _sure_lead(const PlayState* s, Plan* plan) noexcept nogil:
    """The "tactics" policy's lead when the plan leads out (:func:`_leads_out`): the weakest
    play nobody can beat (:func:`_weakest_play`, a plain one first), so that the seat keeps
    the lead play after play and goes out with the last one; -1 otherwise (and for a plan
    of one play)."""
    cdef int best
    cdef uint64_t once, twice
    cdef uint8_t sure[108]  # plan.count <= 108 (the plays of at most 108 cards)
    if plan.count < 2:
        return -1
    _unseen(s, &once, &twice)
    if not _leads_out(plan, once, twice, s.level, sure):
        return -1
    best = _weakest_play(plan, False, 0, sure)
    return best if best >= 0 else _weakest_play(plan, True, 0, sure)


cdef Py_ssize_t _sure_follow(const PlayState* s, MoveBuffer* m, Policy* c, int* failed) noexcept nogil:
    """The "tactics" policy's follow, over a partner's play too, with a move nobody can beat
    (the unseen cards, all in one hand, cannot) whose rest's plan leads out
    (:func:`_leads_out`): the seat takes the lead and leads out by :func:`_sure_lead`
    (as long as the plans made after each play agree). A plain move before a bomb, then
    the lowest (key; for bombs :func:`_bomb_cost`'s ladder); -1 when there is none
    (``failed[0]`` set when the solver ran out of memory). ``c.plans[seat]`` holds the
    hand's plan. Called at most follows of a rollout, so beaten moves are told cheaply."""
    cdef int seat = s.to_act, size, order, best_order = 0, held = hand_size(s.once[seat], s.twice[seat])
    cdef int beaten_below = -1, clear_from = 1 << 30  # bombs known beaten / not, by _bomb_cost
    cdef uint64_t unseen_once, unseen_twice, mo, mt, lo, hi, rest_once, rest_twice
    cdef uint64_t once = s.once[seat], twice = s.twice[seat]
    cdef Py_ssize_t i, best = -1
    cdef bint plain, beaten, whole = False
    cdef Plan rest
    _unseen(s, &unseen_once, &unseen_twice)
    # only a bomb beats the red joker: unseen cards holding one beat every plain move
    plain = has_legal_follow_c(unseen_once, unseen_twice, s.level, K_SINGLE, HR_POWER, 1) == 0
    if not plain:  # (the bound below holds unless the plan keeps a rank whole)
        hand_lanes(once, twice, wild_bit(s.level), &lo, &hi)
        whole = holds_whole_rank(lo, hi)
    for i in range(m.n):
        mo = m.cards[2 * i]
        mt = m.cards[2 * i + 1]
        size = hand_size(mo, mt)
        if m.kinds[i] < K_STRAIGHT_FLUSH:
            if not plain:
                continue
            order = m.keys[i]
        else:
            order = _bomb_cost(m.kinds[i], m.keys[i], size)
        if best >= 0 and order >= best_order:
            continue  # the first listed of the lowest
        if m.kinds[i] < K_STRAIGHT_FLUSH:
            beaten = has_legal_follow_c(unseen_once, unseen_twice, s.level, m.kinds[i], m.keys[i], size) != 0
        elif order <= beaten_below or order >= clear_from:
            # a bomb is beaten exactly when one above it on the ladder is unseen
            beaten = order <= beaten_below
        else:
            beaten = has_legal_follow_c(unseen_once, unseen_twice, s.level, m.kinds[i], m.keys[i], size) != 0
            if beaten:
                beaten_below = order
            else:
                clear_from = order
        if beaten:
            continue
        # with a bomb unseen, a rest that leads out is at most one plain play and bombs (four
        # cards or more), so at most 1 + (cards - 1) // 4 plays; and it needs at least one
        # play fewer than the hand (the hand's plan is a fewest, the move one play of it) —
        # not when the plan keeps a rank whole that the move may break (the rest then can
        # need far fewer plays)
        if not plain and not whole and held - size - 1 < 4 * (c.plans[seat].count - 2):
            continue
        rest_once, rest_twice = once, twice
        gf_hand_remove(&rest_once, &rest_twice, mo, mt)
        if _decompose(c, rest_once, rest_twice, s.level, &rest) != 0:
            failed[0] = 1
            return -1
        if _leads_out(&rest, unseen_once, unseen_twice, s.level, NULL):
            best = i
            best_order = order
    return best


cdef inline bint _next_may_go_out(const PlayState* s, int seat) noexcept nogil:
    """Whether the next seat, an opponent, holds exactly as many cards as the move to beat
    (at most DANGER_CARDS): it could go out on the trick, or (when the move is its own) on
    the lead it wins if nobody beats it."""
    cdef int other = (seat + 1) & 3
    cdef int size = hand_size(s.once[other], s.twice[other])
    return s.once[other] != 0 and size == s.last_size and size <= DANGER_CARDS


cdef Py_ssize_t _strongest_keep(const PlayState* s, MoveBuffer* m, Policy* c, Plan* plan, int* failed) noexcept nogil:
    """The plain move of the highest key that keeps the decomposition (and its bombs,
    :func:`_keeps_bombs`); -1: none."""
    cdef Py_ssize_t i, best = -1
    cdef int n = plan.count
    for i in range(m.n):
        if m.kinds[i] >= K_STRAIGHT_FLUSH or (best >= 0 and m.keys[i] <= m.keys[best]):
            continue
        if not _keeps_bombs(s, m, i, plan):
            continue
        if not _in_plan(plan, m, i):
            if _ready(c, s.once[s.to_act], s.twice[s.to_act], s.level) != 0:
                failed[0] = 1
                return -1
            if _rest_count(c, s, m, i, n) >= n:
                continue
        best = i
    return best


cdef Py_ssize_t _weakest_keep(const PlayState* s, MoveBuffer* m, Policy* c, Plan* plan, int* failed,
                              bint plan_first) noexcept nogil:
    """The plain move of the lowest key (the first listed on ties) that keeps the
    decomposition (and, for the tactics, its bombs: :func:`_keeps_bombs`); -1: none.
    ``plan_first`` (the tactics): a play of the plan, when one beats, before any other move
    (the lowest key among them): a move that keeps the count but not the plan leaves a worse
    hand of as many plays.

    It is the first of the lowest key among those leaving fewer than n plays (n - 1: the
    move and a decomposition of the rest empty the hand, and never fewer: the tactics' moves
    here break no bomb of their plan, :func:`_keeps_bombs`). A play of the plan leaves
    n - 1 without a solve; only moves before the best such play (lower key, or the same key
    listed earlier) need one."""
    cdef Py_ssize_t i, keep = -1
    cdef int n = plan.count
    for i in range(m.n):
        if (m.kinds[i] < K_STRAIGHT_FLUSH and (keep < 0 or m.keys[i] < m.keys[keep]) and _in_plan(plan, m, i)
                and _keeps_bombs(s, m, i, plan)):
            keep = i
    if plan_first and keep >= 0:
        return keep
    for i in range(m.n):
        if m.kinds[i] >= K_STRAIGHT_FLUSH or (keep >= 0 and (m.keys[i] > m.keys[keep] or (
                m.keys[i] == m.keys[keep] and i >= keep))):
            continue
        if not _keeps_bombs(s, m, i, plan):
            continue
        if _ready(c, s.once[s.to_act], s.twice[s.to_act], s.level) != 0:
            failed[0] = 1
            return -1
        if _rest_count(c, s, m, i, n) < n:
            keep = i
    return keep


cdef Py_ssize_t _over_partner(const PlayState* s, MoveBuffer* m, Plan* plan) noexcept nogil:
    """The tactics' follow of a partner's play while the partner holds more than DANGER_CARDS
    cards: the plain play of the plan of the lowest key (the first listed on ties) that
    beats it (no plain reading of a bomb's cards: :func:`_keeps_bombs`), when that key is
    at most OVER_PARTNER_KEY; -1: pass. The seat sheds a play of
    its plan without spending a lead of its own, and the opponent after it must beat a
    higher play; a partner close to going out keeps its trick, and a high play is kept."""
    cdef int partner = s.to_act ^ 2
    cdef Py_ssize_t i, best = -1
    if hand_size(s.once[partner], s.twice[partner]) <= DANGER_CARDS:
        return -1
    for i in range(m.n):
        if (m.kinds[i] < K_STRAIGHT_FLUSH and m.keys[i] <= OVER_PARTNER_KEY
                and (best < 0 or m.keys[i] < m.keys[best]) and _in_plan(plan, m, i) and _keeps_bombs(s, m, i, plan)):
            best = i
    return best


cdef inline int _bomb_threat_last(const Plan* plan) noexcept nogil:
    """The tactics bomb over a seat to beat holding at most this many cards: BOMB_THREAT_LAST,
    and SPARE_BOMB_CARDS more for each bomb of the plan beyond the first (a spare bomb is
    cheaper to spend: the seat keeps one for the end)."""
    cdef int k, bombs = 0
    for k in range(plan.count):
        bombs += plan.kinds[k] >= K_STRAIGHT_FLUSH
    return BOMB_THREAT_LAST + SPARE_BOMB_CARDS * (bombs - 1) if bombs > 1 else BOMB_THREAT_LAST


cdef Py_ssize_t _planned(const PlayState* s, MoveBuffer* m, bint leading, Policy* c, int* failed,
                         bint tactics) noexcept nogil:
    """The minplays policy's choice (``tactics``: the tactics policy's) among the ``m.n``
    moves of the seat to act; -1: pass. ``failed[0]`` is set when the solver ran out of
    memory."""
    cdef int seat = s.to_act, best_k = -1, held, rest, n, tier
    cdef int plain_rest = 0, bomb_rest = 0, bomb_tier_key = 0
    cdef Py_ssize_t i, keep = -1, plain = -1, bomb = -1
    cdef uint64_t once = s.once[seat], twice = s.twice[seat]
    cdef Plan* plan = &c.plans[seat]
    cdef bint threat, bomb_threat, is_plain
    if not (plan.valid and plan.once == once and plan.twice == twice):
        if _decompose(c, once, twice, s.level, plan) != 0:
            failed[0] = 1
            return -1
    if leading:
        best_k = _sure_lead(s, plan) if tactics else -1
        if best_k < 0:
            best_k = _tactical_lead(s, plan) if tactics else -1
        if best_k < 0:  # the weakest plain play; a bomb only when nothing else is left
            best_k = _weakest_play(plan, False, 0, NULL)
        if best_k < 0:
            best_k = _weakest_play(plan, True, 0, NULL)
        for i in range(m.n):
            if (best_k >= 0 and m.kinds[i] == plan.kinds[best_k] and m.keys[i] == plan.keys[best_k]
                    and m.cards[2 * i] == plan.cards[2 * best_k] and m.cards[2 * i + 1] == plan.cards[2 * best_k + 1]):
                return i
        return _greedy(s, m, True)  # not reached: the decomposition's plays are leading moves
    held = hand_size(once, twice)
    for i in range(m.n):
        if hand_size(m.cards[2 * i], m.cards[2 * i + 1]) == held:
            return i
    n = plan.count
    if tactics:  # a move that makes going out sure, over a partner's play too
        keep = _sure_follow(s, m, c, failed)
        if keep >= 0 or failed[0]:
            return keep
    if tactics and _next_may_go_out(s, seat):
        # "tactics": the next seat could go out on this trick (or, when it made the move
        # to beat, on the lead it wins); hold it with the strongest plain move that keeps
        # the decomposition (over a partner's play too). None keeps it: on to the threats
        # (the weakest such move is not looked for again)
        keep = _strongest_keep(s, m, c, plan, failed)
        if keep >= 0 or failed[0] or s.last_seat == (seat ^ 2):
            return keep
    elif s.last_seat == (seat ^ 2):
        return _over_partner(s, m, plan) if tactics else -1
    else:
        keep = _weakest_keep(s, m, c, plan, failed, tactics)
        if keep >= 0 or failed[0]:
            return keep
    threat = _threatened(s, seat)
    # the tactics' bombs: also when the seat to beat holds at most _bomb_threat_last cards
    bomb_threat = threat or (tactics and hand_size(s.once[s.last_seat], s.twice[s.last_seat]) <= _bomb_threat_last(plan))
    if not bomb_threat and (tactics or n - 1 > BOMB_TO_FINISH):  # the tactics keep their bombs then
        return -1
    if _ready(c, once, twice, s.level) != 0:
        failed[0] = 1
        return -1
    for i in range(m.n):
        is_plain = m.kinds[i] < K_STRAIGHT_FLUSH
        if is_plain and (not threat or not _keeps_bombs(s, m, i, plan)):  # the tactics: a bomb, not a break
            continue
        rest = _rest_count(c, s, m, i, NO_BOUND)
        if is_plain:
            if plain < 0 or rest < plain_rest or (rest == plain_rest and m.keys[i] < m.keys[plain]):
                plain = i
                plain_rest = rest
        elif bomb_threat or rest <= BOMB_TO_FINISH:
            tier = 64 * bomb_tier(m.kinds[i], hand_size(m.cards[2 * i], m.cards[2 * i + 1])) + m.keys[i]
            if bomb < 0 or rest < bomb_rest or (rest == bomb_rest and tier < bomb_tier_key):
                bomb = i
                bomb_rest = rest
                bomb_tier_key = tier
    if threat and plain >= 0:
        return plain
    return bomb


# -- one policy's state ------------------------------------------------------------------------------
cdef int policy_init(Policy* p, int policy) noexcept nogil:
    cdef int seat
    p.policy = policy
    p.level = 0
    p.memo_used = 0
    p.planning = 0
    p.ready = 0
    p.memo = NULL
    for seat in range(4):
        p.plans[seat].valid = 0
    if policy != POLICY_MINPLAYS and policy != POLICY_TACTICS:
        return 0
    p.memo = <Memo*>calloc(1 << MEMO_BITS, sizeof(Memo))
    if p.memo == NULL:
        return -1
    if solver_init(&p.solver) != 0:
        free(p.memo)
        p.memo = NULL
        return -1
    p.planning = 1
    return 0


cdef void policy_free(Policy* p) noexcept nogil:
    if p.planning:
        solver_free(&p.solver)
        free(p.memo)
        p.memo = NULL
        p.planning = 0


cdef void _at_level(Policy* p, int level) noexcept nogil:
    """Forget the plans and decompositions of another level."""
    cdef int seat
    if p.level == level:
        return
    p.level = level
    p.ready = 0
    for seat in range(4):
        p.plans[seat].valid = 0
    if p.memo != NULL and p.memo_used:  # (a fresh memory is calloc's: zeros not yet touched)
        memset(p.memo, 0, (1 << MEMO_BITS) * sizeof(Memo))
        p.memo_used = 0


cdef Py_ssize_t policy_choose(Policy* p, const PlayState* s, MoveBuffer* moves, bint leading,
                              int* failed) noexcept nogil:
    if p.policy == POLICY_MINPLAYS or p.policy == POLICY_TACTICS:
        _at_level(p, s.level)
        return _planned(s, moves, leading, p, failed, p.policy == POLICY_TACTICS)
    return _greedy(s, moves, leading)


# -- one decision for Python ------------------------------------------------------------------------
cdef class Chooser:
    """The choice of a deterministic policy (``"greedy"``, ``"minplays"`` or ``"tactics"``) for the seat
    to act of a deal in its play phase, as an index into ``deal.legal_actions()``. It keeps
    what it learnt about hands (decompositions) between calls; one thread at a time."""

    cdef Policy policy
    cdef MoveBuffer moves
    cdef bint ready

    def __cinit__(self, policy):
        code = POLICIES.get(policy) if isinstance(policy, str) else None
        if code is None or code == POLICY_RANDOM:
            raise ValueError(f"a chooser plays 'greedy', 'minplays' or 'tactics', not {policy!r}")
        if movebuf_init(&self.moves, 256) != 0:
            raise MemoryError()
        if policy_init(&self.policy, code) != 0:
            movebuf_free(&self.moves)
            raise MemoryError()
        self.ready = True

    def __dealloc__(self):
        if self.ready:
            policy_free(&self.policy)
            movebuf_free(&self.moves)

    def __reduce__(self):
        raise TypeError("a Chooser is not pickled")

    def choose(self, deal):
        """The index into ``deal.legal_actions()`` of the policy's action (0 is the pass
        when following)."""
        held = getattr(deal, "_state", None)
        if not isinstance(held, State):
            raise TypeError(f"expected a guandan_fast Deal, not {type(deal).__name__}")
        cdef State state = <State>held
        if state.phase != PHASE_PLAY:
            raise ValueError("a policy chooses among the moves of the play phase")
        cdef PlayState s = state.s
        cdef bint leading = s.last_kind == K_PASS
        cdef int failed = 0, seat = s.to_act & 3
        cdef Py_ssize_t n, i
        with nogil:
            n = generate_into(s.once[seat], s.twice[seat], s.level, s.last_kind, s.last_key, s.last_size, False,
                              &self.moves)
            if n >= 0:
                i = policy_choose(&self.policy, &s, &self.moves, leading, &failed)
        if n < 0 or failed:
            raise MemoryError("out of memory choosing a move")
        return i if leading else i + 1
