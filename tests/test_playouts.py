"""The playout kernel (_core/playouts.pyx) and the hint order (pairs.hint_order).

- random playouts leave the state exactly as it was, are reproducible from the stream, and
  n + m playouts on one stream are the n-run followed by the m-run;
- each step draws uniformly among the removable pairs (also when the rejection draws miss and
  every pair is listed), and a kept clearing playout is a certificate;
- replay plays a sequence while it stays legal;
- allocation failures raise MemoryError and leave the state as it was;
- hint_order is every removable pair in llkref's hint order (fewest turns, shortest, smallest).
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import llkcore as llk
import llkref
from conftest import GRAVITIES, deals, examples, grids, ref_kwargs, rules_st
from llkcore import _deals
from llkcore._core import alloc as _alloc
from llkcore._core import pairs as _pairs
from llkcore._core import playouts as _playouts
from llkcore.coords import cells_of, moves_of


def fingerprint(board):
    """Everything a kernel call on a state copy must leave alone, read through a fresh Board."""
    return board.grid.tolist(), board.moves(), board.index.as_dict()


def run(board, count, seed=0, keep_clear=False, time_limit=-1.0, draws=32,
        keep_list_cells=_playouts.KEEP_LIST_CELLS):
    rules = board.rules
    return _playouts.random_playouts(board._state, rules.max_turns, rules.gravity_code, count,
                                     _deals.rng_state(seed), time_limit, keep_clear, draws,
                                     keep_list_cells=keep_list_cells)


@settings(max_examples=examples(80), deadline=None)
@given(grid=deals(max_side=6), rules=rules_st(gravity=True, turns=(0, 1, 2, 3)),
       seed=st.integers(0, 2**32))
def test_playouts_leave_the_state_as_it_was_and_repeat_per_seed(grid, rules, seed):
    board = llk.Board(grid, rules=rules)
    before = fingerprint(board)
    removed, cleared = run(board, 20, seed, keep_clear=True)
    assert fingerprint(board) == before
    assert removed.shape == (20,) and removed.dtype == np.int32
    assert ((0 <= removed) & (removed <= board.tiles_left // 2)).all()
    again, cleared_again = run(board, 20, seed, keep_clear=True)
    assert np.array_equal(removed, again)
    if cleared is None:
        assert cleared_again is None and (removed < board.tiles_left // 2).all()
    else:
        assert np.array_equal(cleared, cleared_again)
        assert llk.verify(board, moves_of(cleared, board._state.width))
    # The stream is consumed playout by playout: 7 + 13 playouts are the 20.
    stream = _deals.rng_state(seed)
    first, _ = _playouts.random_playouts(board._state, rules.max_turns, rules.gravity_code, 7, stream)
    rest, _ = _playouts.random_playouts(board._state, rules.max_turns, rules.gravity_code, 13, stream)
    assert np.array_equal(np.concatenate([first, rest]), removed)


def test_playouts_depend_on_the_position_not_on_the_history():
    board = llk.generate(6, 8, seed=4)
    for a, b in board.certificate[:5]:
        board.remove(a, b)
    for _ in range(5):
        board.undo()
    board.redo()
    fresh = llk.Board(board.grid)
    assert np.array_equal(run(board, 50, 9)[0], run(fresh, 50, 9)[0])


def first_moves(board, seeds, draws=32):
    """The first removal of each seed's playout (every playout here clears)."""
    rules = board.rules
    firsts = Counter()
    for seed in seeds:
        _, cleared = _playouts.random_playouts(board._state, rules.max_turns, rules.gravity_code,
                                               1, _deals.rng_state(seed), -1.0, True, draws)
        assert cleared is not None
        firsts[tuple(cleared[0])] += 1
    return firsts


@pytest.mark.parametrize("draws", [32, 0])
def test_each_step_draws_uniformly_among_the_removable_pairs(draws):
    """By rejection (32 draws) and by listing every pair (0 draws): four independent twins."""
    grid = [[1, 1, -1, 2, 2],
            [-1, -1, -1, -1, -1],
            [3, 3, -1, 4, 4]]
    board = llk.Board(grid, rules=llk.Rules(border=False))
    n = 800
    counts = first_moves(board, range(n), draws)
    assert len(counts) == 4
    chi2 = sum((k - n / 4) ** 2 / (n / 4) for k in counts.values())
    assert chi2 < 16.3  # p = 0.001 for 3 degrees of freedom


