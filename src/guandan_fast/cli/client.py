"""``guandan-fast client``: play one seat on an OpenGuanDan (or legacy) platform server."""

from __future__ import annotations

import argparse
import json
import sys

from ..platform.protocols import PROTOCOLS
from ._args import non_negative, positive


def run(args: argparse.Namespace) -> int:
    import logging

    from ..agents import make_agent, parse_agent_spec
    from ..platform.client import PlatformError, play_sync

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")
    name, options = parse_agent_spec(args.agent)
    try:
        result = play_sync(
            args.url, make_agent(name, **options), create_room=args.create_room, join=args.join, seat=args.seat,
            user=args.user, log_file=args.log, protocol=args.protocol,
        )
    except PlatformError:  # already logged, one line naming what happened
        return 1
    except KeyboardInterrupt:
        print("guandan-fast client: interrupted", file=sys.stderr)
        return 130
    mirror = result.mirror
    departures = ", ".join(f"{kind} {count}" for kind, count in sorted(mirror.departures.items())) or "none"
    print(f"seat {result.seat}, room {result.room}: {len(mirror.finish_orders)} deals, {result.answered} answers")
    if result.unmatched or result.unfollowed or mirror.resyncs:
        print(
            f"answers not the agent's own choice: {result.unmatched}; while the mirror could not follow: "
            f"{result.unfollowed}; deals rebuilt from a request: {mirror.resyncs}"
        )
    print(f"final: {json.dumps(result.final, ensure_ascii=False)}")
    print(f"server departures from RULES.md: {departures}")
    return 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    client = commands.add_parser("client", help="play one seat on an OpenGuanDan (or legacy) platform server")
    client.add_argument("--url", default="ws://127.0.0.1:8181", help="the server (default ws://127.0.0.1:8181)")
    client.add_argument("--agent", default="random", help="random, minplays, pimc or search, options as NAME:key=value,...")
    room = client.add_mutually_exclusive_group()
    room.add_argument("--create-room", type=positive, metavar="ROUNDS", help="create a room for ROUNDS games")
    room.add_argument("--join", type=non_negative, metavar="ROOM", help="join room ROOM")
    client.add_argument("--seat", type=int, choices=range(4), default=None, help="seat 0-3 (default 0)")
    client.add_argument("--user", default=None, help="user id sent to the server (default guandan_fast-SEAT)")
    client.add_argument("--log", default=None, metavar="FILE", help="write every message as JSON lines to FILE")
    client.add_argument("--protocol", choices=PROTOCOLS, default="openguandan")
    client.add_argument("--verbose", action="store_true", help="log every server departure from RULES.md")
    client.set_defaults(run=run)
