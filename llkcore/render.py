"""Pictures of boards: SVG (no dependency), PNG (Pillow, ``pip install "llkcore[png]"``) and text
for terminals; in Jupyter a Board shows itself as its SVG (``board.show(...)`` for more).

All take a Board or a grid, and optionally a path (the corner points ``find_path`` returns, ring
points included) or a solution (a removal sequence, drawn as numbered pairs).

One layout, two back ends: one generator computes every shape of the picture in drawing order
(``Rect``, ``Text``, ``Circle``, ``Polyline``, grouped per tile or step badge), and ``svg()`` and
``png()`` only write those shapes out, so both pictures have the same geometry. They write each
shape as it is made (a 1024 x 1024 board has a million), while ``layout()`` returns them all.
A PNG past ``MAX_PNG_PIXELS`` is refused with a ValueError before Pillow allocates it.

Geometry: every cell is ``cell`` pixels square; the board sits inside a one-cell margin that
stands for the ring round it (drawn light and dashed when paths may use it, as a solid frame
when ``border=False``). The centre of point (r, c), ring points included, is
``(pad + (c + 1.5) * cell, pad + (r + 1.5) * cell)`` (see ``cell_centre``). A path is drawn
under the tiles (it crosses only empty cells, so only its ends are hidden, under the two tiles
it joins, which get an outline in the path's colour): nothing covers a tile's label. With a
solution, the label moves up and the step number sits in a badge in the tile's lower part.

Colours: types 1-36 get ``TYPE_COLOURS``, 36 colours at least 15 CIEDE2000 apart from each
other and from the picture's own colours (ci/palette.py computes them); every tile also carries
its type's number, in black or white, whichever contrasts more with the tile (at least 4.5:1).
"""
from __future__ import annotations

import colorsys
import functools
import io
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._files import atomic_writer
from .board import Board, GridLike, board_for, use_pictures
from .checks import flag, integer, move_sequence, pair
from .checks import text as text_arg
from .coords import Move, Point, size_words
from .errors import CoordinateError
from .rules import Rules
from .verdict import Verdict

#: Default cell size and outer padding of the picture, in pixels.
CELL = 36
#: Largest cell size accepted, in pixels (a picture of a MAX_SIDE board stays under 2**31 px).
MAX_CELL = 1024
PAD = 6
#: A Board shows itself in Jupyter when it has at most this many cells (larger boards would
#: make a picture of tens of megabytes; use ``board.show()`` for them).
DISPLAY_CELLS = 10_000
#: Time ``show(solution=True)`` gives the solver, in seconds.
SHOW_SOLVE_SECONDS = 10.0

_WALL_FILL = "#3b3b3b"
_HATCH_STROKE = "#777777"
_RING_FILL = "#f3efe6"
_RING_STROKE = "#c9c2b0"
_FRAME_FILL = "#5a5a5a"
_BOARD_FILL = "#fbfaf7"
_BOARD_STROKE = "#999999"
_TILE_STROKE = "#444444"
_PATH_STROKE = "#d7263d"
_STEP_FILL = "#1f3a93"
_BLACK, _WHITE = "#000000", "#ffffff"

#: Fill colours of types 1..36 (ci/palette.py: farthest-point selection in CIEDE2000, middle
#: lightness, away from the board, ring, wall, path and badge colours). Types beyond 36 walk
#: round the hue circle (``type_colour``); their numbers tell them apart.
TYPE_COLOURS = (
    "#cc77ff", "#11aa00", "#bb8800", "#0099ff", "#00bbbb", "#ddee00",
    "#ff99aa", "#aa0088", "#005500", "#88ffbb", "#884400", "#ff6611",
    "#999988", "#007777", "#998899", "#ddccff", "#ffbb88", "#5566ff",
    "#ff2299", "#99ddff", "#777733", "#774444", "#aa7766", "#559977",
    "#7700ee", "#ffcc44", "#55ee00", "#bbcc99", "#006699", "#8866aa",
    "#aaaa11", "#554466", "#55ffff", "#990000", "#99aaff", "#0099bb",
)


