# cython: language_level=3
"""Uniformly random playouts and the replay of a removal sequence (docs/architecture.md, "Play-time insight").

A random playout removes, at each step, one removable pair drawn uniformly among all of them
(listed by ``list_moves`` and sorted, so the draw depends only on the position and the stream,
never on the order of the type index), until the board is clear or no pair links. The playouts
of a call run one after another on the caller's state: every removal is logged and taken back
with ``put_pair``, so the state ends as it started and nothing is copied per playout. Random
numbers come from ``rng.pxd`` on a 4-word stream the caller seeds, so results are reproducible.

``replay`` plays a given removal sequence and says how far it stays legal: the cheap proof that a
known certificate still clears a position.

The certificate hunt (``hunt_*``, declared in playouts.pxd) plays policy-adapted playouts for the
gravity search between its rounds: nested rollout policy adaptation, whose playouts draw each
removal by a learnt weight instead of uniformly (docs/architecture.md, "The certificate hunt"),
from a step's moves kept from the step before's when the search lends its buffers ("Kept moves").
"""
cimport numpy as cnp
from libc.math cimport exp
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
from libc.stdlib cimport bsearch, qsort
from libc.string cimport memcpy, memset

from .alloc cimport IVec, grow, ivec_reserve, llk_free, llk_malloc
from .gravity cimport carry_along, put_pair, slide_room, slides_of, take_pair
from .grid cimport GRAVITY_NONE, Grid, cmp_pair, sort_positions
from .link cimport can_link, link_cells
from .memo cimport mix64
from .pairs cimport KeptWork, kept_alloc, kept_free, kept_lines, list_moves_grown, moves_after
from .path cimport PathWork
from .rng cimport rng_below, rng_next
from .run cimport (ST_MEMORY, ST_SOLVED, Budget, Ctx, budget_raise, budget_start, cancel_flag,
                   out_of_time, record, spend, still_time)
from .state cimport GridState

import numpy as np

cnp.import_array()

cdef enum:
    # Ints a logged removal takes besides its gravity moves: a, b, their type ids, the count.
    LOG_FIXED = 5
    # Random same-type pairs tried per step before listing every removable pair.
    DRAWS = 32

# Padded cells from which a playout keeps its list of moves up to date once it has listed them.
# Below, the draws mostly hit and a listing is cheap: keeping the list made 12 x 12 playouts 2.5
# times slower; about even at 24 x 24 to 32 x 32; 3 times faster at 64 x 64, 40 times at
# 256 x 256 (2026-12-05).
KEEP_LIST_CELLS = 1024


cdef int64_t all_moves(const Grid *g, PathWork *w, int max_turns, IVec *mv,
                       Budget *b) noexcept nogil:
    """Every removable pair into ``mv`` (2 ints each), sorted; -1 when out of memory, -2 when
    the budget ``b`` ran out."""
    cdef int64_t k = list_moves_grown(g, w, max_turns, mv, 0, b)
    if k < 0:
        return -1 if k == -2 else -2
    qsort(mv.data, k, 2 * sizeof(int32_t), cmp_pair)
    return k


cdef void take_back(Grid *g, IVec *log) noexcept nogil:
    """Undo every logged removal, last first, and empty the log.

    A record is [gravity moves (2n ints)] a b ta tb n, so it is read from its end."""
    cdef int64_t end = log.n
    cdef int n, a, b, ta, tb
    while end > 0:
        n = log.data[end - 1]
        tb = log.data[end - 2]
        ta = log.data[end - 3]
        b = log.data[end - 4]
        a = log.data[end - 5]
        end -= LOG_FIXED + 2 * n
        put_pair(g, a, b, ta, tb, log.data + end, n)
    log.n = 0


cdef int64_t pair_tree_build(const Grid *g, int64_t *tree) noexcept nogil:
    """tree[1..ntypes]: a Fenwick tree over the types of their same-type pairs (so its prefix
    sums are the pairs of types 0..t-1); returns the total. A step changes one type's count,
    and a tree takes that and a draw in O(log types): a prefix array rebuilt every step cost
    O(types) a step, the bulk of a big board's playout (16,384 types at 256 x 256)."""
    cdef int64_t n, total = 0
    cdef int t, up
    tree[0] = 0
    for t in range(g.ntypes):
        n = g.count[t]
        tree[t + 1] = n * (n - 1) // 2
        total += tree[t + 1]
    for t in range(1, g.ntypes + 1):      # each node adds itself into its parent
        up = t + (t & -t)
        if up <= g.ntypes:
            tree[up] += tree[t]
    return total


cdef inline void pair_tree_add(int64_t *tree, int ntypes, int t, int64_t delta) noexcept nogil:
    """Add delta to the pairs of type t."""
    t += 1
    while t <= ntypes:
        tree[t] += delta
        t += t & -t


