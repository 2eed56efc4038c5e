"""Batch analysis: solve many boards on every core and summarise what was found.

``analyze`` streams its input through a thread pool. The solver's kernels release the GIL, so
threads scale with cores without pickling boards to other processes. At most a few tasks per
worker are in flight at once, so an endless generator of boards is consumed lazily, and results
are written by input index, so they do not depend on the order in which threads finish. Small
boards go to the workers several to a task: handing a board to a thread and its result back
cost more than solving a 6x6 deal.
"""
from __future__ import annotations

import os
import queue
import sys
import threading
import time
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

import numpy as np

from ._core import pairs as _pairs
from ._core.reader import UNORDERED
from ._insight import listing_seconds
from .analysis import DTYPES, FIELDS, RATING_FIELDS, Analysis, columns_of
from .board import Board, rules_conflict
from .checks import board_dtype, flag, integer, is_array
from .coords import Move
from .difficulty import PLAYOUTS, rating_of, rating_on_clock
from .errors import AnalysisInterrupted, BoardError
from .rules import Rules, as_rules
from .solver import Solver, Verdict

# Tasks in flight per worker: enough to keep every thread busy while the main thread
# collects results and pulls the next boards from the input, small enough to stream.
_WINDOW_PER_WORKER = 4
# A task holds boards until they have this many tiles in all, or this many boards. Each
# handoff to a worker and back cost 60-100 us of CPU (an audit: analyze ran 1x2 boards at 0.4x
# and 6x6 deals at 0.6-0.8x the speed of a loop of llk.solve); a 6x6 deal solves in about
# 0.1 ms, an 8x18 deal, which has 144 tiles, in about 1 ms.
_TASK_TILES = 256
_TASK_BOARDS = 64
# How often (seconds) the collecting thread wakes up even when no board finished, so that
# Ctrl-C is seen promptly on every platform.
_POLL_SECONDS = 0.1
THREAD_NAME_PREFIX = "llk-analyze"
# _Columns's array of the boards whose results are stored.
_FINISHED = "finished"

ProgressArg = Union[bool, Callable[[int, Optional[int]], Any]]


#: Most threads analyze runs (and ``llk analyze --workers`` takes). More only cost: 5,000 threads
#: on 3,000 small boards took 17 s where two took 0.26 s.
MAX_WORKERS = 1024


def resolve_workers(workers: Optional[int], name: str = "workers") -> int:
    """The thread count for ``workers`` (1..MAX_WORKERS): None means every core this process may
    use. ``name``: the caller's name for it, in errors."""
    if workers is None:
        try:
            cores = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):  # pragma: no cover - not Linux
            cores = os.cpu_count() or 1
        return min(max(1, cores), MAX_WORKERS)
    return integer(workers, name, low=1, high=MAX_WORKERS)


def check_batch_array(grids: Any) -> None:
    """Refuse (BoardError) an array of boards (numpy's, or Dask's) that is not (B, rows, cols)
    of ints."""
    if grids.ndim != 3:
        raise BoardError(f"a batch array must have shape (B, rows, cols), got {grids.shape}"
                         + (" (one board? use llk.solve)" if grids.ndim == 2 else ""))
    board_dtype(grids.dtype)


def _items(grids: Any) -> Tuple[Iterator[Any], Optional[int]]:
    """(iterator over the boards, their number when known) for analyze's ``grids``."""
    if isinstance(grids, Board):
        raise TypeError("analyze takes many boards (an iterable or a (B, R, C) array); "
                        "use llk.solve for one board")
    if is_array(grids):
        check_batch_array(grids)
        return iter(grids), int(grids.shape[0])
    if (isinstance(grids, (list, tuple)) and grids and isinstance(grids[0], (list, tuple))
            and grids[0] and all(isinstance(v, (int, np.integer)) for v in grids[0])):
        # Its first item is a row of ints, which no board is: one grid, passed alone.
        raise BoardError("analyze takes many boards, and the first item here is a row of ints, "
                         "not a board (one board? use llk.solve, or analyze([grid]))")
    if isinstance(grids, UNORDERED):
        raise TypeError(f"grids must be in order: got a {type(grids).__name__} (pass a list of "
                        "grids; a dict's keys or a set's order is not the caller's)")
    if isinstance(grids, (str, bytes)) or not isinstance(grids, Iterable):
        raise TypeError(f"grids must be a (B, R, C) array or an iterable of grids or Boards, "
                        f"got {type(grids).__name__}")
    if type(grids).__module__.split(".")[0] == "dask":
        # Iterating a dask collection computes one item at a time, and a dask array's rows are
        # lazy arrays no board takes.
        raise TypeError(f"grids is a dask {type(grids).__name__}: use llkcore.dask.analyze for "
                        "dask collections, or np.asarray(grids) to compute it here")
    try:
        total: Optional[int] = len(grids)  # type: ignore[arg-type]
    except TypeError:
        total = None
    return iter(grids), total


