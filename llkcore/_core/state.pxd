# cython: language_level=3
"""GridState (state.pyx): the engine's state of one board, owned in one object."""
from cpython.pythread cimport PyThread_type_lock
from libc.stdint cimport int32_t

from .grid cimport Grid
from .path cimport PathWork


cdef class GridState:
    cdef Grid g
    cdef PathWork work              # BFS buffers, allocated on first use
    cdef PyThread_type_lock mutex   # held by every kernel call on this state (threads may share it)
    cdef bint forked_busy           # in use by another thread when this process was forked
    cdef readonly bint border
    cdef void *shape_mem            # rowbits, colbits, cells, tid, slot: sized by the shape
    cdef int32_t *undo_moves        # ...and put_back's gravity moves (so an undo never allocates)
    cdef int32_t *types_mem         # type_value, offset, count, pos: sized by the types
    cdef int pos_cap                # room in pos: the tiles the state was built with
    cdef object view                # a weak reference to the read-only ndarray over the cells
    cdef readonly long long loads   # positions taken over by ``load`` (Board.update asks)
    cdef int lock(self) except -1           # take the mutex (GIL released while waiting)
    cdef int lock_work(self) except -1      # ... and make sure the BFS buffers exist
    cdef int lock_links(self, int max_turns) except -1  # lock, lock_work if links need paths
    cdef void unlock(self) noexcept
    cdef int alloc_shape(self, int rows, int cols, bint border) except -1
    cdef int build_index(self) except -1
    cdef void bind_types(self) noexcept
    cdef int dense(self, int value) noexcept
