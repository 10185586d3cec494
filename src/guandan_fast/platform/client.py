"""The platform client: one seat played by any agent over a websocket (:func:`play`).

Every message received is fed to a :class:`~guandan_fast.platform.Mirror`; every ``act``
is answered with the exact entry of its ``actionList`` the agent chose. Two kinds of agent:

* an object with ``act(deal, seat) -> int`` (:mod:`guandan_fast.agents`): it chooses on
  the mirror's :class:`~guandan_fast.Deal`, and the choice is sent as the server's list
  entry holding the same move (same type, rank and cards, in the server's card order);
* a plain callable ``f(observation) -> int``: it gets :meth:`Mirror.observation` and
  returns an index into that observation's ``actionList``, which is the server's list.

The client never reconnects (the server cannot resume a seat): a dropped connection, a
malformed or unexpected message, or a silent server ends it with a :class:`PlatformError`
that says what happened.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..engine.cards import bounded, check_seat
from ..engine.rules import Rules
from ..engine.kinds import platform_row
from .legacy import PROTOCOLS, LegacyProtocol, OpenGuanDanProtocol, Protocol
from .mirror import Mirror, ProtocolError

__all__ = ["ClientResult", "PlatformError", "answer_index", "play", "play_sync"]

log = logging.getLogger("guandan_fast.platform")

#: Replies to room requests: anything but code 200 ends the client.
_ROOM_REPLIES = frozenset({"CREATE_ROOM", "JOIN_ROOM", "JOIN", "GET_ROOMPLAYER"})
#: The last message of a game series (the server sends nothing after it).
_FINAL_STAGES = frozenset({"gameResult", "gameOver"})


class PlatformError(RuntimeError):
    """The client stopped: the connection dropped or the server sent something unusable."""


@dataclass
class ClientResult:
    """What a finished client saw: its seat and room, the mirror (levels, finishing
    orders, departures) and how many ``act`` messages it answered."""

    seat: int | None
    room: int | None
    mirror: Mirror
    answered: int = 0
    #: Answers where the agent's move was not in the server's list (the first entry was sent).
    unmatched: int = 0
    final: dict[str, Any] = field(default_factory=dict)


def _websockets() -> Any:
    try:
        import websockets
    except ImportError:  # pragma: no cover - the test environment has it
        raise ImportError(
            "the platform client needs the 'websockets' package: pip install 'guandan_fast[platform]'"
        ) from None
    return websockets


# -- choosing ----------------------------------------------------------------------------------
def answer_index(mirror: Mirror, agent: Any, msg: Mapping[str, Any]) -> tuple[int, bool]:
    """The index into ``msg["actionList"]`` that answers the pending ``act`` for ``agent``,
    and whether the agent's own choice was found there (else the first entry is chosen)."""
    actions = msg["actionList"]
    if not hasattr(agent, "act"):
        index = agent(mirror.observation())
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(actions):
            log.warning("seat %s: the agent answered %r, not an index 0..%d: sending entry 0", mirror.seat, index, len(actions) - 1)
            return 0, False
        return index, True
    deal, seat = mirror.deal, mirror.seat
    if deal is None or deal.to_act != seat or mirror.off_rules(msg):
        # Asked to act where the rules would not ask (an out seat, its own unbeaten play):
        # the server's first entry is its PASS.
        log.info("seat %s: asked out of turn; answering the server's first entry %s", seat, actions[0])
        return 0, True
    choice = agent.act(deal, seat)
    if deal.phase != "play":
        card = deal.legal_actions()[choice][2][0]
        found = next((i for i, entry in enumerate(actions) if entry[2][0] == card), None)
    elif deal.following and choice == 0:
        found = next((i for i, entry in enumerate(actions) if entry[0] == "PASS"), None)
    else:
        move = deal.legal_moves()[choice - deal.following]
        found = _find_move(actions, move, deal.level)
    if found is None:
        log.warning("seat %s: the server does not offer the agent's choice %d; sending %s", seat, choice, actions[0])
        return 0, False
    return found, True


