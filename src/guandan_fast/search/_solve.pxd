# The perfect-information solver's C face (see _solve.pyx and docs/solving.md), for other
# kernels (the search agent solving sampled worlds) and users' extensions:
#
#     from guandan_fast.search._solve cimport (
#         SolveContext, SolveLimits, SolveResult, solve_context_init, solve_context_free,
#         solve_limits_none, solve_state, OBJECTIVE_POINTS,
#     )
#
#     cdef SolveContext ctx          # one per thread; reuse it across solves (its table and
#     cdef SolveLimits limits        # buffers stay allocated; no result depends on the reuse)
#     cdef SolveResult result
#     if solve_context_init(&ctx) != 0: ...               # out of memory
#     solve_limits_none(&limits)
#     limits.max_nodes = 100000
#     with nogil:
#         code = solve_state(&ctx, &state, OBJECTIVE_POINTS, &limits, &result)
#     # code 0: result.lowers[i] <= the value of action i of state_actions(&state) <=
#     # result.uppers[i] (row-aligned, the pass first when following), for the team of the
#     # seat to act; result.lower/upper bound the position's; result.exact when every bound
#     # is tight. -1: out of memory; -2: the deal is done.
#     solve_context_free(&ctx)
#
# Every function is ``noexcept nogil`` and takes a state that ``state_check`` accepts (every
# state a Deal or state_make makes is one); ``objective`` is OBJECTIVE_POINTS or
# OBJECTIVE_FIRST. A SolveContext belongs to one thread at a time; contexts share nothing.

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

from guandan_fast.engine._movegen cimport MoveBuffer
from guandan_fast.engine.state cimport PlayState

cdef enum:
    OBJECTIVE_POINTS = 0        # deal.result(seat) at the end: +3/+2/+1 or minus
    OBJECTIVE_FIRST = 1         # +1 when the team's player goes out first, else -1
    # why a search stopped before it was done (SolveResult.stopped)
    STOP_NONE = 0
    STOP_NODES = 1              # max_nodes reached
    STOP_TIME = 2               # time_ms elapsed
    STOP_FLAG = 3               # *limits.stop became nonzero
    STOP_SIGNAL = 4             # a Python signal handler raised (the exception is pending)
    STOP_MEMORY = 5             # out of memory


cdef struct SolveLimits:
    int64_t max_nodes           # stop after this many nodes (<= 0: no limit)
    double time_ms              # stop after this long (<= 0: no limit)
    const int* stop             # stop once *stop != 0 (NULL: never); another thread may set it
    int check_signals           # nonzero: run Python's signal handlers now and then (takes the GIL briefly)
    int use_table               # zero: no transposition table (for tests: slower, the same values)
    int table_bits              # the largest table: 2**table_bits entries of 32 bytes, 12..20
                                # (0: 20, 32 MiB); a context keeps the memory between solves
    int all_actions             # zero: the value of the position only; the actions that cannot
                                # be best may keep bounds (their upper bound <= the value)


cdef struct SolveResult:
    int lower                   # the value of the position for the seat to act's team ...
    int upper                   # ... lies in [lower, upper]; equal when known exactly
    int exact                   # every bound asked for is tight (the value, and each action's
                                # value when all_actions)
    int stopped                 # STOP_*: why the search stopped early (STOP_NONE: it did not)
    int best                    # a row of the best action (the first, in row order, whose
                                # lower bound is the largest)
    Py_ssize_t actions          # the number of actions (rows of state_actions)
    int8_t* lowers              # per action (row-aligned with state_actions): its value lies
    int8_t* uppers              # in [lowers[i], uppers[i]]; owned by the context, valid
                                # until its next solve
    int64_t nodes               # positions searched


cdef struct LineAction:
    int seat                    # the seat that acts
    int kind                    # the action (kind 0: a pass), as state_make takes it
    int key
    uint64_t once
    uint64_t twice


cdef struct TableEntry:
    # 32 bytes: a bucket of two per cache line
    uint64_t lo                 # the four hands: per seat, which of the cards it held at the
    uint64_t hi                 # root it still holds (one bit per card, at the seat's offset)
    uint32_t meta               # level, objective, seat to act, the move to beat, its seat,
                                # passes, the seats out (see _meta)
    uint32_t stamp              # the solve that wrote it (any other stamp: an empty slot)
    int8_t lower                # the value lies in [lower, upper]
    int8_t upper
    uint8_t move_kind           # the best action found (kind, key, size): tried first
    uint8_t move_key
    uint8_t move_size
    uint8_t work                # log2 of the nodes below it: the cheaper entry is replaced
    uint8_t pad[2]


cdef struct Ply:
    MoveBuffer moves            # the actions at this depth
    int32_t* scores             # their order (-1: skipped as equivalent to an earlier one)
    uint64_t* seen              # an open-addressing set of move signatures (dedupe)
    Py_ssize_t room             # the room of scores (and half the room of seen)


cdef struct SolveContext:
    TableEntry* table           # aligned to 64 bytes, in table_memory
    void* table_memory
    uint64_t mask               # table size - 1 (a power of two)
    uint32_t stamp
    int table_bits              # the table in use has 2**table_bits entries ...
    int capacity_bits           # ... of the 2**capacity_bits held
    int table_bits_max          # the table grows (doubles, three quarters full) up to this size
    int64_t stored              # entries written in this solve
    Ply* plies                  # one per depth, made as the search reaches it
    MoveBuffer leads            # the leading moves of a follower (the run-out proof)
    int nplies
    int8_t* lowers              # the result's per-action bounds
    int8_t* uppers
    int32_t* rows               # per action, the first row equivalent to it
    int32_t* order              # the root's actions in search order
    Py_ssize_t room             # room of lowers, uppers, rows and order
    uint64_t root_once[4]       # the hands at the root of the solve
    uint64_t root_twice[4]
    int offset[4]               # where each seat's bits lie in the table key
    uint64_t held[4]            # per seat, which of its root cards it holds (kept as hands change)
    # the current solve
    int objective
    int use_table
    int stopped
    int64_t nodes
    int64_t max_nodes
    double deadline             # monotonic milliseconds (0: none)
    double next_signal_check
    int check_signals
    const int* stop


cdef int solve_context_init(SolveContext* ctx) noexcept nogil
    # An empty context; 0, or -1 when out of memory (then solve_context_free is still safe).

cdef void solve_context_free(SolveContext* ctx) noexcept nogil

cdef void solve_limits_none(SolveLimits* limits) noexcept nogil
    # No limit, the table on, every action's value.

cdef int solve_state(SolveContext* ctx, const PlayState* state, int objective, const SolveLimits* limits,
                     SolveResult* result) noexcept nogil
    # Solve the position: 0; -1 when out of memory (result.stopped STOP_MEMORY); -2 when the
    # deal is done (nothing to solve).
    # When a limit stops it, result.stopped says which and the bounds hold what was proven.

cdef Py_ssize_t solve_line(SolveContext* ctx, const PlayState* state, int value, int first_row,
                           LineAction* line) noexcept nogil
    # Right after solve_state found the exact ``value`` of ``state`` (the same context and
    # state; its table and limits go on, its nodes keep counting): one principal line, both
    # teams playing perfectly, into ``line`` (room for MAX_ACTIONS): the number of actions,
    # up to the end of the deal ("points") or the first player out ("first"), fewer when a
    # limit stops it; -1 when out of memory. ``first_row`` >= 0: the line starts with that
    # row of state_actions (it must be an action of that value, e.g. result.best).
