# cython: language_level=3
"""The exact search under gravity: depth-first over moves, with a table of dead positions.

With gravity tiles move, so the pairing search's arguments do not hold; this search tries moves.
One code path serves the four directions: "against gravity" is one cell offset (``up``) and a
tile's *line* is its column (down / up) or its row (left / right). A node is a position reached
by a move. docs/architecture.md ("The gravity search") has the arguments in full; in short:

Positions. Gravity keeps the order of the tiles of a segment (a run of non-wall cells of a line)
and packs them at its low end, so a position is fixed by the set of tiles left. Its key is a
128-bit Zobrist hash of (cell, type) of every tile, kept in step with each removal and its
gravity moves; dead positions go to a size-capped table (memo.pyx).

Occupancy only shrinks. A removal empties the top cell of each segment it touches and moves
only tiles of those segments, so a path that was clear stays clear.

Kept moves (OPT_NO_KEPT_MOVES off). A position's moves come from its parent's (moves_after,
pairs.pyx; the hunt's playouts use it too) instead of a listing afresh: a move whose tiles did
not move is still a move; the tiles on the removal's lines at or above its cells are tested
again; and a pair that links now and did not before has a path through one of the two cells the
removal emptied, so a flood of half the turns from those cells reaches one of its tiles. The
same moves, so the same search node for node.

Safe clearing (OPT_NO_SAFE off). If every tile of a type t (at most SAFE_MAX of them) is "on
top" (each tile above it in its segment is of type t too) and t's tiles can clear each other now,
the first removal of such a clearing is the only move tried. Sound: clearing t moves no other
tile (they all lie below t's tiles), so any solution, with t's removals dropped, still plays on
the cleared position (same cells for every other tile, fewer obstacles).

Sleep sets (OPT_NO_SLEEP off). After a move m has been searched from a position, a sibling m'
hands m on to its child as asleep if m' was still a move after m (m's removal moves neither of
its tiles: they are other tiles, and neither lies above a tile of m on its line), and so on down
while the moves made stay moves after m; an asleep move is carried at its tiles' current cells.
Both orders leave the same tiles, so s.m'.m is s.m.m', a child of the dead s.m. Invariant: for
every asleep move m of position s, s.m is dead, so a position whose awake moves all fail is dead
and may be stored in the table.

Dead test at the root (OPT_NO_DEAD off). The relaxed peeling with sinking tiles
(gravity_dead.pyx) proves most random big deals dead at once. At the root of the third round,
probing (OPT_NO_GPROBE off) runs it again under each pairing of every type of four tiles: all
three pairings of a type dead, the root is dead. (The pairings probing fixes name the root's
cells, so they are forgotten after it.)

Dead test on demand (OPT_NO_DEAD_BELOW off; needs the dead test on). Run at every node the test
costs more than it cuts, so it runs on a position only once its subtree has taken more than a
threshold of nodes (each position once a round): DEAD_AFTER times (tests made + 1) / (tests
that proved dead + 1), so a search where it keeps failing (deep stacks, where every tile can
sink far) tests ever more rarely, and one where it works (big boards) keeps testing. A position
it proves dead is stored as dead like any other. Big deals with gravity: 24x12, 40 deals at
3 s, 31 -> 33 proved, the rest open.

Move order and restarts. The search runs in rounds with a node budget that starts at ROUND_BASE
and doubles every two rounds; the table of dead positions is kept throughout. The first round
plays tops first (fewest tiles above the pair, then most hemmed in, then the smallest pair:
removals that move nothing keep the stacks as they are), which alone finds most certificates;
every later round plays a pseudo-random order seeded by the round number, which cuts the heavy
tail of any fixed order. Node counts stay deterministic.

The certificate hunt (OPT_NO_HUNT off; playouts.pxd). Each round from round HUNT_ROUND on
(counted from 0) is followed by as many nodes of policy-adapted playouts from the root (nested
rollout policy adaptation), which go on where the last ones stopped. On deep stacks they find
certificates that the depth-first search does not find in minutes. They only ever answer
SOLVABLE, with the removals they played; a deal is proved dead by the search alone, which the
hunt leaves as it was (it only takes nodes), so no verdict depends on it.
"""
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport qsort
from libc.string cimport memset

