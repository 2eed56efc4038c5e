"""Board: text round trip, moves, hint, status, remove/undo/redo, copy, gravity and the index.

The oracle is llkref (moves, find_path, tile_index, and its Board model for gravity and history).
"""
from __future__ import annotations

import copy
import itertools
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import llkcore as llk
import llkref
from llkcore import IllegalMove
from conftest import (GRAVITIES, assert_index_matches, assert_path_matches_ref, assert_same_position,
                      assert_unchanged, deals, examples, grids, point_pairs, redo_trail, ref_kwargs,
                      rules_st, same_type_pairs, snapshot)


def ref_board(grid, r):
    return llkref.Board(grid, **ref_kwargs(r, gravity=True))


# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------

@settings(max_examples=examples(100))
@given(grid=grids(), r=rules_st())
def test_text_round_trip(grid, r):
    board = llk.Board(grid, rules=r)
    text = board.to_text()
    assert isinstance(text, str) and text.endswith("\n")
    again = llk.Board.from_text(text, rules=r)
    assert again.grid.tolist() == grid
    assert again.rules == r
    assert again.to_text() == text
    # Blank lines and extra blanks anywhere are ignored.
    spaced = "\n\n" + "\n \n".join("  " + line + "\t" for line in text.splitlines()) + "\n\n"
    assert llk.Board.from_text(spaced).grid.tolist() == grid


def test_text_symbols():
    text = "1 . #\n\n  -5 2 -1\n12 . 0\n"
    board = llk.Board.from_text(text)
    assert board.grid.tolist() == [[1, 0, -1], [-5, 2, -1], [12, 0, 0]]
    out = board.to_text()
    lines = [line.split() for line in out.splitlines()]
    assert lines == [["1", ".", "#"], ["-5", "2", "#"], ["12", ".", "."]]
    assert llk.Board.from_text(out).grid.tolist() == board.grid.tolist()
    # Columns line up: every line has the same length.
    assert len({len(line) for line in out.splitlines()}) == 1


def test_text_after_moves_shows_the_current_grid():
    board = llk.Board.from_text("1 2 2 1")
    board.remove((0, 1), (0, 2))
    assert llk.Board.from_text(board.to_text()).grid.tolist() == [[1, 0, 0, 1]]


# ---------------------------------------------------------------------------------------------
# moves, moves_array
# ---------------------------------------------------------------------------------------------

def check_moves(board):
    grid = board.grid.tolist()
    r = board.rules
    moves = board.moves()
    assert moves == llkref.moves(grid, **ref_kwargs(r))
    arr = board.moves_array()
    assert arr.dtype == np.int32 and arr.ndim == 2 and arr.shape == (len(moves), 4)
    assert [((a, b), (c, d)) for a, b, c, d in arr.tolist()] == moves
    assert all(isinstance(v, int) for m in moves for p in m for v in p)
    assert moves == sorted(moves) and all(a < b for a, b in moves)
    assert len(set(moves)) == len(moves)
    # Every listed pair links; every same-type pair not listed does not.
    pairs = same_type_pairs(grid)
    if pairs:
        linked = board.can_link_many([[*a, *b] for a, b in pairs])
        assert {p for p, ok in zip(pairs, linked) if ok} == set(moves)
    else:
        assert moves == []


@settings(max_examples=examples(150))
@given(grid=grids(max_side=10), r=rules_st(gravity=True))
def test_moves_match_llkref(grid, r):
    board = llk.Board(grid, rules=r)
    assert board.grid.tolist() == ref_board(grid, r).grid
    check_moves(board)
    if r.gravity is None:
        assert llk.moves(grid, rules=r) == board.moves()


# Ten types, a third of the cells empty, a few walls: about a thousand same-type pairs, so the
# llkref oracle stays affordable on 16x16.
LARGE_PALETTE = [0] * 6 + list(range(1, 11)) + [-1, -4]


@settings(max_examples=examples(6))
@given(grid=st.integers(12, 16).flatmap(lambda n: st.lists(
    st.lists(st.sampled_from(LARGE_PALETTE), min_size=n, max_size=n), min_size=12, max_size=16)),
    r=rules_st(turns=(1, 2, 3)))
def test_moves_match_llkref_on_large_boards(grid, r):
    check_moves(llk.Board(grid, rules=r))


@st.composite
def crowded_grids(draw):
    """Boards holding 8 or 12 copies of some types (no cap on tiles scanned per type)."""
    rows = draw(st.integers(3, 7))
    cols = draw(st.integers(4, 7))
    counts = draw(st.lists(st.sampled_from([8, 12, 2, 4]), min_size=1, max_size=3))
    assume(sum(counts) <= rows * cols and (8 in counts or 12 in counts))
    cells = [t + 1 for t, n in enumerate(counts) for _ in range(n)]
    filler = draw(st.lists(st.sampled_from([0, 0, 0, -1]), min_size=rows * cols - len(cells),
                           max_size=rows * cols - len(cells)))
    order = draw(st.permutations(cells + filler))
    return [list(order[i * cols:(i + 1) * cols]) for i in range(rows)]


