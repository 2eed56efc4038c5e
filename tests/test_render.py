"""Pictures: the SVG is well-formed and shows what the board holds (tiles with their type and
colour, walls, the ring, a path through its corner points, a numbered solution); the text
rendering reads back as the same grid and marks a path."""
from __future__ import annotations

import os
import re
import time
import tracemalloc
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import llkcore as llk
import llkcore.board
import llkcore.solver
import llkref
from conftest import examples, grids
from llkcore import cli, render

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
        assert render.label_colour(colour) in ("#000000", "#ffffff")


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
    # A dot on each inner corner; the two end tiles outlined instead (their labels stay clear).
    corners = by_class(root, "corner")
    assert [(float(c.get("cx")), float(c.get("cy"))) for c in corners] == points[1:-1]
    ends = by_class(root, "end")
    assert sorted((int(e.get("data-row")), int(e.get("data-col"))) for e in ends) == \
        sorted([path[0], path[-1]])


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
    with pytest.raises(ValueError, match="cell"):
        render.svg(board, cell=render.MAX_CELL + 1)     # an absurd picture, refused
    with pytest.raises(llk.BoardError):
        render.svg([[1, "a"]])
    # A failed call leaves the board as it was.
    assert board.tiles_left == 2


# ---------------------------------------------------------------------------------------------
# Colours: 36 types, 36 distinguishable colours, readable numbers on every tile
# ---------------------------------------------------------------------------------------------

def lab(colour):
    """CIELAB (D65) of #rrggbb."""
    def linear(v):
        v /= 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(int(colour[i:i + 2], 16)) for i in (1, 3, 5))
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
    f = [t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29 for t in (x, y, z)]
    return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))


def delta_e(lab1, lab2):
    """CIEDE2000 (Sharma, Wu and Dalal's formulation), one pair at a time."""
    import math
    (L1, a1, b1), (L2, a2, b2) = lab1, lab2
    cbar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7)))
    a1, a2 = a1 * (1 + g), a2 * (1 + g)
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    h1 = math.degrees(math.atan2(b1, a1)) % 360 if c1 else 0.0
    h2 = math.degrees(math.atan2(b2, a2)) % 360 if c2 else 0.0
    dh = 0.0 if c1 * c2 == 0 else (h2 - h1 if abs(h2 - h1) <= 180 else
                                   h2 - h1 - 360 if h2 > h1 else h2 - h1 + 360)
    dH = 2 * math.sqrt(c1 * c2) * math.sin(math.radians(dh / 2))
    lbar, cbar = (L1 + L2) / 2, (c1 + c2) / 2
    if c1 * c2 == 0:
        hbar = h1 + h2
    elif abs(h1 - h2) <= 180:
        hbar = (h1 + h2) / 2
    else:
        hbar = (h1 + h2 + 360) / 2 if h1 + h2 < 360 else (h1 + h2 - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6)) - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc, sh = 1 + 0.045 * cbar, 1 + 0.015 * cbar * t
    rt = (-2 * math.sqrt(cbar ** 7 / (cbar ** 7 + 25 ** 7))
          * math.sin(math.radians(60 * math.exp(-(((hbar - 275) / 25) ** 2)))))
    dl, dc = L2 - L1, c2 - c1
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dH / sh) ** 2 + rt * (dc / sc) * (dH / sh))


