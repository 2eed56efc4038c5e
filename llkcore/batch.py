"""Batch analysis: solve many boards on every core and summarise what was found.

``analyze`` streams its input through a thread pool. The solver's kernels release the GIL, so
threads scale with cores without pickling boards to other processes. At most a few boards per
worker are in flight at once, so an endless generator of boards is consumed lazily, and results
are written by input index, so they do not depend on the order in which threads finish.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

import numpy as np

from .board import Board
from .checks import flag, integer
from .coords import Move
from .errors import BoardError
from .rules import Rules, as_rules
from .solver import Solver, Verdict

#: Names of the per-board fields, in record order.
FIELDS = ("verdict", "initial_moves", "solution_length", "nodes", "seconds")
_DTYPES = {"verdict": np.int8, "initial_moves": np.int32, "solution_length": np.int32,
           "nodes": np.int64, "seconds": np.float64}
_VERDICT_NAMES = {int(v): v.name.lower() for v in Verdict}
_QUANTILES = (("median", 50.0), ("p90", 90.0), ("p99", 99.0))
# Boards in flight per worker: enough to keep every thread busy while the main thread
# collects results and pulls the next boards from the input, small enough to stream.
_WINDOW_PER_WORKER = 4
# How often (seconds) the collecting thread wakes up even when no board finished, so that
# Ctrl-C is seen promptly on every platform.
_POLL_SECONDS = 0.1
THREAD_NAME_PREFIX = "llk-analyze"

ProgressArg = Union[bool, Callable[[int, Optional[int]], Any]]


# ---------------------------------------------------------------------------------------------
# The result container
# ---------------------------------------------------------------------------------------------

class Summary(dict):
    """The summary of an Analysis: a plain dict (JSON-serialisable) that prints as a table.

    Keys: ``boards``; ``verdicts`` -> {name: {"count", "fraction"}}; ``initial_moves``,
    ``solution_length`` (solvable boards only), ``nodes``, ``seconds`` -> {"mean", "median",
    "p90", "p99", "max"} (None when there is no board); ``total_seconds`` (sum of per-board
    solve times), ``wall_seconds``, ``boards_per_second``, ``workers``, ``strategy``.
    """

    def __str__(self) -> str:
        return _format_summary(self)


class Analysis:
    """Per-board results of ``analyze``, one entry per input board, in input order.

    Arrays: ``verdict`` (int8, ``llk.Verdict`` values), ``initial_moves`` (int32, removable pairs
    at the start), ``solution_length`` (int32, removals in the solution, -1 when none was found),
    ``nodes`` (int64, search nodes), ``seconds`` (float64, solve time). ``moves`` is a list of
    solutions (None where not solvable) when ``keep_moves=True`` was asked, else None.

    Also: ``strategy``, ``rules`` (as passed to analyze; None means the default rules, or each
    Board's own), ``node_limit``, ``time_limit``, ``workers`` (threads; for Dask the cluster's
    threads) and ``wall_seconds`` (the whole run).
    """

    def __init__(self, verdict: Any, initial_moves: Any, solution_length: Any, nodes: Any,
                 seconds: Any, moves: Optional[List[Optional[List[Move]]]] = None, *,
                 strategy: str = "exact", rules: Optional[Rules] = None,
                 node_limit: Optional[int] = None, time_limit: Optional[float] = None,
                 workers: Optional[int] = None, wall_seconds: Optional[float] = None) -> None:
        columns = dict(zip(FIELDS, (verdict, initial_moves, solution_length, nodes, seconds)))
        n = None
        for name, values in columns.items():
            arr = np.ascontiguousarray(values, dtype=_DTYPES[name])
            if arr.ndim != 1:
                raise ValueError(f"Analysis.{name} must be 1-D, got shape {arr.shape}")
            if n is not None and arr.shape[0] != n:
                raise ValueError(f"Analysis.{name} has {arr.shape[0]} entries, expected {n}")
            n = arr.shape[0]
            setattr(self, name, arr)
        if moves is not None and len(moves) != n:
            raise ValueError(f"Analysis.moves has {len(moves)} entries, expected {n}")
        self.moves: Optional[List[Optional[List[Move]]]] = None if moves is None else list(moves)
        self.strategy = strategy
        self.rules = rules
        self.node_limit = node_limit
        self.time_limit = time_limit
        self.workers = workers
        self.wall_seconds = wall_seconds

    # Attributes set in __init__; declared for type checkers.
    verdict: np.ndarray
    initial_moves: np.ndarray
    solution_length: np.ndarray
    nodes: np.ndarray
    seconds: np.ndarray

    def __len__(self) -> int:
        return int(self.verdict.shape[0])

    def __repr__(self) -> str:
        counts = {name: int(np.count_nonzero(self.verdict == v)) for v, name in _VERDICT_NAMES.items()}
        wall = "" if self.wall_seconds is None else f"; {self.wall_seconds:.3g} s"
        return (f"Analysis({len(self)} boards: {counts['solvable']} solvable, "
                f"{counts['unsolvable']} unsolvable, {counts['unknown']} unknown{wall})")

    def __str__(self) -> str:
        return str(self.summary())

    @property
    def boards_per_second(self) -> Optional[float]:
        if not self.wall_seconds or self.wall_seconds <= 0:
            return None
        return len(self) / self.wall_seconds

    def summary(self) -> Summary:
        """Counts and fractions per verdict; mean, quantiles and max of the numeric fields."""
        n = len(self)
        verdicts = {}
        for value, name in sorted(_VERDICT_NAMES.items(), reverse=True):
            count = int(np.count_nonzero(self.verdict == value))
            verdicts[name] = {"count": count, "fraction": count / n if n else None}
        solved = self.verdict == int(Verdict.SOLVABLE)
        return Summary(
            boards=n,
            verdicts=verdicts,
            initial_moves=_stats(self.initial_moves),
            solution_length=_stats(self.solution_length[solved]),
            nodes=_stats(self.nodes),
            seconds=_stats(self.seconds),
            total_seconds=float(self.seconds.sum()),
            wall_seconds=self.wall_seconds,
            boards_per_second=self.boards_per_second,
            workers=self.workers,
            strategy=self.strategy,
        )

    def to_records(self) -> List[Dict[str, Any]]:
        """One dict per board (``pandas.DataFrame(analysis.to_records())`` works).

        Keys: index, verdict (its name: "solvable", "unsolvable", "unknown"), initial_moves,
        solution_length, nodes, seconds, and moves when they were kept.
        """
        columns = [self.verdict.tolist(), self.initial_moves.tolist(),
                   self.solution_length.tolist(), self.nodes.tolist(), self.seconds.tolist()]
        records = []
        for i, (v, im, sl, nd, sec) in enumerate(zip(*columns)):
            rec = {"index": i, "verdict": _VERDICT_NAMES[v], "initial_moves": im,
                   "solution_length": sl, "nodes": nd, "seconds": sec}
            if self.moves is not None:
                rec["moves"] = self.moves[i]
            records.append(rec)
        return records

    def to_dict(self) -> Dict[str, Any]:
        """JSON-serialisable: the parameters, the summary and the per-board arrays as lists."""
        rules = None if self.rules is None else {
            "max_turns": self.rules.max_turns, "border": self.rules.border,
            "gravity": self.rules.gravity}
        boards: Dict[str, Any] = {name: getattr(self, name).tolist() for name in FIELDS}
        boards["verdict_name"] = [_VERDICT_NAMES[v] for v in boards["verdict"]]
        if self.moves is not None:
            boards["moves"] = [None if m is None else [[a[0], a[1], b[0], b[1]] for a, b in m]
                               for m in self.moves]
        return {
            "parameters": {"strategy": self.strategy, "rules": rules, "node_limit": self.node_limit,
                           "time_limit": self.time_limit, "workers": self.workers},
            "summary": dict(self.summary()),
            "boards": boards,
        }

    def same_results(self, other: "Analysis") -> bool:
        """True iff both hold the same boards' results: every field but the timings (and the
        moves, when both kept them) is equal."""
        if len(self) != len(other):
            return False
        for name in ("verdict", "initial_moves", "solution_length", "nodes"):
            if not np.array_equal(getattr(self, name), getattr(other, name)):
                return False
        if self.moves is not None and other.moves is not None:
            return _normal_moves(self.moves) == _normal_moves(other.moves)
        return True

    @classmethod
    def concat(cls, parts: Sequence["Analysis"], *, workers: Optional[int] = None,
               wall_seconds: Optional[float] = None) -> "Analysis":
        """One Analysis of several, in the given order (moves kept only if every part kept them).

        The parameters (strategy, rules, limits) are taken from the first part.
        """
        parts = list(parts)
        if not parts:
            return cls(*[np.empty(0, _DTYPES[name]) for name in FIELDS],
                       workers=workers, wall_seconds=wall_seconds)
        keep = all(p.moves is not None for p in parts)
        moves = [m for p in parts for m in p.moves] if keep else None  # type: ignore[union-attr]
        first = parts[0]
        return cls(*[np.concatenate([getattr(p, name) for p in parts]) for name in FIELDS],
                   moves, strategy=first.strategy, rules=first.rules,
                   node_limit=first.node_limit, time_limit=first.time_limit,
                   workers=workers, wall_seconds=wall_seconds)


def _normal_moves(moves: List[Optional[List[Move]]]) -> list:
    return [None if m is None else [tuple(map(tuple, pair)) for pair in m] for m in moves]


def _stats(values: np.ndarray) -> Dict[str, Optional[float]]:
    if values.size == 0:
        return {"mean": None, "median": None, "p90": None, "p99": None, "max": None}
    as_float = values.astype(np.float64)
    out: Dict[str, Optional[float]] = {"mean": float(as_float.mean())}
    for name, q in _QUANTILES:
        out[name] = float(np.percentile(as_float, q))
    out["max"] = float(as_float.max())
    return out


def _fmt_number(value: Optional[float], scale: float = 1.0) -> str:
    if value is None:
        return "-"
    v = value * scale
    if v == int(v) and abs(v) < 1e15:
        return f"{int(v)}"
    if abs(v) >= 100:
        return f"{v:.0f}"
    return f"{v:.1f}" if abs(v) >= 1 else f"{v:.3f}"


def _format_summary(s: Dict[str, Any]) -> str:
    n = s["boards"]
    head = f"{n} board{'s' if n != 1 else ''}, strategy {s.get('strategy')!r}"
    if s.get("workers"):
        head += f", {s['workers']} worker{'s' if s['workers'] != 1 else ''}"
    if s.get("wall_seconds") is not None:
        head += f", {s['wall_seconds']:.2f} s wall"
    if s.get("boards_per_second"):
        head += f" ({s['boards_per_second']:.1f} boards/s)"
    lines = [head, ""]
    lines.append(f"{'verdict':<12}{'count':>8}{'fraction':>10}")
    for name, v in s["verdicts"].items():
        frac = "-" if v["fraction"] is None else f"{100 * v['fraction']:.1f}%"
        lines.append(f"{name:<12}{v['count']:>8}{frac:>10}")
    lines.append("")
    cols = ("mean", "median", "p90", "p99", "max")
    lines.append(f"{'':<18}" + "".join(f"{c:>10}" for c in cols))
    rows = (("initial moves", "initial_moves", 1.0), ("solution length", "solution_length", 1.0),
            ("nodes", "nodes", 1.0), ("seconds (ms)", "seconds", 1000.0))
    for label, key, scale in rows:
        stats = s[key]
        lines.append(f"{label:<18}" + "".join(f"{_fmt_number(stats[c], scale):>10}" for c in cols))
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# analyze
# ---------------------------------------------------------------------------------------------

def resolve_workers(workers: Optional[int]) -> int:
    """The thread count for ``workers``: None means every core this process may use."""
    if workers is None:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except (AttributeError, OSError):  # pragma: no cover - not Linux
            return max(1, os.cpu_count() or 1)
    return integer(workers, "workers", low=1)


def _items(grids: Any) -> Tuple[Iterator[Any], Optional[int]]:
    """(iterator over the boards, their number when known) for analyze's ``grids``."""
    if isinstance(grids, Board):
        raise TypeError("analyze takes many boards (an iterable or a (B, R, C) array); "
                        "use llk.solve for one board")
    if isinstance(grids, np.ndarray):
        if grids.ndim != 3:
            raise BoardError(f"a batch array must have shape (B, rows, cols), got {grids.shape}"
                             + (" (one board? use llk.solve)" if grids.ndim == 2 else ""))
        if grids.dtype == np.bool_ or not np.issubdtype(grids.dtype, np.integer):
            raise BoardError(f"board values must be integers, got dtype {grids.dtype}")
        return iter(grids), int(grids.shape[0])
    if isinstance(grids, (str, bytes)) or not isinstance(grids, Iterable):
        raise TypeError(f"grids must be a (B, R, C) array or an iterable of grids or Boards, "
                        f"got {type(grids).__name__}")
    try:
        total: Optional[int] = len(grids)  # type: ignore[arg-type]
    except TypeError:
        total = None
    return iter(grids), total


