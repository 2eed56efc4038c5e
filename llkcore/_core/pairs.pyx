# cython: language_level=3
"""Removable pairs of a position: the full sorted list, whether there is one, and the hint.

Same-type pairs only, from the index, with no cap per type; cheap rejects first (link_cells).
"""
cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport qsort

from .grid cimport Grid, PairCursor, adjacent, pairs_next
from .link cimport link_cells, link_sweep
from .path cimport PathWork, path_search
from .run cimport Budget, still_time
from .state cimport GridState

import numpy as np

cnp.import_array()


cdef int64_t list_moves(const Grid *g, PathWork *w, int max_turns, int32_t *out, int64_t cap,
                        Budget *b) noexcept nogil:
    cdef PairCursor cur
    cdef int pa = 0, pb = 0
    cdef int64_t k = 0
    cur.t = cur.i = cur.j = 0
    while k < cap and pairs_next(g, &cur, &pa, &pb):
        if not still_time(b):
            return -1
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


cdef int min_turns(const Grid *g, PathWork *w, int pa, int pb, int max_turns) noexcept nogil:
    """Fewest turns of a path joining the removable pair (pa, pb), without building a path up
    to two turns (the sweep answers "within t turns?" for t = 0, 1)."""
    cdef int t
    if adjacent(g, pa, pb):
        return 0
    if max_turns <= 2:
        for t in range(max_turns):
            if link_sweep(g, pa, pb, t):
                return t
        return max_turns
    cdef int end = path_search(g, w, pa, pb, max_turns)
    return w.turns[end] if end >= 0 else max_turns


def moves_turns(GridState s, int max_turns):
    """(cells, turns): every removable pair as moves_cells gives them, and the fewest turns of
    a path joining each (an int32 array)."""
    cdef Py_ssize_t i, n
    cdef const int32_t *mv
    cdef int32_t *tv
    lock_for(s, max_turns)
    try:
        cells = sorted_moves(s, max_turns)
        n = cells.shape[0]
        turns = np.empty(n, dtype=np.int32)
        mv = <const int32_t *>cnp.PyArray_DATA(cells)
        tv = <int32_t *>cnp.PyArray_DATA(turns)
        with nogil:
            for i in range(n):
                tv[i] = min_turns(&s.g, &s.work, mv[2 * i], mv[2 * i + 1], max_turns)
    finally:
        s.unlock()
    return cells, turns


cdef Py_ssize_t best_move(const Grid *g, PathWork *w, const int32_t *mv, Py_ssize_t n,
                          int max_turns) noexcept nogil:
    """Index of the move whose best path has the fewest turns, then the shortest length
    (the first such in ``mv``'s order)."""
    cdef Py_ssize_t i, best = -1
    cdef int end, turns, length, best_turns = 0, best_length = 0
    for i in range(n):
        end = path_search(g, w, mv[2 * i], mv[2 * i + 1], max_turns)
        if end < 0:
            continue        # cannot happen under the state's lock; never read before a buffer
        length = w.dist[end]
        turns = w.turns[end]
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


def hint_order(GridState s, int max_turns):
    """Every removable pair as a (k, 2) int32 array of padded cells, in the order ``hint``
    prefers them: fewest turns, then shortest path, then the smallest pair (``hint`` is the
    first). The moves and their paths are read under one hold of the lock."""
    cdef Py_ssize_t i, n
    cdef const int32_t *mv
    cdef int32_t *tv
    cdef int32_t *lv
    cdef int end
    s.lock_work()
    try:
        cells = sorted_moves(s, max_turns)
        n = cells.shape[0]
        turns = np.empty(n, dtype=np.int32)
        length = np.empty(n, dtype=np.int32)
        mv = <const int32_t *>cnp.PyArray_DATA(cells)
        tv = <int32_t *>cnp.PyArray_DATA(turns)
        lv = <int32_t *>cnp.PyArray_DATA(length)
        with nogil:
            for i in range(n):
                end = path_search(&s.g, &s.work, mv[2 * i], mv[2 * i + 1], max_turns)
                tv[i] = s.work.turns[end]
                lv[i] = s.work.dist[end]
    finally:
        s.unlock()
    # lexsort is stable: equal (turns, length) keep the sorted pair order.
    return np.ascontiguousarray(cells[np.lexsort((length, turns))])
