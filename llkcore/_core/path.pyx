# cython: language_level=3
"""The turn-level BFS: the best path between two cells, for drawing and above two turns.

One implementation serves path finding, link tests with more than two turns, hints and
checked removals. See docs/architecture.md ("Paths") for why the first arrival is the best path.
"""
from libc.stdint cimport int32_t, uint8_t
from libc.string cimport memset

from .alloc cimport llk_free, llk_malloc
from .grid cimport Grid, step


cdef bint path_work_alloc(PathWork *w, int H, int W) noexcept nogil:
    cdef size_t ncells = <size_t>H * W
    cdef size_t nstates = 4 * ncells
    w.nstates = <int>nstates
    w.seen = <uint8_t *>llk_malloc(ncells)
    w.dist = <int32_t *>llk_malloc(nstates * sizeof(int32_t))
    w.prev = <int32_t *>llk_malloc(nstates * sizeof(int32_t))
    w.queue = <int32_t *>llk_malloc((nstates + 4) * sizeof(int32_t))
    w.src_cur = <int32_t *>llk_malloc((2 * nstates + 4) * sizeof(int32_t))
    w.src_next = <int32_t *>llk_malloc((2 * nstates + 4) * sizeof(int32_t))
    if (w.seen == NULL or w.dist == NULL or w.prev == NULL or w.queue == NULL
            or w.src_cur == NULL or w.src_next == NULL):
        path_work_free(w)
        return False
    return True


cdef void path_work_free(PathWork *w) noexcept nogil:
    llk_free(w.seen)
    llk_free(w.dist)
    llk_free(w.prev)
    llk_free(w.queue)
    llk_free(w.src_cur)
    llk_free(w.src_next)
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
    """Best path from pa to pb: fewest turns (<= max_turns), then shortest; -1 if none.

    States are ``cell << 2 | dir`` (the direction the path moved to enter the cell). Turn levels
    are processed in order (a 0-1 BFS whose 1-edges are turns) and, inside a level, states are
    finalised in order of path length by merging two queues that are each sorted: the entries
    that open the level (produced by turns while the previous level was finalised in length
    order) and the straight moves of this level (FIFO). So the first time a state is final its
    (turns, length) is lexicographically least, one seen bit per state suffices (four per byte),
    and the first final state at pb is the answer. Fixed direction order and FIFO queues make
    ties deterministic. Returns the final state at pb; ``w.prev`` holds the path back.
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
            if pred_cell == pa:
                w.prev[state] = -1
                w.dist[state] = 1
            else:
                w.prev[state] = (pred_cell << 2) | ((e >> 2) & 3)
                w.dist[state] = w.dist[w.prev[state]] + 1
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


cdef int path_corners(const Grid *g, const PathWork *w, int pa, int end_state, int32_t *out) noexcept nogil:
    """Write the corner points (user coordinates, row then col) of the path ending in end_state.

    Returns the number of points: both endpoints and every cell where the direction changes.
    ``out`` needs room for 2 * (turns + 2) ints.
    """
    cdef int n = 0, s = end_state, ps, i, t
    out[0] = (s >> 2) // g.W - 1
    out[1] = (s >> 2) % g.W - 1
    n = 1
    while True:
        ps = w.prev[s]
        if ps < 0:
            break
        if (ps & 3) != (s & 3):
            out[2 * n] = (ps >> 2) // g.W - 1
            out[2 * n + 1] = (ps >> 2) % g.W - 1
            n += 1
        s = ps
    out[2 * n] = pa // g.W - 1
    out[2 * n + 1] = pa % g.W - 1
    n += 1
    for i in range(n // 2):
        t = out[2 * i]
        out[2 * i] = out[2 * (n - 1 - i)]
        out[2 * (n - 1 - i)] = t
        t = out[2 * i + 1]
        out[2 * i + 1] = out[2 * (n - 1 - i) + 1]
        out[2 * (n - 1 - i) + 1] = t
    return n


cdef int path_turns(const PathWork *w, int end_state) noexcept nogil:
    cdef int turns = 0, st = end_state
    while w.prev[st] >= 0:
        if (w.prev[st] & 3) != (st & 3):
            turns += 1
        st = w.prev[st]
    return turns
