"""llk.analyze: equals a loop of llk.solve; identical for any worker count and completion order;
streams its input; Ctrl-C stops it with no thread left; the Analysis container and its summary."""
from __future__ import annotations

import _thread
import gc
import itertools
import json
import pickle
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import llkcore as llk
from llkcore import batch
from llkcore.batch import Analysis, analysis_threads
from conftest import hard_deal


def deals(n, rows=6, cols=6, seed=0, rules=None):
    return [llk.generate(rows, cols, solvable=False, seed=seed + i, rules=rules) for i in range(n)]


def assert_same_as_solve_loop(result, boards, **solve_kw):
    assert len(result) == len(boards)
    for i, board in enumerate(boards):
        sol = llk.solve(board, **solve_kw)
        assert result.verdict[i] == int(sol.verdict), i
        assert result.nodes[i] == sol.nodes, i
        assert result.initial_moves[i] == len(board.moves()), i
        if sol.verdict == llk.Verdict.SOLVABLE:
            assert result.solution_length[i] == len(sol.moves), i
        else:
            assert result.solution_length[i] == -1, i
        assert result.seconds[i] >= 0


# ---------------------------------------------------------------------------------------------
# Same answers as solving one by one
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [llk.Rules(), llk.Rules(border=False),
                                   llk.Rules(gravity="down"), llk.Rules(max_turns=3, border=False)],
                         ids=["classic", "no-border", "gravity", "3-turns"])
def test_analyze_equals_a_loop_of_solve(rules):
    boards = deals(16, 6, 6, seed=100, rules=rules)
    result = llk.analyze(boards, workers=2, keep_moves=True)
    assert_same_as_solve_loop(result, boards)
    for board, moves, v in zip(boards, result.moves, result.verdict):
        if v == llk.Verdict.SOLVABLE:
            assert moves == llk.solve(board).moves
            assert llk.verify(board.grid, moves, rules=rules)
        else:
            assert moves is None


@pytest.mark.parametrize("strategy", ["greedy-freedom", "greedy-mobility", "matching"])
def test_analyze_with_heuristic_strategies(strategy):
    boards = deals(12, 6, 6, seed=7)
    result = llk.analyze(boards, strategy=strategy, workers=2)
    assert result.strategy == strategy
    assert_same_as_solve_loop(result, boards, strategy=strategy)
    # Only the exact search may answer UNSOLVABLE.
    assert not np.any(result.verdict == int(llk.Verdict.UNSOLVABLE))


def test_node_limit_gives_unknown_like_solve():
    boards = deals(10, 10, 10, seed=3)
    result = llk.analyze(boards, node_limit=2, workers=2)
    assert_same_as_solve_loop(result, boards, node_limit=2)
    assert result.node_limit == 2


def test_workers_1_2_4_give_identical_results():
    boards = deals(40, 8, 8, seed=50)
    results = [llk.analyze(boards, workers=w, keep_moves=True) for w in (1, 2, 4)]
    for other in results[1:]:
        assert results[0].same_results(other)
        for name in ("verdict", "initial_moves", "solution_length", "nodes"):
            assert np.array_equal(getattr(results[0], name), getattr(other, name))
        assert results[0].moves == other.moves
    assert [r.workers for r in results] == [1, 2, 4]


def test_results_do_not_depend_on_completion_order(monkeypatch):
    """Boards finish in reverse order (each sleeps longer the earlier it is); results are still
    written by input index."""
    boards = deals(24, 6, 6, seed=11)
    expected = llk.analyze(boards, workers=1, keep_moves=True)
    finished = []
    real = batch._solve_one
    index_of = {board.grid.tobytes(): i for i, board in enumerate(boards)}
    assert len(index_of) == 24

    def slow_then_solve(solver, keep_moves, board, **options):
        index = index_of[board.grid.tobytes()]
        time.sleep(0.002 * (24 - index))
        row = real(solver, keep_moves, board, **options)
        finished.append(index)
        return row

    monkeypatch.setattr(batch, "_solve_one", slow_then_solve)
    got = llk.analyze(boards, workers=4, keep_moves=True)
    assert finished != sorted(finished)  # completion really was out of order
    assert got.same_results(expected) and got.moves == expected.moves


def test_a_board_s_listing_and_solve_share_its_time_limit(monkeypatch):
    """analyze lists a board's moves (initial_moves) and then solves it: each was given the
    whole time_limit, so a board whose listing runs out of time (a million sparse cells) took
    twice the limit. The solve now gets what the listing left."""
    from llkcore.solver import Solver

    real_listing = batch._pairs.moves_cells
    given = []

    def slow_listing(*args):
        time.sleep(0.3)
        return real_listing(*args)

    real_solve = Solver._solve_within

    def recording(self, board, seconds):
        given.append(seconds)
        return real_solve(self, board, seconds)

    monkeypatch.setattr(batch._pairs, "moves_cells", slow_listing)
    monkeypatch.setattr(Solver, "_solve_within", recording)
    deals = [llk.generate(6, 6, seed=s) for s in range(2)]
    result = llk.analyze(deals, workers=1, time_limit=1.0)
    assert list(result.verdict) == [1, 1]
    assert len(given) == 2 and all(0.0 <= s <= 0.7 for s in given), given
    given.clear()
    llk.analyze(deals, workers=1)                   # no limit stays no limit
    assert given == [-1.0, -1.0]


