# cython: language_level=3
"""GridState: the padded grid, its occupancy bits and type index, owned in one object.

Also the one implementation of the turn-level BFS (``path_search``) that link tests above two
turns, path finding and hints share. Everything here trusts its inputs: the facade validates.
"""
import numpy as np
cimport numpy as cnp
from cpython.pythread cimport (PyThread_acquire_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_release_lock, WAIT_LOCK)
from libc.stdlib cimport free, malloc
from libc.string cimport memset

cnp.import_array()

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


cdef int compact_line(Grid *g, int start, int stride, int length, int32_t *moves) noexcept nogil:
    """Pack the tiles of one line towards ``start`` inside each wall-bounded segment.

    The line is the cells ``start + i * stride`` for i in 0..length-1 (interior cells only).
    Records each move as (src, dst) in ``moves``; returns the number of moves.
    """
    cdef int i, p, dst = start, nmoves = 0
    for i in range(length):
        p = start + i * stride
        if g.cells[p] < 0:
            dst = p + stride
        elif g.cells[p] > 0:
            if p != dst:
                move_tile(g, p, dst)
                moves[2 * nmoves] = p
                moves[2 * nmoves + 1] = dst
                nmoves += 1
            dst += stride
    return nmoves


cdef int compact_through(Grid *g, int p, int gravity, int32_t *moves) noexcept nogil:
    """Apply gravity to the line (column or row) through padded cell p."""
    cdef int r = p // g.W
    cdef int c = p - r * g.W
    if gravity == GRAVITY_DOWN:
        return compact_line(g, g.rows * g.W + c, -g.W, g.rows, moves)
    if gravity == GRAVITY_UP:
        return compact_line(g, g.W + c, g.W, g.rows, moves)
    if gravity == GRAVITY_LEFT:
        return compact_line(g, r * g.W + 1, 1, g.cols, moves)
    if gravity == GRAVITY_RIGHT:
        return compact_line(g, r * g.W + g.cols, -1, g.cols, moves)
    return 0


