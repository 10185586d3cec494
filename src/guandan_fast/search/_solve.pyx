# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""The exact perfect-information solver: the value of a play-phase position with all four
hands known, both teams playing perfectly (a two-team zero-sum game), without the GIL.

The game is played by the native play state's own rules (``state_actions``,
``state_make``/``state_unmake`` of ``engine/state.pxd``): passes are moves, 接风 and the
finishing order are those of a Deal. A value is for the team of the seat to act: with
objective "points" the level points the deal gives it (+3/+2/+1, or minus), with "first"
+1 when its player goes out first, else -1 (the game stops at the first player out).

The search
----------
Alpha-beta in negamax form over teams (a child whose seat to act is of the other team is
negated; a team may act twice in a row, e.g. after 接风), fail-soft, driven at the root by
null-window tests ("is this action's value >= t?"): the values lie in {-3..-1, 1..3} (or
{-1, 1}), so an action's exact value takes at most three tests, its sign first.

Every pruning rule, and why it is exact:

* **Alpha-beta** itself: a position whose value is proven >= beta (or <= alpha) returns
  that bound; the window only decides which bounds are worth proving, never a value.
* **The value range** of a position: with "points", once a player is out its team wins
  1..3 (its partner 2nd, 3rd or last), and 1..2 once an opponent is out second (the deal
  ends on a 1-2 finish, so the second out is an opponent). A position whose range lies
  outside the window returns the range's end; a position that reaches the top of its
  range (the "extreme value") stops searching its other actions: nothing can do better.
  With "first" every unfinished position lies in [-1, 1].
* **The transposition table**: a position's value depends only on the four hands, the
  seat to act, the move to beat (kind, key, size — never its cards: followers only
  compare those), the seat that made it, the passes since, the seats out in order, the
  level and the objective. The key holds all of it exactly: a hand only loses cards, so
  each seat's hand is named by one bit per card it held at the root of the solve (at most
  108 bits for the four), the rest fits 32 bits; an entry is used only when its whole key
  is equal (no hash collision can be mistaken for a hit), and only within the solve that
  wrote it. Entries hold proven lower and upper bounds; no path reaches a position twice
  (every trick holds a play and cards only leave hands), so bounds hold whatever the path.
* **Equivalent actions** (suit symmetry): every rule but the straight flush's is blind to
  suits (RULES.md §3: a straight flush is the only kind that names a suit, and it has
  exactly five cards). A hand in which no straight flush can be formed — no suit has, in
  a window of five ranks (A-low included), five cards counting its wildcards as any card;
  a safe over-estimate — can form none later either (hands only lose cards). For such a
  hand, two hands with the same counts per rank (13 ranks without the wildcards, two
  jokers, the wildcards: ``hand_lanes``) have the same moves as (kind, key, counts
  taken), and the other seats only ever see a play's kind, key and size; so two actions
  of the same kind and key that take the same counts lead to positions of equal value
  (by induction on what follows). Only the first of them (in row order) is searched; at
  the root the others get its value.
* **Running out** (a proof at a node, in place of a search): a leader whose hand splits
  into moves that no opponent can beat (``has_legal_follow_c`` on each opponent's hand
  now) and one last move goes out before any opponent plays a card: each unbeatable move
  wins its trick (the opponents must pass, the partner passes, the leader leads again),
  the opponents' hands do not change meanwhile, and the last move empties the hand. A
  follower that can beat the move to beat with such an unbeatable move leads next, and
  then the same holds. So the value is at least what going out next gives: +1 first
  (with "first": the most there is); second after its partner +3, after an opponent -2
  (that team wins at most 2); third +2 or -1. When every move of the split is
  unbeatable, the last one too, the partner leads next (接风, nobody having beaten it),
  with its hand and the opponents' unchanged: if it can run out the same way, both go
  out before any opponent plays — +3 with nobody out yet, -1 as third and last behind an
  opponent's first. A bounded search for such splits; tried only where the bound cuts off.
