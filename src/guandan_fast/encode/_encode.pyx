# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""Native state and action encoders (see docs/encoding.md for the layouts, field by field).

Two steps per position. ``_gather`` (holding the GIL) copies what a seat's encoding needs
out of a :class:`~guandan_fast.engine.deal.Deal` into a plain C ``Position``: from the deal's
native play state (``engine/state.pxd``, read through a cimport: the four hands' bit
planes, the per-seat played planes, the move to beat and its seat, phase, seat to act,
finishing order, and the last ``TAIL`` plays and the bombs per seat from its play log of
64-bit words, so a late position costs no more than an early one), and from the deal's
team levels and tribute record by name. The kernels
(``_danzero``, ``_full``; ``noexcept nogil``) then write floats from the Position alone, so
a batch is gathered chunk by chunk and encoded without the GIL.

Bounds: every write index is below the layout's size by construction (card indices are
the set bits of planes masked to 54 bits, seats are masked to 0..3, counts are clipped to
their one-hot's length, kinds and keys are checked when gathered).
"""

from libc.stdint cimport int8_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport malloc, free
from cpython cimport array as cparray
from cpython.object cimport Py_SIZE


import numpy as np
cimport numpy as cnp

from guandan_fast.engine._bitops cimport gf_ctz64, gf_popcount64
from guandan_fast.engine._movegen cimport as_integer, FULL_PLANE, K_STRAIGHT_FLUSH, NUM_CARDS, NUM_KEYS, NUM_KINDS
from guandan_fast.engine.state cimport PHASE_DONE, PlayState, State
from guandan_fast.engine.deal import Deal
from guandan_fast.engine.cards import parse_card

cnp.import_array()

cdef enum:
    TAIL = 24                # plays kept per position: the full layout's history length
    DZ_TAIL = 8              # enough for DanZero's markers: a play, <= 3 passes, the partner's turn
    CHUNK = 256              # positions gathered per nogil pass of a batch

    # DanZero layout (AltmanD/guandan_mcc rl-frame/actor_n/game.py, MyClient.prepare)
    DZ_HAND = 0
    DZ_FLAGS = 54
    DZ_UNSEEN = 66
    DZ_LATEST = 120
    DZ_PARTNER = 174
    DZ_PLAYED = 228          # next seat, partner, previous seat: 3 x 54
    DZ_LEFT = 390            # the same three: 3 x 28 (one-hot of 0..27)
    DZ_LEVELS = 474          # own team, opponents, the deal: 3 x 13
    DZ_SIZE = 513
    DZ_LEFT_WIDTH = 28

    # full-v1 layout (seats relative to the encoded one: 0 me, 1 next, 2 partner, 3 previous)
    F_HAND = 0
    F_UNSEEN = 54
    F_PLAYED = 108           # 4 x 54
    F_LEFT = 324             # 4 x 29 (one-hot of 0..27, slot 28 = 28 or more)
    F_PLACE = 440            # 4 x 4 (finished 1st, 2nd, 3rd; slot 3 = still holding cards)
    F_LEVELS = 456           # own team, opponents, the deal: 3 x 13
    F_PHASE = 495            # tribute, return, play, done
    F_TO_ACT = 499           # 4, relative seat to act (zeros when done)
    F_BEAT_CARDS = 503       # 54, the move to beat (zeros when leading)
    F_BEAT_KIND = 557        # 11
    F_BEAT_KEY = 568         # 18
    F_BEAT_SEAT = 586        # 4, relative seat that made it
    F_TRIBUTE_KIND = 590     # none, single, double, anti, waived
    F_PAYERS = 595           # 4
    F_RECEIVERS = 599        # 4
    F_TRIBUTE_CARDS = 603    # 4 x 54, the card each seat paid as tribute
    F_RETURN_CARDS = 819     # 4 x 54, the card each seat returned
    F_BOMBS = 1035           # 4, bombs (kinds 8..10) played per seat
    F_WILDCARDS = 1039       # 4 x 3, one-hot of wildcards played per seat (0, 1, 2)
    F_HISTORY = 1051         # TAIL x 59, newest first: seat one-hot 4, pass flag, 54 cards
    F_SLOT = 59
    F_SIZE = 2467
    F_LEFT_WIDTH = 29

    F_ACTION = 83            # 54 cards, 11 kind one-hot, 18 key one-hot


#: Layout name -> (state size, action feature width).
LAYOUTS = {"danzero": (DZ_SIZE, NUM_CARDS), "full-v1": (F_SIZE, F_ACTION)}
HISTORY_LENGTH = TAIL
#: Layout name -> {field: (offset, length)}, in state order (docs/encoding.md explains each).
FIELDS = {
    "danzero": {
        "hand": (DZ_HAND, 54),
        "wildcard_flags": (DZ_FLAGS, 12),
        "unseen": (DZ_UNSEEN, 54),
        "latest_action": (DZ_LATEST, 54),
        "partner_latest_action": (DZ_PARTNER, 54),
        "played": (DZ_PLAYED, 3 * 54),
        "cards_left": (DZ_LEFT, 3 * DZ_LEFT_WIDTH),
        "levels": (DZ_LEVELS, 3 * 13),
    },
    "full-v1": {
        "hand": (F_HAND, 54),
        "unseen": (F_UNSEEN, 54),
        "played": (F_PLAYED, 4 * 54),
        "cards_left": (F_LEFT, 4 * F_LEFT_WIDTH),
        "place": (F_PLACE, 16),
        "levels": (F_LEVELS, 3 * 13),
        "phase": (F_PHASE, 4),
        "to_act": (F_TO_ACT, 4),
        "beat_cards": (F_BEAT_CARDS, 54),
        "beat_kind": (F_BEAT_KIND, NUM_KINDS),
        "beat_key": (F_BEAT_KEY, NUM_KEYS),
        "beat_seat": (F_BEAT_SEAT, 4),
        "tribute_kind": (F_TRIBUTE_KIND, 5),
        "payers": (F_PAYERS, 4),
        "receivers": (F_RECEIVERS, 4),
        "tribute_cards": (F_TRIBUTE_CARDS, 4 * 54),
        "return_cards": (F_RETURN_CARDS, 4 * 54),
        "bombs": (F_BOMBS, 4),
        "wildcards_played": (F_WILDCARDS, 12),
        "history": (F_HISTORY, TAIL * F_SLOT),
    },
}
_TRIBUTE_KINDS = {"none": 0, "single": 1, "double": 2, "anti": 3, "waived": 4}


cdef struct Position:
    int seat
    int level
    int levels[2]            # team 0 (seats 0, 2) and team 1
    int phase
    int to_act               # -1 when done
    uint64_t once[4]
    uint64_t twice[4]
    uint64_t played_once[4]
    uint64_t played_twice[4]
    int n_out                # seats whose hands are empty; finish[0:n_out] in order
    int finish[4]
    int tail_len             # the last tail_len entries of Deal.plays are kept
    int tail_seat[TAIL]      # oldest kept first
    int tail_kind[TAIL]
    uint64_t tail_once[TAIL]
    uint64_t tail_twice[TAIL]
    int last_kind            # the move to beat: 0 when leading
    int last_key
    int last_seat
    uint64_t last_once
    uint64_t last_twice
    # full layout only
    int tribute_kind
    int payer[4]
    int receiver[4]
    int tribute_card[4]      # -1: none
    int return_card[4]
    int bombs[4]


# -- gathering (with the GIL) ------------------------------------------------------------------
def check_layout(layout):
    """The (state size, action width) of a layout name; ValueError/TypeError otherwise."""
    if not isinstance(layout, str):
        raise TypeError(f"layout must be a string such as 'danzero' or 'full-v1', not {type(layout).__name__}")
    sizes = LAYOUTS.get(layout)
    if sizes is None:
        raise ValueError(f"unknown layout {layout!r}: expected one of {', '.join(map(repr, LAYOUTS))}")
    return sizes


cdef inline int _is_full(object layout) except -1:
    """1 for the full layout, 0 for DanZero's (the common names without a Python call);
    TypeError/ValueError for anything else."""
    if type(layout) is str:
        if layout == "full-v1":
            return 1
        if layout == "danzero":
            return 0
    return check_layout(layout)[0] == F_SIZE


cdef int _check_seat(object seat) except -1:
    if type(seat) is int and 0 <= seat <= 3:  # the common case, without a Python call
        return <int>seat
    value = as_integer(seat, "seat")
    if not 0 <= value <= 3:
        raise ValueError(f"seat {value} is out of range: seats are 0..3")
    return value


cdef int _check_deal(object deal) except -1:
    if not isinstance(deal, Deal):
        raise TypeError(f"expected a guandan_fast Deal, not {type(deal).__name__}")
    return 0


cdef void _gather_plays(State state, Position* p, bint full) noexcept:
    """The last plays (and, for the full layout, the bombs per seat) from the state's play
    log: three uint64 words per play (see ``State``)."""
    cdef const uint64_t* data = <const uint64_t*>state.log.data.as_ulonglongs
    cdef Py_ssize_t n = Py_SIZE(state.log) // 3, start, j
    cdef Py_ssize_t keep = TAIL if full else DZ_TAIL
    cdef uint64_t head
    cdef int k
    start = n - keep if n > keep else 0
    p.tail_len = <int>(n - start)
    for j in range(start, n):
        k = <int>(j - start)
        head = data[3 * j]
        p.tail_seat[k] = <int>(head & 3)
        p.tail_kind[k] = <int>((head >> 2) & 15)
        if p.tail_kind[k] >= NUM_KINDS:
            p.tail_kind[k] = 0
        p.tail_once[k] = data[3 * j + 1] & FULL_PLANE
        p.tail_twice[k] = data[3 * j + 2] & p.tail_once[k]
    if full:
        for k in range(4):
            p.bombs[k] = 0
        for j in range(n):
            head = data[3 * j]
            if K_STRAIGHT_FLUSH <= ((head >> 2) & 15) < NUM_KINDS:
                p.bombs[head & 3] += 1


cdef int _gather_tribute(object record, Position* p) except -1:
    """The tribute record (a TributeRecord, read by field name)."""
    cdef int k
    p.tribute_kind = _TRIBUTE_KINDS.get(record.kind, 0)
    for k in range(4):
        p.payer[k] = 0
        p.receiver[k] = 0
        p.tribute_card[k] = -1
        p.return_card[k] = -1
    for seat in record.payers:
        p.payer[seat & 3] = 1
    for seat in record.receivers:
        p.receiver[seat & 3] = 1
    for giver, _, card in record.payments:
        p.tribute_card[giver & 3] = card
    for giver, _, card in record.returns:
        p.return_card[giver & 3] = card
    return 0


cdef int _level_of(object value, str what) except -1:
    """A level 2..14 read from the deal (checked when set, read defensively)."""
    if type(value) is int and 2 <= value <= 14:  # the common case, without a Python call
        return <int>value
    number = as_integer(value, f"the deal's {what}")
    if not 2 <= number <= 14:
        raise ValueError(f"the deal's {what} {number} is outside 2..14")
    return number


cdef int _gather(object deal, int seat, Position* p, bint full) except -1:
    """Copy what the encoders read from ``deal`` (already checked to be a Deal) into ``p``:
    its native play state through the cimported struct, its team levels and tribute record."""
    cdef int s, n_out = 0
    held = deal._state
    if type(held) is not State:
        raise TypeError("the deal holds no guandan_fast play state")
    cdef State state = <State>held
    cdef const PlayState* ps = &state.s
    team_levels = deal.team_levels
    p.seat = seat
    p.level = ps.level
    try:
        team_a, team_b = team_levels
    except (TypeError, ValueError):
        raise ValueError(f"the deal's team_levels must be two levels 2..14, not {team_levels!r}") from None
    p.levels[0] = _level_of(team_a, "team_levels[0]")
    p.levels[1] = _level_of(team_b, "team_levels[1]")
    for s in range(4):
        p.once[s] = ps.once[s]
        p.twice[s] = ps.twice[s]
        p.played_once[s] = ps.played_once[s]
        p.played_twice[s] = ps.played_twice[s]
        p.finish[s] = ps.finish[s] & 3
        if ps.once[s] == 0:
            n_out += 1
    p.n_out = n_out if n_out <= ps.nfinish else ps.nfinish  # a double down's losers still hold cards
    _gather_plays(state, p, full)
    if not full:
        return 0
    p.phase = state.phase
    p.to_act = -1 if state.phase == PHASE_DONE else ps.to_act & 3
    p.last_kind = ps.last_kind
    p.last_key = ps.last_key
    p.last_seat = ps.last_seat & 3 if ps.last_kind else -1
    p.last_once = ps.last_once
    p.last_twice = ps.last_twice
    _gather_tribute(deal._tribute, p)
    return 0


# -- kernels (no GIL) --------------------------------------------------------------------------
cdef inline int _danzero_slot(int card) noexcept nogil:
    """Where card ``card`` (our index) sits in DanZero's 54-vector: suits H S C D."""
    if card < 52 and (card & 3) < 2:
        return card ^ 1
    return card


