"""Boards: gravity, the type index, the list of removable pairs, a Board model and replay.

Gravity (after every removal, and once before play): every tile (value > 0) slides in the gravity
direction as far as it can within its wall-bounded segment. For "down", each column is split into
maximal vertical runs of non-wall cells (walls split them); inside a run the tiles keep their order
and are packed to the bottom end of the run, empties go to the top. "up" packs to the top,
"left"/"right" do the same on the runs of each row. The board is not padded for gravity.
"""

from __future__ import annotations

import copy as _copy

from .link import can_link, check_point, find_path, grid_shape, path_length, path_turns

GRAVITIES = (None, "down", "up", "left", "right")


def _check_gravity(gravity) -> None:
    if gravity not in GRAVITIES:
        raise ValueError(f"gravity must be one of {GRAVITIES}, not {gravity!r}")


def _pack_line(values: list[int], to_end: bool) -> list[int]:
    """Gravity along one line (a column or a row, listed from index 0 upwards).

    Walls stay where they are and split the line into runs; in each run the tiles keep their
    order and are pushed to the end of the run (to_end=True) or to its start (to_end=False).
    """
    result = list(values)
    start = 0
    n = len(values)
    while start < n:
        if values[start] < 0:  # a wall: not part of any run
            start += 1
            continue
        end = start
        while end < n and values[end] >= 0:
            end += 1
        # values[start:end] is one run of non-wall cells
        tiles = [v for v in values[start:end] if v > 0]
        empties = [0] * ((end - start) - len(tiles))
        result[start:end] = empties + tiles if to_end else tiles + empties
        start = end
    return result


def apply_gravity(grid, gravity) -> None:
    """Apply gravity to grid in place (see the module docstring). gravity=None does nothing."""
    _check_gravity(gravity)
    if gravity is None:
        return
    rows, cols = grid_shape(grid)
    if gravity in ("down", "up"):
        for c in range(cols):
            column = [grid[r][c] for r in range(rows)]
            packed = _pack_line(column, to_end=(gravity == "down"))
            for r in range(rows):
                grid[r][c] = packed[r]
    else:
        for r in range(rows):
            grid[r][:] = _pack_line(grid[r], to_end=(gravity == "right"))


def tile_index(grid) -> dict[int, list[tuple[int, int]]]:
    """type -> positions of the tiles of that type, in (row, col) order (the seeds' type2pos).

    Keys are in increasing type order. Walls and empty cells are not indexed.
    """
    found: dict[int, list[tuple[int, int]]] = {}
    for r, row in enumerate(grid):
        for c, value in enumerate(row):
            if value > 0:
                found.setdefault(value, []).append((r, c))
    return {t: found[t] for t in sorted(found)}


def count_tiles(grid) -> int:
    """Number of tiles (cells with value > 0)."""
    return sum(1 for row in grid for value in row if value > 0)


def moves(grid, *, max_turns: int = 2, border: bool = True) -> list:
    """Every removable pair ((r1, c1), (r2, c2)) with the first point smaller; the list is sorted.

    Only same-type pairs are tested, from the type index; no pair is skipped.
    """
    found = []
    for positions in tile_index(grid).values():
        for i in range(len(positions)):
            for j in range(i + 1, len(positions)):
                a, b = positions[i], positions[j]
                if can_link(grid, a, b, max_turns=max_turns, border=border):
                    found.append((a, b))
    found.sort()
    return found


def hint(grid, *, max_turns: int = 2, border: bool = True):
    """The move to suggest: among the removable pairs, the one whose best path (find_path) has
    the fewest turns, then the shortest length; ties go to the smallest pair. None when no pair
    can be removed."""
    best = None
    for a, b in moves(grid, max_turns=max_turns, border=border):
        path = find_path(grid, a, b, max_turns=max_turns, border=border)
        key = (path_turns(path), path_length(path), (a, b))
        if best is None or key < best:
            best = key
    return None if best is None else best[2]


def play_pair(grid, a, b, gravity) -> None:
    """Empty cells a and b, then apply gravity, in place. No legality check (callers do it)."""
    grid[a[0]][a[1]] = 0
    grid[b[0]][b[1]] = 0
    apply_gravity(grid, gravity)