* **Move ordering** changes what is searched first, never a value: an action that empties
  the hand, the table's best action, then (static) a pass on one's partner's move, small
  beats before bombs and bombs before a pass on an opponent's, bigger leads first.

A search may stop early (a node or time limit, a flag, a Python signal): every test that
finished tightened the bounds of its action; the unfinished test is dropped, so the
bounds returned are proven, never guessed.
"""

cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memset

import numpy as np
cimport numpy as cnp

from guandan_fast.engine._bitops cimport gf_popcount64
from guandan_fast.engine._movegen cimport (
    K_PASS,
    generate_into,
    RANK_CARDS,
    RANK_GROUP_ONES,
    MoveBuffer,
    bomb_tier,
    has_legal_follow_c,
    movebuf_free,
    movebuf_init,
    wild_bit,
)
from guandan_fast.engine.state cimport (
    MAX_ACTIONS,
    PlayState,
    PlayUndo,
    hand_size,
    state_actions,
    state_from_deal,
    state_lead,
    state_make,
    state_points,
    state_unmake,
)
from guandan_fast.search._minplays cimport hand_lanes

cnp.import_array()

cdef extern from *:
    """
    #if defined(_WIN32)
    #define WIN32_LEAN_AND_MEAN
    #include <windows.h>
    static double gf_now_ms(void) {
        LARGE_INTEGER frequency, counter;
        QueryPerformanceFrequency(&frequency);
        QueryPerformanceCounter(&counter);
        return (double)counter.QuadPart * 1000.0 / (double)frequency.QuadPart;
    }
    #else
    #include <time.h>
    static double gf_now_ms(void) {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        return (double)now.tv_sec * 1000.0 + (double)now.tv_nsec / 1e6;
    }
    #endif
    static int gf_read_flag(const int* flag) { return *(const volatile int*)flag; }
    """
    double gf_now_ms() noexcept nogil
    int gf_read_flag(const int* flag) noexcept nogil

cdef extern from "Python.h":
    # declared without an exception value: the error a signal handler raises stays pending,
    # and the Python face raises it once the search has unwound
    int _check_signals "PyErr_CheckSignals" ()

cdef enum:
    TABLE_BITS_MIN = 12         # 4,096 entries (320 KiB): every solve starts here
    TABLE_BITS_MAX = 20         # 1,048,576 entries (80 MiB): the most a solve grows to
    MAX_PLY = MAX_ACTIONS + 1
    POLL_EVERY = 1024           # nodes between checks of the clock, the flag and signals
    WINDOW_LOW = -4             # below every value
    WINDOW_HIGH = 4             # above every value
    # move ordering scores (the larger first)
    SCORE_OUT = 1 << 30         # empties the hand
    SCORE_TABLE = 1 << 29       # the table's best action
    SCORE_PASS_PARTNER = 1 << 26    # a pass on one's partner's move
    RUN_MOVES = 32              # the most unbeatable moves a run-out check considers
    RUN_BUDGET = 64             # and the most steps it takes
    SEAT_OUT = 1                # _pair_out: the seat to act plays out (its last move unbeatable too)
    PAIR_OUT = 2                # ... and then its partner too

cdef double SIGNAL_EVERY_MS = 20.0     # Python's signal handlers run at most this often


# -- time, signals, limits -----------------------------------------------------------------------------
cdef int _poll_signals() noexcept with gil:
    return _check_signals()


cdef bint _poll(SolveContext* c) noexcept nogil:
    """Whether the search must stop now (and why, in ``c.stopped``)."""
    cdef double now
    if c.max_nodes > 0 and c.nodes >= c.max_nodes:
        c.stopped = STOP_NODES
    elif c.stop != NULL and gf_read_flag(c.stop) != 0:
        c.stopped = STOP_FLAG
    elif c.deadline > 0 or c.check_signals:
        now = gf_now_ms()
        if c.deadline > 0 and now >= c.deadline:
            c.stopped = STOP_TIME
        elif c.check_signals and now >= c.next_signal_check:
            c.next_signal_check = now + SIGNAL_EVERY_MS
            if _poll_signals() != 0:
                c.stopped = STOP_SIGNAL
    return c.stopped != STOP_NONE


# -- the table ---------------------------------------------------------------------------------------
cdef inline bint _no_straight_flush(uint64_t once, uint64_t twice, uint64_t wild) noexcept nogil:
    """True when no straight flush can be formed from the hand: no suit has, in a window of
    five ranks (A-low included), as many cards as five minus the wildcards. An over-estimate
    of what can be formed (a wildcard is counted as itself and as any card), so True is safe;
    it stays True for every part of the hand."""
    cdef int wilds = ((once & wild) != 0) + ((twice & wild) != 0), suit, low
    cdef uint64_t ranks
    for suit in range(4):
        ranks = (once >> suit) & RANK_GROUP_ONES & RANK_CARDS   # bit 4r: rank r of this suit held
        if gf_popcount64(ranks) + wilds < 5:
            continue
        if gf_popcount64(ranks & 0x1111ULL) + <int>((ranks >> 48) & 1) + wilds >= 5:   # A 2 3 4 5
            return False
        for low in range(9):   # ranks low .. low + 4 (2-6 up to 10-A)
            if gf_popcount64(ranks & (0x11111ULL << (4 * low))) + wilds >= 5:
                return False
    return True


cdef inline uint64_t _compress(uint64_t x, uint64_t mask) noexcept nogil:
    """The bits of x at the set bits of mask, packed low (a portable pext)."""
    cdef uint64_t out = 0, bit = 1, low
    while mask:
        low = mask & (~mask + 1)
        if x & low:
            out |= bit
        bit <<= 1
        mask ^= low
    return out


cdef inline void _set_key(SolveContext* c, int seat, uint64_t once, uint64_t twice) noexcept nogil:
    """A seat's part of the table key: which of the cards it held at the root it still
    holds, one bit per card (a hand only loses cards, so this names the hand exactly)."""
    c.held[seat] = (_compress(once, c.root_once[seat])
                    | _compress(twice, c.root_twice[seat]) << gf_popcount64(c.root_once[seat]))


cdef inline void _key(SolveContext* c, uint64_t* lo, uint64_t* hi) noexcept nogil:
    """The four hands as a 128-bit key: each seat's bits at its offset (at most 108 bits:
    one per card at the root)."""
    cdef int seat, at
    lo[0] = 0
    hi[0] = 0
    for seat in range(4):
        at = c.offset[seat]
        if at < 64:
            lo[0] |= c.held[seat] << at
            if at > 0:
                hi[0] |= c.held[seat] >> (64 - at)
        else:
            hi[0] |= c.held[seat] << (at - 64)


cdef inline uint32_t _meta(SolveContext* c, const PlayState* s) noexcept nogil:
    """Everything but the hands that a position's value depends on, in 32 bits."""
    cdef uint32_t m = <uint32_t>(s.level - 2)                       # 4 bits
    m |= <uint32_t>c.objective << 4                                 # 1
    m |= <uint32_t>(s.to_act & 3) << 5                              # 2
    m |= <uint32_t>(s.last_kind & 15) << 7                          # 4
    m |= <uint32_t>(s.last_key & 31) << 11                          # 5
    m |= <uint32_t>(s.last_size & 15) << 16                         # 4
    m |= <uint32_t>((s.last_seat + 1) & 7) << 20                    # 3
    m |= <uint32_t>(s.passes & 3) << 23                             # 2
    m |= <uint32_t>(s.nfinish & 3) << 25                            # 2 (0..2 while the deal is on)
    m |= <uint32_t>(s.finish[0] & 3) << 27                          # 2
    m |= <uint32_t>(s.finish[1] & 3) << 29                          # 2
    return m


