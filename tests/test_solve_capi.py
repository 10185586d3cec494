"""The solver's C face (search/_solve.pxd) from a user's extension: the example of
docs/solving.md, built exactly as printed against ``guandan_fast.get_include()``, sums the
same per-action bounds over worlds as ``gf.solve``."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from solve_oracle import cut

import guandan_fast as gf

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "solving.md"


def example_source() -> str:
    """The one ```cython block of docs/solving.md, exactly as printed."""
    blocks = re.findall(r"```cython\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1, "docs/solving.md holds one complete example extension"
    return str(blocks[0])


@pytest.fixture(scope="module")
def world_solver(tmp_path_factory: pytest.TempPathFactory) -> Any:
    if not DOC.exists():
        pytest.skip("docs/ is not beside the tests")
    if importlib.util.find_spec("Cython") is None:
        pytest.skip("Cython is not installed")
    if shutil.which(os.environ.get("CC", "cc")) is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    build = tmp_path_factory.mktemp("solve_capi")
    (build / "world_solver.pyx").write_text(example_source(), encoding="utf-8")
    setup = textwrap.dedent(
        """
        import numpy
        from Cython.Build import cythonize
        from setuptools import Extension, setup

        import guandan_fast

        include = [guandan_fast.get_include(), numpy.get_include()]
        setup(ext_modules=cythonize([Extension("world_solver", ["world_solver.pyx"], include_dirs=include)],
                                    include_path=[guandan_fast.get_include()], quiet=True))
        """
    )
    (build / "setup.py").write_text(setup, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "-q"],
        cwd=build,
        check=False,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        pytest.fail("could not build an extension that cimports search/_solve.pxd:\n" + done.stdout + done.stderr)
    sys.path.insert(0, str(build))
    try:
        import world_solver  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(build))
    return world_solver


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
