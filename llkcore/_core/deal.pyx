# cython: language_level=3
"""Deals: in-place shuffles, and the random playout behind solvable deals and reshuffles.

Random stream: rng.pxd, on a 4-word state the caller owns (a uint64 array seeded from numpy's
SeedSequence).

Playout (docs/architecture.md, "Solvable deals"). The board's tiles all carry one placeholder type; the playout removes
linkable pairs until the board is clear or no pair links, applying gravity after each removal
and tracking where every tile started, so the caller can give the two tiles of each removed
pair one type in their starting cells. Each step draws a "free" tile ``a`` (one with an empty
neighbour) that has a partner, then a partner ``b``; two kinds of playout:

- open (the deal's look): ``a`` uniform, ``b`` uniform among ``a``'s partners not adjacent to
  it, if any, else among all (adjacent twins would otherwise crowd the deal far beyond what a
  random deal shows);
- careful (tight layouts, straight-only rules): ``a`` the one with the fewest partners among
  CAREFUL_CHOICES drawn at random, ``b`` uniform among all its partners, so tiles about to be
  stranded go first.

A tile with no empty neighbour links only to an adjacent tile, so every non-adjacent linkable
pair is made of two free tiles; when no free tile links at all, only adjacent pairs of enclosed
tiles remain, and one of them is drawn uniformly. Without gravity a playout that reaches a
dead end takes back its last moves and plays on (MAX_BACKTRACKS times at most).

Partners of ``a`` come from a flood over empty runs: ``a``'s own vertical and horizontal runs
are level 0, the runs crossing a level-k run are level k + 1, and the tiles just past the ends of
the runs of levels 0..max_turns are exactly the tiles a path with at most max_turns turns can
reach. Runs are read off the occupancy bit masks and each run is walked at most once per
flood, so one flood costs O(empty cells it reaches), whatever max_turns is.
"""
cimport numpy as cnp
from libc.stdint cimport int32_t, uint32_t, uint64_t

from .gravity cimport slide_room, take_pair
from .grid cimport GRAVITY_NONE, Grid, adjacent, bits_next, bits_prev, empty_neighbours, put_tile
from .rng cimport permute_ints, rng_below
from .state cimport GridState

import numpy as np

cnp.import_array()

cdef enum:
    # Random draws (per tile wanted) before falling back to a scan of all tiles: the board is
    # crowded, e.g. full and without a border, where almost no tile has an empty neighbour.
    QUICK_TRIES = 32
    # Take-backs a playout without gravity makes at dead ends before it reports being stuck.
    MAX_BACKTRACKS = 6
    # Tiles compared per step by a careful playout (it removes the most constrained first).
    CAREFUL_CHOICES = 4


cdef uint64_t *stream(cnp.ndarray rng_state) except NULL:
    """The 4 words of a random stream (a C-contiguous uint64 array the caller owns)."""
    if (rng_state.ndim != 1 or rng_state.shape[0] != 4 or rng_state.dtype != np.uint64
            or not rng_state.flags.c_contiguous or not rng_state.flags.writeable):
        raise ValueError("rng_state must be a writeable array of 4 uint64 words")
    return <uint64_t *>cnp.PyArray_DATA(rng_state)


def permute(cnp.ndarray values not None, cnp.ndarray rng_state not None):
    """Shuffle ``values`` (a C-contiguous int32 array) in place, drawing from (and advancing)
    the 4-word ``rng_state``."""
    cdef uint64_t *rng = stream(rng_state)
    if values.ndim != 1 or values.dtype != np.int32 or not values.flags.c_contiguous:
        raise ValueError("values must be a C-contiguous 1-D int32 array")
    cdef Py_ssize_t n = values.shape[0]
    cdef int32_t *v = <int32_t *>cnp.PyArray_DATA(values)
    if n > 1:
        with nogil:
            permute_ints(v, n, rng)


def draw_below(uint32_t n, cnp.ndarray rng_state not None):
    """One uniform integer in [0, n) from the stream (n >= 1)."""
    cdef uint64_t *rng = stream(rng_state)
    if n < 1:
        raise ValueError("n must be >= 1")
    return rng_below(rng, n)


# ---- playout ------------------------------------------------------------------------------------

cdef struct Scratch:
    int32_t *vis_h          # H*W: stamp of the last flood whose horizontal run covered the cell
    int32_t *vis_v          # H*W: the same for vertical runs
    int32_t *mark           # H*W: stamp of the last flood that listed the tile as a partner
    int32_t stamp
    int32_t *runs_cur       # flood queue of one level (see partners)
    int32_t *runs_next
    int32_t *cand           # partners of the tile being flooded
    int32_t *pool           # slow path: free tiles, then adjacent pairs
    int32_t *orig           # H*W: starting cell of the tile now at each cell
    int32_t *moves          # gravity moves of one removal, (src, dst) pairs


