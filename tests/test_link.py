"""Link test and path finding: llkcore against the reference engine llkref, and hand cases.

Every boolean answer of llkcore (module-level can_link, Board.can_link, Board.can_link_many,
find_path is not None) must equal llkref.can_link; every path must be a legal polyline with as
few turns as llkref's and no longer than llkref's shortest path with that many turns.
"""
from __future__ import annotations

import itertools
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import llkcore as llk
import llkref
import test_llkref_selfcheck as selfcheck
from conftest import (assert_path_matches_ref, assert_valid_path, examples, grids, point_pairs,
                      ref_kwargs, rules_st, same_type_pairs)

RULES_2B = llk.Rules(max_turns=2, border=True)
RULES_2N = llk.Rules(max_turns=2, border=False)


def answers(grid, a, b, r):
    """Every way llkcore can answer "do a and b link?", as a dict name -> bool."""
    board = llk.Board(grid, rules=r)
    lo, hi = sorted([tuple(a), tuple(b)])
    return {
        "can_link(list)": llk.can_link(grid, a, b, rules=r),
        "can_link(ndarray)": llk.can_link(np.array(grid), a, b, rules=r),
        "Board.can_link": board.can_link(a, b),
        "Board.can_link(b, a)": board.can_link(b, a),
        "can_link_many": bool(board.can_link_many([[*a, *b]])[0]),
        "find_path": llk.find_path(grid, a, b, rules=r) is not None,
        "Board.find_path": board.find_path(a, b) is not None,
        "in moves": (lo, hi) in board.moves(),
    }


def assert_links(grid, a, b, r, expected):
    got = answers(grid, a, b, r)
    assert got == {k: expected for k in got}, (grid, a, b, r)
    path = llk.find_path(grid, a, b, rules=r)
    if expected:
        assert_valid_path(grid, path, a, b, r.max_turns, r.border)


# ---------------------------------------------------------------------------------------------
# Hand cases: seed 000 §6.1, HDU 1175, same-type blockers, three turns
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("border", [True, False])
def test_seed_case1_first_row_ends_with_empties_between(border):
    grid = [[1, 0, 0, 1],
            [2, 3, 4, 5],
            [6, 7, 8, 9]]
    assert_links(grid, (0, 0), (0, 3), llk.Rules(border=border), True)
    assert llk.find_path(grid, (0, 0), (0, 3), rules=llk.Rules(border=border)) == [(0, 0), (0, 3)]


@pytest.mark.parametrize("border", [True, False])
def test_seed_case2_same_column_with_blocker(border):
    grid = [[2, 1, 3],
            [4, 5, 6],
            [7, 1, 8]]
    assert_links(grid, (0, 1), (2, 1), llk.Rules(border=border), False)
    # The ring route up, left, down, right, up has 4 turns: only with a border and 4 turns.
    assert_links(grid, (0, 1), (2, 1), llk.Rules(max_turns=4, border=border), border)
    assert_links(grid, (0, 1), (2, 1), llk.Rules(max_turns=3, border=border), False)


def test_seed_case3_corner_tiles_round_the_outer_ring():
    grid = [[1, 2, 1],
            [3, 4, 5],
            [6, 7, 8]]
    assert_links(grid, (0, 0), (0, 2), RULES_2B, True)
    assert llk.find_path(grid, (0, 0), (0, 2)) == [(0, 0), (-1, 0), (-1, 2), (0, 2)]
    assert_links(grid, (0, 0), (0, 2), RULES_2N, False)
    # Bottom corners round the bottom ring; a corner to the opposite corner round two sides.
    grid2 = [[1, 2, 3],
             [4, 5, 6],
             [7, 8, 7]]
    assert_links(grid2, (2, 0), (2, 2), RULES_2B, True)
    assert llk.find_path(grid2, (2, 0), (2, 2)) == [(2, 0), (3, 0), (3, 2), (2, 2)]
    grid3 = [[1, 2, 3],
             [4, 5, 6],
             [7, 8, 1]]
    assert_links(grid3, (0, 0), (2, 2), RULES_2B, False)  # needs 3 turns round the ring
    assert_links(grid3, (0, 0), (2, 2), llk.Rules(max_turns=3), True)


