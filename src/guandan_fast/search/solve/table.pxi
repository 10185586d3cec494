# Included by _solve.pyx (one module: the search inlines across these files).
# The transposition table: exact keys (each seat's hand as bits of its root cards), buckets of two, growth.

cdef inline uint64_t _compress(uint64_t x, uint64_t mask) noexcept nogil:
    """The bits of x at the set bits of mask, packed low (a portable pext)."""
    cdef uint64_t out = 0, bit = 1, low
    while mask:
        low = mask & (~mask + 1)
        if x & low:
            out |= bit
        bit <<= 1
        mask ^= low
    return out


cdef inline void _set_key(SolveContext* c, int seat, uint64_t once, uint64_t twice) noexcept nogil:
    """A seat's part of the table key: which of the cards it held at the root it still
    holds, one bit per card (a hand only loses cards, so this names the hand exactly)."""
    c.held[seat] = (_compress(once, c.root_once[seat])
                    | _compress(twice, c.root_twice[seat]) << gf_popcount64(c.root_once[seat]))


cdef inline void _key(SolveContext* c, uint64_t* lo, uint64_t* hi) noexcept nogil:
    """The four hands as a 128-bit key: each seat's bits at its offset (at most 108 bits:
    one per card at the root)."""
    cdef int seat, at
    lo[0] = 0
    hi[0] = 0
    for seat in range(4):
        at = c.offset[seat]
        if at < 64:
            lo[0] |= c.held[seat] << at
            if at > 0:
                hi[0] |= c.held[seat] >> (64 - at)
        else:
            hi[0] |= c.held[seat] << (at - 64)


cdef inline uint32_t _meta(SolveContext* c, const PlayState* s) noexcept nogil:
    """Everything but the hands that a position's value depends on, in 32 bits."""
    cdef uint32_t m = <uint32_t>(s.level - 2)                       # 4 bits
    m |= <uint32_t>c.objective << 4                                 # 1
    m |= <uint32_t>(s.to_act & 3) << 5                              # 2
    m |= <uint32_t>(s.last_kind & 15) << 7                          # 4
    m |= <uint32_t>(s.last_key & 31) << 11                          # 5
    m |= <uint32_t>(s.last_size & 15) << 16                         # 4
    m |= <uint32_t>((s.last_seat + 1) & 7) << 20                    # 3
    m |= <uint32_t>(s.passes & 3) << 23                             # 2
    m |= <uint32_t>(s.nfinish & 3) << 25                            # 2 (0..2 while the deal is on)
    m |= <uint32_t>(s.finish[0] & 3) << 27                          # 2
    m |= <uint32_t>(s.finish[1] & 3) << 29                          # 2
    return m


cdef inline uint64_t _hash(uint64_t lo, uint64_t hi, uint32_t meta) noexcept nogil:
    cdef uint64_t h = (lo ^ (<uint64_t>meta << 32)) * 0x9E3779B97F4A7C15ULL
    h = (h ^ (h >> 29) ^ hi) * 0xBF58476D1CE4E5B9ULL
    return h ^ (h >> 32)


cdef inline bint _same(const TableEntry* e, uint64_t lo, uint64_t hi, uint32_t meta, uint32_t stamp) noexcept nogil:
    return e.stamp == stamp and e.lo == lo and e.hi == hi and e.meta == meta


cdef inline TableEntry* _probe(SolveContext* c, uint64_t h, uint64_t lo, uint64_t hi, uint32_t meta) noexcept nogil:
    cdef TableEntry* bucket = &c.table[(h & c.mask) & ~(<uint64_t>1)]
    if _same(bucket, lo, hi, meta, c.stamp):
        return bucket
    if _same(bucket + 1, lo, hi, meta, c.stamp):
        return bucket + 1
    return NULL


