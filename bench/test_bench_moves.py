"""All removable pairs, a remove + undo cycle and a solution's replay (verify): llkcore vs llkref
on the same boards."""
import llkref
import numpy as np
import pytest

import llkcore as llk
from llkcore._core import pairs as _pairs


def _ref_moves(ref_answers, fill, grid_list):
    """llkref's moves on the fill's board (kept by test_moves_ref: seconds on a full 40x40)."""
    return ref_answers.get_or_compute(("moves", fill), lambda: llkref.moves(grid_list))


def test_moves_core(benchmark, case, ref_answers):
    fill, grid, grid_list, _ = case
    benchmark.group = f"moves-{fill}"
    board = llk.Board(grid)
    result = benchmark(board.moves_array)
    assert [((a, b), (c, d)) for a, b, c, d in result.tolist()] == _ref_moves(ref_answers, fill, grid_list)


def test_moves_ref(benchmark, case, ref_answers):
    fill, grid, grid_list, _ = case
    benchmark.group = f"moves-{fill}"
    ref_answers[("moves", fill)] = benchmark.pedantic(llkref.moves, args=(grid_list,), rounds=1,
                                                      iterations=1)


def _first_move(ref_answers, fill, grid_list):
    found = _ref_moves(ref_answers, fill, grid_list)
    return found[0] if found else None


def test_remove_undo_core(benchmark, case, ref_answers):
    fill, grid, grid_list, _ = case
    benchmark.group = f"remove-undo-{fill}"
    move = _first_move(ref_answers, fill, grid_list)
    board = llk.Board(grid)

    def cycle():
        board.remove(*move)
        board.undo()

    benchmark(cycle)
    assert board.grid.tolist() == grid_list


def test_remove_undo_ref(benchmark, case, ref_answers):
    fill, grid, grid_list, _ = case
    benchmark.group = f"remove-undo-{fill}"
    move = _first_move(ref_answers, fill, grid_list)
    board = llkref.Board(grid_list)

    def cycle():
        board.remove(*move)
        board.undo()

    benchmark.pedantic(cycle, rounds=20, iterations=1)


def _sparse_big(n: int = 256, per: int = 66, types: int = 4, seed: int = 3):
    """A late position of a big board: ``types`` types of ``per`` tiles on n x n (0.4% full),
    with every same-type pair as (r1, c1, r2, c2) queries."""
    rng = np.random.default_rng(seed)
    grid = np.zeros((n, n), np.int32)
    grid.flat[rng.choice(n * n, types * per, replace=False)] = np.repeat(np.arange(1, types + 1), per)
    cells = [np.flatnonzero(grid == t).tolist() for t in range(1, types + 1)]
    queries = [(*divmod(p, n), *divmod(q, n))
               for same in cells for i, p in enumerate(same) for q in same[i + 1:]]
    return llk.Board(grid), np.array(queries, np.int64)


def test_moves_sparse_256_core(benchmark):
    """listing-vs-pairs-sparse-256: listing a sparse board's moves against link-testing every
    same-type pair in one batch (``_baseline``), on the same Board. Types of more than 64 tiles
    were listed by one flood per tile, each covering the board: 0.16 s here, 100x the batch (6.4 s
    on 1024 x 1024). A listing never needs more than the pairs' link tests."""
    board, queries = _sparse_big()
    benchmark.group = "listing-vs-pairs-sparse-256"
    result = benchmark(board.moves_array)
    assert len(result) == int(board.can_link_many(queries).sum())


def test_moves_sparse_256_baseline(benchmark):
    board, queries = _sparse_big()
    benchmark.group = "listing-vs-pairs-sparse-256"
    benchmark(board.can_link_many, queries)


def _few_types(n: int = 128, fill: float = 0.05, types: int = 2, seed: int = 5) -> llk.Board:
    """A sparse board of few types (5% of 128 x 128 in two types): most same-type pairs link,
    so its moves number tens of thousands."""
    rng = np.random.default_rng(seed)
    grid = np.where(rng.random((n, n)) < fill, rng.integers(1, types + 1, (n, n)), 0)
    return llk.Board(grid.astype(np.int32))


def _crowded(n: int = 256, types: int = 64, fill: float = 0.6, seed: int = 7) -> llk.Board:
    """A crowded big board of many types (60% of 256 x 256 in 64 types), as a bot holds one
    in the middle of a game."""
    rng = np.random.default_rng(seed)
    grid = rng.integers(1, types + 1, (n, n)).astype(np.int32)
    grid[rng.random((n, n)) >= fill] = 0
    return llk.Board(grid)


# hint-vs-listing-*: Board.hint against listing every move (``_baseline``) on the same Board.
# few-types (sparse 128x128, two types): the hint listed every move of up to two turns first, so
# it cost the listing (4.5 s for a pair of neighbours on 512 x 512); it lists by turns now, 0 then
# 1 then 2, and stops at the first with a move. crowded (256x256, 64 types, 60% full): listed by
# turns, 0 then 1, the hint cost a fifth of the old listing (about 4 ms, a flood from each of
# 39,000 tiles); passes over the cells find those moves now.
HINT_BOARDS = pytest.mark.parametrize("group, board_of", [
    ("hint-vs-listing-few-types", _few_types), ("hint-vs-listing-crowded", _crowded)],
    ids=["few-types", "crowded"])


@HINT_BOARDS
def test_hint_core(benchmark, group, board_of):
    board = board_of()
    benchmark.group = group
    best = benchmark(board.hint)
    assert best is not None and board.find_path(*best) is not None


@HINT_BOARDS
def test_hint_baseline(benchmark, group, board_of):
    board = board_of()
    benchmark.group = group
    benchmark(board.moves_array)


def test_moves_crowded_core(benchmark):
    """listing-by-runs-crowded: listing the moves of that crowded board from the runs of empty
    cells, against the listing they replace there (a flood from each tile: ``by_runs=False``,
    its ``_baseline``), on the same Board."""
    board = _crowded()
    benchmark.group = "listing-by-runs-crowded"
    result = benchmark(_pairs.moves_cells, board._state, 2)
    assert np.array_equal(result, _pairs.moves_cells(board._state, 2, by_runs=False))


def test_moves_crowded_baseline(benchmark):
    board = _crowded()
    benchmark.group = "listing-by-runs-crowded"
    benchmark(_pairs.moves_cells, board._state, 2, by_runs=False)


def _deal_18x8():
    """A seeded solvable 18x8 deal as a bot holds it (a list of lists) and its certificate as
    a list of ((r1, c1), (r2, c2)) tuples."""
    board = llk.generate(18, 8, seed=11)
    return board.grid.tolist(), [tuple(map(tuple, move)) for move in board.certificate]


def test_verify_18x8_core(benchmark):
    """llk.verify on the bot's own list grid and a solution of 72 removals: the drop-in call."""
    benchmark.group = "verify-18x8"
    grid_list, moves = _deal_18x8()
    assert benchmark(llk.verify, grid_list, moves)


def test_verify_18x8_ref(benchmark):
    benchmark.group = "verify-18x8"
    grid_list, moves = _deal_18x8()
    assert benchmark.pedantic(llkref.verify, (grid_list, moves), rounds=3, iterations=1)