cdef inline uint64_t _hash(uint64_t lo, uint64_t hi, uint32_t meta) noexcept nogil:
    cdef uint64_t h = (lo ^ (<uint64_t>meta << 32)) * 0x9E3779B97F4A7C15ULL
    h = (h ^ (h >> 29) ^ hi) * 0xBF58476D1CE4E5B9ULL
    return h ^ (h >> 32)


cdef inline bint _same(const TableEntry* e, uint64_t lo, uint64_t hi, uint32_t meta, uint32_t stamp) noexcept nogil:
    return e.stamp == stamp and e.lo == lo and e.hi == hi and e.meta == meta


cdef inline TableEntry* _probe(SolveContext* c, uint64_t h, uint64_t lo, uint64_t hi, uint32_t meta) noexcept nogil:
    cdef TableEntry* bucket = &c.table[(h & c.mask) & ~(<uint64_t>1)]
    if _same(bucket, lo, hi, meta, c.stamp):
        return bucket
    if _same(bucket + 1, lo, hi, meta, c.stamp):
        return bucket + 1
    return NULL


cdef inline void _store(SolveContext* c, uint64_t h, uint64_t lo, uint64_t hi, uint32_t meta, int lower, int upper,
                        int kind, int key, int size, int work) noexcept nogil:
    """Record proven bounds (intersected with those already held) and the best action."""
    cdef TableEntry* bucket = &c.table[(h & c.mask) & ~(<uint64_t>1)]
    cdef TableEntry* e
    if _same(bucket, lo, hi, meta, c.stamp):
        e = bucket
    elif _same(bucket + 1, lo, hi, meta, c.stamp):
        e = bucket + 1
    else:
        # an empty slot (another solve's), else the one whose subtree was cheaper
        if bucket.stamp != c.stamp:
            e = bucket
        elif bucket[1].stamp != c.stamp:
            e = bucket + 1
        else:
            e = bucket if bucket.work <= bucket[1].work else bucket + 1
        e.lo = lo
        e.hi = hi
        e.meta = meta
        e.stamp = c.stamp
        e.lower = WINDOW_LOW
        e.upper = WINDOW_HIGH
        e.move_kind = 0xFF
        e.work = 0
        c.stored += 1
        if c.stored > <int64_t>(c.mask - (c.mask >> 2)) and c.table_bits < c.table_bits_max:
            # three quarters full: double it (no entry is held across this call)
            _grow(c)
            e = _probe(c, h, lo, hi, meta)
            if e == NULL:   # not kept by the rehash (its bucket held two costlier ones)
                return
    if lower > e.lower:
        e.lower = <int8_t>lower
    if upper < e.upper:
        e.upper = <int8_t>upper
    if kind >= 0:
        e.move_kind = <uint8_t>kind
        e.move_key = <uint8_t>key
        e.move_size = <uint8_t>size
    if work > e.work:
        e.work = <uint8_t>work


