# cython: language_level=3
"""Removable pairs of a position: the full sorted list, whether there is one, and the hint.

Same-type pairs only, from the index, with no cap per type. Up to two turns each same-type pair
gets the run-sweep (cheap rejects first, link_cells); above two turns each tile gets one run
flood (reach.pyx) that finds every tile it links to and the fewest turns to each, instead of one
turn-level BFS per pair (docs/architecture.md, "Removable pairs and hints"). On crowded boards
of many tiles a type, the moves of up to two turns come from the runs of empty cells instead
(run_moves), and the hint's moves of up to one turn from passes over the cells
(best_line_move).

Under gravity, ``moves_after`` makes a position's moves from those of the position before its
last removal, for the gravity search and its certificate hunt (docs/architecture.md, "Kept
moves").

Every entry point runs under a budget (run.pxd): Ctrl-C in the main thread stops a long call
and raises KeyboardInterrupt; the state is only read, so nothing changes.
"""
cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport abs, qsort
from libc.string cimport memcpy, memset

from .alloc cimport IVec, ivec_reserve, llk_free, llk_malloc
from .budget cimport Budget
from .gravity cimport emptied_cells, line_through
from .grid cimport (GRAVITY_NONE, Grid, adjacent, bits_next, bits_prev, cmp_int64, cmp_pair,
                    empty_neighbours, sort_ints)
from .link cimport link_cells
from .memo cimport mix64
from .sweep cimport link_sweep, two_turn_length
from .path cimport PathWork, path_search
from .reach cimport Flood, flood_alloc, flood_free, flood_reach
from .run cimport budget_raise, budget_start, cancel_flag, still_time, still_time_now
from .state cimport GridState

import numpy as np

cnp.import_array()


cdef inline void put_move(int32_t *out, int32_t *turns_out, int64_t n, int a, int p,
                          int turns) noexcept nogil:
    """Move n is (a, p) with ``turns`` turns; either output may be NULL (counting only)."""
    if out != NULL:
        out[2 * n] = a
        out[2 * n + 1] = p
    if turns_out != NULL:
        turns_out[n] = turns


cdef int64_t flood_type(const Grid *g, PathWork *w, int t, int max_turns, int32_t *out,
                        int32_t *turns_out, int64_t n, int64_t cap, Budget *b) noexcept nogil:
    """The moves of type t from one flood per tile, each pair listed from its smaller cell (so
    the tile with the largest cell needs no flood), appended at n; the new n, or -1 when ``b``
    said stop."""
    cdef Flood *f = &w.flood
    cdef int i, j, k, a, p, q, d, top = 0
    cdef int nb[4]
    for i in range(g.count[t]):
        if g.pos[g.offset[t] + i] > top:
            top = g.pos[g.offset[t] + i]
    for i in range(g.count[t]):
        a = g.pos[g.offset[t] + i]
        if a == top:
            continue
        if empty_neighbours(g, a) == 0:
            # Enclosed: it links only to an adjacent twin (no flood needed).
            if not still_time(b):
                return -1
            nb[0] = a + 1
            nb[1] = a + g.W
            nb[2] = a - 1
            nb[3] = a - g.W
            for d in range(4):
                q = nb[d]
                if q > a and g.tid[q] == t:
                    if n >= cap:
                        return n
                    put_move(out, turns_out, n, a, q, 0)
                    n += 1
            continue
        if not still_time_now(b):
            return -1
        k = flood_reach(g, f, a, max_turns)
        for j in range(k):
            p = f.cand[j]
            if p > a and g.tid[p] == t:
                if n >= cap:
                    return n
                put_move(out, turns_out, n, a, p, f.cand_turns[j])
                n += 1
    return n


cdef int64_t flood_moves(const Grid *g, PathWork *w, int max_turns, int32_t *out,
                         int32_t *turns_out, int64_t cap, Budget *b) noexcept nogil:
    """list_moves above two turns, with the fewest turns of each pair (``turns_out`` may be
    NULL): every type by floods."""
    cdef int t
    cdef int64_t n = 0
    for t in range(g.ntypes):
        if g.count[t] >= 2:
            n = flood_type(g, w, t, max_turns, out, turns_out, n, cap, b)
            if n < 0 or n >= cap:
                return n
    return n


cdef int64_t list_moves(const Grid *g, PathWork *w, int max_turns, int32_t *out, int64_t cap,
                        Budget *b) noexcept nogil:
    cdef int t, i, j, n, pa, pb
    cdef int64_t k = 0
    for t in range(g.ntypes):
        n = g.count[t]
        if n < 2:
            continue
        if floods_type(g, w, t, max_turns):
            k = flood_type(g, w, t, max_turns, out, NULL, k, cap, b)
            if k < 0 or k >= cap:
                return k
            continue
        for i in range(n):
            pa = g.pos[g.offset[t] + i]
            for j in range(i + 1, n):
                if k >= cap:
                    return k
                if not still_time(b):
                    return -1
                pb = g.pos[g.offset[t] + j]
                if link_cells(g, w, pa, pb, max_turns):
                    if out != NULL:
                        out[2 * k] = pa if pa < pb else pb
                        out[2 * k + 1] = pb if pa < pb else pa
                    k += 1
    return k


