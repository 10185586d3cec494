# cython: language_level=3, cdivision=True, freethreading_compatible=True
"""Native core: legal-move generation over bitmask hands (see guandan_fast.hand).

The kernels (every ``noexcept nogil`` function below) work on plain C integers and
arrays; the Python entry points at the bottom validate their arguments, run a kernel
into a growable C buffer and copy the result into fresh numpy arrays.

How a hand is seen by the kernels (``Ctx``):

* the two wildcards (hearts of the level rank) are taken out and counted (``W``);
* every rank r (rank index 0..12 = 2..A) keeps a *pattern* byte: the 4-bit suit mask of
  its natural cards held at least once (low nibble) and held twice (high nibble);
* a static table lists, for each of the 81 possible patterns, the distinct
  sub-multisets of that rank's cards grouped by size (``SUB_OFF`` / ``SUB_DATA``), so a
  demand "k natural cards of rank r" is a slice of that table and "n cards of rank r"
  is the slices k = n - W .. n, with n - k wildcards making up the rest.

Every combination type is then a cross product of such slices (written straight into
the output), which by construction never produces the same (kind, key, cards) twice,
except for a full house whose pair is the two wildcards: its cards do not depend on
the pair's rank, so it is written once. The ``strongest`` lists drop the readings that
another reading of the same cards beats; the rules for that are at each generator.

Bounds: the kernels index only fixed-size C arrays and the move buffer, with indices
bounded by construction (pattern bytes < 256, sub-multiset sizes <= 8, at most 13 ranks,
5 slots, 3 wildcard counts, ``SEQ_CAP`` partial sequences, checked), and every write to
the buffer goes through ``_emit`` / ``_reserve``, which grow it or stop. Every entry
point checks its arguments (``check_args``) before any kernel runs.
"""

from cpython.long cimport PyLong_AsLongLongAndOverflow
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF
from libc.stdint cimport uint8_t, uint16_t, uint64_t, int64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset

cimport numpy as cnp

from guandan_fast._bitops cimport gf_popcount64, gf_ctz64

cnp.import_array()

import numpy as np

from guandan_fast.cards import CARD_NAMES
from guandan_fast.kinds import _CODE_BY_PLATFORM_NAME, _POSITION_BY_CHAR, _RANK_BY_CHAR

# --------------------------------------------------------------------------------------
# Constants and read-only tables
# --------------------------------------------------------------------------------------

# The vocabulary (kinds K_*, powers, tiers, plane masks) is declared in _movegen.pxd.

cdef enum:
    # moves held on the stack while classifying (the readings of one card set are few)
    READINGS_ROOM = 64

# Sub-multisets of one rank's natural cards, for each pattern byte ``o | t << 4``
# (o: suits held at least once, t: suits held twice, t a subset of o): the entries of
# size k are SUB_DATA[SUB_OFF[p][k] : SUB_OFF[p][k + 1]], each a pattern byte itself.
# Patterns with t not a subset of o have no entries. Filled once at import; read-only.
cdef uint8_t SUB_DATA[1296]
cdef uint16_t SUB_OFF[256][10]
# Number of cards in each pattern byte (the popcount of the byte).
cdef uint8_t PAT_CNT[256]
# Number of bits set in each 5-bit value.
cdef uint8_t POP5[32]


cdef void _build_tables() noexcept:
    cdef int p, o, t, s, k, combo, rest, take, size, sub_o, sub_t, pos = 0
    cdef int counts[4]
    for p in range(32):
        POP5[p] = <uint8_t>((p & 1) + (p >> 1 & 1) + (p >> 2 & 1) + (p >> 3 & 1) + (p >> 4 & 1))
    for p in range(256):
        PAT_CNT[p] = <uint8_t>((p & 1) + (p >> 1 & 1) + (p >> 2 & 1) + (p >> 3 & 1) + (p >> 4 & 1)
                               + (p >> 5 & 1) + (p >> 6 & 1) + (p >> 7 & 1))
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


_build_tables()


# --------------------------------------------------------------------------------------
# The move buffer
# --------------------------------------------------------------------------------------

cdef int _grow(MoveBuffer* b) noexcept nogil:
    """Double the buffer; 0 on success, -1 (and ``failed`` set) when it cannot grow."""
    cdef Py_ssize_t cap
    cdef uint8_t* kinds
    cdef uint8_t* keys
    cdef uint64_t* cards
    if b.failed or b.fixed or b.cap <= 0 or b.cap > (<Py_ssize_t>1 << 40):
        b.failed = 1
        return -1
    cap = b.cap * 2
    if b.borrowed:  # the caller's arrays: move to memory of our own
        kinds = <uint8_t*>malloc(<size_t>cap)
        keys = <uint8_t*>malloc(<size_t>cap)
        cards = <uint64_t*>malloc(<size_t>cap * 2 * sizeof(uint64_t))
        if kinds == NULL or keys == NULL or cards == NULL:
            free(kinds)
            free(keys)
            free(cards)
            b.failed = 1
            return -1
        memcpy(kinds, b.kinds, <size_t>b.n)
        memcpy(keys, b.keys, <size_t>b.n)
        memcpy(cards, b.cards, <size_t>b.n * 2 * sizeof(uint64_t))
        b.kinds = kinds
        b.keys = keys
        b.cards = cards
        b.borrowed = 0
        b.cap = cap
        return 0
    kinds = <uint8_t*>realloc(b.kinds, <size_t>cap)
    if kinds == NULL:
        b.failed = 1
        return -1
    b.kinds = kinds
    keys = <uint8_t*>realloc(b.keys, <size_t>cap)
    if keys == NULL:
        b.failed = 1
        return -1
    b.keys = keys
    cards = <uint64_t*>realloc(b.cards, <size_t>cap * 2 * sizeof(uint64_t))
    if cards == NULL:
        b.failed = 1
        return -1
    b.cards = cards
    b.cap = cap
    return 0


cdef inline void _emit(MoveBuffer* b, int kind, int key, uint64_t once, uint64_t twice) noexcept nogil:
    cdef Py_ssize_t n = b.n
    if n >= b.cap:
        if _grow(b) != 0:
            return
    b.kinds[n] = <uint8_t>kind
    b.keys[n] = <uint8_t>key
    b.cards[2 * n] = once
    b.cards[2 * n + 1] = twice
    b.n = n + 1


cdef inline Py_ssize_t _reserve(MoveBuffer* b, Py_ssize_t count) noexcept nogil:
    """Room for ``count`` more moves: returns ``count``, or less when the buffer cannot
    grow (then ``failed`` is set)."""
    while b.n + count > b.cap:
        if _grow(b) != 0:
            return b.cap - b.n if b.cap > b.n else 0
    return count


cdef inline void _emit_run(MoveBuffer* b, int kind, int key, uint64_t once, uint64_t twice,
                           const uint64_t* run_once, const uint64_t* run_twice, Py_ssize_t count) noexcept nogil:
    """The moves (kind, key, (once | run_once[i], twice | run_twice[i])) for i < count."""
    cdef Py_ssize_t i, n
    cdef uint64_t* cards
    cdef uint8_t* kinds
    cdef uint8_t* keys
    if count <= 0:
        return
    count = _reserve(b, count)
    n = b.n
    kinds = b.kinds + n
    keys = b.keys + n
    cards = b.cards + 2 * n
    for i in range(count):  # runs are short: a loop beats memset calls
        kinds[i] = <uint8_t>kind
        keys[i] = <uint8_t>key
        cards[2 * i] = once | run_once[i]
        cards[2 * i + 1] = twice | run_twice[i]
    b.n = n + count


