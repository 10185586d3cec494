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
import time
from typing import Any

import pytest

pytest.importorskip("websockets")

from platform_server import Faults, PlatformServer

from guandan_fast.agents import AGENTS, make_agent
from guandan_fast.cli import main
from guandan_fast.engine.deal import Deal
from guandan_fast.engine.hand import Hand
from guandan_fast.platform import (
    ClientResult,
    Mirror,
    PlatformError,
    act_message,
    answer_index,
    placeholders,
    play,
    play_sync,
)

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
    for rooms in ({}, {"create_room": 2, "join": 1}):  # neither, or both
        with pytest.raises(ValueError, match=r"give one of create_room \(--create-room ROUNDS: a new room\) and join"):
            asyncio.run(play("ws://127.0.0.1:1", make_agent("random"), **rooms))
    for rooms, error, words in [  # the room's numbers, named (no JSON of a bad value sent to a server)
        ({"create_room": 0}, ValueError, r"create_room \(the number of games\) must be an integer >= 1, not 0"),
        ({"create_room": 1.5}, TypeError, r"create_room \(the number of games\) must be an integer"),
        ({"join": -1}, ValueError, r"join \(the room number\) must be an integer >= 0, not -1"),
        ({"join": "7"}, TypeError, r"join \(the room number\) must be an integer"),
        ({"join": True}, TypeError, r"join \(the room number\) must be an integer"),
    ]:
        with pytest.raises(error, match=words):
            asyncio.run(play("ws://127.0.0.1:1", make_agent("random"), **rooms))
    with pytest.raises(ValueError, match="no rooms"):
        asyncio.run(play("ws://127.0.0.1:1", make_agent("random"), join=1, protocol="legacy"))
    with pytest.raises(ValueError, match="the legacy platform takes no seat"):
        asyncio.run(play("ws://127.0.0.1:1/game/client1", make_agent("random"), seat=1, protocol="legacy"))
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


class Choosing:
    """An agent that picks the first legal action ``wanted(action)`` accepts."""

    def __init__(self, wanted: Any) -> None:
        self.wanted = wanted

    def act(self, deal: Any, seat: int) -> int:
        return next(i for i, action in enumerate(deal.legal_actions()) if self.wanted(action))


def test_a_one_suit_straight_is_sent_as_the_servers_straight_flush() -> None:
    """The server lists five cards of one suit only as a StraightFlush. An agent choosing
    them as a Straight got the first entry instead (a silent PASS when following, ``SB``
    once on a lead): the same cards are on offer under the stronger reading — that entry."""
    hand = Hand("S8 S9 ST SJ SQ H3 D4 C6 H7 H7 D9 CT CT HJ DQ CQ SK HK DK CA HA SA SB S2 D2 C3 H5")
    deal = Deal.start(placeholders.split_unseen(hand, 0, (), ()), 2, leader=0)
    mirror = Mirror(0)
    mirror.feed({"type": "notify", "stage": "beginning", "myPos": 0, "levelCard": "2", "handCards": hand.to_platform()})
    straight = ["Straight", "8", ["S8", "S9", "ST", "SJ", "SQ"]]
    msg = {**act_message(deal, 0), "type": "act", "stage": "play"}
    msg["actionList"] = [a for a in msg["actionList"] if not (a[0] == "Straight" and sorted(a[2]) == sorted(straight[2]))]
    msg["indexRange"] = len(msg["actionList"]) - 1
    mirror.feed(msg, check=False)
    index, matched = answer_index(mirror, Choosing(lambda a: a[0] == "Straight" and sorted(a[2]) == sorted(straight[2])), msg)
    assert matched and msg["actionList"][index][0] == "StraightFlush"
    assert sorted(msg["actionList"][index][2]) == sorted(straight[2])


def test_a_tribute_card_the_server_leaves_out_is_paid_in_the_suit_it_offers() -> None:
    """Of two top tribute cards in different suits the server offers one: an agent choosing
    the other pays the one offered (same power), not the first entry by chance. Here the
    mirror has not seen the previous deal end, so the request is answered on a stand-in
    deal rebuilt from it (the seat pays a single tribute)."""
    payer = Hand([f"{suit}{rank}" for suit in "SH" for rank in "3456789TJQK"] + ["SA", "HA", "C3", "C4", "C5"])
    mirror = Mirror(2)
    mirror.feed({"type": "notify", "stage": "beginning", "myPos": 2, "levelCard": "2", "handCards": payer.to_platform()})
    offered = [["tribute", "tribute", ["HA"]]]
    msg = {"type": "act", "stage": "tribute", "handCards": payer.to_platform(), "actionList": offered,
           "indexRange": 0, "curRank": "2", "selfRank": "2", "oppoRank": "2"}
    mirror.feed(msg, check=False)
    assert not mirror.in_step(msg)
    stand_in = mirror.answer_deal(msg)
    assert stand_in is not None and stand_in.phase == "tribute" and stand_in.to_act == 2
    assert sorted(a[2][0] for a in stand_in.legal_actions()) == ["HA", "SA"]
    assert answer_index(mirror, Choosing(lambda a: a[2] == ["SA"]), msg) == (0, True)
    assert answer_index(mirror, Choosing(lambda a: a[2] == ["HA"]), msg) == (0, True)


