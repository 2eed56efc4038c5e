# cython: language_level=3
"""The padded grid every kernel works on, and the inline helpers they all share.

Layout. A board of ``rows x cols`` is stored as an ``H x W = (rows + 2) x (cols + 2)`` int32 array
``cells`` in row-major order; a cell is addressed by its padded index ``p = (r + 1) * W + (c + 1)``.
The outer ring is 0 (empty) when paths may run round the board (``border=True``) and -1 (a wall)
otherwise, so no kernel needs bounds special cases.

Occupancy bits. ``rowbits[r * RW + w]`` holds bit ``c & 63`` of word ``c >> 6`` set iff cell (r, c)
is not empty; ``colbits[c * CW + w]`` the same per column. "Is this straight segment clear" is
then a masked AND over a few words.

Type index (CSR). Tile types are mapped to dense ids ``0 .. ntypes-1``; ``tid[p]`` is the id of the
tile at ``p`` (-1 for empty and walls). The live positions of type ``t`` are
``pos[offset[t] : offset[t] + count[t]]`` and ``slot[p]`` is the index of ``p`` in ``pos`` (-1 when
``p`` holds no tile), so removal is an O(1) swap-remove. Capacity per type is its initial count
(tiles are only ever removed, restored or moved, never created).

Directions: 0 up, 1 down, 2 left, 3 right; ``d ^ 1`` is the opposite direction.
"""
from cpython.pythread cimport PyThread_type_lock
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t

cdef extern from *:
    """
    static inline int llk_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int llk_clz64(unsigned long long x) { return __builtin_clzll(x); }
    """
    int llk_ctz64(unsigned long long x) noexcept nogil
    int llk_clz64(unsigned long long x) noexcept nogil

# Gravity codes shared by the facade and the kernels.
cdef enum:
    GRAVITY_NONE = 0
    GRAVITY_DOWN = 1
    GRAVITY_UP = 2
    GRAVITY_LEFT = 3
    GRAVITY_RIGHT = 4


cdef struct Grid:
    int rows, cols          # the user's board
    int H, W                # padded sizes
    int RW, CW              # 64-bit words per row mask / per column mask
    int32_t *cells          # H*W cell values (user values; ring 0 or -1)
    int32_t *tid            # H*W dense type id, -1 if not a tile
    uint64_t *rowbits       # H*RW
    uint64_t *colbits       # W*CW
    int ntypes
    int32_t *type_value     # ntypes: the user's value of each dense id
    int32_t *offset         # ntypes + 1
    int32_t *count          # ntypes: live tiles of each type
    int32_t *pos            # offset[ntypes]: padded positions, grouped by type
    int32_t *slot           # H*W
    int tiles               # live tiles on the board


# Work buffers of the turn-level BFS (grid.pyx); owned by a GridState, sized for its grid.
cdef struct PathWork:
    int nstates             # 4 * H * W
    uint8_t *seen           # one byte per cell: bit d set once state (cell, d) is final
    int32_t *dist           # per state: path length when final
    int32_t *prev           # per state: predecessor state (-1: left the start cell)
    int32_t *queue          # straight moves of the current level (entries, see grid.pyx)
    int32_t *src_cur        # entries that open the current level (after a turn)
    int32_t *src_next       # entries that open the next level


cdef inline int padded(const Grid *g, int r, int c) noexcept nogil:
    return (r + 1) * g.W + (c + 1)


cdef inline int step(const Grid *g, int d) noexcept nogil:
    # Offset of one cell in direction d.
    if d == 0:
        return -g.W
    if d == 1:
        return g.W
    if d == 2:
        return -1
    return 1


cdef inline bint bits_clear(const uint64_t *bits, int lo, int hi) noexcept nogil:
    """True iff bits lo..hi (inclusive) are all zero; an empty range is clear."""
    if lo > hi:
        return True
    cdef int wlo = lo >> 6
    cdef int whi = hi >> 6
    cdef uint64_t mlo = (<uint64_t>0xFFFFFFFFFFFFFFFF) << (lo & 63)
    cdef uint64_t mhi = (<uint64_t>0xFFFFFFFFFFFFFFFF) >> (63 - (hi & 63))
    cdef int w
    if wlo == whi:
        return (bits[wlo] & mlo & mhi) == 0
    if bits[wlo] & mlo:
        return False
    for w in range(wlo + 1, whi):
        if bits[w]:
            return False
    return (bits[whi] & mhi) == 0


cdef inline int bits_prev(const uint64_t *bits, int i) noexcept nogil:
    """Highest set bit index below i, or -1."""
    if i <= 0:
        return -1
    cdef int w = (i - 1) >> 6
    cdef uint64_t m = bits[w] & ((<uint64_t>0xFFFFFFFFFFFFFFFF) >> (63 - ((i - 1) & 63)))
    while True:
        if m:
            return (w << 6) + 63 - llk_clz64(m)
        w -= 1
        if w < 0:
            return -1
        m = bits[w]