from .alloc cimport IVec, grow, ivec_reserve, llk_free, llk_malloc
from .gravity_dead cimport GDead, gdead_free, gdead_init, gdead_probe, gdead_test, gdead_unpair
from .gravity cimport put_pair, slide_room, take_pair
from .grid cimport Grid, cmp_int64, empty_neighbours
from .link cimport link_cells
from .memo cimport Memo, memo_free, memo_has, memo_init, memo_prefetch, memo_put, mix64
from .pairs cimport KeptWork, kept_alloc, kept_free, kept_lines, list_moves_grown, moves_after
from .playouts cimport Hunt, hunt_free, hunt_init, hunt_run
from .run cimport (OPEN, OPT_HUNT_ONLY, OPT_NO_DEAD, OPT_NO_DEAD_BELOW, OPT_NO_GPROBE,
                  OPT_NO_HUNT, OPT_NO_KEPT_MOVES, OPT_NO_REPLAY, OPT_NO_SAFE, OPT_NO_SLEEP,
                  OPT_PROBE_FIRST, ST_DEAD, ST_MEMORY, ST_NODES, ST_SOLVED, Ctx, record,
                  round_limit, spend, still_time)

# Largest type count the safe-clear rule looks at (its clearing search has SAFE_MAX / 2 levels).
cdef enum:
    SAFE_MAX = 8

# Move orders, the first round's node budget, and the first round that probes the root.
cdef enum:
    ORDER_TOPS = 0
    ORDER_SHUFFLED = 1
    ROUND_BASE = 1000
    PROBE_ROUND = 2

# Nodes a position's subtree must have taken before the dead test runs on it (once a round):
# DEAD_AFTER times (tests made + 1) / (tests that proved their position dead + 1).
cdef enum:
    DEAD_AFTER = 500

# The certificate hunt (playouts.pxd) runs after each round from round HUNT_ROUND on (counted
# from 0), for as many nodes as that round had, on boards of at most HUNT_MAX_TILES tiles. It
# stops for good when, after HUNT_TRIAL removals, its best playout has removed fewer than
# HUNT_KEEP_PERCENT of the pairs (docs/architecture.md, "The certificate hunt").
cdef enum:
    HUNT_ROUND = 3
    HUNT_MAX_TILES = 2048
    HUNT_TRIAL = 30000
    HUNT_KEEP_PERCENT = 60


cdef struct GFrame:
    int64_t cand_base       # the position's moves: cand[cand_base : cand_base + 2 * ncand]
    int ncand
    int next
    int64_t sleep_base      # its asleep moves: sleep[sleep_base : sleep_base + 2 * nsleep]
    int nsleep
    uint64_t sleep_bits     # sleep_bit of each asleep move, or-ed: most awake moves miss it
    uint64_t k0, k1         # the position's key
    int t                   # type of the pair removed from here (to put it back)
    int ngm                 # gravity moves of that removal: gm[gm_base : gm_base + 2 * ngm]
    int64_t gm_base
    int64_t entered         # the budget's node count when the position was entered
    bint tested             # the dead test ran on it (on demand: DEAD_AFTER)
    int64_t all_base        # all its moves, asleep ones too: all[all_base : all_base + 2 * nall]
    int nall                # (-1: not listed, when the safe move was the only one tried)


cdef struct GSearch:
    Ctx *c
    uint64_t *z             # 2 * H * W: Zobrist words of each cell
    uint64_t *tv            # ntypes: Zobrist word of each type
    int32_t *line           # H * W: the line gravity moves each cell's tile along (its column
                            # for down / up, else its row)
    uint64_t k0, k1         # key of the current position
    int up                  # offset of one cell against gravity
    int safe                # the safe-clear rule is on
    int sleep               # sleep sets are on
    int order               # ORDER_* of this round
    int round               # this round's number (0: the first)
    uint64_t salt           # ORDER_SHUFFLED's seed of this round
    Memo memo
    GFrame *frames
    IVec cand               # moves of the positions on the stack
    IVec all                # ... all of them, asleep ones too (kept_moves)
    int kept_moves          # a position's moves come from its parent's (moves_after) ...
    KeptWork kept           # ... with these buffers (the hunt's playouts use them too)
    IVec asleep_moves       # sleep sets of the positions on the stack
    IVec gm                 # gravity moves of the removals on the stack
    int32_t *trial          # gravity moves of the safe-clear search: SAFE_MAX / 2 levels
    int room                # ints of one level of ``trial`` (slide_room)
    int64_t *keys           # sort keys of one position's moves
    int64_t nkeys
    int dead                # the dead test is still to run (on the root)
    int probe               # probing of the pairings (gdead_probe) is still to run (root, PROBE_ROUND)
    int probe_first         # (tests) ... right after the dead test, in the first round
    int replay              # probing's tests go through the tiles in the order of the test before
    int dead_below          # the dead test on demand below the root (DEAD_AFTER)
    int64_t dead_after      # the dead test on demand: subtree size that triggers it now
    int64_t dead_tests      # ... tests made, and those that proved their position dead
    int64_t dead_hits
    GDead D
    int hunt                # the certificate hunt runs between rounds
    int hunt_only           # ... and nothing else (tests: OPT_HUNT_ONLY)
    int hunt_ready          # H is set up (at the first hunt: most deals never need one)
    uint64_t seed           # the hunt's seed
    Hunt H


