# cython: language_level=3, freethreading_compatible=True
"""Native makers of the two values every hot path hands out: :class:`~guandan_fast.engine.hand.Hand`
and :class:`~guandan_fast.engine.moves.Move`, from parts already known to be valid.

Both are plain Python classes with ``__slots__``. Made in Python, each costs
``object.__new__`` plus one descriptor store per slot (Move's ``__setattr__`` refuses
stores, so it even needs a class swap); these makers allocate the object with its type's
own ``tp_alloc`` and write each slot at the offset its member descriptor declares, as the
descriptor itself would. The classes are bound once by the modules that define them
(:func:`bind_hand`, :func:`bind_move`), so this module imports nothing of the package.
"""

from cpython.object cimport PyObject
from cpython.ref cimport Py_DECREF, Py_INCREF, Py_XDECREF
from libc.stdint cimport uint64_t

from types import MemberDescriptorType

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        int type
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member

cdef extern from *:
    """
    #ifndef Py_T_OBJECT_EX  /* Python.h names it from 3.12 on; structmember.h before */
    #include "structmember.h"
    #define Py_T_OBJECT_EX T_OBJECT_EX
    #endif
    static int gf_is_subtype(PyObject* a, PyObject* b) {
        return PyType_Check(a) && PyType_Check(b) && PyType_IsSubtype((PyTypeObject*)a, (PyTypeObject*)b);
    }
    static PyObject* gf_allocate(PyObject* cls) {
        return ((PyTypeObject*)cls)->tp_alloc((PyTypeObject*)cls, 0);
    }
    """
    # a new, zeroed instance of the class ``cls`` (NULL with an exception set on failure)
    PyObject* gf_allocate(PyObject* cls)
    # the member type of an object slot that raises AttributeError while empty (__slots__)
    int Py_T_OBJECT_EX
    bint PyType_IsSubtype "gf_is_subtype" (object a, object b)

cdef enum:
    # slots of Hand, and of Move (in this order)
    HAND_SLOTS = 2
    MOVE_SLOTS = 5

cdef object _hand_type = None
cdef Py_ssize_t _hand_at[HAND_SLOTS]
cdef object _move_type = None
cdef Py_ssize_t _move_at[MOVE_SLOTS]
cdef tuple _kinds = ()

HAND_SLOT_NAMES = ("_once", "_twice")
MOVE_SLOT_NAMES = ("kind", "key", "cards", "level", "table_args")


cdef void _offsets(object cls, tuple names, Py_ssize_t* out) except *:
    """The offset of each named slot of ``cls`` into ``out``, written only once all are
    checked: each must be an object slot (a member descriptor of ``cls`` or of a real
    base) lying inside a fixed-size instance without ``__dict__``."""
    cdef Py_ssize_t found[MOVE_SLOTS]
    cdef PyMemberDescrObject* member
    cdef Py_ssize_t i, offset
    if not isinstance(cls, type):
        raise TypeError(f"a value class must be a class, not {type(cls).__name__}")
    if cls.__dictoffset__ or cls.__itemsize__:
        raise TypeError(f"{cls.__name__} instances have a __dict__ or a variable size: only slotted classes can be bound")
    if len(names) > MOVE_SLOTS:
        raise ValueError("too many slots")
    for i, name in enumerate(names):
        descr = getattr(cls, name, None)
        # PyType_IsSubtype, not issubclass: a metaclass cannot claim a base it does not have
        if type(descr) is not MemberDescriptorType or not PyType_IsSubtype(cls, descr.__objclass__):
            raise TypeError(f"{cls.__name__}.{name} is not a slot")
        member = <PyMemberDescrObject*>descr
        offset = member.d_member.offset
        if (member.d_member.type != Py_T_OBJECT_EX or offset < <Py_ssize_t>sizeof(PyObject)
                or offset + <Py_ssize_t>sizeof(PyObject*) > cls.__basicsize__):
            raise TypeError(f"{cls.__name__}.{name} is not an object slot of its instances")
        found[i] = offset
    for i in range(len(names)):
        out[i] = found[i]


def bind_hand(cls):
    """Make :func:`new_hand` build instances of ``cls`` (slots ``_once``, ``_twice``)."""
    global _hand_type
    _offsets(cls, HAND_SLOT_NAMES, _hand_at)
    _hand_type = cls


def bind_move(cls, kinds):
    """Make :func:`new_move` build instances of ``cls`` (slots ``kind``, ``key``,
    ``cards``, ``level``, ``table_args``); ``kinds`` holds the MoveType members by code."""
    global _move_type, _kinds
    members = tuple(kinds)
    _offsets(cls, MOVE_SLOT_NAMES, _move_at)
    _kinds = members
    _move_type = cls


cdef inline object _allocate(object cls):
    """A new, zeroed instance of ``cls`` (a new reference held by the returned object)."""
    cdef PyObject* raw = gf_allocate(<PyObject*>cls)
    if raw == NULL:
        raise MemoryError()
    value = <object>raw  # a second reference ...
    Py_DECREF(value)  # ... given back: ``value`` holds the only one
    return value


cdef inline void _put(object value, Py_ssize_t offset, object slot) noexcept:
    """Store ``slot`` in the (empty) slot at ``offset`` of ``value``, with a reference."""
    cdef PyObject** at = <PyObject**>((<char*><PyObject*>value) + offset)
    Py_INCREF(slot)
    Py_XDECREF(at[0])
    at[0] = <PyObject*>slot


cdef object make_hand(object once, object twice):
    """A Hand of the planes ``once`` and ``twice`` (ints, already valid)."""
    if _hand_type is None:
        raise RuntimeError("guandan_fast.engine._values: no Hand class bound")
    hand = _allocate(_hand_type)
    _put(hand, _hand_at[0], once)
    _put(hand, _hand_at[1], twice)
    return hand


cdef object make_move(object kind, object key, object cards, object level, object table_args):
    """A Move of these slot values (already a legal reading)."""
    if _move_type is None:
        raise RuntimeError("guandan_fast.engine._values: no Move class bound")
    move = _allocate(_move_type)
    _put(move, _move_at[0], kind)
    _put(move, _move_at[1], key)
    _put(move, _move_at[2], cards)
    _put(move, _move_at[3], level)
    _put(move, _move_at[4], table_args)
    return move


cdef object make_move_of(int kind, int key, uint64_t once, uint64_t twice, object level, int size):
    """The Move of one generator row ``(kind, key, once, twice)`` of ``size`` cards; kind
    must be a code of the bound MoveType members."""
    if not 0 <= kind < len(_kinds):
        raise ValueError(f"move kind {kind} is not a MoveType code")
    key_object = key
    cards = make_hand(once, twice)
    return make_move(_kinds[kind], key_object, cards, level, (kind, key_object, size))


def new_hand(once, twice):
    """new_hand(once, twice) -> Hand, trusted: the planes are not checked."""
    return make_hand(once, twice)


def new_move(kind, key, cards, level, table_args):
    """new_move(kind, key, cards, level, table_args) -> Move, trusted: nothing is checked."""
    return make_move(kind, key, cards, level, table_args)


def new_move_of(action_row, level):
    """new_move_of((kind, key, once, twice, size), level) -> Move: the row a generator's
    ``read_checked`` gives, trusted."""
    kind, key, once, twice, size = action_row
    return make_move(_kinds[kind], key, make_hand(once, twice), level, (kind, key, size))
