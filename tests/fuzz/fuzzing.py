"""The fuzzing suite's budget, its contract check and its generators of hostile values.

Budget. ``LLKCORE_FUZZ_CALLS`` is the number of generated public calls the whole suite makes
(default 6,000: a few seconds of a normal ``pytest``; CI sets 150,000) and
``LLKCORE_FUZZ_SECONDS`` caps its time (default 120). Each fuzz test owns a share of both
(``SHARES``) and stops when it has made its calls or used its time, whichever comes first; the
totals are printed at the end of the run (tests/conftest.py). A watchdog ends the process with
every thread's stack if one test runs far past its time: a hang is a failure, not a stall.

Contract (``Fuzz.call``). A call either returns, or raises one of the exceptions its entry point
documents (``RAISES``), with a non-empty message. Exceptions raised by the caller's own objects
(``Hostile``: a ``__index__`` or ``__iter__`` that raises) pass through unchanged. Anything else
(AttributeError, KeyError, IndexError, RecursionError, SystemError, a crash) fails the test and
hypothesis shrinks the input that caused it.
"""
from __future__ import annotations

import contextlib
import faulthandler
import itertools
import os
import random
import sys
import threading
import time
from collections import Counter, deque
from typing import Any, Callable, Dict, List, Tuple, Type

import numpy as np
from hypothesis import Phase, given, note, seed, settings
from hypothesis import strategies as st

import llkcore as llk
from llkcore import BoardError, CoordinateError, DealError, IllegalMove

TOTAL_CALLS = int(os.environ.get("LLKCORE_FUZZ_CALLS", "6000"))
TOTAL_SECONDS = float(os.environ.get("LLKCORE_FUZZ_SECONDS", "120"))
#: LLKCORE_FUZZ_SHRINK=0 reports a failure as found, without shrinking it (a quick look).
PHASES = [Phase.explicit, Phase.generate] + (
    [] if os.environ.get("LLKCORE_FUZZ_SHRINK", "1") == "0" else [Phase.shrink])
#: Seed of the first chunk of every fuzz test: LLKCORE_FUZZ_SEED, or 0 under the derandomized
#: "ci" profile (a CI run is reproducible), else a fresh one per run.
SEED = (int(os.environ["LLKCORE_FUZZ_SEED"]) if os.environ.get("LLKCORE_FUZZ_SEED")
        else 0 if settings.default.derandomize else None)

#: Each fuzz test's share of the calls and of the time. The CLI is far dearer per call (argparse,
#: files, a thread pool for analyze), so its share of the time is much larger than of the calls.
#: A test's time box is its share of the time still left when it starts, so time one test does
#: not use goes to the tests after it.
SHARES = {
    "module": (0.33, 0.22),
    "solvers": (0.15, 0.15),
    "render": (0.11, 0.13),
    "board": (0.38, 0.22),
    "cli": (0.03, 0.28),
}
#: LLKCORE_FUZZ_MIN_CALLS: fail the run if the fuzz tests together made fewer calls (CI sets it,
#: so that a run slowed down past its time box cannot pass with too few calls).
MIN_CALLS = int(os.environ.get("LLKCORE_FUZZ_MIN_CALLS", "0"))

#: Generated calls made so far, per entry point (reported at the end of the run).
CALLS: Counter = Counter()
#: Seconds each fuzz test ran.
SECONDS: Dict[str, float] = {}


class Hostile(Exception):
    """Raised by the hostile objects' own methods; it may pass through any call."""


