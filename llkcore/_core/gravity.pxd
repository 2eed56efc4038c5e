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


cdef inline int compact_through(Grid *g, int p, int gravity, int32_t *moves) noexcept nogil:
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


cdef inline int take_pair(Grid *g, int pa, int pb, int gravity, int32_t *moves) noexcept nogil:
    """Remove the tiles at pa and pb, then apply gravity to their lines (a search's move).

    The gravity moves go to ``moves`` as (src, dst) pairs (``slide_room`` ints are enough);
    returns how many. ``put_pair`` is the exact inverse.
    """
    take_tile(g, pa)
    take_tile(g, pb)
    if gravity == GRAVITY_NONE:
        return 0
    cdef int n = compact_through(g, pa, gravity, moves)
    return n + compact_through(g, pb, gravity, moves + 2 * n)


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
