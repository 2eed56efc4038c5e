# cython: language_level=3
"""Seed 003's matching player: per type, a maximum matching (Hopcroft-Karp) of the pairs that
link now; remove the matched pairs that still link; rebuild when a sweep removes nothing.

A node is one matching built or one removal. It never proves anything (docs/architecture.md,
"Solvers"). Above two turns (or for a type of many tiles) a row of the bipartite graph comes from
one run flood of its tile (reach.pyx), not a link test per pair. The bipartite graph is kept as
adjacency lists (memory follows the pairs that link, not the square of a type's tiles: a matrix
needed 16 GiB for 4 types on 1024 x 1024).
"""
from libc.stdint cimport int32_t, int64_t

from .alloc cimport IVec, ivec_reserve, llk_free, llk_malloc
from .grid cimport Grid, lower_bound, same_type_linkable, sort_ints
from .link cimport link_cells
from .pairs cimport floods_type
from .reach cimport flood_reach
from .run cimport ST_MEMORY, ST_SOLVED, ST_STUCK, Ctx, play, spend, still_time_now


cdef struct Matcher:
    int nl, nr
    int64_t *start          # nl + 1: left vertex u is joined to adj.data[start[u] : start[u + 1]]
    IVec adj                # the right vertices of each row, ascending
    int32_t *ml
    int32_t *mr
    int32_t *dist
    int32_t *queue


cdef bint hk_layers(Matcher *m) noexcept nogil:
    """Hopcroft-Karp BFS phase: layer the left vertices; True if a free right vertex is reached."""
    cdef int u, v, w, qh = 0, qt = 0
    cdef int64_t e
    cdef bint found = False
    for u in range(m.nl):
        if m.ml[u] == -1:
            m.dist[u] = 0
            m.queue[qt] = u
            qt += 1
        else:
            m.dist[u] = -1
    while qh < qt:
        u = m.queue[qh]
        qh += 1
        for e in range(m.start[u], m.start[u + 1]):
            w = m.mr[m.adj.data[e]]
            if w == -1:
                found = True
            elif m.dist[w] == -1:
                m.dist[w] = m.dist[u] + 1
                m.queue[qt] = w
                qt += 1
    return found


cdef bint hk_augment(Matcher *m, int u) noexcept nogil:
    """Hopcroft-Karp DFS phase from u along increasing layers (depth <= number of layers)."""
    cdef int v, w
    cdef int64_t e
    for e in range(m.start[u], m.start[u + 1]):
        v = m.adj.data[e]
        w = m.mr[v]
        if w == -1 or (m.dist[w] == m.dist[u] + 1 and hk_augment(m, w)):
            m.ml[u] = v
            m.mr[v] = u
            return True
    m.dist[u] = -1
    return False


cdef int flood_row(Ctx *c, int t, const int32_t *tiles, int n, int u, Matcher *m) noexcept nogil:
    """Row u of the adjacency from one run flood of tiles[2u] (above two turns, or a type of
    many tiles: pairs.pxd) instead of a link test per right vertex; -1 when the budget said
    stop, -2 when out of memory."""
    cdef const Grid *g = c.g
    cdef int k, i, p, lo
    cdef int64_t first = m.adj.n
    if not still_time_now(&c.b):
        return -1
    k = flood_reach(g, &c.w.flood, tiles[2 * u], c.max_turns)
    if not ivec_reserve(&m.adj, m.adj.n + k):
        return -2
    for i in range(k):
        p = c.w.flood.cand[i]
        if g.tid[p] != t:
            continue
        # Its index among the type's tiles (ascending): a right vertex when odd.
        lo = lower_bound(tiles, n, p)
        if lo & 1:
            m.adj.data[m.adj.n] = lo >> 1
            m.adj.n += 1
    # In ascending order, as the link tests list them: the matching does not depend on the path.
    sort_ints(m.adj.data + first, <int>(m.adj.n - first))
    return 0


