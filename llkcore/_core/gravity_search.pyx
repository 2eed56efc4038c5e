# cython: language_level=3
"""The exact search under gravity: depth-first over moves, with a table of dead positions.

With gravity tiles move, so the pairing search's arguments do not hold (docs/architecture.md,
"Solvers"); this search tries moves in order, most hemmed-in pair first (greedy-freedom's
order), then the smallest pair, and remembers dead positions by Zobrist hashes of (cell, type)
of every tile. A node is a position reached by a move.
"""
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport qsort
from libc.string cimport memset

from .alloc cimport IVec, grow, ivec_reserve, llk_free, llk_malloc
from .gravity cimport put_pair, slide_room, take_pair
from .grid cimport Grid, empty_neighbours
from .memo cimport Memo, memo_free, memo_has, memo_init, memo_put, mix64
from .pairs cimport list_moves
from .run cimport OPEN, ST_DEAD, ST_MEMORY, ST_SOLVED, Ctx, record, spend


cdef struct GFrame:
    int64_t cand_base       # the position's moves: cand[cand_base : cand_base + 2 * ncand]
    int ncand
    int next
    uint64_t k0, k1         # the position's key
    int t                   # type of the pair removed from here (to put it back)
    int ngm                 # gravity moves of that removal: gm[gm_base : gm_base + 2 * ngm]
    int64_t gm_base


cdef struct GSearch:
    Ctx *c
    uint64_t *z             # 2 * H * W: Zobrist words of each cell
    Memo memo
    GFrame *frames
    IVec cand               # moves of the positions on the stack
    IVec gm                 # gravity moves of the removals on the stack
    int64_t *keys           # sort keys of one position's moves
    int64_t nkeys


cdef inline void position_key(GSearch *S, uint64_t *k0, uint64_t *k1) noexcept nogil:
    """Zobrist key of (cell, type) of every tile, from scratch (tiles move under gravity)."""
    cdef Grid *g = S.c.g
    cdef int t, i, p
    cdef uint64_t v
    k0[0] = 0
    k1[0] = 0
    for t in range(g.ntypes):
        v = mix64(<uint64_t>t * <uint64_t>0x9E3779B97F4A7C15 + 1)
        for i in range(g.count[t]):
            p = g.pos[g.offset[t] + i]
            k0[0] ^= mix64(S.z[2 * p] ^ v)
            k1[0] ^= mix64(S.z[2 * p + 1] + v)


cdef int cmp_i64(const void *x, const void *y) noexcept nogil:
    cdef int64_t a = (<const int64_t *>x)[0]
    cdef int64_t b = (<const int64_t *>y)[0]
    return (a > b) - (a < b)


cdef int enter(GSearch *S, GFrame *f) noexcept nogil:
    """Enter a position: solved / dead / OPEN with its moves ordered."""
    cdef Ctx *c = S.c
    cdef Grid *g = c.g
    cdef int64_t i, k, total
    cdef int a, b
    cdef int64_t score
    if not spend(&c.b):
        return c.b.stop
    if g.tiles == 0:
        return ST_SOLVED
    position_key(S, &f.k0, &f.k1)
    if memo_has(&S.memo, f.k0, f.k1):
        return ST_DEAD
    # The moves, on top of the stack's: count them, make room, list them.
    total = list_moves(g, c.w, c.max_turns, NULL, 1 << 62, &c.b)
    if total < 0:
        return c.b.stop
    if (not ivec_reserve(&S.cand, f.cand_base + 2 * total + 2)
            or not grow(<void **>&S.keys, &S.nkeys, total + 1, sizeof(int64_t))):
        c.b.stop = ST_MEMORY
        return ST_MEMORY
    k = list_moves(g, c.w, c.max_turns, S.cand.data + f.cand_base, total, &c.b)
    if k < 0:
        return c.b.stop
    if k == 0:
        memo_put(&S.memo, f.k0, f.k1)
        return ST_DEAD
    # Most hemmed-in pair first (greedy-freedom's order), then the smallest pair.
    for i in range(k):
        a = S.cand.data[f.cand_base + 2 * i]
        b = S.cand.data[f.cand_base + 2 * i + 1]
        score = empty_neighbours(g, a) + empty_neighbours(g, b)
        S.keys[i] = (score << 42) | (<int64_t>a << 21) | b
    qsort(S.keys, k, sizeof(int64_t), cmp_i64)
    for i in range(k):
        S.cand.data[f.cand_base + 2 * i] = <int32_t>((S.keys[i] >> 21) & 0x1FFFFF)
        S.cand.data[f.cand_base + 2 * i + 1] = <int32_t>(S.keys[i] & 0x1FFFFF)
    f.ncand = <int>k
    f.next = 0
    return OPEN


