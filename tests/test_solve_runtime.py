"""gf.solve at run time: threads solving at once, Ctrl-C during a long solve, and resident
memory across 100,000 solves."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from fuzzing import installed_root
from solve_oracle import cut, hard_position, small_position
from test_leak import leak_check

from guandan_fast import Deal, solve

ROOT = Path(__file__).resolve().parent.parent


def positions() -> list[Deal]:
    found = [cut(seed, cards) for seed in range(30) for cards in (6, 8)]
    return [deal for deal in found if deal is not None and not deal.done]


def test_threads_solve_at_once_and_agree_with_one_thread() -> None:
    deals = positions()
    alone = [solve(deal, objective, max_nodes=300_000) for deal in deals for objective in ("points", "first")]
    results: dict[int, list[object]] = {}
    errors: list[BaseException] = []

    def work(number: int) -> None:
        try:
            order = list(range(len(deals)))
            random.Random(number).shuffle(order)  # each thread its own order: the tables differ
            got: dict[int, object] = {}
            for i in order:
                for k, objective in enumerate(("points", "first")):
                    got[2 * i + k] = solve(deals[i], objective, max_nodes=300_000)
            results[number] = [got[j] for j in range(2 * len(deals))]
        except BaseException as error:  # noqa: BLE001 - any error of a thread fails the test below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    for number in range(4):
        assert results[number] == alone


def test_a_solve_releases_the_gil() -> None:
    """Another Python thread runs while a long solve searches."""
    ticks = 0
    stop = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        started = time.perf_counter()
        solution = solve(hard_position(), time_ms=400)
        elapsed = time.perf_counter() - started
    finally:
        stop.set()
        counter.join()
    assert solution.stopped == "time_ms" and elapsed >= 0.35
    assert ticks >= 50, ticks


_INTERRUPTED = """
import sys, time
sys.path.insert(0, sys.argv[1])
from solve_oracle import hard_position
import guandan_fast as gf
deal = hard_position()
print("solving", flush=True)
started = time.perf_counter()
try:
    gf.solve(deal)
except KeyboardInterrupt:
    print(f"interrupted after {time.perf_counter() - started:.3f} s", flush=True)
    sys.exit(7)
print("finished?", flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process is POSIX")
def test_ctrl_c_interrupts_a_long_solve_promptly() -> None:
    env = {**os.environ, "PYTHONPATH": installed_root()}
    process = subprocess.Popen(
        [sys.executable, "-c", _INTERRUPTED, str(ROOT / "tests")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "solving"
    time.sleep(0.5)  # well into the search (it needs far longer than this test runs)
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    waited = time.perf_counter() - sent
    assert process.returncode == 7, (out, err)
    assert "interrupted after" in out
    assert waited < 2.0, waited  # it polls for signals every 20 ms of search


def test_100k_solves_keep_memory_flat() -> None:
    check = leak_check()
    if check.rss_bytes() == 0:
        pytest.skip("no way to read the resident memory here")
    rng = random.Random(5)
    small = [deal for deal in (small_position(rng) for _ in range(60)) if not deal.done]
    bigger = positions()[:8]
    finished = Deal.start(["S3", "H5", "C6", "D8"], 2, leader=0)
    while not finished.done:
        finished.step(finished.legal_actions()[-1])

    def solves(n: int) -> None:
        made = 0
        while made < n:
            for deal in small:
                solve(deal, "points" if made % 2 else "first")
                made += 1
            for deal in bigger:
                solve(deal, max_nodes=200)  # stopped by the limit
                made += 1
            try:
                solve(finished)
            except ValueError:
                made += 1

    solve(hard_position(), max_nodes=300_000)  # the thread's table grows to its size once
    solves(10_000)  # warm-up
    before = check.rss_bytes()
    solves(100_000)
    growth = check.rss_bytes() - before
    assert growth < 4 * 2**20, f"RSS grew by {growth / 2**20:.1f} MiB over 100,000 solves"


def test_a_huge_hand_stops_at_its_limit_within_a_node_or_so() -> None:
    # a seat of 100 cards has some 10**5 actions: each of its nodes is slow, so the limits
    # are polled at such a node too, not only every 1,024 nodes (it ran 1,024 of them, 13 s)
    from guandan_fast.engine.cards import CARD_NAMES

    deck = [card for card in range(54) for _ in range(2)]
    random.Random(0).shuffle(deck)
    hands = [deck[:100], deck[100:102], deck[102:105], deck[105:]]
    deal = Deal.start([" ".join(CARD_NAMES[card] for card in hand) for hand in hands], 2, leader=0)
    assert len(deal.legal_moves()) > 100_000
    result = solve(deal, time_ms=1)
    assert result.stopped == "time_ms" and not result.exact and 1 <= result.nodes <= 16
    assert len(result.values) == len(deal.legal_actions())
