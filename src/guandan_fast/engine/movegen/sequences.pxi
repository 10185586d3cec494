# Included by _movegen.pyx (one module: the kernels inline across these files).
# Sequences: tubes and plates (ThreePair, TwoTrips), straights and straight flushes.

cdef enum:
    # Options of one slot of a tube or plate: the sub-multisets of one rank of at most
    # three cards (at most 16 of them, for a rank held twice in every suit)
    SLOT_ROOM = 16
    # Combinations of the first two slots of a tube, with the same number of wildcards
    # (at most 10 x 10 pairs of natural cards), and room for the rows written past them
    HEAD_ROOM = 104


cdef void _sequences(Ctx* c, int kind, int nslots, int need, int max_key, int min_key) noexcept nogil:
    """Sequences of ``nslots`` consecutive ranks with ``need`` cards each (tubes: 3 x 2,
    plates: 2 x 3), lowest position key = min_key + 1 .. max_key.

    Each rank's options are listed once for all windows, grouped by the wildcards they
    use: its sub-multisets of ``need - w`` natural cards, plus ``w`` wildcards (their
    bits are added to the whole move). A window's moves are the first slots' combinations
    (``head``) crossed with the last slot's options, with at most W wildcards in all:
    counted first, room made once, each option of the last slot written with a whole
    head group in one run.

    ``c.at_least[j]`` (j = 1..need) has bit p set when the rank at position p has at
    least j cards: a window short of more cards than there are wildcards is skipped at once.

    Readings: the same cards read at a higher position exactly when the lowest slot is
    all wildcards (they then fill one more slot at the top; A low and A high never meet
    in one card set), so the strongest list drops those windows below ``max_key``.
    """
    cdef uint64_t opt[13][3][2 * SLOT_ROOM]  # interleaved (once, twice) rows, like the moves'
    cdef int opt_n[13][3]
    cdef uint64_t head[3][2 * HEAD_ROOM]
    cdef int head_n[3]
    cdef const uint64_t* first[3]
    cdef const int* first_n
    cdef int ranks[3]
    cdef int key, i, j, r, w, v, u, k, miss, sh, n, last, W = c.W
    cdef uint8_t p
    cdef Py_ssize_t total, room, at
    cdef uint64_t* cards
    cdef MoveBuffer* out = c.out
    cdef unsigned int window = (1u << nslots) - 1
    cdef unsigned int listed = 0  # the ranks whose options are listed (on first use)
    cdef Py_ssize_t start = out.n
    cdef unsigned int windows = 0  # the windows with cards enough, found without a branch
    if c.rank_cards < need * nslots:
        return
    if W == 0:  # every slot full: the positions p whose next nslots ranks all have ``need``
        windows = c.at_least[need] & (c.at_least[need] >> 1)
        if nslots == 3:
            windows &= c.at_least[need] >> 2
        key = _max(min_key + 1, 1)
        windows &= ((1u << (max_key + 1)) - 1) & ~((1u << key) - 1)
    else:
        for key in range(_max(min_key + 1, 1), max_key + 1):
            miss = need * nslots
            for j in range(1, need + 1):
                miss -= POP5[(c.at_least[j] >> key) & window]
            windows |= <unsigned int>(miss <= W) << key
    while windows:
        key = gf_ctz64(windows)
        windows &= windows - 1
        for i in range(nslots):
            r = _rank_at(key + i)
            ranks[i] = r
            if listed >> r & 1:
                continue
            listed |= 1u << r
            p = c.pat[r]
            sh = 4 * r
            for w in range(3):
                k = need - w
                opt_n[r][w] = _rank_rows(opt[r][w], p, k, sh) if k >= 0 and w <= W else 0
        last = ranks[nslots - 1]
        # the first slots' combinations by wildcards used; in a strongest list below the
        # top, the lowest slot may not be all wildcards
        if nslots == 2:  # a plate: a slot of three cards is never all wildcards
            r = ranks[0]
            for w in range(3):
                first[w] = opt[r][w]
            first_n = opt_n[r]
        else:
            r = ranks[0]
            u = ranks[1]
            head_n[0] = 0
            head_n[1] = 0
            head_n[2] = 0
            for w in range(W + 1):
                if w == need and c.strongest and key < max_key:
                    continue
                for v in range(W + 1 - w):
                    n = head_n[w + v]
                    for i in range(opt_n[r][w]):  # four rows at least (see _rank_rows): an
                        for j in range(_max(opt_n[u][v], 4)):  # exit mispredicted only past four
                            head[w + v][2 * (n + j)] = opt[r][w][2 * i] | opt[u][v][2 * j]
                            head[w + v][2 * (n + j) + 1] = opt[r][w][2 * i + 1] | opt[u][v][2 * j + 1]
                        n += opt_n[u][v]
                    head_n[w + v] = n
            for w in range(3):
                first[w] = head[w]
            first_n = head_n
        total = 0
        for v in range(W + 1):
            for w in range(W + 1 - v):
                total += <Py_ssize_t>opt_n[last][v] * first_n[w]
        if total == 0:
            continue
        cards = _open_rows(out, key, total, 0, &room)
        at = 0
        for v in range(W + 1):
            for j in range(opt_n[last][v]):
                for w in range(W + 1 - v):
                    at = _put_pairs(cards, at, room, opt[last][v][2 * j] | c.wo[v + w],
                                    opt[last][v][2 * j + 1] | c.wt[v + w], first[w], first_n[w])
        if not _close_rows(out, at, total):
            return
    _fill_kind(out, start, kind)


