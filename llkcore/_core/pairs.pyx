# cython: language_level=3
"""Removable pairs of a position: the full sorted list, the first one, and the hint."""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport qsort

from .grid cimport GridState, Grid, list_moves, path_corners, path_search

cnp.import_array()


cdef int cmp_pair(const void *x, const void *y) noexcept nogil:
    cdef const int32_t *a = <const int32_t *>x
    cdef const int32_t *b = <const int32_t *>y
    if a[0] != b[0]:
        return -1 if a[0] < b[0] else 1
    if a[1] != b[1]:
        return -1 if a[1] < b[1] else 1
    return 0


cdef Py_ssize_t pair_capacity(GridState s):
    """Number of same-type pairs on the board: an upper bound on the removable ones."""
    cdef Py_ssize_t total = 0, n
    cdef int t
    for t in range(s.g.ntypes):
        n = s.g.count[t]
        total += n * (n - 1) // 2
    return total


def moves_cells(GridState s, int max_turns):
    """Every removable pair as a sorted (k, 2) int32 array of padded cells (pa < pb)."""
    cdef Py_ssize_t cap = pair_capacity(s)
    out = np.empty((cap, 2), dtype=np.int32)
    if cap == 0:
        return out
    cdef int32_t[:, ::1] buf = out
    cdef int k
    if max_turns > 2:
        s._ensure_work()
    with nogil:
        k = list_moves(&s.g, &s.work, max_turns, &buf[0, 0], <int>cap)
        qsort(&buf[0, 0], k, 2 * sizeof(int32_t), cmp_pair)
    return out[:k]


def moves_points(GridState s, int max_turns):
    """Every removable pair as a sorted (k, 4) int32 array of (r1, c1, r2, c2)."""
    cells = moves_cells(s, max_turns)
    W = s.g.W
    out = np.empty((cells.shape[0], 4), dtype=np.int32)
    out[:, 0::2] = cells // W - 1
    out[:, 1::2] = cells % W - 1
    return out


def has_move(GridState s, int max_turns):
    """True iff at least one pair can be removed now (stops at the first)."""
    cdef int32_t pair[2]
    cdef int k
    if max_turns > 2:
        s._ensure_work()
    with nogil:
        k = list_moves(&s.g, &s.work, max_turns, pair, 1)
    return k > 0


def hint(GridState s, int max_turns):
    """The move to suggest: fewest turns, then shortest path, then smallest (a, b); or None.

    Returns (pa, pb, corners) with padded cells and the path's corner points, or None.
    """
    cells = moves_cells(s, max_turns)
    if cells.shape[0] == 0:
        return None
    s._ensure_work()
    cdef int32_t[:, ::1] mv = cells
    cdef Py_ssize_t i, best = -1
    cdef int end, turns, length, st, best_turns = 0, best_length = 0, n
    for i in range(mv.shape[0]):
        end = path_search(&s.g, &s.work, mv[i, 0], mv[i, 1], max_turns)
        length = s.work.dist[end]
        # Turns along the path back from the end state.
        turns = 0
        st = end
        while s.work.prev[st] >= 0:
            if (s.work.prev[st] & 3) != (st & 3):
                turns += 1
            st = s.work.prev[st]
        if best < 0 or turns < best_turns or (turns == best_turns and length < best_length):
            best = i
            best_turns = turns
            best_length = length
    # Re-run the winner's search to rebuild its path (the buffers hold the last search).
    end = path_search(&s.g, &s.work, mv[best, 0], mv[best, 1], max_turns)
    corners_arr = np.empty(2 * (best_turns + 2), dtype=np.int32)
    cdef int32_t[::1] cb = corners_arr
    n = path_corners(&s.g, &s.work, mv[best, 0], end, &cb[0])
    path = [(int(cb[2 * i]), int(cb[2 * i + 1])) for i in range(n)]
    return int(mv[best, 0]), int(mv[best, 1]), path
