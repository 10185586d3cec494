# The native core of guandan_fast.engine.notation: platform triples in canonical notation read
# in C, for the entry points that take one (legal_moves(last=triple), Move.from_platform, ...).
from libc.stdint cimport uint64_t

cdef struct Reading:
    # a move as plain values: its kind (a MoveType code), key, cards and number of cards
    int kind
    int key
    uint64_t once
    uint64_t twice
    int size

cdef int read_canonical(object action, int level, Reading* out) except -1
    # 1 when ``action`` is a move triple in canonical notation (a list [type, rank, cards] of
    # str fields and canonical card names, no card three times), read into ``out``; its cards
    # are NOT checked to form that reading. 0 for anything else (a pass, another spelling, a
    # fault): notation.parse reads it or names the fault. ``level`` must be 2..14.

cdef int read_native(object action, int level, Reading* out) except -1
    # read_canonical, and the cards checked by the native generator to read as the triple says:
    # 1 when both hold, else 0 (notation.read then reads it and names the fault).
