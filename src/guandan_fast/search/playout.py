"""Playouts: the glue between a deal and the native ``_playout`` loop (which runs without
the GIL on the deal's native play state, :class:`~guandan_fast.engine.state.State`). The
loop plays uniformly random legal actions or the deterministic rules of ``_policies``
(:data:`POLICIES`).

This module sits below :mod:`guandan_fast.engine.deal` in spirit (the deal imports it at
call time for its playout conveniences) and takes a deal's ``State``, never the deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, overload

import numpy as np

from ..engine.cards import bounded, parse_level
from ..engine.notation import fresh, stored_triple
from ..engine.state import State
from . import _playout as _native
from ._policies import POLICIES
from .minplays import MAX_CARDS

__all__ = [
    "MAX_PLAYOUTS",
    "POLICIES",
    "SEED_MASK",
    "check_policy_hands",
    "check_seed",
    "native_playout",
    "native_playouts",
    "native_world_playouts",
    "policy_code",
    "random_deals",
]

SEED_MASK = (1 << 64) - 1
#: The most playouts (or deals) one call plays: ``2**31 - 1``.
MAX_PLAYOUTS: int = _native.PLAYOUT_LIMIT


def check_seed(seed: object) -> int:
    return bounded(seed, "a playout seed", 0, SEED_MASK)


def check_policy_hands(cards_left: Sequence[int], policy: int) -> None:
    """ValueError when the policy of code ``policy`` is the MinPlays rules and a hand holds
    more than :data:`~guandan_fast.search.minplays.MAX_CARDS` cards: the rules decompose the
    hand to act exactly, and that search grows exponentially (a minute at 60 cards); a dealt
    hand holds at most 28."""
    if policy in _DECOMPOSING:
        seat = max(range(len(cards_left)), key=lambda s: cards_left[s])
        if cards_left[seat] > MAX_CARDS:
            raise ValueError(
                f"the {_DECOMPOSING[policy]} rules take hands of at most {MAX_CARDS} cards "
                f"(their exact decomposition grows exponentially); seat {seat} holds {cards_left[seat]}"
            )


_DECOMPOSING = {POLICIES[name]: name for name in ("minplays", "tactics")}


@overload
def native_playout(state: State, seed: int, record: Literal[False], policy: int = 0) -> list[int]: ...
@overload
def native_playout(
    state: State, seed: int, record: Literal[True], policy: int = 0
) -> tuple[list[int], list[tuple[int, list[Any]]]]: ...
def native_playout(
    state: State, seed: int, record: bool, policy: int = 0
) -> list[int] | tuple[list[int], list[tuple[int, list[Any]]]]:
    """The finishing order of one native playout by the policy of code ``policy``; with
    ``record`` also every action taken as ``(seat, platform triple)``."""
    check_policy_hands(state.cards_left, policy)
    if not record:
        return list(_native.playout(state, seed, False, policy))
    finish, seats, kinds, keys, cards = _native.playout(state, seed, True, policy)
    level = state.level
    actions = [
        (seat, fresh(stored_triple(kind, key, once, twice, level)))
        for seat, kind, key, (once, twice) in zip(seats.tolist(), kinds.tolist(), keys.tolist(), cards.tolist())
    ]
    return list(finish), actions


def policy_code(policy: object) -> int:
    """The native code of a policy name (ValueError for an unknown one)."""
    code = POLICIES.get(policy) if isinstance(policy, str) else None
    if code is None:
        raise ValueError(f"unknown playout policy {policy!r}: use one of {', '.join(POLICIES)}")
    return code


def native_playouts(state: State, seed: int, n: int, policy: int = 0) -> np.ndarray:
    """``n`` native playouts from ``state`` by the policy of code ``policy``: the finishing
    orders, ``int8[n, 4]``."""
    check_policy_hands(state.cards_left, policy)
    return np.asarray(_native.playouts(state, seed, n, policy), dtype=np.int8)


def native_world_playouts(state: State, worlds: np.ndarray, moves: tuple[np.ndarray, np.ndarray, np.ndarray], seed: int, n: int,
                          policy: int = 0) -> np.ndarray:
    """``n`` native playouts from ``state`` with its hands replaced by each world
    (``uint64[w, 4, 2]``) after each move (``(kinds, keys, cards)`` rows, kind 0 the
    pass): the finishing orders, ``int8[w, m, n, 4]`` (see ``_playout.world_playouts``)."""
    check_policy_hands(state.cards_left, policy)
    return _native.world_playouts(state, worlds, *moves, seed, n, policy)


def random_deals(n: int, seed: int = 0, level: int | str = 2) -> np.ndarray:
    """``n`` complete random deals played by uniformly random legal actions, entirely in
    native code (shuffle, random leader, play; no tribute): the finishing orders as an
    ``int8`` array of shape ``(n, 4)``. Deal ``i`` uses the random stream ``seed + i``."""
    n = bounded(n, "the number of deals", 0, MAX_PLAYOUTS)
    return np.asarray(_native.random_deals(n, check_seed(seed), parse_level(level)), dtype=np.int8)