# What each entry point may raise (besides Hostile); docs/architecture.md ("Fuzzing,
# AddressSanitizer and the leak check") has the same table.
GRID = (BoardError, TypeError)
RAISES: Dict[str, Tuple[Type[BaseException], ...]] = {
    # module queries: a bad grid, point, rules or flag; rules= that conflict with a Board's
    "can_link": GRID + (CoordinateError, ValueError),
    "find_path": GRID + (CoordinateError, ValueError),
    "moves": GRID + (ValueError,),
    "hint": GRID + (ValueError,),
    # boards
    "Board": GRID,
    "Board.from_text": GRID,
    "Board.from_labels": GRID,
    "Board.update": (BoardError,),
    "Board.can_link": (CoordinateError,),
    "Board.find_path": (CoordinateError,),
    "Board.can_link_many": (CoordinateError,),
    "Board.label_at": (CoordinateError,),
    "Board.moves_array": (TypeError,),
    "Board.remove": (IllegalMove,),
    "Board.shuffle": (DealError, TypeError, ValueError),
    "Board.slides": (IndexError, TypeError),
    "Board.winnable": (TypeError, ValueError),   # time_limit
    "Board.hint": (TypeError, ValueError),       # safe, time_limit
    "Board.traps": (TypeError, ValueError),
    "Board.to_json": (TypeError, ValueError),    # labels JSON cannot hold (bytes, NaN); indent
    "Board.from_json": (BoardError, TypeError),
    "Board.query": (),                  # moves, hint, is_stuck, undo, redo, copy, properties
    "Index": (),                        # lookups: anything that is not a type has no tiles
    "pickle": (),
    # rules, solvers, deals, batch
    "Rules": (TypeError, ValueError),
    "Rules.preset": (ValueError,),
    "solve": GRID + (ValueError,),
    "Solver": (TypeError, ValueError),
    "Solver.solve": GRID + (ValueError,),
    "verify": GRID + (ValueError,),
    "generate": (BoardError, DealError, TypeError, ValueError),
    "analyze": (BoardError, TypeError, ValueError),
    "deal_seed": (TypeError, ValueError),
    "Deals": (BoardError, DealError, TypeError, ValueError),  # building it, or iterating it
    "rate": GRID + (ValueError,),
    # pictures: a bad path or solution, cell or title
    "render.svg": GRID + (CoordinateError, IllegalMove, ValueError),
    "render.text": GRID + (CoordinateError, ValueError),
    "render.png": GRID + (CoordinateError, ValueError),
    "Board.show": (CoordinateError, IllegalMove, TypeError, ValueError),
    # the llk command ("llk generate", ...): main returns an exit code and never raises
}


class Fuzz:
    """One fuzz test's budget and its contract-checked calls.

    ``run(body)`` runs hypothesis on ``body(data)`` in chunks of CHUNK examples, each chunk
    seeded afresh (from LLKCORE_FUZZ_SEED, 0 under the derandomized "ci" profile, else random),
    until the test has made its calls or used its time. Each chunk is a complete hypothesis run,
    so a failure is shrunk and reported as usual (with the seed that reproduces it); the budget
    is only looked at between chunks, so no example depends on the clock.
    """

    CHUNK = 20

    def __init__(self, name: str) -> None:
        self.name = name
        self.target = max(1, int(TOTAL_CALLS * SHARES[name][0]))
        self.seconds = TOTAL_SECONDS * SHARES[name][1]
        self.made = 0
        self.start = time.monotonic()
        self.recent: deque = deque(maxlen=8)

    def run(self, body: Callable, config: Any = None) -> None:
        """Run hypothesis on ``body(data)`` until the budget is used (see the class docstring).
        ``config``: pytest's, so that the watchdog can print past the output capture."""
        self.start = time.monotonic()
        left = [n for n in SHARES if n not in SECONDS]
        self.seconds = max(0.0, TOTAL_SECONDS - sum(SECONDS.values())) * SHARES[self.name][1] / sum(
            SHARES[n][1] for n in left)
        base = SEED if SEED is not None else random.randrange(2**32)
        chunk = 0
        with watchdog(config):
            try:
                while not self.done:
                    test = given(data=st.data())(self._noting(body))
                    test = settings(settings.default, max_examples=self.CHUNK, derandomize=False,
                                    database=None, phases=PHASES)(test)
                    seed(base * 100_003 + chunk)(test)()
                    chunk += 1
            finally:
                SECONDS[self.name] = SECONDS.get(self.name, 0.0) + time.monotonic() - self.start

    def _noting(self, body: Callable) -> Callable:
        """``body`` that, when it fails, notes the last calls it made (hypothesis prints them
        with the failing example)."""
        def run(data):
            self.recent.clear()
            try:
                body(data)
            except Exception:
                note("last calls, oldest first:\n" + "\n".join(map(_describe, self.recent)))
                raise
        return run

    @property
    def done(self) -> bool:
        return self.made >= self.target or time.monotonic() - self.start > self.seconds

    def call(self, entry: str, fn: Callable, *args: Any, **kwargs: Any) -> Tuple[bool, Any]:
        """(True, result) or (False, the documented exception it raised); anything else fails."""
        self.made += 1
        CALLS[entry] += 1
        self.recent.append((entry, args, kwargs))
        _RUNNING[0], _RUNNING[1], _RUNNING[2] = entry, time.monotonic(), (entry, args, kwargs)
        try:
            return True, fn(*args, **kwargs)
        except Hostile as exc:
            return False, exc
        except RAISES.get(entry, ()) as exc:
            assert str(exc).strip(), f"{entry} raised {type(exc).__name__} with an empty message"
            return False, exc
        finally:
            _RUNNING[1] = None