cdef void draw_pair(const Grid *g, uint64_t *rng, const int64_t *tree, int64_t total, int *pa,
                    int *pb) noexcept nogil:
    """A pair of tiles of one type, uniform among all ``total`` such pairs (< 2**32)."""
    cdef int64_t u = rng_below(rng, <uint32_t>total), n
    cdef int t = 0, step = 1, i
    while 2 * step <= g.ntypes:
        step *= 2
    while step > 0:                     # the type t with pairs before it <= u < pairs up to it
        if t + step <= g.ntypes and tree[t + step] <= u:
            t += step
            u -= tree[t]
        step >>= 1
    n = g.count[t]
    i = 0
    while u >= n - 1 - i:
        u -= n - 1 - i
        i += 1
    pa[0] = g.pos[g.offset[t] + i]
    pb[0] = g.pos[g.offset[t] + i + 1 + u]


cdef int choose(const Grid *g, PathWork *w, int max_turns, uint64_t *rng, IVec *mv,
                int64_t *listed, const int64_t *tree, int64_t total, int draws, Budget *b,
                int *pa, int *pb) noexcept nogil:
    """A removable pair drawn uniformly among all of them: 1, or 0 when there is none, -1 out
    of memory, -2 out of time.

    First by rejection (a uniform same-type pair, kept if it links: uniform among the removable
    ones, and far fewer link tests than listing them all), then, if ``draws`` all missed, from
    the sorted list of every removable pair: ``mv`` when ``listed`` >= 0 says it holds this
    position's (that many), else listed now (and ``listed`` set). Which way is taken does not
    depend on which pair the other would pick, so the draw stays uniform. With the list at hand
    a draw is looked up in it instead of tested (the same answer: on a big board a link test
    crosses the board, and most draws miss)."""
    cdef int64_t k, i
    cdef int d
    cdef int32_t key[2]
    if total == 0:
        return 0
    if total < (<int64_t>1) << 32:
        for d in range(draws):
            if not still_time(b):
                return -2
            draw_pair(g, rng, tree, total, pa, pb)
            if listed[0] >= 0:
                key[0] = pa[0] if pa[0] < pb[0] else pb[0]
                key[1] = pb[0] if pa[0] < pb[0] else pa[0]
                if bsearch(key, mv.data, listed[0], 2 * sizeof(int32_t), cmp_pair) != NULL:
                    return 1
            elif link_cells(g, w, pa[0], pb[0], max_turns):
                return 1
    k = listed[0]
    if k < 0:
        k = all_moves(g, w, max_turns, mv, b)
        if k < 0:
            return <int>k
        listed[0] = k
    if k == 0:
        return 0
    i = rng_below(rng, <uint32_t>k)
    pa[0] = mv.data[2 * i]
    pb[0] = mv.data[2 * i + 1]
    return 1


cdef int playout(Grid *g, PathWork *w, KeptWork *kept, int max_turns, int gravity,
                 uint64_t *rng, IVec *mv, IVec *work, IVec *log, int64_t *tree, int draws,
                 Budget *b) noexcept nogil:
    """One uniformly random playout from the current position, logged in ``log`` (not taken
    back). Returns the pairs removed; -1 out of memory, -2 out of time.

    With ``kept`` (boards of at least KEEP_LIST_CELLS cells), once a step has had to list every
    removable pair (its draws all missed: on a big board few same-type pairs link), the list is
    kept up to date after each removal from the one before (``sorted_moves_after``, ``work``
    its scratch) instead of listed afresh at the next miss: the same sorted list, so the same
    draws, for the cost of the moves that changed instead of the board's cells."""
    cdef int steps = 0, a = 0, z = 0, found, ngm, t
    cdef int64_t listed = -1, at
    sort_positions(g)       # draws depend on the position alone, not on how play reached it
    cdef int64_t total = pair_tree_build(g, tree)
    while g.tiles > 0:
        found = choose(g, w, max_turns, rng, mv, &listed, tree, total, draws, b, &a, &z)
        if found < 0:
            return found
        if found == 0:
            break
        at = log.n
        t = g.tid[a]
        ngm = logged_take(g, a, z, gravity, log)
        if ngm < 0:
            return -1
        # n tiles of t left: n (n - 1) / 2 pairs, against (n + 2) (n + 1) / 2 before.
        pair_tree_add(tree, g.ntypes, t, -(2 * <int64_t>g.count[t] + 1))
        total -= 2 * <int64_t>g.count[t] + 1
        if listed >= 0 and kept != NULL:
            listed = sorted_moves_after(kept, g, w, max_turns, b, a, z, log.data + at, ngm,
                                        mv, listed, work)
            if listed < 0:
                return -2 if listed == -1 else -1
        else:
            listed = -1
        steps += 1
    return steps


