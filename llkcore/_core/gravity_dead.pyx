# cython: language_level=3
"""The gravity search's dead test: relaxed peeling with tiles that sink.

The pairing search's relaxed peeling (peeling.pyx) rests on removals only emptying cells; under
gravity tiles also move, so this version lets every tile sit at any height it could reach.

Gravity keeps the order of a segment's tiles (a segment is a run of non-wall cells of a line)
and packs them at its low end. Take a set X of tiles (at first all of them) and a position Q
reached later in which every tile of X is still there. In Q a segment holds at least its tiles
of X, packed low, so the low ``m`` cells of a segment with ``m`` tiles of X are taken. A tile u
sits at a height between ``lo`` (the tiles of X below it, all still there) and ``hi`` (its
height now: tiles only sink), and the ``a`` tiles of X above it are still stacked on it.

Peeling: delete a tile x from X when, for some present tile y of its type and some pair of
heights in those ranges, x links to y on the board B that holds only those taken cells (the low
``m`` cells of every segment; x's and y's segments filled up to the top of their X stacks), with
the order of x, y and the X tiles between them kept when they share a segment. Deleting only
makes B emptier and the ranges wider, so the fixpoint is unique. If tiles remain, the position
is dead: in any clearing sequence, look at the first removal of a remaining tile x (with y); just
before it every remaining tile is there, so that position's board takes every cell B takes, x
and y sit at heights in their ranges, and the path that removes them is a path on B: x would
have been deleted. A pair with more than PLACE_MAX pairs of heights is assumed to link (the
argument only needs "may link" to say yes whenever a link is possible).

Random big deals with gravity are proved dead at the root by it, as the pairing search's
peeling does without gravity. ``partner`` fixes who a tile may be removed with; probing
(gdead_probe) fixes each pairing of a type in turn.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

from .alloc cimport llk_calloc, llk_free, llk_malloc
from .budget cimport Budget
from .grid cimport Grid, set_blocked_at
from .link cimport link_cells
from .path cimport PathWork
from .run cimport still_time


cdef inline bint inside(const Grid *g, int p) noexcept nogil:
    """p is a cell of the board (not of the ring)."""
    cdef int r = p // g.W
    cdef int c = p - r * g.W
    return 1 <= r <= g.rows and 1 <= c <= g.cols


cdef bint gdead_init(GDead *D, const Grid *g, int up) noexcept nogil:
    """Allocate the work space for boards shaped like g (all or nothing) and map the segments."""
    cdef int HW = g.H * g.W, p, q, n
    memset(D, 0, sizeof(GDead))
    D.up = up
    D.B.rows = g.rows
    D.B.cols = g.cols
    D.B.H = g.H
    D.B.W = g.W
    D.B.RW = g.RW
    D.B.CW = g.CW
    D.B.cells = <int32_t *>llk_malloc(HW * sizeof(int32_t))
    D.B.rowbits = <uint64_t *>llk_malloc(<size_t>g.H * g.RW * sizeof(uint64_t))
    D.B.colbits = <uint64_t *>llk_malloc(<size_t>g.W * g.CW * sizeof(uint64_t))
    D.bottom = <int32_t *>llk_malloc(HW * sizeof(int32_t))
    D.height = <int32_t *>llk_malloc(HW * sizeof(int32_t))
    D.block = <int32_t *>llk_malloc(HW * sizeof(int32_t))
    D.inx = <uint8_t *>llk_calloc(HW, 1)
    D.xs = <int32_t *>llk_malloc((g.tiles + 1) * sizeof(int32_t))
    D.order = <int32_t *>llk_malloc((g.tiles + 1) * sizeof(int32_t))
    D.witness = <int32_t *>llk_malloc(HW * sizeof(int32_t))
    D.chosen_by = <int32_t *>llk_malloc(HW * sizeof(int32_t))
    D.byh = <int32_t *>llk_calloc(g.rows + g.cols + 2, sizeof(int32_t))
    D.partner = <int32_t *>llk_malloc(HW * sizeof(int32_t))
    if (D.B.cells == NULL or D.B.rowbits == NULL or D.B.colbits == NULL or D.bottom == NULL
            or D.height == NULL or D.block == NULL or D.inx == NULL or D.xs == NULL
            or D.order == NULL or D.witness == NULL or D.chosen_by == NULL
            or D.byh == NULL or D.partner == NULL):
        gdead_free(D)
        return False
    # Every board cell that is not a wall: the low end of its segment and its height above it,
    # from the cell below it (p - up), so cells are visited low end first: one pass, O(H * W).
    for n in range(HW):
        p = HW - 1 - n if up < 0 else n
        D.bottom[p] = -1
        D.height[p] = 0
        D.partner[p] = -1
        if not inside(g, p) or g.cells[p] < 0:
            continue
        q = p - up
        if inside(g, q) and g.cells[q] >= 0:
            D.bottom[p] = D.bottom[q]
            D.height[p] = D.height[q] + 1
        else:
            D.bottom[p] = p
    return True


cdef void gdead_free(GDead *D) noexcept nogil:
    llk_free(D.B.cells)
    llk_free(D.B.rowbits)
    llk_free(D.B.colbits)
    llk_free(D.bottom)
    llk_free(D.height)
    llk_free(D.block)
    llk_free(D.inx)
    llk_free(D.xs)
    llk_free(D.order)
    llk_free(D.witness)
    llk_free(D.chosen_by)
    llk_free(D.byh)
    llk_free(D.partner)
    memset(D, 0, sizeof(GDead))


cdef inline void set_block(GDead *D, int bottom, int old, int new) noexcept nogil:
    """Make the taken cells of the segment starting at ``bottom`` its low ``new`` (were ``old``).
    Rows and columns are stepped, not divided out: a division per cell was a fifth of the time
    of the dead tests."""
    cdef int h, r0 = bottom // D.B.W, c0 = bottom - r0 * D.B.W
    cdef int dc = D.up if D.up == 1 or D.up == -1 else 0     # the step against gravity
    cdef int dr = 0 if dc else (1 if D.up > 0 else -1)
    cdef bint taken = new > old
    for h in range(old if taken else new, new if taken else old):
        D.B.cells[bottom + h * D.up] = taken
        set_blocked_at(&D.B, r0 + h * dr, c0 + h * dc, taken)


cdef inline void count_x(GDead *D, const Grid *g, int p, int *below, int *above) noexcept nogil:
    """Tiles of X below and above p in its segment."""
    cdef int q = D.bottom[p], n = 0
    while q != p:
        n += D.inx[q]
        q += D.up
    below[0] = n
    n = 0
    q = p + D.up
    while g.tid[q] >= 0:
        n += D.inx[q]
        q += D.up
    above[0] = n


cdef bint may_link(GDead *D, const Grid *g, PathWork *w, int max_turns, int x, int y,
                   Budget *b) noexcept nogil:
    """Could x (in X) link to y (present) in a position where every tile of X is still there?
    Also True when ``b`` says stop (the caller then gives up)."""
    cdef int lox, ax, loy, ay, hix = D.height[x], hiy = D.height[y], hx, hy, top, between = 0
    cdef int bx = D.bottom[x], by = D.bottom[y], mx, my
    cdef bint same = bx == by, ok
    if not still_time(b):
        return True
    count_x(D, g, x, &lox, &ax)
    count_x(D, g, y, &loy, &ay)
    if (hix - lox + 1) * (hiy - loy + 1) > PLACE_MAX:
        return True
    mx = D.block[bx]
    my = D.block[by]
    if same:
        # The upper tile stays above the lower one and the tiles of X between them.
        between = ax - ay - D.inx[y] if hiy > hix else ay - ax - D.inx[x]
    for hx in range(lox, hix + 1):
        for hy in range(loy, hiy + 1):
            if not still_time(b):
                return True
            D.work += 1
            if same:
                if (hy < hx + 1 + between) if hiy > hix else (hx < hy + 1 + between):
                    continue
                top = hx + 1 + ax
                if hy + 1 + ay > top:
                    top = hy + 1 + ay
                set_block(D, bx, mx, top)
                ok = link_cells(&D.B, w, bx + hx * D.up, by + hy * D.up, max_turns)
                set_block(D, bx, top, mx)
            else:
                set_block(D, bx, mx, hx + 1 + ax)
                set_block(D, by, my, hy + 1 + ay)
                ok = link_cells(&D.B, w, bx + hx * D.up, by + hy * D.up, max_turns)
                set_block(D, by, hy + 1 + ay, my)
                set_block(D, bx, hx + 1 + ax, mx)
            if ok:
                return True
    return False


cdef inline int partner_rank(const GDead *D, int x, int y) noexcept nogil:
    if y == D.chosen_by[x]:
        return 0
    return 1 if D.inx[y] and D.chosen_by[y] < 0 else 2


cdef int gdead_test(GDead *D, const Grid *g, PathWork *w, int max_turns, Budget *b,
                    bint replay=False) noexcept nogil:
    """The relaxed peeling (module docstring): the tiles it leaves (0: not proved dead, also
    when ``b`` said stop: its reason is in b.stop). g is not changed. The order in which it
    deleted the tiles, then the tiles left, is kept in D.order; ``replay``: the last test was of
    this same position, and this one goes through X in that order."""
    cdef int HW = g.H * g.W, t, i, j, n = 0, x, y, p, k, hmax = g.rows + g.cols + 1, o = 0, rank
    cdef bint changed = True, ok
    # X := every tile, highest first (so one pass peels stacks from the top); B := the board.
    D.cleared = False
    D.tests += 1
    memcpy(D.B.cells, g.cells, HW * sizeof(int32_t))
    memcpy(D.B.rowbits, g.rowbits, <size_t>g.H * g.RW * sizeof(uint64_t))
    memcpy(D.B.colbits, g.colbits, <size_t>g.W * g.CW * sizeof(uint64_t))
    for k in range(hmax + 1):
        D.byh[k] = 0
    # In cell order: by type (g.pos) these loops read and wrote at random, a cache miss per
    # tile (0.4 s on a 1024 x 1024 deal between two looks at the clock).
    for p in range(HW):
        if g.tid[p] >= 0:
            D.inx[p] = 1
            D.witness[p] = -1
            D.chosen_by[p] = -1
            D.block[D.bottom[p]] = 0
            D.byh[hmax - D.height[p]] += 1
    for k in range(1, hmax + 1):
        D.byh[k] += D.byh[k - 1]
    for p in range(HW - 1, -1, -1):
        if g.tid[p] >= 0:
            D.block[D.bottom[p]] += 1
            k = hmax - D.height[p]
            D.byh[k] -= 1
            D.xs[D.byh[k]] = p
            n += 1
    if replay:
        memcpy(D.xs, D.order, n * sizeof(int32_t))
    while changed and n > 0:
        changed = False
        i = 0
        k = 0
        while i < n:
            if b != NULL and b.stop:
                # Stop now: going on through X (may_link says yes at once) still costs a few
                # cache misses per tile (0.35 s on a 1024 x 1024 deal).
                memset(D.inx, 0, HW)
                return 0
            x = D.xs[i]
            t = g.tid[x]
            ok = False
            # A type of four (the ones probing pairs) tries x's partners in an order that makes
            # the witnesses pair up (witnessed_pairing): first the tile deleted with x, then
            # tiles still in X that no tile was deleted with, then the others. Other types in
            # one round, in their order (a type may have millions of tiles).
            for rank in range(3 if g.count[t] == 4 else 1):
                for j in range(g.count[t]):
                    y = g.pos[g.offset[t] + j]
                    if g.count[t] == 4 and partner_rank(D, x, y) != rank:
                        continue
                    if D.partner[x] >= 0 and y != D.partner[x]:
                        continue
                    if D.partner[y] >= 0 and D.partner[y] != x:
                        continue
                    if y != x and may_link(D, g, w, max_turns, x, y, b):
                        ok = True
                        break
                if ok:
                    break
            if ok:
                # x leaves X: its segment has one taken cell less.
                D.inx[x] = 0
                D.witness[x] = y
                if D.chosen_by[y] < 0:
                    D.chosen_by[y] = x
                D.order[o] = x
                o += 1
                p = D.bottom[x]
                set_block(D, p, D.block[p], D.block[p] - 1)
                D.block[p] -= 1
                changed = True
            else:
                D.xs[k] = x         # keep the order
                k += 1
            i += 1
        n = k
    for i in range(n):
        D.inx[D.xs[i]] = 0
        D.order[o + i] = D.xs[i]
    D.cleared = n == 0 and not b.stop
    return 0 if b.stop else n


cdef inline void pair_up(GDead *D, const int32_t *q, int k, bint on) noexcept nogil:
    """Pairing k (0..2) of four tiles q: q[0] with q[k + 1], the other two together (on), or
    both undone (off)."""
    cdef int a = q[1] if k != 0 else q[2], b = q[3] if k != 2 else q[2]
    D.partner[q[0]] = q[k + 1] if on else -1
    D.partner[q[k + 1]] = q[0] if on else -1
    D.partner[a] = b if on else -1
    D.partner[b] = a if on else -1


cdef void gdead_unpair(GDead *D, const Grid *g) noexcept nogil:
    """Forget the partners probing fixed: D.partner is by cell, and once tiles move its cells
    hold other tiles."""
    cdef int t, i
    for t in range(g.ntypes):
        for i in range(g.count[t]):
            D.partner[g.pos[g.offset[t] + i]] = -1


cdef int witnessed_pairing(GDead *D, const Grid *g, const int32_t *q) noexcept nogil:
    """The pairing of the four tiles q whose pairs the last test deleted its tiles with, when
    that test cleared X and the tiles probing has paired were each deleted with its partner
    (else -1). That test's deletions, in its order, are then all allowed with q paired so (the
    type it had paired is free again, and the same deletions leave the same ranges and board), so
    the peeling clears X again: that pairing is alive with no test. (Only "all dead" and "one
    alive" act, so a pairing wrongly called alive here could only cost a proof, never make one.)
    gdead_test tries a tile's partners in an order that makes witnesses pair up."""
    cdef int t, k, a, c
    if not D.cleared:
        return -1
    for t in range(g.ntypes):
        a = g.pos[g.offset[t]]
        if g.count[t] != 4 or D.partner[a] < 0:
            continue
        for k in range(4):
            a = g.pos[g.offset[t] + k]
            if D.witness[a] != D.partner[a]:
                return -1
    for k in range(3):
        a = q[1] if k != 0 else q[2]
        c = q[3] if k != 2 else q[2]
        if (D.witness[q[0]] == q[k + 1] and D.witness[q[k + 1]] == q[0]
                and D.witness[a] == c and D.witness[c] == a):
            return k
    return -1


cdef int gdead_probe(GDead *D, const Grid *g, PathWork *w, int max_turns, Budget *b,
                     bint replay) noexcept nogil:
    """Probing: every solution removes each type's tiles in some pairing, and the peeling with
    the partners fixed is still a sound dead test for the solutions with that pairing (the first
    removal of a remaining tile is with its partner). For each type of four tiles not yet
    paired, try its three pairings: all dead, the position is dead; two dead, the third is
    fixed, which makes every later test stronger; again until nothing changes.

    ``replay``: each test after the first goes through the tiles in the order the one before
    deleted them. The fixpoint does not depend on the order, and one pairing more or less
    changes little of it, so most tiles are deleted on the first pass instead of being tried
    again on every pass until the tiles their links need have gone (a dead position's tests
    took a median of 7 passes from the height order, 2 replayed). And a type whose tiles the
    test before deleted in pairs (witnessed_pairing) has that pairing alive without a test, so
    a type all of whose pairings are alive takes one test instead of two."""
    cdef int t, k, i, alive, which, r, free
    cdef int32_t q[4]
    cdef bint changed = True, tested = False
    while changed:
        changed = False
        for t in range(g.ntypes):
            if g.count[t] != 4 or D.partner[g.pos[g.offset[t]]] >= 0:
                continue
            for i in range(4):
                q[i] = g.pos[g.offset[t] + i]
            alive = 0
            which = -1
            free = witnessed_pairing(D, g, q) if replay and tested else -1
            if free >= 0:
                alive = 1
                which = free
            for k in range(3):
                if k == free:
                    continue
                pair_up(D, q, k, True)
                r = gdead_test(D, g, w, max_turns, b, replay and tested)
                tested = True
                pair_up(D, q, k, False)
                if b.stop:
                    return 0
                if r == 0:
                    alive += 1
                    which = k
                    if alive > 1:
                        break
            if alive == 0:
                return 1
            if alive == 1:
                pair_up(D, q, which, True)
                changed = True
    return 0
