"""``llk analyze``: solve a seeded series of deals on every core and print the summary."""
from __future__ import annotations

import argparse
import json
import shlex
import sys

from ..analysis import Analysis
from ..batch import MAX_WORKERS, analyze
from ..coords import size_words
from ..deals import Deals, generate
from ..errors import AnalysisInterrupted, BoardError
from .files import check_writable, say_wrote, write_text
from .options import (SEED, SIZE_HELP, UsageError, add_deal_counts, add_rules, add_solver,
                      deal_counts, int_in, parse_size, rules_from)


def register(sub) -> None:
    p = sub.add_parser("analyze", help="solve many seeded deals on every core; print a summary",
                       description="Generate COUNT seeded deals and solve them on every core.")
    p.add_argument("--size", type=parse_size, default=(8, 18), metavar="SIZE",
                   help=SIZE_HELP + "; default kshisen")
    p.add_argument("--count", type=int_in(1, 10**9), default=1000, metavar="N",
                   help="number of deals (default 1000)")
    add_deal_counts(p)
    p.add_argument("--solvable", action="store_true", help="deal solvable boards only")
    p.add_argument("--seed", type=SEED, default=0, metavar="S",
                   help="seed of the run (default 0); deal i gets its own stream")
    p.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=None, metavar="N",
                   help="threads (default: every core)")
    p.add_argument("--json", metavar="FILE", help="write the parameters, summary and per-board "
                   "arrays ('-' for stdout)")
    p.add_argument("--keep-moves", action="store_true", help="keep the solutions (in --json)")
    p.add_argument("--rate", action="store_true",
                   help="also rate each deal's difficulty (score, random-clear rate, trap "
                        "rate, branching; llk.rate): a median of about 0.02 s per "
                        "8x18 deal, 0.08 s with gravity (p90 0.3 s); --time-limit S stops "
                        "each rating after S seconds too (a deal then takes up to 2S), and "
                        "what it cut is left out (null in --json)")
    # Neither given: a bar when stderr is a terminal; a log file would fill with its updates.
    shown = p.add_mutually_exclusive_group()
    shown.add_argument("-q", "--quiet", dest="progress", action="store_false", default=None,
                       help="no progress bar")
    shown.add_argument("--progress", dest="progress", action="store_true", default=None,
                       help="a progress bar on stderr even when it is not a terminal "
                            "(default: only on a terminal)")
    add_solver(p)
    add_rules(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.keep_moves and args.json is None:
        raise UsageError("--keep-moves keeps the solutions in the --json document: give both")
    rules = rules_from(args)
    rows, cols = args.size
    deal_counts(args, rows * cols)
    try:
        # One deal up front, so that an impossible size fails as a usage error.
        generate(rows, cols, copies=args.copies, types=args.types, solvable=False, seed=0,
                 rules=rules)
    except (BoardError, ValueError) as exc:
        counts = f"--copies {args.copies}" if args.types is None else f"--types {args.types}"
        raise UsageError(f"--size {rows}x{cols} with {counts}: {exc}") from None
    if args.json is not None:
        check_writable(args.json)       # before the run, not after it ("" is refused)
    progress = args.progress if args.progress is not None else bool(
        sys.stderr and sys.stderr.isatty())
    deals = Deals(rows, cols, args.count, copies=args.copies, types=args.types,
                  solvable=args.solvable, seed=args.seed, rules=rules)
    try:
        result = analyze(deals, rules=rules, strategy=args.strategy, node_limit=args.node_limit,
                         time_limit=args.time_limit, workers=args.workers,
                         progress=progress, keep_moves=args.keep_moves, rate=args.rate)
    except AnalysisInterrupted as stopped:
        # Ctrl-C: the first deals finished are reported (and saved) as a run of that many
        # deals, which deals and solves them again; then the command exits as interrupted.
        if len(stopped.analysis):
            report(args, rules, stopped.analysis, interrupted=True)
        raise
    report(args, rules, result)
    return 0


def report(args: argparse.Namespace, rules, result: Analysis, interrupted: bool = False) -> None:
    """Write --json and print the summary of ``result`` (the first ``len(result)`` deals)."""
    rows, cols = args.size
    if args.json is not None:
        # The file first: a summary that cannot be printed (llk analyze ... | head -1, a full
        # disk) must not lose the run's results.
        data = result.to_dict()
        data["deals"] = {"rows": rows, "cols": cols, "count": len(result),
                         "copies": args.copies, "types": args.types, "solvable": args.solvable,
                         "seed": args.seed}
        data["reproduce"] = command_line(args, rules, len(result))
        write_text(args.json, json.dumps(data) + "\n")
        say_wrote(f"the results of {len(result)} deal{'s' if len(result) != 1 else ''}", args.json)
    what = "solvable deals" if args.solvable else "random deals"
    # With --json - the JSON owns stdout and the table goes to stderr.
    table = sys.stderr if args.json == "-" else sys.stdout
    counts = f"{args.copies} copies per type" if args.types is None else f"{args.types} types"
    if interrupted:
        print(f"interrupted: the first {len(result)} of {args.count} deals", file=table)
    print(f"{size_words(rows, cols)}, {what}, {counts}, seed {args.seed}, rules: "
          f"turns={rules.max_turns} border={rules.border} gravity={rules.gravity}", file=table)
    print(result.summary(), file=table)


def command_line(args: argparse.Namespace, rules, count: int) -> str:
    """The ``llk analyze`` command that deals and solves the same ``count`` boards again and
    writes the same document (its ``--json`` too: ``--keep-moves`` is refused without it)."""
    rows, cols = args.size
    parts = [f"llk analyze --size {rows}x{cols} --count {count} --seed {args.seed}"]
    parts.append(f"--copies {args.copies}" if args.types is None else f"--types {args.types}")
    if args.solvable:
        parts.append("--solvable")
    parts.append(f"--turns {rules.max_turns} --gravity {rules.gravity or 'none'}")
    if not rules.border:
        parts.append("--no-border")
    parts.append(f"--strategy {args.strategy}")
    if args.node_limit is not None:
        parts.append(f"--node-limit {args.node_limit}")
    if args.time_limit is not None:
        parts.append(f"--time-limit {args.time_limit!r}")   # exact: %g would round it
    if args.rate:
        parts.append("--rate")
    parts.append(f"--json {shlex.quote(str(args.json))}")
    if args.keep_moves:
        parts.append("--keep-moves")        # the document then holds the solutions too
    return " ".join(parts)