@settings(max_examples=examples(60))
@given(grid=crowded_grids(), r=rules_st())
def test_moves_with_many_copies_of_a_type(grid, r):
    board = llk.Board(grid, rules=r)
    assert max(board.index.counts().values()) in (8, 12)
    check_moves(board)


def listed_by_runs(grid: np.ndarray) -> bool:
    """Whether moves_array lists this board's moves of up to two turns by runs (pairs.pyx,
    lists_by_runs): at least 40% of the padded cells hold tiles and some type would be flooded
    (floods_type: more than 64 tiles, and (n - 1) / 2 > 15 L**1.5 for the mean run L)."""
    cells = (grid.shape[0] + 2) * (grid.shape[1] + 2)
    counts = np.bincount(grid[grid > 0])
    tiles = int(counts.sum())
    run = min(cells / max(tiles, 1), max(grid.shape) + 2)
    return 5 * tiles >= 2 * cells and any(n > 64 and (n - 1) / 2 > 15 * run ** 1.5 for n in counts)


def test_moves_listed_by_runs_are_exactly_the_pairs_that_link():
    """On a board at least 40% full where some type has many tiles, the moves of up to two
    turns are listed from the runs of empty cells (pairs.pyx, run_moves) instead of a flood per
    tile: they are the same-type pairs that link, tested one by one (can_link_many), on crowded
    and sparse boards of few types, with walls, ring or not, with and without gravity, and the
    listing it replaces (``by_runs=False``) gives the same array."""
    from llkcore._core import pairs as _pairs
    rng = np.random.default_rng(2026_12_05)
    by_runs = 0
    boards = examples(150)
    for i in range(boards):
        rows, cols = (int(v) for v in rng.integers(10, 33, size=2))
        fill = rng.choice([0.2, 0.45, 0.7, 0.9, 1.0])
        types = int(rng.integers(1, 5))
        grid = np.where(rng.random((rows, cols)) < fill, rng.integers(1, types + 1, (rows, cols)), 0)
        grid[rng.random((rows, cols)) < rng.choice([0.0, 0.0, 0.03, 0.2])] = -1
        rules = llk.Rules(border=bool(rng.integers(2)), gravity=[None, None, "down", "left"][i % 4])
        board = llk.Board(grid.astype(np.int32), rules=rules)
        grid = board.grid
        by_runs += listed_by_runs(grid)
        pairs = np.array([(*divmod(int(p), cols), *divmod(int(q), cols))
                          for t in np.unique(grid[grid > 0])
                          for p, q in itertools.combinations(np.flatnonzero(grid == t), 2)],
                         dtype=np.int64).reshape(-1, 4)
        linked = pairs[board.can_link_many(pairs)] if len(pairs) else pairs
        listed = board.moves_array(with_turns=True)
        assert listed[:, :4].tolist() == sorted(linked.tolist()), (rows, cols, fill, rules)
        flooded = _pairs.moves_cells(board._state, 2, by_runs=False)
        assert np.array_equal(_pairs.moves_cells(board._state, 2), flooded)
        for r1, c1, r2, c2, turns in listed[::97].tolist():
            path = board.find_path((r1, c1), (r2, c2))
            assert path is not None and len(path) - 2 == turns
    assert 0.25 <= by_runs / boards <= 0.75, by_runs


def test_moves_twelve_copies_in_a_row():
    grid = [[1] * 12, [0] * 12]
    board = llk.Board(grid, rules=llk.Rules(border=False))
    # Adjacent pairs link; any two 1s in the row link through the empty row below.
    assert board.moves() == llkref.moves(grid, border=False)
    assert len(board.moves()) == 66


def test_moves_are_made_untracked_by_the_cycle_collector():
    """Tuples of ints cannot be in a reference cycle; made tracked, a million moves (three
    tuples each) were walked by every full collection as the list grew, with the GIL held
    (bench/test_bench_gil.py, moves-list). The collector untracks such tuples when it meets
    them: they are made untracked (the triples of ``with_turns`` too), and equal what llkref
    gives."""
    import gc

    grid = [[1, 2, 1, 0], [2, 0, 0, 2], [-1, 1, 2, 1]]
    board = llk.Board(grid)
    moves = board.moves()
    assert moves == llkref.moves(grid) and len(moves) > 2
    triples = board.moves(with_turns=True)
    assert triples == [((r1, c1), (r2, c2), t)
                       for r1, c1, r2, c2, t in board.moves_array(with_turns=True).tolist()]
    assert [triple[:2] for triple in triples] == moves
    for move in moves + llk.solve(board).moves + triples:
        assert not gc.is_tracked(move), move
        assert not any(gc.is_tracked(point) for point in move[:2]), move


