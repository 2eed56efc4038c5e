"""``llk play``: play a generated deal in the terminal (curses; the game is llkcore/tui.py)."""
from __future__ import annotations

import argparse
import os
import sys

from .._deals import fresh_seed
from ..coords import size_words
from ..deals import generate
from ..difficulty import DIFFICULTIES
from ..errors import BoardError, DealError
from .options import (SEED, SIZE_HELP, UsageError, add_deal_counts, add_rules, add_time_limit,
                      deal_counts, parse_size, rules_from)


def register(sub) -> None:
    p = sub.add_parser("play", help="play a deal in the terminal",
                       description="Play a generated, solvable deal in the terminal: arrows "
                                   "and space/enter (or typed row,col + enter) select two "
                                   "tiles; h hint (safe), u undo, r redo, s solvable "
                                   "reshuffle, q quit (Ctrl-C: exit code 130). NO_COLOR=1: no "
                                   "colours.")
    p.add_argument("size", type=parse_size, nargs="?", default=(8, 18), metavar="SIZE",
                   help=SIZE_HELP + "; default kshisen")
    p.add_argument("--seed", type=SEED, default=None, metavar="S",
                   help="seed of the deal (default: a new deal each time)")
    p.add_argument("--difficulty", choices=DIFFICULTIES, default=None,
                   help="a deal rated in this band (llk.rate)")
    add_deal_counts(p)
    add_time_limit(p, 0.5, "seconds for each winnability check and hint (default 0.5)")
    add_rules(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .. import tui

    rows, cols = args.size
    rules = rules_from(args)
    deal_counts(args, rows * cols)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("play needs a terminal (stdin and stdout must be a tty)")
    seed = args.seed if args.seed is not None else fresh_seed()
    try:
        board = generate(rows, cols, copies=args.copies, types=args.types, seed=seed,
                         rules=rules, difficulty=args.difficulty)
    except (BoardError, DealError, ValueError) as exc:
        raise UsageError(f"{size_words(rows, cols)}: {exc}") from None
    gravity = f"gravity {rules.gravity}" if rules.gravity else "no gravity"
    border = "border" if rules.border else "no border"
    band = f", {args.difficulty}" if args.difficulty else ""
    title = (f"llk play: {size_words(rows, cols)}{band}, seed {seed}, "
             f"turns {rules.max_turns}, {border}, {gravity}")
    game = tui.Game(board, title=title, time_limit=args.time_limit)
    import curses
    # Curses takes LINES / COLUMNS from the environment over the terminal's real size; they are
    # often stale (exported by a shell before a resize), so the terminal is asked instead.
    for name in ("LINES", "COLUMNS"):
        os.environ.pop(name, None)
    try:
        curses.wrapper(tui.play, game)
    finally:
        # Said on Ctrl-C too (then exit 130), so the deal can be played again.
        outcome = "cleared" if board.is_clear() else f"{board.tiles_left} tiles left"
        print(f"llk play: seed {seed}, {outcome}")
    return 0