def test_delta_e_matches_published_cases():
    # Sharma, Wu and Dalal (2005), test data pairs 1, 7 and 17.
    assert delta_e((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert delta_e((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


def test_36_types_get_36_distinguishable_colours_and_a_readable_number():
    colours = [render.type_colour(t) for t in range(1, 37)]
    assert len(set(colours)) == 36
    labs = [lab(c) for c in colours]
    closest = min(delta_e(labs[i], labs[j]) for i in range(36) for j in range(i))
    assert closest >= 15, closest            # ~2 is a just noticeable difference
    # ... and far from the picture's own colours (board, ring, wall, path, step badge).
    for own in (render._BOARD_FILL, render._RING_FILL, render._WALL_FILL, render._PATH_STROKE,
                render._STEP_FILL):
        assert min(delta_e(lab(own), x) for x in labs) >= 15, own
    # Colour is never the only cue: every tile of a 36-type deal carries its number, in black
    # or white with a WCAG contrast of at least 4.5:1 on its fill (for every type, not only 36).
    for t in range(1, 500):
        fill = render.type_colour(t)
        assert render.contrast(render.label_colour(fill), fill) >= 4.5, (t, fill)
    board = llk.generate(8, 18, seed=4)
    tiles = by_class(parse(render.svg(board)), "tile")
    assert {int(g.get("data-type")) for g in tiles} == set(range(1, 37))
    for g in tiles:
        text, rect = g.find(NS + "text"), g.find(NS + "rect")
        assert text.text == g.get("data-type")
        assert render.contrast(text.get("fill"), rect.get("fill")) >= 4.5


# ---------------------------------------------------------------------------------------------
# Readable labels under a path, readable step numbers
# ---------------------------------------------------------------------------------------------

def box_of(shape):
    """(x0, y0, x1, y1) a layout shape covers (strokes included)."""
    if isinstance(shape, render.Text):
        return shape.box()
    if isinstance(shape, render.Rect):
        w = shape.stroke_width if shape.stroke else 0
        return (shape.x - w, shape.y - w, shape.x + shape.width + w, shape.y + shape.height + w)
    if isinstance(shape, render.Circle):
        return (shape.cx - shape.r, shape.cy - shape.r, shape.cx + shape.r, shape.cy + shape.r)
    xs, ys = [x for x, _ in shape.points], [y for _, y in shape.points]
    return (min(xs) - shape.width, min(ys) - shape.width, max(xs) + shape.width, max(ys) + shape.width)


def overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def covers(shape, box):
    """Whether ``shape`` paints over ``box``: an outline (a Rect without fill) paints only along
    its edges, so it covers a box strictly inside it only if its stroke reaches the box."""
    if isinstance(shape, render.Rect) and shape.fill is None:
        w = shape.stroke_width
        inner = (shape.x + w, shape.y + w, shape.x + shape.width - w, shape.y + shape.height - w)
        inside = inner[0] <= box[0] and inner[1] <= box[1] and box[2] <= inner[2] and box[3] <= inner[3]
        return overlap(box_of(shape), box) and not inside
    return overlap(box_of(shape), box)


def assert_labels_clear(pic):
    """No shape drawn after a tile's label (or a badge's number) paints over it."""
    shapes = list(pic.shapes())
    boxes = np.array([box_of(s) for s in shapes])
    for i, shape in enumerate(shapes):
        if isinstance(shape, render.Text):
            box, later = boxes[i], boxes[i + 1:]
            near = ((later[:, 0] < box[2]) & (box[0] < later[:, 2])
                    & (later[:, 1] < box[3]) & (box[1] < later[:, 3]))
            for j in np.nonzero(near)[0] + i + 1:
                assert not covers(shapes[j], tuple(box)), (shape, shapes[j])


@settings(max_examples=examples(25))
@given(seed=st.integers(0, 10**6), border=st.booleans(), cell=st.sampled_from([16, 24, 36, 60]))
def test_labels_stay_readable_under_a_path_and_its_end_marks(seed, border, cell):
    board = llk.generate(6, 8, seed=seed, rules=llk.Rules(border=border))
    for move in board.certificate[:3]:
        path = board.find_path(*move)
        pic = render.layout(board, path=path, cell=cell)
        assert_labels_clear(pic)
        # The path is drawn before (under) every tile; its ends are outlined after them.
        kinds = [getattr(item, "cls", "") for item in pic.items]
        assert kinds.index("path") < kinds.index("tile") and kinds[-1] == "end"
        board.remove(*move)


@pytest.mark.parametrize("rows, cols", [(8, 18), (40, 40)])
def test_step_numbers_are_readable_at_the_default_size(rows, cols):
    """Every step badge at the default cell size: a font of at least 10 px (3-digit steps of a
    40x40 board included), the number inside its badge, the badge inside its tile and clear of
    the tile's label; the label keeps at least 10 px too."""
    board = llk.generate(rows, cols, seed=2)
    pic = render.layout(board, solution=board.certificate)
    assert_labels_clear(pic)
    tiles = {(dict(g.data)["row"], dict(g.data)["col"]): g for g in pic.items if g.cls == "tile"}
    badges = [g for g in pic.items if getattr(g, "cls", "") == "step"]
    assert len(badges) == len(tiles) == rows * cols
    assert max(dict(b.data)["step"] for b in badges) == rows * cols // 2
    for badge in badges:
        pill, number = badge.items
        tile_rect, label = tiles[(dict(badge.data)["row"], dict(badge.data)["col"])].items
        assert number.size >= 10 and label.size >= 10
        inside = lambda inner, outer: (outer[0] <= inner[0] and outer[1] <= inner[1]
                                       and inner[2] <= outer[2] and inner[3] <= outer[3])
        assert inside(number.box(), box_of(pill))
        assert inside(box_of(pill), box_of(tile_rect))
        assert not overlap(box_of(pill), label.box())


# ---------------------------------------------------------------------------------------------
# PNG (Pillow: the [png] extra, installed by the [test] extra)
# ---------------------------------------------------------------------------------------------

def png_image(data):
    Image = pytest.importorskip("PIL.Image", reason="PNG pictures need Pillow: pip install "
                                                    "'llkcore[png]' (the [test] extra has it)")
    import io
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def hex_of(pixel):
    return "#%02x%02x%02x" % pixel[:3]


@pytest.mark.parametrize("scale", [1, 2])
def test_png_has_the_svg_geometry_and_the_tile_colours(scale):
    pytest.importorskip("PIL", reason="PNG pictures need Pillow: pip install 'llkcore[png]'")
    board = llk.Board([[1, 2, -1, 3], [0, 0, 0, 4], [2, 1, 4, 3]])
    path = board.find_path((0, 0), (2, 1))
    pic = render.layout(board, path=path)
    image = png_image(render.png(board, path=path, scale=scale))
    assert image.size == (pic.width * scale, pic.height * scale)
    root = parse(render.svg(board, path=path))
    assert (int(root.get("width")) * scale, int(root.get("height")) * scale) == image.size
    for g in by_class(root, "tile"):
        rect = g.find(NS + "rect")
        x, y, size = float(rect.get("x")), float(rect.get("y")), float(rect.get("width"))
        fill = rect.get("fill")
        # The tile's colour left of its number and above it (the number sits at the centre).
        for px, py in ((x + 0.15 * size, y + 0.5 * size), (x + 0.5 * size, y + 0.15 * size)):
            assert hex_of(image.getpixel((int(px * scale), int(py * scale)))) == fill
    for w in by_class(root, "wall"):
        x, y = float(w.get("x")), float(w.get("y"))
        seen = {hex_of(image.getpixel((int((x + dx) * scale), int((y + dy) * scale))))
                for dx in range(4, 30, 3) for dy in (10, 20)}
        assert render._WALL_FILL in seen and len(seen) > 1           # hatched
    # The path's inner corners are drawn in the path's colour.
    for corner in by_class(root, "corner"):
        cx, cy = float(corner.get("cx")), float(corner.get("cy"))
        assert hex_of(image.getpixel((int(cx * scale), int(cy * scale)))) == render._PATH_STROKE


def test_png_labels_under_a_path_keep_their_tile_colours():
    """Inside the number's box of each end tile there is only the tile's colour, the number's
    colour and blends of the two: nothing of the path's red."""
    pytest.importorskip("PIL", reason="PNG pictures need Pillow: pip install 'llkcore[png]'")
    board = llk.Board([[5, 0, 0, 5], [1, 2, 2, 1]])
    path = board.find_path((0, 0), (0, 3))
    pic = render.layout(board, path=path)
    image = png_image(render.png_of(pic))
    red = np.array([int(render._PATH_STROKE[i:i + 2], 16) for i in (1, 3, 5)])
    for tile in [g for g in pic.items if g.cls == "tile" and dict(g.data)["type"] == 5]:
        rect, label = tile.items
        fill = np.array([int(rect.fill[i:i + 2], 16) for i in (1, 3, 5)])
        ink = np.array([int(label.fill[i:i + 2], 16) for i in (1, 3, 5)])
        x0, y0, x1, y1 = (int(v) for v in label.box())
        pixels = np.array(image.crop((x0, y0, x1, y1))).reshape(-1, 3).astype(float)
        # Distance of each pixel from the segment fill..ink (antialiased text lies on it).
        d = ink - fill
        t = np.clip(((pixels - fill) @ d) / (d @ d), 0, 1)
        off = np.linalg.norm(pixels - (fill + t[:, None] * d), axis=1)
        assert off.max() < 12, off.max()
        assert np.linalg.norm(pixels - red, axis=1).min() > 60


def test_png_without_pillow_says_how_to_get_it(monkeypatch):
    def missing():
        raise ImportError('PNG pictures need Pillow: pip install "llkcore[png]"')
    monkeypatch.setattr(render, "pillow", missing)
    with pytest.raises(ImportError, match=r"llkcore\[png\]"):
        render.png([[1, 1]])
    # SVG needs nothing.
    parse(render.svg([[1, 1]]))


def test_a_png_past_the_pixel_cap_is_refused_before_pillow_draws(monkeypatch, tmp_path, capsys):
    """A 1024x1024 board at the default cell was a 36,948-pixel square PNG, 4 GB for Pillow;
    pictures past MAX_PNG_PIXELS (what Pillow opens without a warning) raise ValueError at once,
    saying the size and what to do, and `llk render -o x.png` says it in one line."""
    big = llk.Board(np.ones((300, 300), dtype=np.int32))     # 10,884 pixels square at cell 36

    def no_pillow(*args, **kwargs):
        raise AssertionError("asked to draw a picture past the cap")
    with monkeypatch.context() as m:
        m.setattr(render, "pillow", no_pillow)
        start = time.perf_counter()
        with pytest.raises(ValueError, match=r"10,884 x 10,884 pixels .*cell= \(at least 8\) or "
                                             r"scale=, or SVG"):
            render.png(big)
        with pytest.raises(ValueError, match="too large"):
            render.png([[1, 1]], cell=1024, scale=16)
        pic = big.show()
        for draw in (pic.png, lambda: pic.save(tmp_path / "b.png"),
                     lambda: render.raster(render.layout([[1, 1]], cell=1024), scale=16)):
            with pytest.raises(ValueError, match="too large"):
                draw()
        assert not (tmp_path / "b.png").exists()
        assert time.perf_counter() - start < 2
    # The command: one line, exit 2, before the solve of --solution.
    board_file = tmp_path / "big.txt"
    board_file.write_text(llkcore.board.grid_to_text(np.ones((300, 300), dtype=np.int32)))
    with monkeypatch.context() as m:
        m.setattr(llkcore.solver, "solve", no_pillow)
        m.setattr(render, "_raster", no_pillow)
        code = cli.main(["render", str(board_file), "-o", str(tmp_path / "b.png"), "--solution"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert err.startswith("llk render: error: -o ") and "10,884 x 10,884 pixels" in err
    assert "--cell" in err and not (tmp_path / "b.png").exists()
    # Cell 8 fits the largest board.
    side = llk.MAX_SIDE
    assert (12 + (side + 2) * 8) ** 2 <= render.MAX_PNG_PIXELS
    # Both sides of the cap, cheaply: a 2x2 board at cell 8 is 44 pixels square, 88 at scale 2.
    board = llk.Board([[1, 2], [2, 1]])
    monkeypatch.setattr(render, "MAX_PNG_PIXELS", 88 * 88 - 1)
    monkeypatch.setattr(render, "pillow", no_pillow)
    with pytest.raises(ValueError, match="88 x 88 pixels"):
        render.png(board, cell=8, scale=2)
    monkeypatch.undo()
    Image = pytest.importorskip("PIL.Image", reason="PNG pictures need Pillow")
    assert render.MAX_PNG_PIXELS == Image.MAX_IMAGE_PIXELS           # Pillow's default
    monkeypatch.setattr(render, "MAX_PNG_PIXELS", 88 * 88)
    assert png_image(render.png(board, cell=8, scale=2)).size == (88, 88)


# ---------------------------------------------------------------------------------------------
# Notebook display
# ---------------------------------------------------------------------------------------------

def test_a_board_shows_itself_as_its_svg():
    board = llk.generate(4, 6, seed=1)
    assert board._repr_svg_() == render.svg(board)
    big = llk.Board(np.ones((101, 100), dtype=np.int32))       # 10,100 cells: text repr
    assert big._repr_svg_() is None
    assert big.show().svg.startswith("<svg")                      # show() still draws it


def test_show_draws_the_hint_or_a_solution():
    board = llk.generate(4, 6, seed=1)
    pic = board.show(hint=True)
    a, b = board.hint()
    root = parse(pic._repr_svg_())
    (line,) = by_class(root, "path")
    assert line.get("data-points") == " ".join(f"{r},{c}" for r, c in board.find_path(a, b))
    assert "hint" in root.find(NS + "title").text
    stuck = llk.Board([[1, 2], [2, 1]], rules=llk.Rules(border=False))
    root = parse(stuck.show(hint=True).svg)
    assert not by_class(root, "path") and "no move" in root.find(NS + "title").text
    # solution=True solves first; a Solution or a list of moves is drawn as given.
    for solution in (True, llk.solve(board), board.certificate):
        steps = numbered_steps(parse(board.show(solution=solution).svg))
        assert len(steps) == board.tiles_left
    with pytest.raises(ValueError, match="no solution to draw: the position cannot be cleared"):
        stuck.show(solution=True)


def test_show_solution_uses_the_certificate_the_board_has():
    """A generated board's certificate is drawn without a search (the play-time decision tries
    it first): a 100x100 deal took the whole 10 s search budget and raised (helper audit)."""
    board = llk.generate(100, 100, seed=1)
    board.remove(*board.certificate[0])
    start = time.perf_counter()
    steps = numbered_steps(parse(board.show(solution=True).svg))
    assert len(steps) == board.tiles_left and time.perf_counter() - start < 5
    with pytest.raises(ValueError, match="not both"):
        board.show(hint=True, path=[(0, 0), (0, 1)])


def test_picture_saves_svg_and_png(tmp_path):
    board = llk.generate(4, 6, seed=1)
    pic = board.show(cell=20)
    pic.save(tmp_path / "b.svg")
    assert parse((tmp_path / "b.svg").read_text()).get("width") == str(pic.layout.width)
    with pytest.raises(ValueError, match=r"\.svg or \.png"):
        pic.save(tmp_path / "b.gif")
    pytest.importorskip("PIL", reason="PNG pictures need Pillow: pip install 'llkcore[png]'")
    pic.save(tmp_path / "b.png")
    assert png_image((tmp_path / "b.png").read_bytes()).size == (pic.layout.width, pic.layout.height)


def test_a_picture_is_saved_whole_or_not_at_all(tmp_path, monkeypatch):
    """Picture.save wrote straight into the file: an error or Ctrl-C part way left half an SVG
    where the old picture was. It now writes through a temporary file (llkcore/_files.py)."""
    pic = llk.generate(4, 6, seed=1).show()
    target = tmp_path / "b.svg"
    target.write_text("the old picture")

    def broken(_pic):
        yield "<svg>"
        raise KeyboardInterrupt

    monkeypatch.setattr(render, "_svg_pieces", broken)
    with pytest.raises(KeyboardInterrupt):
        pic.save(target)
    assert target.read_text() == "the old picture" and os.listdir(tmp_path) == ["b.svg"]
    monkeypatch.undo()
    pic.save(target)
    assert target.read_text() == pic.svg
    link = tmp_path / "link.svg"
    link.symlink_to(target)
    llk.Board([[1, 1]]).show().save(link)       # the link stays; its target is written
    assert link.is_symlink() and parse(target.read_text()).get("width") is not None


def test_a_failed_save_names_the_callers_file_not_the_temporary_one(tmp_path):
    """A UI audit: saving into a missing folder, or onto a folder, raised an OSError that named
    the hidden temporary file (.x.png.vnp2xnuf.tmp) instead of the file asked for."""
    pic = llk.Board([[1, 1]]).show()
    for name, error in ((tmp_path / "nodir" / "x.svg", FileNotFoundError),
                        (tmp_path / "folder.svg", IsADirectoryError)):
        (tmp_path / "folder.svg").mkdir(exist_ok=True)
        with pytest.raises(error) as raised:
            pic.save(name)
        assert raised.value.filename == str(name) and ".tmp" not in str(raised.value)
    assert sorted(os.listdir(tmp_path)) == ["folder.svg"]


def test_llk_render_streams_the_svg_it_would_have_made_whole(tmp_path, capsys):
    board = llk.generate(6, 8, seed=3)
    (tmp_path / "b.json").write_text(board.to_json())
    assert cli.main(["render", str(tmp_path / "b.json"), "-o", str(tmp_path / "b.svg"),
                     "--solution", "--cell", "24"]) == 0
    solution = llk.solve(board).moves
    assert (tmp_path / "b.svg").read_text() == render.svg(board, solution=solution, cell=24)


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


def svg_cases():
    """Boards and the arguments of their pictures: a path, a solution, walls, gravity, no ring,
    types past the 36 colours, a title."""
    dealt = llk.generate(6, 8, seed=3)
    yield dealt, {"path": dealt.find_path(*dealt.certificate[0]), "cell": 20}
    yield dealt, {"solution": dealt.certificate, "title": "a <deal> & \x01"}
    walls = llk.Board([[1, -1, 2, 0], [2, 0, -1, 1], [3, 3, 0, 0]], rules=llk.Rules(border=False))
    yield walls, {"path": walls.find_path((0, 0), (1, 0))}
    yield walls, {"solution": [((2, 0), (2, 1))], "cell": 8}
    falling = llk.generate(6, 6, seed=4, rules=llk.Rules(gravity="down"))
    yield falling, {"solution": falling.certificate, "cell": 50}
    yield llk.Board(np.arange(1, 51).repeat(2).reshape(10, 10)), {}


def test_svg_of_the_shapes_made_once_is_the_streamed_svg(tmp_path):
    """svg() and Picture write the shapes as they are made; svg_of() writes a layout made
    beforehand: the same text, and a Picture's layout is the one layout() makes."""
    for board, kwargs in svg_cases():
        text = render.svg(board, **kwargs)
        assert render.svg_of(render.layout(board, **kwargs)) == text
        parse(text)
        if "title" not in kwargs:
            show = {k: v for k, v in kwargs.items() if k != "cell"}
            pic = board.show(cell=kwargs.get("cell"), **show)
            pic.save(tmp_path / "b.svg")
            assert (tmp_path / "b.svg").read_bytes() == text.encode("utf-8")
            assert pic.svg == text
            assert pic.layout == render.layout(board, **kwargs)
            assert render.svg_of(pic.layout) == text


def traced_peak(call):
    """(call(), the most memory call() had allocated at once, by tracemalloc)."""
    tracemalloc.start()
    try:
        return call(), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_svg_of_a_big_board_holds_no_shape_per_tile():
    """render.svg makes each shape as it writes it: its memory peaks at the final text and the
    pieces it is joined from (2x), where making every shape first, then a string per shape,
    then joining them peaked at 6.6x (75 MB for 11 MB of SVG at 200x200; 2 GB at 1024x1024)."""
    board = llk.generate(128, 128, seed=1, solvable=False)
    render.svg(llk.generate(4, 4, seed=1))          # imports and caches outside the count
    text, peak = traced_peak(lambda: render.svg(board))
    assert len(text) > 4_000_000
    assert peak < 2.3 * len(text) + 2_000_000, (peak, len(text))


def test_a_picture_of_a_big_board_makes_its_shapes_when_drawn(tmp_path):
    """board.show() keeps the grid, not a million shapes, and saves as SVG a piece at a time
    (the whole picture's shapes and text were 15 and 32 MB at 128x128)."""
    board = llk.generate(128, 128, seed=1, solvable=False)
    render.svg(llk.generate(4, 4, seed=1))
    pic, peak = traced_peak(board.show)
    assert peak < 1_000_000, peak
    _, peak = traced_peak(lambda: pic.save(tmp_path / "b.svg"))
    assert (tmp_path / "b.svg").stat().st_size > 4_000_000
    assert peak < 4_000_000, peak
    assert pic.layout.width == render.layout(board).width == 12 + 130 * render.CELL


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


def test_path_points_are_checked_like_points():
    """Found by tests/fuzz: a path point holding infinity raised OverflowError, and floats or
    strings of digits were read as ints; path points are now checked as points are (checks.pair),
    on the board or its ring."""
    board = llk.Board([[2, 0, 2]])
    for path in ([(0, 0), (float("inf"), 0)], [(0, 0), (0.0, 2)], ["00", "02"], [(0, 0), {0: 2}],
                 [(0, 0), (0, 2, 0)], [(0, 0), (True, 2)]):
        for draw in (render.svg, render.text):
            with pytest.raises(llk.CoordinateError):
                draw(board, path=path)
    for path in (5, "00 02", None.__class__):
        with pytest.raises(TypeError, match="path"):
            render.text(board, path=path)
    assert "[2]---[2]" in render.text(board, path=[np.array([0, 0]), [0, 2]])


def test_a_solution_that_is_no_list_of_moves_says_so():
    """show(solution=...) checks its moves as verify does (a helper's audit: [1, 2] and "ab"
    raised Python's own unpacking errors); False means no numbers, as None."""
    board = llk.Board([[1, 2, 0, 1], [3, 3, 2, 0], [0, 4, 0, 4]])
    for bad, error, message in [("ab", TypeError, "moves must be a sequence of"),
                                (7, TypeError, "moves must be a sequence of"),
                                ([1, 2], TypeError, "move 0 must be ((r1, c1), (r2, c2))"),
                                ([((0, 0), (0, 3)), ((1, 0),)], ValueError,
                                 "move 1 must be ((r1, c1), (r2, c2))"),
                                ([((0, 0), "x")], ValueError, "move 0: a point must be")]:
        with pytest.raises(error, match=re.escape(message)):
            board.show(solution=bad)
    assert board.show(solution=False).svg == board.show().svg


def test_a_solution_is_taken_in_every_form_verify_takes():
    """Pictures refused moves as (k, 4) arrays and rows, the form moves_array gives and verify
    and the certificate setter take (an audit): every form draws the same picture."""
    board = llk.generate(4, 4, seed=1, rules=llk.Rules(gravity="down"))
    moves = board.certificate
    want = render.svg(board, solution=moves)
    flat = np.array(moves).reshape(-1, 4)
    for form in (flat, flat.tolist(), np.array(moves), [np.array(m) for m in moves]):
        assert render.svg(board, solution=form) == want
