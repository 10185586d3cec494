"""The practice server (``guandan-fast server``): whole games with four ``guandan-fast
client`` processes, and a bot's faults stopping the room with the reason."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

websockets = pytest.importorskip("websockets")

from fuzzing import installed_root
from platform_server import PlatformServer

from guandan_fast.agents import make_agent
from guandan_fast.engine.cards import parse_level
from guandan_fast.platform import ClientResult, PlatformError, play

LIMIT = 60.0
FAST = {"wake_after": 0.5, "idle_timeout": 5.0}
COMMAND = [sys.executable, "-m", "guandan_fast"]


def _environment() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": installed_root() + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_cli_server_plays_whole_games_with_four_client_processes(tmp_path: Path) -> None:
    """``guandan-fast server --port 0`` and four ``guandan-fast client`` processes: two
    whole games (each to a win at A) in one room, every answer an exact entry (the server
    would stop the room otherwise), then Ctrl-C stops the server."""
    env = _environment()
    server = subprocess.Popen(
        [*COMMAND, "server", "--port", "0", "--seed", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        assert "listening on ws://127.0.0.1:" in line, line
        url = line.split("listening on ")[1].split()[0]
        agents = ["random", "minplays", "random:seed=2", "minplays"]
        clients = []
        for seat, agent in enumerate(agents):
            room = ["--create-room", "2"] if seat == 0 else ["--join", "1"]
            log = tmp_path / f"seat{seat}.jsonl"
            clients.append(subprocess.Popen(
                [*COMMAND, "client", "--url", url, "--agent", agent, *room, "--seat", str(seat), "--log", str(log)],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            ))
            if seat == 0:
                _wait_for_room(url)
        outputs = [client.communicate(timeout=LIMIT) for client in clients]
        for client, (out, err) in zip(clients, outputs):
            assert client.returncode == 0, err
            assert '"stage": "gameResult"' in out, out
            departures = out.split("server departures from RULES.md: ")[1].split("\n")[0]
            # two equal tributes are paired by arrival order, which the processes' timing decides
            assert departures == "none" or set(re.findall(r"[a-z_]+", departures)) == {"tribute_tie_arrival_order"}, out
            assert "Traceback" not in err
        deals = {out.split(" deals,")[0].rsplit(" ", 1)[1] for out, _ in outputs}
        assert len(deals) == 1 and int(deals.pop()) >= 2
        levels = [json.loads(line) for line in (tmp_path / "seat0.jsonl").read_text().splitlines()]
        beginnings = [row["msg"]["levelCard"] for row in levels if row["msg"].get("stage") == "beginning"]
        assert beginnings.count("2") == 2  # two games, each from level 2
    finally:
        server.send_signal(signal.SIGINT)
        _, err = server.communicate(timeout=LIMIT)
    assert server.returncode == 130 and "stopped after 2 games" in err and "Traceback" not in err


def _wait_for_room(url: str) -> None:
    """Until the creator's room exists (a JOIN_ROOM before it would be refused)."""
    for _ in range(400):
        if asyncio.run(asyncio.wait_for(_room_exists(url), LIMIT)):
            return
        asyncio.run(asyncio.sleep(0.05))
    raise AssertionError("the first client never created its room")


async def _room_exists(url: str) -> bool:
    """Whether room 1 exists: a probe asking for its seat 0 (the creator's) is refused as taken."""
    async with websockets.connect(url) as link:
        await link.send(json.dumps({"type": "JOIN_ROOM", "data": {"userId": "probe", "roomId": 1, "seatNum": 0}}))
        reply = json.loads(await link.recv())
    return bool(reply["code"] == 400 and "taken" in reply["data"]["message"])


async def _seat_with(url: str, answer: Any, seat: int) -> list[Any]:
    """A raw seat joining room 1 that answers each ``act`` with ``answer(msg)``; what it
    received until the server closed the connection (the close frame last)."""
    received: list[Any] = []
    async with websockets.connect(url) as link:
        await link.send(json.dumps({"type": "JOIN_ROOM", "data": {"userId": "raw", "roomId": 1, "seatNum": seat}}))
        try:
            async for raw in link:
                msg = json.loads(raw)
                received.append(msg)
                if msg.get("type") == "act":
                    await link.send(json.dumps(answer(msg)))
        except websockets.ConnectionClosed:
            pass
        received.append((link.close_code, link.close_reason))
    return received


