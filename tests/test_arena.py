"""The arena (seat-swapped matches) and self-play files, locally and on Ray."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast.arena import generate_selfplay, play_matches, read_shard
from guandan_fast.arena.matches import paired_interval, wilson_interval
from guandan_fast.arena.selfplay import COUNT_PLANES_SIZE, selfplay_deal
from guandan_fast.cli import main

SRC = str(Path(gf.__file__).resolve().parents[1])


def first_action(deal: gf.Deal, seat: int) -> int:
    return 0


def test_the_same_seed_gives_the_same_matches_for_any_worker_count() -> None:
    one = play_matches("random", "random", 4, seed=3, workers=1)
    two = play_matches("random", "random", 4, seed=3, workers=2)
    assert one.matches == two.matches and len(one.matches) == 4
    assert [m.a_team for m in one.matches] == [0, 1, 0, 1]
    assert one.matches != play_matches("random", "random", 4, seed=4, workers=1).matches
    summary = one.summary()
    assert summary["wins"] + summary["draws"] + summary["losses"] == 4 == summary["matches"]
    assert summary["deals"] == sum(m.deals for m in one.matches)
    for side in (0, 1):  # the slowest decision: at least the mean, at most a match's total time
        assert summary["ms_per_decision"][side] <= summary["max_ms_per_decision"][side]
        assert summary["max_ms_per_decision"][side] <= 1000 * max(m.seconds[side] for m in one.matches)


def test_mirrored_matches_deal_the_same_cards() -> None:
    # The same deterministic policy on both sides: the swapped match is the same game with
    # the teams' names exchanged, so A's result flips exactly.
    result = play_matches(first_action, first_action, 6, seed=1, workers=1)
    for a, b in result.pairs:
        assert a.score == 1 - b.score
        assert a.points == -b.points and a.deals == b.deals
    assert result.summary()["win_rate"] == 0.5


def test_intervals() -> None:
    low, high = wilson_interval(0.5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert paired_interval([1.0] * 20, bounded=True) == wilson_interval(1.0, 20)
    assert paired_interval([1.0] * 20, bounded=True)[0] == pytest.approx(0.8389, abs=1e-4)
    low, high = paired_interval([0.0, 0.5, 1.0, 0.5], bounded=True)
    assert (low + high) / 2 == pytest.approx(0.5) and high - low == pytest.approx(2 * 1.96 * math.sqrt(1 / 6) / 2, abs=1e-3)
    assert all(math.isnan(x) for x in paired_interval([], bounded=False) + paired_interval([2.0], bounded=False))


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"matches": 0}, ValueError, "number of matches must be an integer >= 1"),
        ({"matches": 3}, ValueError, "must be even"),
        ({"matches": 2, "workers": 0}, ValueError, "number of workers must be an integer >= 1"),
        ({"matches": 2, "agent_b": "deepblue"}, ValueError, "unknown agent 'deepblue'"),
        ({"matches": 2, "rules": "national"}, TypeError, "rules must be a guandan_fast.Rules"),
        ({"matches": 2, "agent_a": "pimc:budget_ms=0"}, ValueError, "budget_ms must be a positive"),
        ({"matches": 2, "agent_a": "pimc:playouts=-3"}, ValueError, "playouts must be an integer >= 1, not"),
        ({"matches": 2, "ray_address": "nowhere"}, ValueError, "a Ray address is"),
    ],
)
def test_bad_arena_input(kwargs: dict, error: type, words: str) -> None:
    args = {"agent_a": "random", "agent_b": "random", **kwargs}
    with pytest.raises(error, match=words):
        play_matches(**args)


def test_arena_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "random", "random:seed=5", "--matches", "2", "--workers", "1", "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["agent_b"] == "random:seed=5" and summary["pairs"] == 1 and summary["matches"] == 2
    assert main(["arena", "random", "random", "--matches", "2", "--ray", "127.0.0.1:1"]) == 2
    assert "cannot connect to Ray at '127.0.0.1:1'" in capsys.readouterr().err


def test_without_ray_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    assert main(["arena", "random", "random", "--matches", "2", "--ray", "auto"]) == 2
    assert "pip install 'guandan_fast[ray]'" in capsys.readouterr().err


def test_ctrl_c_prints_what_the_arena_has() -> None:
    env = {**os.environ, "PYTHONPATH": SRC}
    command = [sys.executable, "-m", "guandan_fast", "arena", "random", "random", "--matches", "2000", "--workers", "2"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True
    )
    assert process.stderr is not None
    process.stderr.readline()  # the progress label: the workers are starting
    time.sleep(2.0)
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does: the whole group
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted" in out and "of 2000 matches played" in out and "win rate of A" in out
    assert "Traceback" not in err


def test_selfplay_files_replay_the_deals(tmp_path: Path) -> None:
    paths = generate_selfplay("random", 5, tmp_path / "one", seed=2, shard_size=2, workers=1, encoding="counts")
    assert [p.name for p in paths] == ["shard-00000.npz", "shard-00001.npz", "shard-00002.npz"]
    shards = [read_shard(p) for p in paths]
    assert sorted(set(np.concatenate([s["deals"] for s in shards]).tolist())) == [0, 1, 2, 3, 4]
    data = shards[0]
    assert data["states"].shape == (len(data["actions"]), COUNT_PLANES_SIZE)
    assert data["action_offsets"][-1] == len(data["action_cards"])
    assert str(data["encoding"]) == "counts"
    # Replay deal 0 from its seed with the recorded choices: each state's own hand, each
    # action list's cards and the returns agree with the deal.
    deal = selfplay_deal(2, 0)
    rows = np.flatnonzero(data["deals"] == 0)
    for row in rows:
        seat = int(data["seats"][row])
        assert seat == deal.to_act
        assert np.array_equal(data["states"][row, :54], deal.hands[seat].counts())
        assert data["states"][row, 108:324].sum() == 108 - sum(deal.cards_left())  # every card played
        cards = data["action_cards"][data["action_offsets"][row] : data["action_offsets"][row + 1]]
        assert len(cards) == len(deal.legal_actions())
        chosen = deal.legal_actions()[data["actions"][row]]
        if chosen[0] != "PASS":
            assert cards[data["actions"][row]].sum() == len(chosen[2])
        deal.step(int(data["actions"][row]))
    assert deal.done
    team, up = deal.outcome
    assert data["returns"][rows].tolist() == [up if s % 2 == team else -up for s in data["seats"][rows]]


def test_selfplay_is_the_same_for_any_worker_count(tmp_path: Path) -> None:
    one = generate_selfplay("random", 4, tmp_path / "one", seed=7, shard_size=1, workers=1, encoding="counts")
    two = generate_selfplay("random", 4, tmp_path / "two", seed=7, shard_size=1, workers=2, encoding="counts")
    assert_same_shards(one, two)


def assert_same_shards(one: list[Path], two: list[Path]) -> None:
    assert [p.name for p in one] == [p.name for p in two]
    for a, b in zip(one, two):
        x, y = read_shard(a), read_shard(b)
        assert x.keys() == y.keys()
        for name in x:
            assert np.array_equal(x[name], y[name]), name


def test_selfplay_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="shard size must be an integer >= 1"):
        generate_selfplay("random", 2, tmp_path, shard_size=0)
    assert main(["selfplay", "--agent", "nobody", "--deals", "1", "--out", str(tmp_path)]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, runtime_env={"env_vars": {"PYTHONPATH": SRC}})
    yield ray
    ray.shutdown()


def test_ray_gives_the_local_results(local_ray, tmp_path: Path) -> None:
    on_ray = play_matches("random", "random", 4, seed=11, ray_address="local")
    assert on_ray.matches == play_matches("random", "random", 4, seed=11, workers=1).matches
    files = generate_selfplay("random", 3, tmp_path / "ray", seed=5, shard_size=2, ray_address="auto", encoding="counts")
    local = generate_selfplay("random", 3, tmp_path / "local", seed=5, shard_size=2, workers=1, encoding="counts")
    assert_same_shards(files, local)


def test_selfplay_states_default_to_the_danzero_encoder(tmp_path: Path) -> None:
    encode = pytest.importorskip("guandan_fast.encode")
    (path,) = generate_selfplay("minplays", 1, tmp_path, seed=4, workers=1)
    data = read_shard(path)
    assert str(data["encoding"]) == "danzero"
    deal = selfplay_deal(4, 0)
    for row in range(3):
        assert np.array_equal(data["states"][row], encode.state(deal, deal.to_act, "danzero"))
        deal.step(int(data["actions"][row]))
