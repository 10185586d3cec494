# cython: language_level=3, freethreading_compatible=True
"""Native reader of card strings in canonical notation (``"S2 H2 SB"``), for
:meth:`guandan_fast.hand.Hand.parse`: one pass over the characters, no Python object per
card. Anything it does not read (another notation, a third copy) is left to the Python
reader, which reads it or names the fault, so both give the same hands and errors.
"""

from cpython.unicode cimport Py_UNICODE_ISSPACE
from libc.stdint cimport uint64_t


cdef inline int _suit(Py_UCS4 ch) noexcept nogil:
    if ch == u'S':
        return 0
    if ch == u'H':
        return 1
    if ch == u'C':
        return 2
    if ch == u'D':
        return 3
    return -1


cdef inline int _rank(Py_UCS4 ch) noexcept nogil:
    """Rank index 0..12 of a canonical rank character 2..9, T, J, Q, K, A (-1: none)."""
    if u'2' <= ch <= u'9':
        return <int>ch - 50  # ord('2')
    if ch == u'T':
        return 8
    if ch == u'J':
        return 9
    if ch == u'Q':
        return 10
    if ch == u'K':
        return 11
    if ch == u'A':
        return 12
    return -1


cdef inline int _card_index(Py_UCS4 first, Py_UCS4 second) noexcept nogil:
    """Index 0..53 of the canonical two-character card name, -1 when it is not one."""
    cdef int suit = _suit(first), rank
    if suit < 0:
        return -1
    rank = _rank(second)
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
