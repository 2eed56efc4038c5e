# cython: language_level=3
"""Gravity: after a removal, tiles slide inside their wall-bounded segments (inline helpers).

A removal and its gravity are one step (``take_pair``) with an exact inverse (``put_pair``), so
searches and undo never copy a board. See docs/architecture.md ("Gravity").
"""
from libc.stdint cimport int32_t

from .grid cimport (GRAVITY_DOWN, GRAVITY_LEFT, GRAVITY_NONE, GRAVITY_RIGHT, GRAVITY_UP, Grid,
                    move_tile, put_tile, take_tile)


cdef inline int compact_line(Grid *g, int start, int stride, int length, int32_t *moves) noexcept nogil:
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


cdef inline bint line_through(const Grid *g, int p, int gravity, int *start, int *stride,
                              int *length) noexcept nogil:
    """The line (column or row) gravity packs through padded cell p, as ``compact_line`` takes
    it: its cell at the gravity end, the step away from that end, its length. False without
    gravity."""
    cdef int r = p // g.W
    cdef int c = p - r * g.W
    if gravity == GRAVITY_DOWN:
        start[0], stride[0], length[0] = g.rows * g.W + c, -g.W, g.rows
    elif gravity == GRAVITY_UP:
        start[0], stride[0], length[0] = g.W + c, g.W, g.rows
    elif gravity == GRAVITY_LEFT:
        start[0], stride[0], length[0] = r * g.W + 1, 1, g.cols
    elif gravity == GRAVITY_RIGHT:
        start[0], stride[0], length[0] = r * g.W + g.cols, -1, g.cols
    else:
        return False
    return True


cdef inline int compact_through(Grid *g, int p, int gravity, int32_t *moves) noexcept nogil:
    """Apply gravity to the line (column or row) through padded cell p."""
    cdef int start, stride, length
    if not line_through(g, p, gravity, &start, &stride, &length):
        return 0
    return compact_line(g, start, stride, length, moves)


cdef inline int settled_from(const Grid *g, int start, int stride, int length, int i0,
                             int i1, int32_t *moves, bint *passed) noexcept nogil:
    """The moves ``settle_from`` made from the taken index i0 of a line, read back from the
    position it left; i1 is the line's other taken index above i0, or -1. The tiles it moved
    now fill the cells from i0 up to the first cell without a tile, and came from the indexes
    above i0 in order, i1 skipped. Sets ``passed`` when the walk went over i1 (when a wall stood
    between, i1's tiles were settled by a walk of their own). The cost is the tiles moved."""
    cdef int m = 0, j, src = i0 + 1
    while i0 + m < length and g.cells[start + (i0 + m) * stride] > 0:
        m += 1
    passed[0] = False
    for j in range(m):
        if src == i1:
            src += 1
            passed[0] = True
        moves[2 * j] = start + src * stride
        moves[2 * j + 1] = start + (i0 + j) * stride
        src += 1
    return m


cdef inline int slides_of(const Grid *g, int pa, int pb, int gravity,
                          int32_t *moves) noexcept nogil:
    """The gravity moves ``take_pair(pa, pb)`` made, in its order, read back from the position
    it left, which must be the one it left (``slide_room`` ints are enough; returns how many).
    Boards keep no record of them for undo: a record per removal cost a numpy array (about
    0.5 KB on a 512 x 512 board, the bulk of a long game's memory). Each line is read from its
    taken cell up, as ``take_pair`` walked it (reading whole lines took 4.6 s to take back a
    1024 x 1024 deal's certificate, whose replay took 2.7 s)."""
    cdef int start, stride, length, start_b, stride_b, length_b, ia, ib, n
    cdef bint passed
    if not line_through(g, pa, gravity, &start, &stride, &length):
        return 0
    line_through(g, pb, gravity, &start_b, &stride_b, &length_b)
    ia = (pa - start) // stride
    ib = (pb - start_b) // stride_b
    if start_b != start:
        n = settled_from(g, start, stride, length, ia, -1, moves, &passed)
        return n + settled_from(g, start_b, stride_b, length_b, ib, -1, moves + 2 * n, &passed)
    if ib < ia:
        ia, ib = ib, ia
    n = settled_from(g, start, stride, length, ia, ib, moves, &passed)
    if not passed:      # (nothing above ib when no wall stood between: then this adds none)
        n += settled_from(g, start, stride, length, ib, -1, moves + 2 * n, &passed)
    return n


cdef inline int compact_all(Grid *g, int gravity, int32_t *moves) noexcept nogil:
    """Apply gravity to every line (a board with gravity starts compacted). ``moves`` needs room
    for rows * cols pairs; returns how many moves were made."""
    cdef int i, n = 0
    if gravity == GRAVITY_DOWN or gravity == GRAVITY_UP:
        for i in range(g.cols):
            n += compact_through(g, g.W + 1 + i, gravity, moves + 2 * n)
    elif gravity != GRAVITY_NONE:
        for i in range(g.rows):
            n += compact_through(g, (i + 1) * g.W + 1, gravity, moves + 2 * n)
    return n


