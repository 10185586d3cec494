"""Time the leading lists of several versions of the native generator, in one process.

Wall-clock figures on a shared machine drift between runs by more than a kernel change
gains, and instruction counts miss what branch mispredictions cost. This builds
``_movegen`` as it is at each git revision (or ``worktree``) into a module of its own, loads
them all, and alternates them over many passes of the same seeded hands, so that a
difference of a few percent shows:

    python scripts/compare_kernels.py HEAD~1 worktree --rounds 25
    python scripts/compare_kernels.py HEAD~1 worktree --batch 2   # generate_batch vs a loop

Needs Cython and a C compiler (the build's own tools) and the package importable.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
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
        shown = subprocess.run(["git", "show", f"{revision}:{path}"], cwd=ROOT, capture_output=True, text=True, check=False)
        if shown.returncode == 0:
            return shown.stdout.replace("from guandan_fast._bitops cimport", "from guandan_fast.engine._bitops cimport")
    raise SystemExit(f"{revision} has no {name}")


def _parts(revision: str) -> list[str]:
    """The files ``_movegen.pyx`` includes at ``revision`` (``movegen/*.pxi``; none before the split)."""
    if revision == "worktree":
        return sorted(p.name for p in (PACKAGE / "engine" / "movegen").glob("*.pxi"))
    listed = subprocess.run(
        ["git", "ls-tree", "--name-only", revision, "src/guandan_fast/engine/movegen/"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )
    return [Path(line).name for line in listed.stdout.split() if line.endswith(".pxi")]


def build(revisions: list[str], where: Path, defines: list[tuple[str, str]] | None = None) -> list[str]:
    """Compile ``_movegen`` of each revision as the top-level module ``_kernel_<i>`` in
    ``where`` (with the C macros ``defines``, beside the build's own); the module names.
    Each revision's sources (with the parts it includes) go to a folder of their own."""
    import numpy
    from Cython.Build import cythonize
    from setuptools import Extension
    from setuptools.dist import Distribution

    names = []
    extensions = []
    for i, revision in enumerate(revisions):
        name = f"_kernel_{i}"
        folder = where / f"source_{i}"
        (folder / "movegen").mkdir(parents=True)
        (folder / f"{name}.pyx").write_text(_source(revision, "_movegen.pyx"), encoding="utf-8")
        (folder / f"{name}.pxd").write_text(_source(revision, "_movegen.pxd"), encoding="utf-8")
        for part in _parts(revision):
            (folder / "movegen" / part).write_text(_source(revision, f"movegen/{part}"), encoding="utf-8")
        extensions.append(
            Extension(
                name,
                [str(folder / f"{name}.pyx")],
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


def compare_batch(names: list[str], labels: list[str], hands: int, rounds: int, threads: int) -> None:
    """``generate_batch`` of each version on one thread and on ``threads`` threads (the
    hands split as ``legal_moves_batch`` splits them), beside the version's own loop of
    ``generate`` calls, all alternated; the output arrays are dropped after each pass, as
    a loop's lists are."""
    from concurrent.futures import ThreadPoolExecutor

    import numpy as np

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import workload as bench

    workload = bench.make_workload(hands, bench.DEFAULT_SEED)
    planes = np.array([(hand.once, hand.twice) for hand in workload.hands], dtype=np.uint64)
    levels = np.array(workload.levels, dtype=np.uint8)
    rows = [(hand.once, hand.twice, level) for hand, level in zip(workload.hands, workload.levels)]
    bounds = [hands * i // threads for i in range(threads + 1)]
    chunks = [(planes[a:b], levels[a:b]) for a, b in itertools.pairwise(bounds)]
    pool = ThreadPoolExecutor(threads)
    modules = [importlib.import_module(name) for name in names]
    kinds = ("loop", "batch, 1 thread", f"batch, {threads} threads")
    seconds = {(label, kind): [] for label in labels for kind in kinds}
    clock = time.perf_counter

    def one_pass(module: object, kind: str) -> None:
        generate, generate_batch = module.generate, module.generate_batch  # type: ignore[attr-defined]
        if kind == "loop":
            for once, twice, level in rows:
                generate(once, twice, level, 0, 0, 0, False)
        elif kind == "batch, 1 thread":
            generate_batch(planes, levels, 0, 0, 0, False)
        else:
            list(pool.map(lambda chunk: generate_batch(*chunk, 0, 0, 0, False), chunks))

    for _ in range(rounds):
        for label, module in zip(labels, modules):
            for kind in kinds:
                start = clock()
                one_pass(module, kind)
                seconds[label, kind].append((clock() - start) / hands * 1e6)
    for label in labels:
        loop = statistics.median(seconds[label, "loop"])
        for kind in kinds:
            median = statistics.median(seconds[label, kind])
            print(f"{label:12s} {kind:18s} median {median:6.3f} µs a hand, {median / loop:5.2f} of the loop")
    pool.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revisions", nargs="+", help="git revisions, or 'worktree' for the files on disk")
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=25)
    parser.add_argument(
        "--batch", type=int, default=0, metavar="THREADS",
        help="time generate_batch (one thread and THREADS threads) beside a loop of generate instead",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        names = build(args.revisions, where)
        sys.path.insert(0, str(where))
        if args.batch:
            compare_batch(names, args.revisions, args.hands, args.rounds, args.batch)
        else:
            compare(names, args.revisions, args.hands, args.rounds)


if __name__ == "__main__":
    main()
