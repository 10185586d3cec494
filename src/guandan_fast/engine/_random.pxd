# Seeded randomness shared by the native kernels (playouts, world sampling): splitmix64,
# exactly uniform draws below n (Lemire's method), a Fisher-Yates shuffle, and cards
# given out to seats as bit planes.

from libc.stdint cimport uint32_t, uint64_t


cdef inline uint64_t rng_next(uint64_t* state) noexcept nogil:
    """The next 64 random bits of a splitmix64 stream."""
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint32_t rng_below(uint64_t* state, uint32_t n) noexcept nogil:
    """A uniform integer in [0, n) for n >= 1, without modulo bias."""
    cdef uint64_t m = (rng_next(state) >> 32) * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>0 - n) % n
        while low < threshold:
            m = (rng_next(state) >> 32) * <uint64_t>n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void shuffle_cards(int* cards, int n, uint64_t* state) noexcept nogil:
    """Put cards[0:n] in a uniformly random order (Fisher-Yates)."""
    cdef int i, j, tmp
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(state, <uint32_t>(i + 1))
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp


cdef inline void add_card(uint64_t* once, uint64_t* twice, int card) noexcept nogil:
    """Add one copy of ``card`` (0..53) to a hand's planes (the caller keeps it to two copies)."""
    cdef uint64_t bit = 1ULL << card
    if once[0] & bit:
        twice[0] |= bit
    else:
        once[0] |= bit
