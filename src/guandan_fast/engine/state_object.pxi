# The Python face of the play state (included by state.pyx): State, the object a Deal holds,
# the lists of legal actions it hands out, and the checks of positions built from Python.
# No kernel lives here (scripts/check_annotation.py checks those of state.pyx).

cimport cython
from cpython cimport array as cparray
from cpython.object cimport Py_SIZE
from libc.string cimport memcpy

import numpy as np
cimport numpy as cnp

from guandan_fast.engine._movegen cimport K_FOUR_JOKERS, as_in_range, as_integer
from guandan_fast.engine.movelist cimport list_of_rows
from guandan_fast.engine.moves cimport Move

cnp.import_array()

from guandan_fast.engine import _movegen
from guandan_fast.engine.cards import CARD_NAMES, level_char
from guandan_fast.engine.hand import new_hand
from guandan_fast.engine.moves import PASS, MoveType

_MOVE_TYPES = tuple(MoveType)
cdef cparray.array _LOG_TYPE = cparray.array("Q")  # the type of every play log (cparray.clone's template)

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


cdef uint64_t _plane(object value, str what) except? 0xFFFFFFFFFFFFFFFF:
    number = as_integer(value, what)
    if not 0 <= number <= FULL_PLANE:
        raise ValueError(f"{what} must be a hand plane (bits 0..53, one per card), not {number}")
    return <uint64_t>number


cdef uint64_t _hand_plane(object value, int seat, str which) except? 0xFFFFFFFFFFFFFFFF:
    """A plane of hand ``seat`` (its name made only for an error)."""
    if type(value) is int and 0 <= value <= FULL_PLANE:
        return <uint64_t>value
    return _plane(value, f"the {which} plane of hand {seat}")


cdef list _seats(object value, str what):
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{what} must be a sequence of seats, not {type(value).__name__}")
    return [as_in_range(seat, f"a seat of {what}", 0, 3) for seat in value]


cdef void _table(const uint64_t* planes, uint64_t* one, uint64_t* two, uint64_t* over) noexcept:
    """The cards of four hands (``planes``: once, twice per seat) as a multiset: ``one`` the
    cards held at least once, ``two`` at least twice, ``over`` more often."""
    cdef int k
    one[0] = two[0] = over[0] = 0
    for k in range(8):
        over[0] |= two[0] & planes[k]
        two[0] |= one[0] & planes[k]
        one[0] |= planes[k]


cdef str _card_name(uint64_t bits):
    cdef int card = 0
    while card < 63 and not (bits >> card) & 1:
        card += 1
    return CARD_NAMES[card] if card < 54 else f"bit {card}"