cdef inline void _add_cards(float* out, uint64_t once, uint64_t twice, bint danzero) noexcept nogil:
    """Add the card counts of (once, twice) to ``out[0:54]``."""
    cdef int card
    once &= FULL_PLANE
    twice &= once
    while once:
        card = gf_ctz64(once)
        out[_danzero_slot(card) if danzero else card] += 1.0
        once &= once - 1
    while twice:
        card = gf_ctz64(twice)
        out[_danzero_slot(card) if danzero else card] += 1.0
        twice &= twice - 1


cdef inline void _fill(float* out, int n, float value) noexcept nogil:
    cdef int i
    for i in range(n):
        out[i] = value


cdef inline int _count(uint64_t once, uint64_t twice) noexcept nogil:
    return gf_popcount64(once) + gf_popcount64(twice)


cdef inline void _unseen(const Position* p, float* out, bint danzero) noexcept nogil:
    """2 minus the copies in the seat's hand and in every seat's plays."""
    cdef int s
    _fill(out, NUM_CARDS, 0.0)
    _add_cards(out, p.once[p.seat], p.twice[p.seat], danzero)
    for s in range(4):
        _add_cards(out, p.played_once[s], p.played_twice[s], danzero)
    for s in range(NUM_CARDS):
        out[s] = 2.0 - out[s] if out[s] <= 2.0 else 0.0


