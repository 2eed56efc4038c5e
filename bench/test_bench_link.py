"""Link test and path finding: llkcore vs the llkref BFS on the same seeded queries.

Each pair of benchmarks (core / ref) runs the same queries, so ratio = ref time / core time.
The gate (ci/bench_gate.py) reads these from pytest-benchmark's JSON.
"""
import llkref

import llkcore as llk


def _ref_link_all(grid_list, queries):
    return [llkref.can_link(grid_list, (r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries]


def test_link_single_core(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"link-single-{fill}"
    board = llk.Board(grid)
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]

    def run():
        return [board.can_link(a, b) for a, b in pts]

    assert benchmark(run) == _ref_link_all(grid_list, queries.tolist())


def test_link_single_ref(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"link-single-{fill}"
    q = queries.tolist()
    benchmark.pedantic(_ref_link_all, args=(grid_list, q), rounds=3, iterations=1)


def test_link_batch_core(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"link-batch-{fill}"
    board = llk.Board(grid)
    result = benchmark(board.can_link_many, queries)
    assert result.tolist() == _ref_link_all(grid_list, queries.tolist())


def test_link_batch_ref(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"link-batch-{fill}"
    q = queries.tolist()
    benchmark.pedantic(_ref_link_all, args=(grid_list, q), rounds=3, iterations=1)


def test_path_core(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"path-{fill}"
    board = llk.Board(grid)
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]

    def run():
        return [board.find_path(a, b) for a, b in pts]

    paths = benchmark(run)
    ref = [llkref.find_path(grid_list, a, b) for a, b in pts]
    assert [p is None for p in paths] == [p is None for p in ref]


def test_path_ref(benchmark, case):
    fill, grid, grid_list, queries = case
    benchmark.group = f"path-{fill}"
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]

    def run():
        return [llkref.find_path(grid_list, a, b) for a, b in pts]

    benchmark.pedantic(run, rounds=3, iterations=1)