cdef int logged_take(Grid *g, int a, int z, int gravity, IVec *log) noexcept nogil:
    """Remove (a, z) with gravity and log it for ``take_back``: returns the gravity moves made
    (their (src, dst) pairs open the record, at the log's old end), -1 out of memory."""
    cdef int n, ta = g.tid[a], tz = g.tid[z]
    cdef int32_t *rec
    if not ivec_reserve(log, log.n + slide_room(g) + LOG_FIXED):
        return -1
    rec = log.data + log.n
    n = take_pair(g, a, z, gravity, rec)
    rec[2 * n] = a if a < z else z
    rec[2 * n + 1] = z if a < z else a
    rec[2 * n + 2] = ta if a < z else tz
    rec[2 * n + 3] = tz if a < z else ta
    rec[2 * n + 4] = n
    log.n += LOG_FIXED + 2 * n
    return n


def random_playouts(GridState s not None, int max_turns, int gravity, int count,
                    cnp.ndarray rng_state not None, double time_limit=-1.0,
                    bint keep_clear=False, int draws=DRAWS, cnp.ndarray cancel=None,
                    bint until_clear=False, int64_t keep_list_cells=KEEP_LIST_CELLS):
    """Play ``count`` uniformly random playouts from the position of ``s`` (left as it was).

    ``rng_state``: the 4-word uint64 stream (advanced). ``time_limit`` >= 0: stop starting
    playouts (and end the one running) once that many seconds have passed. ``keep_clear``: also
    return the removals of the first playout that cleared the board. ``draws``: rejection
    draws per step before every removable pair is listed (tests set 0: always list).
    ``cancel``: an int32 array whose first item another thread may set to stop the playouts as
    time running out would. A signal handler that raises (Ctrl-C) stops them too, and its
    exception is raised. ``until_clear`` (with ``keep_clear``): stop after the first playout
    that cleared, as a caller that wants a certificate only needs (the gravity probe).
    ``keep_list_cells``: the padded cells from which a playout keeps its list of moves up to
    date (``playout``); the same playouts either way (tests set 0: always, or more than the
    board: never).

    Returns ``(removed, first_clear)``: per playout played, the pairs it removed (int32;
    tiles / 2 means it cleared the board when the tile count is even: an odd count never
    clears), fewer than ``count`` when time ran out; and the removals of the first playout
    that cleared, a (tiles / 2, 2) int32 array of padded cells in play order (pa < pb), or
    None.
    """
    if (rng_state.ndim != 1 or rng_state.shape[0] != 4 or rng_state.dtype != np.uint64
            or not rng_state.flags.c_contiguous or not rng_state.flags.writeable):
        raise ValueError("rng_state must be a writeable array of 4 uint64 words")
    if count < 0:
        raise ValueError("count must be >= 0")
    cdef uint64_t *rng = <uint64_t *>cnp.PyArray_DATA(rng_state)
    cdef Grid *g = &s.g
    removed = np.zeros(count, dtype=np.int32)
    cdef int32_t *rv = <int32_t *>cnp.PyArray_DATA(removed)
    cdef int half = g.tiles // 2, played = 0, steps = 0, cleared = -1
    cdef IVec mv
    cdef IVec work
    cdef IVec log
    cdef IVec first
    cdef Budget budget
    cdef KeptWork kept
    cdef int32_t *line = NULL
    cdef bint kept_made = False
    cdef int64_t *tree = NULL
    mv.data = NULL; mv.n = 0; mv.cap = 0
    work.data = NULL; work.n = 0; work.cap = 0
    log.data = NULL; log.n = 0; log.cap = 0
    first.data = NULL; first.n = 0; first.cap = 0
    budget_start(&budget, time_limit, cancel_flag(cancel))
    s.lock_links(max_turns)
    try:
        tree = <int64_t *>llk_malloc((<size_t>g.ntypes + 1) * sizeof(int64_t))
        if <int64_t>g.H * g.W >= keep_list_cells:
            line = <int32_t *>llk_malloc(<size_t>g.H * g.W * sizeof(int32_t))
            kept_made = line != NULL and kept_alloc(&kept, g.H, g.W, line,
                                                    kept_lines(line, g, gravity))
            if not kept_made:
                steps = -1
        if tree == NULL:
            steps = -1
        with nogil:
            while played < count and steps != -1:
                if budget.stop or out_of_time(&budget):
                    break
                steps = playout(g, &s.work, &kept if kept_made else NULL, max_turns, gravity,
                                rng, &mv, &work, &log, tree, draws, &budget)
                if steps >= 0:
                    rv[played] = steps
                    # g.tiles == 0: an odd count removes tiles / 2 pairs and is not clear.
                    if steps == half and g.tiles == 0 and keep_clear and cleared < 0:
                        if ivec_reserve(&first, 2 * <int64_t>half + 2):
                            cleared = played
                            copy_removals(&log, &first, half)
                        else:
                            steps = -1
                take_back(g, &log)
                if steps < 0:
                    break
                played += 1
                if until_clear and cleared >= 0:
                    break
    finally:
        s.unlock()
    out = None
    try:
        budget_raise(&budget)
        if steps == -1:
            raise MemoryError("llkcore: random playouts could not allocate their work space")
        if cleared >= 0:
            out = np.empty((half, 2), dtype=np.int32)
            memcpy(cnp.PyArray_DATA(out), first.data, 2 * <size_t>half * sizeof(int32_t))
    finally:
        llk_free(mv.data)
        llk_free(work.data)
        llk_free(log.data)
        llk_free(first.data)
        llk_free(tree)
        if kept_made:
            kept_free(&kept)
        llk_free(line)
    return removed[:played], out


