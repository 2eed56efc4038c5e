# cython: language_level=3
"""Solvers: the seeds' three heuristic strategies and the exact search (DESIGN §3).

Every strategy plays on the GridState it is given (the facade passes a private copy), records the
removals it makes (padded cells, in play order: the certificate) and runs without the GIL.

Budgets. ``nodes`` counts positions examined: greedy-freedom one per move chosen, greedy-mobility
one per position it chooses in and one per position it scores, matching one per matching built
and one per removal, exact one per search node (a position after closure, or with gravity a
position reached by a move). A node or time budget that runs out ends the run with status
NODES / TIME, never with a guess; the clock is read once per node.

Exact search without gravity (removing tiles never breaks a link between the tiles that remain):
the search fixes pairings, not move orders. State = the tiles left plus ``partner[]`` (committed
pairs). Closure, repeated to a fixpoint: remove every committed pair that links; commit the last
two uncommitted tiles of a type; clear a type's uncommitted tiles outright when that type's own
moves can clear them now (safe). Then, in order: solved if no tile is left; dead if the memo
knows the state; dead if no pair consistent with the commitments links now; dead if the
relaxed peeling (below) gets stuck; else branch: a tile x of the most constrained type with a
linkable pair, over its partners y (linkable-now partners first), each child committing (x, y).
Dead states are stored in a size-capped hash table keyed by two 64-bit Zobrist hashes of
(tiles left, commitments).

Relaxed peeling (a sound dead test). Repeatedly delete ONE tile x when it links, through the
cells of the tiles still present, to the cell of an allowed partner (its committed partner, or
any uncommitted tile of its type), whether that partner is still present or already deleted.
Deleting only helps, so the fixpoint is unique. If the state can be cleared, the real removal
sequence is a valid deletion order (each removed tile links to its real partner through a
subset of the real obstacles), so a fixpoint with tiles left proves the state dead: the tiles
left form a closed set, none of which can ever be removed first. It catches mutual blocking,
and on big random deals (where play dies out after a few removals) it proves the root dead.

Conflict-directed backjumping. A closed set stays closed in any state that keeps its tiles
with the same commitments, so a dead state's reason is the set of decision levels that
committed its tiles (shrunk by dropping levels while a closed subset remains). When a child
dies for reasons that do not involve the decision that made it, its siblings die the same way
and the search jumps back over that node; nodes left that way are dead and memoised too.

Around the search, "exact" first looks at the root alone, then lets greedy-freedom and
greedy-mobility try for a cheap certificate, then searches in rounds that alternate two
branching rules with doubling node budgets, keeping the dead-state table between rounds.

Exact search with gravity: depth-first over moves (most hemmed-in pairs first) with a
size-capped table of dead positions keyed by Zobrist hashes of (cell, type) of every tile.
"""
import numpy as np
cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from .grid cimport (GRAVITY_NONE, Grid, GridState, PathWork, adjacent, empty_neighbours,
                    link_sweep, path_search, put_pair, put_tile, same_type_linkable, take_pair,
                    take_tile)

cnp.import_array()

# Strategy codes (the facade's STRATEGIES, in this order).
cdef enum:
    STRAT_EXACT = 0
    STRAT_FREEDOM = 1
    STRAT_MOBILITY = 2
    STRAT_MATCHING = 3

# Run statuses, also returned to the facade.
cdef enum:
    ST_DEAD = 0        # proved unsolvable (exact only, or odd counts)
    ST_SOLVED = 1      # cleared; the recorded removals are the certificate
    ST_NODES = 2       # node budget spent
    ST_TIME = 3        # time budget spent
    ST_STUCK = 4       # a heuristic found no move it may play (it never says "unsolvable")
    ST_MEMORY = 5      # an allocation failed
    ST_ODD = 6         # some type has an odd number of tiles: unsolvable at once
    ST_CANCELLED = 7   # another thread asked the run to stop (Solver.cancel)
    OPEN = 10          # internal: a search node with children to try

STATUS_NAMES = {ST_DEAD: "unsolvable", ST_SOLVED: "solved", ST_NODES: "node_limit",
                ST_TIME: "time_limit", ST_STUCK: "stuck", ST_MEMORY: "memory", ST_ODD: "odd_count",
                ST_CANCELLED: "cancelled"}

# Event trail of the exact search: EVW ints per event (kind, a, b, type, decision level).
cdef enum:
    EV_REMOVE = 0
    EV_COMMIT = 1
    EVW = 5

# Test switches of solve_state's ``options`` (each pruning can be checked on its own); bits
# 16..19, when not 0, fix one branching rule (CHOICE_*) instead of alternating two.
cdef enum:
    OPT_NO_CBJ = 1
    OPT_NO_PEEL = 2
    OPT_NO_QUICK = 8      # "exact" without its root look and greedy tries

# Branching rules of choose(), and the first round's budget of run_with_restarts.
cdef enum:
    CHOICE_FEWEST_PAIRS = 4
    CHOICE_FEWEST_PAIRS_FREEST = 2
    RESTART_BASE = 500

# Node cap of each greedy try before the exact search, per tile on the board.
cdef enum:
    QUICK_NODES_PER_TILE = 16

# Conflict analysis: peelings it may spend on one dead state, and the deepest search (in
# decision levels) that keeps conflict sets (one bitset per level).
cdef enum:
    CONFLICT_TRIES = 9
    CBJ_MAX_LEVELS = 4096

# Largest number of uncommitted tiles of one type that closure tries to clear outright (the
# failed-subset memo of that small search is a 256-bit set).
cdef enum:
    SELF_CLEAR_MAX = 8

#: Default cap of the dead-state table, in entries (16 bytes each): 2**21 entries = 32 MiB.
MEMO_ENTRIES = 1 << 21
# The table starts small and doubles while it is more than half full, up to the cap; at the cap
# new entries replace old ones, so memory never grows past it.
cdef enum:
    MEMO_START_BUCKETS = 1 << 10


# ---- context shared by every strategy -------------------------------------------------------------

cdef extern from *:
    """
    static inline int llk_load_flag(const int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    """
    int llk_load_flag(const int *p) noexcept nogil


cdef struct Ctx:
    const int *cancel       # another thread sets *cancel to stop the run (NULL: no flag)
    Grid *g
    PathWork *w
    int max_turns
    int gravity
    int64_t nodes
    int64_t node_limit      # -1: none
    double deadline         # < 0: none
    int stop                # why the run stopped early (ST_NODES / ST_TIME / ST_MEMORY), else 0
    int32_t *out            # removals made, 2 padded cells each
    int nout
    int32_t *gbuf           # gravity moves of one removal (scratch)


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline bint spend(Ctx *c) noexcept nogil:
    """Count one node; False (c.stop set) when a budget is spent or the run was cancelled."""
    if c.cancel != NULL and llk_load_flag(c.cancel):
        c.stop = ST_CANCELLED
        return False
    if c.node_limit >= 0 and c.nodes >= c.node_limit:
        c.stop = ST_NODES
        return False
    if c.deadline >= 0 and now() > c.deadline:
        c.stop = ST_TIME
        return False
    c.nodes += 1
    return True


