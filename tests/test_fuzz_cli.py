"""Seeded fuzzing of the command line: every subcommand of ``guandan-fast`` (found in its
parser, so new ones are fuzzed too) with hostile argument values.

Each call of ``main(argv)`` must end with an exit code — argparse's usage error (2), the
command's one-line error (1 or 2) or success — and never let an exception out (which
would be a traceback for the user). Commands that start long work (a server, matches, a
benchmark) always get one value argparse refuses, so that every call is quick; the others
run with whatever parses. The campaign runs in a child process
(``fuzzing.run_isolated``), so a native crash fails the test with its signal."""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import tempfile
from typing import Any

from fuzzing import main, run_isolated

#: Argument values no option expects.
HOSTILE = [
    "", "-1", "0", "x", "1e999", "nan", "inf", "-inf", "99999999999999999999", "2.5", "-", "--", "掼蛋", "a" * 5000,
    "[" * 5000, "[]", "{}", "null", '["Single","3",["S3"]]', '["Pair","7",["S7","D7"]]', '["Single"]', "S3 S3 S3",
    "SB HR SB HR", "XX", "ws://", "ws://127.0.0.1:1", "http://x", "/nonexistent/dir/file", "random:seed=x",
    "minplays:nope=1", "pimc:playouts=-3", "random,random", "A", "2", "15", "1",
]
#: Subcommands that would start long work (serve, play matches, time) with valid
#: arguments: each call gets one value argparse refuses too.
GUARDED = {"server", "arena", "bench"}
#: Options left alone: the client's URL (its base one refuses at once; a host name could
#: wait for a resolver), where self-play writes and Ray (the self-play and Ray options
#: have their own tests).
UNFUZZED = {"--url", "--out", "--ray"}
#: Arguments every call of a subcommand gets (what a fuzzed value must not make slow).
BASE = {
    "moves": ["S3 S4 S5 S6 S7 H8"],
    "solve": ["S3 S4 H2", "H5 SB", "C6 C7", "D8 D8"],
    "client": ["--url", "ws://127.0.0.1:1", "--join", "1"],
    "arena": ["random", "random", "--matches", "2", "--workers", "1"],
    "selfplay": ["--deals", "1", "--workers", "1", "--shard-size", "1"],
    "play": [],
}


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    from guandan_fast.cli import build_parser

    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(commands.choices)


def _refused(action: argparse.Action) -> str | None:
    """A value argparse refuses for ``action`` (None when it takes anything)."""
    if action.choices is not None:
        return "no-such-choice"
    if action.type in (int, float) or getattr(action.type, "__name__", "") in ("positive", "non_negative", "_seat", "port", "seconds", "seconds_or_zero", "hand_count"):
        return "not-a-number"
    return None


def cli(seed: int) -> list[str]:
    from guandan_fast.cli import main as cli_main

    rng, problems = random.Random(seed), []
    with tempfile.TemporaryDirectory(prefix="guandan-fuzz-") as folder:
        for name, sub in sorted(_subcommands().items()):
            problems += _fuzz(cli_main, name, sub, rng, folder)
    return problems


def _fuzz(cli_main: Any, name: str, sub: argparse.ArgumentParser, rng: random.Random, folder: str) -> list[str]:
    """25 calls of subcommand ``name`` with hostile values; the problems."""
    options = [
        a for a in sub._actions
        if a.option_strings and not isinstance(a, argparse._HelpAction) and not UNFUZZED & set(a.option_strings)
    ]
    positionals = [a for a in sub._actions if not a.option_strings]
    guards = [a for a in options if _refused(a) is not None]
    if name in GUARDED and not guards:
        return [f"{name}: no option argparse can refuse; the fuzz cannot keep it quick"]
    problems: list[str] = []
    for _ in range(25):
        argv = [name, *BASE.get(name, ["x"] * len(positionals))]
        if name == "selfplay":
            argv += ["--out", f"{folder}/run{rng.randrange(10**9)}"]
        for option in rng.sample(options, k=min(len(options), rng.choice([1, 2, 3]))):
            argv.append(option.option_strings[-1])
            if option.nargs != 0:
                argv.append(rng.choice(HOSTILE))
        if name in GUARDED:
            guard = rng.choice(guards)
            argv += [guard.option_strings[-1], _refused(guard)]  # type: ignore[list-item]
        if rng.random() < 0.1:
            argv.append(rng.choice(["--no-such-option", "extra", "-x"]))
        problems += _run(cli_main, argv)
    return problems


def _run(cli_main: Any, argv: list[str]) -> list[str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli_main(argv)
    except SystemExit as leaving:
        code = leaving.code
    except BaseException as error:  # noqa: BLE001 - the finding: a traceback for the user
        return [f"{argv!r:.300}: {type(error).__name__}: {str(error)[:200]}"]
    if not isinstance(code, int) or "Traceback" in err.getvalue():
        return [f"{argv!r:.300}: exit {code!r}, stderr {err.getvalue()[-300:]!r}"]
    if code not in (0, 1, 2):
        return [f"{argv!r:.300}: exit {code}"]
    return []


CAMPAIGNS = {"cli": cli}


def test_fuzz_finds_nothing() -> None:
    assert run_isolated("test_fuzz_cli.py", "cli", seed=11, timeout=240) == []


def test_every_subcommand_is_fuzzed() -> None:
    assert {"moves", "solve", "client", "server", "play"} <= set(_subcommands())


def test_moves_last_nested_too_deeply_is_one_line(capsys: Any) -> None:
    """``moves --last`` of deeply nested JSON was a RecursionError traceback."""
    from guandan_fast.cli import main as cli_main

    assert cli_main(["moves", "S3 S4", "--last", "[" * 100_000 + "]" * 100_000]) == 2
    assert cli_main(["moves", "S3 S4", "--last", "[1,"]) == 2
    err = capsys.readouterr().err
    assert "--last is nested too deeply" in err and "--last is not JSON" in err and "Traceback" not in err


if __name__ == "__main__":
    main(CAMPAIGNS)
