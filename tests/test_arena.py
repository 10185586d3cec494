"""The arena (seat-swapped matches) and self-play files, locally and on Ray."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import guandan_fast as gf
from guandan_fast.arena import connect_ray, generate_selfplay, play_matches, read_selfplay, read_shard, runner
from guandan_fast.arena.matches import paired_interval, ratio_interval, wilson_interval
from guandan_fast.arena.selfplay import COUNT_PLANES_SIZE, FORMAT, selfplay_deal
from guandan_fast.cli import main
from guandan_fast.encode import actions
from guandan_fast.encode.actions import NUM_ACTIONS

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
    assert paired_interval([1.0] * 20) == wilson_interval(1.0, 20)
    assert paired_interval([1.0] * 20)[0] == pytest.approx(0.8389, abs=1e-4)
    low, high = paired_interval([0.0, 0.5, 1.0, 0.5])
    assert (low + high) / 2 == pytest.approx(0.5) and high - low == pytest.approx(2 * 1.96 * math.sqrt(1 / 6) / 2, abs=1e-3)
    assert all(math.isnan(x) for x in paired_interval([]))


def test_points_per_deal_interval_is_the_interval_of_the_ratio_reported() -> None:
    """All points over all deals, and its interval: centred on that ratio (the mean of the
    per-pair ratios, 0.4 here, would weigh the short pair as much as the long one)."""
    points, deals = [2, 10, -3, 9], [2, 20, 6, 12]
    ratio = sum(points) / sum(deals)  # 0.45
    low, high = ratio_interval(points, deals)
    assert (low + high) / 2 == pytest.approx(ratio)
    residuals = [p - ratio * d for p, d in zip(points, deals)]
    mean_residual = sum(residuals) / 4
    spread = math.sqrt(sum((r - mean_residual) ** 2 for r in residuals) / 3)
    assert high - low == pytest.approx(2 * 1.96 * spread / math.sqrt(4) / (sum(deals) / 4), rel=1e-4)
    # no pair, one pair, or no deal: nothing can be said
    for args in (([], []), ([3], [4]), ([0, 0], [0, 0])):
        assert all(math.isnan(x) for x in ratio_interval(*args))
    with pytest.raises(ValueError, match="one denominator per numerator"):
        ratio_interval([1, 2], [3])


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"matches": 0}, ValueError, "number of matches must be an integer >= 1"),
        ({"matches": 3}, ValueError, "must be even"),
        ({"matches": 2, "workers": 0}, ValueError, "number of workers must be an integer >= 1"),
        ({"matches": 2, "agent_b": "deepblue"}, ValueError, "unknown agent 'deepblue'"),
        ({"matches": 2, "rules": "national"}, TypeError, "rules must be a guandan_fast.Rules"),
        ({"matches": 2, "agent_a": "pimc:budget_ms=0"}, ValueError, "budget_ms must be a positive"),
        ({"matches": 2, "agent_a": "pimc:playouts=-3"}, ValueError, "playouts must be an integer 1..1048576, not"),
        ({"matches": 2, "ray_address": "nowhere"}, ValueError, "a Ray address is"),
    ],
)
def test_bad_arena_input(kwargs: dict, error: type, words: str) -> None:
    args = {"agent_a": "random", "agent_b": "random", **kwargs}
    with pytest.raises(error, match=words):
        play_matches(**args)


def test_arena_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "random", "random:seed=5", "--matches", "2", "--workers", "1", "--json", "--quiet"]) == 0
    def no_constants(name: str) -> None:
        raise AssertionError(f"{name} is not JSON")

    # strict JSON: one pair has no interval of its points a deal, which is null, not NaN
    summary = json.loads(capsys.readouterr().out, parse_constant=no_constants)
    assert summary["agent_b"] == "random:seed=5" and summary["pairs"] == 1 and summary["matches"] == 2
    assert summary["points_per_deal_ci95"] == [None, None]
    assert main(["arena", "random", "random", "--matches", "2", "--ray", "127.0.0.1:1"]) == 2
    assert "cannot connect to Ray at '127.0.0.1:1'" in capsys.readouterr().err


def test_without_ray_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    assert main(["arena", "random", "random", "--matches", "2", "--ray", "auto"]) == 2
    assert "pip install 'guandan_fast[ray]'" in capsys.readouterr().err


class FakeRay:
    """Stands in for the ``ray`` module: records what ``ray.init`` is asked."""

    def __init__(self, error: Exception | None = None) -> None:
        self.calls: list[dict] = []
        self.error = error

    def is_initialized(self) -> bool:
        return False

    def init(self, **options: object) -> None:
        self.calls.append(options)
        if self.error is not None:
            raise self.error


def test_ray_addresses_are_read_as_ray_reads_them(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    assert connect_ray("local") is fake and connect_ray(" auto ") is fake
    assert [call["address"] for call in fake.calls] == ["local", "auto"]  # "local" starts one, "auto" only joins
    fake.error = ConnectionError("Could not find any running Ray instance.")
    with pytest.raises(ConnectionError, match="cannot connect to Ray at 'auto': Could not find any running Ray"):
        connect_ray("auto")


def serve_once(answer: bytes | None) -> tuple[int, threading.Thread]:
    """A local TCP server for one connection: it sends ``answer`` (None: nothing) and waits."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def run() -> None:
        connection, _ = server.accept()
        with connection, server:
            connection.recv(1024)
            if answer is not None:
                connection.sendall(answer)
            connection.settimeout(3)
            with contextlib.suppress(OSError):
                connection.recv(1024)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return server.getsockname()[1], thread


