"""Time the leading lists of several versions of the native generator, in one process.

Wall-clock figures on a shared machine drift between runs by more than a kernel change
gains, and instruction counts miss what branch mispredictions cost. This builds
``_movegen`` as it is at each git revision (or ``worktree``) into a module of its own, loads
them all, and alternates them over many passes of the same seeded hands, so that a
difference of a few percent shows:

    python scripts/compare_kernels.py HEAD~1 worktree --rounds 25

Needs Cython and a C compiler (the build's own tools) and the package importable.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "guandan_fast"


def _source(revision: str, name: str) -> str:
    """The text of the engine's ``name`` at ``revision`` (``worktree``: on disk), with the
    cimports of revisions before the package re-layout (``guandan_fast._bitops``, kernels at
    the package's top) pointed at today's ``guandan_fast.engine``."""
    if revision == "worktree":
        return (PACKAGE / "engine" / name).read_text(encoding="utf-8")
    for path in (f"src/guandan_fast/engine/{name}", f"src/guandan_fast/{name}"):
        shown = subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT, capture_output=True, text=True)
        if shown.returncode == 0:
            return shown.stdout.replace("from guandan_fast._bitops cimport", "from guandan_fast.engine._bitops cimport")
    raise SystemExit(f"{revision} has no {name}")


def build(revisions: list[str], where: Path, defines: list[tuple[str, str]] | None = None) -> list[str]:
    """Compile ``_movegen`` of each revision as the top-level module ``_kernel_<i>`` in
    ``where`` (with the C macros ``defines``, beside the build's own); the module names."""
    import numpy
    from Cython.Build import cythonize
    from setuptools import Extension
    from setuptools.dist import Distribution

    names = []
    extensions = []
    for i, revision in enumerate(revisions):
        name = f"_kernel_{i}"
        (where / f"{name}.pyx").write_text(_source(revision, "_movegen.pyx"), encoding="utf-8")
        (where / f"{name}.pxd").write_text(_source(revision, "_movegen.pxd"), encoding="utf-8")
        extensions.append(
            Extension(
                name,
                [str(where / f"{name}.pyx")],
                include_dirs=[numpy.get_include(), str(ROOT / "src")],
                extra_compile_args=["-O3", "-g0"],  # as setup.py builds the shipped module
                define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION"), *(defines or [])],
            )
        )
        names.append(name)
    modules = cythonize(extensions, compiler_directives={"language_level": "3"}, quiet=True, include_path=[str(ROOT / "src")])
    dist = Distribution({"ext_modules": modules})
    command = dist.get_command_obj("build_ext")
    command.build_lib = str(where)
    command.build_temp = str(where / "build")
    dist.run_command("build_ext")
    return names


def compare(names: list[str], labels: list[str], hands: int, rounds: int) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import workload as bench

    workload = bench.make_workload(hands, bench.DEFAULT_SEED)
    rows = [(hand.once, hand.twice, level) for hand, level in zip(workload.hands, workload.levels)]
    generators = [importlib.import_module(name).generate for name in names]
    seconds: list[list[float]] = [[] for _ in names]
    clock = time.perf_counter
    for _ in range(rounds):
        for generate, taken in zip(generators, seconds):
            start = clock()
            for once, twice, level in rows:
                generate(once, twice, level, 0, 0, 0, False)
            taken.append((clock() - start) / len(rows) * 1e6)
    first = statistics.median(seconds[0])
    for label, taken in zip(labels, seconds):
        median = statistics.median(taken)
        print(f"{label:24s} median {median:6.3f} µs a leading list (min {min(taken):6.3f}), {median / first:6.1%} of the first")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revisions", nargs="+", help="git revisions, or 'worktree' for the files on disk")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=25)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        names = build(args.revisions, where)
        sys.path.insert(0, str(where))
        compare(names, args.revisions, args.hands, args.rounds)


if __name__ == "__main__":
    main()