cdef inline bint _is_out(const Position* p, int seat) noexcept nogil:
    cdef int k
    for k in range(p.n_out):
        if p.finish[k] == seat:
            return True
    return False


cdef inline bint _passes_back_to(const Position* p, int last, int seat) noexcept nogil:
    """Whether the plays before tail entry ``last`` are passes back to a play of ``seat``."""
    cdef int j = last - 1
    while j >= 0 and p.tail_kind[j] == 0:
        j -= 1
    return j >= 0 and p.tail_seat[j] == seat


cdef int _danzero_latest(const Position* p) noexcept nogil:
    """DanZero's latest recorded entry: 0 the last action's cards, 1 a ``[-1]`` marker
    (all -1), 2 a ``[]`` skip marker (zeros). See tests/danzero_reference.py."""
    cdef int j = p.tail_len - 1
    cdef int actor = p.tail_seat[j]
    cdef bint passed = p.tail_kind[j] == 0
    cdef int before = p.n_out - (1 if _is_out(p, actor) else 0)
    cdef int first, second
    if before == 1:
        first = p.finish[0]
        if actor == ((first + 3) & 3):
            if passed and _passes_back_to(p, j, first):
                return 2
            return 1
    elif before == 2:
        second = p.finish[1]
        if _is_out(p, (actor + 1) & 3):
            if passed and actor == ((second + 2) & 3) and _passes_back_to(p, j, second):
                return 2
            return 1
    return 0


