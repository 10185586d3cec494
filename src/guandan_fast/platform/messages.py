"""Reading the server's frames: the fields of a message checked and converted (seats,
cards, actions), every fault a :class:`ProtocolError` naming the message and the field."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from ..cards import CARD_NAMES, parse_card
from ..hand import Hand
from ..kinds import platform_row
from ..moves import MoveType

__all__ = [
    "PASS", "PASS_KEY", "ROOM_REPLIES", "ProtocolError", "action_key", "field", "read_cards", "read_seat", "reading", "show",
]

#: Room bookkeeping replies that carry nothing for the game.
ROOM_REPLIES = frozenset({"CREATE_ROOM", "JOIN_ROOM", "JOIN"})
PASS = ("PASS", "PASS", "PASS")
#: The row (kind, key, once, twice) of the pass.
PASS_KEY = (0, 0, 0, 0)


class ProtocolError(ValueError):
    """A server message the mirror cannot read (not JSON-like, missing or malformed fields)."""


@contextmanager
def reading(msg: Mapping[str, Any]) -> Iterator[None]:
    """Turn what a field of the wrong shape raises while reading ``msg`` into a ProtocolError."""
    try:
        yield
    except ProtocolError:
        raise
    except (KeyError, IndexError, TypeError, ValueError) as error:
        what = f"{msg.get('type')!r}/{msg.get('stage')!r}"
        raise ProtocolError(f"malformed {what} message: {type(error).__name__}: {error}") from None


def field(msg: Mapping[str, Any], name: str) -> Any:
    try:
        return msg[name]
    except KeyError:
        raise ProtocolError(f"{msg.get('type')!r}/{msg.get('stage')!r} message without {name!r}") from None


def read_cards(names: object) -> Hand:
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise ProtocolError(f"expected a list of cards, not {names!r}")
    try:
        return Hand(names)
    except (TypeError, ValueError) as error:
        raise ProtocolError(f"bad card list {names!r}: {error}") from None


def read_seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ProtocolError(f"expected a seat 0-3, not {value!r}")
    return value


def action_key(action: Sequence[Any], level: int) -> tuple[Any, ...]:
    """An ``actionList`` entry as a comparable key: the move's row, or (kind, 0, card, 0)
    for a tribute or return."""
    if action[0] in ("tribute", "back"):
        return (action[0], 0, parse_card(action[2][0]), 0)
    return platform_row(action, level)


def show(keys: Any) -> str:
    """A few action keys (see :func:`action_key`) in words, for log lines."""

    def words(key: tuple[Any, ...]) -> str:
        kind, _, once, twice = key
        if isinstance(kind, str):
            return f"{kind} {CARD_NAMES[once]}"
        return f"{MoveType(kind).name} {Hand.from_bits(once, twice)}"

    return ", ".join(words(key) for key in list(keys)[:3])
