# cython: language_level=3
"""What every strategy run carries (inline helpers): its board, rules and budgets, and the
removals it made. See docs/architecture.md ("Budgets").

``nodes`` counts positions examined (each strategy says what a node is). A node or time budget
that runs out, another thread's cancel flag, or a Python signal handler that raises (Ctrl-C in
the main thread) ends the run with a status saying so, never with a guess. The clock and the
flag are read at every node, and every ``CHECK_EVERY`` cheap steps (before every path search)
inside loops that can run long between nodes. Signals are looked at every ``SIGNAL_MS``
milliseconds (the GIL is taken only then), so short calls never touch the GIL.

Once a run has stopped for time, a cancel or a signal, every link test made under its budget
answers "no" at once (link.pxd), so the loops of a search end quickly; the entry point then
reports the budget's status, never a verdict a cut-short link test could have bent (solve.pyx).
"""
cimport numpy as cnp
from cpython.exc cimport PyErr_Fetch, PyErr_Restore
from cpython.ref cimport PyObject, Py_XDECREF
from libc.stdint cimport int32_t, int64_t

from .budget cimport Budget
from .gravity cimport take_pair
from .grid cimport Grid, llk_load_flag, llk_now
from .path cimport PathWork

# Run statuses (solve.pyx names them for the facade).
cdef enum:
    ST_DEAD = 0        # proved unsolvable (exact only, or odd counts)
    ST_SOLVED = 1      # cleared; the recorded removals are the certificate
    ST_NODES = 2       # node budget spent
    ST_TIME = 3        # time budget spent
    ST_STUCK = 4       # a heuristic found no move it may play (it never says "unsolvable")
    ST_MEMORY = 5      # an allocation failed
    ST_ODD = 6         # some type has an odd number of tiles: unsolvable at once
    ST_CANCELLED = 7   # another thread asked the run to stop (Solver.cancel)
    ST_INTERRUPTED = 8 # a Python signal handler raised (Ctrl-C): the caller re-raises it
    OPEN = 10          # internal: a search node with children to try

# Test switches of solve_state's ``options``, one bit each (the tests switch each pruning off on
# its own and check the verdicts agree; solve.pyx names them in TEST_OPTIONS); bits 16..19, when
# not 0, fix the pairing search's branching rule (pairing.pyx, CHOICE_*).
cdef enum:
    OPT_NO_CBJ = 1         # pairing search: no conflict-directed backjumping
    OPT_NO_PEEL = 2        # pairing search: no relaxed peeling
    OPT_NO_PROBE = 4       # pairing search: no probing of the pairings
    OPT_PROBE_FIRST = 16   # both searches: probing from the first round on (else the second)
    OPT_NO_QUICK = 8       # "exact": no root look and greedy tries before the search
    OPT_NO_SAFE = 32       # gravity search: no safe clearing
    OPT_NO_SLEEP = 64      # gravity search: no sleep sets
    OPT_NO_DEAD = 128      # gravity search: no dead test at the root
    OPT_NO_REPLAY = 256    # both searches: every peeling from scratch (no replayed orders)
    OPT_NO_GPROBE = 512    # gravity search: no probing of pairings at the root
    OPT_NO_PROBE_ORDER = 1024  # pairing search: probing in type order, pairings 0..2, no skips
    OPT_NO_DEAD_BELOW = 2048   # gravity search: no dead test below the root (on demand)
    OPT_NO_HUNT = 4096         # gravity search: no certificate hunt between rounds
    OPT_HUNT_ONLY = 8192       # gravity search: the certificate hunt alone, from the root
    OPT_NO_KEPT_MOVES = 16384  # gravity search: every position's moves listed from scratch

# Cheap steps (link tests up to two turns, tiles looked at) between two looks at the clock.
cdef enum:
    CHECK_EVERY = 256

# Milliseconds between two looks for Python signals (the GIL is taken for each).
cdef enum:
    SIGNAL_MS = 20

cdef extern from "Python.h":
    # Runs the Python handlers of pending signals (main thread only); -1 when one raised.
    # Declared here without an exception spec: the caller keeps the exception itself.
    int PyErr_CheckSignals() nogil


cdef struct Ctx:
    Budget b
    Grid *g
    PathWork *w
    int max_turns
    int gravity
    int32_t *out            # removals made, 2 padded cells each
    int nout
    int32_t *gbuf           # gravity moves of one removal (scratch, slide_room ints)
    int64_t dead_tests      # the gravity search's dead tests, and their link tests (for tests:
    int64_t dead_links      # solve_state's ``stats``)


# True on the thread that runs Python's signal handlers (run.pyx): the only thread for which a
# look at the signals is worth taking the GIL.
cdef bint on_main_thread() noexcept nogil


cdef inline const int *cancel_flag(cnp.ndarray cancel):
    """The cancel flag of a facade's int32 array (its first item), or NULL for None."""
    return NULL if cancel is None else <const int *>cnp.PyArray_DATA(cancel)


cdef inline void budget_start(Budget *b, double time_limit, const int *cancel) noexcept nogil:
    """A fresh budget: no node limit, ``time_limit`` seconds (< 0: none), the cancel flag
    (may be NULL), and, on the main thread, signals looked at (the facade's calls all want
    Ctrl-C to work). Python runs signal handlers on the main thread only, so another thread
    never takes the GIL inside a kernel: a daemon thread still in one when the interpreter
    exits must not ask for a GIL that no longer exists (docs/architecture.md, "Budgets")."""
    cdef double now = llk_now()
    b.cancel = cancel
    b.nodes = 0
    b.node_limit = -1
    b.deadline = now + time_limit if time_limit >= 0 else -1.0
    b.stop = 0
    b.ticks = 0
    b.credit = CHECK_EVERY
    b.signals = on_main_thread()
    b.next_signals = now + SIGNAL_MS * 0.001
    b.exc_type = NULL
    b.exc_value = NULL
    b.exc_tb = NULL