cdef inline void _one_hot(float* out, int width, int index) noexcept nogil:
    if index >= width:
        index = width - 1
    if index < 0:
        index = 0
    out[index] = 1.0


cdef void _danzero_flags(const float* hand, int level, float* flags) noexcept nogil:
    """DanZero's 12 wildcard flags (``proc_universal``) from its hand 54-vector; see
    ``wildcard_flags`` in tests/danzero_reference.py for the rules and their quirks."""
    cdef int wild = 4 * (level - 2)
    cdef int held[54]
    cdef int suits[13]
    cdef int suit, start, r, missing, most, first, run, a, b, c
    if hand[wild] == 0.0:
        return
    flags[0] = 1.0
    for r in range(52):
        held[r] = 0 if r == wild or hand[r] == 0.0 else 1
    for suit in range(4):
        for start in range(8):
            missing = 0
            for r in range(start, start + 5):
                missing += 1 - held[suit + 4 * r]
            if missing <= 1:
                flags[1] = 1.0
    most = 0
    for r in range(13):
        suits[r] = held[4 * r] + held[4 * r + 1] + held[4 * r + 2] + held[4 * r + 3]
        if suits[r] > most:
            most = suits[r]
    first = 7 if most <= 1 else (2 if most >= 6 else 8 - most)
    for r in range(first, 8):
        flags[r] = 1.0
    run = 0
    for r in range(13):
        c = suits[r]
        if c == 0:
            run = 0
            continue
        run += 1
        if r >= 1:
            b = suits[r - 1]
            if (c == 2 and b >= 3) or (c >= 3 and b == 2):
                flags[9] = 1.0
            elif c == 2 and b == 2:
                flags[11] = 1.0
        if r >= 2:
            a = suits[r - 2]
            b = suits[r - 1]
            if (a == 1 and b >= 2 and c >= 2) or (a >= 2 and b == 1 and c >= 2) or (a >= 2 and b >= 2 and c == 1):
                flags[10] = 1.0
    if run >= 4:
        flags[8] = 1.0


