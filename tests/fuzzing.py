"""What the fuzz tests share: hostile values, a record of the calls that misbehaved, and
a way to run a fuzz campaign in a child process, so that a native crash (a segfault, an
abort) fails the test with its signal instead of ending the test run.

A campaign is a function ``campaign(seed) -> list[str]`` in a test module; the module runs
it when executed as ``python MODULE CAMPAIGN SEED`` (:func:`main`) and prints the problems
as one JSON line; :func:`run_isolated` starts that and returns them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

TESTS = Path(__file__).resolve().parent


class Liar:
    """An object whose ``__index__``, ``__len__``, ``__iter__`` and ``__eq__`` raise."""

    def __index__(self) -> int:
        raise RuntimeError("Liar.__index__")

    def __len__(self) -> int:
        raise RuntimeError("Liar.__len__")

    def __iter__(self) -> Any:
        raise RuntimeError("Liar.__iter__")


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def _cyclic() -> list[Any]:
    loop: list[Any] = []
    loop.append(loop)
    return loop


#: Values no argument expects: every test of "bad input" draws from these.
GARBAGE: tuple[Any, ...] = (
    None, True, False, 0, -1, 4, 99, 2**31, 2**63, 2**64, 2**70, -(2**70), 1.5, float("nan"), float("inf"),
    "", "x", "0", "S3", b"\x00", [], (), [1], [1, 2, 3], [[1, 2]], ["PASS"], {}, {"a": 1}, set(), object(),
    np.int64(2), np.uint8(200), np.float32(1.0), np.array([1, 2]), np.zeros((2, 2)), nested(50), _cyclic(), Liar(),
    range(3), (x for x in range(3)),
)


class Problems:
    """The calls that did something other than what was allowed, one line each."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def call(self, what: str, function: Callable[..., Any], *args: Any, valid: bool = False, **kwargs: Any) -> Any:
        """``function(*args, **kwargs)``; a problem when it raises anything but TypeError or
        ValueError (or anything at all when the input was ``valid``)."""
        try:
            return function(*args, **kwargs)
        except (TypeError, ValueError) as error:
            if valid:
                self.lines.append(f"{what}: valid input refused: {type(error).__name__}: {error}")
        except Exception as error:  # noqa: BLE001 - the point: anything else is a finding
            if "Liar." not in str(error):  # a hostile object's own error may pass through
                self.lines.append(f"{what}: {type(error).__name__}: {str(error)[:200]}")
        return None


def installed_root() -> str:
    """The folder holding the guandan_fast this test process imports: a child process given it
    on PYTHONPATH runs the same build (src/ holds no compiled modules after a non-editable
    install, as in CI)."""
    spec = importlib.util.find_spec("guandan_fast")
    assert spec is not None and spec.origin is not None
    return str(Path(spec.origin).resolve().parents[1])


def run_isolated(module: str, campaign: str, seed: int, timeout: float = 120.0) -> list[str]:
    """Run ``campaign`` of test module ``module`` (a file name in tests/) with ``seed`` in a
    child process; its problems. A crash or a hang fails with what the child printed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), installed_root(), os.environ.get("PYTHONPATH", "")]),
           "PYTHONFAULTHANDLER": "1"}
    done = subprocess.run(
        [sys.executable, str(TESTS / module), campaign, str(seed)], capture_output=True, text=True, timeout=timeout,
        env=env, check=False, stdin=subprocess.DEVNULL,  # a command that reads a person's input reads EOF, never waits
    )
    if done.returncode != 0:
        raise AssertionError(f"the {campaign} fuzz (seed {seed}) died with code {done.returncode}:\n{done.stderr[-3000:]}")
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr[-3000:]
    return list(json.loads(lines[-1]))


def main(campaigns: dict[str, Callable[[int], Iterable[str]]]) -> None:
    """``python MODULE CAMPAIGN SEED``: run one campaign, print its problems as JSON."""
    name, seed = sys.argv[1], int(sys.argv[2])
    print(json.dumps(list(campaigns[name](seed))))
