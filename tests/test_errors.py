"""Bad input gets a clear exception of the documented type, never a crash and never a guess.

BoardError (a ValueError) for malformed boards, CoordinateError (a ValueError and IndexError) for
bad points, TypeError/ValueError from Rules, IllegalMove (a ValueError) from Board.remove. Each
check also asserts that the message names what is wrong.
"""
from __future__ import annotations

import collections
import enum
import os
import re
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import llkcore as llk
from llkcore import BoardError, CoordinateError, IllegalMove
from conftest import examples

GOOD = [[1, 0, 1],
        [2, -1, 2]]


def entry_points(grid, at=(0, 0)):
    """Every public way to hand llkcore a grid. The module queries read the cell ``at`` (an
    endpoint of theirs): they check the grid's shape and only the cells they read."""
    return {
        "Board": lambda: llk.Board(grid),
        "Board.update": lambda: llk.Board([[0]]).update(grid),
        "can_link": lambda: llk.can_link(grid, at, at),
        "find_path": lambda: llk.find_path(grid, at, at),
        "can_link 3 turns": lambda: llk.can_link(grid, at, at, rules=llk.Rules(max_turns=3)),
        "moves": lambda: llk.moves(grid),
        "hint": lambda: llk.hint(grid),
        "solve": lambda: llk.solve(grid),
    }


def assert_board_error(grid, *words, at=(0, 0)):
    for name, call in entry_points(grid, at).items():
        with pytest.raises(BoardError) as info:
            call()
        msg = str(info.value).lower()
        assert any(w in msg for w in words), (name, msg, words)


def first_bad_cell(grid):
    """Where a grid's first cell that is not an int in int32 is (the cell a query must read)."""
    for r, row in enumerate(np.asarray(grid, dtype=object).tolist() if isinstance(grid, np.ndarray) else grid):
        for c, v in enumerate(row):
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) \
                    or not -(2**31) <= int(v) < 2**31:
                return (r, c)
    return (0, 0)


def test_exception_hierarchy():
    assert issubclass(BoardError, ValueError)
    assert issubclass(IllegalMove, ValueError)
    assert issubclass(CoordinateError, ValueError) and issubclass(CoordinateError, IndexError)


# ---------------------------------------------------------------------------------------------
# Boards
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("grid", [
    [1, 2, 3], np.array([1, 2, 3]), np.zeros((2, 2, 2), dtype=int), [[[1], [2]], [[3], [4]]],
    np.array(5), np.int64(5), 5, 2.5, None, "1 2\n3 4", b"12", object(),
], ids=lambda g: type(g).__name__ + str(np.shape(g)) if not isinstance(g, (str, bytes)) else repr(g))
def test_not_two_dimensional(grid):
    assert_board_error(grid, "2-d", "dimension", "sequence", "grid")


@pytest.mark.parametrize("grid", [[], [[]], [[], []], np.zeros((0, 5), dtype=int),
                                  np.zeros((5, 0), dtype=int), np.zeros((0, 0), dtype=np.int32)],
                         ids=["[]", "[[]]", "[[],[]]", "(0,5)", "(5,0)", "(0,0)"])
def test_empty(grid):
    assert_board_error(grid, "empty", "at least one", "shape")


def test_text_past_the_largest_board_is_refused_where_it_passes_it():
    """A helper's audit: a 60 MB text line of 30 million values took a minute and 600 MB to be
    split and converted before Board refused its shape (and 64 MB of blank lines 21 s). The
    value or the row past MAX_SIDE is refused when it is met; blank lines are skipped in C."""
    with pytest.raises(BoardError, match=r"^line 3: more than 1024 values: a board may have at "
                                         r"most 1024 rows and 1024 columns$"):
        llk.Board.from_text("1 1\n\n" + "1 " * 3_000_000)
    with pytest.raises(BoardError, match=r"^line 1026: row 1025: a board may have at most 1024 "
                                         r"rows and 1024 columns$"):
        llk.Board.from_text("\n" + "1 1\n" * 2_000_000)
    assert llk.Board.from_text("1 " * 1024).shape == (1, 1024)
    assert llk.Board.from_text("\n\n".join(["1"] * 1024) + "\n" * 1000).shape == (1024, 1)
    # Line numbers count every line break str.splitlines knows, blank lines too.
    with pytest.raises(BoardError, match=r"^ragged board: line 5 has 1 values, line 2 has 2$"):
        llk.Board.from_text(" \r\n1 2\r3 4\u2028\x0c 5")


def test_from_text_reads_bytes_and_refuses_what_is_not_text():
    """from_json took bytes and said TypeError for what is not text; from_text refused bytes
    and said BoardError for None (an audit)."""
    assert llk.Board.from_text(b"1 . 1\n# 2 2\n").grid.tolist() == [[1, 0, 1], [-1, 2, 2]]
    assert llk.Board.from_text(bytearray(b"3 3")).grid.tolist() == [[3, 3]]
    with pytest.raises(BoardError, match="not UTF-8, UTF-16 or UTF-32"):
        llk.Board.from_text(b"1 \xff")
    # Bytes as from_json reads them (an audit: UTF-16 was "not UTF-8"), and a byte order mark
    # skipped in a str too, as from_json skips it (Path.read_text() keeps it).
    for text in ("1 . 1\n# 2 2\n".encode("utf-16"), "1 . 1\n# 2 2\n".encode("utf-32-le"),
                 "\ufeff1 . 1\n# 2 2\n", b"\xef\xbb\xbf1 . 1\n# 2 2\n"):
        assert llk.Board.from_text(text).grid.tolist() == [[1, 0, 1], [-1, 2, 2]], text
    for junk in (None, 5, ["1 1"]):
        with pytest.raises(TypeError, match="str or bytes"):
            llk.Board.from_text(junk)