cdef inline int add_partner(const Grid *g, Scratch *s, int end, int a, int n) noexcept nogil:
    if g.cells[end] > 0 and end != a and s.mark[end] != s.stamp:
        s.mark[end] = s.stamp
        s.cand[n] = end
        return n + 1
    return n


cdef int partners(const Grid *g, Scratch *s, int a, int max_turns) noexcept nogil:
    """Every tile that links to ``a`` (all tiles are one type), into s.cand; returns how many.

    Queue entries pack a cell's padded row and column (no division in the loop) and the run's
    orientation: ``row << 12 | col << 1 | horizontal`` (sides are at most MAX_SIDE + 2 < 2048).
    """
    cdef int W = g.W, H = g.H
    cdef int ncur = 2, nnext, level = 0, i, j, e, x, y, hz, r, c, lo, hi, base, stride, limit
    cdef int ncand = 0
    cdef bint last
    cdef int32_t *vis
    cdef int32_t *vis_cross
    cdef int32_t *cur = s.runs_cur
    cdef int32_t *nxt = s.runs_next
    cdef int32_t *tmp
    s.stamp += 1
    cdef int32_t stamp = s.stamp
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
            vis = s.vis_h if hz else s.vis_v
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
                ncand = add_partner(g, s, base + (lo - 1) * stride, a, ncand)
            if hi + 1 < limit:
                ncand = add_partner(g, s, base + (hi + 1) * stride, a, ncand)
            if last:
                continue
            # Every cell of this run starts a crossing run at the next level.
            vis_cross = s.vis_v if hz else s.vis_h
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


cdef tuple flood_buffers(Py_ssize_t ncells, Scratch *s):
    """Allocate the partner flood's buffers for a grid of ncells cells and point ``s`` at them.

    Returns the arrays (stamps, runs, cand): keep them alive while ``s`` is in use.
    """
    stamps = np.zeros(3 * ncells, dtype=np.int32)
    runs = np.empty(2 * (2 * ncells + 4), dtype=np.int32)
    cand = np.empty(ncells + 4, dtype=np.int32)
    cdef int32_t *stamps_p = <int32_t *>cnp.PyArray_DATA(stamps)
    cdef int32_t *runs_p = <int32_t *>cnp.PyArray_DATA(runs)
    s.vis_h = stamps_p
    s.vis_v = stamps_p + ncells
    s.mark = stamps_p + 2 * ncells
    s.stamp = 0
    s.runs_cur = runs_p
    s.runs_next = runs_p + 2 * ncells + 4
    s.cand = <int32_t *>cnp.PyArray_DATA(cand)
    return stamps, runs, cand


def reachable_tiles(GridState state not None, int p, int max_turns):
    """Padded cells of the tiles a path of at most max_turns turns joins to the tile at ``p``,
    whatever their types (the playout's partner flood), sorted. ``p`` must hold a tile."""
    cdef Grid *g = &state.g
    if not 0 <= p < g.H * g.W or g.cells[p] <= 0:
        raise ValueError("p must be the padded cell of a tile")
    if max_turns < 0:
        raise ValueError("max_turns must be >= 0")
    cdef Scratch s
    buffers = flood_buffers(<Py_ssize_t>g.H * g.W, &s)
    cdef int k
    state.lock()
    try:
        with nogil:
            k = partners(g, &s, p, max_turns)
    finally:
        state.unlock()
    return np.sort(buffers[2][:k])


cdef inline int pick_partner(const Grid *g, Scratch *s, int a, int k, bint careful,
                             uint64_t *rng) noexcept nogil:
    """One of the k partners of ``a`` in s.cand (see the module docstring)."""
    cdef int i, b, nfar = 0
    if not careful:
        for i in range(k):
            b = s.cand[i]
            if not adjacent(g, a, b):
                s.cand[i] = s.cand[nfar]
                s.cand[nfar] = b
                nfar += 1
    return s.cand[rng_below(rng, nfar if nfar > 0 else k)]


