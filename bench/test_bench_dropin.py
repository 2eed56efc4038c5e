"""The drop-in path a bot takes, on the seeded 40x40 boards of conftest.py, in one run:

- module-link-list / module-link-array: ``llk.can_link(grid, a, b)`` called on the bot's own
  grid (a list of lists; an int32 ndarray), 200 single calls, against llkref's BFS on the same
  list: ratio = ref / core (targets 300x and 1,000x);
- module-path-list: ``llk.find_path(grid, a, b)`` on the list, 200 calls, against llkref;
- board-from-list / board-update-list: ``llk.Board(grid)`` and ``board.update(grid)`` on a 40x40
  list against ``np.array(grid, dtype=np.int32)`` (the ref side), so the gate ratio is
  np.array time / Board time (target >= 1/3: a Board costs at most 3x copying the list);
- board-tiny: ``llk.Board([[1, 1]])``, reported (a few microseconds), not gated.
"""
import llkref
import numpy as np

import llkcore as llk


def _ref_link_all(grid_list, queries):
    return [llkref.can_link(grid_list, (r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries]


def _module_links(grid, pts):
    return [llk.can_link(grid, a, b) for a, b in pts]


def test_module_link_list_core(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"module-link-list-{fill}"
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]
    assert benchmark(_module_links, grid_list, pts) == _ref_link_all(grid_list, queries.tolist())


def test_module_link_list_ref(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"module-link-list-{fill}"
    benchmark.pedantic(_ref_link_all, args=(grid_list, queries.tolist()), rounds=3, iterations=1)


def test_module_link_array_core(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"module-link-array-{fill}"
    arr = np.ascontiguousarray(grid, dtype=np.int32)
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]
    assert benchmark(_module_links, arr, pts) == _ref_link_all(grid_list, queries.tolist())


def test_module_link_array_ref(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"module-link-array-{fill}"
    benchmark.pedantic(_ref_link_all, args=(grid_list, queries.tolist()), rounds=3, iterations=1)


def test_module_path_list_core(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"module-path-list-{fill}"
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]
    paths = benchmark(lambda: [llk.find_path(grid_list, a, b) for a, b in pts])
    assert paths[:20] == [llkref.find_path(grid_list, a, b) for a, b in pts[:20]]


def test_module_path_list_ref(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"module-path-list-{fill}"
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]
    benchmark.pedantic(lambda: [llkref.find_path(grid_list, a, b) for a, b in pts],
                       rounds=3, iterations=1)


def test_board_from_list_core(benchmark, case):
    fill, grid, grid_list, _ = case
    benchmark.group = f"board-from-list-{fill}"
    board = benchmark(llk.Board, grid_list)
    assert board.grid.tolist() == grid_list


def test_board_from_list_ref(benchmark, case):
    fill, grid, grid_list, _ = case
    benchmark.group = f"board-from-list-{fill}"
    benchmark(np.array, grid_list, dtype=np.int32)


def test_board_update_list_core(benchmark, case):
    fill, grid, grid_list, _ = case
    benchmark.group = f"board-update-list-{fill}"
    board = llk.Board(np.zeros_like(grid))
    benchmark(board.update, grid_list)
    assert board.grid.tolist() == grid_list


def test_board_update_list_ref(benchmark, case):
    fill, grid, grid_list, _ = case
    benchmark.group = f"board-update-list-{fill}"
    benchmark(np.array, grid_list, dtype=np.int32)


def test_board_tiny_core(benchmark):
    benchmark.group = "board-tiny"
    board = benchmark(llk.Board, [[1, 1]])
    assert board.moves() == [((0, 0), (0, 1))]
