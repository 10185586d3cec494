"""Does a one-thread batch generate faster when its output fits in the caches?

Times ``legal_moves_batch`` per hand on one thread for batches of 128 dealt hands (the
same 128 every call, or a different 128 each call, so that neither the caches nor the
branch predictor have seen them) and of 1,000, beside a loop of ``legal_moves`` over the
same hands. Prints the best and the median of five passes, in µs a hand::

    python scripts/batch_sizes.py

``--only batch`` or ``--only loop`` times only the 1,000-hand batch or the loop, 200 calls of 1,000 hands,
for a profiler to compare where each spends its time, e.g. the generator's own functions
(``_sequences``, ``_straights``, ...) under ``perf record -o batch.data python
scripts/batch_sizes.py --only batch`` and the same with ``loop``, read by ``perf report
--sort symbol``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import workload  # the bench's dealt hands

from guandan_fast.engine import api

PASSES = 5
#: Calls of 1,000 hands in all with --only (200,000 hands: a few seconds for a profiler).
PROFILED_CALLS = 200


def per_hand(run: Callable[[int], None], hands_per_call: int, calls: int) -> tuple[float, float]:
    """Best and median µs a hand of ``PASSES`` passes of ``calls`` calls of ``run(k)``."""
    times = []
    for _ in range(PASSES):
        began = time.perf_counter()
        for k in range(calls):
            run(k)
        times.append((time.perf_counter() - began) / (calls * hands_per_call) * 1e6)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description="one-thread batch against a loop of legal_moves")
    parser.add_argument("--only", choices=("batch", "loop"), help="time only this, 200 calls (for a profiler)")
    only = parser.parse_args().only
    hands, levels = workload.deal_hands(4096, seed=11)
    planes = np.array([(hand.once, hand.twice) for hand in hands], dtype=np.uint64)
    uint8_levels = np.array(levels, dtype=np.uint8)

    def batch(start: int, size: int) -> None:
        api.legal_moves_batch(planes[start : start + size], uint8_levels[start : start + size], threads=1)

    def loop(start: int, size: int) -> None:
        for i in range(start, start + size):
            api.legal_moves(hands[i], levels[i])

    if only is not None:
        run = (lambda k: batch(1000 * (k % 4), 1000)) if only == "batch" else (lambda k: loop(1000 * (k % 4), 1000))
        best, median = per_hand(run, 1000, PROFILED_CALLS // PASSES)
        print(f"{only}, 1,000 hands a call: {best:.2f} / {median:.2f} µs a hand, best / median")
        return
    rows = [
        ("batch, the same 128 hands each call", per_hand(lambda k: batch(0, 128), 128, 256)),
        ("batch, a different 128 each call", per_hand(lambda k: batch(128 * (k % 32), 128), 128, 256)),
        ("batch, the same 1,000 hands each call", per_hand(lambda k: batch(0, 1000), 1000, 32)),
        ("batch, a different 1,000 each call", per_hand(lambda k: batch(1000 * (k % 4), 1000), 1000, 32)),
        ("loop of legal_moves, 1,000 hands", per_hand(lambda k: loop(1000 * (k % 4), 1000), 1000, 4)),
    ]
    moves = len(api.legal_moves_batch(planes[:1000], uint8_levels[:1000]).cards) / 1000
    print(f"one thread, leading lists of dealt hands ({moves:.0f} moves a hand); µs a hand, best / median")
    for title, (best, median) in rows:
        print(f"{title:40s} {best:6.2f} / {median:6.2f}")


if __name__ == "__main__":
    main()