class _Columns:
    """Per-board results written by index into arrays that grow as boards stream in."""

    #: The most boards room is made for before any arrive: a sized iterable may be an endless
    #: series in all but name (``Deals(..., 10**11)``: 2.5 TB of columns up front).
    FIRST_CAPACITY = 1 << 16

    def __init__(self, capacity: int, keep_moves: bool, rated: bool = False) -> None:
        capacity = min(max(16, capacity), self.FIRST_CAPACITY)
        self.arrays = {name: np.zeros(capacity, dtype=DTYPES[name]) for name in FIELDS}
        self.rated = rated
        if rated:
            self.arrays.update({name: np.zeros(capacity) for name in RATING_FIELDS})
        self.arrays[_FINISHED] = np.zeros(capacity, dtype=bool)
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
        self.arrays[_FINISHED][i] = True
        if self.rated:
            for name, value in zip(RATING_FIELDS, row[6]):
                self.arrays[name][i] = value
        if self.moves is not None:
            if i >= len(self.moves):
                self.moves.extend([None] * (i + 1 - len(self.moves)))
            self.moves[i] = row[5]
        self.n = max(self.n, i + 1)
        if row[0] == int(Verdict.SOLVABLE):
            self.solvable += 1

    def finished_first(self) -> int:
        """How many boards from the first are all finished (boards finish out of order)."""
        unfinished = np.flatnonzero(~self.arrays[_FINISHED][: self.n])
        return int(unfinished[0]) if len(unfinished) else self.n

    def analysis(self, n: int, **parameters: Any) -> Analysis:
        """An Analysis of the first ``n`` boards."""
        ratings = None if not self.rated else {
            name: self.arrays[name][:n].copy() for name in RATING_FIELDS}
        return Analysis(*columns_of(lambda name: self.arrays[name][:n].copy()),
                        None if self.moves is None else self.moves[:n], ratings=ratings,
                        **parameters)


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
        self.shown = 0                  # boards counted on the last plain line
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
        self.shown = self.done
        rate = self.done / max(now - self.start, 1e-9)
        of = f"/{self.total}" if self.total is not None else ""
        sys.stderr.write(f"analyze: {self.done}{of} boards, {rate:.1f} boards/s{end}")
        sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.plain and self.done and (self.tty or self.shown != self.done):
            # The final count: on a terminal the line ends; in a log it is added when the last
            # line was older (an iterable of unknown length never reaches ``total``).
            self._line(time.perf_counter(), end="\n")


def board_error(kind: type, index: int, detail: str) -> Exception:
    """The error for the board at ``index``, naming it; ``board_index`` and ``detail`` let
    llkcore.dask, whose partitions count from 0, name the board's place in the whole input."""
    exc = kind(f"board {index}: {detail}")
    exc.board_index, exc.detail = index, detail
    return exc


def _solve_one(solver: Solver, keep_moves: bool, board: Board, *,
               ratings: Optional["_Ratings"] = None) -> Tuple[Any, ...]:
    """The per-board row (FIELDS..., moves, RATING_FIELDS values or None) for one board (the
    worker's own: prepare_board); rated when ``ratings`` is given."""
    # The moves are listed under the solver's cancel flag (Ctrl-C in analyze stops them too)
    # and the board's time limit: a board of a million cells can have tens of millions of
    # pairs, minutes to list (an audit); then initial_moves is -1 and the solve goes on, with
    # what is left of the limit (the listing and the solve each took all of it: twice the time).
    limit = solver._seconds
    start = time.perf_counter()
    cells = _pairs.moves_cells(board._state, board.rules.max_turns, solver._cancel,
                               listing_seconds(None if limit < 0 else limit))
    if cells is None and solver.cancelled:
        return (int(Verdict.UNKNOWN), -1, -1, 0, 0.0, None, None)
    initial = -1 if cells is None else int(cells.shape[0])
    left = limit if limit < 0 else max(0.0, limit - (time.perf_counter() - start))
    sol = solver._solve_within(board, left)
    verdict = int(sol.verdict)
    found = sol.moves if verdict == int(Verdict.SOLVABLE) else None
    length = -1 if found is None else len(found)
    moves = list(found) if keep_moves and found is not None else None
    # The board's time is its count's and its solve's, both of which its time limit bounds.
    seconds = time.perf_counter() - start
    rating = None if ratings is None else ratings.row(board, limit)
    return (verdict, initial, length, int(sol.nodes), seconds, moves, rating)