async def _three_clients(server: PlatformServer) -> list[Any]:
    """Seats 0-2 playing in room 1 (seat 0 creates it), once they have sat down."""
    creator = asyncio.create_task(play(server.url, make_agent("random"), create_room=1, seat=0, **FAST))
    while not server.rooms:
        await asyncio.sleep(0.01)
    others = [asyncio.create_task(play(server.url, make_agent("random"), join=1, seat=s, **FAST)) for s in (1, 2)]
    while len(server.rooms[1].seats) < 3:
        await asyncio.sleep(0.01)
    return [creator, *others]


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        (lambda m: {"type": "PLAY", "data": {"roomId": 1, "player": 3, "act": ["Single", "3", ["S3", "H3"]]}}, "not an exact entry"),
        (lambda m: {"type": "PLAY", "data": {"roomId": 1, "player": 1, "act": m["actionList"][0]}}, "answered for player 1"),
    ],
)
def test_a_bad_answer_stops_the_room_with_the_reason(answer: Any, reason: str) -> None:
    async def scenario() -> None:
        async with PlatformServer(seed=2, max_deals=1) as server:
            clients = await _three_clients(server)
            raw = await asyncio.wait_for(_seat_with(server.url, answer, 3), LIMIT)
            results = await asyncio.wait_for(asyncio.gather(*clients, return_exceptions=True), LIMIT)
            assert raw[-1][0] == 1008 and reason in raw[-1][1]
            assert len(server.errors) == 1 and reason in server.errors[0]
            assert all(isinstance(r, PlatformError) and reason in str(r) for r in results), results

    asyncio.run(scenario())


def test_a_seat_that_leaves_stops_the_room() -> None:
    async def scenario() -> None:
        async with PlatformServer(seed=2, max_deals=1) as server:
            clients = await _three_clients(server)
            async with websockets.connect(server.url) as link:
                await link.send(json.dumps({"type": "JOIN_ROOM", "data": {"userId": "quitter", "roomId": 1, "seatNum": 3}}))
                await link.recv()
            results = await asyncio.wait_for(asyncio.gather(*clients, return_exceptions=True), LIMIT)
            assert server.errors == ["seat 3 left the room"]
            assert all(isinstance(r, PlatformError) and "seat 3 left the room" in str(r) for r in results), results

    asyncio.run(scenario())


def test_room_requests_are_checked() -> None:
    async def scenario() -> None:
        async with PlatformServer() as server:
            async with websockets.connect(server.url) as link:
                for data in ({"userId": "u", "round": 0, "seatNum": 0}, {"userId": "u", "round": 1, "seatNum": 4},
                             {"userId": "u", "round": "x", "seatNum": 0}):
                    await link.send(json.dumps({"type": "CREATE_ROOM", "data": data}))
                    reply = json.loads(await link.recv())
                    assert reply["code"] == 400 and "round" in reply["data"]["message"]
                await link.send("not json")
                await link.send(json.dumps({"type": "CREATE_ROOM", "data": {"userId": "u", "round": 1, "seatNum": 2}}))
                reply = json.loads(await link.recv())
                assert reply == {"code": 200, "data": {"userNum": 2, "userName": None, "userId": "u", "roomId": 1}, "type": "CREATE_ROOM"}
                with pytest.raises(PlatformError, match="refused JOIN_ROOM"):
                    await play(server.url, make_agent("random"), join=1, seat=2, **FAST)
                with pytest.raises(PlatformError, match="refused JOIN_ROOM"):
                    await play(server.url, make_agent("random"), join=7, seat=1, **FAST)
            assert server.errors == []

    asyncio.run(scenario())


def test_two_whole_games_in_one_room() -> None:
    async def scenario() -> None:
        async with PlatformServer(seed=3, max_deals=None) as server:
            creator = asyncio.create_task(play(server.url, make_agent("random"), create_room=2, seat=0, **FAST))
            while not server.rooms:
                await asyncio.sleep(0.01)
            others = [asyncio.create_task(play(server.url, make_agent("random", seed=s), join=1, seat=s, **FAST)) for s in (1, 2, 3)]
            results = await asyncio.wait_for(asyncio.gather(creator, *others, return_exceptions=True), LIMIT)
            assert server.errors == [] and server.games_played == 2
            for result in results:
                assert isinstance(result, ClientResult), result
                assert [order for order, _ in result.mirror.finish_orders] == server.finish_orders
                assert result.mirror.departures["unexplained"] == 0 and result.final["gameRound"] == 2
                assert result.mirror.levels == tuple(parse_level(r) for r in result.final["victoryRank"])

    asyncio.run(scenario())


def test_cli_server_reports_a_taken_port() -> None:
    async def scenario() -> None:
        async with PlatformServer() as server:
            port = server.url.rsplit(":", 1)[1]
            done = await asyncio.create_subprocess_exec(
                *COMMAND, "server", "--port", port, stderr=asyncio.subprocess.PIPE, env=_environment()
            )
            _, err = await asyncio.wait_for(done.communicate(), LIMIT)
            assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in err.decode()
            assert "Traceback" not in err.decode()

    asyncio.run(scenario())