MEMORY_SCRIPT = textwrap.dedent("""
    import resource, numpy as np, llkcore as llk
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    n = 150
    board = llk.Board(np.ones((n, n), dtype=np.int8), rules=llk.Rules(border=False))
    # Full board, one type: exactly the adjacent pairs link (2 n (n - 1) of them).
    assert len(board.moves_array()) == 2 * n * (n - 1)
    assert board.hint() == ((0, 0), (0, 1))
    print("ok")
""")


def test_moves_memory_follows_the_answer_not_the_same_type_pairs():
    """A 150x150 board of one type has 253 million same-type pairs but only 44,700 moves:
    moves() and hint() must run in 1 GiB of address space."""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT], capture_output=True, text=True,
                          timeout=300, cwd="/", env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-1500:]


def test_no_tiles_and_single_tiles():
    for grid in ([[0]], [[-1]], [[0, -1], [-2, 0]], [[1]], [[1, 2, 3]], [[1, 0], [0, 2]]):
        board = llk.Board(grid)
        assert board.moves() == [] and board.hint() is None
        assert board.moves_array().shape == (0, 4)
        tiles = sum(v > 0 for row in grid for v in row)
        assert board.tiles_left == tiles
        assert board.is_clear() is (tiles == 0)
        assert board.is_stuck() is (tiles > 0)


# ---------------------------------------------------------------------------------------------
# hint
# ---------------------------------------------------------------------------------------------

@settings(max_examples=examples(120))
@given(grid=grids(max_side=9), r=rules_st())
def test_hint_fewest_turns_then_shortest_then_smallest(grid, r):
    board = llk.Board(grid, rules=r)
    hint = board.hint()
    assert hint == llkref.hint(grid, **ref_kwargs(r)) == llk.hint(grid, rules=r)
    assert (hint is None) is (board.moves() == [])
    if hint is not None:
        assert hint in board.moves()
        assert isinstance(hint, tuple) and all(isinstance(p, tuple) for p in hint)


def test_hint_agrees_with_the_full_order_on_crowded_and_sparse_boards():
    """The hint finds the moves of at most one turn by passes over the cells, except on boards
    with fewer than one tile in 128 cells (pairs.pxd, LINE_PASS_CELLS_PER_TILE), where it lists
    them by turns. Either way it is the first move of ``hint_order``, which lists every move and
    orders them all (checked against llkref in test_playouts), here on boards up to 120 wide
    from empty to full, with walls, every number of turns, ring or not."""
    from llkcore._core import pairs as _pairs
    rng = np.random.default_rng(2026_12_05)
    branches = set()
    for _ in range(examples(1000)):
        rows, cols = rng.integers(1, 121, size=2)
        fill = rng.choice([0.001, 0.004, 0.01, 0.05, 0.3, 0.8, 1.0])
        types = int(rng.integers(1, 80))
        grid = np.where(rng.random((rows, cols)) < fill, rng.integers(1, types + 1, (rows, cols)), 0)
        grid[rng.random((rows, cols)) < rng.choice([0.0, 0.0, 0.05, 0.3])] = -1
        rules = llk.Rules(max_turns=int(rng.integers(0, 4)), border=bool(rng.integers(2)))
        board = llk.Board(grid.astype(np.int32), rules=rules)
        order = _pairs.hint_order(board._state, rules.max_turns)
        first = None if len(order) == 0 else tuple(board._point(int(p)) for p in order[0])
        assert board.hint() == first, (rows, cols, fill, types, rules)
        branches.add(board.tiles_left * 128 >= (rows + 2) * (cols + 2))
    assert branches == {True, False}


def test_hint_prefers_fewer_turns_over_shorter():
    # 1s: straight along row 0, 0 turns, length 5. 2s: an L through (1, 1), 1 turn, length 2.
    grid = [[1, 0, 0, 0, 0, 1],
            [2, 0, -1, -1, -1, -1],
            [-1, 2, -1, -1, -1, -1]]
    board = llk.Board(grid, rules=llk.Rules(border=False))
    assert board.moves() == [((0, 0), (0, 5)), ((1, 0), (2, 1))]
    assert board.hint() == ((0, 0), (0, 5)) == llkref.hint(grid, border=False)


def test_hint_prefers_shorter_among_fewest_turns():
    # 1s: an L of length 6 (1 turn); 2s: an L of length 2 (1 turn), later in order.
    grid = [[1, 0, 0, 0, 0, 0],
            [-1, -1, -1, -1, -1, 0],
            [-1, -1, -1, -1, -1, 1],
            [-1, -1, -1, -1, 2, 0],
            [-1, -1, -1, -1, -1, 2]]
    board = llk.Board(grid, rules=llk.Rules(border=False))
    assert board.moves() == [((0, 0), (2, 5)), ((3, 4), (4, 5))]
    assert board.hint() == ((3, 4), (4, 5)) == llkref.hint(grid, border=False)


def test_hint_ties_break_on_the_smallest_pair():
    grid = [[3, 3, 0, 1, 1],
            [0, 0, 0, 0, 0],
            [2, 2, 0, 0, 0]]
    board = llk.Board(grid)
    assert board.hint() == ((0, 0), (0, 1))  # three adjacent pairs, all 0 turns, length 1