@pytest.mark.parametrize("answer", [b"HTTP/1.0 400 Bad request\r\n\r\n", None])
def test_a_host_that_is_no_ray_cluster_fails_in_seconds(monkeypatch: pytest.MonkeyPatch, answer: bytes | None) -> None:
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.setattr(runner, "PROBE_SECONDS", 0.5)
    port, thread = serve_once(answer)
    start = time.perf_counter()
    with pytest.raises(ConnectionError, match="does not speak gRPC as a Ray cluster does"):
        connect_ray(f"127.0.0.1:{port}")
    assert time.perf_counter() - start < 5 and fake.calls == []  # ray.init (minutes of retries) never ran
    thread.join(10)
    port, thread = serve_once(bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))  # a gRPC server's SETTINGS frame
    connect_ray(f"ray://127.0.0.1:{port}")
    assert fake.calls[-1]["address"] == f"ray://127.0.0.1:{port}"
    thread.join(10)


def test_ray_auto_without_a_cluster_fails_as_ray_does(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from ray._private.services import find_gcs_addresses

    if find_gcs_addresses():
        pytest.skip("a Ray instance runs on this machine: 'auto' would join it")
    env = {**os.environ, "RAY_TMPDIR": str(tmp_path), "PYTHONPATH": SRC}
    env.pop("RAY_ADDRESS", None)
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "guandan_fast", "arena", "random", "random", "--matches", "2", "--ray", "auto", "--quiet"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    assert run.returncode == 2 and "Could not find any running Ray instance" in run.stderr, run.stderr
    assert time.perf_counter() - start < 60 and "Traceback" not in run.stderr


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
    shards = list(read_selfplay(tmp_path / "one"))
    assert [s.path for s in shards] == paths
    assert sorted(set(np.concatenate([s.deals for s in shards]).tolist())) == [0, 1, 2, 3, 4]
    data = shards[0]
    assert data.states.shape == (len(data), COUNT_PLANES_SIZE) and data.masks.shape == (len(data), NUM_ACTIONS)
    # Replay deal 0 from its seed with the recorded positions: each state's own hand, each
    # action list's cards and ids, the mask, the chosen id and the returns agree with the deal.
    deal = selfplay_deal(2, 0)
    rows = np.flatnonzero(data.deals == 0)
    for row in rows:
        seat = int(data.seats[row])
        assert seat == deal.current_seat
        assert np.array_equal(data.states[row, :54], deal.hands[seat].counts())
        assert data.states[row, 108:324].sum() == 108 - sum(deal.cards_left())  # every card played
        legal = deal.legal_actions()
        position = int(data.positions[row])
        assert len(data.legal_cards(row)) == len(legal)
        assert data.legal_ids(row).tolist() == actions.ids(deal).tolist()
        assert np.array_equal(data.masks[row], actions.mask(deal))
        chosen = legal[position]
        assert data.action_ids[row] == data.legal_ids(row)[position] == actions.action_id(chosen, deal.level)
        if chosen[0] != "PASS":
            assert data.legal_cards(row)[position].sum() == len(chosen[2])
        deal.step(position)
    assert deal.done
    team, up = deal.outcome
    assert data.returns[rows].tolist() == [up if s % 2 == team else -up for s in data.seats[rows]]


def test_a_shard_says_how_to_reproduce_it(tmp_path: Path) -> None:
    rules = gf.Rules(return_level_rank=False, fail_at_a_limit=3)
    (path,) = generate_selfplay(
        "pimc:worlds=2,playouts=2", 1, tmp_path, seed=9, workers=1, encoding="counts", rules=rules
    )
    meta = read_shard(path).meta
    assert meta["format"] == FORMAT and meta["package_version"] == gf.__version__
    assert meta["agent"] == {"spec": "pimc:worlds=2,playouts=2", "name": "pimc", "options": {"worlds": 2, "playouts": 2}}
    assert (meta["seed"], meta["first_deal"], meta["deals"], meta["shard"]) == (9, 0, 1, 0)
    assert gf.Rules(**meta["rules"]) == rules
    assert meta["encoding"] == {"name": "counts", "state_size": COUNT_PLANES_SIZE}
    assert meta["action_space"]["size"] == NUM_ACTIONS
    # the same call from the meta makes the same data
    again = generate_selfplay(
        f"{meta['agent']['name']}:worlds=2,playouts=2", 1, tmp_path / "again", seed=meta["seed"], workers=1,
        encoding=meta["encoding"]["name"], rules=gf.Rules(**meta["rules"]),
    )
    assert_same_shards([path], again)


def test_selfplay_is_the_same_for_any_worker_count(tmp_path: Path) -> None:
    one = generate_selfplay("random", 4, tmp_path / "one", seed=7, shard_size=1, workers=1, encoding="counts")
    two = generate_selfplay("random", 4, tmp_path / "two", seed=7, shard_size=1, workers=2, encoding="counts")
    assert_same_shards(one, two)


def assert_same_shards(one: list[Path], two: list[Path]) -> None:
    assert [p.name for p in one] == [p.name for p in two]
    for a, b in zip(one, two):
        x, y = read_shard(a), read_shard(b)
        assert x.meta == y.meta
        for field in dataclasses.fields(x)[2:]:
            assert np.array_equal(getattr(x, field.name), getattr(y, field.name)), field.name


def test_a_folder_holds_one_data_set(tmp_path: Path) -> None:
    def run(seed: int, **options: object) -> list[Path]:
        return generate_selfplay("random", 3, tmp_path, seed=seed, shard_size=2, workers=1, encoding="counts", **options)

    assert [p.name for p in run(1)] == ["shard-00000.npz", "shard-00001.npz"]
    with pytest.raises(ValueError, match="not empty.*--overwrite.*--append"):
        run(2)
    with pytest.raises(ValueError, match="seed 1, which would repeat its deals"):
        run(1, if_exists="append")
    with pytest.raises(ValueError, match="encoded 'counts', not 'danzero'"):
        generate_selfplay("random", 1, tmp_path, seed=3, workers=1, encoding="danzero", if_exists="append")
    added = run(2, if_exists="append")
    assert [p.name for p in added] == ["shard-00002.npz", "shard-00003.npz"]
    assert [s.meta["seed"] for s in read_selfplay(tmp_path)] == [1, 1, 2, 2]
    (tmp_path / "notes.txt").write_text("mine")
    replaced = generate_selfplay("random", 1, tmp_path, seed=5, workers=1, encoding="counts", if_exists="replace")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "shard-00000.npz"] and replaced[0].exists()
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not empty"):  # any entry counts, not only shards
        generate_selfplay("random", 1, other, seed=5, workers=1)
    with pytest.raises(ValueError, match="if_exists"):
        run(6, if_exists="merge")