class _Columns:
    """Per-board results written by index into arrays that grow as boards stream in."""

    def __init__(self, capacity: int, keep_moves: bool) -> None:
        capacity = max(16, capacity)
        self.arrays = {name: np.zeros(capacity, dtype=_DTYPES[name]) for name in FIELDS}
        self.moves: Optional[List[Optional[List[Move]]]] = [] if keep_moves else None
        self.n = 0
        self.solvable = 0

    def store(self, i: int, row: Tuple[Any, ...]) -> None:
        cap = self.arrays["verdict"].shape[0]
        if i >= cap:
            new_cap = max(2 * cap, i + 1)
            for name, arr in self.arrays.items():
                grown = np.zeros(new_cap, dtype=arr.dtype)
                grown[:cap] = arr
                self.arrays[name] = grown
        for name, value in zip(FIELDS, row):
            self.arrays[name][i] = value
        if self.moves is not None:
            if i >= len(self.moves):
                self.moves.extend([None] * (i + 1 - len(self.moves)))
            self.moves[i] = row[5]
        self.n = max(self.n, i + 1)
        if row[0] == int(Verdict.SOLVABLE):
            self.solvable += 1

    def columns(self) -> List[np.ndarray]:
        return [self.arrays[name][: self.n].copy() for name in FIELDS]


