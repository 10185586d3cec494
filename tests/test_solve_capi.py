"""The solver's C face (search/_solve.pxd) from users' extensions, built against
``guandan_fast.get_include()``: the example of docs/solving.md, exactly as printed, sums the
same per-action bounds over worlds as ``gf.solve``; a checker drives the limits Python does
not reach (the position's value only, a stop flag, a small table, no signal checks) and the
principal line."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from cython_build import build_extensions, documented_extension, load
from solve_oracle import cut

import guandan_fast as gf

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "solving.md"


CHECKER = textwrap.dedent(
    """
    # cython: language_level=3
    from guandan_fast.engine.state cimport MAX_ACTIONS, PlayState, state_from_deal
    from guandan_fast.search._solve cimport (
        LineAction, OBJECTIVE_FIRST, OBJECTIVE_POINTS, SolveContext, SolveLimits, SolveResult,
        solve_context_free, solve_context_init, solve_limits_none, solve_line, solve_state,
    )

    cdef class Checker:
        cdef SolveContext context
        cdef LineAction line[MAX_ACTIONS]

        def __cinit__(self):
            if solve_context_init(&self.context) != 0:
                solve_context_free(&self.context)
                raise MemoryError()

        def __dealloc__(self):
            solve_context_free(&self.context)

        def solve(self, deal, bint first=False, long long max_nodes=0, bint all_actions=True,
                  bint stopped=False, int table_bits=0, bint table=True, bint line=False):
            cdef PlayState state
            cdef SolveLimits limits
            cdef SolveResult result
            cdef int stop = 1 if stopped else 0
            cdef int code
            cdef Py_ssize_t i, count = 0
            solve_limits_none(&limits)
            limits.max_nodes = max_nodes
            limits.all_actions = all_actions
            limits.stop = &stop
            limits.table_bits = table_bits
            limits.use_table = table
            state_from_deal(deal, &state)
            with nogil:
                code = solve_state(&self.context, &state, OBJECTIVE_FIRST if first else OBJECTIVE_POINTS,
                                   &limits, &result)
                if code == 0 and line and result.exact:
                    count = solve_line(&self.context, &state, result.lower, result.best, self.line)
            rows = [(self.line[i].seat, self.line[i].kind, self.line[i].key, self.line[i].once, self.line[i].twice)
                    for i in range(count)]
            return (code, result.lower, result.upper, result.exact, result.stopped, result.best, result.nodes,
                    [result.lowers[i] for i in range(result.actions)],
                    [result.uppers[i] for i in range(result.actions)], rows)
    """
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not DOC.exists():
        pytest.skip("docs/ is not beside the tests")
    sources = {"world_solver": documented_extension(DOC), "solve_checker": CHECKER}
    return build_extensions(tmp_path_factory.mktemp("solve_capi"), sources)


@pytest.fixture(scope="module")
def world_solver(built: Path) -> Any:
    return load(built, "world_solver")


@pytest.fixture(scope="module")
def checker(built: Path) -> Any:
    return load(built, "solve_checker").Checker()


def test_the_documented_extension_sums_what_gf_solve_gives(world_solver: Any) -> None:
    solver = world_solver.WorldSolver()
    compared = 0
    for seed in range(12):
        deal = cut(seed, 8)
        if deal is None or deal.done:
            continue
        worlds = deal.sample_worlds(deal.current_seat, 4, seed=seed)
        for limit in (30, 100_000):
            lower, upper = solver.sums(worlds, limit)
            solutions = [gf.solve(world, max_nodes=limit) for world in worlds]
            assert lower == [sum(column) for column in zip(*(s.lowers for s in solutions))]
            assert upper == [sum(column) for column in zip(*(s.uppers for s in solutions))]
            compared += 1
    assert compared >= 10
    finished = gf.Deal.start(["S3", "H5", "C6", "D8"], 2, leader=0)
    while not finished.done:
        finished.step(finished.legal_actions()[-1])
    with pytest.raises(ValueError, match="over"):
        solver.sums([finished], 10)


def test_limits_only_c_callers_set(checker: Any) -> None:
    positions = [deal for deal in (cut(seed, cards) for seed in range(20) for cards in (6, 9)) if deal and not deal.done]
    checked = 0
    for deal in positions:
        for first in (False, True):
            exact = gf.solve(deal, "first" if first else "points", max_nodes=500_000)
            if not exact.exact:
                continue
            checked += 1
            code, lower, upper, is_exact, stopped, best, nodes, lowers, uppers, _ = checker.solve(deal, first)
            assert (code, lower, upper, is_exact, stopped) == (0, exact.value, exact.value, 1, 0)
            assert (lowers, uppers, best) == (list(exact.lowers), list(exact.uppers), exact.best)
            # the position's value only: exact, the actions that cannot be best keep bounds at most it
            code, lower, upper, is_exact, stopped, best, only, lowers, uppers, _ = checker.solve(deal, first, all_actions=False)
            assert (code, lower, upper, is_exact) == (0, exact.value, exact.value, 1) and only <= nodes
            assert lowers[best] == exact.value and all(u <= exact.value for u in uppers)
            for low, value, high in zip(lowers, exact.values, uppers):
                assert low <= value <= high  # type: ignore[operator]
            # a stop flag set before the call: nothing searched past the root, bounds that hold
            code, lower, upper, is_exact, stopped, _, _, lowers, uppers, _ = checker.solve(deal, first, stopped=True)
            assert code == 0 and lower <= exact.value <= upper  # type: ignore[operator]
            assert stopped in (0, 3) and (stopped == 3) == (not is_exact)
            # the smallest table, and none: the same values
            for small in ({"table_bits": 12}, {"table": False, "max_nodes": 300_000}):
                result = checker.solve(deal, first, **small)
                assert result[3] == 0 or result[7] == list(exact.lowers), small
            # the principal line, from C
            rows = checker.solve(deal, first, line=True)[9]
            assert [(seat, gf.engine.notation.stored_triple(k, key, o, t, deal.level)) for seat, k, key, o, t in rows] == list(exact.line)
    assert checked >= 40
    assert any(checker.solve(deal, stopped=True)[4] == 3 for deal in positions)  # a search the flag stopped
