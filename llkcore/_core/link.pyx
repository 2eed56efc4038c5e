# cython: language_level=3
"""Link test and path finding on a GridState: one query, many queries, the path to draw."""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport int32_t, uint8_t

from .grid cimport GridState, can_link, path_corners, path_search, same_type_linkable

cnp.import_array()


def link(GridState s, int pa, int pb, int max_turns):
    """True iff the tiles at padded cells pa and pb can be removed together."""
    if max_turns <= 2:
        return can_link(&s.g, NULL, pa, pb, max_turns)     # the run-sweep needs no buffers
    s.acquire_work()
    try:
        return can_link(&s.g, &s.work, pa, pb, max_turns)
    finally:
        s.release_work()


def link_many(GridState s, const int32_t[:, ::1] pairs, int max_turns):
    """Answer every (pa, pb) row of ``pairs`` (padded cells) in one GIL-free loop; uint8 0/1."""
    cdef Py_ssize_t i, n = pairs.shape[0]
    out = np.zeros(n, dtype=np.uint8)
    cdef uint8_t[::1] res = out
    if max_turns <= 2:
        with nogil:
            for i in range(n):
                res[i] = can_link(&s.g, NULL, pairs[i, 0], pairs[i, 1], max_turns)
        return out
    s.acquire_work()
    try:
        with nogil:
            for i in range(n):
                res[i] = can_link(&s.g, &s.work, pairs[i, 0], pairs[i, 1], max_turns)
    finally:
        s.release_work()
    return out


def path(GridState s, int pa, int pb, int max_turns):
    """Corner points [(row, col), ...] of the best path (fewest turns, then shortest), or None."""
    if not same_type_linkable(&s.g, pa, pb):
        return None
    cdef int end, n, i
    cdef int32_t[::1] buf
    # A best path never has more turns than states, so this bounds its corners.
    corners = np.empty(2 * (min(max_turns, 4 * s.g.H * s.g.W) + 2), dtype=np.int32)
    buf = corners
    s.acquire_work()
    try:
        with nogil:
            end = path_search(&s.g, &s.work, pa, pb, max_turns)
            if end >= 0:
                n = path_corners(&s.g, &s.work, pa, end, &buf[0])
    finally:
        s.release_work()
    if end < 0:
        return None
    return [(int(buf[2 * i]), int(buf[2 * i + 1])) for i in range(n)]
