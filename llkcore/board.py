"""Board: one game position with its rules, history and index; and the module-level queries.

The facade checks everything a user passes in (checks.py; boards through the compiled reader,
``_core/reader.pyx``) and turns points into the kernels' padded cells (coords.py); the kernels
trust what they get. See docs/architecture.md ("Layers", "Threads").
"""
from __future__ import annotations

import copy
import itertools
import os
import re
import threading
import weakref
from typing import (TYPE_CHECKING, Any, Dict, Hashable, Iterable, List, Literal, Optional, Sequence,
                    Tuple, Type, TypeVar, Union, cast, overload)

import numpy as np
import numpy.typing as npt

from . import _deals, _insight
from ._core import link as _link
from ._core import pairs as _pairs
from ._core import playouts as _playouts
from ._core import state as _state
from ._core.reader import UNORDERED, GridReader, point_cells, row_point_cells
from ._core.state import MAX_SIDE, GridState
from ._files import text_of
from ._insight import Hint, Traps
from .checks import (flag, integer, is_array, label_key, move_sequence, node_budget,
                     point as check_point, seconds as check_seconds, shown)
from .coords import Move, Point, cells_of, move_array, moves_of, point_of, points_of, size_words
from .errors import BoardError, CoordinateError, IllegalMove
from . import saving
from .index import Index
from .rules import DEFAULT_RULES, Rules, as_rules
from .verdict import Verdict

if TYPE_CHECKING:
    from .render import Picture

GridLike = Union["Board", np.ndarray, Sequence[Sequence[int]]]
#: A Board or a subclass of it: copies, loads and parses keep the caller's class.
_B = TypeVar("_B", bound="Board")

# The picture maker (render.py) for ``_repr_svg_`` and ``show``. render.py sits above the Board
# (it builds Boards from grids and replays solutions on copies), so instead of the
# Board importing it, it hands itself over here when it is imported, which ``import llkcore``
# does (``use_pictures``): imports only point down.
_render: Any = None


def use_pictures(render_module: Any) -> None:
    """Called by render.py when it is imported: the module that draws Boards."""
    global _render
    _render = render_module


__all__ = ["Board", "GridLike", "Hint", "MAX_SIDE", "Move", "Point", "Traps", "can_link",
           "find_path", "moves", "hint", "parse_text", "grid_to_text"]

# First item of an undo/redo record for a reshuffle (removal records start with a cell index).
_SHUFFLE = "shuffle"
#: The dtypes point_cells reads queries in without a copy.
_POINT_DTYPES = (np.dtype(np.int32), np.dtype(np.int64))


def _state_of(grid: Any, rules: Rules) -> GridState:
    """A new kernel state for ``grid`` (every cell checked), compacted under gravity."""
    if isinstance(grid, Board):
        state = (grid._state.copy() if grid._rules.border == rules.border
                 else GridReader(grid.grid).state(rules.border))
    else:
        state = GridReader(grid).state(rules.border)
    if rules.gravity is not None:
        state.compact(rules.gravity_code)
    return state