@pytest.mark.parametrize("grid", [[[1, 2], [3]], [[1], [2, 3]], [[1, 2, 3], [1, 2], [1, 2, 3]]],
                         ids=["short-last", "short-first", "short-middle"])
def test_ragged(grid):
    assert_board_error(grid, "ragged", "length")


@pytest.mark.parametrize("grid", [[[1, 1], [2, 2], [3]], [[1, 1], [2, 2], np.array([3])],
                                  [[1, 1], [2, 2], range(3)]], ids=["lists", "an array", "a range"])
def test_a_ragged_board_names_its_row(grid):
    """It gave the set of lengths and no place, where the text reader names its lines."""
    with pytest.raises(BoardError, match=r"ragged board: row 2 has \d values, row 0 has 2"):
        llk.Board(grid)


def test_nested_cell():
    grid = [[1, [2]], [3, 4]]
    assert_board_error(grid, "2-d", at=(0, 1))


@pytest.mark.parametrize("grid", [
    [[1.0, 2.0]], [[1, 2.5]], np.array([[1.0, 2.0]]), np.array([[1, 2]], dtype=np.float32),
    [["a", "b"]], [["1", "2"]], [[None, 1]], [[1j, 2]], np.array([[True, False]]), [[True, False]],
    [[1, True]], np.array([[1, 2]], dtype=object), [[{}, 1]],
], ids=["floats", "mixed-float", "float64", "float32", "strings", "digit-strings", "None",
        "complex", "bool-array", "bool-list", "int-and-bool", "object-array", "dict"])
def test_non_integer_values(grid):
    assert_board_error(grid, "int", at=first_bad_cell(grid))


@pytest.mark.parametrize("grid", [
    [[2**31]], [[-(2**31) - 1]], [[1, 2**31, 1]], np.array([[2**31]], dtype=np.int64),
    np.array([[-(2**40)]], dtype=np.int64), np.array([[2**31]], dtype=np.uint32),
    np.array([[2**63 + 5]], dtype=np.uint64), np.array([[2**32]], dtype=np.uint64),
    [[2**63]], [[2**64]], [[-(2**70)]], [[10**30, 1]],
], ids=["2^31", "-2^31-1", "2^31-mid", "int64", "int64-neg", "uint32", "uint64-huge", "uint64",
        "list-2^63", "list-2^64", "list--2^70", "list-10^30"])
def test_values_out_of_int32(grid):
    assert_board_error(grid, "int32", at=first_bad_cell(grid))


@pytest.mark.parametrize("bad", [2.5, 2**31, True, "7", None, np.float64(1)])
def test_module_queries_check_the_cells_they_read(bad):
    """A module query reads the cells it needs in place (that is what makes it cheap): a bad
    cell it reads raises BoardError, one it never looks at does not; Board, moves, hint,
    solve and any query above two turns or with gravity read (and check) every cell."""
    grid = [[1, 0, 1, 0, 0],
            [-1, 0, -1, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, bad]]
    # (0, 0)-(0, 2) reads row 0 and columns 0, 1 and 2 (the lines through the endpoints and the
    # one crossing line between them): never the cell at (3, 4).
    assert llk.can_link(grid, (0, 0), (0, 2)) is True
    assert llk.find_path(grid, (0, 0), (0, 2)) == [(0, 0), (0, 2)]
    for call in (lambda: llk.can_link(grid, (3, 4), (0, 0)), lambda: llk.Board(grid),
                 lambda: llk.moves(grid), lambda: llk.hint(grid), lambda: llk.solve(grid),
                 lambda: llk.find_path(grid, (3, 4), (0, 0)),
                 lambda: llk.can_link(grid, (0, 0), (0, 2), rules=llk.Rules(max_turns=3)),
                 lambda: llk.find_path(grid, (0, 0), (0, 2), rules=llk.Rules(max_turns=3)),
                 lambda: llk.can_link(grid, (0, 0), (0, 2), rules=llk.Rules(gravity="down"))):
        with pytest.raises(BoardError, match=r"\(3, 4\)"):
            call()
    # With the pair's second tile in column 4 the sweep reads that column: checked.
    grid[0][2], grid[0][4] = 0, 1
    for call in (llk.can_link, llk.find_path):
        with pytest.raises(BoardError, match=r"\(3, 4\)"):
            call(grid, (0, 0), (0, 4))


@pytest.mark.parametrize("grid", [
    np.ma.masked_array([[1, 1]], mask=[[False, True]]), np.ma.masked_array([[1, 1]]),
    np.array([[1, 1]], dtype="timedelta64[s]"), np.array([[1, 1]], dtype="datetime64[D]"),
    np.array([[1, 1]], dtype=np.float16), np.array([[1 + 0j, 1]]),
], ids=["masked", "masked-no-mask", "timedelta64", "datetime64", "float16", "complex"])
def test_arrays_of_other_kinds_are_refused(grid):
    assert_board_error(grid, "mask", "must be ints")


