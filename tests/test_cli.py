"""The ``guandan-fast`` commands (``moves``, ``play``)."""

from __future__ import annotations

import io
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
        (["client"], "give one of create_room (--create-room ROUNDS: a new room) and join (--join ROOM)"),
        (["client", "--protocol", "legacy", "--seat", "2"], "the legacy platform takes no seat (--seat)"),
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


def test_version_and_help_on_a_bare_command(capsys: pytest.CaptureFixture[str]) -> None:
    import guandan_fast

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0 and capsys.readouterr().out.strip() == f"guandan-fast {guandan_fast.__version__}"
    assert main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: guandan-fast") and all(name in out for name in ("moves", "play", "arena", "selfplay", "client", "bench"))
    bare = subprocess.run([sys.executable, "-m", "guandan_fast"], capture_output=True, text=True, check=False)
    assert bare.returncode == 0 and "usage: guandan-fast" in bare.stdout and not bare.stderr


def test_one_set_of_rule_flags_on_play_arena_and_selfplay() -> None:
    from guandan_fast.cli import build_parser
    from guandan_fast.cli.rules import rules_from_args
    from guandan_fast.engine.rules import Rules

    flags = ["--rules", "openguandan", "--fail-at-a", "2", "--fail-at-a-level", "J", "--no-partner-tribute",
             "--return-level-rank", "--deal-cap", "5", "--first-leader", "3", "--a-needs-double-up"]
    expected = Rules(
        fail_at_a_limit=2, fail_at_a_level="J", fail_at_a_then_up=True, at_a_only_own_deal=True, a_needs_double_up=True,
        deal_cap=5, first_leader=3, no_tribute_between_partners=True, return_level_rank=True,
        return_received_card=False, double_tribute_by_rank=True,
    )
    parser = build_parser()
    for command in (["play"], ["arena", "random", "random"], ["selfplay", "--deals", "1", "--out", "x"]):
        assert rules_from_args(parser.parse_args([*command, *flags])) == expected
        assert rules_from_args(parser.parse_args(command)) == Rules()
    assert rules_from_args(parser.parse_args(["play", "--partner-tribute", "--rules", "openguandan"])) == Rules.openguandan()


@pytest.mark.parametrize(
    "argv, words",
    [
        (["play", "--fail-at-a-level", "Z"], "bad level"),
        (["play", "--agents", "random,random,random"], "1, 2 or 4 agents"),
        (["play", "--agents", "random,nobody"], "unknown agent 'nobody'"),
        (["play", "--agents", "pimc:worlds"], "expected key=value"),
    ],
)
def test_play_bad_flags_are_messages(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    assert main(argv) == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, words",
    [
        (["bench", "--min-time", "-1"], "argument --min-time: expected a number of seconds >= 0, not -1"),
        (["bench", "--min-time", "nan"], "argument --min-time: expected a number of seconds >= 0, not nan"),
        (["bench", "--hands", "10" * 12], "argument --hands: expected at most 100,000 hands"),
        (["server", "--port", "abc"], "argument --port: invalid port value: 'abc'"),
        (["server", "--answer-timeout", "inf"], "argument --answer-timeout: expected a positive number of seconds"),
    ],
)
def test_bad_numbers_are_named_by_their_flag(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    with pytest.raises(SystemExit) as stop:  # argparse's own refusal
        main(argv)
    assert stop.value.code == 2 and words in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--deals", "1", "--match"], ["--match", "--deals", "1"], ["--deals", "2", "--match"]])
def test_play_refuses_deals_with_match(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stop:  # argparse's own refusal
        main(["play", *argv])
    assert stop.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


def test_play_by_chosen_agents(capsys: pytest.CaptureFixture[str]) -> None:
    from guandan_fast.cli.play import parse_seat_agents

    assert parse_seat_agents("pimc:worlds=2,playouts=4,random") == [
        ("pimc", {"worlds": 2, "playouts": 4}), ("random", {}), ("pimc", {"worlds": 2, "playouts": 4}), ("random", {})
    ]
    assert main(["play", "--seed", "5", "--agents", "minplays,random,minplays,random"]) == 0
    by_minplays = capsys.readouterr().out
    assert main(["play", "--seed", "5"]) == 0
    assert capsys.readouterr().out != by_minplays  # the agents made the plays (the same cards)
    assert main(["play", "--seed", "5", "--agents", "minplays,random"]) == 0
    assert capsys.readouterr().out == by_minplays


def play_as_human(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], script: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = main(["play", "--seed", "3", "--human", "0", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_a_person_plays_a_seat_from_the_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # seat 0 leads 795 moves at seed 3: the list is summarised; "pair" lists the pairs, the
    # cards pick one, a bad word, a bad number and "?" are answered and asked again
    script = "pair\nxyz\n799\nS3 H3\n?\n0\n" + "0\n" * 300
    code, out, err = play_as_human(monkeypatch, capsys, script)
    assert code == 0, err
    assert "seat 0 (27): S2 C2 S3 H3" in out and "seat 1 (27): (hidden)" in out  # only the own hand
    first_turn = out[out.index("== your turn") : out.index("seat 0: Pair 3")]
    assert "you lead" in first_turn and "your hand (27): 3: S3 H3  4: D4" in first_turn
    assert "795 legal actions: Single 27, Pair 20" in first_turn and "[28] Pair 3: S3 H3" in first_turn
    assert "not understood: 'xyz'" in first_turn and "no action 799: they are numbered 0 to 794" in first_turn
    assert "seat 0: Pair 3: S3 H3" in out  # "S3 H3" was played
    assert "to beat: seat 3's StraightFlush T: CT CJ CQ CK CA" in out and "[0] pass" in out
    assert "table: seat 1 (next) 25 cards, seat 2 (partner) 23 cards, seat 3 (previous) 22 cards" in out
    assert "finishing order:" in out and "Stopped after 1 deal;" in out


def test_a_person_may_quit_or_run_out_of_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play_as_human(monkeypatch, capsys, "q\n")
    assert code == 1 and "you quit the game" in err and "Traceback" not in err
    code, out, err = play_as_human(monkeypatch, capsys, "28\n")
    assert code == 1 and "the input ended before the game did" in err
    assert "seat 0: Pair 3: S3 H3" in out
    # numbers too long for int(), or digits int() refuses, are answered and asked again
    code, out, err = play_as_human(monkeypatch, capsys, "7" * 5000 + "\n\u00b2\n28\n")
    assert code == 1 and "the input ended before the game did" in err and "Traceback" not in err
    assert "no action 777777777777…: they are numbered 0 to 794" in out and "not understood: '\u00b2'" in out
    assert "seat 0: Pair 3: S3 H3" in out
    monkeypatch.setattr(sys, "stdin", None)  # started with its input closed
    assert main(["play", "--seed", "3", "--human", "0"]) == 2
    assert "--human reads your answers from the input, which is closed" in capsys.readouterr().err


def test_the_human_game_through_a_real_terminal_pipe() -> None:
    script = "S3 S3 S3\n" + "0\n" * 300  # no move plays three S3: asked again
    run = subprocess.run(
        [sys.executable, "-m", "guandan_fast", "play", "--seed", "8", "--human", "2", "--match", "--deal-cap", "1"],
        input=script, capture_output=True, text=True, check=False, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "== your turn: seat 2" in run.stdout and "seat 2> " in run.stdout
    assert "no legal action plays exactly S3 S3 S3" in run.stdout
    assert "after 1 deals" in run.stdout