@pytest.mark.parametrize("border", [True, False])
def test_seed_case4_different_types(border):
    grid = [[1, 0, 2],
            [0, 0, 0],
            [0, 0, 0]]
    assert_links(grid, (0, 0), (0, 2), llk.Rules(border=border, max_turns=4), False)


@pytest.mark.parametrize("border", [True, False])
def test_seed_case5_same_coordinates(border):
    grid = [[1, 0, 1],
            [0, 0, 0],
            [0, 0, 0]]
    assert_links(grid, (0, 0), (0, 0), llk.Rules(border=border, max_turns=4), False)


def test_empty_and_wall_endpoints_never_link():
    grid = [[0, 0, 0],
            [-1, 0, -1],
            [-3, 0, -3]]
    for r in (RULES_2B, RULES_2N, llk.Rules(max_turns=4)):
        for a, b in [((0, 0), (0, 2)), ((1, 0), (1, 2)), ((2, 0), (2, 2))]:
            assert_links(grid, a, b, r, False)


# Reuse the HDU 1175 sample exactly as llkref's self-check encodes it.
HDU_CASES = next(m.args[1] for m in selfcheck.test_hdu1175_sample.pytestmark if m.name == "parametrize")


@pytest.mark.parametrize("grid, query, expected", HDU_CASES)
def test_hdu1175_sample(grid, query, expected):
    r1, c1, r2, c2 = query
    assert_links(grid, (r1 - 1, c1 - 1), (r2 - 1, c2 - 1), RULES_2N, expected)


def test_hdu1175_board1_turn_limits():
    grid = selfcheck.HDU_BOARD_1
    assert llk.find_path(grid, (0, 0), (2, 3), rules=RULES_2N) == [(0, 0), (1, 0), (1, 3), (2, 3)]
    assert_links(grid, (0, 0), (2, 3), llk.Rules(max_turns=1, border=False), False)


@pytest.mark.parametrize("turns", [0, 1, 2, 3, 4])
def test_a_path_never_crosses_a_tile_of_the_same_type(turns):
    row = [[1, 1, 1]]
    assert_links(row, (0, 0), (0, 2), llk.Rules(max_turns=turns, border=False), False)
    assert_links(row, (0, 0), (0, 2), llk.Rules(max_turns=turns, border=True), turns >= 2)
    col = [[1], [1], [1]]
    assert_links(col, (0, 0), (2, 0), llk.Rules(max_turns=turns, border=False), False)
    # Walled in below: the only route from end to end runs through the middle 1.
    walled = [[1, 1, 1],
              [-1, -1, -1]]
    assert_links(walled, (0, 0), (0, 2), llk.Rules(max_turns=turns, border=False), False)
    # The middle twin sits at the only corner of an L.
    corner = [[1, 1],
              [-1, 1]]
    assert_links(corner, (0, 0), (1, 1), llk.Rules(max_turns=turns, border=False), False)
    assert_links(corner, (0, 0), (0, 1), llk.Rules(max_turns=turns, border=False), True)


def test_three_turns_needed():
    grid = selfcheck.FEWEST_TURNS_GRID
    a, b = (0, 0), (3, 3)
    assert_links(grid, a, b, llk.Rules(max_turns=2, border=False), False)
    assert_links(grid, a, b, llk.Rules(max_turns=3, border=False), True)
    path = llk.find_path(grid, a, b, rules=llk.Rules(max_turns=3, border=False))
    assert llkref.path_turns(path) == 3
    # With the ring a 2-turn path exists and is preferred to the shorter 3-turn one.
    path = llk.find_path(grid, a, b, rules=llk.Rules(max_turns=3, border=True))
    assert llkref.path_turns(path) == 2
    assert llkref.path_length(path) > 6


