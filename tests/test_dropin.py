"""The drop-in path a bot takes: module calls on its own grids (read in place), cheap Boards and
``update`` for each new screen, labels from a screen reader, turns per pair, rule presets, and
playing a whole game from a certificate.

Module calls are checked against llkref on random boards of every rule variant, for lists,
tuples and arrays of every integer dtype and memory order; ``update`` with a bad grid leaves the
Board as it was.
"""
from __future__ import annotations

import itertools
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import llkcore as llk
import llkref
from conftest import (assert_path_matches_ref, assert_unchanged, examples, grids, point_pairs,
                      ref_kwargs, rules_st, snapshot)

INT_DTYPES = (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)


def sources(grid):
    """The same grid as a bot might hold it: lists, tuples, arrays of every dtype and order."""
    out = {"list": grid, "tuple": tuple(tuple(row) for row in grid),
           "list of tuples": [tuple(row) for row in grid]}
    signed = min(min(row) for row in grid) < 0
    for dtype in INT_DTYPES:
        if signed and np.dtype(dtype).kind == "u":
            continue
        base = np.array(grid, dtype=dtype)
        out[f"{np.dtype(dtype).name} C"] = base
        out[f"{np.dtype(dtype).name} F"] = np.asfortranarray(base)
        wide = np.zeros((base.shape[0], 2 * base.shape[1]), dtype=dtype)
        wide[:, ::2] = base
        out[f"{np.dtype(dtype).name} strided"] = wide[:, ::2]
    out["big-endian"] = np.array(grid, dtype=">i4")
    return out


# ---------------------------------------------------------------------------------------------
# Module calls read the grid in place
# ---------------------------------------------------------------------------------------------

@settings(max_examples=examples(60))
@given(data=st.data(), r=rules_st())
def test_module_calls_agree_with_llkref_on_every_kind_of_grid(data, r):
    grid = data.draw(grids(max_side=9, spread=False))
    pairs = data.draw(point_pairs(grid, n=6))
    want_link = [llkref.can_link(grid, a, b, **ref_kwargs(r)) for a, b in pairs]
    for name, src in sources(grid).items():
        got = [llk.can_link(src, a, b, rules=r) for a, b in pairs]
        assert got == want_link, (name, r)
        for a, b in pairs[:3]:
            assert_path_matches_ref(grid, llk.find_path(src, a, b, rules=r), a, b, r)
    assert llk.moves(grid, rules=r) == llkref.moves(grid, **ref_kwargs(r))


@settings(max_examples=examples(40))
@given(data=st.data(), r=rules_st(gravity=True))
def test_module_calls_under_gravity_answer_for_the_compacted_grid(data, r):
    grid = data.draw(grids(max_side=7, spread=False))
    settled = [list(row) for row in grid]
    llkref.apply_gravity(settled, r.gravity)
    for a, b in data.draw(point_pairs(settled, n=6)):
        assert llk.can_link(grid, a, b, rules=r) is llkref.can_link(settled, a, b, **ref_kwargs(r))
        assert llk.find_path(grid, a, b, rules=r) == llkref.find_path(settled, a, b, **ref_kwargs(r))
    assert llk.moves(grid, rules=r) == llkref.moves(settled, **ref_kwargs(r))
    assert llk.hint(grid, rules=r) == llkref.hint(settled, **ref_kwargs(r))


def test_a_wide_query_reads_only_the_lines_it_needs():
    """A link test or a path up to two turns reads the lines through its two tiles and the
    crossing lines between them, nothing else: a huge grid whose other cells hold garbage
    answers a local query (this is what makes it cheap), while a Board checks every cell."""
    grid = [[7, 0, 7] + [0] * 1000] + [[-1, -1, -1] + ["junk"] * 1000 for _ in range(1000)]
    assert llk.can_link(grid, (0, 0), (0, 2)) is True
    assert llk.find_path(grid, (0, 0), (0, 2)) == [(0, 0), (0, 2)]
    grid[0][1] = 3      # now round through the ring above: still only row 0 and columns 0-2
    assert llk.find_path(grid, (0, 0), (0, 2)) == [(0, 0), (-1, 0), (-1, 2), (0, 2)]
    with pytest.raises(llk.BoardError, match="junk"):
        llk.Board(grid)