# --------------------------------------------------------------------------------------
# Kernels
# --------------------------------------------------------------------------------------

cdef struct Ctx:
    uint64_t once
    uint64_t twice
    int level_index         # rank index of the level (level - 2)
    int W                   # wildcards held, 0..2
    uint64_t wo[3]          # planes of w wildcards, w = 0..2
    uint64_t wt[3]
    uint8_t pat[13]         # pattern byte of the natural cards of each rank
    int cnt[13]             # natural cards of each rank
    int pw[13]              # power of each rank
    int max_cnt             # most natural cards of one rank
    unsigned int at_least[4]  # sequence positions 1..14 (bit p) of the ranks with >= j natural cards
    int sbc                 # small jokers held
    int hrc                 # big jokers held
    bint strongest
    MoveBuffer* out


cdef inline int _min(int a, int b) noexcept nogil:
    return a if a < b else b


cdef inline int _max(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline int _rank_at(int position) noexcept nogil:
    """Rank index standing at a sequence position 1..14 (1 and 14 are both A)."""
    if position == 1 or position == 14:
        return 12
    return position - 2


cdef inline void _setup(Ctx* c, uint64_t once, uint64_t twice, int level, bint strongest,
                        MoveBuffer* out) noexcept nogil:
    cdef int r, j, li = level - 2
    cdef uint64_t wbit = wild_bit(level)
    cdef uint64_t no = once & ~wbit
    cdef uint64_t nt = twice & ~wbit
    cdef uint8_t p
    c.once = once
    c.twice = twice
    c.level_index = li
    c.W = (1 if once & wbit else 0) + (1 if twice & wbit else 0)
    c.wo[0] = 0
    c.wo[1] = wbit
    c.wo[2] = wbit
    c.wt[0] = 0
    c.wt[1] = 0
    c.wt[2] = wbit
    for r in range(13):
        p = <uint8_t>(((no >> (4 * r)) & 15) | (((nt >> (4 * r)) & 15) << 4))
        c.pat[r] = p
        c.cnt[r] = PAT_CNT[p]
        c.pw[r] = r + 2
    c.pw[li] = LEVEL_POWER
    c.max_cnt = 0
    c.at_least[0] = 0x7FFE
    c.at_least[1] = 0
    c.at_least[2] = 0
    c.at_least[3] = 0
    for r in range(13):
        if c.cnt[r] > c.max_cnt:
            c.max_cnt = c.cnt[r]
        for j in range(1, _min(c.cnt[r], 3) + 1):
            c.at_least[j] |= 1u << (r + 2)
    for j in range(1, 4):
        if c.at_least[j] & (1u << 14):  # A stands at 1 as well as at 14
            c.at_least[j] |= 2u
    c.sbc = (1 if once & SB_BIT else 0) + (1 if twice & SB_BIT else 0)
    c.hrc = (1 if once & HR_BIT else 0) + (1 if twice & HR_BIT else 0)
    c.strongest = strongest
    c.out = out


cdef void _singles(Ctx* c, int min_key) noexcept nogil:
    """Every distinct card alone; a wildcard alone is only a level card (power 15)."""
    cdef uint64_t m = c.once
    cdef int i, key
    while m:
        i = gf_ctz64(m)
        m &= m - 1
        if i == 52:
            key = SB_POWER
        elif i == 53:
            key = HR_POWER
        else:
            key = c.pw[i >> 2]
        if key > min_key:
            _emit(c.out, K_SINGLE, key, <uint64_t>1 << i, 0)


cdef void _same_rank(Ctx* c, int kind, int need, int min_key) noexcept nogil:
    """Pairs (need 2), trips (3) or bombs of ``need`` cards (4..10) of one rank.

    The two wildcards are a pair of every rank in the complete list; in the strongest
    list only of the level rank, their highest reading (no other cards of this family
    have two readings).
    """
    cdef int r, k, kmin, kmax, w, sh, j, key
    cdef uint8_t p, b
    cdef MoveBuffer* out = c.out
    for r in range(13):
        key = c.pw[r]
        if key <= min_key or c.cnt[r] + c.W < need:
            continue
        kmin = _max(need - c.W, 0)
        kmax = _min(need, c.cnt[r])
        if kmin == 0 and c.strongest and r != c.level_index:
            kmin = 1
        p = c.pat[r]
        sh = 4 * r
        for k in range(kmin, kmax + 1):
            w = need - k
            for j in range(SUB_OFF[p][k], SUB_OFF[p][k + 1]):
                b = SUB_DATA[j]
                _emit(out, kind, key, (<uint64_t>(b & 15) << sh) | c.wo[w],
                      (<uint64_t>(b >> 4) << sh) | c.wt[w])
        if out.failed:
            return
    if need == 2:
        if c.sbc == 2 and SB_POWER > min_key:
            _emit(out, K_PAIR, SB_POWER, SB_BIT, SB_BIT)
        if c.hrc == 2 and HR_POWER > min_key:
            _emit(out, K_PAIR, HR_POWER, HR_BIT, HR_BIT)


cdef void _three_with_two(Ctx* c, int min_key) noexcept nogil:
    """A triple of rank r and a pair of another rank o (or of jokers); key: the triple's.

    The same cards come from different (r, o) only when the pair is the two wildcards
    (then o is free): that move is written once. Cards with natural cards of both
    ranks and at most two of r (``kr <= 2``, ``ko >= 1``) also read as a triple of o
    and a pair of r: the strongest list keeps the reading of higher power.

    The pairs of every rank are laid out rank after rank (two natural cards in
    ``p2``, one natural card and a wildcard in ``p1``), so the pairs that go with one
    triple are a few contiguous runs, each written out in one go.
    """
    cdef uint64_t p2_o[13 * 10]
    cdef uint64_t p2_t[13 * 10]
    cdef uint64_t p1_o[13 * 4]
    cdef uint64_t p1_t[13 * 4]
    cdef int s2[14]
    cdef int s1[14]
    cdef int seg_lo[7]
    cdef int seg_hi[7]
    cdef int r, o, kr, wr, budget, key, j, sh, n2 = 0, n1 = 0, n_seg, i, allowed, lo
    cdef uint8_t b, p
    cdef uint64_t to, tt
    cdef MoveBuffer* out = c.out
    cdef int W = c.W
    for o in range(13):
        p = c.pat[o]
        sh = 4 * o
        s2[o] = n2
        s1[o] = n1
        for j in range(SUB_OFF[p][2], SUB_OFF[p][3]):
            b = SUB_DATA[j]
            p2_o[n2] = <uint64_t>(b & 15) << sh
            p2_t[n2] = <uint64_t>(b >> 4) << sh
            n2 += 1
        for j in range(SUB_OFF[p][1], SUB_OFF[p][2]):
            b = SUB_DATA[j]
            p1_o[n1] = <uint64_t>(b & 15) << sh
            p1_t[n1] = <uint64_t>(b >> 4) << sh
            n1 += 1
    s2[13] = n2
    s1[13] = n1
    for r in range(13):
        key = c.pw[r]
        if key <= min_key:
            continue
        p = c.pat[r]
        sh = 4 * r
        for kr in range(_max(3 - W, 1), _min(3, c.cnt[r]) + 1):
            wr = 3 - kr
            budget = W - wr
            # the pair ranks: any but r; in the strongest list with kr <= 2, none of
            # higher power (those cards read better as a triple of o)
            allowed = 0x1FFF & ~(1 << r)
            if c.strongest and kr <= 2:
                for o in range(13):
                    if c.pw[o] > key:
                        allowed &= ~(1 << o)
            n_seg = 0
            o = 0
            while o < 13:
                if allowed >> o & 1:
                    lo = o
                    while o < 13 and allowed >> o & 1:
                        o += 1
                    seg_lo[n_seg] = lo
                    seg_hi[n_seg] = o
                    n_seg += 1
                else:
                    o += 1
            for j in range(SUB_OFF[p][kr], SUB_OFF[p][kr + 1]):
                b = SUB_DATA[j]
                to = (<uint64_t>(b & 15) << sh)
                tt = (<uint64_t>(b >> 4) << sh)
                for i in range(n_seg):
                    _emit_run(out, K_THREE_TWO, key, to | c.wo[wr], tt | c.wt[wr],
                              p2_o + s2[seg_lo[i]], p2_t + s2[seg_lo[i]], s2[seg_hi[i]] - s2[seg_lo[i]])
                    if budget >= 1:
                        _emit_run(out, K_THREE_TWO, key, to | c.wo[wr + 1], tt | c.wt[wr + 1],
                                  p1_o + s1[seg_lo[i]], p1_t + s1[seg_lo[i]], s1[seg_hi[i]] - s1[seg_lo[i]])
                if kr == 3 and W == 2:
                    _emit(out, K_THREE_TWO, key, to | c.wo[2], tt | c.wt[2])
                if c.sbc == 2:
                    _emit(out, K_THREE_TWO, key, to | c.wo[wr] | SB_BIT, tt | c.wt[wr] | SB_BIT)
                if c.hrc == 2:
                    _emit(out, K_THREE_TWO, key, to | c.wo[wr] | HR_BIT, tt | c.wt[wr] | HR_BIT)
        if out.failed:
            return


cdef enum:
    # Partial sequences of _sequences kept per number of wildcards used (tubes and plates;
    # straights have their own loops). The most there can be: the two first slots of a
    # tube, each with at most 10 pairs of natural cards (or 4 cards and a wildcard, or two
    # wildcards), and fewer for the one first slot of a plate: well under 256.
    SEQ_CAP = 256


cdef inline int _fewest_natural(int need, int spare_wilds, bint not_all_wild) noexcept nogil:
    """Fewest natural cards a sequence slot may take: the wildcards it may use are those not
    needed by the later slots (``spare_wilds``); in a strongest list the lowest slot of a
    window that is not the top one may not be all wildcards (the window above reads higher)."""
    cdef int k = _max(need - spare_wilds, 0)
    if not_all_wild and k == 0:
        k = 1
    return k


cdef void _sequences(Ctx* c, int kind, int nslots, int need, int max_key, int min_key) noexcept nogil:
    """Sequences of ``nslots`` consecutive ranks with ``need`` cards each (tubes and
    plates), lowest position key = min_key + 1 .. max_key.

    The options of each slot are the sub-multisets of its rank of ``need - w`` cards
    plus ``w`` wildcards. The cross product of all slots but the last is built in small
    arrays grouped by wildcards used; the last slot's options then go straight into the
    output, each with one run per group.

    ``c.at_least[j]`` (j = 1..need) has bit p set when the rank at position p has at
    least j cards: a window short of more cards than there are wildcards is
    skipped at once.

    Readings: the same cards read at a higher position exactly when the lowest slot is
    all wildcards (they then fill one more slot at the top; A low and A high never meet
    in one card set), so the strongest list drops those windows below ``max_key``.
    """
    cdef uint64_t part_o[2][3][SEQ_CAP]
    cdef uint64_t part_t[2][3][SEQ_CAP]
    cdef int part_n[2][3]
    cdef uint8_t pats[5]
    cdef int shifts[5]
    cdef int suffix[6]
    cdef int key, i, r, miss, slot, cur, nxt, w, nw, k, kmin, kmax, j, m, count, sh
    cdef bint no_wild_first
    cdef uint8_t p, b
    cdef uint64_t so, st
    cdef uint64_t* src_o
    cdef uint64_t* src_t
    cdef uint64_t* dst_o
    cdef uint64_t* dst_t
    cdef MoveBuffer* out = c.out
    cdef int W = c.W
    cdef unsigned int window = (1u << nslots) - 1
    for key in range(_max(min_key + 1, 1), max_key + 1):
        miss = need * nslots
        for j in range(1, need + 1):
            miss -= POP5[(c.at_least[j] >> key) & window]
        if miss > W:
            continue
        for i in range(nslots):
            r = _rank_at(key + i)
            shifts[i] = 4 * r
            pats[i] = c.pat[r]
        suffix[nslots] = 0
        for i in range(nslots - 1, -1, -1):
            miss = need - PAT_CNT[pats[i]]
            suffix[i] = suffix[i + 1] + (miss if miss > 0 else 0)
        if suffix[0] > W:
            continue
        no_wild_first = c.strongest and key < max_key
        cur = 0
        part_n[0][0] = 1
        part_n[0][1] = 0
        part_n[0][2] = 0
        part_o[0][0][0] = 0
        part_t[0][0][0] = 0
        for slot in range(nslots - 1):
            nxt = 1 - cur
            part_n[nxt][0] = 0
            part_n[nxt][1] = 0
            part_n[nxt][2] = 0
            p = pats[slot]
            sh = shifts[slot]
            kmax = _min(need, PAT_CNT[p])
            for w in range(W + 1):
                count = part_n[cur][w]
                if count == 0:
                    continue
                kmin = _fewest_natural(need, W - w - suffix[slot + 1], slot == 0 and no_wild_first)
                src_o = part_o[cur][w]
                src_t = part_t[cur][w]
                for k in range(kmin, kmax + 1):
                    nw = w + need - k
                    dst_o = part_o[nxt][nw]
                    dst_t = part_t[nxt][nw]
                    for j in range(SUB_OFF[p][k], SUB_OFF[p][k + 1]):
                        b = SUB_DATA[j]
                        so = <uint64_t>(b & 15) << sh
                        st = <uint64_t>(b >> 4) << sh
                        m = part_n[nxt][nw]
                        if m + count > SEQ_CAP:  # cannot happen (see SEQ_CAP); never overrun
                            out.failed = 1
                            return
                        for i in range(count):
                            dst_o[m + i] = src_o[i] | so
                            dst_t[m + i] = src_t[i] | st
                        part_n[nxt][nw] = m + count
            cur = nxt
        slot = nslots - 1
        p = pats[slot]
        sh = shifts[slot]
        kmax = _min(need, PAT_CNT[p])
        for w in range(W + 1):
            count = part_n[cur][w]
            if count == 0:
                continue
            kmin = _fewest_natural(need, W - w, slot == 0 and no_wild_first)
            for k in range(kmin, kmax + 1):
                nw = w + need - k
                for j in range(SUB_OFF[p][k], SUB_OFF[p][k + 1]):
                    b = SUB_DATA[j]
                    _emit_run(out, kind, key, (<uint64_t>(b & 15) << sh) | c.wo[nw],
                              (<uint64_t>(b >> 4) << sh) | c.wt[nw], part_o[cur][w], part_t[cur][w], count)
        if out.failed:
            return


cdef void _runs_of_five(Ctx* c, int kind, int min_key, unsigned int suits,
                       unsigned int positions) noexcept nogil:
    """Straights (``suits`` 15) or straight flushes of one suit (``suits`` 1 << s): five
    consecutive ranks of one card each, lowest position key = min_key + 1 .. 10.

    The one-card case of :func:`_sequences`, enumerated directly: each slot's options are
    its rank's distinct natural cards of the kept suits, then (while wildcards are left)
    a wildcard. The moves of a window are counted first (at most 5**5), room for them is
    made once, and three nested loops over the first slots write runs of the last two
    slots' combinations (listed once per window, grouped by wildcards used) straight into
    the buffer. ``positions`` (bit p) marks the positions 1..14 holding a
    natural card of the kept suits: a window short of more cards than there are wildcards
    is skipped at once. Readings as in :func:`_sequences`: the strongest list drops the
    windows below the top whose lowest slot is a wildcard.
    """
    cdef uint64_t opt[5][5]  # opt[i][j]: natural option j of slot i; opt[i][n[i]] = 0 (wildcard)
    cdef int n[5]
    cdef uint64_t tail[3][25]  # tail[w]: the cards of the last two slots using w wildcards
    cdef int tail_n[3]
    cdef Py_ssize_t ways[3]
    cdef Py_ssize_t count, at, room, size
    cdef int key, i, r, k, W = c.W, wild_first, j0, j1, j2, j3, j4, u0, u1, u2, w
    cdef bint full
    cdef unsigned int nib
    cdef uint64_t b0, b1, b2, base_o, base_t
    cdef MoveBuffer* out = c.out
    cdef uint64_t* cards
    for key in range(_max(min_key + 1, 1), 11):
        if 5 - POP5[(positions >> key) & 31] > W:
            continue
        for i in range(5):
            r = _rank_at(key + i)
            nib = c.pat[r] & suits & 15
            k = 0
            while nib:
                opt[i][k] = <uint64_t>1 << (4 * r + gf_ctz64(nib))
                nib &= nib - 1
                k += 1
            n[i] = k
            opt[i][k] = 0
        # a wildcard may stand in every slot but, in a strongest list below the top, the lowest
        wild_first = 1 if W > 0 and not (c.strongest and key < 10) else 0
        ways[0] = n[0]
        ways[1] = wild_first
        ways[2] = 0
        for i in range(1, 5):
            ways[2] = ways[2] * n[i] + ways[1]
            ways[1] = ways[1] * n[i] + ways[0]
            ways[0] = ways[0] * n[i]
        count = ways[0] + (ways[1] if W >= 1 else 0) + (ways[2] if W >= 2 else 0)
        if count == 0:
            continue
        # the last two slots' combinations, grouped by the wildcards they use
        tail_n[0] = 0
        tail_n[1] = 0
        tail_n[2] = 0
        for j3 in range(n[3] + (W > 0)):
            for j4 in range(n[4] + (W > 0)):
                w = (j3 == n[3]) + (j4 == n[4])
                if w <= W:
                    tail[w][tail_n[w]] = opt[3][j3] | opt[4][j4]
                    tail_n[w] += 1
        room = _reserve(out, count)  # count, or less when the buffer is full (failed is then set)
        cards = out.cards + 2 * out.n
        memset(out.kinds + out.n, kind, <size_t>room)  # byte stores in the loop would alias the rest
        memset(out.keys + out.n, key, <size_t>room)
        at = 0
        for j0 in range(n[0] + wild_first):
            b0 = opt[0][j0]
            u0 = j0 == n[0]
            for j1 in range(n[1] + (u0 < W)):
                b1 = b0 | opt[1][j1]
                u1 = u0 + (j1 == n[1])
                for j2 in range(n[2] + (u1 < W)):
                    b2 = b1 | opt[2][j2]
                    u2 = u1 + (j2 == n[2])
                    for w in range(W - u2 + 1):
                        size = tail_n[w]
                        full = at + size > room
                        if full:  # a full buffer (or a wrong count): keep what fits
                            size = room - at
                        base_o = b2 | c.wo[u2 + w]
                        base_t = c.wt[u2 + w]
                        for j4 in range(size):
                            cards[2 * at] = base_o | tail[w][j4]
                            cards[2 * at + 1] = base_t
                            at += 1
                        if full:
                            out.n += at
                            out.failed = 1
                            return
        out.n += at
        if at != count:  # cannot happen (count is exact); an incomplete list must not pass
            out.failed = 1
            return


cdef void _straight_flushes(Ctx* c, int min_key) noexcept nogil:
    cdef int s, r
    cdef uint64_t no = c.once & ~c.wo[1]
    cdef uint64_t suit_cards
    cdef unsigned int positions
    for s in range(4):
        suit_cards = no & (<uint64_t>0x1111111111111 << s)
        if gf_popcount64(suit_cards) + c.W < 5:  # too few cards of the suit: no window fills
            continue
        # positions 1..14 of the suit's natural cards (A at 1 and 14)
        positions = 0
        while suit_cards:
            r = gf_ctz64(suit_cards) >> 2
            suit_cards &= suit_cards - 1
            positions |= 1u << (r + 2)
        if positions & (1u << 14):
            positions |= 2u
        _runs_of_five(c, K_STRAIGHT_FLUSH, min_key, 1u << s, positions)


cdef void _bombs(Ctx* c, int last_tier, int last_key) noexcept nogil:
    """Every bomb above (last_tier, last_key) on the ladder (last_tier -1: every bomb)."""
    cdef int size, tier
    for size in range(4, _min(10, c.max_cnt + c.W) + 1):
        tier = bomb_tier(K_BOMB, size)
        if tier > last_tier:
            _same_rank(c, K_BOMB, size, -1)
        elif tier == last_tier:
            _same_rank(c, K_BOMB, size, last_key)
    if SF_TIER > last_tier:
        _straight_flushes(c, -1)
    elif SF_TIER == last_tier:
        _straight_flushes(c, last_key)
    if FJ_TIER > last_tier and c.sbc == 2 and c.hrc == 2:
        _emit(c.out, K_FOUR_JOKERS, 0, SB_BIT | HR_BIT, SB_BIT | HR_BIT)


cdef void _of_kind(Ctx* c, int kind, int min_key) noexcept nogil:
    """Every move of one non-bomb kind with a key above ``min_key``."""
    if kind == K_SINGLE:
        _singles(c, min_key)
    elif kind == K_PAIR:
        _same_rank(c, K_PAIR, 2, min_key)
    elif kind == K_TRIPS:
        _same_rank(c, K_TRIPS, 3, min_key)
    elif kind == K_THREE_TWO:
        _three_with_two(c, min_key)
    elif kind == K_STRAIGHT:
        _runs_of_five(c, K_STRAIGHT, min_key, 15, c.at_least[1])
    elif kind == K_THREE_PAIR:
        _sequences(c, K_THREE_PAIR, 3, 2, 12, min_key)
    elif kind == K_TWO_TRIPS:
        _sequences(c, K_TWO_TRIPS, 2, 3, 13, min_key)


cdef inline int _kind_size(int kind) noexcept nogil:
    """Cards in a move of a fixed-size kind (0 for PASS, -1 for bombs of 4..10)."""
    if kind == K_PASS:
        return 0
    if kind == K_SINGLE:
        return 1
    if kind == K_PAIR:
        return 2
    if kind == K_TRIPS:
        return 3
    if kind == K_THREE_PAIR or kind == K_TWO_TRIPS:
        return 6
    if kind == K_FOUR_JOKERS:
        return 4
    if kind == K_BOMB:
        return -1
    return 5


cdef void _generate(Ctx* c, int last_kind, int last_key, int last_size) noexcept nogil:
    cdef int kind, last_tier
    if last_kind == K_PASS:
        for kind in range(K_SINGLE, K_TWO_TRIPS + 1):
            _of_kind(c, kind, -1)
            if c.out.failed:
                return
        _bombs(c, -1, -1)
        return
    last_tier = bomb_tier(last_kind, last_size)
    if last_tier < 0:
        if last_size == _kind_size(last_kind):
            _of_kind(c, last_kind, last_key)
            if c.out.failed:
                return
        _bombs(c, -1, -1)
    else:
        _bombs(c, last_tier, last_key)


cdef int check_args(uint64_t once, uint64_t twice, int level,
                    int last_kind, int last_key, int last_size) noexcept nogil:
    cdef int size, lo, hi
    if (once | twice) & ~FULL_PLANE:
        return 1
    if twice & ~once:
        return 2
    if level < 2 or level > 14:
        return 3
    if last_kind < K_PASS or last_kind > K_FOUR_JOKERS:
        return 4
    size = _kind_size(last_kind)
    if size >= 0:
        if last_size != size:
            return 5
    elif last_size < 4 or last_size > 10:
        return 5
    if last_kind == K_PASS or last_kind == K_FOUR_JOKERS:
        lo = 0
        hi = 0
    elif last_kind == K_SINGLE or last_kind == K_PAIR:
        lo = 2
        hi = HR_POWER
    elif last_kind == K_TRIPS or last_kind == K_THREE_TWO or last_kind == K_BOMB:
        lo = 2
        hi = LEVEL_POWER
    elif last_kind == K_THREE_PAIR:
        lo = 1
        hi = 12
    elif last_kind == K_TWO_TRIPS:
        lo = 1
        hi = 13
    else:  # straight, straight flush
        lo = 1
        hi = 10
    if last_key < lo or last_key > hi:
        return 6
    return 0


cdef Py_ssize_t generate_append(uint64_t once, uint64_t twice, int level,
                                int last_kind, int last_key, int last_size,
                                bint strongest, MoveBuffer* out) noexcept nogil:
    cdef Ctx c
    cdef Py_ssize_t start = out.n
    if check_args(once, twice, level, last_kind, last_key, last_size) != 0:
        return -2
    if out.failed:
        return -1
    _setup(&c, once, twice, level, strongest, out)
    _generate(&c, last_kind, last_key, last_size)
    if out.failed:
        return -1
    return out.n - start


cdef Py_ssize_t generate_into(uint64_t once, uint64_t twice, int level,
                              int last_kind, int last_key, int last_size,
                              bint strongest, MoveBuffer* out) noexcept nogil:
    out.n = 0
    out.failed = 0
    return generate_append(once, twice, level, last_kind, last_key, last_size, strongest, out)


cdef int has_legal_follow_c(uint64_t once, uint64_t twice, int level,
                            int last_kind, int last_key, int last_size) noexcept nogil:
    cdef Ctx c
    cdef MoveBuffer one
    cdef uint8_t kind_store[1]
    cdef uint8_t key_store[1]
    cdef uint64_t card_store[2]
    if check_args(once, twice, level, last_kind, last_key, last_size) != 0:
        return -2
    if last_kind == K_PASS:
        return 1 if once else 0
    # a buffer of one move that never grows: the first move found stops the search
    movebuf_borrow(&one, kind_store, key_store, card_store, 1)
    one.fixed = 1
    _setup(&c, once, twice, level, False, &one)
    _generate(&c, last_kind, last_key, last_size)
    return 1 if one.n > 0 else 0


cdef Py_ssize_t _classify_append(uint64_t once, uint64_t twice, int level, MoveBuffer* out) noexcept nogil:
    """Every reading of exactly these cards: the moves of the kinds of that size whose
    cards are the whole hand."""
    cdef Ctx c
    cdef Py_ssize_t start = out.n, i, n
    cdef int size
    if check_args(once, twice, level, K_PASS, 0, 0) != 0:
        return -2
    size = gf_popcount64(once) + gf_popcount64(twice)
    _setup(&c, once, twice, level, False, out)
    if size == 1:
        _singles(&c, -1)
    elif size == 2:
        _same_rank(&c, K_PAIR, 2, -1)
    elif size == 3:
        _same_rank(&c, K_TRIPS, 3, -1)
    elif size == 5:
        _three_with_two(&c, -1)
        _of_kind(&c, K_STRAIGHT, -1)
        _straight_flushes(&c, -1)
    elif size == 6:
        _of_kind(&c, K_THREE_PAIR, -1)
        _of_kind(&c, K_TWO_TRIPS, -1)
    if size == 4 and c.sbc == 2 and c.hrc == 2:
        _emit(out, K_FOUR_JOKERS, 0, SB_BIT | HR_BIT, SB_BIT | HR_BIT)
    if 4 <= size <= 10:
        _same_rank(&c, K_BOMB, size, -1)
    if out.failed:
        return -1
    n = start
    for i in range(start, out.n):
        if out.cards[2 * i] == once and out.cards[2 * i + 1] == twice:
            out.kinds[n] = out.kinds[i]
            out.keys[n] = out.keys[i]
            out.cards[2 * n] = once
            out.cards[2 * n + 1] = twice
            n += 1
    out.n = n
    return n - start


cdef int _reads_as_c(uint64_t once, uint64_t twice, int level, int kind, int key) noexcept nogil:
    """1 when the cards read as (kind, key), 0 when not, -1 out of memory, -2 bad arguments."""
    cdef MoveBuffer buf
    cdef uint8_t kind_store[READINGS_ROOM]
    cdef uint8_t key_store[READINGS_ROOM]
    cdef uint64_t card_store[2 * READINGS_ROOM]
    cdef Py_ssize_t i, n
    cdef int found = 0
    movebuf_borrow(&buf, kind_store, key_store, card_store, READINGS_ROOM)
    n = _classify_append(once, twice, level, &buf)
    if n < 0:
        movebuf_free(&buf)
        return <int>n
    for i in range(n):
        if buf.kinds[i] == kind and buf.keys[i] == key:
            found = 1
            break
    movebuf_free(&buf)
    return found


# --------------------------------------------------------------------------------------
# Python entry points: validate, run a kernel, copy into numpy arrays
# --------------------------------------------------------------------------------------

cdef long long _as_int(object value, str what) except? -1:
    """An integer argument (:func:`as_integer`) as a C long long."""
    cdef int overflow = 0
    cdef long long result
    value = as_integer(value, what)
    result = PyLong_AsLongLongAndOverflow(value, &overflow)
    if overflow:
        raise ValueError(f"{what} is out of range: {value}")
    return result


cdef uint64_t _as_plane(object value, str what) except? 0xFFFFFFFFFFFFFFFF:
    cdef long long v = _as_int(value, what)
    if v < 0 or <uint64_t>v > FULL_PLANE:
        raise ValueError(f"hand plane {what!r} may only use bits 0..53 (one per card), got {value}")
    return <uint64_t>v


cdef int _as_small(object value, str what) except? -1:
    cdef long long v = _as_int(value, what)
    if v < -1000 or v > 1000:
        raise ValueError(f"{what} is out of range: {value}")
    return <int>v


cdef struct Args:
    # the arguments of an entry point, converted: a hand, its level, and a move
    # (kind, key, size): the move to beat, or a reading asked about (size unused)
    uint64_t once
    uint64_t twice
    int level
    int kind
    int key
    int size


cdef int _hand_args(Args* a, object once, object twice, object level) except -1:
    """Convert (once, twice, level) into ``a``, the move part set to the pass."""
    a.once = _as_plane(once, "once")
    a.twice = _as_plane(twice, "twice")
    a.level = _as_small(level, "level")
    a.kind = K_PASS
    a.key = 0
    a.size = 0
    return 0


cdef int _last_args(Args* a, object last_kind, object last_key, object last_size) except -1:
    """Convert the move to beat into ``a`` and check all of ``a`` (ValueError names the fault)."""
    a.kind = _as_small(last_kind, "last_kind")
    a.key = _as_small(last_key, "last_key")
    a.size = _as_small(last_size, "last_size")
    _check(a.once, a.twice, a.level, a.kind, a.key, a.size)
    return 0


cdef str _arg_error(int code, int level, int last_kind, int last_key, int last_size):
    if code == 1:
        return "hand planes may only use bits 0..53 (one per card)"
    if code == 2:
        return "bad hand planes: a card marked 'twice' must also be marked 'once' (a third copy is impossible)"
    if code == 3:
        return f"bad level {level}: a level is 2..14 (2..A)"
    if code == 4:
        return f"bad last_kind {last_kind}: a move kind is 0..10"
    if code == 5:
        return f"bad last_size {last_size} for a move of kind {last_kind}"
    return f"bad last_key {last_key} for a move of kind {last_kind}"


cdef _check(uint64_t once, uint64_t twice, int level, int last_kind, int last_key, int last_size):
    cdef int code = check_args(once, twice, level, last_kind, last_key, last_size)
    if code != 0:
        raise ValueError(_arg_error(code, level, last_kind, last_key, last_size))


cdef extern from "numpy/arrayobject.h":
    # steals a reference to ``descr`` (also when it fails)
    object _new_array "PyArray_NewFromDescr" (PyTypeObject* subtype, cnp.dtype descr, int nd,
                                              cnp.npy_intp* dims, cnp.npy_intp* strides, void* data,
                                              int flags, object base)

# the dtypes of the result arrays, looked up once
cdef cnp.dtype _UINT8 = cnp.PyArray_DescrFromType(cnp.NPY_UINT8)
cdef cnp.dtype _UINT64 = cnp.PyArray_DescrFromType(cnp.NPY_UINT64)


cdef inline cnp.ndarray _empty(cnp.dtype descr, int nd, cnp.npy_intp* dims):
    """A new C-contiguous array (PyArray_EMPTY without the dtype lookup)."""
    Py_INCREF(descr)  # the reference _new_array steals
    return <cnp.ndarray>_new_array(<PyTypeObject*>cnp.ndarray, descr, nd, dims, NULL, NULL, 0, None)


cdef tuple _to_numpy(MoveBuffer* b, Py_ssize_t start, Py_ssize_t n):
    """Copies of moves start..start+n-1 as (kinds uint8[n], keys uint8[n], cards uint64[n, 2])."""
    cdef cnp.npy_intp dims[2]
    dims[0] = n
    dims[1] = 2
    cdef cnp.ndarray kinds = _empty(_UINT8, 1, dims)
    cdef cnp.ndarray keys = _empty(_UINT8, 1, dims)
    cdef cnp.ndarray cards = _empty(_UINT64, 2, dims)
    if n > 0:
        memcpy(cnp.PyArray_DATA(kinds), b.kinds + start, <size_t>n)
        memcpy(cnp.PyArray_DATA(keys), b.keys + start, <size_t>n)
        memcpy(cnp.PyArray_DATA(cards), b.cards + 2 * start, <size_t>n * 2 * sizeof(uint64_t))
    return kinds, keys, cards


cdef enum:
    # bytes per move in a Moves block: two uint64 planes, the kind and the key
    MOVE_BYTES = 18


cdef class Moves:
    """The moves of one :func:`generate` or :func:`classify` call.

    ``len(moves)`` is the number of moves; :attr:`kinds` (``uint8[n]``), :attr:`keys`
    (``uint8[n]``) and :attr:`cards` (``uint64[n, 2]``) are numpy arrays over the
    object's memory, made on first access (the moves themselves are all computed by the
    call), so a caller who only counts the moves or reads one array pays for no other.
    The memory is one block (cards, then kinds, then keys) or, for a list too long for
    the call's stack buffer, the three arrays it grew in, taken over without a copy.
    """

    cdef uint64_t* cards_at
    cdef uint8_t* kinds_at
    cdef uint8_t* keys_at
    cdef bint separate  # three allocations (else kinds_at and keys_at lie in cards_at's block)
    cdef Py_ssize_t n
    cdef object _kinds
    cdef object _keys
    cdef object _cards

    def __cinit__(self):
        self.cards_at = NULL
        self.kinds_at = NULL
        self.keys_at = NULL
        self.separate = False
        self.n = 0

    def __dealloc__(self):
        free(self.cards_at)
        if self.separate:
            free(self.kinds_at)
            free(self.keys_at)

    def __len__(self):
        return self.n

    cdef object _view(self, cnp.dtype descr, int nd, void* data):
        cdef cnp.npy_intp dims[2]
        dims[0] = self.n
        dims[1] = 2
        Py_INCREF(descr)  # the reference _new_array steals
        view = _new_array(<PyTypeObject*>cnp.ndarray, descr, nd, dims, NULL, data, cnp.NPY_ARRAY_CARRAY, None)
        cnp.set_array_base(<cnp.ndarray>view, self)  # the memory lives as long as any view
        return view

    @property
    def kinds(self):
        """``uint8[n]``: the MoveType code of each move."""
        if self._kinds is None:
            self._kinds = self._view(_UINT8, 1, self.kinds_at)
        return self._kinds

    @property
    def keys(self):
        """``uint8[n]``: the key of each move."""
        if self._keys is None:
            self._keys = self._view(_UINT8, 1, self.keys_at)
        return self._keys

    @property
    def cards(self):
        """``uint64[n, 2]``: the (once, twice) planes of each move."""
        if self._cards is None:
            self._cards = self._view(_UINT64, 2, self.cards_at)
        return self._cards

    def __reduce__(self):
        cdef Py_ssize_t n = self.n
        return _unpickle_moves, (n, (<char*>self.cards_at)[:16 * n] + (<char*>self.kinds_at)[:n]
                                 + (<char*>self.keys_at)[:n])

    def __repr__(self):
        return f"<Moves: {self.n} moves>"


def _unpickle_moves(n, data):
    """A :class:`Moves` from its pickled form: the number of moves and their bytes."""
    cdef Py_ssize_t count = n
    cdef const unsigned char[::1] raw = data
    # the count comes from the data: check it before multiplying (no overflow)
    if count < 0 or count > raw.shape[0] // MOVE_BYTES or raw.shape[0] != count * MOVE_BYTES:
        raise ValueError(f"bad pickled moves: {raw.shape[0]} bytes for {count} moves")
    cdef Moves moves = _new_moves(count)
    if count > 0:
        memcpy(moves.cards_at, &raw[0], <size_t>(count * MOVE_BYTES))
    return moves


cdef Moves _new_moves(Py_ssize_t n):
    """A :class:`Moves` of ``n`` moves in one block, not filled in."""
    cdef Moves moves = Moves.__new__(Moves)
    cdef uint8_t* block = <uint8_t*>malloc(<size_t>(n if n > 0 else 1) * MOVE_BYTES)
    if block == NULL:
        raise MemoryError()
    moves.cards_at = <uint64_t*>block
    moves.kinds_at = block + 16 * n
    moves.keys_at = block + 17 * n
    moves.n = n
    return moves


cdef Moves _moves_of(MoveBuffer* b, Py_ssize_t n):
    """The first ``n`` moves of ``b`` as a :class:`Moves`: copied into one block when the
    buffer is the caller's (on its stack), else the buffer's own arrays, taken over (then
    ``b`` is left empty)."""
    cdef Moves moves
    cdef void* smaller
    if b.borrowed or n < b.n:
        moves = _new_moves(n)
        if n > 0:
            memcpy(moves.cards_at, b.cards, <size_t>n * 2 * sizeof(uint64_t))
            memcpy(moves.kinds_at, b.kinds, <size_t>n)
            memcpy(moves.keys_at, b.keys, <size_t>n)
        return moves
    moves = Moves.__new__(Moves)
    moves.separate = True
    moves.n = n
    # give back the room the list did not use (shrinking in place; on failure keep it all)
    smaller = realloc(b.cards, <size_t>(n if n > 0 else 1) * 2 * sizeof(uint64_t))
    moves.cards_at = <uint64_t*>smaller if smaller != NULL else b.cards
    smaller = realloc(b.kinds, <size_t>(n if n > 0 else 1))
    moves.kinds_at = <uint8_t*>smaller if smaller != NULL else b.kinds
    smaller = realloc(b.keys, <size_t>(n if n > 0 else 1))
    moves.keys_at = <uint8_t*>smaller if smaller != NULL else b.keys
    b.cards = NULL
    b.kinds = NULL
    b.keys = NULL
    b.n = 0
    b.cap = 0
    return moves


cdef enum:
    # moves held on the stack of ``generate`` (a dealt hand leads with about 750 moves);
    # a longer list moves to the heap and grows there
    INITIAL_CAPACITY = 1024
    # generate releases the GIL for hands of more cards than this (a dealt hand has 27)
    BIG_HAND = 27


def generate(once, twice, level, last_kind, last_key, last_size, strongest):
    """generate(once, twice, level, last_kind, last_key, last_size, strongest)

    The legal moves of the hand ``(once, twice)`` at ``level``: leading when
    ``last_kind`` is 0 (PASS, key 0, size 0), else the moves that beat the move
    (last_kind, last_key, last_size). Every reading (complete list), or one per
    (kind, cards) when ``strongest``. Returns ``(kinds uint8[n], keys uint8[n],
    cards uint64[n, 2])`` as a :class:`Moves`.
    """
    cdef Args a
    _hand_args(&a, once, twice, level)
    _last_args(&a, last_kind, last_key, last_size)
    cdef bint strong = strongest
    cdef MoveBuffer buf
    cdef uint8_t kind_store[INITIAL_CAPACITY]
    cdef uint8_t key_store[INITIAL_CAPACITY]
    cdef uint64_t card_store[2 * INITIAL_CAPACITY]
    cdef Py_ssize_t n
    movebuf_borrow(&buf, kind_store, key_store, card_store, INITIAL_CAPACITY)
    try:
        if gf_popcount64(a.once) + gf_popcount64(a.twice) > BIG_HAND:
            with nogil:  # a big hand can take a while: let other threads run
                n = generate_append(a.once, a.twice, a.level, a.kind, a.key, a.size, strong, &buf)
        else:
            n = generate_append(a.once, a.twice, a.level, a.kind, a.key, a.size, strong, &buf)
        if n < 0:
            raise MemoryError()
        return _moves_of(&buf, n)
    finally:
        movebuf_free(&buf)


def classify(once, twice, level):
    """classify(once, twice, level)

    Every legal reading of exactly the cards ``(once, twice)`` at ``level`` (no move
    when they form no combination), as :class:`Moves` like :func:`generate`.
    """
    cdef Args a
    cdef MoveBuffer buf
    cdef uint8_t kind_store[READINGS_ROOM]
    cdef uint8_t key_store[READINGS_ROOM]
    cdef uint64_t card_store[2 * READINGS_ROOM]
    cdef Py_ssize_t n
    _hand_args(&a, once, twice, level)
    _check(a.once, a.twice, a.level, K_PASS, 0, 0)
    movebuf_borrow(&buf, kind_store, key_store, card_store, READINGS_ROOM)
    try:
        n = _classify_append(a.once, a.twice, a.level, &buf)
        if n < 0:
            raise MemoryError()
        return _moves_of(&buf, n)
    finally:
        movebuf_free(&buf)


def reads_as(once, twice, level, kind, key):
    """reads_as(once, twice, level, kind, key) -> bool

    Whether the cards ``(once, twice)`` read as a move of ``kind`` with ``key`` at
    ``level`` (one of their :func:`classify` readings).
    """
    cdef Args a
    cdef int found
    _hand_args(&a, once, twice, level)
    a.kind = _as_small(kind, "kind")
    a.key = _as_small(key, "key")
    _check(a.once, a.twice, a.level, K_PASS, 0, 0)
    found = _reads_as_c(a.once, a.twice, a.level, a.kind, a.key)
    if found < 0:
        raise MemoryError()
    return found == 1


# Platform triples: the fast path of guandan_fast.kinds.platform_row for well-formed triples in
# canonical notation (anything else is left to the Python reader, which names the fault). The
# tables are the Python vocabulary's own (guandan_fast.cards, guandan_fast.kinds).
cdef dict _TYPE_CODES = dict(_CODE_BY_PLATFORM_NAME)
cdef dict _CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
# rank fields: a sequence's lowest position (A low is 1), else the natural rank 2..14 or a
# joker's power (singles, pairs, ...)
cdef dict _POSITION_KEYS = dict(_POSITION_BY_CHAR)
cdef dict _RANK_KEYS = {**_RANK_BY_CHAR, "B": SB_POWER, "R": HR_POWER}


cdef inline bint _is_sequence(int kind) noexcept nogil:
    return kind == K_STRAIGHT or kind == K_THREE_PAIR or kind == K_TWO_TRIPS or kind == K_STRAIGHT_FLUSH


cdef object _checked_row(object action, object level):
    """``(kind, key, once, twice, size)`` of a well-formed platform triple in canonical
    notation whose cards read as it names; None for anything else."""
    cdef uint64_t once = 0, twice = 0, bit
    cdef int kind, key, lv
    if type(action) is not list or len(<list>action) != 3 or type(level) is not int:
        return None
    lv = level
    if lv < 2 or lv > 14:
        return None
    type_name, rank, cards = <list>action
    if type(cards) is not list:
        return None
    code = _TYPE_CODES.get(type_name)
    if code is None:
        return None
    for name in <list>cards:
        index = _CARD_INDEX.get(name)
        if index is None:
            return None
        bit = (<uint64_t>1) << <int>index
        if twice & bit:
            return None
        twice |= once & bit
        once |= bit
    kind = code
    if kind == K_BOMB and (rank == "JOKER" or rank == "R"):
        kind = K_FOUR_JOKERS
        key = 0
    else:
        found = (_POSITION_KEYS if _is_sequence(kind) else _RANK_KEYS).get(rank)
        if found is None:
            return None
        key = found
        if key == lv and not _is_sequence(kind):
            key = LEVEL_POWER
    if _reads_as_c(once, twice, lv, kind, key) != 1:
        return None
    return (kind, key, once, twice, gf_popcount64(once) + gf_popcount64(twice))


def read_checked(action, level):
    """read_checked(action, level) -> (kind, key, once, twice, size) or None

    The move a platform triple names at ``level`` (an int 2..14), when the triple is
    well formed and its cards read as it says; None otherwise (the caller then reads it
    with :func:`guandan_fast.kinds.platform_row`, which names the fault). A pass is None.
    """
    return _checked_row(action, level)


def has_legal_follow(once, twice, level, last_kind, last_key, last_size):
    """has_legal_follow(once, twice, level, last_kind, last_key, last_size) -> bool

    Whether the hand has a move that beats (last_kind, last_key, last_size) (a pass
    does not count); stops at the first one. With last_kind 0 (leading): whether the
    hand holds any card.
    """
    cdef Args a
    _hand_args(&a, once, twice, level)
    _last_args(&a, last_kind, last_key, last_size)
    cdef int result = has_legal_follow_c(a.once, a.twice, a.level, a.kind, a.key, a.size)
    return result == 1


def generate_batch(hands, levels, last_kind, last_key, last_size, strongest):
    """generate_batch(hands, levels, last_kind, last_key, last_size, strongest)

    :func:`generate` over many hands at once, without the GIL: ``hands`` is a
    C-contiguous ``uint64[n, 2]`` array of (once, twice) rows, ``levels`` one level
    (int) or a C-contiguous ``uint8[n]`` array. Returns ``(kinds, keys, cards,
    offsets)`` where hand i's moves are rows ``offsets[i]:offsets[i + 1]`` (``offsets``
    is ``int64[n + 1]``).
    """
    cdef int lk = _as_small(last_kind, "last_kind")
    cdef int lkey = _as_small(last_key, "last_key")
    cdef int lsize = _as_small(last_size, "last_size")
    cdef bint strong = strongest
    cdef int one_level = 0
    cdef cnp.ndarray hand_array, level_array
    cdef const uint64_t* hp
    cdef const uint8_t* lp = NULL
    cdef Py_ssize_t n, i, bad = -1
    cdef int lv
    cdef int64_t* op
    cdef MoveBuffer buf
    cdef Py_ssize_t got = 0

    if not isinstance(hands, np.ndarray):
        raise TypeError(f"hands must be a numpy uint64 array of shape (n, 2), not {type(hands).__name__}")
    hand_array = hands
    if hand_array.dtype != np.uint64:
        raise TypeError(f"hands must have dtype uint64, not {hand_array.dtype}")
    if hand_array.ndim != 2 or hand_array.shape[1] != 2:
        raise ValueError(f"hands must have shape (n, 2), not {hands.shape}")
    if not cnp.PyArray_IS_C_CONTIGUOUS(hand_array):
        raise ValueError("hands must be a C-contiguous array (use numpy.ascontiguousarray)")
    if not cnp.PyArray_ISALIGNED(hand_array) or not cnp.PyArray_ISNOTSWAPPED(hand_array):
        raise ValueError("hands must be an aligned array in native byte order")
    n = hand_array.shape[0]

    if isinstance(levels, np.ndarray):
        level_array = levels
        if level_array.dtype != np.uint8:
            raise TypeError(f"levels must have dtype uint8, not {level_array.dtype}")
        if level_array.ndim != 1 or level_array.shape[0] != n:
            raise ValueError(f"levels must have shape ({n},), not {levels.shape}")
        if not cnp.PyArray_IS_C_CONTIGUOUS(level_array):
            raise ValueError("levels must be a C-contiguous array")
        lp = <const uint8_t*>cnp.PyArray_DATA(level_array)
    else:
        one_level = _as_small(levels, "level")
        if one_level < 2 or one_level > 14:
            raise ValueError(f"bad level {one_level}: a level is 2..14 (2..A)")

    hp = <const uint64_t*>cnp.PyArray_DATA(hand_array)
    _check(0, 0, 2, lk, lkey, lsize)
    cdef cnp.npy_intp odim = n + 1
    cdef cnp.ndarray offsets = cnp.PyArray_EMPTY(1, &odim, cnp.NPY_INT64, 0)
    op = <int64_t*>cnp.PyArray_DATA(offsets)
    # room for about as many moves as a dealt hand has: memory never touched costs nothing
    if movebuf_init(&buf, INITIAL_CAPACITY if n < 64 else _min(n, 4096) * 1024) != 0:
        raise MemoryError()
    try:
        with nogil:
            for i in range(n):
                op[i] = buf.n
                lv = lp[i] if lp != NULL else one_level
                got = generate_append(hp[2 * i], hp[2 * i + 1], lv, lk, lkey, lsize, strong, &buf)
                if got < 0:
                    bad = i
                    break
            op[n] = buf.n
        if got == -2:
            lv = lp[bad] if lp != NULL else one_level
            raise ValueError(f"hand {bad}: " + _arg_error(
                check_args(hp[2 * bad], hp[2 * bad + 1], lv, lk, lkey, lsize), lv, lk, lkey, lsize))
        if got < 0:
            raise MemoryError()
        return _to_numpy(&buf, 0, buf.n) + (offsets,)
    finally:
        movebuf_free(&buf)


def hand_size(once, twice):
    """Number of cards in a hand given as two planes (validated)."""
    cdef uint64_t o = _as_plane(once, "once")
    cdef uint64_t t = _as_plane(twice, "twice")
    _check(o, t, 2, K_PASS, 0, 0)
    return gf_popcount64(o) + gf_popcount64(t)
