# The native min-plays solver's C face, for other kernels (the "solver" playout policy of
# _playout): a Solver owns its memo table, dedupe set and move buffer (one per thread).
#
#     cdef Solver solver
#     if solver_init(&solver) != 0: ...           # out of memory
#     count = solver_decompose(&solver, once, twice, level, prefer, rows)
#     # count >= 0: play k of an optimal decomposition is row rows[k] of solver.buf
#     solver_free(&solver)

from libc.stdint cimport int32_t, uint32_t, uint64_t

from guandan_fast._movegen cimport MoveBuffer


cdef struct Entry:
    uint64_t lo
    uint64_t hi
    uint32_t stamp            # the search that wrote it (older stamps are empty slots)
    int32_t value             # exact cost, or a proven lower bound
    int32_t exact
    int32_t best              # exact entries: index of the first play of an optimal decomposition


cdef struct Dedupe:
    # A hash set of patterns (open addressing; slots of older stamps are empty), grown as needed.
    uint32_t* stamps
    int32_t* rows
    uint64_t mask
    uint32_t stamp


cdef struct Solver:
    Entry* table
    uint64_t mask
    uint32_t stamp
    MoveBuffer buf            # the hand's leading moves of the last solve
    Dedupe dedupe
    long nodes                # search nodes of the last solve


cdef int solver_init(Solver* solver) noexcept nogil
cdef void solver_free(Solver* solver) noexcept nogil
cdef Py_ssize_t solver_decompose(Solver* solver, uint64_t once, uint64_t twice, int level, int prefer,
                                 Py_ssize_t* rows) noexcept nogil
