"""The two wire formats the client speaks: the OpenGuanDan server's (rooms; answers name the
chosen ``actionList`` entry) and the older platform's (one websocket per seat, no rooms;
answers ``{"actIndex": i}``).

The older platform is known from its public clients, e.g. the DanZero+ actor
(``submit-paper/Danzero_plus``, ``actor_n/game.py``): each seat connects to its own URL
(``ws://HOST:23456/game/client{seat}`` there), receives the same ``notify``/``act``
messages, and answers every ``act`` — play, tribute and return alike — with
``{"actIndex": index}`` into the request's ``actionList``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine.cards import bounded

__all__ = ["PROTOCOLS", "LegacyProtocol", "OpenGuanDanProtocol", "Protocol"]

#: The ``type`` of the OpenGuanDan answer to each ``act`` stage.
_ANSWER_TYPES = {"play": "PLAY", "tribute": "TRIBUTE", "back": "PAYTRIBUTE"}


class Protocol:
    """What differs between the platforms: how a seat sits down and how it answers."""

    name = ""
    #: Whether an idle seat may send ``GET_ROOMPLAYER`` to release a stuck message.
    wakes_up = False

    def opening(self) -> list[dict[str, Any]]:
        """The messages sent once connected."""
        return []

    def answer(self, msg: Mapping[str, Any], index: int, seat: int | None, room: int | None) -> dict[str, Any]:
        """The answer to the ``act`` message ``msg`` choosing ``actionList[index]`` (``seat``:
        the mirror's, None until the server named it, which only the legacy protocol allows)."""
        raise NotImplementedError


class LegacyProtocol(Protocol):
    """The older platform: the seat is given by the URL; an answer is the index itself."""

    name = "legacy"

    def answer(self, msg: Mapping[str, Any], index: int, seat: int | None, room: int | None) -> dict[str, Any]:
        return {"actIndex": index}


class OpenGuanDanProtocol(Protocol):
    """The OpenGuanDan server: ``CREATE_ROOM``/``JOIN_ROOM``, then ``PLAY``, ``TRIBUTE`` and
    ``PAYTRIBUTE`` answers carrying the exact ``actionList`` entry (the server compares
    card order), a return echoing ``tributePos``/``tribute`` (shared PROTOCOL.md)."""

    name = "openguandan"
    wakes_up = True

    def __init__(self, user: str, seat: int, *, create_room: int | None = None, join: int | None = None) -> None:
        # (named as play() and the command line take them: the one check of both)
        if (create_room is None) == (join is None):
            raise ValueError("give one of create_room (--create-room ROUNDS: a new room) and join (--join ROOM)")
        if create_room is not None:
            create_room = bounded(create_room, "create_room (the number of games)", 1)
        if join is not None:
            join = bounded(join, "join (the room number)", 0)
        self.user, self.seat, self.create_room, self.join = user, seat, create_room, join

    def opening(self) -> list[dict[str, Any]]:
        if self.create_room is not None:
            data = {"userId": self.user, "round": self.create_room, "seatNum": self.seat}
            return [{"type": "CREATE_ROOM", "data": data}]
        return [{"type": "JOIN_ROOM", "data": {"userId": self.user, "roomId": self.join, "seatNum": self.seat}}]

    def answer(self, msg: Mapping[str, Any], index: int, seat: int | None, room: int | None) -> dict[str, Any]:
        stage = msg["stage"]
        data: dict[str, Any] = {"roomId": room, "player": seat}
        if stage == "back":
            data["tributePos"] = msg.get("tributePos")
            data["tribute"] = msg.get("tribute")
        data["act"] = msg["actionList"][index]
        return {"type": _ANSWER_TYPES[stage], "data": data}


PROTOCOLS = ("openguandan", "legacy")
