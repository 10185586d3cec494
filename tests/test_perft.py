"""perft: the native count of action sequences (make/unmake on the C play state, bulk
counting at the last ply) against a plain Python count over Deal.clone()/step(), on
openings, mid-deal and late positions, endgames with seats already out, 接风 and the
ends of deals (three out, 1-2 finishes)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import guandan_fast as gf
from guandan_fast import Deal, perft

#: At most this many leaves per position for the plain count (about 0.5 M a second).
LEAVES = 100_000


def plain_count(deal: Deal, depth: int, events: Counter[str]) -> int:
    """The number of sequences of ``depth`` legal actions: every action stepped on a clone
    (a deal that ends earlier contributes none). ``events`` counts what the tree went
    through: 接风, and the ends of deals by three out or a 1-2 finish."""
    if depth == 0:
        return 1
    if deal.done:
        return 0
    total = 0
    for index in range(len(deal.legal_actions())):
        child = deal.clone()
        child.step(index)
        if child.done:
            finish = child.finish_order
            events["1-2 finish" if finish[1] == finish[0] ^ 2 else "three out"] += 1
        elif deal.following and not child.following and not deal.hands[deal.last_seat]:
            events["接风"] += child.to_act == deal.last_seat ^ 2
        total += plain_count(child, depth - 1, events)
    return total


def walk(seed: int, actions: int, previous: list[int] | None = None, level: int = 2) -> Deal:
    """A random deal, ``actions`` random actions in (tribute and return included)."""
    deal = Deal.random(seed, level, previous_finish=previous)
    rng = random.Random(seed)
    for _ in range(actions):
        if deal.phase == "play" and deal.done:
            break
        options = deal.legal_actions()
        if not options:
            break
        deal.step(rng.randrange(len(options)))
    return deal


def endgames() -> list[Deal]:
    """Small positions with seats already out, 接风 and ends of the deal within reach."""
    deals = [
        Deal.start(["", "S5 S6", "S7 S8 C8", "S9 ST D9"], 5, leader=1, finished=[0]),  # seat 0 out
        Deal.start(["S3", "S5 S6", "S4", "S9 ST"], 2, leader=0),  # 1-2 and 接风 at once
        Deal.start(["S3 H3", "S5", "SA", "S9 ST HT"], 2, leader=2),
        Deal.start(["", "", "S7 S8 C8 H2", "S9 ST D9"], 2, leader=2, finished=[1, 0]),  # two out
        Deal.start(["SB HR", "H7 S3 S4", "SA SA", "C6 D6 HK"], 7, leader=2),  # jokers, the level rank
        Deal.start(["S5 H5 C5 D5", "S9", "S7 S8", "ST HT"], 2, leader=1),  # a bomb
        Deal.start(["S3 S4 D4", "S6 D6 S7", "H2 S9", "ST SJ HJ"], 2, leader=0),  # a wildcard
        Deal.start(["", "S5 S6 S7", "S3", "S9 ST"], 2, leader=1, finished=[0]),
    ]
    return deals


def positions() -> list[tuple[str, Deal]]:
    out: list[tuple[str, Deal]] = []
    for seed in range(8):
        out.append(("opening", Deal.random(seed, 2 + seed)))
    for seed in range(16):
        out.append(("mid-deal", walk(100 + seed, 20 + 5 * seed, [0, 1, 2, 3] if seed % 3 == 0 else None)))
    for seed in range(18):
        deal = walk(200 + seed, 400, None, 2 + seed % 13)
        rng = random.Random(seed)
        # back up from the end: replay to a late point of the same deal
        history = deal.history
        cut = max(0, len(history) - rng.randrange(6, 20))
        late = Deal.random(200 + seed, 2 + seed % 13)
        for _, action in history[:cut]:
            late.step(action)
        out.append(("late", late))
    out.extend(("endgame", deal) for deal in endgames())
    return out


def depth_for(deal: Deal) -> int:
    """The deepest depth (up to 10) whose count stays within LEAVES (asked natively)."""
    depth = 1
    while depth < 10 and perft(deal, depth + 1) <= LEAVES and not deal.done:
        depth += 1
    return depth


def test_perft_equals_the_plain_python_count() -> None:
    events: Counter[str] = Counter()
    checked: Counter[str] = Counter()
    for kind, deal in positions():
        assert deal.phase in ("play", "done")
        depth = depth_for(deal)
        before = (deal.history, deal.hands, deal.to_act)
        expected = plain_count(deal, depth, events)
        assert perft(deal, depth) == expected, (kind, depth, deal)
        assert (deal.history, deal.hands, deal.to_act) == before  # perft changes nothing
        if depth > 1:
            assert perft(deal, depth - 1) == plain_count(deal, depth - 1, Counter())
        checked[kind] += 1
    assert sum(checked.values()) >= 50, checked
    assert min(checked.values()) >= 8, checked
    assert events["接风"] > 0 and events["three out"] > 0 and events["1-2 finish"] > 0, events


def test_perft_of_the_c_api_example() -> None:
    """The number docs/c-api.md's example prints (Deal.random(seed=1), depth 3), and the
    first plies of that deal, counted in Python."""
    deal = Deal.random(seed=1)
    assert deal.phase == "play" and deal.tribute["kind"] == "none"
    assert perft(deal, 0) == 1
    assert perft(deal, 1) == len(deal.legal_actions())
    assert perft(deal, 2) == plain_count(deal, 2, Counter())
    assert perft(deal, 3) == 4_303_049


def test_perft_edges_and_bad_input() -> None:
    done = Deal.start(["S3", "S4", "S5", "S6 S7"], 2, leader=0)
    for card in ("S3", "S4", "S5"):
        done.step(["Single", card[1], [card]])
    assert done.done
    assert perft(done, 0) == 1 and perft(done, 1) == 0 and perft(done, 5) == 0
    tribute = Deal.random(3, previous_finish=[0, 1, 2, 3])
    assert tribute.phase == "tribute"
    with pytest.raises(ValueError, match="tribute phase"):
        perft(tribute, 1)
    deal = Deal.random(seed=2)
    bad: list[tuple[Any, type[Exception]]] = [(-1, ValueError), (433, ValueError), (2**70, ValueError),
                                               (1.0, TypeError), ("2", TypeError), (None, TypeError), (True, TypeError)]
    for depth, error in bad:
        with pytest.raises(error, match="depth"):
            perft(deal, depth)
    for thing in (None, "deal", deal.hands, deal._state):
        with pytest.raises(TypeError, match="Deal"):
            perft(thing, 1)  # type: ignore[arg-type]
    assert gf.perft is perft


def test_perft_runs_in_parallel_threads() -> None:
    """perft releases the GIL and shares nothing: threads give the same counts."""
    from concurrent.futures import ThreadPoolExecutor

    deals = [walk(300 + k, 30) for k in range(4)]
    expected = [perft(deal, 3) for deal in deals]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(lambda deal: perft(deal, 3), deals)) == expected