cdef inline void hash_tile(GSearch *S, int p, int t) noexcept nogil:
    """Toggle tile (p, type t) in the position's key."""
    S.k0 ^= mix64(S.z[2 * p] ^ S.tv[t])
    S.k1 ^= mix64(S.z[2 * p + 1] + S.tv[t])


cdef inline bint above(GSearch *S, int q, int lq, int p, int lp) noexcept nogil:
    """q (on line lq) lies against gravity from p (on line lp) on one line: removing p's tile
    may move q's."""
    return lq == lp and (q - p) * S.up > 0


cdef inline uint64_t sleep_bit(int a, int b) noexcept nogil:
    """The bit of move (a, b) in a sleep set's 64-bit filter (``GFrame.sleep_bits``)."""
    cdef uint64_t h = (<uint64_t>a << 32) | <uint64_t>b
    h *= <uint64_t>0x9E3779B97F4A7C15
    return (<uint64_t>1) << (h >> 58)


cdef inline int moved_to(const int32_t *gm, int ngm, int p) noexcept nogil:
    """Where the tile at p is after a removal whose gravity moves are gm (ngm of them)."""
    cdef int i
    for i in range(ngm):
        if gm[2 * i] == p:
            return gm[2 * i + 1]
    return p


cdef inline int make_move(GSearch *S, int a, int b, int32_t *moves) noexcept nogil:
    """Remove (a, b) with gravity, keeping the key in step; returns the gravity moves made."""
    cdef Grid *g = S.c.g
    cdef int t = g.tid[a], i, n, dst
    hash_tile(S, a, t)
    hash_tile(S, b, t)
    n = take_pair(g, a, b, S.c.gravity, moves)
    for i in range(n):
        dst = moves[2 * i + 1]
        hash_tile(S, moves[2 * i], g.tid[dst])
        hash_tile(S, dst, g.tid[dst])
    return n


cdef inline int tiles_above(const Grid *g, int p, int up) noexcept nogil:
    """Tiles above p in its segment (against gravity, up to the first cell without a tile)."""
    cdef int q = p + up, n = 0
    while g.tid[q] >= 0:
        n += 1
        q += up
    return n


cdef inline bint on_top(const Grid *g, int p, int t, int up) noexcept nogil:
    """Every tile above p in its segment is of type t."""
    cdef int q = p + up
    while g.tid[q] >= 0:
        if g.tid[q] != t:
            return False
        q += up
    return True


cdef bint self_clear(GSearch *S, int t, int level, int *pa, int *pb) noexcept nogil:
    """Can type t's tiles clear each other from here (removals of t only, gravity applied)?
    When they can, (pa, pb) is the first pair of such a clearing, in index order, smaller cell
    first (deeper levels write theirs first; each level overwrites it with its own). The board
    is left as it was."""
    cdef Grid *g = S.c.g
    cdef Ctx *c = S.c
    cdef int n = g.count[t], i, j, a, b, ngm
    cdef int32_t *moves = S.trial + level * S.room
    cdef bint ok
    if n == 0:
        return True
    for i in range(n):
        for j in range(i + 1, n):
            a = g.pos[g.offset[t] + i]
            b = g.pos[g.offset[t] + j]
            if not link_cells(g, c.w, a, b, c.max_turns):
                continue
            ngm = take_pair(g, a, b, c.gravity, moves)
            ok = self_clear(S, t, level + 1, pa, pb)
            put_pair(g, a, b, t, t, moves, ngm)
            if ok:
                pa[0] = a if a < b else b
                pb[0] = b if a < b else a
                return True
    return False


