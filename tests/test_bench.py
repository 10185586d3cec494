"""The speed-measurement machinery (`benchmarks/workload.py`, ``guandan-fast bench``) on
tiny workloads: what it times and reports, never how fast it is."""

from __future__ import annotations

import io
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from guandan_fast.engine import api

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import workload as bench  # the benchmark workload lives beside the benchmarks

from guandan_fast.cli import main
from guandan_fast.engine.api import legal_moves
from guandan_fast.engine.hand import Hand
from guandan_fast.engine.moves import PASS, MoveType

# Case fields of the JSON document that must be positive numbers.
TIMED_FIELDS = ("us_per_hand", "moves_per_second", "moves_per_hand", "hands", "rounds", "min_us_per_hand")


def test_deal_is_deterministic_per_seed_and_deals_whole_decks() -> None:
    hands, levels = bench.deal_hands(12, seed=7)
    assert (hands, levels) == bench.deal_hands(12, seed=7)
    assert hands != bench.deal_hands(12, seed=8)[0]
    assert all(len(hand) == 27 and Hand.from_bits(hand.once, hand.twice) == hand for hand in hands)
    for deal in range(3):
        seats = hands[4 * deal : 4 * deal + 4]
        # The four hands of a deal are the whole double deck, each card twice.
        assert Counter(i for hand in seats for i in hand.indices()) == Counter({i: 2 for i in range(54)})
        assert len(set(levels[4 * deal : 4 * deal + 4])) == 1
        assert 2 <= levels[4 * deal] <= 14
    # A shorter deal is a prefix of a longer one with the same seed.
    assert bench.deal_hands(5, seed=7) == (hands[:5], levels[:5])


def test_workload_follows_moves_of_the_next_seat() -> None:
    workload = bench.make_workload(8, seed=3, backend="reference")
    assert workload == bench.make_workload(8, seed=3, backend="reference")
    assert len(workload) == 8 and workload.head(3).hands == workload.hands[:3]
    for i, last in enumerate(workload.lasts):
        nxt = workload.hands[i - i % 4 + (i + 1) % 4]
        assert last is not PASS and last.level == workload.levels[i]
        assert nxt.contains(last.cards)
        assert last in legal_moves(nxt, workload.levels[i], backend="reference")


def test_workload_follows_a_mix_of_types() -> None:
    hands, levels = bench.deal_hands(4, seed=1)
    moves = legal_moves(hands[1], levels[1], backend="reference")
    rng = random.Random(0)
    kinds = {bench._move_to_follow(rng, moves).kind for _ in range(200)}
    assert {MoveType.SINGLE, MoveType.PAIR, MoveType.STRAIGHT, MoveType.BOMB} <= kinds


def test_workload_does_not_depend_on_the_backend() -> None:
    assert bench.make_workload(8, seed=5, backend="native") == bench.make_workload(8, seed=5, backend="reference")


def test_endgame_hands_are_the_hands_in_play_at_endgame_positions() -> None:
    workload = bench.make_workload(9, seed=4)
    assert len(workload.endgame_hands) == len(workload.endgame_levels) == 9
    deal = bench.endgame(4, bench.ENDGAME_CARDS)
    assert deal is not None
    held = [hand for hand in deal.hands if len(hand)]
    assert list(workload.endgame_hands[: len(held)]) == held
    assert set(workload.endgame_levels[: len(held)]) == {deal.level}
    assert all(1 <= len(hand) <= bench.ENDGAME_CARDS for hand in workload.endgame_hands)
    assert workload.head(5).endgame_hands == workload.endgame_hands[:5]
    with pytest.raises(ValueError, match="too few positions with at most 0 cards"):
        bench.hands_in_endgames(3, seed=4, cards=0)  # no deal gets there: refused, not a hang


def test_worst_hand_has_37026_moves() -> None:
    hand, level = bench.worst_hand()
    assert level == 2 and len(hand) == 50
    assert hand.count("H2") == 2 and all(hand.count(s + r) == 2 for s in "SHCD" for r in "345678")
    assert len(legal_moves(hand, level)) == 37_026  # the default backend; the reference agrees (test_native)
    with pytest.raises(ValueError):
        bench.worst_hand(level=5)  # the level rank inside the six ranks


@pytest.mark.parametrize("case", list(bench.CASES))
def test_a_pass_counts_the_moves_of_every_hand(case: str) -> None:
    workload = bench.make_workload(3, seed=2, backend="reference")
    run = bench.make_pass(case, workload, "reference")
    if case == "worst":
        hand, level = bench.worst_hand()
        expected = len(legal_moves(hand, level, backend="reference"))
    elif case in bench.ENDGAME_CASES:
        expected = sum(
            len(legal_moves(h, lv, backend="reference"))
            for h, lv in zip(workload.endgame_hands, workload.endgame_levels)
        )
    else:
        lasts = workload.lasts if case == "follow" else (None,) * 3
        expected = sum(
            len(legal_moves(h, lv, last, strongest=case == "lead_strongest", backend="reference"))
            for h, lv, last in zip(workload.hands, workload.levels, lasts)
        )
    ticks: list[int] = []
    assert run() == expected
    assert bench.make_pass(case, workload, "reference", tick=lambda: ticks.append(1))() == expected
    assert len(ticks) == bench.case_hands(case, workload)


