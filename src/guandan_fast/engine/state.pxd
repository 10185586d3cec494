# The play state of a deal in C, and its rules: guandan_fast's public C API (see docs/c-api.md).
#
# A Cython extension cimports it (build with ``include_dirs=[guandan_fast.get_include(),
# numpy.get_include()]``):
#
#     from guandan_fast.engine.state cimport PlayState, PlayUndo, state_from_deal, state_actions, ...
#
#     cdef PlayState s
#     state_from_deal(deal, &s)                  # a copy of a play-phase Deal's state (GIL held)
#     with nogil:
#         n = state_actions(&s, &buf)            # the legal actions, Deal.legal_actions() order
#         state_make(&s, buf.kinds[i], buf.keys[i], buf.cards[2 * i], buf.cards[2 * i + 1], &undo)
#         ...
#         state_unmake(&s, &undo)
#
# Cards, hands, kinds and keys are those of ``guandan_fast.engine._movegen`` (see its .pxd):
# a hand is two 54-bit planes (``once``: at least one copy of card i, ``twice``: both), a
# move is (kind, key, once, twice) with kind 0 the pass. Seats are 0..3, partners sit
# opposite (s ^ 2), play passes to (s + 1) & 3, skipping the seats that are out.
#
# Every function below is ``noexcept nogil`` unless it takes a Python object, and assumes a
# state that ``state_check`` accepts (every state a Deal or these functions make is one);
# a PlayState belongs to one thread at a time. They never allocate, except into a
# caller's MoveBuffer (which grows; its failure is reported as -1).
#
# Versioning: GF_CAPI_VERSION is the version of this file (the struct layouts, the
# functions and what they mean). It changes whenever a change could break an extension
# built against an earlier version (a field moved or added, a signature or a meaning
# changed); an extension compares it at import with ``guandan_fast.engine.state.CAPI_VERSION``
# (the version of the installed package) and must be rebuilt when they differ.

from libc.stdint cimport uint64_t
from cpython cimport array as cparray

from guandan_fast.engine._bitops cimport gf_popcount64
from guandan_fast.engine._movegen cimport MoveBuffer, bomb_tier, move_beats  # (move_beats: part of this API too)

cdef enum:
    GF_CAPI_VERSION = 1
    # the most actions a deal takes: 108 plays, each followed by at most three passes
    MAX_ACTIONS = 432


cdef struct PlayState:
    uint64_t once[4]            # each seat's hand: the cards held at least once ...
    uint64_t twice[4]           # ... and twice (a subset of once)
    uint64_t played_once[4]     # the cards each seat has played in this deal, as a hand
    uint64_t played_twice[4]
    uint64_t last_once          # the move to beat's cards (0 when the seat to act leads)
    uint64_t last_twice
    int level                   # 2..14
    int to_act                  # the seat to act; -1 once the deal is done
    int last_kind               # the move to beat: kind (0, the pass, when the seat leads),
    int last_key                # key and number of cards
    int last_size
    int last_seat               # the seat that made it; -1 when the seat to act leads
    int passes                  # passes since the move to beat
    int finish[4]               # the seats out, in order (-1 past nfinish); all four once done
    int nfinish
    int done                    # 1 once the deal has ended (a 1-2 finish or three seats out)
    int trick[4]                # per seat, the number of its action in the current trick (-1: none)
    int actions                 # actions taken so far (plays and passes)


cdef struct PlayUndo:
    # What state_make changed, for state_unmake.
    uint64_t once               # the acting seat's hand before
    uint64_t twice
    uint64_t played_once        # its played cards before
    uint64_t played_twice
    uint64_t last_once
    uint64_t last_twice
    int seat                    # the acting seat
    int last_kind
    int last_key
    int last_size
    int last_seat
    int passes
    int nfinish
    int done
    int trick[4]


cdef inline int hand_size(uint64_t once, uint64_t twice) noexcept nogil:
    """The number of cards of a hand (or a move) given as planes."""
    return gf_popcount64(once) + gf_popcount64(twice)


# -- the rules of play (RULES.md §7), written once -----------------------------------------------
cdef void state_clear(PlayState* s, int level) noexcept nogil
    # Empty hands at ``level``, nobody out, nothing played, seat 0 to act leading. A caller
    # then sets the hands (and to_act, and finish/nfinish for seats already out).

cdef int state_check(const PlayState* s) noexcept nogil
    # 0 when ``s`` is a state a deal can be in (so every function here may take it), else a
    # nonzero code (see STATE_ERRORS in state.pyx for their meanings).

cdef int state_next_active(const PlayState* s, int seat) noexcept nogil
    # The next seat after ``seat`` in turn order that holds cards (``seat`` if none does).