# ---------------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("workers", [1, 2])
def test_a_grid_is_read_when_it_is_yielded(workers):
    """An iterable that reuses one buffer for every grid, or yields a live board.grid and then
    plays on, gets each grid analysed as it was when yielded (the workers read it later, and
    up to 50 of 60 verdicts came out wrong)."""
    grids = np.stack([b.grid for b in deals(60, 6, 8, seed=31)])
    expected = llk.analyze(grids, workers=1)

    def one_buffer():
        buffer = np.empty(grids.shape[1:], np.int32)
        for grid in grids:
            buffer[:] = grid
            yield buffer

    assert llk.analyze(one_buffer(), workers=workers).same_results(expected)

    game = llk.generate(6, 8, seed=4)
    positions = []

    def along_a_game():
        for a, b in game.certificate:
            positions.append(game.grid.copy())
            yield game.grid             # live: the next remove changes it
            game.remove(a, b)

    got = llk.analyze(along_a_game(), workers=workers)
    assert got.same_results(llk.analyze(np.stack(positions), workers=1))


def test_a_huge_sized_series_is_analysed_as_it_streams():
    """len() of a lazy series sizes nothing up front: Deals(..., 10**11) was a MemoryError for
    93 GiB of result columns before the first board."""
    from llkcore.deals import Deals

    series = Deals(4, 4, 10**11, seed=0)
    stop_after = 5

    def progress(done, total):
        assert total == 10**11
        if done >= stop_after:
            raise KeyboardInterrupt          # as a user stops an endless run
    with pytest.raises(KeyboardInterrupt):
        llk.analyze(series, node_limit=1000, workers=1, progress=progress)
    assert batch._Columns(10**11, keep_moves=False).arrays["verdict"].nbytes <= 1 << 16


@pytest.mark.parametrize("options", [{}, {"keep_moves": True, "rate": True},
                                     {"rules": llk.Rules(gravity="down"), "time_limit": 2.0}])
def test_a_saved_result_loads_back(options, tmp_path):
    """to_dict -> JSON -> Analysis.from_dict gives the same results, parameters and timings (a
    batch audit: a saved result could not be loaded to compare with a new run)."""
    import json

    grids = np.stack([b.grid for b in deals(8, 6, 8, seed=41)])
    result = llk.analyze(grids, workers=1, **options)
    again = llk.Analysis.from_dict(json.loads(json.dumps(result.to_dict())))
    assert again.same_results(result) and again.moves == result.moves
    assert np.array_equal(again.seconds, result.seconds)
    for name in ("strategy", "rules", "node_limit", "time_limit", "workers", "wall_seconds"):
        assert getattr(again, name) == getattr(result, name), name
    if result.ratings is not None:
        assert all(np.array_equal(again.ratings[k], v, equal_nan=True)
                   for k, v in result.ratings.items())
    for bad in (None, [], {"boards": []}, {"parameters": {}, "boards": {"verdict": [1]}}):
        with pytest.raises(ValueError, match="Analysis document"):
            llk.Analysis.from_dict(bad)


def _set(where, key, value):
    return lambda doc: (doc[where] if where else doc).__setitem__(key, value)


@pytest.mark.parametrize("change, words", [
    (_set(None, "summary", [1]), '"summary" must be a dict'),
    (_set("boards", "verdict", [5, 1]), r"boards.verdict\[0\] is out of range: 5"),
    (_set("boards", "verdict", [1, None]), r"boards.verdict\[1\] must be an int, got None"),
    (_set("boards", "verdict", [1.9, 1]), "must be an int, got 1.9"),
    (_set("boards", "verdict", [True, 1]), "must be an int, got True"),
    (_set("boards", "nodes", [2**70, 1]), r"boards.nodes\[0\] is out of range"),
    (_set("boards", "initial_moves", [2**70, 1]), "out of range"),
    (_set("boards", "seconds", [float("nan"), 0.1]), "out of range: nan"),
    (_set("boards", "score", ["x", 1.0]), "must be a number, got 'x'"),
    # An audit: 10**400 raised OverflowError, -7 and 55 loaded, one rating column missing
    # dropped the others without a word.
    (_set("boards", "score", [10**400, 1.0]), r"boards.score\[0\] is out of range"),
    (_set("boards", "score", [1.0, -7]), r"boards.score\[1\] is out of range: -7"),
    (_set("boards", "clear_rate", [55, None]), r"boards.clear_rate\[0\] is out of range: 55"),
    (_set("boards", "trap_rate", [None, 1.5]), r"boards.trap_rate\[1\] is out of range"),
    (_set("boards", "branching", [-1, 1]), r"boards.branching\[0\] is out of range"),
    (lambda doc: doc["boards"].pop("branching"), "some of the rating columns"),
    (_set("boards", "moves", [[[0, 0, 1]], None]), r"moves\[0\] must be null or a list"),
    (_set("boards", "moves", 5), "moves must be a list"),
    (_set("parameters", "node_limit", "abc"), "node_limit must be an int"),
    (_set("parameters", "node_limit", 1.5), "node_limit must be an int, got 1.5"),
    (_set("parameters", "node_limit", -3), "node_limit is out of range: -3"),
    (_set("parameters", "strategy", 42), "strategy must be one of"),
    (_set("parameters", "rules", {"max_turns": "x"}), "rules: Rules.max_turns"),
    (_set("summary", "wall_seconds", "x"), "wall_seconds must be a number"),
])
def test_a_document_that_loads_is_one_every_call_takes(change, words):
    """from_dict promises ValueError for what is not an Analysis document: a summary that was a
    list was an AttributeError, a verdict of 5 loaded and then failed in to_records (KeyError),
    a verdict of 1.9 or True loaded as 1, a strategy of 42 loaded (an audit)."""
    import copy

    good = llk.analyze([[[1, 1], [2, 2]], [[1, 2], [2, 1]]], workers=1, keep_moves=True,
                       rate=True).to_dict()
    loaded = llk.Analysis.from_dict(copy.deepcopy(good))
    assert loaded.to_records() and str(loaded.summary())
    doc = copy.deepcopy(good)
    change(doc)
    with pytest.raises(ValueError, match=words):
        llk.Analysis.from_dict(doc)