def copy_grid(grid) -> list[list[int]]:
    """A fresh list-of-lists copy of grid (works for any sequence of sequences of ints)."""
    return [list(row) for row in grid]


class Board:
    """A plain model of a game in progress, used as the oracle in state-machine tests.

    Holds the current grid (a list of lists the Board owns), the rules, and undo/redo stacks of
    full-grid snapshots. If gravity is set, the starting grid is compacted once.
    """

    def __init__(self, grid, *, max_turns: int = 2, border: bool = True, gravity=None):
        grid_shape(grid)  # rejects ragged grids
        _check_gravity(gravity)
        if max_turns < 0:
            raise ValueError("max_turns must be >= 0")
        self.grid = copy_grid(grid)
        self.rows = len(self.grid)
        self.cols = len(self.grid[0]) if self.rows else 0
        self.max_turns = max_turns
        self.border = border
        self.gravity = gravity
        apply_gravity(self.grid, gravity)
        self._undo: list[list[list[int]]] = []  # grids before each removal, oldest first
        self._redo: list[list[list[int]]] = []  # grids undone, most recently undone last

    @property
    def tiles_left(self) -> int:
        return count_tiles(self.grid)

    def index(self) -> dict[int, list[tuple[int, int]]]:
        """tile_index of the current grid."""
        return tile_index(self.grid)

    def moves(self) -> list:
        return moves(self.grid, max_turns=self.max_turns, border=self.border)

    def hint(self):
        return hint(self.grid, max_turns=self.max_turns, border=self.border)

    def can_link(self, a, b) -> bool:
        return can_link(self.grid, a, b, max_turns=self.max_turns, border=self.border)

    def find_path(self, a, b):
        return find_path(self.grid, a, b, max_turns=self.max_turns, border=self.border)

    def remove(self, a, b):
        """Remove the tiles at a and b, apply gravity and return the path drawn.

        ValueError if the move is illegal (the board is then unchanged). A successful removal
        can be undone; it clears the redo stack.
        """
        path = self.find_path(a, b)  # ValueError for points off the board
        if path is None:
            raise ValueError(f"illegal move {tuple(a)}-{tuple(b)}")
        self._undo.append(copy_grid(self.grid))
        self._redo.clear()
        play_pair(self.grid, tuple(a), tuple(b), self.gravity)
        return path

    def undo(self) -> bool:
        """Go back one removal; False if there is nothing to undo."""
        if not self._undo:
            return False
        self._redo.append(self.grid)
        self.grid = self._undo.pop()
        return True

    def redo(self) -> bool:
        """Replay the last undone removal; False if there is nothing to redo."""
        if not self._redo:
            return False
        self._undo.append(self.grid)
        self.grid = self._redo.pop()
        return True

    def copy(self) -> "Board":
        """An independent clone: same grid, rules and undo/redo history."""
        return _copy.deepcopy(self)

    def is_clear(self) -> bool:
        return self.tiles_left == 0

    def is_stuck(self) -> bool:
        """Tiles remain but no pair can be removed."""
        return self.tiles_left > 0 and not self.moves()

    def __repr__(self) -> str:
        return (f"Board({self.grid!r}, max_turns={self.max_turns}, border={self.border}, "
                f"gravity={self.gravity!r})")


def verify(grid, moves, *, max_turns: int = 2, border: bool = True, gravity=None) -> bool:
    """Replay moves on a copy of grid; True iff every move is legal when played and the board
    ends with no tiles. Gravity, if any, is applied once before the first move and after each.

    A move that is malformed or names a cell off the board is illegal (False, no error).
    """
    _check_gravity(gravity)
    work = copy_grid(grid)
    rows, cols = grid_shape(work)
    apply_gravity(work, gravity)
    for move in moves:
        try:
            a, b = move
            a = check_point(a, rows, cols)
            b = check_point(b, rows, cols)
        except (TypeError, ValueError):
            return False
        if not can_link(work, a, b, max_turns=max_turns, border=border):
            return False
        play_pair(work, a, b, gravity)
    return count_tiles(work) == 0