# ---------------------------------------------------------------------------------------------
# remove and IllegalMove
# ---------------------------------------------------------------------------------------------

ILLEGAL_GRID = [[1, 0, 1, 0],
                [3, -1, 3, 4],
                [5, 5, 2, 7]]  # already compacted for gravity "down"


@pytest.mark.parametrize("a, b, word", [
    ((0, 0), (1, 0), "not the same type"),
    ((1, 0), (1, 2), "no path"),          # the 3 at (1,0) is boxed in by tiles, wall and ring
    ((0, 3), (1, 3), "empty"),
    ((0, 0), (0, 1), "empty"),
    ((1, 1), (1, 1), "same cell"),
    ((0, 0), (0, 0), "same cell"),
    ((1, 1), (0, 0), "wall"),
    ((0, 0), (1, 1), "wall"),
    ((0, 0), (3, 0), "off the"),
    ((-1, 0), (0, 0), "off the"),
    ((0, 0), (0, 4), "off the"),
])
def test_illegal_moves_say_why_and_change_nothing(a, b, word):
    board = llk.Board(ILLEGAL_GRID, rules=llk.Rules(max_turns=2, border=False, gravity="down"))
    # Build some history and a redo entry first, so both can be checked.
    board.remove((0, 0), (0, 2))
    board.undo()
    board.remove((2, 0), (2, 1))
    board.undo()
    assert len(redo_trail(board)) == 1
    before = snapshot(board)
    with pytest.raises(IllegalMove) as info:
        board.remove(a, b)
    assert word in str(info.value), str(info.value)
    assert_unchanged(board, before)
    assert_index_matches(board)
    assert board.redo() and board.grid.tolist() == ref_after(ILLEGAL_GRID, (2, 0), (2, 1), "down")


def ref_after(grid, a, b, gravity):
    ref = llkref.Board(grid, border=False, gravity=gravity)
    ref.remove(a, b)
    return ref.grid


def test_no_path_within_max_turns():
    grid = [[1, 2, 3],
            [4, 5, 6],
            [7, 8, 1]]
    board = llk.Board(grid, rules=llk.Rules(max_turns=2))
    with pytest.raises(IllegalMove, match="no path .* 2 turn"):
        board.remove((0, 0), (2, 2))
    assert llk.Board(grid, rules=llk.Rules(max_turns=3)).remove((0, 0), (2, 2))


@settings(max_examples=examples(80))
@given(data=st.data(), grid=grids(max_side=8), r=rules_st(gravity=True))
def test_remove_legal_and_illegal(data, grid, r):
    """Random attempts: legal ones return a valid optimal path and play like llkref; illegal
    ones raise IllegalMove and leave the board exactly as it was."""
    board = llk.Board(grid, rules=r)
    ref = ref_board(grid, r)
    for _ in range(4):
        cur = ref.grid
        attempts = data.draw(point_pairs(cur, n=3))
        for a, b in attempts:
            legal = llkref.can_link(cur, a, b, **ref_kwargs(r))
            before = snapshot(board)
            if legal:
                path = board.remove(a, b)
                assert_path_matches_ref(cur, path, a, b, r)
                ref.remove(a, b)
                assert board.history[-1] == (tuple(a), tuple(b))
                assert not board.copy().redo()
                break
            with pytest.raises(IllegalMove):
                board.remove(a, b)
            assert_unchanged(board, before)
        assert_same_position(board, ref)


# ---------------------------------------------------------------------------------------------
# undo / redo / copy
# ---------------------------------------------------------------------------------------------

def play_out(data, board, ref, limit=40):
    """Play random legal moves on both boards until stuck, clear or ``limit``; return the grids."""
    seen = [board.grid.tolist()]
    for _ in range(limit):
        moves = board.moves()
        if not moves:
            break
        a, b = moves[data.draw(st.integers(0, len(moves) - 1))]
        board.remove(a, b)
        ref.remove(a, b)
        seen.append(board.grid.tolist())
        assert seen[-1] == ref.grid
    return seen


@settings(max_examples=examples(60))
@given(data=st.data(), grid=deals(max_side=7), r=rules_st(gravity=True))
def test_undo_redo_unlimited_and_exact(data, grid, r):
    board = llk.Board(grid, rules=r)
    ref = ref_board(grid, r)
    assert not board.undo() and not board.redo()
    seen = play_out(data, board, ref)
    history = board.history
    assert len(history) == len(seen) - 1
    # All the way back, one exact step at a time.
    for k in range(len(seen) - 1, 0, -1):
        assert board.undo()
        assert ref.undo()
        assert board.grid.tolist() == seen[k - 1]
        assert board.history == history[:k - 1]
        assert_index_matches(board)
    assert not board.undo()
    assert board.tiles_left == llkref.board.count_tiles(seen[0])
    # And all the way forward again.
    for k in range(1, len(seen)):
        assert board.redo()
        assert board.grid.tolist() == seen[k]
        assert_index_matches(board)
    assert not board.redo()
    assert board.history == history
    assert board.moves() == llkref.moves(seen[-1], **ref_kwargs(r))