cdef inline int bits_next(const uint64_t *bits, int i, int n) noexcept nogil:
    """Lowest set bit index above i (below n), or n."""
    i += 1
    if i >= n:
        return n
    cdef int w = i >> 6
    cdef int last = (n - 1) >> 6
    cdef uint64_t m = bits[w] & ((<uint64_t>0xFFFFFFFFFFFFFFFF) << (i & 63))
    cdef int found
    while True:
        if m:
            found = (w << 6) + llk_ctz64(m)
            return found if found < n else n
        w += 1
        if w > last:
            return n
        m = bits[w]


cdef inline void set_blocked(Grid *g, int p, bint blocked) noexcept nogil:
    """Keep the occupancy bits of cell p in step with its value."""
    cdef int r = p // g.W
    cdef int c = p - r * g.W
    cdef uint64_t rb = (<uint64_t>1) << (c & 63)
    cdef uint64_t cb = (<uint64_t>1) << (r & 63)
    if blocked:
        g.rowbits[r * g.RW + (c >> 6)] |= rb
        g.colbits[c * g.CW + (r >> 6)] |= cb
    else:
        g.rowbits[r * g.RW + (c >> 6)] &= ~rb
        g.colbits[c * g.CW + (r >> 6)] &= ~cb


cdef inline void take_tile(Grid *g, int p) noexcept nogil:
    """Remove the tile at p: cell, bits and index (O(1) swap-remove)."""
    cdef int t = g.tid[p]
    cdef int s = g.slot[p]
    cdef int last = g.offset[t] + g.count[t] - 1
    cdef int q = g.pos[last]
    g.pos[s] = q
    g.slot[q] = s
    g.pos[last] = p
    g.slot[p] = -1
    g.count[t] -= 1
    g.tiles -= 1
    g.cells[p] = 0
    g.tid[p] = -1
    set_blocked(g, p, False)


cdef inline void put_tile(Grid *g, int p, int t) noexcept nogil:
    """Place a tile of dense type t on the empty cell p."""
    cdef int s = g.offset[t] + g.count[t]
    g.pos[s] = p
    g.slot[p] = s
    g.count[t] += 1
    g.tiles += 1
    g.cells[p] = g.type_value[t]
    g.tid[p] = t
    set_blocked(g, p, True)


cdef inline void move_tile(Grid *g, int src, int dst) noexcept nogil:
    """Move the tile at src to the empty cell dst (gravity); its index slot follows it."""
    cdef int s = g.slot[src]
    g.pos[s] = dst
    g.slot[dst] = s
    g.slot[src] = -1
    g.cells[dst] = g.cells[src]
    g.tid[dst] = g.tid[src]
    g.cells[src] = 0
    g.tid[src] = -1
    set_blocked(g, src, False)
    set_blocked(g, dst, True)


cdef inline int empty_neighbours(const Grid *g, int p) noexcept nogil:
    """Empty 4-neighbours of p (ring cells count when they are empty, i.e. border=True)."""
    return ((g.cells[p - g.W] == 0) + (g.cells[p + g.W] == 0)
            + (g.cells[p - 1] == 0) + (g.cells[p + 1] == 0))


cdef inline bint adjacent(const Grid *g, int pa, int pb) noexcept nogil:
    cdef int d = pa - pb
    return d == 1 or d == -1 or d == g.W or d == -g.W


cdef inline bint sweep_half(const uint64_t *line_a, const uint64_t *line_b, int ia, int ib, int n,
                            const uint64_t *cross, int cross_words, int ja, int jb,
                            int max_turns) noexcept nogil:
    """One half of the run-sweep: paths whose first and last segments run along ``line_a`` and
    ``line_b`` (the lines through a and b, n cells long, a at index ia, b at ib) and whose middle
    segment runs along a crossing line m, from index ja to jb on it.

    m must lie in the empty run through a on line_a and in the one through b on line_b, and the
    middle segment must be clear: one masked test over ``cross`` (cross_words words per line).
    A path turns where m differs from ia and from ib (if ja != jb), so with max_turns < 2 only
    m = ia or m = ib can qualify.
    """
    cdef int lo = bits_prev(line_a, ia) + 1
    cdef int hi = bits_next(line_a, ia, n) - 1
    cdef int m, k, turns, lo_j, hi_j
    m = bits_prev(line_b, ib) + 1
    if m > lo:
        lo = m
    m = bits_next(line_b, ib, n) - 1
    if m < hi:
        hi = m
    if lo > hi:
        return False
    if ja < jb:
        lo_j = ja + 1
        hi_j = jb - 1
    else:
        lo_j = jb + 1
        hi_j = ja - 1
    if max_turns >= 2:
        for m in range(lo, hi + 1):
            if bits_clear(cross + m * cross_words, lo_j, hi_j):
                return True
        return False
    for k in range(2):
        m = ia if k == 0 else ib
        if m < lo or m > hi:
            continue
        turns = 0 if ja == jb else (m != ia) + (m != ib)
        if turns <= max_turns and bits_clear(cross + m * cross_words, lo_j, hi_j):
            return True
    return False


