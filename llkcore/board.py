"""Board: one game position with its rules, history and index; plus the module-level queries.

The facade validates everything (grid dtype and shape, points, rules) and converts user
coordinates to the kernels' padded cell indices; the kernels trust what they get.
"""
from __future__ import annotations

import operator
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

from ._core import link as _link
from ._core import pairs as _pairs
from ._core.state import GridState
from .errors import BoardError, CoordinateError, IllegalMove
from .index import Index
from .rules import Rules, as_rules

Point = Tuple[int, int]
Move = Tuple[Point, Point]
GridLike = Union["Board", np.ndarray, Sequence[Sequence[int]]]

#: Largest number of rows and of columns a board may have.
MAX_SIDE = 1024

_INT32_MIN = -(2**31)
_INT32_MAX = 2**31 - 1

# First item of an undo/redo record for a reshuffle (removal records start with a cell index).
_SHUFFLE = "shuffle"


def as_grid_array(grid: Any) -> np.ndarray:
    """Validate a grid and return it as a C-contiguous int32 (rows, cols) array (a new copy).

    Accepts a 2-D ndarray of any integer dtype and memory order, or a list of equal-length
    lists of ints. Raises BoardError on anything else.
    """
    if isinstance(grid, Board):
        return np.array(grid.grid, dtype=np.int32)
    if isinstance(grid, np.ndarray):
        arr = grid
    else:
        if isinstance(grid, (str, bytes)) or not isinstance(grid, Iterable):
            raise BoardError(f"a board must be a 2-D grid of ints, got {type(grid).__name__}")
        rows = [row for row in grid]
        if not rows:
            raise BoardError("a board must have at least one row")
        widths = set()
        for row in rows:
            if isinstance(row, (str, bytes)) or not hasattr(row, "__len__"):
                raise BoardError(f"each row of a board must be a sequence of ints, got {type(row).__name__}")
            widths.add(len(row))
        if len(widths) != 1:
            raise BoardError(f"ragged board: rows have lengths {sorted(widths)}")
        try:
            arr = np.array(rows)
        except (ValueError, TypeError, OverflowError) as exc:
            raise BoardError(f"a board must be a 2-D grid of ints: {exc}") from None
        if arr.dtype.kind in "iu" and any(isinstance(v, (bool, np.bool_)) for row in rows for v in row):
            # numpy would read True as 1; a bool is not a tile type.
            raise BoardError("board values must be integers, got a bool")
        if arr.dtype == object:
            # Python ints beyond int64, or mixed objects.
            if all(isinstance(v, int) and not isinstance(v, bool) for v in arr.ravel()):
                raise BoardError("board values must fit in int32")
            raise BoardError("board values must be ints")
    if arr.ndim != 2:
        raise BoardError(f"a board must be 2-D, got {arr.ndim} dimension(s)")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise BoardError(f"a board must not be empty, got shape {arr.shape}")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise BoardError(f"board values must be integers, got dtype {arr.dtype}")
    if arr.shape[0] > MAX_SIDE or arr.shape[1] > MAX_SIDE:
        raise BoardError(f"a board may have at most {MAX_SIDE} rows and {MAX_SIDE} columns, got {arr.shape}")
    if arr.dtype.itemsize > 4 or arr.dtype == np.uint32:
        lo, hi = int(arr.min()), int(arr.max())
        if lo < _INT32_MIN or hi > _INT32_MAX:
            raise BoardError(f"board values must fit in int32, got range [{lo}, {hi}]")
    return np.array(arr, dtype=np.int32, order="C", copy=True)


def _as_int(value: Any, what: str) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise CoordinateError(f"{what} must be an int, got bool")
    try:
        return operator.index(value)
    except TypeError:
        raise CoordinateError(f"{what} must be an int, got {type(value).__name__}") from None