def test_a_crowded_position_draws_among_all_of_its_pairs():
    """One row of 60 tiles of one type: every pair links over the ring, 1,770 of them, more than
    the first listing has room for (8 a tile + 64 = 544; pairs.list_moves_grown counts them and
    lists again). Listed in order, a listing cut at 544 holds only pairs with one of the first
    ten tiles; drawn from all of them, a quarter of the first moves lie in the row's right half."""
    board = llk.Board([[1] * 60])
    firsts = first_moves(board, range(60), draws=0)
    width = board._width
    right_half = [m for m in firsts if min(p % width - 1 for p in m) >= 30]
    assert right_half, firsts


def assert_same_playouts(a, b):
    assert np.array_equal(a[0], b[0])
    assert (a[1] is None) == (b[1] is None)
    assert a[1] is None or np.array_equal(a[1], b[1])


@settings(max_examples=examples(150), deadline=None)
@given(grid=grids(max_side=8, walls=True), rules=rules_st(gravity=True, turns=(0, 1, 2, 3)),
       seed=st.integers(0, 2**32), draws=st.sampled_from([0, 2, 32]))
def test_a_kept_list_of_moves_gives_the_playouts_a_fresh_listing_gives(grid, rules, seed, draws):
    """Big boards keep the list of moves up to date from step to step (moves_after) instead
    of listing it afresh at each missed draw: the same list, so the same draws. Kept here on
    every board (keep_list_cells=0); with 0 draws every step takes it."""
    board = llk.Board(grid, rules=rules)
    before = fingerprint(board)
    kept = run(board, 6, seed, keep_clear=True, draws=draws, keep_list_cells=0)
    assert_same_playouts(kept, run(board, 6, seed, keep_clear=True, draws=draws,
                                   keep_list_cells=10**9))
    assert fingerprint(board) == before


@pytest.mark.parametrize("gravity", [None, "down", "right"])
def test_playouts_on_a_big_board_keep_their_list_and_draw_as_before(gravity):
    """A 40 x 40 deal a third played (the default threshold keeps the list there): the same
    playouts as with a fresh listing at every miss."""
    board = llk.generate(40, 40, seed=3, rules=llk.Rules(gravity=gravity))
    for move in board.certificate[:260]:
        board.remove(*move)
    assert board._state.rows * board._state.width >= _playouts.KEEP_LIST_CELLS
    for seed in range(2):
        assert_same_playouts(run(board, 6, seed, keep_clear=True),
                             run(board, 6, seed, keep_clear=True, keep_list_cells=10**9))


def test_a_stuck_position_and_an_empty_one():
    stuck = llk.Board([[1, 2], [2, 1]], rules=llk.Rules(border=False))
    removed, cleared = run(stuck, 5, keep_clear=True)
    assert removed.tolist() == [0] * 5 and cleared is None
    empty = llk.Board([[0, -1]])
    removed, cleared = run(empty, 3, keep_clear=True)
    assert removed.tolist() == [0] * 3 and cleared.shape == (0, 2)
    assert run(empty, 0)[0].shape == (0,)


def test_a_time_limit_stops_the_playouts():
    board = llk.generate(20, 20, seed=1)
    removed, _ = run(board, 10**6, time_limit=0.05)
    assert 0 < len(removed) < 10**6
    assert fingerprint(board) == fingerprint(llk.Board(board.grid))


