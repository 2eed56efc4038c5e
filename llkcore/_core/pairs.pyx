# cython: language_level=3
"""Removable pairs of a position: the full sorted list, whether there is one, and the hint.

Same-type pairs only, from the index, with no cap per type; cheap rejects first (link_cells).
"""
cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport qsort

from .grid cimport Grid, PairCursor, adjacent, empty_neighbours, pairs_next
from .link cimport link_cells
from .path cimport PathWork, path_search, path_turns
from .run cimport Budget, still_time
from .state cimport GridState

import numpy as np

cnp.import_array()


cdef int64_t list_moves(const Grid *g, PathWork *w, int max_turns, int32_t *out, int64_t cap,
                        Budget *b) noexcept nogil:
    cdef PairCursor cur
    cdef int pa = 0, pb = 0, t = -1, i
    cdef int64_t k = 0
    cdef uint64_t enclosed = 0      # type t's tiles (up to 64) without an empty neighbour
    cur.t = cur.i = cur.j = 0
    while k < cap and pairs_next(g, &cur, &pa, &pb):
        if not still_time(b):
            return -1
        if cur.t != t:
            # link_cells' cheap reject, once per tile rather than once per pair.
            t = cur.t
            enclosed = 0
            if g.count[t] <= 64:
                for i in range(g.count[t]):
                    if empty_neighbours(g, g.pos[g.offset[t] + i]) == 0:
                        enclosed |= (<uint64_t>1) << i
        if ((enclosed >> cur.i) | (enclosed >> cur.j)) & 1 and not adjacent(g, pa, pb):
            continue
        if link_cells(g, w, pa, pb, max_turns):
            if out != NULL:
                out[2 * k] = pa if pa < pb else pb
                out[2 * k + 1] = pb if pa < pb else pa
            k += 1
    return k


cdef int cmp_pair(const void *x, const void *y) noexcept nogil:
    cdef const int32_t *a = <const int32_t *>x
    cdef const int32_t *b = <const int32_t *>y
    if a[0] != b[0]:
        return -1 if a[0] < b[0] else 1
    if a[1] != b[1]:
        return -1 if a[1] < b[1] else 1
    return 0


cdef int64_t pair_capacity(const Grid *g) noexcept nogil:
    """Number of same-type pairs on the board: an upper bound on the removable ones."""
    cdef int64_t total = 0, n
    cdef int t
    for t in range(g.ntypes):
        n = g.count[t]
        total += n * (n - 1) // 2
    return total


cdef sorted_moves(GridState s, int max_turns):
    """Every removable pair as a sorted (k, 2) int32 array of padded cells; the caller holds
    the state's lock (with the BFS buffers above two turns)."""
    cdef const Grid *g = &s.g
    cdef int64_t total = pair_capacity(g), k
    # Room for the usual case in one pass; a board with more moves than that is counted first,
    # so memory follows the answer, not the number of same-type pairs.
    cdef int64_t cap = min(total, 8 * <int64_t>g.tiles + 64)
    out = np.empty((cap, 2), dtype=np.int32)
    cdef int32_t *buf = <int32_t *>cnp.PyArray_DATA(out)
    with nogil:
        k = list_moves(g, &s.work, max_turns, buf, cap, NULL)
    if k == cap and cap < total:
        with nogil:
            k = list_moves(g, &s.work, max_turns, NULL, total, NULL)
        out = np.empty((k, 2), dtype=np.int32)
        buf = <int32_t *>cnp.PyArray_DATA(out)
        with nogil:
            k = list_moves(g, &s.work, max_turns, buf, k, NULL)
    with nogil:
        qsort(buf, k, 2 * sizeof(int32_t), cmp_pair)
    return out[:k]


cdef int lock_for(GridState s, int max_turns) except -1:
    if max_turns > 2:
        return s.lock_work()
    return s.lock()


def moves_cells(GridState s, int max_turns):
    """Every removable pair as a sorted (k, 2) int32 array of padded cells (pa < pb)."""
    lock_for(s, max_turns)
    try:
        return sorted_moves(s, max_turns)
    finally:
        s.unlock()


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
    cdef int64_t k
    lock_for(s, max_turns)
    try:
        with nogil:
            k = list_moves(&s.g, &s.work, max_turns, NULL, 1, NULL)
    finally:
        s.unlock()
    return k > 0


cdef Py_ssize_t best_move(const Grid *g, PathWork *w, const int32_t *mv, Py_ssize_t n,
                          int max_turns) noexcept nogil:
    """Index of the move whose best path has the fewest turns, then the shortest length
    (the first such in ``mv``'s order)."""
    cdef Py_ssize_t i, best = -1
    cdef int end, turns, length, best_turns = 0, best_length = 0
    for i in range(n):
        end = path_search(g, w, mv[2 * i], mv[2 * i + 1], max_turns)
        length = w.dist[end]
        turns = path_turns(w, end)
        if best < 0 or turns < best_turns or (turns == best_turns and length < best_length):
            best = i
            best_turns = turns
            best_length = length
    return best


def hint(GridState s, int max_turns):
    """The move to suggest: fewest turns, then shortest path, then smallest (a, b); or None.

    Returns (pa, pb) as padded cells, or None when no pair can be removed. The moves and their
    paths are read under one hold of the lock, so the position cannot change in between.
    """
    cdef Py_ssize_t best, n
    cdef const int32_t *mv
    s.lock_work()
    try:
        cells = sorted_moves(s, max_turns)
        n = cells.shape[0]
        if n == 0:
            return None
        mv = <const int32_t *>cnp.PyArray_DATA(cells)
        with nogil:
            best = best_move(&s.g, &s.work, mv, n, max_turns)
        return int(cells[best, 0]), int(cells[best, 1])
    finally:
        s.unlock()