@pytest.mark.parametrize("ratings, words", [
    ({"score": [1.0]}, r"lacks \['clear_rate', 'trap_rate', 'branching'\]"),
    ({"score": [np.inf], "clear_rate": [0.5], "trap_rate": [0.0], "branching": [2.0]},
     r"ratings\['score'\]\[0\] is out of range: inf"),
    ({"score": [50.0], "clear_rate": [0.5], "trap_rate": [np.nan], "branching": [-np.inf]},
     r"ratings\['branching'\]\[0\] is out of range"),
    # An audit: these raised OverflowError, or were taken with a ComplexWarning, or as 0 / 1.
    ({"score": [10**400], "clear_rate": [0.5], "trap_rate": [0.0], "branching": [2.0]},
     r"ratings\['score'\] must hold ints and floats only"),
    ({"score": [50 + 1j], "clear_rate": [0.5], "trap_rate": [0.0], "branching": [2.0]},
     r"ratings\['score'\] must hold ints and floats only"),
    ({"score": [50.0], "clear_rate": [True], "trap_rate": [0.0], "branching": [2.0]},
     r"ratings\['clear_rate'\] must hold ints and floats only"),
    ({"score": None, "clear_rate": [0.5], "trap_rate": [0.0], "branching": [2.0]},
     r"ratings\['score'\] must hold ints and floats only"),
])
def test_an_analysis_refuses_ratings_no_rating_has(ratings, words):
    """Analysis(..., ratings={"score": [1]}) raised KeyError, and an infinite rating made a
    to_dict() that is not JSON (an audit): ValueError, naming what is wrong. NaN is a rating
    (not rated, or no winnable position met)."""
    columns = ([1], [2], [1], [5], [0.1])
    with pytest.raises(ValueError, match=words):
        llk.Analysis(*columns, ratings=ratings)
    fine = {"score": [50.0], "clear_rate": [0.5], "trap_rate": [np.nan], "branching": [np.nan]}
    assert llk.Analysis(*columns, ratings=fine).ratings is not None
    with pytest.raises(TypeError, match="dict of columns"):
        llk.Analysis(*columns, ratings=[fine])


@pytest.mark.parametrize("column, values, words", [
    (0, [5], r"verdict\[0\] is out of range: 5"),
    (0, np.array([257]), r"verdict\[0\] is out of range: 257"),     # 1 as an int8
    (0, [1.5], r"verdict\[0\] is out of range: 1.5"),
    (0, [True], "verdict must hold numbers"),
    (1, [-2], r"initial_moves\[0\] is out of range: -2"),
    (3, [-7], r"nodes\[0\] is out of range: -7"),
    (4, [float("nan")], r"seconds\[0\] is out of range: nan"),
    (4, [float("inf")], r"seconds\[0\] is out of range: inf"),
    (2, [[1]], "solution_length must be 1-D"),
])
def test_an_analysis_refuses_results_no_run_has(column, values, words):
    """The result columns were only converted (an audit): a verdict of 5 printed a summary
    whose verdicts did not add up and made to_records raise KeyError, and negative nodes or a
    NaN time were written by to_dict into a file from_dict refused. ValueError, as from_dict
    says of the same values."""
    columns = [[1], [2], [1], [5], [0.1]]
    columns[column] = values
    with pytest.raises(ValueError, match=words):
        llk.Analysis(*columns)
    good = llk.Analysis([1, 0, -1], [2, -1, 0], [1, -1, -1], [5, 0, 2**40], [0.1, 0, 3])
    again = llk.Analysis.from_dict(json.loads(json.dumps(good.to_dict())))
    assert again.same_results(good)


@pytest.mark.parametrize("parts", ["ab", 5, [1]])
def test_concat_takes_analyses_only(parts):
    with pytest.raises(TypeError, match="Analysis"):
        llk.Analysis.concat(parts)


def test_the_result_names_the_rules_its_boards_were_solved_under():
    """Boards bring their own rules: a result of gravity deals said rules None, like a run
    under the default rules (a batch audit). Mixed rules stay None."""
    down = llk.Rules(gravity="down")
    gravity_deals = [llk.generate(4, 6, seed=i, solvable=False, rules=down) for i in range(3)]
    result = llk.analyze(gravity_deals, workers=1)
    assert result.rules == down and result.to_dict()["parameters"]["rules"]["gravity"] == "down"
    assert llk.analyze([b.grid for b in gravity_deals], workers=1).rules == llk.Rules()
    mixed = gravity_deals + [llk.generate(4, 6, seed=9, solvable=False)]
    assert llk.analyze(mixed, workers=1).rules is None
    assert llk.analyze([], rules=down).rules == down and llk.analyze([]).rules is None
    halves = [llk.analyze(gravity_deals[:1]), llk.analyze([]), llk.analyze(gravity_deals[1:])]
    assert llk.Analysis.concat(halves).rules == down
    assert llk.Analysis.concat([halves[0], llk.analyze(mixed[-1:])]).rules is None


