"""``guandan-fast compare``: is a candidate agent better than a baseline, on the same deals?"""

from __future__ import annotations

import argparse

from . import _json
from ._args import add_run_options, positive
from .rules import add_rules_options, rules_from_args


def run(args: argparse.Namespace) -> int:
    from ..arena.compare import compare_agents

    comparison = compare_agents(
        args.candidate, args.baseline, args.against, args.matches, args.seed, workers=args.workers,
        ray_address=args.ray, rules=rules_from_args(args), progress=not args.quiet,
    )
    print(_json.dumps(comparison.summary()) if args.json else comparison.format())
    return 130 if comparison.interrupted else 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    compare = commands.add_parser(
        "compare",
        help="a candidate and a baseline agent each play one opponent on the same deals: "
        "the difference per match pair with a 95%% CI",
    )
    compare.add_argument("candidate", metavar="CANDIDATE", help="the agent tried, as NAME:key=value,...")
    compare.add_argument("baseline", metavar="BASELINE", help="the agent it is measured against, written the same way")
    compare.add_argument("--against", required=True, metavar="OPPONENT", help="the opponent both play")
    compare.add_argument("--matches", type=positive, default=100, help="matches of each, an even number (default 100)")
    add_run_options(compare)
    compare.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    add_rules_options(compare)
    compare.set_defaults(run=run)