def test_crossing_lines_are_read_only_between_the_two_tiles():
    """A helper's audit: on a maze of wall rows without the ring, the one path between two tiles
    ran its middle down a column at the far side, and every crossing column up to it was read in
    full (49 ms a call at 1024 x 1024, more than building a Board). A middle segment lies between
    the two tiles' rows (or columns), so only that part of a crossing line is read: junk in the
    rest of those columns is never looked at."""
    n = 60
    grid = [["junk"] * n for _ in range(n)]
    for r in range(n):
        grid[r][1] = -1
    for r in (10, 17):
        grid[r] = [-1, 5] + [0] * (n - 3) + [-1]
    for r in range(11, 17):
        grid[r][2:] = [-1] * (n - 2)
        grid[r][n - 2] = 0                          # the one gap, at the far side
    rules = llk.Rules(border=False)
    want = [(10, 1), (10, n - 2), (17, n - 2), (17, 1)]
    assert llk.can_link(grid, (10, 1), (17, 1), rules=rules) is True
    assert llk.find_path(grid, (10, 1), (17, 1), rules=rules) == want
    assert llk.find_path(grid, (17, 1), (10, 1), rules=rules) == want[::-1]
    grid[13][n - 2] = -1                            # no gap: no path, still without the junk
    assert llk.can_link(grid, (10, 1), (17, 1), rules=rules) is False
    assert llk.find_path(grid, (10, 1), (17, 1), rules=rules) is None
    with pytest.raises(llk.BoardError, match="junk"):
        llk.Board(grid, rules=rules)


