# The MoveList value at C level (see movelist.pyx): a Moves (see _movegen.pxd) whose rows are
# legal readings at ``level``. Move i is kinds_at[i], keys_at[i], cards_at[2*i], cards_at[2*i+1]
# for i < n (read them only while holding the list: setting an array on it renews its memory).
cimport numpy as cnp
from libc.stdint cimport uint8_t, uint64_t

from guandan_fast.engine._movegen cimport Moves

cdef class MoveList(Moves):
    cdef readonly int level
    cdef int _take_checked(self, kinds, keys, cards, int level) except -1
    cdef int _copy(self, cnp.ndarray kinds, cnp.ndarray keys, cnp.ndarray cards) except -1
    cdef object _move(self, Py_ssize_t i)
    cdef Py_ssize_t _index(self, object index) except -1

# A new MoveList of copies of n rows (kinds[i], keys[i], cards[2*i], cards[2*i+1]) at ``level``,
# trusted: the caller guarantees each row is a legal reading at that level (a generator's
# output) and the level is 2..14 (nothing is checked).
cdef MoveList list_of_rows(const uint8_t* kinds, const uint8_t* keys, const uint64_t* cards, Py_ssize_t n, int level)
