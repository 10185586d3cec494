"""Time two versions of the whole package in turns: ``guandan-fast bench`` and the pytest
benchmarks, each version's own, alternated run after run.

This machine's speed swings by up to a factor of two between processes, so a before/after
figure means something only when the two versions run in the same session, in turns. The
other revision is exported (``git archive``) and built in place into a cache folder, then
each round runs it and the working tree one after the other (``PYTHONPATH`` picks the
package; the working tree's own build must be current). The median of the rounds is printed
per row, with the change.

    python scripts/compare_versions.py main --rounds 3                       # guandan-fast bench
    python scripts/compare_versions.py main --rounds 2 --pytest benchmarks/bench_playout.py

Needs Cython and a C compiler (the build's own tools) and git.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def checkout(revision: str) -> Path:
    """The revision exported and built in place (cached by commit)."""
    commit = subprocess.run(["git", "rev-parse", revision], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.strip()
    where = Path(tempfile.gettempdir()) / f"guandan_fast-{commit[:12]}"
    if not (where / ".built").is_file():
        where.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive, check=True)
        subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=where, check=True,
                       capture_output=True)
        (where / ".built").write_text(commit)
    return where


def bench_rows(root: Path) -> dict[str, float]:
    """``guandan-fast bench --json`` of the package at ``root``: µs per hand (cases) or call (paths)."""
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    done = subprocess.run([sys.executable, "-m", "guandan_fast", "bench", "--json", "--quiet"], cwd=root, env=env,
                          check=True, capture_output=True, text=True)
    document = json.loads(done.stdout)
    rows = {f"{case['title']}": case["native"]["us_per_hand"] for case in document["cases"] if case["native"]}
    rows.update({path["title"]: path["us_per_hand"] for path in document["paths"]})
    return rows


def pytest_rows(root: Path, files: list[str]) -> dict[str, float]:
    """The medians (µs) of the pytest benchmarks in ``files`` (paths under ``root``)."""
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.json"
        subprocess.run([sys.executable, "-m", "pytest", *files, "-q", "-p", "no:cacheprovider",
                        f"--benchmark-json={out}"], cwd=root, env=env, check=True, capture_output=True)
        document = json.loads(out.read_text())
    return {entry["fullname"].split("::", 1)[1]: entry["stats"]["median"] * 1e6 for entry in document["benchmarks"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision", help="the other version (a git revision)")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each version, alternated (default 3)")
    parser.add_argument("--pytest", nargs="+", metavar="FILE", help="pytest benchmark files instead of guandan-fast bench")
    args = parser.parse_args(argv)
    other = checkout(args.revision)
    versions = {args.revision: other, "worktree": ROOT}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in versions}
    for round_number in range(args.rounds):
        for name, root in versions.items():
            rows = pytest_rows(root, args.pytest) if args.pytest else bench_rows(root)
            runs[name].append(rows)
            print(f"round {round_number + 1}: {name} done", file=sys.stderr)
    names = [row for row in runs["worktree"][0] if all(row in run for version in runs.values() for run in version)]
    width = max(len(name) for name in names)
    print(f"{'µs (median of ' + str(args.rounds) + ' runs)':{width}}  {args.revision:>12}  {'worktree':>12}  change")
    for name in names:
        before = statistics.median(run[name] for run in runs[args.revision])
        after = statistics.median(run[name] for run in runs["worktree"])
        print(f"{name:{width}}  {before:12.3f}  {after:12.3f}  {(after / before - 1) * 100:+6.1f}%")
    only = [row for row in runs["worktree"][0] if row not in names]
    if only:
        print("only in the worktree: " + ", ".join(only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
