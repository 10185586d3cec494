"""``guandan-fast selfplay``: write self-play decisions as shards for learners."""

from __future__ import annotations

import argparse
import sys

from ._args import add_run_options, positive


def run(args: argparse.Namespace) -> int:
    from ..arena import generate_selfplay

    try:
        paths = generate_selfplay(
            args.agent, args.deals, args.out, args.seed, shard_size=args.shard_size,
            workers=args.workers, ray_address=args.ray, encoding=args.encoding, progress=not args.quiet,
        )
    except KeyboardInterrupt:
        print("interrupted: the shards written so far are complete", file=sys.stderr)
        return 130
    print(f"{len(paths)} shards of {args.deals} deals in {args.out}")
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    selfplay = commands.add_parser("selfplay", help="write self-play decisions as sharded .npz files for learners")
    selfplay.add_argument("--agent", default="random", help="the agent in all four seats (default random)")
    selfplay.add_argument("--deals", type=positive, required=True, help="deals to play")
    selfplay.add_argument("--out", required=True, help="directory of the shard-NNNNN.npz files")
    selfplay.add_argument("--shard-size", type=positive, default=100, help="deals per shard (default 100)")
    selfplay.add_argument("--encoding", default=None, help="state encoding: counts or an encode layout (default: danzero if available)")
    add_run_options(selfplay)
    selfplay.set_defaults(run=run)