@pytest.mark.parametrize("grid, way_out", [
    ([["a", "a"]], "from_labels"), ([[1, None]], "from_labels"), ([[b"x", b"x"]], "from_labels"),
    (np.array([[1, 1]], dtype=object), "from_labels"), (np.array([["a", "b"]]), "from_labels"),
    (np.array([[1.0, 1.0]]), ".astype(int)"),
], ids=["str", "None", "bytes", "object-array", "str-array", "float-array"])
def test_a_refused_grid_of_labels_or_floats_names_the_way_out(grid, way_out):
    """An audit: a grid of labels (or None for empty) got "board values must be ints" and no
    word of Board.from_labels, which the README gives for them; one message wording too."""
    assert_board_error(grid, "must be ints", at=first_bad_cell(grid))
    assert_board_error(grid, way_out, at=first_bad_cell(grid))
    with pytest.raises(BoardError, match=re.escape(way_out)):
        llk.analyze(np.array([grid, grid]))


def test_int32_extremes_are_accepted():
    top, bottom = 2**31 - 1, -(2**31)
    for grid in ([[top, 0, top], [bottom, bottom, 0]],
                 np.array([[top, 0, top], [bottom, bottom, 0]], dtype=np.int64),
                 np.array([[top, 0, top], [0, 0, 0]], dtype=np.uint32)):
        board = llk.Board(grid)
        assert board.grid.tolist() == np.asarray(grid).astype(np.int64).tolist()
        assert board.can_link((0, 0), (0, 2))
        assert board.index.types() == [top]
        assert llk.Board.from_text(board.to_text()).grid.tolist() == board.grid.tolist()


def test_board_side_limit():
    m = llk.MAX_SIDE
    assert m == 1024
    for shape in [(m + 1, 1), (1, m + 1), (m + 1, m + 1)]:
        with pytest.raises(BoardError, match=str(m)):
            llk.Board(np.zeros(shape, dtype=np.int8))
    with pytest.raises(BoardError, match=str(m)):
        llk.can_link([[0] * (m + 1)], (0, 0), (0, 1))
    assert llk.Board(np.zeros((m, 1), dtype=np.int8)).shape == (m, 1)
    assert llk.Board([[0] * m]).shape == (1, m)


# ---------------------------------------------------------------------------------------------
# Points
# ---------------------------------------------------------------------------------------------

OFF_BOARD = [(-1, 0), (0, -1), (2, 0), (0, 3), (2, 3), (-5, -5), (10**20, 0), (0, -(10**20))]
# A dict or set has no (row, col) order and a string is not a pair, even with two items.
NOT_PAIRS = [(0,), (0, 0, 0), (), 5, None, "0", {"r": 0}, "ab", {0: 0, 1: 2}, {0, 2},
             frozenset({0, 2}), np.zeros((2, 1), dtype=int)]
NOT_INTS = [(0.0, 1), (0, 1.0), (np.float64(0), 0), (True, 0), (0, False), (np.bool_(True), 0),
            ("0", "1"), (None, 0), (0, [1])]


def point_calls(board):
    return {
        "Board.can_link": lambda p: board.can_link(p, (0, 2)),
        "Board.can_link 2nd": lambda p: board.can_link((0, 2), p),
        "Board.find_path": lambda p: board.find_path(p, (0, 2)),
        "Board.find_path 2nd": lambda p: board.find_path((0, 2), p),
        "can_link": lambda p: llk.can_link(GOOD, p, (0, 2)),
        "find_path": lambda p: llk.find_path(GOOD, (0, 2), p),
    }


@pytest.mark.parametrize("point", OFF_BOARD)
def test_point_off_the_board(point):
    board = llk.Board(GOOD)
    for name, call in point_calls(board).items():
        with pytest.raises(CoordinateError, match="off the board of 2 rows x 3 columns"):
            call(point)


@pytest.mark.parametrize("point", NOT_PAIRS, ids=repr)
def test_point_not_a_pair(point):
    board = llk.Board(GOOD)
    for name, call in point_calls(board).items():
        with pytest.raises(CoordinateError, match=r"\(row, col\) pair|must be an int"):
            call(point)


@pytest.mark.parametrize("point", NOT_INTS, ids=repr)
def test_point_coordinates_not_ints(point):
    board = llk.Board(GOOD)
    for name, call in point_calls(board).items():
        # The message names the point, not only "col": a helper's audit could not tell which
        # of a move's two points was meant.
        with pytest.raises(CoordinateError, match=r"must be an int") as info:
            call(point)
        assert repr(point)[:20] in str(info.value) or "(a " in str(info.value), str(info.value)