cdef void _danzero(const Position* p, float* out) noexcept nogil:
    """The 513 numbers of DanZero's ``x_no_action`` for ``p.seat``."""
    cdef int seat = p.seat, partner = (p.seat + 2) & 3, k, other, j, latest
    cdef int team = seat & 1
    _fill(out, DZ_SIZE, 0.0)
    _add_cards(out + DZ_HAND, p.once[seat], p.twice[seat], True)
    _danzero_flags(out + DZ_HAND, p.level, out + DZ_FLAGS)
    _unseen(p, out + DZ_UNSEEN, True)
    if p.tail_len == 0:
        _fill(out + DZ_LATEST, NUM_CARDS, -1.0)
    else:
        latest = _danzero_latest(p)
        j = p.tail_len - 1
        if latest == 0:
            _add_cards(out + DZ_LATEST, p.tail_once[j], p.tail_twice[j], True)
        elif latest == 1:
            _fill(out + DZ_LATEST, NUM_CARDS, -1.0)
    # The partner's latest entry: its last action (a pass is zeros); -1s when out or none.
    j = p.tail_len - 1
    while j >= 0 and p.tail_seat[j] != partner:
        j -= 1
    if j < 0 or _is_out(p, partner):
        _fill(out + DZ_PARTNER, NUM_CARDS, -1.0)
    else:
        _add_cards(out + DZ_PARTNER, p.tail_once[j], p.tail_twice[j], True)
    for k in range(3):
        other = (seat + 1 + k) & 3
        _add_cards(out + DZ_PLAYED + NUM_CARDS * k, p.played_once[other], p.played_twice[other], True)
        _one_hot(out + DZ_LEFT + DZ_LEFT_WIDTH * k, DZ_LEFT_WIDTH, _count(p.once[other], p.twice[other]))
    _one_hot(out + DZ_LEVELS, 13, p.levels[team] - 2)
    _one_hot(out + DZ_LEVELS + 13, 13, p.levels[1 - team] - 2)
    _one_hot(out + DZ_LEVELS + 26, 13, p.level - 2)


cdef inline int _relative(const Position* p, int seat) noexcept nogil:
    return (seat - p.seat) & 3


