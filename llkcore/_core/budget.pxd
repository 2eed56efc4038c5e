# cython: language_level=3
"""The budget of a run (a struct only; the checks on it are run.pxd's). It lives below path.pxd
so that a path search's work buffers can point at the budget of the run using them: link tests
inside loops that no budget check reaches (see link.pxd, ``link_cells``) still stop the run.
See docs/architecture.md ("Budgets") and docs/edges.md.
"""
from libc.stdint cimport int64_t


cdef struct Budget:
    const int *cancel       # another thread sets *cancel to stop the run (NULL: no flag)
    int64_t nodes
    int64_t node_limit      # -1: none
    double deadline         # < 0: none
    int stop                # why the run stopped early (ST_NODES / ST_TIME / ...), else 0
    int ticks               # cheap steps since the clock was last read (see run.pxd)
    int credit              # cheap link tests left before link.pxd looks at the budget again
    int signals             # look for Python signals (Ctrl-C) while running (run.pxd)
    double next_signals     # clock time of the next look
    void *exc_type          # the exception a signal handler raised (owned references),
    void *exc_value         # for the caller to raise (run.pxd ``budget_raise``)
    void *exc_tb