cdef void copy_removals(const IVec *log, IVec *out, int pairs) noexcept nogil:
    """The (a, b) of every logged removal, in play order, into ``out`` (room for 2 * pairs)."""
    cdef int64_t end = log.n
    cdef int i = pairs - 1, n
    while end > 0 and i >= 0:
        n = log.data[end - 1]
        out.data[2 * i] = log.data[end - 5]
        out.data[2 * i + 1] = log.data[end - 4]
        end -= LOG_FIXED + 2 * n
        i -= 1
    out.n = 2 * pairs


cdef cnp.ndarray pair_cells(cnp.ndarray cells):
    """``cells`` as a C-contiguous (k, 2) int32 array of removals (padded cells)."""
    cc = np.ascontiguousarray(cells, dtype=np.int32)
    if cc.ndim != 2 or cc.shape[1] != 2:
        raise ValueError("cells must have shape (k, 2)")
    return cc


def replay(GridState s not None, cnp.ndarray cells not None, int max_turns, int gravity,
           bint take_back=False, double time_limit=-1.0, cnp.ndarray cancel=None):
    """Play the removals ``cells`` ((k, 2) int32 padded cells, in order) on ``s`` while each is
    legal; returns how many were played. ``s`` is clear afterwards iff the sequence clears it.
    ``time_limit`` >= 0 (seconds) or a set ``cancel`` flag (int32 array) stops it early, as
    does Ctrl-C (raised): fewer played. (With gravity every removal slides the tiles above it:
    what is left of a 1024 x 1024 deal's certificate took 2.9 s.)

    ``take_back=True``: the played removals are then taken back in reverse (their gravity moves
    read back: gravity.pxd ``slides_of``), so ``s`` ends as it began, all in one locked,
    GIL-free loop; the sequence cleared it iff all k were played and ``s`` holds 2k tiles
    (``verify``'s replay, with no copy of the board). Else ``s`` is changed: pass a copy."""
    cc = pair_cells(cells)
    cdef const int32_t *c = <const int32_t *>cnp.PyArray_DATA(cc)
    cdef Py_ssize_t k = cc.shape[0], i = 0, j
    cdef Grid *g = &s.g
    cdef int limit = g.H * g.W, a, b, n
    # Each played removal's dense type, to put it back.
    types = np.empty(k if take_back else 0, dtype=np.int32)
    cdef int32_t *t = <int32_t *>cnp.PyArray_DATA(types)
    cdef Budget budget
    budget_start(&budget, time_limit, cancel_flag(cancel))
    s.lock_links(max_turns)
    try:
        with nogil:
            while i < k and still_time(&budget):
                a = c[2 * i]
                b = c[2 * i + 1]
                if not (0 <= a < limit and 0 <= b < limit):
                    break
                if not can_link(g, &s.work, a, b, max_turns):
                    break
                if take_back:
                    t[i] = g.tid[a]
                # (The gravity moves go to the undo buffer: a take-back reads them back.)
                take_pair(g, a, b, gravity, s.undo_moves)
                i += 1
            if take_back:
                for j in range(i - 1, -1, -1):
                    n = slides_of(g, c[2 * j], c[2 * j + 1], gravity, s.undo_moves)
                    put_pair(g, c[2 * j], c[2 * j + 1], t[j], t[j], s.undo_moves, n)
    finally:
        s.unlock()
    budget_raise(&budget)
    return i


cdef inline void identities(const Grid *g, int32_t *pos, int32_t *idn) noexcept nogil:
    """Tile identities: a tile is named by the cell it stands on now. pos: identity -> cell,
    idn: cell -> identity, -1 where none."""
    cdef int i
    for i in range(g.H * g.W):
        pos[i] = i if g.cells[i] > 0 else -1
        idn[i] = i if g.cells[i] > 0 else -1


cdef inline void take_followed(Grid *g, int a, int b, int gravity, int32_t *moves, int32_t *pos,
                               int32_t *idn) noexcept nogil:
    """take_pair, with the identities of the taken tiles dropped and of the slid ones moved."""
    cdef int n, m, dst
    pos[idn[a]] = -1
    pos[idn[b]] = -1
    idn[a] = -1
    idn[b] = -1
    n = take_pair(g, a, b, gravity, moves)
    carry_along(idn, moves, n)
    for m in range(n):          # where each slid tile ended (a cell it passed through is -1)
        dst = moves[2 * m + 1]
        if idn[dst] >= 0:
            pos[idn[dst]] = dst