@settings(max_examples=examples(60))
@given(data=st.data(), grid=st.one_of(deals(max_side=7), grids(max_side=7)),
       r=rules_st(gravity=True), shuffle_at=st.integers(0, 6))
def test_slides_of_every_step_are_the_moves_gravity_made(data, grid, r, shuffle_at):
    """A Board keeps no record of its gravity moves: undo and ``slides(step)`` read them back
    from the position the removal left (every position under gravity is packed). They must be
    the moves the removal made, as the kernel recorded them then, for every step of a game with
    walls and a reshuffle in it, and after undoing some of it."""
    board = llk.Board(grid, rules=r)
    made = []
    for k in range(12):
        if k == shuffle_at and board.tiles_left >= 4:
            board.shuffle(solvable=False, seed=k)
        moves = board.moves()
        if not moves:
            break
        a, b = moves[data.draw(st.integers(0, len(moves) - 1))]
        recorder = board._state.copy()
        recorded = recorder.remove_pair(board._cell(a), board._cell(b), board._gravity)
        board.remove(a, b)
        made.append([(board._point(s), board._point(d)) for s, d in recorded.tolist()])
        assert board.slides() == made[-1]
        assert board.grid.tolist() == recorder.grid_view().tolist()
    for step in range(len(made)):
        assert board.slides(step) == made[step] == board.slides(step - len(made))
    back = data.draw(st.integers(0, len(made)))
    for _ in range(back):
        board.undo()
    for step in range(len(made) - back):
        assert board.slides(step) == made[step]
    if r.gravity is None:
        assert made == [[]] * len(made)


def test_slides_of_a_removal_with_a_wall_between_its_tiles():
    """The moves are read back from each taken cell up (slides_of): with a wall between the two
    taken cells of one line, the upper one's tiles settled on their own walk, which a read of
    the lower walk alone misses (the random games above rarely make this case)."""
    board = llk.Board([[2, 0, 0],
                       [1, 0, 0],
                       [-1, 0, 0],
                       [1, 0, 2]], rules=llk.Rules(gravity="down"))
    board.remove((1, 0), (3, 0))
    assert board.slides() == [((0, 0), (1, 0))]
    board.undo()
    assert board.grid.tolist()[0:2] == [[2, 0, 0], [1, 0, 0]]


def test_a_long_game_under_gravity_keeps_no_slides():
    """Each removal's undo record held its gravity moves as a numpy array: about 0.5 KB a
    removal on a 512 x 512 board, 1 GB for a 1024 x 1024 game loaded from its save. Now the
    record is the two cells and the type."""
    import tracemalloc

    board = llk.generate(200, 24, seed=1, rules=llk.Rules(gravity="down"))
    board.remove(*board.certificate[0])         # the path search's buffers are made once
    moves = board.certificate[1:2001]
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for a, b in moves:
            board.remove(a, b)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown / len(moves) < 200, grown / len(moves)     # a 3-tuple in a list: about 100 B
    while board.undo():
        pass
    assert board.grid.tolist() == llk.generate(200, 24, seed=1, rules=board.rules).grid.tolist()


@settings(max_examples=examples(40))
@given(data=st.data(), grid=deals(max_side=6), r=rules_st(gravity=True))
def test_a_new_remove_clears_redo(data, grid, r):
    board = llk.Board(grid, rules=r)
    ref = ref_board(grid, r)
    seen = play_out(data, board, ref, limit=4)
    assume(len(seen) >= 3)
    assert board.undo() and board.undo()
    moves = board.moves()
    a, b = moves[data.draw(st.integers(0, len(moves) - 1))]
    board.remove(a, b)
    assert not board.redo()
    assert board.undo()
    assert board.grid.tolist() == seen[-3]
    assert board.redo()


@settings(max_examples=examples(50))
@given(data=st.data(), grid=deals(max_side=7), r=rules_st(gravity=True))
def test_copy_is_independent(data, grid, r):
    board = llk.Board(grid, rules=r)
    ref = ref_board(grid, r)
    play_out(data, board, ref, limit=2)
    assert board.undo() is ref.undo()
    twin = board.copy()
    assert twin is not board and twin.rules == board.rules
    assert_same_position(twin, ref)
    assert twin.history == board.history
    assert not np.shares_memory(twin.grid, board.grid)
    original = snapshot(board)
    # Mutate the copy: the original does not move.
    ref_twin = ref.copy()
    play_out(data, twin, ref_twin, limit=3)
    while twin.undo():
        pass
    assert_unchanged(board, original)
    assert_same_position(board, ref)
    # Mutate the original: the copy does not move.
    twin_state = snapshot(twin)
    play_out(data, board, ref, limit=3)
    assert board.undo() is ref.undo()
    assert_same_position(board, ref)
    assert_unchanged(twin, twin_state)
    # The copy's own history works.
    while twin.undo():
        pass
    assert twin.grid.tolist() == ref_board(grid, r).grid


