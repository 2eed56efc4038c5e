# cython: language_level=3
"""The pairing search's dead test and conflict analysis (peeling.pyx)."""
from libc.stdint cimport int32_t

from .pairing cimport Pairing

# The relaxed peeling; returns the tiles it leaves (0: not proved dead). See peeling.pyx.
cdef int peel_run(Pairing *E, bint restrict, bint mark, const int32_t *order, int norder) noexcept nogil
# The node's peel_run(E, False, mark), guided by its parent's peeling order (replay).
cdef int peel_checked(Pairing *E, bint mark) noexcept nogil
# peel_run(E, False, False) (0 or not) for a probed pairing: a replay of the node's own order.
cdef int pairing_peel(Pairing *E) noexcept nogil
# E.conf := the decision levels a dead state's closed set (``instuck``) rests on.
cdef void stuck_conflict(Pairing *E) noexcept nogil
