"""The ``llk`` command (also ``python -m llkcore``).

    llk analyze --size 18x8 --count 1000      seeded deals, solved on every core, summary table
    llk generate 18x8 --seed 1 -o board.txt   a deal, as text, .json or .npy
    llk solve board.txt --svg solution.svg    verdict, nodes, time and the moves
    llk moves board.txt                       every removable pair
    llk render board.txt -o board.svg         a picture (SVG, or text on the terminal)

Exit codes: 0 done; 1 the question has a negative answer (``render --path`` on tiles that do not
link); 2 bad input (malformed file, bad option value); 130 interrupted.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any, Dict, Iterator, Optional, Sequence, Tuple

import numpy as np

from . import __version__
from .board import MAX_SIDE, Board, parse_text
from .errors import BoardError, CoordinateError, IllegalMove
from .rules import GRAVITIES, Rules
from .solver import STRATEGIES

PROG = "llk"


class UsageError(Exception):
    """Bad input: reported as one line on stderr, exit code 2."""


class _Parser(argparse.ArgumentParser):
    """argparse, but an error is one line (``llk analyze: error: ...``) and exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} -h')\n")


# ---------------------------------------------------------------------------------------------
# Option values
# ---------------------------------------------------------------------------------------------

_SIZE = re.compile(r"^\s*(\d+)\s*[xX×*]\s*(\d+)\s*$")


