"""Pictures: the SVG is well-formed and shows what the board holds (tiles with their type and
colour, walls, the ring, a path through its corner points, a numbered solution); the text
rendering reads back as the same grid and marks a path."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import llkcore as llk
import llkref
from conftest import examples, grids
from llkcore import render

NS = "{http://www.w3.org/2000/svg}"


def parse(svg_text):
    root = ET.fromstring(svg_text)  # raises on malformed XML
    assert root.tag == NS + "svg"
    return root


def by_class(root, cls):
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def polyline_points(root):
    (line,) = by_class(root, "path")
    assert line.tag == NS + "polyline"
    nums = [float(v) for v in re.split(r"[ ,]+", line.get("points").strip())]
    return list(zip(nums[0::2], nums[1::2])), line


def centre(point, cell=render.CELL, pad=render.PAD):
    """The documented geometry: one cell of margin (the ring), then the board."""
    r, c = point
    return (pad + (c + 1.5) * cell, pad + (r + 1.5) * cell)


def tile_centre(root, point):
    """Centre of the square drawn for the tile at point."""
    (g,) = [g for g in by_class(root, "tile")
            if (int(g.get("data-row")), int(g.get("data-col"))) == tuple(point)]
    rect = g.find(NS + "rect")
    return (float(rect.get("x")) + float(rect.get("width")) / 2,
            float(rect.get("y")) + float(rect.get("height")) / 2)


def linked_pair_with_path(board, min_points=2, ring=None):
    """A removable pair whose path has at least min_points corners (and, with ring=True, runs
    on the ring)."""
    for a, b in board.moves():
        path = board.find_path(a, b)
        on_ring = any(r in (-1, board.rows) or c in (-1, board.cols) for r, c in path)
        if len(path) >= min_points and (ring is None or on_ring == ring):
            return path
    return None


# ---------------------------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------------------------

@settings(max_examples=examples(40))
@given(grid=grids(max_side=12), border=st.booleans())
def test_svg_is_well_formed_and_draws_every_tile_and_wall(grid, border):
    board = llk.Board(grid, rules=llk.Rules(border=border))
    root = parse(render.svg(board))
    arr = np.array(grid)
    tiles = by_class(root, "tile")
    assert len(tiles) == int((arr > 0).sum())
    for g in tiles:
        r, c, t = int(g.get("data-row")), int(g.get("data-col")), int(g.get("data-type"))
        assert arr[r, c] == t
        rect, label = g.find(NS + "rect"), g.find(NS + "text")
        assert label.text == str(t)
        assert rect.get("fill") == render.type_colour(t)
    walls = by_class(root, "wall")
    assert sorted((int(w.get("data-row")), int(w.get("data-col"))) for w in walls) == \
        sorted(map(tuple, np.argwhere(arr < 0).tolist()))
    (ring,) = by_class(root, "ring")
    assert ("frame" in ring.get("class").split()) == (not border)
    # The ring is a margin one cell wide round the board.
    (inner,) = by_class(root, "board")
    assert float(inner.get("x")) - float(ring.get("x")) == render.CELL
    assert float(ring.get("width")) == (board.cols + 2) * render.CELL


def test_svg_colours_are_deterministic_and_tell_types_apart():
    colours = [render.type_colour(t) for t in range(1, 65)]
    assert colours == [render.type_colour(t) for t in range(1, 65)]
    assert len(set(colours)) == len(colours)
    for colour in colours:
        assert re.fullmatch(r"#[0-9a-f]{6}", colour)
        assert render.label_colour(colour) in ("#1a1a1a", "#ffffff")


def test_svg_path_polyline_goes_through_the_corner_centres_ring_included():
    # 1 . 1 can link straight; the 2s are hemmed in and must go round via the ring.
    grid = [[2, 3, 2],
            [4, 5, 4]]
    board = llk.Board(grid)
    path = board.find_path((0, 0), (0, 2))
    assert path[1][0] == -1  # the path runs on the ring above the board
    root = parse(render.svg(board, path=path))
    points, line = polyline_points(root)
    assert points == [pytest.approx(centre(p)) for p in path]
    assert render.cell_centre(path[1]) == pytest.approx(points[1])
    # The ends are the centres of the two tiles' squares.
    assert points[0] == pytest.approx(tile_centre(root, path[0]))
    assert points[-1] == pytest.approx(tile_centre(root, path[-1]))
    assert line.get("data-points") == " ".join(f"{r},{c}" for r, c in path)
    # Ring points lie in the margin, outside the board's rectangle.
    (inner,) = by_class(root, "board")
    (ring,) = by_class(root, "ring")
    assert float(ring.get("y")) < points[1][1] < float(inner.get("y"))
    corners = by_class(root, "corner")
    assert [(float(c.get("cx")), float(c.get("cy"))) for c in corners] == points


@settings(max_examples=examples(30))
@given(seed=st.integers(0, 10**6), border=st.booleans(), turns=st.sampled_from([1, 2, 3]))
def test_svg_path_of_random_moves(seed, border, turns):
    rules = llk.Rules(max_turns=turns, border=border)
    board = llk.generate(6, 8, seed=seed, rules=rules)      # solvable: its first move links
    path = board.find_path(*board.certificate[0])
    assert path is not None
    root = parse(render.svg(board, path=path, cell=20))
    points, _ = polyline_points(root)
    assert points == [pytest.approx(centre(p, cell=20)) for p in path]
    assert points[0] == pytest.approx(tile_centre(root, path[0]))
    assert points[-1] == pytest.approx(tile_centre(root, path[-1]))


def numbered_steps(root):
    steps = {}
    for g in by_class(root, "step"):
        (r, c), k = (int(g.get("data-row")), int(g.get("data-col"))), int(g.get("data-step"))
        assert g.find(NS + "text").text == str(k)
        assert (r, c) not in steps
        steps[(r, c)] = k
    return steps


@pytest.mark.parametrize("gravity", [None, "down", "left"])
def test_svg_numbers_a_solution_pair_by_pair(gravity):
    rules = llk.Rules(gravity=gravity)
    for seed in range(50):
        board = llk.generate(4, 4, solvable=False, seed=seed, rules=rules)
        solvable, moves, _ = llkref.solve_exhaustive(board.grid.tolist(), gravity=gravity)
        if solvable and len(moves) >= 4:
            break
    else:
        pytest.fail("no solvable 4x4 deal found")
    root = parse(render.svg(board, solution=moves))
    steps = numbered_steps(root)
    grid = board.grid
    assert len(steps) == int((grid > 0).sum())
    by_step = {}
    for pos, k in steps.items():
        by_step.setdefault(k, []).append(pos)
    assert sorted(by_step) == list(range(1, len(moves) + 1))
    for k, (a, b) in by_step.items():
        # The two tiles numbered k (where they stood at the start) are a pair of one type.
        assert grid[a] == grid[b]
    if gravity is None:
        # Without gravity nothing moves: step k is exactly the k-th move's two cells.
        for k, (a, b) in enumerate(moves, 1):
            assert steps[tuple(a)] == steps[tuple(b)] == k


def test_svg_title_is_escaped_and_bad_arguments_are_refused():
    board = llk.Board([[1, 1]])
    root = parse(render.svg(board, title="<a & b>"))
    assert root.find(NS + "title").text == "<a & b>"
    with pytest.raises(ValueError, match="not on one row or column"):
        render.svg(board, path=[(0, 0), (1, 1)])
    with pytest.raises(llk.CoordinateError):
        render.svg(board, path=[(0, 0), (0, 5)])
    with pytest.raises(llk.CoordinateError):
        render.svg(board, path=[(0, 0), "x"])
    with pytest.raises(ValueError, match="at least 2"):
        render.svg(board, path=[(0, 0)])
    with pytest.raises(llk.IllegalMove):
        render.svg(llk.Board([[1, 2, 1, 2]], rules=llk.Rules(border=False)),
                   solution=[((0, 0), (0, 2))])
    with pytest.raises(ValueError, match="cell"):
        render.svg(board, cell=2)
    with pytest.raises(TypeError, match="cell"):
        render.svg(board, cell=20.5)
    for title in (5, b"x", ["t"], object()):
        with pytest.raises(TypeError, match="title"):
            render.svg(board, title=title)
    assert "<title>mine</title>" in render.svg(board, title="mine")
    with pytest.raises(llk.BoardError):
        render.svg([[1, "a"]])
    # A failed call leaves the board as it was.
    assert board.tiles_left == 2


# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------

@settings(max_examples=examples(40))
@given(grid=grids(max_side=12))
def test_text_reads_back_as_the_same_grid(grid):
    out = render.text(grid)
    lines = out.splitlines()
    assert len(lines) == len(grid)
    assert len({len(line) for line in lines}) == 1  # aligned columns
    expected = [[-1 if v < 0 else v for v in row] for row in grid]
    assert llk.board.parse_text(out) == expected


def test_text_draws_a_path_with_marks_and_brackets():
    grid = [[2, 3, 2],
            [4, 5, 4]]
    board = llk.Board(grid)
    path = board.find_path((0, 0), (0, 2))
    out = render.text(board, path=path)
    lines = out.splitlines()
    assert len(lines) == 2 + 2  # the ring above and below
    assert lines[0].strip() == "+" + "-" * (len(lines[0].strip()) - 2) + "+"
    assert lines[1].count("[2]") == 2
    assert "3" in lines[1] and "[3]" not in lines[1]
    # A straight path across empty cells: marks only between the ends.
    board = llk.Board([[1, 0, 0, 1], [2, 3, 3, 2]])
    out = render.text(board, path=board.find_path((0, 0), (0, 3)))
    row = out.splitlines()[1]
    assert re.fullmatch(r"\s*\[1\]-+\[1\]", row), row


def test_svg_title_with_characters_xml_cannot_hold_is_still_well_formed():
    """Found by tests/fuzz: control characters and lone surrogates in a title made the SVG
    unparsable (or unwritable as UTF-8)."""
    board = llk.Board([[1, 0, 1]])
    for title, shown in [("a\x00b", "a\ufffdb"), ("x\x1b[0m", "x\ufffd[0m"), ("\ud800!", "\ufffd!"),
                         ("\ufffe\uffff", "\ufffd\ufffd"), ("tab\tnew\nline", "tab\tnew\nline"),
                         ("连连看 ✓", "连连看 ✓")]:
        out = render.svg(board, title=title)
        out.encode("utf-8")
        assert parse(out).find(NS + "title").text == shown