cdef int build_matching(Ctx *c, IVec *pending, int32_t *tiles, Matcher *m) noexcept nogil:
    """Seed 003's pairs: per type, tiles in row-major order split even/odd into left/right, an
    edge when two tiles link now, a maximum matching (Hopcroft-Karp); its pairs into pending.
    Returns -1 if out of memory, -2 when the budget said stop."""
    cdef Grid *g = c.g
    cdef int t, i, u, v, n, r
    cdef bint flooded
    pending.n = 0
    for t in range(g.ntypes):
        n = g.count[t]
        if n == 0:
            continue
        for i in range(n):
            tiles[i] = g.pos[g.offset[t] + i]
        sort_ints(tiles, n)
        m.nl = (n + 1) // 2
        m.nr = n // 2
        m.adj.n = 0
        flooded = floods_type(g, c.w, t, c.max_turns)      # (once a type: it weighs the board)
        for u in range(m.nl):
            m.ml[u] = -1
            m.start[u] = m.adj.n
            if flooded:
                r = flood_row(c, t, tiles, n, u, m)
                if r < 0:
                    return -2 if r == -1 else -1
                continue
            if not ivec_reserve(&m.adj, m.adj.n + m.nr):
                return -1
            for v in range(m.nr):
                if link_cells(g, c.w, tiles[2 * u], tiles[2 * v + 1], c.max_turns):
                    m.adj.data[m.adj.n] = v
                    m.adj.n += 1
        m.start[m.nl] = m.adj.n
        for v in range(m.nr):
            m.mr[v] = -1
        while hk_layers(m):
            for u in range(m.nl):
                if m.ml[u] == -1:
                    hk_augment(m, u)
        for u in range(m.nl):
            v = m.ml[u]
            if v != -1:
                if not ivec_reserve(pending, pending.n + 2):
                    return -1
                if tiles[2 * u] < tiles[2 * v + 1]:
                    pending.data[pending.n] = tiles[2 * u]
                    pending.data[pending.n + 1] = tiles[2 * v + 1]
                else:
                    pending.data[pending.n] = tiles[2 * v + 1]
                    pending.data[pending.n + 1] = tiles[2 * u]
                pending.n += 2
    return 0


cdef int sweep_pending(Ctx *c, IVec *pending) noexcept nogil:
    """Remove, in order, every pending pair that links now (re-checked: the board moves);
    keep the others. Returns 1 if something was removed, 0 if not, -1 when a budget ran out."""
    cdef Grid *g = c.g
    cdef int64_t i, kept = 0
    cdef int a, b, removed = 0
    for i in range(pending.n // 2):
        a = pending.data[2 * i]
        b = pending.data[2 * i + 1]
        if same_type_linkable(g, a, b) and link_cells(g, c.w, a, b, c.max_turns):
            if not spend(&c.b):
                return -1
            play(c, a, b)
            removed = 1
        else:
            pending.data[2 * kept] = a
            pending.data[2 * kept + 1] = b
            kept += 1
    pending.n = 2 * kept
    return removed


cdef int run_matching(Ctx *c, int maxcount) noexcept nogil:
    """Seed 003: sweep the matched pairs that still link; when a sweep removes nothing, rebuild
    the matching from the current board; stop (ST_STUCK) when a fresh matching removes nothing."""
    cdef Grid *g = c.g
    cdef IVec pending
    pending.data = NULL
    pending.n = 0
    pending.cap = 0
    cdef Matcher m
    cdef int half = (maxcount + 1) // 2 + 1
    cdef int r, status = ST_SOLVED
    cdef int32_t *tiles = <int32_t *>llk_malloc((maxcount + 1) * sizeof(int32_t))
    m.start = <int64_t *>llk_malloc((half + 1) * sizeof(int64_t))
    m.adj.data = NULL
    m.adj.n = 0
    m.adj.cap = 0
    m.ml = <int32_t *>llk_malloc(half * sizeof(int32_t))
    m.mr = <int32_t *>llk_malloc(half * sizeof(int32_t))
    m.dist = <int32_t *>llk_malloc(half * sizeof(int32_t))
    m.queue = <int32_t *>llk_malloc(half * sizeof(int32_t))
    if tiles == NULL or m.start == NULL or m.ml == NULL or m.mr == NULL or m.dist == NULL or m.queue == NULL:
        status = ST_MEMORY
    else:
        while g.tiles > 0:
            r = sweep_pending(c, &pending)
            if r < 0:
                status = c.b.stop
                break
            if r > 0:
                continue
            if not spend(&c.b):
                status = c.b.stop
                break
            r = build_matching(c, &pending, tiles, &m)
            if r < 0:
                status = ST_MEMORY if r == -1 else c.b.stop
                break
            r = sweep_pending(c, &pending)
            if r < 0:
                status = c.b.stop
                break
            if r == 0:
                status = ST_STUCK
                break
    llk_free(tiles)
    llk_free(m.start)
    llk_free(m.adj.data)
    llk_free(m.ml)
    llk_free(m.mr)
    llk_free(m.dist)
    llk_free(m.queue)
    llk_free(pending.data)
    return status
