"""An in-process websocket server speaking the OpenGuanDan protocol (as the shared recordings
show it), driven by guandan_fast's own Deal, so that the platform client is tested end to
end over a real socket on 127.0.0.1. Rooms, four seats, deals with tribute and return,
``act``/``notify``; plus faults on demand (a dropped connection, a malformed message).

Deliberately small: every seat is asked in turn (the real server asks both tribute payers at
once), and a session ends with ``gameResult`` after ``max_deals`` deals or a won game.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

import websockets

from guandan_fast.engine.cards import CARD_NAMES, level_char
from guandan_fast.engine.deal import Deal, deal_cards
from guandan_fast.engine.rules import Rules
from guandan_fast.engine.scoring import score_deal
from guandan_fast.platform import act_message

ANSWER_TIMEOUT = 10.0


@dataclass
class Faults:
    """Misbehaviour: after ``after`` act messages to ``seat``, ``"drop"`` closes that seat's
    connection without a close frame, ``"malformed"`` sends it a frame that is not JSON,
    ``"unexpected"`` an ``act`` without its fields."""

    kind: str
    seat: int = 0
    after: int = 1


@dataclass
class Room:
    number: int
    rounds: int
    seats: dict[int, Any] = field(default_factory=dict)
    users: dict[int, str] = field(default_factory=dict)
    answers: dict[int, asyncio.Queue[dict[str, Any]]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


class PlatformServer:
    """``async with PlatformServer(...) as server:`` then connect clients to ``server.url``."""

    def __init__(
        self, *, seed: int = 0, max_deals: int = 2, rules: Rules | None = None, faults: Faults | None = None,
        legacy: bool = False,
    ):
        self.seed, self.max_deals, self.faults, self.legacy = seed, max_deals, faults, legacy
        self.rules = rules if rules is not None else Rules.openguandan()
        self.rooms: dict[int, Room] = {}
        self.errors: list[str] = []
        self.finish_orders: list[list[int]] = []
        self.acts_sent = [0, 0, 0, 0]
        self.done = asyncio.Event()
        self._server: Any = None

    async def __aenter__(self) -> PlatformServer:
        self._server = await websockets.serve(self._connection, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        for room in self.rooms.values():
            if room.task is not None:
                room.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await room.task
        self._server.close()
        await self._server.wait_closed()

    @property
    def url(self) -> str:
        port = next(iter(self._server.sockets)).getsockname()[1]
        return f"ws://127.0.0.1:{port}"

    # -- connections ---------------------------------------------------------------------------
    async def _connection(self, connection: Any) -> None:
        if self.legacy:
            await self._legacy_connection(connection)
            return
        room: Room | None = None
        seat = -1
        try:
            async for raw in connection:
                msg = json.loads(raw)
                kind, data = msg.get("type"), msg.get("data", {})
                if kind == "CREATE_ROOM":
                    room = Room(len(self.rooms) + 1, data["round"])
                    self.rooms[room.number] = room
                    seat = data["seatNum"]
                    await self._sit(room, seat, data["userId"], connection)
                    reply = {"userNum": seat, "userName": None, "userId": data["userId"], "roomId": room.number}
                    await connection.send(json.dumps({"code": 200, "data": reply, "type": "CREATE_ROOM"}))
                elif kind == "JOIN_ROOM":
                    room = self.rooms.get(data["roomId"])
                    seat = data["seatNum"]
                    if room is None or seat in room.seats:
                        await connection.send(json.dumps({"code": 400, "data": {"message": "no such room or seat taken"}, "type": "JOIN_ROOM"}))
                        continue
                    await self._sit(room, seat, data["userId"], connection)
                    await connection.send(json.dumps({"code": 200, "data": {"userNum": seat, "roomId": room.number}, "type": "JOIN_ROOM"}))
                elif kind == "GET_ROOMPLAYER" and room is not None:
                    users = [{"userNum": s, "userName": None, "userId": u} for s, u in sorted(room.users.items())]
                    await connection.send(json.dumps({"code": 200, "data": {"users": users}, "type": "GET_ROOMPLAYER"}))
                elif kind in ("PLAY", "TRIBUTE", "PAYTRIBUTE") and room is not None:
                    await room.answers[data["player"]].put(msg)
                if room is not None and len(room.seats) == 4 and room.task is None:
                    for other, link in room.seats.items():
                        await link.send(json.dumps({"code": 200, "data": {"roomId": room.number}, "type": "JOIN"}))
                    room.task = asyncio.create_task(self._game(room))
        except websockets.ConnectionClosed:
            pass
        except Exception as error:  # a test server: record, never crash silently
            self.errors.append(f"seat {seat}: {type(error).__name__}: {error}")

    async def _legacy_connection(self, connection: Any) -> None:
        """The older platform: the path ``/game/client{seat}`` names the seat, no rooms; an
        answer is ``{"actIndex": i}``."""
        seat = int(connection.request.path.rsplit("client", 1)[1])
        room = self.rooms.setdefault(1, Room(1, 1))
        await self._sit(room, seat, f"client{seat}", connection)
        if len(room.seats) == 4:
            room.task = asyncio.create_task(self._game(room))
        try:
            async for raw in connection:
                await room.answers[seat].put(json.loads(raw))
        except websockets.ConnectionClosed:
            pass

    async def _sit(self, room: Room, seat: int, user: str, connection: Any) -> None:
        room.seats[seat] = connection
        room.users[seat] = user
        room.answers[seat] = asyncio.Queue()

    # -- the game ------------------------------------------------------------------------------
    async def _game(self, room: Room) -> None:
        try:
            await self._play_deals(room)
        except (ConnectionError, websockets.ConnectionClosed) as error:
            self.errors.append(f"connection lost: {error}")
        except Exception as error:
            self.errors.append(f"{type(error).__name__}: {error}")
        else:
            return
        finally:
            self.done.set()
        for link in room.seats.values():  # after a fault the others are told at once
            with contextlib.suppress(Exception):
                await link.close(1011, "the game was stopped")

    async def _play_deals(self, room: Room) -> None:
        rng = random.Random(self.seed)
        levels, failures, previous = (2, 2), (0, 0), None
        for _ in range(self.max_deals):
            hands = deal_cards(rng)
            level = 2 if previous is None else levels[previous[0] & 1]
            if previous is None:
                deal = Deal.start(hands, level, leader=0, rules=self.rules, team_levels=levels)
            else:
                deal = Deal.start(hands, level, previous_finish=previous, rules=self.rules, team_levels=levels)
            for seat in range(4):
                beginning = {"myPos": seat, "stage": "beginning", "levelCard": level_char(level), "handCards": hands[seat].to_platform()}
                await self._send(room, seat, {**beginning, "type": "notify"})
            await self._tribute(room, deal)
            await self._tricks(room, deal)
            order = deal.finish_order
            self.finish_orders.append(order)
            rest = [[s, deal.hands[s].to_platform()] for s in range(4) if deal.hands[s]]
            await self._broadcast(room, {"curRank": level_char(level), "restCards": rest, "stage": "episodeOver", "type": "notify", "order": order})
            score = score_deal(levels, level, order, rules=self.rules, failures=failures)
            levels, failures, previous = score.levels, score.failures, order
            if score.winner is not None:
                break
        victory = 0 if levels[0] >= levels[1] else 1
        await self._broadcast(room, {
            "stage": "gameResult", "victory": victory, "victoryRank": [level_char(levels[0]), level_char(levels[1])],
            "type": "notify", "gameResult": [0, 0, 0, 0], "victoryNum": [0, 0, 0, 0], "gameRound": 1,
        })

    async def _tribute(self, room: Room, deal: Deal) -> None:
        info = deal.tribute
        if info["kind"] == "anti":
            await self._broadcast(room, {"antiNums": len(info["payers"]), "stage": "anti-tribute", "antiPos": info["payers"], "type": "notify"})
            return
        while deal.phase == "tribute":
            seat = deal.to_act
            answer = await self._ask(room, deal, seat, {})
            deal.step(answer["act"])
        if deal.tribute["kind"] not in ("single", "double"):
            return
        payments = deal.tribute["payments"]
        await self._broadcast(room, {"result": [[p, r, _card(c)] for p, r, c in payments], "stage": "tribute", "type": "notify"})
        while deal.phase == "return":
            seat = deal.to_act
            payer, _, card = next(p for p in payments if p[1] == seat)
            hand = deal.hands[seat].remove([_card(card)]).to_platform()  # as the server shows it: before the tribute
            extra = {"tributePos": payer, "tribute": _card(card), "handCards": hand}
            answer = await self._ask(room, deal, seat, extra)
            if not self.legacy and (answer.get("tributePos"), answer.get("tribute")) != (payer, _card(card)):
                self.errors.append(f"seat {seat} did not echo tributePos/tribute: {answer}")
            deal.step(answer["act"])
        returns = deal.tribute["returns"]
        await self._broadcast(room, {"result": [[r, p, _card(c)] for r, p, c in returns], "stage": "back", "count": 27, "type": "notify"})

    async def _tricks(self, room: Room, deal: Deal) -> None:
        while deal.phase == "play":
            seat = deal.to_act
            greater = deal.last_seat
            greater_action = deal.last_move.to_platform() if deal.last_move is not None else None
            answer = await self._ask(room, deal, seat, {})
            deal.step(answer["act"])
            await self._broadcast(room, {
                "curPos": seat, "stage": "play", "greaterPos": greater,
                "greaterAction": greater_action or ["PASS", "PASS", "PASS"], "type": "notify", "curAction": answer["act"],
            })

    async def _ask(self, room: Room, deal: Deal, seat: int, extra: dict[str, Any]) -> dict[str, Any]:
        msg = {**act_message(deal, seat), **extra}
        actions = msg["actionList"]
        self.acts_sent[seat] += 1
        faults = self.faults
        if faults is not None and faults.seat == seat and self.acts_sent[seat] > faults.after:
            if faults.kind == "drop":
                room.seats[seat].transport.abort()
            elif faults.kind == "malformed":
                await room.seats[seat].send("{this is not json")
            else:  # "unexpected": JSON, but not a message the protocol has
                await room.seats[seat].send(json.dumps({"type": "act", "stage": "play", "handCards": 5}))
            raise ConnectionError(f"fault {faults.kind} injected at seat {seat}")
        await self._send(room, seat, msg)
        answer = await asyncio.wait_for(room.answers[seat].get(), ANSWER_TIMEOUT)
        if self.legacy:
            return {"act": actions[answer["actIndex"]]}
        act = answer["data"]["act"]
        if act not in actions:  # the real server compares the entry, card order included
            raise ValueError(f"seat {seat} answered {act!r}, not an entry of its actionList")
        return answer["data"]

    async def _send(self, room: Room, seat: int, msg: dict[str, Any]) -> None:
        await room.seats[seat].send(json.dumps(msg))

    async def _broadcast(self, room: Room, msg: dict[str, Any]) -> None:
        for seat in range(4):
            await self._send(room, seat, msg)


def _card(card: int) -> str:
    return CARD_NAMES[card]