def test_input_forms_agree():
    boards = deals(9, 6, 8, seed=21)
    stack = np.stack([b.grid for b in boards])
    reference = llk.analyze(stack, workers=2)
    assert len(reference) == 9
    for form in (boards, [b.grid.tolist() for b in boards], (b.grid for b in boards),
                 stack.astype(np.int64), np.asfortranarray(stack)):
        assert llk.analyze(form, workers=2).same_results(reference)


def test_mixed_sizes_and_rules_from_boards():
    rules = llk.Rules(gravity="left")
    boards = deals(3, 4, 6, seed=1) + deals(3, 8, 4, seed=2, rules=rules) + [llk.Board([[1, 1]])]
    result = llk.analyze(iter(boards), workers=2)
    assert_same_as_solve_loop(result, boards)
    # rules= applies to plain grids ...
    grid = [[1, 2, 1, 2]]
    assert llk.analyze([grid], rules=llk.Rules(border=False)).verdict[0] == int(llk.Verdict.UNSOLVABLE)
    assert llk.analyze([grid]).verdict[0] == int(llk.Verdict.SOLVABLE)
    # ... and may not contradict a Board's own rules.
    with pytest.raises(ValueError, match="board 0"):
        llk.analyze([llk.Board(grid)], rules=llk.Rules(border=False))


def test_boards_passed_in_are_not_changed():
    boards = deals(6, 6, 6, seed=4)
    before = [b.grid.copy() for b in boards]
    llk.analyze(boards + boards, workers=4)  # the same Board object twice, in flight at once
    for b, g in zip(boards, before):
        assert np.array_equal(b.grid, g) and b.history == []


def test_empty_input():
    result = llk.analyze([], workers=2)
    assert len(result) == 0
    summary = result.summary()
    assert summary["boards"] == 0 and summary["nodes"]["median"] is None
    assert summary["verdicts"]["solvable"] == {"count": 0, "fraction": None}
    assert "0 boards" in str(summary)
    assert result.to_records() == []
    pd = pytest.importorskip("pandas")
    frame = result.to_dataframe()
    # pandas.DataFrame([]) has no columns; the frame has every one, so runs concatenate.
    assert frame.columns.tolist() == ["index", "verdict", "initial_moves", "solution_length",
                                      "nodes", "seconds"]
    other = llk.analyze([llk.generate(4, 4, seed=1)]).to_dataframe()
    assert pd.concat([frame, other])["verdict"].tolist() == other["verdict"].tolist()


@pytest.mark.parametrize("bad, error, match", [
    (5, TypeError, "iterable"),
    ("1 2\n2 1", TypeError, "iterable"),
    (np.zeros((4, 4), np.int32), llk.BoardError, "one board"),
    ([[1, 1], [2, 2]], llk.BoardError, "one board"),
    (([1, 1], [2, 2]), llk.BoardError, "one board"),
    ([[np.int32(1), 1]], llk.BoardError, "one board"),
    (np.zeros((2, 4, 4), np.float64), llk.BoardError, "must be ints"),
    ([[[1, 1]], [[1, 2, 3], [1]]], llk.BoardError, "board 1: ragged"),
    ([[[1, 1]], "x"], llk.BoardError, "board 1"),
])
def test_bad_inputs(bad, error, match):
    with pytest.raises(error, match=match):
        llk.analyze(bad, workers=2)
    assert analysis_threads() == []


def test_a_single_board_is_refused():
    with pytest.raises(TypeError, match="llk.solve"):
        llk.analyze(llk.Board([[1, 1]]))


@pytest.mark.parametrize("kw, error", [
    (dict(workers=0), ValueError), (dict(workers=-2), ValueError), (dict(workers=True), TypeError),
    # (a helper's audit: 5,000 workers took 17 s, where 2 took 0.26 s)
    (dict(workers=1025), ValueError),
    (dict(workers=1.5), TypeError), (dict(strategy="guess"), ValueError),
    (dict(node_limit=-1), ValueError), (dict(keep_moves="yes"), TypeError),
    (dict(rules="classic"), TypeError),
])
def test_bad_parameters_fail_before_any_board_is_read(kw, error):
    consumed = []

    def boards():
        consumed.append(1)
        yield [[1, 1]]

    with pytest.raises(error):
        llk.analyze(boards(), **kw)
    assert consumed == []


def test_error_in_the_middle_stops_everything():
    def stream():
        for i in itertools.count():
            yield [[1, 2], [1]] if i == 37 else llk.generate(6, 6, solvable=False, seed=i).grid

    with pytest.raises(llk.BoardError, match="board 37"):
        llk.analyze(stream(), workers=2)
    assert analysis_threads() == []


# ---------------------------------------------------------------------------------------------
# Streaming and Ctrl-C
# ---------------------------------------------------------------------------------------------

def endless_deals(counter, seconds=120.0):
    """Deals without end, for tests that stop analyze; after ``seconds`` it fails instead, so a
    stop that never comes fails the test rather than hanging the run."""
    deadline = time.monotonic() + seconds
    for i in itertools.count():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the stream was not stopped within {seconds} s")
        counter.append(i)
        yield llk.generate(6, 6, solvable=False, seed=i)


