"""Type stubs of the native core (``_movegen.pyx``).

A hand is two 54-bit planes ``(once, twice)`` (see :mod:`guandan_fast.engine.hand`); moves come
back as a :class:`Moves` of parallel arrays: ``kinds`` (MoveType codes), ``keys`` and
``cards[i] = (once, twice)``. The move to beat is ``(last_kind, last_key, last_size)``; ``(0, 0, 0)`` leads.
Bad arguments raise ValueError (values) or TypeError (types).
"""

from typing import SupportsIndex

import numpy as np
import numpy.typing as npt
from typing_extensions import disjoint_base

_Int = SupportsIndex

@disjoint_base
class Moves:
    """The moves of one call in one block of memory; each array is made when first read."""

    def __len__(self) -> int: ...
    @property
    def kinds(self) -> npt.NDArray[np.uint8]:
        """MoveType code of each move."""
    @property
    def keys(self) -> npt.NDArray[np.uint8]:
        """Key of each move."""
    @property
    def cards(self) -> npt.NDArray[np.uint64]:
        """``(once, twice)`` planes of each move, shape ``(n, 2)``."""

def generate(
    once: _Int, twice: _Int, level: _Int, last_kind: _Int, last_key: _Int, last_size: _Int, strongest: object
) -> Moves:
    """Legal moves: every reading, or one per (kind, cards) when ``strongest``."""

def classify(once: _Int, twice: _Int, level: _Int) -> Moves:
    """Every reading of exactly these cards."""

def reads_as(once: _Int, twice: _Int, level: _Int, kind: _Int, key: _Int) -> bool:
    """Whether the cards read as a move of ``kind`` with ``key`` (one of their readings)."""

def has_legal_follow(once: _Int, twice: _Int, level: _Int, last_kind: _Int, last_key: _Int, last_size: _Int) -> bool:
    """Whether some move beats the last one (leading: whether the hand holds a card)."""

def generate_batch(
    hands: npt.NDArray[np.uint64],
    levels: _Int | npt.NDArray[np.uint8],
    last_kind: _Int,
    last_key: _Int,
    last_size: _Int,
    strongest: object,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """:func:`generate` over ``uint64[n, 2]`` hands; hand i's moves are rows
    ``offsets[i]:offsets[i + 1]`` of ``(kinds, keys, cards, offsets)``."""

def _release_kept_blocks() -> int:
    """Free the output blocks kept from dropped batches; how many were freed."""

def hand_size(once: _Int, twice: _Int) -> int:
    """Number of cards in a hand."""