def parse_size(text: str) -> Tuple[int, int]:
    """'18x8' -> (18, 8): ROWSxCOLS."""
    m = _SIZE.match(text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size ROWSxCOLS such as 18x8")
    rows, cols = int(m.group(1)), int(m.group(2))
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise argparse.ArgumentTypeError(f"{text!r}: rows and columns must be 1..{MAX_SIDE}")
    return rows, cols


def _int_at_least(low: int):
    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
        if v < low:
            raise argparse.ArgumentTypeError(f"{text!r} must be >= {low}")
        return v
    parse.__name__ = "int"
    return parse


def _positive_float(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number of seconds")
    return v


def _seed(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer seed") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a seed must be >= 0")
    return v


def parse_pair(text: str) -> Tuple[Tuple[int, int], Tuple[int, int]]:
    """'r1,c1,r2,c2' -> ((r1, c1), (r2, c2))."""
    parts = [p.strip() for p in re.split(r"[,\s]+", text.strip()) if p.strip()]
    try:
        values = [int(p) for p in parts]
    except ValueError:
        values = []
    if len(values) != 4:
        raise argparse.ArgumentTypeError(f"{text!r} is not r1,c1,r2,c2 (four integers)")
    return (values[0], values[1]), (values[2], values[3])


def _add_rules(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("rules")
    g.add_argument("--turns", type=_int_at_least(0), default=None, metavar="N",
                   help="turns a path may make (default 2)")
    g.add_argument("--no-border", dest="border", action="store_false", default=None,
                   help="paths may not run round the outside of the board")
    g.add_argument("--gravity", choices=[g for g in GRAVITIES if g], default=None,
                   help="tiles slide this way after each removal")


def _rules(args: argparse.Namespace, base: Optional[Rules] = None) -> Rules:
    """The rules from the options; options not given keep ``base``'s values (a file's rules)."""
    base = base or Rules()
    return Rules(max_turns=base.max_turns if args.turns is None else args.turns,
                 border=base.border if args.border is None else args.border,
                 gravity=base.gravity if args.gravity is None else args.gravity)


def _add_solver(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("solver")
    g.add_argument("--strategy", choices=STRATEGIES, default="exact",
                   help="exact search (default) or one of the seeds' heuristics")
    g.add_argument("--node-limit", type=_int_at_least(1), default=None, metavar="N",
                   help="give up (verdict unknown) after N search nodes per board")
    g.add_argument("--time-limit", type=_positive_float, default=None, metavar="S",
                   help="give up (verdict unknown) after S seconds per board")


# ---------------------------------------------------------------------------------------------
# Board files: text grid, .json, .npy
# ---------------------------------------------------------------------------------------------

def _rules_from_json(obj: Any, path: str) -> Optional[Rules]:
    if obj is None:
        return None
    if not isinstance(obj, dict):
        raise UsageError(f"{path}: \"rules\" must be an object")
    unknown = set(obj) - {"max_turns", "border", "gravity"}
    if unknown:
        raise UsageError(f"{path}: unknown rules field(s) {sorted(unknown)}")
    try:
        return Rules(**obj)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{path}: bad rules: {exc}") from None


def read_board(path: str, args: argparse.Namespace) -> Board:
    """A Board from a file: ``.json`` (a grid, or {"grid": ..., "rules": ...}), ``.npy`` (a 2-D
    integer array), anything else the text grid format. The rule options override the file's."""
    ext = os.path.splitext(path)[1].lower()
    file_rules: Optional[Rules] = None
    try:
        if ext == ".npy":
            try:
                grid: Any = np.load(path, allow_pickle=False)
            except ValueError as exc:
                raise UsageError(f"{path}: not a numeric .npy array ({exc})") from None
        else:
            with open(path, "r", encoding="utf-8") as fh:
                content = fh.read()
            if ext == ".json":
                try:
                    data = json.loads(content)
                except json.JSONDecodeError as exc:
                    raise UsageError(f"{path}: invalid JSON: {exc}") from None
                if isinstance(data, dict):
                    if "grid" not in data:
                        raise UsageError(f"{path}: a JSON board is a grid or an object with \"grid\"")
                    file_rules = _rules_from_json(data.get("rules"), path)
                    grid = data["grid"]
                else:
                    grid = data
                if not isinstance(grid, list) or not all(
                        isinstance(row, list) and all(type(v) is int for v in row) for row in grid):
                    raise UsageError(f"{path}: the grid must be a list of lists of integers")
            else:
                grid = parse_text(content)
        return Board(grid, rules=_rules(args, file_rules))
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a text board (use .npy or .json for other formats)") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except BoardError as exc:
        raise UsageError(f"{path}: {exc}") from None


def write_board(board: Board, path: Optional[str], extra: Optional[Dict[str, Any]] = None) -> None:
    """Write a board as text (stdout when path is None or '-'), .json or .npy."""
    if path in (None, "-"):
        sys.stdout.write(board.to_text())
        return
    ext = os.path.splitext(path)[1].lower()
    try:
        if ext == ".npy":
            np.save(path, np.array(board.grid))
        elif ext == ".json":
            r = board.rules
            data = {"grid": np.asarray(board.grid).tolist(),
                    "rules": {"max_turns": r.max_turns, "border": r.border, "gravity": r.gravity}}
            data.update(extra or {})
            if board.certificate is not None:
                data["certificate"] = [[a[0], a[1], b[0], b[1]] for a, b in board.certificate]
            _write_text(path, json.dumps(data) + "\n")
        else:
            _write_text(path, board.to_text())
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _write_text(path: str, content: str) -> None:
    if path == "-":
        sys.stdout.write(content)
        return
    try:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(content)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _pair_text(move: Any) -> str:
    (r1, c1), (r2, c2) = move
    return f"{r1},{c1} {r2},{c2}"


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------

def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` in a run seeded ``seed``: independent streams per deal."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0])


class Deals:
    """The seeded deals of ``llk analyze``, generated one at a time as they are iterated
    (sized, so that the progress bar knows the total)."""

    def __init__(self, rows: int, cols: int, count: int, *, copies: int = 4,
                 types: Optional[int] = None, solvable: bool = False, seed: int = 0,
                 rules: Optional[Rules] = None) -> None:
        self.rows, self.cols, self.count = rows, cols, count
        self.options = dict(copies=copies, types=types, solvable=solvable, rules=rules)
        self.seed = seed

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Board]:
        from .deals import generate
        for i in range(self.count):
            yield generate(self.rows, self.cols, seed=deal_seed(self.seed, i), **self.options)


def _check_deal(args: argparse.Namespace, rules: Rules) -> None:
    """Generate one deal up front, so that an impossible size fails as a usage error."""
    from .deals import generate
    rows, cols = args.size
    try:
        generate(rows, cols, copies=args.copies, types=args.types, solvable=False, seed=0,
                 rules=rules)
    except (BoardError, ValueError) as exc:
        raise UsageError(f"--size {rows}x{cols}: {exc}") from None


def cmd_analyze(args: argparse.Namespace) -> int:
    from .batch import analyze
    rules = _rules(args)
    _check_deal(args, rules)
    rows, cols = args.size
    deals = Deals(rows, cols, args.count, copies=args.copies, types=args.types,
                  solvable=args.solvable, seed=args.seed, rules=rules)
    result = analyze(deals, strategy=args.strategy, node_limit=args.node_limit,
                     time_limit=args.time_limit, workers=args.workers,
                     progress=not args.quiet, keep_moves=args.keep_moves)
    what = "solvable deals" if args.solvable else "random deals"
    # With --json - the JSON owns stdout and the table goes to stderr.
    table = sys.stderr if args.json == "-" else sys.stdout
    counts = f"{args.copies} copies per type" if args.types is None else f"{args.types} types"
    print(f"{rows}x{cols} {what}, {counts}, "
          f"seed {args.seed}, rules: turns={rules.max_turns} border={rules.border} "
          f"gravity={rules.gravity}", file=table)
    print(result.summary(), file=table)
    if args.json:
        data = result.to_dict()
        data["deals"] = {"rows": rows, "cols": cols, "count": args.count, "copies": args.copies,
                         "types": args.types, "solvable": args.solvable, "seed": args.seed}
        _write_text(args.json, json.dumps(data) + "\n")
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from .deals import generate
    rows, cols = args.size
    rules = _rules(args)
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**63)
    try:
        board = generate(rows, cols, copies=args.copies, types=args.types,
                         solvable=args.solvable, seed=seed, rules=rules)
    except (BoardError, ValueError) as exc:
        raise UsageError(f"{rows}x{cols}: {exc}") from None
    write_board(board, args.output, {"seed": seed})
    if args.output not in (None, "-"):
        print(f"wrote {rows}x{cols} board (seed {seed}) to {args.output}", file=sys.stderr)
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    from .solver import Verdict, solve
    board = read_board(args.board, args)
    sol = solve(board, strategy=args.strategy, node_limit=args.node_limit,
                time_limit=args.time_limit)
    verdict = Verdict(sol.verdict).name.lower()
    moves = sol.moves if sol.verdict == Verdict.SOLVABLE else None
    if args.json:
        data = {"verdict": verdict, "strategy": args.strategy, "nodes": int(sol.nodes),
                "seconds": float(sol.seconds), "initial_moves": len(board.moves_array()),
                "moves": None if moves is None else [[a[0], a[1], b[0], b[1]] for a, b in moves]}
        _write_text(args.json, json.dumps(data) + "\n")
    else:
        print(f"{verdict} ({args.strategy}, {sol.nodes} nodes, {1000 * sol.seconds:.2f} ms)")
        if moves is not None:
            for k, move in enumerate(moves, 1):
                print(f"{k:4d}  {_pair_text(move)}")
    if args.svg:
        from .render import svg
        _write_text(args.svg, svg(board, solution=moves))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    board = read_board(args.board, args)
    pairs = board.moves()
    if args.json:
        _write_text("-", json.dumps([[a[0], a[1], b[0], b[1]] for a, b in pairs]) + "\n")
        return 0
    for move in pairs:
        print(_pair_text(move))
    print(f"{len(pairs)} removable pair{'s' if len(pairs) != 1 else ''}", file=sys.stderr)
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    from . import render
    board = read_board(args.board, args)
    path = None
    if args.path is not None:
        a, b = args.path
        try:
            path = board.find_path(a, b)
        except CoordinateError as exc:
            raise UsageError(f"--path: {exc}") from None
        if path is None:
            print(f"{PROG} render: {a} and {b} do not link under these rules", file=sys.stderr)
            return 1
    solution = None
    if args.solution:
        from .solver import Verdict, solve
        sol = solve(board)
        if sol.verdict != Verdict.SOLVABLE:
            print(f"{PROG} render: no solution to draw ({Verdict(sol.verdict).name.lower()})",
                  file=sys.stderr)
            return 1
        solution = sol.moves
    out = args.output
    if out is not None and out != "-" and not out.lower().endswith(".svg"):
        if not out.lower().endswith(".txt"):
            raise UsageError(f"-o {out}: write .svg (picture) or .txt (text)")
        _write_text(out, render.text(board, path=path))
    elif out is not None:
        _write_text(out, render.svg(board, path=path, solution=solution, cell=args.cell))
    else:
        if solution is not None:
            raise UsageError("--solution draws on an SVG: give -o FILE.svg")
        sys.stdout.write(render.text(board, path=path))
    return 0


# ---------------------------------------------------------------------------------------------
# Parser and entry point
# ---------------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Solve, analyse, generate and draw 连连看 "
                     "(Link-up / Onet / Shisen-Sho) boards.",
                     epilog="Board files: the text grid (whitespace-separated ints, '.' empty, "
                            "'#' wall), .json (a grid or {\"grid\": ..., \"rules\": ...}) or .npy.")
    parser.add_argument("--version", action="version", version=f"llkcore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("analyze", help="solve many seeded deals on every core; print a summary",
                       description="Generate COUNT seeded deals and solve them on every core.")
    p.add_argument("--size", type=parse_size, default=(18, 8), metavar="ROWSxCOLS",
                   help="board size (default 18x8)")
    p.add_argument("--count", type=_int_at_least(1), default=1000, metavar="N",
                   help="number of deals (default 1000)")
    p.add_argument("--copies", type=_int_at_least(2), default=4, metavar="K",
                   help="tiles per type (even, default 4)")
    p.add_argument("--types", type=_int_at_least(1), default=None, metavar="T",
                   help="number of types instead of --copies")
    p.add_argument("--solvable", action="store_true", help="deal solvable boards only")
    p.add_argument("--seed", type=_seed, default=0, metavar="S",
                   help="seed of the run (default 0); deal i gets its own stream")
    p.add_argument("--workers", type=_int_at_least(1), default=None, metavar="N",
                   help="threads (default: every core)")
    p.add_argument("--json", metavar="FILE", help="write the summary and per-board arrays "
                   "('-' for stdout)")
    p.add_argument("--keep-moves", action="store_true", help="keep the solutions (in --json)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    _add_solver(p)
    _add_rules(p)
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("generate", help="deal one board", description="Deal one seeded board.")
    p.add_argument("size", type=parse_size, metavar="ROWSxCOLS")
    p.add_argument("--seed", type=_seed, default=None, metavar="S")
    p.add_argument("--solvable", action="store_true",
                   help="a solvable deal (its certificate goes into .json output)")
    p.add_argument("--copies", type=_int_at_least(2), default=4, metavar="K")
    p.add_argument("--types", type=_int_at_least(1), default=None, metavar="T")
    p.add_argument("-o", "--output", metavar="FILE", help=".txt, .json or .npy (default: stdout)")
    _add_rules(p)
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("solve", help="solve one board", description="Solve one board file.")
    p.add_argument("board", metavar="BOARD")
    p.add_argument("--svg", metavar="FILE", help="draw the board with the solution numbered")
    p.add_argument("--json", metavar="FILE", help="write the result as JSON ('-' for stdout)")
    _add_solver(p)
    _add_rules(p)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser("moves", help="list the removable pairs",
                       description="List every removable pair as 'r1,c1 r2,c2'.")
    p.add_argument("board", metavar="BOARD")
    p.add_argument("--json", action="store_true", help="print a JSON list of [r1, c1, r2, c2]")
    _add_rules(p)
    p.set_defaults(func=cmd_moves)

    p = sub.add_parser("render", help="draw a board (SVG or text)",
                       description="Draw a board: SVG with -o FILE.svg, else text.")
    p.add_argument("board", metavar="BOARD")
    p.add_argument("-o", "--output", metavar="FILE", help=".svg picture or .txt text "
                   "(default: text on stdout)")
    p.add_argument("--path", type=parse_pair, metavar="r1,c1,r2,c2",
                   help="draw the path joining these two tiles")
    p.add_argument("--solution", action="store_true", help="number the tiles by a solution")
    p.add_argument("--cell", type=_int_at_least(8), default=36, metavar="PX",
                   help="cell size in the SVG (default 36)")
    _add_rules(p)
    p.set_defaults(func=cmd_render)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``llk`` command; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    prog = f"{PROG} {args.command}"
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except (BoardError, IllegalMove, CoordinateError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (llk moves board.txt | head): not an error. Point stdout at
        # devnull so the interpreter's final flush does not complain.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
