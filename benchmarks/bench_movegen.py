"""Move generation speed: every case of `benchmarks/workload.py` on both backends.

One benchmark round is one pass over the fixed hands (the reference backend makes
fewer passes over fewer hands: it takes milliseconds a hand). Run ``pytest benchmarks``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import workload as bench

from guandan_fast.engine import api

REFERENCE_ROUNDS = 3


@pytest.mark.parametrize("backend", bench.BACKENDS)
@pytest.mark.parametrize("case", list(bench.CASES))
def test_movegen(
    benchmark: Any,
    record: Callable[..., Any],
    workload: bench.Workload,
    reference_workload: bench.Workload,
    case: str,
    backend: api.Backend,
) -> None:
    hands = workload if backend == "native" else reference_workload
    run = bench.make_pass(case, hands, backend)
    benchmark.group = bench.CASES[case]
    if backend == "native":
        moves = benchmark(run)
    else:
        moves = benchmark.pedantic(run, rounds=REFERENCE_ROUNDS, iterations=1, warmup_rounds=1)
    assert moves > 0
    record(case, backend, bench.case_hands(case, hands), moves)
