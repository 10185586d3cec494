"""gf.solve, the exact perfect-information solver.

* Exactness: every action's value equals a plain minimax over ``Deal.clone()``/``step()``
  (no pruning: every action of every position is played out, through the deal's own
  Python API; a memo on everything a Deal shows — the hands, the seat to act, the move to
  beat with its cards, its seat, the trailing passes, the seats out — only avoids solving
  a position twice) on 2,000 random positions of 1-4 cards per seat: every level, forced
  wildcards and jokers, leading and following (and 接风), seats already out; both
  objectives, the table on and off.
* Larger positions, cut from played deals: checks that hold at any size (the sign of
  "points" is "first"'s, the value is the best action's, table on and off agree, limits
  give bounds that hold the exact value, the line plays out to the value).
* Bad input, the result type, determinism.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
from collections import Counter

import numpy as np
import pytest
from solve_oracle import Minimax, TooBig, cut, hard_position, outcome, over, small_position

import guandan_fast as gf
from guandan_fast import Deal, Solution, solve
from guandan_fast.cli import main as cli_main
from guandan_fast.engine.cards import wildcard


def test_equal_to_plain_minimax_on_2000_small_positions() -> None:
    rng = random.Random(20)
    checked = too_big = 0
    seen: Counter[str] = Counter()
    while checked < 2000:
        deal = small_position(rng)
        if deal.done:
            continue
        try:
            expected = {objective: Minimax(objective).actions(deal) for objective in ("first", "points")}
        except TooBig:
            too_big += 1
            continue
        for objective, values in expected.items():
            got = solve(deal, objective)
            assert got.exact and got.stopped is None
            assert list(got.values) == values, (objective, deal, deal.hands, deal.legal_actions())
            assert got.value == max(values)
            assert list(solve(deal, objective, table=False).values) == values, (objective, deal, deal.hands)
        checked += 1
        held = set().union(*(hand.indices() for hand in deal.hands))
        seen["following"] += deal.following
        seen["leading"] += not deal.following
        seen["seats out"] += bool(deal.finish_order)
        seen["two out"] += len(deal.finish_order) == 2
        seen["wildcard"] += wildcard(deal.level) in held
        seen["joker"] += bool(held & {52, 53})
        seen[f"level {deal.level}"] += 1
        seen["4 cards"] += max(deal.cards_left()) >= 4
        seen["one action"] += len(deal.legal_actions()) == 1
        seen["positive"] += max(expected["points"]) > 0
        seen["3 points"] += abs(max(expected["points"])) == 3
        seen["2 points"] += abs(max(expected["points"])) == 2
        seen["1 point"] += abs(max(expected["points"])) == 1
    assert too_big < checked // 4, f"{too_big} positions too big for the oracle"
    for what in ("following", "leading", "seats out", "wildcard", "joker", "4 cards", "positive", "3 points", "2 points", "1 point"):
        assert seen[what] >= 150, (what, seen)
    assert seen["two out"] >= 50, seen
    assert all(seen[f"level {level}"] >= 80 for level in range(2, 15)), seen


@pytest.fixture(scope="module")
def endgames() -> list[Deal]:
    found = [cut(seed, cards) for seed in range(40) for cards in (5, 7, 9)]
    return [deal for deal in found if deal is not None and not deal.done]


def test_larger_positions_are_consistent(endgames: list[Deal]) -> None:
    assert len(endgames) >= 50
    checked = 0
    for deal in endgames:
        points = solve(deal, "points", max_nodes=2_000_000)
        first = solve(deal, "first", max_nodes=2_000_000)
        if not (points.exact and first.exact):
            continue
        checked += 1
        assert points.value is not None and first.value is not None
        assert (points.value > 0) == (first.value > 0)  # the sign of points is who goes out first
        assert points.value == max(v for v in points.values if v is not None)
        assert [v > 0 for v in points.values if v is not None] == [v > 0 for v in first.values if v is not None]
        assert len(points.actions) == len(deal.legal_actions())
        for solution in (points, first):
            assert solution.actions[solution.best] is not None
            assert solution.values[solution.best] == solution.value
            assert solution.lowers == solution.uppers == solution.values
    assert checked >= 0.9 * len(endgames)  # a solver that stopped proving would skip them all


def test_table_on_and_off_agree(endgames: list[Deal]) -> None:
    compared = 0
    for deal in endgames:
        if sum(deal.cards_left()) > 16:
            continue
        for objective in ("first", "points"):
            off = solve(deal, objective, table=False, max_nodes=300_000)
            if off.exact:
                on = solve(deal, objective)
                assert on.values == off.values and on.value == off.value
                compared += 1
    assert compared >= 20


def test_the_line_plays_out_to_the_value(endgames: list[Deal]) -> None:
    replayed = 0
    for deal in endgames:
        for objective in ("points", "first"):
            solution = solve(deal, objective, max_nodes=2_000_000)
            if not solution.exact:
                continue
            if over(deal, objective):  # "first" with a seat out: decided already
                assert solution.line == ()
                continue
            replay = deal.clone()
            seat = deal.current_seat
            assert solution.line[0] == (seat, solution.actions[solution.best])
            for acting, action in solution.line:
                assert replay.current_seat == acting
                replay.step(action)
            assert over(replay, objective)
            assert outcome(replay, objective, seat % 2) == solution.value
            replayed += 1
    assert replayed >= len(endgames)  # most of the 2 x len(endgames) solves are exact and not over


def test_limits_give_bounds_that_hold_the_exact_value(endgames: list[Deal]) -> None:
    stopped = 0
    for deal in endgames[:40]:
        for objective in ("points", "first"):
            exact = solve(deal, objective, max_nodes=2_000_000)
            if not exact.exact or exact.nodes < 50:
                continue
            for limit in (1, 7, exact.nodes // 3):
                bounded = solve(deal, objective, max_nodes=limit)
                assert bounded.nodes <= limit + 1
                assert bounded.lower <= exact.value <= bounded.upper  # type: ignore[operator]
                for low, value, high in zip(bounded.lowers, exact.values, bounded.uppers):
                    assert low <= value <= high  # type: ignore[operator]
                if not bounded.exact:
                    stopped += 1
                    assert bounded.stopped == "max_nodes" and bounded.line == ()
                    assert bounded.value is None or bounded.lower == bounded.upper
    assert stopped >= 20


def test_a_time_limit_stops_a_long_solve() -> None:
    deal = hard_position()
    solution = solve(deal, "points", time_ms=30)
    assert not solution.exact and solution.stopped == "time_ms"
    assert solution.lower <= solution.upper and solution.value is None
    assert -3 <= solution.lower and solution.upper <= 3


def test_results_do_not_depend_on_earlier_solves(endgames: list[Deal]) -> None:
    deal = endgames[0]
    before = solve(deal, "points")
    solve(hard_position(), "points", max_nodes=200_000)  # grows this thread's table
    after = solve(deal, "points")
    assert after == before
    bounded = [solve(deal, "points", max_nodes=5) for _ in range(2)]
    assert bounded[0] == bounded[1]


# -- the objectives on hand-made positions -----------------------------------------------------------
def test_a_worked_endgame() -> None:
    deal = Deal.start(["HR HR S3 S3", "D4 D5", "C9 C9", "DK"], 2, leader=0)
    points = solve(deal)
    # Leading a red joker or either pair wins 1-2: nobody beats the jokers, seat 0 then
    # leads its 3s and is out, and its partner beats the 3s with its 9s. A single 3 loses:
    # seat 1 takes it with D4 and leads D5, which only seat 3's DK beats, and so on.
    assert [action[:2] for action in points.actions] == [("Single", "3"), ("Single", "R"), ("Pair", "3"), ("Pair", "R")]
    assert points.values == (-2, 3, 3, 3) and points.value == 3 and points.exact
    assert points.best == 1 and points.line[0] == (0, ("Single", "R", ("HR",)))
    first = solve(deal, "first")
    assert first.values == (-1, 1, 1, 1)
    assert solve(deal.clone(), "points").line == points.line


def test_first_with_a_seat_already_out_is_decided() -> None:
    deal = Deal.start(["", "S3 S4", "C6", "D8 D9"], 5, leader=1, finished=[0])
    solution = solve(deal, "first")
    assert solution.value == -1 and solution.values == (-1, -1) and solution.exact  # seat 1's team: seat 0 was first
    assert solution.line == () and solution.nodes == 0
    points = solve(deal, "points")
    assert points.value is not None and points.value < 0


def test_the_partner_of_a_seat_out_leads_after_its_last_play() -> None:
    # seat 0 goes out with its pair of aces, which nobody can beat: its partner seat 2
    # leads (接风) and goes out with its joker, a 1-2
    deal = Deal.start(["SA SA", "S3 S4", "HR", "D8 D9"], 2, leader=0)
    solution = solve(deal, "points")
    assert solution.values == (3, 3)
    after = deal.clone()
    after.step(["Pair", "A", ["SA", "SA"]])
    assert solve(after, "points").value == -3 and after.current_seat == 1  # for seat 1's team
    for _ in range(3):  # seats 1, 2 and 3 pass
        after.step(0)
    assert after.current_seat == 2 and not after.following  # 接风
    assert solve(after, "first").value == 1  # seat 0 was first
    assert solve(after, "points").line == ((2, ("Single", "R", ("HR",))),)


# -- bad input ---------------------------------------------------------------------------------------
def test_bad_input() -> None:
    deal = Deal.random(seed=1)
    with pytest.raises(TypeError, match="Deal"):
        solve("deal")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="objective"):
        solve(deal, "win")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="objective"):
        solve(deal, 1)  # type: ignore[arg-type]
    for bad in (0, -1):
        with pytest.raises(ValueError, match="max_nodes"):
            solve(deal, max_nodes=bad)
        with pytest.raises(ValueError, match="time_ms"):
            solve(deal, time_ms=bad)
    for bad_time in (math.nan, math.inf, 1e300, 10**400, -(10**400), np.int64(0)):
        with pytest.raises(ValueError, match="time_ms"):
            solve(deal, time_ms=bad_time)
    small = Deal.start(["S3 S4", "S5", "S6", "S7"], 2, leader=0)
    for numpy_time in (np.int64(5_000), np.float32(5_000), np.float64(5_000)):  # numpy's numbers too
        assert solve(small, time_ms=numpy_time).exact
    with pytest.raises(TypeError, match="max_nodes"):
        solve(deal, max_nodes=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_nodes"):
        solve(deal, max_nodes=True)
    with pytest.raises(TypeError, match="time_ms"):
        solve(deal, time_ms="10")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="table"):
        solve(deal, table=1)  # type: ignore[arg-type]
    tribute = Deal.random(seed=1, previous_finish=[0, 1, 2, 3])
    assert tribute.phase == "tribute"
    with pytest.raises(ValueError, match="tribute"):
        solve(tribute)
    finished = Deal.start(["S3", "H5", "C6", "D8"], 2, leader=0)
    while not finished.done:
        finished.step(finished.legal_actions()[-1])
    with pytest.raises(ValueError, match="over"):
        solve(finished)


def test_the_solution_reads_well() -> None:
    deal = Deal.start(["S3 S4", "H5", "C6 C7", "D8"], 2, leader=0)
    solution = solve(deal)
    assert isinstance(solution, Solution)
    text = repr(solution)
    assert "points -3 for seat 0's team" in text and "exact" in text and "Single 3 S3" in text
    with pytest.raises(AttributeError):
        solution.value = 3  # type: ignore[misc]
    stopped = solve(hard_position(), max_nodes=10)
    assert "stopped by max_nodes" in repr(stopped) and "in [" in repr(stopped)
    assert gf.solve is solve


# -- the command line --------------------------------------------------------------------------------
def test_cli_prints_each_action_and_the_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["solve", "HR HR S3 S3", "D4 D5", "C9 C9", "DK"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "seat 0 to act at level 2, leading; points for seats 0 and 2"
    assert out[1].startswith("value +3 (exact, ")
    assert out[2] == "4 actions:"
    assert out[3].split() == ["-2", "Single", "3:", "S3"] and out[4].split() == ["*", "+3", "Single", "R:", "HR"]
    assert out[7] == "principal line:" and out[8].split() == ["seat", "0", "Single", "R:", "HR"]


def test_cli_follows_a_move_to_beat(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["solve", "S9 S9 C3", "D4 D5", "C9 CT", "DK", "--level", "5", "--to-act", "1"]
    argv += ["--last", '["Pair","8",["S8","H8"]]', "--last-seat", "3", "--objective", "first", "--json"]
    assert cli_main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    # the same position built by hand: seat 3 led the pair of 8s from a hand with them, seats 0 passed
    deal = Deal.start(["S9 S9 C3", "D4 D5", "C9 CT", "DK S8 H8"], 5, leader=3)
    deal.step(["Pair", "8", ["S8", "H8"]])
    deal.step(0)
    assert deal.current_seat == 1
    expected = solve(deal, "first")
    assert result["value"] == expected.value and result["seat"] == 1
    assert [a["action"] for a in result["actions"]] == [list(a[:2]) + [list(a[2]) if a[2] != "PASS" else "PASS"] for a in expected.actions]
    assert [a["lower"] for a in result["actions"]] == list(expected.lowers)


def test_cli_bad_positions_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    bad = [
        ["S3", "S4", "S5"],  # three hands: argparse
        ["S3", "S4", "S5", "S6", "--last", '["Single","7",["S7"]]'],  # no --last-seat
        ["S3", "S4", "S5", "S6", "--last-seat", "1"],  # no --last
        ["S3", "S4", "S5", "S6", "--last", '["Single","7",["S7"]]', "--last-seat", "0"],  # seat 0 follows itself
        ["S3", "", "S5", "S6", "--to-act", "1", "--last", '["Single","7",["S7"]]', "--last-seat", "0"],  # seat 1 is out
        ["S3 S3 S3", "S4", "S5", "S6"],
        ["S3", "S4", "S5", "S6", "--max-nodes", "0"],
        ["S3", "S4", "S5", "S6", "--finished", "1,x"],
        ["S3", "S4", "S5", "S6", "--level", "Z"],
    ]
    for argv in bad:
        with contextlib.suppress(SystemExit):
            assert cli_main(["solve", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert "Traceback" not in err and err.strip(), argv