def interrupt_main_until(stopped, first=0.5, every=1.0):
    """Ctrl-C for the main thread after ``first`` seconds, then again every ``every`` seconds
    until ``stopped`` is set: CPython drops a KeyboardInterrupt that lands while a finalizer or
    weakref callback runs (it becomes an "Exception ignored" warning), as a person's second
    Ctrl-C would make up for."""
    def run():
        wait = first
        while not stopped.wait(wait):
            _thread.interrupt_main()
            wait = every
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def interrupted(call):
    """(seconds, the exception): ``call()`` interrupted as Ctrl-C would be
    (interrupt_main_until) raised KeyboardInterrupt; no analysis thread may be left then."""
    gc.collect()        # the garbage of earlier tests is not finalized during this one
    stopped = threading.Event()
    start = time.monotonic()
    interrupter = interrupt_main_until(stopped)
    try:
        with pytest.raises(KeyboardInterrupt) as raised:
            try:
                call()
            finally:
                stopped.set()
    finally:
        stopped.set()
        interrupter.join()
    elapsed = time.monotonic() - start
    assert analysis_threads() == []
    return elapsed, raised.value


def seconds_until_interrupted(call):
    return interrupted(call)[0]


def assert_first_boards_kept(stopped: BaseException, boards, **kwargs) -> None:
    """``stopped`` is an AnalysisInterrupted whose analysis is that of the first boards: what
    analyzing them alone gives (by the solver's node counts: its answers do not depend on time)."""
    assert isinstance(stopped, llk.AnalysisInterrupted)
    kept = stopped.analysis
    copied = pickle.loads(pickle.dumps(stopped))
    assert len(copied.analysis) == len(kept) and str(copied) == str(stopped)
    again = llk.analyze(boards[:len(kept)], workers=1, **kwargs)
    for name in ("verdict", "initial_moves", "solution_length", "nodes"):
        assert getattr(kept, name).tolist() == getattr(again, name).tolist(), name
    assert kept.moves == again.moves and kept.rules == again.rules