def start_cells(GridState s not None, cnp.ndarray cells not None, int max_turns, int gravity,
                double time_limit=-1.0, cnp.ndarray cancel=None):
    """Replay the removals ``cells`` ((k, 2) int32 padded cells, in order) on ``s`` (changed:
    pass a copy) while each is legal, as ``replay``; returns, for each pair played, the cells
    its two tiles stood on before the first removal ((m, 2) int32; m < k where one was not
    legal, or the time ran out: ``time_limit`` and ``cancel`` as for ``replay``). With gravity
    a sequence names the cells tiles slid to; these name the tiles, which ``play_greedily``
    takes."""
    cc = pair_cells(cells)
    cdef Py_ssize_t k = cc.shape[0], i = 0
    cdef Grid *g = &s.g
    cdef int limit = g.H * g.W, a, b
    named = np.empty((k, 2), dtype=np.int32)
    where = np.empty(limit, dtype=np.int32)
    ident = np.empty(limit, dtype=np.int32)
    cdef const int32_t *c = <const int32_t *>cnp.PyArray_DATA(cc)
    cdef int32_t *o = <int32_t *>cnp.PyArray_DATA(named)
    cdef int32_t *pos = <int32_t *>cnp.PyArray_DATA(where)
    cdef int32_t *idn = <int32_t *>cnp.PyArray_DATA(ident)
    cdef Budget budget
    budget_start(&budget, time_limit, cancel_flag(cancel))
    s.lock_links(max_turns)
    try:
        with nogil:
            identities(g, pos, idn)
            while i < k and still_time(&budget):
                a = c[2 * i]
                b = c[2 * i + 1]
                if not (0 <= a < limit and 0 <= b < limit and can_link(g, &s.work, a, b, max_turns)):
                    break
                o[2 * i] = idn[a]
                o[2 * i + 1] = idn[b]
                take_followed(g, a, b, gravity, s.undo_moves, pos, idn)
                i += 1
    finally:
        s.unlock()
    budget_raise(&budget)
    return named[:i]


def play_greedily(GridState s not None, cnp.ndarray cells not None, int max_turns, int gravity,
                  int64_t max_tests, double time_limit=-1.0, cnp.ndarray cancel=None):
    """Play the removals ``cells`` ((k, 2) int32 padded cells of tiles as they stand now) on
    ``s`` (changed: pass a copy), each as soon as it links, its tiles followed through the
    gravity moves; until all are played, none links, ``max_tests`` link tests were made or
    the time ran out (``time_limit`` and ``cancel`` as for ``replay``).
    Returns the pairs as played ((m, 2) int32 padded cells at the time, pa < pb; all k iff
    m == k): a legal sequence from the position.

    Without gravity a removal only empties cells, so no pair that links ever stops linking:
    the scan goes round the pairs left, from each one played to the next, and plays them all
    iff some order of them does. With gravity order matters, so after each removal the scan
    starts again from the first pair left: a heuristic, whose answer is a legal sequence all
    the same (the certificate repair of play-time answers, docs/architecture.md,
    "Winnability"). A pair off the board, of one cell, or of a tile an earlier pair took is
    never played."""
    cc = pair_cells(cells)
    cdef Py_ssize_t k = cc.shape[0]
    cdef Grid *g = &s.g
    cdef int limit = g.H * g.W, a, b, ia, ib, i, prev, head, pending, unplayed = 0
    cdef int64_t tests = 0
    cdef Py_ssize_t played = 0
    cdef bint links
    order = np.empty((k, 2), dtype=np.int32)
    where = np.empty(limit, dtype=np.int32)
    ident = np.empty(limit, dtype=np.int32)
    after_i = np.empty(k + 1, dtype=np.int32)       # the pairs still to play, linked in order
    cdef const int32_t *c = <const int32_t *>cnp.PyArray_DATA(cc)
    cdef int32_t *o = <int32_t *>cnp.PyArray_DATA(order)
    cdef int32_t *pos = <int32_t *>cnp.PyArray_DATA(where)
    cdef int32_t *idn = <int32_t *>cnp.PyArray_DATA(ident)
    cdef int32_t *nxt = <int32_t *>cnp.PyArray_DATA(after_i)
    cdef Budget budget
    budget_start(&budget, time_limit, cancel_flag(cancel))
    s.lock_links(max_turns)
    try:
        with nogil:
            identities(g, pos, idn)
            for i in range(k):
                nxt[i] = i + 1
            head = 0
            pending = <int>k
            i = 0
            prev = -1
            # unplayed: pairs looked at since the last removal; a whole round of them ends it.
            while (pending > 0 and unplayed < pending and tests < max_tests
                   and still_time(&budget)):
                if i >= k:              # round the end, back to the first pair left
                    i = head
                    prev = -1
                ia = c[2 * i]
                ib = c[2 * i + 1]
                links = False
                if 0 <= ia < limit and 0 <= ib < limit and ia != ib:
                    a = pos[ia]
                    b = pos[ib]
                    if a >= 0 and b >= 0:
                        tests += 1
                        links = can_link(g, &s.work, a, b, max_turns)
                if not links:
                    unplayed += 1
                    prev = i
                    i = nxt[i]
                    continue
                if prev < 0:
                    head = nxt[i]
                else:
                    nxt[prev] = nxt[i]
                o[2 * played] = a if a < b else b
                o[2 * played + 1] = b if a < b else a
                played += 1
                pending -= 1
                unplayed = 0
                take_followed(g, a, b, gravity, s.undo_moves, pos, idn)
                if gravity == GRAVITY_NONE:
                    i = nxt[i]          # (prev stays: it now comes just before nxt[i])
                else:
                    i = head
                    prev = -1
    finally:
        s.unlock()
    budget_raise(&budget)
    return order[:played]