def test_numpy_integer_points_and_sequences_are_accepted():
    """A module call reads a tuple or list of two plain ints itself (in C) and gives anything
    else to the facade's point check: both must take every kind of point a Board takes."""
    board = llk.Board(GOOD)
    Point = collections.namedtuple("Point", "row col")

    class Row(enum.IntEnum):
        TOP = 0

    for a in [(np.int64(0), np.uint8(0)), np.array([0, 0]), [0, 0], (np.int8(0), 0),
              Point(0, 0), (Row.TOP, 0)]:
        assert board.can_link(a, (0, 2))
        assert board.find_path(a, (0, 2)) == [(0, 0), (0, 2)]
        for grid in (GOOD, np.array(GOOD)):
            assert llk.can_link(grid, a, (0, 2)) and llk.can_link(grid, (0, 2), a)
            assert llk.find_path(grid, a, (0, 2)) == [(0, 0), (0, 2)]


@pytest.mark.parametrize("point", OFF_BOARD[:4] + NOT_PAIRS[:3] + NOT_INTS[:5], ids=repr)
def test_remove_with_a_bad_point_is_illegal_move(point):
    board = llk.Board(GOOD)
    for args in [(point, (0, 2)), ((0, 2), point)]:
        with pytest.raises(IllegalMove, match="off the|pair|must be an int"):
            board.remove(*args)
    assert board.grid.tolist() == GOOD and board.history == []


@pytest.mark.parametrize("step, exc", [("x", TypeError), (1.0, TypeError), (True, TypeError),
                                       (slice(0, 1), TypeError), (None, TypeError),
                                       (1, IndexError), (-2, IndexError), (2**70, IndexError)],
                         ids=repr)
def test_slides_of_a_bad_step(step, exc):
    board = llk.Board([[1, 0], [2, 0], [1, 2]], rules=llk.Rules(gravity="down"))
    board.remove((0, 0), (2, 0))
    assert board.slides(0) == board.slides(-1) == [((1, 0), (2, 0))]
    with pytest.raises(exc, match="step|removal"):
        board.slides(step)


def test_slides_count_removals_only_from_either_end():
    """Reshuffles in the history are passed over; the step counts from the end it is taken from
    (slides() walks from there, so the last removal costs O(1) in a long history)."""
    board = llk.generate(6, 6, seed=4, rules=llk.Rules(gravity="down"))
    first = board.certificate[0]
    board.remove(*first)
    board.shuffle(seed=1)
    board.remove(*board.certificate[0])
    board.shuffle(seed=2)
    replay = llk.Board(llk.generate(6, 6, seed=4, rules=board.rules).grid, rules=board.rules)
    replay.remove(*first)
    assert board.slides(0) == board.slides(-2) == replay.slides()
    assert board.slides(1) == board.slides(-1) != []
    for step in (2, -3):
        with pytest.raises(IndexError, match=f"no removal {step} in a history of 2"):
            board.slides(step)


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, exc, word", [
    (dict(max_turns=-1), ValueError, "max_turns"),
    (dict(max_turns=-(2**40)), ValueError, "max_turns"),
    (dict(max_turns=2**40), ValueError, "max_turns"),
    (dict(max_turns=2.0), TypeError, "max_turns"),
    (dict(max_turns=2.5), TypeError, "max_turns"),
    (dict(max_turns="2"), TypeError, "max_turns"),
    (dict(max_turns=None), TypeError, "max_turns"),
    (dict(max_turns=True), TypeError, "max_turns"),
    (dict(max_turns=np.float64(2)), TypeError, "max_turns"),
    (dict(border=1), TypeError, "border"),
    (dict(border=0), TypeError, "border"),
    (dict(border="yes"), TypeError, "border"),
    (dict(border=None), TypeError, "border"),
    (dict(gravity="sideways"), ValueError, "gravity"),
    (dict(gravity="Down"), ValueError, "gravity"),
    (dict(gravity=1), ValueError, "gravity"),
    (dict(gravity=""), ValueError, "gravity"),
])
def test_bad_rules(kwargs, exc, word):
    with pytest.raises(exc, match=word):
        llk.Rules(**kwargs)


def test_rules_accept_numpy_scalars_and_are_frozen_and_hashable():
    r = llk.Rules(max_turns=np.int8(3), border=np.bool_(False), gravity="left")
    assert (r.max_turns, r.border, r.gravity) == (3, False, "left")
    assert type(r.max_turns) is int and type(r.border) is bool
    assert r == llk.Rules(max_turns=3, border=False, gravity="left")
    assert hash(r) == hash(llk.Rules(max_turns=3, border=False, gravity="left"))
    with pytest.raises(AttributeError):
        r.max_turns = 2  # type: ignore[misc]
    assert llk.Rules() == llk.Rules(max_turns=2, border=True, gravity=None)


def test_a_preset_name_as_rules_says_how_to_use_it():
    with pytest.raises(TypeError, match=r"llk.Rules.preset\('qq'\)"):
        llk.moves(GOOD, rules="qq")


@pytest.mark.parametrize("bad", [{"max_turns": 2}, "classic", 2, True, (2, True, None),
                                 dict(max_turns=2, border=True, gravity=None)], ids=repr)
def test_wrong_rules_type(bad):
    for call in (lambda: llk.Board(GOOD, rules=bad),
                 lambda: llk.can_link(GOOD, (0, 0), (0, 2), rules=bad),
                 lambda: llk.find_path(GOOD, (0, 0), (0, 2), rules=bad),
                 lambda: llk.moves(GOOD, rules=bad),
                 lambda: llk.Board.from_text("1 1", rules=bad)):
        with pytest.raises(TypeError, match="Rules"):
            call()


