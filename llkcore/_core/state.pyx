# cython: language_level=3
"""GridState: the padded grid, its occupancy bits and type index, owned in one object.

Memory is two blocks (docs/architecture.md, "Data layout"): one sized by the board's shape
(occupancy bits, cells, type ids, slots), one by its types (type values, offsets, counts,
positions). Building a state is two passes over the cells in C, so a Board costs about what
copying its grid costs. The cells block never moves, so the read-only ndarray the facade hands
out (``grid_view``) stays valid for the state's life, and ``load`` refreshes a state in place.

Threads: every kernel entry that reads or writes a state holds its mutex for the whole call
(``lock`` / ``lock_work`` ... ``unlock``), so no call ever sees a half-made change, and the BFS
buffers are used by one call at a time. Everything here trusts its inputs: the facade validates.
"""
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport (NOWAIT_LOCK, PY_LOCK_ACQUIRED, PyLockStatus, PyThread_acquire_lock,
                               PyThread_allocate_lock, PyThread_free_lock, PyThread_release_lock,
                               PyThread_type_lock)
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.string cimport memcpy, memset

from .alloc cimport llk_calloc, llk_free, llk_malloc
from .gravity cimport compact_all, put_pair, slide_room, slides_of, take_pair
from .grid cimport (GRAVITY_DOWN, GRAVITY_LEFT, GRAVITY_NONE, GRAVITY_RIGHT, GRAVITY_UP, Grid,
                    lower_bound, put_tile, set_blocked, sort_ints, take_tile)
from .path cimport best_path, path_work_alloc, path_work_free
from .run cimport SIGNAL_MS

cdef extern from "pythread.h":
    ctypedef long long PY_TIMEOUT_T
    PyLockStatus PyThread_acquire_lock_timed(PyThread_type_lock lock, PY_TIMEOUT_T microseconds,
                                             int intr_flag) nogil

cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void *op)

from weakref import ref as _weak_ref

import numpy as np

cnp.import_array()

#: Largest number of rows and of columns a board may have. The kernels rely on it: padded cells
#: stay below 2**21 and padded sides below 2**11 (see path.pyx and deal.pyx).
MAX_SIDE = 1024
#: Gravity direction -> the kernels' code.
GRAVITY_CODES = {None: GRAVITY_NONE, "down": GRAVITY_DOWN, "up": GRAVITY_UP,
                 "left": GRAVITY_LEFT, "right": GRAVITY_RIGHT}

# try_remove's refusals, in the order they are checked (the facade words the message).
REMOVE_SAME_CELL = 1
REMOVE_EMPTY = 2        # which endpoint: see try_remove
REMOVE_WALL = 3
REMOVE_TYPES = 4
REMOVE_NO_PATH = 5

# Above this many distinct values (or range of values), dense type ids come from a sort
# instead of a table indexed by value.
cdef enum:
    TABLE_MIN = 1 << 16


FORKED_BUSY = ("this Board was in use by another thread when the process forked, so its state "
               "here may be half-changed: fork before threads use it, send it to the child by "
               "pickling, or use the 'spawn' or 'forkserver' start method")


