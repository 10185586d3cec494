# Bit helpers for the native kernels: popcount and count-trailing-zeros on 64-bit words,
# as a small verbatim C block so that GCC, Clang and MSVC each get their intrinsic (or, where
# the target has no popcount instruction, an inline bit count rather than a library call).
from libc.stdint cimport uint64_t

cdef extern from *:
    """
    #include <stdint.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    #define GF_INLINE static __inline
    #else
    #define GF_INLINE static inline
    #endif
    #if defined(_MSC_VER) || ((defined(__x86_64__) || defined(__i386__)) && !defined(__POPCNT__))
    /* no popcount instruction in the baseline x86-64 target: GCC would call libgcc's
       __popcountdi2 (a table walk); this inline bit count takes a dozen instructions */
    GF_INLINE int gf_popcount64(uint64_t x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #else
    GF_INLINE int gf_popcount64(uint64_t x) { return __builtin_popcountll(x); }
    #endif
    #if defined(_MSC_VER)
    GF_INLINE int gf_ctz64(uint64_t x) {
        unsigned long index;
        return _BitScanForward64(&index, x) ? (int)index : 64;
    }
    #else
    GF_INLINE int gf_ctz64(uint64_t x) { return x ? __builtin_ctzll(x) : 64; }
    #endif
    """
    int gf_popcount64(uint64_t x) noexcept nogil
    int gf_ctz64(uint64_t x) noexcept nogil


cdef inline void gf_hand_add(uint64_t* once, uint64_t* twice, uint64_t other_once, uint64_t other_twice) noexcept nogil:
    """Add a hand to a hand, both as (once, twice) planes (bit i of ``once``: at least one
    copy of card i; of ``twice``: both): a card in both becomes twice. The caller keeps
    every card to two copies (a card twice in one and present in the other is lost)."""
    twice[0] = twice[0] | other_twice | (once[0] & other_once)
    once[0] = once[0] | other_once


cdef inline void gf_hand_remove(uint64_t* once, uint64_t* twice, uint64_t other_once, uint64_t other_twice) noexcept nogil:
    """Take a hand out of a hand that holds it, both as (once, twice) planes: a card held
    twice and taken once stays once."""
    once[0] = (once[0] & ~other_once) | (twice[0] & ~other_twice)
    twice[0] = twice[0] & ~other_once
