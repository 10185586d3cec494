# Included by _movegen.pyx (one module: the kernels inline across these files).
# The Python face, 1/4: reading and checking the arguments of the entry points.

cdef int _hand_args(Args* a, object once, object twice, object level) except -1:
    """Convert (once, twice, level) into ``a``, the move part set to the pass."""
    a.once = as_plane(once, "once")
    a.twice = as_plane(twice, "twice")
    a.level = as_small(level, "level")
    a.kind = K_PASS
    a.key = 0
    a.size = 0
    return 0


cdef int _last_args(Args* a, object last_kind, object last_key, object last_size) except -1:
    """Convert the move to beat into ``a`` and check all of ``a`` (ValueError names the fault)."""
    a.kind = as_small(last_kind, "last_kind")
    a.key = as_small(last_key, "last_key")
    a.size = as_small(last_size, "last_size")
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