# ---------------------------------------------------------------------------------------------
# can_link_many queries
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("queries", [
    [0, 0, 0, 2], np.zeros((2, 3), dtype=int), np.zeros((2, 5), dtype=int),
    np.zeros((2, 4, 1), dtype=int), np.zeros((3, 0), dtype=int), np.zeros((0, 5), dtype=int),
    [[0, 0, 0]], [[0, 0, 0, 2, 0]],
], ids=["1-D", "(2,3)", "(2,5)", "(2,4,1)", "(3,0)", "(0,5)", "list(1,3)", "list(1,5)"])
def test_can_link_many_wrong_shape(queries):
    board = llk.Board(GOOD)
    with pytest.raises(CoordinateError, match="shape"):
        board.can_link_many(queries)


@pytest.mark.parametrize("queries", [
    np.zeros((2, 4), dtype=float), np.zeros((2, 4), dtype=bool), np.zeros((2, 4), dtype=complex),
    [[0.0, 0, 0, 2]], [["0", "0", "0", "2"]], np.array([[0, 0, 0, 2]], dtype=object),
], ids=["float", "bool", "complex", "list-float", "strings", "object"])
def test_can_link_many_wrong_dtype(queries):
    board = llk.Board(GOOD)
    with pytest.raises(CoordinateError, match="integer"):
        board.can_link_many(queries)


@pytest.mark.parametrize("bad_row", [[-1, 0, 0, 2], [0, 0, 2, 0], [0, 3, 0, 0], [0, 0, 0, -1],
                                     [2**40, 0, 0, 0], [2**70, 0, 0, 2], [0, 0, -2**64, 2]])
def test_can_link_many_off_board(bad_row):
    board = llk.Board(GOOD)
    with pytest.raises(CoordinateError, match="off the board of 2 rows x 3 columns"):
        board.can_link_many([[0, 0, 0, 2], bad_row])


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                   np.uint32, np.uint64])
def test_can_link_many_accepts_every_integer_dtype(dtype):
    board = llk.Board(GOOD)
    queries = np.array([[0, 0, 0, 2], [1, 0, 1, 2], [0, 0, 1, 0], [0, 2, 0, 0]], dtype=dtype)
    expected = [board.can_link(tuple(q[:2]), tuple(q[2:])) for q in queries.tolist()]
    assert board.can_link_many(queries).tolist() == expected
    assert board.can_link_many(np.asfortranarray(queries)).tolist() == expected
    assert board.can_link_many(queries[::-1]).tolist() == expected[::-1]


def test_can_link_many_refuses_bools_and_names_huge_values():
    """numpy reads a bool among ints as an int (True was row 1), and a value beyond int64 makes
    the array float64 (the message named that dtype): both are judged as given now."""
    board = llk.Board(GOOD)
    with pytest.raises(CoordinateError, match="got bool True in query 1"):
        board.can_link_many([[0, 0, 0, 2], [True, 0, False, 1]])
    for huge in ([[2**63, 0, 0, 1]], [[np.uint64(2**63 + 5), -1, 0, 0]]):
        with pytest.raises(CoordinateError,
                           match="query 0 .* is off the board of 2 rows x 3 columns"):
            board.can_link_many(huge)
    assert board.can_link_many(((0, 0, 0, 2), [np.int8(1), 0, 1, 2])).tolist() == [True, True]


def test_can_link_many_refuses_masked_queries_and_unordered_rows():
    """A helper's audit: a masked array of queries was answered with the masked values read (a
    query the caller had masked out answered True), and a set as a row, whose order is not the
    caller's, was "shape (1,)"."""
    board = llk.Board([[1, 0, 1], [2, 0, 2]])
    masked = np.ma.array([[0, 0, 0, 2], [1, 0, 1, 2]], mask=[[0, 0, 0, 0], [0, 0, 0, 1]])
    with pytest.raises(CoordinateError, match="masked array"):
        board.can_link_many(masked)
    for row in ({0, 2}, frozenset({0, 1, 2, 3}), {0: 0, 1: 2}):
        with pytest.raises(CoordinateError, match=f"rows in order .* got a {type(row).__name__} "
                                                  "as query 1"):
            board.can_link_many([[0, 0, 0, 2], row])


@settings(max_examples=examples(300), deadline=None)
@given(rows=st.lists(st.lists(st.one_of(st.integers(-2, 4), st.integers(-2**63, 2**63 - 1)),
                              min_size=4, max_size=4), max_size=12),
       as_tuples=st.booleans())
def test_can_link_many_reads_rows_of_python_ints_as_can_link_does(rows, as_tuples):
    """Rows of Python ints are read in C (their checks in Python cost 6 us a query); a point
    off the board is named as before: the first row holding one."""
    board = llk.Board(GOOD)
    queries = [tuple(row) for row in rows] if as_tuples else rows
    off = [i for i, (r1, c1, r2, c2) in enumerate(rows)
           if not (0 <= r1 < 2 and 0 <= c1 < 3 and 0 <= r2 < 2 and 0 <= c2 < 3)]
    if off:
        for given_as in (queries, np.array(rows, dtype=np.int64)):
            with pytest.raises(CoordinateError, match=f"query {off[0]} .* is off the board"):
                board.can_link_many(given_as)
        return
    expected = [board.can_link(tuple(row[:2]), tuple(row[2:])) for row in rows]
    assert board.can_link_many(queries).tolist() == expected
    assert board.can_link_many(np.array(rows, dtype=np.int64).reshape(-1, 4)).tolist() == expected