class _Progress:
    """Progress display: a tqdm bar when tqdm is installed, else a plain status line on stderr;
    or a user callback ``progress(done, total)``."""

    def __init__(self, progress: ProgressArg, total: Optional[int]) -> None:
        self.done = 0
        self.total = total
        self.callback: Optional[Callable[[int, Optional[int]], Any]] = None
        self.bar = None
        self.start = time.perf_counter()
        self.last_line = float("-inf")  # the first board prints a line at once
        self.plain = False
        if callable(progress):
            self.callback = progress
        elif progress:
            try:
                from tqdm.auto import tqdm
            except ImportError:
                self.plain = True
                self.tty = bool(getattr(sys.stderr, "isatty", lambda: False)())
            else:
                self.bar = tqdm(total=total, unit="board", desc="analyze", file=sys.stderr,
                                dynamic_ncols=True, smoothing=0.05)

    def update(self, solvable: int) -> None:
        self.done += 1
        if self.callback is not None:
            self.callback(self.done, self.total)
        elif self.bar is not None:
            self.bar.update(1)
            if self.done % 64 == 0 or self.done == self.total:
                self.bar.set_postfix_str(f"solvable {100 * solvable / self.done:.1f}%",
                                         refresh=False)
        elif self.plain:
            now = time.perf_counter()
            if now - self.last_line >= (0.2 if self.tty else 5.0) or self.done == self.total:
                self.last_line = now
                self._line(now, end="\r" if self.tty else "\n")

    def _line(self, now: float, end: str) -> None:
        rate = self.done / max(now - self.start, 1e-9)
        of = f"/{self.total}" if self.total is not None else ""
        sys.stderr.write(f"analyze: {self.done}{of} boards, {rate:.1f} boards/s{end}")
        sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.plain and self.tty and self.done:
            self._line(time.perf_counter(), end="\n")