def type_colour(tile_type: int) -> str:
    """The fill colour of a tile type, the same on every call: ``TYPE_COLOURS`` for types 1-36;
    beyond, hues walk round the colour wheel by the golden angle while lightness and
    saturation cycle, so that types with near hues still differ."""
    t = int(tile_type)
    if 1 <= t <= len(TYPE_COLOURS):
        return TYPE_COLOURS[t - 1]
    hue = (t * 0.618033988749895) % 1.0
    light = (0.80, 0.62, 0.47)[t % 3]
    saturation = (0.70, 0.55, 0.62)[(t // 3) % 3]
    r, g, b = colorsys.hls_to_rgb(hue, light, saturation)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def _rgb(colour: str) -> Tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def luminance(colour: str) -> float:
    """WCAG relative luminance of #rrggbb (0 black .. 1 white)."""
    lin = [(v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4)
           for v in (c / 255 for c in _rgb(colour))]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours (1 .. 21; 4.5 is the floor for normal text)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def label_colour(fill: str) -> str:
    """Black or white, whichever contrasts more with ``fill`` (#rrggbb): never below 4.5:1."""
    return _BLACK if contrast(fill, _BLACK) >= contrast(fill, _WHITE) else _WHITE


def cell_centre(point: Point, cell: int = CELL, pad: int = PAD) -> Tuple[float, float]:
    """(x, y) of the centre of a point (row, col) in the picture; ring points (row -1 / rows,
    col -1 / cols) lie in the margin."""
    r, c = point
    return (pad + (c + 1.5) * cell, pad + (r + 1.5) * cell)


# Characters XML 1.0 does not allow in a document: control characters other than tab, newline
# and carriage return, surrogates (they cannot even be encoded as UTF-8), U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """``text`` with each character XML cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def _fmt(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


#: Iterables that are no sequence of points or moves (their order is not one, or they are text).
_NOT_SEQUENCES = (str, bytes, dict, set, frozenset)


def _check_path(path: Sequence[Point], rows: int, cols: int) -> List[Point]:
    """Corner points as ints, each on the board or its ring, successive ones on a common row
    or column."""
    points: List[Point] = []
    if isinstance(path, _NOT_SEQUENCES) or not hasattr(path, "__iter__"):
        raise TypeError(f"a path must be a sequence of (row, col) points, got {type(path).__name__}")
    for p in path:
        r, c = pair(p, "a path point")
        if not (-1 <= r <= rows and -1 <= c <= cols):
            raise CoordinateError(f"path point {(r, c)} is neither on the board of {size_words(rows, cols)} "
                                  "nor on its ring")
        points.append((r, c))
    if len(points) < 2:
        raise ValueError(f"a path needs at least 2 points, got {len(points)}")
    for a, b in zip(points, points[1:]):
        if a[0] != b[0] and a[1] != b[1]:
            raise ValueError(f"path points {a} and {b} are not on one row or column")
    return points


def solution_steps(board: Board, solution: Sequence[Move]) -> Dict[Point, int]:
    """The step (1-based) at which each tile of ``board``, by its position on the board as
    given, is removed by ``solution``. Replays the moves on a copy (raises llk.IllegalMove if
    one is not legal); with gravity the tiles are followed as they slide."""
    solution = move_sequence(solution)
    play = board._work_copy()
    rows, cols = board.rows, board.cols
    # origin[r, c]: where the tile now at (r, c) stood on the board as given (-1: none).
    origin = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    steps: Dict[Point, int] = {}
    for k, move in enumerate(solution, 1):
        a, b = move
        play.remove(a, b)
        for p in (a, b):
            steps[divmod(int(origin[p[0], p[1]]), cols)] = k
        for (sr, sc), (dr, dc) in play.slides():
            origin[dr, dc] = origin[sr, sc]
    return {(int(r), int(c)): k for (r, c), k in steps.items()}


# ---------------------------------------------------------------------------------------------
# Layout: the shapes of a picture, in drawing order
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: Optional[str]                 # None: not filled
    stroke: Optional[str] = None
    stroke_width: float = 1.0
    radius: float = 0.0
    dashed: bool = False
    hatched: bool = False               # a wall: diagonal lines over the fill
    cls: str = ""
    data: Tuple[Tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Text:
    x: float                            # centre of the text
    y: float
    text: str
    size: float                         # font size in pixels
    fill: str
    cls: str = ""

    def box(self) -> Tuple[float, float, float, float]:
        """(x0, y0, x1, y1) that holds the glyphs: digits are at most 0.64 em wide and the
        text is centred on (x, y), cap height well inside +-0.5 em."""
        half = 0.32 * self.size * len(self.text)
        return (self.x - half, self.y - 0.5 * self.size, self.x + half, self.y + 0.5 * self.size)


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str
    cls: str = ""


@dataclass(frozen=True)
class Polyline:
    points: Tuple[Tuple[float, float], ...]
    stroke: str
    width: float
    cls: str = ""
    data: Tuple[Tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Group:
    cls: str
    data: Tuple[Tuple[str, Any], ...]
    items: Tuple[Any, ...]


@dataclass(frozen=True)
class Layout:
    """Everything a picture shows: its size in pixels, its title and its shapes in drawing
    order (later shapes cover earlier ones)."""
    width: int
    height: int
    title: str
    items: Tuple[Any, ...] = field(default_factory=tuple)

    def shapes(self) -> Iterator[Any]:
        """Every shape, groups opened, in drawing order."""
        return _opened(self.items)


def _opened(items: Iterable[Any]) -> Iterator[Any]:
    """The shapes of ``items``, groups opened."""
    for item in items:
        if isinstance(item, Group):
            yield from item.items
        else:
            yield item


def _label_size(label: str, font: float) -> float:
    return font if len(label) <= 2 else max(7.0, font * 2.2 / len(label))


def _picture_size(rows: int, cols: int, cell: int) -> Tuple[int, int]:
    """(width, height) in pixels of the picture of a board of rows x cols: the board, its ring
    one cell wide round it, and the padding."""
    return 2 * PAD + (cols + 2) * cell, 2 * PAD + (rows + 2) * cell


class _Scene:
    """What a picture is drawn from: a snapshot of the board's grid, its ring rule, the checked
    path, each tile's step (or None), the cell size, and the picture's size and title. The
    shapes are generated from it when drawn (``_items``), so that a picture of a million tiles
    never holds a million shapes."""

    __slots__ = ("grid", "border", "points", "steps", "cell", "width", "height", "title")

    def __init__(self, grid: np.ndarray, border: bool, points: Optional[List[Point]],
                 steps: Optional[np.ndarray], cell: int, title: Optional[str]) -> None:
        rows, cols = grid.shape
        self.grid = grid
        self.border = border
        self.points = points
        self.steps = steps
        self.cell = cell
        self.width, self.height = _picture_size(rows, cols, cell)
        self.title = title or (f"board of {size_words(rows, cols)}, "
                               f"{int(np.count_nonzero(grid > 0))} tiles")


def _scene(board: GridLike, *, path: Optional[Sequence[Point]] = None,
           solution: Optional[Sequence[Move]] = None, rules: Optional[Rules] = None,
           cell: int = CELL, title: Optional[str] = None) -> _Scene:
    """The arguments of a picture checked (bad ones raise here, before anything is drawn)."""
    b = board_for(board, rules)
    cell = integer(cell, "cell (pixels)", low=8, high=MAX_CELL)
    if title is not None:
        text_arg(title, "title")
    rows, cols = b.rows, b.cols
    points = None if path is None else _check_path(path, rows, cols)
    steps = None
    if solution is not None:
        # Each tile's step as an array (0: not removed): a dict of a million steps would
        # outweigh the grid fifty times over in a Picture kept for later.
        by_tile = solution_steps(b, solution)
        if by_tile:
            steps = np.zeros((rows, cols), dtype=np.int64)
            for (r, c), k in by_tile.items():
                steps[r, c] = k
    # A copy: board.grid is a live view, and a Picture is drawn from it later.
    return _Scene(np.array(b.grid), bool(b.rules.border), points, steps, cell, title)


def _items(s: _Scene) -> Iterator[Any]:
    """The shapes of a picture in drawing order, grouped per tile and step badge, made one at a
    time: the one place the picture's geometry is computed, for ``layout``, ``svg`` and
    ``png`` alike."""
    pad, cell = PAD, s.cell
    rows, cols = s.grid.shape
    # The ring: a margin one cell wide. Light and dashed when paths may run there; a solid
    # frame when they may not (border=False).
    ring_w, ring_h = (cols + 2) * cell, (rows + 2) * cell
    if s.border:
        yield Rect(pad, pad, ring_w, ring_h, _RING_FILL, _RING_STROKE, dashed=True, cls="ring")
    else:
        yield Rect(pad, pad, ring_w, ring_h, _FRAME_FILL, cls="ring frame")
    yield Rect(pad + cell, pad + cell, cols * cell, rows * cell, _BOARD_FILL, _BOARD_STROKE,
               cls="board")
    stroke = max(2, cell // 10)
    points = s.points
    if points is not None:
        # Under the tiles: it crosses empty cells only, so only its ends are hidden.
        centres = tuple(cell_centre(p, cell, pad) for p in points)
        yield Polyline(centres, _PATH_STROKE, stroke, cls="path",
                       data=(("points", " ".join(f"{r},{c}" for r, c in points)),))
        for x, y in centres[1:-1]:
            yield Circle(x, y, max(2, cell // 9), _PATH_STROKE, cls="corner")
    inset = max(1, cell // 18)
    size = cell - 2 * inset
    font = max(8, int(cell * 0.42))
    badge_h = max(10, round(size * 0.42))
    numbered = s.steps is not None
    colours: Dict[int, Tuple[str, str]] = {}     # type -> (fill, label): contrast() is slow
    for r in range(rows):
        y = pad + (r + 1) * cell + inset
        for c, v in enumerate(s.grid[r].tolist()):
            if v == 0:
                continue
            x = pad + (c + 1) * cell + inset
            where = (("row", r), ("col", c))
            if v < 0:
                yield Rect(x, y, size, size, _WALL_FILL, hatched=True, cls="wall", data=where)
                continue
            label = str(v)
            if v not in colours:
                fill = type_colour(v)
                colours[v] = (fill, label_colour(fill))
            fill, ink = colours[v]
            cx, cy = x + size / 2, y + size / 2
            fsize = _label_size(label, font)
            if numbered:
                # The label in the part above the step badge.
                cy = y + (size - badge_h) / 2
                fsize = min(fsize, (size - badge_h) * 0.78)
            yield Group("tile", where + (("type", v),), (
                Rect(x, y, size, size, fill, _TILE_STROKE, radius=max(2, cell // 8)),
                Text(cx, cy, label, fsize, ink)))
    if s.steps is not None:
        # Badges by step, then position; the order is listed a block at a time, not as a
        # million Python ints at once.
        rs, cs = np.nonzero(s.steps)
        ks = s.steps[rs, cs]
        order = np.lexsort((cs, rs, ks))
        for start in range(0, len(order), 4096):
            part = order[start:start + 4096]
            for k, r, c in zip(ks[part].tolist(), rs[part].tolist(), cs[part].tolist()):
                yield _badge(k, pad + (c + 1) * cell + inset, pad + (r + 1) * cell + inset, size,
                             badge_h, r, c)
    if points is not None:
        for r, c in (points[0], points[-1]):
            if 0 <= r < rows and 0 <= c < cols:
                x = pad + (c + 1) * cell + inset
                y = pad + (r + 1) * cell + inset
                yield Rect(x - 1, y - 1, size + 2, size + 2, None, _PATH_STROKE, stroke_width=stroke,
                           radius=max(2, cell // 8), cls="end", data=(("row", r), ("col", c)))


#: A picture as a ``Layout`` (its shapes made) or a ``_Scene`` (shapes made as they are drawn).
_Drawable = Union["Layout", _Scene]


def _items_of(pic: _Drawable) -> Iterable[Any]:
    return pic.items if isinstance(pic, Layout) else _items(pic)


def _layout_of(s: _Scene) -> Layout:
    return Layout(s.width, s.height, s.title, tuple(_items(s)))


def layout(board: GridLike, *, path: Optional[Sequence[Point]] = None,
           solution: Optional[Sequence[Move]] = None, rules: Optional[Rules] = None,
           cell: int = CELL, title: Optional[str] = None) -> Layout:
    """The shapes of the picture of ``board`` (what ``svg`` and ``png`` draw), all made at
    once: ``svg`` and ``png`` make them one at a time as they write them."""
    return _layout_of(_scene(board, path=path, solution=solution, rules=rules, cell=cell,
                             title=title))


def _badge(step: int, x: float, y: float, size: float, height: float, r: int, c: int) -> Group:
    """The step number of a tile: white digits on a dark pill in the tile's lower right part,
    as wide as the number needs (the font shrinks only when the tile is too narrow)."""
    text = str(step)
    fsize = height - 3
    width = max(height, 0.64 * fsize * len(text) + 5)
    if width > size - 2:
        width = size - 2
        fsize = min(fsize, (width - 5) / (0.64 * len(text)))
    bx, by = x + size - width - 1, y + size - height - 1
    return Group("step", (("step", step), ("row", r), ("col", c)), (
        Rect(bx, by, width, height, _STEP_FILL, _WHITE, radius=height / 2),
        Text(bx + width / 2, by + height / 2, text, fsize, _WHITE)))


# ---------------------------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------------------------

def svg(board: GridLike, *, path: Optional[Sequence[Point]] = None,
        solution: Optional[Sequence[Move]] = None, rules: Optional[Rules] = None,
        cell: int = CELL, title: Optional[str] = None) -> str:
    """An SVG picture of a board as a string (well-formed XML, no external resources).

    Tiles are coloured, labelled squares (one ``<g class="tile">`` each, with ``data-row``,
    ``data-col``, ``data-type``), walls dark hatched squares (``class="wall"``), the ring the
    margin. ``path``: corner points drawn as one ``<polyline class="path">`` through the cell
    centres under the tiles, a dot per inner corner, and the two end tiles outlined
    (``class="end"``). ``solution``: each removed pair numbered by its step (``class="step"``).
    ``title`` (a str): the picture's title; characters XML cannot hold (control characters,
    lone surrogates) become U+FFFD.
    """
    return "".join(_svg_pieces(_scene(board, path=path, solution=solution, rules=rules, cell=cell,
                                      title=title)))


def svg_of(pic: Layout) -> str:
    """The SVG text of a layout."""
    return "".join(_svg_pieces(pic))


#: Shapes per piece of SVG text: pieces of a few hundred kB, written (or joined) as the shapes
#: are made, rather than a string per shape (a million of them for a 1024x1024 board).
_SVG_BATCH = 2048


def _svg_pieces(pic: _Drawable) -> Iterator[str]:
    """The SVG text of a picture in pieces, one line a shape (or group), in drawing order."""
    yield (f'<svg xmlns="http://www.w3.org/2000/svg" width="{pic.width}" height="{pic.height}" '
           f'viewBox="0 0 {pic.width} {pic.height}" font-family="DejaVu Sans, Arial, sans-serif">\n'
           f"<title>{_escape(_xml_text(pic.title))}</title>\n"
           '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
           f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{_WALL_FILL}"/>'
           f'<line x1="0" y1="0" x2="0" y2="6" stroke="{_HATCH_STROKE}" stroke-width="2"/>'
           "</pattern></defs>\n")
    lines: List[str] = []
    for item in _items_of(pic):
        if isinstance(item, Group):
            lines.append(f'<g class="{item.cls}"{_data(item.data)}>'
                         + "".join(_svg_shape(s) for s in item.items) + "</g>\n")
        else:
            lines.append(_svg_shape(item) + "\n")
        if len(lines) == _SVG_BATCH:
            yield "".join(lines)
            lines.clear()
    lines.append("</svg>\n")
    yield "".join(lines)


# XML escapes, written here: xml.sax.saxutils would pull urllib, http and ssl into `import llkcore`
# (15-26 ms of its 150), which imports this module.
_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})
_ATTR_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                               "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})


def _escape(text: str) -> str:
    """``text`` as XML character data."""
    return text.translate(_TEXT_ESCAPES)


def _quoteattr(text: str) -> str:
    """``text`` as a double-quoted XML attribute value (line breaks and tabs kept as such)."""
    return '"' + text.translate(_ATTR_ESCAPES) + '"'


def _data(data: Tuple[Tuple[str, Any], ...]) -> str:
    return "".join(f" data-{k}={_quoteattr(str(v))}" for k, v in data)


def _svg_shape(s: Any) -> str:
    cls = f' class="{s.cls}"' if s.cls else ""
    if isinstance(s, Rect):
        fill = "url(#hatch)" if s.hatched else (s.fill or "none")
        extra = ""
        if s.stroke:
            extra += f' stroke="{s.stroke}" stroke-width="{_fmt(s.stroke_width)}"'
        if s.dashed:
            extra += ' stroke-dasharray="4 3"'
        if s.radius:
            extra += f' rx="{_fmt(s.radius)}"'
        return (f'<rect{cls}{_data(s.data)} x="{_fmt(s.x)}" y="{_fmt(s.y)}" '
                f'width="{_fmt(s.width)}" height="{_fmt(s.height)}" fill="{fill}"{extra}/>')
    if isinstance(s, Text):
        return (f'<text{cls} x="{_fmt(s.x)}" y="{_fmt(s.y)}" font-size="{_fmt(s.size)}" '
                f'text-anchor="middle" dominant-baseline="central" fill="{s.fill}">'
                f"{_escape(s.text)}</text>")
    if isinstance(s, Circle):
        return (f'<circle{cls} cx="{_fmt(s.cx)}" cy="{_fmt(s.cy)}" r="{_fmt(s.r)}" '
                f'fill="{s.fill}"/>')
    coords = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in s.points)
    return (f'<polyline{cls} points="{coords}"{_data(s.data)} fill="none" stroke="{s.stroke}" '
            f'stroke-width="{_fmt(s.width)}" stroke-linejoin="round" stroke-linecap="round"/>')


# ---------------------------------------------------------------------------------------------
# PNG (Pillow)
# ---------------------------------------------------------------------------------------------

def pillow():
    """Pillow's (Image, ImageDraw, ImageFont); ImportError saying how to install it."""
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        raise ImportError('PNG pictures need Pillow: pip install "llkcore[png]" (SVG needs '
                          "nothing)") from None
    return Image, ImageDraw, ImageFont


def png(board: GridLike, *, path: Optional[Sequence[Point]] = None,
        solution: Optional[Sequence[Move]] = None, rules: Optional[Rules] = None,
        cell: int = CELL, title: Optional[str] = None, scale: int = 1) -> bytes:
    """A PNG picture of a board (the bytes of the file): the same picture as ``svg``, drawn by
    Pillow (``pip install "llkcore[png]"``), ``scale`` times as many pixels each way."""
    return _png_bytes(_scene(board, path=path, solution=solution, rules=rules, cell=cell,
                             title=title), scale)


#: PNGs are drawn this many times larger, then shrunk (smooth edges and text); the factor
#: drops for large pictures so that the drawing stays under about 16 million pixels.
SUPERSAMPLE = 3
#: Largest PNG drawn, in pixels (width x height, after ``scale``): Pillow's own default
#: ``PIL.Image.MAX_IMAGE_PIXELS``, past which it warns on opening an image (and refuses past
#: twice that), so a larger PNG is of little use. At the default cell a board of 261 x 261
#: passes it (1024 x 1024 would be 36,948 pixels square, 4 GB to draw); cell 8 fits every board.
MAX_PNG_PIXELS = 89_478_485


def png_of(pic: Layout, *, scale: int = 1) -> bytes:
    """The PNG bytes of a layout."""
    return _png_bytes(pic, scale)


def raster(pic: Layout, *, scale: int = 1):
    """A layout drawn as a Pillow RGB image of (width * scale, height * scale) pixels; ValueError
    past ``MAX_PNG_PIXELS``."""
    return _raster(pic, scale)


def _png_bytes(pic: _Drawable, scale: int) -> bytes:
    image = _raster(pic, scale)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()


def _check_png_pixels(width: int, height: int, advice: str = "a smaller cell= (at least 8) or "
                      "scale=, or SVG") -> None:
    """ValueError for a PNG of ``width`` x ``height`` pixels past ``MAX_PNG_PIXELS``, before
    anything is allocated; ``advice`` says what to do instead."""
    if width * height > MAX_PNG_PIXELS:
        raise ValueError(f"a PNG of {width:,} x {height:,} pixels is too large to draw: the cap "
                         f"is {MAX_PNG_PIXELS:,} pixels (render.MAX_PNG_PIXELS, past which Pillow "
                         f"will not open an image without a warning); use {advice}")


def _raster(pic: _Drawable, scale: int):
    scale = integer(scale, "scale", low=1, high=16)
    w, h = pic.width * scale, pic.height * scale
    _check_png_pixels(w, h)             # before Pillow: fail fast, not after a 4 GB allocation
    Image, ImageDraw, _ = pillow()
    ss = SUPERSAMPLE
    while ss > 1 and w * h * ss * ss > 16_000_000:
        ss -= 1
    k = scale * ss
    image = Image.new("RGB", (w * ss, h * ss), _WHITE)
    draw = ImageDraw.Draw(image)
    for shape in _opened(_items_of(pic)):
        _draw(image, draw, shape, k)
    return image.reduce(ss) if ss > 1 else image


@functools.lru_cache(maxsize=64)
def _font(size: int):
    _, _, ImageFont = pillow()
    return ImageFont.load_default(size=size)


@functools.lru_cache(maxsize=16)
def _hatch_tile(size: int, k: float):
    """A wall square of ``size`` pixels: the fill with diagonal lines 6 units apart."""
    Image, ImageDraw, _ = pillow()
    tile = Image.new("RGB", (size, size), _WALL_FILL)
    d = ImageDraw.Draw(tile)
    step = 6 * k * 2 ** 0.5       # lines 6 units apart, at 45 degrees: this far apart along x
    offset = -float(size)
    while offset < size:
        d.line([(offset, 0), (offset + size, size)], fill=_HATCH_STROKE, width=max(1, round(2 * k)))
        offset += step
    return tile


def _draw(image, draw, s: Any, k: float) -> None:
    if isinstance(s, Rect):
        box = [s.x * k, s.y * k, (s.x + s.width) * k - 1, (s.y + s.height) * k - 1]
        if s.hatched:
            tile = _hatch_tile(round(s.width * k), k)
            image.paste(tile, (round(s.x * k), round(s.y * k)))
            return
        width = max(1, round(s.stroke_width * k)) if s.stroke else 0
        if s.dashed:
            draw.rectangle(box, fill=s.fill)
            if s.stroke:
                _dashed_box(draw, box, s.stroke, width, 4 * k, 3 * k)
        elif s.radius:
            draw.rounded_rectangle(box, radius=s.radius * k, fill=s.fill,
                                   outline=s.stroke, width=width)
        else:
            draw.rectangle(box, fill=s.fill, outline=s.stroke, width=width)
    elif isinstance(s, Text):
        size = max(1, round(s.size * k))
        draw.text((s.x * k, s.y * k), s.text, fill=s.fill, font=_font(size), anchor="mm")
    elif isinstance(s, Circle):
        draw.ellipse([(s.cx - s.r) * k, (s.cy - s.r) * k, (s.cx + s.r) * k, (s.cy + s.r) * k],
                     fill=s.fill)
    elif isinstance(s, Polyline):
        pts = [(x * k, y * k) for x, y in s.points]
        width = max(1, round(s.width * k))
        draw.line(pts, fill=s.stroke, width=width, joint="curve")
        for x, y in (pts[0], pts[-1]):        # round caps
            draw.ellipse([x - width / 2, y - width / 2, x + width / 2, y + width / 2], fill=s.stroke)


def _dashed_box(draw, box, colour: str, width: int, on: float, off: float) -> None:
    x0, y0, x1, y1 = box
    for (ax, ay), (bx, by) in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)),
                               ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        length = abs(bx - ax) + abs(by - ay)
        dx, dy = (bx - ax) / length, (by - ay) / length
        t = 0.0
        while t < length:
            e = min(t + on, length)
            draw.line([(ax + dx * t, ay + dy * t), (ax + dx * e, ay + dy * e)], fill=colour,
                      width=width)
            t = e + off


# ---------------------------------------------------------------------------------------------
# Pictures that show themselves (Jupyter) and save themselves
# ---------------------------------------------------------------------------------------------

class Picture:
    """A picture of a board: Jupyter displays it (``_repr_svg_``); ``.svg`` is its SVG text,
    ``.png(scale=1)`` its PNG bytes (Pillow), ``.save(file)`` writes .svg or .png."""

    def __init__(self, pic: Union[Layout, _Scene]) -> None:
        # A _Scene (what picture() gives): the shapes are made each time the picture is drawn,
        # so that one of a big board holds its grid, not a million shapes.
        self._pic: _Drawable = pic

    @property
    def layout(self) -> Layout:
        """The picture's shapes (``render.layout``), made when first asked for."""
        if isinstance(self._pic, _Scene):
            self._pic = _layout_of(self._pic)
        return self._pic

    @functools.cached_property
    def svg(self) -> str:
        """The picture as an SVG document."""
        return "".join(_svg_pieces(self._pic))

    def _repr_svg_(self) -> str:
        return self.svg

    def png(self, *, scale: int = 1) -> bytes:
        """The picture as PNG bytes, ``scale`` times the SVG's size (needs Pillow; ValueError
        past ``MAX_PNG_PIXELS``)."""
        return _png_bytes(self._pic, scale)

    def save(self, file: Union[str, bytes, "os.PathLike[str]"]) -> None:
        """Write the picture to ``file`` (a path: str, bytes or path-like), as SVG or PNG by its
        extension, whole or not at all: an error or Ctrl-C part way leaves the file that was
        there."""
        if not isinstance(file, (str, bytes, os.PathLike)):
            raise TypeError(f"Picture.save takes a file name, got {type(file).__name__}")
        name = os.fsdecode(file)
        ext = os.path.splitext(name)[1].lower()
        if ext not in (".svg", ".png"):
            raise ValueError(f"{name}: a picture is saved as .svg or .png")
        if ext == ".png":
            data = self.png()
            with atomic_writer(name) as fh:         # (whole or not at all: _files.py)
                fh.write(data)
            return
        # The SVG written a piece at a time unless it is at hand: no string of the whole file.
        pieces = [self.__dict__["svg"]] if "svg" in self.__dict__ else _svg_pieces(self._pic)
        with atomic_writer(name) as fh:
            for piece in pieces:
                fh.write(piece.encode("utf-8"))

    def __repr__(self) -> str:
        return f"<Picture {self._pic.width}x{self._pic.height}: {self._pic.title}>"


def picture(board: Board, *, hint: bool = False, path: Optional[Sequence[Point]] = None,
            solution: Any = None, cell: Optional[int] = None) -> Picture:
    """What ``Board.show`` returns: see there."""
    hint = flag(hint, "hint")
    if solution is False:               # as True asks for one
        solution = None
    title = None
    if hint:
        if path is not None:
            raise ValueError("give hint=True or a path, not both")
        move = board.hint()
        where = f"board of {size_words(board.rows, board.cols)}, {board.tiles_left} tiles"
        if move is None:
            title = f"{where}: {'clear' if board.is_clear() else 'no move left'}"
        else:
            path = board.find_path(*move)
            title = f"{where}: hint {move[0]} - {move[1]}"
    if solution is True:
        # The board's own certificate (a generated or reshuffled board has one) and those
        # found for earlier positions first, then the exact search.
        verdict, solution = board._clearing_moves(SHOW_SOLVE_SECONDS)
        if solution is None:
            why = ("the position cannot be cleared" if verdict == Verdict.UNSOLVABLE else
                   f"none was found within {SHOW_SOLVE_SECONDS:g} s")
            raise ValueError(f"no solution to draw: {why}")
    elif solution is not None and hasattr(solution, "verdict") and hasattr(solution, "moves"):
        if solution.moves is None:
            raise ValueError("no solution to draw: this Solution has no moves")
        solution = solution.moves
    return Picture(_scene(board, path=path, solution=solution,
                          cell=CELL if cell is None else cell, title=title))


# ---------------------------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------------------------

_DIRS = {(-1, 0): "n", (1, 0): "s", (0, -1): "w", (0, 1): "e"}


def _path_marks(points: List[Point]) -> Dict[Point, set]:
    """For each cell the path runs through, the directions (n, s, e, w) it leaves that cell by."""
    marks: Dict[Point, set] = {}
    for (r1, c1), (r2, c2) in zip(points, points[1:]):
        dr = (r2 > r1) - (r2 < r1)
        dc = (c2 > c1) - (c2 < c1)
        r, c = r1, c1
        while (r, c) != (r2, c2):
            marks.setdefault((r, c), set()).add(_DIRS[(dr, dc)])
            r, c = r + dr, c + dc
            marks.setdefault((r, c), set()).add(_DIRS[(-dr, -dc)])
    return marks


def text(board: GridLike, *, path: Optional[Sequence[Point]] = None,
         rules: Optional[Rules] = None) -> str:
    """The board as aligned text: tile types, ``.`` empty, ``#`` wall.

    With ``path`` the ring is shown round the board, the path is drawn with ``-``, ``|`` and
    ``+`` through the empty cells it crosses, and its two end tiles are bracketed.
    """
    b = board_for(board, rules)
    grid = np.asarray(b.grid)
    rows, cols = b.rows, b.cols
    labels = [["." if v == 0 else "#" if v < 0 else str(int(v)) for v in row] for row in grid.tolist()]
    w = max(len(s) for row in labels for s in row)
    if path is None:
        return "\n".join(" ".join(s.rjust(w) for s in row) for row in labels) + "\n"
    points = _check_path(path, rows, cols)
    marks = _path_marks(points)
    ends = {points[0], points[-1]}
    cw = w + 2  # room for the brackets round an end tile
    mid = cw // 2
    out_rows = []
    for r in range(-1, rows + 1):
        cells = []
        for c in range(-1, cols + 1):
            on_board = 0 <= r < rows and 0 <= c < cols
            label = labels[r][c] if on_board else " "
            if (r, c) in ends:
                cells.append("[" + label.rjust(w) + "]")
            elif (r, c) in marks and label in (".", " "):
                dirs = marks[(r, c)]
                if dirs <= {"n", "s"}:
                    centre = "|"
                elif dirs <= {"e", "w"}:
                    centre = "-"
                else:
                    centre = "+"
                left = "-" if "w" in dirs else " "
                right = "-" if "e" in dirs else " "
                cells.append(left * mid + centre + right * (cw - mid - 1))
            else:
                cells.append(label.rjust(w + 1) + " ")
        out_rows.append("".join(cells).rstrip())
    return "\n".join(out_rows) + "\n"


# The Board draws itself through this module (board.py, ``use_pictures``).
use_pictures(sys.modules[__name__])
