# cython: language_level=3
"""The slow path of the link tests' budget check (see run.pxd, ``link_test_allowed``).

It is compiled here, out of line, so that the inline fast path (one decrement) is all a link
test carries: with the clock and signal code inlined, ``link_cells`` grew too big to be inlined
into the searches' hot loops, which then ran about 11% more instructions (callgrind,
docs/architecture.md, "Budgets").

It also knows which thread is Python's main thread, the one budgets look for signals on.
"""
import os
import threading

cdef extern from "pythread.h":
    unsigned long PyThread_get_thread_ident() nogil

# The ident of the thread that runs Python's signal handlers. A child process forked from
# another thread has that thread as its main thread, as Python's own bookkeeping says.
cdef unsigned long main_thread_ident = threading.main_thread().ident


def _note_main_thread() -> None:
    global main_thread_ident
    main_thread_ident = PyThread_get_thread_ident()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_note_main_thread)


cdef bint on_main_thread() noexcept nogil:
    return PyThread_get_thread_ident() == main_thread_ident


cdef bint budget_look(Budget *b) noexcept nogil:
    """Look at the budget now: False when the run is cut short, else read the clock (and the
    signals when due) and give the link tests CHECK_EVERY more credits."""
    if cut_short(b):
        b.credit = 0
        return False
    b.credit = CHECK_EVERY
    return not out_of_time(b)