@pytest.mark.parametrize("path, max_turns, border", [
    ([(0, 0), (1, 1), (2, 1), (2, 3)], 4, True),         # diagonal segment
    ([(0, 0), (0, 1), (0, 2), (2, 2), (2, 3)], 4, True),  # collinear segments (redundant corner)
    ([(0, 0), (0, 2), (0, 1), (2, 1), (2, 3)], 4, True),  # U-turn
    ([(0, 0), (0, 0), (0, 1), (2, 1), (2, 3)], 4, True),  # empty segment
    ([(0, 0), (2, 0), (2, 3)], 4, True),                 # runs through the 7 at (1, 0)
    ([(0, 0), (0, 3), (2, 3)], 4, True),                 # corner on the 8 at (0, 3)
    ([(0, 0), (-1, 0), (-1, 4), (2, 4), (2, 3)], 4, False),  # ring without a border
    ([(0, 0), (-2, 0), (-2, 3), (2, 3)], 4, True),       # beyond the ring
    ([(0, 0), (0, 1), (2, 1), (2, 3)], 1, True),         # 2 turns, 1 allowed
    ([(0, 1), (2, 1), (2, 3)], 4, True),                 # starts at the wrong point
    ([(0, 0), (0, 1), (2, 1)], 4, True),                 # ends at the wrong point
    ([(0, 0)], 4, True),                                 # a single point
])
def test_path_checker_rejects_bad_paths(path, max_turns, border):
    """The polyline check used everywhere catches every kind of bad path."""
    grid = [[1, 0, 0, 8],
            [7, 0, 0, 0],
            [0, 0, 0, 1]]
    good = [(0, 0), (0, 1), (2, 1), (2, 3)]
    assert_valid_path(grid, good, (0, 0), (2, 3), 2, False)
    with pytest.raises(AssertionError):
        assert_valid_path(grid, path, (0, 0), (2, 3), max_turns, border)


# ---------------------------------------------------------------------------------------------
# Differential: random boards 1x1 .. 16x16, every max_turns 0-4 x border
# ---------------------------------------------------------------------------------------------

@settings(max_examples=examples(300))
@given(data=st.data(), grid=grids(), r=rules_st())
def test_can_link_matches_llkref(data, grid, r):
    queries = data.draw(point_pairs(grid))
    board = llk.Board(grid, rules=r)
    many = board.can_link_many([[*a, *b] for a, b in queries])
    assert many.dtype == np.bool_ and many.shape == (len(queries),)
    for (a, b), m in zip(queries, many):
        expected = llkref.can_link(grid, a, b, **ref_kwargs(r))
        assert llk.can_link(grid, a, b, rules=r) is expected, (a, b)
        assert board.can_link(a, b) is expected, (a, b)
        assert board.can_link(b, a) is expected, (b, a)
        assert bool(m) is expected, (a, b)


@settings(max_examples=examples(200))
@given(data=st.data(), grid=grids(), r=rules_st())
def test_find_path_is_valid_and_optimal(data, grid, r):
    board = llk.Board(grid, rules=r)
    for a, b in data.draw(point_pairs(grid, n=8)):
        path = board.find_path(a, b)
        assert_path_matches_ref(grid, path, a, b, r)
        assert llk.find_path(grid, a, b, rules=r) == path
        assert (path is not None) is board.can_link(a, b)


@settings(max_examples=examples(60))
@given(data=st.data(), grid=grids(max_side=6, max_types=3), turns=st.integers(5, 9),
       border=st.booleans())
def test_many_turns_match_llkref(data, grid, turns, border):
    r = llk.Rules(max_turns=turns, border=border)
    board = llk.Board(grid, rules=r)
    for a, b in data.draw(point_pairs(grid, n=6)):
        assert board.can_link(a, b) is llkref.can_link(grid, a, b, **ref_kwargs(r))
        assert_path_matches_ref(grid, board.find_path(a, b), a, b, r)