def _find_move(actions: Sequence[Any], move: Any, level: int) -> int | None:
    """The index of the server's entry holding ``move`` (any card order)."""
    kind = move.kind.platform_name  # "Bomb" for four jokers too
    rank, size = move.rank, len(move.cards)
    target = (int(move.kind), move.key, move.cards.once, move.cards.twice)
    for i, entry in enumerate(actions):
        if entry[1] == rank and len(entry[2]) == size and (entry[0] == kind or entry[0] == "FourKings"):
            if platform_row(entry, level) == target:
                return i
    return None


# -- the session -------------------------------------------------------------------------------
async def play(
    url: str,
    agent: Any,
    *,
    create_room: int | None = None,
    join: int | None = None,
    seat: int | None = None,
    user: str | None = None,
    log_file: str | Path | IO[str] | None = None,
    protocol: str = "openguandan",
    rules: Rules | None = None,
    wake_after: float = 5.0,
    idle_timeout: float = 120.0,
    connect_timeout: float = 10.0,
) -> ClientResult:
    """Play one seat at ``url`` until the server's final ``gameResult``/``gameOver``.

    OpenGuanDan (``protocol="openguandan"``): ``create_room=ROUNDS`` creates a room for that
    many games, ``join=ROOM`` joins one; ``seat`` (default 0) and ``user`` (default
    ``"guandan_fast-<seat>"``) are sent with it. ``protocol="legacy"``: the older platform,
    where the URL names the seat and no room is created or joined.

    ``log_file``: a path or text stream receiving every message as one JSON line
    ``{"seat", "dir": "recv"|"send", "msg"}`` (the layout of the shared recordings).
    A seat that hears nothing for ``wake_after`` seconds sends ``GET_ROOMPLAYER``, which
    releases a message stuck in the server's room queue; after ``idle_timeout`` seconds of
    silence, or when the connection drops, :class:`PlatformError` is raised.
    """
    websockets = _websockets()
    chosen = _protocol(protocol, create_room, join, seat, user)
    mirror = Mirror(seat, rules)
    result = ClientResult(seat, join, mirror)
    own_log = log_file is not None and not hasattr(log_file, "write")
    stream: IO[str] | None = open(log_file, "w", encoding="utf-8") if own_log else log_file  # type: ignore[arg-type]  # noqa: SIM115
    try:
        try:
            connection = await asyncio.wait_for(
                websockets.connect(url, max_size=None, ping_interval=None), connect_timeout
            )
        except (OSError, asyncio.TimeoutError, websockets.InvalidURI, websockets.InvalidHandshake) as error:
            raise PlatformError(f"cannot connect to {url}: {error or type(error).__name__}") from None
        async with connection:
            session = _Session(connection, chosen, agent, mirror, result, stream, websockets, idle_timeout)
            await session.run(wake_after)
    except PlatformError as error:
        known = mirror.seat if mirror.seat is not None else getattr(chosen, "seat", None)
        log.error("%s: %s", "client" if known is None else f"seat {known}", error)
        raise
    finally:
        if own_log and stream is not None:
            stream.close()
    return result


def play_sync(url: str, agent: Any, **options: Any) -> ClientResult:
    """:func:`play` run to the end in a new event loop (for scripts without asyncio)."""
    return asyncio.run(play(url, agent, **options))


def _protocol(name: str, create_room: int | None, join: int | None, seat: int | None, user: str | None) -> Protocol:
    if name == "legacy":
        if create_room is not None or join is not None:
            raise ValueError("the legacy platform has no rooms: the URL names the seat")
        return LegacyProtocol()
    if name != "openguandan":
        raise ValueError(f"unknown protocol {name!r}: one of {', '.join(PROTOCOLS)}")
    seat = 0 if seat is None else seat
    seat = check_seat(seat)
    if create_room is not None:
        bounded(create_room, "create_room (the number of games)", 1)
    return OpenGuanDanProtocol(user or f"guandan_fast-{seat}", seat, create_rounds=create_room, room=join)


