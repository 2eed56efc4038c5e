"""Fuzzing a Board: every method and property, with well-formed and malformed arguments, on
boards of every rule set, while a model of its history (the grids before each step) follows it.

After every failed call the board must be exactly as before (conftest.snapshot /
assert_unchanged for the changes; grid, history and redo list for the queries). Answers agree
with llkref on the current grid where that is cheap; removals, undo, redo, reshuffles, updates,
copies and pickles are checked against the model.
"""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import llkcore as llk
import llkref
from conftest import assert_unchanged, assert_valid_path, snapshot
from fuzzing import SEEDS, Fuzz, Pick, example_grids, ref_grid
from test_fuzz_api import few_pairs, plain_point, ref_kw

pytestmark = pytest.mark.fuzz

OPS = 40
BOARD = Fuzz("board")


class Session:
    """A Board under test and the model of its history: the grids before each undoable step
    and the grids the redo list leads to."""

    def __init__(self, board: llk.Board, rules: llk.Rules):
        self.board = board
        self.rules = rules
        self.undo_grids: list = []
        self.redo_grids: list = []

    @property
    def grid(self):
        return self.board.grid.tolist()

    def fingerprint(self):
        b = self.board
        return (b.grid.tobytes(), b.history, len(self.undo_grids), b.tiles_left, b.certificate)

    def stepped(self, before):
        self.undo_grids.append(before)
        self.redo_grids.clear()


def op_link(fz, pick, s):
    b = s.board
    a, c = pick.point(b.rows, b.cols), pick.point(b.rows, b.cols)
    which = pick.one(("Board.can_link", "Board.find_path"))
    fn = b.can_link if which == "Board.can_link" else b.find_path
    ok, got = fz.call(which, fn, a, c)
    pa, pc = plain_point(a, b.rows, b.cols), plain_point(c, b.rows, b.cols)
    if pa is None or pc is None:
        return
    assert ok, got
    grid = s.grid
    want = llkref.find_path(grid, pa, pc, **ref_kw(s.rules, grid))
    if which == "Board.can_link":
        assert got is (want is not None)
    else:
        assert got == want, (grid, pa, pc, s.rules, got, want)


QUERY_DTYPES = [np.int8, np.uint8, np.int32, np.int64, np.uint64, ">i2", np.float64, bool, object]


def op_link_many(fz, pick, s):
    b = s.board
    if pick.chance(0.75):
        hi = max(b.rows, b.cols) + 1
        inside = pick.chance(0.7)
        queries = [(pick.int(0, b.rows - 1), pick.int(0, b.cols - 1), pick.int(0, b.rows - 1),
                    pick.int(0, b.cols - 1)) if inside else tuple(pick.int(-2, hi) for _ in range(4))
                   for _ in range(pick.int(0, 6))]
        if queries and pick.chance(0.5):
            try:
                queries = np.array(queries, dtype=pick.one(QUERY_DTYPES))
            except (OverflowError, ValueError):
                pass
            if isinstance(queries, np.ndarray) and pick.chance(0.5):
                queries = np.asfortranarray(queries)[::-1]
    else:
        queries = pick.junk()
    ok, got = fz.call("Board.can_link_many", b.can_link_many, queries)
    if ok:
        assert got.dtype == np.bool_ and got.ndim == 1
        q = np.asarray(queries).reshape(-1, 4).tolist() if len(got) else []
        assert got.tolist() == [b.can_link((r1, c1), (r2, c2)) for r1, c1, r2, c2 in q]


def op_listing(fz, pick, s):
    b = s.board
    with_turns = pick.flag(0.15)
    ok, arr = fz.call("Board.moves_array", b.moves_array, with_turns=with_turns)
    _, moves = fz.call("Board.query", b.moves)
    _, hint = fz.call("Board.query", b.hint)
    _, stuck = fz.call("Board.query", b.is_stuck)
    _, clear = fz.call("Board.query", b.is_clear)
    if ok:
        assert [((r1, c1), (r2, c2)) for r1, c1, r2, c2, *_ in arr.tolist()] == moves
        assert arr.shape[1] == (5 if with_turns else 4)
    assert (hint is None) == (not moves) and (hint is None or hint in moves)
    assert stuck == (b.tiles_left > 0 and not moves) and clear == (b.tiles_left == 0)
    grid = s.grid
    if few_pairs(grid, 30):
        kw = ref_kw(s.rules, grid)
        assert moves == llkref.moves(grid, **kw)
        assert hint == llkref.hint(grid, **kw)


