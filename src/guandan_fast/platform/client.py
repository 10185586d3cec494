"""The platform client: one seat played by any agent over a websocket (:func:`play`).

Every message received is fed to a :class:`~guandan_fast.platform.Mirror`; every ``act``
is answered with the exact entry of its ``actionList`` the agent chose
(:mod:`~guandan_fast.platform.answers`).

The client never abandons a game it can answer: where the mirror cannot follow the server
it says so once (a warning) and answers each request on a deal rebuilt from the request,
until it is back in step. It never reconnects (the server cannot resume a seat): a
dropped connection, a frame that is no protocol message, a request without a usable
``actionList``, or a silent server ends it with a :class:`PlatformError` that says what
happened.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..engine.cards import check_seat
from ..engine.rules import Rules
from .answers import answer_index
from .messages import ProtocolError, decode, read_actions, short
from .mirror import Mirror
from .protocols import PROTOCOLS, LegacyProtocol, OpenGuanDanProtocol, Protocol

__all__ = ["ClientResult", "PlatformError", "play", "play_sync"]

log = logging.getLogger("guandan_fast.platform")

#: Replies to room requests: anything but code 200 ends the client.
_ROOM_REPLIES = frozenset({"CREATE_ROOM", "JOIN_ROOM", "JOIN", "GET_ROOMPLAYER"})
#: The stages of the requests a seat answers.
_ANSWERED_STAGES = frozenset({"play", "tribute", "back"})
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
    #: Answers given while the mirror could not follow the server (on a deal rebuilt from
    #: the request, or the first entry when none could be).
    unfollowed: int = 0
    final: dict[str, Any] = field(default_factory=dict)


def _websockets() -> Any:
    try:
        import websockets
    except ImportError:  # pragma: no cover - the test environment has it
        raise ImportError(
            "the platform client needs the 'websockets' package: pip install 'guandan_fast[platform]'"
        ) from None
    return websockets


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
    mirror = Mirror(getattr(chosen, "seat", None), rules)
    result = ClientResult(mirror.seat, join, mirror)
    own_log = isinstance(log_file, (str, os.PathLike))
    stream = _open_log(log_file) if isinstance(log_file, (str, os.PathLike)) else log_file
    try:
        try:
            connection = await asyncio.wait_for(
                websockets.connect(url, max_size=None, ping_interval=None, open_timeout=None), connect_timeout
            )
        except asyncio.TimeoutError:  # before OSError: TimeoutError is one
            raise PlatformError(
                f"cannot connect to {url}: no websocket handshake within {connect_timeout:g} s "
                "(something accepts connections there, but does not answer as a websocket server)"
            ) from None
        except (OSError, websockets.InvalidURI, websockets.InvalidHandshake) as error:
            raise PlatformError(f"cannot connect to {url}: {str(error) or type(error).__name__}") from None
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


def _open_log(path: str | Path) -> IO[str]:
    """The game log, opened before connecting: a path that cannot be written is a bad
    argument (ValueError naming it), not a fault of the session."""
    try:
        return open(path, "w", encoding="utf-8")  # closed by play()
    except OSError as error:
        raise ValueError(f"cannot write the game log {str(path)!r}: {error.strerror or error}") from None


def play_sync(url: str, agent: Any, **options: Any) -> ClientResult:
    """:func:`play` run to the end in a new event loop (for scripts without asyncio)."""
    return asyncio.run(play(url, agent, **options))


def _protocol(name: str, create_room: int | None, join: int | None, seat: int | None, user: str | None) -> Protocol:
    if name == "legacy":
        if create_room is not None or join is not None:
            raise ValueError("the legacy platform has no rooms: the URL names the seat")
        if seat is not None:
            raise ValueError("the legacy platform takes no seat (--seat): its URL names the seat (.../game/clientN)")
        return LegacyProtocol()
    if name != "openguandan":
        raise ValueError(f"unknown protocol {name!r}: one of {', '.join(PROTOCOLS)}")
    seat = 0 if seat is None else seat
    seat = check_seat(seat)
    return OpenGuanDanProtocol(user or f"guandan_fast-{seat}", seat, create_room=create_room, join=join)


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
            row = {"seat": self.mirror.seat, "dir": direction, "msg": msg}
            try:
                line = json.dumps(row, ensure_ascii=False)
            except RecursionError:  # a frame nested nearly as deep as the decoder allows
                line = json.dumps({**row, "msg": short(msg)}, ensure_ascii=False)
            self.stream.write(line + "\n")

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
            try:
                msg = decode(raw)
            except ProtocolError as error:
                raise PlatformError(f"malformed message from the server: {error}") from None
            self._record("recv", msg)
            if msg.get("type") != "GET_ROOMPLAYER":  # a reply to our own wake-up is no sign of life
                silent = 0.0
            if self._handle(msg):
                await self._answer(msg)
            if msg.get("stage") in _FINAL_STAGES:
                self.result.final = dict(msg)
                self.result.seat, self.result.room = self.mirror.seat, self.mirror.room or self.result.room
                return

    def _handle(self, msg: dict[str, Any]) -> bool:
        """Feed ``msg`` to the mirror; whether it must be answered."""
        kind = msg["type"]
        if kind in _ROOM_REPLIES and msg.get("code", 200) != 200:
            raise PlatformError(f"the server refused {kind}: {short(msg)}")
        mirror = self.mirror
        try:
            mirror.feed(msg, check=False)
        except ProtocolError as error:
            if kind == "act":
                try:
                    read_actions(msg)
                    if msg.get("stage") not in _ANSWERED_STAGES:
                        raise ProtocolError(f"act of unknown stage {short(msg.get('stage'))}")
                except ProtocolError as unusable:
                    raise PlatformError(f"a request the client cannot answer: {unusable}") from None
            # a message of the deal puts the mirror out of step (it said so); anything else is noted
            level = logging.INFO if mirror.lost is not None else logging.WARNING
            log.log(level, "seat %s: a message the mirror cannot read: %s", mirror.seat, error)
        if kind == "CREATE_ROOM":
            log.info("room %s created: the other seats join it", mirror.room)
        return bool(kind == "act")

    async def _answer(self, msg: dict[str, Any]) -> None:
        mirror, result = self.mirror, self.result
        followed = mirror.in_step(msg) or mirror.off_rules(msg)
        try:
            index, matched = answer_index(mirror, self.agent, msg)
        except (KeyError, IndexError, TypeError, ValueError) as error:
            log.warning("seat %s: no answer from the agent (%s: %s): sending the first entry", mirror.seat, type(error).__name__, error)
            index, matched = 0, False
        await self._send(self.protocol.answer(msg, index, mirror.seat, mirror.room))
        result.answered += 1
        result.unmatched += not matched
        result.unfollowed += not followed
        mirror.check_act(msg)  # after the answer: the comparison is not on the clock (it never raises)


def _closed(error: Any) -> str:
    code = getattr(getattr(error, "rcvd", None), "code", None)
    reason = getattr(getattr(error, "rcvd", None), "reason", "")
    return f"code {code} {reason}".strip() if code is not None else "no close frame (the connection was lost)"


