"""The one place where the move generator is chosen: the native core or the reference.

Both generators are modules with the same functions, arguments and return shapes (numpy
arrays), so the callers (:mod:`guandan_fast.engine.api`, :class:`~guandan_fast.engine.moves.Move`
validation) ask :func:`generator` for a module and never branch on the backend:

* ``generate(once, twice, level, last_kind, last_key, last_size, strongest)`` → the moves:
  an object with ``len()`` (the number of moves) and the arrays ``kinds`` (``uint8[n]``),
  ``keys`` (``uint8[n]``) and ``cards`` (``uint64[n, 2]``) — a
  :class:`~guandan_fast.engine.kinds.MoveArrays` from the reference, the core's own ``Moves``
  (one block of memory, each array made when first read) from the native core;
* ``classify(once, twice, level)`` → the same shape, the readings of exactly those cards;
* ``reads_as(once, twice, level, kind, key)`` → bool;
* ``read_checked(platform_triple, level)`` → ``(kind, key, once, twice, size)`` when the
  triple is well formed and its cards read as it says, else None (the caller then reads
  it in Python to name the fault);
* ``has_legal_follow(once, twice, level, last_kind, last_key, last_size)`` → bool;
* ``generate_batch(hands, levels, last_kind, last_key, last_size, strongest)`` →
  ``(kinds, keys, cards, offsets int64[n + 1])``;
* ``hand_size(once, twice)`` → int.

The default is the native core when it is built, else the reference; the environment
variable ``GUANDAN_FAST_BACKEND`` (``native`` or ``reference``) overrides it at import,
and :func:`set_default_backend` later. The choice covers move generation and move
validation; :func:`default_backend` tells the random playouts whether they may run in
native code (not with the reference backend).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Literal

from ..engine import reference

_native: ModuleType | None
try:  # the one place where the native core is looked for
    from ..engine import _movegen as _native
except ImportError:  # pragma: no cover - exercised only where the extension is not built
    _native = None

Backend = Literal["native", "reference"]
NATIVE_AVAILABLE: bool = _native is not None

_default_backend: str = os.environ.get("GUANDAN_FAST_BACKEND") or ("native" if NATIVE_AVAILABLE else "reference")
#: The default backend's module once it is known to be usable (None: resolve on first use).
_default_generator: ModuleType | None = None


def native_module() -> ModuleType:
    """The compiled core (RuntimeError with advice when it is not built)."""
    if _native is None:
        raise RuntimeError(
            "the native core of guandan_fast is not built in this installation; "
            "reinstall from a wheel or with a C compiler, or pass backend='reference'"
        )
    return _native


def resolve_backend(backend: str | None = None) -> Backend:
    """Which backend a call uses: the argument, else the default (native when built)."""
    choice = _default_backend if backend is None else backend
    if choice == "reference":
        return "reference"
    if choice == "native":
        native_module()
        return "native"
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
    return native_module() if backend == "native" else reference


def set_default_backend(backend: Backend) -> None:
    """Make ``backend`` the default of every later call (the tests run both this way)."""
    global _default_backend, _default_generator
    _default_generator = _module(resolve_backend(backend))
    _default_backend = backend


def default_backend() -> str:
    """The default backend's name, as set at import or by :func:`set_default_backend`."""
    return _default_backend