cdef enum:
    # The products of a straight's first slots with one number of wildcards: at most 4^4
    # with none, 4 x 4^3 with one, 6 x 4^2 with two (a rank has at most four distinct
    # natural cards); and 4 more, for the whole-row writes of _widen
    PREFIX_ROOM = 260


cdef inline int _widen(const uint64_t* src, int n, const uint64_t* opts, int n_opts,
                       uint64_t* dst) noexcept nogil:
    """Every ``src[i] | opts[j]`` (j < n_opts <= 4) into ``dst``; their number.

    Each entry of ``src`` writes four entries (``opts`` is padded to four) and keeps the
    first ``n_opts``: no branch depends on ``n_opts``. ``dst`` needs room for three
    entries past the result."""
    cdef int i, m = 0
    cdef uint64_t x, o0 = opts[0], o1 = opts[1], o2 = opts[2], o3 = opts[3]
    for i in range(n):
        x = src[i]
        dst[m] = x | o0
        dst[m + 1] = x | o1
        dst[m + 2] = x | o2
        dst[m + 3] = x | o3
        m += n_opts
    return m


cdef inline Py_ssize_t _put_run(uint64_t* cards, Py_ssize_t at, Py_ssize_t room, uint64_t base_o, uint64_t base_t,
                                const uint64_t* adds, Py_ssize_t n) noexcept nogil:
    """Write the cards ``(base_o | adds[i], base_t)`` of n moves from row ``at`` on, as many
    as fit below ``room``; the next row."""
    cdef Py_ssize_t i
    cdef uint64_t* row = cards + 2 * at
    if n > room - at:
        n = room - at
    for i in range(n):
        row[2 * i] = base_o | adds[i]
        row[2 * i + 1] = base_t
    return at + n


cdef inline int _extend(uint64_t* dst, const uint64_t* src, int n, const uint64_t* opts, int n_opts,
                        const uint64_t* skipped, int n_skipped) noexcept nogil:
    """One more slot for the products ``src`` (n of them): each with one of the slot's
    ``opts`` (:func:`_widen`), then the products ``skipped`` that leave the slot to a
    wildcard, unchanged; their number (``dst`` needs room for three entries past it)."""
    cdef int i, m = _widen(src, n, opts, n_opts, dst)
    for i in range(n_skipped):
        dst[m + i] = skipped[i]
    return m + n_skipped


cdef inline uint64_t* _cross(uint64_t* row, const uint64_t* products, int n, const uint64_t* opts, int n_opts,
                             uint64_t add_o, uint64_t t) noexcept nogil:
    """The rows ``(products[i] | opts[j] | add_o, t)`` for i < n, j < n_opts <= 4 from
    ``row`` on; the row after them. Each product writes four rows (``opts`` is padded to
    four) and keeps the first ``n_opts`` (1..4, as :func:`_widen`): ``row`` needs room for
    three rows past the result."""
    cdef int i
    cdef uint64_t x, o0 = opts[0] | add_o, o1 = opts[1] | add_o, o2 = opts[2] | add_o, o3 = opts[3] | add_o
    for i in range(n):
        x = products[i]
        row[0] = x | o0
        row[1] = t
        row[2] = x | o1
        row[3] = t
        row[4] = x | o2
        row[5] = t
        row[6] = x | o3
        row[7] = t
        row += 2 * n_opts
    return row