cdef int64_t list_moves_grown(const Grid *g, PathWork *w, int max_turns, IVec *v, int64_t base,
                              Budget *b) noexcept nogil:
    """list_moves into a growable vector, room first as ``listing_room`` says; a position
    that fills it is counted, given room and listed again."""
    cdef int64_t total = pair_capacity(g), room = listing_room(g, total), k
    if not ivec_reserve(v, base + 2 * room + 2):
        return -2
    k = list_moves(g, w, max_turns, v.data + base, room, b)
    if k == room and room < total:
        k = list_moves(g, w, max_turns, NULL, total, b)
        if k < 0:
            return -1
        if not ivec_reserve(v, base + 2 * k + 2):
            return -2
        k = list_moves(g, w, max_turns, v.data + base, k, b)
    return k


cdef int64_t pair_capacity(const Grid *g) noexcept nogil:
    """Number of same-type pairs on the board: an upper bound on the removable ones."""
    cdef int64_t total = 0, n
    cdef int t
    for t in range(g.ntypes):
        n = g.count[t]
        total += n * (n - 1) // 2
    return total


# Kept moves (docs/architecture.md, "Kept moves"): a position's moves from its parent's.
cdef int kept_lines(int32_t *line, const Grid *g, int gravity) noexcept nogil:
    cdef int i, start, up, length
    if not line_through(g, g.W + 1, gravity, &start, &up, &length):
        up = 1                  # no gravity: each cell is a line of its own
    for i in range(g.H * g.W):
        line[i] = (i if gravity == GRAVITY_NONE else i % g.W if up == g.W or up == -g.W
                   else i // g.W)
    return up


cdef bint kept_alloc(KeptWork *k, int H, int W, const int32_t *line, int up) noexcept nogil:
    # All pointers NULL first: a failure frees what was made, and nothing else (a caller's
    # KeptWork on the stack held garbage that kept_free then freed).
    memset(k, 0, sizeof(KeptWork))
    k.line = line
    k.up = up
    k.reach_turns = <int32_t *>llk_malloc(<size_t>H * W * sizeof(int32_t))
    k.listed = NULL
    k.listed_room = 0
    if k.reach_turns == NULL or not flood_alloc(&k.flood, H, W):
        kept_free(k)
        return False
    return True


cdef void kept_free(KeptWork *k) noexcept nogil:
    flood_free(&k.flood)
    llk_free(k.reach_turns)
    k.reach_turns = NULL
    llk_free(k.listed)
    k.listed = NULL
    k.listed_room = 0


cdef inline bint moved_line(const KeptWork *k, int q, int a, int la, int b, int lb) noexcept nogil:
    """q is a cell of the removal (a, b) or lies against gravity from one on its line: a tile
    there may have moved (tiles past a wall on that line are counted too, and merely listed
    again)."""
    cdef int lq = k.line[q]
    return (lq == la and (q - a) * k.up >= 0) or (lq == lb and (q - b) * k.up >= 0)


# Up to this many moves, "is (x, y) listed already?" scans them; past it, a set answers. A
# position with 10**5 moves and a flood reaching 10**5 pairs made the scan quadratic: three
# search nodes in 5 s on a 1 x 1024 board of four types.
cdef enum:
    LISTED_SCAN = 32


cdef inline uint64_t move_key(int x, int y) noexcept nogil:
    """A move (x < y, so y > 0) as a non-zero key."""
    return ((<uint64_t><uint32_t>x) << 32) | <uint32_t>y


cdef inline bint listed_add(KeptWork *k, uint64_t key) noexcept nogil:
    """Put ``key`` in the set (room assumed); False when it was there already."""
    cdef int64_t mask = k.listed_slots - 1
    cdef int64_t i = <int64_t>(mix64(key) & <uint64_t>mask)
    while k.listed[i] != 0:
        if k.listed[i] == key:
            return False
        i = (i + 1) & mask
    k.listed[i] = key
    k.listed_count += 1
    return True


cdef bint listed_fill(KeptWork *k, const int32_t *v, int64_t n) noexcept nogil:
    """Make the set hold the n moves in v, with slots for at least as many again (at most half
    full); False when out of memory."""
    cdef int64_t slots = 64, i
    while slots < 4 * n:
        slots <<= 1
    if slots > k.listed_room:
        llk_free(k.listed)
        k.listed = <uint64_t *>llk_malloc(<size_t>slots * sizeof(uint64_t))
        k.listed_room = slots if k.listed != NULL else 0
        if k.listed == NULL:
            return False
    k.listed_slots = slots
    k.listed_count = 0
    memset(k.listed, 0, <size_t>slots * sizeof(uint64_t))
    for i in range(n):
        listed_add(k, move_key(v[2 * i], v[2 * i + 1]))
    return True


cdef int among(KeptWork *k, const int32_t *v, int64_t n, bint *filled, int x,
               int y) noexcept nogil:
    """Whether (x, y), x < y, is one of the n moves in v: 1 or 0, -2 when out of memory.
    Past LISTED_SCAN moves a set of them answers, made at the first question (``filled``
    says it is made; every later move must then be added with ``listed_note``)."""
    cdef int64_t i, mask
    cdef uint64_t key = move_key(x, y)
    if n <= LISTED_SCAN and not filled[0]:
        for i in range(n):
            if v[2 * i] == x and v[2 * i + 1] == y:
                return 1
        return 0
    if not filled[0]:
        if not listed_fill(k, v, n):
            return -2
        filled[0] = True
    mask = k.listed_slots - 1
    i = <int64_t>(mix64(key) & <uint64_t>mask)
    while k.listed[i] != 0:
        if k.listed[i] == key:
            return 1
        i = (i + 1) & mask
    return 0


cdef bint listed_note(KeptWork *k, const int32_t *v, int64_t n, bint filled) noexcept nogil:
    """After a move was added as the n-th of v: add it to the set too, if made (made again,
    bigger, once half full); False when out of memory."""
    if not filled:
        return True
    if 2 * (k.listed_count + 1) > k.listed_slots:
        return listed_fill(k, v, n)
    listed_add(k, move_key(v[2 * n - 2], v[2 * n - 1]))
    return True


cdef inline int64_t add_move(IVec *v, int64_t base, int64_t n, int x, int y) noexcept nogil:
    """Append move (x, y), smaller cell first, to the n moves at v.data[base:]: the new count,
    or -2 when out of memory."""
    if not ivec_reserve(v, base + 2 * n + 4):
        return -2
    v.data[base + 2 * n] = x if x < y else y
    v.data[base + 2 * n + 1] = y if x < y else x
    return n + 1


cdef int64_t moves_after(KeptWork *k, const Grid *g, PathWork *w, int max_turns, Budget *bud,
                         int a, int b, const int32_t *gm, int ngm, const IVec *src,
                         int64_t src_base, int64_t nsrc, IVec *dst, int64_t dst_base,
                         int64_t *nkept) noexcept nogil:
    cdef int la = k.line[a], lb = k.line[b], HW = g.H * g.W
    cdef int i, j, m, x, y, t, q, line, nfreed, nreached, found
    cdef int depth = max_turns // 2       # of the floods from the emptied cells
    cdef int freed[2]
    cdef int64_t n = 0
    cdef bint filled = False              # the set of listed moves is made (among)
    cdef const int32_t *from_
    if not ivec_reserve(dst, dst_base + 2 * nsrc + 2):
        return -2
    # Kept: a move of the parent whose tiles did not move is still a move (occupancy only
    # shrinks). (src may be dst: read it only after dst has its room.)
    from_ = src.data + src_base
    for i in range(nsrc):
        x = from_[2 * i]
        y = from_[2 * i + 1]
        if not moved_line(k, x, a, la, b, lb) and not moved_line(k, y, a, la, b, lb):
            dst.data[dst_base + 2 * n] = x
            dst.data[dst_base + 2 * n + 1] = y
            n += 1
    nkept[0] = n
    # Listed again: each tile on the removal's lines at or above its cells, with every tile of
    # its type (a pair of two such tiles from its smaller cell).
    for i in range(2):
        if i == 1 and lb == la:
            break
        q = a if i == 0 else b
        if i == 0 and lb == la and (b - a) * k.up < 0:
            q = b                 # one line: from the lower cell
        line = k.line[q]
        while 0 <= q < HW and k.line[q] == line:
            if not still_time(bud):
                return -1
            t = g.tid[q]
            for j in range(g.count[t] if t >= 0 else 0):
                y = g.pos[g.offset[t] + j]
                if (y == q or (y < q and moved_line(k, y, a, la, b, lb))
                        or not link_cells(g, w, q, y, max_turns)):
                    continue
                n = add_move(dst, dst_base, n, q, y)
                if n < 0:
                    return n
            q += k.up
    # Newly joined: a pair of tiles that did not move and was no move before has a path through
    # a cell the removal emptied; cut there, it is two paths from that cell whose turns add up
    # to at most max_turns, so the fewest turns from the cell to each tile do too, and one of
    # them is at most half of max_turns. So a flood that deep from the cell reaches one tile of
    # the pair, and the other is reached too or lies further (more turns than the flood's depth).
    nfreed = emptied_cells(g, a, b, gm, ngm, freed)
    for i in range(nfreed):
        if not still_time(bud):
            return -1
        nreached = flood_reach(g, &k.flood, freed[i], depth)
        for j in range(nreached):
            k.reach_turns[k.flood.cand[j]] = k.flood.cand_turns[j]
        for j in range(nreached):
            x = k.flood.cand[j]
            t = g.tid[x]
            if t < 0 or moved_line(k, x, a, la, b, lb):
                continue
            for m in range(g.count[t]):
                y = g.pos[g.offset[t] + m]
                if y == x or moved_line(k, y, a, la, b, lb):
                    continue
                if k.flood.mark[y] == k.flood.stamp:
                    if y < x or k.reach_turns[x] + k.reach_turns[y] > max_turns:
                        continue      # taken from y, or too many turns
                elif k.reach_turns[x] + depth + 1 > max_turns:
                    continue
                if not still_time(bud):
                    return -1
                found = among(k, dst.data + dst_base, n, &filled, min(x, y), max(x, y))
                if found != 0:
                    if found < 0:
                        return -2
                    continue
                if link_cells(g, w, x, y, max_turns):
                    n = add_move(dst, dst_base, n, x, y)
                    if n < 0:
                        return n
                    if not listed_note(k, dst.data + dst_base, n, filled):
                        return -2
    return n


cdef int min_turns(const Grid *g, int pa, int pb, int max_turns) noexcept nogil:
    """Fewest turns of a path joining the removable pair (pa, pb), max_turns <= 2, without
    building a path (the sweep answers "within t turns?" for t = 0, 1)."""
    cdef int t
    if adjacent(g, pa, pb):
        return 0
    for t in range(max_turns):
        if link_sweep(g, pa, pb, t):
            return t
    return max_turns


# Listing by runs (docs/architecture.md, "Listing moves by runs"): every move of at most two
# turns from the maximal runs of empty cells, without a test per pair or a flood per tile.
cdef inline int seen_add(const Grid *g, int64_t *seen, int n, int p) noexcept nogil:
    """Add the cell p to the n tiles in ``seen`` (as type << 32 | cell) if it holds a tile."""
    if g.tid[p] < 0:
        return n
    seen[n] = (<int64_t>g.tid[p] << 32) | p
    return n + 1


cdef int64_t seen_pairs(int64_t *seen, int n, IVec *v, int64_t k) noexcept nogil:
    """Append every same-type pair of the n tiles in ``seen`` to the k pairs in v (as a << 32 |
    b, a < b, in two int32 slots): the new k, or -2 when out of memory."""
    cdef int i, j, m, start = 0
    cdef int64_t low = (<int64_t>1 << 32) - 1      # the cell's bits
    if n < 2:
        return k
    sort_ints(seen, n)
    for i in range(1, n + 1):
        if i < n and (seen[i] >> 32) == (seen[start] >> 32):
            continue
        for j in range(start, i):
            for m in range(j + 1, i):
                if not ivec_reserve(v, 2 * k + 2):
                    return -2
                (<int64_t *>v.data)[k] = ((seen[j] & low) << 32) | (seen[m] & low)
                k += 1
        start = i
    return k


cdef bint sort_pair_keys(int64_t *keys, int64_t n, int nbits) noexcept nogil:
    """Sort n keys a << 32 | b (a, b < 2**nbits) ascending, by an LSD radix sort of 11-bit
    digits (qsort was most of a listing by runs); False when out of memory."""
    cdef int64_t count[2048]
    cdef int64_t i, total, d
    cdef int base, shift
    cdef int64_t *src = keys
    cdef int64_t *dst = <int64_t *>llk_malloc(<size_t>(n if n > 0 else 1) * sizeof(int64_t))
    cdef int64_t *spare = dst
    if dst == NULL:
        return False
    for base in range(0, 64, 32):
        for shift in range(base, base + nbits, 11):
            memset(count, 0, sizeof(count))
            for i in range(n):
                count[(src[i] >> shift) & 2047] += 1
            total = 0
            for d in range(2048):
                total += count[d]
                count[d] = total - count[d]
            for i in range(n):
                d = (src[i] >> shift) & 2047
                dst[count[d]] = src[i]
                count[d] += 1
            src, dst = dst, src
    if src != keys:
        memcpy(keys, src, <size_t>n * sizeof(int64_t))
    llk_free(spare)
    return True


cdef int64_t run_moves(const Grid *g, IVec *v, Budget *b) noexcept nogil:
    """Every move of at most two turns into v, each as a << 32 | b (a < b) in two int32 slots,
    sorted, each once: how many, or -1 when ``b`` said stop, -2 when out of memory.

    A path of at most two turns whose middle segment is vertical runs inside one maximal run of
    empty cells of a column, and leaves it along rows (or ends at the tiles just above and below
    it, for one turn or none). So the tiles seen along the rows from a vertical run's cells,
    with the run's two end tiles, link to each other, and every such move is found so; the
    same with rows and columns swapped, and two tiles next to each other need no run."""
    cdef int H = g.H, W = g.W, x, y, r, c, n, side, step, cross_step, length, cross_length
    cdef int words
    cdef const uint64_t *bits
    cdef int64_t k = 0, i, u
    cdef int64_t *keys
    cdef int64_t *seen = <int64_t *>llk_malloc((2 * <size_t>(H if H > W else W) + 4)
                                                * sizeof(int64_t))
    if seen == NULL:
        return -2
    for side in range(2):
        # Side 0: the runs of column x, cell r of it at x + r * W, seen along row r (rowbits);
        # side 1: the runs of row x, cell r of it at x * W + r, seen along column r (colbits).
        # The cell c across from cell r is at r * step + c * cross_step.
        if side == 0:
            step, cross_step, length, cross_length, bits, words = W, 1, H, W, g.rowbits, g.RW
        else:
            step, cross_step, length, cross_length, bits, words = 1, W, W, H, g.colbits, g.CW
        for x in range(cross_length):
            if not still_time(b):
                llk_free(seen)
                return -1
            r = 0
            while r < length:
                if g.cells[x * cross_step + r * step] != 0:
                    r += 1
                    continue
                n = 0
                if r > 0:
                    n = seen_add(g, seen, n, x * cross_step + (r - 1) * step)
                while r < length and g.cells[x * cross_step + r * step] == 0:
                    c = bits_prev(bits + r * words, x)
                    if c >= 0:
                        n = seen_add(g, seen, n, r * step + c * cross_step)
                    c = bits_next(bits + r * words, x, cross_length)
                    if c < cross_length:
                        n = seen_add(g, seen, n, r * step + c * cross_step)
                    r += 1
                if r < length:
                    n = seen_add(g, seen, n, x * cross_step + r * step)
                k = seen_pairs(seen, n, v, k)
                if k < 0:
                    llk_free(seen)
                    return k
    llk_free(seen)
    # Neighbours (tiles never sit on the ring, so q + 1 and q + W stay on the board).
    for y in range(1, H - 1):
        for x in range(1, W - 1):
            i = y * W + x
            if g.tid[i] < 0:
                continue
            for side in range(2):
                u = i + 1 if side == 0 else i + W
                if g.tid[u] == g.tid[i]:
                    if not ivec_reserve(v, 2 * k + 2):
                        return -2
                    (<int64_t *>v.data)[k] = (i << 32) | u
                    k += 1
    keys = <int64_t *>v.data
    n = 1
    while (<int64_t>1 << n) < <int64_t>H * W:
        n += 1
    if not sort_pair_keys(keys, k, n):
        return -2
    n = 0
    for i in range(k):
        if i == 0 or keys[i] != keys[i - 1]:
            keys[n] = keys[i]
            n += 1
    return n


cdef bint lists_by_runs(const Grid *g, PathWork *w) noexcept nogil:
    """Whether a listing of at most two turns is made by runs: on a board at least 40% full
    where some type would be flooded (floods_type), a flood from each of its tiles. Emptier
    boards have longer runs, whose tiles are found again from run after run: a sparser board of
    one type listed up to 1.8 times slower by runs (each move found again, then sorted out)."""
    cdef int t
    if 5 * <int64_t>g.tiles < 2 * <int64_t>g.H * g.W:
        return False
    for t in range(g.ntypes):
        if floods_type(g, w, t, 2):
            return True
    return False


cdef object run_listed(GridState s, Budget *b):
    """run_moves as a sorted (k, 2) int32 array of padded cells; None when ``b`` said stop."""
    cdef IVec v
    cdef int64_t k, i
    cdef const int64_t *keys
    cdef int32_t *buf
    cdef int64_t low = (<int64_t>1 << 32) - 1
    v.data = NULL
    v.n = 0
    v.cap = 0
    with nogil:
        k = run_moves(&s.g, &v, b)
    try:
        if k == -2:
            raise MemoryError
        if k < 0:
            return None
        out = np.empty((k, 2), dtype=np.int32)
        buf = <int32_t *>cnp.PyArray_DATA(out)
        keys = <const int64_t *>v.data
        with nogil:
            for i in range(k):
                buf[2 * i] = <int32_t>(keys[i] >> 32)
                buf[2 * i + 1] = <int32_t>(keys[i] & low)
        return out
    finally:
        llk_free(v.data)


cdef object sorted_moves(GridState s, int max_turns, bint with_turns, Budget *b,
                         bint by_runs=True):
    """Every removable pair as a sorted (k, 2) int32 array of padded cells, and with_turns the
    fewest turns of each (an int32 array, else None); the caller holds the state's lock (with
    the BFS buffers above two turns). None when the budget stopped the listing. ``by_runs``
    False: never by runs (the listing they replace, for tests and the benchmark gate)."""
    cdef const Grid *g = &s.g
    cdef int64_t total = pair_capacity(g), k, i
    # Room for one pass as ``listing_room`` says; a board with more moves than that is counted
    # first, so memory follows the answer, not the number of same-type pairs.
    cdef int64_t cap = listing_room(g, total)
    cdef int32_t *buf
    cdef int32_t *tv
    if max_turns > 2:
        out = np.empty((cap, 2), dtype=np.int32)
        turns = np.empty(cap, dtype=np.int32)
        buf = <int32_t *>cnp.PyArray_DATA(out)
        tv = <int32_t *>cnp.PyArray_DATA(turns)
        with nogil:
            k = flood_moves(g, &s.work, max_turns, buf, tv, cap, b)
        if k == cap and cap < total:
            with nogil:
                k = flood_moves(g, &s.work, max_turns, NULL, NULL, total, b)
            if k < 0:
                return None
            out = np.empty((k, 2), dtype=np.int32)
            turns = np.empty(k, dtype=np.int32)
            buf = <int32_t *>cnp.PyArray_DATA(out)
            tv = <int32_t *>cnp.PyArray_DATA(turns)
            with nogil:
                k = flood_moves(g, &s.work, max_turns, buf, tv, k, b)
        if k < 0:
            return None
        # Sort the rows (pa, pb, turns) by (pa, pb).
        rows = np.empty((k, 3), dtype=np.int32)
        rows[:, :2] = out[:k]
        rows[:, 2] = turns[:k]
        buf = <int32_t *>cnp.PyArray_DATA(rows)
        with nogil:
            qsort(buf, k, 3 * sizeof(int32_t), cmp_pair)
        return (np.ascontiguousarray(rows[:, :2]),
                np.ascontiguousarray(rows[:, 2]) if with_turns else None)
    if max_turns == 2 and by_runs and lists_by_runs(g, &s.work):
        out = run_listed(s, b)
        if out is None:
            return None
        k = out.shape[0]
    else:
        out = np.empty((cap, 2), dtype=np.int32)
        buf = <int32_t *>cnp.PyArray_DATA(out)
        with nogil:
            k = list_moves(g, &s.work, max_turns, buf, cap, b)
        if k == cap and cap < total:
            with nogil:
                k = list_moves(g, &s.work, max_turns, NULL, total, b)
            if k < 0:
                return None
            out = np.empty((k, 2), dtype=np.int32)
            buf = <int32_t *>cnp.PyArray_DATA(out)
            with nogil:
                k = list_moves(g, &s.work, max_turns, buf, k, b)
        if k < 0:
            return None
        with nogil:
            qsort(buf, k, 2 * sizeof(int32_t), cmp_pair)
        # Keep no unused room alive (``buf`` then points into the copy).
        out = out[:k] if k == cap else out[:k].copy()
    buf = <int32_t *>cnp.PyArray_DATA(out)
    if not with_turns:
        return out, None
    turns = np.empty(k, dtype=np.int32)
    tv = <int32_t *>cnp.PyArray_DATA(turns)
    with nogil:
        for i in range(k):
            if not still_time(b):
                break
            tv[i] = min_turns(g, buf[2 * i], buf[2 * i + 1], max_turns)
    if b.stop:
        return None
    return out, turns


cdef int lock_for(GridState s, int max_turns) except -1:
    """Lock s, with the BFS and flood buffers when the listing will use them."""
    if wants_floods(&s.g):
        return s.lock_work()
    return s.lock_links(max_turns)


cdef object listed(GridState s, int max_turns, bint with_turns, cnp.ndarray cancel,
                   double seconds=-1.0, bint by_runs=True):
    """sorted_moves under the lock and a budget (Ctrl-C raises; a cancel, or ``seconds`` (< 0:
    no limit) running out, gives None)."""
    cdef Budget b
    budget_start(&b, seconds, cancel_flag(cancel))
    lock_for(s, max_turns)
    try:
        found = sorted_moves(s, max_turns, with_turns, &b, by_runs)
    finally:
        s.unlock()
    budget_raise(&b)
    return found


def moves_cells(GridState s, int max_turns, cnp.ndarray cancel=None, double seconds=-1.0,
                bint by_runs=True):
    """Every removable pair as a sorted (k, 2) int32 array of padded cells (pa < pb).

    ``cancel``: an int32 array whose first item another thread may set to stop the listing;
    ``seconds`` (< 0: no limit): how long it may take (listing a board of a million cells
    takes about a second). None when either stopped it. ``by_runs=False``: never listed by
    runs (sorted_moves), for tests and the benchmark gate."""
    found = listed(s, max_turns, False, cancel, seconds, by_runs)
    return None if found is None else found[0]


def has_move(GridState s, int max_turns):
    """True iff at least one pair can be removed now (stops at the first)."""
    return first_move(s, max_turns) is not None


def first_move(GridState s, int max_turns):
    """The first removable pair the listing meets, as (pa, pb) padded cells (pa < pb), or
    None: a move at the cost of has_move, where ``hint`` weighs every move."""
    cdef int64_t k
    cdef int32_t pair[2]
    cdef Budget b
    budget_start(&b, -1.0, NULL)
    lock_for(s, max_turns)
    try:
        with nogil:
            # A move of at most two turns (run sweeps) is a move above too, and far cheaper to
            # find than by floods: those only when there is none.
            k = list_moves(&s.g, &s.work, 2, pair, 1, &b) if max_turns > 2 else 0
            if k == 0:
                k = list_moves(&s.g, &s.work, max_turns, pair, 1, &b)
    finally:
        s.unlock()
    budget_raise(&b)
    return (pair[0], pair[1]) if k > 0 else None


def moves_turns(GridState s, int max_turns):
    """(cells, turns): every removable pair as moves_cells gives them, and the fewest turns of
    a path joining each (an int32 array)."""
    return listed(s, max_turns, True, None)


cdef Py_ssize_t best_move(const Grid *g, PathWork *w, const int32_t *mv, const int32_t *turns,
                          Py_ssize_t n, int max_turns, int64_t *keys, Budget *b) noexcept nogil:
    """Index of the move whose best path has the fewest turns, then the shortest length (the
    first such in ``mv``'s order); -1 if the budget stopped the search. ``keys``: room for n.

    Only the moves with the fewest turns T compete. With T <= 1 a best path is straight or one
    L, so its length is the Manhattan distance and one pass decides. Above, the candidates are
    taken by Manhattan distance (a lower bound of the length), then index, and a length is
    computed only for those that could still win: from the run-sweep's shapes at T = 2
    (two_turn_length), by a path search above.
    """
    cdef Py_ssize_t i, j, k = 0, best = -1
    cdef int T = turns[0], end, length, best_length = 0, lower
    for i in range(1, n):
        if turns[i] < T:
            T = turns[i]
    for i in range(n):
        if turns[i] != T:
            continue
        lower = manhattan(g, mv[2 * i], mv[2 * i + 1])
        if T <= 1:
            if best < 0 or lower < best_length:
                best = i
                best_length = lower
        else:
            keys[k] = (<int64_t>lower << 32) | i
            k += 1
    if T <= 1:
        return best
    qsort(keys, k, sizeof(int64_t), cmp_int64)
    for j in range(k):
        i = <Py_ssize_t>(keys[j] & ((<int64_t>1 << 32) - 1))
        lower = <int>(keys[j] >> 32)
        if best >= 0 and (lower > best_length or (lower == best_length and i > best)):
            break       # sorted by (lower, index): nothing after this can win
        if T == 2:
            length = two_turn_length(g, mv[2 * i], mv[2 * i + 1])
        else:
            if not still_time_now(b):
                return -1
            end = path_search(g, w, mv[2 * i], mv[2 * i + 1], max_turns)
            if end < 0:
                return -1   # the budget cut the search short (a listed move always links)
            length = w.dist[end]
        if best < 0 or length < best_length or (length == best_length and i < best):
            best = i
            best_length = length
    return best


cdef inline int manhattan(const Grid *g, int pa, int pb) noexcept nogil:
    cdef int ra = pa // g.W, rb = pb // g.W
    return abs(ra - rb) + abs((pa - ra * g.W) - (pb - rb * g.W))


cdef inline void keep_preferred(int32_t *best, int x, int y, int length) noexcept nogil:
    """best = (a, b, length): the move (x, y) of a straight or one-L path of ``length`` cells
    if hint prefers it (shorter, then the smaller pair); best[2] < 0 means none yet."""
    cdef int a = x if x < y else y, b = y if x < y else x
    if (best[2] < 0 or length < best[2]
            or (length == best[2] and (a < best[0] or (a == best[0] and b < best[1])))):
        best[0] = a
        best[1] = b
        best[2] = length


cdef int best_straight_move(const Grid *g, int32_t *best) noexcept nogil:
    """The move hint prefers among those of no turn, into ``best`` (keep_preferred): two tiles
    of a type next to each other along a row or a column, with only empty cells between. One
    walk of the cells in row order, keeping the last occupied cell to the left and above each
    (a plain walk: bit scans cost more on crowded boards, and the sparsest are not passed over,
    LINE_PASS_CELLS_PER_TILE). 0, or -2 when out of memory."""
    cdef int r, c, q, t, left
    # above[c]: the last occupied cell of column c in the rows walked (-1: none).
    cdef int32_t *above = <int32_t *>llk_malloc(<size_t>g.W * sizeof(int32_t))
    if above == NULL:
        return -2
    for c in range(g.W):
        above[c] = -1
    for r in range(g.H):
        left = -1
        for c in range(g.W):
            q = r * g.W + c
            if g.cells[q] == 0:
                continue
            t = g.tid[q]
            if t >= 0:
                if left >= 0 and g.tid[left] == t:
                    keep_preferred(best, left, q, q - left)
                if above[c] >= 0 and g.tid[above[c]] == t:
                    keep_preferred(best, above[c], q, (q - above[c]) // g.W)
            left = q
            above[c] = q
    llk_free(above)
    return 0


cdef int best_l_move(const Grid *g, int32_t *best, Budget *b) noexcept nogil:
    """The move hint prefers among those of one turn, into ``best`` (keep_preferred): a tile
    seen along its row from an empty cell (the corner) and a tile of its type seen along that
    cell's column. One walk of the cells in row order, keeping the last occupied cell to the
    left and above each; the next one to the right is found once a run of empty cells (a bit
    scan) and the next one below once an occupied cell passed in each column. 0, or -2 when
    out of memory, -3 when ``b`` said stop."""
    cdef int W = g.W, H = g.H, r, c, q, left, right, h, v, i, j
    cdef int hs[2]
    cdef int vs[2]
    # above[c]: the last occupied cell of column c in the rows walked (-1: none); below[c]: the
    # row of the next occupied cell of column c under row r (H: none; <= r: to be found again).
    cdef int32_t *above = <int32_t *>llk_malloc(2 * <size_t>W * sizeof(int32_t))
    cdef int32_t *below
    if above == NULL:
        return -2
    below = above + W
    for c in range(W):
        above[c] = -1
        below[c] = -1
    for r in range(H):
        if not still_time(b):       # a row at a time: the clock once in CHECK_EVERY rows
            llk_free(above)
            return -3
        left = -1
        right = -1
        for c in range(W):
            q = r * W + c
            if g.cells[q] != 0:
                left = q
                above[c] = q
                continue
            if right <= c:
                right = bits_next(g.rowbits + r * g.RW, c, W)
            hs[0] = left if left >= 0 and g.tid[left] >= 0 else -1
            hs[1] = r * W + right if right < W and g.tid[r * W + right] >= 0 else -1
            if hs[0] < 0 and hs[1] < 0:
                continue
            if below[c] <= r:
                below[c] = bits_next(g.colbits + c * g.CW, r, H)
            vs[0] = above[c] if above[c] >= 0 and g.tid[above[c]] >= 0 else -1
            vs[1] = below[c] * W + c if below[c] < H and g.tid[below[c] * W + c] >= 0 else -1
            for i in range(2):
                h = hs[i]
                if h < 0:
                    continue
                for j in range(2):
                    v = vs[j]
                    if v >= 0 and g.tid[v] == g.tid[h]:
                        keep_preferred(best, h, v, abs(h - q) + abs(v - q) // W)
    llk_free(above)
    return 0


cdef int best_line_move(const Grid *g, int max_turns, int32_t *pair, Budget *b) noexcept nogil:
    """The move hint prefers among those of at most max_turns <= 1 turns, from passes over the
    cells instead of a link test per same-type pair: 0 or 1, its turns, with the pair in
    ``pair``; -1 when there is none, -2 when out of memory, -3 when ``b`` said stop."""
    cdef int32_t best[3]
    cdef int found = 0, i
    for i in range(3):
        best[i] = -1
    if best_straight_move(g, best) < 0:
        return -2
    if best[2] < 0 and max_turns >= 1:
        found = best_l_move(g, best, b)
        if found < 0:
            return found
        found = 1
    if best[2] < 0:
        return -1
    pair[0] = best[0]
    pair[1] = best[1]
    return found


def hint(GridState s, int max_turns):
    """The move to suggest: fewest turns, then shortest path, then smallest (a, b); or None.

    Returns (pa, pb) as padded cells, or None when no pair can be removed. The moves and their
    paths are read under one hold of the lock, so the position cannot change in between.
    """
    cdef Py_ssize_t best = -1, n
    cdef const int32_t *mv
    cdef const int32_t *tv
    cdef int64_t *kv
    cdef Budget b
    cdef int listed_turns, start, line_turns = -1
    cdef bint passed
    cdef int32_t pair[2]
    budget_start(&b, -1.0, NULL)
    s.lock_work()
    try:
        # The moves of at most one turn from passes over the cells, unless the board is so
        # sparse that testing its same-type pairs costs less (docs/architecture.md, "The hint
        # passes over the cells for moves of at most one turn").
        passed = <int64_t>s.g.tiles * LINE_PASS_CELLS_PER_TILE >= <int64_t>s.g.H * s.g.W
        if passed:
            with nogil:
                line_turns = best_line_move(&s.g, min(max_turns, 1), pair, &b)
            if line_turns == -2:
                raise MemoryError
        # Level by level: the moves of at most 0, 1, 2 turns, then of max_turns. The first level
        # with any move holds the fewest turns, and its moves are the full listing's candidates
        # in the same order, so the answer is the same; the levels above are never listed. A
        # sparse 512 x 512 board of two types took 4.5 s to list its 2.3 million moves for a
        # hint that is a pair of neighbours; with gravity at three turns a sparse 1024 x 1024
        # took 67 s (docs/architecture.md, "Above two turns: the run flood").
        # Up to LEVELED_HINT_PAIRS same-type pairs one listing is cheap, and two more would add
        # a third to the hint (8 x 18: 11 -> 17 us): those list two turns first, as before.
        start = 0 if pair_capacity(&s.g) > LEVELED_HINT_PAIRS and not passed else 2
        found = None
        if line_turns == -1 and (max_turns > 1 or not passed):
            for listed_turns in range(min(start, max_turns), min(max_turns, 3)):
                found = sorted_moves(s, listed_turns, True, &b)
                if found is None or found[0].shape[0] > 0:
                    break
            else:
                listed_turns = max_turns
                found = sorted_moves(s, max_turns, True, &b)
        if found is not None and found[0].shape[0] > 0:
            cells, turns = found
            n = cells.shape[0]
            keys = np.empty(n, dtype=np.int64)
            mv = <const int32_t *>cnp.PyArray_DATA(cells)
            tv = <const int32_t *>cnp.PyArray_DATA(turns)
            kv = <int64_t *>cnp.PyArray_DATA(keys)
            with nogil:
                best = best_move(&s.g, &s.work, mv, tv, n, listed_turns, kv, &b)
    finally:
        s.unlock()
    budget_raise(&b)
    if line_turns >= 0:
        return int(pair[0]), int(pair[1])
    if best < 0:
        return None
    return int(cells[best, 0]), int(cells[best, 1])


def hint_order(GridState s, int max_turns, double seconds=-1.0):
    """Every removable pair as a (k, 2) int32 array of padded cells, in the order ``hint``
    prefers them: fewest turns, then shortest path, then the smallest pair (``hint`` is the
    first); None when ``seconds`` (< 0: no limit) ran out first. The moves and their paths are
    read under one hold of the lock, under a budget. Lengths: the Manhattan distance up to one
    turn, the run-sweep's shapes at two (two_turn_length), a path search (BFS) above."""
    cdef Py_ssize_t i, n = 0
    cdef const int32_t *mv
    cdef const int32_t *tv
    cdef int32_t *lv
    cdef int end
    cdef Budget b
    budget_start(&b, seconds, NULL)
    s.lock_work()
    try:
        found = sorted_moves(s, max_turns, True, &b)
        if found is not None:
            cells, turns = found
            n = cells.shape[0]
            length = np.empty(n, dtype=np.int32)
            mv = <const int32_t *>cnp.PyArray_DATA(cells)
            tv = <const int32_t *>cnp.PyArray_DATA(turns)
            lv = <int32_t *>cnp.PyArray_DATA(length)
            with nogil:
                for i in range(n):
                    if tv[i] <= 1:      # straight or one L: the length is the Manhattan distance
                        lv[i] = manhattan(&s.g, mv[2 * i], mv[2 * i + 1])
                        continue
                    if tv[i] == 2:      # the run-sweep's shapes, without searching the board
                        lv[i] = two_turn_length(&s.g, mv[2 * i], mv[2 * i + 1])
                        continue
                    if not still_time_now(&b):
                        break
                    end = path_search(&s.g, &s.work, mv[2 * i], mv[2 * i + 1], max_turns)
                    if end < 0:
                        break           # cut short by the budget (b.stop is set)
                    lv[i] = s.work.dist[end]
    finally:
        s.unlock()
    budget_raise(&b)
    if found is None or b.stop:
        return None
    # lexsort is stable: equal (turns, length) keep the sorted pair order.
    return np.ascontiguousarray(cells[np.lexsort((length, turns))])