@settings(max_examples=examples(80))
@given(grid=grids(max_side=9), r=rules_st())
def test_can_link_many_on_every_pair_of_cells(grid, r):
    """Every (a, b) of cells at once: equal to one-by-one answers, and the true a < b pairs are
    exactly moves()."""
    board = llk.Board(grid, rules=r)
    cells = list(itertools.product(range(board.rows), range(board.cols)))
    queries = np.array([[*a, *b] for a in cells for b in cells], dtype=np.int64).reshape(-1, 4)
    many = board.can_link_many(queries)
    single = np.array([board.can_link(tuple(q[:2]), tuple(q[2:])) for q in queries.tolist()])
    assert np.array_equal(many, single)
    linked = {(tuple(q[:2]), tuple(q[2:])) for q, m in zip(queries.tolist(), many)
              if m and tuple(q[:2]) < tuple(q[2:])}
    assert linked == set(board.moves())


@settings(max_examples=examples(40))
@given(data=st.data(), grid=grids(max_side=10), r=rules_st())
def test_answers_do_not_depend_on_query_order(data, grid, r):
    """Repeated and interleaved queries return the same answers (no stale search buffers)."""
    board = llk.Board(grid, rules=r)
    queries = data.draw(point_pairs(grid, n=10))
    first = [(board.can_link(a, b), board.find_path(a, b)) for a, b in queries]
    again = [(board.can_link(a, b), board.find_path(a, b)) for a, b in reversed(queries)]
    assert first == again[::-1]


# ---------------------------------------------------------------------------------------------
# Grid formats: lists, every integer dtype, every memory order
# ---------------------------------------------------------------------------------------------

SIGNED = [np.int8, np.int16, np.int32, np.int64, np.dtype(">i4"), np.dtype(">i8")]
UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]


def layouts(grid, dtype):
    """The same board as C-order, Fortran-order and two non-contiguous views."""
    base = np.array(grid, dtype=dtype)
    rows, cols = base.shape
    strided = np.zeros((2 * rows, cols), dtype=dtype)
    strided[::2, ::-1] = base
    wide = np.zeros((rows, 3 * cols), dtype=dtype)
    wide[:, 1::3] = base
    return {
        "C": np.ascontiguousarray(base),
        "F": np.asfortranarray(base),
        "[::2, ::-1]": strided[::2, ::-1],
        "[:, 1::3]": wide[:, 1::3],
        "transposed twice": np.asfortranarray(base.T).T,
    }


@settings(max_examples=examples(40))
@given(data=st.data(), signed=st.booleans(), r=rules_st())
def test_every_dtype_and_memory_order_gives_the_same_answers(data, signed, r):
    grid = data.draw(grids(max_side=8, walls=signed, spread=False))
    reference = llk.Board(grid, rules=r)
    ref_moves = reference.moves()
    cells = list(itertools.product(range(reference.rows), range(reference.cols)))
    queries = np.array([[*a, *b] for a in cells for b in cells]).reshape(-1, 4)
    ref_many = reference.can_link_many(queries)
    sample = data.draw(point_pairs(grid, n=4))
    ref_paths = [reference.find_path(a, b) for a, b in sample]
    for dtype in (SIGNED if signed else SIGNED + UNSIGNED):
        for name, arr in layouts(grid, dtype).items():
            assert np.array_equal(arr, np.array(grid)), name
            board = llk.Board(arr, rules=r)
            assert board.grid.dtype == np.int32
            assert board.grid.tolist() == grid, (dtype, name)
            assert np.array_equal(board.can_link_many(queries), ref_many), (dtype, name)
            assert board.moves() == ref_moves, (dtype, name)
            assert [board.find_path(a, b) for a, b in sample] == ref_paths, (dtype, name)
            for a, b in sample:
                assert llk.can_link(arr, a, b, rules=r) is reference.can_link(a, b)


def test_board_copies_its_input():
    arr = np.array([[1, 0, 1]], dtype=np.int64)
    lst = [[1, 0, 1]]
    for src in (arr, lst):
        board = llk.Board(src)
        if src is arr:
            arr[0, 1] = 5
        else:
            lst[0][1] = 5
        assert board.grid.tolist() == [[1, 0, 1]]
        assert board.can_link((0, 0), (0, 2))