# ---------------------------------------------------------------------------------------------
# Gravity
# ---------------------------------------------------------------------------------------------

@settings(max_examples=examples(80))
@given(data=st.data(), grid=st.one_of(deals(max_side=8), grids(max_side=8)), r=rules_st(gravity=True))
def test_gravity_matches_llkref_board(data, grid, r):
    board = llk.Board(grid, rules=r)
    ref = ref_board(grid, r)
    assert_same_position(board, ref)
    # A board built with gravity starts compacted: compacting again moves nothing.
    compacted = ref.grid
    llkref.apply_gravity(compacted, r.gravity)
    assert board.grid.tolist() == compacted
    for _ in range(6):
        moves = board.moves()
        if not moves:
            break
        a, b = moves[data.draw(st.integers(0, len(moves) - 1))]
        board.remove(a, b)
        ref.remove(a, b)
        assert_same_position(board, ref)


@pytest.mark.parametrize("gravity, grid, a, b, after", [
    # Same column, adjacent, tiles above fall two cells.
    ("down", [[5], [1], [1], [7]], (1, 0), (2, 0), [[0], [0], [5], [7]]),
    # Same column, a tile between (path over the ring).
    ("down", [[1, 0], [5, 0], [1, 0], [7, 0]], (0, 0), (2, 0), [[0, 0], [0, 0], [5, 0], [7, 0]]),
    ("up", [[7], [1], [1], [5]], (1, 0), (2, 0), [[7], [5], [0], [0]]),
    ("up", [[7, 0], [1, 0], [5, 0], [1, 0]], (1, 0), (3, 0), [[7, 0], [5, 0], [0, 0], [0, 0]]),
    # Same row, left/right.
    ("left", [[7, 1, 1, 5]], (0, 1), (0, 2), [[7, 5, 0, 0]]),
    ("left", [[1, 5, 1, 8], [0, 0, 0, 0]], (0, 0), (0, 2), [[5, 8, 0, 0], [0, 0, 0, 0]]),
    ("right", [[5, 1, 1, 7]], (0, 1), (0, 2), [[0, 0, 5, 7]]),
    ("right", [[8, 1, 5, 1], [0, 0, 0, 0]], (0, 1), (0, 3), [[0, 0, 8, 5], [0, 0, 0, 0]]),
    # Walls bound the segments: the tile above the wall stays put.
    ("down", [[5], [-1], [1], [1], [6]], (2, 0), (3, 0), [[5], [-1], [0], [0], [6]]),
    # Starts compacted to [[9, 0], [-1, 5], [1, 1], [4, 6]]; the wall holds the 9 up.
    ("down", [[9, 5], [-1, 1], [1, 6], [4, 0]], (2, 0), (2, 1), [[9, 0], [-1, 0], [0, 5], [4, 6]]),
])
def test_gravity_same_line_pairs_and_exact_undo(gravity, grid, a, b, after):
    r = llk.Rules(gravity=gravity)
    board = llk.Board(grid, rules=r)
    start = board.grid.tolist()
    assert start == ref_board(grid, r).grid
    ref = ref_board(grid, r)
    ref.remove(a, b)
    assert ref.grid == after  # the hand-derived result agrees with the model
    board.remove(a, b)
    assert board.grid.tolist() == ref.grid
    assert_index_matches(board)
    assert board.undo()
    assert board.grid.tolist() == start
    assert_index_matches(board)
    assert board.redo()
    assert board.grid.tolist() == ref.grid


def test_gravity_board_starts_compacted():
    grid = [[1, 0, 2],
            [0, -1, 0],
            [3, 0, 0],
            [0, 0, 4]]
    for gravity in GRAVITIES[1:]:
        board = llk.Board(grid, rules=llk.Rules(gravity=gravity))
        assert board.grid.tolist() == ref_board(grid, board.rules).grid != grid
        assert_index_matches(board)
        assert board.history == [] and not board.undo()


# ---------------------------------------------------------------------------------------------
# Index
# ---------------------------------------------------------------------------------------------

@settings(max_examples=examples(60))
@given(grid=grids(max_side=10), r=rules_st(gravity=True))
def test_index_matches_tile_index(grid, r):
    board = llk.Board(grid, rules=r)
    assert_index_matches(board)
    assert isinstance(board.index, llk.Index)


def test_index_is_live_and_follows_moves():
    board = llk.Board([[1, 1, 2, 0, 2]])
    index = board.index
    assert index.counts() == {1: 2, 2: 2}
    board.remove((0, 0), (0, 1))
    assert index.counts() == {2: 2} and 1 not in index and index.positions(1) == []
    board.undo()
    assert index.counts() == {1: 2, 2: 2} and index.positions(1) == [(0, 0), (0, 1)]


