"""Link test and path finding: llkcore vs the llkref BFS on the same seeded queries.

Each group pairs a core benchmark with a ref benchmark of the same queries, so ratio = ref time /
core time. The gate (ci/bench_gate.py) reads these from pytest-benchmark's JSON. llkref's side of
every link group is the same work (``_ref_link_all`` on the list and the 200 queries), measured
once per fill in link-single; link-batch and link-batch-list here and module-link-*
(test_bench_dropin.py) take their ratio against it (``extra_info["ref_group"]``,
bench/conftest.py). Likewise path-* measures llkref's find_path once for path-* and
module-path-list-*.
"""
import llkref

import llkcore as llk


def _ref_link_all(grid_list, queries):
    return [llkref.can_link(grid_list, (r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries]


def ref_links(ref_answers, fill, grid_list, queries):
    """llkref's answers to the fill's queries (kept by test_link_single_ref)."""
    return ref_answers.get_or_compute(("link", fill), lambda: _ref_link_all(grid_list, queries.tolist()))


def ref_paths(ref_answers, fill, grid_list, pts):
    """llkref's paths for the fill's queries (kept by test_path_ref)."""
    return ref_answers.get_or_compute(("path", fill),
                                      lambda: [llkref.find_path(grid_list, a, b) for a, b in pts])


def test_link_single_ref(benchmark, case, ref_answers):
    fill, grid, grid_list, queries = case
    benchmark.group = f"link-single-{fill}"
    q = queries.tolist()
    ref_answers[("link", fill)] = benchmark.pedantic(_ref_link_all, args=(grid_list, q), rounds=3,
                                                     iterations=1)


def test_link_single_core(benchmark, case, ref_answers):
    fill, grid, grid_list, queries = case
    benchmark.group = f"link-single-{fill}"
    board = llk.Board(grid)
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]

    def run():
        return [board.can_link(a, b) for a, b in pts]

    assert benchmark(run) == ref_links(ref_answers, fill, grid_list, queries)


def test_link_batch_core(benchmark, case, ref_answers):
    fill, grid, grid_list, queries = case
    benchmark.group = f"link-batch-{fill}"
    benchmark.extra_info["ref_group"] = f"link-single-{fill}"
    board = llk.Board(grid)
    result = benchmark(board.can_link_many, queries)
    assert result.tolist() == ref_links(ref_answers, fill, grid_list, queries)


def test_link_batch_list_core(benchmark, case, ref_answers):
    # The queries as a bot holds them: a list of [r1, c1, r2, c2] lists (read in C; their
    # checks in Python cost 1.3 ms for these 200).
    fill, grid, grid_list, queries = case
    benchmark.group = f"link-batch-list-{fill}"
    benchmark.extra_info["ref_group"] = f"link-single-{fill}"
    board = llk.Board(grid)
    result = benchmark(board.can_link_many, queries.tolist())
    assert result.tolist() == ref_links(ref_answers, fill, grid_list, queries)


def test_path_ref(benchmark, case, ref_answers):
    fill, grid, grid_list, queries = case
    benchmark.group = f"path-{fill}"
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]

    def run():
        return [llkref.find_path(grid_list, a, b) for a, b in pts]

    ref_answers[("path", fill)] = benchmark.pedantic(run, rounds=3, iterations=1)


def test_path_core(benchmark, case, ref_answers):
    fill, grid, grid_list, queries = case
    benchmark.group = f"path-{fill}"
    board = llk.Board(grid)
    pts = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in queries.tolist()]

    def run():
        return [board.find_path(a, b) for a, b in pts]

    paths = benchmark(run)
    ref = ref_paths(ref_answers, fill, grid_list, pts)
    assert [p is None for p in paths] == [p is None for p in ref]
