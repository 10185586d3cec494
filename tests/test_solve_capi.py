"""The solver's C face (search/_solve.pxd) from a user's extension: the example of
docs/solving.md, built exactly as printed against ``guandan_fast.get_include()``, sums the
same per-action bounds over worlds as ``gf.solve``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cython_build import build_extensions, documented_extension, load
from solve_oracle import cut

import guandan_fast as gf

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "solving.md"


@pytest.fixture(scope="module")
def world_solver(tmp_path_factory: pytest.TempPathFactory) -> Any:
    if not DOC.exists():
        pytest.skip("docs/ is not beside the tests")
    folder = build_extensions(tmp_path_factory.mktemp("solve_capi"), {"world_solver": documented_extension(DOC)})
    return load(folder, "world_solver")


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
