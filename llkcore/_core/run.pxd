# cython: language_level=3
"""What every strategy run carries (inline helpers): its board, rules and budgets, and the
removals it made. See docs/architecture.md ("Budgets").

``nodes`` counts positions examined (each strategy says what a node is). A node or time budget
that runs out, or another thread's cancel flag, ends the run with a status saying so, never with
a guess. The clock and the flag are read at every node, and every ``CHECK_EVERY`` link tests
inside loops that can run long between nodes (listing the moves of a big position).
"""
from libc.stdint cimport int32_t, int64_t

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
    OPEN = 10          # internal: a search node with children to try

# Link tests between two looks at the clock inside a long loop.
cdef enum:
    CHECK_EVERY = 1024


cdef struct Budget:
    const int *cancel       # another thread sets *cancel to stop the run (NULL: no flag)
    int64_t nodes
    int64_t node_limit      # -1: none
    double deadline         # < 0: none
    int stop                # why the run stopped early (ST_NODES / ST_TIME / ...), else 0
    int ticks               # link tests since the clock was last read (see ``still_time``)


cdef struct Ctx:
    Budget b
    Grid *g
    PathWork *w
    int max_turns
    int gravity
    int32_t *out            # removals made, 2 padded cells each
    int nout
    int32_t *gbuf           # gravity moves of one removal (scratch, slide_room ints)


cdef inline bint out_of_time(Budget *b) noexcept nogil:
    """Read the cancel flag and the clock; True (b.stop set) when the run must end."""
    if b.cancel != NULL and llk_load_flag(b.cancel):
        b.stop = ST_CANCELLED
        return True
    if b.deadline >= 0 and llk_now() > b.deadline:
        b.stop = ST_TIME
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
    if b.deadline >= 0 and llk_now() > b.deadline:
        b.stop = ST_TIME
        return False
    b.nodes += 1
    return True


cdef inline bint still_time(Budget *b) noexcept nogil:
    """For loops between nodes: True while the run may go on (the clock is read every
    CHECK_EVERY calls). ``b`` may be NULL: no budget."""
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
