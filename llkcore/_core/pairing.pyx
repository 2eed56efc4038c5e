# cython: language_level=3
"""The exact search without gravity: over pairings, not move orders.

Removing tiles only empties cells, so it never breaks a link between the tiles that remain
(docs/architecture.md, "Why the pairing search is sound", has the arguments). Hence the search
fixes who is removed with whom, not when. State = the tiles left plus ``partner[]`` (committed
pairs). Closure, repeated to a fixpoint: remove every committed pair that links; commit the last
two uncommitted tiles of a type; clear a type's uncommitted tiles outright when that type's own
moves can clear them now (safe). Then, in order: solved if no tile is left; dead if the memo
knows the state; dead if no pair consistent with the commitments links now; dead if the
relaxed peeling (peeling.pyx) gets stuck; else branch: a tile x of the most constrained type
with a linkable pair, over its partners y (linkable-now partners first), each child committing
(x, y). Dead states are stored in a size-capped hash table keyed by two 64-bit Zobrist hashes of
(tiles left, commitments).

Conflict-directed backjumping. A closed set stays closed in any state that keeps its tiles
with the same commitments, so a dead state's reason is the set of decision levels that
committed its tiles (shrunk by dropping levels while a closed subset remains). When a child
dies for reasons that do not involve the decision that made it, its siblings die the same way
and the search jumps back over that node; nodes left that way are dead and memoised too.

The search runs in rounds that alternate two branching rules with doubling node budgets,
keeping the dead-state table between rounds.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memset

from .alloc cimport ivec_reserve, llk_calloc, llk_free, llk_malloc
from .gravity cimport put_pair, take_pair
from .grid cimport GRAVITY_NONE, Grid, adjacent, empty_neighbours, sort_ints
from .memo cimport memo_free, memo_has, memo_init, memo_put, mix64
from .peeling cimport pairing_peel, peel_checked, peel_run, stuck_conflict
from .run cimport (OPEN, OPT_NO_CBJ, OPT_NO_PEEL, OPT_NO_PROBE, OPT_NO_PROBE_ORDER, OPT_NO_REPLAY,
                  OPT_PROBE_FIRST, ST_DEAD, ST_MEMORY, ST_NODES, ST_SOLVED, Ctx, record,
                  round_limit, spend, still_time)

# Branching rules of choose(), and the first round's budget of run_with_restarts.
cdef enum:
    CHOICE_FEWEST_PAIRS = 4
    CHOICE_FEWEST_PAIRS_FREEST = 2
    RESTART_BASE = 500

# Conflict analysis: peelings it may spend on one dead state, and the deepest search (in
# decision levels) that keeps conflict sets (one bitset per level).
cdef enum:
    CONFLICT_TRIES = 9
    CBJ_MAX_LEVELS = 4096

# Most tiles on a board whose nodes are probed (probe_node: up to 3/4 of the tiles in peelings,
# each a pass or more over the board; KShisen's largest game has 480 tiles).
cdef enum:
    PROBE_MAX_TILES = 512
    # Passes within which probe_node skips a type found with no dead pairing (measured on the 28
    # slowest of 4,000 deals without gravity: 16 to 64 alike, CPU -29%, nodes +4%).
    PROBE_RECENT = 32

# What one pass of probe_node found.
cdef enum:
    PROBE_OPEN = 0
    PROBE_FORCED = 1
    PROBE_DEAD = 2

# Largest number of uncommitted tiles of one type that closure tries to clear outright (the
# failed-subset memo of that small search is a 256-bit set).
cdef enum:
    SELF_CLEAR_MAX = 8


cdef inline uint64_t pair_key(int a, int b, uint64_t salt) noexcept nogil:
    if a > b:
        a, b = b, a
    return mix64((<uint64_t>a << 32) ^ <uint64_t>b ^ salt)


cdef inline void push_event(Pairing *E, int kind, int a, int b, int t) noexcept nogil:
    cdef int32_t *e = E.ev + EVW * E.nev
    e[0] = kind
    e[1] = a
    e[2] = b
    e[3] = t
    e[4] = E.level
    E.nev += 1


cdef inline void xcommit(Pairing *E, int a, int b) noexcept nogil:
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


cdef inline void cpairs_drop(Pairing *E, int a) noexcept nogil:
    """Swap-remove a's committed pair from cpairs."""
    cdef int i = E.cidx[a]
    cdef int last = E.ncp - 1
    cdef int la = E.cpairs[2 * last], lb = E.cpairs[2 * last + 1]
    E.cpairs[2 * i] = la
    E.cpairs[2 * i + 1] = lb
    E.cidx[la] = i
    E.cidx[lb] = i
    E.ncp -= 1