cdef int choose_pair(const Grid *g, Scratch *s, int max_turns, bint careful, uint64_t *rng,
                     int *pa, int *pb) noexcept nogil:
    """Pick the next pair to remove (see the module docstring); 0 if no pair links."""
    cdef int n = g.count[0], base = g.offset[0]
    cdef int choices = CAREFUL_CHOICES if careful else 1
    cdef int i, j, k, a, p, nfree, npairs, found = 0, best = 0, best_k = 0
    # Rejection sampling: each accepted draw is uniform over the free tiles with a partner.
    for i in range(QUICK_TRIES * choices):
        a = g.pos[base + rng_below(rng, n)]
        if empty_neighbours(g, a) == 0:
            continue
        k = partners(g, s, a, max_turns)
        if k == 0:
            continue
        if found == 0 or k < best_k:
            best = a
            best_k = k
        found += 1
        if found >= choices:
            break
    if found > 0:
        if found > 1:
            best_k = partners(g, s, best, max_turns)  # s.cand holds the last draw's partners
        pa[0] = best
        pb[0] = pick_partner(g, s, best, best_k, careful, rng)
        return 1
    # Slow path (a crowded board): the free tiles in random order, the first with a partner.
    nfree = 0
    for i in range(n):
        p = g.pos[base + i]
        if empty_neighbours(g, p) > 0:
            s.pool[nfree] = p
            nfree += 1
    while nfree > 0:
        j = rng_below(rng, nfree)
        a = s.pool[j]
        nfree -= 1
        s.pool[j] = s.pool[nfree]
        k = partners(g, s, a, max_turns)
        if k > 0:
            pa[0] = a
            pb[0] = pick_partner(g, s, a, k, careful, rng)
            return 1
    # No free tile links to anything: only adjacent pairs of enclosed tiles are left.
    npairs = 0
    for i in range(n):
        p = g.pos[base + i]
        if g.cells[p + 1] > 0:
            s.pool[2 * npairs] = p
            s.pool[2 * npairs + 1] = p + 1
            npairs += 1
        if g.cells[p + g.W] > 0:
            s.pool[2 * npairs] = p
            s.pool[2 * npairs + 1] = p + g.W
            npairs += 1
    if npairs == 0:
        return 0
    j = rng_below(rng, npairs)
    pa[0] = s.pool[2 * j]
    pb[0] = s.pool[2 * j + 1]
    return 1


cdef int run_playout(Grid *g, Scratch *s, int max_turns, int gravity, bint careful,
                     uint64_t *rng, int32_t *cur_out, int32_t *orig_out) noexcept nogil:
    """Remove pairs until the board is clear or stuck; returns the number of pairs removed.

    Without gravity a dead end is usually a handful of tiles that no longer line up, so the
    playout takes back its last moves (more each time) and plays on, MAX_BACKTRACKS times at
    most. With gravity taking back would need the moves of every step, and playouts there
    practically never get stuck: the caller restarts instead.
    """
    cdef int steps = 0, pa = 0, pb = 0, nmoves, i, back, backtracks = 0
    while g.tiles > 0:
        if not choose_pair(g, s, max_turns, careful, rng, &pa, &pb):
            if gravity != GRAVITY_NONE or backtracks >= MAX_BACKTRACKS or steps == 0:
                break
            back = (g.tiles + 8) << backtracks
            if back > steps:
                back = steps
            for i in range(back):
                steps -= 1
                put_tile(g, cur_out[2 * steps], 0)
                put_tile(g, cur_out[2 * steps + 1], 0)
            backtracks += 1
            continue
        if pb < pa:
            pa, pb = pb, pa
        cur_out[2 * steps] = pa
        cur_out[2 * steps + 1] = pb
        orig_out[2 * steps] = s.orig[pa]
        orig_out[2 * steps + 1] = s.orig[pb]
        nmoves = take_pair(g, pa, pb, gravity, s.moves)
        # Gravity moves are sequential: a tile may move twice, so follow them in order.
        for i in range(nmoves):
            s.orig[s.moves[2 * i + 1]] = s.orig[s.moves[2 * i]]
        steps += 1
    return steps


def playout(GridState state not None, int max_turns, int gravity, bint careful,
            cnp.ndarray rng_state not None):
    """Play a random removal order on ``state``, whose tiles must all have one type.

    Mutates ``state`` (pass a copy) and advances ``rng_state``. Returns ``(current, start)``:
    two (k, 2) int32 arrays of padded cells, the pairs in removal order as they stood when
    removed and as they stood before the first removal. k < tiles / 2 when the playout got stuck.
    """
    cdef Grid *g = &state.g
    cdef uint64_t *rng = stream(rng_state)
    if g.ntypes > 1:
        raise ValueError("playout needs a board whose tiles all have one type")
    if max_turns < 0:
        raise ValueError("max_turns must be >= 0")
    cdef Py_ssize_t ncells = <Py_ssize_t>g.H * g.W
    cdef int half = g.tiles // 2
    current = np.empty((half, 2), dtype=np.int32)
    start = np.empty((half, 2), dtype=np.int32)
    if half == 0:
        return current, start
    cdef Scratch s
    buffers = flood_buffers(ncells, &s)
    pool = np.empty(4 * ncells + 8, dtype=np.int32)
    orig = np.arange(ncells, dtype=np.int32)
    moves = np.empty(slide_room(g), dtype=np.int32)
    s.pool = <int32_t *>cnp.PyArray_DATA(pool)
    s.orig = <int32_t *>cnp.PyArray_DATA(orig)
    s.moves = <int32_t *>cnp.PyArray_DATA(moves)
    cdef int32_t *cur = <int32_t *>cnp.PyArray_DATA(current)
    cdef int32_t *st = <int32_t *>cnp.PyArray_DATA(start)
    cdef int steps
    state.lock()
    try:
        with nogil:
            steps = run_playout(g, &s, max_turns, gravity, careful, rng, cur, st)
    finally:
        state.unlock()
    return current[:steps], start[:steps]