cdef void _full(const Position* p, float* out) noexcept nogil:
    """The full-v1 layout for ``p.seat`` (docs/encoding.md)."""
    cdef int seat = p.seat, team = p.seat & 1, r, s, k, j, wild, slot
    cdef float* at
    _fill(out, F_SIZE, 0.0)
    _add_cards(out + F_HAND, p.once[seat], p.twice[seat], False)
    _unseen(p, out + F_UNSEEN, False)
    wild = 4 * (p.level - 2) + 1
    for r in range(4):
        s = (seat + r) & 3
        _add_cards(out + F_PLAYED + NUM_CARDS * r, p.played_once[s], p.played_twice[s], False)
        _one_hot(out + F_LEFT + F_LEFT_WIDTH * r, F_LEFT_WIDTH, _count(p.once[s], p.twice[s]))
        _one_hot(out + F_WILDCARDS + 3 * r, 3,
                 <int>((p.played_once[s] >> wild) & 1) + <int>((p.played_twice[s] >> wild) & 1))
        out[F_BOMBS + r] = p.bombs[s]
        out[F_PAYERS + r] = p.payer[s]
        out[F_RECEIVERS + r] = p.receiver[s]
        if 0 <= p.tribute_card[s] < NUM_CARDS:
            out[F_TRIBUTE_CARDS + NUM_CARDS * r + p.tribute_card[s]] = 1.0
        if 0 <= p.return_card[s] < NUM_CARDS:
            out[F_RETURN_CARDS + NUM_CARDS * r + p.return_card[s]] = 1.0
        out[F_PLACE + 4 * r + 3] = 1.0
    for k in range(p.n_out):
        if k < 3:
            r = _relative(p, p.finish[k])
            out[F_PLACE + 4 * r + 3] = 0.0
            out[F_PLACE + 4 * r + k] = 1.0
    _one_hot(out + F_LEVELS, 13, p.levels[team] - 2)
    _one_hot(out + F_LEVELS + 13, 13, p.levels[1 - team] - 2)
    _one_hot(out + F_LEVELS + 26, 13, p.level - 2)
    _one_hot(out + F_PHASE, 4, p.phase)
    if p.to_act >= 0:
        out[F_TO_ACT + _relative(p, p.to_act)] = 1.0
    if p.last_kind != 0:
        _add_cards(out + F_BEAT_CARDS, p.last_once, p.last_twice, False)
        _one_hot(out + F_BEAT_KIND, NUM_KINDS, p.last_kind)
        _one_hot(out + F_BEAT_KEY, NUM_KEYS, p.last_key)
        out[F_BEAT_SEAT + _relative(p, p.last_seat)] = 1.0
    _one_hot(out + F_TRIBUTE_KIND, 5, p.tribute_kind)
    for slot in range(p.tail_len):
        j = p.tail_len - 1 - slot
        at = out + F_HISTORY + F_SLOT * slot
        at[_relative(p, p.tail_seat[j])] = 1.0
        if p.tail_kind[j] == 0:
            at[4] = 1.0
        else:
            _add_cards(at + 5, p.tail_once[j], p.tail_twice[j], False)


cdef inline void _encode(const Position* p, float* out, bint full) noexcept nogil:
    if full:
        _full(p, out)
    else:
        _danzero(p, out)


# -- Python entry points -----------------------------------------------------------------------
cdef cnp.ndarray _output(object out, tuple shape):
    """A new float32 array of ``shape``, or ``out`` checked to be one the kernel may write
    through a ``float*`` (C-contiguous, aligned, native byte order, writable)."""
    if out is None:
        return np.empty(shape, dtype=np.float32)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy array, not {type(out).__name__}")
    cdef cnp.ndarray given = <cnp.ndarray>out
    if (cnp.PyArray_TYPE(given) == cnp.NPY_FLOAT32 and cnp.PyArray_ISNOTSWAPPED(given)
            and cnp.PyArray_IS_C_CONTIGUOUS(given) and cnp.PyArray_ISALIGNED(given)
            and cnp.PyArray_ISWRITEABLE(given) and out.shape == shape):  # the common case, read in C
        return given
    # one of the conditions above failed: name it (a swapped float32 is no float32 dtype)
    fault = (
        f"has dtype {out.dtype}" if out.dtype != np.float32 else
        f"has shape {out.shape}" if out.shape != shape else
        "is not C-contiguous" if not out.flags.c_contiguous else
        "is not aligned" if not out.flags.aligned else
        "is read-only"
    )
    raise ValueError(f"out must be a writable, aligned, C-contiguous float32 array of shape {shape}; this one {fault}")


