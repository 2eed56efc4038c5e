"""Big boards (docs/architecture.md, "Budgets" and "Solvable deals"): solvable deals at 256x256 and 1024x1024 (MAX_SIDE), and at
512x512 with gravity, every removable pair above two turns on a sparse 130x130 board, the random
playouts of ratings on a 96x96 deal, and the decisions of traps() and ratings on a 64x64 deal off
its certificate and on a 20x20 deal with gravity.

No llkref baseline: llkref's solvable deal is KShisen's rejection scheme, which practically never
succeeds at these sizes, and its 3-turn move list runs one pure-Python search per same-type pair
(thousands of searches over 17,000 cells: many minutes). Reported, not gated, except the
playouts, gated against themselves with the kept list of moves switched off (the same draws),
and the decisions, gated against themselves without repaired certificates.
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


@functools.lru_cache(maxsize=None)
def _off_certificate(n: int, gravity, removals: int):
    """An n x n deal ``removals`` removals in (the last move listed, each time): (position,
    rules, [the deal's certificate as padded cells])."""
    board = llk.generate(n, n, seed=0, rules=llk.Rules(gravity=gravity))
    _, known, _ = board._snapshot()
    for _ in range(removals):
        board.remove(*board.moves()[-1])
    state, _, _ = board._snapshot()
    return state, board.rules, known


def _classify(n: int, gravity=None, removals: int = 0) -> np.ndarray:
    """Every move of that position decided as the careful game of llk.rate decides them (a
    fresh cache, 20,000 nodes a decision): the verdict after each move."""
    from llkcore import _insight
    state, rules, known = _off_certificate(n, gravity, removals)
    _, _, after = _insight.Insight().classify(state, rules, _insight.Budget(None, 20_000), known,
                                              per_move=True)
    return after


def test_classify_off_certificate_64x64_core(benchmark):
    """repaired-certificates-64x64: a 64x64 deal ten removals in, the deal's certificate with
    the two tiles each move leaves alone paired (_insight._repaired) decides every move by
    replay; without it each is an exact search, which at 64x64 mostly runs out of nodes
    (1,386x, 2026-12-05)."""
    benchmark.group = "repaired-certificates-64x64"
    after = benchmark.pedantic(_classify, args=(64, None, 10), rounds=5, iterations=1,
                               warmup_rounds=1)
    assert (after == int(llk.Verdict.SOLVABLE)).all()


def test_classify_off_certificate_64x64_baseline(benchmark, monkeypatch):
    from llkcore import _insight
    benchmark.group = "repaired-certificates-64x64"
    monkeypatch.setattr(_insight, "_repaired", lambda *args: None)
    benchmark.pedantic(_classify, args=(64, None, 10), rounds=2, iterations=1)


def test_classify_off_certificate_20x20_gravity_core(benchmark):
    """repaired-certificates-gravity-20x20: the moves of a 20x20 deal with gravity "down", each
    decided by the deal's certificate repaired from the position before it, following every
    tile as it slides (_insight.repaired_after), against the playouts and exact searches that
    decide them without it: 18 ms against 0.45 s (2026-12-05; at 40x40 5.3 s against 262 s,
    too long a baseline for CI)."""
    benchmark.group = "repaired-certificates-gravity-20x20"
    after = benchmark.pedantic(_classify, args=(20, "down"), rounds=5, iterations=1,
                               warmup_rounds=1)
    assert (after == int(llk.Verdict.SOLVABLE)).all()


def test_classify_off_certificate_20x20_gravity_baseline(benchmark, monkeypatch):
    from llkcore import _insight
    benchmark.group = "repaired-certificates-gravity-20x20"
    monkeypatch.setattr(_insight, "repaired_after", lambda *args: None)
    benchmark.pedantic(_classify, args=(20, "down"), rounds=2, iterations=1)


@functools.lru_cache(maxsize=None)
def _followed_deal(n: int) -> "llk.Board":
    """An n x n deal with gravity "down" three removals into its certificate."""
    board = llk.generate(n, n, seed=0, rules=llk.Rules(gravity="down"))
    for a, b in board.certificate[:3]:
        board.remove(a, b)
    return board


def _winnable_fresh(board: "llk.Board", follow: bool) -> llk.Verdict:
    """``winnable`` asked of a copy (a fresh cache), the board following its certificate or
    not (then the query replays what is left of it to prove it)."""
    copy = board.copy()
    if not follow:
        copy._certificate_at = None
    return copy.winnable(time_limit=None)


def test_winnable_following_certificate_512_gravity_core(benchmark):
    """certificate-followed-gravity-512: winnable on a 512x512 deal with gravity three
    removals into its certificate, the board knowing the rest clears (Board._certificate_at),
    against replaying the rest to prove it, as every query at every new position did: 2.9 s a
    query at 1024x1024 (2026-12-05)."""
    benchmark.group = "certificate-followed-gravity-512"
    board = _followed_deal(512)
    verdict = benchmark.pedantic(_winnable_fresh, args=(board, True), rounds=10, iterations=1,
                                 warmup_rounds=1)
    assert verdict == llk.Verdict.SOLVABLE


def test_winnable_following_certificate_512_gravity_baseline(benchmark):
    benchmark.group = "certificate-followed-gravity-512"
    verdict = benchmark.pedantic(_winnable_fresh, args=(_followed_deal(512), False), rounds=3,
                                 iterations=1)
    assert verdict == llk.Verdict.SOLVABLE