def test_streams_lazily_and_a_progress_callback_can_interrupt():
    """An endless generator, stopped by KeyboardInterrupt from the progress callback after 50
    boards: it was read only a few tasks per worker ahead, and no thread survives."""
    pulled = []
    seen = []

    def progress(done, total):
        seen.append((done, total))
        if done == 50:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as raised:
        llk.analyze(endless_deals(pulled), workers=2, progress=progress, keep_moves=True)
    # What was finished is kept: the first boards, up to the first one not finished.
    assert 1 <= len(raised.value.analysis) <= 50
    assert_first_boards_kept(raised.value, [llk.generate(6, 6, solvable=False, seed=i)
                                            for i in range(50)], keep_moves=True)
    assert seen[-1] == (50, None)
    assert [d for d, _ in seen] == list(range(1, 51))
    # A few tasks per worker ahead, each of the 6x6 deals (36 tiles) that fill a task.
    per_task = -(-batch._TASK_TILES // 36)
    assert 50 <= len(pulled) <= 50 + (batch._WINDOW_PER_WORKER * 2 + 1) * per_task
    assert analysis_threads() == []


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_from_the_keyboard_stops_promptly(workers):
    """A real interrupt of the main thread (what Ctrl-C does) while analyze runs an endless
    stream: KeyboardInterrupt comes out within a second or so and every pool thread is gone."""
    pulled = []
    elapsed, stopped = interrupted(
        lambda: llk.analyze(endless_deals(pulled, seconds=60), workers=workers))
    assert len(pulled) > 0
    assert elapsed < 5, elapsed
    # The boards finished are kept (half a second of them at least: hundreds).
    assert len(stopped.analysis) > 10
    assert_first_boards_kept(stopped, [llk.generate(6, 6, solvable=False, seed=i)
                                       for i in range(len(stopped.analysis))])


def test_ctrl_c_stops_long_solves_in_flight():
    """Ctrl-C while both threads are deep in long exact searches: the running kernels are
    cancelled, so analyze gives up within a second instead of waiting for them to finish. (It
    skipped itself for a while, its deal decided within a second: now a deal that fails it.)"""
    hard = hard_deal()
    assert llk.solve(hard, time_limit=1.0).verdict == llk.Verdict.UNKNOWN, \
        "the solver now decides hard_deal() within a second: pick a harder one"
    assert seconds_until_interrupted(lambda: llk.analyze([hard] * 4, workers=2, time_limit=60)) < 3


def test_ctrl_c_stops_ratings_in_flight():
    """With rate=True the workers' ratings (the careful game: an exact search per move, about
    10 s for a 12x24 deal with gravity) stop on the solver's cancel flag too: a helper's audit
    saw Ctrl-C take 17.8 s, every rating in flight running to its end. (The solvable deals it
    rated then are rated within 1.3 s now, and the test passed without the cancel: a random
    deal whose rating takes 6.9 s, 2026-12-05, solved to a small node budget.)"""
    from llkcore.difficulty import rating_of

    deal = llk.generate(12, 24, solvable=False, seed=0, rules=llk.Rules(gravity="down"))
    cancelled = rating_of(deal, cancel=np.ones(1, dtype=np.int32))
    assert cancelled.game_length == 0 and cancelled.decided == 0    # stopped before any move
    # A time limit far off: the ratings' own clocks do not stop them, Ctrl-C does.
    assert seconds_until_interrupted(lambda: llk.analyze(
        [deal] * 4, workers=2, rate=True, node_limit=1000, time_limit=600)) < 4


def test_a_time_limit_stops_the_ratings_too():
    """analyze's time_limit bounded each solve but not its rating: two random 12x24 deals with
    gravity at time_limit=0.2 took 7.1 s, the careful game of the first one running seconds.
    Each rating now stops at the limit too, and what the clock cut is NaN, so that a value
    present is the rating without a limit."""
    gravity = llk.Rules(gravity="down")
    deals = [llk.generate(12, 24, solvable=False, seed=s, rules=gravity) for s in (0, 1)]
    start = time.perf_counter()
    result = llk.analyze(deals, workers=1, rate=True, time_limit=0.2)
    assert time.perf_counter() - start < 5
    ratings = result.ratings
    assert ratings is not None
    # The first deal's careful game takes seconds (2026-12-05): cut, its values left out.
    assert np.isnan(ratings["trap_rate"][0]) and np.isnan(ratings["branching"][0])
    # The second one's takes a few ms: in full, as llk.rate rates it.
    full = llk.rate(deals[1])
    assert full.complete and full.branching is not None
    assert ratings["score"][1] == full.score and ratings["branching"][1] == full.branching
    assert result.summary()["ratings_cut"] == 1
    assert "the time limit cut the rating of 1 board;" in str(result)
    # The playouts themselves cut (a limit of 0 plays nothing): every value left out.
    nothing = llk.analyze(deals, workers=1, rate=True, time_limit=0)
    assert nothing.ratings is not None and all(np.isnan(v).all() for v in nothing.ratings.values())
    assert nothing.summary()["ratings_cut"] == 2
    # Without a limit every rating is played in full, the values present the same.
    in_full = llk.analyze(deals[1:], workers=1, rate=True)
    unlimited = in_full.ratings
    assert unlimited is not None and in_full.summary()["ratings_cut"] == 0
    assert "the time limit cut" not in str(in_full)
    assert all(np.array_equal(unlimited[name], ratings[name][1:], equal_nan=True)
               for name in unlimited)


def test_a_small_batch_starts_no_more_threads_than_it_has_boards():
    """analyze's own pool started every worker at once: three boards with workers=100 made a
    hundred threads, which exhausted the AddressSanitizer build's memory in the fuzz suite.
    A thread is started per board submitted, up to ``workers``."""
    alive = []
    deals = [llk.generate(6, 6, seed=s) for s in range(3)]
    result = llk.analyze(deals, workers=100, progress=lambda done, total: alive.append(
        len(analysis_threads())))
    assert list(result.verdict) == [1, 1, 1] and alive and max(alive) <= 3, alive
    assert not analysis_threads()


_EXIT_CHILD = """
import atexit, sys, threading, time
import llkcore as llk

gravity = llk.Rules(gravity="down")
# Tall deals the search leaves open for seconds each (UNKNOWN at 3 s): no time limit below.
hard = [llk.generate(18, 8, solvable=False, seed=s, rules=gravity) for s in (4, 5, 6, 7)]
easy = [llk.generate(8, 18, seed=s) for s in range(40)]
if sys.argv[1] == "daemon":
    threading.Thread(target=lambda: llk.analyze(hard * 4, workers=2), daemon=True).start()
    time.sleep(0.5)
    print(time.monotonic(), flush=True)
elif sys.argv[1] == "thread":       # the main thread ends at once; this thread goes on
    threading.Thread(target=lambda: print(int((llk.analyze(easy, workers=2).verdict == 1).sum()),
                                          flush=True)).start()
else:       # analyze from an atexit handler, after threading has shut down
    atexit.register(lambda: print(llk.analyze(easy[:4], workers=2).verdict.tolist(), flush=True))
"""


@pytest.mark.parametrize("where", ["daemon", "thread", "atexit"])
def test_the_interpreter_exits_while_analyze_runs_in_a_daemon_thread_and_analyze_runs_at_exit(
        where):
    """A helper's audit: analyze in a daemon thread held the interpreter's exit until every
    board in flight was solved (the pool's threads are joined at exit, 68 s in its run, for
    ever here without time limits: 22 s), and Ctrl-C did not cut the wait short; analyze in
    a thread that outlived the main thread, or in an atexit handler, raised RuntimeError (the
    pool took no work once the interpreter began to exit). Its workers are its own daemon
    threads now."""
    proc = subprocess.run([sys.executable, "-c", _EXIT_CHILD, where], capture_output=True,
                          text=True, timeout=120)
    exited = time.monotonic()
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    if where == "daemon":           # the process ends when its main thread does
        assert exited - float(proc.stdout) < 5, exited - float(proc.stdout)
    else:
        assert proc.stdout.strip() == ("40" if where == "thread" else "[1, 1, 1, 1]"), proc.stdout


# ---------------------------------------------------------------------------------------------
# Progress display
# ---------------------------------------------------------------------------------------------

def test_progress_bar_with_tqdm(capsys):
    pytest.importorskip("tqdm")
    llk.analyze(deals(5), progress=True, workers=2)
    err = capsys.readouterr().err
    assert "analyze" in err and "5/5" in err


def test_progress_plain_line_without_tqdm(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)  # import tqdm.auto now fails
    monkeypatch.setitem(sys.modules, "tqdm", None)
    llk.analyze(deals(5), progress=True, workers=2)
    err = capsys.readouterr().err
    assert "analyze: 5/5 boards" in err
    # A stream of unknown length, into a log: the last line gives the final count.
    llk.analyze(iter(deals(5)), progress=True, workers=2)
    assert capsys.readouterr().err.splitlines()[-1].startswith("analyze: 5 boards")


# ---------------------------------------------------------------------------------------------
# The Analysis container
# ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def analysed():
    boards = deals(60, 8, 8, seed=500)
    return boards, llk.analyze(boards, workers=2, keep_moves=True)


def test_arrays_have_the_documented_dtypes(analysed):
    _, result = analysed
    expected = {"verdict": np.int8, "initial_moves": np.int32, "solution_length": np.int32,
                "nodes": np.int64, "seconds": np.float64}
    for name, dtype in expected.items():
        arr = getattr(result, name)
        assert arr.dtype == dtype and arr.shape == (60,), name
    assert set(np.unique(result.verdict)) <= {int(v) for v in llk.Verdict}
    assert result.wall_seconds > 0 and result.boards_per_second > 0


def test_summary_counts_fractions_and_quantiles(analysed):
    _, result = analysed
    s = result.summary()
    assert s["boards"] == 60
    total = 0
    for verdict in llk.Verdict:
        entry = s["verdicts"][verdict.name.lower()]
        count = int(np.sum(result.verdict == int(verdict)))
        assert entry["count"] == count and entry["fraction"] == pytest.approx(count / 60)
        total += entry["count"]
    assert total == 60
    for field in ("nodes", "seconds", "initial_moves"):
        values = getattr(result, field).astype(float)
        assert s[field]["median"] == pytest.approx(np.median(values))
        assert s[field]["p90"] == pytest.approx(np.percentile(values, 90))
        assert s[field]["p99"] == pytest.approx(np.percentile(values, 99))
        assert s[field]["max"] == values.max()
    solved = result.solution_length[result.verdict == int(llk.Verdict.SOLVABLE)]
    if solved.size:
        assert s["solution_length"]["max"] == solved.max()
    assert s["boards_per_second"] == pytest.approx(60 / result.wall_seconds)
    json.dumps(s)  # plain JSON
    table = str(s)
    for word in ("solvable", "unsolvable", "unknown", "median", "p90", "p99", "nodes", "boards/s"):
        assert word in table
    assert str(result) == table and "60 boards" in repr(result)


def test_records_and_pandas(analysed):
    boards, result = analysed
    records = result.to_records()
    assert len(records) == 60
    for i, rec in enumerate(records):
        assert rec["index"] == i
        assert rec["verdict"] == llk.Verdict(int(result.verdict[i])).name.lower()
        assert rec["nodes"] == result.nodes[i] and rec["moves"] == result.moves[i]
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(records)
    assert list(frame["nodes"]) == result.nodes.tolist()
    assert (frame["verdict"] == "solvable").sum() == result.summary()["verdicts"]["solvable"]["count"]
    typed = result.to_dataframe()
    assert typed.columns.tolist() == frame.columns.tolist()
    assert typed.astype({"verdict": str}).to_dict("records") == records
    assert typed["verdict"].dtype == "category" and typed["nodes"].dtype == np.int64


def test_to_dataframe_without_pandas_says_what_to_install(analysed, monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)      # import pandas raises ImportError
    with pytest.raises(ImportError, match=r'pip install "llkcore\[pandas\]"'):
        analysed[1].to_dataframe()


def test_to_dict_is_json_and_concat_round_trips(analysed):
    _, result = analysed
    data = json.loads(json.dumps(result.to_dict()))
    assert data["boards"]["nodes"] == result.nodes.tolist()
    assert data["summary"]["boards"] == 60
    parts = [Analysis(*(getattr(result, f)[a:b] for f in batch.FIELDS), result.moves[a:b])
             for a, b in ((0, 13), (13, 13), (13, 60))]
    joined = Analysis.concat(parts)
    assert joined.same_results(result) and joined.moves == result.moves
    shuffled = Analysis.concat(parts[::-1])
    assert not shuffled.same_results(result)
    with pytest.raises(ValueError, match="entries"):
        Analysis([1, 0], [1], [1, 1], [1, 1], [0.1, 0.2])


def test_boards_under_other_rules_are_refused_with_what_to_pass_instead():
    """A batch analyst's Boards under rules= they do not have: the error said only "conflicts"
    (an audit); it now names both rules and the way out, and the way out works."""
    deals = [llk.generate(4, 6, seed=i) for i in range(2)]
    gravity = llk.Rules(gravity="down")
    for call in (lambda: llk.analyze(deals, rules=gravity),
                 lambda: llk.moves(deals[0], rules=gravity)):
        with pytest.raises(ValueError, match=r"gravity='down'\) asked, the Board has .*"
                                             r"gravity=None\)\): pass board\.grid"):
            call()
    result = llk.analyze([d.grid for d in deals], rules=gravity)
    assert result.rules == gravity and len(result) == 2


def test_concat_refuses_runs_of_other_strategies_or_limits():
    """concat gave the first part's strategy and limits to all: a run of "matching" with
    node_limit=5 joined to an exact run said "exact", no node limit, for every board (an
    audit). Runs that differ are refused; an empty part's parameters do not count."""
    deals = [llk.generate(4, 4, solvable=False, seed=i).grid for i in range(3)]
    exact = llk.analyze(deals, time_limit=1)
    for other, name in ((llk.analyze(deals, strategy="matching", time_limit=1), "strategy"),
                        (llk.analyze(deals, node_limit=5, time_limit=1), "node_limit"),
                        (llk.analyze(deals, time_limit=2), "time_limit")):
        with pytest.raises(ValueError, match=f"differ in {name}"):
            Analysis.concat([exact, other])
    empty = llk.analyze([], strategy="matching")
    joined = Analysis.concat([empty, exact, llk.analyze(deals[:1], time_limit=1)])
    assert (joined.strategy, joined.time_limit, len(joined)) == ("exact", 1.0, 4)


def test_llkcore_dask_imports_without_dask_and_says_what_to_install(monkeypatch):
    import llkcore.dask as llk_dask
    monkeypatch.setitem(sys.modules, "dask", None)  # import dask now fails
    monkeypatch.setitem(sys.modules, "dask.bag", None)
    with pytest.raises(ImportError, match=r"llkcore\[dask\]"):
        llk_dask.analyze([[[1, 1]]])


def test_progress_is_a_bool_or_a_callable_and_dask_collections_are_named():
    """A helper's audit: progress="no" showed a bar (keep_moves and rate refuse non-bools), and a
    dask array given to the local analyze failed as 'board values must be ints, got Array'."""
    from llkcore.deals import Deals

    with pytest.raises(TypeError, match="progress must be a bool"):
        llk.analyze(Deals(4, 4, 2), progress="no")
    seen = []
    llk.analyze(Deals(4, 4, 2), progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (2, 2)
    da = pytest.importorskip("dask.array")
    grids = np.stack([llk.generate(4, 6, solvable=False, seed=i).grid for i in range(4)])
    with pytest.raises(TypeError, match="llkcore.dask.analyze"):
        llk.analyze(da.from_array(grids, chunks=(2, 4, 6)))


def test_deals_check_their_arguments_when_made():
    """As generate does, when the Deals is made, not when analyze first draws from it (a
    helper's audit: Deals(-4, 4, 3) was accepted)."""
    from llkcore.deals import Deals

    for args, kwargs, error in [((-4, 4, 3), {}, ValueError), ((4, 4, 2), {"copies": 3}, ValueError),
                                ((3, 3, 2), {}, llk.DealError), ((4, 4, 2), {"types": 9}, ValueError),
                                ((4, 4, 2), {"solvable": "x"}, TypeError),
                                ((4, 4, 2), {"rules": 5}, TypeError)]:
        with pytest.raises(error):
            Deals(*args, **kwargs)


def test_limits_given_as_numpy_scalars_or_infinity_make_json():
    """A helper's audit: to_dict() kept numpy scalars (json.dumps failed) and wrote an infinite
    time limit as Infinity, which is not JSON."""
    deals = [llk.generate(4, 4, seed=i) for i in range(3)]
    result = llk.analyze(deals, node_limit=np.int64(1000), time_limit=np.float32(1.0), workers=1)
    params = json.loads(json.dumps(result.to_dict()))["parameters"]
    assert params["node_limit"] == 1000 and params["time_limit"] == 1.0
    endless = llk.analyze(deals, time_limit=float("inf"), workers=1).to_dict()["parameters"]
    assert endless["time_limit"] is None and "Infinity" not in json.dumps(endless)


def test_a_time_limit_beyond_any_float_is_no_limit():
    """An edges audit: analyze(time_limit=10**400) solved the batch, then raised OverflowError
    building its Analysis; every other call reads an int beyond any float as no limit."""
    deals = [llk.generate(4, 4, seed=i) for i in range(2)]
    result = llk.analyze(deals, time_limit=10**400, workers=1)
    assert result.time_limit is None and list(result.verdict) == [llk.Verdict.SOLVABLE] * 2
    with pytest.raises(ValueError, match="time_limit"):
        llk.Analysis([1], [0], [0], [0], [0.0], time_limit=-1)


def test_counting_the_initial_moves_keeps_the_boards_time_limit():
    """An audit: analyze listed every removable pair of a board before its solve, with no
    clock: four 1024 x 1024 boards of 13.7 million pairs each took 489 s at time_limit=0.05.
    The count now runs on the board's time limit (at least 0.05 s); past it, -1."""
    rng = np.random.default_rng(0)
    grid = np.zeros(1024 * 1024, dtype=np.int32)
    tiles = 1024 * 1024 * 15 // 100 // 8 * 8
    grid[rng.choice(grid.size, tiles, replace=False)] = np.repeat(np.arange(1, 5), tiles // 4)
    small = llk.generate(4, 4, seed=1)
    start = time.perf_counter()
    result = llk.analyze([grid.reshape(1024, 1024), small], time_limit=0.2, workers=1)
    assert time.perf_counter() - start < 2 * 0.2 + 1.0      # count and solve; a loaded machine
    assert result.initial_moves.tolist() == [-1, len(small.moves())]
    assert result.summary()["initial_moves"]["max"] == len(small.moves())
    # A batch audit: the summary dropped the -1 silently, and ``seconds`` (the solve's alone)
    # left the count's time out, so the big board looked 10 ms long. Both are shown now.
    assert result.summary()["uncounted"] == 1
    assert "1 board not counted" in str(result.summary())
    assert result.seconds[0] >= 0.15