@pytest.mark.parametrize("path", [path for path in bench.PATHS if path.startswith(("step_", "observation"))])
def test_a_deal_path_pass_is_repeatable(path: str) -> None:
    """A Deal pass changes its deals (a step is taken); its setup must hand out fresh ones,
    or the second timed round would step deals that already moved (ValueError)."""
    workload = bench.make_workload(3, seed=2, backend="reference")
    setup, run = bench.make_path(path, workload)
    assert run(setup()) == 3  # one call per deal, as many deals as hands
    assert run(setup()) == 3


def test_input_forms_name_the_same_calls() -> None:
    """The user forms of one row reach the same answer as the fast form beside them."""
    workload = bench.make_workload(3, seed=4, backend="reference")
    for hand, level, last in zip(workload.hands, workload.levels, workload.lasts):
        triple = last.to_platform()
        assert list(legal_moves(hand, level, triple)) == list(legal_moves(hand, level, last))
        assert list(legal_moves(str(hand), level)) == list(legal_moves(hand, level))
        assert api.has_legal_follow(hand, level, triple) is api.has_legal_follow(hand, level, last)
    hands, levels = list(workload.hands), list(workload.levels)
    by_planes = api.legal_moves_batch(np.array([(h.once, h.twice) for h in hands], dtype=np.uint64), levels)
    for same in (api.legal_moves_batch(hands, levels), api.legal_moves_batch([str(h) for h in hands], levels)):
        assert same.offsets.tolist() == by_planes.offsets.tolist()
        assert same.cards.tolist() == by_planes.cards.tolist()
    assert by_planes[0].cards.tolist() == legal_moves(hands[0], levels[0]).cards.tolist()
    deal, triple, index, move = bench._deals_to_step(4, 1)[0]
    assert deal.legal_actions()[index] == triple and move.to_platform() == triple
    assert all(deal.phase == "play" and not deal.following for deal in bench._deals_to_observe(4, 2))


def test_a_deal_batch_is_the_same_in_both_forms() -> None:
    """The deal rows hand the batch a deal's four hands, which share the deal's level: as
    ``Hand``s with that level, or as planes with uint8 levels, the same lists."""
    workload = bench.make_workload(8, seed=5, backend="native")
    hands, levels = list(workload.hands), list(workload.levels)
    assert levels[:4] == [levels[0]] * 4 and levels[4:] == [levels[4]] * 4
    for start in (0, 4):
        deal = hands[start : start + 4]
        by_hands = api.legal_moves_batch(deal, levels[start])
        by_planes = api.legal_moves_batch(
            np.array([(h.once, h.twice) for h in deal], dtype=np.uint64), np.array(levels[start : start + 4], dtype=np.uint8)
        )
        assert by_hands.offsets.tolist() == by_planes.offsets.tolist()
        assert by_hands.cards.tolist() == by_planes.cards.tolist()
    for path in ("batch_deals", "batch_deal_hands"):
        setup, run = bench.make_path(path, workload)
        assert run(setup()) == 8


def test_unknown_case_and_backend_are_refused() -> None:
    workload = bench.make_workload(1, seed=2, backend="reference")
    with pytest.raises(ValueError, match="unknown case"):
        bench.make_pass("nope", workload, "reference")
    with pytest.raises(ValueError, match="unknown backend"):
        bench.make_pass("lead", workload, "fast")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown path"):
        bench.make_path("nope", workload)


def test_measure_times_the_asked_rounds() -> None:
    calls: list[int] = []

    def run() -> int:
        calls.append(1)
        return 42

    moves, seconds = bench.measure(run, min_rounds=4, max_rounds=4, min_time=10.0, warmup=2)
    assert moves == 42 and len(seconds) == 4 and len(calls) == 6


def test_measurement_reports_per_hand_and_per_second() -> None:
    m = bench.Measurement("lead", "native", hands=10, moves=2000, seconds=[0.004, 0.001, 0.002])
    assert m.us_per_hand == pytest.approx(200.0)
    assert m.moves_per_second == pytest.approx(1_000_000.0)
    assert m.moves_per_hand == 200
    assert m.as_dict()["min_us_per_hand"] == pytest.approx(100.0)
    row = bench.Row("lead", m, bench.Measurement("lead", "reference", 2, 400, [0.02]))
    assert row.ratio == pytest.approx(50.0)
    assert bench.Row("lead", m, None).ratio is None


def test_progress_bar_draws_in_place_on_a_terminal() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Terminal()
    bar = bench.ProgressBar(4, stream, width=8)
    bar.set_label("reference: leading")
    for _ in range(4):
        bar.tick()
    bar.close()
    text = stream.getvalue()
    assert "\r[--------]   0%  reference: leading" in text
    assert "\r[########] 100%" in text and text.endswith("\n")

    log = io.StringIO()  # not a terminal: one line per label, no redrawing
    bar = bench.ProgressBar(4, log)
    bar.set_label("reference: following")
    bar.tick(4)
    bar.close()
    assert log.getvalue() == "reference: following ...\n"