cdef bint safe_move(GSearch *S, int *pa, int *pb) noexcept nogil:
    """A safe removal (module docstring), if any: the first pair of a clearing of the first type
    (ascending) whose tiles are all on top and can clear each other now."""
    cdef Grid *g = S.c.g
    cdef Ctx *c = S.c
    cdef int t, n, i
    cdef bint ok
    for t in range(g.ntypes):
        # The clock every 64 types (a type costs a few steps; one check per type cost 30% more
        # instructions here on 8 x 18 deals).
        if (t & 63) == 63 and not still_time(&c.b):
            return False          # enter's list_moves then reports the stop
        n = g.count[t]
        if n == 0 or n > SAFE_MAX:
            continue
        ok = True
        for i in range(n):
            if not on_top(g, g.pos[g.offset[t] + i], t, S.up):
                ok = False
                break
        if ok and self_clear(S, t, 0, pa, pb):
            return True
    return False


cdef inline bint asleep(GSearch *S, GFrame *f, int a, int b) noexcept nogil:
    cdef int i
    cdef const int32_t *z = S.asleep_moves.data + f.sleep_base
    if not (f.sleep_bits & sleep_bit(a, b)):
        return False
    for i in range(f.nsleep):
        if z[2 * i] == a and z[2 * i + 1] == b:
            return True
    return False


cdef inline int64_t move_score(GSearch *S, int a, int b) noexcept nogil:
    """Sort key of a move in this round's order (smaller first; below 2**20)."""
    cdef Grid *g = S.c.g
    if S.order == ORDER_SHUFFLED:
        return <int64_t>(mix64(S.salt ^ (<uint64_t>a << 21) ^ <uint64_t>b) & 0xFFFF)
    return ((tiles_above(g, a, S.up) + tiles_above(g, b, S.up)) * 8
            + empty_neighbours(g, a) + empty_neighbours(g, b))


cdef int enter(GSearch *S, GFrame *f, GFrame *parent) noexcept nogil:
    """Enter a position (its sleep set is set; ``parent`` is the frame whose move led here, NULL
    at the root): solved / dead / OPEN with its moves ordered."""
    cdef Ctx *c = S.c
    cdef Grid *g = c.g
    cdef int64_t i, k, n, nkept
    cdef int a = 0, b = 0, left
    cdef int32_t *cand
    cdef const int32_t *moves
    if not spend(&c.b):
        return c.b.stop
    if g.tiles == 0:
        return ST_SOLVED
    f.k0 = S.k0
    f.k1 = S.k1
    if memo_has(&S.memo, f.k0, f.k1):
        return ST_DEAD
    f.next = 0
    f.entered = c.b.nodes
    f.tested = False
    f.nall = -1
    f.all_base = 0 if parent == NULL else parent.all_base + 2 * max(parent.nall, 0)
    # The dead test on the root here; deeper, run at every node it costs more than the subtrees
    # it cuts, so it runs there on demand (search; docs/architecture.md, "The gravity search").
    # Probing costs two or three tests a type, so it waits for the third round (PROBE_ROUND):
    # most deals are decided in the first two, in a few milliseconds at most.
    left = 0
    if f == S.frames and S.dead:
        S.dead = False
        left = gdead_test(&S.D, g, c.w, c.max_turns, &c.b)
    if (f == S.frames and left == 0 and not c.b.stop and S.probe
            and (S.round >= PROBE_ROUND or S.probe_first)):
        S.probe = False
        left = gdead_probe(&S.D, g, c.w, c.max_turns, &c.b, S.replay)
        gdead_unpair(&S.D, g)     # the pairings it fixed name the root's cells
    if left > 0:
        memo_put(&S.memo, f.k0, f.k1, 0)
        return ST_DEAD
    if c.b.stop:
        return c.b.stop
    if S.safe and safe_move(S, &a, &b):
        if f.nsleep and asleep(S, f, a, b):
            # Its child is dead (an asleep move), and this position stands or falls with it.
            memo_put(&S.memo, f.k0, f.k1, 0)
            return ST_DEAD
        if not ivec_reserve(&S.cand, f.cand_base + 2):
            c.b.stop = ST_MEMORY
            return ST_MEMORY
        S.cand.data[f.cand_base] = a
        S.cand.data[f.cand_base + 1] = b
        f.ncand = 1
        return OPEN
    if S.kept_moves and parent != NULL and parent.nall >= 0:
        k = moves_after(&S.kept, g, c.w, c.max_turns, &c.b,
                        S.cand.data[parent.cand_base + 2 * (parent.next - 1)],
                        S.cand.data[parent.cand_base + 2 * (parent.next - 1) + 1],
                        S.gm.data + parent.gm_base, parent.ngm,
                        &S.all, parent.all_base, parent.nall, &S.all, f.all_base, &nkept)
    else:
        k = list_moves_grown(g, c.w, c.max_turns, &S.all, f.all_base, &c.b)
    if k == -2 or (k >= 0 and not (grow(<void **>&S.keys, &S.nkeys, k + 1, sizeof(int64_t))
                                   and ivec_reserve(&S.cand, f.cand_base + 2 * k + 2))):
        c.b.stop = ST_MEMORY
        return ST_MEMORY
    if k < 0:
        return c.b.stop
    f.nall = <int>k
    moves = S.all.data + f.all_base
    cand = S.cand.data + f.cand_base
    # The awake moves, in this round's order.
    n = 0
    for i in range(k):
        if not still_time(&c.b):
            return c.b.stop
        a = moves[2 * i]
        b = moves[2 * i + 1]
        if f.nsleep and asleep(S, f, a, b):
            continue
        S.keys[n] = (move_score(S, a, b) << 42) | (<int64_t>a << 21) | b
        n += 1
    if n == 0:
        memo_put(&S.memo, f.k0, f.k1, 0)
        return ST_DEAD
    qsort(S.keys, n, sizeof(int64_t), cmp_int64)
    for i in range(n):
        cand[2 * i] = <int32_t>((S.keys[i] >> 21) & 0x1FFFFF)
        cand[2 * i + 1] = <int32_t>(S.keys[i] & 0x1FFFFF)
    f.ncand = <int>n
    return OPEN