def op_remove(fz, pick, s):
    b = s.board
    moves = b.moves()
    if moves and pick.chance(0.65):
        a, c = pick.one(moves)
        if pick.chance(0.5):
            a, c = c, a
    else:
        a, c = pick.point(b.rows, b.cols), pick.point(b.rows, b.cols)
    before, grid = snapshot(b), s.grid
    ok, path = fz.call("Board.remove", b.remove, a, c)
    pa, pc = plain_point(a, b.rows, b.cols), plain_point(c, b.rows, b.cols)
    if not ok:
        assert_unchanged(b, before)
        if pa is not None and pc is not None:
            assert (min(pa, pc), max(pa, pc)) not in moves
        return
    assert path == llkref.find_path(grid, pa, pc, **ref_kw(s.rules, grid))
    assert_valid_path(grid, path, pa, pc, s.rules.max_turns, s.rules.border)
    after = [list(row) for row in grid]
    llkref.board.play_pair(after, pa, pc, s.rules.gravity)
    assert s.grid == after
    assert b.history[-1] == (pa, pc)
    s.stepped(grid)


def op_undo_redo(fz, pick, s):
    b = s.board
    grid = s.grid
    if pick.chance(0.55):
        _, done = fz.call("Board.query", b.undo)
        assert done == bool(s.undo_grids)
        if done:
            assert s.grid == s.undo_grids.pop()
            s.redo_grids.append(grid)
    else:
        _, done = fz.call("Board.query", b.redo)
        assert done == bool(s.redo_grids)
        if done:
            assert s.grid == s.redo_grids.pop()
            s.undo_grids.append(grid)


def op_shuffle(fz, pick, s):
    b = s.board
    solvable = pick.flag(0.15)
    seed = pick.maybe(lambda: pick.one((None, 0, 1, 2**70)), 0.15)
    before, grid = snapshot(b), s.grid
    ok, _ = fz.call("Board.shuffle", b.shuffle, solvable=solvable, seed=seed)
    if not ok:
        assert_unchanged(b, before)
        return
    now, was = np.array(s.grid), np.array(grid)
    assert np.array_equal(now <= 0, was <= 0) and np.array_equal(now[now <= 0], was[was <= 0])
    assert sorted(now[now > 0].tolist()) == sorted(was[was > 0].tolist())
    if solvable:
        assert llk.verify(b, b.certificate)
    else:
        assert b.certificate is None
    s.stepped(grid)


def op_update(fz, pick, s):
    b = s.board
    kind = pick.int(0, 4)
    new = None
    if kind <= 1:
        new = [[pick.one((0, 0, 1, 1, 2, 3, -1, 2**31 - 1)) for _ in range(b.cols)]
               for _ in range(b.rows)]
        if b.labels is not None:
            arg = [[b.labels.get(v, ("new", v)) if v > 0 else b.labels.get(0) for v in row]
                   for row in new]
        else:
            arg = pick.container(new)
    elif kind == 2:
        arg = new = pick.grid(4)
    elif kind == 3:
        arg = pick.malformed(pick.grid(4))
    else:
        arg = pick.junk()
    before = snapshot(b)
    ok, _ = fz.call("Board.update", b.update, arg)
    if not ok:
        assert_unchanged(b, before)
        return
    assert b.history == [] and b.certificate is None and not b.redo()
    if b.labels is None and new is not None:
        assert s.grid == ref_grid(new, s.rules)
    s.undo_grids.clear()
    s.redo_grids.clear()


def op_copies(fz, pick, s):
    b = s.board
    grid, history = s.grid, b.history
    kind = pick.one(("copy", "copy.copy", "deepcopy", "pickle"))
    if kind == "pickle":
        protocol = pick.int(2, pickle.HIGHEST_PROTOCOL)
        ok, other = fz.call("pickle", lambda: pickle.loads(pickle.dumps(b, protocol=protocol)))
    else:
        fn = {"copy": b.copy, "copy.copy": lambda: copy.copy(b), "deepcopy": lambda: copy.deepcopy(b)}[kind]
        ok, other = fz.call("Board.query", fn)
    assert ok
    assert other.grid.tolist() == grid and other.rules == b.rules
    assert other.history == history and other.certificate == b.certificate
    assert other.labels == b.labels and other.index.as_dict() == b.index.as_dict()
    twin, trail = other.copy(), []
    while twin.redo():
        trail.append(twin.grid.tolist())
    assert trail == s.redo_grids[::-1]
    for want in reversed(s.undo_grids[-3:]):
        assert other.undo() and other.grid.tolist() == want
    assert b.grid.tolist() == grid and b.history == history      # the copy is independent


