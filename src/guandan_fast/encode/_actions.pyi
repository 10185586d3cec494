"""Type stub of the native action-space kernels (see _actions.pyx and guandan_fast.encode.actions)."""

from collections.abc import Sequence

import numpy as np

def set_layout(
    first_id: Sequence[Sequence[int]], size_min: Sequence[int], size_max: Sequence[int], size_stride: Sequence[int]
) -> None: ...
def move_ids(
    kinds: np.ndarray, keys: np.ndarray, cards: np.ndarray, following: bool, mask_size: int
) -> tuple[np.ndarray, np.ndarray | None]: ...
def canonical_row(ids: np.ndarray, cards: np.ndarray, target: int, hand_once: int, hand_twice: int, level: int) -> int: ...
def canonical_table(
    ids: np.ndarray, cards: np.ndarray, hand_once: int, hand_twice: int, level: int, table_size: int, offset: int
) -> np.ndarray: ...
