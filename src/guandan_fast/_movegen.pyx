# cython: boundscheck=False, wraparound=False, cdivision=True
"""Native core: bitmask kernels over hands laid out as in guandan_fast.hand (placeholder)."""
from libc.stdint cimport uint64_t
from guandan_fast._bitops cimport gf_popcount64

cdef uint64_t FULL_PLANE = (1ULL << 54) - 1


def hand_size(uint64_t once, uint64_t twice):
    """Number of cards in a hand given as two validated planes."""
    if (once | twice) & ~FULL_PLANE or twice & ~once:
        raise ValueError("bad hand planes: bits above 53 or a 'twice' card without 'once'")
    return gf_popcount64(once) + gf_popcount64(twice)
