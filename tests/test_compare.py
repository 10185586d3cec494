"""compare_agents and ``guandan-fast compare``: a candidate and a baseline on the same deals."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import guandan_fast as gf
from guandan_fast.arena import ArenaResult, Comparison, MatchResult, compare_agents, matches, play_matches
from guandan_fast.cli import main


def first_action(deal: gf.Deal, seat: int) -> int:
    return 0


def run_of(label: str, scores: list[float]) -> ArenaResult:
    matches = [MatchResult(i, i % 2, score, 1, 0, (1, 1), (0.0, 0.0)) for i, score in enumerate(scores)]
    return ArenaResult(label, "opponent", 0, len(scores), matches)


def test_the_same_agent_twice_differs_by_nothing_in_every_pair() -> None:
    # Deterministic rules on the same deals against an opponent seeded the same way: the
    # two runs are the same games, so every pair's difference is exactly zero.
    comparison = compare_agents("minplays", "minplays", "random", 6, seed=5, workers=1)
    assert comparison.differences() == [0.0, 0.0, 0.0]
    summary = comparison.summary()
    assert summary["difference"] == 0 and summary["difference_ci95"] == (0.0, 0.0) and summary["pairs"] == 3
    assert comparison.candidate.matches == comparison.baseline.matches


def test_each_run_is_the_run_the_arena_plays_alone() -> None:
    # Interleaving the two runs changes no game: each equals play_matches on the same seed.
    comparison = compare_agents("minplays:tactics=1", first_action, "minplays", 4, seed=2, workers=2)
    assert comparison.candidate.matches == play_matches("minplays:tactics=1", "minplays", 4, seed=2, workers=1).matches
    assert comparison.baseline.matches == play_matches(first_action, "minplays", 4, seed=2, workers=1).matches
    expected = [
        (a.score + b.score) / 2 - (c.score + d.score) / 2
        for (a, b), (c, d) in zip(comparison.candidate.pairs, comparison.baseline.pairs)
    ]
    assert comparison.differences() == expected
    assert comparison.summary()["opponent"] == "minplays" and comparison.summary()["baseline"].startswith("<function")


def test_the_difference_and_its_interval() -> None:
    # pairs: candidate 1, 0.5, 0.5, 0; baseline 0.5, 0.5, 0, 0 -> differences 0.5, 0, 0.5, 0
    comparison = Comparison(run_of("new", [1, 1, 1, 0, 0, 1, 0, 0]), run_of("old", [1, 0, 0, 1, 0, 0, 0, 0]))
    assert comparison.differences() == [0.5, 0.0, 0.5, 0.0]
    summary = comparison.summary()
    half = 1.959963984540054 * math.sqrt(1 / 12) / 2  # the sample deviation of 0.5, 0, 0.5, 0 is sqrt(1/12)
    assert summary["difference"] == 0.25
    assert summary["difference_ci95"] == pytest.approx((0.25 - half, 0.25 + half))
    assert (summary["candidate"], summary["baseline"]) == ("new", "old")


@pytest.mark.parametrize("incomplete", ["candidate", "baseline"])
def test_only_the_pairs_both_runs_completed_are_compared(incomplete: str) -> None:
    candidate = run_of("new", [1, 1, 0, 0, 1, 1])
    baseline = run_of("old", [0, 0, 1, 1, 1, 1])
    interrupted = candidate if incomplete == "candidate" else baseline
    del interrupted.matches[3]  # an interrupted run: its second pair is incomplete
    interrupted.interrupted = True
    comparison = Comparison(candidate, baseline)
    assert comparison.differences() == [1.0, 0.0] and comparison.interrupted
    summary = comparison.summary()
    # both runs are summed up over the pairs compared, not over their own
    assert summary["candidate_summary"]["matches"] == summary["baseline_summary"]["matches"] == 4
    assert (summary["candidate_summary"]["win_rate"], summary["baseline_summary"]["win_rate"]) == (1.0, 0.5)
    one = Comparison(run_of("new", [1, 1]), run_of("old", [0, 0]))
    assert one.differences() == [1.0] and all(math.isnan(x) for x in one.summary()["difference_ci95"])


def test_runs_on_other_deals_do_not_pair() -> None:
    other_seed = run_of("old", [0, 0])
    other_seed.seed = 1
    with pytest.raises(ValueError, match="do not pair: seed 0 against 1"):
        Comparison(run_of("new", [1, 1]), other_seed)
    with pytest.raises(ValueError, match="do not pair: matches 2 against 4"):
        Comparison(run_of("new", [1, 1]), run_of("old", [0, 0, 0, 0]))
    other_opponent = run_of("old", [0, 0])
    other_opponent.agent_b = "random"
    with pytest.raises(ValueError, match="do not pair: opponent 'opponent' against 'random'"):
        Comparison(run_of("new", [1, 1]), other_opponent)


def test_ctrl_c_leaves_both_runs_with_what_they_played(monkeypatch: pytest.MonkeyPatch) -> None:
    # One process, interleaved tasks: candidate match 0, baseline match 0, candidate match 1, ...
    # Ctrl-C in the eighth task (the baseline's match 3): the candidate has played matches
    # 0-3 (two pairs), the baseline 0-2 (one pair and half of the next).
    play_match, calls = matches.play_match, []

    def stopping(*args: Any) -> MatchResult:
        calls.append(1)
        if len(calls) == 8:
            raise KeyboardInterrupt
        return play_match(*args)

    monkeypatch.setattr(matches, "play_match", stopping)
    comparison = compare_agents("minplays", first_action, "random", 8, seed=3, workers=1, rules=gf.Rules(deal_cap=1))
    assert comparison.interrupted and comparison.candidate.interrupted and comparison.baseline.interrupted
    assert [m.index for m in comparison.candidate.matches] == [0, 1, 2, 3]
    assert [m.index for m in comparison.baseline.matches] == [0, 1, 2]
    summary = comparison.summary()
    assert summary["pairs"] == len(comparison.differences()) == 1
    assert summary["candidate_summary"]["matches"] == summary["baseline_summary"]["matches"] == 2
    assert "— interrupted" in comparison.format()


def test_bad_arguments_are_refused_before_playing() -> None:
    with pytest.raises(ValueError, match="even"):
        compare_agents("minplays", "random", "random", 3)
    with pytest.raises(ValueError, match="unknown agent 'nosuch'"):
        compare_agents("minplays", "nosuch", "random", 2)
    with pytest.raises(TypeError, match="the arena seed must be an integer, not str"):
        compare_agents("minplays", "random", "random", 2, seed="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be a guandan_fast.Rules"):
        compare_agents("minplays", "random", "random", 2, rules="national")  # type: ignore[arg-type]


def test_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "minplays", "minplays", "--against", "random", "--matches", "4", "--seed", "1",
                 "--workers", "1", "--quiet", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["difference"] == 0 and summary["pairs"] == 2 and summary["opponent"] == "random"
    assert main(["compare", "minplays", "random", "--against", "random", "--matches", "3"]) == 2
    assert "must be even" in capsys.readouterr().err
    assert main(["compare", "minplays", "nosuch", "--against", "random", "--matches", "2"]) == 2
    assert "unknown agent 'nosuch'" in capsys.readouterr().err
    assert main(["compare", "minplays", "random", "--against", "nosuch:x=1", "--matches", "2"]) == 2
    assert "unknown agent 'nosuch'" in capsys.readouterr().err
    assert main(["compare", "minplays", "random", "--against", "random", "--matches", "2", "--workers", "1",
                 "--quiet", "--deal-cap", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("minplays against random, each playing random on the same deals, seed 0: 1 match pairs")
    assert "difference per match pair:" in out
    with pytest.raises(SystemExit):
        main(["compare", "minplays", "random"])  # --against is required
