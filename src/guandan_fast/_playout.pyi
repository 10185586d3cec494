"""Type stub of the native random-playout module (see _playout.pyx).

Every function checks its arguments itself: TypeError for an argument that is no integer
(a bool or float included), ValueError for a value out of range (a seed outside
0 <= seed < 2**64, a level outside 2..14, ...) or a state no deal can be in.
"""

from collections.abc import Sequence
from typing import Any

import numpy as np

def playout(
    once: Sequence[int],
    twice: Sequence[int],
    level: int,
    to_act: int,
    last_kind: int,
    last_key: int,
    last_size: int,
    greater: int,
    passes: int,
    finish: Sequence[int],
    seed: int,
    record: bool = False,
    policy: int = 0,
) -> Any: ...
def playouts(
    once: Sequence[int],
    twice: Sequence[int],
    level: int,
    to_act: int,
    last_kind: int,
    last_key: int,
    last_size: int,
    greater: int,
    passes: int,
    finish: Sequence[int],
    seed: int,
    n: int,
    policy: int = 0,
) -> np.ndarray: ...
def world_playouts(
    once: Sequence[int],
    twice: Sequence[int],
    level: int,
    to_act: int,
    last_kind: int,
    last_key: int,
    last_size: int,
    greater: int,
    passes: int,
    finish: Sequence[int],
    worlds: np.ndarray,
    move_kinds: Sequence[int] | np.ndarray,
    move_keys: Sequence[int] | np.ndarray,
    move_cards: Sequence[Sequence[int]] | np.ndarray,
    seed: int,
    n: int,
    policy: int = 0,
) -> np.ndarray: ...
def random_deals(n: int, seed: int, level: int = 2) -> np.ndarray: ...
def read_only(kinds: np.ndarray, keys: np.ndarray, cards: np.ndarray) -> None: ...
