# cython: language_level=3
"""Removable pairs of a position (pairs.pyx): the one listing of removable pairs."""
from libc.math cimport sqrt
from libc.stdint cimport int32_t, int64_t, uint64_t

from .alloc cimport IVec
from .grid cimport Grid
from .path cimport PathWork
from .budget cimport Budget
from .reach cimport Flood


# A type with more tiles than this may get one run flood per tile (reach.pxd) instead of a sweep
# per pair even up to two turns, when the flood's buffers exist (``wants_floods``: allocate them)
# and the board is crowded enough (``floods_type``).
cdef enum:
    FLOOD_MIN_COUNT = 64
    # Up to two turns a flood from a tile costs about FLOOD_PER_PAIR * L**1.5 pair tests, L the
    # mean run of empty cells along a line (measured, docs/architecture.md "Listing moves").
    FLOOD_PER_PAIR = 15
    # Same-type pairs up to which a listing makes room for them all (8 MB; ``listing_room``).
    ROOM_FOR_ALL = 1 << 20
    # Same-type pairs above which ``hint`` lists the moves of 0 and 1 turns first, when it does
    # not find them by passes over the cells: on boards with at least one tile in
    # LINE_PASS_CELLS_PER_TILE cells.
    LEVELED_HINT_PAIRS = 4096
    LINE_PASS_CELLS_PER_TILE = 128


cdef inline bint wants_floods(const Grid *g) noexcept nogil:
    """Some type has more than FLOOD_MIN_COUNT tiles."""
    cdef int t
    for t in range(g.ntypes):
        if g.count[t] > FLOOD_MIN_COUNT:
            return True
    return False


cdef inline int64_t listing_room(const Grid *g, int64_t pairs) noexcept nogil:
    """Moves to make room for before a listing of a board with ``pairs`` same-type pairs: all
    of them up to ROOM_FOR_ALL, else the usual case (8 a tile). A listing that fills its room
    is counted and run again: three listings, which a sparse board whose pairs nearly all link
    (4 types of 66 tiles) made every time when the room was 8 a tile alone."""
    return pairs if pairs <= ROOM_FOR_ALL else min(pairs, 8 * <int64_t>g.tiles + 64)


cdef inline bint floods_type(const Grid *g, PathWork *w, int t, int max_turns) noexcept nogil:
    """Whether the pairs of type t come from one flood per tile rather than pair link tests.

    Above two turns always (a pair test may search the board). Up to two, n floods against
    n (n - 1) / 2 sweeps: a flood covers the empty cells two turns reach, about L**3 of them
    with L the mean empty run (H*W / tiles, at most a side), and a sweep scans runs of length
    L, so the flood pays when (n - 1) / 2 > FLOOD_PER_PAIR * L**1.5. On a crowded board that
    is FLOOD_MIN_COUNT; on a sparse one the floods each covered the board (4 types of 66 tiles
    on 1024 x 1024: 6.4 s, against 0.002 s swept)."""
    if max_turns > 2:
        return True
    if g.count[t] <= FLOOD_MIN_COUNT or w.flood.cand == NULL:
        return False
    cdef double run = <double>g.H * g.W / (g.tiles if g.tiles > 0 else 1)
    cdef double side = g.H if g.H > g.W else g.W
    if run > side:
        run = side
    # A flood of fewer turns reaches L**(turns + 1) cells, a factor L less a turn fewer: hint
    # lists the moves of 0 and 1 turns first, and a sparse 512 x 512 board of two types swept
    # its 6.8 million pairs at 0 turns in 3 s for 4,693 moves.
    return (g.count[t] - 1) * 0.5 > FLOOD_PER_PAIR * run * sqrt(run) / run ** (2 - max_turns)


# Every removable pair (pa < pb, padded cells) into ``out`` (2 ints each), at most ``cap``;
# ``out == NULL`` only counts. Returns how many, or -1 when ``b`` (may be NULL) said stop. Above
# two turns ``w``'s buffers must exist (one run flood per tile, reach.pxd); up to two turns the
# types above FLOOD_MIN_COUNT tiles are flooded too when they exist, else swept pair by pair.
cdef int64_t list_moves(const Grid *g, PathWork *w, int max_turns, int32_t *out, int64_t cap,
                        Budget *b) noexcept nogil

# Every removable pair into ``v.data[base:]`` (2 ints each), ``v`` grown to hold them: memory follows
# the moves there are, not the same-type pairs (4 types of 65,536 tiles have 8.6e9 of those).
# Returns how many, -1 when ``b`` said stop, -2 when memory ran out.
cdef int64_t list_moves_grown(const Grid *g, PathWork *w, int max_turns, IVec *v, int64_t base,
                              Budget *b) noexcept nogil

# Same-type pairs on the board: room for every removable pair.
cdef int64_t pair_capacity(const Grid *g) noexcept nogil


# Kept moves (docs/architecture.md, "Kept moves"): under gravity, a position's moves from those
# of the position before its last removal, instead of a listing afresh (searches and playouts).
cdef struct KeptWork:
    const int32_t *line     # H*W: the line gravity moves each cell's tile along (the caller's)
    int up                  # offset of one cell against gravity
    Flood flood             # the flood from each cell a removal emptied
    int32_t *reach_turns    # H*W: the fewest turns from that cell to each tile it reached
    uint64_t *listed        # a set of the moves listed so far (open addressing, 0: free),
    int64_t listed_slots    # ...its slots (a power of two; used only past LISTED_SCAN moves)
    int64_t listed_room     # ...and the slots allocated
    int64_t listed_count    # ...and the moves in it

# The line of each of g's H*W cells into ``line`` (its column under gravity down / up, its row
# under left / right; without gravity each cell is a line of its own, so no tile counts as
# moved); returns ``up``, the offset of one cell against gravity (gravity.pxd's line_through;
# 1 without gravity).
cdef int kept_lines(int32_t *line, const Grid *g, int gravity) noexcept nogil

# Allocate / free the buffers, all or nothing (False: out of memory, nothing held).
cdef bint kept_alloc(KeptWork *k, int H, int W, const int32_t *line, int up) noexcept nogil
cdef void kept_free(KeptWork *k) noexcept nogil

# The moves after removing (a, b), whose gravity moves were gm (ngm (src, dst) pairs; g is the
# board after it), from the nsrc moves before it at src.data[src_base:], into dst.data[dst_base:]
# (dst may be src, at a base past the moves read). The moves kept come first, in their order
# (nkept of them), then the new ones. Returns how many, -1 when ``bud`` said stop, -2 when out
# of memory.
cdef int64_t moves_after(KeptWork *k, const Grid *g, PathWork *w, int max_turns, Budget *bud,
                         int a, int b, const int32_t *gm, int ngm, const IVec *src,
                         int64_t src_base, int64_t nsrc, IVec *dst, int64_t dst_base,
                         int64_t *nkept) noexcept nogil