cdef bint _straight_window(Ctx* c, int key, const uint64_t* slot, int n_slot, bint slot_wild,
                           uint64_t (*products)[PREFIX_ROOM], const int* n_products) noexcept nogil:
    """The straights of one window: every option of its fifth slot (the ``n_slot`` natural
    cards ``slot``, and a wildcard when ``slot_wild``) with each product of the other four
    slots using few enough wildcards (``products[g]``: the ``n_products[g]`` with g
    wildcards): per group, the natural options in one pass (:func:`_cross`), the wildcard
    in one run. False when the buffer could not grow (the list is incomplete)."""
    cdef int g, i, W = c.W
    cdef Py_ssize_t count = 0, room, at = 0
    cdef uint64_t* cards
    cdef uint64_t* row
    for g in range(W + 1):
        count += <Py_ssize_t>n_products[g] * (n_slot + (1 if slot_wild and g < W else 0))
    if count == 0:
        return True
    cards = _open_rows(c.out, key, count, 3, &room)  # three rows of slack for _cross
    if room < count + 3:  # the buffer cannot grow: as many rows as fit, one at a time
        for g in range(W + 1):
            for i in range(n_slot):
                at = _put_run(cards, at, room, slot[i] | c.wo[g], c.wt[g], products[g], n_products[g])
            if slot_wild and g < W:
                at = _put_run(cards, at, room, c.wo[g + 1], c.wt[g + 1], products[g], n_products[g])
        return _close_rows(c.out, at, count)
    row = cards
    for g in range(W + 1):
        if n_slot > 0:  # (with no option, _cross would still write four rows, past the room)
            row = _cross(row, products[g], n_products[g], slot, n_slot, c.wo[g], c.wt[g])
        if slot_wild and g < W:
            at = _put_run(cards, (row - cards) // 2, room, c.wo[g + 1], c.wt[g + 1], products[g], n_products[g])
            row = cards + 2 * at
    return _close_rows(c.out, (row - cards) // 2, count)


cdef void _straights(Ctx* c, int min_key) noexcept nogil:
    """Straights: five consecutive ranks of one card each, lowest position key =
    min_key + 1 .. 10.

    The one-card case of :func:`_sequences`, enumerated directly. Each rank's options are
    its distinct natural cards (listed once for all windows, padded to four), and in a
    window a wildcard may stand in any slot while wildcards are left. Two windows share
    four slots: the products of the four slots from each even position p (2..10) on are
    built once, slot by slot, grouped by the wildcards they use (``_widen``: no branch on
    a slot's number of options), and serve the window at p - 1 (crossed with its lowest
    slot) and the window at p (crossed with its top slot), each option of the fifth slot
    written with a whole group in one run. A window short of more cards than there are
    wildcards is skipped at once. Readings as in :func:`_sequences`: the strongest list
    drops the windows below the top whose lowest slot is a wildcard (the products whose
    first slot is natural come first in each group, so the window at p keeps a prefix).
    """
    cdef uint64_t natural[13][4]  # natural[r]: the distinct natural cards of rank r (then zeros)
    cdef int n_natural[13]
    # the products so far (and the next ones), by wildcards used: first those with a
    # natural card in the first slot (``first_natural`` of them), then those with a wildcard
    cdef uint64_t prefix[2][3][PREFIX_ROOM]
    cdef int prefix_n[2][3]
    cdef int first_natural[2][3]
    cdef int kept[3]
    cdef int key, p, i, j, r, g, m, slot, cur, low, high, W = c.W
    cdef unsigned int nib, windows = 0
    cdef Py_ssize_t start = c.out.n
    if c.rank_cards < 5:
        return
    for key in range(_max(min_key + 1, 1), 11):  # the windows with cards enough
        if 5 - POP5[(c.at_least[1] >> key) & 31] <= W:
            windows |= 1u << key
    if not windows:
        return
    for r in range(13):
        nib = c.pat[r] & 15
        for j in range(4):
            natural[r][j] = <uint64_t>NIB_CARDS[nib][j] << (4 * r)
        n_natural[r] = POP5[nib]
    for p in range(2, 11, 2):
        low = windows >> (p - 1) & 1
        high = windows >> p & 1
        if not (low or high):
            continue
        # the products of the slots at p .. p + 3 (ranks p - 2 .. p + 1)
        r = p - 2
        for i in range(4):
            prefix[0][0][i] = natural[r][i]
        prefix_n[0][0] = first_natural[0][0] = n_natural[r]
        prefix[0][1][0] = 0
        prefix_n[0][1] = 1 if W > 0 else 0
        first_natural[0][1] = 0
        prefix_n[0][2] = first_natural[0][2] = 0
        cur = 0
        for slot in range(1, 4):
            r = p - 2 + slot
            for g in range(W + 1):
                # natural first slot: widened, or (a wildcard here) one fewer wildcard before
                m = _extend(prefix[1 - cur][g], prefix[cur][g], first_natural[cur][g], natural[r], n_natural[r],
                            prefix[cur][g - 1] if g > 0 else NULL, first_natural[cur][g - 1] if g > 0 else 0)
                first_natural[1 - cur][g] = m
                m += _extend(&prefix[1 - cur][g][m], &prefix[cur][g][first_natural[cur][g]],
                             prefix_n[cur][g] - first_natural[cur][g], natural[r], n_natural[r],
                             &prefix[cur][g - 1][first_natural[cur][g - 1]] if g > 0 else NULL,
                             prefix_n[cur][g - 1] - first_natural[cur][g - 1] if g > 0 else 0)
                prefix_n[1 - cur][g] = m
            cur = 1 - cur
        if low:  # the window at p - 1: its lowest slot (a wildcard only in a complete list)
            r = _rank_at(p - 1)
            if not _straight_window(c, p - 1, natural[r], n_natural[r], not c.strongest, prefix[cur], prefix_n[cur]):
                return
        if high:  # the window at p: its top slot; a strongest list below the top keeps the
            for g in range(W + 1):  # products with a natural first slot
                kept[g] = first_natural[cur][g] if c.strongest and p < 10 else prefix_n[cur][g]
            r = _rank_at(p + 4)
            if not _straight_window(c, p, natural[r], n_natural[r], True, prefix[cur], kept):
                return
    _fill_kind(c.out, start, K_STRAIGHT)


cdef void _straight_flushes(Ctx* c, int min_key) noexcept nogil:
    """Straight flushes, lowest position key = min_key + 1 .. 10.

    The four suits are seen at once: a 64-bit word holds, in lane s (bits 16s..16s+15),
    bit p for each position 1..14 of a natural card of suit s (A at 1 and 14). Adding up
    the empty slots of every window of every suit bit-slice by bit-slice marks the
    windows short of at most W cards; only those are visited. A suit holds at most one
    distinct natural card per slot, so such a window with ``m`` empty slots is written
    directly: wildcards fill the empty slots and any spare ones (at most ``W - m``)
    replace held cards, one move per choice of replaced slots. Readings: the strongest
    list drops the windows below the top whose lowest slot is a wildcard.
    """
    cdef int s, r, key, i, j, m, held, spare, at, first, W = c.W
    cdef uint64_t lanes = 0, empty, one = 0, two = 0, three = 0, windows
    cdef uint64_t whole, wo, wt
    cdef uint64_t bits[5]
    cdef unsigned int present
    cdef bint low_natural
    cdef MoveBuffer* out = c.out
    if c.rank_cards < 5:
        return
    for r in range(13):
        lanes |= SUIT_LANES[c.pat[r] & 15] << (r + 2)
    lanes |= (lanes >> 13) & LANE_BIT_1  # A stands at 1 (bit 14 -> bit 1) as well as at 14
    # windows (bit key of a lane) with fewer than 1, 2, 3 empty slots
    for i in range(5):
        empty = ~(lanes >> i)
        three |= two & empty
        two |= one & empty
        one |= empty
    windows = ~(one if W == 0 else two if W == 1 else three)
    first = _max(min_key + 1, 1)  # the lowest key allowed, in every lane
    windows &= ((0x7FEu >> first) << first) * LANE_ONES
    if c.strongest:  # below the top, the lowest slot must be natural
        windows &= lanes | LANE_BIT_10
    while windows:
        at = gf_ctz64(windows)
        windows &= windows - 1
        s = at >> 4
        key = at & 15
        present = <unsigned int>(lanes >> at) & 31
        held = POP5[present]
        m = 5 - held
        low_natural = c.strongest and key < 10
        whole = 0
        for i in range(5):
            bits[i] = (<uint64_t>1 << (4 * _rank_at(key + i) + s)) if present >> i & 1 else 0
            whole |= bits[i]
        _emit(out, K_STRAIGHT_FLUSH, key, whole | c.wo[m], c.wt[m])
        spare = W - m
        if spare >= 1:  # one held card replaced by a wildcard
            wo = c.wo[m + 1]
            wt = c.wt[m + 1]
            for i in range(1 if low_natural else 0, 5):
                if bits[i]:
                    _emit(out, K_STRAIGHT_FLUSH, key, (whole ^ bits[i]) | wo, wt)
        if spare >= 2:  # two held cards replaced
            wo = c.wo[2]
            wt = c.wt[2]
            for i in range(1 if low_natural else 0, 5):
                if bits[i]:
                    for j in range(i + 1, 5):
                        if bits[j]:
                            _emit(out, K_STRAIGHT_FLUSH, key, (whole ^ bits[i] ^ bits[j]) | wo, wt)
        if out.failed:
            return
