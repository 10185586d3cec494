"""``guandan-fast solve``: the exact value of a position with all four hands known, each
action's value and a principal line (:func:`guandan_fast.solve`)."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from ..engine.cards import check_seat, parse_level
from ..engine.deal import Deal
from ..engine.hand import Hand
from ..engine.moves import Move, MoveType
from ..search.solve import MAX_TIME_MS, OBJECTIVES, Solution, check_milliseconds, solve
from ._args import positive
from .moves import _json_argument


def position(
    hands: list[str], level: str, to_act: int, last: object = None, last_seat: int | None = None, finished: list[int] | None = None
) -> Deal:
    """The position as a Deal: the hands (an empty one for a seat out), the seats out in
    order, and, when following, the move to beat played by ``last_seat`` (from its hand
    and those cards) and passed by every seat between it and ``to_act``."""
    if len(hands) != 4:
        raise ValueError(f"a position has four hands (seats 0-3), not {len(hands)}")
    to_act = check_seat(to_act, "--to-act")
    out = list(finished or [])
    if last is None:
        if last_seat is not None:
            raise ValueError("--last-seat needs --last (the move it made)")
        return Deal.start(hands, level, leader=to_act, finished=out or None)
    if last_seat is None:
        raise ValueError("--last needs --last-seat (the seat that made it)")
    last_seat = check_seat(last_seat, "--last-seat")
    if last_seat == to_act:
        raise ValueError("the seat to act cannot follow its own move: --last-seat must be another seat")
    move = Move.from_platform(last, parse_level(level))
    if move.kind is MoveType.PASS:
        raise ValueError("--last must be the move to beat (a play of cards), not a pass")
    start = list(hands)
    start[last_seat] = str(Hand.parse(hands[last_seat]).add(move))
    deal = Deal.start(start, level, leader=last_seat, finished=out or None)
    deal.step(move)
    while not deal.done and deal.current_seat != to_act:
        if not deal.following:
            raise ValueError(f"seat {to_act} cannot follow seat {last_seat}'s move: the trick ends before its turn")
        deal.step(["PASS", "PASS", "PASS"])
    if deal.done:
        raise ValueError(f"the deal is over once seat {last_seat} makes that move")
    return deal


def milliseconds(text: str) -> float:
    """A time limit in milliseconds: a number > 0 (a fraction too, as :func:`solve` takes
    it), at most :data:`~guandan_fast.search.solve.MAX_TIME_MS`. (argparse names a bad value
    by this name.)"""
    try:
        return check_milliseconds(float(text))
    except ValueError:  # float()'s and the range's: argparse's words, as for any bad value
        raise argparse.ArgumentTypeError(
            f"expected a positive number of milliseconds (at most {MAX_TIME_MS}), not {text}"
        ) from None


def _seat(text: str, what: str) -> int:
    try:
        return check_seat(int(text), what)
    except ValueError:
        raise ValueError(f"{what} lists seats 0-3 separated by commas, not {text!r}") from None


def _shown(action: Any) -> str:
    kind, rank, cards = action
    return "PASS" if kind == "PASS" else f"{kind} {rank}: {' '.join(cards)}"


def _value(lower: int, upper: int) -> str:
    return f"{lower:+d}" if lower == upper else f"[{lower:+d}, {upper:+d}]"


def report(deal: Deal, solution: Solution, seconds: float) -> list[str]:
    seat = solution.seat
    how = "following" if deal.following else "leading"
    lines = [
        f"seat {seat} to act at level {deal.level}, {how}; {solution.objective} for seats {seat % 2} and {seat % 2 + 2}",
        f"value {_value(solution.lower, solution.upper)} "
        + (
            f"(exact, {solution.nodes:,} nodes, {seconds * 1e3:.1f} ms)"
            if solution.exact
            else f"(bounds: stopped by {solution.stopped} after {solution.nodes:,} nodes)"
        ),
        f"{len(solution.actions)} actions:",
    ]
    best = solution.best
    for row, action in enumerate(solution.actions):
        mark = "*" if row == best else " "
        lines.append(f" {mark} {_value(solution.lowers[row], solution.uppers[row]):>8}  {_shown(action)}")
    if solution.line:
        lines.append("principal line:")
        lines.extend(f"  seat {acting}  {_shown(action)}" for acting, action in solution.line)
    return lines


def run(args: argparse.Namespace) -> int:
    last = None
    if args.last is not None:
        last = _json_argument(args.last, "--last")
        if last is None:  # JSON null: not "leading", which is said by leaving --last out
            raise ValueError("--last must be the move to beat, a platform triple, not null (leave it out to lead)")
    finished = [_seat(seat, "--finished") for seat in args.finished.split(",")] if args.finished else None
    deal = position(args.hands, args.level, args.to_act, last, args.last_seat, finished)
    start = time.perf_counter()
    solution = solve(deal, args.objective, max_nodes=args.max_nodes, time_ms=args.time_ms)
    seconds = time.perf_counter() - start
    if args.json:
        print(
            json.dumps(
                {
                    "objective": solution.objective,
                    "seat": solution.seat,
                    "value": solution.value,
                    "lower": solution.lower,
                    "upper": solution.upper,
                    "exact": solution.exact,
                    "nodes": solution.nodes,
                    "actions": [
                        {"action": list(action), "lower": low, "upper": high}
                        for action, low, high in zip(solution.actions, solution.lowers, solution.uppers)
                    ],
                    "line": [[acting, list(action)] for acting, action in solution.line],
                },
                ensure_ascii=False,
            )
        )
        return 0
    print("\n".join(report(deal, solution, seconds)))
    return 0


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = commands.add_parser(
        "solve",
        help="the exact value of a position with all four hands known",
        description="The exact value of a play-phase position with all four hands known, both teams playing "
        "perfectly, for the team of the seat to act: each action's value and a principal line.",
    )
    parser.add_argument("hands", nargs=4, metavar="HAND", help='the hands of seats 0-3, e.g. "S3 S4 H2" ("" for a seat out)')
    parser.add_argument("--level", default="2", help="level rank 2..A (default 2)")
    parser.add_argument("--to-act", type=int, default=0, metavar="SEAT", help="the seat to act (default 0)")
    parser.add_argument(
        "--last", metavar="TRIPLE", help='the move to beat, a JSON platform triple, e.g. \'["Pair","7",["S7","D7"]]\''
    )
    parser.add_argument("--last-seat", type=int, metavar="SEAT", help="the seat that made the move to beat")
    parser.add_argument("--finished", metavar="SEATS", help="the seats already out, first to last, e.g. 1,3")
    parser.add_argument("--objective", choices=OBJECTIVES, default="points", help="points (default) or first")
    parser.add_argument("--max-nodes", type=positive, help="stop after this many positions (then: bounds)")
    parser.add_argument(
        "--time-ms", type=milliseconds, help="stop after this many milliseconds, e.g. 0.5 (then: bounds)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)