class Board:
    """A game position: the grid, the rules, the type index, undo/redo history.

    The constructor copies the grid; with gravity the board starts compacted. Build one Board per
    screen (or ``update`` it with the next screen) and query it. ``Board(board)`` starts a new
    game (no history, no certificate) from another Board's position and rules, and
    ``Board(board, rules=...)`` one under other rules; a module call given a Board and
    conflicting ``rules=`` refuses them instead, as it answers for that Board as it is
    (``board.copy()`` keeps the history).

    Threads may share a Board: every method is safe to call from many threads at once; each
    query sees the position before or after a concurrent change, never half of one
    (docs/architecture.md, "Threads").

    Boards compare and hash by identity, as mutable objects do (a Board can be a dict key or a
    set member while it plays); to compare positions, compare ``grid`` and ``rules``.
    """

    __slots__ = ("_state", "_rules", "_rows", "_cols", "_width", "_turns", "_gravity",
                 "_undo", "_redo", "_writer", "_labels", "_certificate", "_branched",
                 "_certificate_cells", "_certificate_at", "seed", "_insight", "__weakref__")

    def __init__(self, grid: GridLike, rules: Optional[Rules] = None) -> None:
        if rules is None:       # a Board given as the grid brings its rules, as in module calls
            rules = grid._rules if isinstance(grid, Board) else DEFAULT_RULES
        else:
            rules = as_rules(rules)
        self._init(_state_of(grid, rules), rules)

    def _init(self, state: GridState, rules: Rules) -> None:
        _LIVE_BOARDS.add(self)
        self._state = state
        self._rules = rules
        self._rows = state.rows
        self._cols = state.cols
        self._width = state.width
        self._turns = rules.max_turns
        self._gravity = rules.gravity_code
        self._undo: list = []
        self._redo: list = []
        self._writer = threading.Lock()     # held by every change: history stays in step
        self._labels: Optional[Dict[int, Hashable]] = None
        self._insight: Optional[_insight.Insight] = None    # made on the first play-time query
        self._certificate: Optional[List[Move]] = None     # never changed in place: shared
        # True once a removal has dropped undone steps: a certificate set by hand may then
        # clear no position of the game any more, and to_json checks before writing it.
        self._branched = False
        # (the certificate, it as padded cells): given by the deal or reshuffle that made the
        # certificate, else made by _snapshot when first needed; copies share it.
        self._certificate_cells: Optional[Tuple[List[Move], np.ndarray]] = None
        # (the certificate, k, stray): the position is the one the certificate was made for
        # after its first k removals, then ``stray`` other removals; with none, the rest of it
        # clears the position without a replay (with gravity, replaying what is left of a
        # 1024 x 1024 deal's certificate took 2.9 s at every new position). Undoing the stray
        # ones comes back to it (a bot tries a move and takes it back). Kept by
        # _certificate_after and undo; stale, and so ignored, once the certificate is another.
        self._certificate_at: Optional[Tuple[List[Move], int, int]] = None
        #: The seed ``llk.generate`` dealt this board from (None for a board it did not deal).
        self.seed: Optional[int] = None

    # ---- other ways in and out ----------------------------------------------------------------

    @classmethod
    def from_text(cls: Type[_B], text: Union[str, bytes], rules: Optional[Rules] = None) -> _B:
        """Parse rows of whitespace-separated ints; ``.`` stands for 0 and ``#`` for a wall (-1).

        Blank lines are ignored; bytes are read as ``from_json`` reads them (UTF-8, UTF-16 or
        UTF-32). Not text: TypeError.
        """
        return cls(parse_text(text), rules=rules)

    def to_text(self) -> str:
        """The grid as text that from_text reads back: ``.`` for empty, ``#`` for -1."""
        return grid_to_text(self.grid)

    @classmethod
    def from_labels(cls: Type[_B], grid: Iterable[Iterable[Hashable]], *, empty: Hashable = None,
                    walls: Iterable[Hashable] = (), rules: Optional[Rules] = None) -> _B:
        """A Board from any hashable labels, as a screen reader sees tiles: strings, tuples, ints.

        ``empty``: the label of an empty cell. ``walls``: labels of cells that are never removed
        and block paths (locked cells, obstacles); the empty label cannot be one of them
        (BoardError). Every other label is a tile type; types are
        numbered 1, 2, ... and walls -1, -2, ... in order of first appearance (row by row), then
        the walls not on this grid in the order ``walls`` gives them, a set's sorted by type name
        and repr (so that ``update`` knows them as walls, and every run numbers them alike).
        ``board.labels`` maps these numbers back to the labels; ``board.label_at(point)`` reads
        one cell. ``update`` then takes grids of labels too.
        """
        labels: Dict[int, Hashable] = {}
        if isinstance(walls, (str, bytes)):
            # Read as an iterable, "LOCK" would declare the walls "L", "O", "C" and "K".
            raise TypeError(f"walls must be a collection of labels, got the {type(walls).__name__} "
                            f"{walls!r}: for one wall label write walls={{{walls!r}}}")
        unordered = isinstance(walls, (set, frozenset))
        try:
            # (Not list(): it trusts a hostile __len__. At most one label more than a board
            # has cells: an endless iterable is refused, not read until memory runs out.)
            walls = list(itertools.islice(walls, MAX_SIDE * MAX_SIDE + 1))
        except TypeError:
            raise TypeError(f"walls must be an iterable of labels, got {type(walls).__name__}") from None
        if len(walls) > MAX_SIDE * MAX_SIDE:
            raise BoardError(f"walls: at most {MAX_SIDE * MAX_SIDE} labels (the cells of the "
                             "largest board), got an iterable of more")
        try:
            both = label_key(empty) in {label_key(label) for label in walls}
        except TypeError:       # an unhashable label: _label_grid says which
            both = False
        if both:
            raise BoardError(f"{empty!r} is both the empty label and a wall: give it as one of them")
        if unordered:
            # A set's order follows string hashing, which changes from run to run
            # (PYTHONHASHSEED): the walls not on the screen would be numbered differently, and
            # the saved game would differ. Ordered by (type name, repr), which does not.
            try:
                walls.sort(key=lambda label: (type(label).__name__, repr(label)))
            except Exception:       # a label whose repr fails: the set's own order, as before
                pass
        board = cls(_label_grid(grid, empty, walls, labels), rules=rules)
        # Declared walls that this screen does not show get their numbers now: update() reads
        # which labels are walls from the numbers (and so does a saved board).
        _number_walls(walls, labels)
        board._labels = labels
        return board

    @property
    def labels(self) -> Optional[Dict[int, Hashable]]:
        """For a board made by ``from_labels``: type (> 0) and wall (< 0) numbers -> labels."""
        return None if self._labels is None else dict(self._labels)

    @property
    def certificate(self) -> Optional[List[Move]]:
        """A removal sequence that clears this board, or None: the deal's (``generate``), the
        reshuffle's (``shuffle``), or one you set. A copy: edit it and set it back."""
        certificate = self._certificate
        return None if certificate is None else list(certificate)

    @certificate.setter
    def certificate(self, moves: Any) -> None:
        """Set a removal sequence that clears the current position, or one of the game's
        earlier (or undone) positions, or None. It is replayed on copies first (ValueError if
        it clears none), so that what the board promises, and what ``to_json`` saves,
        ``from_json`` loads."""
        checked = None
        if moves is not None:
            checked = move_sequence(moves)
            if not self._clears(checked) and saving.uncleared(self, [(checked, "")]) is not None:
                raise ValueError("a certificate must clear the board's current position, or one "
                                 "of the game's earlier or undone positions (llk.verify(board, "
                                 "moves) says whether it clears the current one)")
        # The old certificate's cells and following go too: they held 140 MB of a 1024 x 1024
        # deal's certificate after it was replaced.
        self._certificate, self._certificate_cells, self._certificate_at = checked, None, None

    def label_at(self, point: Point) -> Hashable:
        """The label of the cell at ``point``: its tile's or wall's label, or the board's
        ``empty`` label (None for a board not made by ``from_labels``: then the cell's value)."""
        r, c = check_point(point, self._rows, self._cols)
        value = int(self._state.value_at(self._cell_of(r, c)))
        if self._labels is None:
            return value
        return self._labels.get(value, self._labels.get(0))

    def update(self, grid: Any) -> None:
        """Load the next screen of the same shape: same rules, history and certificate cleared.

        Costs what building a Board costs. ``grid`` holds labels when the board was made by
        ``from_labels`` (new labels get new numbers; every label seen keeps its number, so the
        cost grows with the labels seen: README). A grid of another shape or with a bad cell
        raises BoardError and leaves the board as it was.
        """
        labels = None
        if self._labels is not None:
            labels = dict(self._labels)
            walls = [label for number, label in labels.items() if number < 0]
            grid = _label_grid(grid, labels.get(0), walls, labels)
        state = _state_of(grid, self._rules)
        if (state.rows, state.cols) != (self._rows, self._cols):
            raise BoardError(f"update needs a grid of shape {(self._rows, self._cols)}, "
                             f"got {(state.rows, state.cols)}")
        with self._writer:
            # Ctrl-C is raised as a call returns: the attributes are all set, without a call,
            # before the load, the one call, so an interrupt finds the new grid with them (it
            # found the new grid with the old certificate, which no longer cleared it: an
            # audit). If the load did not happen (interrupted while waiting for another
            # thread's kernel on this board), they are put back.
            before = (self._undo, self._redo, self._certificate, self._branched, self.seed,
                      self._labels, self._certificate_cells, self._certificate_at)
            loads = self._state.loads
            self._undo, self._redo = [], []
            self._certificate = self._certificate_cells = self._certificate_at = None
            self._branched = False
            self.seed = None
            if labels is not None:
                self._labels = labels
            try:
                self._state.load(state)
            except BaseException:
                if self._state.loads == loads:
                    (self._undo, self._redo, self._certificate, self._branched, self.seed,
                     self._labels, self._certificate_cells, self._certificate_at) = before
                raise

    # ---- read-only state ----------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules this board is played under (fixed when it is made)."""
        return self._rules

    @property
    def rows(self) -> int:
        """Number of rows."""
        return self._rows

    @property
    def cols(self) -> int:
        """Number of columns."""
        return self._cols

    @property
    def shape(self) -> Tuple[int, int]:
        """(rows, cols), as numpy gives a grid's shape."""
        return (self._rows, self._cols)

    @property
    def grid(self) -> npt.NDArray[np.int32]:
        """Read-only int32 view of the current grid (live: copy it to keep a snapshot; while
        another thread plays, ``board.copy().grid`` is one position). It cannot be made
        writeable; the board changes only through its methods."""
        return self._state.grid_view()

    @property
    def tiles_left(self) -> int:
        """Number of tiles on the board (walls are not tiles)."""
        return self._state.tiles

    def __repr__(self) -> str:
        return f"Board({self._rows}x{self._cols}, tiles_left={self.tiles_left}, rules={self._rules!r})"

    # ---- points -------------------------------------------------------------------------------

    def _cell_of(self, r: int, c: int) -> int:
        return (r + 1) * self._width + c + 1

    def _cell(self, p: Any) -> int:
        """Padded cell of a (row, col) point on the board; CoordinateError otherwise."""
        if type(p) is tuple and len(p) == 2:
            r, c = p        # the usual point, checked inline: a bot's can_link is a hot loop
            if (type(r) is int and type(c) is int and 0 <= r < self._rows
                    and 0 <= c < self._cols):
                return (r + 1) * self._width + c + 1
        r, c = check_point(p, self._rows, self._cols)
        return (r + 1) * self._width + c + 1

    def _point(self, cell: int) -> Point:
        return point_of(cell, self._width)

    def _query_cells(self, queries: Any) -> np.ndarray:
        """Check a (k, 4) array of (r1, c1, r2, c2) and return (k, 2) padded cells."""
        if isinstance(queries, (list, tuple)):
            # Rows of four ints on the board, read in C; anything else, or a point off the
            # board, is read again below, which says what is wrong.
            cells = row_point_cells(queries, 2, self._rows, self._cols, self._width)
            if cells is not None:
                return cells
        if not (is_array(queries) or isinstance(queries, (list, tuple))
                or hasattr(type(queries), "__array__")):      # (pandas, other array-likes)
            raise CoordinateError(f"queries must be a (k, 4) array or a list of (r1, c1, r2, c2) "
                                  f"rows, got {type(queries).__name__}")
        if isinstance(queries, np.ma.MaskedArray):
            # numpy reads the values under the mask too: an answer for a query never asked.
            raise CoordinateError("queries must not be a masked array: fill or drop the masked "
                                  "queries first")
        if isinstance(queries, (list, tuple)):
            # numpy would read a value that is a sequence as more dimensions, following a list
            # that holds itself 64 levels down (an array of 2**64 items): refuse it first.
            for i, row in enumerate(queries):
                if isinstance(row, UNORDERED):
                    raise CoordinateError(f"queries must be rows in order (r1, c1, r2, c2): "
                                          f"got a {type(row).__name__} as query {i}")
                if (hasattr(type(row), "__len__") and not is_array(row)
                        and any(hasattr(type(v), "__len__") and not isinstance(v, (str, bytes))
                                for v in row)):
                    raise CoordinateError("queries must be a (k, 4) array of ints (rows of r1, c1, "
                                          "r2, c2); got a row holding a sequence")
        try:
            q = np.asarray(queries)
        except ValueError:
            raise CoordinateError("queries must be a (k, 4) array of ints (rows of r1, c1, r2, c2); "
                                  "got a ragged sequence") from None
        if q.ndim == 1 and q.size == 0:
            return np.empty((0, 2), dtype=np.int32)     # [] : no queries
        if q.ndim != 2 or q.shape[1] != 4:
            raise CoordinateError(f"queries must have shape (k, 4), got {q.shape}")
        if q.shape[0] == 0:
            return np.empty((0, 2), dtype=np.int32)
        if isinstance(queries, (list, tuple)) or q.dtype.kind not in "iu":
            q = _int_queries(queries, q, size_words(self._rows, self._cols))
        # int32 and int64 are read as they are; other ints as int64 (a uint64 past int64 wraps
        # to a negative: off the board, and named as given).
        points = np.ascontiguousarray(q, dtype=q.dtype if q.dtype in _POINT_DTYPES else np.int64)
        cells, bad = point_cells(points, self._rows, self._cols, self._width)
        if cells is None:
            raise CoordinateError(f"query {bad} {tuple(int(v) for v in q[bad])} is off the board "
                                  f"of {size_words(self._rows, self._cols)}")
        return cells

    # ---- queries ------------------------------------------------------------------------------

    def can_link(self, a: Point, b: Point) -> bool:
        """True iff the tiles at a and b can be removed together now.

        Same cell, an empty or wall endpoint, or different types give False, not an error.
        """
        return _link.link(self._state, self._cell(a), self._cell(b), self._turns)

    def can_link_many(self, queries: Any) -> npt.NDArray[np.bool_]:
        """Answer many link queries in one GIL-free call.

        queries: (k, 4) integer array-like of (r1, c1, r2, c2). Returns a (k,) bool array.
        """
        cells = self._query_cells(queries)
        return _link.link_many(self._state, cells, self._turns).view(np.bool_)

    def find_path(self, a: Point, b: Point) -> Optional[List[Point]]:
        """Corner points of the path to draw (endpoints included), or None if they do not link.

        The path has the fewest turns, then the shortest length; ties break as llkref's
        ``find_path`` documents. Points on the ring outside the board have row -1 / rows or
        col -1 / cols.
        """
        return _link.path(self._state, self._cell(a), self._cell(b), self._turns)

    @overload
    def moves(self, *, with_turns: Literal[False] = ...) -> List[Move]: ...
    @overload
    def moves(self, *, with_turns: Literal[True]) -> List[Tuple[Point, Point, int]]: ...
    @overload
    def moves(self, *, with_turns: bool) -> Union[List[Move], List[Tuple[Point, Point, int]]]: ...

    def moves(self, *, with_turns: bool = False
              ) -> Union[List[Move], List[Tuple[Point, Point, int]]]:
        """Every removable pair ((r1, c1), (r2, c2)) with the first point smaller, sorted.
        ``with_turns=True``: ((r1, c1), (r2, c2), turns) triples, turns being the fewest turns
        of a path joining the pair (as ``llk.moves(board, with_turns=True)``)."""
        if not flag(with_turns, "with_turns"):
            return moves_of(_pairs.moves_cells(self._state, self._turns), self._width)
        cells, turns = _pairs.moves_turns(self._state, self._turns)
        return moves_of(cells, self._width, turns)

    def moves_array(self, *, with_turns: bool = False) -> npt.NDArray[np.int32]:
        """Every removable pair as a sorted (k, 4) int32 array of (r1, c1, r2, c2).

        ``with_turns=True``: (k, 5) rows ``r1, c1, r2, c2, turns``, turns being the fewest turns
        of a path joining the pair (0 straight, 1, 2, ...), found without building any path.
        """
        if not flag(with_turns, "with_turns"):
            return points_of(_pairs.moves_cells(self._state, self._turns), self._width)
        cells, turns = _pairs.moves_turns(self._state, self._turns)
        return np.concatenate([points_of(cells, self._width), turns[:, None]], axis=1)

    @overload
    def hint(self, *, safe: Literal[False] = ..., time_limit: Optional[float] = ...,
             node_limit: Optional[int] = ...) -> Optional[Move]: ...
    @overload
    def hint(self, *, safe: Literal[True], time_limit: Optional[float] = ...,
             node_limit: Optional[int] = ...) -> Optional[Hint]: ...
    @overload
    def hint(self, *, safe: bool, time_limit: Optional[float] = ...,
             node_limit: Optional[int] = ...) -> Optional[Union[Move, Hint]]: ...

    def hint(self, *, safe: bool = False, time_limit: Optional[float] = 1.0,
             node_limit: Optional[int] = None) -> Optional[Union[Move, Hint]]:
        """The move to suggest, or None when stuck or clear.

        Deterministic: fewest turns, then shortest path, then the smallest pair.

        ``safe=True``: a move that keeps the position winnable, as an ``llk.Hint`` (a move
        tuple with a ``verdict``): the first move of a clearing sequence from here, or a move
        ahead of it in the order above proved safe too. ``hint.safe`` (verdict SOLVABLE) says it
        was proved; otherwise it is the plain hint and ``hint.verdict`` says why: UNSOLVABLE,
        the game is already lost; UNKNOWN, not decided within ``time_limit`` seconds (None for
        no limit; 0 for no search, only what is already known, as ``winnable``). When the time
        runs out before the moves are even listed and ordered (boards of a million cells), it
        answers from what is known without a search: a known certificate's first move (safe), or
        the first move found instead of the plain hint (which would list them all), UNSOLVABLE
        when a type has an odd count, else UNKNOWN. The plain hint (``safe=False``) is not a
        search and ignores ``time_limit``: it stays deterministic. On a board of a million cells
        it takes a few ms when there is a move of at most one turn, and up to about a second to
        list the moves of two turns when there is not. ``node_limit``: as for ``winnable``, per
        position decided (checked, and ignored by the plain hint, as ``time_limit`` is).
        """
        budget = self._query_budget(time_limit, node_limit)
        if flag(safe, "safe"):
            return self._safe_hint(budget)
        found = _pairs.hint(self._state, self._turns)
        if found is None:
            return None
        return (self._point(found[0]), self._point(found[1]))

    def is_clear(self) -> bool:
        """True when no tile is left: the game is won."""
        return self._state.tiles == 0

    def is_stuck(self) -> bool:
        """Tiles are left and no pair can be removed."""
        return self._state.tiles > 0 and not _pairs.has_move(self._state, self._turns)

    @property
    def index(self) -> Index:
        """Type -> positions view of the tiles left (live)."""
        return Index(self)

    # ---- moves and history --------------------------------------------------------------------

    def remove(self, a: Point, b: Point) -> List[Point]:
        """Remove the pair at a and b and apply gravity; returns the path used.

        Raises IllegalMove (board unchanged) if the rules forbid it. Clears the redo list.
        """
        return cast("List[Point]", self._remove(a, b, True))

    def _remove(self, a: Point, b: Point, with_path: bool) -> Optional[List[Point]]:
        """``remove``; ``with_path=False`` for a replay (saving.py), which needs no path: the
        link test alone, where the best path's search can cover a big sparse board."""
        try:
            pa = self._cell(a)
            pb = self._cell(b)
        except CoordinateError as exc:
            raise IllegalMove(str(exc)) from None
        with self._writer:
            value = self._state.value_at(pa)
            found: Any = None
            # The history is written first and the removal made last: Ctrl-C is raised as a
            # call returns, and one raised after the removal found no record of it (undo could
            # not take it back, and the saved game's start was wrong). A refusal or an
            # interrupt before the removal puts the history back as it was.
            tiles, undone, redo, branched = self._state.tiles, len(self._undo), self._redo, \
                self._branched
            at = self._certificate_at
            try:
                # No gravity moves kept: undo reads them back from the position (put_back).
                self._undo.append((pa, pb, value))
                self._certificate_at = self._certificate_after(pa, pb)
                if redo:
                    self._branched = True
                    self._redo = []
                if not with_path and _link.link(self._state, pa, pb, self._turns):
                    self._state.remove_pair(pa, pb, self._gravity, keep_moves=False)
                else:       # (a refused replay comes here too, for the reason in words)
                    code, found = self._state.try_remove(pa, pb, self._turns, self._gravity)
                    if code:    # found: which endpoint is refused
                        raise IllegalMove(self._refusal(code, cast("int", found), a, b, pa, pb))
            except BaseException:
                if self._state.tiles == tiles:      # not removed
                    del self._undo[undone:]
                    self._redo, self._branched, self._certificate_at = redo, branched, at
                raise
        return cast("Optional[List[Point]]", found)

    def _refusal(self, code: int, which: int, a: Any, b: Any, pa: int, pb: int) -> str:
        """Why try_remove refused a move, in words."""
        pts = (self._point(pa), self._point(pb))
        if code == _state.REMOVE_SAME_CELL:
            return f"{pts[0]} and {pts[1]} are the same cell"
        if code == _state.REMOVE_EMPTY:
            return f"{pts[which]} is empty"
        if code == _state.REMOVE_WALL:
            return f"{pts[which]} is a wall"
        if code == _state.REMOVE_TYPES:
            return (f"{pts[0]} holds type {self._state.value_at(pa)} and {pts[1]} type "
                    f"{self._state.value_at(pb)}: not the same type")
        return f"no path joins {pts[0]} and {pts[1]} within {self._turns} turn(s)"

    def undo(self) -> bool:
        """Take back the last removal (gravity included) or reshuffle exactly. False if none."""
        with self._writer:
            self._state.check_usable()      # (a Board in use at a fork refuses even this)
            if not self._undo:
                return False
            record = self._undo[-1]         # (popped once undone: a MemoryError keeps it)
            if record[0] == _SHUFFLE:
                _, cells, before, _, certificate_before, _ = record
                self._state.retype(cells, before)
                self._certificate = certificate_before
                self._redo.append(self._undo.pop())
                return True
            pa, pb, value = record
            self._state.put_back(pa, pb, value, self._gravity)
            self._undo.pop()
            self._redo.append((pa, pb))
            self._certificate_at = self._certificate_before()
            return True

    def redo(self) -> bool:
        """Replay the last undone removal or reshuffle. False if there is none."""
        with self._writer:
            self._state.check_usable()
            if not self._redo:
                return False
            self._replay(self._redo.pop())
            return True

    def _replay(self, record: tuple) -> None:
        """Make an undone step again (redo); writer lock held."""
        if record[0] == _SHUFFLE:
            self._state.retype(record[1], record[3])
            self._certificate = record[5]
            self._certificate_at = None if record[5] is None else (record[5], 0, 0)
            self._undo.append(record)
            return
        pa, pb = record[0], record[1]
        value = self._state.value_at(pa)
        self._certificate_at = self._certificate_after(pa, pb)
        self._state.remove_pair(pa, pb, self._gravity, keep_moves=False)
        self._undo.append((pa, pb, value))

    def shuffle(self, *, solvable: bool = True, seed: Optional[int] = None) -> None:
        """Redistribute the types of the tiles left over the same cells, as one undoable step.

        Tiles, walls and the multiset of types stay. ``solvable=True``: the result can be cleared
        and ``certificate`` becomes a removal sequence that clears it; raises llk.DealError
        (board unchanged) if some type has an odd count or no random playout clears the
        occupied cells under the rules. ``solvable=False``: a uniform permutation, certificate
        None. ``seed`` as in llk.generate. Clears the redo list; undo() restores the old types
        and certificate exactly.
        """
        solvable = flag(solvable, "solvable")
        with self._writer:
            cells, before, after, certificate = _deals.reshuffle_types(
                self._state, self._rules, solvable=solvable, seed=seed)
            self._record_shuffle(cells, before, after, None if certificate is None else
                                 certificate[0])
            if certificate is not None:     # its cells too, made with it
                self._certificate_cells = certificate

    def _record_shuffle(self, cells: np.ndarray, before: np.ndarray, after: np.ndarray,
                        certificate: Optional[List[Move]]) -> None:
        """Give the tiles at ``cells`` the types ``after`` as one undo step (writer lock held);
        shuffle() and loading a saved reshuffle (saving.py) both come here."""
        self._state.retype(cells, after)
        self._undo.append((_SHUFFLE, cells, before, after, self._certificate, certificate))
        self._certificate = certificate
        self._certificate_at = None if certificate is None else (certificate, 0, 0)
        if self._redo:      # the undone positions are dropped, as by a removal (saving.py)
            self._branched = True
        self._redo.clear()

    @property
    def history(self) -> List[Move]:
        """The removals made so far (undone ones excluded), as ((r1, c1), (r2, c2)).

        Reshuffles are steps of the undo history but not removals, so they are not listed.
        """
        return [(self._point(r[0]), self._point(r[1])) for r in list(self._undo) if r[0] != _SHUFFLE]

    def slides(self, step: int = -1) -> List[Tuple[Point, Point]]:
        """The gravity moves of a removal in the history (the last by default), in the order they
        were applied: [((row, col) from, (row, col) to), ...]; empty without gravity.

        ``step`` counts removals (reshuffles are not steps), from 0 or from the end (-1); no such
        removal (none made yet, say): IndexError."""
        step = integer(step, "step")
        with self._writer:
            # Walked from the end the step counts from, so the last removal costs O(1) however
            # long the history (render.solution_steps asks after every move of a replay).
            skip = -step - 1 if step < 0 else step      # removals to pass on the way
            at = None
            order = range(len(self._undo) - 1, -1, -1) if step < 0 else range(len(self._undo))
            for i in order:
                if self._undo[i][0] != _SHUFFLE:
                    if skip == 0:
                        at = i
                        break
                    skip -= 1
            if at is None:
                removals = sum(r[0] != _SHUFFLE for r in self._undo)
                raise IndexError(f"no removal {step} in a history of {removals} removal(s)")
            # The moves are read back from the position the removal left (none are kept): the
            # steps after it are undone on a copy.
            state = self._state
            if at < len(self._undo) - 1:
                state = state.copy()
                for record in reversed(self._undo[at + 1:]):
                    if record[0] == _SHUFFLE:
                        state.retype(record[1], record[2])
                    else:
                        state.put_back(record[0], record[1], record[2], self._gravity)
            moved = state.slides(self._undo[at][0], self._undo[at][1], self._gravity).tolist()
        return [(self._point(s), self._point(d)) for s, d in moved]

    # ---- play-time insight: the solver's view of the position (_insight.py; docs/architecture.md, "Play-time insight") ----

    @staticmethod
    def _query_budget(time_limit: Any, node_limit: Any) -> "_insight.Budget":
        """The Budget of a play-time query: ``time_limit`` (seconds, for the whole call) and
        ``node_limit`` (per position decided) checked, None for no limit."""
        return _insight.Budget(check_seconds(time_limit, "time_limit"),
                               node_budget(node_limit, low=1))

    def _insight_parts(self) -> Tuple["_insight.Insight", GridState, list, Optional[np.ndarray]]:
        """(this board's insight, a snapshot of the position, certificates worth reusing, the
        removals known to clear it: ``_snapshot``). Queries work on the snapshot: the board
        never changes."""
        insight = self._insight
        if insight is None:
            insight = self._insight = _insight.Insight()
        return (insight, *self._snapshot())

    def _snapshot(self) -> Tuple[GridState, List[np.ndarray], Optional[np.ndarray]]:
        """(a copy of the position, [its certificate as padded cells] or [], the removals of
        it that clear this position when that is known without a replay, else None), read
        under one hold of the writer lock: what the solver, the play-time queries and ratings
        start from."""
        with self._writer:
            state = self._state.copy()
            certificate = self._certificate
            done = self._certificate_done()
        if not certificate:
            return state, [], None
        # As cells once per certificate (it is never changed in place): for a 1024 x 1024
        # deal's 524,288 moves that took 0.17 s, on every query, cached answers included.
        made = self._certificate_cells
        if made is None or made[0] is not certificate:
            made = self._keep_cells(certificate, cells_of(move_array(certificate), self._width))
        return state, [made[1]], None if done is None else made[1][done:]

    def _keep_cells(self, certificate: List[Move], cells: np.ndarray
                    ) -> Tuple[List[Move], np.ndarray]:
        """Keep ``cells`` (a (k, 2) int32 array no one else holds) as the certificate's padded
        cells, read-only: they are handed to other threads' searches and to copies."""
        cells.flags.writeable = False
        made = self._certificate_cells = (certificate, cells)
        return made

    def _certificate_followed(self) -> Optional[Tuple[List[Move], int, int]]:
        """``_certificate_at`` when it is of the present certificate, else None."""
        at = self._certificate_at
        return at if at is not None and at[0] is self._certificate else None

    def _certificate_done(self) -> Optional[int]:
        """k when the position is the one the certificate was made for after its first k
        removals, else None (not known). Writer lock held."""
        at = self._certificate_followed()
        return at[1] if at is not None and at[2] == 0 else None

    def _certificate_after(self, pa: int, pb: int) -> Optional[Tuple[List[Move], int, int]]:
        """``_certificate_at`` after the removal of the tiles at padded cells pa and pb from
        this position: one removal further when it is the certificate's next, else one stray
        removal more (the position is not one the certificate was made for). Writer lock held."""
        at = self._certificate_followed()
        if at is None:
            return None
        certificate, done, stray = at
        if stray == 0 and done < len(certificate):
            (r1, c1), (r2, c2) = certificate[done]
            w = self._width
            if {(r1 + 1) * w + c1 + 1, (r2 + 1) * w + c2 + 1} == {pa, pb}:
                return certificate, done + 1, 0
        return certificate, done, stray + 1

    def _certificate_before(self) -> Optional[Tuple[List[Move], int, int]]:
        """``_certificate_at`` after a removal is taken back: one stray removal fewer, else
        one removal of the certificate fewer (the removal taken back was its last one made),
        else None (before the certificate's position). Writer lock held."""
        at = self._certificate_followed()
        if at is None:
            return None
        certificate, done, stray = at
        if stray:
            return certificate, done, stray - 1
        return (certificate, done - 1, 0) if done else None

    def winnable(self, *, time_limit: Optional[float] = 1.0,
                 node_limit: Optional[int] = None) -> Verdict:
        """Can the position still be cleared? SOLVABLE (a clearing sequence was found),
        UNSOLVABLE (proved lost) or UNKNOWN (not decided within ``time_limit`` seconds, None for
        no limit). ``time_limit=0`` searches nothing: it answers from what is already known,
        the cache and the certificates below, and what needs no search (a type with an odd
        number of tiles, or no pair to remove: UNSOLVABLE), and UNKNOWN otherwise.
        ``node_limit`` (None: none) bounds the search of each position by nodes, as ``llk.rate``
        does: with ``time_limit=None`` an answer then does not depend on the machine's speed
        (nodes do not bound time: README, "Solvers").

        Answers are cached by position (rules and grid), so asking again after a move, undo or
        redo costs a hash unless the position is new; an UNKNOWN is searched again when asked
        with more time. The certificate of a generated or reshuffled board, and those found
        for earlier positions, are tried first (docs/architecture.md, "Play-time insight").
        """
        budget = self._query_budget(time_limit, node_limit)
        insight, state, known, proved = self._insight_parts()
        return insight.decide(state, self._rules, budget, known, proved=proved).verdict

    def _clearing_moves(self, time_limit: Optional[float]) -> Tuple[Verdict, Optional[List[Move]]]:
        """(verdict, the moves that clear the position when SOLVABLE) by the play-time decision,
        so the board's own certificate and those found before are tried before any search
        (``show(solution=True)``)."""
        budget = self._query_budget(time_limit, None)
        insight, state, known, proved = self._insight_parts()
        decision = insight.decide(state, self._rules, budget, known, proved=proved)
        if decision.certificate is None:
            return decision.verdict, None
        return decision.verdict, moves_of(decision.certificate, self._width)

    def _safe_hint(self, budget: "_insight.Budget") -> Optional[Hint]:
        """``hint(safe=True)`` (see ``hint``); None when no pair can be removed."""
        insight, state, known, proved = self._insight_parts()
        found = insight.safe_hint(state, self._rules, budget, known, proved)
        if found is None:
            return None
        move, verdict = found
        return Hint(self._point(move[0]), self._point(move[1]), verdict)

    def traps(self, *, time_limit: Optional[float] = 2.0,
              node_limit: Optional[int] = None) -> Traps:
        """The removable pairs after which the position is proved lost, while it is not lost
        now: a ``Traps`` list (sorted like ``moves()``) with the position's ``verdict`` and the
        moves proved ``safe`` and left ``undecided`` within ``time_limit`` seconds (for the
        whole call; None for no limit, 0 for only what is already known) and ``node_limit``
        nodes per position decided (None: none; as ``winnable``). When the time runs out
        listing the moves (boards of a million cells; the listing is given at least 0.05 s),
        ``listed`` is False and the lists are empty."""
        budget = self._query_budget(time_limit, node_limit)
        insight, state, known, proved = self._insight_parts()
        verdict, moves, after = insight.classify(state, self._rules, budget, known, proved=proved)
        if verdict == Verdict.UNSOLVABLE:
            return Traps(verdict=verdict)
        if moves is None or after is None:      # out of time listing the moves
            return Traps(verdict=verdict, listed=False)
        # By mask: comparing each int8 with the enum took 0.16 s for 3,345 moves.
        return Traps._of_cells(moves[after == int(Verdict.UNSOLVABLE)], verdict,
                               moves[after == int(Verdict.SOLVABLE)],
                               moves[after == int(Verdict.UNKNOWN)], self._width)

    # ---- copies and pickling ------------------------------------------------------------------

    def __copy__(self: _B) -> _B:
        return self.copy()

    def __deepcopy__(self: _B, memo: dict) -> _B:
        other = self._copy_board(type(self))
        other._set_own_attributes(copy.deepcopy(self._own_attributes(), memo))
        return other

    def _own_attributes(self) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """A subclass's own attributes, as pickle takes them: (its ``__dict__``, the values of
        the ``__slots__`` it adds). What copies and pickling carry beside the Board's state."""
        slots: Dict[str, Any] = {}
        for cls in type(self).__mro__:
            if cls is Board:
                break
            names = cls.__dict__.get("__slots__", ())
            for name in (names,) if isinstance(names, str) else names:
                if name in ("__dict__", "__weakref__"):
                    continue
                if name.startswith("__") and not name.endswith("__"):     # private: mangled
                    name = f"_{cls.__name__.lstrip('_')}{name}"
                try:
                    slots[name] = getattr(self, name)
                except AttributeError:      # a slot never set
                    pass
        return dict(getattr(self, "__dict__", {})), slots

    def _set_own_attributes(self, attributes: Tuple[Dict[str, Any], Dict[str, Any]]) -> None:
        """Give a copy the attributes ``_own_attributes`` read (as unpickling does)."""
        in_dict, in_slots = attributes
        if in_dict:
            self.__dict__.update(in_dict)
        for name, value in in_slots.items():
            object.__setattr__(self, name, value)

    def _clears(self, moves: Sequence[Move]) -> bool:
        """Do ``moves`` (pairs of points), replayed on a copy, clear this position? Every move
        must be legal when played. ``verify``, the certificate setter and loading ask."""
        # (Not taken back: the copy is dropped. With gravity taking back costs as much as the
        # replay, 2.8 s for a 1024 x 1024 deal's certificate; the copy 0.01 s.)
        copy = self._work_copy()
        cleared = copy._clears_here(moves, take_back=False)
        made = copy._certificate_cells
        if made is not None and made[0] is self._certificate:
            self._certificate_cells = made      # this board's certificate's, made by the check
        return cleared

    def _clears_here(self, moves: Sequence[Move], take_back: bool = True) -> bool:
        """``_clears`` on this board itself: the moves are played on its state and taken back,
        its history untouched, so the cost is the moves' and not a copy's (loading a saved
        game replays certificates on the board it builds, which no one else holds yet).
        ``moves``: as ``move_sequence`` returns them (pairs of pairs of ints). ``take_back=False``
        leaves the state as the moves left it, for a copy about to be dropped. Only for a board
        no other thread holds (a copy, or one being loaded): the tiles are counted once."""
        if self._state.tiles != 2 * len(moves):
            return False            # (no replay: it cannot end clear)
        try:
            cells = self._query_cells(move_array(moves))
        except (OverflowError, CoordinateError):
            return False            # a point off the board (an int past 64 bits is one)
        with self._writer:
            played = _playouts.replay(self._state, cells, self._turns, self._gravity,
                                      take_back=take_back)
            cleared = played == len(cells)      # every removal played: 2k of 2k tiles
            if cleared and moves is self._certificate:
                # Its cells, made here, are the ones _snapshot would make again (0.2 s for a
                # 1024 x 1024 deal's certificate): a loaded game's first query.
                self._keep_cells(moves, cells)
            return cleared

    def copy(self: _B) -> _B:
        """An independent copy (grid, index, history, certificate, labels, seed), of this
        board's class; a subclass's own attributes are copied as ``copy.copy`` would."""
        other = self._copy_board(type(self))
        if type(self) is not Board:         # (a plain Board has none: 20% of a copy's time)
            other._set_own_attributes(self._own_attributes())
        return other

    def _work_copy(self) -> "Board":
        """A plain Board copy to replay moves on inside the package: a subclass's overrides
        (a bot's ``remove`` that clicks, say) must not run there."""
        return self._copy_board(Board)

    def _copy_board(self, cls: Type[_B]) -> _B:
        """The copy of the Board's own state, as a ``cls``."""
        other = cls.__new__(cls)
        with self._writer:
            other._init(self._state.copy(), self._rules)
            other._undo = list(self._undo)
            other._redo = list(self._redo)
            other._certificate = self._certificate
            other._certificate_cells = self._certificate_cells      # (read-only: shared)
            other._certificate_at = self._certificate_at
            other._branched = self._branched
            other.seed = self.seed
            other._labels = None if self._labels is None else dict(self._labels)
        return other

    # ---- saving, pickling and pictures (formats: saving.py, render.py) ------------------------

    def to_json(self, *, indent: Optional[int] = None) -> str:
        """The whole game as a versioned JSON document: grid, rules, undo and redo history
        (reshuffles included), certificate, labels and seed; ``indent``: None (one line) or
        0 to 64 spaces. ``Board.from_json`` reads it back; the format is described in
        saving.py."""
        return saving.to_json(self, indent=indent)

    @classmethod
    def from_json(cls: Type[_B], text: Union[str, bytes]) -> _B:
        """A Board from ``to_json``'s document, its history replayed so that undo and redo work
        as before saving. A malformed document, or one of a newer format version, raises
        BoardError saying what is wrong."""
        return cls._of_class(saving.from_json(text, Board))

    def __reduce__(self):
        # Pickling ships the saved document (grids as arrays); unpickling replays its history
        # exactly as from_json does, all but the certificates' replay (saving.restore).
        # A subclass's own attributes follow as the state pickle sets on the restored board
        # ((__dict__, slots): pickle's own form, which it sets without a __setstate__).
        # The certificate's following and cells come along (the document has neither): without
        # them the first query on an unpickled 1024 x 1024 deal with gravity replayed the
        # certificate, UNKNOWN at 1 s where the board it was pickled from answered in 0.03 s.
        in_dict, in_slots = self._own_attributes()
        board = self._work_copy()       # one moment of the board, whatever other threads do
        document = saving.document(board, arrays=True)
        at = board._certificate_followed()
        made = board._certificate_cells
        cells = made[1] if made is not None and made[0] is board._certificate else None
        following = None if at is None else at[1:]
        return (type(self)._restore, (document, self._branched, following, cells),
                (in_dict or None, in_slots) if in_slots else (in_dict or None))

    @classmethod
    def _restore(cls: Type[_B], document: dict, branched: bool = False,
                 following: Optional[Tuple[int, int]] = None,
                 cells: Optional[np.ndarray] = None) -> _B:
        board = saving.restore(document, Board, check_certificates=False)
        board._branched = branched      # (its certificates were not checked: to_json will)
        certificate = board._certificate
        if certificate is not None:     # (pickled data is trusted, as the certificates are)
            if following is not None:
                board._certificate_at = (certificate, *following)
            if cells is not None:
                board._keep_cells(certificate, np.array(cells, dtype=np.int32))
        return cls._of_class(board)

    @classmethod
    def _of_class(cls: Type[_B], board: "Board") -> _B:
        """``board`` (a plain Board a file was replayed on: a subclass's ``__init__`` and
        overrides stay out of the replay) as a ``cls``."""
        return cast(_B, board) if cls is Board else board._copy_board(cls)

    def _after_fork(self) -> None:
        """In a forked child: locks held at the fork belong to threads that are not here. They
        are replaced, and a Board that was in use refuses later calls (GridState.after_fork)."""
        changing = _insight.held_at_fork(self._writer)
        if changing:
            self._writer = threading.Lock()
        if self._insight is not None:
            self._insight.after_fork()
        self._state.after_fork(changing)

    def _unwind_history(self) -> Tuple[np.ndarray, Optional[List[Move]], list, list]:
        """(start grid, start certificate, steps made oldest first, steps undone next first),
        a step being ((r1, c1), (r2, c2)) for a removal or ("shuffle", types, certificate) for
        a reshuffle (the new types of the tiles, row by row). Undoes every step of this board:
        saving.document() calls it on a copy of its own."""

        def step(record: tuple) -> tuple:
            if record[0] == _SHUFFLE:
                return (_SHUFFLE, record[3], record[5])
            return (self._point(record[0]), self._point(record[1]))

        made = [step(r) for r in self._undo]
        undone = [step(r) for r in reversed(self._redo)]
        while self.undo():
            pass
        return np.array(self.grid), self._certificate, made, undone

    def _repr_svg_(self) -> Optional[str]:
        """Jupyter shows a Board as its picture (up to render.DISPLAY_CELLS cells; a larger
        board shows as text, and ``show()`` draws it)."""
        return _render.svg(self) if self._rows * self._cols <= _render.DISPLAY_CELLS else None

    def show(self, *, hint: bool = False, path: Optional[Sequence[Point]] = None,
             solution: Any = None, cell: Optional[int] = None) -> "Picture":
        """A picture of the board for a notebook (it displays itself) or a file: ``hint=True``
        draws the path of ``hint()``; ``path`` a path's corner points; ``solution`` numbers the
        tiles by a removal sequence (a list of moves, an ``llk.Solution``, or True to solve
        the board first; False or None: no numbers). Returns an ``llkcore.render.Picture``
        (``.svg``, ``.png()``, ``.save(file)``)."""
        return _render.picture(self, hint=hint, path=path, solution=solution, cell=cell)


