"""``llk solve``: the verdict, nodes, time and moves for one board file."""
from __future__ import annotations

import argparse
import json
import sys

from ..solver import Verdict, solve
from .files import check_writable, output_extension, read_board, say_wrote, write_text
from .options import (UsageError, add_board, add_rules, add_solver, pair_text, rules_from,
                      verdict_text)


def register(sub) -> None:
    p = sub.add_parser("solve", help="solve one board", description="Solve one board file.")
    add_board(p)
    p.add_argument("--svg", metavar="FILE", help="draw the board with the solution numbered, "
                   "as FILE.svg ('-' for stdout: the report then goes to stderr)")
    p.add_argument("--json", metavar="FILE", help="also write the result as JSON ('-': to "
                   "stdout, instead of the report)")
    add_solver(p)
    add_rules(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.svg not in (None, "-"):
        output_extension("--svg", args.svg, (".svg",), "a .svg file (a PNG: llk render "
                         "--solution -o FILE.png)")
    if args.svg == "-" and args.json == "-":
        raise UsageError("--svg - and --json - cannot both have stdout")
    for out in (args.json, args.svg):
        if out is not None:
            check_writable(out)         # before the solve, not after it ("" is refused)
    board = read_board(args.board, lambda file_rules: rules_from(args, file_rules))
    sol = solve(board, strategy=args.strategy, node_limit=args.node_limit,
                time_limit=args.time_limit)
    verdict = Verdict(sol.verdict).name.lower()        # the JSON's: the reason has its own key
    moves = sol.moves if sol.verdict == Verdict.SOLVABLE else None
    if args.json is not None:
        r = board.rules
        data = {"verdict": verdict, "reason": sol.reason, "strategy": args.strategy,
                "nodes": int(sol.nodes), "seconds": float(sol.seconds),
                "node_limit": args.node_limit, "time_limit": args.time_limit,
                "rules": {"max_turns": r.max_turns, "border": r.border, "gravity": r.gravity},
                "initial_moves": len(board.moves_array()),
                "moves": None if moves is None else [[a[0], a[1], b[0], b[1]] for a, b in moves]}
        write_text(args.json, json.dumps(data) + "\n")
        say_wrote(f"the result ({verdict}"
                  + ("" if moves is None else f", {len(moves)} moves") + ")", args.json)
    if args.svg is not None:
        # Files before the report: a report that cannot be printed (llk solve ... | true, a
        # full disk) must not lose them.
        from ..render import svg
        write_text(args.svg, svg(board, solution=moves))
        say_wrote("the picture", args.svg)
    if args.json != "-":        # (--json - is the report: JSON on stdout)
        # The report as without --json (as analyze prints its table beside its --json file);
        # with --svg - the picture owns stdout and the report goes to stderr.
        report = sys.stderr if args.svg == "-" else sys.stdout
        print(f"{verdict_text(sol)} ({args.strategy}, {sol.nodes} nodes, {1000 * sol.seconds:.2f} ms)",
              file=report)
        if moves is not None:
            for k, move in enumerate(moves, 1):
                print(f"{k:4d}  {pair_text(move)}", file=report)
    return 0
