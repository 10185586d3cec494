"""``guandan-fast arena``: seat-swapped matches between two agents."""

from __future__ import annotations

import argparse

from . import _json
from ._args import add_run_options, positive
from .rules import add_rules_options, rules_from_args


def run(args: argparse.Namespace) -> int:
    from ..arena import play_matches

    result = play_matches(
        args.agent_a, args.agent_b, args.matches, args.seed, workers=args.workers, ray_address=args.ray,
        rules=rules_from_args(args), progress=not args.quiet,
    )
    print(_json.dumps(result.summary()) if args.json else result.format())
    return 130 if result.interrupted else 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    arena = commands.add_parser(
        "arena", help="seat-swapped matches between two agents: win rate with a 95%% CI, level points per deal"
    )
    arena.add_argument("agent_a", metavar="AGENT_A", help="random, minplays, pimc or search, options as NAME:key=value,...")
    arena.add_argument("agent_b", metavar="AGENT_B", help="the opponent, written the same way")
    arena.add_argument("--matches", type=positive, default=100, help="matches, an even number (default 100)")
    add_run_options(arena)
    arena.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    add_rules_options(arena)
    arena.set_defaults(run=run)
