"""Type stub of the native random-playout module (see _playout.pyx)."""

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
) -> np.ndarray: ...
def random_deals(n: int, seed: int, level: int = 2) -> np.ndarray: ...
