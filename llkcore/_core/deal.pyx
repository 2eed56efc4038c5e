# cython: language_level=3
"""Deals: in-place shuffles, and the random playout behind solvable deals and reshuffles.

Random stream: rng.pxd, on a 4-word state the caller owns (a uint64 array seeded from numpy's
SeedSequence).

Playout (docs/architecture.md, "Solvable deals"). The board's tiles
all carry one placeholder type; the playout removes linkable pairs until the board is clear or
no pair links, applying gravity after each removal and tracking where every tile started, so the
caller can give the two tiles of each removed pair one type in their starting cells. Each step
draws a "free" tile ``a`` (one with an empty neighbour; the free tiles are kept in a set that
each removal updates around the cells it changed) that has a partner, then a partner ``b``; two
kinds of playout:

- open (the deal's look): ``a`` uniform among the free tiles; ``b`` the end of a random path from
  ``a``: a random straight run through ``a``, a random cell of it, the crossing run there, and so
  on up to max_turns turns (at most RANDOM_PATH_TURNS); the tiles just past the ends of these runs
  all link to ``a``, and ``b`` is drawn among those not adjacent to ``a``, if any, else among all
  (adjacent twins would otherwise crowd the deal far beyond what a random deal shows). A step
  costs a few bit-mask scans, whatever the board's size, so a deal is made in time about
  linear in its cells. When RANDOM_PATH_TRIES paths find no tile, ``b`` comes from the full
  partner flood (reach.pyx) instead;
- careful (tight layouts, straight-only rules): ``a`` the one with the fewest partners among
  CAREFUL_CHOICES drawn at random, ``b`` uniform among all its partners (full floods), so tiles
  about to be stranded go first.

A tile with no empty neighbour links only to an adjacent tile, so every non-adjacent linkable
pair is made of two free tiles; when no free tile links at all, only adjacent pairs of enclosed
tiles remain, and one of them is drawn uniformly. Without gravity a playout that reaches a
dead end takes back its last moves and plays on (MAX_BACKTRACKS times at most).

A playout runs under a budget (run.pxd): Ctrl-C in the main thread stops it and raises
KeyboardInterrupt.
"""
cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

from .budget cimport Budget
from .gravity cimport carry_along, emptied_cells, slide_room, take_pair
from .grid cimport GRAVITY_NONE, Grid, adjacent, bits_next, bits_prev, empty_neighbours, put_tile
from .reach cimport Flood, flood_alloc, flood_free, flood_reach
from .rng cimport permute_ints, rng_below
from .run cimport budget_raise, budget_start, still_time, still_time_now
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
    # Random paths an open playout draws from a tile before it floods for its partners, and the
    # most turns such a path makes (any path within max_turns is a legal link).
    RANDOM_PATH_TRIES = 8
    RANDOM_PATH_TURNS = 3


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