@settings(max_examples=examples(60))
@given(data=st.data(), r=rules_st(turns=(0, 1, 2)))
def test_module_paths_on_sparse_grids_read_the_lines_of_every_best_path(data, r):
    """On a sparse grid the empty runs are long and a best path's middle may lie far outside
    the two tiles' span: find_path reads the crossing lines outward from the span until no
    unread line could give a shorter path, and must still return llkref's path (as a Board
    does: up to two turns both name it off the run-sweep, without a search)."""
    rows, cols = data.draw(st.integers(1, 24)), data.draw(st.integers(1, 24))
    tiles = data.draw(st.integers(2, 12))
    cells = [1, 2] * (tiles // 2) + [-1] * data.draw(st.integers(0, 6))
    cells += [0] * max(0, rows * cols - len(cells))
    cells = data.draw(st.permutations(cells[:rows * cols]))
    grid = [list(cells[i * cols:(i + 1) * cols]) for i in range(rows)]
    board = llk.Board(grid, rules=r)
    for a, b in data.draw(point_pairs(grid, n=8)):
        want = llkref.find_path(grid, a, b, **ref_kwargs(r)) if a != b else None
        assert board.find_path(a, b) == want
        assert llk.find_path(grid, a, b, rules=r) == want
        assert llk.find_path(np.array(grid), a, b, rules=r) == want
        assert llk.can_link(grid, a, b, rules=r) is (want is not None)


def test_moves_with_turns_matches_the_paths():
    for seed in range(6):
        for turns in (0, 1, 2, 3):
            r = llk.Rules(max_turns=turns, border=seed % 2 == 0)
            board = llk.generate(7, 8, solvable=False, seed=seed, rules=r)
            grid = board.grid.tolist()
            arr = board.moves_array(with_turns=True)
            assert arr.shape[1] == 5 and arr.dtype == np.int32
            assert arr[:, :4].tolist() == board.moves_array().tolist()
            for r1, c1, r2, c2, t in arr.tolist():
                path = llkref.find_path(grid, (r1, c1), (r2, c2), **ref_kwargs(r))
                assert t == llkref.path_turns(path)
            assert llk.moves(grid, rules=r, with_turns=True) == [
                ((a, b), (c, d), t) for a, b, c, d, t in arr.tolist()]
    assert llk.Board([[1, 2]]).moves_array(with_turns=True).shape == (0, 5)
    with pytest.raises(TypeError, match="with_turns"):
        llk.Board([[1, 1]]).moves_array(with_turns=1)


# ---------------------------------------------------------------------------------------------
# update: the next screen
# ---------------------------------------------------------------------------------------------

def test_update_loads_a_new_screen_in_place():
    board = llk.generate(6, 8, seed=3, rules=llk.Rules(gravity="down"))
    view = board.grid
    board.remove(*board.certificate[0])
    board.undo()
    screen = llk.generate(6, 8, solvable=False, seed=9).grid.copy()
    screen[0, :] = 0                                 # a screen mid-game, not yet compacted
    board.update(screen)
    settled = screen.tolist()
    llkref.apply_gravity(settled, "down")
    assert board.grid.tolist() == settled and view.tolist() == settled   # views stay live
    assert board.history == [] and not board.redo() and board.certificate is None
    assert board.rules == llk.Rules(gravity="down")
    assert board.moves() == llkref.moves(settled)
    assert board.index.as_dict() == llkref.tile_index(settled)
    board.update(board.grid.tolist())                # the same screen again: nothing changes
    assert board.grid.tolist() == settled


@pytest.mark.parametrize("bad", [
    [[1, 2], [3, 4]],                                # another shape
    np.zeros((6, 9), dtype=int),
    [[1] * 8] * 5 + [[1] * 7 + [2.5]],               # a bad value
    [[1] * 8] * 5 + [[1] * 7],                       # ragged
    "not a grid",
])
def test_a_failed_update_leaves_the_board_unchanged(bad):
    board = llk.generate(6, 8, seed=1)
    board.remove(*board.certificate[0])
    board.undo()
    before = snapshot(board)
    certificate = board.certificate
    with pytest.raises(llk.BoardError):
        board.update(bad)
    assert_unchanged(board, before)
    assert board.certificate == certificate


@pytest.mark.parametrize("when", ["before the load", "after the load"])
def test_ctrl_c_in_update_leaves_the_old_board_or_the_whole_new_one(when):
    """An audit: Ctrl-C during update of a 1024x1024 board (the interrupt is raised as a call
    returns) left the new grid with the old certificate and seed, which no longer cleared it,
    so the board could not be saved and loaded back. The load is the section's one call; an
    interrupt before it takes effect leaves the board as it was, one after it the new board."""
    from llkcore._core.state import GridState

    class Interrupted(GridState):
        def load(self, other):
            if when == "after the load":
                super().load(other)
            raise KeyboardInterrupt

    board = llk.generate(6, 8, seed=1)
    # (The state is swapped before any removal: a state has room for the tiles it was built
    # with, and undo puts back the removed ones.)
    board._state = Interrupted(np.array(board.grid, dtype=np.int32), board.rules.border)
    board.remove(*board.certificate[0])
    old_grid = board.grid.copy()
    certificate, undo = board.certificate, list(board._undo)
    new = llk.generate(6, 8, seed=2).grid
    with pytest.raises(KeyboardInterrupt):
        board.update(new)
    if when == "before the load":
        assert board.grid.tolist() == old_grid.tolist()
        assert board.certificate == certificate and board.seed == 1 and board._undo == undo
    else:
        assert board.grid.tolist() == new.tolist()
        assert board.certificate is None and board.seed is None and board._undo == []
    # Either way the board is whole: it saves and loads back (loading replays the certificate).
    assert llk.Board.from_json(board.to_json()).grid.tolist() == board.grid.tolist()


@pytest.mark.parametrize("when", ["before the removal", "after the removal"])
def test_ctrl_c_in_remove_leaves_the_board_as_it_was_or_the_removal_recorded(when):
    """Ctrl-C raised as the removal's call returned found no record of it: undo could not take
    it back. Now the history is written first; an interrupt before the removal puts it back."""
    from llkcore._core.state import GridState

    class Interrupted(GridState):
        armed = False

        def try_remove(self, *args):
            if not self.armed:
                return super().try_remove(*args)
            if when == "after the removal":
                super().try_remove(*args)
            raise KeyboardInterrupt

    board = llk.generate(6, 8, seed=1)
    # (Swapped before any removal: a state has room for the tiles it was built with.)
    board._state = Interrupted(np.array(board.grid, dtype=np.int32), board.rules.border)
    first, second = board.certificate[:2]
    board.remove(*first)
    board.remove(*second)
    board.undo()                     # a redo to keep, or to drop with the removal
    grid, undo, redo = board.grid.tolist(), list(board._undo), list(board._redo)
    board._state.armed = True
    with pytest.raises(KeyboardInterrupt):
        board.remove(*second)
    if when == "before the removal":
        assert board.grid.tolist() == grid and board._undo == undo and board._redo == redo
    else:
        assert board.grid.tolist() != grid and board._redo == [] and len(board._undo) == 2
        assert board.undo() and board.grid.tolist() == grid


def test_update_is_as_cheap_as_construction_and_keeps_threads_safe():
    """update takes the writer lock like every change; readers on other threads see the old or
    the new screen, never a mix (their answers are one of the two)."""
    import threading
    a = llk.generate(10, 10, solvable=False, seed=1).grid.copy()
    b = llk.generate(10, 10, solvable=False, seed=2).grid.copy()
    board = llk.Board(a)
    answers = {llk.Board(a).moves_array().tobytes(), llk.Board(b).moves_array().tobytes()}
    bad = []

    def reader():
        for _ in range(300):
            if board.moves_array().tobytes() not in answers:
                bad.append(1)

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for i in range(300):
        board.update(b if i % 2 else a)
    for t in threads:
        t.join()
    assert not bad


# ---------------------------------------------------------------------------------------------
# Labels from a screen reader
# ---------------------------------------------------------------------------------------------

def test_boards_from_labels():
    screen = [["cat", "dog", None, "cat"],
              [("tile", 3), ("tile", 3), "dog", "LOCK"],
              [None, 7, None, 7]]
    board = llk.Board.from_labels(screen, empty=None, walls={"LOCK"})
    assert board.grid.tolist() == [[1, 2, 0, 1], [3, 3, 2, -1], [0, 4, 0, 4]]
    assert board.labels == {0: None, 1: "cat", 2: "dog", 3: ("tile", 3), -1: "LOCK", 4: 7}
    assert board.label_at((1, 0)) == ("tile", 3) and board.label_at((1, 3)) == "LOCK"
    assert board.label_at((0, 2)) is None
    assert board.moves() == [((0, 0), (0, 3)), ((0, 1), (1, 2)), ((1, 0), (1, 1)), ((2, 1), (2, 3))]
    board.remove((1, 0), (1, 1))
    assert board.label_at((1, 0)) is None
    # The next screen, in labels: known labels keep their numbers, new ones get new numbers.
    board.update([["cat", "owl", None, "cat"], ["owl", None, "dog", "LOCK"], [None, "dog", None, None]])
    assert board.grid.tolist() == [[1, 5, 0, 1], [5, 0, 2, -1], [0, 2, 0, 0]]
    assert board.labels[5] == "owl" and board.history == []
    assert board.copy().labels == board.labels


def test_declared_walls_not_on_the_first_screen_stay_walls():
    """A bot declares its obstacle labels up front; one that appears only on a later screen is
    a wall, as it is for a board built from that screen (it was numbered as a tile type, which
    hint() suggested and remove() removed: a helper's audit). Saved and copied boards keep it."""
    first = [["cat", None, "cat"], [None, None, None]]
    later = [["cat", None, "cat"], ["LOCK", "LOCK", None]]
    board = llk.Board.from_labels(first, empty=None, walls=["LOCK", "ROCK"])
    assert board.grid.tolist() == [[1, 0, 1], [0, 0, 0]]
    assert board.labels == {0: None, 1: "cat", -1: "LOCK", -2: "ROCK"}
    for kept in (board, board.copy(), llk.Board.from_json(board.to_json())):
        kept.update(later)
        assert kept.grid.tolist() == [[1, 0, 1], [-1, -1, 0]]
        assert kept.hint() == ((0, 0), (0, 2))
        with pytest.raises(llk.IllegalMove):
            kept.remove((1, 0), (1, 1))
    # Walls on the screen are numbered first, in order of appearance; a label given twice once.
    shown = llk.Board.from_labels([["R", "cat", "cat"]], empty=None, walls=["LOCK", "R", "LOCK"])
    assert shown.grid.tolist() == [[-1, 1, 1]] and shown.labels == {0: None, -1: "R", 1: "cat", -2: "LOCK"}


def test_labels_that_are_ints_and_bad_labels():
    board = llk.Board.from_labels([[5, 9, 0], [9, 5, -3]], empty=0, walls=[-3])
    assert board.grid.tolist() == [[1, 2, 0], [2, 1, -1]]
    assert [board.label_at(p) for p in ((0, 0), (0, 1), (0, 2), (1, 2))] == [5, 9, 0, -3]
    with pytest.raises(llk.BoardError, match="hashable"):
        llk.Board.from_labels([[["a"], "b"]])
    for where in (dict(empty=[]), dict(walls=[["L"]])):     # (empty=[] was a bare TypeError)
        with pytest.raises(llk.BoardError, match="hashable"):
            llk.Board.from_labels([["a", "a"]], **where)
    # Rows in no order of the caller's were numbered in hash order (it changes run to run),
    # and an endless walls= was read until memory ran out (an audit).
    for rows in ([{"cat", "dog"}] * 2, [{"cat": 1, "dog": 2}.keys()], {("a", "a")}):
        with pytest.raises(llk.BoardError, match="sequence of labels|grid of labels, got set"):
            llk.Board.from_labels(rows)
    with pytest.raises(llk.BoardError, match="walls: at most"):
        llk.Board.from_labels([["a", "a"]], walls=itertools.count())
    with pytest.raises(llk.BoardError):
        llk.Board.from_labels("ab")
    with pytest.raises(llk.CoordinateError):
        board.label_at((5, 5))
    assert llk.Board([[3, 0]]).label_at((0, 0)) == 3 and llk.Board([[3, 0]]).labels is None
    # Labels are dict keys: those Python calls equal are one type (the README says so).
    merged = llk.Board.from_labels([[1, 1.0], [True, "a"], ["a", None]], empty=None)
    assert merged.grid.tolist() == [[1, 1], [1, 2], [2, 0]] and merged.labels == {0: None, 1: 1, 2: "a"}


def test_walls_given_as_a_set_are_numbered_alike_in_every_run():
    """A set's order follows string hashing, which PYTHONHASHSEED changes: declared walls not on
    the screen were numbered differently from run to run, and so were saved games (a helper's
    audit). They are now numbered in the order of (type name, repr)."""
    script = ("import llkcore as llk\n"
              "b = llk.Board.from_labels([['cat', 'dog', None], ['LOCK', 'cat', 'dog']], empty=None,\n"
              "                          walls={'LOCK', 'ROCK', 'TREE', 'WALL', 7, ('a', 1)})\n"
              "b.update([['cat', 'TREE', 'cat'], ['WALL', None, None]])\n"
              "print(b.to_json())\n")
    saved = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                            env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("0", "1", "2")}
    assert len(saved) == 1
    board = llk.Board.from_json(saved.pop())
    assert board.labels == {0: None, 1: "cat", 2: "dog", -1: "LOCK", -2: 7, -3: "ROCK", -4: "TREE",
                            -5: "WALL", -6: ("a", 1)}
    assert board.grid.tolist() == [[1, -4, 1], [-5, 0, 0]]


