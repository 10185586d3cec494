# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""The play state of a deal in C and the rules of play (RULES.md §7), written once: the
public C API of ``state.pxd`` (see docs/c-api.md) and :class:`State`, the object a
:class:`~guandan_fast.engine.deal.Deal` holds.

The kernels (``noexcept nogil``) work on a :c:type:`PlayState` alone: who acts next (players
out are skipped, a leader never passes), the end of a trick (every other player still
holding cards passed: the player who made the move to beat leads, or its partner when it
went out with it, 接风), the seats out and the end of the deal (a 1-2 finish, with the two
losers listed in turn order after the second finisher, or three seats out). The Deal, the
native playouts and their policies, the encoders and users' solvers all play through them.

Bounds: every index into the struct's four-seat arrays is a seat masked with ``& 3`` or a
loop below 4; a state that ``state_check`` accepts keeps ``to_act``, ``last_seat`` (when
following) and ``nfinish`` (below 4 while the deal is on) in range, and every state the
functions make from one is accepted again.
"""

cimport cython
from cpython cimport array as cparray
from cpython.object cimport Py_SIZE
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

import numpy as np
cimport numpy as cnp

from guandan_fast.engine._movegen cimport (
    FULL_PLANE,
    K_FOUR_JOKERS,
    K_PASS,
    MoveBuffer,
    as_integer,
    check_args,
    generate_append,
    movebuf_free,
    movebuf_init,
)

cnp.import_array()

from guandan_fast.engine import _movegen
from guandan_fast.engine.cards import CARD_NAMES, level_char
from guandan_fast.engine.hand import new_hand
from guandan_fast.engine.moves import PASS, Move, MoveType

#: The version of the C API of ``state.pxd`` this module implements (see the .pxd).
CAPI_VERSION = GF_CAPI_VERSION

PHASES = ("tribute", "return", "play", "done")
#: The most actions a deal can take (108 plays, each followed by at most three passes).
LONGEST_DEAL = MAX_ACTIONS
_MOVE_TYPES = tuple(MoveType)


# -- the rules of play ------------------------------------------------------------------------------
cdef void state_clear(PlayState* s, int level) noexcept nogil:
    cdef int k
    memset(s, 0, sizeof(PlayState))
    s.level = level
    s.last_seat = -1
    for k in range(4):
        s.finish[k] = -1
        s.trick[k] = -1


cdef int state_next_active(const PlayState* s, int seat) noexcept nogil:
    cdef int step, other
    for step in range(1, 4):
        other = (seat + step) & 3
        if s.once[other]:
            return other
    return seat


cdef bint state_may_play(const PlayState* s, int kind, int key, uint64_t once, uint64_t twice) noexcept nogil:
    cdef int seat = s.to_act
    if s.done or seat < 0:
        return False
    seat &= 3
    if kind == K_PASS:
        return s.last_kind != K_PASS
    if once & ~s.once[seat] or twice & ~s.twice[seat]:
        return False
    return move_beats(kind, key, hand_size(once, twice), s.last_kind, s.last_key, s.last_size)


cdef inline void _end_trick(PlayState* s) noexcept nogil:
    cdef int k
    s.last_kind = K_PASS
    s.last_key = 0
    s.last_size = 0
    s.last_once = 0
    s.last_twice = 0
    s.last_seat = -1
    s.passes = 0
    for k in range(4):
        s.trick[k] = -1


cdef inline bint _check_end(PlayState* s) noexcept nogil:
    """End the deal on a 1-2 finish (the losers listed in turn order after the second
    finisher) or when three players are out."""
    cdef int after
    if s.nfinish == 2 and s.finish[1] == (s.finish[0] ^ 2):
        after = s.finish[1]
        while s.nfinish < 4:
            after = state_next_active(s, after)
            s.finish[s.nfinish] = after
            s.nfinish += 1
    elif s.nfinish == 3:
        s.finish[3] = 6 - s.finish[0] - s.finish[1] - s.finish[2]  # the seats sum to 0+1+2+3
        s.nfinish = 4
    else:
        return False
    s.done = 1
    s.to_act = -1
    _end_trick(s)
    return True


cdef inline void _pass(PlayState* s, int seat) noexcept nogil:
    cdef int other, others = 0, last_seat = s.last_seat & 3
    s.passes += 1
    for other in range(4):
        if other != last_seat and s.once[other]:
            others += 1
    if s.passes < others:
        s.to_act = state_next_active(s, seat)
        return
    # Everyone still holding cards passed: the trick ends.
    _end_trick(s)
    if s.once[last_seat]:
        s.to_act = last_seat
    else:  # 接风: the partner of the player who went out leads. It always holds cards: had it
        # been out already, ``last_seat`` going out would have ended the deal (1-2, or three
        # out), and state_check refuses states of a deal that is over, so there is no other branch.
        s.to_act = last_seat ^ 2


cdef void state_play(PlayState* s, int kind, int key, uint64_t once, uint64_t twice) noexcept nogil:
    cdef int seat = s.to_act & 3
    cdef uint64_t held_once = s.once[seat], held_twice = s.twice[seat], had = s.played_once[seat]
    s.trick[seat] = s.actions
    s.actions += 1
    if kind == K_PASS:
        _pass(s, seat)
        return
    s.once[seat] = (held_once & ~once) | (held_twice & ~twice)
    s.twice[seat] = held_twice & ~once
    s.played_once[seat] = had | once
    s.played_twice[seat] |= twice | (had & once)
    s.last_kind = kind
    s.last_key = key
    s.last_size = hand_size(once, twice)
    s.last_once = once
    s.last_twice = twice
    s.last_seat = seat
    s.passes = 0
    if s.once[seat] == 0:
        s.finish[s.nfinish & 3] = seat
        s.nfinish += 1
        if _check_end(s):
            return
    s.to_act = state_next_active(s, seat)


cdef void state_make(PlayState* s, int kind, int key, uint64_t once, uint64_t twice, PlayUndo* undo) noexcept nogil:
    cdef int seat = s.to_act & 3, k
    undo.seat = seat
    undo.once = s.once[seat]
    undo.twice = s.twice[seat]
    undo.played_once = s.played_once[seat]
    undo.played_twice = s.played_twice[seat]
    undo.last_once = s.last_once
    undo.last_twice = s.last_twice
    undo.last_kind = s.last_kind
    undo.last_key = s.last_key
    undo.last_size = s.last_size
    undo.last_seat = s.last_seat
    undo.passes = s.passes
    undo.nfinish = s.nfinish
    undo.done = s.done
    for k in range(4):
        undo.trick[k] = s.trick[k]
    state_play(s, kind, key, once, twice)


cdef void state_unmake(PlayState* s, const PlayUndo* undo) noexcept nogil:
    cdef int seat = undo.seat & 3, k
    s.once[seat] = undo.once
    s.twice[seat] = undo.twice
    s.played_once[seat] = undo.played_once
    s.played_twice[seat] = undo.played_twice
    s.last_once = undo.last_once
    s.last_twice = undo.last_twice
    s.last_kind = undo.last_kind
    s.last_key = undo.last_key
    s.last_size = undo.last_size
    s.last_seat = undo.last_seat
    s.passes = undo.passes
    for k in range(4):
        s.trick[k] = undo.trick[k]
        if k >= undo.nfinish:
            s.finish[k] = -1
    s.nfinish = undo.nfinish
    s.done = undo.done
    s.to_act = seat
    s.actions -= 1


cdef Py_ssize_t state_actions(const PlayState* s, MoveBuffer* out) noexcept nogil:
    cdef int seat = s.to_act & 3
    cdef Py_ssize_t n
    out.n = 0
    out.failed = 0
    if s.done:
        return 0
    if s.last_kind == K_PASS:
        return generate_append(s.once[seat], s.twice[seat], s.level, K_PASS, 0, 0, False, out)
    if out.cap < 1 or out.kinds == NULL:
        out.failed = 1
        return -1
    out.kinds[0] = K_PASS
    out.keys[0] = 0
    out.cards[0] = 0
    out.cards[1] = 0
    out.n = 1
    n = generate_append(s.once[seat], s.twice[seat], s.level, s.last_kind, s.last_key, s.last_size, False, out)
    return n + 1 if n >= 0 else n


cdef int _perft(PlayState* s, int depth, MoveBuffer* buffers, uint64_t* count) noexcept nogil:
    cdef Py_ssize_t n, i
    cdef PlayUndo undo
    cdef MoveBuffer* moves = buffers
    cdef int code
    if s.done:
        return 0
    n = state_actions(s, moves)
    if n < 0:
        return -1
    if depth == 1:  # bulk counting: the last ply's actions are counted, not made
        count[0] += <uint64_t>n
        return 0
    for i in range(n):
        state_make(s, moves.kinds[i], moves.keys[i], moves.cards[2 * i], moves.cards[2 * i + 1], &undo)
        code = _perft(s, depth - 1, buffers + 1, count)
        state_unmake(s, &undo)
        if code != 0:
            return code
    return 0


cdef int state_perft(PlayState* s, int depth, MoveBuffer* buffers, uint64_t* count) noexcept nogil:
    count[0] = 0
    if depth <= 0:
        count[0] = 1
        return 0
    return _perft(s, depth, buffers, count)


# -- the states a deal can be in ----------------------------------------------------------------------
cdef enum:
    BAD_LEVEL = 1
    BAD_PLANES = 2
    BAD_COPIES = 3
    BAD_FINISH = 4
    BAD_TO_ACT = 5
    BAD_LAST = 6
    BAD_LAST_SEAT = 7
    BAD_PASSES = 8
    BAD_TRICK = 9

#: What a nonzero code of ``state_check`` means.
STATE_ERRORS = {
    BAD_LEVEL: "the level is outside 2..14",
    BAD_PLANES: "a hand or the cards a seat played are no valid planes (bits 0..53, twice within once)",
    BAD_COPIES: "a card appears more than twice across the hands and the cards played",
    BAD_FINISH: "the seats out are not those with empty hands, in an order a deal that is on can have",
    BAD_TO_ACT: "the seat to act holds no cards (or, once the deal is done, is not -1)",
    BAD_LAST: "the move to beat is no move of its kind and key, or not the cards of its seat's last play",
    BAD_LAST_SEAT: "the seat that made the move to beat is not one that can have made it",
    BAD_PASSES: "the passes since the move to beat do not lead to the seat to act",
    BAD_TRICK: "the action count or the current trick's plays are out of range",
}


cdef inline bint _bad_planes(uint64_t once, uint64_t twice) noexcept nogil:
    return ((once | twice) & ~FULL_PLANE) != 0 or (twice & ~once) != 0


cdef int state_check(const PlayState* s) noexcept nogil:
    cdef int seat, k, others, at, out_mask = 0
    cdef uint64_t one = 0, two = 0, over = 0, plane
    cdef uint64_t planes[16]
    if s.level < 2 or s.level > 14:
        return BAD_LEVEL
    for seat in range(4):
        planes[4 * seat] = s.once[seat]
        planes[4 * seat + 1] = s.twice[seat]
        planes[4 * seat + 2] = s.played_once[seat]
        planes[4 * seat + 3] = s.played_twice[seat]
        if _bad_planes(s.once[seat], s.twice[seat]) or _bad_planes(s.played_once[seat], s.played_twice[seat]):
            return BAD_PLANES
    for k in range(16):  # the cards of the table counted as a multiset: one copy per bit of each plane
        plane = planes[k]
        over |= two & plane
        two |= one & plane
        one |= plane
    if over:
        return BAD_COPIES
    if s.actions < 0 or s.actions > MAX_ACTIONS:
        return BAD_TRICK
    for seat in range(4):
        if s.trick[seat] < -1 or s.trick[seat] >= s.actions:
            return BAD_TRICK
    # the seats out: distinct, exactly the empty hands while the deal is on
    if s.nfinish < 0 or s.nfinish > 4:
        return BAD_FINISH
    for k in range(4):
        seat = s.finish[k]
        if k < s.nfinish:
            if seat < 0 or seat > 3 or out_mask & (1 << seat):
                return BAD_FINISH
            out_mask |= 1 << seat
        elif seat != -1:
            return BAD_FINISH
    if s.done:
        if s.done != 1 or s.nfinish != 4:
            return BAD_FINISH
        if s.to_act != -1:
            return BAD_TO_ACT
        if s.last_kind != K_PASS or s.last_seat != -1 or s.passes or s.last_once or s.last_twice:
            return BAD_LAST
        return 0
    if s.nfinish > 2 or (s.nfinish == 2 and s.finish[1] == (s.finish[0] ^ 2)):
        return BAD_FINISH
    for seat in range(4):
        if ((out_mask >> seat) & 1) != (s.once[seat] == 0):
            return BAD_FINISH
    if s.to_act < 0 or s.to_act > 3 or s.once[s.to_act] == 0:
        return BAD_TO_ACT
    if check_args(s.once[s.to_act], s.twice[s.to_act], s.level, s.last_kind, s.last_key, s.last_size) != 0:
        return BAD_LAST
    if s.last_kind == K_PASS:
        if s.last_once or s.last_twice:
            return BAD_LAST
        if s.last_seat != -1:
            return BAD_LAST_SEAT
        if s.passes != 0:
            return BAD_PASSES
        return 0
    # Following: ``last_seat`` made the move to beat (its cards are among those it played),
    # then ``passes`` players passed in turn.
    if s.last_seat < 0 or s.last_seat > 3 or s.last_seat == s.to_act:
        return BAD_LAST_SEAT
    if (s.once[s.last_seat] == 0 and s.finish[s.nfinish - 1] != s.last_seat):
        return BAD_LAST_SEAT
    if (_bad_planes(s.last_once, s.last_twice) or hand_size(s.last_once, s.last_twice) != s.last_size
            or s.last_once & ~s.played_once[s.last_seat] or s.last_twice & ~s.played_twice[s.last_seat]):
        return BAD_LAST
    others = 0
    for seat in range(4):
        if seat != s.last_seat and s.once[seat]:
            others += 1
    if s.passes < 0 or s.passes >= others:
        return BAD_PASSES
    at = s.last_seat
    for k in range(s.passes + 1):
        at = state_next_active(s, at)
    if at != s.to_act:
        return BAD_PASSES
    return 0


# -- from Python --------------------------------------------------------------------------------------
cdef State _state_of(object deal):
    if isinstance(deal, State):
        return <State>deal
    held = getattr(deal, "_state", None)
    if not isinstance(held, State):
        raise TypeError(f"expected a guandan_fast Deal (or its State), not {type(deal).__name__}")
    return <State>held


cdef int state_from_deal(object deal, PlayState* out) except -1:
    cdef State state = _state_of(deal)
    if state.phase < PHASE_PLAY:
        raise ValueError(f"the deal is in its {PHASES[state.phase]} phase: its play state begins with the play phase")
    memcpy(out, &state.s, sizeof(PlayState))
    return 0


cdef int _small(object value, str what, int lo, int hi) except? -1:
    """An integer argument that must lie in lo..hi."""
    number = as_integer(value, what)
    if not lo <= number <= hi:
        raise ValueError(f"{what} must be {lo}..{hi}, not {number}")
    return <int>number


cdef uint64_t _plane(object value, str what) except? 0xFFFFFFFFFFFFFFFF:
    number = as_integer(value, what)
    if not 0 <= number <= FULL_PLANE:
        raise ValueError(f"{what} must be a hand plane (bits 0..53, one per card), not {number}")
    return <uint64_t>number


cdef list _seats(object value, str what):
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{what} must be a sequence of seats, not {type(value).__name__}")
    return [_small(seat, f"a seat of {what}", 0, 3) for seat in value]


cdef str _card_name(uint64_t bits):
    cdef int card = 0
    while card < 63 and not (bits >> card) & 1:
        card += 1
    return CARD_NAMES[card] if card < 54 else f"bit {card}"


# -- the legal actions of one state ------------------------------------------------------------------
@cython.auto_pickle(False)
cdef class MoveRows:
    """The legal actions of one state, made once and shared by the State's copies."""

    def __cinit__(self):
        self.buf.kinds = NULL
        self.buf.keys = NULL
        self.buf.cards = NULL
        self.buf.block = NULL
        self.buf.borrowed = 0
        self.buf.n = 0
        self.buf.cap = 0
        self.arrays = None

    def __dealloc__(self):
        movebuf_free(&self.buf)

    cdef object numpy(self):
        """The move rows (the pass row aside) as read-only arrays (kinds, keys, cards)."""
        cdef cnp.ndarray kinds, keys, cards
        cdef Py_ssize_t n = self.moves, first = self.first
        if self.arrays is None:
            kinds = np.empty(n, dtype=np.uint8)
            keys = np.empty(n, dtype=np.uint8)
            cards = np.empty((n, 2), dtype=np.uint64)
            if n:
                memcpy(cnp.PyArray_DATA(kinds), self.buf.kinds + first, n)
                memcpy(cnp.PyArray_DATA(keys), self.buf.keys + first, n)
                memcpy(cnp.PyArray_DATA(cards), self.buf.cards + 2 * first, 2 * n * sizeof(uint64_t))
            for array in (kinds, keys, cards):
                cnp.PyArray_CLEARFLAGS(array, cnp.NPY_ARRAY_WRITEABLE)
            self.arrays = (kinds, keys, cards)
        return self.arrays