def test_can_link_many_empty():
    board = llk.Board(GOOD)
    for empty in ([], np.zeros((0, 4), dtype=np.int64)):
        out = board.can_link_many(empty)
        assert out.shape == (0,) and out.dtype == np.bool_


# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, word", [
    ("", "no rows"), ("\n  \n\t\n", "no rows"), ("1 2\n3", "ragged"), ("1 x", "'x'"),
    ("1.5 1", "'1.5'"), ("1,2", "'1,2'"), ("1 2\n3 ?", "'?'"), ("2147483648 1", "int32"),
    ("-2147483649 1", "int32"), (". .\n#", "ragged"), ("..", "'..'"),
])
def test_malformed_text(text, word):
    with pytest.raises(BoardError) as info:
        llk.Board.from_text(text)
    assert word in str(info.value)


def test_bad_text_error_names_the_line():
    with pytest.raises(BoardError, match="line 3"):
        llk.Board.from_text("1 1\n\n2 y\n")


# ---------------------------------------------------------------------------------------------
# Hostile grids: Python code that runs while the compiled reader reads (found by tests/fuzz)
# ---------------------------------------------------------------------------------------------

def _shrinking_row_grids():
    """Grids whose cell (0, 1) runs code, while being read, that cuts its row short."""

    def claims_numpy(row):                   # isinstance(cell, np.integer) runs __class__
        class ClaimsNumpy:
            @property
            def __class__(self):
                del row[1:]
                return np.int64

            def __index__(self):
                return 1
        return ClaimsNumpy()

    def index_shrinks(row):                  # a numpy integer is read through __index__
        class IndexShrinks(np.int64):
            def __index__(self):
                del row[1:]
                return 0
        return IndexShrinks(0)

    grids = []
    for make in (claims_numpy, index_shrinks):
        row = [1, 0, 0, 0, 0, 0, 0, 1]
        row[1] = make(row)
        grids.append([row])
    return grids


@pytest.mark.parametrize("call", ["Board", "can_link", "can_link 3 turns", "find_path", "moves"])
def test_a_cell_that_cuts_its_row_short_while_read_is_refused(call):
    """The reader holds the row while it reads it; a cell's own code (__class__, __index__) may
    shrink it, and the reader used to read on past the row's end (a crash)."""
    calls = {
        "Board": lambda g: llk.Board(g),
        "can_link": lambda g: llk.can_link(g, (0, 0), (0, 7)),
        "can_link 3 turns": lambda g: llk.can_link(g, (0, 0), (0, 7), rules=llk.Rules(max_turns=3)),
        "find_path": lambda g: llk.find_path(g, (0, 0), (0, 7)),
        "moves": lambda g: llk.moves(g),
    }
    for grid in _shrinking_row_grids():
        with pytest.raises(BoardError, match="changed while it was being read"):
            calls[call](grid)


class _LyingShape(np.ndarray):
    """An ndarray subclass whose Python-level shape and strides lie about its memory."""

    @property
    def shape(self):
        return (1000, 1000)

    @property
    def strides(self):
        return (1 << 20, 8)


def test_an_array_subclass_is_read_through_numpy_not_its_attributes():
    grid = np.array([[1, 0, 1], [2, -1, 2]], dtype=np.int64).view(_LyingShape)
    for board in (llk.Board(grid), llk.Board(grid[:, ::-1])):
        assert board.shape == (2, 3)
    assert llk.Board(grid).grid.tolist() == GOOD
    assert llk.can_link(grid, (0, 0), (0, 2)) and llk.moves(grid) == llk.moves(GOOD)
    masked = np.ma.masked_array(grid, mask=[[0, 1, 0], [0, 0, 0]])
    assert_board_error(masked, "mask")


def test_an_object_that_claims_to_be_an_array_is_not_read_as_one():
    class Impostor:
        __class__ = property(lambda self: np.ndarray)
        ndim, shape, strides, dtype = 2, (3, 3), (12, 4), np.dtype(np.int32)

    assert isinstance(Impostor(), np.ndarray)
    assert_board_error(Impostor(), "2-d grid")


def test_grids_numpy_reads_as_a_whole_are_read_as_arrays():
    """A memoryview, or anything with ``__array__`` (a DataFrame, whose iteration yields column
    labels, a dask or xarray array, a tensor), is read as numpy reads it. A 2-D memoryview
    raised NotImplementedError from the row-by-row reading (a helper's audit)."""
    grid = np.array([[1, 2, 0, 1], [3, 3, 2, 0], [0, 4, 0, 4]], dtype=np.int32)

    class Frame:
        """Like a DataFrame: iterating it gives its column labels, not its rows."""
        def __array__(self, dtype=None, copy=None):
            return grid

        def __iter__(self):
            return iter(range(4))

    expected = llk.moves(grid)
    for like in (memoryview(grid), Frame(), memoryview(np.asfortranarray(grid))):
        assert llk.moves(like) == expected and llk.can_link(like, (0, 0), (0, 3))
        assert llk.Board(like).grid.tolist() == grid.tolist()
    dask_array = pytest.importorskip("dask.array")
    assert llk.moves(dask_array.from_array(grid, chunks=2)) == expected
    assert_board_error(memoryview(b"ab"), "2-d")
    assert_board_error(memoryview(np.zeros((2, 2))), "must be ints")


