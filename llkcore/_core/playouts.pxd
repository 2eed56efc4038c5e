# cython: language_level=3
"""What playouts.pyx shares with the searches: the certificate hunt by policy-adapted playouts
(nested rollout policy adaptation) that the gravity search runs between its rounds."""
from libc.stdint cimport int32_t, int64_t, uint64_t

from .alloc cimport IVec
from .pairs cimport KeptWork
from .run cimport Ctx

# Levels of the hunt's nesting above the playouts, and runs of each level per run of the level
# above (docs/architecture.md, "The certificate hunt").
cdef enum:
    HUNT_LEVELS = 2
    HUNT_ITERATIONS = 100


cdef struct Hunt:
    int32_t *ident          # HW: the root tile now in each cell (-1: none)
    int32_t *root_ident     # HW: ... at the root
    int nid                 # tiles at the root
    uint64_t mask           # policy entries - 1 (a power of two)
    double *policy          # (HUNT_LEVELS + 1) * (mask + 1): the policy of each level
    double *scratch         # mask + 1: the policy before an adaptation
    double *weights         # mask + 1: exp of level 1's policy, which the playouts draw by
    double *weight          # the moves of one step: the weight of each
    int64_t nweight
    IVec moves              # the moves of one step, sorted
    IVec root_moves         # the root's (listed at the first playout) ...
    int64_t nroot           # ... how many (-1: not yet)
    IVec kept               # the next step's moves from these (kept moves), before sorting
    IVec log                # the playout's removals, to take them back
    IVec seq[HUNT_LEVELS + 1]   # the best playout of each level's run (seq[0]: the last one)
    int best[HUNT_LEVELS + 1]   # its pairs removed (-1: none yet)
    int done[HUNT_LEVELS + 1]   # runs of the level below made in this level's run
    uint64_t rng[4]
    int64_t steps           # removals played in all
    int record              # most pairs a playout removed


# Set up a hunt on c's board as it is now (the root); False (nothing held) when out of memory.
cdef bint hunt_init(Hunt *h, Ctx *c, uint64_t seed) noexcept nogil
cdef void hunt_free(Hunt *h) noexcept nogil
# Go on with the hunt under c's budget (a node is a removal played): ST_SOLVED with the
# certificate recorded in c, or the budget's stop (ST_NODES, ST_TIME, ...), or ST_MEMORY. The
# board is left as it was; a later call goes on where this one stopped. ``kept``: buffers for
# a step's moves from the step before's (pairs.pxd), or NULL to list each step's afresh.
cdef int hunt_run(Hunt *h, Ctx *c, KeptWork *kept) noexcept nogil
