# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""Native exact solver of the fewest leading plays that empty a hand (最少手数).

Every rule but the straight flush's is blind to suits (a straight flush is a straight as
well), so the fewest plays depend only on the hand's 16 card counts — the 13 ranks
without the wildcards, the two jokers, the wildcards — its *lanes*. The search is a
depth-first branch and bound over partitions of those counts, without the GIL:

* the hand's leading moves are generated once (``generate_into``) and reduced to their
  distinct count patterns; a leading move is legal in any sub-hand holding its cards, so
  the patterns of a sub-hand are the root patterns that fit in it;
* every partition has a play holding a card of any given non-empty lane, so a node
  branches only on the patterns touching one lane: the one with the fewest patterns;
* a memo (open addressing on the remaining counts, owned by the caller's
  :class:`MinPlays`) keeps exact values and proven lower bounds (fail-soft), so a
  sub-hand reached by different partitions is solved once — and, since a sub-hand's cost
  does not depend on the hand it was cut from, it is kept for the next hands of the same
  level (a rollout decomposes each hand and then the hand less a play of it);
* a lower bound on the plays left (see ``_lower_bound``) and the best cost so far prune;
  the patterns are tried most cards first.

A mode flag, WHOLE_BOMBS (the tactics' decompositions and counts), allows only partitions
in which every rank of four or more natural cards is played as one bomb holding all of them:
at each node a pattern taking some but not all of such a rank is skipped. Whether a rank is
held so depends on the sub-hand's lanes alone, so the memo stays exact per mode, and the
lower bound (every play costs at least a unit) still holds.

Costs are additive per play: 1 per play, or 65,536 per play plus a tie-break penalty (the
``prefer`` option of :func:`guandan_fast.min_plays`), so the same search returns a
decomposition with the fewest plays and, among those, the smallest penalty. The counts
found are then given real cards of the hand, each play read by the generator's own move.
"""

cimport cython
from libc.stdint cimport uint8_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, calloc, free

import numpy as np
cimport numpy as cnp

from guandan_fast.engine._bitops cimport gf_popcount64, gf_ctz64
from guandan_fast.engine._movegen cimport (
    FULL_PLANE,
    HR_BIT,
    K_BOMB,
    K_FOUR_JOKERS,
    K_PAIR,
    K_SINGLE,
    K_STRAIGHT_FLUSH,
    K_THREE_TWO,
    LEVEL_POWER,
    SB_POWER,
    NUM_CARDS,
    SB_BIT,
    MoveBuffer,
    as_plane,
    as_small,
    movebuf_init,
    movebuf_free,
    generate_into,
    check_args,
    wild_bit,
)

cnp.import_array()

cdef enum:
    UNIT_TIED = 1 << 16       # cost of one play with tie-breaks: > 33 * (1,024 + 26), any penalties of a hand
    PENALTY_MAJOR = 1024      # > 33 * 26: a major penalty outweighs any number of minor ones
    HIGH_RANK = 14            # "high": a single or pair of this key (A) or above is not low
    HIGH_CARRIED = 4          # "high": a full house's pair above a king costs this per step (A 4 .. HR 16)
    TABLE_BITS = 15
    INFINITE = 1 << 28
    MAX_PLAY = 10             # the largest move: a bomb of ten cards
    NUM_LANES = 16
    NUM_ORDERS = 4 * MAX_PLAY     # _order's values: 0 .. 4 * MAX_PLAY - 1 (sizes 1..10)
    DEDUPE_SIZE = 4096
    ROOT_BITS = 28            # Entry.owner: the decomposition below, the mode above
    MODE_COUNT = 8            # a count (solver_count_within); modes 0..3 are the tie-breaks (plus WHOLE_BOMBS)

# Tie-breaks (the prefer option); the codes are solver.PREFER's.
cdef enum:
    PREFER_NONE = 0           # any decomposition with the fewest plays
    PREFER_BOMBS = 1          # most bomb plays (bombs of one rank, four jokers), then fewest singles
    PREFER_SINGLES = 2        # fewest singles, then fewest pairs
    PREFER_HIGH = 3           # most bomb plays (as above), then the singles and pairs fewest and highest, and no high pair carried

cdef uint32_t STAMP_LIMIT = 0xFFFFFFFFU   # a stamp wraps: clear the table first
cdef uint64_t HIGH1 = 0x8080808080808080ULL
cdef uint64_t GATHER = 0x0102040810204080ULL   # byte bits 0, 8, .. 56 -> bits 56..63


# -- lanes: a hand as 16 card counts, one byte each (hand_lanes, in the .pxd) -----------------------

cdef inline uint32_t _nonzero_lanes(uint64_t lo, uint64_t hi) noexcept nogil:
    """Bit c set when lane c is not empty."""
    cdef uint64_t l = nonzero_lanes_high(lo)
    cdef uint64_t h = nonzero_lanes_high(hi)
    return <uint32_t>(((l >> 7) * GATHER) >> 56) | (<uint32_t>(((h >> 7) * GATHER) >> 56) << 8)


cdef inline bint _fits(uint64_t lo, uint64_t hi, Play* p) noexcept nogil:
    """Whether every lane of the pattern is at most the hand's."""
    return (((lo | HIGH1) - p.lo) & HIGH1) == HIGH1 and (((hi | HIGH1) - p.hi) & HIGH1) == HIGH1


cdef inline int _pivot(uint32_t lanes, Search* s) noexcept nogil:
    """The lane to branch on: the non-empty lane with the fewest plays touching it."""
    cdef int lane, best = -1, size, fewest = 1 << 30
    while lanes:
        lane = gf_ctz64(lanes)
        lanes &= lanes - 1
        size = s.starts[lane + 1] - s.starts[lane]
        if size < fewest:
            fewest = size
            best = lane
    return best


cdef inline int _lower_bound(uint64_t lo, uint64_t hi) noexcept nogil:
    """Fewest plays any partition of the hand can have (a cheap, valid bound).

    A play has at most 6 cards unless it is a bomb of one rank (wildcards added), so
    ``ceil(cards / longest)`` with ``longest`` = max(6, the largest bomb the hand could make).
    """
    cdef int wilds = <int>(hi >> 56)
    cdef int cards = wilds, longest = 6, lane, count
    for lane in range(15):
        count = <int>(((lo if lane < 8 else hi) >> (8 * (lane & 7))) & 0xFF)
        cards += count
        if lane < 13 and count + wilds > longest:
            longest = count + wilds
    if longest > MAX_PLAY:
        longest = MAX_PLAY
    return (cards + longest - 1) // longest


cdef inline bint _breaks_bomb(uint64_t lo, uint64_t hi, const Play* p) noexcept nogil:
    """Whether the pattern takes some but not all of a rank the hand holds four or more
    natural cards of (such a rank is kept whole, as a bomb)."""
    return ((whole_lanes_lo(lo) & nonzero_lanes_high(p.lo) & nonzero_lanes_high(p.lo ^ lo))
            | (whole_lanes_hi(hi) & nonzero_lanes_high(p.hi) & nonzero_lanes_high(p.hi ^ hi))) != 0


cdef inline Entry* _entry(Search* s, uint64_t lo, uint64_t hi) noexcept nogil:
    """The table's entry for the sub-hand (lo, hi) under the search's mode, NULL when its
    slot holds none (empty, stale, another sub-hand or another mode)."""
    cdef Entry* e = &s.table[hash_slot(lo, hi, s.table_mask)]
    if e.stamp == s.stamp and e.lo == lo and e.hi == hi and e.owner >> ROOT_BITS == s.owner >> ROOT_BITS:
        return e
    return NULL


cdef int _search(Search* s, uint64_t lo, uint64_t hi, int ub) noexcept nogil:
    """The cost of the best partition of the hand (lo, hi) when it is < ``ub`` (exact), else
    a lower bound >= ``ub`` of it (fail-soft)."""
    if lo == 0 and hi == 0:
        return 0
    s.nodes += 1
    cdef Entry* e = _entry(s, lo, hi)
    cdef int lb
    if e != NULL:
        if e.best >= 0 or e.value >= ub:
            return e.value
        lb = e.value
    else:
        lb = _lower_bound(lo, hi) * s.unit
        if lb >= ub:
            return lb
    cdef int pivot = _pivot(_nonzero_lanes(lo, hi), s)
    cdef int best = INFINITE, best_play = -1, floor = INFINITE
    cdef int j, i, v, cap
    cdef bint whole = ((s.owner >> ROOT_BITS) & WHOLE_BOMBS) != 0
    cdef Play* p
    for j in range(s.starts[pivot], s.starts[pivot + 1]):
        i = s.lists[j]
        p = &s.plays[i]
        if not _fits(lo, hi, p) or (whole and _breaks_bomb(lo, hi, p)):
            continue
        cap = best if best < ub else ub
        v = p.cost + _search(s, lo - p.lo, hi - p.hi, cap - p.cost)
        if v < cap:
            best = v
            best_play = i
            if best <= lb:
                break
        elif v < floor:
            floor = v
    # _search may have overwritten this slot: write it again.
    e = &s.table[hash_slot(lo, hi, s.table_mask)]
    e.lo = lo
    e.hi = hi
    e.stamp = s.stamp
    e.owner = s.owner
    if best < ub:
        e.value = best
        e.best = best_play
        return best
    e.value = floor if floor > lb else lb
    e.best = -1
    return e.value


cdef Play* _first_optimal(Search* s, uint64_t lo, uint64_t hi, int value) noexcept nogil:
    """The play :func:`_search` would record first for the sub-hand (lo, hi) of exact cost
    ``value``: the first, in the branching order, that an optimal partition starts with
    (each tried with a window just above its optimal rest: exact there or beyond it); NULL
    when none is (impossible)."""
    cdef int pivot = _pivot(_nonzero_lanes(lo, hi), s)
    cdef int j, rest
    cdef bint whole = ((s.owner >> ROOT_BITS) & WHOLE_BOMBS) != 0
    cdef Play* p
    for j in range(s.starts[pivot], s.starts[pivot + 1]):
        p = &s.plays[s.lists[j]]
        if not _fits(lo, hi, p) or (whole and _breaks_bomb(lo, hi, p)):
            continue
        rest = value - p.cost
        if rest >= 0 and _search(s, lo - p.lo, hi - p.hi, rest + 1) == rest:
            return p
    return NULL


cdef inline int _low(int key) noexcept nogil:
    """How far a single's or pair's key is below an ace (0 for A, the level rank, jokers)."""
    return HIGH_RANK - key if key < HIGH_RANK else 0


cdef inline int _carried_pair_key(uint64_t lo, uint64_t hi, int key, int level) noexcept nogil:
    """The key of the pair a full house of lanes (lo, hi) and triple key ``key`` carries:
    that of its other natural lane (the level rank's LEVEL_POWER, the jokers' SB_POWER and
    HR_POWER), or LEVEL_POWER when the pair is wildcards alone."""
    cdef int triple = level - 2 if key == LEVEL_POWER else key - 2
    cdef uint32_t others = _nonzero_lanes(lo, hi) & ~(1U << triple) & 0x7FFFU  # not the wildcards' lane 15
    if not others:
        return LEVEL_POWER
    cdef int lane = gf_ctz64(others)
    if lane >= 13:  # the jokers' lanes, SB and HR
        return lane + (SB_POWER - 13)
    return LEVEL_POWER if lane == level - 2 else lane + 2


cdef inline int _play_cost(int kind, int key, int prefer, uint64_t lo, uint64_t hi, int level) noexcept nogil:
    """A play's cost under a tie-break, from its pattern (lanes ``lo``, ``hi``) and its
    reading. A straight flush counts as a straight here: the search sees rank counts only
    (its cards may or may not share a suit). A single's or a pair's key is its pattern's
    (one rank, or the wildcards'), whichever reading it has.

    A pattern's cost must not depend on the hand it is found in (the memo is shared between
    hands): it reads the pattern, the level and the reading, and the solver's moves are the
    strongest readings (``generate_into(..., strongest=True)``), one per pattern (of a full
    house that reads both ways, the one whose triple is the higher rank, so the lower pair
    is carried)."""
    cdef int major = 0 if kind == K_BOMB or kind == K_FOUR_JOKERS else PENALTY_MAJOR
    cdef int pair
    if prefer == PREFER_BOMBS:
        return UNIT_TIED + major + (kind == K_SINGLE)
    if prefer == PREFER_HIGH:
        # a low card left alone must be led, or thrown under another's lead: a single
        # costs twice what a pair of its rank costs, and both more the lower they are; a
        # pair of aces or higher is a control worth a play of its own: a full house costs
        # HIGH_CARRIED for each step such a pair it carries stands above a king (a lower
        # pair left alone costs its own penalty instead, so the full house takes it already)
        if kind == K_SINGLE:
            return UNIT_TIED + major + 2 + 2 * _low(key)
        if kind == K_PAIR:
            return UNIT_TIED + major + _low(key)
        if kind == K_THREE_TWO:
            pair = _carried_pair_key(lo, hi, key, level)
            return UNIT_TIED + major + (HIGH_CARRIED * (pair - (HIGH_RANK - 1)) if pair >= HIGH_RANK else 0)
        return UNIT_TIED + major
    if prefer == PREFER_SINGLES:
        return UNIT_TIED + (PENALTY_MAJOR if kind == K_SINGLE else 0) + (kind == K_PAIR)
    return 1


cdef int _dedupe_reserve(Dedupe* d, Py_ssize_t n) noexcept nogil:
    """Room for n patterns at most half full, and a fresh stamp; -1 when out of memory."""
    cdef uint64_t size = d.mask + 1, i
    if d.stamps == NULL or <uint64_t>(2 * n) > size:
        while <uint64_t>(2 * n) > size:
            size *= 2
        free(d.stamps)
        free(d.rows)
        d.stamps = <uint32_t*>calloc(size, sizeof(uint32_t))
        d.rows = <int32_t*>malloc(size * sizeof(int32_t))
        if d.stamps == NULL or d.rows == NULL:
            free(d.stamps)
            free(d.rows)
            d.stamps = NULL
            d.rows = NULL
            d.mask = DEDUPE_SIZE - 1
            return -1
        d.mask = size - 1
        d.stamp = 0
    if d.stamp == STAMP_LIMIT:
        for i in range(d.mask + 1):
            d.stamps[i] = 0
        d.stamp = 0
    d.stamp += 1
    return 0


cdef inline int _order(Play* p, int unit) noexcept nogil:
    """Where a play stands in the branching order: the most cards first, then the cheapest."""
    cdef int extra = p.cost - unit
    return (MAX_PLAY - p.size) * 4 + (2 if extra >= PENALTY_MAJOR else 0) + (extra % PENALTY_MAJOR != 0)


cdef int _prepare(Search* s, MoveBuffer* buf, Py_ssize_t n, int level, int prefer, Dedupe* d) noexcept nogil:
    """The distinct count patterns of the generator's n moves (the cheapest reading of
    each) in branching order, and the plays touching each lane; -1 when out of memory."""
    cdef Py_ssize_t i, j, kept = 0, total
    cdef int c, k
    cdef int place[NUM_ORDERS + 1]
    cdef int at[NUM_LANES + 1]
    cdef uint32_t lanes
    cdef uint64_t lo, hi, h
    cdef Play* p
    cdef Play* found
    cdef uint64_t wild = wild_bit(level)
    s.unit = 1 if prefer == PREFER_NONE else UNIT_TIED
    if _dedupe_reserve(d, n) != 0:
        return -1
    s.plays = <Play*>malloc(<size_t>(2 * n + 1) * sizeof(Play))
    if s.plays == NULL:
        return -1
    cdef Play* unique = s.plays + n    # patterns in generator order, then sorted into s.plays
    for i in range(n):
        hand_lanes(buf.cards[2 * i], buf.cards[2 * i + 1], wild, &lo, &hi)
        c = _play_cost(buf.kinds[i], buf.keys[i], prefer, lo, hi, level)
        h = hash_slot(lo, hi, d.mask)
        found = NULL
        while d.stamps[h] == d.stamp:
            if unique[d.rows[h]].lo == lo and unique[d.rows[h]].hi == hi:
                found = &unique[d.rows[h]]
                break
            h = (h + 1) & d.mask
        if found != NULL:
            if c < found.cost:
                found.cost = c
            continue
        d.stamps[h] = d.stamp
        d.rows[h] = <int32_t>kept
        p = &unique[kept]
        p.lo = lo
        p.hi = hi
        p.cost = c
        p.size = gf_popcount64(buf.cards[2 * i]) + gf_popcount64(buf.cards[2 * i + 1])
        kept += 1
    # counting sort into the branching order
    for k in range(NUM_ORDERS + 1):
        place[k] = 0
    for i in range(kept):
        place[_order(&unique[i], s.unit) + 1] += 1
    for k in range(NUM_ORDERS):
        place[k + 1] += place[k]
    for i in range(kept):
        k = _order(&unique[i], s.unit)
        s.plays[place[k]] = unique[i]
        place[k] += 1
    # the plays touching each lane, in branching order
    for c in range(NUM_LANES + 1):
        at[c] = 0
    for i in range(kept):
        lanes = _nonzero_lanes(s.plays[i].lo, s.plays[i].hi)
        while lanes:
            at[gf_ctz64(lanes) + 1] += 1
            lanes &= lanes - 1
    for c in range(NUM_LANES):
        at[c + 1] += at[c]
    total = at[NUM_LANES]
    s.lists = <int*>malloc(<size_t>(total + 1) * sizeof(int))
    if s.lists == NULL:
        return -1
    for c in range(NUM_LANES + 1):
        s.starts[c] = at[c]
    for i in range(kept):
        lanes = _nonzero_lanes(s.plays[i].lo, s.plays[i].hi)
        while lanes:
            c = gf_ctz64(lanes)
            s.lists[at[c]] = <int>i
            at[c] += 1
            lanes &= lanes - 1
    return 0


cdef inline void _take(uint64_t* once, uint64_t* twice, uint64_t cards, int count,
                       uint64_t* mo, uint64_t* mt) noexcept nogil:
    """Move ``count`` cards among ``cards`` (one rank's bits) from the hand into the move."""
    cdef uint64_t bit, left
    while count > 0:
        left = once[0] & cards
        if left == 0:
            return
        while left and count > 0:
            bit = left & (~left + 1)
            left ^= bit
            if twice[0] & bit:
                twice[0] &= ~bit
            else:
                once[0] &= ~bit
            mt[0] |= mo[0] & bit
            mo[0] |= bit
            count -= 1


cdef Py_ssize_t _realize(Play* p, uint64_t* once, uint64_t* twice, uint64_t wild,
                         MoveBuffer* buf, Py_ssize_t n) noexcept nogil:
    """Cards of the hand for one pattern, taken out of it; the row of the generator's move
    with exactly those cards (a bomb reading first), -1 if there is none (impossible)."""
    cdef uint64_t mo = 0, mt = 0
    cdef int lane, count
    cdef Py_ssize_t i, found = -1
    for lane in range(16):
        count = <int>(((p.lo if lane < 8 else p.hi) >> (8 * (lane & 7))) & 0xFF)
        if count == 0:
            continue
        if lane < 13:
            _take(once, twice, (0xFULL << (4 * lane)) & ~wild, count, &mo, &mt)
        elif lane == 15:
            _take(once, twice, wild, count, &mo, &mt)
        else:
            _take(once, twice, 1ULL << (52 + lane - 13), count, &mo, &mt)
    for i in range(n):
        if buf.cards[2 * i] == mo and buf.cards[2 * i + 1] == mt:
            if found < 0 or buf.kinds[i] >= K_STRAIGHT_FLUSH:
                found = i
    return found


cdef int solver_init(Solver* solver) noexcept nogil:
    """An empty solver (its table cleared); -1 when out of memory (nothing to free then)."""
    solver.dedupe.stamps = NULL
    solver.dedupe.rows = NULL
    solver.dedupe.mask = DEDUPE_SIZE - 1
    solver.dedupe.stamp = 0
    solver.mask = (1ULL << TABLE_BITS) - 1
    solver.stamp = 0
    solver.nodes = 0
    solver.cost = -1
    solver.search.plays = NULL
    solver.search.lists = NULL
    solver.table_level = 0
    solver.roots = 0
    solver.table = <Entry*>calloc(<size_t>(solver.mask + 1), sizeof(Entry))  # stamp 0: every slot empty
    if solver.table == NULL:
        return -1
    if movebuf_init(&solver.buf, 1024) != 0:
        free(solver.table)
        solver.table = NULL
        return -1
    return 0


cdef void solver_free(Solver* solver) noexcept nogil:
    _release(solver)
    free(solver.table)
    free(solver.dedupe.stamps)
    free(solver.dedupe.rows)
    solver.table = NULL
    solver.dedupe.stamps = NULL
    solver.dedupe.rows = NULL
    movebuf_free(&solver.buf)


cdef inline void _release(Solver* solver) noexcept nogil:
    free(solver.search.plays)
    free(solver.search.lists)
    solver.search.plays = NULL
    solver.search.lists = NULL


cdef inline void _new_stamp(Entry* table, uint64_t mask, uint32_t* stamp) noexcept nogil:
    """A stamp no slot of ``table`` holds yet: every slot empty for the next search."""
    cdef uint64_t k
    if stamp[0] == STAMP_LIMIT:
        for k in range(mask + 1):
            table[k].stamp = 0
        stamp[0] = 0
    stamp[0] += 1


cdef inline void _begin(Solver* solver, Search* s, int level, int mode) noexcept nogil:
    """A new search on the solver's table, a decomposition (``mode``: its tie-break, plus
    WHOLE_BOMBS) or counts (MODE_COUNT, plus WHOLE_BOMBS); the previous preparation released.

    The table's entries are kept across the hands of one level: a sub-hand's cost depends
    on its lanes alone (its plays are the count patterns of legal moves that fit in it,
    each costing what its kind, key and, for a full house under "high", its lanes cost
    under the mode, whichever hand it was cut from), so an
    exact value or a lower bound found for one hand holds for every other of that mode.
    Only an entry's first play belongs to its own search (``Entry.owner``): the order plays
    are tried in comes from the whole hand."""
    _release(solver)
    if level != solver.table_level:
        _new_stamp(solver.table, solver.mask, &solver.stamp)
        solver.table_level = level
    if mode < MODE_COUNT:
        solver.roots += 1
        if solver.roots >= (1U << ROOT_BITS):  # wrapped: an entry could name this root
            solver.roots = 1
            _new_stamp(solver.table, solver.mask, &solver.stamp)
    s.table = solver.table
    s.table_mask = solver.mask
    s.stamp = solver.stamp
    s.owner = (<uint32_t>mode << ROOT_BITS) | (0 if mode >= MODE_COUNT else solver.roots)
    s.nodes = 0
    s.plays = NULL
    s.lists = NULL


cdef int solver_prepare(Solver* solver, uint64_t once, uint64_t twice, int level, bint whole) noexcept nogil:
    """Get ready to count the fewest plays of sub-hands of a valid hand (``check_args``
    passes) with :func:`solver_count_within` (``whole``: of the decompositions that keep
    every rank of four or more natural cards whole); 0, or -1 when out of memory. A sub-hand's
    plays are the hand's plays that fit in it, so one preparation and one memo serve
    them all; :func:`solver_decompose` ends the preparation.

    The counts found are kept for the next hands of the level (see :func:`_begin`)."""
    cdef Search* s = &solver.search
    cdef Py_ssize_t n
    _begin(solver, s, level, MODE_COUNT | (WHOLE_BOMBS if whole else 0))
    solver.wild = wild_bit(level)
    n = generate_into(once, twice, level, 0, 0, 0, True, &solver.buf)
    if n < 0 or _prepare(s, &solver.buf, n, level, PREFER_NONE, &solver.dedupe) != 0:
        _release(solver)
        return -1
    return 0


cdef int solver_count_within(Solver* solver, uint64_t once, uint64_t twice, int bound) noexcept nogil:
    """The fewest plays that empty a sub-hand of the prepared hand when fewer than
    ``bound``, else a lower bound >= ``bound``; -1 when nothing is prepared."""
    cdef uint64_t lo, hi
    if solver.search.plays == NULL:
        return -1
    hand_lanes(once, twice, solver.wild, &lo, &hi)
    return _search(&solver.search, lo, hi, bound)


cdef Py_ssize_t solver_decompose(Solver* solver, uint64_t once, uint64_t twice, int level, int prefer,
                                 Py_ssize_t* rows) noexcept nogil:
    """The fewest plays that empty a valid hand (``check_args`` passes) and one optimal
    decomposition: play ``k`` is row ``rows[k]`` of ``solver.buf`` (``rows`` holds 108).
    -1 when out of memory, -2 when a decomposition cannot be given cards (a bug), -3 for a
    ``prefer`` code outside 0..7 (a tie-break 0..3, plus WHOLE_BOMBS: the memo's modes; another
    would read the counts' entries)."""
    cdef Search s
    cdef Py_ssize_t n, row, count = 0
    cdef uint64_t lo, hi, o = once, t = twice
    cdef uint64_t wild = wild_bit(level)
    solver.cost = -1  # set by a decomposition found
    if prefer < PREFER_NONE or prefer > (PREFER_HIGH | WHOLE_BOMBS):
        return -3
    cdef Entry* e
    cdef Play* p
    _begin(solver, &s, level, prefer)
    n = generate_into(once, twice, level, 0, 0, 0, True, &solver.buf)
    if n >= 0 and _prepare(&s, &solver.buf, n, level, prefer & PREFER_HIGH, &solver.dedupe) != 0:
        n = -1
    if n >= 0:
        hand_lanes(once, twice, wild, &lo, &hi)
        solver.cost = _search(&s, lo, hi, INFINITE)
        # Walk one optimal decomposition (a slot overwritten on the way is solved again)
        # and give each pattern cards of the hand.
        while (lo != 0 or hi != 0) and count < 108:
            e = _entry(&s, lo, hi)
            if e == NULL or e.best < 0:
                _search(&s, lo, hi, INFINITE)  # exact now, in its slot
                e = _entry(&s, lo, hi)
                if e == NULL or e.best < 0:  # (cannot happen: _search writes its own slot last)
                    break
            if e.owner == s.owner:
                p = &s.plays[e.best]
            else:  # solved for another hand: its first play in this hand's order
                p = _first_optimal(&s, lo, hi, e.value)
                if p == NULL:
                    break
            row = _realize(p, &o, &t, wild, &solver.buf, n)
            if row < 0:
                break
            rows[count] = row
            count += 1
            lo -= p.lo
            hi -= p.hi
    free(s.plays)
    free(s.lists)
    solver.nodes = s.nodes
    if n < 0:
        return -1
    if o != 0:
        solver.cost = -1
        return -2
    return count


#: The mode flag of ``MinPlays.solve``'s prefer code: every bomb kept whole (``whole=True``).
WHOLE = WHOLE_BOMBS


@cython.auto_pickle(False)  # never pickled (Cython's generated refusal would also land in the module)
cdef class MinPlays:
    """A reusable solver: owns the memo table (one solver per thread; not thread-safe)."""

    cdef Solver solver

    def __cinit__(self):
        if solver_init(&self.solver) != 0:
            raise MemoryError()

    def __dealloc__(self):
        solver_free(&self.solver)

    @property
    def nodes(self):
        """Search nodes of the last :meth:`solve` (fewer when earlier solves at its level
        left sub-hands it needed in the memo)."""
        return self.solver.nodes

    @property
    def penalties(self):
        """``(major, minor)``: what the last :meth:`solve`'s decomposition pays under its
        tie-break (see ``_play_cost``: for ``"bombs"`` and ``"high"`` the plays that are no
        bomb, then the singles, or the singles and pairs by how low they are and the high pairs
        full houses carry; ``"singles"``
        the singles, then the pairs; ``"none"`` nothing), which that decomposition makes
        least among those of the fewest plays."""
        if self.solver.cost < 0:
            raise ValueError("no decomposition to weigh: the last solve failed, or there was none")
        cdef int extra = self.solver.cost % UNIT_TIED if self.solver.cost >= UNIT_TIED else 0
        return extra // PENALTY_MAJOR, extra % PENALTY_MAJOR

    def solve(self, once, twice, level, prefer):
        """solve(once, twice, level, prefer) -> (count, kinds, keys, cards)

        The fewest leading plays that empty the hand and one optimal decomposition, its
        plays as ``kinds uint8[count]``, ``keys uint8[count]``, ``cards uint64[count, 2]``.
        ``prefer``: 0 none, 1 bombs, 2 singles, 3 high (see :data:`guandan_fast.search.minplays.PREFER`),
        plus 4 to keep every rank of four or more natural cards whole (``whole=True``)."""
        self.solver.cost = -1  # (a refused or failed solve leaves nothing to weigh)
        cdef uint64_t o = as_plane(once, "once"), t = as_plane(twice, "twice")
        cdef int lv = as_small(level, "level"), code = as_small(prefer, "prefer")
        if check_args(o, t, lv, 0, 0, 0) != 0:
            raise ValueError("bad hand planes or level")
        if not 0 <= code <= (PREFER_HIGH | WHOLE_BOMBS):
            raise ValueError(f"bad prefer code {code}")
        cdef Py_ssize_t rows[108]
        cdef Py_ssize_t count, k
        with nogil:
            count = solver_decompose(&self.solver, o, t, lv, code, rows)
        if count == -1:
            raise MemoryError()
        if count < 0:
            raise RuntimeError("min_plays: a decomposition could not be given cards (a bug)")
        cdef MoveBuffer* buf = &self.solver.buf
        kinds = np.empty(count, dtype=np.uint8)
        keys = np.empty(count, dtype=np.uint8)
        cards = np.empty((count, 2), dtype=np.uint64)
        for k in range(count):
            kinds[k] = buf.kinds[rows[k]]
            keys[k] = buf.keys[rows[k]]
            cards[k, 0] = buf.cards[2 * rows[k]]
            cards[k, 1] = buf.cards[2 * rows[k] + 1]
        return count, kinds, keys, cards