cdef inline bint linkp(Ctx *c, int pa, int pb) noexcept nogil:
    """Link test between the cells pa and pb (types not checked).

    The occupancy of the endpoints is ignored (the sweep and the BFS both treat them as path
    ends), so pb may also be an empty cell: the relaxed peeling links to deleted partners.
    Cheap rejects first: adjacent cells always link; otherwise both ends need an empty neighbour.
    """
    cdef Grid *g = c.g
    if adjacent(g, pa, pb):
        return True
    if empty_neighbours(g, pa) == 0 or empty_neighbours(g, pb) == 0:
        return False
    if c.max_turns <= 2:
        return link_sweep(g, pa, pb, c.max_turns)
    return path_search(g, c.w, pa, pb, c.max_turns) >= 0


cdef inline void record(Ctx *c, int a, int b) noexcept nogil:
    if a < b:
        c.out[2 * c.nout] = a
        c.out[2 * c.nout + 1] = b
    else:
        c.out[2 * c.nout] = b
        c.out[2 * c.nout + 1] = a
    c.nout += 1


cdef inline void play(Ctx *c, int a, int b) noexcept nogil:
    """Record and make a removal (gravity applied)."""
    record(c, a, b)
    take_pair(c.g, a, b, c.gravity, c.gbuf)


cdef inline bint pair_less(int a, int b, int best_a, int best_b) noexcept nogil:
    """(a, b) < (best_a, best_b): padded order is row-major order, as in llkref's sorted lists."""
    return a < best_a or (a == best_a and b < best_b)


# Growable int32 vector (malloc'd; the caller frees .data).
cdef struct IVec:
    int32_t *data
    int64_t n, cap


cdef inline bint ivec_reserve(IVec *v, int64_t need) noexcept nogil:
    cdef int64_t cap
    cdef int32_t *d
    if need <= v.cap:
        return True
    cap = v.cap * 2 if v.cap > 0 else 256
    while cap < need:
        cap *= 2
    d = <int32_t *>realloc(v.data, cap * sizeof(int32_t))
    if d == NULL:
        return False
    v.data = d
    v.cap = cap
    return True


# ---- greedy strategies (seeds 001 and 004) ----------------------------------------------------

cdef int run_freedom(Ctx *c) noexcept nogil:
    """Seed 001: remove the linkable pair whose tiles have the fewest empty neighbours in total;
    ties go to the smallest pair. Stops (ST_STUCK) when no pair links."""
    cdef Grid *g = c.g
    cdef int t, i, j, n, base, pa, pb, lo, hi, score, best_score, best_a, best_b
    while g.tiles > 0:
        if not spend(c):
            return c.stop
        best_a = -1
        best_b = -1
        best_score = 1 << 30
        for t in range(g.ntypes):
            base = g.offset[t]
            n = g.count[t]
            for i in range(n):
                pa = g.pos[base + i]
                for j in range(i + 1, n):
                    pb = g.pos[base + j]
                    lo = pa if pa < pb else pb
                    hi = pb if pa < pb else pa
                    score = empty_neighbours(g, pa) + empty_neighbours(g, pb)
                    # Skip the link test when the pair could not win anyway.
                    if score > best_score or (score == best_score and not pair_less(lo, hi, best_a, best_b)):
                        continue
                    if linkp(c, pa, pb):
                        best_score = score
                        best_a = lo
                        best_b = hi
        if best_a < 0:
            return ST_STUCK
        play(c, best_a, best_b)
    return ST_SOLVED


cdef int64_t count_moves(Ctx *c) noexcept nogil:
    """Number of removable pairs now."""
    cdef Grid *g = c.g
    cdef int t, i, j, n, base
    cdef int64_t k = 0
    for t in range(g.ntypes):
        base = g.offset[t]
        n = g.count[t]
        for i in range(n):
            for j in range(i + 1, n):
                if linkp(c, g.pos[base + i], g.pos[base + j]):
                    k += 1
    return k


