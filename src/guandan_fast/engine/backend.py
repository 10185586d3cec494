"""The one place where the move generator is chosen: the native core or the reference oracle.

Both generators are modules with the same functions, arguments and return shapes (numpy
arrays), so the callers (:mod:`guandan_fast.engine.api`, :class:`~guandan_fast.engine.moves.Move`
validation) ask :func:`generator` for a module and never branch on the backend:

* ``generate(once, twice, level, last_kind, last_key, last_size, strongest)`` → the moves:
  an object with ``len()`` (the number of moves) and the arrays ``kinds`` (``uint8[n]``),
  ``keys`` (``uint8[n]``) and ``cards`` (``uint64[n, 2]``) — a
  :class:`~guandan_fast.engine.kinds.MoveArrays` from the reference, the core's own ``Moves``
  (one block of memory, each array made when first read) from the native core;
* ``classify(once, twice, level)`` → the same shape, the readings of exactly those cards;
* ``reads_as(once, twice, level, kind, key)`` → bool (how a move named by a user, a
  :class:`~guandan_fast.engine.moves.Move` or a platform triple, is checked);
* ``has_legal_follow(once, twice, level, last_kind, last_key, last_size)`` → bool;
* ``generate_batch(hands, levels, last_kind, last_key, last_size, strongest)`` →
  ``(kinds, keys, cards, offsets int64[n + 1])``;
* ``hand_size(once, twice)`` → int.

The compiled core is part of every installation (wheels, or an sdist built with a C
compiler); the reference is the slow oracle the tests hold it to. The default is the native
core; the environment variable ``GUANDAN_FAST_BACKEND`` (``native`` or ``reference``)
overrides it at import, and :func:`set_default_backend` later. The choice covers move
generation and move validation.
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Literal

from ..engine import _movegen, reference

Backend = Literal["native", "reference"]

_default_backend: str = os.environ.get("GUANDAN_FAST_BACKEND") or "native"
#: The default backend's module once it is known to be usable (None: resolve on first use).
_default_generator: ModuleType | None = None


def resolve_backend(backend: str | None = None) -> Backend:
    """Which backend a call uses: the argument, else the default (native unless set)."""
    choice = _default_backend if backend is None else backend
    if choice == "native":
        return "native"
    if choice == "reference":
        return "reference"
    if not isinstance(choice, str):
        raise TypeError(f"a backend is named by a string, 'native' or 'reference', not {type(choice).__name__}")
    raise ValueError(f"unknown backend {choice!r}: use 'native' or 'reference'")


#: The module of each backend name asked for by a call, once it is known to be usable.
_named_generators: dict[str, ModuleType] = {}


def generator(backend: str | None = None) -> ModuleType:
    """The generator module a call uses: ``backend``, or the default one."""
    global _default_generator
    if backend is None:
        if _default_generator is not None:  # the hot path
            return _default_generator
        _default_generator = _module(resolve_backend())
        return _default_generator
    named = _named_generators.get(backend) if type(backend) is str else None  # named in the call: looked up once
    if named is None:
        named = _named_generators[backend] = _module(resolve_backend(backend))
    return named


def _module(backend: Backend) -> ModuleType:
    return _movegen if backend == "native" else reference


def set_default_backend(backend: Backend) -> None:
    """Make ``backend`` (``"native"`` or ``"reference"``) the default of every later call
    (the tests run both this way)."""
    global _default_backend, _default_generator
    if backend is None:  # resolve_backend would read None as "the default": nothing to set
        raise TypeError("set_default_backend takes 'native' or 'reference', not None")
    chosen = resolve_backend(backend)
    _default_generator = _module(chosen)
    _default_backend = chosen
