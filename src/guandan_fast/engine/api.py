"""The public entry points: ``legal_moves`` and ``classify`` over either backend.

The backend is chosen in exactly one place, :mod:`guandan_fast.engine.backend`: the native
Cython core, or the pure-Python reference (the tests' oracle). Both are modules with the
same functions and return shapes, so nothing here depends on which one runs. Both return
the same set of moves (each in its own fixed order) as a :class:`MoveList`, whose bulk
form is numpy arrays (one row per move) and which builds :class:`~guandan_fast.engine.moves.Move`
objects only when asked; :func:`legal_moves_batch` returns a :class:`MoveBatch` of many hands.

Every entry point takes the hand as a :class:`Hand` or a card string, and the move to beat
as a :class:`Move` or a platform triple; a triple is read and checked (by the chosen
generator) without building a Move.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from itertools import accumulate, pairwise
from typing import Any, SupportsIndex, overload

import numpy as np
import numpy.typing as npt

from .backend import Backend, generator, resolve_backend, set_default_backend
from .cards import as_index, check_flag, parse_level
from .hand import CardsLike, Hand, as_hand, planes_array
from .kinds import LEADING, MoveArrays
from .movelist import MOVE_DTYPE, MoveList, has_legal_follow, legal_moves, read_last
from .moves import PASS, Move, sort_key

__all__ = [
    "MOVE_DTYPE",
    "Backend",
    "MoveBatch",
    "MoveList",
    "classify",
    "has_legal_follow",
    "legal_moves",
    "legal_moves_batch",
    "resolve_backend",
    "set_default_backend",
]


def classify(cards: CardsLike | Move, level: int | str, *, backend: Backend | None = None) -> list[Move]:
    """Every legal reading of exactly ``cards`` at ``level`` (empty when they form none)."""
    hand = as_hand(cards)
    level = parse_level(level)
    return sorted(MoveList._trusted(generator(backend).classify(hand.once, hand.twice, level), level), key=sort_key)


def _batch_planes(hands: object) -> np.ndarray:
    """A batch of hands as an aligned, C-contiguous, native-order ``uint64[n, 2]`` array."""
    if isinstance(hands, memoryview):  # a buffer, read as the array it holds (iterating it fails)
        hands = np.asarray(hands)
    if isinstance(hands, np.ndarray):
        exact = type(hands) is np.ndarray and hands.dtype == _UINT64 and hands.ndim == 2 and hands.shape[1] == 2
        if exact and hands.flags.c_contiguous and hands.flags.aligned:
            return hands  # the layout the generators take: no copy, no np.require
        if hands.dtype.kind != "u" or hands.dtype.itemsize != 8:
            raise TypeError(f"a batch of hands as an array must have dtype uint64, not {hands.dtype}")
        if hands.ndim != 2 or hands.shape[1] != 2:
            raise ValueError(f"a batch of hands as an array must have shape (n, 2), not {hands.shape}")
        return np.require(hands, dtype=np.uint64, requirements=["C", "A"])
    if isinstance(hands, (Hand, str, bytes)) or not isinstance(hands, Iterable):
        raise TypeError(
            f"a batch of hands is a uint64 array of shape (n, 2) or a sequence of hands, not {type(hands).__name__}"
        )
    return planes_array(hands)


def _check_level_range(levels: np.ndarray) -> None:
    """Refuse, by the first one, levels outside 2..14."""
    if len(levels) and not (2 <= levels.min() and levels.max() <= 14):
        raise ValueError(f"bad level {int(levels[(levels < 2) | (levels > 14)][0])}: a level is 2..14 (2..A)")


def _batch_levels(level: object, n: int) -> int | np.ndarray:
    """One level for every hand (an int), or one level per hand (``uint8[n]``)."""
    if isinstance(level, (str, int, np.integer)):
        return parse_level(level)
    if isinstance(level, np.ndarray) and level.ndim == 1 and level.dtype.kind in "iu":  # checked at once, not per item
        if len(level) != n:
            raise ValueError(f"{len(level)} levels for {n} hands: give one level, or one per hand")
        if type(level) is np.ndarray and level.dtype == _UINT8 and level.flags.c_contiguous:
            return level  # the generators check each level (the range of a wider type is checked here)
        _check_level_range(level)
        return np.ascontiguousarray(level, dtype=np.uint8)
    if not isinstance(level, Iterable):
        raise TypeError(f"a level must be a rank character or an integer 2-14, not {type(level).__name__}")
    given = list(level)
    if len(given) != n:
        raise ValueError(f"{len(given)} levels for {n} hands: give one level, or one per hand")
    if all(type(v) is int and 2 <= v <= 14 for v in given):  # the usual list, without a call per level
        return np.array(given, dtype=np.uint8)
    return np.array([parse_level(v) for v in given], dtype=np.uint8)


_UINT64 = np.dtype(np.uint64)
_UINT8 = np.dtype(np.uint8)

#: Below this many hands per thread a batch is not worth splitting.
MIN_HANDS_PER_THREAD = 64
_pool: ThreadPoolExecutor | None = None


def _thread_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=_cores(), thread_name_prefix="guandan_fast")
    return _pool


@cache
def _cores() -> int:
    """The machine's cores, asked once (``os.cpu_count`` takes ~6 µs a call on Linux, more
    than generating a hand's moves)."""
    return os.cpu_count() or 1


