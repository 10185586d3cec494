"""``guandan-fast selfplay``: write self-play decisions as shards for learners."""

from __future__ import annotations

import argparse
import sys

from ._args import add_run_options, positive
from .rules import add_rules_options, rules_from_args


def run(args: argparse.Namespace) -> int:
    from ..arena import generate_selfplay

    if_exists = "replace" if args.overwrite else "append" if args.append else "fail"
    try:
        paths = generate_selfplay(
            args.agent, args.deals, args.out, args.seed, shard_size=args.shard_size, workers=args.workers,
            ray_address=args.ray, encoding=args.encoding, rules=rules_from_args(args), if_exists=if_exists,
            progress=not args.quiet,
        )
    except KeyboardInterrupt:
        print("interrupted: the shards written so far are complete", file=sys.stderr)
        return 130
    print(f"{len(paths)} shards of {args.deals} deals in {args.out}: {paths[0].name} .. {paths[-1].name}")
    return 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    selfplay = commands.add_parser(
        "selfplay", help="write self-play decisions as sharded .npz files for learners (docs/training.md)"
    )
    selfplay.add_argument("--agent", default="random", help="the agent in all four seats (default random)")
    selfplay.add_argument("--deals", type=positive, required=True, help="deals to play")
    selfplay.add_argument("--out", required=True, help="a new or empty folder for the shard-NNNNN.npz files")
    existing = selfplay.add_mutually_exclusive_group()
    existing.add_argument("--overwrite", action="store_true", help="replace the shards already in --out")
    existing.add_argument(
        "--append", action="store_true", help="add shards after those in --out (same encoding, another seed)"
    )
    selfplay.add_argument("--shard-size", type=positive, default=100, help="deals per shard (default 100)")
    selfplay.add_argument(
        "--encoding", default=None, help="state encoding: counts or an encode layout (default: danzero)"
    )
    add_run_options(selfplay)
    add_rules_options(selfplay)
    selfplay.set_defaults(run=run)
