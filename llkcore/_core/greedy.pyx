# cython: language_level=3
"""The seeds' greedy players: one playout each, never a proof (docs/architecture.md, "Solvers").

greedy-freedom (seed 001, KShisen's check): remove the linkable pair whose tiles have the fewest
empty neighbours; greedy-mobility (seed 004): remove the pair that leaves the most removable
pairs. Ties go to the smallest pair. A node is one move chosen (freedom), or one position chosen
in or scored (mobility). Link tests count against the run's budget (link.pxd).
"""
from libc.stdint cimport int64_t

from .alloc cimport IVec, llk_free
from .gravity cimport put_pair, take_pair
from .grid cimport Grid, PairCursor, empty_neighbours, pairs_next
from .link cimport link_cells
from .pairs cimport list_moves, list_moves_grown
from .run cimport ST_MEMORY, ST_SOLVED, ST_STUCK, Ctx, cut_short, pair_less, play, spend, still_time


cdef int run_freedom(Ctx *c) noexcept nogil:
    """Remove the linkable pair whose tiles have the fewest empty neighbours in total; ties go
    to the smallest pair. Stops (ST_STUCK) when no pair links.

    Up to two turns the pairs are scanned and a pair that could not win skips its link test;
    above, the moves come from one run flood per tile (list_moves), not a search per pair."""
    cdef Grid *g = c.g
    cdef PairCursor cur
    cdef IVec mv
    mv.data = NULL
    mv.n = 0
    mv.cap = 0
    cdef int pa = 0, pb = 0, lo, hi, score, best_score, best_a, best_b, status = ST_SOLVED
    cdef int64_t i, k
    while g.tiles > 0:
        if not spend(&c.b):
            status = c.b.stop
            break
        best_a = -1
        best_b = -1
        best_score = 1 << 30
        if c.max_turns > 2:
            k = list_all(c, &mv)
            if k < 0:
                status = c.b.stop
                break
            for i in range(k):
                lo = mv.data[2 * i]
                hi = mv.data[2 * i + 1]
                score = empty_neighbours(g, lo) + empty_neighbours(g, hi)
                if score < best_score or (score == best_score and pair_less(lo, hi, best_a, best_b)):
                    best_score = score
                    best_a = lo
                    best_b = hi
        else:
            cur.t = cur.i = cur.j = 0
            while pairs_next(g, &cur, &pa, &pb):
                # Pairs that skip their link test spend nothing, and one scan of a 1024 x 1024
                # deal's 1.5 million pairs took 40 ms past the limit: a look at the clock too.
                if not still_time(&c.b):
                    break
                lo = pa if pa < pb else pb
                hi = pb if pa < pb else pa
                score = empty_neighbours(g, pa) + empty_neighbours(g, pb)
                # Skip the link test when the pair could not win anyway.
                if score > best_score or (score == best_score and not pair_less(lo, hi, best_a, best_b)):
                    continue
                if link_cells(g, c.w, pa, pb, c.max_turns):
                    best_score = score
                    best_a = lo
                    best_b = hi
            if cut_short(&c.b):
                status = c.b.stop
                break
        if best_a < 0:
            status = ST_MEMORY if c.b.stop == ST_MEMORY else ST_STUCK
            break
        play(c, best_a, best_b)
    llk_free(mv.data)
    return status


cdef int64_t list_all(Ctx *c, IVec *mv) noexcept nogil:
    """Every removable pair into mv (2 ints each, grown as needed); -1 when a budget said stop
    or memory ran out (c.b.stop says which)."""
    cdef int64_t k = list_moves_grown(c.g, c.w, c.max_turns, mv, 0, &c.b)
    if k == -2:
        c.b.stop = ST_MEMORY
    return k if k >= 0 else -1


cdef int run_mobility(Ctx *c) noexcept nogil:
    """Remove the pair that leaves the most removable pairs; ties go to the smallest pair.
    Stops (ST_STUCK) when no pair links."""
    cdef Grid *g = c.g
    cdef IVec mv
    mv.data = NULL
    mv.n = 0
    mv.cap = 0
    cdef int i, a, b, ta, tb, ng, best_a, best_b, status = ST_SOLVED
    cdef int64_t k, score, best_score
    while g.tiles > 0:
        if not spend(&c.b):
            status = c.b.stop
            break
        # The moves into mv: one pass when they fit, else count them and pass again.
        k = list_all(c, &mv)
        if k < 0 or c.b.stop:
            status = c.b.stop
            break
        if k == 0:
            status = ST_STUCK
            break
        best_a = -1
        best_b = -1
        best_score = -1
        for i in range(k):
            if not spend(&c.b):
                break
            a = mv.data[2 * i]
            b = mv.data[2 * i + 1]
            ta = g.tid[a]
            tb = g.tid[b]
            ng = take_pair(g, a, b, c.gravity, c.gbuf)
            score = list_moves(g, c.w, c.max_turns, NULL, 1 << 62, &c.b)
            put_pair(g, a, b, ta, tb, c.gbuf, ng)
            if score < 0:
                break
            if score > best_score or (score == best_score and pair_less(a, b, best_a, best_b)):
                best_score = score
                best_a = a
                best_b = b
        if c.b.stop:
            status = c.b.stop
            break
        play(c, best_a, best_b)
    llk_free(mv.data)
    return status