def odd_region(cnp.ndarray grid not None, bint border):
    """A region of non-wall cells of ``grid`` (a C-contiguous 2-D int32 array, unpadded: walls
    < 0, tiles > 0) holding an odd number of tiles: ``((row, col), tiles)``, or None.

    Regions are 4-connected; with a border, every region touching the edge is one region (the
    ring joins them). A region is named by its first cell in row-major order; of the odd ones,
    the one with the fewest tiles is returned (the first of those): with an even number of
    tiles in all, odd regions come in twos, and the small one is the mistake to show (a cell
    walled in, not the rest of the board). Tiles pair only inside a region (no path and no
    slide crosses a wall), so such a layout can never be cleared: deals check it before any
    playout, in time linear in the cells.
    """
    if grid.ndim != 2 or grid.dtype != np.int32 or not grid.flags.c_contiguous:
        raise ValueError("grid must be a C-contiguous 2-D int32 array")
    cdef Py_ssize_t rows = grid.shape[0], cols = grid.shape[1], n = rows * cols
    cdef const int32_t *cells = <const int32_t *>cnp.PyArray_DATA(grid)
    seen_array = np.zeros(n, dtype=np.uint8)
    stack_array = np.empty(max(n, 1), dtype=np.int64)
    cdef unsigned char *seen = <unsigned char *>cnp.PyArray_DATA(seen_array)
    cdef int64_t *stack = <int64_t *>cnp.PyArray_DATA(stack_array)
    cdef Py_ssize_t start, p, q, r, c, top, k
    cdef Py_ssize_t outer_first = -1, outer_tiles = 0, odd_first = -1, odd_tiles = 0, tiles
    cdef bint edge
    cdef Py_ssize_t step[4]
    with nogil:
        for start in range(n):
            if cells[start] < 0 or seen[start]:
                continue
            seen[start] = 1
            stack[0] = start
            top = 1
            tiles = 0
            edge = False
            while top > 0:
                top -= 1
                p = stack[top]
                r = p // cols
                c = p - r * cols
                tiles += cells[p] > 0
                edge = edge or r == 0 or r == rows - 1 or c == 0 or c == cols - 1
                step[0] = p - cols if r > 0 else -1
                step[1] = p + cols if r < rows - 1 else -1
                step[2] = p - 1 if c > 0 else -1
                step[3] = p + 1 if c < cols - 1 else -1
                for k in range(4):
                    q = step[k]
                    if q >= 0 and cells[q] >= 0 and not seen[q]:
                        seen[q] = 1
                        stack[top] = q
                        top += 1
            if border and edge:
                if outer_first < 0:
                    outer_first = start
                outer_tiles += tiles
            elif tiles % 2 and (odd_first < 0 or tiles < odd_tiles):
                odd_first = start
                odd_tiles = tiles
    if outer_tiles % 2 and (odd_first < 0 or outer_tiles < odd_tiles):
        odd_first = outer_first
        odd_tiles = outer_tiles
    if odd_first < 0:
        return None
    return (int(odd_first // cols), int(odd_first % cols)), int(odd_tiles)


# ---- playout ------------------------------------------------------------------------------------

cdef struct Scratch:
    Flood f                 # the full partner flood (reach.pxd)
    int32_t *cand           # = f.cand: partners of the tile being looked at
    int32_t *pool           # slow path: free tiles, then adjacent pairs
    int32_t *orig           # H*W: starting cell of the tile now at each cell
    int32_t *moves          # gravity moves of one removal, (src, dst) pairs
    int32_t *free           # the free tiles (a tile with an empty neighbour) ...
    int32_t *free_at        # H*W: ... and where each is in ``free`` (-1: not free)
    int nfree
    Budget *b


cdef inline int partners(const Grid *g, Scratch *s, int a, int max_turns) noexcept nogil:
    """Every tile that links to ``a`` (all tiles are one type), into s.cand; returns how many."""
    return flood_reach(g, &s.f, a, max_turns)


cdef inline void refresh_cell(const Grid *g, Scratch *s, int p) noexcept nogil:
    """Put p in the free set or take it out, as it now is."""
    cdef bint want = g.cells[p] > 0 and empty_neighbours(g, p) > 0
    cdef int i, last
    if want and s.free_at[p] < 0:
        s.free_at[p] = s.nfree
        s.free[s.nfree] = p
        s.nfree += 1
    elif not want and s.free_at[p] >= 0:
        i = s.free_at[p]
        s.nfree -= 1
        last = s.free[s.nfree]
        s.free[i] = last
        s.free_at[last] = i
        s.free_at[p] = -1


cdef inline void refresh_around(const Grid *g, Scratch *s, int p) noexcept nogil:
    """After the cell p changed: p and its four neighbours (ring cells are never tiles)."""
    refresh_cell(g, s, p)
    if p >= g.W:
        refresh_cell(g, s, p - g.W)
    if p + g.W < g.H * g.W:
        refresh_cell(g, s, p + g.W)
    if p >= 1:
        refresh_cell(g, s, p - 1)
    if p + 1 < g.H * g.W:
        refresh_cell(g, s, p + 1)


cdef inline bint within_two_steps(const Grid *g, int p, int q) noexcept nogil:
    """Cells p and q (interior) are at most two steps apart (their neighbourhoods meet)."""
    cdef int d = p - q if p > q else q - p
    return d <= 2 or d == g.W or d == g.W - 1 or d == g.W + 1 or d == 2 * g.W


cdef void refresh_after_slides(const Grid *g, Scratch *s, int pa, int pb,
                               int nmoves) noexcept nogil:
    """The free set after the removal of pa and pb and its nmoves gravity moves (s.moves).

    The refreshes are those of refresh_around at pa, at pb, then at each move's source and
    destination in turn, in that order (the order the free set's array, and so every deal,
    depends on), minus those that cannot change anything. Only the two cells
    ``emptied_cells`` finds change between tile and empty, and a tile's freedom reads only its
    cell and its four neighbours, so only a refresh around a cell within two steps of those two
    can change the set. On a tall board the slides are long and these are the few at their
    tops."""
    cdef int i, p
    cdef int left[2]
    refresh_around(g, s, pa)
    refresh_around(g, s, pb)
    if nmoves == 0:
        return
    left[0], left[1] = pa, pb
    emptied_cells(g, pa, pb, s.moves, nmoves, left)
    for i in range(2 * nmoves):
        p = s.moves[i]
        if within_two_steps(g, p, left[0]) or within_two_steps(g, p, left[1]):
            refresh_around(g, s, p)


cdef void build_free(const Grid *g, Scratch *s) noexcept nogil:
    cdef int i, p
    s.nfree = 0
    for i in range(g.count[0]):
        p = g.pos[g.offset[0] + i]
        if empty_neighbours(g, p) > 0:
            s.free_at[p] = s.nfree
            s.free[s.nfree] = p
            s.nfree += 1


cdef inline void run_span(const Grid *g, int p, bint hz, int *lo, int *hi) noexcept nogil:
    """The empty run through cell p (p itself excepted), as padded column (hz) or row indices."""
    cdef int r = p // g.W
    cdef int c = p - r * g.W
    if hz:
        lo[0] = bits_prev(g.rowbits + r * g.RW, c) + 1
        hi[0] = bits_next(g.rowbits + r * g.RW, c, g.W) - 1
    else:
        lo[0] = bits_prev(g.colbits + c * g.CW, r) + 1
        hi[0] = bits_next(g.colbits + c * g.CW, r, g.H) - 1


cdef int random_path_partner(const Grid *g, int a, int max_turns, uint64_t *rng,
                             bint *near) noexcept nogil:
    """A partner of ``a`` not adjacent to it, from random paths (see the module docstring), or
    -1 if none was found; ``near`` is set when a path found an adjacent one."""
    cdef int found[2 * (RANDOM_PATH_TURNS + 1)]
    cdef int nfound, try_, level, levels, lo, hi, p, r, c, k, end, i
    cdef bint hz
    levels = max_turns if max_turns < RANDOM_PATH_TURNS else RANDOM_PATH_TURNS
    near[0] = False
    for try_ in range(RANDOM_PATH_TRIES):
        nfound = 0
        p = a
        hz = rng_below(rng, 2) == 1
        for level in range(levels + 1):
            run_span(g, p, hz, &lo, &hi)
            r = p // g.W
            c = p - r * g.W
            for k in range(2):
                i = lo - 1 if k == 0 else hi + 1
                if i < 0 or i >= (g.W if hz else g.H):
                    continue
                end = r * g.W + i if hz else i * g.W + c
                if end != a and g.cells[end] > 0:
                    if adjacent(g, a, end):
                        near[0] = True
                    else:
                        found[nfound] = end
                        nfound += 1
            if level == levels or lo == hi:
                break
            # A random cell of this run other than a; the next run crosses it.
            if p == a:
                i = lo + <int>rng_below(rng, hi - lo)
                if i >= (c if hz else r):
                    i += 1
            else:
                i = lo + <int>rng_below(rng, hi - lo + 1)
            p = r * g.W + i if hz else i * g.W + c
            hz = not hz
        if nfound > 0:
            return found[rng_below(rng, nfound)]
    return -1


def reachable_tiles(GridState state not None, int p, int max_turns):
    """Padded cells of the tiles a path of at most max_turns turns joins to the tile at ``p``,
    whatever their types (the playout's partner flood), sorted. ``p`` must hold a tile."""
    cdef Grid *g = &state.g
    if not 0 <= p < g.H * g.W or g.cells[p] <= 0:
        raise ValueError("p must be the padded cell of a tile")
    if max_turns < 0:
        raise ValueError("max_turns must be >= 0")
    cdef Flood f
    if not flood_alloc(&f, g.H, g.W):
        raise MemoryError("llkcore: cannot allocate the partner flood's buffers")
    cdef int k
    try:
        state.lock()
        try:
            with nogil:
                k = flood_reach(g, &f, p, max_turns)
        finally:
            state.unlock()
        cells = np.array([f.cand[i] for i in range(k)], dtype=np.int32)
        turns = np.array([f.cand_turns[i] for i in range(k)], dtype=np.int32)
    finally:
        flood_free(&f)
    order = np.argsort(cells)
    return cells[order], turns[order]


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
    """Pick the next pair to remove (see the module docstring); 0 if no pair links, -1 when the
    budget said stop."""
    cdef int n = g.count[0], base = g.offset[0]
    cdef int choices = CAREFUL_CHOICES if careful else 1
    cdef int i, j, k, a, b, p, nfree, npairs, found = 0, best = 0, best_k = 0
    cdef bint near
    if not careful:
        # Open: a uniform free tile, a far partner from random paths (a few bit scans); a tile
        # whose paths only met adjacent tiles is passed over (the slow path below still finds
        # adjacent partners when nothing else links).
        for i in range(QUICK_TRIES):
            if s.nfree == 0:
                break
            a = s.free[rng_below(rng, s.nfree)]
            b = random_path_partner(g, a, max_turns, rng, &near)
            if b >= 0:
                pa[0] = a
                pb[0] = b
                return 1
    else:
        # Careful: the free tile with the fewest partners among a few drawn at random.
        for i in range(QUICK_TRIES * choices):
            if s.nfree == 0:
                break
            a = s.free[rng_below(rng, s.nfree)]
            if not still_time_now(s.b):
                return -1
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
    # Slow path: the free tiles in random order, the first with a partner (full floods).
    nfree = s.nfree
    for i in range(nfree):
        s.pool[i] = s.free[i]
    while nfree > 0:
        j = rng_below(rng, nfree)
        a = s.pool[j]
        nfree -= 1
        s.pool[j] = s.pool[nfree]
        if not still_time_now(s.b):
            return -1
        k = partners(g, s, a, max_turns)
        if k > 0:
            pa[0] = a
            pb[0] = pick_partner(g, s, a, k, careful, rng)
            return 1
    # No free tile links to anything: only adjacent pairs of enclosed tiles are left.
    npairs = 0
    for i in range(n):
        if not still_time(s.b):
            return -1
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
    """Remove pairs until the board is clear or stuck; returns the number of pairs removed, or
    -1 when the budget said stop.

    Without gravity a dead end is usually a handful of tiles that no longer line up, so the
    playout takes back its last moves (more each time) and plays on, MAX_BACKTRACKS times at
    most. With gravity taking back would need the moves of every step, and playouts there
    practically never get stuck: the caller restarts instead.
    """
    cdef int steps = 0, pa = 0, pb = 0, nmoves, i, back, backtracks = 0, r
    build_free(g, s)
    while g.tiles > 0:
        if not still_time(s.b):
            return -1
        r = choose_pair(g, s, max_turns, careful, rng, &pa, &pb)
        if r < 0:
            return -1
        if r == 0:
            if gravity != GRAVITY_NONE or backtracks >= MAX_BACKTRACKS or steps == 0:
                break
            back = (g.tiles + 8) << backtracks
            if back > steps:
                back = steps
            for i in range(back):
                steps -= 1
                put_tile(g, cur_out[2 * steps], 0)
                put_tile(g, cur_out[2 * steps + 1], 0)
                refresh_around(g, s, cur_out[2 * steps])
                refresh_around(g, s, cur_out[2 * steps + 1])
            backtracks += 1
            continue
        if pb < pa:
            pa, pb = pb, pa
        cur_out[2 * steps] = pa
        cur_out[2 * steps + 1] = pb
        orig_out[2 * steps] = s.orig[pa]
        orig_out[2 * steps + 1] = s.orig[pb]
        nmoves = take_pair(g, pa, pb, gravity, s.moves)
        carry_along(s.orig, s.moves, nmoves)
        refresh_after_slides(g, s, pa, pb, nmoves)
        steps += 1
    return steps


def playout(GridState state not None, int max_turns, int gravity, bint careful,
            cnp.ndarray rng_state not None):
    """Play a random removal order on ``state``, whose tiles must all have one type.

    Mutates ``state`` (pass a copy) and advances ``rng_state``. Returns ``(current, start)``:
    two (k, 2) int32 arrays of padded cells, the pairs in removal order as they stood when
    removed and as they stood before the first removal. k < tiles / 2 when the playout got stuck.
    Ctrl-C (main thread) raises KeyboardInterrupt.
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
    cdef Budget b
    pool = np.empty(4 * ncells + 8, dtype=np.int32)
    orig = np.arange(ncells, dtype=np.int32)
    moves = np.empty(slide_room(g), dtype=np.int32)
    free = np.empty(ncells, dtype=np.int32)
    free_at = np.full(ncells, -1, dtype=np.int32)
    budget_start(&b, -1.0, NULL)
    s.b = &b
    if not flood_alloc(&s.f, g.H, g.W):     # last: nothing after it can raise before the try
        raise MemoryError("llkcore: cannot allocate the playout's buffers")
    s.cand = s.f.cand
    s.pool = <int32_t *>cnp.PyArray_DATA(pool)
    s.orig = <int32_t *>cnp.PyArray_DATA(orig)
    s.moves = <int32_t *>cnp.PyArray_DATA(moves)
    s.free = <int32_t *>cnp.PyArray_DATA(free)
    s.free_at = <int32_t *>cnp.PyArray_DATA(free_at)
    cdef int32_t *cur = <int32_t *>cnp.PyArray_DATA(current)
    cdef int32_t *st = <int32_t *>cnp.PyArray_DATA(start)
    cdef int steps
    try:
        state.lock()
        try:
            with nogil:
                steps = run_playout(g, &s, max_turns, gravity, careful, rng, cur, st)
        finally:
            state.unlock()
    finally:
        flood_free(&s.f)
    budget_raise(&b)
    return current[:steps], start[:steps]
