"""``guandan-fast play``: play deals or a whole match and print the log."""

from __future__ import annotations

import argparse

from ._args import positive


def run(args: argparse.Namespace) -> int:
    from ..platform.playlog import play_log
    from ..rules import Rules

    rules = Rules(
        fail_at_a_limit=args.fail_at_a, fail_at_a_level=args.fail_at_a_level,
        no_tribute_between_partners=args.no_partner_tribute,
    )
    for line in play_log(args.seed, deals=None if args.match else args.deals, rules=rules):
        print(line)
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    play = commands.add_parser("play", help="play deals or a whole match by random legal actions and print the log")
    play.add_argument("--seed", type=int, default=None, help="seed of the cards and of the random players")
    length = play.add_mutually_exclusive_group()
    length.add_argument("--deals", type=positive, default=1, help="number of deals to play (default 1)")
    length.add_argument("--match", action="store_true", help="play until a team wins the match")
    play.add_argument("--fail-at-a", type=positive, default=None, metavar="N", help="option: N failures at A send a team back")
    play.add_argument("--fail-at-a-level", default="2", metavar="LEVEL", help="where --fail-at-a sends a team (default 2)")
    play.add_argument("--no-partner-tribute", action="store_true", help="option: no tribute between partners (1-4 finish)")
    play.set_defaults(run=run)
