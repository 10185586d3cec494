"""The platform client end to end over a real socket on 127.0.0.1, against the in-process
server of ``platform_server.py``: whole games for every agent of the package, both wire
formats, the game log, and the faults (dropped connection, malformed message, refused
room) ending the client with a clear error, never a hang."""

from __future__ import annotations

import asyncio
import io
import json
import random
import sys
import threading
from typing import Any

import pytest

pytest.importorskip("websockets")

from platform_server import Faults, PlatformServer

from guandan_fast.agents import AGENTS, make_agent
from guandan_fast.cli import main
from guandan_fast.engine.deal import Deal
from guandan_fast.platform import ClientResult, Mirror, PlatformError, act_message, answer_index, play

#: Every await of a test is bounded by this (seconds).
LIMIT = 30.0
FAST = {"wake_after": 0.5, "idle_timeout": 5.0}
#: Options that keep the searching agents quick here (their strength is not under test).
LIGHT = {"pimc": {"playouts": 8, "worlds": 4}}


def observation_agent(seed: int) -> Any:
    """A plain callable agent: an index into the observation's actionList (the server's)."""
    rng = random.Random(seed)
    return lambda observation: rng.randrange(len(observation["actionList"]))


async def _table(
    server: PlatformServer, agents: list[Any], options: dict[int, dict[str, Any]] | None = None
) -> list[ClientResult | BaseException]:
    """Seat 0 creates the room, seats 1-3 join it; all four play to the end (``options``:
    extra keywords of :func:`play` per seat)."""
    options = options or {}
    creator = asyncio.create_task(play(server.url, agents[0], create_room=1, seat=0, **FAST, **options.get(0, {})))
    while not server.rooms and not creator.done():
        await asyncio.sleep(0.01)
    joiners = [
        asyncio.create_task(play(server.url, agents[s], join=1, seat=s, **FAST, **options.get(s, {}))) for s in (1, 2, 3)
    ]
    return await asyncio.wait_for(asyncio.gather(creator, *joiners, return_exceptions=True), LIMIT)


def _check_finished_game(server: PlatformServer, results: list[Any]) -> None:
    assert server.errors == []  # every answer was an exact entry of its actionList
    for seat, result in enumerate(results):
        assert isinstance(result, ClientResult), result
        assert result.seat == seat and result.room == 1
        assert result.answered == server.acts_sent[seat]
        assert result.final["stage"] == "gameResult"
        mirror = result.mirror
        assert mirror.departures["unexplained"] == 0
        assert [ours[:2] for _, ours in mirror.finish_orders] == [order[:2] for order in server.finish_orders]
        assert [server_order for server_order, _ in mirror.finish_orders] == server.finish_orders


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_every_agent_plays_whole_deals(name: str) -> None:
    async def scenario() -> None:
        async with PlatformServer(seed=11, max_deals=3) as server:
            agent = make_agent(name, **LIGHT.get(name, {}))
            agents = [agent, make_agent("random", seed=1), make_agent("random", seed=2), observation_agent(3)]
            results = await _table(server, agents)
            _check_finished_game(server, results)
            assert len(server.finish_orders) == 3  # tribute and return were played twice
            assert any(r.mirror.tribute["kind"] != "none" for r in results)  # type: ignore[union-attr]

    asyncio.run(scenario())


def test_game_log_records_every_message_and_answers_exact_entries() -> None:
    streams = [io.StringIO() for _ in range(4)]

    async def scenario() -> None:
        async with PlatformServer(seed=5, max_deals=2) as server:
            agents = [make_agent("random", seed=s) for s in range(4)]
            results = await _table(server, agents, {s: {"log_file": streams[s]} for s in range(4)})
            _check_finished_game(server, results)

    asyncio.run(scenario())
    for seat, stream in enumerate(streams):
        rows = [json.loads(line) for line in stream.getvalue().splitlines()]
        assert {row["dir"] for row in rows} == {"recv", "send"}
        assert rows[0]["dir"] == "send" and rows[0]["msg"]["type"] in ("CREATE_ROOM", "JOIN_ROOM")
        pending = None
        for row in rows:
            msg = row["msg"]
            if row["dir"] == "recv" and msg.get("type") == "act":
                pending = msg
            elif row["dir"] == "send" and msg["type"] in ("PLAY", "TRIBUTE", "PAYTRIBUTE"):
                assert pending is not None and msg["data"]["act"] in pending["actionList"]
                assert msg["data"]["player"] == seat
                if msg["type"] == "PAYTRIBUTE":
                    assert (msg["data"]["tributePos"], msg["data"]["tribute"]) == (pending["tributePos"], pending["tribute"])
                pending = None


