"""Memory: ~100,000 native calls must not grow the resident memory.

``scripts/leak_check.py`` does the same with a million calls; this test reuses its
workload and RSS reader.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from guandan_fast.engine import _movegen

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "leak_check.py"
#: allowed growth after warm-up; one leaked small array per call would be ~10 MiB here
LIMIT = 4 * 2**20


def leak_check() -> ModuleType:
    spec = importlib.util.spec_from_file_location("leak_check", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("leak_check", module)
    spec.loader.exec_module(module)
    return module


def test_generate_100k_calls_keeps_rss_flat() -> None:
    check = leak_check()
    if check.rss_bytes() == 0:
        pytest.skip("no way to read the resident memory here")
    hands = check.workload(seed=3)
    generate = _movegen.generate
    lasts = check.LASTS

    def calls(n: int) -> None:
        made = 0
        while made < n:
            for i, (once, twice, level) in enumerate(hands):
                generate(once, twice, level, *lasts[i % len(lasts)], i % 2 == 0)
                made += 1

    calls(10_000)  # warm-up
    before = check.rss_bytes()
    calls(100_000)
    growth = check.rss_bytes() - before
    assert growth < LIMIT, f"RSS grew by {growth / 2**20:.1f} MiB over 100,000 generate calls"


def test_every_entry_point_and_error_path_keeps_rss_flat() -> None:
    check = leak_check()
    if check.rss_bytes() == 0:
        pytest.skip("no way to read the resident memory here")
    hands = check.workload(seed=4)
    check.one_round(hands, 20_000)  # warm-up
    before = check.rss_bytes()
    check.one_round(hands, 100_000)
    growth = check.rss_bytes() - before
    assert growth < LIMIT, f"RSS grew by {growth / 2**20:.1f} MiB over 100,000 mixed native calls"


def test_leak_check_script_runs() -> None:
    assert leak_check().main(["--calls", "20000", "--rounds", "2", "--limit-mb", "16"]) in (0, 2)