def _describe(call) -> str:
    """A call as text, whatever its arguments' own __repr__ does."""
    entry, args, kwargs = call
    def show(v):
        try:
            text = repr(v)
        except Exception:
            text = f"<{type(v).__name__} whose repr raises>"
        return text if len(text) <= 300 else text[:300] + "..."
    words = [show(a) for a in args] + [f"{k}={show(v)}" for k, v in kwargs.items()]
    return f"  {entry}({', '.join(words)})"


#: The call being made (entry point, when it started, the call), for the watchdog.
_RUNNING: list = [None, None, None]
#: A single call running longer than this is a hang (solves always have a budget here).
CALL_SECONDS = float(os.environ.get("LLKCORE_FUZZ_CALL_SECONDS", "60"))


@contextlib.contextmanager
def watchdog(config: Any = None):
    """Fail the run, with every thread's stack, if one call runs longer than CALL_SECONDS.

    A thread looks once a second (kernels release the GIL in their long loops); faulthandler is
    the last resort for a hang that holds the GIL. Either prints past pytest's capture and ends
    the process, since a hung call cannot be stopped from Python.
    """
    stop = threading.Event()
    capture = config.pluginmanager.getplugin("capturemanager") if config is not None else None

    def bark(entry, seconds):
        if capture is not None:
            capture.suspend_global_capture(in_=False)
        sys.stderr.write(f"\nfuzz watchdog: {entry} has run for {seconds:.0f} s: a hang\n"
                         f"{_describe(_RUNNING[2])}\n")
        sys.stderr.flush()
        faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        os._exit(70)

    def watch():
        while not stop.wait(1.0):
            entry, started, _ = _RUNNING
            if started is not None and time.monotonic() - started > CALL_SECONDS:
                bark(entry, time.monotonic() - started)

    thread = threading.Thread(target=watch, name="llkcore-fuzz-watchdog", daemon=True)
    thread.start()
    faulthandler.dump_traceback_later(30 * CALL_SECONDS + 600, exit=True)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()
        stop.set()
        thread.join()


def shortfall() -> str:
    """Why the run made too few calls (LLKCORE_FUZZ_MIN_CALLS), or ''."""
    made = sum(CALLS.values())
    if MIN_CALLS and made < MIN_CALLS:
        return (f"fuzz: only {made:,} generated calls, fewer than LLKCORE_FUZZ_MIN_CALLS="
                f"{MIN_CALLS:,} (the time box LLKCORE_FUZZ_SECONDS={TOTAL_SECONDS:g} ran out)")
    return ""


