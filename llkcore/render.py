"""Pictures of boards: SVG (no dependency) and text for terminals.

Both take a Board or a grid, and optionally a path (the corner points ``find_path`` returns,
ring points included) or a solution (a removal sequence, drawn as numbered pairs).

SVG geometry: every cell is ``cell`` pixels square; the board sits inside a one-cell margin
that stands for the ring round it (drawn light and dashed when paths may use it, as a solid frame
when ``border=False``). The centre of point (r, c), ring points included, is
``(pad + (c + 1.5) * cell, pad + (r + 1.5) * cell)`` (see ``cell_centre``).
"""
from __future__ import annotations

import colorsys
import re
from typing import Dict, List, Optional, Sequence, Tuple
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from .board import Board, GridLike, board_for
from .checks import integer, text as text_arg
from .coords import Move, Point
from .errors import CoordinateError
from .rules import Rules

#: Default cell size and outer padding of the SVG, in pixels.
CELL = 36
PAD = 6

_WALL_FILL = "#3b3b3b"
_RING_FILL = "#f3efe6"
_FRAME_FILL = "#5a5a5a"
_BOARD_FILL = "#fbfaf7"
_PATH_STROKE = "#d7263d"
_STEP_FILL = "#1f3a93"


def type_colour(tile_type: int) -> str:
    """The fill colour of a tile type, the same on every call: hues walk round the colour
    wheel by the golden angle and lightness cycles through three levels, so that types with
    near hues still differ in lightness."""
    t = int(tile_type)
    hue = (t * 0.618033988749895) % 1.0
    light = (0.80, 0.62, 0.47)[t % 3]
    saturation = (0.70, 0.55, 0.62)[(t // 3) % 3]
    r, g, b = colorsys.hls_to_rgb(hue, light, saturation)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def label_colour(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (#rrggbb)."""
    r, g, b = (int(fill[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return "#1a1a1a" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "#ffffff"


def cell_centre(point: Point, cell: int = CELL, pad: int = PAD) -> Tuple[float, float]:
    """SVG (x, y) of the centre of a point (row, col); ring points (row -1 / rows, col -1 /
    cols) lie in the margin."""
    r, c = point
    return (pad + (c + 1.5) * cell, pad + (r + 1.5) * cell)


# Characters XML 1.0 does not allow in a document: control characters other than tab, newline
# and carriage return, surrogates (they cannot even be encoded as UTF-8), U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """``text`` with each character XML cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", text)


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _check_path(path: Sequence[Point], rows: int, cols: int) -> List[Point]:
    """Corner points as ints, each on the board or its ring, successive ones on a common row
    or column."""
    points: List[Point] = []
    for p in path:
        try:
            r, c = (int(v) for v in p)
        except (TypeError, ValueError):
            raise CoordinateError(f"a path point must be a (row, col) pair, got {p!r}") from None
        if not (-1 <= r <= rows and -1 <= c <= cols):
            raise CoordinateError(f"path point {(r, c)} is neither on the {rows}x{cols} board "
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
    play = board.copy()
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


def svg(board: GridLike, *, path: Optional[Sequence[Point]] = None,
        solution: Optional[Sequence[Move]] = None, rules: Optional[Rules] = None,
        cell: int = CELL, title: Optional[str] = None) -> str:
    """An SVG picture of a board as a string (well-formed XML, no external resources).

    Tiles are coloured, labelled squares (one ``<g class="tile">`` each, with ``data-row``,
    ``data-col``, ``data-type``), walls dark hatched squares (``class="wall"``), the ring the
    margin. ``path``: corner points drawn as one ``<polyline class="path">`` through the cell
    centres, with a dot per corner. ``solution``: each removed pair numbered by its step.
    ``title`` (a str): the picture's title; characters XML cannot hold (control characters,
    lone surrogates) become U+FFFD.
    """
    b = board_for(board, rules)
    cell = integer(cell, "cell", low=8, high=1024)
    if title is not None:
        text_arg(title, "title")
    grid = np.asarray(b.grid)
    rows, cols = b.rows, b.cols
    border = b.rules.border
    points = None if path is None else _check_path(path, rows, cols)
    steps = None if solution is None else solution_steps(b, solution)
    pad = PAD
    width = 2 * pad + (cols + 2) * cell
    height = 2 * pad + (rows + 2) * cell
    font = max(8, int(cell * 0.42))
    out: List[str] = []
    add = out.append
    add(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">')
    tiles = int(np.count_nonzero(grid > 0))
    add(f"<title>{escape(_xml_text(title or f'{rows}x{cols} board, {tiles} tiles'))}</title>")
    add("<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"" + _WALL_FILL +
        "\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#777\" stroke-width=\"2\"/>"
        "</pattern></defs>")
    # The ring: a margin one cell wide. Light and dashed when paths may run there; a solid
    # frame when they may not (border=False).
    ring_w, ring_h = (cols + 2) * cell, (rows + 2) * cell
    if border:
        add(f'<rect class="ring" x="{pad}" y="{pad}" width="{ring_w}" height="{ring_h}" '
            f'fill="{_RING_FILL}" stroke="#c9c2b0" stroke-dasharray="4 3"/>')
    else:
        add(f'<rect class="ring frame" x="{pad}" y="{pad}" width="{ring_w}" height="{ring_h}" '
            f'fill="{_FRAME_FILL}"/>')
    add(f'<rect class="board" x="{pad + cell}" y="{pad + cell}" width="{cols * cell}" '
        f'height="{rows * cell}" fill="{_BOARD_FILL}" stroke="#999"/>')
    inset = max(1, cell // 18)
    for r in range(rows):
        for c in range(cols):
            v = int(grid[r, c])
            if v == 0:
                continue
            x = pad + (c + 1) * cell + inset
            y = pad + (r + 1) * cell + inset
            size = cell - 2 * inset
            if v < 0:
                add(f'<rect class="wall" data-row="{r}" data-col="{c}" x="{x}" y="{y}" '
                    f'width="{size}" height="{size}" fill="url(#hatch)"/>')
                continue
            label = str(v)
            fsize = font if len(label) <= 2 else max(7, int(font * 2.2 / len(label)))
            cx, cy = cell_centre((r, c), cell, pad)
            if steps:
                # Leave the lower right corner to the step badge.
                cx, cy = cx - 0.12 * cell, cy - 0.12 * cell
                fsize = min(fsize, int(cell * 0.36))
            fill = type_colour(v)
            add(f'<g class="tile" data-row="{r}" data-col="{c}" data-type="{v}">'
                f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="{max(2, cell // 8)}" '
                f'fill="{fill}" stroke="#444" stroke-width="1"/>'
                f'<text x="{_fmt(cx)}" y="{_fmt(cy)}" font-size="{fsize}" text-anchor="middle" '
                f'dominant-baseline="central" fill="{label_colour(fill)}">{label}</text></g>')
    if steps:
        radius = max(5, cell // 5)
        for (r, c), k in sorted(steps.items(), key=lambda item: (item[1], item[0])):
            x = pad + (c + 2) * cell - radius - inset
            y = pad + (r + 2) * cell - radius - inset
            add(f'<g class="step" data-step="{k}" data-row="{r}" data-col="{c}">'
                f'<circle cx="{x}" cy="{y}" r="{radius}" fill="{_STEP_FILL}"/>'
                f'<text x="{x}" y="{y}" font-size="{max(6, int(radius * (1.2 if k < 100 else 0.9)))}" '
                f'text-anchor="middle" dominant-baseline="central" fill="#fff">{k}</text></g>')
    if points is not None:
        coords = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in (cell_centre(p, cell, pad) for p in points))
        cells = " ".join(f"{r},{c}" for r, c in points)
        add(f'<polyline class="path" points="{coords}" data-points={quoteattr(cells)} fill="none" '
            f'stroke="{_PATH_STROKE}" stroke-width="{max(2, cell // 10)}" stroke-linejoin="round" '
            f'stroke-linecap="round" opacity="0.9"/>')
        for p in points:
            x, y = cell_centre(p, cell, pad)
            add(f'<circle class="corner" cx="{_fmt(x)}" cy="{_fmt(y)}" r="{max(2, cell // 9)}" '
                f'fill="{_PATH_STROKE}"/>')
    add("</svg>")
    return "\n".join(out) + "\n"


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
