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

The module is written in parts, included in this order (one compilation unit, so the search
inlines across them): ``solve/limits.pxi`` (the clock, the stop flag, signals),
``table.pxi`` (the transposition table), ``context.pxi`` (the context, the limits, the
buffers), ``values.pxi`` (a finished position's value, an unfinished one's range),
``ordering.pxi`` (move ordering and equivalent actions), ``running_out.pxi`` (the run-out
proof), ``search.pxi`` (the alpha-beta search) and ``root.pxi`` (the root's tests and the C
API); the Python face (``Solver``) is below them.
"""

cimport cython
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
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
    POLL_MOVES = 4096           # ... and at every node of at least this many actions (a slow node)
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


# The solver is written in parts, included here in this order (one compilation unit).
include "solve/limits.pxi"
include "solve/table.pxi"
include "solve/context.pxi"
include "solve/values.pxi"
include "solve/ordering.pxi"
include "solve/running_out.pxi"
include "solve/search.pxi"
include "solve/root.pxi"


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
