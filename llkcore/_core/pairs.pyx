# cython: language_level=3
"""Removable pairs of a position: the full sorted list, the first one, and the hint."""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport qsort

from .grid cimport Grid, GridState, PathWork, list_moves, path_search

cnp.import_array()


cdef int cmp_pair(const void *x, const void *y) noexcept nogil:
    cdef const int32_t *a = <const int32_t *>x
    cdef const int32_t *b = <const int32_t *>y
    if a[0] != b[0]:
        return -1 if a[0] < b[0] else 1
    if a[1] != b[1]:
        return -1 if a[1] < b[1] else 1
    return 0


cdef int64_t pair_capacity(GridState s):
    """Number of same-type pairs on the board: an upper bound on the removable ones."""
    cdef int64_t total = 0, n
    cdef int t
    for t in range(s.g.ntypes):
        n = s.g.count[t]
        total += n * (n - 1) // 2
    return total


def moves_cells(GridState s, int max_turns):
    """Every removable pair as a sorted (k, 2) int32 array of padded cells (pa < pb)."""
    cdef int64_t total = pair_capacity(s)
    # Room for the usual case in one pass; a board with more moves than that is counted first,
    # so memory follows the answer, not the number of same-type pairs.
    cdef int64_t cap = min(total, 8 * <int64_t>s.g.tiles + 64)
    cdef int64_t k
    if max_turns > 2:
        s.acquire_work()
        try:
            return _moves_cells(s, max_turns, total, cap)
        finally:
            s.release_work()
    return _moves_cells(s, max_turns, total, cap)


cdef _moves_cells(GridState s, int max_turns, int64_t total, int64_t cap):
    cdef int64_t k
    out = np.empty((cap, 2), dtype=np.int32)
    if cap == 0:
        return out
    cdef int32_t[:, ::1] buf = out
    with nogil:
        k = list_moves(&s.g, &s.work, max_turns, &buf[0, 0], cap)
    if k == cap and cap < total:
        with nogil:
            k = list_moves(&s.g, &s.work, max_turns, NULL, total)
        out = np.empty((k, 2), dtype=np.int32)
        buf = out
        with nogil:
            k = list_moves(&s.g, &s.work, max_turns, &buf[0, 0], k)
    with nogil:
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
    cdef int64_t k
    if max_turns <= 2:
        with nogil:
            k = list_moves(&s.g, NULL, max_turns, pair, 1)
        return k > 0
    s.acquire_work()
    try:
        with nogil:
            k = list_moves(&s.g, &s.work, max_turns, pair, 1)
    finally:
        s.release_work()
    return k > 0


cdef Py_ssize_t best_move(const Grid *g, PathWork *w, const int32_t[:, ::1] mv, int max_turns) noexcept nogil:
    """Index of the move whose best path has the fewest turns, then the shortest length
    (the first such in ``mv``'s order)."""
    cdef Py_ssize_t i, best = -1
    cdef int end, turns, length, st, best_turns = 0, best_length = 0
    for i in range(mv.shape[0]):
        end = path_search(g, w, mv[i, 0], mv[i, 1], max_turns)
        length = w.dist[end]
        turns = 0
        st = end
        while w.prev[st] >= 0:
            if (w.prev[st] & 3) != (st & 3):
                turns += 1
            st = w.prev[st]
        if best < 0 or turns < best_turns or (turns == best_turns and length < best_length):
            best = i
            best_turns = turns
            best_length = length
    return best


def hint(GridState s, int max_turns):
    """The move to suggest: fewest turns, then shortest path, then smallest (a, b); or None.

    Returns (pa, pb) as padded cells, or None when no pair can be removed.
    """
    cells = moves_cells(s, max_turns)
    if cells.shape[0] == 0:
        return None
    cdef const int32_t[:, ::1] mv = cells
    cdef Py_ssize_t best
    s.acquire_work()
    try:
        with nogil:
            best = best_move(&s.g, &s.work, mv, max_turns)
    finally:
        s.release_work()
    return int(mv[best, 0]), int(mv[best, 1])
