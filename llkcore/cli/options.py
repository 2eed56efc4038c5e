"""Option values of the ``llk`` command: parsers that refuse bad values with one clear line.

Sizes are ROWSxCOLS, rows first (``8x18`` is 8 rows by 18 columns), or a KShisen size by the
name KShisen gives it, width x height (``kshisen-18x8`` is 18 wide, 8 high: 8 rows, 18 columns).
"""
from __future__ import annotations

import argparse
import re
from typing import Dict, Optional, Tuple

from .._core.state import MAX_SIDE
from ..checks import shown
from ..rules import GRAVITIES, PRESETS, Rules
from ..verdict import Verdict
from ..solver import STRATEGIES


class UsageError(Exception):
    """Bad input: reported as one line on stderr, exit code 2."""


class Parser(argparse.ArgumentParser):
    """argparse, but an error is one line (``llk analyze: error: ...``) and exit code 2."""

    #: The top-level parser's commands by name (set by build_parser).
    commands: Dict[str, "Parser"]

    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse takes "--path -1,0,0,3" for an option with no value ("-1,0,0,3" looks like
        # an option to it, "-1" does not): say how to give such a value.
        missing = _NO_VALUE.match(message)
        if missing:
            message += f"; a value that starts with '-' is written {missing.group(1)}=VALUE"
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} -h')\n")


_NO_VALUE = re.compile(r"^argument (?:\S+/)?(\S+): expected one argument$")


# ASCII digits only: Python's \d and int() take other scripts' digits ("٣x٤"), a board's text
# does not.
_SIZE = re.compile(r"^\s*([0-9]+)\s*[xX×*]\s*([0-9]+)\s*$")
_INT = re.compile(r"^\s*[+-]?[0-9]+\s*$")

#: KShisen's board sizes by KShisen's names (width x height) -> (rows, cols).
KSHISEN_SIZES = {"14x6": (6, 14), "16x9": (9, 16), "18x8": (8, 18), "24x12": (12, 24),
                 "26x14": (14, 26), "30x16": (16, 30)}
#: Named sizes: "kshisen" is KShisen's default game, 18 wide and 8 high.
NAMED_SIZES = {"kshisen": (8, 18), **{f"kshisen-{k}": v for k, v in KSHISEN_SIZES.items()}}

SIZE_HELP = ("ROWSxCOLS, rows first (8x18 = 8 rows, 18 columns), or a KShisen size named as KShisen "
             "names it, width x height: " + ", ".join(NAMED_SIZES) + " (kshisen = kshisen-18x8 = "
             "8 rows, 18 columns)")


def parse_size(text: str) -> Tuple[int, int]:
    """'8x18' -> (8, 18): ROWSxCOLS; 'kshisen-18x8' -> (8, 18): KShisen's width x height."""
    named = NAMED_SIZES.get(text.strip().lower())
    if named is not None:
        return named
    m = _SIZE.match(text)
    if not m:
        raise argparse.ArgumentTypeError(
            f"{shown(text)} is not a size: give ROWSxCOLS (8x18 = 8 rows, 18 columns) or one of "
            f"{', '.join(NAMED_SIZES)}")
    sides = m.group(1, 2)
    if not all(len(side) <= 7 and 1 <= int(side) <= MAX_SIDE for side in sides):
        raise argparse.ArgumentTypeError(f"{shown(text)}: rows and columns must be "
                                         f"1..{MAX_SIDE}")
    rows, cols = int(sides[0]), int(sides[1])
    return rows, cols


def int_in(low: int, high: int):
    """An argparse type: an int in [low, high]."""
    def parse(text: str) -> int:
        if not _INT.match(text):
            raise argparse.ArgumentTypeError(f"{shown(text)} is not an integer")
        if len(text.strip()) > 30 or not low <= int(text) <= high:
            raise argparse.ArgumentTypeError(f"{shown(text)} must be between {low} and {high}")
        return int(text)
    parse.__name__ = "int"
    return parse


