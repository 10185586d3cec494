"""Random playouts: the glue between a deal and the native ``_playout`` loop (which runs
without the GIL), and the same uniformly random policy in Python where the extension is
not built. The native loop also plays the greedy rollout rules (:data:`POLICIES`).

Which one plays is :func:`guandan_fast.engine.backend.native_playouts`' choice, asked at every
playout: the native loop with the native backend, the Python policy with the reference
backend (``GUANDAN_FAST_BACKEND=reference``) or without the extension.

A deal's play-phase state travels to native code as plain ints (:class:`PlayState`); the
Python policy drives any deal-like object through its public methods (``clone``,
``step``, ``legal_moves``, ``following``, ``phase``, ``finish_order``, ``plays``), so
this module sits below :mod:`guandan_fast.engine.deal` and never imports it.
"""

from __future__ import annotations

import random
import sys
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from ..engine import backend
from ..engine.cards import bounded, parse_level
from ..engine.moves import PASS
from ..engine.notation import fresh, stored_triple

_native: ModuleType | None
try:
    from . import _playout as _native  # the built extension, whichever backend is the default
except ImportError:  # pragma: no cover - exercised only where the extension is not built
    _native = None

__all__ = [
    "NATIVE_PLAYOUT",
    "POLICIES",
    "SEED_MASK",
    "PlayState",
    "check_seed",
    "native_playout",
    "native_playouts",
    "native_world_playouts",
    "plays_natively",
    "policy_code",
    "python_playout",
    "random_deals",
]

#: Whether playouts run in native code (the ``_playout`` extension is built).
NATIVE_PLAYOUT: bool = _native is not None
SEED_MASK = (1 << 64) - 1




class PlayState(NamedTuple):
    """A deal in the play phase as the native playout takes it."""

    once: list[int]
    twice: list[int]
    level: int
    to_act: int
    last_kind: int
    last_key: int
    last_size: int
    last_seat: int
    passes: int
    finish: list[int]


def check_seed(seed: object) -> int:
    return bounded(seed, "a playout seed", 0, SEED_MASK)


def plays_natively() -> bool:
    """Whether a random playout now runs in native code (the extension is built and the
    default backend is native)."""
    return _native is not None and backend.default_backend() == "native"


def native_playout(state: PlayState, seed: int, record: bool, policy: int = 0) -> Any:
    """The finishing order of one native playout by the policy of code ``policy``; with
    ``record`` also every action taken as ``(seat, platform triple)``."""
    result = _native.playout(state, seed, record, policy)  # type: ignore[union-attr]
    if not record:
        return list(result)
    finish, seats, kinds, keys, cards = result
    level = state.level
    actions = [
        (seat, fresh(stored_triple(kind, key, once, twice, level)))
        for seat, kind, key, (once, twice) in zip(seats.tolist(), kinds.tolist(), keys.tolist(), cards.tolist())
    ]
    return list(finish), actions


#: Rollout policies of :meth:`guandan_fast.engine.deal.Deal.playouts`, by name: their native codes.
POLICIES = {"random": 0, "greedy": 1, "minplays": 2}


def policy_code(policy: object) -> int:
    """The native code of a policy name (ValueError for an unknown one)."""
    code = POLICIES.get(policy) if isinstance(policy, str) else None
    if code is None:
        raise ValueError(f"unknown playout policy {policy!r}: use one of {', '.join(POLICIES)}")
    return code


def native_playouts(state: PlayState, seed: int, n: int, policy: int = 0) -> np.ndarray:
    """``n`` native playouts from ``state`` by the policy of code ``policy``: the finishing
    orders, ``int8[n, 4]``."""
    return np.asarray(_native.playouts(state, seed, n, policy), dtype=np.int8)  # type: ignore[union-attr]


def native_world_playouts(state: PlayState, worlds: np.ndarray, moves: tuple[Any, Any, Any], seed: int, n: int,
                          policy: int = 0) -> np.ndarray:
    """``n`` native playouts from ``state`` with its hands replaced by each world
    (``uint64[w, 4, 2]``) after each move (``(kinds, keys, cards)`` rows, kind 0 the
    pass): the finishing orders, ``int8[w, m, n, 4]`` (see ``_playout.world_playouts``)."""
    return _native.world_playouts(state, worlds, *moves, seed, n, policy)  # type: ignore[union-attr]


def python_playout(deal: Any, seed: int, record: bool) -> tuple[list[int], list[tuple[int, list[Any]]]]:
    """The uniformly random policy in Python, on a copy of ``deal`` (in the play phase):
    the finishing order and, with ``record``, the actions taken."""
    deal, rng = deal.clone(), random.Random(seed)
    start = len(deal.plays)
    while deal.phase != "done":
        moves = deal.legal_moves()
        following = deal.following
        pick = rng.randrange(len(moves) + following)
        deal.step(PASS if following and pick == 0 else moves[pick - following])
    if not record:
        return deal.finish_order, []
    level = deal.level
    return deal.finish_order, [(row[0], fresh(stored_triple(*row[1:], level))) for row in deal.plays[start:]]


def random_deals(n: int, seed: int = 0, level: int | str = 2) -> np.ndarray:
    """``n`` complete random deals played by uniformly random legal actions, entirely in
    native code (shuffle, random leader, play; no tribute): the finishing orders as an
    ``int8`` array of shape ``(n, 4)``. Deal ``i`` uses the random stream ``seed + i``.
    Needs the native ``_playout`` extension (RuntimeError otherwise)."""
    if _native is None:
        raise RuntimeError("random_deals needs the native _playout extension, which is not built")
    n = bounded(n, "the number of deals", 0, sys.maxsize)
    return np.asarray(_native.random_deals(n, check_seed(seed), parse_level(level)), dtype=np.int8)