# The certificate hunt (playouts.pxd): nested rollout policy adaptation (Rosin, IJCAI 2011).
# A playout draws each removal with probability proportional to exp(policy[code]), where a
# removal's code names its two tiles as they were at the root, so a code means the same removal
# in every position. A run of level l >= 1 makes HUNT_ITERATIONS runs of level l - 1, each from a
# copy of its own policy, keeps the best playout seen (most pairs removed, the later on ties) and
# after each run shifts its policy towards that playout. When the top level's run ends, the hunt
# starts again from an even policy. Whatever it finds is a certificate (a played sequence); it
# never proves anything, so the search's verdicts do not depend on it.
cdef enum:
    HUNT_POLICY_MAX = 1 << 16     # most policy entries (codes share entries beyond)
    HUNT_REC = 4                  # a step's record: a, b, the code drawn, k; then the k codes

cdef double HUNT_ALPHA = 1.0      # the adaptation's step


cdef inline int move_code(const Hunt *h, int a, int b) noexcept nogil:
    """The policy entry of removing the tiles now at a and b (by their root tiles)."""
    cdef int ia = h.ident[a], ib = h.ident[b]
    cdef uint64_t lo = ia if ia < ib else ib, hi = ib if ia < ib else ia
    return <int>(mix64(lo * <uint64_t>h.nid + hi) & h.mask)


cdef inline double* level_policy(Hunt *h, int level) noexcept nogil:
    return h.policy + <size_t>level * (h.mask + 1)


cdef inline double policy_weight(double entry) noexcept nogil:
    """exp(entry), clamped so that a long run's entries never overflow a step's sum."""
    return exp(entry if -600.0 < entry < 600.0 else (600.0 if entry > 0 else -600.0))


cdef void start_level(Hunt *h, int level) noexcept nogil:
    """A new run of ``level``: the policy of the level above (the top level: all zero)."""
    cdef size_t size = (h.mask + 1) * sizeof(double)
    cdef const double *pol
    cdef uint64_t i
    if level == HUNT_LEVELS:
        memset(level_policy(h, level), 0, size)
    else:
        memcpy(level_policy(h, level), level_policy(h, level + 1), size)
    h.best[level] = -1
    h.done[level] = 0
    h.seq[level].n = 0
    if level == 1:
        pol = level_policy(h, 1)
        for i in range(h.mask + 1):
            h.weights[i] = policy_weight(pol[i])


cdef bint hunt_init(Hunt *h, Ctx *c, uint64_t seed) noexcept nogil:
    cdef Grid *g = c.g
    cdef int HW = g.H * g.W, p, t, level
    cdef int64_t pairs = 0, size = 64
    memset(h, 0, sizeof(Hunt))
    for t in range(g.ntypes):
        pairs += <int64_t>g.count[t] * (g.count[t] - 1) // 2
    while size < 4 * pairs and size < HUNT_POLICY_MAX:
        size *= 2
    h.mask = <uint64_t>(size - 1)
    h.ident = <int32_t *>llk_malloc(<size_t>HW * sizeof(int32_t))
    h.root_ident = <int32_t *>llk_malloc(<size_t>HW * sizeof(int32_t))
    h.policy = <double *>llk_malloc((HUNT_LEVELS + 1) * <size_t>size * sizeof(double))
    h.scratch = <double *>llk_malloc(<size_t>size * sizeof(double))
    h.weights = <double *>llk_malloc(<size_t>size * sizeof(double))
    if (h.ident == NULL or h.root_ident == NULL or h.policy == NULL or h.scratch == NULL
            or h.weights == NULL):
        hunt_free(h)
        return False
    for p in range(HW):
        if g.tid[p] >= 0:
            h.root_ident[p] = h.nid
            h.nid += 1
        else:
            h.root_ident[p] = -1
    h.nroot = -1
    h.rng[0] = mix64(seed + 1)
    h.rng[1] = mix64(seed + 2)
    h.rng[2] = mix64(seed + 3)
    h.rng[3] = mix64(seed + 4)
    for level in range(HUNT_LEVELS, 0, -1):
        start_level(h, level)
    return True


