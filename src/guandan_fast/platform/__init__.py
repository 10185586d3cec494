"""Adapters for the competition platform (the OpenGuanDan server and its lineage).

The game (:mod:`guandan_fast.engine.deal`) knows nothing of this package; it depends on the game,
never the other way round. :attr:`Deal.observation <guandan_fast.engine.deal.Deal.observation>`
has always carried the platform's act-message field names, so their values are computed
below the game, in :mod:`guandan_fast.engine.observation`; here :func:`act_message` gives them as
the server's ``act`` message shape (a plain, JSON-ready dict), and :func:`play_log` writes
a readable log of a random match.

Playing on the platform: :class:`Mirror` keeps one seat's view of a game as a ``Deal`` in
step with the server's messages, and :func:`play` (``guandan-fast client``) connects a
seat and answers for any agent; ``websockets`` is needed only to connect (the
``platform`` extra).
"""

from .answers import answer_index
from .audit import DEPARTURES, MOVE_LIST_CLASSES
from .client import ClientResult, PlatformError, play, play_sync
from .messages import ProtocolError
from .mirror import Mirror
from .observation import act_message
from .playlog import play_log

__all__ = [
    "DEPARTURES",
    "MOVE_LIST_CLASSES",
    "ClientResult",
    "Mirror",
    "PlatformError",
    "ProtocolError",
    "act_message",
    "answer_index",
    "play",
    "play_log",
    "play_sync",
]