def _solve_one(solver: Solver, rules: Optional[Rules], keep_moves: bool, index: int,
               item: Any) -> Tuple[Any, ...]:
    """The per-board row (FIELDS..., moves) for one input item."""
    if isinstance(item, Board):
        board = item
    else:
        try:
            board = Board(item, rules=rules)
        except BoardError as exc:
            raise BoardError(f"board {index}: {exc}") from None
    initial = int(board.moves_array().shape[0])
    sol = solver.solve(board)
    verdict = int(sol.verdict)
    solved = verdict == int(Verdict.SOLVABLE) and sol.moves is not None
    length = len(sol.moves) if solved else -1
    moves = list(sol.moves) if (keep_moves and solved) else None
    return (verdict, initial, length, int(sol.nodes), float(sol.seconds), moves)


def _prepare(index: int, item: Any, rules: Optional[Rules]) -> Any:
    """Checked in the calling thread: a Board is copied (workers never share a mutable Board)
    and must agree with ``rules``; anything else is validated by Board() in the worker."""
    if isinstance(item, Board):
        if rules is not None and item.rules != rules:
            raise ValueError(f"board {index}: rules= conflicts with the Board's own rules")
        return item.copy()
    return item


def analyze(grids: Any, *, rules: Optional[Rules] = None, strategy: str = "exact",
            node_limit: Optional[int] = None, time_limit: Optional[float] = None,
            workers: Optional[int] = None, progress: ProgressArg = False,
            keep_moves: bool = False) -> Analysis:
    """Solve every board of ``grids`` and return their results as one ``Analysis``.

    grids: a (B, R, C) integer array, or any iterable of grids (2-D arrays, lists of lists) or
        Boards, whose sizes may differ. It is consumed lazily, a few boards per worker ahead.
    rules: the rules for grids given as arrays (None: the default rules); a Board keeps its own
        rules, and passing different ``rules`` with it is an error.
    strategy, node_limit, time_limit: as for ``llk.solve``, per board.
    workers: threads; None uses every core. Results do not depend on the worker count or on the
        order in which boards finish, except ``seconds`` and, when ``time_limit`` is set, the
        boards whose search ran into the time limit (timing decides which ones do).
    progress: True shows a tqdm bar (``pip install llkcore[progress]``; without tqdm a plain
        status line on stderr); a callable is called as ``progress(done, total)`` after each
        board (total is None for an iterable of unknown length).
    keep_moves: also keep each solution's moves (``Analysis.moves``).

    A malformed board raises ``llk.BoardError`` naming its index. Ctrl-C (KeyboardInterrupt)
    stops submitting boards, cancels the queued ones, asks the solver to stop the ones being
    solved (``Solver.cancel``, when the solver has it) and re-raises once every pool thread
    has exited; no thread is left running.
    """
    rules = None if rules is None else as_rules(rules)
    n_workers = resolve_workers(workers)
    keep_moves = flag(keep_moves, "keep_moves")
    # Built once here so that bad strategy / limits fail before any board is read.
    solver = Solver(rules=None, strategy=strategy, node_limit=node_limit, time_limit=time_limit)
    items, total = _items(grids)
    columns = _Columns(total or 0, bool(keep_moves))
    bar = _Progress(progress, total)
    start = time.perf_counter()
    try:
        # Even one worker is a pool thread: the calling thread stays free to notice Ctrl-C
        # while a kernel runs without the GIL, and every worker count runs the same code.
        _run_threads(enumerate(items), n_workers, solver, rules, bool(keep_moves), columns, bar)
    finally:
        bar.close()
    wall = time.perf_counter() - start
    return Analysis(*columns.columns(), columns.moves, strategy=strategy, rules=rules,
                    node_limit=node_limit, time_limit=time_limit, workers=n_workers,
                    wall_seconds=wall)


