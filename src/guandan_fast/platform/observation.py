"""The server's ``act`` message for one seat of a deal (PROTOCOL: ``type``, ``stage``,
``handCards``, ``publicInfo``, ranks, ``curPos``/``curAction``, ``greaterPos``/
``greaterAction``, ``actionList``, ``indexRange``, and ``myPos``)."""

from __future__ import annotations

from typing import Any

from ..engine.deal import Deal
from ..engine.observation import ACT_FIELDS

__all__ = ["act_message"]


def act_message(deal: Deal, seat: int) -> dict[str, Any]:
    """The act-message fields of ``deal.observation(seat)`` as a plain dict (new lists:
    JSON-ready, and changing them changes nothing in the deal)."""
    observation = deal.observation(seat)
    return {name: observation[name] for name in ACT_FIELDS}
