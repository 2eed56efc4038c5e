# cython: language_level=3
"""User grids read in place: the compiled half of the facade's checks on boards.

A module call such as ``llk.can_link(grid, a, b)`` on a bot's own list of lists must not pay for
a whole Board. ``GridReader`` checks the grid's structure (2-D, not empty, not ragged, sides at
most MAX_SIDE, an integer dtype, no mask) when it is made, and then reads only the cells a query
needs, checking each value it reads (an int that fits in int32, not a bool). A link test or a path
up to two turns reads its two endpoints, the four lines through them and, of the crossing lines
that the run-sweep (sweep.pxd) looks at, the part between the two points; everything else (more
turns, gravity, every pair) reads the whole grid once, in C. ``state`` converts the whole grid into a GridState for a Board.

Lists and tuples of lists and tuples are read through the C API without copying; any other
iterable of rows is first made into an array. docs/architecture.md ("Input checks") lists what
each call checks.
"""
cimport numpy as cnp
from cpython.exc cimport PyErr_CheckSignals
from cpython.object cimport PyObject
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

from .alloc cimport llk_calloc, llk_free, llk_malloc
from .grid cimport Grid
from .sweep cimport link_sweep, middle_clear, run_overlap, swept_path
from .path cimport PathWork, best_path, path_search, path_work_alloc, path_work_free
from .state cimport GridState

import itertools
import operator

import numpy as np

from ..checks import LABELS_HINT, board_dtype, point as check_point, shown
from ..errors import BoardError
from .state import MAX_SIDE

cnp.import_array()

cdef extern from "Python.h":
    # Borrowed references, no checks: the reader checks sizes itself before every access.
    bint PyList_Check(object o)
    bint PyTuple_Check(object o)
    Py_ssize_t PyList_GET_SIZE(object o)
    Py_ssize_t PyTuple_GET_SIZE(object o)
    PyObject *PyList_GET_ITEM(object o, Py_ssize_t i)
    PyObject *PyTuple_GET_ITEM(object o, Py_ssize_t i)
    bint PyLong_CheckExact(PyObject *o)
    long long PyLong_AsLongLongAndOverflow(PyObject *o, int *overflow)

cdef enum:
    SRC_SEQUENCE = 0        # a list or tuple of lists or tuples
    SRC_ARRAY = 1           # a 2-D integer ndarray, any order and strides

cdef int64_t INT32_MIN_ = -(1 << 31)
cdef int64_t INT32_MAX_ = (1 << 31) - 1


cdef inline bint is_seq(object o) noexcept:
    """A list or a tuple (or a subclass): what is read through the C API."""
    return PyList_Check(o) or PyTuple_Check(o)


cdef inline Py_ssize_t seq_size(object o) noexcept:
    return PyList_GET_SIZE(o) if PyList_Check(o) else PyTuple_GET_SIZE(o)


cdef inline PyObject *seq_item(object o, Py_ssize_t i) noexcept:
    return PyList_GET_ITEM(o, i) if PyList_Check(o) else PyTuple_GET_ITEM(o, i)


cdef inline bint plain_index(PyObject *value, int bound, long long *out) noexcept:
    """Is value an int of Python's own (not a bool, not a subclass) in [0, bound)? Into out."""
    cdef int overflow = 0
    if not PyLong_CheckExact(value):
        return False
    out[0] = PyLong_AsLongLongAndOverflow(value, &overflow)
    return not overflow and 0 <= out[0] < bound


cdef inline bint plain_point(object p, int rows, int cols, long long *out) noexcept:
    """Is p a list or tuple of two plain_index values on a rows x cols board? Into out[0:2]."""
    return (is_seq(p) and seq_size(p) == 2 and plain_index(seq_item(p, 0), rows, out)
            and plain_index(seq_item(p, 1), cols, out + 1))


cdef int refuse(object value, int r, int c) except -1:
    """Raise the BoardError for the refused cell ``value`` at (r, c)."""
    if isinstance(value, (bool, np.bool_)):
        raise BoardError(f"board values must be ints, got a bool at {(r, c)}")
    if isinstance(value, (int, np.integer)):
        raise BoardError(f"board values must fit in int32, got {shown(int(value))} at {(r, c)}")
    if isinstance(value, (list, tuple, np.ndarray)):
        raise BoardError(f"board values must be ints, got a {type(value).__name__} at {(r, c)} "
                         "(a board is a 2-D grid of ints)")
    raise BoardError(f"board values must be ints, got {shown(value, typed=True)} at {(r, c)}"
                     + (f" ({LABELS_HINT})" if value is None or isinstance(value, (str, bytes))
                        else ""))