cdef inline void _store(SolveContext* c, uint64_t h, uint64_t lo, uint64_t hi, uint32_t meta, int lower, int upper,
                        int kind, int key, int size, int work) noexcept nogil:
    """Record proven bounds (intersected with those already held) and the best action."""
    cdef TableEntry* bucket = &c.table[(h & c.mask) & ~(<uint64_t>1)]
    cdef TableEntry* e
    if _same(bucket, lo, hi, meta, c.stamp):
        e = bucket
    elif _same(bucket + 1, lo, hi, meta, c.stamp):
        e = bucket + 1
    else:
        # an empty slot (another solve's), else the one whose subtree was cheaper
        if bucket.stamp != c.stamp:
            e = bucket
        elif bucket[1].stamp != c.stamp:
            e = bucket + 1
        else:
            e = bucket if bucket.work <= bucket[1].work else bucket + 1
        e.lo = lo
        e.hi = hi
        e.meta = meta
        e.stamp = c.stamp
        e.lower = WINDOW_LOW
        e.upper = WINDOW_HIGH
        e.move_kind = 0xFF
        e.work = 0
        c.stored += 1
        if c.stored > <int64_t>(c.mask - (c.mask >> 2)) and c.table_bits < c.table_bits_max:
            # three quarters full: double it (no entry is held across this call)
            _grow(c)
            e = _probe(c, h, lo, hi, meta)
            if e == NULL:   # not kept by the rehash (its bucket held two costlier ones)
                return
    if lower > e.lower:
        e.lower = <int8_t>lower
    if upper < e.upper:
        e.upper = <int8_t>upper
    if kind >= 0:
        e.move_kind = <uint8_t>kind
        e.move_key = <uint8_t>key
        e.move_size = <uint8_t>size
    if work > e.work:
        e.work = <uint8_t>work


cdef TableEntry* _table_block(uint64_t entries, void** block) noexcept nogil:
    """Room for ``entries`` empty entries, aligned to 64 bytes (a bucket per cache line);
    ``block`` receives the pointer to free. NULL when out of memory."""
    block[0] = calloc(<size_t>(entries + 2), sizeof(TableEntry))
    if block[0] == NULL:
        return NULL
    return <TableEntry*>((<size_t>block[0] + 63) & ~(<size_t>63))


cdef int _table_alloc(SolveContext* c, int bits) noexcept nogil:
    """The first table: 2**bits entries, every slot empty; 0, or -1 when out of memory."""
    c.table = _table_block(<uint64_t>1 << bits, &c.table_memory)
    if c.table == NULL:
        return -1
    c.capacity_bits = bits
    c.table_bits = bits
    c.mask = (<uint64_t>1 << bits) - 1
    c.stamp = 1
    return 0


cdef void _grow(SolveContext* c) noexcept nogil:
    """Double the table in use, keeping this solve's entries: an entry of bucket b stays in
    its slot or moves to the first free slot of bucket b + old size. In place while the
    memory held allows (the new half holds only older solves' entries), else into a new
    block twice as large, with the same layout either way (so no result depends on the
    memory an earlier solve left). Out of memory, the table keeps its size."""
    cdef uint64_t size = c.mask + 1, b, to, h
    cdef uint32_t stamp = c.stamp
    cdef TableEntry* table
    cdef TableEntry* e
    cdef void* memory = NULL
    cdef int k
    cdef bint in_place = c.table_bits < c.capacity_bits
    if in_place:
        table = c.table
    else:
        table = _table_block(size * 2, &memory)
        if table == NULL:
            c.table_bits_max = c.table_bits
            return
    for b in range(0, size, 2):
        for k in range(2):
            e = &c.table[b + k]
            if e.stamp != stamp:
                continue
            h = _hash(e.lo, e.hi, e.meta) & (2 * size - 1) & ~(<uint64_t>1)
            if h == b:
                if not in_place:
                    table[b + k] = e[0]
                continue
            to = h if table[h].stamp != stamp else h + 1
            table[to] = e[0]
            if in_place:
                e.stamp = 0
    if not in_place:
        free(c.table_memory)
        c.table_memory = memory
        c.table = table
        c.capacity_bits += 1
    c.table_bits += 1
    c.mask = 2 * size - 1
