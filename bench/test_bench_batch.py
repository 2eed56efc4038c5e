"""Batch analysis on all cores: 400 seeded 18x8 deals (the first 400 deals of
``llk analyze --size 18x8 --count 1000``), workers=2 against workers=1 in the same run.

The group pairs a ``_core`` run (2 threads) with a ``_ref`` run (1 thread) of the same work, so
ref/core is the thread speed-up (1.8x or more on an idle 2-core machine). It is reported, not
gated: it measures free cores, and drops whenever other processes share the machine; that the
kernels release the GIL is gated by test_bench_gil.py instead. Each board gets a
node budget so that one very hard board (some 18x8 deals take the exact search 10^6 nodes) cannot
dominate the wall time: this measures the pool, not the solver's tail. Throughput (boards per
second) is recorded in extra_info. 400 deals, not 1,000: the number is reported, not gated, and
the two runs of 1,000 took a minute of CI's time (workers=1 alone 39 s).
"""
from __future__ import annotations

import pytest

import llkcore as llk
from llkcore.cli import Deals

COUNT = 400
#: Boards of the threaded run checked against a one-thread run.
CHECKED = 100
NODE_LIMIT = 20_000


@pytest.fixture(scope="module")
def deals():
    return list(Deals(18, 8, COUNT, seed=0))


def _run(benchmark, deals, workers):
    benchmark.group = "analyze-18x8-threads"
    result = benchmark.pedantic(llk.analyze, args=(deals,),
                                kwargs=dict(workers=workers, node_limit=NODE_LIMIT),
                                # One round: the speed-up is reported, not gated (CI's time).
                                rounds=1, iterations=1, warmup_rounds=0)
    assert len(result) == COUNT
    benchmark.extra_info["boards_per_second"] = round(COUNT / benchmark.stats.stats.median, 1)
    benchmark.extra_info["workers"] = workers
    benchmark.extra_info["solvable"] = int((result.verdict == int(llk.Verdict.SOLVABLE)).sum())
    benchmark.extra_info["unknown"] = int((result.verdict == int(llk.Verdict.UNKNOWN)).sum())
    return result


def test_analyze_400_workers2_core(benchmark, deals):
    result = _run(benchmark, deals, 2)
    # Threads change only the timings: the first boards match a one-thread run.
    serial = llk.analyze(deals[:CHECKED], workers=1, node_limit=NODE_LIMIT)
    for field in ("verdict", "initial_moves", "solution_length", "nodes"):
        assert (getattr(result, field)[:CHECKED] == getattr(serial, field)).all(), field


def test_analyze_400_workers1_ref(benchmark, deals):
    _run(benchmark, deals, 1)
