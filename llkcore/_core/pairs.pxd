# cython: language_level=3
"""Removable pairs of a position (pairs.pyx): the one listing of removable pairs."""
from libc.stdint cimport int32_t, int64_t

from .grid cimport Grid
from .path cimport PathWork
from .budget cimport Budget


# Every removable pair (pa < pb, padded cells) into ``out`` (2 ints each), at most ``cap``;
# ``out == NULL`` only counts. Returns how many, or -1 when ``b`` (may be NULL) said stop. Above
# two turns ``w``'s buffers must exist (one run flood per tile, reach.pxd).
cdef int64_t list_moves(const Grid *g, PathWork *w, int max_turns, int32_t *out, int64_t cap,
                        Budget *b) noexcept nogil