class Board:
    """A game position: the grid, the rules, the type index, undo/redo history.

    The constructor copies the grid; with gravity the board starts compacted. Build one Board per
    screen and query it: each module-level function converts its grid on every call.
    """

    __slots__ = ("_state", "_rules", "_rows", "_cols", "_width", "_turns", "_gravity",
                 "_undo", "_redo", "certificate", "__weakref__")

    def __init__(self, grid: GridLike, rules: Optional[Rules] = None) -> None:
        self._build(grid, as_rules(rules), compact=True)

    def _build(self, grid: GridLike, rules: Rules, compact: bool) -> None:
        self._init_state(GridState(as_grid_array(grid), rules.border), rules)
        if compact and rules.gravity is not None:
            self._state.compact(self._gravity)
        #: The removal sequence that clears this board, when it was generated or reshuffled.
        self.certificate: Optional[List[Move]] = None

    def _init_state(self, state: GridState, rules: Rules) -> None:
        self._state = state
        self._rules = rules
        self._rows = state.rows
        self._cols = state.cols
        self._width = state.width
        self._turns = rules.max_turns
        self._gravity = rules.gravity_code
        self._undo: list = []
        self._redo: list = []

    # ---- construction from and to text ------------------------------------------------------

    @classmethod
    def from_text(cls, text: str, rules: Optional[Rules] = None) -> "Board":
        """Parse rows of whitespace-separated ints; ``.`` stands for 0 and ``#`` for a wall (-1).

        Blank lines are ignored.
        """
        return cls(parse_text(text), rules=rules)

    def to_text(self) -> str:
        """The grid as text that from_text reads back: ``.`` for empty, ``#`` for -1."""
        return grid_to_text(self.grid)

    # ---- read-only state ----------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def rows(self) -> int:
        return self._rows

    @property
    def cols(self) -> int:
        return self._cols

    @property
    def shape(self) -> Tuple[int, int]:
        return (self._rows, self._cols)

    @property
    def grid(self) -> np.ndarray:
        """Read-only int32 view of the current grid (live: copy it to keep a snapshot)."""
        return self._state.grid_view()

    @property
    def tiles_left(self) -> int:
        return self._state.tiles

    def __repr__(self) -> str:
        return f"Board({self._rows}x{self._cols}, tiles_left={self.tiles_left}, rules={self._rules!r})"

    # ---- points -------------------------------------------------------------------------------

    def _cell(self, point: Any) -> int:
        """Padded cell index of a (row, col) point on the board; CoordinateError otherwise."""
        try:
            r, c = point
        except (TypeError, ValueError):
            raise CoordinateError(f"a point must be a (row, col) pair, got {point!r}") from None
        if type(r) is not int:
            r = _as_int(r, "row")
        if type(c) is not int:
            c = _as_int(c, "col")
        if not (0 <= r < self._rows and 0 <= c < self._cols):
            raise CoordinateError(f"point {(r, c)} is off the {self._rows}x{self._cols} board")
        return (r + 1) * self._width + c + 1

    def _point(self, cell: int) -> Point:
        r, c = divmod(int(cell), self._width)
        return (r - 1, c - 1)

    def _cells_array(self, queries: Any) -> np.ndarray:
        """Validate a (k, 4) array of (r1, c1, r2, c2) and return (k, 2) padded cells."""
        q = np.asarray(queries)
        if q.ndim == 1 and q.size == 0:
            return np.empty((0, 2), dtype=np.int32)     # [] : no queries
        if q.ndim != 2 or q.shape[1] != 4:
            raise CoordinateError(f"queries must have shape (k, 4), got {q.shape}")
        if q.shape[0] == 0:
            return np.empty((0, 2), dtype=np.int32)
        if q.dtype == np.bool_ or not np.issubdtype(q.dtype, np.integer):
            raise CoordinateError(f"queries must be integers, got dtype {q.dtype}")
        rows = q[:, 0::2]
        cols = q[:, 1::2]
        bad = (rows < 0) | (rows >= self._rows) | (cols < 0) | (cols >= self._cols)
        if bad.any():
            i = int(np.argwhere(bad)[0][0])
            raise CoordinateError(f"query {i} {tuple(int(v) for v in q[i])} is off the "
                                  f"{self._rows}x{self._cols} board")
        cells = (rows.astype(np.int64) + 1) * self._width + cols + 1
        return np.ascontiguousarray(cells, dtype=np.int32)

    # ---- queries ------------------------------------------------------------------------------

    def can_link(self, a: Point, b: Point) -> bool:
        """True iff the tiles at a and b can be removed together now.

        Same cell, an empty or wall endpoint, or different types give False, not an error.
        """
        return _link.link(self._state, self._cell(a), self._cell(b), self._turns)

    def can_link_many(self, queries: Any) -> np.ndarray:
        """Answer many link queries in one GIL-free call.

        queries: (k, 4) integer array-like of (r1, c1, r2, c2). Returns a (k,) bool array.
        """
        cells = self._cells_array(queries)
        return _link.link_many(self._state, cells, self._turns).view(np.bool_)

    def find_path(self, a: Point, b: Point) -> Optional[List[Point]]:
        """Corner points of the path to draw (endpoints included), or None if they do not link.

        The path has the fewest turns, then the shortest length; ties break deterministically.
        Points on the ring outside the board have row -1 / rows or col -1 / cols.
        """
        return _link.path(self._state, self._cell(a), self._cell(b), self._turns)

    def moves(self) -> List[Move]:
        """Every removable pair ((r1, c1), (r2, c2)) with the first point smaller, sorted."""
        return [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in self.moves_array().tolist()]

    def moves_array(self) -> np.ndarray:
        """Every removable pair as a sorted (k, 4) int32 array of (r1, c1, r2, c2)."""
        return _pairs.moves_points(self._state, self._turns)

    def hint(self) -> Optional[Move]:
        """The move to suggest, or None when stuck or clear.

        Deterministic: fewest turns, then shortest path, then the smallest pair.
        """
        found = _pairs.hint(self._state, self._turns)
        if found is None:
            return None
        return (self._point(found[0]), self._point(found[1]))

    def is_clear(self) -> bool:
        return self._state.tiles == 0

    def is_stuck(self) -> bool:
        """Tiles are left and no pair can be removed."""
        return self._state.tiles > 0 and not _pairs.has_move(self._state, self._turns)

    @property
    def index(self) -> Index:
        """Type -> positions view of the tiles left (live)."""
        return Index(self)

    # ---- moves and history --------------------------------------------------------------------

    def _check_move(self, a: Any, b: Any) -> Tuple[int, int, List[Point]]:
        """Padded cells and path of a legal removal, or IllegalMove saying why not."""
        try:
            pa = self._cell(a)
            pb = self._cell(b)
        except CoordinateError as exc:
            raise IllegalMove(str(exc)) from None
        if pa == pb:
            raise IllegalMove(f"{a} and {b} are the same cell")
        for p, pt in ((pa, a), (pb, b)):
            v = self._state.value_at(p)
            if v == 0:
                raise IllegalMove(f"{tuple(pt)} is empty")
            if v < 0:
                raise IllegalMove(f"{tuple(pt)} is a wall")
        va, vb = self._state.value_at(pa), self._state.value_at(pb)
        if va != vb:
            raise IllegalMove(f"{tuple(a)} holds type {va} and {tuple(b)} type {vb}: not the same type")
        path = _link.path(self._state, pa, pb, self._turns)
        if path is None:
            raise IllegalMove(f"no path joins {tuple(a)} and {tuple(b)} within "
                              f"{self._turns} turn(s)")
        return pa, pb, path

    def remove(self, a: Point, b: Point) -> List[Point]:
        """Remove the pair at a and b and apply gravity; returns the path used.

        Raises IllegalMove (board unchanged) if the rules forbid it. Clears the redo list.
        """
        pa, pb, path = self._check_move(a, b)
        self._apply(pa, pb)
        self._redo.clear()
        return path

    def _apply(self, pa: int, pb: int) -> None:
        value = self._state.value_at(pa)
        moved = self._state.remove_pair(pa, pb, self._gravity)
        self._undo.append((pa, pb, value, moved))

    def undo(self) -> bool:
        """Take back the last removal (gravity included) or reshuffle exactly. False if none."""
        if not self._undo:
            return False
        record = self._undo.pop()
        if record[0] == _SHUFFLE:
            _, cells, before, _, certificate_before, _ = record
            self._state.retype(cells, before)
            self.certificate = certificate_before
            self._redo.append(record)
            return True
        pa, pb, value, moved = record
        self._state.restore_pair(pa, pb, value, value, moved)
        self._redo.append((pa, pb))
        return True

    def redo(self) -> bool:
        """Replay the last undone removal or reshuffle. False if there is none."""
        if not self._redo:
            return False
        record = self._redo.pop()
        if record[0] == _SHUFFLE:
            self._state.retype(record[1], record[3])
            self.certificate = record[5]
            self._undo.append(record)
            return True
        pa, pb = record
        self._apply(pa, pb)
        return True

    def shuffle(self, *, solvable: bool = True, seed: Optional[int] = None) -> None:
        """Redistribute the types of the tiles left over the same cells, as one undoable step.

        Tiles, walls and the multiset of types stay. ``solvable=True``: the result can be cleared
        and ``certificate`` becomes a removal sequence that clears it; raises llk.DealError
        (board unchanged) if some type has an odd count or no random playout clears the
        occupied cells under the rules. ``solvable=False``: a uniform permutation, certificate
        None. ``seed`` as in llk.generate. Clears the redo list; undo() restores the old types
        and certificate exactly.
        """
        from .generate import reshuffle_types

        cells, before, after, certificate = reshuffle_types(
            self._state, self._rules, solvable=solvable, seed=seed)
        record = (_SHUFFLE, cells, before, after, self.certificate, certificate)
        self._state.retype(cells, after)
        self.certificate = certificate
        self._undo.append(record)
        self._redo.clear()

    @property
    def history(self) -> List[Move]:
        """The removals made so far (undone ones excluded), as ((r1, c1), (r2, c2)).

        Reshuffles are steps of the undo history but not removals, so they are not listed.
        """
        return [(self._point(r[0]), self._point(r[1])) for r in self._undo if r[0] != _SHUFFLE]

    def __reduce__(self):
        # Pickles the position, rules and certificate (not the undo history): enough to ship a
        # board to another process (batch analysis, Dask).
        return (_unpickle_board, (np.array(self.grid), self._rules, self.certificate))

    def __copy__(self) -> "Board":
        return self.copy()

    def __deepcopy__(self, memo: dict) -> "Board":
        return self.copy()

    def copy(self) -> "Board":
        """An independent copy (grid, index, history, certificate)."""
        other = Board.__new__(Board)
        other._init_state(self._state.copy(), self._rules)
        other._undo = list(self._undo)
        other._redo = list(self._redo)
        other.certificate = None if self.certificate is None else list(self.certificate)
        return other