cdef inline bint signal_raised(Budget *b) noexcept nogil:
    """Run pending Python signal handlers (takes the GIL); True when one raised, its exception
    then kept in ``b`` for ``budget_raise``."""
    cdef PyObject *t = NULL
    cdef PyObject *v = NULL
    cdef PyObject *tb = NULL
    with gil:
        if PyErr_CheckSignals() < 0:
            PyErr_Fetch(&t, &v, &tb)
            if b.exc_type == NULL:
                b.exc_type = <void *>t
                b.exc_value = <void *>v
                b.exc_tb = <void *>tb
            else:                           # keep the first; drop this one
                Py_XDECREF(t)
                Py_XDECREF(v)
                Py_XDECREF(tb)
            return True
    return False


cdef inline int budget_raise(Budget *b) except -1:
    """With the GIL, after a run: raise the exception a signal handler raised during it, if
    any (KeyboardInterrupt for Ctrl-C)."""
    if b.exc_type == NULL:
        return 0
    PyErr_Restore(<PyObject *>b.exc_type, <PyObject *>b.exc_value, <PyObject *>b.exc_tb)
    b.exc_type = NULL
    b.exc_value = NULL
    b.exc_tb = NULL
    return -1


cdef inline bint out_of_time(Budget *b) noexcept nogil:
    """Read the cancel flag and the clock (and look for signals when due); True (b.stop set)
    when the run must end."""
    cdef double now
    if b.cancel != NULL and llk_load_flag(b.cancel):
        b.stop = ST_CANCELLED
        return True
    if b.deadline < 0 and not b.signals:
        return False
    now = llk_now()
    if b.deadline >= 0 and now > b.deadline:
        b.stop = ST_TIME
        return True
    if b.signals and now >= b.next_signals:
        b.next_signals = now + SIGNAL_MS * 0.001
        if signal_raised(b):
            b.stop = ST_INTERRUPTED
            return True
    return False


cdef inline bint spend(Budget *b) noexcept nogil:
    """Count one node; False (b.stop set) when a budget is spent or the run was cancelled."""
    if b.stop:
        return False
    if b.cancel != NULL and llk_load_flag(b.cancel):
        b.stop = ST_CANCELLED
        return False
    if b.node_limit >= 0 and b.nodes >= b.node_limit:
        b.stop = ST_NODES
        return False
    b.ticks = 0
    if out_of_time(b):
        return False
    b.nodes += 1
    return True


cdef inline void round_limit(Budget *b, int64_t user_limit, int64_t budget) noexcept nogil:
    """The node limit of a restart round: ``budget`` more nodes, never past the caller's own
    limit (``user_limit``, < 0 for none). Both exact searches run in such rounds."""
    if user_limit < 0 or b.nodes + budget < user_limit:
        b.node_limit = b.nodes + budget
    else:
        b.node_limit = user_limit


cdef inline bint still_time(Budget *b) noexcept nogil:
    """For loops between nodes, once per cheap step: True while the run may go on (the clock is
    read every CHECK_EVERY calls). ``b`` may be NULL: no budget."""
    if b == NULL:
        return True
    if b.stop:
        return False
    b.ticks += 1
    if b.ticks >= CHECK_EVERY:
        b.ticks = 0
        if out_of_time(b):
            return False
    return True


cdef inline bint still_time_now(Budget *b) noexcept nogil:
    """``still_time`` before an expensive step (a path search, a flood): the clock is read now.
    ``b`` may be NULL."""
    if b == NULL:
        return True
    if b.stop:
        return False
    b.ticks = 0
    return not out_of_time(b)


cdef inline bint cut_short(const Budget *b) noexcept nogil:
    """The run stopped for time, a cancel or a signal: what it would still compute is void."""
    return b.stop == ST_TIME or b.stop == ST_CANCELLED or b.stop == ST_INTERRUPTED


# The slow path of link_test_allowed (run.pyx): out of line, so that ``link_cells`` stays small
# enough for the compiler to inline into the searches' loops.
cdef bint budget_look(Budget *b) noexcept nogil


cdef inline bint link_test_allowed(Budget *b, bint expensive) noexcept nogil:
    """Before a link test made under a run's budget (link.pxd): False once the run is cut
    short. A cheap test only spends a credit (the hot path of the searches: one decrement); every
    CHECK_EVERY of them, and before every expensive one (a path search), the budget is looked at
    (``budget_look``, out of line). A run cut short elsewhere is seen within CHECK_EVERY tests."""
    if not expensive:
        b.credit -= 1
        if b.credit > 0:
            return True
    return budget_look(b)


cdef inline void record(Ctx *c, int a, int b) noexcept nogil:
    if a < b:
        c.out[2 * c.nout] = a
        c.out[2 * c.nout + 1] = b
    else:
        c.out[2 * c.nout] = b
        c.out[2 * c.nout + 1] = a
    c.nout += 1


cdef inline void play(Ctx *c, int a, int b) noexcept nogil:
    """Record and make a removal (gravity applied)."""
    record(c, a, b)
    take_pair(c.g, a, b, c.gravity, c.gbuf)


cdef inline bint pair_less(int a, int b, int best_a, int best_b) noexcept nogil:
    """(a, b) < (best_a, best_b): padded order is row-major order, as in llkref's sorted lists."""
    return a < best_a or (a == best_a and b < best_b)
