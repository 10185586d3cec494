"""What a user's subclass of :class:`~guandan_fast.Deal` or :class:`~guandan_fast.Match`
adds to the base's state, so that copies and pickles keep the subclass and its attributes
(a deal or match is copied and pickled by its own means: replayed, never from raw state)."""

from __future__ import annotations

from typing import Any

__all__ = ["copy_extra_state", "extra_state", "set_extra_state"]

ExtraState = tuple[dict[str, Any] | None, dict[str, Any] | None]


def _extra_slots(cls: type, base: type) -> list[str]:
    """The slots the classes between ``cls`` and ``base`` declare (not ``base``'s own)."""
    names: list[str] = []
    for klass in cls.__mro__:
        if klass is base:
            break
        slots = klass.__dict__.get("__slots__", ())
        names.extend(n for n in ((slots,) if isinstance(slots, str) else slots) if n not in ("__dict__", "__weakref__"))
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
    """Give ``obj`` what :func:`extra_state` took; refuse anything else, a base attribute
    above all (a deal or match comes from its replay, never from raw state)."""
    if not isinstance(state, tuple) or len(state) != 2:
        raise TypeError(f"a {base.__name__} is unpickled by replaying its actions, never from raw state")
    attributes, slots = state
    for part in (attributes, slots):
        if part is not None and (not isinstance(part, dict) or not all(isinstance(k, str) for k in part)):
            raise TypeError(f"not a pickled {base.__name__}: a subclass's state must map attribute names to values")
    allowed = set(_extra_slots(type(obj), base))
    for name in attributes or {}:
        if name in own:
            raise TypeError(f"a {base.__name__} is unpickled by replaying its actions, never from raw state ({name!r})")
    for name, value in (slots or {}).items():
        if name not in allowed:
            raise TypeError(f"not a pickled {type(obj).__name__}: it has no slot {name!r}")
        setattr(obj, name, value)
    if attributes:
        obj.__dict__.update(attributes)


def copy_extra_state(source: object, target: object, base: type, own: frozenset[str] = frozenset()) -> None:
    """Copy (shallowly) what ``source``'s subclass holds beyond ``base`` onto ``target``."""
    state = extra_state(source, base, own)
    if state is not None:
        attributes, slots = state
        for name, value in (slots or {}).items():
            setattr(target, name, value)
        if attributes:
            target.__dict__.update(attributes)

