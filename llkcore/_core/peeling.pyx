# cython: language_level=3
"""The pairing search's dead test, and the conflict sets it yields for backjumping.

Relaxed peeling (a sound dead test; docs/architecture.md has the argument). Repeatedly delete
ONE tile x when it links, through the cells of the tiles still present, to the cell of an
allowed partner (its committed partner, or any uncommitted tile of its type), whether that
partner is still present or already deleted. Deleting only helps, so the fixpoint is unique. If
the state can be cleared, the real removal sequence is a valid deletion order (each removed
tile links to its real partner through a subset of the real obstacles), so a fixpoint with tiles
left proves the state dead: the tiles left form a closed set, none of which can ever be removed
first. It catches mutual blocking, and on big random deals (where play dies out after a few
removals) it proves the root dead.
"""
from libc.stdint cimport int32_t, int64_t, uint64_t

from .grid cimport Grid, adjacent, empty_neighbours, put_tile, take_tile
from .pairing cimport EV_COMMIT, EVW, Pairing, conf_clear, links
from .run cimport still_time


cdef int peel_partner(Pairing *E, int x, int t, int hint) noexcept nogil:
    """An allowed partner (present or peeled) x links to through the tiles still present, or -1.
    hint (or -1): an allowed partner to try first (a replay's: the one x linked to then)."""
    cdef Grid *g = E.c.g
    cdef int p = E.partner[x]
    cdef int k, m, base, end, q
    if empty_neighbours(g, x) == 0:
        # Enclosed: only an adjacent partner can link, and it is present (a peeled one would
        # have left an empty neighbour).
        if p >= 0:
            return p if adjacent(g, x, p) else -1
        for k in range(4):
            q = x + (-g.W if k == 0 else g.W if k == 1 else -1 if k == 2 else 1)
            if g.tid[q] == t and E.partner[q] < 0:
                return q
        return -1
    if p >= 0:
        return p if links(E, x, p) else -1
    if hint >= 0 and links(E, x, hint):
        return hint
    base = g.offset[t]
    end = g.count[t] + E.peeled[t]    # live tiles, then the ones peeled in this run
    for k in range(end):
        m = g.pos[base + k]
        if m != x and m != hint and E.partner[m] < 0 and links(E, x, m):
            return m
    return -1


cdef inline int peel_one(Pairing *E, int npeel, int x, int t, int m) noexcept nogil:
    """Delete x (type t), linked to m, as the run's step npeel; returns the new step count."""
    take_tile(E.c.g, x)
    E.gone[x] = 1
    E.peeled[t] += 1
    E.peel[2 * npeel] = x
    E.peel[2 * npeel + 1] = t
    E.peelp[npeel] = m
    return npeel + 1


cdef inline int peel_pair(Pairing *E, int npeel, int x, int t, int m) noexcept nogil:
    """Delete x (type t), which links to its allowed partner m, and m with it when m is still
    here: m links back to x's cell by the same path, whose cells can only have emptied since, so
    it needs no test of its own (deleting it now rather than later changes no fixpoint). Returns
    the run's new step count."""
    npeel = peel_one(E, npeel, x, t, m)
    if E.c.g.tid[m] >= 0:
        npeel = peel_one(E, npeel, m, t, x)
    return npeel


cdef int replay(Pairing *E, const int32_t *order, int n) noexcept nogil:
    """A guided first pass: peel the tiles in the order of an earlier run that cleared its
    board (``order``: n (cell, partner) steps), returning how many it peeled (into E.peel).

    While every tile here is one that run peeled and no step has failed, each step's obstacles
    are a subset of those it had then, so a step whose partner is still a tile here and still
    allowed needs no link test. Any other step is tested for real (that partner first when it
    is still allowed, then any allowed one); one that fails leaves its tile, an obstacle the
    earlier run did not have, so every later step is tested too. Any deletion order reaches the
    same fixpoint, so the answers are peel_run's."""
    cdef Grid *g = E.c.g
    cdef int i, x, m, p, t, npeel = 0, here = 0
    cdef bint exact, allowed
    for i in range(n):
        if g.tid[order[2 * i]] >= 0:
            here += 1
    exact = here == g.tiles
    for i in range(n):
        x = order[2 * i]
        t = g.tid[x]
        if t < 0:
            continue                # removed since that run
        m = order[2 * i + 1]
        p = E.partner[x]
        allowed = (g.tid[m] >= 0 or E.gone[m]) and (p == m or (p < 0 and E.partner[m] < 0))
        if not (exact and allowed):
            if not still_time(&E.c.b):
                break
            m = peel_partner(E, x, t, m if allowed else -1)
            if m < 0:
                exact = False
                continue
        npeel = peel_pair(E, npeel, x, t, m)
    return npeel