cdef inline void cpairs_add(Pairing *E, int a, int b) noexcept nogil:
    E.cidx[a] = E.ncp
    E.cidx[b] = E.ncp
    E.cpairs[2 * E.ncp] = a
    E.cpairs[2 * E.ncp + 1] = b
    E.ncp += 1


cdef inline void xremove(Pairing *E, int a, int b) noexcept nogil:
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


cdef void undo_to(Pairing *E, int mark) noexcept nogil:
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


cdef inline int gather_uncommitted(Pairing *E, int t) noexcept nogil:
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


cdef inline bint can_open(Pairing *E, int p, int t) noexcept nogil:
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


cdef bint self_clear(Pairing *E, int32_t *u, int n, int mask, uint64_t *failed) noexcept nogil:
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
            if links(E, u[i], u[j]):
                mark = E.nev
                xremove(E, u[i], u[j])
                if self_clear(E, u, n, mask & ~((1 << i) | (1 << j)), failed):
                    return True
                undo_to(E, mark)
    failed[mask >> 6] |= (<uint64_t>1) << (mask & 63)
    return False


cdef void closure(Pairing *E) noexcept nogil:
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
            if links(E, a, b):
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


cdef int choose(Pairing *E, Frame *f) noexcept nogil:
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
            # A type of many tiles has n^2 / 2 pairs: once the run is cut short (its link tests
            # then answer "no" at once) the loop must still end.
            if not still_time(&E.c.b):
                return -1
            for j in range(i + 1, n):
                if links(E, E.u[i], E.u[j]):
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
        if not still_time(&E.c.b):
            return -1
        for j in range(i + 1, n):
            if links(E, E.u[i], E.u[j]):
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
        E.c.b.stop = ST_MEMORY
        return -1
    f.ncand = 0
    for j in range(n):
        if j != k and links(E, x, E.u[j]):
            E.cand.data[f.cand_base + f.ncand] = E.u[j]
            f.ncand += 1
    for j in range(n):
        if j != k and not links(E, x, E.u[j]):
            E.cand.data[f.cand_base + f.ncand] = E.u[j]
            f.ncand += 1
    f.next = 0
    return 1


cdef void add_type_levels(Pairing *E, uint64_t *cf, int t) noexcept nogil:
    """Add to cf every decision level that committed a tile of type t."""
    cdef int i, lev
    cdef int32_t *e
    for i in range(E.nev):
        e = E.ev + EVW * i
        lev = e[4]
        if e[0] == EV_COMMIT and lev > 0 and e[3] == t:
            cf[lev >> 6] |= (<uint64_t>1) << (lev & 63)


cdef inline void commit_pairing(Pairing *E, const int32_t *q, int k) noexcept nogil:
    """Pairing k (0..2) of a type's four uncommitted tiles q: q[0] with q[k + 1], the other two
    together."""
    xcommit(E, q[0], q[k + 1])
    xcommit(E, q[1] if k != 0 else q[2], q[3] if k != 2 else q[2])


