# The native playout policies' C face (see _policies.pyx), for the playout loop (_playout):
#
#     cdef Policy policy
#     if policy_init(&policy, POLICY_MINPLAYS) != 0: ...   # out of memory
#     i = policy_choose(&policy, &state, &moves, leading, &failed)   # -1: the pass
#     policy_free(&policy)
#
# A Policy belongs to one thread at a time; it remembers decompositions per level (a state
# of another level empties its memory).

from libc.stdint cimport uint8_t, uint64_t

from guandan_fast.engine._movegen cimport MoveBuffer
from guandan_fast.engine.state cimport PlayState
from guandan_fast.search._minplays cimport Solver

cdef enum:
    POLICY_RANDOM = 0           # uniformly random legal actions (drawn by the playout loop)
    POLICY_GREEDY = 1           # the greedy rules (a cheap rollout)
    POLICY_MINPLAYS = 2         # MinPlaysAgent's rules, on the exact min_plays solver
    POLICY_TACTICS = 3          # the same rules with their tactics (unbeatable plays first, a sure way out, an opponent close to going out)
    MEMO_PLAYS = 16             # decompositions of at most this many plays are remembered
    MEMO_BITS = 11              # 2048 slots, direct-mapped


cdef struct Plan:
    # One optimal decomposition of a hand (the "minplays" policy), valid while the seat's
    # planes match.
    uint64_t once
    uint64_t twice
    int valid
    int count
    uint8_t kinds[108]
    uint8_t keys[108]
    uint64_t cards[216]
    uint64_t kept_once          # the "tactics" policy's bombs' natural cards, which its plain
    uint64_t kept_twice         # follows keep (:func:`_keeps_bombs`); none for "minplays"


cdef struct Memo:
    # A remembered decomposition (count 0: an empty slot)
    uint64_t once
    uint64_t twice
    int count
    uint8_t kinds[MEMO_PLAYS]
    uint8_t keys[MEMO_PLAYS]
    uint64_t cards[2 * MEMO_PLAYS]


cdef struct Policy:
    int policy                  # POLICY_*
    int level                   # the level the plans and the memory below hold (0: none)
    int planning                # the solver, plans and memory are in use ("minplays" policy)
    Solver solver
    Plan plans[4]
    int ready                   # the solver is prepared for the hand (ready_once, ready_twice)
    uint64_t ready_once
    uint64_t ready_twice
    Memo* memo                  # the hands decomposed at this level
    int memo_used               # a slot of memo has been written


cdef int policy_init(Policy* p, int policy) noexcept nogil
    # 0, or -1 when out of memory (then nothing is held; policy_free is still safe).

cdef void policy_free(Policy* p) noexcept nogil

cdef Py_ssize_t policy_choose(Policy* p, const PlayState* s, MoveBuffer* moves, bint leading,
                              int* failed) noexcept nogil
    # The index of the move the policy (greedy or minplays) plays among ``moves`` (the
    # complete list of the seat to act of ``s``: leading, or the moves that beat), -1 for
    # the pass. ``failed[0]`` is set when the solver ran out of memory.