cdef class GridState:
    """The engine's state of one board. Built and mutated only through the facade."""

    def __init__(self, cnp.ndarray board, bint border):
        """``board``: a validated C-contiguous int32 (rows, cols) array."""
        cdef int rows = board.shape[0], cols = board.shape[1]
        self.border = border
        H = rows + 2
        W = cols + 2
        cells = np.full((H, W), 0 if border else -1, dtype=np.int32)
        cells[1:-1, 1:-1] = board
        values, counts = np.unique(board[board > 0], return_counts=True)
        self.cells_arr = cells
        self.type_value_arr = values.astype(np.int32)
        self.count_arr = counts.astype(np.int32)
        offset = np.zeros(len(values) + 1, dtype=np.int32)
        np.cumsum(counts, out=offset[1:])
        self.offset_arr = offset
        flat = cells.ravel()
        tiles = np.flatnonzero(flat > 0).astype(np.int32)
        tid = np.full(H * W, -1, dtype=np.int32)
        tid[tiles] = np.searchsorted(values, flat[tiles]).astype(np.int32)
        self.tid_arr = tid
        # Tiles grouped by type, each group in row-major order.
        order = np.argsort(tid[tiles], kind="stable")
        pos = tiles[order]
        self.pos_arr = np.ascontiguousarray(pos, dtype=np.int32)
        slot = np.full(H * W, -1, dtype=np.int32)
        slot[pos] = np.arange(len(pos), dtype=np.int32)
        self.slot_arr = slot
        self.rowbits_arr = np.zeros((H, (W + 63) // 64), dtype=np.uint64)
        self.colbits_arr = np.zeros((W, (H + 63) // 64), dtype=np.uint64)
        self._bind()
        self.g.tiles = len(pos)
        cdef int p
        cdef int32_t *cp = self.g.cells
        for p in range(H * W):
            if cp[p] != 0:
                set_blocked(&self.g, p, True)

    cdef void _bind(self):
        """Point the C view at the arrays (after construction or copy)."""
        self.g.H = (<cnp.ndarray>self.cells_arr).shape[0]
        self.g.W = (<cnp.ndarray>self.cells_arr).shape[1]
        self.g.rows = self.g.H - 2
        self.g.cols = self.g.W - 2
        self.g.RW = (<cnp.ndarray>self.rowbits_arr).shape[1]
        self.g.CW = (<cnp.ndarray>self.colbits_arr).shape[1]
        self.g.cells = <int32_t *>cnp.PyArray_DATA(self.cells_arr)
        self.g.tid = <int32_t *>cnp.PyArray_DATA(self.tid_arr)
        self.g.rowbits = <uint64_t *>cnp.PyArray_DATA(self.rowbits_arr)
        self.g.colbits = <uint64_t *>cnp.PyArray_DATA(self.colbits_arr)
        self.g.ntypes = (<cnp.ndarray>self.type_value_arr).shape[0]
        self.g.type_value = <int32_t *>cnp.PyArray_DATA(self.type_value_arr)
        self.g.offset = <int32_t *>cnp.PyArray_DATA(self.offset_arr)
        self.g.count = <int32_t *>cnp.PyArray_DATA(self.count_arr)
        self.g.pos = <int32_t *>cnp.PyArray_DATA(self.pos_arr)
        self.g.slot = <int32_t *>cnp.PyArray_DATA(self.slot_arr)

    def __cinit__(self, *args, **kwargs):
        self.work_lock = PyThread_allocate_lock()
        if self.work_lock == NULL:
            raise MemoryError("llkcore: cannot allocate a lock")

    def __dealloc__(self):
        if self.work_lock != NULL:
            PyThread_free_lock(self.work_lock)
        free(self.work.seen)
        free(self.work.dist)
        free(self.work.prev)
        free(self.work.queue)
        free(self.work.src_cur)
        free(self.work.src_next)

    cdef int _ensure_work(self) except -1:
        """Allocate the BFS buffers on first use (boolean tests up to two turns never need them)."""
        if self.work.seen != NULL:
            return 0
        cdef size_t ncells = <size_t>self.g.H * self.g.W
        cdef size_t nstates = 4 * ncells
        self.work.nstates = <int>nstates
        self.work.seen = <uint8_t *>malloc(ncells)
        self.work.dist = <int32_t *>malloc(nstates * sizeof(int32_t))
        self.work.prev = <int32_t *>malloc(nstates * sizeof(int32_t))
        self.work.queue = <int32_t *>malloc((nstates + 4) * sizeof(int32_t))
        self.work.src_cur = <int32_t *>malloc((2 * nstates + 4) * sizeof(int32_t))
        self.work.src_next = <int32_t *>malloc((2 * nstates + 4) * sizeof(int32_t))
        if (self.work.seen == NULL or self.work.dist == NULL or self.work.prev == NULL
                or self.work.queue == NULL or self.work.src_cur == NULL or self.work.src_next == NULL):
            raise MemoryError("llkcore: cannot allocate path-search buffers")
        return 0

    cdef int acquire_work(self) except -1:
        """Take the BFS buffers for this thread (allocating them on first use).

        Waits with the GIL released, so the holder can finish. Pair with release_work().
        """
        with nogil:
            PyThread_acquire_lock(self.work_lock, WAIT_LOCK)
        try:
            self._ensure_work()
        except BaseException:
            PyThread_release_lock(self.work_lock)
            raise
        return 0

    cdef void release_work(self) noexcept:
        PyThread_release_lock(self.work_lock)

    def copy(self):
        cdef GridState other = GridState.__new__(GridState)
        other.border = self.border
        other.cells_arr = self.cells_arr.copy()
        other.tid_arr = self.tid_arr.copy()
        other.rowbits_arr = self.rowbits_arr.copy()
        other.colbits_arr = self.colbits_arr.copy()
        other.type_value_arr = self.type_value_arr.copy()
        other.offset_arr = self.offset_arr.copy()
        other.count_arr = self.count_arr.copy()
        other.pos_arr = self.pos_arr.copy()
        other.slot_arr = self.slot_arr.copy()
        other._bind()
        other.g.tiles = self.g.tiles
        return other

    # ---- views for the facade -------------------------------------------------------------

    @property
    def rows(self):
        return self.g.rows

    @property
    def cols(self):
        return self.g.cols

    @property
    def width(self):
        """Padded row length W: the facade turns (r, c) into (r + 1) * W + c + 1."""
        return self.g.W

    @property
    def tiles(self):
        return self.g.tiles

    def grid_view(self):
        """Read-only live view of the user's board (the ring excluded)."""
        view = self.cells_arr[1:-1, 1:-1]
        view.flags.writeable = False
        return view

    def value_at(self, int p):
        return self.g.cells[p]

    def type_values(self):
        """User values of the types that still have tiles, ascending."""
        values = self.type_value_arr[self.count_arr > 0]
        return values.copy()

    def type_counts(self):
        """(values, counts) of the types that still have tiles."""
        live = self.count_arr > 0
        return self.type_value_arr[live].copy(), self.count_arr[live].copy()

    def positions_of(self, int value):
        """Padded positions of the live tiles of a type, in index (slot) order; empty if none."""
        t = int(np.searchsorted(self.type_value_arr, value))
        if t >= self.g.ntypes or self.g.type_value[t] != value:
            return np.empty(0, dtype=np.int32)
        start = self.g.offset[t]
        return self.pos_arr[start:start + self.g.count[t]].copy()

    def index_arrays(self):
        """(type_value, offset, count, pos, slot) copies, for consistency tests."""
        return (self.type_value_arr.copy(), self.offset_arr.copy(), self.count_arr.copy(),
                self.pos_arr.copy(), self.slot_arr.copy())

    # ---- mutation (all inputs validated by the facade) -------------------------------------

    def remove_pair(self, int pa, int pb, int gravity):
        """Remove the tiles at pa and pb, then apply gravity to their lines.

        Returns the gravity moves as an int32 array of (src, dst) rows, in the order applied.
        """
        cdef cnp.ndarray[cnp.int32_t, ndim=1] buf = np.empty(
            4 * (self.g.rows + self.g.cols) + 8, dtype=np.int32)
        cdef int n = take_pair(&self.g, pa, pb, gravity, <int32_t *>buf.data)
        return buf[:2 * n].reshape(n, 2).copy()

    def restore_pair(self, int pa, int pb, int value_a, int value_b, cnp.ndarray moves):
        """Exact inverse of remove_pair: undo the gravity moves in reverse, then put a and b back."""
        cdef cnp.ndarray[cnp.int32_t, ndim=2] mv = np.ascontiguousarray(moves, dtype=np.int32)
        put_pair(&self.g, pa, pb, self._dense(value_a), self._dense(value_b),
                 <int32_t *>mv.data, mv.shape[0])

    def compact(self, int gravity):
        """Apply gravity to every line (a board built with gravity starts compacted)."""
        cdef cnp.ndarray[cnp.int32_t, ndim=1] buf = np.empty(
            2 * (self.g.rows * self.g.cols) + 8, dtype=np.int32)
        cdef int i, n = 0
        if gravity == GRAVITY_DOWN or gravity == GRAVITY_UP:
            for i in range(self.g.cols):
                n += compact_through(&self.g, self.g.W + 1 + i, gravity, <int32_t *>buf.data + 2 * n)
        elif gravity != GRAVITY_NONE:
            for i in range(self.g.rows):
                n += compact_through(&self.g, (i + 1) * self.g.W + 1, gravity,
                                     <int32_t *>buf.data + 2 * n)
        return n

    cdef int _dense(self, int value) except -1:
        cdef int t = int(np.searchsorted(self.type_value_arr, value))
        return t

    def retype(self, cnp.ndarray positions, cnp.ndarray values):
        """Give the live tiles at ``positions`` the new ``values`` (a permutation of their old
        multiset: reshuffles). Rebuilds the slots of the affected types."""
        cdef cnp.ndarray[cnp.int32_t, ndim=1] ps = np.ascontiguousarray(positions, dtype=np.int32)
        # Dense ids in one vectorised lookup (a Python call per tile would dominate).
        cdef cnp.ndarray[cnp.int32_t, ndim=1] dense = np.ascontiguousarray(
            np.searchsorted(self.type_value_arr, np.asarray(values, dtype=np.int32)), dtype=np.int32)
        cdef int i
        for i in range(ps.shape[0]):
            take_tile(&self.g, ps[i])
        for i in range(ps.shape[0]):
            put_tile(&self.g, ps[i], dense[i])


cdef int64_t list_moves(const Grid *g, PathWork *w, int max_turns, int32_t *out, int64_t cap) noexcept nogil:
    """Every removable pair (pa < pb, padded cells) into ``out`` as pairs; stops after ``cap``.

    Same-type pairs only, from the index, with no cap per type. Cheap reject first: a tile
    with no empty neighbour can only link to an adjacent twin (and adjacent twins always link).
    Returns the number of pairs written; with ``out == NULL`` only counts them (up to ``cap``).
    """
    cdef int t, i, j, base, n, pa, pb
    cdef int64_t k = 0
    cdef bint free_a, linked
    for t in range(g.ntypes):
        base = g.offset[t]
        n = g.count[t]
        for i in range(n):
            pa = g.pos[base + i]
            free_a = empty_neighbours(g, pa) > 0
            for j in range(i + 1, n):
                pb = g.pos[base + j]
                if adjacent(g, pa, pb):
                    linked = True
                elif not free_a or empty_neighbours(g, pb) == 0:
                    linked = False
                elif max_turns <= 2:
                    linked = link_sweep(g, pa, pb, max_turns)
                else:
                    linked = path_search(g, w, pa, pb, max_turns) >= 0
                if linked:
                    if k >= cap:
                        return k
                    if out == NULL:
                        pass
                    elif pa < pb:
                        out[2 * k] = pa
                        out[2 * k + 1] = pb
                    else:
                        out[2 * k] = pb
                        out[2 * k + 1] = pa
                    k += 1
    return k