cdef TableEntry* _table_block(uint64_t entries, void** block) noexcept nogil:
    """Room for ``entries`` empty entries, aligned to 64 bytes (a bucket per cache line);
    ``block`` receives the pointer to free. NULL when out of memory."""
    block[0] = calloc(<size_t>(entries + 2), sizeof(TableEntry))
    if block[0] == NULL:
        return NULL
    return <TableEntry*>((<size_t>block[0] + 63) & ~(<size_t>63))


cdef int _table_alloc(SolveContext* c, int bits) noexcept nogil:
    """The first table: 2**bits entries, every slot empty; 0, or -1 when out of memory."""
    c.table = _table_block(<uint64_t>1 << bits, &c.table_memory)
    if c.table == NULL:
        return -1
    c.capacity_bits = bits
    c.table_bits = bits
    c.mask = (<uint64_t>1 << bits) - 1
    c.stamp = 1
    return 0


cdef void _grow(SolveContext* c) noexcept nogil:
    """Double the table in use, keeping this solve's entries: an entry of bucket b stays in
    its slot or moves to the first free slot of bucket b + old size. In place while the
    memory held allows (the new half holds only older solves' entries), else into a new
    block twice as large, with the same layout either way (so no result depends on the
    memory an earlier solve left). Out of memory, the table keeps its size."""
    cdef uint64_t size = c.mask + 1, b, to, h
    cdef uint32_t stamp = c.stamp
    cdef TableEntry* table
    cdef TableEntry* e
    cdef void* memory = NULL
    cdef int k
    cdef bint in_place = c.table_bits < c.capacity_bits
    if in_place:
        table = c.table
    else:
        table = _table_block(size * 2, &memory)
        if table == NULL:
            c.table_bits_max = c.table_bits
            return
    for b in range(0, size, 2):
        for k in range(2):
            e = &c.table[b + k]
            if e.stamp != stamp:
                continue
            h = _hash(e.lo, e.hi, e.meta) & (2 * size - 1) & ~(<uint64_t>1)
            if h == b:
                if not in_place:
                    table[b + k] = e[0]
                continue
            to = h if table[h].stamp != stamp else h + 1
            table[to] = e[0]
            if in_place:
                e.stamp = 0
    if not in_place:
        free(c.table_memory)
        c.table_memory = memory
        c.table = table
        c.capacity_bits += 1
    c.table_bits += 1
    c.mask = 2 * size - 1


