# cython: language_level=3
"""The gravity search's dead test (gravity_dead.pyx)."""
from libc.stdint cimport int32_t, int64_t, uint8_t

from .budget cimport Budget
from .grid cimport Grid
from .path cimport PathWork

# Most pairs of heights may_link tries for one pair of tiles; above it, it says "may link".
cdef enum:
    PLACE_MAX = 64


cdef struct GDead:
    Grid B                  # only the cells the tiles of X surely take (scratch)
    int up                  # offset of one cell against gravity
    int32_t *bottom         # HW: low end of each cell's segment (-1: a wall or the ring)
    int32_t *height         # HW: height of each cell above its segment's low end
    int32_t *block          # HW, by low end: tiles of X in the segment
    uint8_t *inx            # HW: the tile is in X
    int32_t *xs             # the tiles of X
    int32_t *order          # the tiles in the order the last test deleted them, then those left
    int32_t *witness        # HW: the tile the last test deleted a tile with (-1: not deleted)
    int32_t *chosen_by      # HW: the first tile the last test deleted with this one (-1: none)
    bint cleared            # the last test deleted every tile
    int32_t *byh            # counting sort of the tiles by height
    int64_t work            # link tests made so far (placements tried)
    int64_t tests           # tests run so far
    int32_t *partner        # HW: the tile a tile must be removed with (-1: any of its type)


# Work space for boards shaped like g, gravity against ``up``; False (nothing held) when out of memory.
cdef bint gdead_init(GDead *D, const Grid *g, int up) noexcept nogil
cdef void gdead_free(GDead *D) noexcept nogil
# The relaxed peeling under gravity: the tiles it leaves (> 0: the position is dead; 0 also when
# the budget ``b`` said stop). g is not changed. ``replay``: the test before was of this same
# position, and this one tries the tiles in the order that one deleted them (D.order).
cdef int gdead_test(GDead *D, const Grid *g, PathWork *w, int max_turns, Budget *b,
                    bint replay=*) noexcept nogil
# Probing the pairings of every type of four tiles under that test: > 0 when some type has all
# three dead (the position is dead), else 0 with the forced pairings left in D.partner;
# ``replay``: its tests after the first replay the order of the one before.
cdef int gdead_probe(GDead *D, const Grid *g, PathWork *w, int max_turns, Budget *b,
                     bint replay) noexcept nogil
# Forget the partners probing fixed (any tile of g may again be removed with any of its type).
cdef void gdead_unpair(GDead *D, const Grid *g) noexcept nogil