class _Session:
    """One connection's loop: receive, mirror, answer."""

    def __init__(
        self, connection: Any, protocol: Protocol, agent: Any, mirror: Mirror, result: ClientResult,
        stream: IO[str] | None, websockets: Any, idle_timeout: float,
    ) -> None:
        self.connection, self.protocol, self.agent, self.mirror = connection, protocol, agent, mirror
        self.result, self.stream, self.websockets, self.idle_timeout = result, stream, websockets, idle_timeout

    def _record(self, direction: str, msg: Any) -> None:
        if self.stream is not None:
            self.stream.write(json.dumps({"seat": self.mirror.seat, "dir": direction, "msg": msg}, ensure_ascii=False) + "\n")

    async def _send(self, msg: dict[str, Any]) -> None:
        self._record("send", msg)
        try:
            await asyncio.wait_for(self.connection.send(json.dumps(msg, ensure_ascii=False)), self.idle_timeout)
        except self.websockets.ConnectionClosed as error:
            raise PlatformError(f"the connection dropped while sending {msg.get('type', 'an answer')}: {_closed(error)}") from None
        except asyncio.TimeoutError:
            raise PlatformError(f"the server took nothing for {self.idle_timeout:g} s: giving up") from None

    async def run(self, wake_after: float) -> None:
        for msg in self.protocol.opening():
            await self._send(msg)
        silent = 0.0
        while True:
            try:
                raw = await asyncio.wait_for(self.connection.recv(), wake_after)
            except asyncio.TimeoutError:
                silent += wake_after
                if silent >= self.idle_timeout:
                    raise PlatformError(f"no message from the server for {silent:g} s: giving up") from None
                room = self.mirror.room if self.mirror.room is not None else self.result.room
                if self.protocol.wakes_up and room is not None:
                    await self._send({"type": "GET_ROOMPLAYER", "data": {"roomId": room}})
                continue
            except self.websockets.ConnectionClosed as error:
                raise PlatformError(f"the server closed the connection: {_closed(error)}") from None
            msg = self._decode(raw)
            self._record("recv", msg)
            if msg.get("type") != "GET_ROOMPLAYER":  # a reply to our own wake-up is no sign of life
                silent = 0.0
            if self._handle(msg):
                await self._answer(msg)
            if msg.get("stage") in _FINAL_STAGES:
                self.result.final = dict(msg)
                self.result.seat, self.result.room = self.mirror.seat, self.mirror.room or self.result.room
                return

    def _decode(self, raw: Any) -> dict[str, Any]:
        try:
            msg = json.loads(raw)
        except (TypeError, ValueError):
            raise PlatformError(f"malformed message from the server (not JSON): {str(raw)[:200]!r}") from None
        if not isinstance(msg, dict):
            raise PlatformError(f"malformed message from the server (not a JSON object): {str(raw)[:200]!r}")
        return msg

    def _handle(self, msg: dict[str, Any]) -> bool:
        """Feed ``msg`` to the mirror; whether it must be answered."""
        kind = msg.get("type")
        if kind in _ROOM_REPLIES and msg.get("code", 200) != 200:
            raise PlatformError(f"the server refused {kind}: {json.dumps(msg, ensure_ascii=False)[:300]}")
        try:
            self.mirror.feed(msg, check=False)
        except ProtocolError as error:
            raise PlatformError(f"unexpected message from the server: {error}") from None
        if kind == "CREATE_ROOM":
            log.info("room %s created: the other seats join it", self.mirror.room)
        return kind == "act"

    async def _answer(self, msg: dict[str, Any]) -> None:
        mirror = self.mirror
        try:
            index, matched = answer_index(mirror, self.agent, msg)
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise PlatformError(f"cannot answer the act message: {type(error).__name__}: {error}") from None
        await self._send(self.protocol.answer(msg, index, mirror.seat, mirror.room))  # type: ignore[arg-type]
        self.result.answered += 1
        self.result.unmatched += not matched
        try:
            mirror.check_act(msg)  # after the answer: the comparison is not on the clock
        except ProtocolError as error:
            raise PlatformError(f"unexpected act message: {error}") from None


def _closed(error: Any) -> str:
    code = getattr(getattr(error, "rcvd", None), "code", None)
    reason = getattr(getattr(error, "rcvd", None), "reason", "")
    return f"code {code} {reason}".strip() if code is not None else "no close frame (the connection was lost)"