cdef struct Lines:
    # The lines of a grid read so far for one query (GridReader.open_lines).
    Grid g                  # the occupancy bits of the lines read (all ones where not read)
    int32_t *line           # scratch: one line's values
    uint8_t *done           # one flag per padded row, then per padded column: read
    bint border


cdef inline void crossing_ranges(const Grid *g, int pa, int pb, int *rows_lo, int *rows_hi,
                                int *cols_lo, int *cols_hi) noexcept nogil:
    """The crossing lines a path of two turns between padded cells pa and pb may run its middle
    on: the rows in both empty runs of their columns, the columns in both runs of their rows
    (run_overlap; lo > hi when there are none). Reads the four lines through pa and pb."""
    cdef int ra = pa // g.W, ca = pa % g.W, rb = pb // g.W, cb = pb % g.W
    run_overlap(g.colbits + ca * g.CW, g.colbits + cb * g.CW, ra, rb, g.H, rows_lo, rows_hi)
    run_overlap(g.rowbits + ra * g.RW, g.rowbits + rb * g.RW, ca, cb, g.W, cols_lo, cols_hi)


cdef class GridReader:
    """A user's grid (list of lists, tuple, ndarray, any iterable of rows), checked for shape,
    read cell by cell as queries need. Keeps a reference to the grid; copies nothing."""

    cdef readonly int rows, cols
    cdef int kind
    cdef object grid                # the sequence of rows, or the ndarray
    cdef char *data                 # SRC_ARRAY: first cell, strides in bytes, element code
    cdef Py_ssize_t rs, cs
    cdef int code                   # 1 int8, 2 uint8, 3 int16, 4 uint16, 5 int32, 6 uint32, 7 int64, 8 uint64

    def __cinit__(self, grid):
        cdef Py_ssize_t r, n, width = 0
        if type(grid) is np.ndarray and self.plain_array(grid):
            return
        if cnp.PyArray_Check(grid):
            # The C-level check: isinstance would believe an object whose __class__ claims ndarray.
            self._use_array(grid)
            return
        if isinstance(grid, (str, bytes, bytearray)) or not hasattr(grid, "__iter__"):
            raise BoardError(f"a board must be a 2-D grid of ints, got {type(grid).__name__}")
        if not is_seq(grid):
            if _array_like(grid):
                self._use_array(_as_array(grid))
                return
            if isinstance(grid, UNORDERED):
                raise BoardError(f"a board's rows must come in order: got a {type(grid).__name__} "
                                 "(pass a list of rows)")
            # At most one row too many, so that an endless iterable is refused, not read forever.
            grid = list(itertools.islice(grid, MAX_SIDE + 1))
            if len(grid) > MAX_SIDE:
                raise BoardError(f"a board may have at most {MAX_SIDE} rows, got an iterable of more")
        n = seq_size(grid)
        if n == 0:
            raise BoardError("a board must have at least one row")
        for r in range(n):
            row = <object>seq_item(grid, r)
            if not is_seq(row):
                # Rows that are arrays, ranges or other sequences: read the grid as an array.
                self._use_array(_generic_array(grid))
                return
            if r == 0:
                width = seq_size(row)
            elif seq_size(row) != width:
                raise BoardError(f"ragged board: row {r} has {seq_size(row)} values, row 0 has "
                                 f"{width}")
        if width == 0:
            raise BoardError(f"a board must not be empty, got shape ({n}, 0)")
        if n > MAX_SIDE or width > MAX_SIDE:
            raise BoardError(f"a board may have at most {MAX_SIDE} rows and {MAX_SIDE} columns, "
                             f"got ({n}, {width})")
        self.kind = SRC_SEQUENCE
        self.grid = grid
        self.rows = <int>n
        self.cols = <int>width

    cdef bint plain_array(self, cnp.ndarray arr) except -1:
        """The fast check of a plain 2-D integer ndarray in native byte order (a bot's usual
        input, once per query); False sends anything else to the full check."""
        cdef int typenum = cnp.PyArray_TYPE(arr), signed
        cdef cnp.npy_intp *dims = cnp.PyArray_DIMS(arr)
        cdef Py_ssize_t size = cnp.PyArray_ITEMSIZE(arr)
        if (cnp.PyArray_NDIM(arr) != 2 or dims[0] == 0 or dims[1] == 0 or dims[0] > MAX_SIDE
                or dims[1] > MAX_SIDE or not cnp.PyArray_ISNOTSWAPPED(arr)):
            return False
        if typenum in (cnp.NPY_BYTE, cnp.NPY_SHORT, cnp.NPY_INT, cnp.NPY_LONG, cnp.NPY_LONGLONG):
            signed = 1
        elif typenum in (cnp.NPY_UBYTE, cnp.NPY_USHORT, cnp.NPY_UINT, cnp.NPY_ULONG,
                         cnp.NPY_ULONGLONG):
            signed = 0
        else:
            return False
        if size not in (1, 2, 4, 8):
            return False
        self.kind = SRC_ARRAY
        self.grid = arr
        self.rows = <int>dims[0]
        self.cols = <int>dims[1]
        self.data = <char *>cnp.PyArray_DATA(arr)
        self.rs = cnp.PyArray_STRIDES(arr)[0]
        self.cs = cnp.PyArray_STRIDES(arr)[1]
        self.code = (1 if size == 1 else 3 if size == 2 else 5 if size == 4 else 7) + (1 - signed)
        return True

    def _use_array(self, arr):
        if isinstance(arr, np.ma.MaskedArray):
            raise BoardError("a masked array is not a board: fill the masked cells first "
                             "(e.g. grid.filled(0)) or pass grid.data")
        if type(arr) is not np.ndarray:
            # A subclass may override shape, strides or dtype; the cells are read through the
            # pointer below, so take numpy's own view of the memory (C-level, no copy).
            arr = np.asarray(arr)
        if arr.ndim != 2:
            raise BoardError(f"a board must be 2-D, got {arr.ndim} dimension(s)")
        if arr.shape[0] == 0 or arr.shape[1] == 0:
            raise BoardError(f"a board must not be empty, got shape {arr.shape}")
        dtype = board_dtype(arr.dtype)
        if arr.shape[0] > MAX_SIDE or arr.shape[1] > MAX_SIDE:
            raise BoardError(f"a board may have at most {MAX_SIDE} rows and {MAX_SIDE} columns, "
                             f"got {arr.shape}")
        if not dtype.isnative:
            arr = arr.astype(dtype.newbyteorder("="))
        self.kind = SRC_ARRAY
        self.grid = arr
        self.rows = arr.shape[0]
        self.cols = arr.shape[1]
        self.data = <char *>cnp.PyArray_DATA(arr)
        self.rs = arr.strides[0]
        self.cs = arr.strides[1]
        self.code = {1: 1, 2: 3, 4: 5, 8: 7}[arr.dtype.itemsize] + (arr.dtype.kind == "u")

    # ---- reading cells ------------------------------------------------------------------------

    cdef int bad_value(self, int r, int c) except -1:
        """Raise the BoardError for the refused value at (r, c)."""
        return refuse(self.grid[r, c] if self.kind == SRC_ARRAY else self.grid[r][c], r, c)

    cdef int32_t slow_value(self, object item, int r, int c) except? -1:
        """A cell that is not a plain int: int subclasses (an IntEnum) and numpy integer scalars
        are ints, read through __index__ as checks.integer reads them; bools are not."""
        cdef object v
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, (int, np.integer)):
            refuse(item, r, c)
        v = operator.index(item)
        if v < INT32_MIN_ or v > INT32_MAX_:
            refuse(item, r, c)
        return <int32_t>v

    cdef int read_line(self, int r, int c, int dr, int dc, int n, int32_t *out) except -1:
        """Read n cells from (r, c) in steps of (dr, dc) into out, checking each value."""
        cdef int i, overflow
        cdef int64_t v
        cdef char *p
        cdef Py_ssize_t step
        cdef PyObject *item
        cdef object value
        if self.kind == SRC_ARRAY:
            p = self.data + r * self.rs + c * self.cs
            step = dr * self.rs + dc * self.cs
            for i in range(n):
                if self.code == 1:
                    v = (<int8_t *>p)[0]
                elif self.code == 2:
                    v = (<uint8_t *>p)[0]
                elif self.code == 3:
                    v = (<int16_t *>p)[0]
                elif self.code == 4:
                    v = (<uint16_t *>p)[0]
                elif self.code == 5:
                    v = (<int32_t *>p)[0]
                elif self.code == 6:
                    v = (<uint32_t *>p)[0]
                elif self.code == 7:
                    v = (<int64_t *>p)[0]
                else:
                    v = INT32_MAX_ + 1 if (<uint64_t *>p)[0] > <uint64_t>INT32_MAX_ else <int64_t>(<uint64_t *>p)[0]
                if v < INT32_MIN_ or v > INT32_MAX_:
                    self.bad_value(r + i * dr, c + i * dc)
                out[i] = <int32_t>v
                p += step
            return 0
        grid = self.grid
        row = None
        for i in range(n):
            if i == 0 or dr != 0:
                # Sizes are checked at every row: a cell's __index__ could have changed the grid.
                if seq_size(grid) != self.rows:
                    raise BoardError("the grid changed while it was being read")
                row = <object>seq_item(grid, r + i * dr)
                if not is_seq(row) or seq_size(row) != self.cols:
                    raise BoardError("the grid changed while it was being read")
            item = seq_item(row, c + i * dc)
            if PyLong_CheckExact(item):
                v = PyLong_AsLongLongAndOverflow(item, &overflow)
                if overflow or v < INT32_MIN_ or v > INT32_MAX_:
                    self.bad_value(r + i * dr, c + i * dc)
                out[i] = <int32_t>v
            else:
                # Our own reference: the cell's code (__class__, __int__, ...) may drop it from
                # the row, and may shrink the row under the loop.
                value = <object>item
                out[i] = self.slow_value(value, r + i * dr, c + i * dc)
                if seq_size(row) != self.cols:
                    raise BoardError("the grid changed while it was being read")
        return 0

    cdef int32_t cell(self, int r, int c) except? -1:
        cdef int32_t v
        self.read_line(r, c, 0, 1, 1, &v)
        return v

    # ---- whole grids --------------------------------------------------------------------------

    cdef int fill_cells(self, int32_t *cells) except -1:
        """Write every cell into the padded layout ``cells`` (row r at (r + 1) * W + 1)."""
        cdef int r, W = self.cols + 2
        for r in range(self.rows):
            self.read_line(r, 0, 0, 1, self.cols, cells + (r + 1) * W + 1)
        return 0

    def state(self, bint border):
        """The whole grid as a new GridState (every cell checked)."""
        cdef GridState s = GridState.__new__(GridState)
        s.alloc_shape(self.rows, self.cols, border)
        self.fill_cells(s.g.cells)
        s.build_index()
        return s

    def values(self):
        """The whole grid as a new C-contiguous int32 array (every cell checked)."""
        out = np.empty((self.rows, self.cols), dtype=np.int32)
        cdef int32_t *p = <int32_t *>cnp.PyArray_DATA(out)
        cdef int r
        for r in range(self.rows):
            self.read_line(r, 0, 0, 1, self.cols, p + r * self.cols)
        return out

    # ---- queries ------------------------------------------------------------------------------

    cdef int take_points(self, a, b, int *out) except -1:
        """The points a and b as (ra, ca, rb, cb) into out: a list or tuple of two ints of
        Python's own on the grid is read here (the two checks in Python cost as much as a link
        test), anything else by the facade's point check, which says what is wrong."""
        cdef long long v[4]
        cdef int i
        if plain_point(a, self.rows, self.cols, v) and plain_point(b, self.rows, self.cols, v + 2):
            for i in range(4):
                out[i] = <int>v[i]
            return 0
        out[0], out[1] = check_point(a, self.rows, self.cols)
        out[2], out[3] = check_point(b, self.rows, self.cols)
        return 0

    def link(self, a, b, int max_turns, bint border):
        """Can the tiles at points a and b be removed together?"""
        cdef int p[4]
        self.take_points(a, b, p)
        cdef int ra = p[0], ca = p[1], rb = p[2], cb = p[3]
        cdef int32_t va = self.cell(ra, ca), vb = self.cell(rb, cb)
        if (ra == rb and ca == cb) or va <= 0 or va != vb:
            return False
        if max_turns > 2:
            return self.search_path(ra, ca, rb, cb, max_turns, border, NULL) >= 0
        return self.sweep(ra, ca, rb, cb, max_turns, border)

    def path(self, a, b, int max_turns, bint border):
        """Corner points of the best path between points a and b (as link.path), or None."""
        cdef int p[4]
        self.take_points(a, b, p)
        cdef int ra = p[0], ca = p[1], rb = p[2], cb = p[3]
        cdef int32_t va = self.cell(ra, ca), vb = self.cell(rb, cb)
        cdef int n, i
        if (ra == rb and ca == cb) or va <= 0 or va != vb:
            return None
        corners = np.empty(2 * (min(max_turns, 4 * (self.rows + 2) * (self.cols + 2)) + 2),
                           dtype=np.int32)
        cdef int32_t *buf = <int32_t *>cnp.PyArray_DATA(corners)
        if max_turns > 2:
            n = self.search_path(ra, ca, rb, cb, max_turns, border, buf)
        else:
            n = self.sweep_path(ra, ca, rb, cb, max_turns, border, buf)
        if n < 0:
            return None
        return [(int(buf[2 * i]), int(buf[2 * i + 1])) for i in range(n)]

    cdef int search_path(self, int ra, int ca, int rb, int cb, int max_turns, bint border,
                         int32_t *corners) except -2:
        """Above two turns, the BFS on the whole grid (read once): -1 if no path, else the
        number of corners written to ``corners`` (0 when corners is NULL)."""
        cdef Grid g
        cdef PathWork w
        cdef int H = self.rows + 2, W = self.cols + 2, i, n = -1
        memset(&g, 0, sizeof(Grid))
        memset(&w, 0, sizeof(PathWork))
        g.rows, g.cols, g.H, g.W = self.rows, self.cols, H, W
        g.cells = <int32_t *>llk_malloc(<size_t>H * W * sizeof(int32_t))
        if g.cells == NULL or not path_work_alloc(&w, H, W):
            llk_free(g.cells)
            raise MemoryError("llkcore: cannot allocate path-search buffers")
        try:
            for i in range(W):
                g.cells[i] = g.cells[(H - 1) * W + i] = 0 if border else -1
            for i in range(1, H - 1):
                g.cells[i * W] = g.cells[i * W + W - 1] = 0 if border else -1
            self.fill_cells(g.cells)
            with nogil:
                if corners == NULL:
                    n = 0 if path_search(&g, &w, (ra + 1) * W + ca + 1, (rb + 1) * W + cb + 1,
                                         max_turns) >= 0 else -1
                else:
                    n = best_path(&g, &w, (ra + 1) * W + ca + 1, (rb + 1) * W + cb + 1,
                                  max_turns, corners)
        finally:
            llk_free(g.cells)
            path_work_free(&w)
        return n

    cdef char *open_lines(self, Lines *L, int ra, int ca, int rb, int cb, bint border) except NULL:
        """Set up ``L`` for a query between (ra, ca) and (rb, cb): occupancy bits all ones (no
        line read yet), then the four lines through the two points read. Returns the one block
        that holds it all, for llk_free."""
        cdef Grid *g = &L.g
        cdef int H = self.rows + 2, W = self.cols + 2
        cdef int RW = (W + 63) >> 6, CW = (H + 63) >> 6
        cdef size_t nbits = <size_t>H * RW + <size_t>W * CW
        # The bits first, for their 8-byte alignment; then a line of scratch and a done flag
        # per row and per column.
        cdef char *mem = <char *>llk_calloc(nbits * sizeof(uint64_t)
                                            + (H + W) * sizeof(int32_t) + H + W, 1)
        if mem == NULL:
            raise MemoryError("llkcore: cannot allocate a query's lines")
        memset(L, 0, sizeof(Lines))
        g.rows, g.cols, g.H, g.W, g.RW, g.CW = self.rows, self.cols, H, W, RW, CW
        g.rowbits = <uint64_t *>mem
        g.colbits = g.rowbits + <size_t>H * RW
        memset(g.rowbits, 0xFF, nbits * sizeof(uint64_t))
        L.line = <int32_t *>(g.colbits + <size_t>W * CW)
        L.done = <uint8_t *>(L.line + H + W)     # rows 0..H-1, then columns
        L.border = border
        try:
            self.fill(L, ca + 1, False, 0, H - 1)
            self.fill(L, cb + 1, False, 0, H - 1)
            self.fill(L, ra + 1, True, 0, W - 1)
            self.fill(L, rb + 1, True, 0, W - 1)
        except BaseException:
            llk_free(mem)
            raise
        return mem

    cdef bint sweep(self, int ra, int ca, int rb, int cb, int max_turns, bint border) except -1:
        """The run-sweep (sweep.pxd) on occupancy bits filled only for the lines it reads.

        A line not yet read is all ones (occupied): the sweep then finds no path through it, so
        a "linked" is final while only some crossing lines are read. They are read in batches
        that double, in the order the sweep tries them (docs/architecture.md, "The link test"):
        on a sparse board the first clear crossing line ends the test, where reading every
        line of the runs' overlap first cost milliseconds at 1000 x 1000."""
        cdef Lines L
        cdef char *mem = self.open_lines(&L, ra, ca, rb, cb, border)
        cdef Grid *g = &L.g
        cdef int m, batch = 8, rows_lo, rows_hi, cols_lo, cols_hi
        cdef int pa = (ra + 1) * g.W + ca + 1, pb = (rb + 1) * g.W + cb + 1
        cdef int r_near = min(ra, rb) + 1, r_far = max(ra, rb) + 1
        cdef int c_near = min(ca, cb) + 1, c_far = max(ca, cb) + 1
        cdef bint linked
        try:
            linked = link_sweep(g, pa, pb, max_turns)
            # The crossing lines each half of the sweep may test: rows, then columns.
            crossing_ranges(g, pa, pb, &rows_lo, &rows_hi, &cols_lo, &cols_hi)
            while not linked and (rows_lo <= rows_hi or cols_lo <= cols_hi):
                for m in range(rows_lo, min(rows_lo + batch, rows_hi + 1)):
                    self.fill(&L, m, True, c_near + 1, c_far - 1)
                for m in range(cols_lo, min(cols_lo + batch, cols_hi + 1)):
                    self.fill(&L, m, False, r_near + 1, r_far - 1)
                rows_lo += batch
                cols_lo += batch
                batch *= 2
                linked = link_sweep(g, pa, pb, max_turns)
        finally:
            llk_free(mem)
        return linked

    cdef int sweep_path(self, int ra, int ca, int rb, int cb, int max_turns, bint border,
                        int32_t *corners) except -2:
        """The best path up to two turns (swept_path, sweep.pxd) on occupancy bits filled only
        for the lines a best path can use: -1 if no path, else the number of corners written.

        A path of at most one turn runs on the four lines through the two points. A two-turn
        path's middle runs on a crossing line inside the runs' overlap, and is longer by two
        for each line it lies beyond the points' span; so the crossing lines are read outward
        from the span, one distance at a time, until one of them has a clear middle (each line
        tested alone when read: the sweep of every line read, at each distance, cost
        milliseconds across a 1024 x 1024 maze). Every best path (fewest turns, then shortest)
        then lies on lines read, so the unread ones (all ones: occupied) change nothing."""
        cdef Lines L
        cdef char *mem = self.open_lines(&L, ra, ca, rb, cb, border)
        cdef Grid *g = &L.g
        cdef int pa = (ra + 1) * g.W + ca + 1, pb = (rb + 1) * g.W + cb + 1
        cdef int rows_lo, rows_hi, cols_lo, cols_hi, m, d = 0, n
        cdef int r_near = min(ra, rb) + 1, r_far = max(ra, rb) + 1
        cdef int c_near = min(ca, cb) + 1, c_far = max(ca, cb) + 1
        # The run-sweep's two halves: the lines through a and b and the crossing lines.
        cdef const uint64_t *cols_a = g.colbits + (ca + 1) * g.CW
        cdef const uint64_t *cols_b = g.colbits + (cb + 1) * g.CW
        cdef const uint64_t *rows_a = g.rowbits + (ra + 1) * g.RW
        cdef const uint64_t *rows_b = g.rowbits + (rb + 1) * g.RW
        cdef bint found
        try:
            if max_turns == 2 and not link_sweep(g, pa, pb, 1):
                # Inside the span every crossing line gives the least length.
                crossing_ranges(g, pa, pb, &rows_lo, &rows_hi, &cols_lo, &cols_hi)
                for m in range(max(rows_lo, r_near), min(rows_hi, r_far) + 1):
                    self.fill(&L, m, True, c_near + 1, c_far - 1)
                for m in range(max(cols_lo, c_near), min(cols_hi, c_far) + 1):
                    self.fill(&L, m, False, r_near + 1, r_far - 1)
                found = link_sweep(g, pa, pb, 2)
                while not found and (r_near - d > rows_lo or r_far + d < rows_hi
                                     or c_near - d > cols_lo or c_far + d < cols_hi):
                    d += 1
                    for m in (r_near - d, r_far + d):
                        if rows_lo <= m <= rows_hi:
                            self.fill(&L, m, True, c_near + 1, c_far - 1)
                            found |= middle_clear(cols_a, cols_b, ra + 1, rb + 1, g.H,
                                                  g.rowbits, g.RW, ca + 1, cb + 1, m)
                    for m in (c_near - d, c_far + d):
                        if cols_lo <= m <= cols_hi:
                            self.fill(&L, m, False, r_near + 1, r_far - 1)
                            found |= middle_clear(rows_a, rows_b, ca + 1, cb + 1, g.W,
                                                  g.colbits, g.CW, ra + 1, rb + 1, m)
            n = swept_path(g, pa, pb, max_turns, corners)
        finally:
            llk_free(mem)
        return n

    cdef int fill(self, Lines *L, int k, bint row, int lo, int hi) except -1:
        """Set the occupancy bits of cells lo..hi (padded indices) of padded row (or column) k,
        reading them once; the line's other cells stay unread (ones: occupied). A crossing
        line is read only between the two points: a path's middle uses no other cell of it."""
        cdef Grid *g = &L.g
        cdef uint64_t *bits
        cdef int n, i, last, first, count
        cdef bint ring_line
        if L.done[k if row else g.H + k]:
            return 0
        L.done[k if row else g.H + k] = 1
        if row:
            bits, n, last = g.rowbits + k * g.RW, g.W, g.H - 1
        else:
            bits, n, last = g.colbits + k * g.CW, g.H, g.W - 1
        ring_line = k == 0 or k == last
        for i in range(lo, hi + 1):
            # The ring's cells are empty with the border on, a wall without it.
            if L.border or not (ring_line or i == 0 or i == n - 1):
                bits[i >> 6] &= ~((<uint64_t>1) << (i & 63))
        first = max(lo, 1)
        count = min(hi, n - 2) - first + 1
        if ring_line or count <= 0:
            return 0
        if row:
            self.read_line(k - 1, first - 1, 0, 1, count, L.line)
        else:
            self.read_line(first - 1, k - 1, 1, 0, count, L.line)
        for i in range(count):
            if L.line[i] != 0:
                bits[(first + i) >> 6] |= (<uint64_t>1) << ((first + i) & 63)
        return 0


