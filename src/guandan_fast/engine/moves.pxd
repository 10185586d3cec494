# The Move value at C level (see moves.pyx), for other native modules and users' extensions:
#
#     from guandan_fast.engine.moves cimport Move, make_move
#
#     cdef Move move = ...            # any Move: its parts are plain C fields
#     move.code, move.key, move.size  # the kind's MoveType code (0 = PASS), key, number of cards
#     move.level                      # 2..14 (0 for the PASS constant)
#     move.cards.once, move.cards.twice
#
# Keys and codes are those of guandan_fast.engine.kinds (see _movegen.pxd for the constants).
from libc.stdint cimport uint64_t

from guandan_fast.engine.hand cimport Hand

cdef class Move:
    cdef readonly Hand cards
    cdef readonly int key
    cdef readonly int level
    cdef int code   # the MoveType code (Move.kind in Python)
    cdef int size   # the number of cards
    cdef bint made  # filled in (a made move never changes)

# A new Move of these parts, trusted: the caller guarantees that the cards (once, twice) are
# a valid hand that reads as (code, key) at ``level`` (only code 0..10 and key 0..17 are
# checked: ValueError outside them).
cdef Move make_move(int code, int key, uint64_t once, uint64_t twice, int level)