@pytest.mark.parametrize("grid", [{(0, 0, 1), (1, 0, 0)}, frozenset({(1, 1)}), {0: [1, 1]},
                                  {0: [1, 1]}.values(), [{1, 2}, {3, 4}]],
                         ids=["set", "frozenset", "dict", "dict-values", "rows-of-sets"])
def test_unordered_grids_are_refused(grid):
    """A set of rows was read in the set's order, scrambling the board without a word."""
    assert_board_error(grid, "in order")


@pytest.mark.parametrize("grid, at, words", [
    ([np.array([1, 1]), [0, None]], (1, 1), "nonetype"),
    ([np.array([1, 1]), [0, True]], (1, 1), "bool"),
    ([np.array([1, 1]), [0, 2.5]], (1, 1), "float"),
    ([np.array([1, 1], dtype=np.uint64), np.array([2**64 - 1, 0], dtype=np.uint64)], (1, 0), "int32"),
    ([np.array([1, 1]), [0, 2**64 - 1]], (1, 1), "int32"),
], ids=["None", "bool", "float", "uint64-huge", "int-huge"])
def test_rows_of_arrays_name_the_bad_cell(grid, at, words):
    """numpy promotes mixed rows (uint64 beside int64 to float64, a bool among ints to ints): the
    message named a dtype the user never made, or no cell. It now judges the cells as given."""
    assert_board_error(grid, words, at=at)
    for name, call in entry_points(grid, at).items():
        with pytest.raises(BoardError, match=re.escape(str(at))):
            call()


def test_rows_of_arrays_that_numpy_promotes_are_still_grids():
    """Rows of uint64 and int64 make a float64 array in numpy; their values are ints in int32,
    so this is a grid."""
    grid = [np.array([1, 0, 1], dtype=np.uint64), np.array([2, 0, 2], dtype=np.int64)]
    assert llk.Board(grid).grid.tolist() == [[1, 0, 1], [2, 0, 2]]
    assert llk.moves(grid) == [((0, 0), (0, 2)), ((1, 0), (1, 2))]


def test_int_subclasses_are_ints():
    class Tile(enum.IntEnum):
        EMPTY = 0
        CAT = 7

    grid = [[Tile.CAT, Tile.EMPTY, Tile.CAT]]
    assert llk.Board(grid).grid.tolist() == [[7, 0, 7]]
    assert llk.can_link(grid, (0, 0), (0, 2)) and llk.moves(grid) == [((0, 0), (0, 2))]
    with pytest.raises(BoardError, match="a bool at"):
        llk.Board([[1, True]])


# Run in a subprocess with a 2 GiB address-space limit and a timeout: before the fix numpy
# tried to allocate an array of 2**64 items (the machine's memory, then the OOM killer) and an
# endless iterable was read forever.
_UNBOUNDED = textwrap.dedent("""
    import itertools, resource
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    import numpy as np
    import llkcore as llk

    loop = []
    loop.append(loop)
    loop.append(loop)

    class Liar:
        def __len__(self):
            return 2

        def __iter__(self):
            return itertools.repeat(1)

    calls = {
        "Board, a row holding itself": lambda: llk.Board([loop, range(2)]),
        "Board, rows of arrays": lambda: llk.Board([np.zeros(2, int), loop]),
        "can_link_many, a list holding itself": lambda: llk.Board([[1, 1]]).can_link_many(loop),
        "can_link_many, a row of a tuple": lambda: llk.Board([[1, 1]]).can_link_many((loop, loop)),
        "Board, endless rows": lambda: llk.Board(itertools.repeat([1, 1])),
        "can_link, endless rows": lambda: llk.can_link(itertools.count(), (0, 0), (0, 1)),
        "from_labels, endless rows": lambda: llk.Board.from_labels(itertools.repeat(["a"])),
        "from_labels, an endless row": lambda: llk.Board.from_labels([itertools.repeat("a")]),
        # Rows that are not lists were read (or copied) in full before any size check.
        "Board, a broadcast row of 10**12": lambda: llk.Board(
            [np.broadcast_to(np.int8(1), (10**12,))]),
        "Board, a range row of 10**12": lambda: llk.Board([range(10**12)]),
        "can_link, a range row of 10**9": lambda: llk.can_link([range(10**9)], (0, 0), (0, 1)),
        "Board, a row that says 2 and never ends": lambda: llk.Board([Liar(), [1, 1]]),
    }
    for name, call in calls.items():
        try:
            call()
        except (llk.BoardError, llk.CoordinateError) as exc:
            print(name, "->", type(exc).__name__, exc)
        else:
            print(name, "-> accepted")
""")


