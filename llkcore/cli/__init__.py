"""The ``llk`` command (also ``python -m llkcore``), one module per command:

    llk analyze --size kshisen --count 1000   seeded deals, solved on every core, summary table
    llk generate 8x18 --seed 1 -o board.txt   a deal (8 rows, 18 columns), as text, .json or .npy
    llk solve board.txt --svg solution.svg    verdict, nodes, time and the moves
    llk moves board.txt                       every removable pair
    llk render board.txt -o board.svg         a picture (SVG, or text on the terminal)
    llk play 8x18 --difficulty hard           play a deal in the terminal (curses)

Sizes are ROWSxCOLS, rows first, or KShisen's names (``kshisen-18x8``: 18 wide, 8 high); see
``options.py``. Exit codes: 0 done; 1 the question has a negative answer (``render --path`` on
tiles that do not link); 2 bad input (malformed file, bad option value), as one line on stderr,
never a traceback; 130 interrupted.
"""
from __future__ import annotations

import errno
import os
import signal
import sys
import threading
from typing import Any, Dict, List, Optional, Sequence

from .._version import __version__
from ..deals import Deals, deal_seed
from ..errors import BoardError, CoordinateError, DealError, IllegalMove
from . import analyze, generate, moves, play, render, solve
from .options import Parser, UsageError

PROG = "llk"
#: The commands, in the order ``llk -h`` lists them; each module has register(sub) and run(args).
COMMANDS = (analyze, generate, solve, moves, render, play)

__all__ = ["COMMANDS", "Deals", "PROG", "UsageError", "build_parser", "deal_seed", "main"]


def build_parser() -> Parser:
    parser = Parser(prog=PROG, description="Solve, analyse, generate and draw 连连看 "
                    "(Link-up / Onet / Shisen-Sho) boards.",
                    epilog="Board files: the text grid (whitespace-separated ints, '.' empty, "
                           "'#' wall), .json (a saved game as llk generate and board.to_json() write "
                           "it, or a plain grid) or .npy; BOARD '-' reads stdin (text or JSON). "
                           "Sizes: ROWSxCOLS, rows first (8x18 = 8 rows, 18 columns), or "
                           "kshisen-WxH as KShisen names its sizes.")
    parser.add_argument("--version", action="version", version=f"llkcore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in COMMANDS:
        command.register(sub)
    parser.commands = sub.choices       # name -> the command's parser, for main's errors
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``llk`` command; returns the exit code."""
    for stream in (sys.stdout, sys.stderr):
        # A terminal or PYTHONIOENCODING without Chinese (the help says 连连看): escape what
        # the encoding lacks rather than fail.
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            # The command's own parser says it, naming its help (llk generate -h), where the
            # top-level parser would blame llk.
            parser.commands.get(args.command, parser).error(
                f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    prog = f"{PROG} {args.command}"
    if sys.stdout is None:
        # Started with stdout closed (llk moves b.txt >&-): print() would drop the output
        # silently, so writing to it fails as a full disk does.
        sys.stdout = _ClosedOutput()
    ended: List[int] = []
    previous = _end_as_interrupted(ended)
    try:
        code = args.func(args)
        sys.stdout.flush()      # a buffered write fails here (> /dev/full), not at exit
        return code
    except UsageError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except (BoardError, IllegalMove, CoordinateError, DealError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError as exc:
        # A board or picture too big for this machine (llk render of 1024x1024 as PNG under a
        # memory limit): one line, as for any input the command cannot take.
        detail = f": {exc}" if str(exc) else ""
        print(f"{prog}: error: not enough memory for this{detail}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        try:
            print(f"{prog}: {'terminated' if ended else 'interrupted'}", file=sys.stderr)
        except KeyboardInterrupt:       # a second Ctrl-C while saying so
            pass
        return 128 + ended[0] if ended else 130
    except BrokenPipeError:
        # The reader went away (llk moves board.txt | head): not an error. Point stdout at
        # devnull so the interpreter's final flush does not complain.
        _discard_stdout()
        return 0
    except OSError as exc:
        # Files name themselves (files.py turns their errors into UsageError), so an OSError
        # here is stdout's: a full disk, a closed stream.
        print(f"{prog}: error: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        _discard_stdout()
        return 2
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


#: Signals that end a command as Ctrl-C does, where by default they would kill it outright:
#: `timeout`, `kill` and a closed terminal left a half-written temporary file beside the
#: output, and an analysis's finished deals unsaved.
_ENDING_SIGNALS = ("SIGTERM", "SIGHUP")


def _end_as_interrupted(ended: List[int]) -> Dict[int, Any]:
    """Make SIGTERM and SIGHUP (where they keep their default action) raise KeyboardInterrupt,
    so files are cleaned up and results saved as for Ctrl-C; the signal goes into ``ended``.
    Returns the handlers replaced (none off the main thread, where Python sets none)."""
    def on_signal(signum, frame):
        ended.append(signum)
        raise KeyboardInterrupt

    previous: Dict[int, Any] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous
    for name in _ENDING_SIGNALS:
        signum = getattr(signal, name, None)        # (Windows has no SIGHUP)
        if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
            previous[signum] = signal.signal(signum, on_signal)
    return previous


class _ClosedOutput:
    """sys.stdout when the process started without one: any write fails."""

    def write(self, text: str) -> int:
        if not text:
            return 0
        raise OSError(errno.EBADF, "stdout is closed")

    def flush(self) -> None:
        pass


def _discard_stdout() -> None:
    """Point stdout at devnull, so that the interpreter's final flush of what could not be
    written does not complain."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, AttributeError, ValueError):
        pass        # no file descriptor (closed, or a test's capture): nothing will flush