def report() -> str:
    """One line per entry point and the totals, for the end of the run."""
    if not CALLS:
        return ""
    lines = [f"fuzz: {sum(CALLS.values()):,} generated calls (target {TOTAL_CALLS:,}) in "
             f"{sum(SECONDS.values()):.1f} s ({', '.join(f'{k} {v:.1f} s' for k, v in SECONDS.items())})"]
    lines += [f"  {entry:22s} {n:>9,}" for entry, n in sorted(CALLS.items(), key=lambda kv: -kv[1])]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Hostile and malformed values
# ---------------------------------------------------------------------------------------------

def _raise(*_args, **_kwargs):
    raise Hostile("a hostile object's own method raised")


class RaisesEverywhere:
    """Every protocol a check might try raises."""
    __index__ = __int__ = __float__ = __len__ = __iter__ = __getitem__ = __bool__ = _raise
    __hash__ = __eq__ = __lt__ = __repr__ = __str__ = _raise


class ClaimsInt:
    """isinstance(x, int) is True (through __class__), yet it is no int."""
    __class__ = property(lambda self: int)  # type: ignore[assignment]


class ClaimsArray:
    """isinstance(x, np.ndarray) is True, with plausible attributes; it is no array."""
    __class__ = property(lambda self: np.ndarray)  # type: ignore[assignment]
    ndim, shape, strides, dtype, size = 2, (3, 3), (12, 4), np.dtype(np.int32), 9


class ClaimsArrayBare:
    """isinstance(x, np.ndarray) is True, and it has none of an array's attributes."""
    __class__ = property(lambda self: np.ndarray)  # type: ignore[assignment]


class Shifty:
    """A sequence whose length and items change every time they are read."""

    def __init__(self):
        self.n = 0

    def __len__(self):
        self.n += 1
        return 2 + self.n % 3

    def __getitem__(self, i):
        self.n += 1
        if i >= 2 + self.n % 3:
            raise IndexError(i)
        return [1, 0, 1][self.n % 3]


class HugeIndex:
    def __index__(self):
        return 2**200


class NegativeLength:
    def __len__(self):
        return -1

    def __iter__(self):
        return iter(())


def _self_referential():
    a: list = []
    a.append(a)
    a.append(a)
    return a


SCALAR_JUNK = [
    None, True, False, 0, 1, -1, 2, 7, 2**31 - 1, 2**31, -(2**31) - 1, 2**63, -(2**64), 10**30,
    0.0, 1.5, -2.0, float("nan"), float("inf"), float("-inf"), 1j, "", "0", "1", "1 2", "x",
    "down", "exact", "\x00", "٣", b"", b"1", bytearray(b"1"), np.int8(3), np.uint64(2**64 - 1), 10**400,
    np.int64(-1), np.float32(1.0), np.bool_(True), np.datetime64(1, "D"), np.timedelta64(1, "s"),
    np.array(1), np.array([1]), np.array([1.5, 2.0]), range(2), Ellipsis, NotImplemented,
]
HOSTILE = [RaisesEverywhere, ClaimsInt, ClaimsArray, ClaimsArrayBare, Shifty, HugeIndex, NegativeLength, object,
           dict, set, frozenset, list, tuple]
#: Characters for generated text: ASCII, control characters, a lone surrogate, other scripts'
#: digits and spaces, CJK, the XML non-characters.
TEXT_CHARS = "01-.# x\t\n\r\x00\x0b\x1b\ud800\u0663\uff11\u3000\xa0连\ufffe\uffff"
INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
              ">i4", ">i8", "<u2"]


