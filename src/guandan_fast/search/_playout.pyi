"""Type stub of the native playout module (see _playout.pyx).

Every function checks its arguments itself: TypeError for an argument that is no integer
(a bool or float included) or no State, ValueError for a value out of range (a seed outside
0 <= seed < 2**64, a level outside 2..14, more than ``PLAYOUT_LIMIT`` playouts, ...).
"""

from collections.abc import Sequence
from typing import Literal, TypeAlias, overload

import numpy as np
import numpy.typing as npt

from ..engine.state import State

PLAYOUT_LIMIT: int

#: The finishing order: the four seats, first to last.
_Finish: TypeAlias = tuple[int, int, int, int]
#: ``(finish, seats, kinds, keys, cards)``: one row per action in the order played.
_Record: TypeAlias = tuple[
    _Finish, npt.NDArray[np.int8], npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint64]
]

@overload
def playout(state: State, seed: int, record: Literal[False] = False, policy: int = 0) -> _Finish: ...
@overload
def playout(state: State, seed: int, record: Literal[True], policy: int = 0) -> _Record: ...
@overload
def playout(state: State, seed: int, record: bool, policy: int = 0) -> _Finish | _Record: ...
def playouts(state: State, seed: int, n: int, policy: int = 0) -> npt.NDArray[np.int8]: ...
def world_playouts(
    state: State,
    worlds: np.ndarray,
    move_kinds: Sequence[int] | np.ndarray,
    move_keys: Sequence[int] | np.ndarray,
    move_cards: Sequence[Sequence[int]] | np.ndarray,
    seed: int,
    n: int,
    policy: int = 0,
) -> npt.NDArray[np.int8]: ...
def random_deals(n: int, seed: int, level: int = 2) -> npt.NDArray[np.int8]: ...
def _release_kept_caches() -> int:
    """Free the caches kept for the next calls; the number freed."""