class _Ratings:
    """The rating columns of analyze(rate=True): ``llk.rate`` of each board with its defaults,
    on a clock of the board's time limit when there is one. A value the clock cut is NaN, so
    that every value present is the one without a limit (a rating is only worth comparing
    across runs and machines when it does not depend on timing). ``cancel`` (Ctrl-C) stops the
    ratings being played, as the solver's cancel stops the solves."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._playing: Dict[int, np.ndarray] = {}     # id -> the stop flag of a rating in play
        self._cancelled = False

    def row(self, board: Board, time_limit: float) -> Tuple[float, float, float, float]:
        """(score, clear_rate, trap_rate, branching) of ``board``; ``time_limit`` < 0: none."""
        stop = np.zeros(1, dtype=np.int32)
        with self._lock:
            stop[0] = self._cancelled
            self._playing[id(stop)] = stop
        try:
            r = rating_of(board, cancel=stop) if time_limit < 0 else \
                rating_on_clock(board, time_limit, stop)
        finally:
            with self._lock:
                del self._playing[id(stop)]
        played_all = r.playouts == PLAYOUTS      # else the game was not played either
        return (r.score if played_all else np.nan, r.clear_rate if played_all else np.nan,
                np.nan if r.trap_rate is None or not r.complete else r.trap_rate,
                np.nan if r.branching is None or not r.complete else r.branching)

    def cancel(self) -> None:
        with self._lock:
            self._cancelled = True
            for stop in self._playing.values():
                stop[0] = 1


def _board_of(index: int, item: Any, rules: Optional[Rules]) -> Board:
    try:
        return Board(item, rules=rules)
    except BoardError as exc:
        raise board_error(BoardError, index, str(exc)) from None


def prepare_board(index: int, item: Any, rules: Optional[Rules]) -> Board:
    """The Board a worker solves, made in the calling thread as the item is taken: a Board is
    copied (workers never share a mutable Board) and must agree with ``rules``; a grid is read
    now, not when a worker gets to it, since the iterable may reuse one buffer for every grid
    or yield a live ``board.grid`` it then plays on (both gave wrong results)."""
    if isinstance(item, Board):
        if rules is not None and item.rules != rules:
            raise board_error(ValueError, index, rules_conflict(item.rules, rules))
        return item._work_copy()
    return _board_of(index, item, rules)


def analyze(grids: Any, *, rules: Optional[Rules] = None, strategy: str = "exact",
            node_limit: Optional[int] = None, time_limit: Optional[float] = None,
            workers: Optional[int] = None, progress: ProgressArg = False,
            keep_moves: bool = False, rate: bool = False) -> Analysis:
    """Solve every board of ``grids`` and return their results as one ``Analysis``.

    grids: a (B, R, C) integer array, or any iterable of grids (2-D arrays, lists of lists) or
        Boards, whose sizes may differ. It is consumed lazily, a few boards per worker ahead (a
        few dozen when they are small), and each grid is read as it is taken: an iterable may
        reuse one buffer for every grid.
    rules: the rules for grids given as arrays (None: the default rules); a Board keeps its own
        rules, and passing different ``rules`` with it is an error.
    strategy, node_limit, time_limit: as for ``llk.solve``, per board.
    workers: threads (at most MAX_WORKERS, 1024); None uses every core. Results do not depend
        on the worker count or on the order in which boards finish, except ``seconds`` and,
        when ``time_limit`` is set, the boards whose search ran into the time limit (timing
        decides which ones do).
    progress: True shows a tqdm bar (``pip install llkcore[progress]``; without tqdm a plain
        status line on stderr); a callable is called as ``progress(done, total)`` after each
        board (total is None for an iterable of unknown length).
    keep_moves: also keep each solution's moves (``Analysis.moves``).
    rate: also rate each board's difficulty (``llk.rate`` with its defaults: the score, the
        random-clear rate, the trap rate and the branching; ``Analysis.ratings``). The careful
        game behind the trap rate costs far more than a solve: a median of about 0.02 s per
        8x18 deal, with gravity 0.04 s on a solvable deal and 0.08 s (p90 0.3 s) on a random
        one (README, "Difficulty"), with a long tail (one of 300 random 8x18 deals: 34 s); a
        random KShisen 24x12 deal with gravity takes seconds.
        With ``time_limit`` each rating also stops after that many seconds, on a clock of its
        own (a board then takes up to twice the limit), and what the clock cut is NaN: the
        score and random-clear rate when it cut the playouts, the trap rate and branching when
        it cut the careful game. Every value present is the one without a limit.

    A malformed board raises ``llk.BoardError`` naming its index. Ctrl-C (KeyboardInterrupt)
    stops submitting boards, cancels the queued ones, asks the solver to stop the ones being
    solved (``Solver.cancel``, when the solver has it) and, once every pool thread has exited,
    raises ``llk.AnalysisInterrupted``: a KeyboardInterrupt whose ``analysis`` holds what was
    finished (the boards from the first up to the first one not finished). No thread is left
    running.
    """
    rules = None if rules is None else as_rules(rules)
    n_workers = resolve_workers(workers)
    keep_moves = flag(keep_moves, "keep_moves")
    rate = flag(rate, "rate")
    if not callable(progress):
        progress = flag(progress, "progress")       # ("no" is not False: a bool, as the others)
    # Built once here so that bad strategy / limits fail before any board is read.
    solver = Solver(rules=None, strategy=strategy, node_limit=node_limit, time_limit=time_limit)
    items, total = _items(grids)
    columns = _Columns(total or 0, keep_moves, rate)
    bar = _Progress(progress, total)
    solved_under: Set[Rules] = set()
    start = time.perf_counter()

    def analysis(n: int) -> Analysis:
        # The rules every board was solved under, when they share one set (Boards bring their
        # own): a saved result then says what was analysed.
        under = next(iter(solved_under)) if len(solved_under) == 1 else \
            None if solved_under else rules
        return columns.analysis(n, strategy=strategy, rules=under, node_limit=node_limit,
                                time_limit=time_limit, workers=n_workers,
                                wall_seconds=time.perf_counter() - start)

    try:
        # Even one worker is a pool thread: the calling thread stays free to notice Ctrl-C
        # while a kernel runs without the GIL, and every worker count runs the same code.
        _run_threads(enumerate(items), n_workers, solver, rules, keep_moves, rate, columns, bar,
                     solved_under)
    except KeyboardInterrupt:
        # What was finished is kept: a batch stopped after an hour keeps its hour of work.
        raise AnalysisInterrupted(analysis(columns.finished_first())) from None
    finally:
        bar.close()
    return analysis(columns.n)


def _run_threads(items: Iterator[Tuple[int, Any]], n_workers: int, solver: Solver,
                 rules: Optional[Rules], keep_moves: bool, rate: bool, columns: _Columns,
                 bar: _Progress, solved_under: Set[Rules]) -> None:
    """Solve the items on ``n_workers`` threads, storing rows in ``columns`` and the rules each
    board is solved under in ``solved_under``."""
    window = _WINDOW_PER_WORKER * n_workers
    pool = _Pool(n_workers, solver, keep_moves, rate)
    in_flight = 0                       # tasks submitted and not yet collected
    task: List[Tuple[int, Board]] = []  # the task being filled
    tiles = 0
    try:
        exhausted = False
        while True:
            while not exhausted and in_flight < window:
                try:
                    i, item = next(items)
                except StopIteration:
                    exhausted = True
                    break
                board = prepare_board(i, item, rules)
                solved_under.add(board.rules)
                task.append((i, board))
                tiles += board._state.tiles
                # A task goes when full, or at once while a worker may be idle (a slow
                # generator then never makes the workers wait for a task to fill).
                if tiles >= _TASK_TILES or len(task) >= _TASK_BOARDS or in_flight < n_workers:
                    pool.submit(task)
                    in_flight += 1
                    task, tiles = [], 0
            if exhausted and task:
                pool.submit(task)
                in_flight += 1
                task = []
            if not in_flight:
                break
            done = pool.finished()
            in_flight -= len(done)
            # Lowest index first: the error reported for a batch with several failing boards
            # is the same whatever the timing.
            for i, row, error in sorted((board for task_done in done for board in task_done),
                                        key=lambda board: board[0]):
                if error is not None:
                    raise error
                columns.store(i, row)
                bar.update(columns.solvable)
    except BaseException:
        # Ctrl-C, a failing board or progress callback: skip the queued boards and stop the
        # ones being solved and rated, so that the join below is prompt.
        pool.cancel()
        raise
    finally:
        # Every thread has exited when analyze returns or raises.
        pool.close()


#: What a worker gives back for one board: (index, row, None), or (index, None, the exception).
_Result = Tuple[int, Any, Optional[BaseException]]


class _Pool:
    """analyze's worker threads: daemon threads over a queue of tasks, lists of (index, Board).

    Not concurrent.futures: its workers are joined when the interpreter exits, after every
    queued board is solved (an analyze in a daemon thread held the exit for as long as its
    boards took, and Ctrl-C could not cut that short), and it refuses work once the
    interpreter has begun to exit (an analyze in an atexit handler, or in a thread still
    running when the main thread ended, raised RuntimeError). These threads are joined by
    analyze itself. A thread is started per task submitted, up to ``n_workers`` (three
    boards on ``workers=100`` start three); where none can be started (at exit, on Python
    3.12+), the calling thread solves the boards."""

    def __init__(self, n_workers: int, solver: Solver, keep_moves: bool, rate: bool):
        self.n_workers = n_workers
        self.solver, self.keep_moves = solver, keep_moves
        self.ratings = _Ratings() if rate else None
        self.cancelled = False          # skip what is still queued
        self.tasks: "queue.SimpleQueue[Optional[List[Tuple[int, Board]]]]" = queue.SimpleQueue()
        self.done: "queue.SimpleQueue[List[_Result]]" = queue.SimpleQueue()
        self.threads: List[threading.Thread] = []

    def _start_thread(self) -> None:
        thread = threading.Thread(target=self._work, daemon=True,
                                  name=f"{THREAD_NAME_PREFIX}_{len(self.threads)}")
        try:
            thread.start()
        except RuntimeError:            # "can't create new thread at interpreter shutdown"
            return
        self.threads.append(thread)

    def _solve(self, task: List[Tuple[int, Board]]) -> List[_Result]:
        """(index, row, None) for each board of the task, up to the first whose solve raised:
        (index, None, the exception), raised in the calling thread as it would be there.
        Nothing is solved once the caller has cancelled."""
        results: List[_Result] = []
        for i, board in task:
            if self.cancelled:
                break
            try:
                results.append((i, _solve_one(self.solver, self.keep_moves, board,
                                              ratings=self.ratings), None))
            except BaseException as exc:
                results.append((i, None, exc))
                break
        return results

    def _work(self) -> None:
        while True:
            task = self.tasks.get()
            if task is None:
                return
            self.done.put(self._solve(task))

    def cancel(self) -> None:
        """Skip the queued boards and stop the ones being solved or rated: the solver's
        cancel() and the ratings' make their running kernels return at their next check."""
        self.cancelled = True
        cancel = getattr(self.solver, "cancel", None)
        if cancel is not None:
            cancel()
        if self.ratings is not None:
            self.ratings.cancel()

    def submit(self, task: List[Tuple[int, Board]]) -> None:
        if len(self.threads) < self.n_workers:
            self._start_thread()
        if self.threads:
            self.tasks.put(task)
        else:
            self.done.put(self._solve(task))

    def finished(self) -> List[List[_Result]]:
        """The results of the tasks finished since the last call, a list per task: waits for
        one at most _POLL_SECONDS, so that the calling thread acts on a KeyboardInterrupt
        promptly on every platform."""
        try:
            found = [self.done.get(timeout=_POLL_SECONDS)]
        except queue.Empty:
            return []
        while True:
            try:
                found.append(self.done.get_nowait())
            except queue.Empty:
                return found

    def close(self) -> None:
        for _ in self.threads:
            self.tasks.put(None)
        for thread in self.threads:
            thread.join()


def analysis_threads() -> List[threading.Thread]:
    """Threads of analyze's pools that are still alive (for tests and diagnostics)."""
    return [t for t in threading.enumerate() if t.name.startswith(THREAD_NAME_PREFIX)]