def test_grid_view_is_read_only():
    """board.grid cannot be written, and cannot be made writeable (its memory belongs to the
    board's state, which lends no writable buffer): only the Board's methods change a board."""
    board = llk.Board([[1, 0, 1]])
    with pytest.raises(ValueError):
        board.grid[0, 1] = 7
    for view in (board.grid, board.grid.view(), np.asarray(board.grid), board.grid[:, 1:]):
        with pytest.raises(ValueError, match="WRITEABLE"):
            view.flags.writeable = True
        with pytest.raises(ValueError):
            view.setflags(write=True)
    assert board.can_link((0, 0), (0, 2))
    board.remove((0, 0), (0, 2))
    assert board.undo() and board.grid.tolist() == [[1, 0, 1]]


# ---------------------------------------------------------------------------------------------
# Wide boards: multi-word occupancy masks
# ---------------------------------------------------------------------------------------------

def random_board(rng, rows, cols, types, p_empty, p_wall):
    grid = rng.integers(1, types + 1, size=(rows, cols))
    u = rng.random((rows, cols))
    grid[u < p_empty] = 0
    grid[(u >= p_empty) & (u < p_empty + p_wall)] = -1
    return grid.tolist()


WIDE_SHAPES = [(3, 130), (130, 3), (70, 70), (1, 130), (130, 1), (2, 62), (2, 63), (2, 64),
               (65, 2), (4, 126), (127, 4), (6, 128)]