def batch_thread_count(hands: int, threads: int | None) -> int:
    """The threads a batch of ``hands`` hands runs on: ``threads`` (None: one per core),
    but at most one per :data:`MIN_HANDS_PER_THREAD` hands. ``threads`` is an int or a
    numpy integer (TypeError for a bool, a float or a string; ValueError below 1)."""
    if threads is None:
        workers = _cores()
    else:
        workers = as_index(threads, "threads must be a positive integer")
        if workers < 1:
            raise ValueError(f"threads must be a positive integer, not {workers}")
    return max(1, min(workers, hands // MIN_HANDS_PER_THREAD))


class MoveBatch(Sequence[MoveList]):
    """The moves of many hands: hand ``i``'s :class:`MoveList` is ``batch[i]``.

    The bulk form is flat arrays: :attr:`kinds`, :attr:`keys`, :attr:`cards` with hand
    ``i``'s moves in rows ``offsets[i]:offsets[i + 1]``. A batch computed in parallel is
    held as one block of arrays per thread, and the flat arrays are joined only when
    first read, so a caller who walks the hands pays no copy.
    """

    def __init__(self, blocks: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]], levels: list[int]) -> None:
        self._blocks = blocks  # (kinds, keys, cards, local offsets) of consecutive hands
        self._levels = levels
        self._first_hand = [0, *accumulate(len(block[3]) - 1 for block in blocks)]
        self._flat: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self._levels)

    @overload
    def __getitem__(self, index: SupportsIndex) -> MoveList: ...
    @overload
    def __getitem__(self, index: slice) -> list[MoveList]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> MoveList | list[MoveList]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = as_index(index, "batch indices must be integers or slices")
        if not -len(self) <= index < len(self):
            raise IndexError(f"hand {index} of a batch of {len(self)}")
        index %= len(self)
        block = bisect_right(self._first_hand, index) - 1
        kinds, keys, cards, offsets = self._blocks[block]
        local = index - self._first_hand[block]
        start, stop = int(offsets[local]), int(offsets[local + 1])
        return MoveList._trusted(MoveArrays(kinds[start:stop], keys[start:stop], cards[start:stop]), self._levels[index])

    @property
    def offsets(self) -> np.ndarray:
        """``int64[n + 1]``: hand ``i``'s moves are rows ``offsets[i]:offsets[i + 1]``."""
        parts, base = [np.zeros(1, dtype=np.int64)], 0
        for *_, local in self._blocks:
            parts.append(local[1:] + base)
            base += int(local[-1])
        return np.concatenate(parts)

    def counts(self) -> np.ndarray:
        """Number of moves of each hand."""
        return np.diff(self.offsets)

    def _joined(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if self._flat is None:
            if len(self._blocks) == 1:
                self._flat = self._blocks[0][:3]
            else:
                self._flat = (
                    np.concatenate([block[0] for block in self._blocks]),
                    np.concatenate([block[1] for block in self._blocks]),
                    np.concatenate([block[2] for block in self._blocks]).reshape(-1, 2),
                )
                for array in self._flat:  # read-only, as every move array
                    array.flags.writeable = False
        return self._flat

    @property
    def kinds(self) -> np.ndarray:
        return self._joined()[0]

    @property
    def keys(self) -> np.ndarray:
        return self._joined()[1]

    @property
    def cards(self) -> np.ndarray:
        return self._joined()[2]

    def __repr__(self) -> str:
        return f"<MoveBatch of {len(self)} hands, {int(self.counts().sum())} moves>"


def legal_moves_batch(
    hands: npt.NDArray[np.uint64] | Iterable[CardsLike | Move],
    level: int | str | Iterable[int | str] | npt.NDArray[np.integer[Any]],
    last: Move | Sequence[Any] | None = None,
    *,
    strongest: bool = False,
    backend: Backend | None = None,
    threads: int | None = None,
) -> MoveBatch:
    """:func:`legal_moves` of many hands in one call, as a :class:`MoveBatch`.

    ``hands`` is a numpy ``uint64[n, 2]`` array of ``(once, twice)`` rows (the layout of
    :meth:`Hand.to_numpy`) or a sequence of hands (:class:`Hand` objects or anything
    :func:`legal_moves` accepts). ``level`` is one level for every hand or a sequence of
    one level per hand; with a ``last`` move to beat, every hand must be at that move's
    level. The native backend runs the hands in C loops without the GIL, split over
    ``threads`` threads (default: one per core, at least 64 hands each), and writes the
    moves straight into the batch's arrays; once a batch is dropped, its memory (up to
    256 MiB in all) is kept for the next batches, which then write into pages already
    mapped instead of faulting in fresh ones.
    """
    strongest = check_flag(strongest, "strongest")
    planes = _batch_planes(hands)
    n = planes.shape[0]
    levels = _batch_levels(level, n)
    if last is not None and last is not PASS and not isinstance(levels, int):
        distinct = np.unique(levels)
        _check_level_range(distinct)  # a bad level named as such, not as two levels
        if len(distinct) > 1:
            raise ValueError("with a last move to beat, every hand of a batch must be at one level")
        levels = int(distinct[0]) if len(distinct) else 2
    gen = generator(backend)
    beaten = read_last(last, levels, gen) if isinstance(levels, int) else LEADING
    per_hand = [levels] * n if isinstance(levels, int) else levels.tolist()
    workers = batch_thread_count(n, threads)
    batch_args = (*beaten, strongest)
    generate_batch = gen.generate_batch
    if workers == 1:
        return MoveBatch([generate_batch(planes, levels, *batch_args)], per_hand)
    bounds = [n * i // workers for i in range(workers + 1)]
    chunks = [
        (planes[a:b], levels if isinstance(levels, int) else levels[a:b]) for a, b in pairwise(bounds)
    ]
    blocks = list(_thread_pool().map(lambda chunk: generate_batch(*chunk, *batch_args), chunks))
    return MoveBatch(blocks, per_hand)