@pytest.mark.parametrize("value", [1.5, "1", "x", None, 2**40, -(2**40), (1,), b"1"], ids=repr)
def test_index_lookups_of_non_types(value):
    """A value that is no tile type is not `in` the index and has no tiles, as for the dict
    llkref.tile_index returns (whose .get(value, []) never raises for a hashable value)."""
    board = llk.Board([[1, 0, 1], [2, 2, 0]])
    index = board.index
    assert (value in index) is False
    assert index.count(value) == 0
    assert index.positions(value) == []


def test_index_lookups_of_int_like_types():
    board = llk.Board([[1, 0, 1], [2, 2, 0]])
    ref = llkref.tile_index(board.grid.tolist())
    for value in (1, 2, np.int8(1), np.uint64(2), True, np.int64(3), 0, -1, 1.0, np.float32(2),
                  3.0, float("nan"), float("inf")):
        assert (value in board.index) is (value in ref), value
        assert board.index.count(value) == len(ref.get(value, []))
    assert board.index.positions(np.int64(2)) == [(1, 0), (1, 1)]
    assert board.index.count(np.int32(1)) == 2


@pytest.mark.parametrize("clone", [copy.copy, copy.deepcopy, llk.Board.copy],
                         ids=["copy.copy", "copy.deepcopy", "Board.copy"])
def test_python_copy_protocol_gives_an_independent_board(clone):
    board = llk.Board([[1, 1, 0], [2, 2, 0]], rules=llk.Rules(gravity="left"))
    board.remove((1, 0), (1, 1))
    board.undo()
    twin = clone(board)
    twin.remove((0, 0), (0, 1))
    assert board.grid.tolist() == [[1, 1, 0], [2, 2, 0]] and board.history == []
    assert board.redo() and board.grid.tolist() == [[1, 1, 0], [0, 0, 0]]
    assert twin.grid.tolist() == [[0, 0, 0], [2, 2, 0]]
    assert twin.history == [((0, 0), (0, 1))] and twin.rules == board.rules
    assert twin.redo() is False  # the new removal cleared the copy's redo list, not the original's


def test_pickle_round_trip_keeps_position_and_history():
    """Pickling ships the position, rules, certificate and the whole undo/redo history."""
    board = llk.Board([[1, 1, 0], [2, 0, 2], [3, 0, 3]],
                      rules=llk.Rules(max_turns=3, border=False, gravity="left"))
    board.remove((0, 0), (0, 1))
    board.remove((2, 0), (2, 1))
    board.undo()
    board.certificate = [((1, 0), (1, 1)), ((2, 0), (2, 1))]
    again = pickle.loads(pickle.dumps(board))
    assert again.grid.tolist() == board.grid.tolist() == [[0, 0, 0], [2, 2, 0], [3, 3, 0]]
    assert again.rules == board.rules and again.certificate == board.certificate
    assert again.moves() == board.moves() and again.index.as_dict() == board.index.as_dict()
    assert again.history == board.history == [((0, 0), (0, 1))]
    assert again.redo() and again.grid.tolist() == [[0, 0, 0], [2, 2, 0], [0, 0, 0]]
    assert again.undo() and again.undo() and again.grid.tolist() == [[1, 1, 0], [2, 2, 0], [3, 3, 0]]
    assert not again.undo()
    again.remove((1, 0), (1, 1))
    assert board.grid.tolist() == [[0, 0, 0], [2, 2, 0], [3, 3, 0]]


def test_the_certificate_is_a_checked_copy():
    """A helper's audit: editing ``board.certificate`` in place changed the list an undo record
    held (undo then restored an empty certificate), and any value could be set (a string made
    winnable() fail inside numpy)."""
    board = llk.generate(4, 4, seed=6)
    board.shuffle(seed=1)
    dealt = board.certificate
    dealt.clear()                               # a copy: the board's is untouched
    assert len(board.certificate) == 8
    board.undo()
    before = board.certificate
    board.redo()
    board.undo()
    assert board.certificate == before and len(before) == 8
    for bad, error in (("garbage", TypeError), ([((0, 0), (0, 1))], ValueError), ([1, 2], TypeError)):
        with pytest.raises(error):
            board.certificate = bad
    assert board.certificate == before
    board.certificate = None
    assert board.certificate is None and board.winnable() == llk.Verdict.SOLVABLE


def test_a_board_made_from_a_board_keeps_its_rules_and_the_index_repr_is_short():
    """A helper's audit: llk.Board(board) took the default rules (so llk.moves(Board(b)) and
    b.moves() differed), and repr(board.index) of a 1024 x 1024 deal ran to 2.7 million
    characters."""
    qq = llk.Board([[1, 2, 1], [2, 0, 0]], rules=llk.Rules.preset("qq"))
    assert llk.Board(qq).rules == qq.rules and llk.Board(qq).moves() == qq.moves()
    assert llk.Board(qq, rules=llk.Rules()).rules == llk.Rules()
    assert repr(llk.generate(8, 18, seed=1).index) == "Index(36 types, 144 tiles)"
    with pytest.raises(TypeError):
        llk.PRESETS["classic"] = llk.Rules(max_turns=0)     # read-only: one process, one meaning
    assert llk.Rules.preset("classic") == llk.Rules()