def test_until_clear_stops_after_the_first_playout_that_clears():
    """The gravity probe wants a certificate, not the other playouts: it played all 64 even
    after one cleared (80% of a gravity rating's time). until_clear stops there, with the same
    certificate and the same playouts up to it."""
    board = llk.generate(8, 18, seed=7, difficulty="hard", rules=llk.Rules(gravity="down"))
    rules = board.rules

    def play(**kw):
        return _playouts.random_playouts(board._state, rules.max_turns, rules.gravity_code, 64,
                                         _deals.rng_state(0), -1.0, True, **kw)

    removed, cleared = play()
    first = int(np.argmax(removed == board.tiles_left // 2))
    assert cleared is not None and len(removed) == 64 and 0 < first < 63
    short, same = play(until_clear=True)
    assert np.array_equal(short, removed[:first + 1]) and np.array_equal(same, cleared)


def test_a_set_cancel_flag_stops_the_playouts_and_leaves_the_state_as_it_was():
    """The playouts filled their budget by hand, without the cancel flag: a rating in analyze's
    worker kept playing after Ctrl-C had cancelled the solver (14 s at 96 x 96 with gravity)."""
    board = llk.generate(20, 20, seed=1, rules=llk.Rules(gravity="down"))
    rules = board.rules
    before = fingerprint(board)
    cancel = np.ones(1, dtype=np.int32)
    removed, cleared = _playouts.random_playouts(board._state, rules.max_turns, rules.gravity_code,
                                                 1000, _deals.rng_state(0), cancel=cancel)
    assert len(removed) == 0 and cleared is None
    assert fingerprint(board) == before
    cancel[0] = 0
    removed, _ = _playouts.random_playouts(board._state, rules.max_turns, rules.gravity_code, 3,
                                           _deals.rng_state(0), cancel=cancel)
    assert len(removed) == 3


def test_bad_arguments_are_refused():
    board = llk.Board([[1, 1]])
    with pytest.raises(ValueError, match="rng_state"):
        _playouts.random_playouts(board._state, 2, 0, 1, np.zeros(3, dtype=np.uint64))
    with pytest.raises(ValueError, match="count"):
        _playouts.random_playouts(board._state, 2, 0, -1, _deals.rng_state(0))
    with pytest.raises(ValueError, match="shape"):
        _playouts.replay(board._state.copy(), np.zeros((2, 3), dtype=np.int32), 2, 0)


@pytest.mark.parametrize("keep_list_cells", [_playouts.KEEP_LIST_CELLS, 0],
                         ids=["fresh-lists", "kept-list"])
@pytest.mark.parametrize("gravity", [None, "down"])
def test_every_failed_allocation_raises_memory_error_and_leaves_the_state(gravity,
                                                                          keep_list_cells):
    """Each allocation of the playouts fails in turn, with fresh listings and with the kept
    list of moves (its lines, its flood and set, its scratch: more allocations)."""
    board = llk.generate(6, 6, seed=2, rules=llk.Rules(gravity=gravity))
    before = fingerprint(board)
    expected = run(board, 4, keep_clear=True, keep_list_cells=keep_list_cells)
    failures = 0
    for n in range(80):
        _alloc.fail_allocations_after(n)
        try:
            got = run(board, 4, keep_clear=True, keep_list_cells=keep_list_cells)
        except MemoryError:
            failures += 1
            continue
        finally:
            _alloc.fail_allocations_after(None)
        assert np.array_equal(got[0], expected[0])
        break
    assert failures > (6 if keep_list_cells == 0 else 0), failures
    assert fingerprint(board) == before
    assert np.array_equal(run(board, 4)[0], expected[0])
    cert = cells_of(np.array([[*a, *b] for a, b in board.certificate]), board._state.width)
    # A replay allocates nothing of the kernel's (its gravity moves go to the state's undo
    # buffer), so it cannot fail half-way: taken back, then played for good.
    state = board._state.copy()
    _alloc.fail_allocations_after(0)
    try:
        assert _playouts.replay(state, cert, 2, board.rules.gravity_code,
                                take_back=True) == len(cert)
        assert state.tiles == 2 * len(cert)
        assert _playouts.replay(state, cert, 2, board.rules.gravity_code) == len(cert)
    finally:
        _alloc.fail_allocations_after(None)
    assert state.tiles == 0


# ---- replay --------------------------------------------------------------------------------

@pytest.mark.parametrize("gravity", GRAVITIES)
def test_replay_plays_a_certificate_and_stops_at_the_first_illegal_move(gravity):
    rules = llk.Rules(gravity=gravity)
    board = llk.generate(6, 8, seed=5, rules=rules)
    width = board._state.width
    cert = cells_of(np.array([[*a, *b] for a, b in board.certificate]), width)
    state = board._state.copy()
    assert _playouts.replay(state, cert, 2, rules.gravity_code) == len(cert)
    assert state.tiles == 0
    broken = cert.copy()
    broken[5] = broken[5][::-1] + 0     # same pair, either order: still legal
    assert _playouts.replay(board._state.copy(), broken, 2, rules.gravity_code) == len(cert)
    broken[5] = [broken[5][0], broken[5][0]]    # one cell twice: illegal
    assert _playouts.replay(board._state.copy(), broken, 2, rules.gravity_code) == 5
    broken[5] = [0, 10**9]                      # off the grid: illegal, no crash
    assert _playouts.replay(board._state.copy(), broken, 2, rules.gravity_code) == 5
    assert fingerprint(board) == fingerprint(llk.Board(board.grid, rules=rules))


def test_replays_and_repairs_stop_on_the_clock_and_on_the_cancel_flag():
    """The play-time queries replay and repair certificates before they search, and with
    gravity a replay on a big board took seconds past any time limit (2.9 s for what is left
    of a 1024 x 1024 deal's certificate). ``replay``, ``start_cells`` and ``play_greedily``
    take a time limit and a cancel flag: a run cut short plays a prefix of the full run."""
    rules = llk.Rules(gravity="down")
    board = llk.generate(256, 256, seed=1, rules=rules)
    _, (cert,), _ = board._snapshot()
    code = rules.gravity_code

    tiles = _playouts.start_cells(board._state.copy(), cert, 2, code)   # the pairs by tile

    def runs(**limits):
        return (_playouts.replay(board._state.copy(), cert, 2, code, **limits),
                _playouts.start_cells(board._state.copy(), cert, 2, code, **limits),
                _playouts.play_greedily(board._state.copy(), tiles, 2, code, 10**9, **limits))

    played, named, greedy = runs()
    assert played == len(cert) == len(named) == len(greedy)
    for limits in ({"time_limit": 0.0}, {"cancel": np.ones(1, dtype=np.int32)}):
        cut_played, cut_named, cut_greedy = runs(**limits)
        # Stopped at the first look at the clock (every 256 steps), long before the end.
        assert 0 < cut_played < len(cert) // 10
        assert 0 < len(cut_named) < len(cert) // 10 and 0 < len(cut_greedy) < len(cert) // 10
        assert np.array_equal(cut_named, named[:len(cut_named)])
        assert np.array_equal(cut_greedy, greedy[:len(cut_greedy)])
    assert runs(time_limit=60.0, cancel=np.zeros(1, dtype=np.int32))[0] == len(cert)
    assert fingerprint(board) == fingerprint(llk.Board(board.grid, rules=rules))


def test_play_greedily_clears_with_the_pairs_of_a_certificate_in_any_order():
    """Without gravity a removal never stops another pair linking: a certificate's pairs in
    any order are all played (given enough link tests), in its own order as they are."""
    board = llk.generate(6, 8, seed=5)
    cert = cells_of(np.array([[*a, *b] for a, b in board.certificate]), board._state.width)
    cert.sort(axis=1)
    assert np.array_equal(_playouts.play_greedily(board._state.copy(), cert, 2, 0, len(cert)), cert)
    for seed in range(5):
        shuffled = cert[np.random.default_rng(seed).permutation(len(cert))]
        played = _playouts.play_greedily(board._state.copy(), shuffled, 2, 0, len(cert) ** 2)
        assert sorted(map(tuple, played.tolist())) == sorted(map(tuple, cert.tolist()))
        assert llk.verify(board, moves_of(played, board._state.width))
        # Out of link tests: it stops, with what it played a legal start.
        short = _playouts.play_greedily(board._state.copy(), shuffled, 2, 0, len(cert))
        assert len(short) < len(cert) and _playouts.replay(board._state.copy(), short, 2, 0) == len(short)
    broken = cert.copy()
    broken[0] = [broken[0][0], broken[0][0]]    # one cell twice, off the grid, a tile taken
    broken[1] = [0, 10**9]                      # before: never played, no crash
    broken[2] = broken[3]
    played = _playouts.play_greedily(board._state.copy(), broken, 2, 0, len(cert) ** 2)
    assert len(played) < len(cert) and _playouts.replay(board._state.copy(), played, 2, 0) == len(played)
    assert fingerprint(board) == fingerprint(llk.Board(board.grid))
    with pytest.raises(ValueError, match="shape"):
        _playouts.play_greedily(board._state.copy(), np.zeros((2, 3), dtype=np.int32), 2, 0, 1)


@pytest.mark.parametrize("gravity", ["down", "left"])
def test_play_greedily_follows_each_tile_through_gravity(gravity):
    """With gravity the pairs name tiles where they stand at the start, and each is found where
    it has slid to: a certificate's pairs, written as cells of the start (``start_cells``, and
    llkref's gravity on a grid of tile identities), clear the board."""
    rules = llk.Rules(gravity=gravity)
    board = llk.generate(6, 8, seed=5, rules=rules)
    width = board._state.width
    cert = cells_of(np.array([[*a, *b] for a, b in board.certificate]), width)
    named = _start_cells(board, cert)
    assert not np.array_equal(named, cert)      # tiles slid: later pairs moved from where named
    assert np.array_equal(_playouts.start_cells(board._state.copy(), cert, 2, rules.gravity_code),
                          named)
    assert len(_playouts.start_cells(board._state.copy(), cert[::-1], 2, rules.gravity_code)) \
        < len(cert)                             # stops where a removal is not legal, as replay
    played = _playouts.play_greedily(board._state.copy(), named, 2, rules.gravity_code,
                                     len(cert) ** 2)
    assert len(played) == len(cert)
    assert llk.verify(board, moves_of(played, width))


def _start_cells(board, cert):
    """The certificate's pairs as the cells their tiles stood on at the start (llkref's gravity
    on a grid of tile identities)."""
    from llkref.board import apply_gravity
    rows, cols, width = board.rows, board.cols, board._state.width
    ident = [[(r + 1) * width + c + 1 if board.grid[r, c] > 0 else 0 for c in range(cols)]
             for r in range(rows)]
    named = []
    for a, b in cert.tolist():
        (ra, ca), (rb, cb) = divmod(a, width), divmod(b, width)
        named.append([ident[ra - 1][ca - 1], ident[rb - 1][cb - 1]])
        ident[ra - 1][ca - 1] = ident[rb - 1][cb - 1] = 0
        apply_gravity(ident, board.rules.gravity)
    return np.array(named, dtype=np.int32)


# ---- hint order ----------------------------------------------------------------------------

@settings(max_examples=examples(150), deadline=None)
@given(grid=grids(max_rows=7, max_cols=7, max_types=4), rules=rules_st(turns=(0, 1, 2, 3)))
def test_hint_order_is_llkref_order_and_starts_with_the_hint(grid, rules):
    assert_hint_order_is_llkref_order(grid, rules)


def assert_hint_order_is_llkref_order(grid, rules):
    """hint_order is every removable pair by llkref's path (fewest turns, shortest, smallest
    pair), and starts with the hint (the Board's, the module's and llkref's)."""
    board = llk.Board(grid, rules=rules)
    order = moves_of(_pairs.hint_order(board._state, rules.max_turns), board._state.width)
    kw = ref_kwargs(rules)

    def key(move):
        path = llkref.find_path(grid, *move, **kw)
        return (llkref.path_turns(path), llkref.path_length(path), move)

    assert order == sorted(llkref.moves(grid, **kw), key=key)
    assert (order[0] if order else None) == board.hint() == llkref.hint(grid, **kw)


@settings(max_examples=examples(40), deadline=None)
@given(grid=grids(min_side=4, max_side=14, max_types=3), rules=rules_st(turns=(2, 3)))
def test_two_turn_lengths_are_the_bfs_lengths_on_wider_boards(grid, rules):
    """A pair whose fewest turns are two gets its length from the run-sweep's two shapes
    (link.pxd, two_turn_length), not a path search: on boards wide and empty enough for paths
    to go round, the order still is llkref's."""
    assert_hint_order_is_llkref_order(grid, rules)