cdef inline void take_back(GSearch *S, GFrame *f) noexcept nogil:
    """Take back the move frame f made (its gravity moves are the top of S.gm)."""
    cdef int a = S.cand.data[f.cand_base + 2 * (f.next - 1)]
    cdef int b = S.cand.data[f.cand_base + 2 * (f.next - 1) + 1]
    put_pair(S.c.g, a, b, f.t, f.t, S.gm.data + f.gm_base, f.ngm)
    S.gm.n = f.gm_base


cdef int search(GSearch *S) noexcept nogil:
    """Depth-first search over moves (explicit stack); leaves the board as given unless solved."""
    cdef Ctx *c = S.c
    cdef Grid *g = c.g
    cdef GFrame *f
    cdef GFrame *child
    cdef int depth = 0, r, a, b, i
    cdef int applied = 0          # frames whose move is on the board when the loop breaks
    cdef int room = slide_room(g)
    S.frames[0].cand_base = 0
    r = enter(S, &S.frames[0])
    if r != OPEN:
        return r                  # solved with no move, dead at once, or out of budget
    while depth >= 0:
        f = &S.frames[depth]
        if f.next < f.ncand:
            if not ivec_reserve(&S.gm, S.gm.n + room):
                c.b.stop = ST_MEMORY
                r = ST_MEMORY
                applied = depth
                break
            a = S.cand.data[f.cand_base + 2 * f.next]
            b = S.cand.data[f.cand_base + 2 * f.next + 1]
            f.next += 1
            f.gm_base = S.gm.n
            f.t = g.tid[a]
            f.ngm = take_pair(g, a, b, c.gravity, S.gm.data + S.gm.n)
            S.gm.n += 2 * f.ngm
            child = &S.frames[depth + 1]
            child.cand_base = f.cand_base + 2 * f.ncand
            r = enter(S, child)
            if r == OPEN:
                depth += 1
            elif r == ST_DEAD:
                take_back(S, f)
            else:
                applied = depth + 1
                break             # solved, or a budget ran out
        else:
            memo_put(&S.memo, f.k0, f.k1)
            depth -= 1
            if depth >= 0:
                take_back(S, &S.frames[depth])
    if depth < 0:
        return ST_DEAD
    if r == ST_SOLVED:
        c.nout = 0
        for i in range(applied):
            f = &S.frames[i]
            record(c, S.cand.data[f.cand_base + 2 * (f.next - 1)],
                   S.cand.data[f.cand_base + 2 * (f.next - 1) + 1])
        return r
    for i in range(applied - 1, -1, -1):
        take_back(S, &S.frames[i])
    return r


cdef int run_gravity_search(Ctx *c, int64_t memo_entries, uint64_t seed, int options) noexcept nogil:
    """Set up the search state (all or nothing) and search."""
    cdef Grid *g = c.g
    cdef GSearch S
    cdef int HW = g.H * g.W, i, status
    memset(&S, 0, sizeof(GSearch))
    S.c = c
    S.z = <uint64_t *>llk_malloc(2 * <size_t>HW * sizeof(uint64_t))
    S.frames = <GFrame *>llk_malloc((g.tiles // 2 + 2) * sizeof(GFrame))
    if S.z == NULL or S.frames == NULL or not memo_init(&S.memo, memo_entries):
        status = ST_MEMORY
    else:
        for i in range(HW):
            S.z[2 * i] = mix64(seed + 2 * <uint64_t>i)
            S.z[2 * i + 1] = mix64(seed + 2 * <uint64_t>i + 1)
        status = search(&S)
    if c.b.stop == ST_MEMORY:
        status = ST_MEMORY
    llk_free(S.z)
    llk_free(S.frames)
    memo_free(&S.memo)
    llk_free(S.cand.data)
    llk_free(S.gm.data)
    llk_free(S.keys)
    return status