class Pick:
    """The cheap choices of one example: Python's Random, seeded by hypothesis.

    Hypothesis draws each example's board, rules and this seed (the board shrinks; a failure
    prints the seed); every call's arguments are then picked here, about a hundred times faster
    than drawing each through a strategy, which is what makes 100,000 calls fit in minutes.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def int(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def one(self, options):
        return options[self.rng.randrange(len(options))]

    def some(self, options, most: int):
        return [self.one(options) for _ in range(self.int(0, most))]

    def text(self, most: int = 8) -> str:
        return "".join(self.one(TEXT_CHARS) for _ in range(self.int(0, most)))

    def junk(self) -> Any:
        """A value of any kind a well-meaning or hostile caller might pass (fresh each time)."""
        kind = self.rng.randrange(11)
        if kind <= 1:
            return self.one(SCALAR_JUNK)
        if kind == 2:
            return self.one((-1, 1)) * (1 << self.int(0, 80)) + self.int(-2, 2)
        if kind == 3:
            return self.one((1e300, -0.0, 5e-324, self.rng.uniform(-1e6, 1e6), 2.0**63))
        if kind == 4:
            return self.text()
        if kind == 5:
            return self.one(HOSTILE)()
        if kind == 6:
            return _self_referential()
        if kind == 7:
            return self.some(SCALAR_JUNK[:12] + [(0, 1), [0, 0]], 4)
        if kind == 8:
            return (self.one(SCALAR_JUNK), self.one(SCALAR_JUNK))
        if kind == 9:
            return np.zeros(self.one([(0,), (2,), (2, 2), (1, 4), (2, 2, 2), (0, 4)]),
                            self.one([np.int64, np.float64, bool, object]))
        return {self.one([0, 1, "r"]): self.int(0, 3)}

    def maybe(self, make: Callable[[], Any], p_junk: float = 0.15) -> Any:
        """``make()`` most of the time, junk with probability ``p_junk``."""
        return self.junk() if self.chance(p_junk) else make()

    def flag(self, p_junk: float = 0.1) -> Any:
        return self.maybe(lambda: self.chance(0.5), p_junk)

    def point(self, rows: int, cols: int, p_junk: float = 0.12) -> Any:
        """A point on the board (mostly, in every accepted form), just off it, or junk."""
        if self.chance(p_junk):
            return self.junk()
        r, c = self.int(0, rows - 1), self.int(0, cols - 1)
        kind = self.rng.randrange(8)
        if kind == 5:
            return (self.int(-2, rows + 1), self.int(-2, cols + 1))
        if kind == 6:
            return self.one(([r, c], np.array([r, c]), (np.int16(r), np.uint8(c)), (np.int64(r), c)))
        if kind == 7:
            return self.one(((r, c, 0), (r,), (float(r), c), (r, True), str((r, c)), {r: c}))
        return (r, c)

    def grid(self, max_side: int = 6, types: int = 4) -> List[List[int]]:
        """A well-formed grid: tiles of a few types, walls, empties, densities varying."""
        rows, cols = self.int(1, max_side), self.int(1, max_side)
        palette = self.some([0, 0, 1, 2, 3, 4, -1, -2, 2**31 - 1, -(2**31)][:4 + types], 8) or [1]
        return [[self.one(palette) for _ in range(cols)] for _ in range(rows)]

    def container(self, grid: List[List[int]]) -> Any:
        """``grid`` in one of the forms a caller may hand in (the same values)."""
        kind = self.rng.randrange(11)
        if kind <= 1:
            return grid
        if kind == 2:
            return tuple(tuple(row) for row in grid)
        if kind == 3:
            return [tuple(row) for row in grid]
        values = np.array(grid, dtype=np.int64)
        lo, hi = int(values.min()), int(values.max())
        fits = [d for d in INT_DTYPES
                if np.iinfo(np.dtype(d)).min <= lo and hi <= np.iinfo(np.dtype(d)).max]
        arr = values.astype(self.one(fits))
        if kind == 4:
            return np.asfortranarray(arr)
        if kind == 5:
            wide = np.zeros((arr.shape[0] * 2, arr.shape[1] * 3), dtype=arr.dtype)
            wide[::2, ::3] = arr
            return wide[::2, ::3]
        if kind == 6:
            return [row for row in arr]
        if kind == 7:
            return arr.view(_Subclass)
        return arr

    def malformed(self, good: List[List[int]]) -> Any:
        """A grid llkcore must refuse, made from a good one."""
        rows, cols = len(good), len(good[0])
        kind = self.rng.randrange(19)
        if kind <= 3:
            grid = [list(row) for row in good]
            grid[self.int(0, rows - 1)][self.int(0, cols - 1)] = self.one(BAD_CELLS)()
            return self.one((grid, [tuple(row) for row in grid], (row for row in grid)))
        if kind == 4:
            grid = [list(row) for row in good] + ([list(good[0])] if rows == 1 else [])
            grid[self.int(0, len(grid) - 1)].append(0)
            return grid
        if kind == 5:
            return self.one(([], [[]], [[], []], (), np.zeros((0, 3), np.int32),
                             np.zeros((3, 0), np.int64)))
        if kind == 6:
            return self.one((good[0], np.array(good[0]), 5, np.int64(3), "1 2\n3 4"))
        if kind == 7:
            return self.one(([good], np.array([good]), [[[1], [2]]]))
        if kind == 8:
            return self.one(([[0] * 1025], np.zeros((1025, 1), np.int8), np.zeros((1, 2000), np.int8)))
        arr = np.array(good, dtype=np.int64)
        if kind == 9:
            return arr.astype(self.one((np.float64, np.float32, np.complex64)))
        if kind == 10:
            return np.ma.masked_array(arr, mask=np.eye(rows, cols, dtype=bool))
        if kind == 11:
            return arr > 0
        if kind == 12:
            return arr.astype(object)
        if kind == 13:
            return arr.astype(self.one(("timedelta64[s]", "datetime64[D]")))
        if kind == 14:
            grid = [list(row) for row in good]
            grid[0][0] = [grid[0][0]]
            return grid
        if kind == 15:
            return [Shifty() for _ in range(rows)]
        if kind == 16:
            return self.one((itertools.count, lambda: itertools.repeat([1, 1])))()
        if kind == 17:
            return [np.array(row) for row in good[:-1]] + [_self_referential()]
        return self.junk()

    def any_grid(self, good: List[List[int]], p_bad: float = 0.25) -> Tuple[Any, Any]:
        """(the grid handed in, the same grid as a list of lists or None when malformed)."""
        if self.chance(p_bad):
            return self.malformed(good), None
        return self.container(good), good

    def rules(self, gravity: bool = True, p_junk: float = 0.08) -> Any:
        """None (the default rules), Rules of any variant, or junk."""
        if self.chance(0.2):
            return None
        return self.maybe(lambda: llk.Rules(
            max_turns=self.one((0, 1, 2, 2, 2, 3, 4, 2**31 - 1)), border=self.chance(0.5),
            gravity=self.one(llk.GRAVITIES) if gravity else None), p_junk)


class _Subclass(np.ndarray):
    """An ndarray subclass that lies about its shape (the reader must not believe it)."""

    @property
    def shape(self):
        return (7, 9)


#: Makers of cell values a grid may not hold (made fresh: some are hostile to hashing).
BAD_CELLS = [lambda v=v: v for v in (True, False, 2**31, -(2**31) - 1, 2**64, 1.0, 2.5, None, "1",
                                     b"1", (1,), np.float64(1), np.bool_(False), np.uint64(2**63),
                                     1j)] + [lambda: [1], lambda: np.array(1), RaisesEverywhere,
                                             ClaimsInt, ClaimsArray, _self_referential]


def example_grids(max_side: int = 6, max_types: int = 4):
    """The board of an example, from the suite's shared strategies (tests/conftest.py), so that
    hypothesis shrinks a failing example's board."""
    from conftest import deals, grids
    return st.one_of(grids(max_side=max_side, max_types=max_types),
                     deals(min_side=2, max_side=max_side, max_types=max_types))


SEEDS = st.integers(0, 2**32 - 1)


def ref_grid(grid, rules):
    """The grid llkref should see for a module call under ``rules`` (compacted under gravity)."""
    import llkref
    work = [list(row) for row in grid]
    llkref.apply_gravity(work, rules.gravity)
    return work