def tie_prone_cards(rng: random.Random) -> list[Hand]:
    """Hands where seats 0 and 2 hold one SB each and seats 1 and 3 one HR each: when team 0
    pays a double tribute both pay an SB (a tie), when team 1 does it refuses (抗贡)."""
    deck = [card for card in placeholders.FULL_DECK.to_platform() if card not in ("SB", "HR")]
    rng.shuffle(deck)
    return [Hand([*deck[26 * s : 26 * s + 26], "SB" if s % 2 == 0 else "HR"]) for s in range(4)]


class SlowFirstPayer:
    """A random agent that, when it is the payer the rules let choose first, answers a
    double tribute late: the other payer's tribute arrives first (as it may on the real
    server, which pairs two equal tributes by arrival order)."""

    def __init__(self, seed: int) -> None:
        self.agent = make_agent("random", seed=seed)

    def act(self, deal: Any, seat: int) -> int:
        info = deal.tribute
        if deal.phase == "tribute" and info["kind"] == "double" and info["payers"][0] == seat:
            time.sleep(0.3)
        return int(self.agent.act(deal, seat))


def test_the_practice_server_plays_a_tie_game_end_to_end() -> None:
    """A whole game (to a win at A) with double tributes of equal cards paired by arrival
    order: every seat's mirror takes the server's pairing, the returns and the leader, and
    the four clients finish with no unexplained departure. Each client runs in its own
    thread (its own event loop), so that a slow payer does not hold the others up."""
    box: dict[str, Any] = {}
    ready = threading.Event()

    def serve() -> None:
        async def run() -> None:
            async with PlatformServer(seed=1, max_deals=None, deal_cards=tie_prone_cards) as server:
                box["server"] = server
                ready.set()
                while server.games_played < 1 and not server.errors:
                    await asyncio.sleep(0.05)
                await asyncio.sleep(0.2)

        asyncio.run(run())

    serving = threading.Thread(target=serve, daemon=True)
    serving.start()
    assert ready.wait(LIMIT)
    server = box["server"]
    results: list[Any] = [None] * 4

    def seat(number: int) -> None:
        room = {"create_room": 1} if number == 0 else {"join": 1}
        try:
            results[number] = play_sync(server.url, SlowFirstPayer(number), seat=number, **room, **FAST)
        except PlatformError as error:
            results[number] = error

    clients = [threading.Thread(target=seat, args=(0,), daemon=True)]
    clients[0].start()
    while not server.rooms:
        time.sleep(0.01)
    clients += [threading.Thread(target=seat, args=(s,), daemon=True) for s in (1, 2, 3)]
    for thread in clients[1:]:
        thread.start()
    for thread in clients:
        thread.join(LIMIT * 2)
    serving.join(LIMIT)
    _check_finished_game(server, results)
    assert server.ties, "no double tribute of equal cards in this game"
    # the payer the rules let choose first was always late: every tie departs, for every seat
    assert [r.mirror.departures["tribute_tie_arrival_order"] for r in results] == [len(server.ties)] * 4
    assert all(r.unfollowed == 0 and r.mirror.resyncs == 0 for r in results)


async def _one_frame_server(frame: str) -> tuple[Any, str]:
    """A websocket server that answers a seat's first message with ``frame``."""
    import websockets

    async def handler(link: Any) -> None:
        await link.recv()
        await link.send(frame)
        await link.wait_closed()

    server = await websockets.serve(handler, "127.0.0.1", 0, max_size=None)
    return server, f"ws://127.0.0.1:{next(iter(server.sockets)).getsockname()[1]}"


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"type": []}', "type or stage is not a string"),
        ('{"type": "notify", "stage": ["play"]}', "type or stage is not a string"),
        ('{"type": "act", "stage": {"a": 1}, "actionList": []}', "type or stage is not a string"),
        ('{"type": "act", "stage": "play", "actionList": [["Single"]]}', "cannot answer"),
    ],
)
def test_frames_that_are_no_protocol_message_end_the_client_with_a_platform_error(frame: str, message: str) -> None:
    """Once a RecursionError traceback (deep nesting) or 'unhashable type: list' (exit 2,
    TypeError out of play()); now a PlatformError naming the fault."""

    async def scenario() -> None:
        server, url = await _one_frame_server(frame)
        async with server:
            with pytest.raises(PlatformError, match=message):
                await asyncio.wait_for(play(url, make_agent("random"), join=1, **FAST), LIMIT)

    asyncio.run(scenario())


def test_a_server_that_never_completes_the_handshake_is_named(capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    """Something accepts the TCP connection and says nothing: the client said 'cannot
    connect to ...:' and no reason."""

    async def scenario() -> None:
        silent = await asyncio.start_server(lambda reader, writer: asyncio.sleep(5), "127.0.0.1", 0)
        port = silent.sockets[0].getsockname()[1]
        async with silent:
            with pytest.raises(PlatformError, match=r"no websocket handshake within 0.3 s"):
                await play(f"ws://127.0.0.1:{port}", make_agent("random"), join=1, connect_timeout=0.3)

    asyncio.run(scenario())


@pytest.mark.parametrize("where", ["missing", "directory"])
def test_an_unwritable_game_log_is_a_clear_cli_error(where: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """``client --log`` into a missing directory, or onto a directory: a traceback before;
    now exit 2 and one line, before anything is sent."""
    path = tmp_path / "nowhere" / "game.jsonl" if where == "missing" else tmp_path
    assert main(["client", "--url", "ws://127.0.0.1:1", "--join", "1", "--log", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"cannot write the game log {str(path)!r}" in err and "Traceback" not in err
    with pytest.raises(ValueError, match="cannot write the game log"):
        asyncio.run(play("ws://127.0.0.1:1", make_agent("random"), join=1, log_file=path))
