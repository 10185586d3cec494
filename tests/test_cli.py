"""The ``guandan-fast`` commands (``moves``, ``play``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guandan_fast.cli import main


def test_moves_json_lines_are_platform_triples(capsys: pytest.CaptureFixture[str], backend: str) -> None:
    assert main(["moves", "S3 S4 S5 S6 H2", "--level", "2", "--json", "--backend", backend]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 13
    assert ["Straight", "3", ["H2", "S3", "S4", "S5", "S6"]] in lines


def test_moves_grouped_by_type_with_following_and_strongest(capsys: pytest.CaptureFixture[str]) -> None:
    last = json.dumps(["Pair", "K", ["SK", "DK"]])
    assert main(["moves", "SA DA H2 S2 SB SB S3", "--level", "2", "--last", last, "--strongest"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("5 moves for 7 cards at level 2, following")
    assert "Pair (5)" in out and "A: H2 SA" in out and "B: SB SB" in out and "Single" not in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["moves", "S3 Q9"], "unknown card 'Q9'"),
        (["moves", "S3", "--level", "1"], "bad level"),
        (["moves", "S3", "--last", "[1, 2"], "Expecting"),
        (["moves", "S4", "--last", '["Pair", "3", ["S3", "S4"]]'], "do not read as Pair"),
    ],
)
def test_bad_input_is_an_error_message_not_a_traceback(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("guandan-fast: error:") and words in err


def test_console_script_is_installed() -> None:
    script = shutil.which("guandan-fast", path=str(Path(sys.executable).parent))
    assert script is not None, "the guandan-fast console script is not installed beside this Python"
    run = subprocess.run([script, "moves", "SB SB HR HR", "--json"], capture_output=True, text=True, check=True)
    assert '["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]]' in run.stdout.splitlines()


def test_python_dash_m_runs_the_command_line() -> None:
    run = subprocess.run([sys.executable, "-m", "guandan_fast", "moves", "H2", "--json"], capture_output=True, text=True, check=False)
    assert run.returncode == 0 and run.stdout.splitlines() == ['["Single", "2", ["H2"]]']
    bad = subprocess.run([sys.executable, "-m", "guandan_fast", "moves", "H2 H2 H2"], capture_output=True, text=True, check=False)
    assert bad.returncode == 2 and "three copies of card H2" in bad.stderr


def test_a_closed_pipe_ends_quietly() -> None:
    reader = subprocess.Popen(
        [sys.executable, "-m", "guandan_fast", "moves", " ".join(f"S{r} H{r} D{r}" for r in "3456789TJ"), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.readline()
    reader.stdout.close()  # like `| head -1`
    assert "Traceback" not in reader.stderr.read().decode()
    assert reader.wait(timeout=60) in (0, 1)


def test_cli_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "7", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "Deal 1 at level 2" in out and "Deal 2 at level" in out
    assert "seat 0 (27):" in out and "finishing order:" in out and "levels: team 0 at" in out
    assert "tribute: seat" in out or "anti-tribute (抗贡)" in out
    assert main(["play", "--seed", "7", "--deals", "2"]) == 0
    assert capsys.readouterr().out == out  # deterministic per seed


def test_cli_play_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--seed", "1", "--match", "--fail-at-a", "2", "--no-partner-tribute"]) == 0
    out = capsys.readouterr().out
    assert "wins the match" in out