def test_walls_given_as_one_string_are_refused_and_nan_is_one_label():
    """Two slips a screen reader makes (a helper's audit): ``walls="LOCK"`` was read as the four
    walls "L", "O", "C", "K" (and "LOCK" became a tile type); each NaN cell of a float screen
    was a tile type of its own, as NaN equals nothing, so ``empty=np.nan`` matched no cell."""
    with pytest.raises(TypeError, match=r"walls=\{'LOCK'\}"):
        llk.Board.from_labels([["cat", "LOCK", "cat"]], empty=None, walls="LOCK")
    screen = np.array([[1.0, np.nan, 1.0], [2.0, np.nan, 2.0]])
    for grid in (screen, screen.tolist()):
        board = llk.Board.from_labels(grid, empty=float("nan"))
        assert board.grid.tolist() == [[1, 0, 1], [2, 0, 2]]
        assert board.moves() == [((0, 0), (0, 2)), ((1, 0), (1, 2))]
        walled = llk.Board.from_labels(grid, empty=None, walls=[np.nan])
        assert walled.grid.tolist() == [[1, -1, 1], [2, -1, 2]]
        walled.update(screen)                       # the same NaN wall on the next screen
        assert walled.grid.tolist() == [[1, -1, 1], [2, -1, 2]]
    tiles = llk.Board.from_labels([[np.nan, "a", float("nan")]], empty="a")
    assert tiles.grid.tolist() == [[1, 0, 1]] and tiles.moves() == [((0, 0), (0, 2))]
    # Inside a tuple too (a UI audit: two ("x", nan) tiles were two types that never match,
    # and update() of a loaded board numbered the label anew).
    pair = llk.Board.from_labels([[("x", float("nan")), ("x", np.nan)]])
    assert pair.grid.tolist() == [[1, 1]] and pair.moves() == [((0, 0), (0, 1))]
    loaded = llk.Board.from_json(pair.to_json())
    loaded.update([[("x", float("nan")), None]])
    assert loaded.grid.tolist() == [[1, 0]]


