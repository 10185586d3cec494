"""The ``guandan-fast`` command line: ``moves`` (list a hand's legal moves), and more."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from .engine.api import legal_moves
from .engine.cards import parse_level
from .engine.hand import Hand
from .engine.moves import MoveType
from .platform.protocols import PROTOCOLS


def _moves_command(args: argparse.Namespace) -> int:
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


def _json_argument(text: str, name: str) -> object:
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError(f"{name} is nested too deeply to be a platform triple") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{name} is not JSON ({error}): {text[:80]!r}") from None


def _bench_workload() -> ModuleType:
    """The benchmark workload, ``benchmarks/workload.py`` of a source checkout (the current
    directory's, else the one this package was installed from in editable mode): it is not
    shipped in the wheel, and is imported only when ``bench`` runs."""
    for root in (Path.cwd(), Path(__file__).resolve().parents[2]):
        folder = root / "benchmarks"
        if (folder / "workload.py").is_file():
            if str(folder) not in sys.path:
                sys.path.insert(0, str(folder))
            return importlib.import_module("workload")
    raise SystemExit(
        "guandan-fast bench runs the benchmark workload of a source checkout (benchmarks/workload.py): "
        "run it from a clone of the repository"
    )


def _bench_command(args: argparse.Namespace) -> int:
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


def _add_bench_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    bench = commands.add_parser(
        "bench", help="time the native core against the reference on a fixed set of random hands"
    )
    bench.add_argument("--hands", type=_positive, help="hands (default 1000)")
    bench.add_argument("--seed", type=int, help="deal seed (default 20240503)")
    bench.add_argument(
        "--reference-hands",
        type=_non_negative,
        help="hands timed on the slow reference, the first of the same deal (default 40; 0: skip)",
    )
    bench.add_argument("--rounds", type=_positive, default=3, help="timed reference passes per case (default 3)")
    bench.add_argument("--min-time", type=float, default=0.3, help="seconds of native passes per case (default 0.3)")
    bench.add_argument("--json", action="store_true", help="print one JSON document instead of the table")
    bench.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    bench.set_defaults(run=_bench_command)


def _play_command(args: argparse.Namespace) -> int:
    from .platform.playlog import play_log
    from .engine.rules import Rules

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


def _arena_command(args: argparse.Namespace) -> int:
    from .arena import play_matches
    from .engine.rules import Rules

    result = play_matches(
        args.agent_a, args.agent_b, args.matches, args.seed, workers=args.workers, ray_address=args.ray,
        rules=None if args.deal_cap is None else Rules(deal_cap=args.deal_cap), progress=not args.quiet,
    )
    print(json.dumps(result.summary()) if args.json else result.format())
    return 130 if result.interrupted else 0


def _add_arena_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    arena = commands.add_parser(
        "arena", help="seat-swapped matches between two agents: win rate with a 95%% CI, level points per deal"
    )
    arena.add_argument("agent_a", metavar="AGENT_A", help="random, minplays or pimc, options as NAME:key=value,...")
    arena.add_argument("agent_b", metavar="AGENT_B", help="the opponent, written the same way")
    arena.add_argument("--matches", type=_positive, default=100, help="matches, an even number (default 100)")
    arena.add_argument(
        "--deal-cap", type=_positive, default=None, metavar="N",
        help="end each match after N deals, the higher level winning (1: every match is one deal)",
    )
    _add_run_options(arena)
    arena.add_argument("--json", action="store_true", help="print the summary as one JSON document")
    arena.set_defaults(run=_arena_command)


def _selfplay_command(args: argparse.Namespace) -> int:
    from .arena import generate_selfplay

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


def _add_selfplay_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    selfplay = commands.add_parser("selfplay", help="write self-play decisions as sharded .npz files for learners")
    selfplay.add_argument("--agent", default="random", help="the agent in all four seats (default random)")
    selfplay.add_argument("--deals", type=_positive, required=True, help="deals to play")
    selfplay.add_argument("--out", required=True, help="directory of the shard-NNNNN.npz files")
    selfplay.add_argument("--shard-size", type=_positive, default=100, help="deals per shard (default 100)")
    selfplay.add_argument("--encoding", default=None, help="state encoding: counts or an encode layout (default: danzero if available)")
    _add_run_options(selfplay)
    selfplay.set_defaults(run=_selfplay_command)


def _client_command(args: argparse.Namespace) -> int:
    import logging

    from .agents import make_agent, parse_agent_spec
    from .platform.client import PlatformError, play_sync

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


def _add_client_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    client = commands.add_parser("client", help="play one seat on an OpenGuanDan (or legacy) platform server")
    client.add_argument("--url", default="ws://127.0.0.1:8181", help="the server (default ws://127.0.0.1:8181)")
    client.add_argument("--agent", default="random", help="random, minplays or pimc, options as NAME:key=value,...")
    room = client.add_mutually_exclusive_group()
    room.add_argument("--create-room", type=_positive, metavar="ROUNDS", help="create a room for ROUNDS games")
    room.add_argument("--join", type=_non_negative, metavar="ROOM", help="join room ROOM")
    client.add_argument("--seat", type=int, choices=range(4), default=None, help="seat 0-3 (default 0)")
    client.add_argument("--user", default=None, help="user id sent to the server (default guandan_fast-SEAT)")
    client.add_argument("--log", default=None, metavar="FILE", help="write every message as JSON lines to FILE")
    client.add_argument("--protocol", choices=PROTOCOLS, default="openguandan")
    client.add_argument("--verbose", action="store_true", help="log every server departure from RULES.md")
    client.set_defaults(run=_client_command)


def _server_command(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from .platform.server import PracticeServer

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


def _add_server_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    server = commands.add_parser(
        "server", help="a practice OpenGuanDan server on guandan_fast's engine: test a bot without Java"
    )
    server.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    server.add_argument("--port", type=_port, default=8181, help="port (default 8181; 0: any free port)")
    server.add_argument("--seed", type=int, default=None, help="seed of the cards (default: random)")
    server.add_argument("--max-deals", type=_positive, default=None, metavar="N", help="end each game after N deals")
    server.add_argument(
        "--answer-timeout", type=_seconds, default=120.0, metavar="SECONDS",
        help="stop a room whose seat does not answer within SECONDS (default 120)",
    )
    server.add_argument("--verbose", action="store_true", help="log every connection (websockets' own log)")
    server.set_defaults(run=_server_command)


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    """Where the arena and self-play run, and their seed."""
    parser.add_argument("--workers", type=_positive, default=None, help="local worker processes (default: one per CPU)")
    parser.add_argument("--ray", default=None, metavar="ADDRESS", help="run on Ray: local, auto or host:port")
    parser.add_argument("--seed", type=int, default=0, help="seed of the cards and the agents (default 0)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text}")
    return value


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port 0-65535, not {text}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text}")
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
    _add_arena_parser(commands)
    _add_selfplay_parser(commands)
    _add_client_parser(commands)
    _add_server_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except BrokenPipeError:  # the reader went away (``| head``): stop quietly (before ConnectionError, its base)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except (ValueError, TypeError, ConnectionError, ImportError, json.JSONDecodeError) as error:
        print(f"guandan-fast: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