cdef class GridState:
    """The engine's state of one board. Built and changed only through the facade."""

    def __cinit__(self, *args, **kwargs):
        self.mutex = PyThread_allocate_lock()
        if self.mutex == NULL:
            raise MemoryError("llkcore: cannot allocate a lock")

    def __init__(self, cnp.ndarray board not None, bint border):
        """``board``: a validated C-contiguous int32 (rows, cols) array."""
        cdef int rows = board.shape[0], cols = board.shape[1], r
        cdef const int32_t *src = <const int32_t *>cnp.PyArray_DATA(board)
        self.alloc_shape(rows, cols, border)
        for r in range(rows):
            memcpy(self.g.cells + (r + 1) * self.g.W + 1, src + r * cols, cols * sizeof(int32_t))
        self.build_index()

    def __dealloc__(self):
        if self.mutex != NULL:
            PyThread_free_lock(self.mutex)
        path_work_free(&self.work)
        llk_free(self.shape_mem)
        llk_free(self.types_mem)

    # ---- building ---------------------------------------------------------------------------

    cdef int alloc_shape(self, int rows, int cols, bint border) except -1:
        """Allocate the shape block of a fresh state and write the ring; the caller then writes
        the board's cells (``g.cells``, padded layout) and calls ``build_index``."""
        cdef Grid *g = &self.g
        cdef int H = rows + 2, W = cols + 2, i
        cdef int RW = (W + 63) >> 6, CW = (H + 63) >> 6
        cdef size_t N = <size_t>H * W
        cdef size_t nbits = <size_t>H * RW + <size_t>W * CW
        cdef size_t room = 4 * (<size_t>rows + cols) + 8        # slide_room of this shape
        cdef char *mem = <char *>llk_malloc(nbits * sizeof(uint64_t)
                                            + (3 * N + room) * sizeof(int32_t))
        if mem == NULL:
            raise MemoryError("llkcore: cannot allocate a board")
        self.shape_mem = mem
        self.border = border
        g.rows, g.cols, g.H, g.W, g.RW, g.CW = rows, cols, H, W, RW, CW
        g.rowbits = <uint64_t *>mem
        g.colbits = g.rowbits + <size_t>H * RW
        g.cells = <int32_t *>(g.colbits + <size_t>W * CW)
        g.tid = g.cells + N
        g.slot = g.tid + N
        self.undo_moves = g.slot + N
        cdef int32_t ring = 0 if border else -1
        for i in range(W):
            g.cells[i] = ring
            g.cells[(H - 1) * W + i] = ring
        for i in range(1, H - 1):
            g.cells[i * W] = ring
            g.cells[i * W + W - 1] = ring
        return 0

    cdef int build_index(self) except -1:
        """Type ids, index, slots and occupancy bits from ``g.cells`` (all or nothing)."""
        cdef Grid *g = &self.g
        cdef int N = g.H * g.W, p, r, c, t, ntypes = 0, tiles = 0
        cdef int32_t v, vmin = 0, vmax = 0
        cdef int64_t span
        cdef int32_t *table = NULL
        cdef int32_t *values = NULL
        cdef int32_t *mem
        # Pass 1: how many tiles, and the range of their values.
        for r in range(1, g.H - 1):
            for p in range(r * g.W + 1, r * g.W + g.W - 1):
                v = g.cells[p]
                if v > 0:
                    if tiles == 0 or v < vmin:
                        vmin = v
                    if tiles == 0 or v > vmax:
                        vmax = v
                    tiles += 1
        span = <int64_t>vmax - vmin + 1
        if tiles > 0 and span <= max(<int64_t>TABLE_MIN, <int64_t>N):
            # Dense ids from a table indexed by value (the usual case: small type numbers).
            table = <int32_t *>llk_calloc(<size_t>span, sizeof(int32_t))
            if table == NULL:
                raise MemoryError("llkcore: cannot allocate a board's type index")
            for p in range(N):
                if g.cells[p] > 0:
                    table[g.cells[p] - vmin] = 1
            for p in range(<int>span):
                if table[p]:
                    table[p] = ntypes
                    ntypes += 1
                else:
                    table[p] = -1
        elif tiles > 0:
            # Scattered values: sort them and keep each once.
            values = <int32_t *>llk_malloc(tiles * sizeof(int32_t))
            if values == NULL:
                raise MemoryError("llkcore: cannot allocate a board's type index")
            t = 0
            for p in range(N):
                if g.cells[p] > 0:
                    values[t] = g.cells[p]
                    t += 1
            sort_ints(values, tiles)
            for t in range(tiles):
                if t == 0 or values[t] != values[ntypes - 1]:
                    values[ntypes] = values[t]
                    ntypes += 1
        mem = <int32_t *>llk_malloc((3 * <size_t>ntypes + 1 + tiles) * sizeof(int32_t))
        if mem == NULL:
            llk_free(table)
            llk_free(values)
            raise MemoryError("llkcore: cannot allocate a board's type index")
        llk_free(self.types_mem)
        self.types_mem = mem
        self.pos_cap = tiles
        g.ntypes = ntypes
        g.type_value = mem
        g.offset = mem + ntypes
        g.count = g.offset + ntypes + 1
        g.pos = g.count + ntypes
        # Pass 2: type ids, counts, occupancy bits.
        memset(g.count, 0, ntypes * sizeof(int32_t))
        memset(g.rowbits, 0, (<size_t>g.H * g.RW + <size_t>g.W * g.CW) * sizeof(uint64_t))
        for p in range(N):
            v = g.cells[p]
            g.slot[p] = -1
            if v > 0:
                if table != NULL:
                    t = table[v - vmin]
                else:
                    t = lower_bound(values, ntypes, v)
                g.tid[p] = t
                g.count[t] += 1
            else:
                g.tid[p] = -1
            if v != 0:
                set_blocked(g, p, True)
        if table != NULL:
            for p in range(<int>span):
                if table[p] >= 0:
                    g.type_value[table[p]] = vmin + p
        else:
            memcpy(g.type_value, values, ntypes * sizeof(int32_t))
        llk_free(table)
        llk_free(values)
        # Pass 3: positions grouped by type, each group in row-major order.
        g.offset[0] = 0
        for t in range(ntypes):
            g.offset[t + 1] = g.offset[t] + g.count[t]
            g.count[t] = 0
        for p in range(N):
            t = g.tid[p]
            if t >= 0:
                c = g.offset[t] + g.count[t]
                g.pos[c] = p
                g.slot[p] = c
                g.count[t] += 1
        g.tiles = tiles
        return 0

    cdef void bind_types(self) noexcept:
        """Point the Grid at the types block (after it was copied or swapped in)."""
        cdef Grid *g = &self.g
        g.type_value = self.types_mem
        g.offset = g.type_value + g.ntypes
        g.count = g.offset + g.ntypes + 1
        g.pos = g.count + g.ntypes

    # ---- the mutex --------------------------------------------------------------------------

    def check_usable(self):
        """The RuntimeError every locked call raises on a state a fork left unusable
        (after_fork), for a Board's call that may not lock it (an undo with nothing to undo)."""
        if self.forked_busy:
            raise RuntimeError(FORKED_BUSY)

    cdef int lock(self) except -1:
        cdef PyLockStatus got
        if self.forked_busy:
            raise RuntimeError(FORKED_BUSY)
        if PyThread_acquire_lock(self.mutex, NOWAIT_LOCK):
            return 0
        # Another thread holds this state: wait in slices of SIGNAL_MS, so that Ctrl-C in the
        # main thread stops the wait as it stops a kernel (KeyboardInterrupt, nothing held).
        while True:
            with nogil:
                got = PyThread_acquire_lock_timed(self.mutex, SIGNAL_MS * 1000, 0)
            if got == PY_LOCK_ACQUIRED:
                return 0
            PyErr_CheckSignals()

    def after_fork(self, bint busy):
        """In a child process just forked (the only thread): if this state's mutex was held, by
        a thread of the parent that does not exist here, or if ``busy`` (the Board was in the
        middle of a change), its memory may hold half a change, so every later call on it
        raises RuntimeError instead of waiting forever for the mutex (docs/architecture.md,
        "Threads")."""
        if PyThread_acquire_lock(self.mutex, NOWAIT_LOCK):
            PyThread_release_lock(self.mutex)
        else:
            busy = True
        if busy:
            self.forked_busy = True

    cdef int lock_work(self) except -1:
        self.lock()
        if self.work.seen == NULL and not path_work_alloc(&self.work, self.g.H, self.g.W):
            self.unlock()
            raise MemoryError("llkcore: cannot allocate path-search buffers")
        return 0

    cdef int lock_links(self, int max_turns) except -1:
        """lock() for a kernel whose link tests allow ``max_turns`` turns: with more than two
        they search paths and need the BFS buffers too (lock_work); the run-sweep needs none."""
        if max_turns > 2:
            return self.lock_work()
        return self.lock()

    cdef void unlock(self) noexcept:
        PyThread_release_lock(self.mutex)

    # ---- copies -----------------------------------------------------------------------------

    def copy(self):
        """An independent copy (the BFS buffers are not copied: they are scratch)."""
        cdef GridState other = GridState.__new__(GridState)
        cdef Grid *g = &self.g
        cdef size_t shape_bytes, types_ints
        self.lock()
        try:
            other.alloc_shape(g.rows, g.cols, self.border)
            shape_bytes = ((<size_t>g.H * g.RW + <size_t>g.W * g.CW) * sizeof(uint64_t)
                           + 3 * <size_t>g.H * g.W * sizeof(int32_t))
            types_ints = 3 * <size_t>g.ntypes + 1 + self.pos_cap
            other.types_mem = <int32_t *>llk_malloc(types_ints * sizeof(int32_t))
            if other.types_mem == NULL:
                raise MemoryError("llkcore: cannot allocate a board")
            memcpy(other.shape_mem, self.shape_mem, shape_bytes)
            memcpy(other.types_mem, self.types_mem, types_ints * sizeof(int32_t))
            other.pos_cap = self.pos_cap
            other.g.ntypes = g.ntypes
            other.g.tiles = g.tiles
            other.bind_types()
        finally:
            self.unlock()
        return other

    def load(self, GridState other not None):
        """Take over ``other``'s position (same shape and border; ``other`` is left empty of
        types). The cells block stays where it is, so views of this state stay valid."""
        cdef Grid *g = &self.g
        cdef size_t shape_bytes = ((<size_t>g.H * g.RW + <size_t>g.W * g.CW) * sizeof(uint64_t)
                                   + 3 * <size_t>g.H * g.W * sizeof(int32_t))
        if other.g.H != g.H or other.g.W != g.W or other.border != self.border:
            raise ValueError("load needs a state of the same shape and border")
        self.lock()
        try:
            memcpy(self.shape_mem, other.shape_mem, shape_bytes)
            self.types_mem, other.types_mem = other.types_mem, self.types_mem
            self.pos_cap = other.pos_cap
            g.ntypes = other.g.ntypes
            g.tiles = other.g.tiles
            self.bind_types()
            other.g.ntypes = 0
            other.g.tiles = 0
            self.loads += 1
        finally:
            self.unlock()

    # ---- views for the facade ---------------------------------------------------------------

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
        """The read-only, live ndarray of the user's board (the ring excluded).

        Its memory belongs to this state, which exposes no writable buffer, so numpy refuses to
        make the view writeable: nothing outside the kernels can change a board.
        """
        cdef cnp.npy_intp dims[2]
        cdef cnp.npy_intp strides[2]
        view = None if self.view is None else self.view()
        if view is None:
            dims[0] = self.g.rows
            dims[1] = self.g.cols
            strides[0] = self.g.W * sizeof(int32_t)
            strides[1] = sizeof(int32_t)
            view = cnp.PyArray_New(np.ndarray, 2, dims, cnp.NPY_INT32, strides,
                                   <void *>(self.g.cells + self.g.W + 1), sizeof(int32_t),
                                   cnp.NPY_ARRAY_ALIGNED, None)
            cnp.set_array_base(view, self)
            # Kept by a weak reference: a strong one is a cycle (state -> view -> state) that the
            # collector cannot break (ndarrays are not tracked), so every state whose view was
            # read leaked with all its memory.
            self.view = _weak_ref(view)
        return view

    def value_at(self, int p):
        return self.g.cells[p]

    def type_values(self):
        """User values of the types that still have tiles, ascending."""
        return self.type_counts()[0]

    def type_counts(self):
        """(values, counts) of the types that still have tiles, values ascending."""
        cdef int t
        self.lock()
        try:
            live = [t for t in range(self.g.ntypes) if self.g.count[t] > 0]
            return (np.array([self.g.type_value[t] for t in live], dtype=np.int32),
                    np.array([self.g.count[t] for t in live], dtype=np.int32))
        finally:
            self.unlock()

    def odd_type(self):
        """Whether some type has an odd number of tiles left: then no play clears the board."""
        cdef int t
        self.lock()
        try:
            for t in range(self.g.ntypes):
                if self.g.count[t] % 2:
                    return True
            return False
        finally:
            self.unlock()

    def positions_of(self, int value):
        """Padded positions of the live tiles of a type, in index (slot) order; empty if none."""
        cdef int t, i
        self.lock()
        try:
            t = lower_bound(self.g.type_value, self.g.ntypes, value)
            if self.g.ntypes == 0 or self.g.type_value[t] != value:
                return np.empty(0, dtype=np.int32)
            return np.array([self.g.pos[self.g.offset[t] + i] for i in range(self.g.count[t])],
                            dtype=np.int32)
        finally:
            self.unlock()

    def tile_cells(self):
        """(cells, values): the padded cells of the live tiles, ascending (row by row), and their
        values, as int32 arrays. Read from the index, so it costs the tiles, not the grid (a saved
        reshuffle loaded on a huge sparse board)."""
        cdef Grid *g = &self.g
        cdef int t, i, k = 0
        cdef int32_t[::1] cell_of, value_of
        self.lock()
        try:
            cells = np.empty(g.tiles, dtype=np.int32)
            values = np.empty(g.tiles, dtype=np.int32)
            cell_of, value_of = cells, values
            for t in range(g.ntypes):
                for i in range(g.count[t]):
                    cell_of[k] = g.pos[g.offset[t] + i]
                    value_of[k] = g.type_value[t]
                    k += 1
        finally:
            self.unlock()
        order = np.argsort(cells, kind="stable")
        return cells[order], values[order]

    def index_arrays(self):
        """(type_value, offset, count, pos, slot) copies, for consistency tests."""
        cdef Grid *g = &self.g
        cdef int i
        self.lock()
        try:
            return (np.array([g.type_value[i] for i in range(g.ntypes)], dtype=np.int32),
                    np.array([g.offset[i] for i in range(g.ntypes + 1)], dtype=np.int32),
                    np.array([g.count[i] for i in range(g.ntypes)], dtype=np.int32),
                    np.array([g.pos[i] for i in range(self.pos_cap)], dtype=np.int32),
                    np.array([g.slot[i] for i in range(g.H * g.W)], dtype=np.int32))
        finally:
            self.unlock()

    # ---- changes (inputs validated by the facade) ---------------------------------------------

    def remove_pair(self, int pa, int pb, int gravity, bint keep_moves=True):
        """Remove the tiles at pa and pb, then apply gravity to their lines.

        Returns the gravity moves as an int32 array of (src, dst) rows, in the order applied;
        with ``keep_moves=False`` None, and nothing is allocated (a Board's replays and
        certificate checks: it reads the moves back when it needs them, ``slides``).
        """
        cdef int n
        if not keep_moves:
            self.lock()
            try:
                take_pair(&self.g, pa, pb, gravity, self.undo_moves)
            finally:
                self.unlock()
            return None
        moves = np.empty(slide_room(&self.g), dtype=np.int32)
        self.lock()
        try:
            n = take_pair(&self.g, pa, pb, gravity, <int32_t *>cnp.PyArray_DATA(moves))
        finally:
            self.unlock()
        return moves[:2 * n].reshape(n, 2).copy()

    def try_remove(self, int pa, int pb, int max_turns, int gravity):
        """The checked removal of one move: the rules' tests and the removal in one locked step.

        Returns ``(0, path)`` when removed (path: corner points as in ``path.path``; the gravity
        moves are ``slides`` then), else ``(code, which)``: a REMOVE_* code and, for
        REMOVE_EMPTY / REMOVE_WALL, 0 or 1 for the endpoint concerned. Nothing changes then.
        """
        cdef Grid *g = &self.g
        cdef int n, i, which
        cdef int32_t v
        corners = np.empty(2 * (min(max_turns, 4 * g.H * g.W) + 2), dtype=np.int32)
        cdef int32_t *cbuf = <int32_t *>cnp.PyArray_DATA(corners)
        self.lock_work()
        try:
            if pa == pb:
                return REMOVE_SAME_CELL, 0
            for which in range(2):
                v = g.cells[pa if which == 0 else pb]
                if v == 0:
                    return REMOVE_EMPTY, which
                if v < 0:
                    return REMOVE_WALL, which
            if g.cells[pa] != g.cells[pb]:
                return REMOVE_TYPES, 0
            with nogil:
                n = best_path(g, &self.work, pa, pb, max_turns, cbuf)
                if n >= 0:
                    # (The moves go to the undo buffer, unused: a Board reads them back.)
                    take_pair(g, pa, pb, gravity, self.undo_moves)
            if n < 0:
                return REMOVE_NO_PATH, 0
        finally:
            self.unlock()
        return 0, [(int(cbuf[2 * i]), int(cbuf[2 * i + 1])) for i in range(n)]

    def slides(self, int pa, int pb, int gravity):
        """The gravity moves of the removal of pa and pb that made this position, as
        remove_pair returned them (read back from the position: see gravity.pxd)."""
        moves = np.empty(slide_room(&self.g), dtype=np.int32)
        cdef int n
        self.lock()
        try:
            n = slides_of(&self.g, pa, pb, gravity, <int32_t *>cnp.PyArray_DATA(moves))
        finally:
            self.unlock()
        return moves[:2 * n].reshape(n, 2).copy()

    def put_back(self, int pa, int pb, int value, int gravity):
        """Undo the removal of pa and pb (both of type ``value``) that made this position: its
        gravity moves read back (slides_of), undone, and the two tiles put back. Boards undo
        with this, keeping no record of the moves; it allocates nothing, so it cannot fail
        half-way (a certificate's replay is taken back with it)."""
        cdef int n
        self.lock()
        try:
            n = slides_of(&self.g, pa, pb, gravity, self.undo_moves)
            put_pair(&self.g, pa, pb, self.dense(value), self.dense(value), self.undo_moves, n)
        finally:
            self.unlock()

    def compact(self, int gravity):
        """Apply gravity to every line (a board built with gravity starts compacted)."""
        moves = np.empty(2 * self.g.rows * self.g.cols + 8, dtype=np.int32)
        self.lock()
        try:
            return compact_all(&self.g, gravity, <int32_t *>cnp.PyArray_DATA(moves))
        finally:
            self.unlock()

    cdef int dense(self, int value) noexcept:
        """Dense id of a type value present on the board at construction."""
        return lower_bound(self.g.type_value, self.g.ntypes, value)

    def retype(self, cnp.ndarray positions, cnp.ndarray values):
        """Give the live tiles at ``positions`` the new ``values`` (a permutation of their old
        multiset: reshuffles). Rebuilds the slots of the affected types."""
        ps = np.ascontiguousarray(positions, dtype=np.int32)
        vs = np.ascontiguousarray(values, dtype=np.int32)
        cdef const int32_t *p = <const int32_t *>cnp.PyArray_DATA(ps)
        cdef const int32_t *v = <const int32_t *>cnp.PyArray_DATA(vs)
        cdef Py_ssize_t i, n = ps.shape[0]
        self.lock()
        try:
            for i in range(n):
                take_tile(&self.g, p[i])
            for i in range(n):
                put_tile(&self.g, p[i], self.dense(v[i]))
        finally:
            self.unlock()