cdef int probe_node(Pairing *E) noexcept nogil:
    """Probing, one pass: for each type with exactly four uncommitted tiles, try each of its
    three pairings under the relaxed peeling. Every solution pairs the type one of these ways,
    so if all three are dead the node is dead (PROBE_DEAD), and if two are, the third is
    committed, then closure (PROBE_FORCED: the caller takes the changed node again, up to a pass
    that forces nothing).

    A pairing forced here rests on every decision above this node, not only on its type's
    commitments: ``forced[level]`` records it, and ``close_forced`` widens any conflict that
    holds this level to every level above (docs/architecture.md, "Probing").

    Only "none alive" and "exactly one alive" act, so a type stops at its second live pairing;
    the pairings whose last peeling (at any node) was dead go last, since a dead peeling costs
    about twice a live one and is not needed once two others live (the answers do not depend on
    that order). The types go in the order ``porder``, where the type that last proved a node
    dead stands first: most probed nodes die (about three in five on the 16 x 9 tail deals), the
    next ones probed are mostly siblings, and they tend to die by the same type, so the pass
    ends at its first type instead of halfway. A type none of whose pairings was dead when last
    tried, within the last PROBE_RECENT passes, is skipped: the passes that find nothing cost the
    most, and such a type rarely turns (any subset of the probes is sound). OPT_NO_PROBE_ORDER
    (tests, the benchmark's baseline) probes every type in index order, pairings 0, 1, 2.
    """
    cdef Grid *g = E.c.g
    cdef int t, k, i, j, alive, which, mark, dead
    cdef int32_t q[4]
    cdef int ks[3]
    cdef int result = PROBE_OPEN, n
    E.npass += 1
    for n in range(g.ntypes):
        t = E.porder[n]
        if E.ucount[t] != 4:
            continue
        if E.probe_order and E.pdead[t] == 0 and E.npass - E.plast[t] <= PROBE_RECENT:
            continue
        E.plast[t] = E.npass
        # In cell order (gather_uncommitted sorts them), so pairing k of a type is the same
        # pairing from node to node and its pdead bit means something.
        gather_uncommitted(E, t)
        for i in range(4):
            q[i] = E.u[i]
        # Pairings last seen alive first, then those last seen dead.
        dead = E.pdead[t] if E.probe_order else 0
        j = 0
        for i in range(2):
            for k in range(3):
                if ((dead >> k) & 1) == i:
                    ks[j] = k
                    j += 1
        alive = 0
        which = -1
        for i in range(3):
            k = ks[i]
            mark = E.nev
            commit_pairing(E, q, k)
            if pairing_peel(E) == 0:
                alive += 1
                which = k
                E.pdead[t] &= ~(1 << k)
            else:
                E.pdead[t] |= 1 << k
            undo_to(E, mark)
            if E.c.b.stop:
                return PROBE_OPEN         # cut short: the peelings' answers are void
            if alive > 1:
                break
        if alive == 0:
            if E.probe_order:
                # Move t to the front: the next nodes (siblings, mostly) often die by it too.
                while n > 0:
                    E.porder[n] = E.porder[n - 1]
                    n -= 1
                E.porder[0] = t
            return PROBE_DEAD
        if alive == 1:
            E.forced[E.level] = 1
            commit_pairing(E, q, which)
            closure(E)
            result = PROBE_FORCED
    return result


cdef inline void close_forced(Pairing *E, uint64_t *cf) noexcept nogil:
    """A pairing probing forced at level l rests on every decision above it: if the conflict
    holds such a level, it gets every level below that too."""
    cdef int l = E.level
    while l > 0:
        if E.forced[l] and conf_has(cf, l):
            while l > 1:
                l -= 1
                cf[l >> 6] |= (<uint64_t>1) << (l & 63)
            return
        l -= 1


cdef int xenter(Pairing *E, Frame *f) noexcept nogil:
    """Enter a search node: closure, then solved / dead / OPEN (f holds the branching).

    When dead, E.conf holds the decision levels the death rests on.
    """
    cdef int r, probed
    if not spend(&E.c.b):
        return E.c.b.stop
    E.forced[E.level] = 0
    while True:
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
            return E.c.b.stop
        if r == 0:
            # No move: every tile is stuck, so the whole board is the closed set to shrink.
            peel_run(E, False, E.cbj, NULL, 0)
        elif E.nopeel or peel_checked(E, E.cbj) == 0:
            # Open to the plain tests; probing may still prove it dead, or force pairings (then
            # the changed node is taken again).
            if not E.probe_now or E.c.g.tiles > PROBE_MAX_TILES:
                return OPEN
            probed = probe_node(E)
            if E.c.b.stop:
                return E.c.b.stop
            if probed == PROBE_OPEN:
                return OPEN
            if probed == PROBE_FORCED:
                continue
            memo_put(&E.memo, E.k0, E.k1, 0)
            if E.cbj:
                conf_all(E, E.conf)      # a probing proof rests on every decision above
            return ST_DEAD
        memo_put(&E.memo, E.k0, E.k1, 0)
        if E.cbj:
            stuck_conflict(E)
        return ST_DEAD


