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
