# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""Exact solving of sampled worlds for a search agent, in one call per decision.

A PIMC step with the exact solver: the seat to act's position with its hidden hands
replaced by each sampled world (hand planes ``uint64[w, 4, 2]`` as
:func:`~guandan_fast.search.infoset.sample_hands` draws them), each world solved by the
native solver (``solve_state`` of ``_solve.pxd``, every action's value) on one reused
:c:type:`SolveContext`, and the values of the candidate rows read off. No Python object is
made per world; the rules are the play state's own (nothing here knows a trick rule).
"""

cimport cython
from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t

import time

import numpy as np
cimport numpy as cnp

from guandan_fast.engine._movegen cimport as_long_long, as_small
from guandan_fast.engine.arrays import integer_array

from guandan_fast.engine.state cimport PlayState, hand_size, state_check, state_from_deal
from guandan_fast.search._solve cimport (
    OBJECTIVE_FIRST,
    OBJECTIVE_POINTS,
    STOP_SIGNAL,
    SolveContext,
    SolveLimits,
    SolveResult,
    solve_context_free,
    solve_context_init,
    solve_limits_none,
    solve_state,
)

cnp.import_array()

_clock = time.perf_counter


cdef int _raise_pending() except -1:
    """Propagate the exception a signal handler left pending during a solve."""
    return -1


cdef inline void _add(uint64_t* lo, uint64_t* hi, uint64_t* over, uint64_t once, uint64_t twice) noexcept nogil:
    """Add a hand to a multiset of cards held as a two-bit count per card (``lo``, ``hi``);
    ``over`` marks the cards counted more than twice."""
    cdef uint64_t c0 = once & ~twice, c1 = twice, carry0, carry1, s0, s1
    s0 = lo[0] ^ c0
    carry0 = lo[0] & c0
    s1 = hi[0] ^ c1 ^ carry0
    carry1 = (hi[0] & c1) | (hi[0] & carry0) | (c1 & carry0)
    over[0] |= carry1 | (s0 & s1)
    lo[0] = s0
    hi[0] = s1


@cython.auto_pickle(False)  # never pickled: it owns native memory
cdef class WorldSolver:
    """One solver context reused for every world of every decision (one thread at a time)."""

    cdef SolveContext ctx
    cdef bint busy

    def __cinit__(self):
        if solve_context_init(&self.ctx) != 0:
            solve_context_free(&self.ctx)
            raise MemoryError("out of memory making a world solver")

    def __dealloc__(self):
        solve_context_free(&self.ctx)

    def solve_worlds(self, deal, worlds, rows, objective, max_nodes, double deadline):
        """solve_worlds(deal, worlds, rows, objective, max_nodes, deadline) -> tuple

        ``(values, exact, solved, nodes)`` for ``deal`` (a Deal or State in its play phase,
        not done) with its hands replaced by each world in turn: ``values[i, j]`` the exact
        value of row ``rows[j]`` (an index into the deal's legal actions) for the team of
        the seat to act in world ``i`` (float64, valid where ``exact[i]``), ``exact[i]``
        whether every candidate's value was proven in world ``i``, ``solved`` the number of
        worlds attempted (from the first; the rest were not reached before ``deadline``) and
        ``nodes`` the positions searched. ``max_nodes`` <= 0: no node limit per world;
        ``deadline``: a ``time.perf_counter()`` time at which the solving stops (<= 0: none)."""
        cdef PlayState base, s
        cdef SolveLimits limits
        cdef SolveResult r
        cdef int goal = as_small(objective, "objective")
        cdef long long node_limit = as_long_long(max_nodes, "max_nodes")
        world_array = integer_array(worlds, np.uint64, "worlds")
        if world_array.ndim != 3 or world_array.shape[1] != 4 or world_array.shape[2] != 2:
            raise ValueError(f"worlds must be hand planes of shape (w, 4, 2), not {world_array.shape}")
        row_array = integer_array(rows, np.int64, "rows")
        if row_array.ndim != 1:
            raise ValueError(f"rows must be one-dimensional, not of shape {row_array.shape}")
        cdef cnp.ndarray[uint64_t, ndim=3] planes = world_array
        cdef cnp.ndarray[cnp.int64_t, ndim=1] wanted = row_array
        cdef Py_ssize_t nworlds, ncand = wanted.shape[0], w, j, row
        cdef int seat, code
        cdef int64_t nodes = 0
        cdef double left
        cdef bint tight
        if goal != OBJECTIVE_POINTS and goal != OBJECTIVE_FIRST:
            raise ValueError(f"unknown objective code {goal}")
        nworlds = planes.shape[0]
        state_from_deal(deal, &base)
        if base.done:
            raise ValueError("the deal is over: there is nothing to solve")
        cdef uint64_t lo = 0, hi = 0, over = 0, wlo, whi, wover
        cdef int acting = base.to_act & 3
        for seat in range(4):
            _add(&lo, &hi, &over, base.once[seat], base.twice[seat])
        for w in range(nworlds):  # each world: the same cards in all, as many per seat
            s = base
            wlo = whi = wover = 0
            for seat in range(4):
                s.once[seat] = planes[w, seat, 0]
                s.twice[seat] = planes[w, seat, 1]
                if (s.twice[seat] & ~s.once[seat]) or hand_size(s.once[seat], s.twice[seat]) != hand_size(
                    base.once[seat], base.twice[seat]
                ):
                    raise ValueError(f"world {w}: seat {seat}'s hand does not fit the deal (its number of cards)")
                _add(&wlo, &whi, &wover, s.once[seat], s.twice[seat])
            if wover or wlo != lo or whi != hi or state_check(&s) != 0:
                raise ValueError(f"world {w} does not fit the deal: the four hands must hold the deal's cards")
            if s.once[acting] != base.once[acting] or s.twice[acting] != base.twice[acting]:
                raise ValueError(f"world {w} changes the hand of the seat to act (the rows name its actions)")
        if self.busy:
            raise RuntimeError("this world solver is already solving (use one per thread)")
        values = np.zeros((nworlds, ncand), dtype=np.float64)
        exact = np.zeros(nworlds, dtype=bool)
        cdef double[:, ::1] out = values
        cdef uint8_t[::1] proven = exact.view(np.uint8)
        solve_limits_none(&limits)
        limits.max_nodes = node_limit
        limits.check_signals = 1
        self.busy = True
        try:
            for w in range(nworlds):
                if deadline > 0:
                    left = (deadline - _clock()) * 1000.0
                    if left <= 0:
                        return values, exact, w, nodes
                    limits.time_ms = left
                s = base
                for seat in range(4):
                    s.once[seat] = planes[w, seat, 0]
                    s.twice[seat] = planes[w, seat, 1]
                with nogil:
                    code = solve_state(&self.ctx, &s, goal, &limits, &r)
                if self.ctx.stopped == STOP_SIGNAL:
                    _raise_pending()
                if code == -1:
                    raise MemoryError("out of memory solving a world")
                if code != 0:
                    raise ValueError("the deal is over: there is nothing to solve")
                nodes += r.nodes
                tight = True
                for j in range(ncand):
                    row = wanted[j]
                    if row < 0 or row >= r.actions:
                        raise ValueError(f"row {row} is not one of the {r.actions} legal actions")
                    if r.lowers[row] != r.uppers[row]:
                        tight = False
                    out[w, j] = r.lowers[row]
                proven[w] = tight
            return values, exact, nworlds, nodes
        finally:
            self.busy = False