def _bench_json(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[dict[str, Any], str]:
    argv = ["bench", "--hands", "4", "--reference-hands", "2", "--rounds", "1", "--min-time", "0", "--json"]
    assert main([*argv, *extra]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def test_bench_json_has_every_case_with_positive_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    document, err = _bench_json(capsys)
    assert document["hands"] == 4 and document["reference_hands"] == 2
    assert [case["case"] for case in document["cases"]] == list(bench.CASES)
    assert "reference: worst hand" in err  # the progress of the reference run, on stderr
    for case in document["cases"]:
        for backend in ("reference", "native"):
            assert all(case[backend][name] > 0 for name in TIMED_FIELDS), (case["case"], backend)
        assert case["reference"]["hands"] == (1 if case["case"] == "worst" else 2)
        assert case["native"]["hands"] == (1 if case["case"] == "worst" else 4)
        assert case["ratio"] > 0
    worst = document["cases"][-1]
    assert worst["reference"]["moves_per_hand"] == 37_026
    assert [path["path"] for path in document["paths"]] == list(bench.PATHS)
    assert all(path["us_per_hand"] > 0 for path in document["paths"])


def test_bench_without_reference_and_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    document, err = _bench_json(capsys, "--reference-hands", "0", "--quiet")
    assert err == ""
    assert all(case["reference"] is None and case["ratio"] is None for case in document["cases"])


def test_bench_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--hands", "4", "--reference-hands", "1", "--rounds", "1", "--min-time", "0"]) == 0
    out = capsys.readouterr().out
    header, _rule, *rows = out.splitlines()
    assert header.split()[:3] == ["case", "native", "µs/hand"]
    for title in bench.CASES.values():
        assert any(row.startswith(title) for row in rows)
    for title, _fast in bench.PATHS.values():  # the input forms, each beside its fast form
        assert any(row.startswith(title) for row in rows)
    assert "4 hands (seed" in out
    # the batch's time as a share of the loop's, both measured in this run
    assert "legal_moves_batch takes " in out and "of the time per hand of a legal_moves loop" in out


def test_batch_time_ratio_is_the_batch_over_the_loop() -> None:
    def timed(case: str, us: float) -> bench.Measurement:
        return bench.Measurement(case, "native", 10, 1000, [us * 10 / 1e6])

    rows = [bench.Row("lead", timed("lead", 2.5), None), bench.Row("lead_kept", timed("lead_kept", 5.0), None),
            bench.Row("batch", timed("batch", 1.25), None),
            bench.Row("batch_one_thread", timed("batch_one_thread", 2.0), None)]
    comparison = bench.Comparison(1, 10, 0, rows)
    assert comparison.batch_time_ratio() == pytest.approx(0.5)
    assert comparison.batch_time_ratio("batch_one_thread") == pytest.approx(0.8)
    assert comparison.batch_time_ratio("batch_one_thread", "lead_kept") == pytest.approx(0.4)
    table = bench.format_table(comparison)
    assert "takes 0.40 (one thread) and 0.25 (a thread per core, 1 here) of the time per hand of a legal_moves " \
        "loop that keeps" in table
    assert "takes 0.80 (one thread) and 0.50 (a thread per core, 1 here) of the time per hand of a legal_moves " \
        "loop that drops" in table
    ratios = bench.comparison_json(comparison)["batch_time_ratio"]
    assert ratios["one_thread"] == pytest.approx(0.8)
    assert ratios["lists_kept"] == {"one_thread": pytest.approx(0.4), "thread_per_core": pytest.approx(0.25)}
    assert bench.Comparison(1, 10, 0, rows[:1]).batch_time_ratio() is None
    assert bench.Comparison(1, 10, 0, rows[:1] + rows[2:]).batch_time_ratio(loop="lead_kept") is None
    assert "endgame hands" not in table and ratios["endgame"]["one_thread"] is None
    rows += [bench.Row("lead_endgame", timed("lead_endgame", 0.30), None),
             bench.Row("batch_endgame", timed("batch_endgame", 0.12), None),
             bench.Row("batch_endgame_one_thread", timed("batch_endgame_one_thread", 0.18), None)]
    comparison = bench.Comparison(1, 10, 0, rows)
    assert "On the 10 endgame hands, where a call's own cost weighs more, legal_moves_batch takes 0.60 (one " \
        "thread) and 0.40 (a thread per core, 1 here)" in bench.format_table(comparison)
    endgame = bench.comparison_json(comparison)["batch_time_ratio"]["endgame"]
    assert endgame["one_thread"] == pytest.approx(0.6) and endgame["thread_per_core"] == pytest.approx(0.4)


@pytest.mark.parametrize("argv", [["--hands", "0"], ["--reference-hands", "-1"], ["--rounds", "x"]])
def test_bench_bad_options(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bench", *argv])
    assert exit_.value.code == 2
    assert "bench" in capsys.readouterr().err
