# cython: language_level=3
"""The run flood (reach.pyx): every tile a path with at most max_turns turns joins to one tile,
with the fewest turns to each, in one search (docs/edges.md)."""
from libc.stdint cimport int32_t

from .grid cimport Grid


# Work buffers of the flood for one H x W padded grid (owned by a PathWork or a playout).
cdef struct Flood:
    int32_t *vis_h          # H*W: stamp of the last flood whose horizontal run covered the cell
    int32_t *vis_v          # H*W: the same for vertical runs
    int32_t *mark           # H*W: stamp of the last flood that listed the tile
    int32_t stamp
    int ncells
    int32_t *runs_cur       # the runs of one level (see flood_reach)
    int32_t *runs_next
    int32_t *cand           # the tiles reached by the last flood ...
    int32_t *cand_turns     # ... and the fewest turns of a path to each


# Allocate / free the buffers, all or nothing (False: out of memory, nothing held).
cdef bint flood_alloc(Flood *f, int H, int W) noexcept nogil
cdef void flood_free(Flood *f) noexcept nogil

# Every tile (any type, walls excluded) that a path of at most max_turns turns through empty
# cells joins to ``a`` (a itself excluded), into f.cand with the fewest turns in f.cand_turns;
# returns how many. O(empty cells reached), whatever max_turns is.
cdef int flood_reach(const Grid *g, Flood *f, int a, int max_turns) noexcept nogil