cdef inline bint sleep_room(GSearch *S, GFrame *f, GFrame *child) noexcept nogil:
    """Room for the sleep set of f's child (f.next already counts its move); False when out of
    memory."""
    child.sleep_base = f.sleep_base + 2 * f.nsleep
    child.nsleep = 0
    child.sleep_bits = 0
    return not S.sleep or ivec_reserve(&S.asleep_moves,
                                       child.sleep_base + 2 * (f.nsleep + f.next) + 2)


cdef void child_sleep(GSearch *S, GFrame *f, GFrame *child, int a, int b) noexcept nogil:
    """The sleep set of f's child by (a, b), made just now (f's gravity moves are the top of
    S.gm): f's asleep moves and the moves f tried before, those (x, y) whose removal would have
    left a's and b's tiles where they are (other tiles, neither above x or y on its line), so
    that (a, b) is still a move after (x, y); at the cells their tiles have now."""
    cdef int64_t i, n = 0
    cdef int x, y, lx, ly, la = S.line[a], lb = S.line[b]
    cdef const int32_t *src
    cdef const int32_t *gm = S.gm.data + f.gm_base
    cdef int32_t *dst
    cdef uint64_t bits = 0
    if not S.sleep:
        return
    dst = S.asleep_moves.data + child.sleep_base
    for i in range(f.nsleep + f.next - 1):
        if i < f.nsleep:
            src = S.asleep_moves.data + f.sleep_base + 2 * i
        else:
            src = S.cand.data + f.cand_base + 2 * (i - f.nsleep)
        x = src[0]
        y = src[1]
        if x == a or x == b or y == a or y == b:
            continue
        lx = S.line[x]
        ly = S.line[y]
        if (above(S, a, la, x, lx) or above(S, a, la, y, ly) or above(S, b, lb, x, lx)
                or above(S, b, lb, y, ly)):
            continue
        # A tile above a or b slid down with the removal.
        if above(S, x, lx, a, la) or above(S, x, lx, b, lb):
            x = moved_to(gm, f.ngm, x)
        if above(S, y, ly, a, la) or above(S, y, ly, b, lb):
            y = moved_to(gm, f.ngm, y)
        if x > y:
            x, y = y, x
        dst[2 * n] = x
        dst[2 * n + 1] = y
        bits |= sleep_bit(x, y)
        n += 1
    child.nsleep = <int>n
    child.sleep_bits = bits


