# cython: language_level=3
"""The turn-level BFS: the best path between two cells, for drawing and above two turns.

One implementation serves path finding, link tests with more than two turns, hints and
checked removals. See docs/architecture.md ("Paths") for why the first arrival is the best path.
"""
from libc.stdint cimport int32_t, uint8_t
from libc.string cimport memset

from .alloc cimport llk_free, llk_malloc
from .grid cimport Grid, step
from .reach cimport flood_alloc, flood_free
from .sweep cimport swept_path


cdef bint path_work_alloc(PathWork *w, int H, int W) noexcept nogil:
    cdef size_t ncells = <size_t>H * W
    cdef size_t nstates = 4 * ncells
    w.nstates = <int>nstates
    w.seen = <uint8_t *>llk_malloc(ncells)
    w.dist = <int32_t *>llk_malloc(nstates * sizeof(int32_t))
    w.turns = <int32_t *>llk_malloc(nstates * sizeof(int32_t))
    w.queue = <int32_t *>llk_malloc((nstates + 4) * sizeof(int32_t))
    w.src_cur = <int32_t *>llk_malloc((2 * nstates + 4) * sizeof(int32_t))
    w.src_next = <int32_t *>llk_malloc((2 * nstates + 4) * sizeof(int32_t))
    if (w.seen == NULL or w.dist == NULL or w.turns == NULL or w.queue == NULL
            or w.src_cur == NULL or w.src_next == NULL or not flood_alloc(&w.flood, H, W)):
        path_work_free(w)
        return False
    return True


cdef void path_work_free(PathWork *w) noexcept nogil:
    llk_free(w.seen)
    llk_free(w.dist)
    llk_free(w.turns)
    llk_free(w.queue)
    llk_free(w.src_cur)
    llk_free(w.src_next)
    flood_free(&w.flood)
    memset(w, 0, sizeof(PathWork))


# Entries of the BFS queues pack (predecessor cell, predecessor direction, new direction):
# ``pred_cell << 4 | pred_dir << 2 | new_dir``; the new state is one step from pred_cell in
# new_dir. A predecessor equal to the start cell marks a first step. Cells stay below 2**27.


cdef inline int entry_length(const PathWork *w, int e, int pa) noexcept nogil:
    cdef int pred_cell = e >> 4
    if pred_cell == pa:
        return 1
    return w.dist[(pred_cell << 2) | ((e >> 2) & 3)] + 1


cdef inline bint on_board_step(const Grid *g, int cell, int d) noexcept nogil:
    """False when a step from a ring cell would leave the padded array."""
    if d == 0:
        return cell >= g.W
    if d == 1:
        return cell < (g.H - 1) * g.W
    if d == 2:
        return cell % g.W != 0
    return cell % g.W != g.W - 1


cdef int path_search(const Grid *g, PathWork *w, int pa, int pb, int max_turns) noexcept nogil:
    """The fewest turns (<= max_turns), then the shortest length, from pa to pb; -1 if none.

    States are ``cell << 2 | dir`` (the direction the path moved to enter the cell). Turn levels
    are processed in order (a 0-1 BFS whose 1-edges are turns) and, inside a level, states are
    finalised in order of path length by merging two queues that are each sorted: the entries
    that open the level (produced by turns while the previous level was finalised in length
    order) and the straight moves of this level (FIFO). So the first time a state is final its
    (turns, length) is lexicographically least, one seen bit per state suffices (four per byte),
    and the first final state at pb is the answer. Every final state keeps its turns and length
    (``w.turns``, ``w.dist``), which is what ``best_path`` walks on.
    """
    cdef int ncells = g.H * g.W
    cdef int32_t *src_cur = w.src_cur
    cdef int32_t *src_next = w.src_next
    cdef int32_t *tmp
    cdef int ncur = 0, nnext, shead, qhead, qtail, level = 0
    cdef int d, d2, k, e, cell, n, state, pred_cell, ls, lq
    memset(w.seen, 0, ncells)
    for d in range(4):
        n = pa + step(g, d)
        if on_board_step(g, pa, d) and (n == pb or g.cells[n] == 0):
            src_cur[ncur] = (pa << 4) | d
            ncur += 1
    while ncur > 0:
        nnext = 0
        shead = 0
        qhead = 0
        qtail = 0
        while shead < ncur or qhead < qtail:
            if qhead == qtail:
                e = src_cur[shead]
                shead += 1
            elif shead == ncur:
                e = w.queue[qhead]
                qhead += 1
            else:
                ls = entry_length(w, src_cur[shead], pa)
                lq = entry_length(w, w.queue[qhead], pa)
                if ls <= lq:
                    e = src_cur[shead]
                    shead += 1
                else:
                    e = w.queue[qhead]
                    qhead += 1
            pred_cell = e >> 4
            d = e & 3
            cell = pred_cell + step(g, d)
            if w.seen[cell] & (1 << d):
                continue
            w.seen[cell] |= <uint8_t>(1 << d)
            state = (cell << 2) | d
            w.turns[state] = level
            if pred_cell == pa:
                w.dist[state] = 1
            else:
                w.dist[state] = w.dist[(pred_cell << 2) | ((e >> 2) & 3)] + 1
            if cell == pb:
                return state
            # Straight on: same level.
            if on_board_step(g, cell, d):
                n = cell + step(g, d)
                if (n == pb or g.cells[n] == 0) and not (w.seen[n] & (1 << d)):
                    w.queue[qtail] = (cell << 4) | (d << 2) | d
                    qtail += 1
            # Turn: opens the next level. U-turns never help, so only the two perpendiculars.
            if level < max_turns:
                for k in range(2):
                    d2 = (2 + k) if d < 2 else k
                    if not on_board_step(g, cell, d2):
                        continue
                    n = cell + step(g, d2)
                    if (n == pb or g.cells[n] == 0) and not (w.seen[n] & (1 << d2)):
                        src_next[nnext] = (cell << 4) | (d << 2) | d2
                        nnext += 1
        tmp = src_cur
        src_cur = src_next
        src_next = tmp
        ncur = nnext
        level += 1
    return -1