class _Registry:
    """Every Board of this process, for the fork handler: a child forked while other threads
    were inside calls on a Board inherits its locks held by threads that do not exist in the
    child. Weak references without callbacks, the dead ones dropped as the list doubles: a
    WeakSet runs Python code (its callback) as each Board dies, and a signal handler's
    KeyboardInterrupt raised there is dropped by CPython ("Exception ignored"): a SIGTERM or
    Ctrl-C landing as a deal died would be lost, and `llk analyze` run on."""

    def __init__(self) -> None:
        self.refs: "List[weakref.ref[Board]]" = []
        self.lock = threading.Lock()
        self.prune_at = 1024

    def add(self, board: "Board") -> None:
        with self.lock:
            self.refs.append(weakref.ref(board))
            if len(self.refs) >= self.prune_at:
                self.refs = [ref for ref in self.refs if ref() is not None]
                self.prune_at = max(1024, 2 * len(self.refs))

    def alive(self) -> "List[Board]":
        return [board for board in (ref() for ref in list(self.refs)) if board is not None]

    def after_fork(self) -> None:
        self.lock = threading.Lock()        # (a parent's thread may have held it at the fork)
        for board in self.alive():
            board._after_fork()


_LIVE_BOARDS = _Registry()


def _after_fork_in_child() -> None:
    _LIVE_BOARDS.after_fork()