cdef inline void take_back(GSearch *S, GFrame *f) noexcept nogil:
    """Take back the move frame f made (its gravity moves are the top of S.gm)."""
    cdef int a = S.cand.data[f.cand_base + 2 * (f.next - 1)]
    cdef int b = S.cand.data[f.cand_base + 2 * (f.next - 1) + 1]
    put_pair(S.c.g, a, b, f.t, f.t, S.gm.data + f.gm_base, f.ngm)
    S.gm.n = f.gm_base
    S.k0 = f.k0
    S.k1 = f.k1


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
    S.frames[0].sleep_base = 0
    S.frames[0].nsleep = 0
    S.frames[0].sleep_bits = 0
    r = enter(S, &S.frames[0], NULL)
    if r != OPEN:
        return r                  # solved with no move, dead at once, or out of budget
    while depth >= 0:
        f = &S.frames[depth]
        if (S.dead_below and depth > 0 and not f.tested
                and c.b.nodes - f.entered > S.dead_after):
            # On demand (module docstring): a position whose subtree has grown big (the root
            # had its own test).
            f.tested = True
            S.dead_tests += 1
            if gdead_test(&S.D, g, c.w, c.max_turns, &c.b) > 0:
                f.next = f.ncand  # dead: stored and left below
                S.dead_hits += 1
            elif c.b.stop:
                r = c.b.stop
                applied = depth
                break
            S.dead_after = DEAD_AFTER * (S.dead_tests + 1) // (S.dead_hits + 1)
        if f.next < f.ncand:
            if not ivec_reserve(&S.gm, S.gm.n + room):
                c.b.stop = ST_MEMORY
                r = ST_MEMORY
                applied = depth
                break
            a = S.cand.data[f.cand_base + 2 * f.next]
            b = S.cand.data[f.cand_base + 2 * f.next + 1]
            f.next += 1
            child = &S.frames[depth + 1]
            if not sleep_room(S, f, child):
                c.b.stop = ST_MEMORY
                r = ST_MEMORY
                f.next -= 1
                applied = depth
                break
            f.gm_base = S.gm.n
            f.t = g.tid[a]
            f.ngm = make_move(S, a, b, S.gm.data + S.gm.n)
            S.gm.n += 2 * f.ngm
            # The child's lookup in the table is a cache miss; start it before the sleep set.
            memo_prefetch(&S.memo, S.k0)
            child_sleep(S, f, child, a, b)
            child.cand_base = f.cand_base + 2 * f.ncand
            r = enter(S, child, f)
            if r == OPEN:
                depth += 1
            elif r == ST_DEAD:
                take_back(S, f)
            else:
                applied = depth + 1
                break             # solved, or a budget ran out
        else:
            # Its subtree's nodes as the entry's work: at the table's cap, positions that took
            # long to prove push out those that would be cheap to prove again (memo.pxd).
            memo_put(&S.memo, f.k0, f.k1, c.b.nodes - f.entered)
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