def positive_seconds(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v > 0 or v == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive number of seconds")
    return v


def parse_pair(text: str) -> Tuple[Tuple[int, int], Tuple[int, int]]:
    """'r1,c1,r2,c2' -> ((r1, c1), (r2, c2))."""
    parts = [p.strip() for p in re.split(r"[,\s]+", text.strip()) if p.strip()]
    if len(parts) != 4 or not all(_INT.match(p) for p in parts):
        raise argparse.ArgumentTypeError(f"{shown(text)} is not r1,c1,r2,c2 (four integers)")
    if any(len(p) > 12 for p in parts):
        raise argparse.ArgumentTypeError(f"{shown(text)}: a point so far away is on no board")
    values = [int(p) for p in parts]
    return (values[0], values[1]), (values[2], values[3])


SEED = int_in(0, 2**63 - 1)


def add_board(p: argparse.ArgumentParser) -> None:
    """BOARD: the board file of the commands that read one."""
    p.add_argument("board", metavar="BOARD", help="a board file: text, .json or .npy; '-' reads "
                   "stdin (text, or JSON when it starts with { or [)")


def add_deal_counts(p: argparse.ArgumentParser) -> None:
    """--copies / --types: how many tiles of each type a deal has (every command that deals)."""
    # --copies defaults to None so that deal_counts can tell it was given.
    p.add_argument("--copies", type=int_in(2, 2**20), default=None, metavar="K",
                   help="tiles per type (even, default 4)")
    p.add_argument("--types", type=int_in(1, 2**20), default=None, metavar="T",
                   help="number of types instead of --copies")


def deal_counts(args: argparse.Namespace, cells: int) -> None:
    """Check --copies / --types against each other and the ``cells`` to fill, and set
    args.copies to its default 4 when neither is given. The API's generate() quietly lets
    --types win over copies and makes pairs of a ``copies`` larger than the board; on the
    command line both would contradict what was asked."""
    if args.copies is not None and args.types is not None:
        raise UsageError("give --copies or --types, not both")
    default = args.types is None and args.copies is None
    if default:
        args.copies = 4
    if args.copies is not None and args.copies > cells:
        # The default too: a 1x2 run is one pair, not "4 copies per type" as its summary and
        # its --json's command to reproduce it would say.
        fits = cells - cells % 2
        raise UsageError(f"--copies {args.copies}{' (the default)' if default else ''}: "
                         f"{args.copies} tiles of a type do not fit in {cells} cells (at most "
                         f"{fits})" + (f": give --copies {fits}" if default and fits else ""))


def add_rules(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("rules")
    g.add_argument("--rules", choices=list(PRESETS), default=None, metavar="GAME",
                   help="a named rule set: " + ", ".join(PRESETS) + " (the options below "
                        "change it)")
    g.add_argument("--turns", type=int_in(0, 2**31 - 1), default=None, metavar="N",
                   help="turns a path may make (default 2)")
    g.add_argument("--border", dest="border", action="store_true", default=None,
                   help="paths may run round the outside of the board (the default; over a "
                        "file's rules or --rules)")
    g.add_argument("--no-border", dest="border", action="store_false", default=None,
                   help="paths may not run round the outside of the board")
    g.add_argument("--gravity", choices=[g for g in GRAVITIES if g] + ["none"], default=None,
                   help="tiles slide this way after each removal ('none': no gravity)")


def rules_from(args: argparse.Namespace, base: Optional[Rules] = None) -> Rules:
    """The rules from the options; options not given keep ``base``'s (a file's) values."""
    base = PRESETS[args.rules] if getattr(args, "rules", None) else (base or Rules())
    gravity = base.gravity if args.gravity is None else (None if args.gravity == "none" else args.gravity)
    return Rules(max_turns=base.max_turns if args.turns is None else args.turns,
                 border=base.border if args.border is None else args.border,
                 gravity=gravity)


def add_solver(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("solver")
    g.add_argument("--strategy", choices=STRATEGIES, default="exact",
                   help="exact search (default) or one of the seeds' heuristics")
    g.add_argument("--node-limit", type=int_in(1, 2**62), default=None, metavar="N",
                   help="give up (verdict unknown) after N search nodes per board")
    add_time_limit(g, None, "give up (verdict unknown) after S seconds per board")


def add_time_limit(p, default: Optional[float], help: str) -> None:
    """--time-limit S: seconds, positive."""
    p.add_argument("--time-limit", type=positive_seconds, default=default, metavar="S", help=help)


#: Why a solve answered unknown, by Solution.reason, as the commands say it.
UNKNOWN_REASONS = {"time_limit": "time limit reached", "node_limit": "node limit reached",
                   "cancelled": "cancelled", "stuck": "the heuristic found no move it would play"}


def verdict_text(sol) -> str:
    """'solvable', 'unsolvable', or 'unknown: time limit reached' (unknown says why)."""
    verdict = Verdict(sol.verdict).name.lower()
    if sol.verdict == Verdict.UNKNOWN:
        verdict += f": {UNKNOWN_REASONS.get(sol.reason, sol.reason or 'no reason given')}"
    return verdict


def pair_text(move) -> str:
    (r1, c1), (r2, c2) = move
    return f"{r1},{c1} {r2},{c2}"