def test_the_reader_refuses_what_is_not_one_data_set(tmp_path: Path) -> None:
    (counts,) = generate_selfplay("random", 1, tmp_path / "a", seed=1, workers=1, encoding="counts")
    (danzero,) = generate_selfplay("random", 1, tmp_path / "b", seed=2, workers=1, encoding="danzero")
    shutil.copy(danzero, tmp_path / "a" / "shard-00001.npz")  # mixed by hand
    with pytest.raises(ValueError, match="mix state encodings"):
        read_selfplay(tmp_path / "a")
    (tmp_path / "c").mkdir()
    with pytest.raises(ValueError, match="no self-play shards"):
        read_selfplay(tmp_path / "c")
    old = tmp_path / "old.npz"
    np.savez(old, states=np.zeros((1, 2)), encoding=np.asarray("counts"))
    with pytest.raises(ValueError, match="no guandan_fast self-play shard"):
        read_shard(old)
    with np.load(counts) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["positions"] = arrays["positions"][:-1]
    damaged = tmp_path / "damaged.npz"
    np.savez(damaged, **arrays)
    with pytest.raises(ValueError, match="do not fit together"):
        read_shard(damaged)


def test_a_shard_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "savez_compressed", fail)
    with pytest.raises(OSError, match="No space"):
        generate_selfplay("random", 1, tmp_path, seed=1, workers=1, encoding="counts")
    assert list(tmp_path.iterdir()) == []