cdef list _row_list(MoveRows rows):
    cdef Py_ssize_t i, end = rows.first + rows.moves
    cdef MoveBuffer* b = &rows.buf
    return [(b.kinds[i], b.keys[i], b.cards[2 * i], b.cards[2 * i + 1]) for i in range(rows.first, end)]


@cython.auto_pickle(False)
cdef class RowsLater:
    """The move rows of one position, listed when called (see :meth:`State.rows_later`)."""

    cdef PlayState s
    cdef MoveRows rows

    def __call__(self):
        if self.rows is None:
            self.rows = _rows_of(&self.s)
        return _row_list(self.rows)


cdef MoveRows _rows_of(const PlayState* s):
    cdef MoveRows rows = MoveRows.__new__(MoveRows)
    cdef Py_ssize_t n
    if movebuf_init(&rows.buf, 256) != 0:
        raise MemoryError("out of memory listing the legal actions")
    with nogil:
        n = state_actions(s, &rows.buf)
    if n < 0:
        raise MemoryError("out of memory listing the legal actions")
    rows.first = 1 if (not s.done and s.last_kind != K_PASS) else 0
    rows.moves = n - rows.first
    return rows


# -- the object a Deal holds ----------------------------------------------------------------------------
@cython.auto_pickle(False)
cdef class State:
    """A deal's position: the :c:type:`PlayState` of ``state.pxd``, the phase, and the play
    log. :class:`~guandan_fast.engine.deal.Deal` holds one and asks it everything about
    the play; tribute and return (Python, in the deal) set its hands before play begins.

    Make one with :meth:`position` (every value checked); a State never holds a position
    no deal can be in."""

    def __cinit__(self):
        state_clear(&self.s, 2)
        self.phase = PHASE_PLAY
        self.log = cparray.array("Q")
        self.rows = None
        self.hands = None
        self.last_move = None
        self.actions = None
        self.played_array = None

    @staticmethod
    def position(hands, level, to_act, *, last=None, last_seat=-1, passes=0, finished=()):
        """A play-phase position: ``hands`` four ``(once, twice)`` plane pairs, ``level``
        2..14, the seat ``to_act``; ``last`` the move to beat as ``(kind, key, once, twice)``
        (None when the seat leads; its cards count as played by ``last_seat``), ``passes``
        since it was made, and ``finished`` the seats already out in order (exactly those
        with empty hands). TypeError for a value that is no integer, ValueError for a value
        out of range or a position no deal can be in."""
        cdef State state = State.__new__(State)
        cdef PlayState* s = &state.s
        cdef int seat, k, code
        if isinstance(hands, (str, bytes)) or not hasattr(hands, "__len__") or len(hands) != 4:
            raise ValueError("a position has four hands: hands must be four (once, twice) plane pairs")
        state_clear(s, _small(level, "level", 2, 14))
        for seat in range(4):
            pair = hands[seat]
            if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
                raise ValueError(f"hand {seat} must be a pair of planes (once, twice)")
            s.once[seat] = _plane(pair[0], f"the once plane of hand {seat}")
            s.twice[seat] = _plane(pair[1], f"the twice plane of hand {seat}")
        s.to_act = _small(to_act, "to_act", 0, 3)
        order = _seats(finished, "finished")
        if len(order) > 2 or len(set(order)) != len(order):
            raise ValueError(f"bad finishing order {order}: at most two distinct seats can be out mid-deal")
        s.nfinish = len(order)
        for k in range(s.nfinish):
            s.finish[k] = order[k]
        s.last_seat = _small(last_seat, "last_seat", -1, 3)
        s.passes = _small(passes, "passes", 0, 3)
        if last is not None:
            if isinstance(last, (str, bytes)) or not hasattr(last, "__len__") or len(last) != 4:
                raise ValueError("last must be the move to beat as (kind, key, once, twice), or None")
            s.last_kind = _small(last[0], "the kind of the move to beat", 0, K_FOUR_JOKERS)
            s.last_key = _small(last[1], "the key of the move to beat", 0, 255)
            s.last_once = _plane(last[2], "the once plane of the move to beat")
            s.last_twice = _plane(last[3], "the twice plane of the move to beat")
            s.last_size = hand_size(s.last_once, s.last_twice)
            code = check_args(0, 0, s.level, s.last_kind, s.last_key, s.last_size)
            if code == 5:
                raise ValueError(f"the move to beat's {s.last_size} cards do not fit its kind ({s.last_kind})")
            if code == 6:
                raise ValueError(f"the key of the move to beat ({s.last_key}) is out of range for its kind ({s.last_kind})")
            if s.last_kind == K_PASS or not _movegen.reads_as(s.last_once, s.last_twice, s.level, s.last_kind,
                                                              s.last_key):
                raise ValueError(f"the move to beat {tuple(last)!r} is no reading of its cards")
            if 0 <= s.last_seat <= 3:
                s.played_once[s.last_seat] = s.last_once
                s.played_twice[s.last_seat] = s.last_twice
        state.check()
        return state

    cdef int check(self) except -1:
        """ValueError naming what is wrong unless the position is one a deal can be in."""
        cdef PlayState* s = &self.s
        cdef int code = state_check(s), at, k
        if code == 0:
            return 0
        if code == BAD_COPIES:
            one = two = over = 0
            for k in range(4):
                for plane in (s.once[k], s.twice[k], s.played_once[k], s.played_twice[k]):
                    over |= two & plane
                    two |= one & plane
                    one |= plane
            raise ValueError(f"card {_card_name(over)} appears more than twice across the table (the deck has two)")
        if code == BAD_FINISH:
            order = [s.finish[k] for k in range(s.nfinish)]
            if s.nfinish == 2 and s.finish[1] == (s.finish[0] ^ 2):
                raise ValueError(f"the deal is already over: seats {order[0]} and {order[1]} finished 1-2")
            raise ValueError(f"the seats out {order} must be exactly the seats whose hands are empty")
        if code == BAD_TO_ACT:
            raise ValueError(f"the seat to act ({s.to_act}) must hold cards")
        if code == BAD_LAST_SEAT:
            if s.last_kind == K_PASS:
                raise ValueError("the seat to act leads (no move to beat): last_seat must be -1")
            raise ValueError(f"last_seat ({s.last_seat}) must be the seat that made the move to beat: not the seat "
                             "to act, and holding cards unless it was the last seat to go out")
        if code == BAD_PASSES:
            if s.last_kind == K_PASS:
                raise ValueError("the seat to act leads (no move to beat): passes must be 0")
            others = sum(1 for k in range(4) if k != s.last_seat and s.once[k])
            if s.passes >= others:
                raise ValueError(f"{s.passes} passes: the trick would have ended ({others} players can answer)")
            at = s.last_seat
            for k in range(s.passes + 1):
                at = state_next_active(s, at)
            raise ValueError(f"after seat {s.last_seat}'s play and {s.passes} passes, seat {at} acts, not seat {s.to_act}")
        raise ValueError(STATE_ERRORS.get(code, f"state_check code {code}"))

    cpdef State copy(self):
        """An independent copy (the log copied, the immutable caches shared)."""
        cdef State other = State.__new__(State)
        other.s = self.s
        other.phase = self.phase
        other.log = cparray.copy(self.log)
        other.rows = self.rows
        other.hands = self.hands
        other.last_move = self.last_move
        other.actions = self.actions
        other.played_array = self.played_array
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __reduce__(self):
        raise TypeError("a State is not pickled by itself: pickle the Deal that holds it")

    cdef void changed(self) noexcept:
        """Forget what depended on the state (the seat to act, its actions, the move to beat)."""
        self.rows = None
        self.actions = None

    # -- before play -------------------------------------------------------------------------------
    def before_play(self, phase, int to_act):
        """Enter the tribute or return phase with ``to_act`` (a seat holding cards) to choose."""
        self.phase = PHASES.index(phase)
        if self.phase >= PHASE_PLAY or not 0 <= to_act <= 3:
            raise ValueError(f"before_play takes the tribute or return phase and a seat, not {phase!r}, {to_act}")
        self.s.to_act = to_act
        self.changed()

    def give(self, int giver, int taker, int card):
        """Move one copy of ``card`` from seat ``giver``'s hand to ``taker``'s (a tribute or
        a return; before the play phase only)."""
        cdef uint64_t bit
        if self.phase >= PHASE_PLAY or not (0 <= giver <= 3 and 0 <= taker <= 3 and 0 <= card < 54):
            raise ValueError("cards change hands before the play phase only, between seats 0..3")
        bit = (<uint64_t>1) << card
        if not self.s.once[giver] & bit or self.s.twice[taker] & bit:
            raise ValueError(f"seat {giver} cannot give {CARD_NAMES[card]} to seat {taker}")
        if self.s.twice[giver] & bit:
            self.s.twice[giver] &= ~bit
        else:
            self.s.once[giver] &= ~bit
        if self.s.once[taker] & bit:
            self.s.twice[taker] |= bit
        else:
            self.s.once[taker] |= bit
        self.hands = None
        self.changed()

    def begin_play(self, int leader):
        """Enter the play phase with ``leader`` to lead (the next seat holding cards when its
        own hand is empty)."""
        if not 0 <= leader <= 3:
            raise ValueError(f"the leader must be a seat 0..3, not {leader}")
        self.phase = PHASE_PLAY
        self.s.to_act = leader if self.s.once[leader] else state_next_active(&self.s, leader)
        self.changed()
        self.check()

    def set_hands(self, hands):
        """Replace the four hands (``(once, twice)`` plane pairs) of a copy: the caller has
        checked that each seat keeps its number of cards and the table its cards."""
        cdef PlayState before = self.s
        cdef int seat
        for seat in range(4):
            self.s.once[seat] = _plane(hands[seat][0], f"the once plane of hand {seat}")
            self.s.twice[seat] = _plane(hands[seat][1], f"the twice plane of hand {seat}")
        if state_check(&self.s) != 0 and self.phase >= PHASE_PLAY:
            self.s = before
            raise ValueError("these hands do not fit the deal's position")
        self.hands = None
        self.changed()

    # -- reading ---------------------------------------------------------------------------------
    @property
    def phase_name(self):
        return PHASES[self.phase]

    @property
    def to_act(self):
        """The seat to act (None once the deal is done)."""
        return None if self.phase == PHASE_DONE else self.s.to_act

    @property
    def level(self):
        return self.s.level

    @property
    def following(self):
        """Whether the seat to act follows (may pass) rather than leads."""
        return self.s.last_kind != K_PASS

    @property
    def last_seat(self):
        return self.s.last_seat

    @property
    def passes(self):
        return self.s.passes

    @property
    def finish_order(self):
        """The seats out, first to last (a new list)."""
        cdef int k
        return [self.s.finish[k] for k in range(self.s.nfinish)]

    @property
    def finish(self):
        """The seats out, first to last, as a tuple."""
        cdef int k
        return tuple([self.s.finish[k] for k in range(self.s.nfinish)])

    @property
    def trick(self):
        """Per seat, the number of its action in the current trick (an index into the play
        log), or -1."""
        return (self.s.trick[0], self.s.trick[1], self.s.trick[2], self.s.trick[3])

    @property
    def plays(self):
        """The play log (append-only, three words an action; see the class)."""
        return self.log

    @property
    def play_count(self):
        return self.s.actions

    @property
    def hand_planes(self):
        cdef int k
        return [(self.s.once[k], self.s.twice[k]) for k in range(4)]

    @property
    def cards_left(self):
        """The number of cards of each seat, as a tuple."""
        return (hand_size(self.s.once[0], self.s.twice[0]), hand_size(self.s.once[1], self.s.twice[1]),
                hand_size(self.s.once[2], self.s.twice[2]), hand_size(self.s.once[3], self.s.twice[3]))

    def hand(self, int seat):
        """Seat ``seat``'s hand as a Hand."""
        seat &= 3
        if self.hands is None:
            return new_hand(self.s.once[seat], self.s.twice[seat])
        return self.hands[seat]

    def all_hands(self):
        """The four hands as Hands (made once per change)."""
        if self.hands is None:
            self.hands = (new_hand(self.s.once[0], self.s.twice[0]), new_hand(self.s.once[1], self.s.twice[1]),
                          new_hand(self.s.once[2], self.s.twice[2]), new_hand(self.s.once[3], self.s.twice[3]))
        return self.hands

    @property
    def played(self):
        """The cards each seat has played, as read-only ``uint64[4, 2]`` planes."""
        cdef cnp.ndarray array
        cdef uint64_t* data
        cdef int k
        if self.played_array is None:
            array = np.empty((4, 2), dtype=np.uint64)
            data = <uint64_t*>cnp.PyArray_DATA(array)
            for k in range(4):
                data[2 * k] = self.s.played_once[k]
                data[2 * k + 1] = self.s.played_twice[k]
            cnp.PyArray_CLEARFLAGS(array, cnp.NPY_ARRAY_WRITEABLE)
            self.played_array = array
        return self.played_array

    @property
    def last(self):
        """The move to beat as ``(kind, key, once, twice)``; None when the seat to act leads."""
        if self.s.last_kind == K_PASS:
            return None
        return (self.s.last_kind, self.s.last_key, self.s.last_once, self.s.last_twice)

    def move_to_beat(self):
        """The move to beat as a Move (PASS when the seat to act leads), made once."""
        if self.s.last_kind == K_PASS:
            return PASS
        if self.last_move is None:
            self.last_move = Move._trusted(_MOVE_TYPES[self.s.last_kind], self.s.last_key,
                                           new_hand(self.s.last_once, self.s.last_twice), self.s.level)
        return self.last_move

    # -- the legal actions ---------------------------------------------------------------------------
    cdef MoveRows legal(self):
        if self.phase != PHASE_PLAY:
            raise ValueError(f"there are no moves to play in the {PHASES[self.phase]} phase")
        if self.rows is None:
            self.rows = _rows_of(&self.s)
        return self.rows

    def move_arrays(self):
        """The moves of the seat to act (the pass aside) as read-only ``(kinds, keys, cards)``."""
        return self.legal().numpy()

    def move_rows(self):
        """The moves of the seat to act (the pass aside) as ``(kind, key, once, twice)`` tuples."""
        return _row_list(self.legal())

    def rows_later(self):
        """:meth:`move_rows` of this position as a function that lists them only if called
        (whatever happens to this State meanwhile)."""
        cdef RowsLater later = RowsLater.__new__(RowsLater)
        if self.phase != PHASE_PLAY:
            raise ValueError(f"there are no moves to play in the {PHASES[self.phase]} phase")
        later.s = self.s
        later.rows = self.rows
        return later

    def move_count(self):
        """The number of moves of the seat to act (the pass aside)."""
        return self.legal().moves

    def row(self, index):
        """Action ``index`` of the legal actions as ``(kind, key, once, twice)`` (the pass:
        zeros); ValueError outside them."""
        cdef MoveRows rows = self.legal()
        cdef Py_ssize_t count = rows.first + rows.moves, i
        if type(index) is not int or not 0 <= index < count:
            raise ValueError(f"action index {index} is out of range: seat {self.s.to_act} has {count} legal actions")
        i = index
        return (rows.buf.kinds[i], rows.buf.keys[i], rows.buf.cards[2 * i], rows.buf.cards[2 * i + 1])

    # -- acting ----------------------------------------------------------------------------------------
    cdef int apply(self, int kind, int key, uint64_t once, uint64_t twice) except -1:
        """Take a legal action of the seat to act: the state, the log and the caches."""
        cdef Py_ssize_t n = Py_SIZE(self.log)
        cdef uint64_t* words
        cdef int seat = self.s.to_act & 3
        cparray.resize_smart(self.log, n + 3)
        words = <uint64_t*>self.log.data.as_ulonglongs
        words[n] = <uint64_t>(seat | kind << 2 | key << 6)
        words[n + 1] = once
        words[n + 2] = twice
        state_play(&self.s, kind, key, once, twice)
        if self.s.done:
            self.phase = PHASE_DONE
        self.rows = None
        self.actions = None
        if kind != K_PASS:
            self.hands = None
            self.played_array = None
            self.last_move = None
        elif self.s.last_kind == K_PASS:
            self.last_move = None
        return 0

    def step(self, action):
        """In the play phase, take ``action`` when it is an ``int`` index into the legal
        actions or a :class:`Move`, and return True (ValueError, the state unchanged, when
        it is illegal); return False, doing nothing, for anything else or in another phase."""
        cdef MoveRows rows
        cdef Py_ssize_t i, count
        if self.phase != PHASE_PLAY:
            return False
        cls = type(action)
        if cls is int:
            rows = self.legal()
            count = rows.first + rows.moves
            if not 0 <= action < count:
                raise ValueError(f"action index {action} is out of range: seat {self.s.to_act} has {count} legal actions")
            i = action
            self.apply(rows.buf.kinds[i], rows.buf.keys[i], rows.buf.cards[2 * i], rows.buf.cards[2 * i + 1])
            return True
        if cls is not Move:
            return False
        self.step_move(action)
        return True

    def step_move(self, move):
        """Play ``move`` (a :class:`Move`, PASS included), checked against the hand and the
        move to beat: ValueError, the state unchanged, when it is illegal."""
        cdef int kind, key, size
        cdef uint64_t once, twice
        kind, key, size = move.table_args
        if kind == K_PASS:
            self.play(K_PASS, 0, 0, 0, move)
            return
        if self.phase != PHASE_PLAY:
            raise ValueError(f"there are no moves to play in the {PHASES[self.phase]} phase")
        if move.level != self.s.level:
            raise ValueError(f"the move {move!r} is made at level {level_char(move.level)}, "
                             f"the deal is played at {level_char(self.s.level)}")
        cards = move.cards
        once = cards.once
        twice = cards.twice
        if not state_may_play(&self.s, kind, key, once, twice):
            raise ValueError(f"illegal move for seat {self.s.to_act}: {move!r} is not among its "
                             f"{self.legal().moves} legal moves")
        self.apply(kind, key, once, twice)
        self.last_move = move

    def play(self, int kind, int key, uint64_t once, uint64_t twice, action):
        """Take the reading (kind, key, once, twice) of ``action`` (a valid reading of its
        cards; kind 0: a pass), checked against the hand and the move to beat: ValueError,
        the state unchanged, when it is illegal."""
        if self.phase != PHASE_PLAY:
            raise ValueError(f"there are no moves to play in the {PHASES[self.phase]} phase")
        if kind == K_PASS:
            if self.s.last_kind == K_PASS:
                raise ValueError(f"seat {self.s.to_act} leads and may not pass")
            self.apply(K_PASS, 0, 0, 0)
            return
        if not (0 < kind <= K_FOUR_JOKERS and state_may_play(&self.s, kind, key, once, twice)):  # kind -1: no reading
            raise ValueError(
                f"illegal action for seat {self.s.to_act}: {action!r} is not among its {self.legal().moves} legal moves"
                + (" (or a pass)" if self.s.last_kind != K_PASS else " (it leads and may not pass)")
            )
        self.apply(kind, key, once, twice)

    # -- counting --------------------------------------------------------------------------------------
    def perft(self, depth):
        """The number of sequences of ``depth`` legal actions from this position (see
        :func:`guandan_fast.perft`), without the GIL."""
        cdef int d = _small(depth, "depth", 0, MAX_ACTIONS)
        cdef PlayState s
        cdef MoveBuffer* buffers
        cdef int k, made = 0, code = 0
        cdef uint64_t count = 0
        if self.phase < PHASE_PLAY:
            raise ValueError(f"perft counts the actions of the play phase, and the deal is in its "
                             f"{PHASES[self.phase]} phase")
        s = self.s
        buffers = _alloc_buffers(d if d > 0 else 1)
        if buffers == NULL:
            raise MemoryError("out of memory counting perft")
        try:
            with nogil:
                code = state_perft(&s, d, buffers, &count)
        finally:
            _free_buffers(buffers, d if d > 0 else 1)
        if code != 0:
            raise MemoryError("out of memory counting perft")
        return count


cdef MoveBuffer* _alloc_buffers(int n) noexcept:
    """``n`` initialised move buffers (NULL when out of memory)."""
    cdef MoveBuffer* buffers = <MoveBuffer*>calloc(n, sizeof(MoveBuffer))
    cdef int k
    if buffers == NULL:
        return NULL
    for k in range(n):
        if movebuf_init(&buffers[k], 256) != 0:
            _free_buffers(buffers, n)
            return NULL
    return buffers


cdef void _free_buffers(MoveBuffer* buffers, int n) noexcept:
    cdef int k
    for k in range(n):
        movebuf_free(&buffers[k])
    free(buffers)
