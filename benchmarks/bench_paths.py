"""The input forms users pass, each beside its fast form: platform triples, card strings,
and a :class:`~guandan_fast.engine.deal.Deal` stepped by triple, index or Move (see
`workload.PATHS`). Default backend; run ``pytest benchmarks/bench_paths.py``.

One round is one pass of `workload.make_path` (its setup untimed); the
closing summary shows µs per call, the fast form beside each user form.
"""

from __future__ import annotations

from typing import Any

import pytest
import workload as bench
from conftest import PATH_RESULTS

ROUNDS = 30


@pytest.mark.parametrize("path", list(bench.PATHS))
def test_input_form(benchmark: Any, workload: bench.Workload, path: str) -> None:
    setup, run = bench.make_path(path, workload)
    benchmark.group = "input forms"
    calls = benchmark.pedantic(run, setup=lambda: ((setup(),), {}), rounds=ROUNDS, iterations=1, warmup_rounds=1)
    assert calls > 0
    if benchmark.stats is None:  # --benchmark-disable
        return
    measurement = bench.Measurement(path, "default", calls, calls, list(benchmark.stats.stats.data))
    PATH_RESULTS[path] = measurement
    benchmark.extra_info["us_per_call"] = round(measurement.us_per_hand, 3)