def state(deal, seat, layout="danzero", out=None):
    """The encoding of ``deal`` seen by ``seat`` as ``float32[D]`` (D: 513 for ``"danzero"``,
    2467 for ``"full-v1"``), written into ``out`` when given (and returned).
    TypeError/ValueError for a non-Deal, a bad seat, layout or ``out``."""
    cdef Position p
    cdef bint full = _is_full(layout)
    cdef int size = F_SIZE if full else DZ_SIZE
    cdef cnp.ndarray target
    cdef cnp.npy_intp dims = size
    _check_deal(deal)
    _gather(deal, _check_seat(seat), &p, full)
    if out is None:
        target = cnp.PyArray_EMPTY(1, &dims, cnp.NPY_FLOAT32, 0)
    else:
        target = _output(out, (size,))
    _encode(&p, <float*>cnp.PyArray_DATA(target), full)
    return target


def states(deals, seats, layout="danzero", out=None):
    """Encodings of many positions as ``float32[B, D]``: row ``i`` is ``state(deals[i],
    seats[i], layout)``; ``seats`` may be one seat for all; written into ``out`` when
    given (and returned). Positions are gathered in chunks and encoded without the GIL."""
    cdef bint full = _is_full(layout)
    cdef int size = F_SIZE if full else DZ_SIZE
    cdef Py_ssize_t n, i, begin, end, count
    cdef Position* chunk
    cdef float* base
    cdef cnp.ndarray target
    deals = list(deals)
    n = len(deals)
    if isinstance(seats, bool) or not hasattr(seats, "__len__"):
        seat_list = [_check_seat(seats)] * n
    else:
        seat_list = [_check_seat(s) for s in seats]
        if len(seat_list) != n:
            raise ValueError(f"{n} deals but {len(seat_list)} seats: give one seat per deal, or one seat for all")
    for deal in deals:
        _check_deal(deal)
    target = _output(out, (n, size))
    base = <float*>cnp.PyArray_DATA(target)
    chunk = <Position*>malloc(CHUNK * sizeof(Position))
    if chunk == NULL:
        raise MemoryError()
    try:
        begin = 0
        while begin < n:
            end = begin + CHUNK if begin + CHUNK < n else n
            for i in range(begin, end):
                _gather(deals[i], seat_list[i], &chunk[i - begin], full)
            count = end - begin
            with nogil:
                for i in range(count):
                    _encode(&chunk[i], base + (begin + i) * size, full)
            begin = end
    finally:
        free(chunk)
    return target


cdef cnp.ndarray _contiguous(object array, int type_num):
    """``array`` itself when it is a C-contiguous array of that type, else such a copy."""
    if cnp.PyArray_Check(array) and cnp.PyArray_TYPE(<cnp.ndarray>array) == type_num \
            and cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray>array):
        return <cnp.ndarray>array
    return np.ascontiguousarray(array, dtype=cnp.PyArray_DescrFromType(type_num))


# Byte j of SPREAD[b] is bit j of b: eight cards' counts from one lookup. Two spreads add
# without carries (each byte is 0 or 1), whatever the byte order, as they are added as words.
cdef uint8_t SPREAD[256][8]
for _byte in range(256):
    for _bit in range(8):
        SPREAD[_byte][_bit] = (_byte >> _bit) & 1
# The bits of suits 0 and 1 of ranks 2..A (cards 4r and 4r + 1, r < 13), which DanZero's
# card order swaps (_danzero_slot).
cdef uint64_t SUIT0_BITS = 0x0001111111111111ULL
cdef uint64_t SUIT1_BITS = SUIT0_BITS << 1


cdef inline uint64_t _danzero_bits(uint64_t plane) noexcept nogil:
    """``plane`` with every card moved to its DanZero slot."""
    return (plane & ~(SUIT0_BITS | SUIT1_BITS)) | ((plane & SUIT0_BITS) << 1) | ((plane & SUIT1_BITS) >> 1)


