# Included by _solve.pyx (one module: the search inlines across these files).
# The value of a finished position and the range of values an unfinished one can still reach.

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
