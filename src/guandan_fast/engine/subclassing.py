"""What a user's subclass of :class:`~guandan_fast.Deal` or :class:`~guandan_fast.Match`
adds to the base's state, so that copies and pickles keep the subclass and its attributes
(a deal or match is copied and pickled by its own means: replayed, never from raw state)."""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["copy_extra_state", "extra_state", "set_extra_state"]

ExtraState = tuple[dict[str, Any] | None, dict[str, Any] | None]


def _extra_slots(cls: type, base: type) -> list[str]:
    """The slots the classes between ``cls`` and ``base`` declare beyond the base's (private
    names mangled, as Python stores them)."""
    names: list[str] = []
    for klass in cls.__mro__:
        if klass is base:
            break
        slots = klass.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name in ("__dict__", "__weakref__") or hasattr(base, name):
                continue
            if name.startswith("__") and not name.endswith("__"):
                name = f"_{klass.__name__.lstrip('_')}{name}"
            names.append(name)
    return names


def extra_state(obj: object, base: type, own: frozenset[str] = frozenset()) -> ExtraState | None:
    """``(attributes, slots)`` that ``obj``'s subclass holds beyond ``base`` (``own``: the
    names of the base's attributes in ``__dict__``), as pickle's state; None for the base
    class itself or when there is nothing."""
    if type(obj) is base:
        return None
    attributes = {k: v for k, v in getattr(obj, "__dict__", {}).items() if k not in own}
    slots = {n: getattr(obj, n) for n in _extra_slots(type(obj), base) if hasattr(obj, n)}
    if not attributes and not slots:
        return None
    return (attributes or None, slots or None)


def set_extra_state(obj: object, state: object, base: type, own: frozenset[str] = frozenset()) -> None:
    """Give ``obj`` what :func:`extra_state` took. Anything else is a TypeError: a name of
    the base's (an attribute, a method, a slot: a deal or match comes from its replay, never
    from raw state), a slot the subclass does not declare, attributes where it has no
    ``__dict__``."""
    name = base.__name__
    if type(obj) is base or not isinstance(state, tuple) or len(state) != 2:
        raise TypeError(f"a {name} is unpickled by replaying its actions, never from raw state")
    attributes, slots = state
    for part in (attributes, slots):
        if part is not None and (not isinstance(part, dict) or not all(isinstance(k, str) for k in part)):
            raise TypeError(f"not a pickled {name}: a subclass's state must map attribute names to values")
    for key in (*(attributes or ()), *(slots or ())):
        if key in own or hasattr(base, key):
            raise TypeError(f"a {name} is unpickled by replaying its actions, never from raw state ({key!r})")
    allowed = set(_extra_slots(type(obj), base))
    for key in slots or ():
        if key not in allowed:
            raise TypeError(f"not a pickled {type(obj).__name__}: it has no slot {key!r}")
    if attributes and not hasattr(obj, "__dict__"):
        raise TypeError(f"not a pickled {type(obj).__name__}: it holds no attributes beyond its slots")
    _give(obj, attributes, slots)


def copy_extra_state(
    source: object, target: object, base: type, own: frozenset[str] = frozenset(), memo: dict[int, Any] | None = None
) -> None:
    """Copy what ``source``'s subclass holds beyond ``base`` onto ``target``: shallowly, or
    deeply with ``memo`` (``copy.deepcopy``'s)."""
    state = extra_state(source, base, own)
    if state is None:
        return
    if memo is not None:
        state = copy.deepcopy(state, memo)
    _give(target, *state)


def _give(obj: object, attributes: dict[str, Any] | None, slots: dict[str, Any] | None) -> None:
    """Set a subclass's slots and attributes on ``obj`` (checked, or taken from its kind)."""
    for key, value in (slots or {}).items():
        setattr(obj, key, value)
    if attributes:
        obj.__dict__.update(attributes)
