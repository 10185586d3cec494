# Included by _solve.pyx (one module: the search inlines across these files).
# The clock, the stop flag and Python signals, polled every POLL_EVERY nodes and at every
# node of POLL_MOVES actions or more (a huge hand's nodes are slow).

cdef int _poll_signals() noexcept with gil:
    return _check_signals()


cdef bint _poll(SolveContext* c) noexcept nogil:
    """Whether the search must stop now (and why, in ``c.stopped``)."""
    cdef double now
    if c.max_nodes > 0 and c.nodes >= c.max_nodes:
        c.stopped = STOP_NODES
    elif c.stop != NULL and gf_read_flag(c.stop) != 0:
        c.stopped = STOP_FLAG
    elif c.deadline > 0 or c.check_signals:
        now = gf_now_ms()
        if c.deadline > 0 and now >= c.deadline:
            c.stopped = STOP_TIME
        elif c.check_signals and now >= c.next_signal_check:
            c.next_signal_check = now + SIGNAL_EVERY_MS
            if _poll_signals() != 0:
                c.stopped = STOP_SIGNAL
    return c.stopped != STOP_NONE
