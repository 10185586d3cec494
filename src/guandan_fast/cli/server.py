"""``guandan-fast server``: a practice OpenGuanDan server on the engine."""

from __future__ import annotations

import argparse
import sys

from ._args import port, positive, seconds


def run(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from ..platform.server import PracticeServer

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    logging.getLogger("websockets").setLevel(logging.INFO if args.verbose else logging.WARNING)
    server = PracticeServer(
        args.host, args.port, seed=args.seed, max_deals=args.max_deals, answer_timeout=args.answer_timeout,
    )

    async def serve() -> None:
        await server.start()
        print(f"guandan-fast server: listening on {server.url} (Ctrl-C stops it)", flush=True)
        await server.serve_forever()

    try:
        asyncio.run(serve())
    except OSError as error:
        print(f"guandan-fast server: cannot listen on {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"guandan-fast server: stopped after {server.games_played} games", file=sys.stderr)
        return 130
    return 0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    server = commands.add_parser(
        "server", help="a practice OpenGuanDan server on guandan_fast's engine: test a bot without Java"
    )
    server.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    server.add_argument("--port", type=port, default=8181, help="port (default 8181; 0: any free port)")
    server.add_argument("--seed", type=int, default=None, help="seed of the cards (default: random)")
    server.add_argument("--max-deals", type=positive, default=None, metavar="N", help="end each game after N deals")
    server.add_argument(
        "--answer-timeout", type=seconds, default=120.0, metavar="SECONDS",
        help="stop a room whose seat does not answer within SECONDS (default 120)",
    )
    server.add_argument("--verbose", action="store_true", help="log every connection (websockets' own log)")
    server.set_defaults(run=run)
