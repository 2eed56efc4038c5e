"""``llk moves``: every removable pair of a board file."""
from __future__ import annotations

import argparse
import json
import sys

from .files import read_board
from .options import add_board, add_rules, pair_text, rules_from


def register(sub) -> None:
    p = sub.add_parser("moves", help="list the removable pairs",
                       description="List every removable pair as 'r1,c1 r2,c2'.")
    add_board(p)
    p.add_argument("--json", action="store_true", help="print a JSON list of [r1, c1, r2, c2]")
    add_rules(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    board = read_board(args.board, lambda file_rules: rules_from(args, file_rules))
    pairs = board.moves()
    if args.json:
        sys.stdout.write(json.dumps([[a[0], a[1], b[0], b[1]] for a, b in pairs]) + "\n")
        return 0
    for move in pairs:
        print(pair_text(move))
    print(f"{len(pairs)} removable pair{'s' if len(pairs) != 1 else ''}", file=sys.stderr)
    return 0
