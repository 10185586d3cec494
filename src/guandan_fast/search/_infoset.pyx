# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""Native world sampling: the cards a seat cannot see, given out to the other seats.

A world is four hands. Each seat starts from the cards known to be in its hand (``base``:
the observer's whole hand, the tribute card a receiver still holds, ...), then

* the ``pooled`` cards (copies of one card known to be in one of a set of seats, e.g. the
  big jokers of an anti-tribute by two players) take slots of those seats: each copy a
  seat with probability proportional to the seat's free slots;
* the unseen cards some seats cannot hold (``barred``: a tribute payer holds no card above
  its tribute, nor the other big joker once a payer paid one), most restricted first, each
  take a free slot drawn uniformly among the seats that may hold them;
* the other unseen cards, in a uniformly random order (Fisher-Yates), fill the free slots
  left, seat after seat.

So every arrangement of the unseen physical cards into the free slots that keeps the pooled
copies in their seats' slots and no card in a seat barred from it is equally likely: the
barred sets are nested (thresholds of card power), so at each draw of a restricted card
the number of slots open to it is the same in every arrangement drawn so far. World ``i``
of a batch with seed ``s`` uses the random stream ``s + i``. The Python face is :mod:`guandan_fast.search.infoset`.
"""

from libc.stdint cimport uint32_t, uint64_t

import operator

import numpy as np
cimport numpy as cnp

from guandan_fast.engine._bitops cimport gf_ctz64, gf_hand_add
from guandan_fast.engine._random cimport rng_below, shuffle_cards, add_card
from guandan_fast.engine._movegen cimport FULL_PLANE, as_in_range, as_plane

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
    int nrestricted           # cards[0:nrestricted] are barred from some seat, most restricted first
    int allowed[108]          # for those: bit s, seat s may hold the card


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
    for k in range(t.nrestricted):  # total > 0: _restrict checked that the restricted cards fit
        total = 0
        for seat in range(4):
            if t.allowed[k] >> seat & 1:
                total += free[seat]
        pick = <int>rng_below(&rng, <uint32_t>total)
        for seat in range(4):
            if t.allowed[k] >> seat & 1:
                if pick < free[seat]:
                    break
                pick -= free[seat]
        add_card(&out[2 * seat], &out[2 * seat + 1], t.cards[k])
        free[seat] -= 1
    for i in range(t.nrestricted, t.ncards):
        cards[i - t.nrestricted] = t.cards[i]
    shuffle_cards(cards, t.ncards - t.nrestricted, &rng)
    for seat in range(4):
        for i in range(free[seat]):
            add_card(&out[2 * seat], &out[2 * seat + 1], cards[next_card])
            next_card += 1


cdef int _restrict(Table* t, barred) except -1:
    """Order ``t.cards`` so that the cards barred from some seat come first, most restricted
    (fewest seats allowed) first, with their allowed seats; checks that the barred sets are
    nested and leave every such card a seat with free slots."""
    cdef uint64_t masks[4]
    cdef int seat, other, i, k, size, card, allowed
    cdef int order[108]
    cdef int chosen[108]
    if len(barred) != 4:
        raise ValueError("barred needs one card mask per seat")
    for seat in range(4):
        try:
            value = operator.index(barred[seat])
        except TypeError:
            raise ValueError("bad barred card masks: an integer mask of the 54 cards per seat") from None
        if value < 0 or value >> 54:
            raise ValueError("bad barred card masks: an integer mask of the 54 cards per seat")
        masks[seat] = value
    for seat in range(4):
        for other in range(4):
            if (masks[seat] & ~masks[other]) and (masks[other] & ~masks[seat]):
                raise ValueError("the barred sets must be nested (one seat's set inside the other's)")
    cdef uint64_t any_barred = masks[0] | masks[1] | masks[2] | masks[3]
    cdef int open_to[108]     # the seats with free slots card i may go to; -1: not barred anywhere
    for i in range(t.ncards):  # t.cards[i] < 54: read from the validated planes
        card = t.cards[i]
        open_to[i] = -1
        if any_barred >> card & 1:
            allowed = 0
            for seat in range(4):
                if not (masks[seat] >> card & 1) and t.free[seat]:
                    allowed |= 1 << seat
            if allowed == 0:
                raise ValueError(f"card {card} is barred from every seat with free slots")
            open_to[i] = allowed
    k = 0
    for size in range(1, 4):  # the most restricted first: one seat open, then two, three
        for i in range(t.ncards):
            if open_to[i] >= 0 and _popcount4(open_to[i]) == size:
                order[k] = i
                chosen[k] = open_to[i]
                k += 1
    t.nrestricted = k
    if k and t.pooled_count:
        raise ValueError("barred cards and pooled cards cannot be drawn together")
    cdef int slots, inside
    for i in range(k):  # Hall's condition, enough for nested sets: the cards confined to a set fit its slots
        slots = 0
        for seat in range(4):
            if chosen[i] >> seat & 1:
                slots += t.free[seat]
        inside = 0
        for other in range(k):
            if chosen[other] & ~chosen[i] == 0:
                inside += 1
        if inside > slots:
            raise ValueError(f"{inside} unseen cards fit only the {slots} free slots of the seats not barred from them")
    cdef int cards[108]
    cdef bint taken[108]
    for i in range(t.ncards):
        taken[i] = False
    for i in range(k):
        cards[i] = t.cards[order[i]]
        t.allowed[i] = chosen[i]
        taken[order[i]] = True
    for i in range(t.ncards):
        if not taken[i]:
            cards[k] = t.cards[i]
            k += 1
    for i in range(t.ncards):
        t.cards[i] = cards[i]
    return 0


cdef inline int _popcount4(int mask) noexcept nogil:
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1)


def sample_hands(base, unseen_once, unseen_twice, free, pooled_card, pooled_count, pooled_mask, n, seed, barred=(0, 0, 0, 0)):
    """sample_hands(base, unseen_once, unseen_twice, free, pooled_card, pooled_count, pooled_mask, n, seed, barred=(0, 0, 0, 0))

    ``n`` worlds as ``uint64[n, 4, 2]`` hand planes. ``base``: four (once, twice) pairs,
    the cards known in each hand; ``(unseen_once, unseen_twice)``: the cards to give out;
    ``free``: four slot counts; ``pooled_count`` copies of card ``pooled_card`` go to the
    seats of the bit mask ``pooled_mask``; ``barred``: four card masks (bit ``c``: both
    copies of card ``c``), the unseen cards each seat cannot hold — nested (of two seats'
    sets, one holds the other). ValueError when the pieces do not fit together (a card more
    than twice, slots and cards of different numbers, barred sets not nested or leaving a
    card no seat with a free slot, ...)."""
    cdef Table t
    cdef uint64_t o, w, all_once = 0, all_twice = 0, extra, start
    # each plane read once (a second read of the object could give another value)
    cdef uint64_t unseen_o = as_plane(unseen_once, "unseen_once"), unseen_w = as_plane(unseen_twice, "unseen_twice")
    cdef int seat, c, slots = 0, pooled_slots = 0
    cdef Py_ssize_t count, i
    if len(base) != 4 or len(free) != 4:
        raise ValueError("base and free need one entry per seat")
    count = as_in_range(n, "the number of worlds", 0, 2**31 - 1)
    start = as_in_range(seed, "seed", 0, 2**64 - 1)
    t.pooled_card = as_in_range(pooled_card, "the pooled card", 0, 53)
    t.pooled_count = as_in_range(pooled_count, "the pooled count", 0, 2)
    t.pooled_mask = as_in_range(pooled_mask, "the pooled seats' mask", 0, 15)
    # Every card of the world, counted once: at most two copies of each.
    extra = (1ULL << t.pooled_card) if t.pooled_count else 0
    for seat in range(-1, 5):
        if seat == -1:
            o, w = unseen_o, unseen_w
        elif seat == 4:
            o, w = extra, extra if t.pooled_count == 2 else 0
        else:
            once, twice = base[seat]
            o, w = as_plane(once, "base once"), as_plane(twice, "base twice")
            t.base_once[seat], t.base_twice[seat] = o, w
            # 108 bounds every sum below: no int overflow
            t.free[seat] = as_in_range(free[seat], "a seat's free slots", 0, 108)
            slots += t.free[seat]
            if t.pooled_mask >> seat & 1:
                pooled_slots += t.free[seat]
        if (o | w) & ~FULL_PLANE or w & ~o:
            raise ValueError("bad hand planes")
        if (all_twice & o) or (w & all_once):
            raise ValueError("a card would appear more than twice")
        gf_hand_add(&all_once, &all_twice, o, w)
    t.ncards = 0
    o, w = unseen_o, unseen_w
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
    _restrict(&t, barred)
    out = np.empty((count, 4, 2), dtype=np.uint64)
    cdef uint64_t[:, :, ::1] view = out
    with nogil:
        for i in range(count):
            _sample(&t, start + <uint64_t>i, &view[i, 0, 0])
    return out
