"""Big boards (docs/architecture.md, "Budgets" and "Solvable deals"): solvable deals at 256x256 and 1024x1024 (MAX_SIDE), and at
512x512 with gravity, every removable pair above two turns on a sparse 130x130 board, and the
random playouts of ratings on a 96x96 deal.

No llkref baseline: llkref's solvable deal is KShisen's rejection scheme, which practically never
succeeds at these sizes, and its 3-turn move list runs one pure-Python search per same-type pair
(thousands of searches over 17,000 cells: many minutes). Reported, not gated, except the
playouts, gated against themselves with the kept list of moves switched off (the same draws).
"""
import functools
import itertools

import numpy as np

import llkcore as llk
from llkcore import _deals
from llkcore._core import playouts as _playouts


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


def test_generate_512x512_gravity_core(benchmark):
    """Gravity moves up to a column of tiles a removal: 1.1-1.4 s before the walk from the taken
    cell and the free-set refreshes near the two cells a removal empties (2026-12-05)."""
    benchmark.group = "big-generate-512x512-gravity-down"
    seeds = itertools.count()
    board = benchmark.pedantic(
        lambda: llk.generate(512, 512, seed=next(seeds), rules=llk.Rules(gravity="down")),
        rounds=3, iterations=1)
    assert board.tiles_left == 512 * 512


@functools.lru_cache(maxsize=None)
def _deal_96x96() -> llk.Board:
    return llk.generate(96, 96, seed=1)


def _playouts_96x96(keep_list_cells: int) -> np.ndarray:
    """Four uniformly random playouts of a 96x96 deal, as llk.rate plays them."""
    board = _deal_96x96()
    rules = board.rules
    removed, _ = _playouts.random_playouts(board._state, rules.max_turns, rules.gravity_code, 4,
                                           _deals.rng_state(0), keep_list_cells=keep_list_cells)
    return removed


def test_playouts_96x96_core(benchmark):
    """playouts-kept-list-96x96: the playouts keep their list of moves from step to step, against
    a fresh listing at each step where the draws all miss (about 7x; 14x at 128x128 and 40x at
    256x256, where the fresh side takes seconds a playout)."""
    benchmark.group = "playouts-kept-list-96x96"
    removed = benchmark.pedantic(_playouts_96x96, args=(_playouts.KEEP_LIST_CELLS,), rounds=5,
                                 iterations=1, warmup_rounds=1)
    assert np.array_equal(removed, _playouts_96x96(10**9))


def test_playouts_96x96_baseline(benchmark):
    benchmark.group = "playouts-kept-list-96x96"
    benchmark.pedantic(_playouts_96x96, args=(10**9,), rounds=5, iterations=1)


def test_moves_3turns_130x130_sparse_core(benchmark):
    benchmark.group = "big-moves-3turns-130x130-sparse"
    board = llk.Board(sparse_grid(130), rules=llk.Rules(max_turns=3))
    result = benchmark.pedantic(board.moves_array, rounds=5, iterations=1, warmup_rounds=1)
    assert len(result) > 0
