"""Shared hypothesis strategies and checks for the llkcore test suite.

Profiles (env var LLKCORE_HYPOTHESIS_PROFILE):
  "default"  moderate example counts, random seeds (what a plain `pytest` run uses);
  "ci"       the same counts, derandomized so a CI run is reproducible, failure blobs printed;
  "dev"      a quarter of the examples, for a quick edit-test loop;
  "quick"    a tenth of the examples, derandomized: the kernel tests CI runs again on its other
             builds (bounds-checked, wheel, clang, ASan) after the full counts ran on the release;
  "thorough" ten times the examples, for a bug hunt (minutes, not for CI).
Tests ask for their count through ``examples(n)`` so every profile scales them together.

Strategies:
  deals(...)      playable boards: tiles in same-type pairs, walls, empties.
  grids(...)      random boards as lists of lists: walls (< 0, not only -1), empties (0) and a few
                  tile types so same-type pairs are common; per-example densities vary.
  rules_st(...)   llkcore.Rules over max_turns 0-4 x border on/off (x gravity when asked).
  point_pairs()   query pairs on a board, biased towards same-type pairs.
Checks:
  assert_valid_path(...)        a path is a legal polyline for the rules on that grid.
  assert_path_matches_ref(...)  ... and is exactly llkref's path (its tie rule included).
  assert_index_matches(board)   board.index equals llkref.tile_index, through every accessor.
  assert_same_position(b, ref)  an llkcore.Board shows the same position as an llkref.Board.
  snapshot / assert_unchanged   a failed call left grid, index, moves, history and redo alone.
  ref_kwargs(rules)             the llkref keywords for a Rules.
"""
from __future__ import annotations

import itertools
import os
import signal
import subprocess
import time
from typing import Callable

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import llkcore
import llkref

