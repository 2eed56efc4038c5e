"""A failed allocation is all or nothing: every kernel that allocates frees what it got, raises
MemoryError, and leaves its object unchanged and usable.

``llkcore._core.alloc`` routes every kernel allocation through one place with a test hook: count
the allocations an entry point makes, then make the Nth fail, for every N, and check the call
raised MemoryError (or, where the kernel can do without the memory, gave the right answer) and
that the Board still answers exactly as before.
"""
from __future__ import annotations

import numpy as np
import pytest

import llkcore as llk
from llkcore._core import alloc

from conftest import assert_unchanged, snapshot


def allocations(call) -> int:
    alloc.count_allocations(True)
    try:
        call()
    finally:
        counted = alloc.count_allocations(False)
    return counted


def failing_at(n, call):
    """Run call with the allocation after the next n failing (and all after it)."""
    alloc.fail_allocations_after(n)
    try:
        return call()
    finally:
        alloc.fail_allocations_after(None)


def board_for_tests(turns=2, gravity=None, seed=3):
    board = llk.generate(6, 7, seed=seed, rules=llk.Rules(max_turns=turns, gravity=gravity))
    board.remove(*board.certificate[0])
    board.remove(*board.certificate[1])
    board.undo()
    return board


def result_of(value):
    """A comparable form of what a call returned."""
    if isinstance(value, np.ndarray):
        return ("array", value.tolist())
    if isinstance(value, llk.Board):
        return ("board", value.grid.tolist(), value.history, value.certificate)
    if isinstance(value, llk.Solution):
        return ("solution", value.verdict, value.moves, value.nodes)
    return value


QUERIES = {
    "can_link": lambda b: b.can_link(*b.certificate[1]),
    "find_path": lambda b: b.find_path(*b.certificate[1]),
    "moves_array": lambda b: b.moves_array(),
    "moves_with_turns": lambda b: b.moves_array(with_turns=True),
    "hint": lambda b: b.hint(),
    "is_stuck": lambda b: b.is_stuck(),
    "copy": lambda b: b.copy(),
    "solve exact": lambda b: llk.solve(b.grid, rules=b.rules),      # a search: no certificate
    "solve exact, by certificate": lambda b: llk.solve(b),
    "solve freedom": lambda b: llk.solve(b, strategy="greedy-freedom"),
    "solve mobility": lambda b: llk.solve(b, strategy="greedy-mobility"),
    "solve matching": lambda b: llk.solve(b, strategy="matching"),
    "module can_link": lambda b: llk.can_link(b.grid.tolist(), *b.certificate[1], rules=b.rules),
    "module find_path": lambda b: llk.find_path(b.grid.tolist(), *b.certificate[1], rules=b.rules),
    "module moves": lambda b: llk.moves(b.grid.tolist(), rules=b.rules),
    "new Board": lambda b: llk.Board(b.grid, rules=b.rules),
}


@pytest.mark.parametrize("rules", [(2, None), (3, None), (2, "down")], ids=["2 turns", "3 turns", "gravity"])
@pytest.mark.parametrize("name", sorted(QUERIES))
def test_every_failed_allocation_of_a_query(name, rules):
    board = board_for_tests(*rules)
    call = QUERIES[name]
    want = result_of(call(board))
    before = snapshot(board)
    count = allocations(lambda: call(board))
    for n in range(count):
        try:
            got = failing_at(n, lambda: call(board))
        except MemoryError:
            pass
        else:
            assert result_of(got) == want, (name, n)
        assert_unchanged(board, before)
        assert result_of(call(board)) == want, (name, n)


def test_every_failed_allocation_of_a_listing_by_runs():
    """A crowded board with a type of more than 64 tiles lists its moves from the runs of empty
    cells (pairs.pyx, run_moves), which allocates its own buffers: the tiles a run sees, the
    growing list of pairs, the sort's spare. Each failing raises MemoryError, the board is
    unchanged, and the next call lists as before."""
    from llkcore._core import pairs as _pairs
    rng = np.random.default_rng(4)
    grid = np.where(rng.random((12, 12)) < 0.95, rng.integers(1, 3, (12, 12)), 0)
    board = llk.Board(grid.astype(np.int32))
    want = board.moves_array(with_turns=True).tolist()
    # The runs' buffers are this listing's allocations (the flood listing makes none here).
    count = allocations(lambda: board.moves_array(with_turns=True))
    assert count > allocations(lambda: _pairs.moves_cells(board._state, 2, by_runs=False)) == 0
    before = snapshot(board)
    for n in range(count):
        try:
            got = failing_at(n, lambda: board.moves_array(with_turns=True))
        except MemoryError:
            pass
        else:
            assert got.tolist() == want, n
        assert_unchanged(board, before)
        assert board.moves_array(with_turns=True).tolist() == want, n


CHANGES = {
    "remove": lambda b: b.remove(*b.certificate[1]),
    "undo": lambda b: b.undo(),
    "redo": lambda b: b.redo(),
    "shuffle": lambda b: b.shuffle(seed=5),
    "update": lambda b: b.update(np.asarray(b.grid)[::-1].copy()),
}


@pytest.mark.parametrize("gravity", [None, "left"])
@pytest.mark.parametrize("name", sorted(CHANGES))
def test_every_failed_allocation_of_a_change(name, gravity):
    """A change that fails on memory leaves the board as it was; one that succeeds is right."""
    change = CHANGES[name]
    reference = board_for_tests(gravity=gravity)
    change(reference)
    want = (reference.grid.tolist(), reference.history, reference.moves())
    count = allocations(lambda: change(board_for_tests(gravity=gravity)))
    for n in range(count + 1):
        board = board_for_tests(gravity=gravity)
        before = snapshot(board)
        try:
            failing_at(n, lambda: change(board))
        except MemoryError:
            assert_unchanged(board, before)
        else:
            assert (board.grid.tolist(), board.history, board.moves()) == want, (name, n)


def test_generate_and_construction_fail_cleanly():
    count = allocations(lambda: llk.generate(8, 9, seed=2))
    assert count > 0
    want = llk.generate(8, 9, seed=2)
    for n in range(count):
        try:
            got = failing_at(n, lambda: llk.generate(8, 9, seed=2))
        except (MemoryError, llk.DealError):
            continue
        assert got.grid.tolist() == want.grid.tolist() and got.certificate == want.certificate
    assert llk.generate(8, 9, seed=2).grid.tolist() == want.grid.tolist()


def test_the_hook_counts_and_resets():
    fresh = llk.Board([[1, 0, 1]], rules=llk.Rules(max_turns=3))
    assert allocations(lambda: fresh.find_path((0, 0), (0, 2))) > 0       # the BFS buffers, once
    assert allocations(lambda: fresh.find_path((0, 0), (0, 2))) == 0      # then kept
    other = llk.Board([[1, 0, 1]], rules=llk.Rules(max_turns=3))
    with pytest.raises(MemoryError):
        failing_at(0, lambda: other.find_path((0, 0), (0, 2)))
    assert other.find_path((0, 0), (0, 2)) == [(0, 0), (0, 2)]


def test_matching_memory_follows_the_pairs_that_link():
    """The matching strategy's graph is adjacency lists: a byte matrix of (n/2)^2 per type took
    1 GiB on a 512x512 deal of 4 types (a helper's audit); the lists take about 50 MiB there.
    Kernel memory is counted by tracemalloc (CPython's raw domain)."""
    import tracemalloc

    board = llk.generate(512, 512, types=4, solvable=False, seed=1)
    tracemalloc.start()
    try:
        llk.solve(board, strategy="matching", node_limit=3)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 256 * 2**20, peak / 2**20
