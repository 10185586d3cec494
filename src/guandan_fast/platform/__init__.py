"""Play on the OpenGuanDan competition platform: a mirror of one seat's view
(:class:`Mirror`) and a websocket client for any agent (:func:`play`); ``websockets`` is
needed only to connect (the ``platform`` extra)."""

from .client import ClientResult, PlatformError, answer_index, play, play_sync
from .mirror import DEPARTURES, MOVE_LIST_CLASSES, Mirror, ProtocolError, Unseen

__all__ = [
    "DEPARTURES",
    "MOVE_LIST_CLASSES",
    "ClientResult",
    "Mirror",
    "PlatformError",
    "ProtocolError",
    "Unseen",
    "answer_index",
    "play",
    "play_sync",
]
