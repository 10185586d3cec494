# cython: language_level=3, freethreading_compatible=True
"""The native core of :mod:`guandan_fast.engine.notation`: a platform triple in canonical
notation (``["Pair", "K", ["SK", "DK"]]``) read in C, without a Python object per card, and
checked against the native generator. Anything else (another spelling, a pass, a fault) is
left to the Python reader of :mod:`~guandan_fast.engine.notation`, which reads it or names
the fault, so both give the same moves and errors.
"""

from libc.stdint cimport uint64_t

from guandan_fast.engine._bitops cimport gf_popcount64
from guandan_fast.engine._movegen cimport (
    HR_POWER, K_BOMB, K_FOUR_JOKERS, K_STRAIGHT, K_STRAIGHT_FLUSH, K_THREE_PAIR, K_TWO_TRIPS, LEVEL_POWER,
    SB_POWER, reads_as_c,
)

from guandan_fast.engine.cards import CARD_NAMES
from guandan_fast.engine.kinds import _CODE_BY_PLATFORM_NAME, _POSITION_BY_CHAR, _RANK_BY_CHAR

__all__ = ["read_checked"]

# The vocabulary's own tables (guandan_fast.engine.cards and .kinds), as dicts read in C: type
# names, card names, and rank fields: a sequence's lowest position (A low is 1), else the
# natural rank 2..14 or a joker's power (singles, pairs, ...)
cdef dict _TYPE_CODES = dict(_CODE_BY_PLATFORM_NAME)
cdef dict _CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
cdef dict _POSITION_KEYS = dict(_POSITION_BY_CHAR)
cdef dict _RANK_KEYS = {**_RANK_BY_CHAR, "B": SB_POWER, "R": HR_POWER}


cdef inline bint _is_sequence(int kind) noexcept nogil:
    return kind == K_STRAIGHT or kind == K_THREE_PAIR or kind == K_TWO_TRIPS or kind == K_STRAIGHT_FLUSH


cdef int read_canonical(object action, int level, Reading* out) except -1:
    cdef uint64_t once = 0, twice = 0, bit
    cdef int kind, key
    if type(action) is not list or len(<list>action) != 3:
        return 0
    type_name, rank, cards = <list>action
    if type(cards) is not list or type(type_name) is not str or type(rank) is not str:
        return 0  # (the Python reader names the fault: no unhashable part reaches a dict here)
    code = _TYPE_CODES.get(type_name)
    if code is None:
        return 0
    for name in <list>cards:
        if type(name) is not str:
            return 0
        index = _CARD_INDEX.get(name)
        if index is None:
            return 0
        bit = (<uint64_t>1) << <int>index
        if twice & bit:
            return 0
        twice |= once & bit
        once |= bit
    kind = code
    if kind == K_BOMB and (rank == "JOKER" or rank == "R"):
        kind = K_FOUR_JOKERS
        key = 0
    else:
        found = (_POSITION_KEYS if _is_sequence(kind) else _RANK_KEYS).get(rank)
        if found is None:
            return 0
        key = found
        if key == level and not _is_sequence(kind):
            key = LEVEL_POWER
    out.kind = kind
    out.key = key
    out.once = once
    out.twice = twice
    out.size = gf_popcount64(once) + gf_popcount64(twice)
    return 1


cdef int read_native(object action, int level, Reading* out) except -1:
    if not read_canonical(action, level, out):
        return 0
    return reads_as_c(out.once, out.twice, level, out.kind, out.key) == 1


def read_checked(action, level):
    """read_checked(action, level) -> (kind, key, once, twice, size) or None

    The move a platform triple names at ``level`` (an int 2..14), when the triple is in
    canonical notation and its cards read as it says (asked of the native generator); None
    otherwise (:func:`guandan_fast.engine.notation.read` then reads it, or names the fault).
    """
    cdef Reading r
    if type(level) is not int or not 2 <= level <= 14 or not read_native(action, level, &r):
        return None
    return r.kind, r.key, r.once, r.twice, r.size
