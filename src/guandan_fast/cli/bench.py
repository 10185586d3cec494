"""``guandan-fast bench``: time the native core against the reference."""

from __future__ import annotations

import argparse
import json

from ._args import non_negative, positive


def run(args: argparse.Namespace) -> int:
    from .. import bench

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


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    from ..bench import DEFAULT_HANDS, DEFAULT_REFERENCE_HANDS, DEFAULT_SEED

    bench = commands.add_parser(
        "bench", help="time the native core against the reference on a fixed set of random hands"
    )
    bench.add_argument("--hands", type=positive, default=DEFAULT_HANDS, help=f"hands (default {DEFAULT_HANDS})")
    bench.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"deal seed (default {DEFAULT_SEED})")
    bench.add_argument(
        "--reference-hands",
        type=non_negative,
        default=DEFAULT_REFERENCE_HANDS,
        help=f"hands timed on the slow reference, the first of the same deal (default {DEFAULT_REFERENCE_HANDS}; 0: skip)",
    )
    bench.add_argument("--rounds", type=positive, default=3, help="timed reference passes per case (default 3)")
    bench.add_argument("--min-time", type=float, default=0.3, help="seconds of native passes per case (default 0.3)")
    bench.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    bench.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    bench.set_defaults(run=run)
