"""``guandan-fast play``: play deals or a whole match by agents and print the log; a person
may play one seat in the terminal (``--human SEAT``)."""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any

from ._args import positive
from .rules import add_rules_options, rules_from_args


def parse_seat_agents(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The agents of ``--agents``: one for every seat, two (seats 0 and 2, seats 1 and 3)
    or four, each ``NAME`` or ``NAME:key=value,...`` (an item with ``=`` and no ``:`` is an
    option of the agent before it)."""
    from ..agents import parse_agent_spec

    groups: list[list[str]] = []
    for item in (part.strip() for part in text.split(",")):
        if groups and "=" in item and ":" not in item:
            groups[-1].append(item)
        else:
            groups.append([item])
    specs = [parse_agent_spec(",".join(group)) for group in groups]
    if len(specs) not in (1, 2, 4):
        raise ValueError(f"--agents names 1, 2 or 4 agents, not {len(specs)}: {text!r}")
    return [specs[seat % len(specs)] for seat in range(4)]


def run(args: argparse.Namespace) -> int:
    from ..agents import Agent
    from ..arena.matches import build_agent, derive_seed
    from ..platform.playlog import play_log
    from .human import QuitGame, TerminalPlayer

    rules = rules_from_args(args)
    seed = secrets.randbits(32) if args.seed is None else args.seed  # shown in the log: a game can be replayed
    specs = parse_seat_agents(args.agents)
    agents: list[Agent] = [build_agent(spec, derive_seed("play agent", seed, seat)) for seat, spec in enumerate(specs)]
    if args.human is not None:
        if sys.stdin is None:  # started with its input closed (<&-)
            raise ValueError("--human reads your answers from the input, which is closed")
        agents[args.human] = TerminalPlayer(sys.stdin, sys.stdout)
    deals = None if args.match else (1 if args.deals is None else args.deals)
    try:
        for line in play_log(seed, deals=deals, rules=rules, agents=agents, viewer=args.human):
            print(line, flush=True)
    except QuitGame as stop:
        print(f"guandan-fast play: {stop}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("guandan-fast play: interrupted", file=sys.stderr)
        return 130
    return 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = commands.add_parser(
        "play", help="play deals or a whole match between agents (or you: --human SEAT) and print the log"
    )
    play.add_argument("--seed", type=int, default=None, help="seed of the cards and the agents (default: a new one, shown)")
    length = play.add_mutually_exclusive_group()
    # default None, not 1: argparse tells an exclusive flag given from its default by identity,
    # so "--deals 1 --match" would pass unnoticed
    length.add_argument("--deals", type=positive, default=None, help="number of deals to play (default 1)")
    length.add_argument("--match", action="store_true", help="play until a team wins the match")
    play.add_argument(
        "--agents", default="random", metavar="A,B,C,D",
        help="the agents of seats 0-3 (one for all four, or two: seats 0 and 2, seats 1 and 3), "
        "each random, minplays, pimc or search with options as NAME:key=value (default random)",
    )
    play.add_argument(
        "--human", type=int, choices=range(4), default=None, metavar="SEAT",
        help="you play seat SEAT (0-3) in the terminal; the log then shows only your hand",
    )
    add_rules_options(play)
    play.set_defaults(run=run)
