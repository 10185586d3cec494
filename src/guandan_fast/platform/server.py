"""A practice server speaking the OpenGuanDan protocol on guandan_fast's own engine
(``guandan-fast server``), so that a bot is tested without Java.

It speaks what the real server speaks (the shared PROTOCOL.md, and the recordings the
tests replay): ``CREATE_ROOM`` (``round`` games), ``JOIN_ROOM``, ``GET_ROOMPLAYER``; a
room starts when its four seats are taken, deals with ``notify``/``beginning``, asks with
``act`` and tells with ``notify`` (``play``, ``tribute``, ``anti-tribute``, ``back``,
``episodeOver``), and ends with ``gameResult``. Like the real server it asks both payers
of a double tribute (both receivers of the returns) at once, and pairs two equal tributes
by arrival order. The rules are ``Rules.openguandan()``; every list it offers is the
engine's complete legal list (the real server's omissions are not copied).

Where the real server accepts anything, this one is strict, to show a bot's faults: an
answer that is not an exact entry of the request's ``actionList`` (or a return that does
not echo ``tributePos``/``tribute``), an answer from the wrong seat, a seat that leaves
or does not answer within ``answer_timeout`` seconds stops the room, with the reason in
the close frame (code 1008) and the log. The older platform (one websocket per seat,
``/game/client{seat}``, answers ``{"actIndex": i}``) is served with ``legacy=True``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard, TypeVar

from ..engine.cards import CARD_NAMES, level_char
from ..engine.deal import Deal, deal_cards
from ..engine.hand import Hand
from ..engine.rules import Rules
from ..engine.scoring import score_deal
from .client import _websockets
from .observation import act_message

__all__ = ["PracticeServer", "ServerStopped"]

log = logging.getLogger("guandan_fast.platform.server")

_Server = TypeVar("_Server", bound="PracticeServer")
_ANSWERS = frozenset({"PLAY", "TRIBUTE", "PAYTRIBUTE"})
_PASS = ["PASS", "PASS", "PASS"]


class ServerStopped(RuntimeError):
    """A room stopped before its games ended (a seat's fault); the message says why."""


@dataclass
class _Room:
    number: int
    games: int
    seats: dict[int, Any] = field(default_factory=dict)
    users: dict[int, str] = field(default_factory=dict)
    answers: dict[int, asyncio.Queue[dict[str, Any] | None]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


class PracticeServer:
    """``async with PracticeServer(port=0) as server:`` then connect clients to ``server.url``
    (``port=0``: any free port); :meth:`serve_forever` serves until cancelled.

    ``seed``: the cards (each room draws from its own stream); ``max_deals``: end each game
    after that many deals (default: when a team wins at A); ``deal_cards``: a function of a
    ``random.Random`` giving the four hands of a deal (default: a shuffle).
    """

    def __init__(
        self, host: str = "127.0.0.1", port: int = 8181, *, seed: int | None = None, rules: Rules | None = None,
        max_deals: int | None = None, answer_timeout: float = 120.0,
        deal_cards: Callable[[random.Random], Sequence[Hand]] = deal_cards, legacy: bool = False,
    ) -> None:
        self.host, self.port, self.seed, self.max_deals = host, port, seed, max_deals
        self.rules = Rules.openguandan() if rules is None else rules
        self.answer_timeout, self.legacy, self._deal_cards = answer_timeout, legacy, deal_cards
        self.rooms: dict[int, _Room] = {}
        #: Why rooms stopped early (empty when every game was played to its end).
        self.errors: list[str] = []
        #: Every deal's finishing order, in the order the deals ended (all rooms).
        self.finish_orders: list[list[int]] = []
        #: The double tributes of equal cards, as paid: ``[(payer, receiver, card), ...]``.
        self.ties: list[list[tuple[int, int, str]]] = []
        #: ``act`` messages sent per seat (all rooms).
        self.acts_sent = [0, 0, 0, 0]
        self.games_played = 0
        self._server: Any = None

    # -- serving ---------------------------------------------------------------------------------
    async def __aenter__(self: _Server) -> _Server:  # noqa: PYI019 - typing.Self needs Python 3.11
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Listen (OSError when the address cannot be taken)."""
        websockets = _websockets()
        self._server = await websockets.serve(self._connection, self.host, self.port, max_size=None, ping_interval=None)

    async def serve_forever(self) -> None:
        """Serve until cancelled (Ctrl-C in ``guandan-fast server``)."""
        await self._server.serve_forever()

    async def close(self) -> None:
        for room in self.rooms.values():
            if room.task is not None:
                room.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await room.task
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    @property
    def url(self) -> str:
        """``ws://host:port`` of the listening socket (the port chosen when 0 was given)."""
        port = next(iter(self._server.sockets)).getsockname()[1]
        return f"ws://{self.host}:{port}"

    # -- connections -----------------------------------------------------------------------------
    async def _connection(self, connection: Any) -> None:
        websockets = _websockets()
        if self.legacy:
            await self._legacy_connection(connection)
            return
        room: _Room | None = None
        seat = -1
        try:
            async for raw in connection:
                msg = _read(raw)
                if msg is None:
                    log.warning("a client sent a frame that is not a JSON object: %.100r", raw)
                    continue
                kind, data = msg.get("type"), msg.get("data")
                data = data if isinstance(data, dict) else {}
                if kind in ("CREATE_ROOM", "JOIN_ROOM") and room is None:
                    room, seat = await self._sit_down(connection, kind, data)
                elif kind == "GET_ROOMPLAYER" and room is not None:
                    users = [{"userNum": s, "userName": None, "userId": u} for s, u in sorted(room.users.items())]
                    await connection.send(json.dumps({"code": 200, "data": {"users": users}, "type": "GET_ROOMPLAYER"}))
                elif kind in _ANSWERS and room is not None:
                    if data.get("player") != seat:
                        await self._stop(room, f"seat {seat} answered for player {data.get('player')!r}")
                    else:
                        await room.answers[seat].put(msg)
                else:
                    log.warning("seat %s sent %.100r: ignored", seat, kind)
                if room is not None and len(room.seats) == 4 and room.task is None:
                    room.task = asyncio.create_task(self._play_room(room))
        except websockets.ConnectionClosed:
            pass
        finally:
            if room is not None and room.task is None:  # left before the game: the seat is free again
                room.seats.pop(seat, None)
                room.users.pop(seat, None)
                room.answers.pop(seat, None)
            elif room is not None:
                room.answers[seat].put_nowait(None)  # a seat that leaves answers nothing more

    async def _sit_down(self, connection: Any, kind: str, data: Mapping[str, Any]) -> tuple[_Room | None, int]:
        """A ``CREATE_ROOM`` or ``JOIN_ROOM``: the room and seat taken, or (None, -1) after a
        refusal (code 400)."""
        seat, user = data.get("seatNum"), data.get("userId")
        if kind == "CREATE_ROOM":
            games = data.get("round", 1)
            if not _is_int(games) or games < 1 or not _is_int(seat) or not 0 <= seat <= 3:
                return await _refuse(connection, kind, "CREATE_ROOM needs round >= 1 and seatNum 0-3")
            room = _Room(len(self.rooms) + 1, games)
            self.rooms[room.number] = room
            log.info("room %d created for %d games", room.number, games)
            reply = {"userNum": seat, "userName": None, "userId": user, "roomId": room.number}
        else:
            number = data.get("roomId")
            found = self.rooms.get(number) if _is_int(number) else None
            if found is None:
                return await _refuse(connection, kind, f"no room {str(number)[:20]}")
            if not _is_int(seat) or not 0 <= seat <= 3 or seat in found.seats or found.task is not None:
                return await _refuse(connection, kind, f"seat {str(seat)[:20]} of room {found.number} is taken or no seat 0-3")
            room, reply = found, {"userNum": seat, "roomId": found.number}
        room.seats[seat] = connection
        room.users[seat] = str(user)
        room.answers[seat] = asyncio.Queue()
        await connection.send(json.dumps({"code": 200, "data": reply, "type": kind}))
        return room, seat

    async def _legacy_connection(self, connection: Any) -> None:
        """The older platform: the path ``/game/client{seat}`` names the seat, no rooms; an
        answer is ``{"actIndex": i}``."""
        websockets = _websockets()
        path = connection.request.path
        seat = int(path[-1]) if path[:-1].endswith("/client") and path[-1:] in "0123" else -1
        room = self.rooms.setdefault(1, _Room(1, 1))
        if seat < 0 or seat in room.seats:
            await connection.close(1008, "connect to /game/client0 ... /game/client3, one seat each")
            return
        room.seats[seat] = connection
        room.users[seat] = f"client{seat}"
        room.answers[seat] = asyncio.Queue()
        if len(room.seats) == 4:
            room.task = asyncio.create_task(self._play_room(room))
        try:
            async for raw in connection:
                msg = _read(raw)
                if msg is not None:
                    await room.answers[seat].put(msg)
        except websockets.ConnectionClosed:
            pass
        finally:
            room.answers[seat].put_nowait(None)

    # -- the games -------------------------------------------------------------------------------
    async def _play_room(self, room: _Room) -> None:
        try:
            await self._play_games(room)
        except ServerStopped as stopped:
            await self._close_room(room, str(stopped), 1008)
        except Exception as error:  # a fault of this server: say so to every seat, never hang them
            log.exception("room %d: internal error", room.number)
            await self._close_room(room, f"internal error of the practice server: {type(error).__name__}: {error}", 1011)

    async def _close_room(self, room: _Room, reason: str, code: int) -> None:
        self.errors.append(reason)
        log.error("room %d stopped: %s", room.number, reason)
        for link in room.seats.values():
            with contextlib.suppress(Exception):
                await link.close(code, reason[:120])

    async def _play_games(self, room: _Room) -> None:
        if not self.legacy:
            await self._broadcast(room, {"code": 200, "data": {"roomId": room.number}, "type": "JOIN"})
        rng = random.Random(None if self.seed is None else f"{self.seed}/{room.number}")
        levels: tuple[int, int] = (2, 2)
        for _ in range(room.games):
            levels = await self._play_game(room, rng)
            self.games_played += 1
        victory = 0 if levels[0] > levels[1] else 1 if levels[1] > levels[0] else -1
        await self._broadcast(room, {
            "stage": "gameResult", "victory": victory, "victoryRank": [level_char(levels[0]), level_char(levels[1])],
            "type": "notify", "gameRound": room.games,
        })
        log.info("room %d: %d games played", room.number, room.games)

    async def _play_game(self, room: _Room, rng: random.Random) -> tuple[int, int]:
        """One game, to a win at A (or ``max_deals`` deals); the final levels."""
        levels, failures = (2, 2), (0, 0)
        previous: list[int] | None = None
        deal_team: int | None = None
        deals = 0
        while True:
            hands = list(self._deal_cards(rng))
            level = 2 if deal_team is None else levels[deal_team]
            for seat in range(4):
                await self._send(room, seat, {
                    "myPos": seat, "stage": "beginning", "levelCard": level_char(level),
                    "handCards": hands[seat].to_platform(), "type": "notify",
                })
            if previous is None:
                deal = Deal.start(hands, level, leader=self.rules.first_leader or 0, rules=self.rules, team_levels=levels)
            else:
                deal = Deal.start(hands, level, previous_finish=previous, rules=self.rules, team_levels=levels)
                deal = await self._tribute(room, deal, hands, previous)
            await self._tricks(room, deal)
            order = deal.finish_order
            self.finish_orders.append(order)
            rest = [[s, deal.hands[s].to_platform()] for s in range(4) if deal.hands[s]]
            await self._broadcast(room, {
                "curRank": level_char(level), "restCards": rest, "stage": "episodeOver", "type": "notify", "order": order,
            })
            score = score_deal(levels, level, order, rules=self.rules, failures=failures, deal_team=deal_team)
            levels, failures, previous, deal_team = score.levels, score.failures, order, score.team
            deals += 1
            if score.winner is not None or (self.max_deals is not None and deals >= self.max_deals):
                return levels
            if self.rules.deal_cap is not None and deals >= self.rules.deal_cap:
                return levels

    async def _tribute(self, room: _Room, deal: Deal, hands: list[Hand], previous: list[int]) -> Deal:
        """Tribute and return, each asked of both seats at once; the deal after them."""
        info = deal.tribute
        if info["kind"] == "anti":
            payers = info["payers"]
            await self._broadcast(room, {"antiNums": len(payers), "stage": "anti-tribute", "antiPos": payers, "type": "notify"})
            return deal
        if deal.phase != "tribute":
            return deal
        requests = {seat: act_message(_turn_of(deal, seat), seat) for seat in info["payers"]}
        arrived = await self._ask_all(room, requests, {})
        order = [seat for seat, _ in arrived]
        if order != list(info["payers"]):
            deal = Deal.start(hands, deal.level, previous_finish=previous, rules=self.rules,
                              team_levels=deal.team_levels, tribute_order=order)
        for _, answer in arrived:
            deal.step(answer["act"])
        payments = [(p, r, CARD_NAMES[c]) for p, r, c in deal.tribute["payments"]]
        if len(payments) == 2 and payments[0][2] == payments[1][2]:
            self.ties.append(payments)
        await self._broadcast(room, {"result": [list(p) for p in payments], "stage": "tribute", "type": "notify"})
        requests, echoes = {}, {}
        for payer, receiver, card in payments:
            view = _turn_of(deal, receiver)
            shown = view.hands[receiver].remove([card]).to_platform()  # as the server shows it: before the tribute
            echoes[receiver] = {"tributePos": payer, "tribute": card}
            requests[receiver] = {**act_message(view, receiver), **echoes[receiver], "handCards": shown}
        answers = dict(await self._ask_all(room, requests, echoes))
        while deal.phase == "return":
            deal.step(answers[deal.current_seat]["act"])
        returns = deal.tribute["returns"]
        await self._broadcast(room, {
            "result": [[r, p, CARD_NAMES[c]] for r, p, c in returns], "stage": "back", "count": 27, "type": "notify",
        })
        return deal

    async def _tricks(self, room: _Room, deal: Deal) -> None:
        while deal.phase == "play":
            seat, last = deal.current_seat, deal.last_move  # last: None when the seat leads
            last_seat = deal.last_seat if last is not None else -1
            beat = last.to_platform() if last is not None else _PASS
            ((_, answer),) = await self._ask_all(room, {seat: act_message(deal, seat)}, {})
            deal.step(answer["act"])
            await self._broadcast(room, {
                "curPos": seat, "stage": "play", "greaterPos": last_seat, "greaterAction": beat, "type": "notify",
                "curAction": answer["act"],
            })

    async def _ask_all(
        self, room: _Room, requests: Mapping[int, dict[str, Any]], echoes: Mapping[int, Mapping[str, Any]]
    ) -> list[tuple[int, dict[str, Any]]]:
        """Send every request at once; the answers' ``data`` in the order they arrive, each
        checked to be an entry of its request's ``actionList`` (and to echo ``echoes``)."""
        for seat, msg in requests.items():
            self.acts_sent[seat] += 1
            await self._request(room, seat, msg)
        waiting = {asyncio.ensure_future(room.answers[seat].get()): seat for seat in requests}
        arrived: list[tuple[int, dict[str, Any]]] = []
        try:
            while waiting:
                done, _ = await asyncio.wait(waiting, timeout=self.answer_timeout, return_when=asyncio.FIRST_COMPLETED)
                if not done:
                    raise ServerStopped(f"seat {min(waiting.values())} did not answer within {self.answer_timeout:g} s")
                for task in sorted(done, key=lambda t: waiting[t]):
                    seat = waiting.pop(task)
                    arrived.append((seat, self._checked(seat, requests[seat], task.result(), echoes.get(seat, {}))))
        finally:
            for task in waiting:
                task.cancel()
        return arrived

    def _checked(self, seat: int, request: Mapping[str, Any], answer: dict[str, Any] | None, echo: Mapping[str, Any]) -> dict[str, Any]:
        if answer is None:
            raise ServerStopped(f"seat {seat} left the room")
        actions = request["actionList"]
        if self.legacy:
            index = answer.get("actIndex")
            if not _is_int(index) or not 0 <= index < len(actions):
                raise ServerStopped(f"seat {seat} answered {str(answer)[:60]}, not an actIndex 0-{len(actions) - 1}")
            return {"act": actions[index]}
        data = answer.get("data")
        if not isinstance(data, dict) or data.get("act") not in actions:
            act = data.get("act") if isinstance(data, dict) else data
            raise ServerStopped(f"seat {seat} answered {str(act)[:60]}, not an exact entry of its actionList")
        if any(data.get(key) != value for key, value in echo.items()):
            raise ServerStopped(f"seat {seat} did not echo tributePos/tribute {dict(echo)} in its return")
        return data

    async def _stop(self, room: _Room, reason: str) -> None:
        if room.task is not None:
            room.task.cancel()
        await self._close_room(room, reason, 1008)

    # -- sending ---------------------------------------------------------------------------------
    async def _request(self, room: _Room, seat: int, msg: dict[str, Any]) -> None:
        """Send one ``act`` (the place where tests inject faults)."""
        await self._send(room, seat, msg)

    async def _send(self, room: _Room, seat: int, msg: dict[str, Any]) -> None:
        try:
            await room.seats[seat].send(json.dumps(msg))
        except _websockets().ConnectionClosed:
            raise ServerStopped(f"seat {seat} left the room") from None

    async def _broadcast(self, room: _Room, msg: dict[str, Any]) -> None:
        for seat in range(4):
            await self._send(room, seat, msg)


def _turn_of(deal: Deal, seat: int) -> Deal:
    """``deal``, or a copy where the seats asked before ``seat`` in the same simultaneous
    request (the other payer, the other receiver) have made a placeholder choice."""
    view = deal
    while view.to_act != seat:
        view = view.clone() if view is deal else view
        view.step(0)
    return view


def _read(raw: Any) -> dict[str, Any] | None:
    try:
        msg = json.loads(raw)
    except (TypeError, ValueError, RecursionError):
        return None
    return msg if isinstance(msg, dict) else None


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


async def _refuse(connection: Any, kind: str, why: str) -> tuple[None, int]:
    await connection.send(json.dumps({"code": 400, "data": {"message": why}, "type": kind}))
    return None, -1
