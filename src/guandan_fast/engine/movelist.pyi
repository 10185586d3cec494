"""Type stubs of :mod:`guandan_fast.engine.movelist` (``movelist.pyx``)."""

from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any, ClassVar, SupportsIndex, TypeAlias, overload

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

from ._movegen import Moves
from .backend import Backend
from .hand import CardsLike
from .kinds import MoveArrays
from .moves import Move

__all__ = ["MOVE_DTYPE", "MoveList", "has_legal_follow", "legal_moves", "read_last"]

#: The move to beat as the calls take it: None (leading), a Move (PASS: leading) or a
#: platform triple ``[type, rank, cards]``.
_Last: TypeAlias = Move | Sequence[Any] | None

MOVE_DTYPE: np.dtype

@disjoint_base
class MoveList(Moves):
    """The moves of one call, held as parallel numpy arrays.

    ``kinds[i]`` (:class:`~guandan_fast.engine.moves.MoveType` codes), ``keys[i]`` and
    ``cards[i] = (once, twice)`` describe move ``i``; :class:`~guandan_fast.engine.moves.Move`
    objects are made only on iteration or indexing, so bulk users pay nothing per move.
    ``MoveList(moves, level)`` copies any object with the three arrays (a
    :class:`~guandan_fast.engine.kinds.MoveArrays`, another list), checking that each row is
    a legal reading at ``level``; an array set on a list is checked the same way. Two lists are
    equal when they hold the same moves in the same order at the same level.
    """

    def __init__(self, moves: MoveArrays | Moves, level: int | str) -> None: ...
    @classmethod
    def _trusted(cls, moves: MoveArrays | Moves, level: int) -> MoveList: ...
    @property
    def level(self) -> int:
        """The level the moves were made at."""
    @property
    def kinds(self) -> npt.NDArray[np.uint8]:
        """``uint8[n]``: the MoveType code of each move."""
    @kinds.setter
    def kinds(self, value: npt.NDArray[np.integer[Any]]) -> None: ...
    @property
    def keys(self) -> npt.NDArray[np.uint8]:
        """``uint8[n]``: the key of each move."""
    @keys.setter
    def keys(self, value: npt.NDArray[np.integer[Any]]) -> None: ...
    @property
    def cards(self) -> npt.NDArray[np.uint64]:
        """``uint64[n, 2]``: the ``(once, twice)`` planes of each move."""
    @cards.setter
    def cards(self, value: npt.NDArray[np.integer[Any]]) -> None: ...
    def __len__(self) -> int: ...
    def count(self) -> int:
        """Number of moves (python-chess style)."""
    @overload
    def __getitem__(self, index: SupportsIndex, /) -> Move: ...
    @overload
    def __getitem__(self, index: slice, /) -> list[Move]: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __contains__(self, move: object, /) -> bool: ...
    def row(self, index: SupportsIndex) -> tuple[int, int, int, int]:
        """Move ``index`` as plain ints ``(kind, key, once, twice)``, without building a Move."""
    def rows(self) -> Iterator[tuple[int, int, int, int]]:
        """Every move as plain ints ``(kind, key, once, twice)``, without building Moves."""
    def to_platform(self) -> list[list[Any]]:
        """Every move as a platform triple ``[type, rank, cards]``."""
    def to_numpy(self) -> np.ndarray:
        """One structured row per move: ``kind`` (uint8), ``key`` (uint8), ``cards`` (uint64[2])."""
    def __eq__(self, other: object) -> bool: ...
    __hash__: ClassVar[None]  # type: ignore[assignment]
    def __reduce__(self) -> tuple[Callable[[int, bytes], MoveList], tuple[int, bytes]]: ...
    def __setstate__(self, state: object) -> None: ...
    def _shared(self) -> MoveList: ...
    def __copy__(self) -> MoveList: ...
    def __deepcopy__(self, memo: dict[int, Any]) -> MoveList: ...

def read_last(last: _Last, level: int, gen: ModuleType | None = None) -> tuple[int, int, int]:
    """``(kind, key, size)`` of the move to beat: None or PASS (leading), a Move or a platform triple."""

def legal_moves(
    hand: CardsLike | Move, level: int | str, last: _Last = None, *, strongest: bool = False, backend: Backend | None = None
) -> MoveList:
    """Every legal move of ``hand`` at ``level``: leading, or beating ``last``."""

def has_legal_follow(hand: CardsLike | Move, level: int | str, last: _Last, *, backend: Backend | None = None) -> bool:
    """Whether ``hand`` can beat ``last`` (a pass does not count)."""