def test_the_empty_label_cannot_also_be_a_wall():
    """``empty="a", walls=["a"]`` made every "a" cell empty and said nothing (a newcomer's
    audit): which of the two the caller meant is unknowable, so it is refused, NaN included."""
    for empty, walls in (("a", ["a"]), (None, [None, "x"]), (float("nan"), {np.nan})):
        with pytest.raises(llk.BoardError, match="both the empty label and a wall"):
            llk.Board.from_labels([["a", "b", "a", "b"]], empty=empty, walls=walls)
    board = llk.Board.from_labels([["a", "x", "a"]], empty=None, walls=["x"])
    assert board.grid.tolist() == [[1, -1, 1]]


@pytest.mark.parametrize("grid", [np.array(1), np.array([np.array(2), np.array(3)], dtype=object),
                                  [np.array("a")]])
def test_zero_dimensional_arrays_are_not_label_grids(grid):
    """A 0-d array has ``__iter__`` but refuses iteration (TypeError): a BoardError instead, for
    from_labels and for update on a labelled board (found by the fuzz suite: Board.update(array(1)))."""
    with pytest.raises(llk.BoardError):
        llk.Board.from_labels(grid)
    board = llk.Board.from_labels([["a", "a"]])
    with pytest.raises(llk.BoardError):
        board.update(grid)
    assert board.grid.tolist() == [[1, 1]]


