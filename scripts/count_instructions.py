"""Exact instructions per call of a `guandan-fast bench` input form, counted by callgrind.

Wall-clock figures on a shared machine swing from run to run; instruction counts do not.
Each path is run twice under ``valgrind --tool=callgrind`` (its setup alone, then setup and
calls); the difference divided by the calls is the cost of one call, Python included (with
the collections of the objects the calls make, but not a scan of the workload's objects,
which ``gc.freeze()`` keeps out of every collection).

    python scripts/count_instructions.py lead_hand follow_move has_follow_move

Paths are the keys of ``workload.PATHS`` (benchmarks/workload.py). Needs valgrind; run it from a
checkout with the package importable (installed, or ``PYTHONPATH=src``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HANDS = 200
PASSES = 5

_RUN = """
import gc, sys
sys.path.insert(0, {benchmarks!r})
import workload as bench  # the benchmark workload of this checkout
setup, run = bench.make_path(sys.argv[1], bench.make_workload({hands}, bench.DEFAULT_SEED))
# the workload's objects out of the collector's sight: a full collection scanning them would
# land at a different point in the two runs and add thousands of instructions to a call
gc.collect()
gc.freeze()
for _ in range({passes}):
    state = setup()
    if sys.argv[2] == "1":
        calls = run(state)
print(calls if sys.argv[2] == "1" else 0)
"""


def _instructions(path: str, with_calls: bool) -> tuple[int, int]:
    """(instructions of the whole process, calls per pass)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        script = os.path.join(tmp, "run.py")
        with open(script, "w", encoding="utf-8") as handle:
            handle.write(_RUN.format(hands=HANDS, passes=PASSES, benchmarks=str(Path(__file__).resolve().parent.parent / "benchmarks")))
        # a fixed hash seed: dict probing differs from one seed to the next by ~1k instructions a call
        env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                script,
                path,
                "1" if with_calls else "0",
            ],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        )
        with open(out, encoding="utf-8") as handle:
            totals = re.search(r"^totals: (\d+)", handle.read(), re.MULTILINE)
        if totals is None:
            raise RuntimeError(f"no totals in callgrind's output for {path}")
        return int(totals.group(1)), int(done.stdout.split()[-1])


def main(paths: list[str]) -> int:
    for path in paths:
        base, _ = _instructions(path, False)
        total, calls = _instructions(path, True)
        print(f"{path:20s} {(total - base) / (calls * PASSES):10,.0f} instructions per call")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["lead_hand", "follow_move", "has_follow_move"]))