@pytest.mark.parametrize("shape", WIDE_SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_wide_boards_match_llkref(shape):
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    rows, cols = shape
    for trial, (p_empty, p_wall) in enumerate([(0.85, 0.0), (0.7, 0.05), (0.45, 0.05)]):
        grid = random_board(rng, rows, cols, types=3, p_empty=p_empty, p_wall=p_wall)
        pairs = same_type_pairs(grid)
        # Far-apart pairs cross the most mask words; take those first, then random ones.
        pairs.sort(key=lambda ab: -(abs(ab[0][0] - ab[1][0]) + abs(ab[0][1] - ab[1][1])))
        picks = pairs[:4] + [pairs[i] for i in rng.choice(len(pairs), size=min(4, len(pairs)), replace=False)]
        for r in (RULES_2B, RULES_2N, llk.Rules(max_turns=1, border=False), llk.Rules(max_turns=3)):
            board = llk.Board(grid, rules=r)
            got = board.can_link_many([[*a, *b] for a, b in picks])
            for (a, b), g in zip(picks, got):
                expected = llkref.can_link(grid, a, b, **ref_kwargs(r))
                assert bool(g) is expected and board.can_link(a, b) is expected, (shape, trial, a, b, r)
            for a, b in picks[:3]:
                assert_path_matches_ref(grid, board.find_path(a, b), a, b, r)


@pytest.mark.parametrize("length", [62, 63, 64, 65, 66, 127, 128, 129, 130, 193])
@pytest.mark.parametrize("vertical", [False, True])
def test_straight_line_across_mask_words(length, vertical):
    """One line, tiles at both ends: linked iff no blocker between, wherever the blocker sits."""
    def board_of(line):
        return [[v] for v in line] if vertical else [line]

    def point(i):
        return (i, 0) if vertical else (0, i)

    a, b = point(0), point(length - 1)
    line = [1] + [0] * (length - 2) + [1]
    for r in (llk.Rules(max_turns=0, border=False), RULES_2N):
        board = llk.Board(board_of(line), rules=r)
        assert board.can_link(a, b)
        assert board.find_path(a, b) == [a, b]
        for k in range(1, length - 1):
            blocked = list(line)
            blocked[k] = 2 if k % 2 else -1
            board = llk.Board(board_of(blocked), rules=r)
            assert not board.can_link(a, b), k
            assert not board.can_link_many([[*a, *b]])[0], k
            assert board.find_path(a, b) is None, k
            # With the ring the 2-turn detour goes round the blocker.
            ring = llk.Board(board_of(blocked), rules=llk.Rules(max_turns=2, border=True))
            assert ring.can_link(a, b)


@pytest.mark.parametrize("cols", [63, 64, 65, 130])
def test_two_turn_detour_across_mask_words(cols):
    """Row 0: tiles at both ends with a wall between; row 1 is the detour, blocked at one column."""
    for k in sorted({0, 1, 31, 62, 63, 64, 65, cols - 2, cols - 1} & set(range(cols))):
        grid = [[1] + [-1] * (cols - 2) + [1],
                [0] * cols,
                [-1] * cols]
        grid[1][k] = -2
        expected = llkref.can_link(grid, (0, 0), (0, cols - 1), border=False)
        board = llk.Board(grid, rules=RULES_2N)
        assert board.can_link((0, 0), (0, cols - 1)) is expected, k
        assert expected is False  # the blocker always cuts row 1
        grid[1][k] = 0
        board = llk.Board(grid, rules=RULES_2N)
        assert board.can_link((0, 0), (0, cols - 1))
        assert board.find_path((0, 0), (0, cols - 1)) == [(0, 0), (1, 0), (1, cols - 1), (0, cols - 1)]


def test_largest_board():
    side = llk.MAX_SIDE
    grid = np.zeros((side, side), dtype=np.int16)
    grid[0, 0] = grid[side - 1, side - 1] = 7
    grid[0, side - 1] = grid[side - 1, 0] = 9
    for r in (RULES_2N, RULES_2B, llk.Rules(max_turns=4, border=False)):
        board = llk.Board(grid, rules=r)
        assert board.can_link((0, 0), (side - 1, side - 1))
        path = board.find_path((0, 0), (side - 1, side - 1))
        assert_valid_path(grid.tolist(), path, (0, 0), (side - 1, side - 1), r.max_turns, r.border)
        assert len(path) == 4  # both one-turn corners hold the other type
        assert board.moves() == [((0, 0), (side - 1, side - 1)), ((0, side - 1), (side - 1, 0))]
    # A wall line across the middle leaves only the ring.
    grid[side // 2, :] = -1
    assert not llk.Board(grid, rules=RULES_2N).can_link((0, 0), (side - 1, side - 1))
    assert not llk.Board(grid, rules=RULES_2B).can_link((0, 0), (side - 1, side - 1))
    assert llk.Board(grid, rules=llk.Rules(max_turns=3)).can_link((0, 0), (side - 1, side - 1))


# ---------------------------------------------------------------------------------------------
# Module-level functions
# ---------------------------------------------------------------------------------------------

def test_module_functions_accept_a_board():
    board = llk.Board([[1, 0, 1], [2, 2, 0]], rules=RULES_2N)
    assert llk.can_link(board, (0, 0), (0, 2))
    assert llk.find_path(board, (0, 0), (0, 2)) == [(0, 0), (0, 2)]
    assert llk.moves(board) == board.moves()
    assert llk.can_link(board, (0, 0), (0, 2), rules=RULES_2N)
    with pytest.raises(ValueError, match="rules"):
        llk.can_link(board, (0, 0), (0, 2), rules=RULES_2B)


@pytest.mark.parametrize("gravity", ["down", "up", "left", "right"])
def test_module_functions_compact_the_grid_first_under_gravity(gravity):
    """One meaning for gravity in every module call: the grid is compacted first (as a Board
    is), and points are points of the compacted board; can_link, find_path, moves, hint,
    verify and solve all agree with llkref on that board."""
    grid = [[1, 0, 0, 1],
            [0, 0, 2, 0],
            [0, 0, 0, 0],
            [1, 2, 0, 1]]
    r = llk.Rules(gravity=gravity)
    settled = [list(row) for row in grid]
    llkref.apply_gravity(settled, gravity)
    assert settled != grid
    cells = [(i, j) for i in range(4) for j in range(4)]
    for a in cells:
        for b in cells:
            assert llk.can_link(grid, a, b, rules=r) is llkref.can_link(settled, a, b), (gravity, a, b)
            assert llk.find_path(grid, a, b, rules=r) == llkref.find_path(settled, a, b)
    found = llk.moves(grid, rules=r)
    assert found == llkref.moves(settled) != []
    assert llk.hint(grid, rules=r) == llk.Board(settled, rules=r).hint()
    for move in found:
        rest = llk.Board(grid, rules=r)
        rest.remove(*move)
        assert llk.verify(grid, [move] + llk.solve(rest).moves, rules=r) is (
            llk.solve(rest).verdict == llk.Verdict.SOLVABLE)


def test_module_calls_agree_on_the_compacted_grid():
    """The case the hardening review found: moves, verify and solve on an uncompacted grid."""
    g = [[1, 0], [0, 0], [1, 0]]
    r = llk.Rules(gravity="down", border=False, max_turns=0)
    assert llk.moves(g, rules=r) == [((1, 0), (2, 0))]
    assert llk.verify(g, [((1, 0), (2, 0))], rules=r)
    assert not llk.verify(g, [((0, 0), (2, 0))], rules=r)
    assert llk.solve(g, rules=r).moves == [((1, 0), (2, 0))]
    assert llk.can_link(g, (1, 0), (2, 0), rules=r) and not llk.can_link(g, (0, 0), (2, 0), rules=r)


# ---------------------------------------------------------------------------------------------
# Threads: the kernels release the GIL, so one Board shared by threads must stay correct
# ---------------------------------------------------------------------------------------------

THREADS_SCRIPT = textwrap.dedent("""
    import threading, numpy as np, llkcore as llk
    rng = np.random.default_rng(0)
    grid = rng.integers(1, 4, size=(30, 30))
    grid[rng.random((30, 30)) < 0.5] = 0
    for turns in (2, 3):
        board = llk.Board(grid, rules=llk.Rules(max_turns=turns))
        pairs = [(a, b) for ps in board.index.as_dict().values()
                 for i, a in enumerate(ps) for b in ps[i + 1:]][:1500]
        queries = np.array([[*a, *b] for a, b in pairs])
        want_many = board.can_link_many(queries)
        want_paths = [board.find_path(a, b) for a, b in pairs]
        bad = []
        def work():
            for _ in range(3):
                if not np.array_equal(board.can_link_many(queries), want_many):
                    bad.append("can_link_many")
                if [board.find_path(a, b) for a, b in pairs] != want_paths:
                    bad.append("find_path")
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
        assert not bad, (turns, sorted(set(bad)))
    print("ok")
""")


def test_threads_sharing_one_board():
    """Concurrent queries on one Board give the single-threaded answers and never crash.

    Run in a child process: a data race on shared search buffers can corrupt the heap.
    """
    proc = subprocess.run([sys.executable, "-c", THREADS_SCRIPT], capture_output=True, text=True,
                          timeout=120, cwd="/")
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", (proc.returncode, proc.stderr[-2000:])


def serpentine(n):
    """An n x n maze (n odd): open rows joined at alternating ends; the two ends hold 5s."""
    grid = [[-1] * n for _ in range(n)]
    for r in range(0, n, 2):
        grid[r] = [0] * n
    for r in range(1, n, 2):
        grid[r][n - 1 if (r // 2) % 2 == 0 else 0] = 0
    grid[0][0] = 5
    end = (n - 1, n - 1 if ((n - 1) // 2) % 2 == 0 else 0)
    grid[end[0]][end[1]] = 5
    return grid, end


@pytest.mark.parametrize("n", [5, 9])
def test_serpentine_needs_every_turn(n):
    grid, end = serpentine(n)
    needed = llkref.path_turns(llkref.find_path(grid, (0, 0), end, max_turns=4 * n, border=False))
    assert needed == 2 * (n // 2)
    for turns in list(range(needed + 2)) + [2**31 - 1]:
        r = llk.Rules(max_turns=turns, border=False)
        board = llk.Board(grid, rules=r)
        assert board.can_link((0, 0), end) is (turns >= needed), turns
        path = board.find_path((0, 0), end)
        if turns >= needed:
            assert_valid_path(grid, path, (0, 0), end, turns, False)
            assert llkref.path_turns(path) == needed
            assert board.moves() == [((0, 0), end)] and board.hint() == ((0, 0), end)
        else:
            assert path is None and board.moves() == [] and board.is_stuck()
