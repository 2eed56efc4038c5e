"""Fuzzing the module-level API: queries, Board construction, text, labels, rules, solvers,
deals, batch analysis and pictures, with well-formed and malformed arguments (fuzzing.py: the
budget, the argument picker and the contract every call must keep). Successful answers on
well-formed input agree with llkref where that is cheap."""
from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import llkcore as llk
import llkref
from llkcore import render
from conftest import assert_valid_path
from fuzzing import SEEDS, Fuzz, Pick, example_grids, ref_grid

pytestmark = pytest.mark.fuzz


# ---------------------------------------------------------------------------------------------
# What a well-formed call must answer
# ---------------------------------------------------------------------------------------------

def ref_kw(rules, grid):
    """llkref's keywords for ``rules``; max_turns capped at the number of padded cells, which no
    fewest-turn path exceeds (llkref allocates per turn)."""
    return dict(max_turns=min(rules.max_turns, (len(grid) + 2) * (len(grid[0]) + 2)),
                border=rules.border)


def effective(grid, rules):
    """The rules a module call uses, or None when it must refuse them (rules of the wrong type,
    or rules= that conflict with a Board's own)."""
    if rules is not None and not isinstance(rules, llk.Rules):
        return None
    if isinstance(grid, llk.Board):
        return grid.rules if rules is None or rules == grid.rules else None
    return rules if rules is not None else llk.Rules()


def plain_point(p, rows, cols):
    """The (row, col) a point argument means when it is a valid one, else None."""
    if issubclass(type(p), np.ndarray):
        if p.ndim != 1 or p.dtype.kind not in "iu":
            return None
        p = p.tolist()
    if type(p) not in (tuple, list) or len(p) != 2:
        return None
    if not all(type(v) is int or (issubclass(type(v), np.integer)
                                  and not issubclass(type(v), np.timedelta64)) for v in p):
        return None
    r, c = int(p[0]), int(p[1])
    return (r, c) if 0 <= r < rows and 0 <= c < cols else None