# -- the legal actions of one state ------------------------------------------------------------------
@cython.auto_pickle(False)
cdef class MoveRows:
    """The legal actions of one state, made once and shared by the State's copies."""

    def __dealloc__(self):
        movebuf_free(&self.buf)


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
        self.log = cparray.clone(_LOG_TYPE, 0, False)
        self.rows = None
        self.arrays = None
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
        state_clear(s, as_in_range(level, "level", 2, 14))
        for seat in range(4):
            pair = hands[seat]
            if isinstance(pair, (str, bytes)) or not hasattr(pair, "__len__") or len(pair) != 2:
                raise ValueError(f"hand {seat} must be a pair of planes (once, twice)")
            s.once[seat] = _hand_plane(pair[0], seat, "once")
            s.twice[seat] = _hand_plane(pair[1], seat, "twice")
        s.to_act = as_in_range(to_act, "to_act", 0, 3)
        order = _seats(finished, "finished")
        if len(order) > 2 or len(set(order)) != len(order):
            raise ValueError(f"bad finishing order {order}: at most two distinct seats can be out mid-deal")
        s.nfinish = len(order)
        for k in range(s.nfinish):
            s.finish[k] = order[k]
        s.last_seat = as_in_range(last_seat, "last_seat", -1, 3)
        s.passes = as_in_range(passes, "passes", 0, 3)
        if last is not None:
            if isinstance(last, (str, bytes)) or not hasattr(last, "__len__") or len(last) != 4:
                raise ValueError("last must be the move to beat as (kind, key, once, twice), or None")
            s.last_kind = as_in_range(last[0], "the kind of the move to beat", 0, K_FOUR_JOKERS)
            s.last_key = as_in_range(last[1], "the key of the move to beat", 0, 255)
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
        other.arrays = self.arrays
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
        self.arrays = None
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
        """Replace the four hands (four Hands) of a copy: each seat must keep its number of
        cards and the four hands together the cards they hold now (ValueError, nothing
        changed, otherwise)."""
        cdef PlayState before = self.s
        cdef uint64_t old_one, old_two, old_over, one, two, over
        cdef uint64_t planes[8]
        cdef int seat
        if len(hands) != 4:
            raise ValueError("a position has four hands")
        for seat in range(4):
            hand = hands[seat]
            planes[2 * seat] = _hand_plane(hand.once, seat, "once")
            planes[2 * seat + 1] = _hand_plane(hand.twice, seat, "twice")
            if planes[2 * seat + 1] & ~planes[2 * seat]:
                raise ValueError(f"bad hand planes for seat {seat}: a card marked 'twice' must also be marked 'once'")
            if hand_size(planes[2 * seat], planes[2 * seat + 1]) != hand_size(self.s.once[seat], self.s.twice[seat]):
                raise ValueError(f"hand of seat {seat} has {hand_size(planes[2 * seat], planes[2 * seat + 1])} "
                                 f"cards, the deal gives it {hand_size(self.s.once[seat], self.s.twice[seat])}")
        _table(planes, &one, &two, &over)
        for seat in range(4):
            self.s.once[seat] = planes[2 * seat]
            self.s.twice[seat] = planes[2 * seat + 1]
        for seat in range(4):
            planes[2 * seat] = before.once[seat]
            planes[2 * seat + 1] = before.twice[seat]
        _table(planes, &old_one, &old_two, &old_over)
        if over or one != old_one or two != old_two or (self.phase >= PHASE_PLAY and state_check(&self.s) != 0):
            self.s = before
            raise ValueError("the new hands must hold together exactly the cards the four hands hold now")
        self.hands = tuple(hands)
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
        """The cards each seat has played, as read-only ``uint64[4, 2]`` planes (over an
        immutable bytes object, so that numpy cannot make them writable: the array is kept
        and handed out again until the next play)."""
        cdef uint64_t data[8]
        cdef int k
        if self.played_array is None:
            for k in range(4):
                data[2 * k] = self.s.played_once[k]
                data[2 * k + 1] = self.s.played_twice[k]
            self.played_array = np.frombuffer((<char*>data)[:sizeof(data)], dtype=np.uint64).reshape(4, 2)
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

    def move_list(self):
        """The moves of the seat to act (the pass aside) as a :class:`MoveList`, kept until the
        next action (hand it out by its ``_shared()`` twin: read-only, no copy)."""
        cdef MoveRows rows
        if self.arrays is None:
            rows = self.legal()
            self.arrays = list_of_rows(rows.buf.kinds + rows.first, rows.buf.keys + rows.first,
                                       rows.buf.cards + 2 * rows.first, rows.moves, self.s.level)
        return self.arrays

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
        self.arrays = None
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

    def step_move(self, Move move not None):
        """Play ``move`` (a :class:`Move`, PASS included), checked against the hand and the
        move to beat: ValueError, the state unchanged, when it is illegal."""
        cdef Move m = move
        cdef int kind = m.code, key = m.key
        cdef uint64_t once = m.cards.once, twice = m.cards.twice
        if kind == K_PASS:
            self.play(K_PASS, 0, 0, 0, move)
            return
        if self.phase != PHASE_PLAY:
            raise ValueError(f"there are no moves to play in the {PHASES[self.phase]} phase")
        if m.level != self.s.level:
            raise ValueError(f"the move {move!r} is made at level {level_char(m.level)}, "
                             f"the deal is played at {level_char(self.s.level)}")
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
        if not state_may_play(&self.s, kind, key, once, twice):  # kind -1: no reading
            raise ValueError(
                f"illegal action for seat {self.s.to_act}: {action!r} is not among its {self.legal().moves} legal moves"
                + (" (or a pass)" if self.s.last_kind != K_PASS else " (it leads and may not pass)")
            )
        self.apply(kind, key, once, twice)

    # -- counting --------------------------------------------------------------------------------------
    def perft(self, depth):
        """The number of sequences of ``depth`` legal actions from this position (see
        :func:`guandan_fast.perft`), without the GIL."""
        cdef int d = as_in_range(depth, "depth", 0, MAX_ACTIONS)
        if self.phase < PHASE_PLAY:
            raise ValueError(f"perft counts the actions of the play phase, and the deal is in its "
                             f"{PHASES[self.phase]} phase")
        return _perft_count(self.s, d)