cdef inline bint link_sweep(const Grid *g, int pa, int pb, int max_turns) noexcept nogil:
    """Run-sweep link test for max_turns <= 2 (endpoints are distinct tiles; types not checked).

    Every path with at most two turns is vertical-horizontal-vertical or
    horizontal-vertical-horizontal; straight and one-turn paths are the degenerate middles
    (the middle line is an endpoint's own row or column).
    """
    cdef int ra = pa // g.W
    cdef int ca = pa - ra * g.W
    cdef int rb = pb // g.W
    cdef int cb = pb - rb * g.W
    # Columns through a and b with horizontal middles, then rows with vertical middles.
    return (sweep_half(g.colbits + ca * g.CW, g.colbits + cb * g.CW, ra, rb, g.H,
                       g.rowbits, g.RW, ca, cb, max_turns)
            or sweep_half(g.rowbits + ra * g.RW, g.rowbits + rb * g.RW, ca, cb, g.W,
                          g.colbits, g.CW, ra, rb, max_turns))


# Implemented in grid.pyx (one copy, shared through this declaration).
cdef int path_search(const Grid *g, PathWork *w, int pa, int pb, int max_turns) noexcept nogil
cdef int path_corners(const Grid *g, const PathWork *w, int pa, int end_state, int32_t *out) noexcept nogil
cdef int64_t list_moves(const Grid *g, PathWork *w, int max_turns, int32_t *out, int64_t cap) noexcept nogil
cdef int compact_through(Grid *g, int p, int gravity, int32_t *moves) noexcept nogil


cdef inline int take_pair(Grid *g, int pa, int pb, int gravity, int32_t *moves) noexcept nogil:
    """Remove the tiles at pa and pb, then apply gravity to their lines (a search's move).

    The gravity moves go to ``moves`` as (src, dst) pairs (room for 2 * max(rows, cols) pairs
    is enough); returns how many. ``put_pair`` is the exact inverse.
    """
    take_tile(g, pa)
    take_tile(g, pb)
    if gravity == GRAVITY_NONE:
        return 0
    cdef int n = compact_through(g, pa, gravity, moves)
    return n + compact_through(g, pb, gravity, moves + 2 * n)


cdef inline void put_pair(Grid *g, int pa, int pb, int ta, int tb, const int32_t *moves,
                          int n) noexcept nogil:
    """Undo ``take_pair``: gravity moves in reverse, then the two tiles (types ta, tb) back.

    Undoing removals in reverse order keeps the removed tiles of each type stacked right
    after its live ones in ``pos`` (most recent first).
    """
    cdef int i
    for i in range(n - 1, -1, -1):
        move_tile(g, moves[2 * i + 1], moves[2 * i])
    put_tile(g, pb, tb)
    put_tile(g, pa, ta)


cdef inline bint same_type_linkable(const Grid *g, int pa, int pb) noexcept nogil:
    """The rules' preconditions: two distinct cells holding tiles of one type."""
    return pa != pb and g.tid[pa] >= 0 and g.tid[pa] == g.tid[pb]


cdef inline bint can_link(const Grid *g, PathWork *w, int pa, int pb, int max_turns) noexcept nogil:
    """The link test every kernel uses: distinct cells, same tile type, a path within max_turns.

    ``w`` is only touched above two turns (the caller made sure its buffers exist then).
    """
    if not same_type_linkable(g, pa, pb):
        return False
    if max_turns <= 2:
        return link_sweep(g, pa, pb, max_turns)
    return path_search(g, w, pa, pb, max_turns) >= 0


cdef class GridState:
    cdef Grid g
    cdef PathWork work
    cdef PyThread_type_lock work_lock   # held while ``work`` is in use: threads may share a Board
    cdef bint border
    cdef object cells_arr, tid_arr, rowbits_arr, colbits_arr
    cdef object type_value_arr, offset_arr, count_arr, pos_arr, slot_arr
    cdef int _ensure_work(self) except -1
    cdef int acquire_work(self) except -1
    cdef void release_work(self) noexcept
    cdef void _bind(self)
    cdef int _dense(self, int value) except -1
