# cython: language_level=3
"""The turn-level BFS (path.pyx): best paths, and link tests above two turns."""
from libc.stdint cimport int32_t, uint8_t

from .budget cimport Budget
from .grid cimport Grid
from .reach cimport Flood


# Work buffers of the BFS (and of the run flood), sized for one grid (owned by a GridState, or
# by one kernel call).
cdef struct PathWork:
    int nstates             # 4 * H * W
    uint8_t *seen           # one byte per cell: bit d set once state (cell, d) is final
    int32_t *dist           # per state: path length when final
    int32_t *turns          # per state: turns when final
    int32_t *queue          # straight moves of the current level (entries, see path.pyx)
    int32_t *src_cur        # entries that open the current level (after a turn)
    int32_t *src_next       # entries that open the next level
    Flood flood             # the run flood's buffers (reach.pxd): moves above two turns
    Budget *budget          # the run using these buffers, if any: link tests check it (link.pxd)


# Allocate / free the buffers for an H x W padded grid, all or nothing (False: out of memory,
# nothing held).
cdef bint path_work_alloc(PathWork *w, int H, int W) noexcept nogil
cdef void path_work_free(PathWork *w) noexcept nogil

# The fewest turns (<= max_turns), then the shortest length, of a path from pa to pb: the final
# state at pb (w.turns[state], w.dist[state]), or -1.
cdef int path_search(const Grid *g, PathWork *w, int pa, int pb, int max_turns) noexcept nogil
# THE best path from pa to pb (llkref.find_path's rule): its corner points (user row, col pairs)
# into out (room for 2 * (max_turns + 2) ints); returns how many, or -1 if none.
cdef int best_path(const Grid *g, PathWork *w, int pa, int pb, int max_turns, int32_t *out) noexcept nogil
