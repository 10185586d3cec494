"""Seeded fuzzing of the environments and of the ``play``, ``arena``, ``selfplay`` and
``bench`` commands (and the bare command line): random sequences of calls, with bad
arguments among good ones, must only ever give a result or a ValueError/TypeError
naming the problem — never another exception, a traceback or a native crash — and a
refused call changes nothing.

Each fuzz run is a campaign of this module run in a child process (``fuzzing.run_isolated``,
so that a native crash fails the test instead of killing the suite) and is fast: a few
seconds.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fuzzing import main, run_isolated

#: Values that are no valid argument of most calls, of many types.
ODD_VALUES: tuple[Any, ...] = (
    None, True, False, -1, 0, 1, 2, 3, 4, 7, 15, 313, 10**9, 2**63, -(2**70), 1.5, float("nan"), "", "0", "x",
    "player_0", "player_9", "deal", "match", "human", "ansi", [], [0], {}, (1, 2), b"\x00", np.int64(1),
    np.int8(-1), np.bool_(True), np.array(5), np.array([1, 2]), np.float32(2.0), object(),
)


def odd(rng: random.Random) -> Any:
    return rng.choice(ODD_VALUES)


@contextlib.contextmanager
def refused_or_done(what: str) -> Iterator[None]:
    """A call may succeed or raise ValueError/TypeError; anything else is a fault."""
    try:
        yield
    except (ValueError, TypeError):
        pass
    except Exception as error:  # the fault this fuzzing looks for
        raise AssertionError(f"{what}: {type(error).__name__}: {error}") from error


def snapshot(env: Any) -> tuple[Any, ...]:
    table = env.table
    return (list(table.deal.history), table.over, table.truncated, table.deal.phase)


# -- the environments ---------------------------------------------------------------------------
def fuzz_pettingzoo(seed: int, steps: int = 1500) -> None:
    from guandan_fast.envs import pettingzoo_env

    rng = random.Random(seed)
    for _ in range(60):  # constructors with bad options
        options = {rng.choice(["mode", "level", "observation", "max_deals", "render_mode", "rules"]): odd(rng)}
        with refused_or_done(f"pettingzoo_env(**{options!r})"):
            pettingzoo_env(**options)
    env = pettingzoo_env(rng.choice(["deal", "match"]), max_deals=2, render_mode=rng.choice([None, "ansi"]))
    for step in range(steps):
        before = snapshot(env)
        call = rng.random()
        if call < 0.05:
            with refused_or_done("reset"):
                env.reset(seed=rng.choice([None, rng.randrange(2**32), odd(rng)]))
            continue
        if call < 0.15:
            with refused_or_done("observe"):
                env.observe(rng.choice(["player_0", "player_1", "player_2", "player_3", odd(rng)]))
        elif call < 0.2:
            with refused_or_done("last"):
                env.last()
        elif call < 0.25:
            with refused_or_done("render"):
                env.render()
        else:
            legal = None
            if env.agents:
                observation = env.observe(env.agent_selection)
                legal = np.flatnonzero(observation["action_mask"])
            good = legal is not None and len(legal) and rng.random() < 0.7
            action = int(rng.choice(list(legal))) if good else odd(rng)
            try:
                env.step(action)
            except (ValueError, TypeError):
                assert snapshot(env) == before, f"step {step}: a refused step({action!r}) changed the game"
            except Exception as error:
                raise AssertionError(f"step({action!r}): {type(error).__name__}: {error}") from error
            if not env.agents and rng.random() < 0.3:
                env.reset()


def fuzz_gymnasium(seed: int, steps: int = 1500) -> None:
    from guandan_fast.envs import gymnasium_env

    rng = random.Random(seed)
    for _ in range(60):
        options = {rng.choice(["seat", "opponents", "mode", "on_illegal", "level", "observation", "max_deals"]): odd(rng)}
        with refused_or_done(f"gymnasium_env(**{options!r})"):
            gymnasium_env(**options)
    env = gymnasium_env(rng.randrange(4), mode=rng.choice(["deal", "match"]), max_deals=2, on_illegal=rng.choice(["end", "raise"]))
    for step in range(steps):
        if rng.random() < 0.05:
            with refused_or_done("reset"):
                env.reset(seed=rng.choice([None, rng.randrange(2**32), odd(rng)]))
            continue
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (env.action_space.n,)
        legal = np.flatnonzero(mask)
        good = len(legal) and rng.random() < 0.7
        action = int(rng.choice(list(legal))) if good else odd(rng)
        before = snapshot(env)
        try:
            observation, reward, terminated, truncated, info = env.step(action)
        except (ValueError, TypeError):
            assert snapshot(env) == before, f"step {step}: a refused step({action!r}) changed the game"
            continue
        except Exception as error:
            raise AssertionError(f"step({action!r}): {type(error).__name__}: {error}") from error
        assert env.observation_space.contains(observation) and np.isfinite(reward)
        assert np.array_equal(info["action_mask"], env.action_masks())
        if terminated or truncated:
            assert not env.action_masks().any()
            try:
                env.step(0)
            except ValueError:
                continue
            raise AssertionError("a step after the end of the episode was taken")


# -- the command line -----------------------------------------------------------------------------
#: Good and bad values for the options of the commands fuzzed here.
OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "--seed": ("0", "7", "-3", "x", "1e3", str(2**70)),
    "--deals": ("1", "2", "0", "-1", "x"),
    "--matches": ("2", "4", "3", "0", "x"),
    "--agents": ("random", "random,minplays", "minplays,random,random,random", "random,random,random", "nobody",
                 "pimc:worlds=1,playouts=1", "pimc:worlds", "random:seed=x", ",", ""),
    "--agent": ("random", "minplays", "nobody", "pimc:playouts=0", ""),
    "--human": ("0", "3", "4", "-1", "x"),
    "--rules": ("national", "openguandan", "regional"),
    "--fail-at-a": ("1", "3", "0", "x"),
    "--fail-at-a-level": ("2", "J", "A", "1", "Z", ""),
    "--deal-cap": ("1", "2", "0", "x"),
    "--first-leader": ("0", "3", "4", "-1", "x"),
    "--workers": ("1", "0", "-2", "x"),
    "--ray": ("nowhere", "127.0.0.1:1", "ray://", ":", "host:port"),
    "--shard-size": ("1", "2", "0", "x"),
    "--encoding": ("counts", "danzero", "full-v1", "pixels", ""),
    "--hands": ("1", "4", "0", "x"),
    "--reference-hands": ("0", "1", "-1"),
    "--rounds": ("1", "0", "x"),
    "--min-time": ("0", "0.0", "x", "-1"),
}
SWITCHES = ("--match", "--quiet", "--json", "--overwrite", "--append", "--no-partner-tribute", "--partner-tribute",
            "--return-level-rank", "--no-return-level-rank", "--double-tribute-by-rank", "--reaching-a-wins",
            "--version", "--help", "--bogus")
COMMANDS: dict[str, tuple[str, ...]] = {
    "play": ("--seed", "--deals", "--agents", "--human", "--rules", "--fail-at-a", "--fail-at-a-level", "--deal-cap", "--first-leader"),
    "arena": ("--matches", "--seed", "--workers", "--ray", "--rules", "--deal-cap", "--fail-at-a"),
    "selfplay": ("--agent", "--deals", "--shard-size", "--encoding", "--seed", "--workers", "--ray", "--rules", "--fail-at-a"),
    "bench": ("--hands", "--reference-hands", "--rounds", "--min-time", "--seed"),
}
#: Options every run of a command gets, so that none runs long (later values override them).
BOUNDS: dict[str, list[str]] = {
    "play": ["--deals", "1"],
    "arena": ["random", "random", "--matches", "2", "--workers", "1", "--deal-cap", "1", "--quiet"],
    "selfplay": ["--deals", "1", "--workers", "1", "--quiet"],
    "bench": ["--hands", "2", "--reference-hands", "1", "--rounds", "1", "--min-time", "0", "--quiet"],
}
#: Values that would make a run long, never drawn.
SLOW = {("--deals", "2"), ("--matches", "4")}


def random_argv(rng: random.Random, command: str, out: Path) -> list[str]:
    argv = [command, *BOUNDS[command]]
    if command == "selfplay":
        argv += ["--out", str(rng.choice([out / "new", out / "used", out / "file", out / "file" / "sub", out]))]
    for _ in range(rng.randrange(5)):
        if rng.random() < 0.75:
            option = rng.choice(COMMANDS[command])
            value = rng.choice(OPTION_VALUES[option])
            if (option, value) not in SLOW or command == "selfplay":
                argv += [option, value] if rng.random() < 0.9 else [option]  # sometimes the value is missing
        else:
            argv.append(rng.choice(SWITCHES))
    if command == "arena" and rng.random() < 0.2:
        argv[1:3] = [rng.choice(OPTION_VALUES["--agent"]), rng.choice(OPTION_VALUES["--agents"])]
    if "--match" in argv and command == "play":
        argv += ["--deal-cap", "1"]
    return argv


def fuzz_command_line(seed: int, runs: int = 80) -> None:
    from guandan_fast.cli import main

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        (out / "file").write_text("not a folder")
        (out / "used").mkdir()
        (out / "used" / "notes.txt").write_text("taken")
        runs_argv = [[], ["--version"], ["--bogus"], ["nothing"]] + [
            random_argv(rng, rng.choice(list(COMMANDS)), out) for _ in range(runs)
        ]
        for argv in runs_argv:
            stdin = "".join(rng.choice(["0\n", "q\n", "?\n", "pair\n", "S3 S3\n", "\x00\n", "9" * 50 + "\n", "\n"])
                            for _ in range(rng.randrange(400)))
            stdout, stderr = io.StringIO(), io.StringIO()
            sys.stdin = io.StringIO(stdin)
            try:
                with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
                    code = main(argv)
            except SystemExit as stop:  # argparse: --help, --version, a usage error
                code = stop.code
                assert code in (0, 2), f"{argv}: exit {code}"
            except Exception as error:  # the fault looked for
                raise AssertionError(f"guandan-fast {' '.join(argv)}: {type(error).__name__}: {error}") from error
            finally:
                sys.stdin = sys.__stdin__
            assert code in (0, 1, 2, 130), f"{argv}: returned {code!r}"
            assert "Traceback" not in stderr.getvalue(), f"{argv}: {stderr.getvalue()}"
            if code == 2 and not stderr.getvalue().startswith("usage:"):
                assert "guandan-fast: error:" in stderr.getvalue() or "error:" in stderr.getvalue(), argv


# -- each campaign in a child process (tests/fuzzing.py) ---------------------------------------------
def _campaign(fuzz: Callable[[int], None]) -> Callable[[int], list[str]]:
    """A fuzz that raises AssertionError on a fault as a campaign that lists its problems."""

    def campaign(seed: int) -> list[str]:
        try:
            fuzz(seed)
        except AssertionError as error:
            return [str(error)]
        return []

    return campaign


CAMPAIGNS = {
    "pettingzoo": _campaign(fuzz_pettingzoo),
    "gymnasium": _campaign(fuzz_gymnasium),
    "command_line": _campaign(fuzz_command_line),
}


@pytest.mark.parametrize("seed", [1, 2])
def test_fuzz_the_pettingzoo_env(seed: int) -> None:
    pytest.importorskip("pettingzoo")
    assert run_isolated("test_fuzz_envs.py", "pettingzoo", seed) == []


@pytest.mark.parametrize("seed", [1, 2])
def test_fuzz_the_gymnasium_env(seed: int) -> None:
    pytest.importorskip("gymnasium")
    assert run_isolated("test_fuzz_envs.py", "gymnasium", seed) == []


def test_fuzz_the_command_line() -> None:
    assert run_isolated("test_fuzz_envs.py", "command_line", 3) == []


if __name__ == "__main__":
    main(CAMPAIGNS)
