"""Analysis: the per-board results of a batch run, their summary and their export.

``llk.analyze`` (batch.py) and ``llkcore.dask.analyze`` both return one; it holds numpy arrays
in input order plus the parameters of the run, so a saved result says how to reproduce it.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np
import numpy.typing as npt

from .checks import shown
from .checks import seconds as seconds_limit
from .coords import Move
from .rules import Rules
from .solver import STRATEGIES, Verdict

#: Names of the per-board fields, in record order.
FIELDS = ("verdict", "initial_moves", "solution_length", "nodes", "seconds")
DTYPES = {"verdict": np.int8, "initial_moves": np.int32, "solution_length": np.int32,
           "nodes": np.int64, "seconds": np.float64}
#: Per-board difficulty columns (``analyze(..., rate=True)``; llkcore.difficulty): the score, the
#: random-clear rate, the trap rate (NaN where the careful game met no winnable position) and the
#: branching.
RATING_FIELDS = ("score", "clear_rate", "trap_rate", "branching")
#: The values each rating column may hold, NaN aside (not rated, or cut by the time limit).
_RATING_RANGES = {"score": (0.0, 100.0), "clear_rate": (0.0, 1.0), "trap_rate": (0.0, 1.0),
                  "branching": (0.0, math.inf)}
#: The five FIELDS columns, in that order (Analysis's first five arguments).
Columns = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]
_VERDICT_NAMES = {int(v): v.name.lower() for v in Verdict}
_QUANTILES = (("median", 50.0), ("p90", 90.0), ("p99", 99.0))
class Summary(dict):
    """The summary of an Analysis: a plain dict (JSON-serialisable) that prints as a table.

    Keys: ``boards``; ``verdicts`` -> {name: {"count", "fraction"}}; ``initial_moves``,
    ``solution_length`` (solvable boards only), ``nodes``, ``seconds`` -> {"mean", "median",
    "p90", "p99", "max"} (None when there is no board; ``initial_moves`` over the boards whose
    count finished, and ``uncounted`` is how many ran past their time limit); ``total_seconds``
    (sum of per-board times), ``wall_seconds``, ``boards_per_second``, ``workers``,
    ``strategy``; with ratings also ``score``, ``clear_rate``, ``trap_rate``, ``branching``
    (the same statistics, over the boards that have the value) and ``ratings_cut`` (how many
    ratings the time limit cut: their cut values are NaN).
    """

    def __str__(self) -> str:
        return _format_summary(self)


class Analysis:
    """Per-board results of ``analyze``, one entry per input board, in input order.

    Arrays: ``verdict`` (int8, ``llk.Verdict`` values), ``initial_moves`` (int32, removable pairs
    at the start; -1 when listing them ran past the board's time limit), ``solution_length``
    (int32, removals in the solution, -1 when none was found), ``nodes`` (int64, search nodes),
    ``seconds`` (float64, the board's time: counting its initial moves and solving it, which its
    time limit bounds; a rating is not included). ``moves`` is a list of solutions (None where
    not solvable) when ``keep_moves=True`` was asked, else None.
    ``ratings``: with ``rate=True``, a dict of float64 arrays, one per RATING_FIELDS name
    (``llk.rate`` of each board with its defaults; NaN where the run's time limit cut the
    rating: ``llk.analyze``), else None.

    Also: ``strategy``, ``rules`` (the rules every board was solved under: as passed to
    analyze, or the Boards' own when they share one set; None when they differ),
    ``node_limit``, ``time_limit``, ``workers`` (threads; for Dask the cluster's
    threads) and ``wall_seconds`` (the whole run).
    """

    def __init__(self, verdict: Any, initial_moves: Any, solution_length: Any, nodes: Any,
                 seconds: Any, moves: Optional[List[Optional[List[Move]]]] = None, *,
                 strategy: str = "exact", rules: Optional[Rules] = None,
                 node_limit: Optional[int] = None, time_limit: Optional[float] = None,
                 workers: Optional[int] = None, wall_seconds: Optional[float] = None,
                 ratings: Optional[Dict[str, Any]] = None) -> None:
        columns = dict(zip(FIELDS, (verdict, initial_moves, solution_length, nodes, seconds)))
        n = None
        for name, values in columns.items():
            arr = _result_array(name, values)
            if n is not None and arr.shape[0] != n:
                raise ValueError(f"Analysis.{name} has {arr.shape[0]} entries, expected {n}")
            n = arr.shape[0]
            setattr(self, name, arr)
        if moves is not None and len(moves) != n:
            raise ValueError(f"Analysis.moves has {len(moves)} entries, expected {n}")
        self.moves: Optional[List[Optional[List[Move]]]] = None if moves is None else list(moves)
        self.ratings: Optional[Dict[str, np.ndarray]] = None
        if ratings is not None:
            if not isinstance(ratings, Mapping):
                raise TypeError(f"Analysis.ratings must be a dict of columns, got "
                                f"{type(ratings).__name__}")
            missing = [name for name in RATING_FIELDS if name not in ratings]
            if missing:
                raise ValueError(f"Analysis.ratings needs every one of {RATING_FIELDS}; it lacks "
                                 f"{missing}")
            self.ratings = {name: _rating_array(name, ratings[name]) for name in RATING_FIELDS}
            if any(arr.shape != (n,) for arr in self.ratings.values()):
                raise ValueError(f"Analysis.ratings must hold {n} entries per field")
            for name, arr in self.ratings.items():
                bad = _out_of_range(name, arr)
                if bad is not None:     # (an infinity would also be written as invalid JSON)
                    raise ValueError(f"Analysis.ratings[{name!r}][{bad}] is out of range: "
                                     f"{float(arr[bad])!r}")
        self.strategy = strategy
        self.rules = rules
        # Plain ints and floats (numpy scalars are accepted as limits), no limit as None: to_dict
        # is JSON, and an infinite time limit is none.
        self.node_limit = None if node_limit is None else int(node_limit)
        self.time_limit = seconds_limit(time_limit, "time_limit")
        self.workers = workers
        self.wall_seconds = wall_seconds

    # Attributes set in __init__; declared for type checkers.
    verdict: npt.NDArray[np.int8]
    initial_moves: npt.NDArray[np.int32]
    solution_length: npt.NDArray[np.int32]
    nodes: npt.NDArray[np.int64]
    seconds: npt.NDArray[np.float64]

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
        """Boards decided a second of wall time (None when the time is unknown)."""
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
        extra: Dict[str, Any] = {}
        if self.ratings is not None:
            extra = {name: _stats(values[~np.isnan(values)]) for name, values in self.ratings.items()}
            # The score is NaN only when the clock cut the playouts; the branching is also NaN
            # when the board had no move, which its initial_moves of 0 tells.
            cut = np.isnan(self.ratings["score"]) | (
                np.isnan(self.ratings["branching"]) & (self.initial_moves != 0))
            extra["ratings_cut"] = int(np.count_nonzero(cut))
        return Summary(
            **extra,
            boards=n,
            verdicts=verdicts,
            initial_moves=_stats(self.initial_moves[self.initial_moves >= 0]),
            uncounted=int(np.count_nonzero(self.initial_moves < 0)),
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
            if self.ratings is not None:
                rec.update({name: _float_or_none(values[i]) for name, values in self.ratings.items()})
            records.append(rec)
        return records

    def to_dataframe(self) -> Any:
        """The records as a pandas DataFrame (``pip install "llkcore[pandas]"``), built from the
        arrays: the keys of ``to_records`` as columns, in that order, and present even when there
        is no board (so frames of several runs concatenate). Typed: verdict is a categorical of
        the three names, the counts are integers, seconds and the ratings floats (NaN where
        ``to_records`` has None); moves, when kept, are lists of Moves (None where not solvable)."""
        try:
            import pandas
        except ImportError:
            raise ImportError('Analysis.to_dataframe needs pandas: pip install "llkcore[pandas]" '
                              "(or pip install pandas); to_records() needs nothing") from None
        names = [_VERDICT_NAMES[v] for v in sorted(_VERDICT_NAMES, reverse=True)]
        columns: Dict[str, Any] = {
            "index": np.arange(len(self), dtype=np.int64),
            "verdict": pandas.Categorical([_VERDICT_NAMES[v] for v in self.verdict.tolist()],
                                          categories=names),
        }
        columns.update((name, getattr(self, name)) for name in FIELDS[1:])
        if self.moves is not None:
            columns["moves"] = pandas.Series(self.moves, dtype=object)
        if self.ratings is not None:
            columns.update(self.ratings)
        return pandas.DataFrame(columns)

    def to_dict(self) -> Dict[str, Any]:
        """JSON-serialisable: the parameters, the summary and the per-board arrays as lists."""
        rules = None if self.rules is None else self.rules.to_dict()
        boards: Dict[str, Any] = {name: getattr(self, name).tolist() for name in FIELDS}
        boards["verdict_name"] = [_VERDICT_NAMES[v] for v in boards["verdict"]]
        if self.ratings is not None:
            boards.update({name: [_float_or_none(v) for v in values]
                           for name, values in self.ratings.items()})
        if self.moves is not None:
            boards["moves"] = [None if m is None else [[a[0], a[1], b[0], b[1]] for a, b in m]
                               for m in self.moves]
        return {
            "parameters": {"strategy": self.strategy, "rules": rules, "node_limit": self.node_limit,
                           "time_limit": self.time_limit, "workers": self.workers},
            "summary": dict(self.summary()),
            "boards": boards,
        }

    @classmethod
    def from_dict(cls, data: Any) -> "Analysis":
        """The Analysis a ``to_dict`` document describes (also the file ``llk analyze --json``
        writes, whose extra keys are ignored), e.g. after ``json.load``. The timings come back
        too; ``same_results`` compares a reloaded result with a new run. ValueError when the
        document is not one."""
        boards = data.get("boards") if isinstance(data, dict) else None
        params = data.get("parameters", {}) if isinstance(data, dict) else None
        if not isinstance(boards, dict) or not isinstance(params, dict):
            raise ValueError('an Analysis document is a dict with "parameters" and "boards" '
                             "(what Analysis.to_dict writes)")
        missing = [name for name in FIELDS if name not in boards]
        if missing:
            raise ValueError(f'an Analysis document\'s "boards" lacks {missing}')
        summary = data.get("summary") or {}
        if not isinstance(summary, dict):
            raise ValueError(f'an Analysis document\'s "summary" must be a dict, got '
                             f"{type(summary).__name__}")
        # Every value is checked here, so that a document that loads also prints, exports and
        # compares (a verdict of 5 loaded, then to_records raised KeyError).
        columns = [_column_in(boards, name) for name in FIELDS]
        moves = _moves_in(boards.get("moves"))
        ratings = None
        rated = [name in boards for name in RATING_FIELDS]
        if any(rated) and not all(rated):
            raise ValueError(f'an Analysis document\'s "boards" has some of the rating columns '
                             f"{RATING_FIELDS}, not all")
        if all(rated):
            ratings = {name: _column_in(boards, name) for name in RATING_FIELDS}
        rules = params.get("rules")
        try:
            rules = None if rules is None else Rules.from_dict(rules)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"an Analysis document's rules: {exc}") from None
        strategy = params.get("strategy", "exact")
        if strategy not in STRATEGIES:
            raise ValueError(f"an Analysis document's strategy must be one of {STRATEGIES}, got "
                             f"{strategy!r}")
        verdict, initial_moves, solution_length, nodes, seconds = columns
        return cls(verdict, initial_moves, solution_length, nodes, seconds, moves,
                   strategy=strategy, rules=rules,
                   node_limit=_number_in(params, "node_limit", int, 0),
                   time_limit=_number_in(params, "time_limit", float, 0),
                   workers=_number_in(params, "workers", int, 1),
                   wall_seconds=_number_in(summary, "wall_seconds", float, 0), ratings=ratings)

    def same_results(self, other: "Analysis") -> bool:
        """True iff both hold the same boards' results: every field but the timings is equal,
        and so are the moves and the ratings when both have them (one run with ``rate=True``
        and one without can still be the same results)."""
        if len(self) != len(other):
            return False
        for name in ("verdict", "initial_moves", "solution_length", "nodes"):
            if not np.array_equal(getattr(self, name), getattr(other, name)):
                return False
        if self.ratings is not None and other.ratings is not None:
            if not all(np.array_equal(self.ratings[name], other.ratings[name], equal_nan=True)
                       for name in RATING_FIELDS):
                return False
        if self.moves is not None and other.moves is not None:
            return _normal_moves(self.moves) == _normal_moves(other.moves)
        return True

    @classmethod
    def concat(cls, parts: Sequence["Analysis"], *, workers: Optional[int] = None,
               wall_seconds: Optional[float] = None) -> "Analysis":
        """One Analysis of several, in the given order (moves kept only if every part kept them,
        ratings only if every part has them).

        The parts that hold boards must share their strategy and limits (ValueError otherwise:
        one Analysis states one of each); the rules are the parts' when every part that holds
        boards has the same, else None (as analyze of Boards of several rules gives).
        """
        if isinstance(parts, (str, bytes)) or not hasattr(parts, "__iter__"):
            raise TypeError(f"Analysis.concat takes a sequence of Analysis, got "
                            f"{type(parts).__name__}")
        parts = list(parts)
        stray = next((p for p in parts if not isinstance(p, Analysis)), None)
        if stray is not None:
            raise TypeError(f"Analysis.concat joins Analysis results, got a "
                            f"{type(stray).__name__}")
        if not parts:
            return cls(*columns_of(lambda name: np.empty(0, DTYPES[name])),
                       workers=workers, wall_seconds=wall_seconds)
        held = [p for p in parts if len(p)] or parts[:1]
        for name in ("strategy", "node_limit", "time_limit"):
            values = [getattr(p, name) for p in held]
            if any(v != values[0] for v in values):
                raise ValueError(f"Analysis.concat joins runs of one strategy and limits; these "
                                 f"parts differ in {name}: {values[0]!r} and "
                                 f"{next(v for v in values if v != values[0])!r}")
        keep = all(p.moves is not None for p in parts)
        moves = [m for p in parts for m in p.moves] if keep else None  # type: ignore[union-attr]
        rated = all(p.ratings is not None for p in parts)
        ratings = {name: np.concatenate([p.ratings[name] for p in parts])  # type: ignore[index]
                   for name in RATING_FIELDS} if rated else None
        first = held[0]
        shared = {p.rules for p in held}
        return cls(*columns_of(lambda name: np.concatenate([getattr(p, name) for p in parts])),
                   moves, strategy=first.strategy,
                   rules=shared.pop() if len(shared) == 1 else None,
                   node_limit=first.node_limit, time_limit=first.time_limit,
                   workers=workers, wall_seconds=wall_seconds, ratings=ratings)


def columns_of(column: Callable[[str], np.ndarray]) -> Columns:
    """``column(name)`` for each name of FIELDS, in order."""
    verdict, initial_moves, solution_length, nodes, seconds = map(column, FIELDS)
    return verdict, initial_moves, solution_length, nodes, seconds


def _normal_moves(moves: List[Optional[List[Move]]]) -> list:
    return [None if m is None else [tuple(map(tuple, pair)) for pair in m] for m in moves]


def _float_or_none(value: float) -> Optional[float]:
    return None if np.isnan(value) else float(value)


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
    rows: Tuple[Tuple[str, str, float], ...] = (
        ("initial moves", "initial_moves", 1.0), ("solution length", "solution_length", 1.0),
        ("nodes", "nodes", 1.0), ("seconds (ms)", "seconds", 1000.0))
    if "score" in s:
        rows += (("difficulty score", "score", 1.0), ("random-clear rate", "clear_rate", 1.0),
                 ("trap rate", "trap_rate", 1.0), ("branching", "branching", 1.0))
    for label, key, scale in rows:
        stats = s[key]
        lines.append(f"{label:<18}" + "".join(f"{_fmt_number(stats[c], scale):>10}" for c in cols))
    cut = s.get("ratings_cut", 0)
    if cut:
        lines.append(f"(ratings: the time limit cut the rating of {cut} "
                     f"board{'s' if cut != 1 else ''}; what it cut is left out)")
    uncounted = s.get("uncounted", 0)
    if uncounted:
        lines.append(f"(initial moves: {uncounted} board{'s' if uncounted != 1 else ''} not counted, "
                     "the listing ran past the time limit)")
    return "\n".join(lines)


#: What each column of an Analysis document may hold: (Python type, least value, greatest value,
#: None allowed). Ratings are NaN (None in JSON) where not rated or no winnable position was met;
#: their ranges are _RATING_RANGES.
_COLUMN_VALUES: Dict[str, Tuple[type, float, Optional[float], bool]] = {
    "verdict": (int, min(_VERDICT_NAMES), max(_VERDICT_NAMES), False),
    "initial_moves": (int, -1, 2**31 - 1, False),
    "solution_length": (int, -1, 2**31 - 1, False),
    "nodes": (int, 0, 2**63 - 1, False),
    "seconds": (float, 0, None, False),
    **{name: (float, low, high, True) for name, (low, high) in _RATING_RANGES.items()},
}


def _rating_array(name: str, values: Any) -> np.ndarray:
    """A rating column given to Analysis as float64: ints and floats only (a bool, a complex
    number or an int past a float's range is no rating)."""
    try:
        column = np.asarray(values)
        if column.dtype.kind not in "iuf":
            raise TypeError
        return np.ascontiguousarray(column, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"Analysis.ratings[{name!r}] must hold ints and floats only, got "
                         f"{shown(values)}") from None


def _result_array(name: str, values: Any) -> np.ndarray:
    """One of the five FIELDS columns given to Analysis, as its 1-D array of DTYPES, every value
    one the column can hold (_COLUMN_VALUES): a verdict of 5 or negative nodes made summary()
    miscount and to_records raise, and to_dict write a file from_dict refuses."""
    raw = np.asarray(values)
    if raw.ndim != 1:
        raise ValueError(f"Analysis.{name} must be 1-D, got shape {raw.shape}")
    if raw.size and raw.dtype.kind not in "iuf":
        raise ValueError(f"Analysis.{name} must hold numbers, got {shown(values)}")
    arr = np.ascontiguousarray(raw, dtype=DTYPES[name])
    bad = _out_of_range(name, arr)
    if bad is None:
        changed = np.flatnonzero(arr != raw)     # not held exactly (1.5 as an int, 300 as int8)
        bad = int(changed[0]) if changed.size else None
    if bad is not None:
        raise ValueError(f"Analysis.{name}[{bad}] is out of range: {raw[bad].item()!r}")
    return arr


def _out_of_range(name: str, column: np.ndarray) -> Optional[int]:
    """The first index of the column ``name`` (as its array) whose value the column cannot hold
    (_COLUMN_VALUES: NaN only in a rating, an infinity nowhere), or None."""
    _, low, high, rating = _COLUMN_VALUES[name]
    ok = np.isfinite(column) & (column >= low)
    if high is not None:
        ok &= column <= high
    if rating:
        ok |= np.isnan(column)
    return None if ok.all() else int(np.argmin(ok))


def _number_in(where: Dict[str, Any], name: str, kind: type, low: float) -> Any:
    """``where[name]`` checked as an Analysis document's number >= low, or None (ValueError
    naming it). A float may be written as an int (JSON has one number type); a bool is none."""
    value = where.get(name)
    if value is None:
        return None
    if type(value) is not int and not (kind is float and type(value) is float):
        raise ValueError(f"an Analysis document's {name} must be "
                         f"{'an int' if kind is int else 'a number'}, got {shown(value)}")
    if not (math.isfinite(value) and value >= low):
        raise ValueError(f"an Analysis document's {name} is out of range: {shown(value)}")
    return value


def _column_in(boards: Dict[str, Any], name: str) -> np.ndarray:
    """The column ``name`` of an Analysis document's "boards", every value checked (in one pass
    and numpy's range tests: a column may hold millions of boards)."""
    values = boards[name]
    if not isinstance(values, list):
        raise ValueError(f"an Analysis document's boards.{name} must be a list, got "
                         f"{type(values).__name__}")
    kind, low, high, rating = _COLUMN_VALUES[name]
    allowed = (int,) if kind is int else (int, float, type(None)) if rating else (int, float)
    bad = next((i for i, v in enumerate(values) if type(v) not in allowed), None)
    if bad is not None:
        raise ValueError(f"an Analysis document's boards.{name}[{bad}] must be "
                         f"{'an int' if kind is int else 'a number'}, got {shown(values[bad])}")
    if rating:          # NaN (written as None): not rated, or no winnable position met
        try:
            column = np.array([np.nan if v is None else v for v in values], dtype=np.float64)
        except OverflowError:       # an int past a float's range
            bad = next(i for i, v in enumerate(values) if type(v) is int and abs(v) > 2**1000)
            raise ValueError(f"an Analysis document's boards.{name}[{bad}] is out of range: "
                             f"{shown(values[bad])}") from None
        bad_at = _out_of_range(name, column)
        if bad_at is not None:
            raise ValueError(f"an Analysis document's boards.{name}[{bad_at}] is out of range: "
                             f"{shown(values[bad_at])}")
        return column
    try:
        column = np.array(values, dtype=np.int64 if kind is int else np.float64)
    except OverflowError:           # an int past 64 bits
        column = np.array([v if abs(v) < 2**63 else int(low) - 1 for v in values], dtype=np.int64)
    bad = _out_of_range(name, column)
    if bad is not None:
        raise ValueError(f"an Analysis document's boards.{name}[{bad}] is out of range: "
                         f"{shown(values[bad])}")
    return column


def _moves_in(moves: Any) -> Optional[List[Optional[List[Move]]]]:
    """An Analysis document's solutions: None, or a list of None or lists of [r1, c1, r2, c2]."""
    if moves is None:
        return None
    if not isinstance(moves, list):
        raise ValueError(f"an Analysis document's boards.moves must be a list, got "
                         f"{type(moves).__name__}")
    out: List[Optional[List[Move]]] = []
    for i, solution in enumerate(moves):
        if solution is None:
            out.append(None)
            continue
        if not isinstance(solution, list) or not all(
                type(m) is list and len(m) == 4 and all(type(v) is int and v >= 0 for v in m)
                for m in solution):
            raise ValueError(f"an Analysis document's boards.moves[{i}] must be null or a list "
                             f"of [r1, c1, r2, c2] (ints >= 0), got {shown(solution)}")
        out.append([((r1, c1), (r2, c2)) for r1, c1, r2, c2 in solution])
    return out