# Containers whose order is not the user's: a grid or a row of one would be read scrambled.
UNORDERED = (set, frozenset, dict, type({}.keys()), type({}.values()), type({}.items()))


ctypedef fused point_int:
    int32_t
    int64_t


def point_cells(const point_int[:, ::1] points, int rows, int cols, int width):
    """Rows of (r1, c1, r2, c2, ...) points (a C-contiguous (k, 2m) int32 or int64 array) as a
    (k, m) int32 array of padded cells of a board ``rows`` x ``cols`` (``width`` wide, borders
    included), and -1; or None and the first row with a point off the board. One pass without
    the GIL: numpy's masks and arithmetic took 1.2-2.4 s for 20 million link queries, more than
    the link tests, and 45 us for one."""
    cdef Py_ssize_t k = points.shape[0], m = points.shape[1] // 2, i, j, bad = -1
    cdef int64_t r, c
    cells = np.empty((k, m), dtype=np.int32)
    cdef int32_t *out = <int32_t *>cnp.PyArray_DATA(cells)
    with nogil:
        for i in range(k):
            for j in range(m):
                r = points[i, 2 * j]
                c = points[i, 2 * j + 1]
                if r < 0 or r >= rows or c < 0 or c >= cols:
                    bad = i
                    break
                out[i * m + j] = <int32_t>((r + 1) * width + c + 1)
            if bad >= 0:
                break
    return (None, bad) if bad >= 0 else (cells, -1)