def _unpickle_board(grid: np.ndarray, rules: Rules, certificate: Optional[List[Move]]) -> Board:
    board = Board(grid, rules=rules)
    board.certificate = certificate
    return board


def parse_text(text: str) -> List[List[int]]:
    """Rows of whitespace-separated ints (``.`` = 0, ``#`` = -1) into a list of lists."""
    if not isinstance(text, str):
        raise BoardError(f"board text must be str, got {type(text).__name__}")
    grid = []
    for lineno, line in enumerate(text.splitlines(), 1):
        tokens = line.split()
        if not tokens:
            continue
        row = []
        for tok in tokens:
            if tok == ".":
                row.append(0)
            elif tok == "#":
                row.append(-1)
            else:
                try:
                    row.append(int(tok))
                except ValueError:
                    raise BoardError(f"line {lineno}: {tok!r} is not an int, '.' or '#'") from None
        grid.append(row)
    if not grid:
        raise BoardError("board text has no rows")
    return grid


def grid_to_text(grid: np.ndarray) -> str:
    cells = [["." if v == 0 else "#" if v == -1 else str(int(v)) for v in row] for row in grid]
    width = max(len(s) for row in cells for s in row)
    return "\n".join(" ".join(s.rjust(width) for s in row) for row in cells) + "\n"