if hasattr(os, "register_at_fork"):         # (not on Windows, which cannot fork)
    os.register_at_fork(after_in_child=_after_fork_in_child)


def _sequence(x: Any) -> bool:
    """x can be read as a sequence of labels: iterable, not a string, not a 0-d array (which has
    ``__iter__`` but refuses iteration), not a set or a dict (no order of the caller's)."""
    return (not isinstance(x, (str, bytes) + UNORDERED) and hasattr(x, "__iter__")
            and not (isinstance(x, np.ndarray) and x.ndim == 0))


def _int_queries(queries: Any, q: np.ndarray, board: str) -> np.ndarray:
    """The (k, 4) queries as ints, or CoordinateError naming the first value that is not an int.
    ``q`` is numpy's reading of them, which takes a bool among ints for an int and makes floats
    of ints beyond int64 (or of uint64 beside negative ints): the values as given are judged.
    ``board``: the board's size in words, for the message of a query off it."""
    listed = isinstance(queries, (list, tuple))
    if q.dtype.kind == "b" or (q.dtype.kind not in "iu" and not listed):
        raise CoordinateError(f"queries must be integers, got dtype {q.dtype}")
    for i, row in enumerate(queries):
        for value in row:
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise CoordinateError(f"queries must be integers, got {type(value).__name__} "
                                      f"{value!r} in query {i}")
    if q.dtype.kind in "iu":
        return q
    for i, row in enumerate(queries):
        if any(not -2 ** 63 <= int(v) < 2 ** 63 for v in row):
            raise CoordinateError(f"query {i} {tuple(int(v) for v in row)} is off the board "
                                  f"of {board}")
    return np.array([[int(v) for v in row] for row in queries], dtype=np.int64)