cdef inline bint rest_fits(const Grid *g, const PathWork *w, int n, int d, int turns,
                           int length) noexcept nogil:
    """After a search from the target (see best_path): can a path that entered cell n moving in
    direction d reach the target with exactly ``turns`` more turns and ``length`` more steps?"""
    cdef int f, rs, t
    for f in range(4):
        if f == (d ^ 1):
            continue
        # The search from the target reached n moving the other way: state (n, f ^ 1).
        rs = (n << 2) | (f ^ 1)
        if w.seen[n] & (1 << (f ^ 1)):
            t = w.turns[rs] + (f != d)
            if t == turns and w.dist[rs] == length:
                return True
    return False


cdef int best_path(const Grid *g, PathWork *w, int pa, int pb, int max_turns, int32_t *out) noexcept nogil:
    """THE best path from pa to pb: fewest turns, then shortest, then the first in step order
    (its sequence of unit steps is the least, with up < down < left < right): the path
    llkref.find_path's breadth-first search returns. Writes its corner points; returns how many.

    Up to two turns (on a grid with occupancy bits) the sweep names it without a search
    (swept_path). Above: a search from pb towards pa gives the least (turns, length) T, L and,
    for every state it made final, the least (turns, length) left to reach pb. A walk from pa
    then takes, at each cell, the first direction after which a path of exactly the remaining
    turns and length to pb exists. Every proper suffix of a best path is cheaper than (T, L), so
    its states were made final before the search stopped; hence the walk never misses a
    continuation, and it builds the least step sequence among best paths, in O(L) after the
    search.
    """
    cdef int swept = swept_path(g, pa, pb, max_turns, out)
    if swept != -2:
        return swept
    cdef int end = path_search(g, w, pb, pa, max_turns)
    if end < 0:
        return -1
    cdef int T = w.turns[end], L = w.dist[end]
    cdef int x = pa, d_in = -1, used = 0, walked = 0, f, n, t, ncorners = 1
    out[0] = pa // g.W - 1
    out[1] = pa % g.W - 1
    cdef bint found
    while x != pb:
        found = False
        for f in range(4):
            if f == (d_in ^ 1) and d_in >= 0:
                continue
            if not on_board_step(g, x, f):
                continue
            n = x + step(g, f)
            t = used + (d_in >= 0 and f != d_in)
            if n == pb:
                found = t == T and walked + 1 == L
            else:
                found = g.cells[n] == 0 and rest_fits(g, w, n, f, T - t, L - walked - 1)
            if found:
                break
        if not found:
            return -1       # cannot happen (see above); never walk off the known states
        if d_in >= 0 and f != d_in:
            out[2 * ncorners] = x // g.W - 1
            out[2 * ncorners + 1] = x % g.W - 1
            ncorners += 1
        used = t
        d_in = f
        walked += 1
        x = n
    out[2 * ncorners] = pb // g.W - 1
    out[2 * ncorners + 1] = pb % g.W - 1
    return ncorners + 1
