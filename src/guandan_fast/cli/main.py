"""The ``guandan-fast`` command line: legal moves, games, agents' matches, self-play data,
the competition platform and benchmarks.

Each subcommand is a module of this package with ``add_parser(commands)`` and ``run(args)``;
add a new one to ``SUBCOMMANDS``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .. import __version__
from . import arena, bench, client, compare, moves, play, selfplay, server, solve
from ._args import help_runner

SUBCOMMANDS = (moves, solve, play, arena, compare, selfplay, client, server, bench)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="guandan-fast", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"guandan-fast {__version__}")
    parser.set_defaults(run=help_runner(parser))  # a bare command prints its help
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in SUBCOMMANDS:
        module.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly (before OSError, its base)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (ValueError, TypeError, OSError, ImportError) as error:  # OSError: files, sockets (ConnectionError)
        print(f"guandan-fast: error: {error}", file=sys.stderr)
        return 2
