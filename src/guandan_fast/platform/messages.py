"""Reading the server's frames: the fields of a message checked and converted (seats,
cards, actions), every fault a :class:`ProtocolError` naming the message and the field."""

from __future__ import annotations

import json
import reprlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from ..engine.cards import CARD_NAMES, parse_card
from ..engine.hand import Hand
from ..engine.moves import MoveType
from ..engine.notation import parse

__all__ = [
    "PASS", "PASS_KEY", "ROOM_REPLIES", "ProtocolError", "action_key", "decode", "field", "read_actions", "read_cards",
    "read_seat", "reading", "short", "show",
]

#: Room bookkeeping replies that carry nothing for the game.
ROOM_REPLIES = frozenset({"CREATE_ROOM", "JOIN_ROOM", "JOIN"})
PASS = ("PASS", "PASS", "PASS")
#: The row (kind, key, once, twice) of the pass.
PASS_KEY = (0, 0, 0, 0)


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring, _SHORT.maxother = 3, 8, 6, 60, 60


def short(value: object) -> str:
    """A bounded repr of a value from a message, for error and log lines (whatever its
    size or nesting)."""
    return _SHORT.repr(value)


class ProtocolError(ValueError):
    """A server message the mirror cannot read (not JSON-like, missing or malformed fields)."""


@contextmanager
def reading(msg: Mapping[str, Any]) -> Iterator[None]:
    """Turn what a field of the wrong shape raises while reading ``msg`` into a ProtocolError."""
    try:
        yield
    except ProtocolError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, RecursionError) as error:
        what = f"{short(msg.get('type'))}/{short(msg.get('stage'))}"
        raise ProtocolError(f"malformed {what} message: {type(error).__name__}: {str(error)[:200]}") from None


def decode(raw: str | bytes) -> dict[str, Any]:
    """One frame as a message: a JSON object whose ``type`` (and ``stage``, when there is
    one) is a string. ProtocolError, quoting the start of the frame, for anything else
    (nesting too deep for Python included)."""
    try:
        msg = json.loads(raw)
    except (TypeError, ValueError, RecursionError) as error:
        what = "nested too deeply" if isinstance(error, RecursionError) else "not JSON"
        raise ProtocolError(f"a frame that is {what}: {_start(raw)}") from None
    if not isinstance(msg, dict):
        raise ProtocolError(f"a frame that is not a JSON object: {_start(raw)}")
    if not isinstance(msg.get("type"), str) or not isinstance(msg.get("stage"), (str, type(None))):
        raise ProtocolError(f"a message whose type or stage is not a string: {_start(raw)}")
    return msg


def _start(raw: object) -> str:
    return repr(str(raw)[:200])


def read_actions(msg: Mapping[str, Any]) -> Sequence[Any]:
    """The ``actionList`` of an ``act``: a non-empty list of ``[type, rank, cards]``
    triples (one card for a tribute or a return)."""
    actions = field(msg, "actionList")
    if isinstance(actions, (str, bytes)) or not isinstance(actions, Sequence) or not actions:
        raise ProtocolError(f"act with an empty or malformed actionList: {short(actions)}")
    for entry in actions:
        if not _triple(entry):
            raise ProtocolError(f"act whose actionList holds {short(entry)}, not a [type, rank, cards] triple")
    return actions


def _triple(entry: object) -> bool:
    """Whether ``entry`` is ``[type, rank, cards]`` (``["PASS", "PASS", "PASS"]`` for the pass)."""
    if isinstance(entry, (str, bytes)) or not isinstance(entry, Sequence) or len(entry) != 3:
        return False
    kind, rank, cards = entry
    if kind == "PASS":
        return True
    return (
        isinstance(kind, str) and isinstance(rank, str) and not isinstance(cards, (str, bytes))
        and isinstance(cards, Sequence) and all(isinstance(card, str) for card in cards)
        and (kind not in ("tribute", "back") or len(cards) == 1)
    )


def field(msg: Mapping[str, Any], name: str) -> Any:
    try:
        return msg[name]
    except KeyError:
        raise ProtocolError(f"{short(msg.get('type'))}/{short(msg.get('stage'))} message without {name!r}") from None


def read_cards(names: object) -> Hand:
    if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
        raise ProtocolError(f"expected a list of cards, not {short(names)}")
    try:
        return Hand(names)
    except (TypeError, ValueError) as error:
        raise ProtocolError(f"bad card list {short(names)}: {str(error)[:200]}") from None


def read_seat(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise ProtocolError(f"expected a seat 0-3, not {short(value)}")
    return value


def action_key(action: Sequence[Any], level: int) -> tuple[Any, ...]:
    """An ``actionList`` entry as a comparable key: the move's row, or (kind, 0, card, 0)
    for a tribute or return."""
    if action[0] in ("tribute", "back"):
        return (action[0], 0, parse_card(action[2][0]), 0)
    return parse(action, level)


def show(keys: Any) -> str:
    """A few action keys (see :func:`action_key`) in words, for log lines."""

    def words(key: tuple[Any, ...]) -> str:
        kind, _, once, twice = key
        if isinstance(kind, str):
            return f"{kind} {CARD_NAMES[once]}"
        return f"{MoveType(kind).name} {Hand.from_bits(once, twice)}"

    return ", ".join(words(key) for key in list(keys)[:3])
