"""The ``guandan-fast`` command line: ``moves`` (list a hand's legal moves), and more."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from .api import legal_moves
from .cards import parse_level
from .hand import Hand
from .moves import MoveType


def _moves_command(args: argparse.Namespace) -> int:
    hand = Hand.parse(args.hand)
    level = parse_level(args.level)
    last = json.loads(args.last) if args.last else None
    moves = legal_moves(hand, level, last, strongest=args.strongest, backend=args.backend)
    if args.json:
        for triple in moves.to_platform():
            print(json.dumps(triple, ensure_ascii=False))
        return 0
    by_type: dict[str, list[str]] = {}
    for move in moves:
        name = "FourJokers" if move.kind is MoveType.FOUR_JOKERS else move.kind.platform_name
        by_type.setdefault(name, []).append(f"{move.rank}: {' '.join(move.cards)}")
    what = "following " + args.last if args.last else "leading"
    print(f"{len(moves)} moves for {len(hand)} cards at level {args.level.upper()}, {what}")
    for name, lines in by_type.items():
        print(f"{name} ({len(lines)})")
        for line in lines:
            print(f"  {line}")
    return 0


def _bench_command(args: argparse.Namespace) -> int:
    from . import bench

    comparison = bench.compare(
        args.hands,
        args.seed,
        reference_hands=args.reference_hands,
        reference_rounds=args.rounds,
        min_time=args.min_time,
        show_progress=not args.quiet,
    )
    if args.json:
        print(json.dumps(bench.comparison_json(comparison), indent=2))
    else:
        print(bench.format_table(comparison))
    return 0


def _add_bench_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from .bench import DEFAULT_HANDS, DEFAULT_REFERENCE_HANDS, DEFAULT_SEED

    bench = commands.add_parser(
        "bench", help="time the native core against the reference on a fixed set of random hands"
    )
    bench.add_argument("--hands", type=_positive, default=DEFAULT_HANDS, help=f"hands (default {DEFAULT_HANDS})")
    bench.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"deal seed (default {DEFAULT_SEED})")
    bench.add_argument(
        "--reference-hands",
        type=_non_negative,
        default=DEFAULT_REFERENCE_HANDS,
        help=f"hands timed on the slow reference, the first of the same deal (default {DEFAULT_REFERENCE_HANDS}; 0: skip)",
    )
    bench.add_argument("--rounds", type=_positive, default=3, help="timed reference passes per case (default 3)")
    bench.add_argument("--min-time", type=float, default=0.3, help="seconds of native passes per case (default 0.3)")
    bench.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    bench.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    bench.set_defaults(run=_bench_command)


def _play_command(args: argparse.Namespace) -> int:
    from .platform.playlog import play_log
    from .rules import Rules

    rules = Rules(
        fail_at_a_limit=args.fail_at_a, fail_at_a_level=args.fail_at_a_level,
        no_tribute_between_partners=args.no_partner_tribute,
    )
    for line in play_log(args.seed, deals=None if args.match else args.deals, rules=rules):
        print(line)
    return 0


def _add_play_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    play = commands.add_parser("play", help="play deals or a whole match by random legal actions and print the log")
    play.add_argument("--seed", type=int, default=None, help="seed of the cards and of the random players")
    length = play.add_mutually_exclusive_group()
    length.add_argument("--deals", type=_positive, default=1, help="number of deals to play (default 1)")
    length.add_argument("--match", action="store_true", help="play until a team wins the match")
    play.add_argument("--fail-at-a", type=_positive, default=None, metavar="N", help="option: N failures at A send a team back")
    play.add_argument("--fail-at-a-level", default="2", metavar="LEVEL", help="where --fail-at-a sends a team (default 2)")
    play.add_argument("--no-partner-tribute", action="store_true", help="option: no tribute between partners (1-4 finish)")
    play.set_defaults(run=_play_command)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text}")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, not {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="guandan-fast", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    moves = commands.add_parser("moves", help="list every legal move of a hand")
    moves.add_argument("hand", help='cards in platform notation, e.g. "S3 S4 S5 S6 H2"')
    moves.add_argument("--level", default="2", help="level rank 2..A (default 2)")
    moves.add_argument("--last", help='the move to beat, a JSON platform triple, e.g. \'["Pair","7",["S7","D7"]]\'')
    moves.add_argument("--strongest", action="store_true", help="one reading per (type, cards)")
    moves.add_argument("--json", action="store_true", help="print one JSON platform triple per line")
    moves.add_argument("--backend", choices=["native", "reference"], help="default: native when built")
    moves.set_defaults(run=_moves_command)
    _add_bench_parser(commands)
    _add_play_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (ValueError, TypeError, json.JSONDecodeError) as error:
        print(f"guandan-fast: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
