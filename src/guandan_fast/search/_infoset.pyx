# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""Native world sampling: the cards a seat cannot see, given out to the other seats.

A world is four hands. Each seat starts from the cards known to be in its hand (``base``:
the observer's whole hand, the tribute card a receiver still holds, ...), then

* the ``pooled`` cards (copies of one card known to be in one of a set of seats, e.g. the
  big jokers of an anti-tribute by two players) take slots of those seats: each copy a
  seat with probability proportional to the seat's free slots;
* the unseen cards, in a uniformly random order (Fisher-Yates), fill the free slots left,
  seat after seat.

So every arrangement of the unseen physical cards into the free slots (with the pooled
copies in their seats' slots) is equally likely. World ``i`` of a batch with seed ``s``
uses the random stream ``s + i``. The Python face is :mod:`guandan_fast.search.infoset`.
"""

from libc.stdint cimport uint32_t, uint64_t

import numpy as np
cimport numpy as cnp

from guandan_fast.engine._bitops cimport gf_ctz64, gf_hand_add
from guandan_fast.engine._random cimport rng_below, shuffle_cards, add_card
from guandan_fast.engine._movegen cimport FULL_PLANE

cnp.import_array()



cdef struct Table:
    uint64_t base_once[4]
    uint64_t base_twice[4]
    int free[4]               # slots of each seat for the pooled and unseen cards
    int cards[108]            # the unseen cards, each copy once
    int ncards
    int pooled_card
    int pooled_count
    int pooled_mask           # bit s: seat s may hold the pooled copies


cdef void _sample(const Table* t, uint64_t seed, uint64_t* out) noexcept nogil:
    """One world into out[0:8] = (once, twice) of seats 0..3."""
    cdef uint64_t rng = seed
    cdef int cards[108]
    cdef int free[4]
    cdef int seat, i, k, total, pick, next_card = 0
    for seat in range(4):
        out[2 * seat] = t.base_once[seat]
        out[2 * seat + 1] = t.base_twice[seat]
        free[seat] = t.free[seat]
    for k in range(t.pooled_count):
        total = 0
        for seat in range(4):
            if t.pooled_mask >> seat & 1:
                total += free[seat]
        pick = <int>rng_below(&rng, <uint32_t>total)
        for seat in range(4):
            if t.pooled_mask >> seat & 1:
                if pick < free[seat]:
                    break
                pick -= free[seat]
        add_card(&out[2 * seat], &out[2 * seat + 1], t.pooled_card)
        free[seat] -= 1
    for i in range(t.ncards):
        cards[i] = t.cards[i]
    shuffle_cards(cards, t.ncards, &rng)
    for seat in range(4):
        for i in range(free[seat]):
            add_card(&out[2 * seat], &out[2 * seat + 1], cards[next_card])
            next_card += 1


def sample_hands(base, unseen_once, unseen_twice, free, pooled_card, pooled_count, pooled_mask, n, seed):
    """sample_hands(base, unseen_once, unseen_twice, free, pooled_card, pooled_count, pooled_mask, n, seed)

    ``n`` worlds as ``uint64[n, 4, 2]`` hand planes. ``base``: four (once, twice) pairs,
    the cards known in each hand; ``(unseen_once, unseen_twice)``: the cards to give out;
    ``free``: four slot counts; ``pooled_count`` copies of card ``pooled_card`` go to the
    seats of the bit mask ``pooled_mask``. ValueError when the pieces do not fit together
    (a card more than twice, slots and cards of different numbers, ...)."""
    cdef Table t
    cdef uint64_t o, w, all_once = 0, all_twice = 0, extra, start
    cdef int seat, c, slots = 0, pooled_slots = 0
    cdef Py_ssize_t count, i
    if len(base) != 4 or len(free) != 4:
        raise ValueError("base and free need one entry per seat")
    count = n
    if count < 0:
        raise ValueError(f"the number of worlds must be >= 0, not {count}")
    start = seed
    t.pooled_card = pooled_card
    t.pooled_count = pooled_count
    t.pooled_mask = pooled_mask
    if not (0 <= t.pooled_count <= 2 and 0 <= t.pooled_card < 54 and 0 <= t.pooled_mask < 16):
        raise ValueError("bad pooled cards")
    # Every card of the world, counted once: at most two copies of each.
    extra = (1ULL << t.pooled_card) if t.pooled_count else 0
    for seat in range(-1, 5):
        if seat == -1:
            o, w = unseen_once, unseen_twice
        elif seat == 4:
            o, w = extra, extra if t.pooled_count == 2 else 0
        else:
            o, w = base[seat]
            t.base_once[seat], t.base_twice[seat] = o, w
            t.free[seat] = free[seat]
            if not 0 <= t.free[seat] <= 108:  # 108 bounds every sum below: no int overflow
                raise ValueError(f"a seat has 0 to 108 free slots, not {free[seat]}")
            slots += t.free[seat]
            if t.pooled_mask >> seat & 1:
                pooled_slots += t.free[seat]
        if (o | w) & ~FULL_PLANE or w & ~o:
            raise ValueError("bad hand planes")
        if (all_twice & o) or (w & all_once):
            raise ValueError("a card would appear more than twice")
        gf_hand_add(&all_once, &all_twice, o, w)
    t.ncards = 0
    o, w = unseen_once, unseen_twice
    while o:
        c = gf_ctz64(o)
        t.cards[t.ncards] = c
        t.ncards += 1
        if w >> c & 1:
            t.cards[t.ncards] = c
            t.ncards += 1
        o &= o - 1
    if slots != t.ncards + t.pooled_count or pooled_slots < t.pooled_count:
        raise ValueError(
            f"{slots} free slots for {t.ncards} unseen and {t.pooled_count} pooled cards "
            f"({pooled_slots} slots in the pooled seats)"
        )
    out = np.empty((count, 4, 2), dtype=np.uint64)
    cdef uint64_t[:, :, ::1] view = out
    with nogil:
        for i in range(count):
            _sample(&t, start + <uint64_t>i, &view[i, 0, 0])
    return out
