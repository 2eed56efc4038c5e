"""llkcore.dask on a real distributed.LocalCluster with worker processes: the same Analysis as
the local llk.analyze. Skipped when the [dask] extra is not installed."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

dask = pytest.importorskip("dask")
pytest.importorskip("dask.bag")
distributed = pytest.importorskip("distributed")

import dask.array as da  # noqa: E402
import dask.bag as db  # noqa: E402

import llkcore as llk  # noqa: E402
import llkcore.dask as llk_dask  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       dashboard_address=None, silence_logs=40)
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


@pytest.fixture(scope="module")
def boards():
    rules = llk.Rules(gravity="down")
    return ([llk.generate(6, 8, solvable=False, seed=i) for i in range(20)]
            + [llk.generate(8, 6, solvable=False, seed=100 + i, rules=rules) for i in range(10)])


def test_module_names_the_real_dask():
    assert llk_dask.__name__ == "llkcore.dask"
    assert sys.modules["dask"] is dask and hasattr(dask, "delayed")
    # import llkcore alone never imports Dask.
    code = "import llkcore, sys; print('dask' in sys.modules, 'distributed' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd="/", check=True).stdout
    assert out.split() == ["False", "False"]


def test_bag_on_a_process_cluster_equals_local_analyze(client, boards):
    local = llk.analyze(boards, workers=1, keep_moves=True)
    bag = db.from_sequence(boards, npartitions=7)
    with distributed.get_task_stream(client) as stream:
        remote = llk_dask.analyze(bag, keep_moves=True)
    # The partitions really ran in the worker processes.
    ran_on = {task["worker"] for task in stream.data if "analyze_partition" in task["key"]}
    assert ran_on and ran_on <= set(client.nthreads())
    assert isinstance(remote, llk.Analysis)
    assert remote.same_results(local)
    assert remote.moves == local.moves
    for name in ("verdict", "initial_moves", "solution_length", "nodes"):
        assert np.array_equal(getattr(remote, name), getattr(local, name))
    assert remote.workers == 2 and remote.wall_seconds > 0
    assert remote.summary()["verdicts"] == local.summary()["verdicts"]


def test_dask_array_on_the_cluster_equals_local_analyze(client, boards):
    stack = np.stack([b.grid for b in boards[:20]])
    local = llk.analyze(stack, workers=2)
    for chunks in ((6, 6, 8), (5, 3, 4)):  # the second needs rechunking to whole boards
        arr = da.from_array(stack, chunks=chunks)
        remote = llk_dask.analyze(arr, threads=1)
        assert remote.same_results(local)


def test_rules_and_limits_reach_the_workers(client, boards):
    grids = [b.grid for b in boards[:20]]
    rules = llk.Rules(border=False)
    local = llk.analyze(grids, rules=rules, node_limit=3, strategy="exact")
    remote = llk_dask.analyze(db.from_sequence(grids, npartitions=3), rules=rules, node_limit=3)
    assert remote.same_results(local)
    assert remote.rules == rules and remote.node_limit == 3


def test_plain_inputs_and_the_default_scheduler(boards):
    grids = [b.grid for b in boards[:12]]
    local = llk.analyze(grids)
    assert llk_dask.analyze(grids, npartitions=4, scheduler="sync").same_results(local)
    assert llk_dask.analyze(np.stack(grids), npartitions=3, scheduler="threads").same_results(local)
    assert len(llk_dask.analyze([], scheduler="sync")) == 0


@pytest.mark.parametrize("scheduler", ["sync", None])
def test_a_bad_board_is_named_by_its_index_in_the_whole_input(client, boards, scheduler):
    """Partitions count their boards from 0; the error names the board's place in the input,
    as llk.analyze does (helper audit, 2026-12-03: it said "board 2" for the sixth board)."""
    grids = [b.grid for b in boards[:5]] + [[[1.5, 1]]] + [b.grid for b in boards[5:8]]
    with pytest.raises(llk.BoardError, match="board 5") as local:
        llk.analyze(grids)
    with pytest.raises(llk.BoardError, match="board 5: ") as remote:
        llk_dask.analyze(db.from_sequence(grids, npartitions=3), scheduler=scheduler)
    assert str(remote.value) == str(local.value)
    bad_rules = boards[:3] + [llk.Board(boards[3].grid, rules=llk.Rules(border=False))]
    with pytest.raises(ValueError, match="board 3: rules= conflicts"):
        llk_dask.analyze(db.from_sequence(bad_rules, npartitions=2), rules=llk.Rules(),
                         scheduler="sync")


def test_ratings_on_the_cluster_equal_local_ratings(client, boards):
    grids = [b.grid for b in boards[:6]]
    local = llk.analyze(grids, rate=True)
    remote = llk_dask.analyze(db.from_sequence(grids, npartitions=3), rate=True)
    assert remote.same_results(local) and remote.ratings is not None
    for name, column in local.ratings.items():
        np.testing.assert_array_equal(remote.ratings[name], column)
    assert llk_dask.analyze([], rate=True, scheduler="sync").ratings is not None


def test_bad_inputs_fail_before_computing():
    with pytest.raises(TypeError, match="dask.bag.Bag"):
        llk_dask.analyze({"not": "boards"})
    # The checks analyze makes of a numpy batch (batch.check_batch_array), ways out included.
    with pytest.raises(llk.BoardError, match=r"shape.*one board\? use llk\.solve"):
        llk_dask.analyze(da.zeros((4, 4), dtype=np.int32))
    with pytest.raises(llk.BoardError, match=r"must be ints.*\.astype\(int\)"):
        llk_dask.analyze(da.zeros((2, 4, 4), dtype=np.float32))
    with pytest.raises(llk.BoardError, match="must be ints, got dtype bool"):
        llk_dask.analyze(da.zeros((2, 4, 4), dtype=bool))
    # Boards past the largest are refused before the rechunk to whole boards, which built a
    # graph of two million tasks first (an audit).
    with pytest.raises(llk.BoardError, match="1 to 1024 rows and columns"):
        llk_dask.analyze(da.zeros((2, 10**6, 10**6), dtype=np.int8, chunks=(1, 1000, 1000)),
                         scheduler="sync")
    with pytest.raises(ValueError):
        llk_dask.analyze(db.from_sequence([[[1, 1]]]), strategy="guess")
    with pytest.raises(TypeError, match="npartitions"):
        llk_dask.analyze(db.from_sequence([[[1, 1]]]), npartitions=2)
    # Its errors name its own parameter (they said "workers"; an audit).
    for threads, error in ((0, ValueError), (5000, ValueError), ("2", TypeError)):
        with pytest.raises(error, match="threads must"):
            llk_dask.analyze(np.ones((1, 2, 2), dtype=np.int32), threads=threads)
    with pytest.raises(llk.BoardError, match="board 1"):
        llk_dask.analyze(db.from_sequence([[[1, 1]], [[1, 2], [3]]], npartitions=1),
                         scheduler="sync")
    # The first bad board in input order is named, as local analyze names it, whichever
    # partition the scheduler saw fail first (it named board 7 here; an audit).
    boards = [[[1, 1]] for _ in range(10)]
    boards[3] = boards[7] = [[1, 2], [3]]
    for scheduler in ("sync", "threads"):
        with pytest.raises(llk.BoardError, match="^board 3: ragged"):
            llk_dask.analyze(db.from_sequence(boards, npartitions=5), scheduler=scheduler)
    with pytest.raises(llk.BoardError, match="^board 3: ragged"):
        llk.analyze(boards)