def few_pairs(grid, limit=40):
    """True when llkref.moves on ``grid`` is cheap (few same-type pairs)."""
    counts = {}
    for row in grid:
        for v in row:
            if v > 0:
                counts[v] = counts.get(v, 0) + 1
    return sum(n * (n - 1) // 2 for n in counts.values()) <= limit


def shape_of(good):
    return (len(good), len(good[0])) if good else (4, 4)


# ---------------------------------------------------------------------------------------------
# Module queries and construction
# ---------------------------------------------------------------------------------------------

MODULE = Fuzz("module")
OPS = 32


def module_query(fz, pick, grid, good, rules):
    """can_link or find_path with picked points, against llkref."""
    rows, cols = shape_of(good)
    a, b = pick.point(rows, cols), pick.point(rows, cols)
    which = pick.one(("can_link", "find_path"))
    fn = llk.can_link if which == "can_link" else llk.find_path
    ok, got = fz.call(which, fn, grid, a, b, rules=rules)
    r = effective(grid, rules)
    pa, pb = plain_point(a, rows, cols), plain_point(b, rows, cols)
    if good is None or r is None or pa is None or pb is None:
        return
    assert ok, got
    ref = ref_grid(good, r)
    want = llkref.find_path(ref, pa, pb, **ref_kw(r, ref))
    if which == "can_link":
        assert got is (want is not None), (ref, pa, pb, r)
    else:
        assert got == want, (ref, pa, pb, r, got, want)
        if got is not None:
            assert_valid_path(ref, got, pa, pb, r.max_turns, r.border)


def module_listing(fz, pick, grid, good, rules):
    """moves (with or without turns) or hint, against llkref."""
    if pick.chance(0.6):
        with_turns = pick.flag()
        which, (ok, got) = "moves", fz.call("moves", llk.moves, grid, rules=rules, with_turns=with_turns)
    else:
        with_turns = False
        which, (ok, got) = "hint", fz.call("hint", llk.hint, grid, rules=rules)
    r = effective(grid, rules)
    if good is None or r is None or not isinstance(with_turns, (bool, np.bool_)):
        return
    assert ok, got
    ref = ref_grid(good, r)
    if not few_pairs(ref):
        return
    kw = ref_kw(r, ref)
    if which == "hint":
        assert got == llkref.hint(ref, **kw), (ref, r)
    elif with_turns:
        assert [(a, b) for a, b, _ in got] == llkref.moves(ref, **kw)
        for a, b, t in got:
            assert t == llkref.link.path_turns(llkref.find_path(ref, a, b, **kw))
    else:
        assert got == llkref.moves(ref, **kw), (ref, r)


def module_board(fz, pick, grid, good, rules):
    ok, board = fz.call("Board", llk.Board, grid, rules=rules)
    r = effective(grid, rules)
    if good is None or r is None or isinstance(grid, llk.Board):
        return
    assert ok, board
    ref = ref_grid(good, r)
    assert board.grid.tolist() == ref
    assert board.index.as_dict() == llkref.tile_index(ref)


TEXT_TOKENS = [".", "#", "0", "1", "-1", "7", "-0", "+1", "1_0", "٣", "１", "2147483647",
               "2147483648", "-2147483649", "99999999999999", "1.0", "x", "\x00", "--1", "-"]
SEPARATORS = [" ", "\t", "  ", "\x0b", "\u3000", "\xa0", "\x1c"]


def token_text(pick):
    """Rows of tokens that are mostly board text."""
    sep = pick.one(SEPARATORS)
    return "\n".join(sep.join(pick.some(TEXT_TOKENS, 5) or ["1"]) for _ in range(pick.int(1, 4)))


def module_text(fz, pick, grid, good, rules):
    kind = pick.int(0, 3)
    round_trip = kind == 0 and good is not None
    if round_trip:
        text = llk.Board(good).to_text()
        text = pick.one((text, text.replace("\n", "\r\n"), "\n\n" + text + "\n \t\n",
                         text.replace(" ", "\t"), "\ufeff" + text))
    elif kind == 1:
        text = pick.maybe(pick.text, 0.5)
    else:
        text = token_text(pick)
    ok, board = fz.call("Board.from_text", llk.Board.from_text, text, rules=rules)
    if ok:
        again = llk.Board.from_text(board.to_text(), rules=board.rules)
        assert again.grid.tolist() == board.grid.tolist()
        if round_trip and rules is None:
            assert board.grid.tolist() == good


LABELS = ["cat", "dog", ("a", 1), 7, 7.0, None, "", frozenset({1}), b"x", -1, True, np.int64(2)]


def module_labels(fz, pick, grid, good, rules):
    if good is None or pick.chance(0.1):
        labels = pick.maybe(lambda: [[pick.junk() for _ in range(3)] for _ in range(2)], 0.5)
        empty, walls = pick.junk(), pick.junk()
    else:
        names = []
        for label in pick.some(LABELS, 6) or ["cat"]:
            if all(repr(label) != repr(n) for n in names):
                names.append(label)
        labels = [[names[abs(v) % len(names)] for v in row] for row in good]
        empty = pick.one([None, "", 0] + names)
        walls = pick.maybe(lambda: pick.some(names, 2), 0.3)
    ok, board = fz.call("Board.from_labels", llk.Board.from_labels, labels, empty=empty,
                        walls=walls, rules=rules)
    if ok and board.rules.gravity is None:
        back = board.labels
        for r, row in enumerate(labels):
            for c, label in enumerate(row):
                assert board.label_at((r, c)) == back[int(board.grid[r, c])]
                assert board.label_at((r, c)) == label or (board.grid[r, c] == 0 and label == empty)


def module_rules(fz, pick, grid, good, rules):
    if pick.chance(0.5):
        kwargs = dict(max_turns=pick.maybe(lambda: pick.int(0, 5), 0.3),
                      border=pick.maybe(lambda: pick.chance(0.5), 0.3),
                      gravity=pick.maybe(lambda: pick.one(llk.GRAVITIES), 0.3))
        ok, made = fz.call("Rules", llk.Rules, **kwargs)
        if ok:
            again = llk.Rules(made.max_turns, made.border, made.gravity)
            assert made == again and hash(made) == hash(again)
    else:
        name = pick.maybe(lambda: pick.one(sorted(llk.PRESETS)), 0.4)
        ok, made = fz.call("Rules.preset", llk.Rules.preset, name)
        if ok:
            assert made == llk.PRESETS[name]


def module_json(fz, pick, grid, good, rules):
    """Board.from_json on text that is not a saved board (or is one, from this grid)."""
    if good is not None and pick.chance(0.5):
        text = llk.Board(good).to_json()
        text = text[:pick.int(0, len(text))] if pick.chance(0.5) else text
    else:
        text = pick.one((pick.text(30), "[" * 5000, '{"format": "llkcore.board", "version": 99}',
                         '{"format": "llkcore.board", "version": 1, "grid": [[1, 1]], "rules": {}}',
                         b"\xff\xfe", pick.junk()))
    ok, board = fz.call("Board.from_json", llk.Board.from_json, text)
    if ok:
        assert llk.Board.from_json(board.to_json()).grid.tolist() == board.grid.tolist()


MODULE_OPS = ([module_query] * 5 + [module_listing] * 3 + [module_board] * 2
              + [module_text, module_labels, module_rules, module_json])


def module_example(data):
    pick = Pick(data.draw(SEEDS, label="seed"))
    good = data.draw(example_grids(6), label="board")
    grid, good = pick.any_grid(good)
    rules = pick.rules()
    if good is not None and pick.chance(0.12):
        grid = llk.Board(good, rules=pick.rules(p_junk=0) or llk.Rules())
        good = grid.grid.tolist()
    for _ in range(OPS):
        pick.one(MODULE_OPS)(MODULE, pick, grid, good, rules)


def test_fuzz_module_calls(pytestconfig):
    MODULE.run(module_example, pytestconfig)


# ---------------------------------------------------------------------------------------------
# Solvers, deals, batch analysis
# ---------------------------------------------------------------------------------------------

SOLVERS = Fuzz("solvers")


def limits(pick, good, rules):
    """node_limit and time_limit: junk sometimes, and a node budget whenever the search could
    be long (gravity, or more than 16 cells)."""
    node_limit = pick.maybe(lambda: pick.one((None, 0, 1, 50, 3000)), 0.1)
    time_limit = pick.maybe(lambda: pick.one((None, 0, 0.0, 0.01, 0.05, float("inf"))), 0.1)
    small = good is not None and len(good) * len(good[0]) <= 16
    gravity = isinstance(rules, llk.Rules) and rules.gravity is not None
    if node_limit is None and (gravity or not small):
        node_limit = 3000
    return node_limit, time_limit


def solver_solve(fz, pick, grid, good, rules):
    strategy = pick.maybe(lambda: pick.one(llk.STRATEGIES), 0.1)
    node_limit, time_limit = limits(pick, good, rules)
    ok, sol = fz.call("solve", llk.solve, grid, strategy=strategy, rules=rules,
                      node_limit=node_limit, time_limit=time_limit)
    if not ok:
        return
    assert (sol.moves is not None) == (sol.verdict == llk.Verdict.SOLVABLE)
    assert sol.reason and sol.nodes >= 0
    r = effective(grid, rules)
    if sol.moves is not None:
        ok, fine = fz.call("verify", llk.verify, grid, sol.moves, rules=rules)
        assert ok and fine is True, (sol, fine)
        if good is not None and len(good) * len(good[0]) <= 36:
            assert llkref.verify(good, sol.moves, **ref_kw(r, good), gravity=r.gravity)
    if sol.verdict == llk.Verdict.UNSOLVABLE and good is not None and len(good) * len(good[0]) <= 9:
        found, _, _ = llkref.solve_exhaustive(good, **ref_kw(r, good), gravity=r.gravity)
        assert found is False


def solver_class(fz, pick, grid, good, rules):
    kwargs = dict(rules=rules, strategy=pick.maybe(lambda: pick.one(llk.STRATEGIES), 0.1),
                  memo_entries=pick.maybe(lambda: pick.one((None, 2, 3, 64)), 0.1))
    kwargs["node_limit"], kwargs["time_limit"] = limits(pick, good, rules)
    ok, solver = fz.call("Solver", llk.Solver, **kwargs)
    if ok:
        if pick.chance(0.15):
            solver.cancel()
        ok, sol = fz.call("Solver.solve", solver.solve, grid)
        if ok:
            assert (sol.moves is not None) == (sol.verdict == llk.Verdict.SOLVABLE)


def solver_verify(fz, pick, grid, good, rules):
    rows, cols = shape_of(good)

    def move():
        kind = pick.int(0, 3)
        if kind <= 1:
            return (pick.point(rows, cols), pick.point(rows, cols))
        if kind == 2:
            return tuple(pick.int(-1, max(rows, cols)) for _ in range(4))
        return pick.junk()

    kind = pick.int(0, 5)
    if kind <= 3:
        moves = [move() for _ in range(pick.int(0, 5))]
    elif kind == 4:
        moves = np.array([[pick.int(0, 4) for _ in range(4)] for _ in range(pick.int(0, 3))])
        moves = moves.reshape(-1, 4) if moves.size else moves
    else:
        moves = pick.junk()
    ok, fine = fz.call("verify", llk.verify, grid, moves, rules=rules)
    if ok:
        assert fine in (True, False)
        r = effective(grid, rules)
        if good is not None and isinstance(moves, list) and all(
                isinstance(m, tuple) and len(m) == 2 and all(isinstance(p, tuple) for p in m)
                for m in moves):
            plain = [tuple(tuple(int(v) for v in p) for p in m) for m in moves]
            assert fine == llkref.verify(good, plain, **ref_kw(r, good), gravity=r.gravity)


def solver_generate(fz, pick, grid, good, rules):
    rows = pick.maybe(lambda: pick.int(1, 9), 0.15)
    cols = pick.maybe(lambda: pick.int(1, 9), 0.15)
    if type(rows) is int and type(cols) is int and (rows > 64 or cols > 64) and rows * cols > 4096:
        rows = 1025                                     # refused at once, never dealt
    kwargs = dict(copies=pick.maybe(lambda: pick.one((2, 4, 6, 3, 0)), 0.1),
                  types=pick.maybe(lambda: pick.one((None, None, 0, 1, 5, 12)), 0.1),
                  solvable=pick.flag(), seed=pick.maybe(lambda: pick.one((None, 0, 7, 2**64)), 0.1),
                  rules=rules)
    if pick.chance(0.3):
        kind = pick.int(0, 3)
        if kind == 0:
            kwargs["layout"] = grid
        elif kind == 1 and type(rows) is int and type(cols) is int and 0 < rows * cols < 100:
            kwargs["layout"] = np.array([[pick.chance(0.7) for _ in range(cols)] for _ in range(rows)])
        elif kind == 2:
            kwargs["layout"] = [[v if v <= 0 else 1 for v in row] for row in pick.grid(6)]
        else:
            kwargs["layout"] = pick.junk()
    ok, board = fz.call("generate", llk.generate, rows, cols, **kwargs)
    if ok and board.certificate is not None:
        assert llk.verify(board, board.certificate)


def solver_analyze(fz, pick, grid, good, rules):
    kind = pick.int(0, 3)
    if kind == 0:
        batch = [pick.grid(4) for _ in range(pick.int(0, 3))]
        if batch and pick.chance(0.5):
            batch[0] = grid
    elif kind == 1:
        batch = [llk.Board(pick.grid(4)) for _ in range(pick.int(1, 3))]
    elif kind == 2:
        batch = np.array([pick.grid(4)] * pick.int(1, 3)) if pick.chance(0.5) else np.array(pick.grid(4))
    else:
        batch = pick.junk()
    kwargs = dict(rules=rules, strategy=pick.maybe(lambda: pick.one(llk.STRATEGIES), 0.1),
                  workers=pick.maybe(lambda: pick.one((None, 1, 2)), 0.1), keep_moves=pick.flag(),
                  progress=pick.one((False, lambda done, total: None)))
    kwargs["node_limit"], kwargs["time_limit"] = limits(pick, None, rules)
    ok, result = fz.call("analyze", llk.analyze, batch, **kwargs)
    if ok and isinstance(batch, list):
        assert len(result.verdict) == len(batch)
    assert not llk.batch.analysis_threads()


def solver_deals(fz, pick, grid, good, rules):
    """A seeded series of deals: deal_seed and Deals, as ``llk analyze`` uses them."""
    seed = pick.maybe(lambda: pick.int(0, 2**63), 0.2)
    index = pick.maybe(lambda: pick.int(0, 9), 0.2)
    ok, first = fz.call("deal_seed", llk.deals.deal_seed, seed, index)
    if ok:
        assert first == llk.deals.deal_seed(seed, index) and 0 <= first < 2**64
    size = pick.maybe(lambda: pick.int(1, 6), 0.1)
    if type(size) is int and size > 16:
        size = 1025                     # refused at once; a 500x500 solvable series takes minutes
    ok, deals = fz.call("Deals", llk.deals.Deals, size, size, pick.maybe(lambda: pick.int(0, 2), 0.2),
                        seed=seed, rules=rules, solvable=pick.flag(), types=pick.one((None, 2)))
    if ok:
        # A series may be as long as asked (a junk count can be 2**70): take at most three.
        ok, boards = fz.call("Deals", lambda: list(itertools.islice(deals, 3)))
        if ok:
            assert len(boards) == min(len(deals), 3)
            if len(boards) and type(seed) is int and seed >= 0:
                assert boards[0].grid.tolist() == llk.generate(
                    size, size, seed=llk.deals.deal_seed(seed, 0), rules=rules,
                    solvable=deals.options["solvable"], types=deals.options["types"]).grid.tolist()


def solver_rate(fz, pick, grid, good, rules):
    """llk.rate: a Rating in range; the board handed in never changes."""
    node_limit = pick.maybe(lambda: pick.one((1, 50, 500)), 0.1)
    if node_limit is None:
        node_limit = 500                # the careful game searches every position it meets
    playouts = pick.maybe(lambda: pick.one((1, 4, 16)), 0.1)
    if type(playouts) in (int, np.int64, np.uint64, np.int32) and int(playouts) > 10_000:
        # Junk that is a valid count (up to 2**31 - 1) asks for that many playouts: a long call
        # by request, not a hang (seen: 536,870,914 playouts ran past the watchdog's minute).
        playouts = 16
    kwargs = dict(rules=rules, playouts=playouts,
                  seed=pick.maybe(lambda: pick.int(0, 2**64), 0.1), node_limit=node_limit,
                  traps=pick.flag())
    before = grid.grid.tobytes() if isinstance(grid, llk.Board) else None
    ok, rating = fz.call("rate", llk.rate, grid, **kwargs)
    if before is not None:
        assert grid.grid.tobytes() == before
    if ok:
        assert 0.0 <= rating.score <= 100.0 and 0.0 <= rating.clear_rate <= 1.0
        assert rating.band in llk.DIFFICULTIES
        r = effective(grid, rules)
        if good is not None and len(good) * len(good[0]) <= 9 and rating.clear_rate > 0:
            assert llkref.solve_exhaustive(ref_grid(good, r), **ref_kw(r, good), gravity=r.gravity)[0]


SOLVER_OPS = [solver_solve] * 3 + [solver_class, solver_verify, solver_verify, solver_generate,
                                   solver_analyze, solver_deals, solver_rate]


def solver_example(data):
    pick = Pick(data.draw(SEEDS, label="seed"))
    grid, good = pick.any_grid(data.draw(example_grids(6), label="board"), p_bad=0.2)
    rules = pick.rules()
    for _ in range(8):
        pick.one(SOLVER_OPS)(SOLVERS, pick, grid, good, rules)


def test_fuzz_solvers_deals_and_batch(pytestconfig):
    SOLVERS.run(solver_example, pytestconfig)


# ---------------------------------------------------------------------------------------------
# Pictures
# ---------------------------------------------------------------------------------------------

RENDER = Fuzz("render")


def render_once(fz, pick, grid, good, rules):
    rows, cols = shape_of(good)
    kind = pick.int(0, 5)
    path = None
    if kind == 1:
        path = [(pick.int(-2, rows + 1), pick.int(-2, cols + 1)) for _ in range(pick.int(0, 5))]
    elif kind == 2:
        path = [pick.point(rows, cols, 0.2) for _ in range(pick.int(0, 4))]
    elif kind == 3:
        path = pick.junk()
    elif kind == 4 and good is not None and effective(grid, rules) is not None:
        try:
            board = grid if isinstance(grid, llk.Board) else llk.Board(grid, rules=rules)
        except llk.BoardError:
            board = None
        found = board.moves() if board is not None else []
        if found:
            path = board.find_path(*pick.one(found))
    if pick.chance(0.06):
        # A PNG (Pillow) or a Board's picture: the same checks as svg, a dearer drawing.
        kwargs = dict(path=path, rules=rules, cell=pick.maybe(lambda: pick.int(8, 16), 0.15),
                      title=pick.maybe(lambda: pick.one((None, pick.text())), 0.15))
        if isinstance(grid, llk.Board) and pick.chance(0.5):
            ok, out = fz.call("Board.show", grid.show, path=path, hint=pick.flag(),
                              cell=kwargs["cell"])
            if ok:
                ET.fromstring(out.svg.encode("utf-8"))
            return
        ok, out = fz.call("render.png", render.png, grid, **kwargs)
        if ok:
            assert out.startswith(b"\x89PNG\r\n\x1a\n")
        return
    if pick.chance(0.5):
        solution = pick.one((None, None, pick.junk(), [(pick.point(rows, cols), pick.point(rows, cols))
                                                       for _ in range(pick.int(0, 3))]))
        kwargs = dict(path=path, solution=solution, rules=rules,
                      cell=pick.maybe(lambda: pick.int(8, 64), 0.15),
                      title=pick.maybe(lambda: pick.one((None, pick.text())), 0.15))
        ok, out = fz.call("render.svg", render.svg, grid, **kwargs)
        if ok:
            ET.fromstring(out.encode("utf-8"))      # well-formed XML, whatever the title held
    else:
        ok, out = fz.call("render.text", render.text, grid, path=path, rules=rules)
        if ok and path is None and good is not None:
            # The text draws every wall as '#', which reads back as -1.
            assert llk.board.parse_text(out) == [[max(v, -1) for v in row]
                                                 for row in ref_grid(good, effective(grid, rules))]


def render_example(data):
    pick = Pick(data.draw(SEEDS, label="seed"))
    grid, good = pick.any_grid(data.draw(example_grids(6), label="board"), p_bad=0.2)
    rules = pick.rules()
    for _ in range(8):
        render_once(RENDER, pick, grid, good, rules)


def test_fuzz_render(pytestconfig):
    RENDER.run(render_example, pytestconfig)
