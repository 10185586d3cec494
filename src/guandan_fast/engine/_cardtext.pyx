# cython: language_level=3, freethreading_compatible=True
"""Native reader of card strings in canonical notation (``"S2 H2 SB"``), for
:meth:`guandan_fast.engine.hand.Hand.parse`: one pass over the characters, no Python object per
card. Anything it does not read (another notation, a third copy) is left to the Python
reader, which reads it or names the fault, so both give the same hands and errors.
"""

from cpython.unicode cimport Py_UNICODE_ISSPACE
from libc.stdint cimport uint64_t


# Suit index 0..3 (S H C D) and rank index 0..12 (2..A) of each ASCII character, -1 for
# the others. Filled once at import; read-only.
cdef signed char SUIT_OF[128]
cdef signed char RANK_OF[128]


cdef void _build_tables() noexcept:
    cdef int i
    cdef const char* suits = b"SHCD"
    cdef const char* ranks = b"23456789TJQKA"
    for i in range(128):
        SUIT_OF[i] = -1
        RANK_OF[i] = -1
    for i in range(4):
        SUIT_OF[<unsigned char>suits[i]] = <signed char>i
    for i in range(13):
        RANK_OF[<unsigned char>ranks[i]] = <signed char>i


_build_tables()


cdef inline int _card_index(Py_UCS4 first, Py_UCS4 second) noexcept nogil:
    """Index 0..53 of the canonical two-character card name, -1 when it is not one."""
    cdef int suit, rank
    if first >= 128 or second >= 128:
        return -1
    suit = SUIT_OF[first]
    if suit < 0:
        return -1
    rank = RANK_OF[second]
    if rank >= 0:
        return 4 * rank + suit
    if first == u'S' and second == u'B':
        return 52
    if first == u'H' and second == u'R':
        return 53
    return -1


cdef inline int _add_card(Py_UCS4 first, Py_UCS4 second, uint64_t* once, uint64_t* twice) noexcept nogil:
    """Add one copy of the named card to the planes; -1 (planes unchanged) when the name is
    not canonical or the card is there twice already."""
    cdef int index = _card_index(first, second)
    cdef uint64_t bit
    if index < 0:
        return -1
    bit = (<uint64_t>1) << index
    if twice[0] & bit:
        return -1
    twice[0] |= once[0] & bit
    once[0] |= bit
    return 0


def canonical_planes(text):
    """canonical_planes(text) -> (once, twice) or None

    The planes of a string of canonical card names separated by whitespace or commas (as
    ``str.split`` and ``str.replace`` see them); None when ``text`` is not a str, holds any
    other token, or holds a card three times.
    """
    cdef uint64_t once = 0, twice = 0
    cdef Py_UCS4 ch, first = 0, second = 0
    cdef int length = 0
    if type(text) is not str:
        return None
    for ch in <str>text:
        if ch == u',' or Py_UNICODE_ISSPACE(ch):
            if length == 0:
                continue
            if length != 2 or _add_card(first, second, &once, &twice) != 0:
                return None
            length = 0
        elif length == 0:
            first = ch
            length = 1
        elif length == 1:
            second = ch
            length = 2
        else:
            return None
    if length != 0 and (length != 2 or _add_card(first, second, &once, &twice) != 0):
        return None
    return once, twice