# -- the context ----------------------------------------------------------------------------------------
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


# -- the values at the end and the range of a position --------------------------------------------------
cdef inline bint _over(SolveContext* c, const PlayState* s) noexcept nogil:
    """Whether the game of the objective has ended: the deal done ("points"), or a player
    out ("first")."""
    return s.done != 0 if c.objective == OBJECTIVE_POINTS else s.nfinish > 0


cdef inline int _outcome(SolveContext* c, const PlayState* s, int team) noexcept nogil:
    """The value of an ended game for ``team``."""
    if c.objective == OBJECTIVE_POINTS:
        return state_points(s, team)
    return 1 if (s.finish[0] & 1) == team else -1


cdef inline void _range(SolveContext* c, const PlayState* s, int team, int* lo, int* hi) noexcept nogil:
    """The values a game that is on can still end with, for ``team``."""
    cdef int top
    if c.objective == OBJECTIVE_FIRST or s.nfinish == 0:
        top = 1 if c.objective == OBJECTIVE_FIRST else 3
        lo[0] = -top
        hi[0] = top
        return
    top = 3 if s.nfinish == 1 else 2   # the partner of the first out can still be 2nd / 3rd
    if (s.finish[0] & 1) == team:
        lo[0] = 1
        hi[0] = top
    else:
        lo[0] = -top
        hi[0] = -1


# -- move ordering ---------------------------------------------------------------------------------------
cdef inline uint32_t _pack(int kind, int key, int size) noexcept nogil:
    return <uint32_t>(kind | (key << 8) | (size << 16)) + 1   # 0: no move