cdef int collect_moves(Ctx *c, IVec *v) noexcept nogil:
    """Every removable pair (lo, hi) into v; -1 if out of memory, else the number of pairs."""
    cdef Grid *g = c.g
    cdef int t, i, j, n, base, pa, pb
    v.n = 0
    for t in range(g.ntypes):
        base = g.offset[t]
        n = g.count[t]
        for i in range(n):
            pa = g.pos[base + i]
            for j in range(i + 1, n):
                pb = g.pos[base + j]
                if linkp(c, pa, pb):
                    if not ivec_reserve(v, v.n + 2):
                        return -1
                    v.data[v.n] = pa if pa < pb else pb
                    v.data[v.n + 1] = pb if pa < pb else pa
                    v.n += 2
    return <int>(v.n // 2)


cdef int run_mobility(Ctx *c) noexcept nogil:
    """Seed 004: remove the pair that leaves the most removable pairs; ties go to the smallest
    pair. Stops (ST_STUCK) when no pair links."""
    cdef Grid *g = c.g
    cdef IVec mv
    mv.data = NULL
    mv.n = 0
    mv.cap = 0
    cdef int k, i, a, b, ta, tb, ng, best_a, best_b, status = ST_SOLVED
    cdef int64_t score, best_score
    while g.tiles > 0:
        if not spend(c):
            status = c.stop
            break
        k = collect_moves(c, &mv)
        if k < 0:
            status = ST_MEMORY
            break
        if k == 0:
            status = ST_STUCK
            break
        best_a = -1
        best_b = -1
        best_score = -1
        for i in range(k):
            if not spend(c):
                break
            a = mv.data[2 * i]
            b = mv.data[2 * i + 1]
            ta = g.tid[a]
            tb = g.tid[b]
            ng = take_pair(g, a, b, c.gravity, c.gbuf)
            score = count_moves(c)
            put_pair(g, a, b, ta, tb, c.gbuf, ng)
            if score > best_score or (score == best_score and pair_less(a, b, best_a, best_b)):
                best_score = score
                best_a = a
                best_b = b
        if c.stop:
            status = c.stop
            break
        play(c, best_a, best_b)
    free(mv.data)
    return status


# ---- matching strategy (seed 003) -------------------------------------------------------------

cdef struct Matcher:
    int nl, nr
    uint8_t *adj            # nl * nr, row u: the right vertices joined to left vertex u
    int32_t *ml
    int32_t *mr
    int32_t *dist
    int32_t *queue


cdef bint hk_layers(Matcher *m) noexcept nogil:
    """Hopcroft-Karp BFS phase: layer the left vertices; True if a free right vertex is reached."""
    cdef int u, v, w, qh = 0, qt = 0
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
        for v in range(m.nr):
            if m.adj[u * m.nr + v]:
                w = m.mr[v]
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
    for v in range(m.nr):
        if m.adj[u * m.nr + v]:
            w = m.mr[v]
            if w == -1 or (m.dist[w] == m.dist[u] + 1 and hk_augment(m, w)):
                m.ml[u] = v
                m.mr[v] = u
                return True
    m.dist[u] = -1
    return False


cdef void sort_ints(int32_t *a, int n) noexcept nogil:
    """Ascending insertion sort (a type's tiles: short lists)."""
    cdef int i, j
    cdef int32_t x
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


cdef int build_matching(Ctx *c, IVec *pending, int32_t *tiles, Matcher *m) noexcept nogil:
    """Seed 003's pairs: per type, tiles in row-major order split even/odd into left/right, an
    edge when two tiles link now, a maximum matching (Hopcroft-Karp); its pairs into pending.
    Returns -1 if out of memory."""
    cdef Grid *g = c.g
    cdef int t, i, u, v, n
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
        for u in range(m.nl):
            m.ml[u] = -1
            for v in range(m.nr):
                m.adj[u * m.nr + v] = linkp(c, tiles[2 * u], tiles[2 * v + 1])
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
        if same_type_linkable(g, a, b) and linkp(c, a, b):
            if not spend(c):
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
    cdef int32_t *tiles = <int32_t *>malloc((maxcount + 1) * sizeof(int32_t))
    m.adj = <uint8_t *>malloc(<size_t>half * half + 1)
    m.ml = <int32_t *>malloc(half * sizeof(int32_t))
    m.mr = <int32_t *>malloc(half * sizeof(int32_t))
    m.dist = <int32_t *>malloc(half * sizeof(int32_t))
    m.queue = <int32_t *>malloc(half * sizeof(int32_t))
    if tiles == NULL or m.adj == NULL or m.ml == NULL or m.mr == NULL or m.dist == NULL or m.queue == NULL:
        status = ST_MEMORY
    else:
        while g.tiles > 0:
            r = sweep_pending(c, &pending)
            if r < 0:
                status = c.stop
                break
            if r > 0:
                continue
            if not spend(c):
                status = c.stop
                break
            if build_matching(c, &pending, tiles, &m) < 0:
                status = ST_MEMORY
                break
            r = sweep_pending(c, &pending)
            if r < 0:
                status = c.stop
                break
            if r == 0:
                status = ST_STUCK
                break
    free(tiles)
    free(m.adj)
    free(m.ml)
    free(m.mr)
    free(m.dist)
    free(m.queue)
    free(pending.data)
    return status


# ---- hashing and the dead-state table -------------------------------------------------------------

cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """splitmix64's finaliser: a bijective scramble of 64 bits."""
    x += <uint64_t>0x9E3779B97F4A7C15
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EB
    return x ^ (x >> 31)


cdef struct Memo:
    uint64_t *keys          # 2 words per entry, 2 entries per bucket; (0, 0) = empty
    int64_t nbuckets        # power of two
    int64_t max_buckets     # the cap
    int64_t used


cdef bint memo_init(Memo *m, int64_t max_entries) noexcept nogil:
    cdef int64_t cap = 1
    while cap * 4 <= max_entries:
        cap *= 2
    m.max_buckets = cap
    m.nbuckets = MEMO_START_BUCKETS if MEMO_START_BUCKETS < cap else cap
    m.used = 0
    m.keys = <uint64_t *>calloc(<size_t>(4 * m.nbuckets), sizeof(uint64_t))
    return m.keys != NULL


cdef inline bint memo_has(const Memo *m, uint64_t k0, uint64_t k1) noexcept nogil:
    cdef uint64_t *b = m.keys + 4 * (k0 & <uint64_t>(m.nbuckets - 1))
    return (b[0] == k0 and b[1] == k1) or (b[2] == k0 and b[3] == k1)


cdef void memo_insert(Memo *m, uint64_t *keys, int64_t nbuckets, uint64_t k0, uint64_t k1) noexcept nogil:
    """Newest entry first in its bucket; the older one moves to slot 1, the oldest is dropped."""
    cdef uint64_t *b = keys + 4 * (k0 & <uint64_t>(nbuckets - 1))
    if (b[0] == k0 and b[1] == k1) or (b[2] == k0 and b[3] == k1):
        return
    if b[0] == 0 and b[1] == 0:
        b[0] = k0
        b[1] = k1
        m.used += 1
        return
    if b[2] == 0 and b[3] == 0:
        m.used += 1
    b[2] = b[0]
    b[3] = b[1]
    b[0] = k0
    b[1] = k1


cdef void memo_put(Memo *m, uint64_t k0, uint64_t k1) noexcept nogil:
    cdef int64_t i, nb
    cdef uint64_t *bigger
    if k0 == 0 and k1 == 0:
        return
    if m.used > m.nbuckets and m.nbuckets < m.max_buckets:
        nb = m.nbuckets * 2
        bigger = <uint64_t *>calloc(<size_t>(4 * nb), sizeof(uint64_t))
        if bigger != NULL:
            m.used = 0
            # Re-insert the older entries first so each bucket keeps its recency order.
            for i in range(m.nbuckets):
                if m.keys[4 * i + 2] or m.keys[4 * i + 3]:
                    memo_insert(m, bigger, nb, m.keys[4 * i + 2], m.keys[4 * i + 3])
            for i in range(m.nbuckets):
                if m.keys[4 * i] or m.keys[4 * i + 1]:
                    memo_insert(m, bigger, nb, m.keys[4 * i], m.keys[4 * i + 1])
            free(m.keys)
            m.keys = bigger
            m.nbuckets = nb
    memo_insert(m, m.keys, m.nbuckets, k0, k1)


# ---- exact search without gravity: pairings ---------------------------------------------------------

cdef struct Frame:
    int ev_mark             # event trail length before the commit that led here
    int x                   # the tile branched on
    int64_t cand_base       # its partners: cand[cand_base : cand_base + ncand]
    int ncand
    int next
    uint64_t k0, k1         # the state's key after closure
    int ngm                 # (gravity search) gravity moves of the move made from here
    int64_t gm_base


cdef struct Exact:
    Ctx *c
    int HW
    int32_t *partner        # HW: committed partner cell, -1 if uncommitted
    int32_t *ucount         # ntypes: uncommitted tiles left
    int32_t *cpairs         # committed pairs still on the board, 2 cells each
    int32_t *cidx           # HW: index in cpairs of a committed tile's pair
    int ncp
    int32_t *ev             # event trail: EVW ints per event (kind, a, b, type, level)
    int nev
    int level               # decision level of the node being entered (0: the root)
    uint64_t k0, k1         # key of the current state
    uint64_t *z             # 2 * HW: Zobrist words of each cell (presence)
    Memo memo
    Frame *frames
    IVec cand
    int32_t *u              # scratch: a type's uncommitted tiles
    int32_t *deg            # scratch: their linkable-now partner counts
    int32_t *peel           # peeled tiles (cell, type) during the relaxed peeling
    int32_t *peeled         # ntypes: tiles of each type peeled so far
    int64_t *keys           # (gravity search) sort keys of one position's moves
    uint8_t *inset          # HW: tiles taking part in a restricted peeling
    uint8_t *instuck        # HW: tiles of the closed set a peeling got stuck on
    uint8_t *tflag          # ntypes: scratch flags of the conflict analysis
    int cbj                 # conflict-directed backjumping on (off for very deep searches)
    int nopeel              # (tests) no relaxed peeling
    int choice              # branching rule of choose() (CHOICE_*)
    int tries               # peelings the conflict analysis may spend on one dead state
    int32_t *lvl            # HW: (conflict analysis) the decision level a tile rests on
    int32_t *tmax           # ntypes: latest decision level that committed a tile of the type
    int nwords              # words of one conflict set (a bitset over decision levels)
    uint64_t *conf          # the conflict of the last dead node
    uint64_t *cfpool        # one conflict set per frame: the union of its dead children's
    int64_t nkeys


cdef inline uint64_t pair_key(int a, int b, uint64_t salt) noexcept nogil:
    if a > b:
        a, b = b, a
    return mix64((<uint64_t>a << 32) ^ <uint64_t>b ^ salt)


cdef inline void push_event(Exact *E, int kind, int a, int b, int t) noexcept nogil:
    cdef int32_t *e = E.ev + EVW * E.nev
    e[0] = kind
    e[1] = a
    e[2] = b
    e[3] = t
    e[4] = E.level
    E.nev += 1


cdef inline void xcommit(Exact *E, int a, int b) noexcept nogil:
    cdef int t = E.c.g.tid[a]
    E.partner[a] = b
    E.partner[b] = a
    E.ucount[t] -= 2
    E.cidx[a] = E.ncp
    E.cidx[b] = E.ncp
    E.cpairs[2 * E.ncp] = a
    E.cpairs[2 * E.ncp + 1] = b
    E.ncp += 1
    E.k0 ^= pair_key(a, b, 0x51ED)
    E.k1 ^= pair_key(a, b, 0xC0FFEE)
    push_event(E, EV_COMMIT, a, b, t)


cdef inline void cpairs_drop(Exact *E, int a) noexcept nogil:
    """Swap-remove a's committed pair from cpairs."""
    cdef int i = E.cidx[a]
    cdef int last = E.ncp - 1
    cdef int la = E.cpairs[2 * last], lb = E.cpairs[2 * last + 1]
    E.cpairs[2 * i] = la
    E.cpairs[2 * i + 1] = lb
    E.cidx[la] = i
    E.cidx[lb] = i
    E.ncp -= 1


cdef inline void cpairs_add(Exact *E, int a, int b) noexcept nogil:
    E.cidx[a] = E.ncp
    E.cidx[b] = E.ncp
    E.cpairs[2 * E.ncp] = a
    E.cpairs[2 * E.ncp + 1] = b
    E.ncp += 1


cdef inline void xremove(Exact *E, int a, int b) noexcept nogil:
    """Remove the linkable pair (a, b) (committed together, or both uncommitted)."""
    cdef Grid *g = E.c.g
    cdef int t = g.tid[a]
    if E.partner[a] >= 0:
        cpairs_drop(E, a)
        E.k0 ^= pair_key(a, b, 0x51ED)
        E.k1 ^= pair_key(a, b, 0xC0FFEE)
    else:
        E.ucount[t] -= 2
    take_pair(g, a, b, GRAVITY_NONE, NULL)
    E.k0 ^= E.z[2 * a] ^ E.z[2 * b]
    E.k1 ^= E.z[2 * a + 1] ^ E.z[2 * b + 1]
    push_event(E, EV_REMOVE, a, b, t)


cdef void undo_to(Exact *E, int mark) noexcept nogil:
    """Undo events (removals and commitments) back to trail length ``mark``, newest first."""
    cdef Grid *g = E.c.g
    cdef int kind, a, b, t
    while E.nev > mark:
        E.nev -= 1
        kind = E.ev[EVW * E.nev]
        a = E.ev[EVW * E.nev + 1]
        b = E.ev[EVW * E.nev + 2]
        t = E.ev[EVW * E.nev + 3]
        if kind == EV_REMOVE:
            put_pair(g, a, b, t, t, NULL, 0)
            E.k0 ^= E.z[2 * a] ^ E.z[2 * b]
            E.k1 ^= E.z[2 * a + 1] ^ E.z[2 * b + 1]
            if E.partner[a] >= 0:
                cpairs_add(E, a, b)
                E.k0 ^= pair_key(a, b, 0x51ED)
                E.k1 ^= pair_key(a, b, 0xC0FFEE)
            else:
                E.ucount[t] += 2
        else:
            cpairs_drop(E, a)
            E.partner[a] = -1
            E.partner[b] = -1
            E.ucount[t] += 2
            E.k0 ^= pair_key(a, b, 0x51ED)
            E.k1 ^= pair_key(a, b, 0xC0FFEE)


cdef inline int gather_uncommitted(Exact *E, int t) noexcept nogil:
    """The uncommitted tiles of type t into E.u, ascending cells; returns how many."""
    cdef Grid *g = E.c.g
    cdef int i, p, n = 0
    for i in range(g.count[t]):
        p = g.pos[g.offset[t] + i]
        if E.partner[p] < 0:
            E.u[n] = p
            n += 1
    sort_ints(E.u, n)
    return n


cdef inline bint can_open(Exact *E, int p, int t) noexcept nogil:
    """p has a neighbour that is empty or an uncommitted tile of its own type (so the type's
    own moves might free a way out of p)."""
    cdef Grid *g = E.c.g
    cdef int k, q
    cdef int d[4]
    d[0] = -g.W
    d[1] = g.W
    d[2] = -1
    d[3] = 1
    for k in range(4):
        q = p + d[k]
        if g.cells[q] == 0 or (g.tid[q] == t and E.partner[q] < 0):
            return True
    return False


cdef bint self_clear(Exact *E, int32_t *u, int n, int mask, uint64_t *failed) noexcept nogil:
    """Clear the tiles u[i] (i in mask) with their own moves only; small exhaustive search over
    removal orders with a memo of failed subsets. On success the removals stay made."""
    cdef int i, j, mark
    if mask == 0:
        return True
    if (failed[mask >> 6] >> (mask & 63)) & 1:
        return False
    for i in range(n):
        if not (mask >> i) & 1:
            continue
        for j in range(i + 1, n):
            if not (mask >> j) & 1:
                continue
            if linkp(E.c, u[i], u[j]):
                mark = E.nev
                xremove(E, u[i], u[j])
                if self_clear(E, u, n, mask & ~((1 << i) | (1 << j)), failed):
                    return True
                undo_to(E, mark)
    failed[mask >> 6] |= (<uint64_t>1) << (mask & 63)
    return False


cdef void closure(Exact *E) noexcept nogil:
    """Apply the safe steps to a fixpoint: remove linkable committed pairs, commit the last two
    uncommitted tiles of a type, clear a type's uncommitted tiles when its own moves can."""
    cdef Grid *g = E.c.g
    cdef int i, t, n, a, b, k
    cdef bint progress, openable
    cdef uint64_t failed[4]
    cdef int32_t local[SELF_CLEAR_MAX]
    while True:
        progress = False
        i = 0
        while i < E.ncp:
            a = E.cpairs[2 * i]
            b = E.cpairs[2 * i + 1]
            if linkp(E.c, a, b):
                xremove(E, a, b)      # the last pair moves into slot i
                progress = True
            else:
                i += 1
        for t in range(g.ntypes):
            n = E.ucount[t]
            if n == 0:
                continue
            if n == 2:
                gather_uncommitted(E, t)
                xcommit(E, E.u[0], E.u[1])
                progress = True
                continue
            if n > SELF_CLEAR_MAX:
                continue
            gather_uncommitted(E, t)
            openable = True
            for k in range(n):
                local[k] = E.u[k]
                if not can_open(E, local[k], t):
                    openable = False
                    break
            if not openable:
                continue
            failed[0] = failed[1] = failed[2] = failed[3] = 0
            if self_clear(E, local, n, (1 << n) - 1, failed):
                progress = True
        if not progress:
            break


cdef bint can_peel(Exact *E, int x, int t) noexcept nogil:
    """x links, through the tiles still present, to an allowed partner (present or peeled)."""
    cdef Grid *g = E.c.g
    cdef int p = E.partner[x]
    cdef int k, m, base, end, q
    if empty_neighbours(g, x) == 0:
        # Enclosed: only an adjacent partner can link, and it is present (a peeled one would
        # have left an empty neighbour).
        if p >= 0:
            return adjacent(g, x, p)
        for k in range(4):
            q = x + (-g.W if k == 0 else g.W if k == 1 else -1 if k == 2 else 1)
            if g.tid[q] == t and E.partner[q] < 0:
                return True
        return False
    if p >= 0:
        return linkp(E.c, x, p)
    base = g.offset[t]
    end = g.count[t] + E.peeled[t]    # live tiles, then the ones peeled in this run
    for k in range(end):
        m = g.pos[base + k]
        if m != x and E.partner[m] < 0 and linkp(E.c, x, m):
            return True
    return False


cdef int peel_run(Exact *E, bint restrict, bint mark) noexcept nogil:
    """The relaxed peeling (module docstring); returns how many tiles it leaves (0: not dead).

    restrict: only the tiles with ``inset[p] == 1`` take part; the others count as peeled from
    the start (free cells, and partners like any peeled tile). mark: set ``instuck[p]`` for
    every tile left (a closed set: none of them can ever go first). The board is restored.
    """
    cdef Grid *g = E.c.g
    cdef int t, i, x, npeel = 0, left
    cdef bint changed = True
    if restrict:
        for t in range(g.ntypes):
            i = 0
            while i < g.count[t]:
                x = g.pos[g.offset[t] + i]
                if E.inset[x] != 1:
                    take_tile(g, x)
                    E.peeled[t] += 1
                    E.peel[2 * npeel] = x
                    E.peel[2 * npeel + 1] = t
                    npeel += 1
                else:
                    i += 1
    while changed and g.tiles > 0:
        changed = False
        for t in range(g.ntypes):
            i = 0
            while i < g.count[t]:
                x = g.pos[g.offset[t] + i]
                if can_peel(E, x, t):
                    take_tile(g, x)       # the last live tile moves into slot i
                    E.peeled[t] += 1
                    E.peel[2 * npeel] = x
                    E.peel[2 * npeel + 1] = t
                    npeel += 1
                    changed = True
                else:
                    i += 1
    left = g.tiles
    if mark and left > 0:
        for t in range(g.ntypes):
            for i in range(g.count[t]):
                E.instuck[g.pos[g.offset[t] + i]] = 1
    while npeel > 0:
        npeel -= 1
        x = E.peel[2 * npeel]
        t = E.peel[2 * npeel + 1]
        put_tile(g, x, t)
        E.peeled[t] -= 1
    return left


cdef int choose(Exact *E, Frame *f) noexcept nogil:
    """Pick the tile to branch on and list its partners; 0 if no pair links now.

    Most constrained type first: among types with >= 4 uncommitted tiles and a linkable pair,
    the fewest linkable pairs, then the fewest tiles. Rule CHOICE_FEWEST_PAIRS: then the lowest
    type, and x = its tile with the fewest (but >= 1) linkable partners. Rule
    CHOICE_FEWEST_PAIRS_FREEST: then the type whose linkable pair is the most hemmed in (fewest
    empty neighbours, as greedy-freedom), and x = a tile of that pair. Partners: the linkable
    ones, then the others, cells ascending.
    """
    cdef Grid *g = E.c.g
    cdef int t, n, i, j, pairs, best_t = -1, best_pairs = 0, best_n = 0, x, k
    cdef int score, best_score = 1 << 30, best_x = -1, sc, a = -1
    cdef bint freest = E.choice == CHOICE_FEWEST_PAIRS_FREEST
    for t in range(g.ntypes):
        n = E.ucount[t]
        if n < 4:
            continue
        n = gather_uncommitted(E, t)
        pairs = 0
        sc = 1 << 30
        for i in range(n):
            for j in range(i + 1, n):
                if linkp(E.c, E.u[i], E.u[j]):
                    pairs += 1
                    score = empty_neighbours(g, E.u[i]) + empty_neighbours(g, E.u[j])
                    if score < sc:
                        sc = score
                        a = E.u[i]
        if pairs == 0:
            continue
        if best_t < 0 or pairs < best_pairs or (pairs == best_pairs and n < best_n) or (
                freest and pairs == best_pairs and n == best_n and sc < best_score):
            best_t = t
            best_pairs = pairs
            best_n = n
            best_score = sc
            best_x = a
    if best_t < 0:
        return 0
    n = gather_uncommitted(E, best_t)
    for i in range(n):
        E.deg[i] = 0
    for i in range(n):
        for j in range(i + 1, n):
            if linkp(E.c, E.u[i], E.u[j]):
                E.deg[i] += 1
                E.deg[j] += 1
    k = -1
    for i in range(n):
        if E.deg[i] > 0 and (k < 0 or E.deg[i] < E.deg[k]):
            k = i
    if freest:
        for i in range(n):
            if E.u[i] == best_x:
                k = i
    x = E.u[k]
    f.x = x
    if not ivec_reserve(&E.cand, f.cand_base + n):
        E.c.stop = ST_MEMORY
        return -1
    f.ncand = 0
    for j in range(n):
        if j != k and linkp(E.c, x, E.u[j]):
            E.cand.data[f.cand_base + f.ncand] = E.u[j]
            f.ncand += 1
    for j in range(n):
        if j != k and not linkp(E.c, x, E.u[j]):
            E.cand.data[f.cand_base + f.ncand] = E.u[j]
            f.ncand += 1
    f.next = 0
    return 1


cdef inline void conf_clear(Exact *E, uint64_t *cf) noexcept nogil:
    memset(cf, 0, E.nwords * sizeof(uint64_t))


cdef inline void conf_all(Exact *E, uint64_t *cf) noexcept nogil:
    """Levels 1 .. E.level: the conservative conflict (every decision on the path)."""
    cdef int l
    conf_clear(E, cf)
    for l in range(1, E.level + 1):
        cf[l >> 6] |= (<uint64_t>1) << (l & 63)


cdef inline bint conf_has(const uint64_t *cf, int l) noexcept nogil:
    return (cf[l >> 6] >> (l & 63)) & 1


cdef int restricted_peel(Exact *E, int drop) noexcept nogil:
    """Peel the closed set S (``instuck``) without its tiles of level ``drop``. If that leaves
    a closed set, ``instuck`` becomes it; else S stays. Returns the tiles left."""
    cdef Grid *g = E.c.g
    cdef int t, j, p, left
    for t in range(g.ntypes):
        for j in range(g.count[t]):
            p = g.pos[g.offset[t] + j]
            E.inset[p] = 0 if not E.instuck[p] else (2 if E.lvl[p] == drop else 1)
            E.instuck[p] = 0
    left = peel_run(E, True, True)
    if left == 0:
        for t in range(g.ntypes):
            for j in range(g.count[t]):
                p = g.pos[g.offset[t] + j]
                E.instuck[p] = E.inset[p] != 0
    return left


cdef void stuck_conflict(Exact *E) noexcept nogil:
    """E.conf := the decision levels a dead state's closed set S (``instuck``) rests on.

    A closed set stays closed (so the state stays dead) in any state that keeps its tiles with
    their commitments and no more partners for them, whatever else differs. Its tiles depend on
    decisions only through commitments: a committed tile on the level that committed it, an
    uncommitted one on every level that committed a tile of its type (that took partners away);
    call the latest of these the tile's level. To keep the conflict small, whole levels are
    dropped from S, latest first, whenever the rest, peeled again on its own, still leaves a
    closed set (at most E.tries peelings). Clears ``instuck``.
    """
    cdef Grid *g = E.c.g
    cdef int i, j, t, a, b, lev, top = 0, tries = 0
    cdef bint found
    cdef int32_t *e
    # Levels: tmax[t] = latest commit of type t; committed tiles their own commit's level.
    for t in range(g.ntypes):
        E.tmax[t] = 0
    for i in range(E.nev):
        e = E.ev + EVW * i
        if e[0] == EV_COMMIT:
            if e[4] > E.tmax[e[3]]:
                E.tmax[e[3]] = e[4]
            if E.partner[e[1]] == e[2]:
                E.lvl[e[1]] = e[4]
                E.lvl[e[2]] = e[4]
    for t in range(g.ntypes):
        for j in range(g.count[t]):
            a = g.pos[g.offset[t] + j]
            if E.partner[a] < 0:
                E.lvl[a] = E.tmax[t]
            if E.instuck[a] and E.lvl[a] > top:
                top = E.lvl[a]
    # Drop whole levels from S, latest first, while what is left still holds a closed set.
    lev = top
    while lev > 0 and tries < E.tries:
        # Is there a tile of this level in S?
        found = False
        for t in range(g.ntypes):
            for j in range(g.count[t]):
                a = g.pos[g.offset[t] + j]
                if E.instuck[a] and E.lvl[a] == lev:
                    found = True
                    break
            if found:
                break
        if found:
            tries += 1
            restricted_peel(E, lev)
        lev -= 1
    # The conflict: the levels the tiles of S rest on.
    conf_clear(E, E.conf)
    for t in range(g.ntypes):
        for j in range(g.count[t]):
            a = g.pos[g.offset[t] + j]
            if not E.instuck[a]:
                continue
            E.instuck[a] = 0
            if E.partner[a] >= 0:
                lev = E.lvl[a]
                if lev > 0:
                    E.conf[lev >> 6] |= (<uint64_t>1) << (lev & 63)
            else:
                E.tflag[t] = 1
    for i in range(E.nev):
        e = E.ev + EVW * i
        lev = e[4]
        if e[0] == EV_COMMIT and lev > 0 and E.tflag[e[3]]:
            E.conf[lev >> 6] |= (<uint64_t>1) << (lev & 63)
    for t in range(g.ntypes):
        E.tflag[t] = 0


cdef void add_type_levels(Exact *E, uint64_t *cf, int t) noexcept nogil:
    """Add to cf every decision level that committed a tile of type t."""
    cdef int i, lev
    cdef int32_t *e
    for i in range(E.nev):
        e = E.ev + EVW * i
        lev = e[4]
        if e[0] == EV_COMMIT and lev > 0 and e[3] == t:
            cf[lev >> 6] |= (<uint64_t>1) << (lev & 63)


cdef int xenter(Exact *E, Frame *f) noexcept nogil:
    """Enter a search node: closure, then solved / dead / OPEN (f holds the branching).

    When dead, E.conf holds the decision levels the death rests on.
    """
    cdef int r
    if not spend(E.c):
        return E.c.stop
    closure(E)
    if E.c.g.tiles == 0:
        return ST_SOLVED
    f.k0 = E.k0
    f.k1 = E.k1
    if memo_has(&E.memo, E.k0, E.k1):
        if E.cbj:
            conf_all(E, E.conf)
        return ST_DEAD
    r = choose(E, f)
    if r < 0:
        return E.c.stop
    if r == 0:
        # No move: every tile is stuck, so the whole board is the closed set to shrink.
        peel_run(E, False, E.cbj)
    elif E.nopeel or peel_run(E, False, E.cbj) == 0:
        return OPEN
    memo_put(&E.memo, E.k0, E.k1)
    if E.cbj:
        stuck_conflict(E)
    return ST_DEAD


cdef int run_exact_pairing(Exact *E) noexcept nogil:
    """Depth-first search over pairings (explicit stack: deep boards) with conflict-directed
    backjumping: a child that dies for reasons not involving the decision that made it means
    every sibling dies too, so the parent is dead at once (and so on up)."""
    cdef Frame *f
    cdef Frame *child
    cdef int depth = 0, r, y, lev, w
    cdef uint64_t *cf
    E.level = 0
    E.frames[0].ev_mark = 0
    E.frames[0].cand_base = 0
    r = xenter(E, &E.frames[0])
    if r != OPEN:
        return r
    conf_clear(E, E.cfpool)
    while True:
        f = &E.frames[depth]
        if f.next < f.ncand:
            y = E.cand.data[f.cand_base + f.next]
            f.next += 1
            child = &E.frames[depth + 1]
            child.ev_mark = E.nev
            child.cand_base = f.cand_base + f.ncand
            E.level = depth + 1
            xcommit(E, f.x, y)
            r = xenter(E, child)
            if r == OPEN:
                depth += 1
                conf_clear(E, E.cfpool + depth * E.nwords)
                continue
            if r != ST_DEAD:
                return r          # solved (the trail is the certificate) or a budget ran out
            undo_to(E, child.ev_mark)
            lev = depth + 1       # the child, made by the decision at this level, died
        else:
            # Every partner failed: this node is dead, for the union of its children's reasons
            # and for whatever narrowed the partners it tried: the earlier commitments of x's type.
            memo_put(&E.memo, f.k0, f.k1)
            if depth == 0:
                return ST_DEAD
            cf = E.cfpool + depth * E.nwords
            add_type_levels(E, cf, E.c.g.tid[f.x])
            undo_to(E, f.ev_mark)
            for w in range(E.nwords):
                E.conf[w] = cf[w]
            lev = depth
            depth -= 1
        # The node at depth lev - 1 had a child die with conflict E.conf.
        while E.cbj and not conf_has(E.conf, lev):
            # The death did not rest on the decision at this level: every alternative dies
            # the same way, so the parent node is dead too. Jump over it.
            f = &E.frames[lev - 1]
            memo_put(&E.memo, f.k0, f.k1)
            undo_to(E, f.ev_mark)
            if lev - 1 == 0:
                return ST_DEAD
            lev -= 1
            depth = lev - 1
        cf = E.cfpool + depth * E.nwords
        for w in range(E.nwords):
            cf[w] |= E.conf[w]
        cf[lev >> 6] &= ~((<uint64_t>1) << (lev & 63))


cdef int exact_output(Exact *E) noexcept nogil:
    """Copy the removals of the event trail into the certificate."""
    cdef Ctx *c = E.c
    cdef int i
    c.nout = 0
    for i in range(E.nev):
        if E.ev[EVW * i] == EV_REMOVE:
            record(c, E.ev[EVW * i + 1], E.ev[EVW * i + 2])
    return 0


# ---- exact search with gravity: moves -------------------------------------------------------------

cdef inline void grid_key(Exact *E) noexcept nogil:
    """Zobrist key of (cell, type) of every tile, from scratch (tiles move under gravity)."""
    cdef Grid *g = E.c.g
    cdef int t, i, p
    cdef uint64_t k0 = 0, k1 = 0, v
    for t in range(g.ntypes):
        v = mix64(<uint64_t>t * <uint64_t>0x9E3779B97F4A7C15 + 1)
        for i in range(g.count[t]):
            p = g.pos[g.offset[t] + i]
            k0 ^= mix64(E.z[2 * p] ^ v)
            k1 ^= mix64(E.z[2 * p + 1] + v)
    E.k0 = k0
    E.k1 = k1


cdef inline bint keys_reserve(Exact *E, int64_t need) noexcept nogil:
    cdef int64_t cap
    cdef int64_t *d
    if need <= E.nkeys:
        return True
    cap = E.nkeys * 2 if E.nkeys > 0 else 256
    while cap < need:
        cap *= 2
    d = <int64_t *>realloc(E.keys, cap * sizeof(int64_t))
    if d == NULL:
        return False
    E.keys = d
    E.nkeys = cap
    return True


cdef int cmp_i64(const void *x, const void *y) noexcept nogil:
    cdef int64_t a = (<const int64_t *>x)[0]
    cdef int64_t b = (<const int64_t *>y)[0]
    return (a > b) - (a < b)


cdef int genter(Exact *E, Frame *f) noexcept nogil:
    """Enter a position of the gravity search: solved / dead / OPEN with its moves ordered."""
    cdef Ctx *c = E.c
    cdef Grid *g = c.g
    cdef int t, i, j, n, base, pa, pb, lo, hi, k
    cdef int64_t score
    if not spend(c):
        return c.stop
    if g.tiles == 0:
        return ST_SOLVED
    grid_key(E)
    f.k0 = E.k0
    f.k1 = E.k1
    if memo_has(&E.memo, E.k0, E.k1):
        return ST_DEAD
    # Moves, most hemmed-in pair first (greedy-freedom's order), then the smallest pair.
    k = 0
    for t in range(g.ntypes):
        base = g.offset[t]
        n = g.count[t]
        for i in range(n):
            pa = g.pos[base + i]
            for j in range(i + 1, n):
                pb = g.pos[base + j]
                if linkp(c, pa, pb):
                    lo = pa if pa < pb else pb
                    hi = pb if pa < pb else pa
                    score = empty_neighbours(g, pa) + empty_neighbours(g, pb)
                    if not ivec_reserve(&E.cand, f.cand_base + 2 * k + 2) or not keys_reserve(E, k + 1):
                        c.stop = ST_MEMORY
                        return ST_MEMORY
                    E.keys[k] = (score << 42) | (<int64_t>lo << 21) | hi
                    k += 1
    if k == 0:
        memo_put(&E.memo, E.k0, E.k1)
        return ST_DEAD
    qsort(E.keys, k, sizeof(int64_t), cmp_i64)
    for i in range(k):
        E.cand.data[f.cand_base + 2 * i] = <int32_t>((E.keys[i] >> 21) & 0x1FFFFF)
        E.cand.data[f.cand_base + 2 * i + 1] = <int32_t>(E.keys[i] & 0x1FFFFF)
    f.ncand = k
    f.next = 0
    return OPEN


cdef inline void gundo(Exact *E, Frame *f, IVec *gm) noexcept nogil:
    """Take back the move frame f made (its gravity moves are the top of gm)."""
    cdef int a = E.cand.data[f.cand_base + 2 * (f.next - 1)]
    cdef int b = E.cand.data[f.cand_base + 2 * (f.next - 1) + 1]
    put_pair(E.c.g, a, b, f.x, f.x, gm.data + f.gm_base, f.ngm)
    gm.n = f.gm_base


cdef int run_exact_gravity(Exact *E) noexcept nogil:
    """Depth-first search over moves with a table of dead positions (explicit stack)."""
    cdef Ctx *c = E.c
    cdef Grid *g = c.g
    cdef Frame *f
    cdef Frame *child
    cdef IVec gm
    gm.data = NULL
    gm.n = 0
    gm.cap = 0
    cdef int depth = 0, r, a, b, i
    cdef int gcap = 4 * (g.rows + g.cols) + 8
    E.frames[0].cand_base = 0
    r = genter(E, &E.frames[0])
    if r != OPEN:
        return r                  # solved with no move, dead at once, or out of budget
    while depth >= 0:
        f = &E.frames[depth]
        if f.next < f.ncand:
            a = E.cand.data[f.cand_base + 2 * f.next]
            b = E.cand.data[f.cand_base + 2 * f.next + 1]
            f.next += 1
            if not ivec_reserve(&gm, gm.n + gcap):
                r = ST_MEMORY
                break
            f.gm_base = gm.n
            f.x = g.tid[a]        # the pair's type, to put it back
            f.ngm = take_pair(g, a, b, c.gravity, gm.data + gm.n)
            gm.n += 2 * f.ngm
            child = &E.frames[depth + 1]
            child.cand_base = f.cand_base + 2 * f.ncand
            r = genter(E, child)
            if r == OPEN:
                depth += 1
            elif r == ST_DEAD:
                gundo(E, f, &gm)
            else:
                break             # solved, or a budget ran out
        else:
            memo_put(&E.memo, f.k0, f.k1)
            depth -= 1
            if depth >= 0:
                gundo(E, &E.frames[depth], &gm)
    if depth < 0:
        r = ST_DEAD
    if r == ST_SOLVED:
        c.nout = 0
        for i in range(depth + 1):
            f = &E.frames[i]
            record(c, E.cand.data[f.cand_base + 2 * (f.next - 1)],
                   E.cand.data[f.cand_base + 2 * (f.next - 1) + 1])
    free(gm.data)
    return r


cdef int run_with_restarts(Exact *E, int options) noexcept nogil:
    """The pairing search under two branching rules in turn, with budgets that double every
    two rounds (RESTART_BASE nodes first). Each round starts again from the root but keeps the
    table of dead states, so no proof is lost; the rules' hard instances differ, so the pair
    is far less heavy-tailed than either rule alone."""
    cdef Ctx *c = E.c
    cdef int64_t user_limit = c.node_limit, budget = RESTART_BASE
    cdef int status, r = 0
    cdef int rules[2]
    rules[0] = CHOICE_FEWEST_PAIRS
    rules[1] = CHOICE_FEWEST_PAIRS_FREEST
    if (options >> 16) & 15:
        rules[0] = rules[1] = (options >> 16) & 15
    while True:
        E.choice = rules[r & 1]
        if user_limit < 0 or c.nodes + budget < user_limit:
            c.node_limit = c.nodes + budget
        else:
            c.node_limit = user_limit
        status = run_exact_pairing(E)
        if status != ST_NODES or c.node_limit == user_limit:
            break
        undo_to(E, 0)
        c.stop = 0
        if r & 1:
            budget *= 2
        r += 1
    c.node_limit = user_limit
    return status


cdef int run_exact(Ctx *c, int maxcount, int64_t memo_entries, uint64_t seed, int options) noexcept nogil:
    """Set up the search state, run the pairing search (no gravity) or the move search."""
    cdef Grid *g = c.g
    cdef Exact E
    cdef int HW = g.H * g.W
    cdef int tiles = g.tiles
    cdef int i, t, status
    memset(&E, 0, sizeof(Exact))
    E.c = c
    E.HW = HW
    E.partner = <int32_t *>malloc(HW * sizeof(int32_t))
    E.cidx = <int32_t *>malloc(HW * sizeof(int32_t))
    E.ucount = <int32_t *>malloc((g.ntypes + 1) * sizeof(int32_t))
    E.peeled = <int32_t *>calloc(g.ntypes + 1, sizeof(int32_t))
    E.cpairs = <int32_t *>malloc((tiles + 2) * sizeof(int32_t))
    E.ev = <int32_t *>malloc(EVW * (tiles + 2) * sizeof(int32_t))
    E.z = <uint64_t *>malloc(2 * <size_t>HW * sizeof(uint64_t))
    E.frames = <Frame *>malloc((tiles // 2 + 2) * sizeof(Frame))
    E.u = <int32_t *>malloc((maxcount + 1) * sizeof(int32_t))
    E.deg = <int32_t *>malloc((maxcount + 1) * sizeof(int32_t))
    E.peel = <int32_t *>malloc(2 * (tiles + 1) * sizeof(int32_t))
    E.inset = <uint8_t *>calloc(HW, 1)
    E.instuck = <uint8_t *>calloc(HW, 1)
    E.tflag = <uint8_t *>calloc(g.ntypes + 1, 1)
    E.cbj = tiles // 2 + 2 <= CBJ_MAX_LEVELS and not (options & OPT_NO_CBJ)
    E.nopeel = (options & OPT_NO_PEEL) != 0
    E.tries = CONFLICT_TRIES
    E.lvl = <int32_t *>calloc(HW, sizeof(int32_t))
    E.tmax = <int32_t *>calloc(g.ntypes + 1, sizeof(int32_t))
    E.nwords = (tiles // 2 + 2) // 64 + 1 if E.cbj else 1
    E.conf = <uint64_t *>calloc(E.nwords, sizeof(uint64_t))
    E.cfpool = <uint64_t *>calloc(<size_t>E.nwords * (tiles // 2 + 2), sizeof(uint64_t))
    if (E.partner == NULL or E.cidx == NULL or E.ucount == NULL or E.peeled == NULL
            or E.cpairs == NULL or E.ev == NULL or E.z == NULL or E.frames == NULL
            or E.u == NULL or E.deg == NULL or E.peel == NULL
            or E.inset == NULL or E.instuck == NULL or E.tflag == NULL or E.conf == NULL
            or E.cfpool == NULL or E.lvl == NULL or E.tmax == NULL
            or not memo_init(&E.memo, memo_entries)):
        status = ST_MEMORY
    else:
        for i in range(HW):
            E.partner[i] = -1
            E.cidx[i] = -1
            E.z[2 * i] = mix64(seed + 2 * <uint64_t>i)
            E.z[2 * i + 1] = mix64(seed + 2 * <uint64_t>i + 1)
        for t in range(g.ntypes):
            E.ucount[t] = g.count[t]
        E.k0 = 0
        E.k1 = 0
        for t in range(g.ntypes):
            for i in range(g.count[t]):
                E.k0 ^= E.z[2 * g.pos[g.offset[t] + i]]
                E.k1 ^= E.z[2 * g.pos[g.offset[t] + i] + 1]
        if c.gravity == GRAVITY_NONE:
            status = run_with_restarts(&E, options)
            if status == ST_SOLVED:
                exact_output(&E)
        else:
            status = run_exact_gravity(&E)
    if status == ST_MEMORY or c.stop == ST_MEMORY:
        status = ST_MEMORY
    free(E.partner)
    free(E.cidx)
    free(E.ucount)
    free(E.peeled)
    free(E.cpairs)
    free(E.ev)
    free(E.z)
    free(E.frames)
    free(E.u)
    free(E.deg)
    free(E.peel)
    free(E.inset)
    free(E.instuck)
    free(E.tflag)
    free(E.conf)
    free(E.cfpool)
    free(E.lvl)
    free(E.tmax)
    free(E.memo.keys)
    free(E.cand.data)
    free(E.keys)
    return status


cdef int run_phase(Ctx *c, GridState s, int strategy, int maxcount, int64_t memo_cap,
                   uint64_t zseed, int options, int64_t cap) noexcept:
    """Run one strategy on s with the shared budgets, at most ``cap`` more nodes (cap < 0: no
    cap of its own). ST_NODES from the cap alone comes back as ST_STUCK."""
    cdef int64_t user_limit = c.node_limit
    cdef int status
    c.g = &s.g
    c.w = &s.work
    c.nout = 0
    c.stop = 0
    if cap >= 0 and (user_limit < 0 or c.nodes + cap < user_limit):
        c.node_limit = c.nodes + cap
    with nogil:
        if strategy == STRAT_FREEDOM:
            status = run_freedom(c)
        elif strategy == STRAT_MOBILITY:
            status = run_mobility(c)
        elif strategy == STRAT_MATCHING:
            status = run_matching(c, maxcount)
        else:
            status = run_exact(c, maxcount, memo_cap, zseed, options)
    if status == ST_NODES and c.node_limit != user_limit:
        status = ST_STUCK
    c.node_limit = user_limit
    return status


cdef GridState trial_copy(GridState s, int max_turns):
    """A copy of s to play a trial on (with its path-search buffers when they are needed)."""
    cdef GridState trial = s.copy()
    if max_turns > 2:
        trial._ensure_work()
    return trial


def solve_state(GridState s, int strategy, int max_turns, int gravity, long long node_limit,
                double time_limit, long long memo_entries=MEMO_ENTRIES, unsigned long long seed=0,
                int options=0, cnp.ndarray cancel=None):
    """Run a strategy on ``s`` (played on in place: pass a copy).

    ``cancel``: an int32 array whose first item another thread may set to non-zero to stop the
    run (status ST_CANCELLED) at the next node.

    node_limit < 0 / time_limit < 0 mean no budget. Returns (status, moves, nodes): status one of
    the ST_* codes (see STATUS_NAMES), moves a (k, 2) int32 array of padded cells in play order
    (the certificate when solved, else None).

    "exact" first looks at the root only (random big deals are proved dead there), then lets
    the two greedy players try (a cheap certificate for most solvable boards, with gravity too),
    then searches; all three phases share the budgets and the node count.
    """
    cdef Grid *g = &s.g
    cdef Ctx c
    cdef int t, n, maxcount = 0, status, k
    cdef GridState trial
    for t in range(g.ntypes):
        n = g.offset[t + 1] - g.offset[t]
        if n > maxcount:
            maxcount = n
        if g.count[t] % 2:
            return ST_ODD, None, 0
    if g.tiles == 0:
        return ST_SOLVED, np.empty((0, 2), dtype=np.int32), 0
    if max_turns > 2:
        s._ensure_work()
    memset(&c, 0, sizeof(Ctx))
    if cancel is not None:
        c.cancel = <const int *>cnp.PyArray_DATA(cancel)
    c.max_turns = max_turns
    c.gravity = gravity
    c.node_limit = node_limit
    c.deadline = now() + time_limit if time_limit >= 0 else -1.0
    out = np.empty(g.tiles + 2, dtype=np.int32)
    cdef int32_t[::1] outv = out
    c.out = &outv[0]
    gbuf = np.empty(4 * (g.rows + g.cols) + 8, dtype=np.int32)
    cdef int32_t[::1] gv = gbuf
    c.gbuf = &gv[0]
    cdef int64_t memo_cap = memo_entries
    cdef uint64_t zseed = seed
    if strategy != STRAT_EXACT or (options & OPT_NO_QUICK):
        status = run_phase(&c, s, strategy, maxcount, memo_cap, zseed, options, -1)
    else:
        status = run_phase(&c, trial_copy(s, max_turns), STRAT_EXACT, maxcount, memo_cap, zseed,
                           options, 1)
        if status == ST_STUCK:
            for k in range(2):
                trial = trial_copy(s, max_turns)
                status = run_phase(&c, trial, STRAT_FREEDOM if k == 0 else STRAT_MOBILITY,
                                   maxcount, memo_cap, zseed, options, QUICK_NODES_PER_TILE * g.tiles)
                if status != ST_STUCK:
                    break
        if status == ST_STUCK:
            status = run_phase(&c, s, STRAT_EXACT, maxcount, memo_cap, zseed, options, -1)
    if status == ST_MEMORY:
        raise MemoryError("llkcore: the solver could not allocate its work space")
    moves = out[:2 * c.nout].reshape(c.nout, 2).copy() if status == ST_SOLVED else None
    return status, moves, c.nodes