cdef int peel_run(Pairing *E, bint restrict, bint mark, const int32_t *order, int norder) noexcept nogil:
    """The relaxed peeling (module docstring); returns how many tiles it leaves (0: not dead).

    restrict: only the tiles with ``inset[p] == 1`` take part; the others count as peeled from
    the start (free cells, and partners like any peeled tile). mark: set ``instuck[p]`` for
    every tile left (a closed set: none of them can ever go first). order (or NULL): an
    earlier run's peeling order to follow first (replay). The board is restored; the run's
    order stays in E.peel (cells) and E.peelp (the partner each step linked to).
    """
    cdef Grid *g = E.c.g
    cdef int t, i, x, m, npeel = 0, left
    cdef bint changed = True
    if order != NULL:
        npeel = replay(E, order, norder)
    if restrict:
        for t in range(g.ntypes):
            i = 0
            while i < g.count[t]:
                x = g.pos[g.offset[t] + i]
                if E.inset[x] != 1:
                    take_tile(g, x)
                    E.peeled[t] += 1
                    E.peel[2 * npeel] = x
                    E.peel[2 * npeel + 1] = t
                    npeel += 1
                else:
                    i += 1
    while changed and g.tiles > 0:
        changed = False
        for t in range(g.ntypes):
            i = 0
            while i < g.count[t]:
                if not still_time(&E.c.b):
                    # Cut short: whatever is left is void (the run reports its budget's
                    # status); restore the board and return. (Per tile: a type of many tiles
                    # makes a pass quadratic. Measured: 1.8% more instructions in peel_run on
                    # 9 x 16 deals; cheaper-looking placements changed gcc's inlining and cost
                    # more.)
                    changed = False
                    break
                x = g.pos[g.offset[t] + i]
                m = peel_partner(E, x, t, -1)
                if m >= 0:
                    # The last live tiles move into the slots of x (slot i) and m.
                    npeel = peel_pair(E, npeel, x, t, m)
                    changed = True
                else:
                    i += 1
    left = g.tiles
    if mark and left > 0:
        for t in range(g.ntypes):
            for i in range(g.count[t]):
                E.instuck[g.pos[g.offset[t] + i]] = 1
    while npeel > 0:
        npeel -= 1
        x = E.peel[2 * npeel]
        t = E.peel[2 * npeel + 1]
        put_tile(g, x, t)
        E.gone[x] = 0
        E.peeled[t] -= 1
    return left


cdef inline int order_slot(Pairing *E, int level) noexcept nogil:
    """Where a decision level's peeling order is kept: E.wit + slot * E.witstride, E.witlen[slot]
    long (one slot shared by every level above PROBE_MAX_TILES tiles)."""
    return level if E.witlevels > 1 else 0


cdef int peel_checked(Pairing *E, bint mark) noexcept nogil:
    """The node's own peeling: ``peel_run(E, False, mark)`` guided by its parent's order
    (replay); the order is kept for this level when it clears the board. The node is its parent
    with pairs committed and removed, so the replay runs free up to the first step a new
    commitment disallows (docs/architecture.md, "Replayed peelings")."""
    cdef int n = E.c.g.tiles, left, i
    cdef int parent = order_slot(E, E.level - 1 if E.level > 0 else 0), own = order_slot(E, E.level)
    cdef int32_t *w = E.wit + <int64_t>own * E.witstride
    if not E.replay:
        return peel_run(E, False, mark, NULL, 0)
    left = peel_run(E, False, mark, E.wit + <int64_t>parent * E.witstride, E.witlen[parent])
    E.witlen[own] = 0
    if left == 0 and not E.c.b.stop:
        for i in range(n):
            w[2 * i] = E.peel[2 * i]
            w[2 * i + 1] = E.peelp[i]
        E.witlen[own] = n
    return left


cdef int pairing_peel(Pairing *E) noexcept nogil:
    """``peel_run(E, False, False)`` (0 or not) for a pairing probing tries, after the node's own
    peeling cleared the board: guided by that order, free up to the first step of the probed
    type's tiles that the pairing disallows."""
    cdef int own = order_slot(E, E.level)
    if not E.replay:
        return peel_run(E, False, False, NULL, 0)
    return peel_run(E, False, False, E.wit + <int64_t>own * E.witstride, E.witlen[own])


