# Included by _movegen.pyx (one module: the kernels inline across these files).
# The vocabulary's tables: the sub-multisets of a rank's cards by pattern, the suit lanes
# of straight flushes (read-only, filled once at import).

# The vocabulary (kinds K_*, powers, tiers, plane masks) is declared in _movegen.pxd.

cdef enum:
    # moves held on the stack while classifying (the readings of one card set are few)
    READINGS_ROOM = 64
    # bytes per move in one block of moves: two uint64 planes, the kind and the key
    MOVE_BYTES = 18

# The four 16-bit suit lanes of _straight_flushes: bit 0, bit 1 and bit 10 of each lane;
# SUIT_LANES[nib]: bit 0 of the lane of each suit in the 4-bit suit mask ``nib``.
cdef uint64_t SUIT_LANES[16]
cdef uint64_t LANE_ONES = 0x0001000100010001ULL
cdef uint64_t LANE_BIT_1 = 0x0002000200020002ULL
cdef uint64_t LANE_BIT_10 = 0x0400040004000400ULL

# Sub-multisets of one rank's natural cards, for each pattern byte ``o | t << 4``
# (o: suits held at least once, t: suits held twice, t a subset of o): the entries of
# size k are SUB_DATA[SUB_OFF[p][k] : SUB_OFF[p][k + 1]], each a pattern byte itself.
# Patterns with t not a subset of o have no entries. Filled once at import; read-only.
cdef uint8_t SUB_DATA[1296 + 16]  # (16 entries of padding: _rank_rows reads whole rows)
cdef uint16_t SUB_OFF[256][10]
# NIB_CARDS[nib][j]: the j-th suit bit of the 4-bit suit mask ``nib``, then zeros.
cdef uint8_t NIB_CARDS[16][4]
# Number of bits set in each 5-bit value.
cdef uint8_t POP5[32]
# Number of cards in the sub-multiset of each pattern byte (bits of o plus bits of t).
cdef uint8_t SUB_SIZE[256]


cdef void _build_tables() noexcept:
    cdef int p, o, t, s, k, combo, rest, take, size, sub_o, sub_t, pos = 0
    cdef int counts[4]
    for p in range(16):
        SUIT_LANES[p] = 0
        for s in range(4):
            if p >> s & 1:
                SUIT_LANES[p] |= <uint64_t>1 << (16 * s)
    for p in range(32):
        POP5[p] = <uint8_t>((p & 1) + (p >> 1 & 1) + (p >> 2 & 1) + (p >> 3 & 1) + (p >> 4 & 1))
    for p in range(16):
        k = 0
        for s in range(4):
            NIB_CARDS[p][s] = 0
        for s in range(4):
            if p >> s & 1:
                NIB_CARDS[p][k] = <uint8_t>(1 << s)
                k += 1
    for p in range(256):
        SUB_SIZE[p] = <uint8_t>(POP5[p & 15] + POP5[p >> 4])
    for p in range(256):
        o = p & 15
        t = p >> 4
        if t & ~o:
            for k in range(10):
                SUB_OFF[p][k] = pos
            continue
        for s in range(4):
            counts[s] = ((o >> s) & 1) + ((t >> s) & 1)
        for k in range(10):
            SUB_OFF[p][k] = pos
            if k == 9:
                break
            # every choice of 0..counts[s] copies per suit, in base 3
            for combo in range(81):
                rest = combo
                size = 0
                sub_o = 0
                sub_t = 0
                for s in range(4):
                    take = rest % 3
                    rest = rest // 3
                    if take > counts[s]:
                        size = -1
                        break
                    size += take
                    if take >= 1:
                        sub_o |= 1 << s
                    if take == 2:
                        sub_t |= 1 << s
                if size == k:
                    SUB_DATA[pos] = <uint8_t>(sub_o | (sub_t << 4))
                    pos += 1

    for p in range(pos, 1296 + 16):
        SUB_DATA[p] = 0


_build_tables()