cdef inline int slide_room(const Grid *g) noexcept nogil:
    """Room (in ints) that the gravity moves of one removal need: two lines' worth of pairs."""
    return 4 * (g.rows + g.cols) + 8


cdef inline int settle_from(Grid *g, int start, int stride, int length, int i0, int pa, int pb,
                            int32_t *moves, int *stop) noexcept nogil:
    """Gravity on one line of a packed position whose tiles at pa and pb were just taken, from
    the taken cell at index i0 against gravity: every tile met slides down into the lowest empty
    cell behind it. The walk ends at a wall, or at an empty cell that was not taken: the
    segment's packed tiles end there, so nothing beyond it moves. These are the moves
    ``compact_line`` makes on the whole line, in its order, for the cost of the tiles above i0
    instead of the line's length. Sets ``stop`` to the index where the walk ended."""
    cdef int i = i0 + 1, p, dst = start + i0 * stride, nmoves = 0
    while i < length:
        p = start + i * stride
        if g.cells[p] < 0 or (g.cells[p] == 0 and p != pa and p != pb):
            break
        if g.cells[p] > 0:
            move_tile(g, p, dst)
            moves[2 * nmoves] = p
            moves[2 * nmoves + 1] = dst
            nmoves += 1
            dst += stride
        i += 1
    stop[0] = i
    return nmoves


cdef inline int take_pair(Grid *g, int pa, int pb, int gravity, int32_t *moves) noexcept nogil:
    """Remove the tiles at pa and pb, then apply gravity to their lines (a search's move).

    The position must be packed (every position under gravity is), so only the tiles above each
    taken cell in its segment move (``settle_from``); the moves are those ``compact_line`` makes
    on the two whole lines, in its order. They go to ``moves`` as (src, dst) pairs
    (``slide_room`` ints are enough); returns how many. ``put_pair`` is the exact inverse.
    """
    take_tile(g, pa)
    take_tile(g, pb)
    cdef int start, stride, length, start_b, stride_b, length_b, ia, ib, stop, n
    if not line_through(g, pa, gravity, &start, &stride, &length):
        return 0
    line_through(g, pb, gravity, &start_b, &stride_b, &length_b)
    ia = (pa - start) // stride
    ib = (pb - start_b) // stride_b
    if start_b != start:
        n = settle_from(g, start, stride, length, ia, pa, pb, moves, &stop)
        return n + settle_from(g, start_b, stride_b, length_b, ib, pa, pb, moves + 2 * n, &stop)
    if ib < ia:
        ia, ib = ib, ia
    # One line: the walk from the lower taken cell settles the upper one too, unless a wall
    # between them ended it first (then the upper one's segment is settled on its own).
    n = settle_from(g, start, stride, length, ia, pa, pb, moves, &stop)
    if stop < ib:
        n += settle_from(g, start, stride, length, ib, pa, pb, moves + 2 * n, &stop)
    return n


cdef inline int emptied_cells(const Grid *g, int pa, int pb, const int32_t *moves, int n,
                              int *out) noexcept nogil:
    """The cells the removal of pa and pb, with its n gravity moves, left empty, into ``out``
    (room for 2); returns how many (2 on a position ``take_pair`` left). Each move fills a cell
    emptied just before, so two cells turn from tile to empty, none the other way: pa, pb or
    cells tiles slid from."""
    cdef int i, p, found = 0
    for i in range(-2, n):
        p = pa if i == -2 else pb if i == -1 else moves[2 * i]
        if g.cells[p] == 0 and found < 2:
            out[found] = p
            found += 1
    return found


cdef inline void carry_along(int32_t *along, const int32_t *moves, int n) noexcept nogil:
    """Carry a per-cell label (which tile stands there) through n gravity moves ((src, dst)
    pairs from ``take_pair``): in the order made, since each lands on a cell already empty and
    a tile may move twice; a cell a tile left gets -1."""
    cdef int m
    for m in range(n):
        along[moves[2 * m + 1]] = along[moves[2 * m]]
        along[moves[2 * m]] = -1


cdef inline void put_pair(Grid *g, int pa, int pb, int ta, int tb, const int32_t *moves,
                          int n) noexcept nogil:
    """Undo ``take_pair``: gravity moves in reverse, then the two tiles (types ta, tb) back.

    Undoing removals in reverse order keeps the removed tiles of each type stacked right
    after its live ones in ``pos`` (most recent first).
    """
    cdef int i
    for i in range(n - 1, -1, -1):
        move_tile(g, moves[2 * i + 1], moves[2 * i])
    put_tile(g, pb, tb)
    put_tile(g, pa, ta)