def row_point_cells(rows_of_points, int m, int rows, int cols, int width):
    """``point_cells`` of a list or tuple of lists or tuples of 2m ints (Python's own ints,
    not bools), read through the C API; None for anything else (a row of another length or
    kind, another value, a point off the board), which the facade's general reading then
    names. Its checks in Python cost 6 us a query (a bot's 200 link queries: 1.3 ms)."""
    cdef Py_ssize_t k, i, j
    cdef PyObject *row
    cdef long long r, c
    if not is_seq(rows_of_points):
        return None
    k = seq_size(rows_of_points)
    cells = np.empty((k, m), dtype=np.int32)
    cdef int32_t *out = <int32_t *>cnp.PyArray_DATA(cells)
    for i in range(k):
        if i % (1 << 20) == 0:
            PyErr_CheckSignals()            # (a list of millions of rows: Ctrl-C lands)
            if seq_size(rows_of_points) != k:
                return None                 # (a handler changed the list: read it again)
        row = seq_item(rows_of_points, i)
        if not is_seq(<object>row) or seq_size(<object>row) != 2 * m:
            return None
        for j in range(m):
            if not (plain_index(seq_item(<object>row, 2 * j), rows, &r)
                    and plain_index(seq_item(<object>row, 2 * j + 1), cols, &c)):
                return None
            out[i * m + j] = <int32_t>((r + 1) * width + c + 1)
    return cells


