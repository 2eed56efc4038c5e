"""Big boards (docs/edges.md): solvable deals at 256x256 and 1024x1024 (MAX_SIDE), and every
removable pair above two turns on a sparse 130x130 board.

No llkref baseline: llkref's solvable deal is KShisen's rejection scheme, which practically never
succeeds at these sizes, and its 3-turn move list runs one pure-Python search per same-type pair
(thousands of searches over 17,000 cells: many minutes). Reported, not gated.
"""
import itertools

import numpy as np

import llkcore as llk


def sparse_grid(n: int, keep: float = 0.15, seed: int = 2026) -> np.ndarray:
    """A seeded n x n deal (types x 4) with whole pairs emptied until about ``keep`` is left."""
    grid = llk.generate(n, n, solvable=False, seed=seed).grid.copy()
    values = grid.ravel()
    pairs = np.argsort(values, kind="stable").reshape(-1, 2)
    drop = np.random.default_rng(seed + 1).random(len(pairs)) > keep
    values[pairs[drop].ravel()] = 0
    return values.reshape(n, n)


def test_generate_256x256_core(benchmark):
    benchmark.group = "big-generate-256x256"
    seeds = itertools.count()
    board = benchmark.pedantic(lambda: llk.generate(256, 256, seed=next(seeds)), rounds=10,
                               iterations=1, warmup_rounds=1)
    assert llk.verify(board, board.certificate)


def test_generate_1024x1024_core(benchmark):
    benchmark.group = "big-generate-1024x1024"
    seeds = itertools.count()
    board = benchmark.pedantic(lambda: llk.generate(1024, 1024, seed=next(seeds)), rounds=3,
                               iterations=1)
    assert board.tiles_left == 1024 * 1024 and len(board.certificate) == 1024 * 1024 // 2


def test_moves_3turns_130x130_sparse_core(benchmark):
    benchmark.group = "big-moves-3turns-130x130-sparse"
    board = llk.Board(sparse_grid(130), rules=llk.Rules(max_turns=3))
    result = benchmark.pedantic(board.moves_array, rounds=5, iterations=1, warmup_rounds=1)
    assert len(result) > 0