# ---------------------------------------------------------------------------------------------
# Presets, and playing a whole game
# ---------------------------------------------------------------------------------------------

def test_rule_presets():
    assert llk.Rules.preset("classic") == llk.Rules() == llk.PRESETS["onet"]
    assert llk.Rules.preset("qq") == llk.Rules(border=False) == llk.PRESETS["hdu1175"]
    assert llk.Rules.preset("kshisen") == llk.Rules(gravity="down")
    with pytest.raises(ValueError, match="preset"):
        llk.Rules.preset("chess")


@pytest.mark.parametrize("preset", sorted(llk.PRESETS))
def test_a_bot_plays_a_whole_game_from_one_solve(preset):
    """The README recipe: solve once, then click the certificate's pairs one by one."""
    board = llk.generate(8, 10, seed=4, rules=llk.Rules.preset(preset))
    solution = llk.solve(board)
    assert solution.verdict == llk.Verdict.SOLVABLE
    for a, b in solution.moves:
        path = board.remove(a, b)
        assert path[0] == a and path[-1] == b
    assert board.is_clear()


def test_tiny_and_large_boards_build():
    assert llk.Board([[1, 1]]).moves() == [((0, 0), (0, 1))]
    big = [[(r * 7 + c) % 50 + 1 for c in range(200)] for r in range(200)]
    board = llk.Board(big)
    assert board.grid.tolist() == big
    assert board.index.counts() == {t: 800 for t in range(1, 51)}
    sparse = [[7 * 10**8 * (1 + (r + c) % 3) if (r + c) % 7 == 0 else 0 for c in range(14)]
              for r in range(14)]                    # scattered type values: the sorted index
    board = llk.Board(sparse)
    assert board.index.as_dict() == llkref.tile_index(sparse)
    assert board.moves() == llkref.moves(sparse)


def test_every_cell_query_agrees_on_a_small_board():
    grid = [[1, 2, 0, 1], [3, 3, 2, -1], [0, 4, 0, 4]]
    for r in (llk.Rules(), llk.Rules(border=False), llk.Rules(max_turns=1)):
        cells = list(itertools.product(range(3), range(4)))
        for a, b in itertools.product(cells, cells):
            assert llk.can_link(grid, a, b, rules=r) is llkref.can_link(grid, a, b, **ref_kwargs(r))
