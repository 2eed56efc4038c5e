# cython: language_level=3
"""The slow path of the link tests' budget check (see run.pxd, ``link_test_allowed``).

It is compiled here, out of line, so that the inline fast path (one decrement) is all a link
test carries: with the clock and signal code inlined, ``link_cells`` grew too big to be inlined
into the searches' hot loops, which then ran about 11% more instructions (callgrind,
docs/architecture.md, "Budgets").
"""


cdef bint budget_look(Budget *b) noexcept nogil:
    """Look at the budget now: False when the run is cut short, else read the clock (and the
    signals when due) and give the link tests CHECK_EVERY more credits."""
    if cut_short(b):
        b.credit = 0
        return False
    b.credit = CHECK_EVERY
    return not out_of_time(b)
