"""Type stub of the native random-playout module (see _playout.pyx).

Every function checks its arguments itself: TypeError for an argument that is no integer
(a bool or float included), ValueError for a value out of range (a seed outside
0 <= seed < 2**64, a level outside 2..14, ...) or a state no deal can be in.
"""

from collections.abc import Sequence
from typing import Any

import numpy as np

#: The ten values of a deal in its play phase (``Deal._play_state()``): once, twice (four
#: planes each), level, to_act, last_kind, last_key, last_size, greater, passes, finish.
PlayState = tuple[Sequence[int], Sequence[int], int, int, int, int, int, int, int, Sequence[int]]

def playout(state: PlayState, seed: int, record: bool = False, policy: int = 0) -> Any: ...
def playouts(state: PlayState, seed: int, n: int, policy: int = 0) -> np.ndarray: ...
def world_playouts(
    state: PlayState,
    worlds: np.ndarray,
    move_kinds: Sequence[int] | np.ndarray,
    move_keys: Sequence[int] | np.ndarray,
    move_cards: Sequence[Sequence[int]] | np.ndarray,
    seed: int,
    n: int,
    policy: int = 0,
) -> np.ndarray: ...
def random_deals(n: int, seed: int, level: int = 2) -> np.ndarray: ...
