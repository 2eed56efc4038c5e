# cython: language_level=3
"""The seeds' matching player (matching.pyx)."""
from .run cimport Ctx

cdef int run_matching(Ctx *c, int maxcount) noexcept nogil