def _board(grid: GridLike, rules: Optional[Rules], *, for_play: bool = True) -> Board:
    """The Board a module-level call works on: the given Board itself, or a new one.

    For play (solve, verify) a new Board starts compacted under gravity, like any Board. A
    one-off query (``for_play=False``) answers for the grid exactly as given: gravity only says
    what happens after a removal.
    """
    if isinstance(grid, Board):
        if rules is not None and as_rules(rules) != grid.rules:
            raise ValueError("rules= conflicts with the Board's own rules")
        return grid
    board = Board.__new__(Board)
    board._build(grid, as_rules(rules), compact=for_play)
    board.certificate = None
    return board


def can_link(grid: GridLike, a: Point, b: Point, *, rules: Optional[Rules] = None) -> bool:
    """True iff the tiles at a and b of ``grid`` can be removed together under ``rules``."""
    return _board(grid, rules, for_play=False).can_link(a, b)


def find_path(grid: GridLike, a: Point, b: Point, *, rules: Optional[Rules] = None) -> Optional[List[Point]]:
    """Corner points of the best path joining a and b, or None (see Board.find_path)."""
    return _board(grid, rules, for_play=False).find_path(a, b)


def moves(grid: GridLike, *, rules: Optional[Rules] = None) -> List[Move]:
    """Every removable pair of ``grid`` under ``rules`` (see Board.moves)."""
    return _board(grid, rules, for_play=False).moves()