def op_points(fz, pick, s):
    b = s.board
    if pick.chance(0.5):
        p = pick.point(b.rows, b.cols, 0.3)
        ok, label = fz.call("Board.label_at", b.label_at, p)
        rc = plain_point(p, b.rows, b.cols)
        if rc is not None:
            assert ok
            value = int(b.grid[rc])
            assert label == (value if b.labels is None else b.labels.get(value, b.labels[0]))
    else:
        step = pick.maybe(lambda: pick.int(-4, 3), 0.3)
        ok, moves = fz.call("Board.slides", b.slides, step)
        if ok:
            assert all(len(m) == 2 for m in moves)
            if s.rules.gravity is None:
                assert moves == []


def op_index(fz, pick, s):
    index = s.board.index
    ref = llkref.tile_index(s.grid)
    key = pick.one(sorted(ref) or [1]) if pick.chance(0.5) else pick.junk()
    ok, positions = fz.call("Index", index.positions, key)
    if not ok:
        return                          # the key's own __index__ raised: it passes through
    _, count = fz.call("Index", index.count, key)
    _, present = fz.call("Index", lambda: key in index)
    assert count == len(positions) and present == (count > 0)
    if type(key) is int:
        assert positions == ref.get(key, [])
    _, counts = fz.call("Index", index.counts)
    assert counts == {t: len(p) for t, p in ref.items()}
    assert fz.call("Index", index.types)[1] == list(ref) == list(index)
    assert len(index) == len(ref) and repr(index)


def op_properties(fz, pick, s):
    b = s.board
    grid = b.grid
    assert grid.dtype == np.int32 and grid.shape == b.shape == (b.rows, b.cols)
    with pytest.raises(ValueError):
        grid.setflags(write=True)
    with pytest.raises(ValueError):
        grid[0, 0] = 1
    assert b.tiles_left == int((grid > 0).sum())
    assert b.rules == s.rules and repr(b)
    assert len(b.history) <= len(s.undo_grids)
    fz.call("Board.query", lambda: (b.labels, b.certificate, b.is_clear(), b.to_text()))


def exhaustive(grid, rules):
    """llkref's exhaustive answer (True/False) on a position of at most 8 tiles, else None."""
    if sum(v > 0 for row in grid for v in row) > 8:
        return None
    found, _, _ = llkref.solve_exhaustive(grid, **ref_kw(rules, grid), gravity=rules.gravity)
    return found


def op_insight(fz, pick, s):
    """winnable, hint(safe=True) and traps, under a short time limit (or junk); on small
    positions their verdicts agree with llkref's exhaustive search."""
    b = s.board
    time_limit = pick.maybe(lambda: pick.one((0.05, 0.2, 1e-9)), 0.15)
    which = pick.one(("Board.winnable", "Board.hint", "Board.traps"))
    if which == "Board.winnable":
        ok, verdict = fz.call(which, b.winnable, time_limit=time_limit)
    elif which == "Board.hint":
        ok, got = fz.call(which, b.hint, safe=pick.flag(0.1), time_limit=time_limit)
        if ok and got is not None:
            assert got in b.moves()
        if not ok or not isinstance(got, llk.Hint):
            return
        verdict = got.verdict if not got.safe else None
        if got.safe:
            after = [list(row) for row in s.grid]
            llkref.board.play_pair(after, *got, s.rules.gravity)
            assert exhaustive(after, s.rules) in (True, None), (s.grid, got)
    else:
        ok, traps = fz.call(which, b.traps, time_limit=time_limit)
        if not ok:
            return
        verdict = traps.verdict
        moves = b.moves()
        assert set(traps) | set(traps.safe) | set(traps.undecided) <= set(moves)
        assert not set(traps) & set(traps.safe)
        for move in traps[:2]:
            after = [list(row) for row in s.grid]
            llkref.board.play_pair(after, *move, s.rules.gravity)
            assert exhaustive(after, s.rules) in (False, None), (s.grid, move)
    if ok and verdict in (llk.Verdict.SOLVABLE, llk.Verdict.UNSOLVABLE):
        assert exhaustive(s.grid, s.rules) in (verdict == llk.Verdict.SOLVABLE, None), (s.grid, verdict)


