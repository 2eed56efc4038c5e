"""``llk generate``: deal one seeded board and write it as text, .json or .npy."""
from __future__ import annotations

import argparse
import sys

from ..coords import size_words
from ..deals import generate
from ..errors import BoardError
from ..rules import Rules
from .files import board_extension, say_wrote, write_board
from .options import (SEED, SIZE_HELP, UsageError, add_deal_counts, add_rules, deal_counts,
                      parse_size, rules_from)


def register(sub) -> None:
    p = sub.add_parser("generate", help="deal one board", description="Deal one seeded board.")
    p.add_argument("size", type=parse_size, metavar="SIZE", help=SIZE_HELP)
    p.add_argument("--seed", type=SEED, default=None, metavar="S",
                   help="seed of the deal (default: a new one each time; a file written with -o names it)")
    p.add_argument("--solvable", action="store_true",
                   help="a solvable deal (its certificate goes into .json output); without "
                        "it the deal is random and may have no solution (llk.generate in "
                        "Python deals solvable ones unless solvable=False)")
    add_deal_counts(p)
    p.add_argument("-o", "--output", metavar="FILE", help=".txt, .json or .npy (default: stdout)")
    add_rules(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rows, cols = args.size
    rules = rules_from(args)
    deal_counts(args, rows * cols)
    if args.output not in (None, "-"):
        board_extension(args.output)        # refuse an unwritable name before any work
    try:
        board = generate(rows, cols, copies=args.copies, types=args.types,
                         solvable=args.solvable, seed=args.seed, rules=rules)
    except (BoardError, ValueError) as exc:
        raise UsageError(f"{size_words(rows, cols)}: {exc}") from None
    write_board(board, args.output)
    say_wrote(f"a board of {size_words(rows, cols)} (seed {board.seed})", args.output)
    lost = [what for what, kept in (("its rules", rules == Rules()),
                                    ("its certificate", board.certificate is None)) if not kept]
    if lost and (args.output in (None, "-") or board_extension(args.output) != ".json"):
        # Only .json holds more than the grid: a command reading the text or .npy plays the
        # classic rules unless told otherwise, and searches for what the deal came with.
        where = "the text" if args.output in (None, "-") else args.output
        print(f"note: {where} keeps only the grid, not {' or '.join(lost)} (-o FILE.json "
              "keeps everything)", file=sys.stderr)
    return 0
