# cython: language_level=3
"""The run-sweep (inline): the link test up to two turns on occupancy bits, the shortest path
length at two turns, the fewest turns and least length of a pair, and the best path up to two
turns, all without a search.

Below both the BFS (path.pyx, whose best_path takes swept_path up to two turns) and the link
test (link.pxd). See docs/architecture.md ("The link test", "Paths") for why the sweep is exact.
"""
from libc.stdint cimport int32_t, uint64_t

from .grid cimport Grid, bits_clear, bits_next, bits_prev


cdef inline bint run_overlap(const uint64_t *line_a, const uint64_t *line_b, int ia, int ib, int n,
                             int *lo, int *hi) noexcept nogil:
    """The indices m that lie both in the empty run through a (index ia) on line_a and in the
    one through b (index ib) on line_b (n cells long): [lo, hi]; False if there are none.
    Only these two lines are read."""
    cdef int m
    lo[0] = bits_prev(line_a, ia) + 1
    hi[0] = bits_next(line_a, ia, n) - 1
    m = bits_prev(line_b, ib) + 1
    if m > lo[0]:
        lo[0] = m
    m = bits_next(line_b, ib, n) - 1
    if m < hi[0]:
        hi[0] = m
    return lo[0] <= hi[0]


cdef inline void between(int ja, int jb, int *lo, int *hi) noexcept nogil:
    """The indices strictly between ja and jb: [lo, hi] (empty, lo > hi, when they are adjacent
    or equal): the cells a middle segment from ja to jb must find clear."""
    lo[0] = (ja if ja < jb else jb) + 1
    hi[0] = (jb if ja < jb else ja) - 1


cdef inline bint sweep_half(const uint64_t *line_a, const uint64_t *line_b, int ia, int ib, int n,
                            const uint64_t *cross, int cross_words, int ja, int jb,
                            int max_turns) noexcept nogil:
    """One half of the run-sweep: paths whose first and last segments run along ``line_a`` and
    ``line_b`` (the lines through a and b, n cells long, a at index ia, b at ib) and whose middle
    segment runs along a crossing line m, from index ja to jb on it.

    m must lie in the empty run through a on line_a and in the one through b on line_b
    (``run_overlap``), and the middle segment must be clear: one masked test over ``cross``
    (cross_words words per line). A path turns where m differs from ia and from ib (if
    ja != jb), so with max_turns < 2 only m = ia or m = ib can qualify.
    """
    cdef int lo, hi, m, k, turns, lo_j, hi_j
    if not run_overlap(line_a, line_b, ia, ib, n, &lo, &hi):
        return False
    between(ja, jb, &lo_j, &hi_j)
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


cdef inline int half_length(const uint64_t *line_a, const uint64_t *line_b, int ia, int ib, int n,
                            const uint64_t *cross, int cross_words, int ja, int jb) noexcept nogil:
    """The shortest path of one half of the run-sweep's shape (sweep_half's arguments, any
    number of turns up to two): |ia - m| + |ja - jb| + |m - ib| over the crossing lines m it can
    use, or -1 when there is none. The cost is least for m between ia and ib and grows by two a
    line beyond, so the lines are tried in that order and the first clear one is the answer."""
    cdef int lo, hi, lo_j, hi_j, m, d
    cdef int near = ia if ia < ib else ib
    cdef int far = ib if ia < ib else ia
    cdef int across = jb - ja if ja < jb else ja - jb
    if not run_overlap(line_a, line_b, ia, ib, n, &lo, &hi):
        return -1
    between(ja, jb, &lo_j, &hi_j)
    for m in range(near if near > lo else lo, (far if far < hi else hi) + 1):
        if bits_clear(cross + m * cross_words, lo_j, hi_j):
            return far - near + across
    d = 1
    while near - d >= lo or far + d <= hi:
        if near - d >= lo and bits_clear(cross + (near - d) * cross_words, lo_j, hi_j):
            return far - near + 2 * d + across
        if far + d <= hi and bits_clear(cross + (far + d) * cross_words, lo_j, hi_j):
            return far - near + 2 * d + across
        d += 1
    return -1


cdef inline int two_turn_length(const Grid *g, int pa, int pb) noexcept nogil:
    """The length (unit steps) of the shortest path of at most two turns between distinct cells,
    or -1 when none: both halves of the run-sweep by half_length. For a pair whose fewest turns
    are two this is the length the BFS (path_search) gives, without searching the board."""
    cdef int ra = pa // g.W
    cdef int ca = pa - ra * g.W
    cdef int rb = pb // g.W
    cdef int cb = pb - rb * g.W
    cdef int x = half_length(g.colbits + ca * g.CW, g.colbits + cb * g.CW, ra, rb, g.H,
                             g.rowbits, g.RW, ca, cb)
    cdef int y = half_length(g.rowbits + ra * g.RW, g.rowbits + rb * g.RW, ca, cb, g.W,
                             g.colbits, g.CW, ra, rb)
    if x < 0 or (0 <= y < x):
        return y
    return x


