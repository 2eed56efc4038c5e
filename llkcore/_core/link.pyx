# cython: language_level=3
"""Queries on one GridState: link tests (one, or many in one GIL-free loop) and best paths."""
cimport numpy as cnp
from libc.stdint cimport int32_t, uint8_t

from .budget cimport Budget
from .grid cimport same_type_linkable
from .link cimport can_link
from .path cimport best_path
from .run cimport budget_raise, budget_start
from .state cimport GridState

import numpy as np

cnp.import_array()


def link(GridState s, int pa, int pb, int max_turns):
    """True iff the tiles at padded cells pa and pb can be removed together."""
    s.lock_links(max_turns)
    try:
        return can_link(&s.g, &s.work, pa, pb, max_turns)
    finally:
        s.unlock()


def link_many(GridState s, cnp.ndarray pairs, int max_turns):
    """Answer every (pa, pb) row of ``pairs`` (a C-contiguous (k, 2) int32 array of padded
    cells) in one GIL-free loop; uint8 0/1. Ctrl-C stops a long batch (KeyboardInterrupt):
    the link tests count against a budget (link.pxd)."""
    cdef Py_ssize_t i, n = pairs.shape[0]
    cdef const int32_t *q = <const int32_t *>cnp.PyArray_DATA(pairs)
    out = np.zeros(n, dtype=np.uint8)
    cdef uint8_t *res = <uint8_t *>cnp.PyArray_DATA(out)
    cdef Budget b
    budget_start(&b, -1.0, NULL)
    s.lock_links(max_turns)
    try:
        s.work.budget = &b
        with nogil:
            for i in range(n):
                res[i] = can_link(&s.g, &s.work, q[2 * i], q[2 * i + 1], max_turns)
                if b.stop:
                    break
    finally:
        s.work.budget = NULL
        s.unlock()
    budget_raise(&b)
    return out


def path(GridState s, int pa, int pb, int max_turns):
    """Corner points [(row, col), ...] of the best path (fewest turns, then shortest), or None."""
    cdef int n = -1, i
    # A best path never has more turns than states, so this bounds its corners.
    corners = np.empty(2 * (min(max_turns, 4 * s.g.H * s.g.W) + 2), dtype=np.int32)
    cdef int32_t *buf = <int32_t *>cnp.PyArray_DATA(corners)
    s.lock_work()
    try:
        if same_type_linkable(&s.g, pa, pb):
            with nogil:
                n = best_path(&s.g, &s.work, pa, pb, max_turns, buf)
    finally:
        s.unlock()
    if n < 0:
        return None
    return [(int(buf[2 * i]), int(buf[2 * i + 1])) for i in range(n)]
