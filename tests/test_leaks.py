"""No leak: the resident memory of a process making a mix of calls stays flat.

A subprocess (a fresh interpreter: nothing else of the suite in its heap) warms up on the mix,
then reads its RSS (/proc/self/statm) before and after LLKCORE_LEAK_CALLS calls (default
60,000, a few seconds; CI sets 1,000,000): module can_link / find_path / moves on lists and
arrays, Board.can_link, moves, hint, remove / undo / redo cycles, update, refused calls
(their exceptions), small solves, winnable. Growth must stay under LEAK_BOUND: a leak of a few
bytes per call over 10^6 calls is megabytes.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

CALLS = int(os.environ.get("LLKCORE_LEAK_CALLS", "60000"))
#: Resident growth allowed after the warm-up (allocator noise: a few arenas, the result cache).
LEAK_BOUND = 2 * 1024 * 1024

SCRIPT = r"""
import gc, json, os, sys
import numpy as np
import llkcore as llk

PAGE = os.sysconf("SC_PAGE_SIZE")


def rss():
    gc.collect()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


grid = llk.generate(8, 10, seed=5, solvable=True).grid.tolist()
array = np.array(grid, dtype=np.int32)
other = llk.generate(8, 10, seed=6).grid.tolist()
small = llk.generate(4, 4, seed=7, solvable=True).grid.tolist()
gravity = llk.Rules(gravity="down")
board = llk.Board(grid)
moves = board.moves()
a, b = moves[0]
calls = 0


def round_(k):
    # Each line: one or more public calls; refused calls raise and are caught.
    global calls
    n = 0
    llk.can_link(grid, a, b); llk.can_link(array, a, b); n += 2
    llk.find_path(array, a, b); llk.moves(grid, rules=gravity); n += 2
    board.can_link(a, b); board.find_path(a, b); board.moves(); board.hint(); n += 4
    board.can_link_many(np.array([[a[0], a[1], b[0], b[1]]] * 4)); n += 1
    m = moves[k % len(moves)]
    board.remove(*m); board.hint(); board.undo(); board.redo(); board.undo(); n += 5
    try:
        board.remove((0, 0), (99, 99))
    except llk.IllegalMove:
        pass
    try:
        llk.can_link([[1, "x"]], (0, 0), (0, 1))
    except llk.BoardError:
        pass
    n += 2
    if k % 8 == 0:
        board.update(other); board.update(array); n += 2
        llk.solve(small); llk.solve(small, rules=gravity, node_limit=2000); n += 2
        board.winnable(time_limit=None); n += 1
    calls += n
    return n


def run(total):
    k = 0
    made = 0
    while made < total:
        made += round_(k)
        k += 1
    return made


run(20000)                       # warm-up: caches, arenas, the insight cache of the board
before = rss()
made = run(int(sys.argv[1]))
after = rss()
print(json.dumps({"calls": made, "before": before, "after": after}))
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc (Linux)")
def test_resident_memory_stays_flat_over_many_calls():
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(CALLS)], capture_output=True,
                         text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    growth = result["after"] - result["before"]
    print(f"leak check: {result['calls']:,} calls, RSS {result['before'] / 2**20:.1f} MiB -> "
          f"{result['after'] / 2**20:.1f} MiB ({growth / 1024:+.0f} KiB)")
    assert result["calls"] >= CALLS
    assert growth < LEAK_BOUND, result


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc (Linux)")
def test_a_board_whose_grid_was_read_is_freed():
    """Found by this leak check: a state held its grid view strongly and the view held the state
    (its base), a cycle the collector cannot break, so every Board (or solver, deal, insight
    snapshot) whose grid was read leaked all its memory. The state keeps a weak reference."""
    import gc

    import llkcore as llk

    def rss():
        gc.collect()
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")

    grid = llk.generate(40, 40, seed=1).grid.tolist()
    board = llk.Board(grid)
    assert board.grid is board.grid and board.grid.base is not None
    before = rss()
    for _ in range(2000):           # some 25 KiB each when they leaked: 50 MiB
        assert llk.Board(grid).grid.shape == (40, 40)
    assert rss() - before < 8 * 1024 * 1024
