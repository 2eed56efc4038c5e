# cython: language_level=3
"""The pairing search's dead test and conflict analysis (peeling.pyx)."""
from .pairing cimport Pairing

# The relaxed peeling; returns the tiles it leaves (0: not proved dead). See peeling.pyx.
cdef int peel_run(Pairing *E, bint restrict, bint mark) noexcept nogil
# E.conf := the decision levels a dead state's closed set (``instuck``) rests on.
cdef void stuck_conflict(Pairing *E) noexcept nogil
