# cython: language_level=3
"""The exact search under gravity (gravity_search.pyx)."""
from libc.stdint cimport int64_t, uint64_t

from .run cimport Ctx

# ST_SOLVED (certificate in c.out), ST_DEAD or a budget status; the board is left as given.
cdef int run_gravity_search(Ctx *c, int64_t memo_entries, uint64_t seed, int options) noexcept nogil