def _array_like(grid):
    """A grid that is not a list or tuple but that numpy reads as an array as a whole: a
    memoryview, a dask or xarray array, a DataFrame (whose iteration yields column labels, not
    rows), a tensor. Its rows are then not read one by one."""
    return (isinstance(grid, memoryview) or hasattr(grid, "__array__")
            or hasattr(grid, "__array_interface__"))


def _as_array(grid):
    """np.asarray of an array-like grid, its failures as BoardError."""
    try:
        return np.asarray(grid)
    except (ValueError, TypeError, OverflowError, NotImplementedError, BufferError) as exc:
        raise BoardError(f"a board must be a 2-D grid of ints; numpy cannot read this "
                         f"{type(grid).__name__}: {exc}") from None


def _first_bad_cell(rows):
    """The first cell of ``rows`` (row by row) that is not an int fitting in int32, as (value,
    r, c), or None: what a refused mixed grid names, where numpy's promotion would not."""
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if (isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer))
                    or not INT32_MIN_ <= value <= INT32_MAX_):
                return value, r, c
    return None


def _generic_array(rows):
    """A list of rows that are not all lists or tuples (arrays, ranges, ...), as an ndarray;
    BoardError for anything that is not a rectangular grid of ints.

    Every size is checked before anything is read: a row may be a range or a broadcast view of
    10**12 cells (it was read, or copied, in full before the caller's size check)."""
    if len(rows) > MAX_SIDE:
        raise BoardError(f"a board may have at most {MAX_SIDE} rows, got {len(rows)}")
    cdef Py_ssize_t width = -1, length, count
    for r, row in enumerate(rows):
        if isinstance(row, np.ma.MaskedArray):
            raise BoardError("a masked array is not a board row: fill the masked cells first")
        if isinstance(row, (str, bytes, bytearray)) or not hasattr(row, "__len__"):
            raise BoardError(f"each row of a board must be a sequence of ints, got "
                             f"{type(row).__name__}" + (" (text and bytes are not read as rows)"
                                                        if isinstance(row, (str, bytes, bytearray))
                                                        else ""))
        if isinstance(row, UNORDERED):
            raise BoardError(f"each row of a board must be in order: got a {type(row).__name__} "
                             f"at row {r}")
        if isinstance(row, np.ndarray) and row.ndim != 1:
            raise BoardError(f"a board must be 2-D, got a row of shape {row.shape}")
        try:
            length = len(row)
        except (TypeError, ValueError, OverflowError) as exc:
            raise BoardError(f"row {r} of the board has no length: {exc}") from None
        if length > MAX_SIDE:
            raise BoardError(f"a board may have at most {MAX_SIDE} columns, got a row of {length}")
        if width < 0:
            width = length
        elif length != width:
            raise BoardError(f"ragged board: row {r} has {length} values, row 0 has {width}")
        if not isinstance(row, np.ndarray):
            count = 0
            # (At most one value past its length: a row whose iterator never ends is refused.)
            for c, value in enumerate(itertools.islice(row, length + 1)):
                # numpy would read a cell that is a sequence as more dimensions, following a list
                # that holds itself 64 levels down (an array of 2**64 cells): refuse it first.
                if hasattr(type(value), "__len__"):
                    refuse(value, r, c)
                count += 1
            if count != length:
                raise BoardError(f"row {r} of the board says it has {length} values and gives "
                                 f"{'more' if count > length else count}")
    try:
        arr = np.array(rows)
    except (ValueError, TypeError, OverflowError) as exc:
        raise BoardError(f"a board must be a 2-D grid of ints: {exc}") from None
    if arr.dtype.kind in "iu" and arr.ndim == 2 and not any(
            isinstance(v, (bool, np.bool_)) for row in rows for v in row):
        return arr
    # Refused, or promoted by numpy (rows of uint64 and int64 make float64, a bool among ints
    # makes ints): judge the cells themselves, and name the first bad one.
    bad = _first_bad_cell(rows)
    if bad is not None:
        refuse(bad[0], bad[1], bad[2])
    return np.array(rows, dtype=np.int64)
