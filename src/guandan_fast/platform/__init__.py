"""Play on the OpenGuanDan competition platform: a mirror of one seat's view
(:class:`Mirror`) and a websocket client for any agent (:func:`play`)."""

from .mirror import DEPARTURES, MOVE_LIST_CLASSES, Mirror, ProtocolError, Unseen, platform_rules

__all__ = ["DEPARTURES", "MOVE_LIST_CLASSES", "Mirror", "ProtocolError", "Unseen", "platform_rules"]
