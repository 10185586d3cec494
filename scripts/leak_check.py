#!/usr/bin/env python3
"""Call every native entry point a million times and watch the process's resident memory.

Each round makes the same mix of calls to ``guandan_fast.engine._movegen``: leading and
following, complete and strongest (``generate``), ``classify``, ``has_legal_follow``,
small ``generate_batch`` calls, and calls that raise ValueError / TypeError. Resident
memory (RSS) is printed after every round; the check fails when it grew by more than
``--limit-mb`` between the end of the first round (warm) and the end.

Usage: ``python scripts/leak_check.py [--calls 1000000] [--limit-mb 16]``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

import numpy as np

from guandan_fast import Hand
from guandan_fast.engine import _movegen as native
from guandan_fast.engine import movelist as lists
from guandan_fast.engine.cards import wildcard

DECK = [index for index in range(54) for _ in range(2)]


def rss_bytes() -> int:
    """Resident set size now (Linux /proc), else the peak (resource), else 0."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        pass
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024
    except (ImportError, OSError):  # pragma: no cover - Windows
        return 0


def workload(seed: int = 1, n: int = 64) -> list[tuple[int, int, int]]:
    rng = random.Random(seed)
    hands = []
    for i in range(n):
        level = rng.randint(2, 14)
        cards = rng.sample(DECK, 27 if i % 8 else rng.randint(0, 40))
        if i % 2:
            cards = [c for c in cards if c != wildcard(level)][:25] + [wildcard(level)] * 2
        hand = Hand.from_indices(cards)
        hands.append((hand.once, hand.twice, level))
    return hands


LASTS = [(0, 0, 0), (1, 9, 1), (2, 7, 2), (4, 6, 5), (5, 3, 5), (6, 4, 6), (9, 8, 4), (8, 5, 5), (10, 0, 4)]


def one_round(hands: list[tuple[int, int, int]], calls: int) -> int:
    """About ``calls`` native calls; returns how many were made."""
    made = 0
    planes = np.array([(o, t) for o, t, _ in hands], dtype=np.uint64)
    levels = np.array([lv for _, _, lv in hands], dtype=np.uint8)
    generate, classify, has = native.generate, native.classify, native.has_legal_follow
    while made < calls:
        for i, (once, twice, level) in enumerate(hands):
            last = LASTS[i % len(LASTS)]
            generate(once, twice, level, *last, i % 3 == 0)
            leading = generate(once, twice, level, 0, 0, 0, False)
            _ = leading.kinds, leading.cards  # views: the memory moves to the views' base
            listed = lists.legal_moves(Hand.from_bits(once, twice), level)
            _ = listed.keys, (listed.row(0), listed[-1]) if len(listed) else None
            has(once, twice, level, *last)
            classify(once & 0x1F1F, twice & 0x1F1F, level)
            made += 5
        native.generate_batch(planes[:8], levels[:8], 2, 7, 2, False)
        native.generate_batch(planes[:4], 5, 0, 0, 0, True)
        made += 2
        for bad in ((1 << 60, 0, 2, 0, 0, 0), (0, 1, 2, 0, 0, 0), (1, 0, 1, 0, 0, 0), (1, 0, 2, 1, 30, 1)):
            try:
                generate(*bad, False)
            except ValueError:
                pass
            made += 1
        try:
            generate(1.5, 0, 2, 0, 0, 0, False)
        except TypeError:
            pass
        try:
            native.generate_batch(planes.astype(np.int64), 2, 0, 0, 0, False)
        except TypeError:
            pass
        made += 2
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1_000_000, help="native calls in all (default 1,000,000)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--limit-mb", type=float, default=16.0, help="allowed RSS growth after warm-up")
    args = parser.parse_args(argv)
    hands = workload()
    per_round = max(1, args.calls // args.rounds)
    total = one_round(hands, per_round)  # warm-up round: caches, allocator, numpy
    start = rss_bytes()
    print(f"after warm-up ({total} calls): RSS {start / 2**20:.1f} MiB")
    t0 = time.perf_counter()
    for number in range(1, args.rounds):
        total += one_round(hands, per_round)
        print(f"round {number + 1}/{args.rounds}: {total} calls, RSS {rss_bytes() / 2**20:.1f} MiB", flush=True)
    growth = (rss_bytes() - start) / 2**20
    print(f"{total} calls in {time.perf_counter() - t0:.1f} s; RSS growth after warm-up {growth:+.2f} MiB")
    if start == 0:
        print("leak_check: cannot read the resident memory on this platform")
        return 2
    if growth > args.limit_mb:
        print(f"leak_check: FAILED, grew more than {args.limit_mb} MiB")
        return 1
    print("leak_check: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
