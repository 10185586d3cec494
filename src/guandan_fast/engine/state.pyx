# cython: boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False, freethreading_compatible=True
"""The play state of a deal in C and the rules of play (RULES.md §7), written once: the
public C API of ``state.pxd`` (see docs/c-api.md), and its Python face (``state_object.pxi``,
included at the end): :class:`State`, the object a :class:`~guandan_fast.engine.deal.Deal` holds.

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

from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from guandan_fast.engine._bitops cimport gf_hand_remove

from guandan_fast.engine._movegen cimport (
    FULL_PLANE,
    K_FOUR_JOKERS,
    K_PASS,
    NUM_KEYS,
    MoveBuffer,
    check_args,
    generate_append,
    movebuf_borrow,
    movebuf_free,
    movebuf_init,
)

__all__ = ["CAPI_VERSION", "LONGEST_DEAL", "PHASES", "STATE_ERRORS", "State"]

#: The version of the C API of ``state.pxd`` this module implements (see the .pxd).
CAPI_VERSION = GF_CAPI_VERSION

PHASES = ("tribute", "return", "play", "done")
#: The most actions a deal can take (108 plays, each followed by at most three passes).
LONGEST_DEAL = MAX_ACTIONS


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
    if kind < 0 or kind > K_FOUR_JOKERS or key < 0 or key >= NUM_KEYS:  # no reading: the tables index by both
        return False
    if once & ~s.once[seat] or twice & ~s.twice[seat]:
        return False
    return move_beats(kind, key, hand_size(once, twice), s.last_kind, s.last_key, s.last_size)


cdef void state_lead(PlayState* s, int seat) noexcept nogil:
    _end_trick(s)
    s.to_act = seat


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
    if s.once[last_seat]:
        state_lead(s, last_seat)
    else:  # 接风: the partner of the player who went out leads. It always holds cards: had it
        # been out already, ``last_seat`` going out would have ended the deal (1-2, or three
        # out), and state_check refuses states of a deal that is over, so there is no other branch.
        state_lead(s, last_seat ^ 2)


cdef void state_play(PlayState* s, int kind, int key, uint64_t once, uint64_t twice) noexcept nogil:
    cdef int seat = s.to_act & 3
    cdef uint64_t had = s.played_once[seat]
    s.trick[seat] = s.actions
    s.actions += 1
    if kind == K_PASS:
        _pass(s, seat)
        return
    gf_hand_remove(&s.once[seat], &s.twice[seat], once, twice)
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


# -- helpers of the Python face (state_object.pxi) -----------------------------------------------------
cdef MoveBuffer* _alloc_buffers(int n) noexcept nogil:
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


cdef void _free_buffers(MoveBuffer* buffers, int n) noexcept nogil:
    cdef int k
    for k in range(n):
        movebuf_free(&buffers[k])
    free(buffers)


cdef uint64_t _perft_count(PlayState s, int depth) except? 0xFFFFFFFFFFFFFFFF:
    """state_perft of a copy of ``s``, without the GIL; MemoryError when out of memory."""
    cdef MoveBuffer* buffers
    cdef uint64_t count = 0
    cdef int code = -1, room = depth if depth > 0 else 1
    with nogil:
        buffers = _alloc_buffers(room)
        if buffers != NULL:
            code = state_perft(&s, depth, buffers, &count)
            _free_buffers(buffers, room)
    if code != 0:
        raise MemoryError("out of memory counting perft")
    return count


cdef enum:
    ROWS_ROOM = 1024    # actions listed on the stack before a list moves to the heap


cdef MoveRows _rows_of(const PlayState* s):
    """The legal actions of ``s`` (state_actions), in memory of their own: written into a
    buffer on the stack (one that grows onto the heap for a longer list) and kept in one
    block of exactly their size, so that listing them touches no fresh heap pages."""
    cdef uint8_t kinds[ROWS_ROOM]
    cdef uint8_t keys[ROWS_ROOM]
    cdef uint64_t cards[2 * ROWS_ROOM]
    cdef MoveBuffer scratch
    cdef MoveRows rows = MoveRows.__new__(MoveRows)
    cdef Py_ssize_t n
    cdef uint8_t* block
    movebuf_borrow(&scratch, kinds, keys, cards, ROWS_ROOM)
    n = state_actions(s, &scratch)  # (a single list: not worth releasing the GIL)
    if n < 0:
        movebuf_free(&scratch)
        raise MemoryError("out of memory listing the legal actions")
    if scratch.borrowed:  # still on the stack: one block of n rows (cards, then kinds, then keys)
        block = <uint8_t*>malloc(<size_t>(n if n > 0 else 1) * 18)
        if block == NULL:
            raise MemoryError("out of memory listing the legal actions")
        memcpy(block, cards, <size_t>n * 16)
        memcpy(block + 16 * n, kinds, <size_t>n)
        memcpy(block + 17 * n, keys, <size_t>n)
        movebuf_borrow(&rows.buf, block + 16 * n, block + 17 * n, <uint64_t*>block, n if n > 0 else 1)
        rows.buf.borrowed = 0
        rows.buf.block = block  # movebuf_free frees it
        rows.buf.n = n
    else:  # it grew onto the heap: keep those arrays
        rows.buf = scratch
    rows.first = 1 if (not s.done and s.last_kind != K_PASS) else 0
    rows.moves = n - rows.first
    return rows


# -- the Python face: State, the object a Deal holds -----------------------------------------------
include "state_object.pxi"