def _label_grid(grid: Any, empty: Hashable, walls: Iterable[Hashable],
                labels: Dict[int, Hashable]) -> List[List[int]]:
    """Number the labels of ``grid`` (extending ``labels``: number -> label): tiles 1, 2, ...,
    walls -1, -2, ..., ``empty`` 0, each new label in order of first appearance."""
    if not _sequence(grid):
        raise BoardError(f"a board must be a 2-D grid of labels, got {type(grid).__name__}")
    try:
        wall_set = {label_key(label) for label in walls}
        code = {label_key(label): number for number, label in labels.items()}
    except TypeError as exc:
        raise BoardError(f"labels must be hashable: {exc}") from None
    try:
        code[label_key(empty)] = 0
    except TypeError:
        raise BoardError(f"labels must be hashable, got the empty label {empty!r}, a "
                         f"{type(empty).__name__}") from None
    labels[0] = empty
    next_tile = max((k for k in labels if k > 0), default=0) + 1
    next_wall = min((k for k in labels if k < 0), default=0) - 1
    out = []
    for r, row in enumerate(grid):
        if not _sequence(row):
            raise BoardError(f"each row of a board must be a sequence of labels, got {type(row).__name__}")
        if r == MAX_SIDE:                   # an endless iterable is refused, not read forever
            raise BoardError(f"a board may have at most {MAX_SIDE} rows")
        line = []
        for c, label in enumerate(row):
            if c == MAX_SIDE:
                raise BoardError(f"a board may have at most {MAX_SIDE} columns")
            try:
                number = code.get(label)
            except TypeError:
                raise BoardError(f"labels must be hashable, got {type(label).__name__} at {(r, c)}") from None
            if number is None:
                key = label_key(label)
                number = code.get(key)
            if number is None:
                if key in wall_set:
                    number, next_wall = next_wall, next_wall - 1
                else:
                    number, next_tile = next_tile, next_tile + 1
                code[key] = number
                labels[number] = label
            line.append(number)
        out.append(line)
    return out