def _run_threads(items: Iterator[Tuple[int, Any]], n_workers: int, solver: Solver,
                 rules: Optional[Rules], keep_moves: bool, columns: _Columns,
                 bar: _Progress) -> None:
    window = _WINDOW_PER_WORKER * n_workers
    executor = ThreadPoolExecutor(max_workers=n_workers, thread_name_prefix=THREAD_NAME_PREFIX)
    pending: Dict[Future, int] = {}
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < window:
                try:
                    i, item = next(items)
                except StopIteration:
                    exhausted = True
                    break
                item = _prepare(i, item, rules)
                pending[executor.submit(_solve_one, solver, rules, keep_moves, i, item)] = i
            if not pending:
                break
            # A timeout, so that a KeyboardInterrupt is acted on within _POLL_SECONDS even
            # where a signal does not interrupt a blocked lock wait.
            done, _ = wait(pending, timeout=_POLL_SECONDS, return_when=FIRST_COMPLETED)
            # Lowest index first: the error reported for a batch with several bad boards is
            # the same whatever the timing.
            for future in sorted(done, key=pending.__getitem__):
                i = pending.pop(future)
                columns.store(i, future.result())
                bar.update(columns.solvable)
    except BaseException:
        # Ctrl-C, a bad board or a failing progress callback: cancel the queued boards and
        # stop the ones being solved (the solver's cancel() makes its running kernels return
        # at their next budget check), so that shutting down below is prompt.
        for future in pending:
            future.cancel()
        cancel = getattr(solver, "cancel", None)
        if cancel is not None:
            cancel()
        raise
    finally:
        # Every thread has exited when analyze returns or raises.
        executor.shutdown(wait=True, cancel_futures=True)


def analysis_threads() -> List[threading.Thread]:
    """Threads of analyze's pools that are still alive (for tests and diagnostics)."""
    return [t for t in threading.enumerate() if t.name.startswith(THREAD_NAME_PREFIX)]
