# The Hand value at C level (see hand.pyx), for other native modules and users' extensions:
#
#     from guandan_fast.engine.hand cimport Hand, make_hand
#
#     cdef Hand hand = ...            # any Hand (hand.once / hand.twice are plain C fields)
#     n = popcount(hand.once) + popcount(hand.twice)
#     cdef Hand rest = make_hand(hand.once & ~once, hand.twice & ~once)
#
# The planes: bit i of ``once`` is set when the hand holds card i at least once, bit i of
# ``twice`` when it holds both copies (twice is a subset of once; only bits 0..53 are cards).
from libc.stdint cimport uint64_t

cdef class Hand:
    cdef readonly uint64_t once
    cdef readonly uint64_t twice

# A new Hand of these planes, trusted: the caller guarantees twice & ~once == 0 and that
# no bit above 53 is set (nothing is checked).
cdef Hand make_hand(uint64_t once, uint64_t twice)

# The argument forms every entry point takes as a hand: a Hand, a Move (its cards), a card
# string or an iterable of card strings (TypeError / ValueError name a fault).
cpdef Hand as_hand(object cards)