def _number_walls(walls: Iterable[Hashable], labels: Dict[int, Hashable]) -> None:
    """Give each label of ``walls`` that ``labels`` (number -> label) lacks the next wall number."""
    known = {label_key(label) for label in labels.values()}
    for label in walls:
        if label_key(label) not in known:
            known.add(label_key(label))
            labels[min(labels) - 1] = label         # (labels holds 0, the empty label)


#: Where str.splitlines ends a line ("\r\n" is one break).
_BREAKS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_LINE_BREAK = re.compile(f"\r\n|[{_BREAKS}]")
#: A line with something on it: blank lines are skipped in C, not one by one in Python.
_TEXT_ROW = re.compile(f"[^\\S{_BREAKS}]*\\S[^{_BREAKS}]*")


def _line_number(text: str, pos: int) -> int:
    """The line (from 1) of ``text`` that position ``pos`` is on: for error messages only."""
    return 1 + sum(1 for _ in _LINE_BREAK.finditer(text, 0, pos))


def parse_text(text: Union[str, bytes]) -> List[List[int]]:
    """Rows of whitespace-separated ints (``.`` = 0, ``#`` = -1) into a list of lists.

    Only ASCII digits with an optional leading ``-`` are numbers (no ``+``, ``_`` or other
    scripts' digits). Bytes are read as ``from_json`` reads them (UTF-8, -16 or -32:
    ``text_of``); a byte order mark is skipped, in a str too (``read_text()`` keeps it).
    A row or a value past MAX_SIDE is refused when it is met, before the rest is read: a
    60 MB line took a minute and 600 MB to be split and converted, then refused."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text_of(bytes(text))
        except UnicodeDecodeError as exc:
            raise BoardError(f"board text is not UTF-8, UTF-16 or UTF-32 ({exc})") from None
    if not isinstance(text, str):
        raise TypeError(f"board text must be str or bytes, got {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    grid: List[List[int]] = []
    first_row = 0
    for line in _TEXT_ROW.finditer(text):
        tokens = line.group().split(None, MAX_SIDE)
        if len(tokens) > MAX_SIDE or len(grid) == MAX_SIDE:
            past = (f"more than {MAX_SIDE} values" if len(tokens) > MAX_SIDE
                    else f"row {MAX_SIDE + 1}")
            raise BoardError(f"line {_line_number(text, line.start())}: {past}: a board may have "
                             f"at most {MAX_SIDE} rows and {MAX_SIDE} columns")
        row = []
        for tok in tokens:
            if tok == ".":
                row.append(0)
            elif tok == "#":
                row.append(-1)
            else:
                digits = tok[1:] if tok.startswith("-") else tok
                if not (digits.isascii() and digits.isdigit()):
                    raise BoardError(f"line {_line_number(text, line.start())}: {shown(tok)} is "
                                     "not an int, '.' or '#'")
                if len(digits) > 12:
                    raise BoardError(f"line {_line_number(text, line.start())}: {shown(tok)} does "
                                     "not fit in int32")
                row.append(int(tok))
        if grid and len(row) != len(grid[0]):
            # Named by line, where a reader fixes it (Board's own check gives only lengths).
            raise BoardError(f"ragged board: line {_line_number(text, line.start())} has "
                             f"{len(row)} values, line {_line_number(text, first_row)} has "
                             f"{len(grid[0])}")
        if not grid:
            first_row = line.start()
        grid.append(row)
    if not grid:
        raise BoardError("board text has no rows")
    return grid


def grid_to_text(grid: np.ndarray) -> str:
    cells = [["." if v == 0 else "#" if v == -1 else str(int(v)) for v in row] for row in grid]
    width = max(len(s) for row in cells for s in row)
    return "\n".join(" ".join(s.rjust(width) for s in row) for row in cells) + "\n"


# ---- module-level calls -----------------------------------------------------------------------


def board_for(grid: GridLike, rules: Optional[Rules]) -> Board:
    """The Board a module-level call works on: the given Board itself, or a new one from the
    grid, compacted under gravity (every module call with gravity rules works on the compacted
    board)."""
    if isinstance(grid, Board):
        if rules is not None and as_rules(rules) != grid.rules:
            raise ValueError(rules_conflict(grid.rules, as_rules(rules)))
        return grid
    return Board(grid, rules=rules)


def rules_conflict(own: Rules, asked: Rules) -> str:
    """Why a Board cannot be taken under other rules, and what to pass instead."""
    return (f"rules= conflicts with the Board's own rules ({asked!r} asked, the Board has "
            f"{own!r}): pass board.grid to use rules=, or llk.Board(board, rules=...) for a "
            "copy under them (generate and Deals take rules= too)")


def _query(grid: GridLike, a: Point, b: Point, rules: Optional[Rules], what: str) -> Any:
    """A module query about the pair (a, b): on a Board, or with gravity (the grid is compacted
    first), through a Board; else on the grid read in place (GridReader ``what``)."""
    own = DEFAULT_RULES if rules is None else as_rules(rules)
    if isinstance(grid, Board) or own.gravity is not None:
        return getattr(board_for(grid, rules), _BOARD_QUERIES[what])(a, b)
    reader = GridReader(grid)       # (which checks the points too)
    return getattr(reader, what)(a, b, own.max_turns, own.border)


_BOARD_QUERIES = {"link": "can_link", "path": "find_path"}


def can_link(grid: GridLike, a: Point, b: Point, *, rules: Optional[Rules] = None) -> bool:
    """True iff the tiles at a and b of ``grid`` can be removed together under ``rules``.

    Reads the grid in place: its shape and only the cells the test needs are checked (the two
    endpoints, the lines through them and, of the crossing lines, the part between them), so a
    call costs microseconds on most boards and at most about a line's cells per crossing line
    (0.2 ms on a 1024 x 1024 maze). With gravity rules the grid is compacted first and a and b
    are points on the compacted board (like a Board).
    """
    return _query(grid, a, b, rules, "link")


def find_path(grid: GridLike, a: Point, b: Point, *,
              rules: Optional[Rules] = None) -> Optional[List[Point]]:
    """Corner points of the best path joining a and b, or None (see Board.find_path).

    Reads the grid in place, no Board is built: up to two turns only the lines a best path can
    use are read and checked (as can_link), above two turns every cell once. With gravity
    rules the grid is compacted first, as for every module call.
    """
    return _query(grid, a, b, rules, "path")


@overload
def moves(grid: GridLike, *, rules: Optional[Rules] = ...,
          with_turns: Literal[False] = ...) -> List[Move]: ...
@overload
def moves(grid: GridLike, *, rules: Optional[Rules] = ...,
          with_turns: Literal[True]) -> List[Tuple[Point, Point, int]]: ...
@overload
def moves(grid: GridLike, *, rules: Optional[Rules] = ...,
          with_turns: bool) -> Union[List[Move], List[Tuple[Point, Point, int]]]: ...


def moves(grid: GridLike, *, rules: Optional[Rules] = None,
          with_turns: bool = False) -> Union[List[Move], List[Tuple[Point, Point, int]]]:
    """Every removable pair of ``grid`` under ``rules`` (see Board.moves); with gravity rules,
    of the compacted grid. ``with_turns=True``: ((r1, c1), (r2, c2), turns) triples, turns being
    the fewest turns of a path joining the pair."""
    return board_for(grid, rules).moves(with_turns=with_turns)


def hint(grid: GridLike, *, rules: Optional[Rules] = None) -> Optional[Move]:
    """The move Board.hint suggests on ``grid`` (compacted first under gravity rules)."""
    return board_for(grid, rules).hint()