cdef void hunt_free(Hunt *h) noexcept nogil:
    cdef int level
    llk_free(h.ident)
    llk_free(h.root_ident)
    llk_free(h.policy)
    llk_free(h.scratch)
    llk_free(h.weights)
    llk_free(h.weight)
    llk_free(h.moves.data)
    llk_free(h.root_moves.data)
    llk_free(h.kept.data)
    llk_free(h.log.data)
    for level in range(HUNT_LEVELS + 1):
        llk_free(h.seq[level].data)
    memset(h, 0, sizeof(Hunt))


cdef void merge_moves(const int32_t *x, int64_t nx, const int32_t *y, int64_t ny,
                      int32_t *out) noexcept nogil:
    """Merge two sorted lists of moves (cmp_pair order) into ``out``."""
    cdef int64_t i = 0, j = 0, n = 0
    while i < nx or j < ny:
        if j == ny or (i < nx and cmp_pair(x + 2 * i, y + 2 * j) < 0):
            out[2 * n] = x[2 * i]
            out[2 * n + 1] = x[2 * i + 1]
            i += 1
        else:
            out[2 * n] = y[2 * j]
            out[2 * n + 1] = y[2 * j + 1]
            j += 1
        n += 1


cdef int64_t sorted_moves_after(KeptWork *kept, const Grid *g, PathWork *w, int max_turns,
                                Budget *bud, int a, int b, const int32_t *gm, int ngm,
                                IVec *moves, int64_t before, IVec *work) noexcept nogil:
    """``moves``, the sorted moves (``before`` of them) of the position before the removal of
    (a, b) with its ngm gravity moves ``gm``, become those after it (``moves_after``), sorted
    (cmp_pair order), through the scratch ``work``. How many, -1 when the budget said stop, -2
    out of memory."""
    cdef int64_t k, nkept
    k = moves_after(kept, g, w, max_turns, bud, a, b, gm, ngm, moves, 0, before, work, 0, &nkept)
    if k < 0:
        return k
    if not ivec_reserve(moves, 2 * k + 2):
        return -2
    # The kept moves keep the sorted order of the list they come from; the new ones are few.
    qsort(work.data + 2 * nkept, k - nkept, 2 * sizeof(int32_t), cmp_pair)
    merge_moves(work.data, nkept, work.data + 2 * nkept, k - nkept, moves.data)
    return k


cdef int64_t step_moves(Hunt *h, Ctx *c, KeptWork *kept, int steps, int a, int b,
                        int64_t gm_at, int ngm, int64_t before) noexcept nogil:
    """The moves of a playout's step into h.moves, sorted, so that a draw depends on the
    position alone: the root's listed once, later ones from the step before's (``before``
    moves, then (a, b) removed with ngm gravity moves at h.log.data[gm_at:]) when ``kept`` is
    given. How many, -1 when the budget said stop, -2 out of memory."""
    cdef int64_t k
    if steps == 0 and h.nroot >= 0:
        k = h.nroot
        if not ivec_reserve(&h.moves, 2 * k + 2):
            return -2
        memcpy(h.moves.data, h.root_moves.data, <size_t>(2 * k) * sizeof(int32_t))
        return k
    if steps == 0 or kept == NULL:
        k = all_moves(c.g, c.w, c.max_turns, &h.moves, &c.b)
        if k < 0:
            return -2 if k == -1 else -1
        if steps == 0:
            if not ivec_reserve(&h.root_moves, 2 * k + 2):
                return -2
            memcpy(h.root_moves.data, h.moves.data, <size_t>(2 * k) * sizeof(int32_t))
            h.nroot = k
        return k
    return sorted_moves_after(kept, c.g, c.w, c.max_turns, &c.b, a, b, h.log.data + gm_at, ngm,
                              &h.moves, before, &h.kept)


