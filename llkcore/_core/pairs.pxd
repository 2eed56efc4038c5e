# cython: language_level=3
"""Removable pairs of a position (pairs.pyx): the one loop over same-type pairs."""
from libc.stdint cimport int32_t, int64_t

from .grid cimport Grid
from .path cimport PathWork
from .run cimport Budget


# Every removable pair (pa < pb, padded cells) into ``out`` (2 ints each), at most ``cap``;
# ``out == NULL`` only counts. Returns how many, or -1 when ``b`` (may be NULL) said stop.
cdef int64_t list_moves(const Grid *g, PathWork *w, int max_turns, int32_t *out, int64_t cap,
                        Budget *b) noexcept nogil

# Same-type pairs on the board: room for every removable pair.
cdef int64_t pair_capacity(const Grid *g) noexcept nogil
