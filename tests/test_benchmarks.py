"""The benchmarks keep working: every one in ``benchmarks/`` runs once, untimed.

The plain ``pytest`` collects only ``tests/``; timings stay in ``benchmarks/`` (never in
assertions), but a benchmark that raises would otherwise go unnoticed until someone
measures. pytest-benchmark's ``--benchmark-disable`` runs each benchmarked call once.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


@pytest.mark.skipif(not BENCHMARKS.is_dir(), reason="benchmarks/ is not beside the tests")
def test_every_benchmark_runs_once_untimed() -> None:
    pytest.importorskip("pytest_benchmark", reason="pytest-benchmark is not installed (pip install '.[bench]')")
    env = {**os.environ, "GUANDAN_BENCH_HANDS": "100", "GUANDAN_BENCH_REFERENCE_HANDS": "4"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", str(BENCHMARKS), "--benchmark-disable", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    tail = done.stdout[-4000:] + done.stderr[-2000:]
    assert done.returncode == 0, tail
    summary = re.search(r"(\d+) passed", tail)
    assert summary is not None and int(summary.group(1)) >= 60, tail  # 67 benchmarks today
    assert "failed" not in tail.splitlines()[-1], tail
