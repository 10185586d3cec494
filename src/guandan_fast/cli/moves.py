"""``guandan-fast moves``: list every legal move of a hand."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..engine.api import legal_moves
from ..engine.cards import parse_level
from ..engine.hand import Hand
from ..engine.moves import MoveType


def run(args: argparse.Namespace) -> int:
    hand = Hand.parse(args.hand)
    level = parse_level(args.level)
    last = _json_argument(args.last, "--last") if args.last else None
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


def _json_argument(text: str, name: str) -> Any:
    """The JSON value of an argument, any JSON (json.loads' Any): the call it goes to checks it."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{name} is nested too deeply to be a platform triple") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{name} is not JSON ({error}): {text[:80]!r}") from None


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    moves = commands.add_parser("moves", help="list every legal move of a hand")
    moves.add_argument("hand", help='cards in platform notation, e.g. "S3 S4 S5 S6 H2"')
    moves.add_argument("--level", default="2", help="level rank 2..A (default 2)")
    moves.add_argument("--last", help='the move to beat, a JSON platform triple, e.g. \'["Pair","7",["S7","D7"]]\'')
    moves.add_argument("--strongest", action="store_true", help="one reading per (type, cards)")
    moves.add_argument("--json", action="store_true", help="print one JSON platform triple per line")
    moves.add_argument("--backend", choices=["native", "reference"], help="default: native when built")
    moves.set_defaults(run=run)