cdef int hunt(GSearch *S) noexcept nogil:
    """Go on with the certificate hunt under the round's budget (set up at its first call; the
    board is at the root between rounds). A hunt whose playouts, after HUNT_TRIAL removals, have
    never removed HUNT_KEEP_PERCENT of the pairs stops for good: such deals are mostly dead (on
    the tall 18 x 8 deals, 39 of 40 proved dead and 13 of 53 proved solvable), and their nodes
    are better spent on the proof."""
    cdef int status
    if not S.hunt_ready:
        if not hunt_init(&S.H, S.c, S.seed):
            S.c.b.stop = ST_MEMORY
            return ST_MEMORY
        S.hunt_ready = True
    status = hunt_run(&S.H, S.c, &S.kept if S.kept_moves else NULL)
    if (status == ST_NODES and S.H.steps >= HUNT_TRIAL
            and 100 * S.H.record < HUNT_KEEP_PERCENT * (S.H.nid // 2)):
        S.hunt = False
    return status


cdef int run_rounds(GSearch *S) noexcept nogil:
    """The search in rounds (module docstring): tops first, then shuffled orders; budgets double
    every two rounds (ROUND_BASE nodes first); the table of dead positions is kept throughout."""
    cdef Ctx *c = S.c
    cdef int64_t user_limit = c.b.node_limit, budget = ROUND_BASE
    cdef int status, r = 0
    if S.hunt and S.hunt_only:
        return hunt(S)
    while True:
        S.order = ORDER_TOPS if r == 0 else ORDER_SHUFFLED
        S.round = r
        S.salt = mix64(<uint64_t>r)
        round_limit(&c.b, user_limit, budget)
        status = search(S)
        if status != ST_NODES or c.b.node_limit == user_limit:
            break
        c.b.stop = 0
        if S.hunt and r >= HUNT_ROUND:
            round_limit(&c.b, user_limit, budget)
            status = hunt(S)
            if status != ST_NODES or c.b.node_limit == user_limit:
                break
            c.b.stop = 0
        if r % 2:
            budget *= 2
        r += 1
    c.b.node_limit = user_limit
    return status


cdef int run_gravity_search(Ctx *c, int64_t memo_entries, uint64_t seed, int options) noexcept nogil:
    """Set up the search state (all or nothing) and search."""
    cdef Grid *g = c.g
    cdef GSearch S
    cdef int HW = g.H * g.W, i, t, status
    memset(&S, 0, sizeof(GSearch))
    S.c = c
    S.safe = not (options & OPT_NO_SAFE)
    S.sleep = not (options & OPT_NO_SLEEP)
    S.dead = not (options & OPT_NO_DEAD)
    S.probe = S.dead and not (options & OPT_NO_GPROBE)
    S.probe_first = (options & OPT_PROBE_FIRST) != 0
    S.replay = not (options & OPT_NO_REPLAY)
    S.dead_below = S.dead and not (options & OPT_NO_DEAD_BELOW)
    S.dead_after = DEAD_AFTER
    S.hunt = not (options & OPT_NO_HUNT) and g.tiles <= HUNT_MAX_TILES
    S.hunt_only = (options & OPT_HUNT_ONLY) != 0
    S.kept_moves = not (options & OPT_NO_KEPT_MOVES)
    S.seed = seed
    S.room = slide_room(g)
    S.line = <int32_t *>llk_malloc(<size_t>HW * sizeof(int32_t))
    S.up = kept_lines(S.line, g, c.gravity) if S.line != NULL else 0
    S.z = <uint64_t *>llk_malloc(2 * <size_t>HW * sizeof(uint64_t))
    S.tv = <uint64_t *>llk_malloc((g.ntypes + 1) * sizeof(uint64_t))
    S.trial = <int32_t *>llk_malloc((SAFE_MAX // 2) * S.room * sizeof(int32_t))
    S.frames = <GFrame *>llk_malloc((g.tiles // 2 + 2) * sizeof(GFrame))
    if (S.z == NULL or S.tv == NULL or S.line == NULL or S.trial == NULL or S.frames == NULL
            or not memo_init(&S.memo, memo_entries) or (S.dead and not gdead_init(&S.D, g, S.up))
            or (S.kept_moves and not kept_alloc(&S.kept, g.H, g.W, S.line, S.up))):
        status = ST_MEMORY
    else:
        for t in range(g.ntypes):
            S.tv[t] = mix64(<uint64_t>t * <uint64_t>0x9E3779B97F4A7C15 + 1)
        # The root's key in cell order: by type (g.pos) it read S.z at random, a cache miss per
        # tile (0.3 s on a 1024 x 1024 deal, before the first look at the clock).
        for i in range(HW):
            S.z[2 * i] = mix64(seed + 2 * <uint64_t>i)
            S.z[2 * i + 1] = mix64(seed + 2 * <uint64_t>i + 1)
            if g.tid[i] >= 0:
                hash_tile(&S, i, g.tid[i])
        status = run_rounds(&S)
    if c.b.stop == ST_MEMORY:
        status = ST_MEMORY
    llk_free(S.z)
    llk_free(S.tv)
    llk_free(S.line)
    llk_free(S.trial)
    llk_free(S.frames)
    memo_free(&S.memo)
    c.dead_tests += S.D.tests
    c.dead_links += S.D.work
    gdead_free(&S.D)
    hunt_free(&S.H)
    llk_free(S.cand.data)
    llk_free(S.all.data)
    kept_free(&S.kept)
    llk_free(S.asleep_moves.data)
    llk_free(S.gm.data)
    llk_free(S.keys)
    return status