cdef inline bint link_sweep(const Grid *g, int pa, int pb, int max_turns) noexcept nogil:
    """Run-sweep link test for max_turns <= 2 between distinct cells (types not checked).

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


cdef inline int best_length(const Grid *g, int pa, int pb, int max_turns, int *turns) noexcept nogil:
    """Up to two turns, on a grid with occupancy bits: the fewest turns of a path between the
    distinct cells pa and pb (into ``turns``) and the least length of a path with that many
    turns, read off the sweep without a search; -1 when there is no path; -2 when the sweep
    cannot say (above two turns, or a grid without bits): then search.

    A straight or one-turn path is as long as the two cells are apart (rows plus columns); at
    two turns two_turn_length is the shortest."""
    cdef int t, rows, cols
    if max_turns > 2 or g.rowbits == NULL or g.colbits == NULL:
        return -2
    for t in range(max_turns + 1):
        if link_sweep(g, pa, pb, t):
            turns[0] = t
            if t == 2:
                return two_turn_length(g, pa, pb)
            rows = pa // g.W - pb // g.W
            cols = pa % g.W - pb % g.W
            return (rows if rows >= 0 else -rows) + (cols if cols >= 0 else -cols)
    return -1


cdef inline bint middle_clear(const uint64_t *line_a, const uint64_t *line_b, int ia, int ib,
                              int n, const uint64_t *cross, int cross_words, int ja, int jb,
                              int m) noexcept nogil:
    """Is there a path of one half's shape (sweep_half's arguments) whose middle runs on
    crossing line m?"""
    cdef int lo, hi, lo_j, hi_j
    if not run_overlap(line_a, line_b, ia, ib, n, &lo, &hi) or m < lo or m > hi:
        return False
    between(ja, jb, &lo_j, &hi_j)
    return bits_clear(cross + m * cross_words, lo_j, hi_j)


cdef inline int first_middle(const uint64_t *line_a, const uint64_t *line_b, int ia, int ib,
                             int n, const uint64_t *cross, int cross_words, int ja, int jb,
                             int length, bint farthest) noexcept nogil:
    """Of the two-turn paths of one half's shape (sweep_half's arguments) that are ``length``
    steps long, the crossing line m of the one whose steps come first in the order up < down <
    left < right; -1 when there is none.

    The path leaves a along line_a towards m, so one with m below ia (up, or left) comes first;
    on one side, two paths part where the nearer m turns onto its middle. For vertical-first
    paths (the first segment up or down) the middle is horizontal, later in the order than
    going on: the farthest m comes first (``farthest``). For horizontal-first ones the middle is
    vertical, earlier in the order: the nearest m comes first."""
    cdef int lo, hi, lo_j, hi_j, m, side, first, last, stride, across
    if not run_overlap(line_a, line_b, ia, ib, n, &lo, &hi):
        return -1
    between(ja, jb, &lo_j, &hi_j)
    across = jb - ja if ja < jb else ja - jb
    for side in range(2):
        # The lines of the overlap below ia, then above it.
        first = lo if side == 0 else (ia + 1 if ia + 1 > lo else lo)
        last = (ia - 1 if ia - 1 < hi else hi) if side == 0 else hi
        if first > last:
            continue
        if farthest == (side == 1):
            first, last = last, first
        stride = 1 if first <= last else -1
        m = first
        while True:
            if (m != ib and (ia - m if ia > m else m - ia) + (ib - m if ib > m else m - ib)
                    + across == length and bits_clear(cross + m * cross_words, lo_j, hi_j)):
                return m
            if m == last:
                break
            m += stride
    return -1


cdef inline void put_point(int32_t *out, int k, int row, int col) noexcept nogil:
    """Corner k of a path, as a user point (padded row and column minus one)."""
    out[2 * k] = row - 1
    out[2 * k + 1] = col - 1


cdef inline int swept_path(const Grid *g, int pa, int pb, int max_turns, int32_t *out) noexcept nogil:
    """Up to two turns, on a grid with occupancy bits: THE best path between the distinct cells
    pa and pb (fewest turns, then shortest, then least in step order: best_path's rule), read
    off the sweep without a search. Writes its corner points (user row, col pairs, endpoints
    included) and returns how many; -1 when there is no path; -2 when the sweep cannot say.

    Of two one-turn paths the vertical-first one comes first; of two-turn paths of the best
    length, any vertical-first one (middle on a crossing row) comes before every
    horizontal-first one, and first_middle orders each kind."""
    cdef int T = 0, L, m
    cdef int ra = pa // g.W
    cdef int ca = pa - ra * g.W
    cdef int rb = pb // g.W
    cdef int cb = pb - rb * g.W
    L = best_length(g, pa, pb, max_turns, &T)
    if L < 0:
        return L
    put_point(out, 0, ra, ca)
    if T == 0:
        put_point(out, 1, rb, cb)
        return 2
    if T == 1:
        # Vertical first: down or up column ca to row rb (a middle on row rb).
        if middle_clear(g.colbits + ca * g.CW, g.colbits + cb * g.CW, ra, rb, g.H,
                        g.rowbits, g.RW, ca, cb, rb):
            put_point(out, 1, rb, ca)
        else:
            put_point(out, 1, ra, cb)
        put_point(out, 2, rb, cb)
        return 3
    m = first_middle(g.colbits + ca * g.CW, g.colbits + cb * g.CW, ra, rb, g.H,
                     g.rowbits, g.RW, ca, cb, L, True)
    if m >= 0:
        put_point(out, 1, m, ca)
        put_point(out, 2, m, cb)
    else:
        m = first_middle(g.rowbits + ra * g.RW, g.rowbits + rb * g.RW, ca, cb, g.W,
                         g.colbits, g.CW, ra, rb, L, False)
        if m < 0:
            return -2       # cannot happen: best_length found a path of this length
        put_point(out, 1, ra, m)
        put_point(out, 2, rb, m)
    put_point(out, 3, rb, cb)
    return 4
