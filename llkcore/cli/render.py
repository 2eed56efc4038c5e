"""``llk render``: a picture of a board file (SVG, or PNG with Pillow), or the board as text on
the terminal."""
from __future__ import annotations

import argparse
import sys

from ..errors import CoordinateError
from ..render import CELL, MAX_CELL
from .files import (output_extension, read_board, say_wrote, write_atomic, write_pieces,
                    write_text)
from .options import (UsageError, add_board, add_rules, add_time_limit, int_in, parse_pair,
                      rules_from, verdict_text)

PROG = "llk render"
#: Seconds --solution solves for when --time-limit is not given.
SOLUTION_SECONDS = 10.0
#: Picture formats of -o.
PICTURES = (".svg", ".png")


def register(sub) -> None:
    p = sub.add_parser("render", help="draw a board (SVG, PNG or text)",
                       description="Draw a board: a picture with -o FILE.svg or FILE.png (PNG "
                                   "needs Pillow: pip install 'llkcore[png]'), else text.")
    add_board(p)
    p.add_argument("-o", "--output", metavar="FILE", help=".svg or .png picture, or .txt text "
                   "(default: text on stdout)")
    p.add_argument("--path", type=parse_pair, metavar="r1,c1,r2,c2",
                   help="draw the path joining these two tiles")
    p.add_argument("--solution", action="store_true",
                   help="number the tiles by a solution (on a picture: -o FILE.svg or FILE.png)")
    add_time_limit(p, None, f"seconds --solution may solve for (default {SOLUTION_SECONDS:g})")
    p.add_argument("--cell", type=int_in(8, MAX_CELL), metavar="PX",
                   help=f"cell size of the picture in pixels, 8 to {MAX_CELL} (default {CELL})")
    add_rules(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import render
    from ..solver import Verdict, solve
    board = read_board(args.board, lambda file_rules: rules_from(args, file_rules))
    out = args.output
    kind = None if out in (None, "-") else output_extension(
        "-o", out, PICTURES + (".txt",), ".svg or .png (a picture) or .txt (text)")
    if args.cell is None:
        args.cell = CELL
    elif kind not in PICTURES:
        raise UsageError("--cell sizes a picture: give -o FILE.svg or FILE.png")
    if kind == ".png":
        try:
            render.pillow()          # before any work: PNG needs the optional Pillow
        except ImportError as exc:
            raise UsageError(f"-o {out}: {exc}") from None
        try:
            # Also before any work (a --solution solve): a picture past the PNG cap says so now.
            render._check_png_pixels(*render._picture_size(board.rows, board.cols, args.cell),
                                     advice="a smaller --cell (at least 8), or -o FILE.svg")
        except ValueError as exc:
            raise UsageError(f"-o {out}: {exc}") from None
    path = None
    if args.path is not None:
        a, b = args.path
        try:
            path = board.find_path(a, b)
        except CoordinateError as exc:
            raise UsageError(f"--path: {exc}") from None
        if path is None:
            print(f"{PROG}: {a} and {b} do not link under these rules", file=sys.stderr)
            return 1
    solution = None
    if args.time_limit is not None and not args.solution:
        raise UsageError("--time-limit bounds the solve of --solution: give both")
    if args.solution:
        if kind not in PICTURES:
            raise UsageError("--solution draws on a picture: give -o FILE.svg or FILE.png")
        sol = solve(board, time_limit=SOLUTION_SECONDS if args.time_limit is None
                    else args.time_limit)
        if sol.verdict != Verdict.SOLVABLE:
            hint = " (--time-limit gives it longer)" if sol.reason == "time_limit" else ""
            print(f"{PROG}: no solution to draw ({verdict_text(sol)}){hint}", file=sys.stderr)
            return 1
        solution = sol.moves
    if kind == ".svg":
        # A piece at a time: the SVG of a 1024 x 1024 deal is never held whole.
        scene = render._scene(board, path=path, solution=solution, cell=args.cell)
        write_pieces(out, (piece.encode("utf-8") for piece in render._svg_pieces(scene)))
    elif kind == ".png":
        write_atomic(out, render.png(board, path=path, solution=solution, cell=args.cell))
    elif kind is not None:
        write_text(out, render.text(board, path=path))
    else:
        sys.stdout.write(render.text(board, path=path))
    say_wrote("the picture" if kind in PICTURES else "the board as text", out)
    return 0
