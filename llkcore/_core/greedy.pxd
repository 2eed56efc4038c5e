# cython: language_level=3
"""The seeds' two greedy players (greedy.pyx)."""
from .run cimport Ctx

cdef int run_freedom(Ctx *c) noexcept nogil
cdef int run_mobility(Ctx *c) noexcept nogil