cdef int run_exact_pairing(Pairing *E) noexcept nogil:
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
            memo_put(&E.memo, f.k0, f.k1, 0)
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
        close_forced(E, E.conf)
        while E.cbj and not conf_has(E.conf, lev):
            # The death did not rest on the decision at this level: every alternative dies
            # the same way, so the parent node is dead too. Jump over it.
            f = &E.frames[lev - 1]
            memo_put(&E.memo, f.k0, f.k1, 0)
            undo_to(E, f.ev_mark)
            if lev - 1 == 0:
                return ST_DEAD
            lev -= 1
            depth = lev - 1
        cf = E.cfpool + depth * E.nwords
        for w in range(E.nwords):
            cf[w] |= E.conf[w]
        cf[lev >> 6] &= ~((<uint64_t>1) << (lev & 63))


cdef int exact_output(Pairing *E) noexcept nogil:
    """Copy the removals of the event trail into the certificate."""
    cdef Ctx *c = E.c
    cdef int i
    c.nout = 0
    for i in range(E.nev):
        if E.ev[EVW * i] == EV_REMOVE:
            record(c, E.ev[EVW * i + 1], E.ev[EVW * i + 2])
    return 0


cdef int run_with_restarts(Pairing *E, int options) noexcept nogil:
    """The pairing search under two branching rules in turn, with budgets that double every
    two rounds (RESTART_BASE nodes first). Each round starts again from the root but keeps the
    table of dead states, so no proof is lost; the rules' hard instances differ, so the pair
    is far less heavy-tailed than either rule alone."""
    cdef Ctx *c = E.c
    cdef int64_t user_limit = c.b.node_limit, budget = RESTART_BASE
    cdef int status, r = 0
    cdef int rules[2]
    rules[0] = CHOICE_FEWEST_PAIRS
    rules[1] = CHOICE_FEWEST_PAIRS_FREEST
    if (options >> 16) & 15:
        rules[0] = rules[1] = (options >> 16) & 15
    while True:
        E.choice = rules[r & 1]
        # Probing costs about a hundred peelings a node: not for the deals the first round
        # decides (most of them).
        E.probe_now = E.probe and (r >= 1 or E.probe_first)
        round_limit(&c.b, user_limit, budget)
        status = run_exact_pairing(E)
        if status != ST_NODES or c.b.node_limit == user_limit:
            break
        undo_to(E, 0)
        c.b.stop = 0
        if r & 1:
            budget *= 2
        r += 1
    c.b.node_limit = user_limit
    return status


