"""Type stubs of the native Hand and Move makers (``_values.pyx``); trusted inputs only."""

from typing import Any

from .hand import Hand
from .moves import Move

HAND_SLOT_NAMES: tuple[str, str]
MOVE_SLOT_NAMES: tuple[str, str, str, str, str]

def bind_hand(cls: type) -> None:
    """Make :func:`new_hand` build instances of ``cls``."""

def bind_move(cls: type, kinds: Any) -> None:
    """Make :func:`new_move` build instances of ``cls``; ``kinds``: MoveType members by code."""

def new_hand(once: int, twice: int) -> Hand:
    """A Hand of valid planes (not checked)."""

def new_move(kind: Any, key: int, cards: Hand, level: int, table_args: tuple[int, int, int]) -> Move:
    """A Move of these slot values (not checked)."""

def new_move_of(action_row: tuple[int, int, int, int, int], level: int) -> Move:
    """The Move of a ``read_checked`` row ``(kind, key, once, twice, size)`` (not checked)."""
