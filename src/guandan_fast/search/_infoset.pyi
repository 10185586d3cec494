"""Type stubs of the native world sampler (``_infoset.pyx``); see :mod:`guandan_fast.search.infoset`."""

from collections.abc import Sequence
from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

def sample_hands(
    base: Sequence[tuple[int, int]],
    unseen_once: int,
    unseen_twice: int,
    free: Sequence[int],
    pooled_card: int,
    pooled_count: int,
    pooled_mask: int,
    n: SupportsIndex,
    seed: int,
    barred: Sequence[int] = (0, 0, 0, 0),
) -> npt.NDArray[np.uint64]:
    """``n`` worlds as ``uint64[n, 4, 2]`` hand planes (world ``i`` from the stream ``seed + i``)."""
