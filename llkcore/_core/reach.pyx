# cython: language_level=3
"""The run flood: every tile a path with at most max_turns turns joins to one tile, in one search.

A path with k turns is k + 1 straight segments through empty cells, each lying in one maximal
empty *run* (a row or column stretch between blocked cells). So: ``a``'s own vertical and
horizontal runs are level 0, the runs crossing a level-k run are level k + 1, and the tiles just
past the ends of the runs of levels 0..max_turns are exactly the tiles a path with at most
max_turns turns can reach, the level of the first run that ends at a tile being the fewest
turns of a path to it. Runs are read off the occupancy bit masks and each run is walked at most
once per flood, so one flood costs O(empty cells it reaches), whatever max_turns is: it replaces
one turn-level BFS per pair of tiles by one flood per tile (docs/architecture.md, "Above two turns: the run flood").

Users: the moves above two turns (pairs.pyx), the deals' playout (deal.pyx) and the gravity
search's kept moves (gravity_search.pyx).
"""
from libc.stdint cimport int32_t
from libc.string cimport memset

from .alloc cimport llk_calloc, llk_free, llk_malloc
from .grid cimport Grid, bits_next, bits_prev


cdef bint flood_alloc(Flood *f, int H, int W) noexcept nogil:
    cdef size_t n = <size_t>H * W
    memset(f, 0, sizeof(Flood))
    f.ncells = <int>n
    f.vis_h = <int32_t *>llk_calloc(3 * n, sizeof(int32_t))
    f.runs_cur = <int32_t *>llk_malloc(2 * (2 * n + 4) * sizeof(int32_t))
    f.cand = <int32_t *>llk_malloc(2 * (n + 4) * sizeof(int32_t))
    if f.vis_h == NULL or f.runs_cur == NULL or f.cand == NULL:
        flood_free(f)
        return False
    f.vis_v = f.vis_h + n
    f.mark = f.vis_h + 2 * n
    f.runs_next = f.runs_cur + 2 * n + 4
    f.cand_turns = f.cand + n + 4
    return True


cdef void flood_free(Flood *f) noexcept nogil:
    llk_free(f.vis_h)
    llk_free(f.runs_cur)
    llk_free(f.cand)
    memset(f, 0, sizeof(Flood))


cdef inline int add_tile(const Grid *g, Flood *f, int end, int a, int level, int n) noexcept nogil:
    if g.cells[end] > 0 and end != a and f.mark[end] != f.stamp:
        f.mark[end] = f.stamp
        f.cand[n] = end
        f.cand_turns[n] = level
        return n + 1
    return n


cdef int flood_reach(const Grid *g, Flood *f, int a, int max_turns) noexcept nogil:
    """See reach.pxd. Queue entries pack a cell's padded row and column (no division in the
    loop) and the run's orientation: ``row << 12 | col << 1 | horizontal`` (sides are at most
    MAX_SIDE + 2 < 2048)."""
    cdef int W = g.W, H = g.H
    cdef int ncur = 2, nnext, level = 0, i, j, e, x, y, hz, r, c, lo, hi, base, stride, limit
    cdef int ncand = 0
    cdef bint last
    cdef int32_t *vis
    cdef int32_t *vis_cross
    cdef int32_t *cur = f.runs_cur
    cdef int32_t *nxt = f.runs_next
    cdef int32_t *tmp
    if f.stamp >= 0x7FFFFFF0:
        # Stamps are about to wrap: start them again from a clean slate.
        memset(f.vis_h, 0, 3 * <size_t>f.ncells * sizeof(int32_t))
        f.stamp = 0
    f.stamp += 1
    cdef int32_t stamp = f.stamp
    r = a // W
    c = a - r * W
    cur[0] = (r << 12) | (c << 1)
    cur[1] = (r << 12) | (c << 1) | 1
    while ncur > 0:
        last = level >= max_turns
        nnext = 0
        for i in range(ncur):
            e = cur[i]
            r = e >> 12
            c = (e >> 1) & 2047
            hz = e & 1
            x = r * W + c
            vis = f.vis_h if hz else f.vis_v
            if vis[x] == stamp:
                continue  # this run was walked at a lower level
            if hz:
                lo = bits_prev(g.rowbits + r * g.RW, c) + 1
                hi = bits_next(g.rowbits + r * g.RW, c, W) - 1
                base = r * W
                stride = 1
                limit = W
            else:
                lo = bits_prev(g.colbits + c * g.CW, r) + 1
                hi = bits_next(g.colbits + c * g.CW, r, H) - 1
                base = c
                stride = W
                limit = H
            if lo > 0:
                ncand = add_tile(g, f, base + (lo - 1) * stride, a, level, ncand)
            if hi + 1 < limit:
                ncand = add_tile(g, f, base + (hi + 1) * stride, a, level, ncand)
            if last:
                continue
            # Every cell of this run starts a crossing run at the next level.
            vis_cross = f.vis_v if hz else f.vis_h
            for j in range(lo, hi + 1):
                y = base + j * stride
                vis[y] = stamp
                if y != a and vis_cross[y] != stamp:
                    if hz:
                        nxt[nnext] = (r << 12) | (j << 1)
                    else:
                        nxt[nnext] = (j << 12) | (c << 1) | 1
                    nnext += 1
        if last:
            break
        tmp = cur
        cur = nxt
        nxt = tmp
        ncur = nnext
        level += 1
    return ncand