cdef int restricted_peel(Pairing *E, int drop) noexcept nogil:
    """Peel the closed set S (``instuck``) without its tiles of level ``drop``. If that leaves
    a closed set, ``instuck`` becomes it; else S stays. Returns the tiles left."""
    cdef Grid *g = E.c.g
    cdef int t, j, p, left
    for t in range(g.ntypes):
        for j in range(g.count[t]):
            p = g.pos[g.offset[t] + j]
            E.inset[p] = 0 if not E.instuck[p] else (2 if E.lvl[p] == drop else 1)
            E.instuck[p] = 0
    left = peel_run(E, True, True, NULL, 0)
    if left == 0:
        for t in range(g.ntypes):
            for j in range(g.count[t]):
                p = g.pos[g.offset[t] + j]
                E.instuck[p] = E.inset[p] != 0
    return left


cdef void stuck_conflict(Pairing *E) noexcept nogil:
    """E.conf := the decision levels a dead state's closed set S (``instuck``) rests on.

    A closed set stays closed (so the state stays dead) in any state that keeps its tiles with
    their commitments and no more partners for them, whatever else differs. Its tiles depend on
    decisions only through commitments: a committed tile on the level that committed it, an
    uncommitted one on every level that committed a tile of its type (that took partners away);
    call the latest of these the tile's level. To keep the conflict small, whole levels are
    dropped from S, latest first, whenever the rest, peeled again on its own, still leaves a
    closed set (at most E.tries peelings). Clears ``instuck``.
    """
    cdef Grid *g = E.c.g
    cdef int i, j, t, a, b, lev, top = 0, tries = 0
    cdef bint found
    cdef int32_t *e
    # Levels: tmax[t] = latest commit of type t; committed tiles their own commit's level.
    for t in range(g.ntypes):
        E.tmax[t] = 0
    for i in range(E.nev):
        e = E.ev + EVW * i
        if e[0] == EV_COMMIT:
            if e[4] > E.tmax[e[3]]:
                E.tmax[e[3]] = e[4]
            if E.partner[e[1]] == e[2]:
                E.lvl[e[1]] = e[4]
                E.lvl[e[2]] = e[4]
    for t in range(g.ntypes):
        for j in range(g.count[t]):
            a = g.pos[g.offset[t] + j]
            if E.partner[a] < 0:
                E.lvl[a] = E.tmax[t]
            if E.instuck[a] and E.lvl[a] > top:
                top = E.lvl[a]
    # Drop whole levels from S, latest first, while what is left still holds a closed set. The
    # node's own level is not tried: its parent's peeling (a superset of obstacles, the same
    # partners for every tile of S older than this level) cleared the board, so S without this
    # level's tiles peels away too (docs/architecture.md, "Relaxed peeling"; measured: 0 of
    # 42,894 such tries kept a closed set). Skipping a level only keeps the conflict larger.
    lev = top
    if lev == E.level:
        lev -= 1
    while lev > 0 and tries < E.tries and still_time(&E.c.b):
        # Is there a tile of this level in S?
        found = False
        for t in range(g.ntypes):
            for j in range(g.count[t]):
                a = g.pos[g.offset[t] + j]
                if E.instuck[a] and E.lvl[a] == lev:
                    found = True
                    break
            if found:
                break
        if found:
            tries += 1
            restricted_peel(E, lev)
        lev -= 1
    # The conflict: the levels the tiles of S rest on.
    conf_clear(E, E.conf)
    for t in range(g.ntypes):
        for j in range(g.count[t]):
            a = g.pos[g.offset[t] + j]
            if not E.instuck[a]:
                continue
            E.instuck[a] = 0
            if E.partner[a] >= 0:
                lev = E.lvl[a]
                if lev > 0:
                    E.conf[lev >> 6] |= (<uint64_t>1) << (lev & 63)
            else:
                E.tflag[t] = 1
    for i in range(E.nev):
        e = E.ev + EVW * i
        lev = e[4]
        if e[0] == EV_COMMIT and lev > 0 and E.tflag[e[3]]:
            E.conf[lev >> 6] |= (<uint64_t>1) << (lev & 63)
    for t in range(g.ntypes):
        E.tflag[t] = 0