def test_board_moves_with_turns_as_the_module_call():
    """board.moves(with_turns=True) raised TypeError while llk.moves(board, with_turns=True)
    worked (a helper's audit)."""
    board = llk.generate(8, 18, seed=3, rules=llk.Rules(max_turns=3))
    triples = board.moves(with_turns=True)
    assert triples == llk.moves(board.grid, rules=board.rules, with_turns=True)
    assert [(a, b) for a, b, _ in triples] == board.moves()
    assert all(0 <= turns <= 3 and board.can_link(a, b) for a, b, turns in triples)
    with pytest.raises(TypeError):
        board.moves(with_turns="yes")


def test_boards_compare_by_identity_as_the_docs_say():
    """Two boards of one position are two games: == and hash are identity, so a Board stays
    one dict key while it plays; positions compare by grid and rules."""
    board = llk.Board([[1, 2, 2, 1]])
    twin = llk.Board([[1, 2, 2, 1]])
    assert board != twin and board == board and len({board, twin}) == 2
    seen = {board: "mine"}
    board.remove((0, 1), (0, 2))
    assert seen[board] == "mine"
    board.undo()
    assert np.array_equal(board.grid, twin.grid) and board.rules == twin.rules


class BotBoard(llk.Board):
    """A bot's Board whose remove clicks on the screen (here: records the click)."""
    clicks: list = []

    def remove(self, a, b):
        self.clicks.append((a, b))
        return super().remove(a, b)


def test_a_subclass_survives_copies_and_pickling_and_its_overrides_stay_out_of_internal_replays():
    """A bot that subclasses Board to tag screens (or to click on remove) keeps its class and
    attributes through copy, deepcopy and pickle; the package's own replays (saving, certificate
    checks) run on plain Boards, so its overridden ``remove`` is not called by them."""
    import copy
    import pickle

    clicks = BotBoard.clicks = []
    board = BotBoard([[1, 1, 2, 2]])
    board.screen = {"id": 7}
    board.remove((0, 0), (0, 1))
    for other in (board.copy(), copy.copy(board), copy.deepcopy(board),
                  pickle.loads(pickle.dumps(board)), BotBoard.from_json(board.to_json())):
        assert type(other) is BotBoard and other.grid.tolist() == board.grid.tolist()
        assert other.undo() and other.tiles_left == 4
    assert board.copy().screen is board.screen                    # shallow, as copy.copy
    assert copy.deepcopy(board).screen == {"id": 7} and copy.deepcopy(board).screen is not board.screen
    assert pickle.loads(pickle.dumps(board)).screen == {"id": 7}
    board.certificate = [((0, 2), (0, 3))]
    assert clicks == [((0, 0), (0, 1))]     # only the bot's own call


class SlotBoard(llk.Board):
    __slots__ = ("screen", "__secret", "unset")


class SlotChild(SlotBoard):
    """A subclass of a slotted subclass, with a __dict__ again."""


def test_a_subclass_with_slots_keeps_them_through_copies_and_pickling():
    """An edges audit: only a subclass's __dict__ was carried, so __slots__ attributes were
    lost by copy and pickle (an AttributeError later)."""
    import copy
    import pickle

    for cls in (SlotBoard, SlotChild):
        board = cls([[1, 1, 2, 2]])
        board.screen = {"id": 7}
        board._SlotBoard__secret = "s"
        if cls is SlotChild:
            board.note = "n"
        board.remove((0, 0), (0, 1))
        for other in (board.copy(), copy.copy(board), copy.deepcopy(board),
                      pickle.loads(pickle.dumps(board))):
            assert type(other) is cls and other.tiles_left == 2
            assert other.screen == {"id": 7} and other._SlotBoard__secret == "s"
            assert not hasattr(other, "unset")
            assert cls is SlotBoard or other.note == "n"
        assert board.copy().screen is board.screen and copy.deepcopy(board).screen is not board.screen


def test_a_board_dies_without_running_python_code():
    """The fork registry was a WeakSet, whose callback (Python code) ran as each Board died. A
    signal handler's KeyboardInterrupt raised in it is dropped by CPython ("Exception ignored"),
    so a SIGTERM that landed as a deal died would leave `llk analyze` running (a narrow window,
    never seen hit). The registry holds weak references without callbacks, pruned as it
    doubles, and still finds every live Board."""
    import gc
    import sys

    from llkcore import board as board_module

    board = llk.Board([[1, 1]])
    calls = []

    def profile(frame, event, arg):
        if event == "call":
            calls.append(frame.f_code.co_name)
    sys.setprofile(profile)
    try:
        del board
    finally:
        sys.setprofile(None)
    assert calls == []
    gc.collect()
    kept = [llk.Board([[1, 1]]) for _ in range(10)]
    for _ in range(5000):               # born and dead: pruned, not kept
        llk.Board([[2, 2]])
    registry = board_module._LIVE_BOARDS
    assert len(registry.refs) < 2 * registry.prune_at
    assert all(any(b is k for b in registry.alive()) for k in kept)