def test_selfplay_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="shard size must be an integer >= 1"):
        generate_selfplay("random", 2, tmp_path, shard_size=0)
    with pytest.raises(ValueError, match="unknown state encoding 'pixels'"):
        generate_selfplay("random", 2, tmp_path, encoding="pixels")
    assert main(["selfplay", "--agent", "nobody", "--deals", "1", "--out", str(tmp_path)]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    a_file = tmp_path / "file"
    a_file.write_text("")
    for out, words in [(a_file, "is a file, not a folder"), (a_file / "sub", "Not a directory")]:
        assert main(["selfplay", "--deals", "1", "--out", str(out), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("guandan-fast: error:") and words in err and "Traceback" not in err


@pytest.mark.parametrize(
    "damage, words",
    [
        ("empty", "(EOFError: No data left in file)"),
        ("cut", "(BadZipFile: File is not a zip file)"),
        ("text", "(not an .npz archive)"),
        ("npy", "(a single array, not an .npz archive)"),
        ("meta", "its meta is not JSON"),
        ("objects", "is not a readable self-play shard"),
    ],
)
def test_a_damaged_shard_is_named_by_the_reader_and_by_append(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str, words: str
) -> None:
    good = tmp_path / "good"
    generate_selfplay("random", 1, good, seed=1, workers=1, encoding="counts")
    folder = tmp_path / "damaged"
    folder.mkdir()
    shard = folder / "shard-00000.npz"
    whole = (good / "shard-00000.npz").read_bytes()
    if damage in ("empty", "cut", "text"):
        shard.write_bytes({"empty": b"", "cut": whole[: len(whole) // 2], "text": b"hello\n"}[damage])
    elif damage == "npy":
        with open(shard, "wb") as file:
            np.save(file, np.zeros(3))
    elif damage == "meta":
        np.savez(shard, meta=np.array("not json"))
    else:  # every array there, one of them of Python objects (which are never unpickled)
        with np.load(good / "shard-00000.npz") as data:
            arrays = {name: data[name] for name in data.files}
        arrays["returns"] = np.array([object()] * len(arrays["returns"]), dtype=object)
        np.savez(shard, **arrays)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="self-play shard") as refused:
        read_shard(shard)
    assert words in str(refused.value) and str(shard) in str(refused.value)
    if damage != "objects":  # appending reads only the meta, which that one has whole
        assert main(["selfplay", "--deals", "1", "--out", str(folder), "--append", "--seed", "9", "--quiet"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("guandan-fast: error:") and words in err and "Traceback" not in err
        assert [p.name for p in folder.iterdir()] == ["shard-00000.npz"]  # nothing written


def test_selfplay_into_an_unwritable_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    if os.name != "posix" or os.geteuid() == 0:  # permissions do not bind here: the OS refuses as it would
        real_mkdir = Path.mkdir

        def refused_mkdir(self: Path, *args: Any, **kwargs: Any) -> None:
            if self.parent == locked:
                raise PermissionError(13, "Permission denied", str(self))
            real_mkdir(self, *args, **kwargs)

        monkeypatch.setattr(Path, "mkdir", refused_mkdir)
        monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != locked)
    assert main(["selfplay", "--deals", "1", "--out", str(locked / "new"), "--quiet"]) == 2
    assert "Permission denied" in capsys.readouterr().err
    assert main(["selfplay", "--deals", "1", "--out", str(locked), "--quiet"]) == 2
    assert "permission denied" in capsys.readouterr().err


def test_selfplay_command_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "run")
    argv = ["selfplay", "--deals", "2", "--shard-size", "1", "--out", out, "--workers", "1", "--quiet", "--encoding", "counts"]
    assert main([*argv, "--rules", "openguandan", "--return-level-rank"]) == 0
    assert "2 shards of 2 deals" in capsys.readouterr().out
    assert read_shard(Path(out) / "shard-00000.npz").meta["rules"] == dataclasses.asdict(
        dataclasses.replace(gf.Rules.openguandan(), return_level_rank=True)
    )
    assert main(argv) == 2 and "--overwrite" in capsys.readouterr().err
    assert main([*argv, "--append", "--seed", "1"]) == 0
    assert main([*argv, "--overwrite", "--seed", "2"]) == 0
    assert [s.meta["seed"] for s in read_selfplay(out)] == [2, 2]
    with pytest.raises(SystemExit):  # argparse: not allowed with argument --overwrite
        main([*argv, "--append", "--overwrite"])
    assert "not allowed with" in capsys.readouterr().err


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
    assert data.meta["encoding"] == {"name": "danzero", "state_size": 513}
    deal = selfplay_deal(4, 0)
    for row in range(3):
        assert np.array_equal(data.states[row], encode.state(deal, deal.current_seat, "danzero"))
        deal.step(int(data.positions[row]))
