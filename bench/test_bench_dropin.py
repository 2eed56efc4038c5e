"""The drop-in path a bot takes, on the seeded 40x40 boards of conftest.py, in one run:

- module-link-list / module-link-array: ``llk.can_link(grid, a, b)`` called on the bot's own
  grid (a list of lists; an int32 ndarray), 200 single calls, against llkref's BFS on the same
  list: ratio = ref / core (targets 300x and 1,000x). llkref's side is exactly link-single's
  (test_bench_link.py), measured there once per fill in the same run (``ref_group``);
- module-path-list: ``llk.find_path(grid, a, b)`` on the list, 200 calls, against llkref's
  find_path on the same list, measured once per fill in path-* (``ref_group``);
- board-from-list / board-update-list: ``llk.Board(grid)`` and ``board.update(grid)`` on a 40x40
  list against ``np.array(grid, dtype=np.int32)`` (the ref side), so the gate ratio is
  np.array time / Board time (target >= 1/3: a Board costs at most 3x copying the list);
- board-tiny: ``llk.Board([[1, 1]])``, reported (a few microseconds), not gated;
- module-link-sparse-200: ``llk.can_link`` on a 200x200 list late in a game (24 tiles left), 12
  calls, against llkref on the same list: the sparse board where reading every crossing line
  of the runs' overlap cost 100 times the test;
- module-path-sparse-200: ``llk.find_path`` on the same list, 12 calls, against llkref on the
  same list: the path is read off the run-sweep on the lines a best path can use, where
  flooding the whole board cost 50 ms a call at 1000 x 1000 and reading every cell 0.5 ms at
  200 x 200.
"""
import llkref
import numpy as np
import pytest
from test_bench_link import ref_links, ref_paths

import llkcore as llk


def _module_links(grid, pts):
    return [llk.can_link(grid, a, b) for a, b in pts]


# The bot's own grid as it holds it: the list itself, or an int32 ndarray of it.
CONTAINERS = {"list": lambda grid, grid_list: grid_list,
              "array": lambda grid, grid_list: np.ascontiguousarray(grid, dtype=np.int32)}


@pytest.mark.parametrize("container", sorted(CONTAINERS))
def test_module_link_core(benchmark, case, container, ref_answers):
    fill, grid, grid_list, queries = case
    benchmark.group = f"module-link-{container}-{fill}"
    benchmark.extra_info["ref_group"] = f"link-single-{fill}"
    users_grid = CONTAINERS[container](grid, grid_list)
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]
    assert benchmark(_module_links, users_grid, pts) == ref_links(ref_answers, fill, grid_list, queries)


def test_module_path_list_core(benchmark, case, ref_answers):
    fill, grid, grid_list, queries = case
    benchmark.group = f"module-path-list-{fill}"
    benchmark.extra_info["ref_group"] = f"path-{fill}"
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]
    paths = benchmark(lambda: [llk.find_path(grid_list, a, b) for a, b in pts])
    assert paths == ref_paths(ref_answers, fill, grid_list, pts)


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


def _sparse_case(n: int = 200, pairs: int = 12, seed: int = 5):
    """A bot's late-game screen: an n x n list with ``pairs`` pairs left, and each pair's query."""
    grid = np.zeros((n, n), np.int32)
    cells = np.random.default_rng(seed).choice(n * n, 2 * pairs, replace=False)
    grid.ravel()[cells] = np.repeat(np.arange(1, pairs + 1), 2)
    pts = [tuple(map(tuple, np.argwhere(grid == t).tolist())) for t in range(1, pairs + 1)]
    return grid.tolist(), pts


#: The module calls timed on the sparse list: name -> (llkcore's, llkref's).
SPARSE_CALLS = {"link": (llk.can_link, llkref.can_link), "path": (llk.find_path, llkref.find_path)}


@pytest.mark.parametrize("call", sorted(SPARSE_CALLS))
def test_module_sparse_ref(benchmark, ref_answers, call):
    grid_list, pts = _sparse_case()
    ref = SPARSE_CALLS[call][1]
    benchmark.group = f"module-{call}-sparse-200"
    ref_answers[(call, "sparse-200")] = benchmark.pedantic(
        lambda: [ref(grid_list, a, b) for a, b in pts], rounds=1, iterations=1)


@pytest.mark.parametrize("call", sorted(SPARSE_CALLS))
def test_module_sparse_core(benchmark, ref_answers, call):
    """On a 200x200 list with 24 tiles left: ``llk.can_link`` must not read every line of the
    runs' overlap (it did: 100x slower), and ``llk.find_path`` must read only the lines a best
    path can use (it read the whole grid, and before that flooded the board)."""
    grid_list, pts = _sparse_case()
    core, ref = SPARSE_CALLS[call]
    benchmark.group = f"module-{call}-sparse-200"
    answers = benchmark(lambda: [core(grid_list, a, b) for a, b in pts])
    assert answers == ref_answers.get_or_compute(
        (call, "sparse-200"), lambda: [ref(grid_list, a, b) for a, b in pts])
