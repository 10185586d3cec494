"""Adapters for the competition platform (the OpenGuanDan server and its lineage).

The game (:mod:`guandan_fast.game`) knows nothing of this package; it depends on the game,
never the other way round. :attr:`Deal.observation <guandan_fast.game.Deal.observation>`
has always carried the platform's act-message field names, so their values are computed
below the game, in :mod:`guandan_fast.observation`; here :func:`act_message` gives them as
the server's ``act`` message shape (a plain, JSON-ready dict), and :func:`play_log` writes
a readable log of a random match.
"""

from .observation import act_message
from .playlog import play_log

__all__ = ["act_message", "play_log"]