# The Ctrl-C tests need SIGINT to reach Python. A shell script that starts a job in the background
# (`cmd &` without job control, nohup) starts it with SIGINT ignored, and then Python installs no
# KeyboardInterrupt handler, `_thread.interrupt_main()` does nothing and every child process
# inherits the ignored signal: those tests would wait for an interrupt that never comes. Restore
# Python's handler for the test process; children then start with the default and install theirs.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
# Likewise SIGTERM and SIGHUP (nohup ignores SIGHUP): an ignored one is inherited, and llk leaves
# an ignored signal alone (cli._end_as_interrupted), so the tests that send them to a child
# waited 30 s and failed (two `nohup .ci/run` runs, 2026-12-05). Children start with the default.
for _name in ("SIGTERM", "SIGHUP"):
    _signum = getattr(signal, _name, None)          # (Windows has no SIGHUP)
    if _signum is not None and signal.getsignal(_signum) is signal.SIG_IGN:
        signal.signal(_signum, signal.SIG_DFL)

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("default", **_COMMON)
settings.register_profile("ci", derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("dev", **_COMMON)
settings.register_profile("quick", derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("thorough", **_COMMON)
PROFILE = os.environ.get("LLKCORE_HYPOTHESIS_PROFILE", "default")
settings.load_profile(PROFILE)
_SCALE = {"dev": 0.25, "quick": 0.1, "thorough": 10.0}.get(PROFILE, 1.0)


def examples(n: int) -> int:
    """Example count for a test that wants ``n`` under the moderate profile."""
    return max(2, int(n * _SCALE))


TURNS = (0, 1, 2, 3, 4)
GRAVITIES = (None, "down", "up", "left", "right")


# ---------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------

@st.composite
def grids(draw, min_side=1, max_side=16, max_rows=None, max_cols=None, max_types=5, walls=True,
          spread=True):
    """A random board (list of lists). Densities of empties, walls and each type vary per example."""
    rows = draw(st.integers(min_side, max_rows or max_side))
    cols = draw(st.integers(min_side, max_cols or max_side))
    ntypes = draw(st.integers(1, max_types))
    wall_values = [-1, -1, -2, -7] if walls else []
    # The palette's multiplicities set the densities; sampled_from shrinks towards palette[0].
    palette = draw(st.lists(st.sampled_from([0, 0] + list(range(1, ntypes + 1)) + wall_values),
                            min_size=1, max_size=12))
    cells = draw(st.lists(st.sampled_from(palette), min_size=rows * cols, max_size=rows * cols))
    # Sometimes spread the type values and walls over int32 (sparse type ids, extreme values).
    how = draw(st.sampled_from(["small", "small", "small", "sparse", "extreme"])) if spread else "small"
    if how == "sparse":
        cells = [v * 7919 if v > 0 else v for v in cells]
    elif how == "extreme":
        cells = [2**31 - v if v > 0 else -(2**31) - v - 1 if v < 0 else 0 for v in cells]
    return [cells[r * cols:(r + 1) * cols] for r in range(rows)]


@st.composite
def deals(draw, min_side=2, max_side=6, max_types=4, walls=True, min_fill=0.3):
    """A playable board (list of lists): tiles come in pairs of a type, plus walls and empties;
    at least ``min_fill`` of the cells hold tiles."""
    rows = draw(st.integers(min_side, max_side))
    cols = draw(st.integers(min_side, max_side))
    n = rows * cols
    npairs = draw(st.integers(max(1, int(n * min_fill) // 2), n // 2))
    types = draw(st.lists(st.integers(1, max_types), min_size=npairs, max_size=npairs))
    nwalls = draw(st.integers(0, (n - 2 * npairs) // 2)) if walls else 0
    wall = draw(st.sampled_from([-1, -2]))
    cells = [t for t in types for _ in (0, 1)] + [wall] * nwalls
    cells += [0] * (n - len(cells))
    order = draw(st.permutations(cells))
    return [list(order[r * cols:(r + 1) * cols]) for r in range(rows)]


def rules_st(gravity=False, turns=TURNS, border=(True, False)):
    """llkcore.Rules over the given turn counts and border settings; with gravity=True every
    gravity direction too (else gravity None)."""
    return st.builds(llkcore.Rules, max_turns=st.sampled_from(turns), border=st.sampled_from(border),
                     gravity=st.sampled_from(GRAVITIES) if gravity else st.none())


@st.composite
def point_pairs(draw, grid, n=12):
    """Up to n query pairs (a, b) on grid: mostly same-type pairs, some arbitrary cells."""
    rows, cols = len(grid), len(grid[0])
    same = same_type_pairs(grid)
    out = []
    for _ in range(n):
        if same and draw(st.integers(0, 3)) > 0:
            out.append(same[draw(st.integers(0, len(same) - 1))])
        else:
            a = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
            b = (draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1)))
            out.append((a, b))
    return out


# ---------------------------------------------------------------------------------------------
# Helpers and checks
# ---------------------------------------------------------------------------------------------

def ref_kwargs(r: llkcore.Rules, gravity: bool = False) -> dict:
    kw = dict(max_turns=r.max_turns, border=r.border)
    if gravity:
        kw["gravity"] = r.gravity
    return kw


def same_type_pairs(grid):
    """Every pair (a, b), a < b, of cells holding the same tile type."""
    pairs = []
    for positions in llkref.tile_index(grid).values():
        pairs.extend(itertools.combinations(positions, 2))
    return pairs


def segment_cells(p, q):
    """The cells strictly between corner points p and q of an axis-parallel segment."""
    (r1, c1), (r2, c2) = p, q
    n = abs(r2 - r1) + abs(c2 - c1)
    dr, dc = (r2 > r1) - (r2 < r1), (c2 > c1) - (c2 < c1)
    return [(r1 + k * dr, c1 + k * dc) for k in range(1, n)]


def assert_valid_path(grid, path, a, b, max_turns, border):
    """``path`` is a legal corner polyline from a to b on ``grid`` under the rules.

    Axis-parallel non-empty segments, consecutive segments on alternating axes (no collinear
    pair, no U-turn), turns <= max_turns, and every point strictly between the endpoints (every
    corner and every cell along every segment) is empty: an empty board cell, or a ring cell
    (row -1/rows or col -1/cols, never beyond) when border is on.
    """
    rows, cols = len(grid), len(grid[0])
    assert isinstance(path, list), path
    assert all(isinstance(p, tuple) and len(p) == 2 and all(type(v) is int for v in p) for p in path), path
    assert path[0] == tuple(a) and path[-1] == tuple(b), (path, a, b)
    assert len(path) >= 2, path
    assert len(path) - 2 <= max_turns, (path, max_turns)
    axes = []
    for p, q in zip(path, path[1:]):
        assert (p[0] == q[0]) != (p[1] == q[1]), f"segment {p}->{q} is not axis-parallel or is empty"
        axes.append(0 if p[1] == q[1] else 1)
    for x, y in zip(axes, axes[1:]):
        assert x != y, f"collinear consecutive segments in {path}"
    inner = list(path[1:-1])
    for p, q in zip(path, path[1:]):
        inner.extend(segment_cells(p, q))
    for r, c in inner:
        assert -1 <= r <= rows and -1 <= c <= cols, f"{(r, c)} is beyond the ring in {path}"
        if 0 <= r < rows and 0 <= c < cols:
            assert grid[r][c] == 0, f"path {path} crosses non-empty cell {(r, c)} = {grid[r][c]}"
        else:
            assert border, f"path {path} uses ring cell {(r, c)} with border=False"


def assert_path_matches_ref(grid, path, a, b, r: llkcore.Rules):
    """path (llkcore) is valid and is exactly llkref's: fewest turns, then shortest, then the
    first in step order (llkref.find_path documents the rule); None together."""
    ref = llkref.find_path(grid, a, b, **ref_kwargs(r))
    if ref is None:
        assert path is None, (grid, a, b, r, path)
        return
    assert path is not None, (grid, a, b, r, ref)
    assert_valid_path(grid, path, a, b, r.max_turns, r.border)
    assert path == ref, (grid, a, b, r, path, ref)


def assert_index_matches(board, grid=None):
    """board.index equals llkref.tile_index of the board's current grid, through every accessor."""
    grid = board.grid.tolist() if grid is None else grid
    ref = llkref.tile_index(grid)
    index = board.index
    assert index.types() == list(ref)
    assert list(index) == list(ref)
    assert len(index) == len(ref)
    assert index.counts() == {t: len(p) for t, p in ref.items()}
    assert index.as_dict() == ref
    for t, positions in ref.items():
        assert t in index
        assert index.positions(t) == positions
        assert index.count(t) == len(positions)
    absent = {0, -1, -2, min(max(ref, default=0) + 1, 2**31 - 1), min(ref, default=2) - 1} - set(ref)
    for t in absent:
        assert t not in index
        assert index.count(t) == 0 and index.positions(t) == []
    assert board.tiles_left == sum(len(p) for p in ref.values())


def assert_same_position(core, ref):
    """An llkcore.Board and an llkref.Board show the same position: grid, index, moves, status."""
    grid = core.grid.tolist()
    assert grid == ref.grid
    assert_index_matches(core, grid)
    assert core.moves() == ref.moves()
    assert core.tiles_left == ref.tiles_left
    assert core.is_clear() == ref.is_clear()
    assert core.is_stuck() == ref.is_stuck()


def snapshot(board):
    """Everything a failed call must leave alone (a copy keeps the redo list)."""
    return (board.grid.copy(), board.index.as_dict(), board.moves(), board.history,
            board.tiles_left, board.copy())


def redo_trail(board):
    """The grids the redo list leads to, computed on a copy."""
    work = board.copy()
    trail = []
    while work.redo():
        trail.append(work.grid.tolist())
    return trail


def assert_unchanged(board, before):
    grid, index, moves, history, tiles, twin = before
    assert np.array_equal(board.grid, grid)
    assert board.index.as_dict() == index
    assert board.moves() == moves
    assert board.history == history
    assert board.tiles_left == tiles
    assert redo_trail(board) == redo_trail(twin)


def hard_deal() -> llkcore.Board:
    """A deal the exact search leaves open after 30 s (37.8 million nodes, 2026-12-03): for tests
    that stop a long search. The tall 18 x 8 deal with gravity, seed 2 (docs/fractions.md, "The
    tall 18 × 8 with gravity"). The deals used before were decided ever sooner as the solver
    grew: 18 x 8 seed 230 in 784 nodes once pairings were probed, then 16 x 9 seed 22 within a
    second, which made the Ctrl-C test of long solves skip itself."""
    return llkcore.generate(18, 8, solvable=False, seed=2, rules=llkcore.Rules(gravity="down"))


def ctrl_c(proc: subprocess.Popen, busy: Callable[[], None],
           signum: int = signal.SIGINT) -> tuple[str, str, float]:
    """Send SIGINT (or ``signum``) to a child once ``busy()`` has seen it at work; return its
    stdout, stderr and the seconds from the signal to its exit. The child is killed if anything
    fails on the way."""
    try:
        busy()
        assert proc.poll() is None, proc.communicate()
        sent = time.monotonic()
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=30)
        return out, err, time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def pytest_configure(config):
    # Also registered here, not only in pyproject.toml: the suite runs installed wheels from a
    # folder without it (ci/test_installed.sh).
    config.addinivalue_line("markers", "fuzz: the fuzzing suite (tests/fuzz)")


def pytest_terminal_summary(terminalreporter):
    """The fuzz suite's call counts (tests/fuzz/fuzzing.py), when it ran."""
    import sys
    fuzzing = sys.modules.get("fuzzing")
    if fuzzing is not None and fuzzing.CALLS:
        terminalreporter.write_line(fuzzing.report())
        if fuzzing.shortfall():
            terminalreporter.write_line(fuzzing.shortfall(), red=True)


def pytest_sessionfinish(session, exitstatus):
    """Fail a run whose fuzz tests made fewer calls than LLKCORE_FUZZ_MIN_CALLS."""
    import sys
    fuzzing = sys.modules.get("fuzzing")
    if fuzzing is not None and fuzzing.CALLS and fuzzing.shortfall() and exitstatus == 0:
        session.exitstatus = 1
