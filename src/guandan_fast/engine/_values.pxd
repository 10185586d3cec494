# C-level makers of Hand and Move (see _values.pyx), for other Cython modules; the classes
# must have been bound (guandan_fast.engine.hand and guandan_fast.engine.moves bind them at import).
from libc.stdint cimport uint64_t

cdef object make_hand(object once, object twice)
cdef object make_move(object kind, object key, object cards, object level, object table_args)
cdef object make_move_of(int kind, int key, uint64_t once, uint64_t twice, object level, int size)
