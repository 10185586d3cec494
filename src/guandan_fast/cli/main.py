"""The ``guandan-fast`` command line: ``moves`` (list a hand's legal moves), and more.

Each subcommand is a module of this package with ``add_parser(commands)`` and ``run(args)``;
add a new one to ``SUBCOMMANDS``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from . import arena, bench, client, moves, play, selfplay

SUBCOMMANDS = (moves, bench, play, arena, selfplay, client)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="guandan-fast", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for module in SUBCOMMANDS:
        module.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly (before ConnectionError, its base)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (ValueError, TypeError, ConnectionError, ImportError, json.JSONDecodeError) as error:
        print(f"guandan-fast: error: {error}", file=sys.stderr)
        return 2