def test_self_holding_lists_and_endless_iterables_are_refused_without_running_away():
    done = subprocess.run([sys.executable, "-c", _UNBOUNDED], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 12 and all("Error" in line for line in lines), done.stdout
    assert all(("2-D" in l or "ints" in l or "at most 1024" in l or "sequence" in l
                or "says it has 2 values" in l) for l in lines), done.stdout


def test_objects_that_claim_to_be_arrays_get_the_documented_errors():
    """Found by tests/fuzz: verify read .tolist() off an object whose __class__ claimed ndarray
    (AttributeError). Arrays are now recognised by their type everywhere."""
    class Impostor:
        __class__ = property(lambda self: np.ndarray)

    fake = Impostor()
    board = llk.Board(GOOD)
    for call, exc in [(lambda: llk.verify(GOOD, [fake]), TypeError),
                      (lambda: llk.verify(GOOD, fake), TypeError),
                      (lambda: llk.verify(GOOD, [(fake, (0, 0))]), ValueError),
                      (lambda: board.can_link(fake, (0, 0)), CoordinateError),
                      (lambda: board.can_link_many(fake), CoordinateError),
                      (lambda: llk.analyze(fake), TypeError),
                      (lambda: llk.generate(2, 2, layout=fake), BoardError)]:
        with pytest.raises(exc):
            call()


def test_a_strategy_given_as_the_solvers_first_argument_is_named():
    """Solver's first parameter is rules: Solver("greedy-freedom") said to use Rules.preset."""
    with pytest.raises(TypeError, match=r"Solver\(strategy='greedy-freedom'\)"):
        llk.Solver("greedy-freedom")


@pytest.mark.parametrize("call, error", [
    (lambda: llk.Board([[10**5000, 1]]), BoardError),
    (lambda: llk.Board([[10**4000, 1]]), BoardError),
    (lambda: llk.Board.from_text("1" * 10**6), BoardError),
    (lambda: llk.Board.from_text("1 " + "x" * 10**6), BoardError),
    (lambda: llk.can_link([[1, 1]], (10**5000, 0), (0, 1)), CoordinateError),
    (lambda: llk.Board([[1, 1]]).remove((10**5000, 0), (0, 1)), IllegalMove),
    (lambda: llk.generate(10**5000, 2), BoardError),
    (lambda: llk.solve([[1, 1]], node_limit=-10**5000), ValueError),
    (lambda: llk.Board([[1, 1]]).can_link([10**5000, 0, 1], (0, 1)), CoordinateError),
    (lambda: llk.verify([[1, 1]], [[(0, 0), (0, 1), (10**5000,)]]), ValueError),
])
def test_messages_name_huge_values_briefly(call, error):
    """An int of over 4,300 digits cannot be written (Python's ValueError came out instead of
    the call's error), and a shorter one or a long token was written whole: messages of 4,000
    characters, or 10 MB on a CLI's stderr (an audit)."""
    with pytest.raises(error) as info:
        call()
    assert len(str(info.value)) < 120, str(info.value)[:200]


def test_what_is_no_point_or_no_batch_is_named():
    """An audit: can_link_many named a shape "()" for a str, None, a dict or a generator;
    bytearray and memoryview were points ((0, 3) from b"\\x00\\x03"); analyze iterated a
    dict's keys; Picture.save of a bytes name said it was no .svg."""
    board = llk.Board([[1, 1, 0, 1], [1, 2, 2, 3]])
    for queries in ("0001", None, {0: 1}, (q for q in [[0, 0, 0, 1]])):
        with pytest.raises(CoordinateError, match="got " + type(queries).__name__):
            board.can_link_many(queries)
    class ArrayLike:            # (pandas frames and the like: np.asarray reads them)
        def __array__(self, dtype=None, copy=None):
            return np.array([[0, 0, 0, 1]])

    assert board.can_link_many(ArrayLike()).tolist() == [True]
    for p in (bytearray(b"\x00\x03"), memoryview(b"\x00\x03")):
        with pytest.raises(CoordinateError, match="pair"):
            board.can_link(p, (0, 1))
        with pytest.raises(ValueError, match="pair"):
            llk.verify(board, [(p, (0, 1))])
    with pytest.raises(TypeError, match="in order: got a dict"):
        llk.analyze({0: [[1, 1]]})
    picture = llk.Board([[1, 1]]).show()
    with pytest.raises(TypeError, match="file name"):
        picture.save(5)


def test_a_picture_saves_to_a_bytes_name(tmp_path):
    llk.Board([[1, 1]]).show().save(os.fsencode(tmp_path / "b.svg"))
    assert (tmp_path / "b.svg").read_text().startswith("<svg")


def test_a_good_point_of_numpy_ints_makes_no_error_message(monkeypatch):
    """pair() made its error messages for every point whose row or col is not a plain int, and
    the repr of a 1-D array point made board.can_link 75 us against 0.4 us (an audit). The
    message is made only when raised; the point is still named then."""
    from llkcore import checks
    board = llk.Board([[1, 1], [2, 2]])
    made = []
    real = checks.shown
    monkeypatch.setattr(checks, "shown", lambda *a, **k: made.append(1) or real(*a, **k))
    for a, b in (((np.int64(0), np.int32(0)), (0, 1)), (np.array([1, 0]), np.array([1, 1]))):
        assert board.can_link(a, b) and board.find_path(a, b)
    assert made == []
    with pytest.raises(CoordinateError, match=r"the col of a point \(0, 1\.5\) must be an int"):
        board.can_link((0, 1.5), (0, 1))