cdef Py_ssize_t _order_moves(const PlayState* s, Ply* p, Py_ssize_t n,
                             uint32_t table_move) noexcept nogil:
    """Score the n actions of ``p`` (the larger first), -1 for an action equivalent to an
    earlier one (the same kind and key, the same rank counts, from a hand that can form no
    straight flush); returns the number kept."""
    cdef int seat = s.to_act & 3, kind, key, size
    cdef int held = hand_size(s.once[seat], s.twice[seat])
    cdef bint following = s.last_kind != K_PASS
    cdef bint partner_leads = following and s.last_seat == (seat ^ 2)
    cdef uint64_t wild = wild_bit(s.level)
    cdef bint blind = _no_straight_flush(s.once[seat], s.twice[seat], wild)
    cdef uint32_t packed
    cdef uint64_t mask = 0, slot, lo, hi, sig, o, t
    cdef Py_ssize_t i, kept = 0
    cdef bint duplicate
    cdef int32_t score
    cdef MoveBuffer* m = &p.moves
    if blind:
        mask = 64
        while mask < <uint64_t>(2 * n):
            mask *= 2
        mask -= 1   # at most 2 * room slots (room >= n is a power of two times 64)
        for i in range(<Py_ssize_t>(mask + 1)):
            p.seen[i] = 0
    for i in range(n):
        kind = m.kinds[i]
        key = m.keys[i]
        o = m.cards[2 * i]
        t = m.cards[2 * i + 1]
        size = hand_size(o, t)
        if blind and kind != K_PASS:
            # an open-addressing set of the kept actions: (hash << 32) | (row + 1)
            hand_lanes(o, t, wild, &lo, &hi)
            sig = ((lo * 0x9E3779B97F4A7C15ULL) ^ ((hi + <uint64_t>(kind | key << 8)) * 0xC2B2AE3D27D4EB4FULL))
            sig ^= sig >> 29
            slot = sig & mask
            sig &= 0xFFFFFFFF00000000ULL
            duplicate = False
            while p.seen[slot] != 0:
                if (p.seen[slot] & 0xFFFFFFFF00000000ULL) == sig and _equivalent(s, m, i, <Py_ssize_t>(p.seen[slot] & 0xFFFFFFFFULL) - 1):
                    duplicate = True
                    break
                slot = (slot + 1) & mask
            if duplicate:
                p.scores[i] = -1
                continue
            p.seen[slot] = sig | <uint64_t>(i + 1)
        packed = _pack(kind, key, size)
        if kind != K_PASS and size == held:
            score = SCORE_OUT
        elif packed == table_move:
            score = SCORE_TABLE
        else:
            score = _heuristic(kind, key, size, following, partner_leads)
        p.scores[i] = score
        kept += 1
    return kept


cdef inline int32_t _heuristic(int kind, int key, int size, bint following, bint partner_leads) noexcept nogil:
    """The static order of actions: a pass first on one's partner's move, else after every
    beat; the smallest beat first, bombs after the other beats (low tiers first); leads
    with the most cards first, low keys first. (Measured on endgames cut from played
    deals: killer moves and a history of cut-offs, tried too, searched 2-40 times more.)"""
    cdef int tier
    if kind == K_PASS:
        return SCORE_PASS_PARTNER if partner_leads else (1 << 16)
    if following:
        tier = bomb_tier(kind, size)
        if tier >= 0:
            return (1 << 20) - key - 32 * (tier + 1)
        return (1 << 20) + (1 << 19) - key
    return (1 << 20) + size * 32 - key


cdef inline Py_ssize_t _next_move(Ply* p, Py_ssize_t n) noexcept nogil:
    """The best-scored action not yet taken (taken: score -1), or -1."""
    cdef Py_ssize_t i, best = -1
    cdef int32_t top = -1
    for i in range(n):
        if p.scores[i] > top:
            top = p.scores[i]
            best = i
    if best >= 0:
        p.scores[best] = -1
    return best