def test_legacy_protocol_answers_with_indices() -> None:
    async def scenario() -> None:
        async with PlatformServer(seed=7, max_deals=2, legacy=True) as server:
            tasks = [
                asyncio.create_task(play(f"{server.url}/game/client{s}", make_agent("random", seed=s), protocol="legacy", **FAST))
                for s in range(4)
            ]
            results = await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), LIMIT)
            assert server.errors == []
            for seat, result in enumerate(results):
                assert isinstance(result, ClientResult), result
                assert result.seat == seat and result.answered == server.acts_sent[seat]
                assert result.mirror.departures["unexplained"] == 0

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("kind", "message"),
    [("drop", "no close frame"), ("malformed", "not JSON"), ("unexpected", "message without 'actionList'")],
)
def test_faults_end_every_client_with_a_clear_error(kind: str, message: str) -> None:
    async def scenario() -> None:
        async with PlatformServer(seed=3, max_deals=2, faults=Faults(kind, seat=2, after=3)) as server:
            results = await _table(server, [make_agent("random", seed=s) for s in range(4)])
            assert all(isinstance(r, PlatformError) for r in results), results
            assert message in str(results[2])
            assert all("closed the connection" in str(r) for i, r in enumerate(results) if i != 2)

    asyncio.run(scenario())


def test_refused_join_and_silent_server() -> None:
    async def scenario() -> None:
        async with PlatformServer() as server:
            with pytest.raises(PlatformError, match="refused JOIN_ROOM"):
                await asyncio.wait_for(play(server.url, make_agent("random"), join=9, seat=1, **FAST), LIMIT)
            # a room nobody else joins: the seat waits, wakes the room up, then gives up
            options = {"wake_after": 0.2, "idle_timeout": 0.6}
            with pytest.raises(PlatformError, match="no message from the server"):
                await asyncio.wait_for(play(server.url, make_agent("random"), create_room=1, **options), LIMIT)

    asyncio.run(scenario())


def test_bad_arguments_are_refused_before_connecting() -> None:
    with pytest.raises(ValueError, match="exactly one of"):
        asyncio.run(play("ws://127.0.0.1:1", make_agent("random")))
    with pytest.raises(ValueError, match="no rooms"):
        asyncio.run(play("ws://127.0.0.1:1", make_agent("random"), join=1, protocol="legacy"))
    with pytest.raises(ValueError, match="unknown protocol"):
        asyncio.run(play("ws://127.0.0.1:1", make_agent("random"), join=1, protocol="http"))


def test_cli_client_plays_and_reports(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """``guandan-fast client`` at seat 0 against three in-process clients (the server and
    those clients run in their own thread and event loop)."""
    ready = threading.Event()
    box: dict[str, Any] = {}

    def serve() -> None:
        async def run() -> None:
            async with PlatformServer(seed=9, max_deals=1) as server:
                box["url"] = server.url
                ready.set()
                while not server.rooms:
                    await asyncio.sleep(0.01)
                joiners = [play(server.url, make_agent("random", seed=s), join=1, seat=s, **FAST) for s in (1, 2, 3)]
                box["results"] = await asyncio.wait_for(asyncio.gather(*joiners, return_exceptions=True), LIMIT)
                box["errors"] = server.errors

        asyncio.run(run())

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert ready.wait(LIMIT)
    log = tmp_path / "game.jsonl"
    code = main(["client", "--url", box["url"], "--agent", "random", "--create-room", "1", "--log", str(log)])
    thread.join(LIMIT)
    out = capsys.readouterr().out
    assert code == 0 and box["errors"] == []
    assert "seat 0, room 1: 1 deals" in out and "gameResult" in out
    assert all(isinstance(r, ClientResult) for r in box["results"])
    assert sum(1 for line in log.read_text().splitlines() if json.loads(line)["dir"] == "send") > 1


def test_cli_client_reports_a_refused_connection(capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    assert main(["client", "--url", "ws://127.0.0.1:1", "--join", "1", "--seat", "2"]) == 1
    assert "cannot connect to ws://127.0.0.1:1" in caplog.text  # one log line, no traceback
    assert "Traceback" not in capsys.readouterr().err


def test_missing_websockets_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "websockets", None)
    with pytest.raises(ImportError, match=r"pip install 'guandan_fast\[platform\]'"):
        asyncio.run(play("ws://127.0.0.1:1", make_agent("random"), join=1))


def test_acts_the_rules_would_not_ask_are_answered_with_the_servers_pass() -> None:
    """An act to a seat that is out, or to the player whose own play stands unbeaten:
    the agent is not asked, the answer is the server's first entry (its PASS)."""

    class Refusing:
        def act(self, deal: Any, seat: int) -> int:
            raise AssertionError("the agent must not be asked")

    deal = Deal.start(["S7 D7 SA", "S8 D8", "C9 H9", "SK"], 2, leader=0)
    mirror = Mirror(0)
    mirror.feed({"type": "notify", "stage": "beginning", "myPos": 0, "levelCard": "2",
                 "handCards": Deal.random(seed=2).hands[0].to_platform()})
    own_play = ["Single", "3", ["S3"]]
    msg = {**act_message(deal, 0), "greaterPos": 0, "greaterAction": own_play,
           "actionList": [["PASS", "PASS", "PASS"], ["Single", "A", ["SA"]]], "indexRange": 1}
    mirror.feed(msg)  # the list (PASS and what beats its own play) is not compared with a lead's
    assert mirror.off_rules(msg) and mirror.departures["unexplained"] == 0
    assert answer_index(mirror, Refusing(), msg) == (0, True)