cdef inline void _card_counts(int8_t* row, uint64_t once, uint64_t twice, bint spill) noexcept nogil:
    """Write ``row[0:54]``: the card counts of planes (once, twice), eight cards at a time;
    with ``spill``, zeros in ``row[54:56]`` too (one whole word: the caller writes them later)."""
    cdef uint64_t a, b
    cdef int k
    for k in range(7):
        memcpy(&a, SPREAD[(once >> (8 * k)) & 255], 8)
        memcpy(&b, SPREAD[(twice >> (8 * k)) & 255], 8)
        a += b
        if k < 6 or spill:
            memcpy(row + 8 * k, &a, 8)
        else:
            memcpy(row + 8 * k, &a, NUM_CARDS - 48)


cdef inline void _action_row(int8_t* row, int kind, int key, uint64_t once, uint64_t twice, bint full,
                             bint spill) noexcept nogil:
    """Write the whole row (F bytes) of one action; ``spill``: the two bytes after a
    DanZero row may be overwritten (they are the next row's)."""
    once &= FULL_PLANE
    twice &= once
    if full:
        _card_counts(row, once, twice, True)
        memset(row + NUM_CARDS, 0, F_ACTION - NUM_CARDS)
        if 0 <= kind < NUM_KINDS:
            row[NUM_CARDS + kind] = 1
            if kind != 0 and 0 <= key < NUM_KEYS:
                row[NUM_CARDS + NUM_KINDS + key] = 1
    else:
        _card_counts(row, _danzero_bits(once), _danzero_bits(twice), spill)


cdef inline cnp.ndarray _rows(Py_ssize_t n, int width):
    """A new uninitialised ``int8[n, width]`` (``_action_row`` writes every byte)."""
    cdef cnp.npy_intp dims[2]
    dims[0] = n
    dims[1] = width
    return cnp.PyArray_EMPTY(2, dims, cnp.NPY_INT8, 0)


def action_features(deal, layout="danzero"):
    """One row per entry of ``deal.legal_actions()`` (same order) as ``int8[n, F]``: the
    action's 54 card counts in the layout's card order; ``"full-v1"`` adds the kind and
    key one-hots (F = 83). A pass is a row of zero counts; a tribute or return action
    counts its one card and has no kind or key."""
    cdef bint full = _is_full(layout)
    cdef int width = F_ACTION if full else NUM_CARDS
    cdef Py_ssize_t n, i, offset
    cdef cnp.ndarray out, kinds, keys, cards
    cdef const uint8_t* kind_data
    cdef const uint8_t* key_data
    cdef const uint64_t* card_data
    cdef int8_t* rows
    cdef int card
    _check_deal(deal)
    if deal.phase != "play":
        actions = deal.legal_actions()
        out = _rows(len(actions), width)
        rows = <int8_t*>cnp.PyArray_DATA(out)
        for i, action in enumerate(actions):
            card = parse_card(action[2][0])
            _action_row(rows + i * width, -1, 0, 1ULL << card, 0, full, i + 1 < len(actions))
        return out
    moves = deal.legal_moves()
    offset = 1 if deal.following else 0
    kinds = _contiguous(moves.kinds, cnp.NPY_UINT8)
    keys = _contiguous(moves.keys, cnp.NPY_UINT8)
    cards = _contiguous(moves.cards, cnp.NPY_UINT64)
    n = kinds.shape[0]
    if keys.shape[0] != n or cards.ndim != 2 or cards.shape[0] != n or cards.shape[1] != 2:
        raise ValueError("the deal's move list has inconsistent arrays")
    out = _rows(n + offset, width)
    rows = <int8_t*>cnp.PyArray_DATA(out)
    kind_data = <const uint8_t*>cnp.PyArray_DATA(kinds)
    key_data = <const uint8_t*>cnp.PyArray_DATA(keys)
    card_data = <const uint64_t*>cnp.PyArray_DATA(cards)
    with nogil:
        if offset:
            _action_row(rows, 0, 0, 0, 0, full, n > 0)
        for i in range(n):
            _action_row(rows + (i + offset) * width, kind_data[i], key_data[i],
                        card_data[2 * i], card_data[2 * i + 1], full, i + 1 < n)
    return out
