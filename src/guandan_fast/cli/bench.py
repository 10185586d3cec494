"""``guandan-fast bench``: time the native core against the reference."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

from ._args import non_negative, positive, seconds_or_zero


def _bench_workload() -> ModuleType:
    """The benchmark workload, ``benchmarks/workload.py`` of a source checkout (the current
    directory's, else the one this package was installed from in editable mode): it is not
    shipped in the wheel, and is imported only when ``bench`` runs."""
    for root in (Path.cwd(), Path(__file__).resolve().parents[3]):
        folder = root / "benchmarks"
        if (folder / "workload.py").is_file():
            if str(folder) not in sys.path:
                sys.path.insert(0, str(folder))
            return importlib.import_module("workload")
    raise SystemExit(
        "guandan-fast bench runs the benchmark workload of a source checkout (benchmarks/workload.py): "
        "run it from a clone of the repository"
    )


#: The most hands ``bench`` deals: the case that keeps every hand's list holds about 14 kB of
#: moves a hand (760 moves of 18 bytes a dealt hand), so 100,000 hands hold about 1.4 GB; more
#: would exhaust the memory of many machines.
MOST_HANDS = 100_000


def hand_count(text: str) -> int:
    """A number of hands, 1..MOST_HANDS. (argparse names a bad value by this name.)"""
    value = positive(text)
    if value > MOST_HANDS:
        raise argparse.ArgumentTypeError(f"expected at most {MOST_HANDS:,} hands, not {text}")
    return value


def run(args: argparse.Namespace) -> int:
    bench = _bench_workload()
    comparison = bench.compare(
        bench.DEFAULT_HANDS if args.hands is None else args.hands,
        bench.DEFAULT_SEED if args.seed is None else args.seed,
        reference_hands=bench.DEFAULT_REFERENCE_HANDS if args.reference_hands is None else args.reference_hands,
        reference_rounds=args.rounds,
        min_time=args.min_time,
        show_progress=not args.quiet,
    )
    if args.json:
        print(json.dumps(bench.comparison_json(comparison), indent=2))
    else:
        print(bench.format_table(comparison))
    return 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bench = commands.add_parser(
        "bench", help="time the native core against the reference on a fixed set of random hands"
    )
    bench.add_argument("--hands", type=hand_count, help="dealt hands (default 1000; at most 100,000; the endgame case, at most 1,000 hands of endgames)")
    bench.add_argument("--seed", type=int, help="deal seed (default 20240503)")
    bench.add_argument(
        "--reference-hands",
        type=non_negative,
        help="hands timed on the slow reference, the first of the same deal (default 40; 0: skip)",
    )
    bench.add_argument("--rounds", type=positive, default=3, help="timed reference passes per case (default 3)")
    bench.add_argument("--min-time", type=seconds_or_zero, default=0.3, help="seconds of native passes per case (default 0.3)")
    bench.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    bench.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    bench.set_defaults(run=run)
