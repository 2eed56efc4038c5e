# cython: language_level=3
"""The link test every kernel uses (inline): the run-sweep up to two turns (sweep.pxd), the BFS
above.

See docs/architecture.md ("The link test") for why the sweep is exact.
"""
from .grid cimport Grid, adjacent, empty_neighbours, same_type_linkable
from .path cimport PathWork, path_search
from .run cimport link_test_allowed
from .sweep cimport link_sweep


cdef inline bint link_cells(const Grid *g, PathWork *w, int pa, int pb, int max_turns) noexcept nogil:
    """Is there a path of at most max_turns turns between the distinct cells pa and pb?

    Types are not checked and the endpoints' own contents are ignored (the sweep and the BFS
    both treat them as path ends), so pb may be an empty cell. Cheap answers first: adjacent
    cells always link; otherwise both ends need an empty neighbour. ``w``'s buffers are only
    touched above two turns (the caller made sure they exist then).

    Under a run's budget (``w.budget``) every test counts as a step and a path search reads the
    clock first; once the run has stopped the answer is "no" at once, so any loop of link tests
    ends quickly, and the run reports its budget's status, never a verdict (run.pxd).
    """
    if adjacent(g, pa, pb):
        return True
    if empty_neighbours(g, pa) == 0 or empty_neighbours(g, pb) == 0:
        return False
    if w.budget != NULL and not link_test_allowed(w.budget, max_turns > 2):
        return False
    if max_turns <= 2:
        return link_sweep(g, pa, pb, max_turns)
    # A path of two turns is one of max_turns too, and the sweep reads a few lines where the
    # search may flood a big sparse board (two far corners of 1024 x 1024: 100 ms).
    if g.rowbits != NULL and link_sweep(g, pa, pb, 2):
        return True
    return path_search(g, w, pa, pb, max_turns) >= 0


cdef inline bint can_link(const Grid *g, PathWork *w, int pa, int pb, int max_turns) noexcept nogil:
    """The rules' link test: distinct cells, tiles of one type, a path within max_turns."""
    return same_type_linkable(g, pa, pb) and link_cells(g, w, pa, pb, max_turns)
