"""Argument types and option groups shared by several subcommands."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text}")
    return value


def non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, not {text}")
    return value


def port(text: str) -> int:
    """A TCP port, 0-65535 (0: any free port). (argparse names a bad value by this name.)"""
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port 0-65535, not {text}")
    return value


def _finite_seconds(text: str, *, zero: bool) -> float:
    value = float(text)
    if not (0 <= value if zero else 0 < value) or value == float("inf"):  # NaN fails both
        wanted = "a number of seconds >= 0" if zero else "a positive number of seconds"
        raise argparse.ArgumentTypeError(f"expected {wanted}, not {text}")
    return value


def seconds(text: str) -> float:
    """A positive, finite number of seconds. (argparse names a bad value by this name.)"""
    return _finite_seconds(text, zero=False)


def seconds_or_zero(text: str) -> float:
    """A finite number of seconds, 0 or more. (argparse names a bad value by this name.)"""
    return _finite_seconds(text, zero=True)


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Where the arena and self-play run, and their seed."""
    parser.add_argument("--workers", type=positive, default=None, help="local worker processes (default: one per CPU)")
    parser.add_argument("--ray", default=None, metavar="ADDRESS", help="run on Ray: local, auto or host:port")
    parser.add_argument("--seed", type=int, default=0, help="seed of the cards and the agents (default 0)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def help_runner(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """A ``run`` that prints ``parser``'s help: what a bare command (or a bare group of
    subcommands) does."""

    def print_help(args: argparse.Namespace) -> int:
        parser.print_help()
        return 0

    return print_help