JSON_VALUES = [None, True, 0, 1, -1, 2**31, 1.5, "", "x", [], [0], [[1, 1]], [0, 0, 0, 1],
               {}, {"shuffle": [1], "certificate": None}, "llkcore-board", 10**40]


def op_json(fz, pick, s):
    """to_json and back (the same game: grid, history, redo list, certificate, labels), or a
    saved document with one field made wrong (refused with a BoardError, or read back)."""
    import json
    b = s.board
    ok, text = fz.call("Board.to_json", b.to_json, indent=pick.maybe(lambda: pick.one((None, 0, 2)), 0.1))
    if not ok:
        return
    if pick.chance(0.5):
        ok, back = fz.call("Board.from_json", llk.Board.from_json,
                           pick.one((text, text.encode(), bytearray(text.encode()))))
        assert ok, back
        assert back.grid.tolist() == s.grid and back.rules == s.rules and back.history == b.history
        assert back.certificate == b.certificate and back.labels == b.labels
        for want in reversed(s.undo_grids[-2:]):
            assert back.undo() and back.grid.tolist() == want
        return
    doc = json.loads(text)
    kind = pick.int(0, 4)
    if kind == 0:
        doc[pick.one(sorted(doc) + ["extra"])] = pick.one(JSON_VALUES)
    elif kind == 1 and "history" in doc:
        doc[pick.one(("history", "redo"))].insert(0, pick.one(JSON_VALUES))
    elif kind == 2:
        doc["grid"][pick.int(0, len(doc["grid"]) - 1)].append(pick.one(JSON_VALUES))
    elif kind == 3:
        doc["rules"] = pick.one(JSON_VALUES + [{"max_turns": -1}, {"gravity": "sideways"}])
    else:
        doc = pick.one(JSON_VALUES)
    junk = json.dumps(doc)
    if pick.chance(0.2):
        junk = junk[:pick.int(0, len(junk))]
    ok, back = fz.call("Board.from_json", llk.Board.from_json, pick.maybe(lambda: junk, 0.1))
    if ok:
        assert back.to_json()


BOARD_OPS = ([op_link] * 4 + [op_link_many] * 2 + [op_listing] * 2 + [op_remove] * 5
             + [op_undo_redo] * 3 + [op_shuffle, op_update, op_copies, op_points, op_index,
                                     op_properties, op_insight, op_json])
CHANGES = (op_remove, op_undo_redo, op_shuffle, op_update)
LABEL_NAMES = ["cat", "dog", ("pair", 2), 11, "", b"x"]


def start(pick, good):
    """A Board to fuzz: from a grid in any container, from labels, generated, or from a Board."""
    rules = llk.Rules(max_turns=pick.one((0, 1, 2, 2, 3, 2**31 - 1)), border=pick.chance(0.5),
                      gravity=pick.one(llk.GRAVITIES))
    kind = pick.one(("grid", "grid", "grid", "labels", "generate", "board"))
    if kind == "labels":
        names = LABEL_NAMES[:]
        pick.rng.shuffle(names)
        labels = [["wall" if v < 0 else None if v == 0 else names[v % len(names)] for v in row]
                  for row in good]
        board = llk.Board.from_labels(labels, empty=None, walls={"wall"}, rules=rules)
    elif kind == "generate":
        try:
            board = llk.generate(len(good), len(good[0]), seed=pick.int(0, 99), rules=rules,
                                 solvable=pick.chance(0.5))
        except (llk.DealError, ValueError):
            board = llk.Board(good, rules=rules)
    elif kind == "board":
        board = llk.Board(llk.Board(good, rules=rules), rules=rules)
    else:
        board = llk.Board(pick.container(good), rules=rules)
    return Session(board, rules)


def board_example(data):
    pick = Pick(data.draw(SEEDS, label="seed"))
    s = start(pick, data.draw(example_grids(6), label="board"))
    for _ in range(OPS):
        op = pick.one(BOARD_OPS)
        before = s.fingerprint()
        op(BOARD, pick, s)
        if op not in CHANGES:
            assert s.fingerprint() == before, op.__name__


def test_fuzz_board_methods(pytestconfig):
    BOARD.run(board_example, pytestconfig)