def move_points(cnp.ndarray cells, int width, Py_ssize_t start, Py_ssize_t stop,
                cnp.ndarray turns=None):
    """Rows start:stop of a C-contiguous (k, 2) int32 array of padded cells (of a board
    ``width`` wide, borders included) as [((r1, c1), (r2, c2)), ...], or with ``turns`` (a
    C-contiguous (k,) int32 array) as [((r1, c1), (r2, c2), turns), ...]: the objects are
    made here, where numpy's divmod and tolist cost a quarter of a whole 6x6 solve."""
    cdef const int32_t *c = <const int32_t *>cnp.PyArray_DATA(cells)
    cdef const int32_t *t = NULL
    cdef Py_ssize_t i
    cdef int a, b
    cdef tuple first, second, move
    if turns is not None:
        t = <const int32_t *>cnp.PyArray_DATA(turns)
    moves = []
    for i in range(start, stop):
        a = c[2 * i] - width - 1
        b = c[2 * i + 1] - width - 1
        first = (a // width, a % width)
        second = (b // width, b % width)
        move = (first, second) if t == NULL else (first, second, t[i])
        # Tuples of ints (and of such tuples) cannot be in a reference cycle, and the cycle
        # collector untracks them when it first meets them; untracked here, its passes never
        # walk them: a million moves made while tracked cost full passes over millions of
        # objects, with the GIL held, as the list grew.
        PyObject_GC_UnTrack(<void *>first)
        PyObject_GC_UnTrack(<void *>second)
        PyObject_GC_UnTrack(<void *>move)
        moves.append(move)
    return moves