cdef int run_pairing(Ctx *c, int maxcount, int64_t memo_entries, uint64_t seed, int options) noexcept nogil:
    """Set up the search state (all or nothing) and run the search in rounds."""
    cdef Grid *g = c.g
    cdef Pairing E
    cdef int HW = g.H * g.W
    cdef int tiles = g.tiles
    cdef int i, t, status
    memset(&E, 0, sizeof(Pairing))
    E.c = c
    E.HW = HW
    E.cbj = tiles // 2 + 2 <= CBJ_MAX_LEVELS and not (options & OPT_NO_CBJ)
    E.nopeel = (options & OPT_NO_PEEL) != 0
    E.probe = not E.nopeel and not (options & OPT_NO_PROBE)
    E.probe_first = (options & OPT_PROBE_FIRST) != 0
    E.replay = not (options & OPT_NO_REPLAY)
    E.probe_order = not (options & OPT_NO_PROBE_ORDER)
    E.tries = CONFLICT_TRIES
    E.nwords = (tiles // 2 + 2) // 64 + 1 if E.cbj else 1
    E.partner = <int32_t *>llk_malloc(HW * sizeof(int32_t))
    E.cidx = <int32_t *>llk_malloc(HW * sizeof(int32_t))
    E.ucount = <int32_t *>llk_malloc((g.ntypes + 1) * sizeof(int32_t))
    E.peeled = <int32_t *>llk_calloc(g.ntypes + 1, sizeof(int32_t))
    E.cpairs = <int32_t *>llk_malloc((tiles + 2) * sizeof(int32_t))
    E.ev = <int32_t *>llk_malloc(EVW * (tiles + 2) * sizeof(int32_t))
    E.z = <uint64_t *>llk_malloc(2 * <size_t>HW * sizeof(uint64_t))
    E.frames = <Frame *>llk_malloc((tiles // 2 + 2) * sizeof(Frame))
    E.u = <int32_t *>llk_malloc((maxcount + 1) * sizeof(int32_t))
    E.deg = <int32_t *>llk_malloc((maxcount + 1) * sizeof(int32_t))
    E.peel = <int32_t *>llk_malloc(2 * (tiles + 1) * sizeof(int32_t))
    E.peelp = <int32_t *>llk_malloc((tiles + 1) * sizeof(int32_t))
    # Replayed peelings (peeling.pyx): each decision level's peeling order on boards of at most
    # PROBE_MAX_TILES tiles (a node replays its parent's), one order for every level on bigger
    # ones (an order per level would be quadratic in the tiles).
    E.witlevels = tiles // 2 + 2 if tiles <= PROBE_MAX_TILES else 1
    E.witstride = 2 * (tiles + 1)
    E.wit = <int32_t *>llk_malloc(E.witlevels * E.witstride * sizeof(int32_t))
    E.witlen = <int32_t *>llk_calloc(E.witlevels, sizeof(int32_t))
    E.gone = <uint8_t *>llk_calloc(HW, 1)
    E.inset = <uint8_t *>llk_calloc(HW, 1)
    E.instuck = <uint8_t *>llk_calloc(HW, 1)
    E.tflag = <uint8_t *>llk_calloc(g.ntypes + 1, 1)
    E.pdead = <uint8_t *>llk_calloc(g.ntypes + 1, 1)
    E.porder = <int32_t *>llk_malloc((g.ntypes + 1) * sizeof(int32_t))
    E.plast = <int64_t *>llk_malloc((g.ntypes + 1) * sizeof(int64_t))
    E.lvl = <int32_t *>llk_calloc(HW, sizeof(int32_t))
    E.tmax = <int32_t *>llk_calloc(g.ntypes + 1, sizeof(int32_t))
    E.conf = <uint64_t *>llk_calloc(E.nwords, sizeof(uint64_t))
    E.cfpool = <uint64_t *>llk_calloc(<size_t>E.nwords * (tiles // 2 + 2), sizeof(uint64_t))
    E.forced = <uint8_t *>llk_calloc(tiles // 2 + 2, 1)
    if (E.partner == NULL or E.cidx == NULL or E.ucount == NULL or E.peeled == NULL
            or E.cpairs == NULL or E.ev == NULL or E.z == NULL or E.frames == NULL
            or E.u == NULL or E.deg == NULL or E.peel == NULL or E.peelp == NULL
            or E.wit == NULL or E.witlen == NULL or E.gone == NULL
            or E.inset == NULL or E.instuck == NULL or E.tflag == NULL or E.pdead == NULL
            or E.porder == NULL or E.plast == NULL or E.conf == NULL or E.cfpool == NULL
            or E.forced == NULL or E.lvl == NULL or E.tmax == NULL
            or not memo_init(&E.memo, memo_entries)):
        status = ST_MEMORY
    else:
        E.k0 = 0
        E.k1 = 0
        # The root's key in cell order (by type it read E.z at random: a cache miss per tile).
        for i in range(HW):
            E.partner[i] = -1
            E.cidx[i] = -1
            E.z[2 * i] = mix64(seed + 2 * <uint64_t>i)
            E.z[2 * i + 1] = mix64(seed + 2 * <uint64_t>i + 1)
            if g.tid[i] >= 0:
                E.k0 ^= E.z[2 * i]
                E.k1 ^= E.z[2 * i + 1]
        for t in range(g.ntypes):
            E.ucount[t] = g.count[t]
            E.porder[t] = t
            E.plast[t] = -PROBE_RECENT - 1
        status = run_with_restarts(&E, options)
        if status == ST_SOLVED:
            exact_output(&E)
        else:
            undo_to(&E, 0)      # leave the board as it was given
    if c.b.stop == ST_MEMORY:
        status = ST_MEMORY
    llk_free(E.partner)
    llk_free(E.cidx)
    llk_free(E.ucount)
    llk_free(E.peeled)
    llk_free(E.cpairs)
    llk_free(E.ev)
    llk_free(E.z)
    llk_free(E.frames)
    llk_free(E.u)
    llk_free(E.deg)
    llk_free(E.peel)
    llk_free(E.peelp)
    llk_free(E.wit)
    llk_free(E.witlen)
    llk_free(E.gone)
    llk_free(E.inset)
    llk_free(E.instuck)
    llk_free(E.tflag)
    llk_free(E.pdead)
    llk_free(E.porder)
    llk_free(E.plast)
    llk_free(E.conf)
    llk_free(E.cfpool)
    llk_free(E.forced)
    llk_free(E.lvl)
    llk_free(E.tmax)
    memo_free(&E.memo)
    llk_free(E.cand.data)
    return status
