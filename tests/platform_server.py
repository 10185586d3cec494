"""The practice server (:class:`guandan_fast.platform.server.PracticeServer`) as the tests
run it: on a free port of 127.0.0.1, short games, and faults on demand (a dropped
connection, a malformed message, a request the client cannot answer)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from guandan_fast.platform.server import PracticeServer, ServerStopped


@dataclass
class Faults:
    """Misbehaviour: after ``after`` act messages to ``seat``, ``"drop"`` closes that seat's
    connection without a close frame, ``"malformed"`` sends it a frame that is not JSON,
    ``"unexpected"`` an ``act`` without its fields."""

    kind: str
    seat: int = 0
    after: int = 1


class PlatformServer(PracticeServer):
    """``async with PlatformServer(...) as server:`` then connect clients to ``server.url``."""

    def __init__(self, *, seed: int = 0, max_deals: int | None = 2, faults: Faults | None = None, **options: Any) -> None:
        super().__init__(port=0, seed=seed, max_deals=max_deals, answer_timeout=10.0, **options)
        self.faults = faults

    async def _request(self, room: Any, seat: int, msg: dict[str, Any]) -> None:
        faults = self.faults
        if faults is not None and faults.seat == seat and self.acts_sent[seat] > faults.after:
            link = room.seats[seat]
            if faults.kind == "drop":
                link.transport.abort()
            elif faults.kind == "malformed":
                await link.send("{this is not json")
            else:  # "unexpected": JSON, but not a message the protocol has
                await link.send(json.dumps({"type": "act", "stage": "play", "handCards": 5}))
            raise ServerStopped(f"fault {faults.kind} injected at seat {seat}")
        await super()._request(room, seat, msg)