cdef bint state_may_play(const PlayState* s, int kind, int key, uint64_t once, uint64_t twice) noexcept nogil
    # Whether the seat to act may play the move (kind, key, once, twice), a valid reading of
    # its cards (kind 0: may it pass): it holds the cards and they beat the move to beat.
    # A kind or key out of range (no reading) is never playable.

cdef void state_play(PlayState* s, int kind, int key, uint64_t once, uint64_t twice) noexcept nogil
    # The seat to act takes a legal action (kind 0: a pass): the hands, the trick, who acts
    # next (skipping seats out; 接风 when a seat goes out with an unbeaten play), the seats out
    # and the end of the deal (a 1-2 finish, the two losers listed in turn order after the
    # second finisher; or three seats out).

cdef void state_lead(PlayState* s, int seat) noexcept nogil
    # End the trick: no move to beat, and ``seat`` (which holds cards) leads the next. What
    # state_play does once everyone else passed (the last player, or its partner: 接风); a
    # search also asks it of a position it imagines (the solver: "and then my partner leads").

cdef inline int state_points(const PlayState* s, int team) noexcept nogil:
    """The level points a deal that is done gives ``team`` (0: seats 0 and 2, 1: seats 1
    and 3; RULES.md §8): +3, +2 or +1 when one of its players went out first and the
    partner second, third or last; minus as much when the other team's did."""
    cdef int first = s.finish[0] & 3, partner = first ^ 2
    cdef int up = 3 if s.finish[1] == partner else (2 if s.finish[2] == partner else 1)
    return up if (first & 1) == team else -up

cdef void state_make(PlayState* s, int kind, int key, uint64_t once, uint64_t twice, PlayUndo* undo) noexcept nogil
    # state_play, recording in ``undo`` what state_unmake needs.

cdef void state_unmake(PlayState* s, const PlayUndo* undo) noexcept nogil
    # Take back the action state_make recorded (the last one made on ``s``).

cdef Py_ssize_t state_actions(const PlayState* s, MoveBuffer* out) noexcept nogil
    # Clear ``out`` and write the legal actions of the seat to act in Deal.legal_actions()
    # order: when following, the pass first (row 0: kind 0, key 0, no cards), then the
    # complete move list of the generator. Returns their number (0 once the deal is done),
    # or -1 when the buffer could not grow.

cdef int state_perft(PlayState* s, int depth, MoveBuffer* buffers, uint64_t* count) noexcept nogil
    # count[0] := the number of sequences of ``depth`` legal actions from ``s`` (a deal that
    # ends earlier contributes none; depth 0 counts 1), the actions at the last ply counted
    # without being made. ``buffers``: ``depth`` move buffers (initialised). 0, or -1 when a
    # buffer could not grow. ``s`` is unchanged on return.


# -- from Python ----------------------------------------------------------------------------------
cdef int state_from_deal(object deal, PlayState* out) except -1
    # A copy of the play state of ``deal`` (a guandan_fast Deal, or its State) into ``out``:
    # TypeError for anything else, ValueError before the play phase.


cdef class MoveRows:
    # The legal actions of one state (state_actions), shared by the copies of a State until
    # it changes (it holds no Python object: the arrays that view it live in the State).
    cdef MoveBuffer buf
    cdef Py_ssize_t moves        # rows of the move list (after the pass row when following)
    cdef Py_ssize_t first        # 1 when row 0 is the pass, else 0


cdef class State:
    # A deal's position for Python: the PlayState, the phase (before play: the hands only),
    # and the deal's play log (three uint64 words an action: ``seat | kind << 2 | key << 6``,
    # ``once``, ``twice``; a pass is ``seat, 0, 0``). Deal holds one.
    cdef PlayState s
    cdef int phase               # PHASE_TRIBUTE, PHASE_RETURN, PHASE_PLAY or PHASE_DONE
    cdef cparray.array log
    cdef MoveRows rows           # the seat to act's legal actions (None until asked)
    cdef object arrays           # their moves as a MoveList (None until asked)
    cdef object hands            # the four Hands (None until asked)
    cdef object last_move        # the move to beat as a Move (None until asked)
    cdef public object actions   # the deal's cache of its legal actions as platform triples
    cdef object played_array     # the played planes as a read-only array (None until asked)
    cdef int check(self) except -1
    cpdef State copy(self)
    cdef void changed(self) noexcept
    cdef MoveRows legal(self)
    cdef int apply(self, int kind, int key, uint64_t once, uint64_t twice) except -1


cdef enum:
    PHASE_TRIBUTE = 0
    PHASE_RETURN = 1
    PHASE_PLAY = 2
    PHASE_DONE = 3
