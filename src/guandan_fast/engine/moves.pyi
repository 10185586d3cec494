"""Type stubs of :mod:`guandan_fast.engine.moves` (``moves.pyx``): the :class:`Move` value."""

from collections.abc import Callable
from typing import Any, Final

from typing_extensions import disjoint_base

from .hand import CardsLike, Hand
from .kinds import PLATFORM_NAMES as PLATFORM_NAMES
from .kinds import SEQUENCE_TYPES as SEQUENCE_TYPES
from .kinds import MoveType as MoveType
from .kinds import bomb_tier as bomb_tier

__all__ = [
    "PASS",
    "PLATFORM_NAMES",
    "SEQUENCE_TYPES",
    "Move",
    "MoveType",
    "beats",
    "bomb_tier",
    "sort_key",
]

@disjoint_base
class Move:
    """A legal play: its type, its key (strength inside the type) and its cards, at a level.

    ``Move(kind, key, cards, level)`` checks that ``cards`` really read as ``kind`` with
    ``key`` at ``level``. Two moves are equal when type, key, cards and level are equal
    (RULES.md §4): which wildcard stood for what is not part of a move.
    """

    def __init__(self, kind: MoveType | int, key: int, cards: CardsLike | Move, level: int | str) -> None:
        """A move, validated: ``cards`` must really read as ``kind`` with ``key`` at ``level``."""
    @classmethod
    def _trusted(cls, kind: MoveType | int, key: int, cards: Hand, level: int) -> Move: ...
    @property
    def kind(self) -> MoveType:
        """The :class:`MoveType`."""
    @property
    def key(self) -> int:
        """The strength inside the type (see :mod:`guandan_fast.engine.kinds`)."""
    @property
    def cards(self) -> Hand:
        """The cards played."""
    @property
    def level(self) -> int:
        """The level the move was read at (2..14; 0 for :data:`PASS`)."""
    @property
    def rank(self) -> str:
        """The platform's rank field of this move (RULES.md §6)."""
    def to_platform(self) -> list[Any]:
        """``[type, rank, cards]`` as the competition platform writes it."""
    @staticmethod
    def from_platform(action: object, level: int | str) -> Move:
        """Read a platform triple, checking that its cards really form that reading."""
    @property
    def tier(self) -> int:
        """Bomb tier (see :func:`bomb_tier`), -1 for a move that is no bomb."""
    def beats(self, other: Move | None) -> bool:
        """Whether this move may be played on ``other`` (``None`` or PASS: leading)."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> str | tuple[Callable[[int, int, int, int, int], Move], tuple[int, int, int, int, int]]:
        """Pickle by value; a pass comes back as the one :data:`PASS`."""
    def __setstate__(self, state: object) -> None: ...
    def __copy__(self) -> Move: ...
    def __deepcopy__(self, memo: dict[int, Any]) -> Move: ...

def beats(kind: int, key: int, size: int, last_kind: int, last_key: int, last_size: int) -> bool:
    """Whether a move (kind, key, number of cards) may be played on the move to beat (kind
    0, the pass: leading); kinds, keys and sizes outside what a move can have are a ValueError."""

def sort_key(move: Move) -> tuple[int, int, int, int]:
    """A fixed order for move lists: by type, key, then cards."""

#: The pass: a follower's move that plays no card.
PASS: Final[Move]
