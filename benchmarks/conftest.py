"""pytest-benchmark setup for ``pytest benchmarks`` (never run by the plain ``pytest``).

Files named ``bench_*.py`` in this folder are collected as test modules. The workload
is `workload.make_workload`; its size comes from the environment:

* ``GUANDAN_BENCH_HANDS`` (default 500): hands per native pass;
* ``GUANDAN_BENCH_REFERENCE_HANDS`` (default 20): hands per reference pass (the first ones);
* ``GUANDAN_BENCH_SEED``: the deal seed.

At the end of the session the native/reference comparison of this run is printed,
with the same tables as ``guandan-fast bench`` (the input forms of ``bench_paths.py``
beside their fast forms, too).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import workload as bench

HANDS = int(os.environ.get("GUANDAN_BENCH_HANDS", "500"))
REFERENCE_HANDS = int(os.environ.get("GUANDAN_BENCH_REFERENCE_HANDS", "20"))
SEED = int(os.environ.get("GUANDAN_BENCH_SEED", str(bench.DEFAULT_SEED)))

#: Game-speed lines of this session (``bench_playout.py``), by label.
GAME_SPEED: dict[str, str] = {}
#: Encoder speed lines of this session (``bench_encode.py``), by label.
ENCODE_SPEED: dict[str, str] = {}
#: Every measurement of this session, by (case, backend), for the closing table.
RESULTS: dict[tuple[str, str], bench.Measurement] = {}
#: Input-form measurements of this session (``bench_paths.py``), by path.
PATH_RESULTS: dict[str, bench.Measurement] = {}


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    # A file named on the command line is collected by pytest itself already.
    if file_path.suffix == ".py" and file_path.name.startswith("bench_") and not parent.session.isinitpath(file_path):
        return pytest.Module.from_parent(parent, path=file_path)
    return None


@pytest.fixture(scope="session")
def workload() -> bench.Workload:
    return bench.make_workload(HANDS, SEED)


@pytest.fixture(scope="session")
def reference_workload(workload: bench.Workload) -> bench.Workload:
    return workload.head(REFERENCE_HANDS)


@pytest.fixture
def record(benchmark: Any) -> Callable[[str, str, int, int], None]:
    """Store a finished benchmark as a `workload.Measurement` and put
    µs per hand and moves/s into its ``extra_info``."""

    def record_(case: str, backend: str, hands: int, moves: int) -> None:
        if benchmark.stats is None:  # --benchmark-disable: the pass ran once, untimed
            return
        measurement = bench.Measurement(case, backend, hands, moves, list(benchmark.stats.stats.data))
        RESULTS[case, backend] = measurement
        benchmark.extra_info.update(measurement.as_dict())

    return record_


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if GAME_SPEED:
        terminalreporter.section("guandan_fast: game speed (one core)")
        for label, text in GAME_SPEED.items():
            terminalreporter.write_line(f"{label:48} {text}")
    if ENCODE_SPEED:
        terminalreporter.section("guandan_fast: encoders (one core)")
        for label, text in ENCODE_SPEED.items():
            terminalreporter.write_line(f"{label:58} {text}")
    if PATH_RESULTS:
        terminalreporter.section("guandan_fast: input forms, median µs per call")
        ordered = [PATH_RESULTS[path] for path in bench.PATHS if path in PATH_RESULTS]
        for line in bench.format_paths(ordered):
            terminalreporter.write_line(line)
    if not RESULTS:
        return
    rows = [bench.Row(case, RESULTS.get((case, "native")), RESULTS.get((case, "reference"))) for case in bench.CASES]
    comparison = bench.Comparison(SEED, HANDS, REFERENCE_HANDS, [row for row in rows if row.native or row.reference])
    terminalreporter.section("guandan_fast: native vs reference, median per hand")
    terminalreporter.write_line(bench.format_table(comparison))