# -- running out: a seat that goes out before any opponent can play --------------------------------------
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
    RUN_MOVES); their number."""
    cdef int count = 0
    cdef Py_ssize_t i
    for i in range(first, n):
        if _unbeatable(s, m.kinds[i], m.keys[i], hand_size(m.cards[2 * i], m.cards[2 * i + 1])):
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


# -- the search ------------------------------------------------------------------------------------------
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


# -- the root ----------------------------------------------------------------------------------------------
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
    for i in range(n):
        c.rows[i] = -1 if p.scores[i] < 0 else <int32_t>i
    while True:
        i = _next_move(p, n)
        if i < 0:
            break
        c.order[reps] = <int32_t>i
        reps += 1
    for i in range(n):   # an equivalent action shares the row of the first one kept
        if c.rows[i] < 0:
            for j in range(n):
                if c.rows[j] == j and _equivalent(&s, &p.moves, i, j):
                    c.rows[i] = <int32_t>j
                    break
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


# -- the Python face -------------------------------------------------------------------------------------
OBJECTIVES = {"points": OBJECTIVE_POINTS, "first": OBJECTIVE_FIRST}
STOPS = {STOP_NONE: None, STOP_NODES: "max_nodes", STOP_TIME: "time_ms", STOP_FLAG: "stop",
         STOP_SIGNAL: "signal", STOP_MEMORY: "memory"}
#: The largest table a solve grows to, in entries (each 80 bytes).
TABLE_ENTRIES_MAX = 1 << TABLE_BITS_MAX


cdef int _raise_pending() except -1:
    """Propagate the exception a signal handler left pending during the search."""
    return -1


@cython.auto_pickle(False)  # never pickled (Cython's generated refusal would also land in the module)
cdef class Solver:
    """A reusable solver (one per thread; not thread-safe): it owns the table and buffers,
    which stay allocated between solves. No result depends on what an earlier solve did."""

    cdef SolveContext ctx
    cdef LineAction* line
    cdef bint busy

    def __cinit__(self):
        self.line = <LineAction*>malloc(MAX_ACTIONS * sizeof(LineAction))
        if self.line == NULL or solve_context_init(&self.ctx) != 0:
            solve_context_free(&self.ctx)
            free(self.line)
            self.line = NULL
            raise MemoryError("out of memory making a solver")

    def __dealloc__(self):
        solve_context_free(&self.ctx)
        free(self.line)

    @property
    def busy(self):
        """Whether a solve is running on it (then another solver is needed)."""
        return self.busy

    def solve(self, deal, int objective, long long max_nodes, double time_ms, bint table, bint line):
        """solve(deal, objective, max_nodes, time_ms, table, line) -> tuple

        ``(lower, upper, exact, stopped, best, lowers, uppers, nodes, line)``: the value's
        bounds, whether every value is exact, why it stopped (a key of :data:`STOPS`), the
        row of the best action, the per-action bounds (int8 arrays, row-aligned with the
        deal's legal actions), the nodes searched, and the principal line as
        ``(seat, kind, key, once, twice)`` rows (only when exact and ``line``).
        ``deal``: a Deal (or its State) in its play phase, not done; ``objective`` a value
        of :data:`OBJECTIVES`; ``max_nodes``/``time_ms`` <= 0: no limit."""
        cdef PlayState s
        cdef SolveLimits limits
        cdef SolveResult r
        cdef Py_ssize_t count = 0, k
        cdef int code
        state_from_deal(deal, &s)
        if s.done:
            raise ValueError("the deal is over: there is nothing to solve")
        if objective != OBJECTIVE_POINTS and objective != OBJECTIVE_FIRST:
            raise ValueError(f"unknown objective code {objective}")
        if self.busy:
            raise RuntimeError("this solver is already solving (use one per thread)")
        solve_limits_none(&limits)
        limits.max_nodes = max_nodes
        limits.time_ms = time_ms
        limits.check_signals = 1
        limits.use_table = table
        self.busy = True
        try:
            with nogil:
                code = solve_state(&self.ctx, &s, objective, &limits, &r)
                if code == 0 and r.exact and line:
                    count = solve_line(&self.ctx, &s, r.lower, r.best, self.line)
                    if count < 0:
                        code = -1
                    elif self.ctx.stopped == STOP_MEMORY:
                        code = -1
            if self.ctx.stopped == STOP_SIGNAL:
                _raise_pending()
            if code == -1:
                raise MemoryError("out of memory solving the position")
            lowers = np.empty(r.actions, dtype=np.int8)
            uppers = np.empty(r.actions, dtype=np.int8)
            for k in range(r.actions):
                lowers[k] = r.lowers[k]
                uppers[k] = r.uppers[k]
            rows = [(self.line[k].seat, self.line[k].kind, self.line[k].key, self.line[k].once, self.line[k].twice)
                    for k in range(count)]
            return (r.lower, r.upper, bool(r.exact), STOPS[r.stopped], r.best, lowers, uppers,
                    self.ctx.nodes, rows)
        finally:
            self.busy = False
