# cython: language_level=3
"""The padded grid every kernel works on, and the small inline helpers they all share.

See docs/architecture.md ("Data layout") for the picture; in short:

Layout. A board of ``rows x cols`` is stored as an ``H x W = (rows + 2) x (cols + 2)`` int32 array
``cells`` in row-major order; a cell is addressed by its padded index ``p = (r + 1) * W + (c + 1)``.
The outer ring is 0 (empty) when paths may run round the board (``border=True``) and -1 (a wall)
otherwise, so no kernel needs bounds special cases.

Occupancy bits. ``rowbits[r * RW + w]`` holds bit ``c & 63`` of word ``c >> 6`` set iff cell (r, c)
is not empty; ``colbits[c * CW + w]`` the same per column. "Is this straight segment clear" is
then a masked AND over a few words.

Type index (CSR). Tile types are mapped to dense ids ``0 .. ntypes-1`` in ascending order of their
values; ``tid[p]`` is the id of the tile at ``p`` (-1 for empty and walls). The live positions of
type ``t`` are ``pos[offset[t] : offset[t] + count[t]]`` and ``slot[p]`` is the index of ``p`` in
``pos`` (-1 when ``p`` holds no tile), so removal is an O(1) swap-remove. Capacity per type is its
initial count (tiles are only ever removed, restored or moved, never created).

Directions: 0 up, 1 down, 2 left, 3 right; ``d ^ 1`` is the opposite direction.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport qsort

# Portable pieces of C the kernels need: bit scans, a relaxed atomic load (another thread's
# cancel flag), a monotonic clock and a prefetch hint, for GCC, Clang and MSVC alike.
cdef extern from *:
    """
    #if defined(_MSC_VER) && !defined(__clang__)
      #include <intrin.h>
      #include <windows.h>
      static inline int llk_ctz64(unsigned long long x) {
          unsigned long i; _BitScanForward64(&i, x); return (int)i; }
      static inline int llk_clz64(unsigned long long x) {
          unsigned long i; _BitScanReverse64(&i, x); return 63 - (int)i; }
      static inline int llk_load_flag(const int *p) { return *(const volatile int *)p; }
      static inline double llk_now(void) {
          LARGE_INTEGER f, t;
          QueryPerformanceFrequency(&f); QueryPerformanceCounter(&t);
          return (double)t.QuadPart / (double)f.QuadPart; }
      static inline void llk_prefetch(const void *p) { (void)p; }
    #else
      #include <time.h>
      static inline int llk_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
      static inline int llk_clz64(unsigned long long x) { return __builtin_clzll(x); }
      static inline int llk_load_flag(const int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
      static inline double llk_now(void) {
          struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
          return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9; }
      static inline void llk_prefetch(const void *p) { __builtin_prefetch(p); }
    #endif
    """
    # Index of the lowest / count of leading zeros above the highest set bit; x != 0.
    int llk_ctz64(unsigned long long x) noexcept nogil
    int llk_clz64(unsigned long long x) noexcept nogil
    # *p read with no tearing and no caching across calls (set by another thread).
    int llk_load_flag(const int *p) noexcept nogil
    # Seconds of a monotonic clock.
    double llk_now() noexcept nogil
    # Start loading p's cache line (a hint; nothing on MSVC).
    void llk_prefetch(const void *p) noexcept nogil

# Gravity codes shared by the facade and the kernels (the facade reads them from state.pyx).
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
    set_blocked_at(g, r, p - r * g.W, blocked)


cdef inline void set_blocked_at(Grid *g, int r, int c, bint blocked) noexcept nogil:
    """set_blocked of the cell in padded row r, column c (no division: for loops that step
    along a line and know where they are)."""
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


cdef inline bint same_type_linkable(const Grid *g, int pa, int pb) noexcept nogil:
    """The rules' preconditions: two distinct cells holding tiles of one type."""
    return pa != pb and g.tid[pa] >= 0 and g.tid[pa] == g.tid[pb]


cdef inline int lower_bound(const int32_t *a, int n, int32_t x) noexcept nogil:
    """The first index i of the ascending a[0:n] with a[i] >= x (n - 1 when none is: callers
    look up a value they know is there)."""
    cdef int lo = 0, hi = n - 1, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if a[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef inline int cmp_pair(const void *x, const void *y) noexcept nogil:
    """qsort order of pairs (or longer records) of cells: by first cell, then second."""
    cdef const int32_t *a = <const int32_t *>x
    cdef const int32_t *b = <const int32_t *>y
    if a[0] != b[0]:
        return -1 if a[0] < b[0] else 1
    if a[1] != b[1]:
        return -1 if a[1] < b[1] else 1
    return 0


cdef inline int cmp_int32(const void *x, const void *y) noexcept nogil:
    """qsort order of int32 values."""
    cdef int32_t a = (<const int32_t *>x)[0]
    cdef int32_t b = (<const int32_t *>y)[0]
    return (a > b) - (a < b)


cdef inline int cmp_int64(const void *x, const void *y) noexcept nogil:
    """qsort order of int64 values."""
    cdef int64_t a = (<const int64_t *>x)[0]
    cdef int64_t b = (<const int64_t *>y)[0]
    return (a > b) - (a < b)


ctypedef fused sortable_int:
    int32_t
    int64_t


cdef inline void sort_ints(sortable_int *a, int n) noexcept nogil:
    """Ascending: an insertion sort for short lists (most types' tiles), qsort above 32."""
    cdef int i, j
    cdef sortable_int x
    if n > 32:
        if sortable_int is int32_t:
            qsort(a, n, sizeof(int32_t), cmp_int32)
        else:
            qsort(a, n, sizeof(int64_t), cmp_int64)
        return
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


cdef inline void sort_positions(Grid *g) noexcept nogil:
    """Each type's tiles in cell order, as a freshly built index holds them. Play leaves them in
    swap-remove order (take_tile, put_tile), and the searches list moves in index order, so
    without this a played board (or one whose play was undone) and a fresh board of the same
    grid could search in different orders and find different certificates (solve.pyx), or draw
    different random playouts from one seed (playouts.pyx)."""
    cdef int t, i
    for t in range(g.ntypes):
        sort_ints(g.pos + g.offset[t], g.count[t])
        for i in range(g.offset[t], g.offset[t] + g.count[t]):
            g.slot[g.pos[i]] = i


# The one loop over same-type pairs: ``pairs_next`` yields every pair (pa, pb) of tiles of one
# type, type by type, each type's tiles in index order. Start from a zeroed cursor.
cdef struct PairCursor:
    int t, i, j


cdef inline bint pairs_next(const Grid *g, PairCursor *c, int *pa, int *pb) noexcept nogil:
    cdef int n
    while c.t < g.ntypes:
        n = g.count[c.t]
        c.j += 1
        if c.j >= n:
            c.i += 1
            c.j = c.i + 1
            if c.j >= n:
                c.t += 1
                c.i = 0
                c.j = 0
                continue
        pa[0] = g.pos[g.offset[c.t] + c.i]
        pb[0] = g.pos[g.offset[c.t] + c.j]
        return True
    return False