cdef int hunt_playout(Hunt *h, Ctx *c, KeptWork *kept) noexcept nogil:
    """One playout from the root under the policy of level 1 (its weights, h.weights), recorded
    in h.seq[0] (HUNT_REC ints and the codes of the step's moves, a step); the board is taken
    back. Returns the pairs removed, -1 when the budget stopped it, -2 out of memory."""
    cdef Grid *g = c.g
    cdef int steps = 0, result = 0, i, k = 0, n = 0, a = 0, b = 0
    cdef int64_t listed, src = 0
    cdef int32_t *rec
    cdef double total, u
    memcpy(h.ident, h.root_ident, <size_t>g.H * g.W * sizeof(int32_t))
    h.seq[0].n = 0
    while g.tiles > 0:
        if not spend(&c.b):
            result = -1
            break
        h.steps += 1
        listed = step_moves(h, c, kept, steps, a, b, src, n, k)
        if listed < 0:
            result = listed
            break
        if listed == 0:
            break
        k = <int>listed
        if (not ivec_reserve(&h.seq[0], h.seq[0].n + HUNT_REC + k)
                or not grow(<void **>&h.weight, &h.nweight, k, sizeof(double))):
            result = -2
            break
        rec = h.seq[0].data + h.seq[0].n
        total = 0.0
        for i in range(k):
            rec[HUNT_REC + i] = move_code(h, h.moves.data[2 * i], h.moves.data[2 * i + 1])
            h.weight[i] = h.weights[rec[HUNT_REC + i]]
            total += h.weight[i]
        u = <double>(rng_next(h.rng) >> 11) * (1.0 / 9007199254740992.0) * total
        i = 0
        while i < k - 1 and u >= h.weight[i]:
            u -= h.weight[i]
            i += 1
        a = h.moves.data[2 * i]
        b = h.moves.data[2 * i + 1]
        rec[0] = a
        rec[1] = b
        rec[2] = rec[HUNT_REC + i]
        rec[3] = k
        h.seq[0].n += HUNT_REC + k
        src = h.log.n
        n = logged_take(g, a, b, c.gravity, &h.log)
        if n < 0:
            result = -2
            break
        h.ident[a] = -1
        h.ident[b] = -1
        carry_along(h.ident, h.log.data + src, n)
        steps += 1
    take_back(g, &h.log)
    return result if result < 0 else steps


cdef void adapt(Hunt *h, double *pol, const IVec *seq) noexcept nogil:
    """Shift ``pol`` towards the playout ``seq``: at each step its removal's entry up by ALPHA,
    every move's down by ALPHA times its probability under ``pol`` before the shift."""
    cdef int64_t at = 0
    cdef int i, k
    cdef const int32_t *rec
    cdef double top, total
    memcpy(h.scratch, pol, (h.mask + 1) * sizeof(double))
    while at < seq.n:
        rec = seq.data + at
        k = rec[3]
        top = -1e300
        for i in range(k):
            if h.scratch[rec[HUNT_REC + i]] > top:
                top = h.scratch[rec[HUNT_REC + i]]
        total = 0.0
        for i in range(k):
            total += exp(h.scratch[rec[HUNT_REC + i]] - top)
        pol[rec[2]] += HUNT_ALPHA
        for i in range(k):
            pol[rec[HUNT_REC + i]] -= HUNT_ALPHA * exp(h.scratch[rec[HUNT_REC + i]] - top) / total
        at += HUNT_REC + k
    if pol == level_policy(h, 1):     # the playouts' weights follow the entries changed
        at = 0
        while at < seq.n:
            rec = seq.data + at
            for i in range(rec[3]):
                h.weights[rec[HUNT_REC + i]] = policy_weight(pol[rec[HUNT_REC + i]])
            at += HUNT_REC + rec[3]


cdef int hunt_run(Hunt *h, Ctx *c, KeptWork *kept) noexcept nogil:
    cdef int r, level, low, score
    cdef int64_t at
    cdef IVec *src
    while True:
        r = hunt_playout(h, c, kept)
        if r == -2:
            c.b.stop = ST_MEMORY
            return ST_MEMORY
        if r < 0:
            return c.b.stop       # this playout is played again from the start next time
        if r > h.record:
            h.record = r
        if 2 * r == h.nid:
            c.nout = 0
            at = 0
            while at < h.seq[0].n:
                record(c, h.seq[0].data[at], h.seq[0].data[at + 1])
                at += HUNT_REC + h.seq[0].data[at + 3]
            return ST_SOLVED
        # Climb: the playout ends a run of level 0; a level whose run is over hands its best on.
        level = 1
        score = r
        src = &h.seq[0]
        while True:
            if score >= h.best[level]:
                if not ivec_reserve(&h.seq[level], src.n):
                    c.b.stop = ST_MEMORY
                    return ST_MEMORY
                memcpy(h.seq[level].data, src.data, <size_t>src.n * sizeof(int32_t))
                h.seq[level].n = src.n
                h.best[level] = score
            h.done[level] += 1
            if h.done[level] < HUNT_ITERATIONS:
                adapt(h, level_policy(h, level), &h.seq[level])
                break
            if level == HUNT_LEVELS:
                level += 1        # the top run is over: every level starts again
                break
            score = h.best[level]
            src = &h.seq[level]
            level += 1
        for low in range(level - 1, 0, -1):
            start_level(h, low)
