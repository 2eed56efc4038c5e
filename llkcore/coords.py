"""Points (row, col) and the kernels' padded cells: the one conversion between them.

The kernels address cell (r, c) of a rows x cols board as ``(r + 1) * W + c + 1`` with
``W = cols + 2`` (docs/architecture.md, "Data layout"); ring points have row -1 / rows or
col -1 / cols.
"""
from __future__ import annotations

from itertools import chain
from typing import Iterable, List, Optional, Sequence, Tuple, Union, overload

import numpy as np
import numpy.typing as npt

from ._core.state import move_points

Point = Tuple[int, int]
Move = Tuple[Point, Point]


def size_words(rows: int, cols: int) -> str:
    """How messages name a board's size, so that it cannot be misread (KShisen says width x
    height, this package's ROWSxCOLS the other way round)."""
    return f"{rows} row{'s' * (rows != 1)} x {cols} column{'s' * (cols != 1)}"


def cell_of(r: int, c: int, width: int) -> int:
    return (r + 1) * width + c + 1


def point_of(cell: int, width: int) -> Point:
    r, c = divmod(int(cell), width)
    return (r - 1, c - 1)


def cells_of(points: np.ndarray, width: int) -> np.ndarray:
    """(..., 2k) int array of row, col pairs -> (..., k) int32 padded cells."""
    points = np.asarray(points, dtype=np.int64)
    return np.ascontiguousarray((points[..., 0::2] + 1) * width + points[..., 1::2] + 1,
                                dtype=np.int32)


def points_of(cells: np.ndarray, width: int) -> npt.NDArray[np.int32]:
    """(..., k) padded cells -> (..., 2k) int32 array of row, col pairs."""
    cells = np.asarray(cells)
    out = np.empty(cells.shape[:-1] + (2 * cells.shape[-1],), dtype=np.int32)
    out[..., 0::2] = cells // width - 1
    out[..., 1::2] = cells % width - 1
    return out


def move_array(moves: Sequence[Move]) -> npt.NDArray[np.int64]:
    """[((r1, c1), (r2, c2)), ...] (ints, as checked moves are) -> (k, 4) int64 array; an int
    past 64 bits raises OverflowError. (np.array on the nested tuples took 0.28 s for a
    1024 x 1024 deal's certificate, this 0.11 s.)"""
    values = chain.from_iterable(chain.from_iterable(moves))
    return np.fromiter(values, np.int64, count=4 * len(moves)).reshape(-1, 4)


def point_list(cells: Iterable[int], width: int) -> List[Point]:
    """Padded cells (ints) -> [(r, c), ...]: in Python, which beats numpy's calls on the few
    tiles of a type."""
    return [(p // width - 1, p % width - 1) for p in cells]


#: Moves made into Python objects per step of ``moves_of``: a step holds the GIL throughout
#: (``tolist`` of a million moves froze every other thread for 0.23 s). With the tuples made in
#: C, steps of 16,384 moves let a Python thread run in 72-77% of the 25 ms slots of a million
#: moves' listing (bench/test_bench_gil.py, floor 70%), steps of 4,096 in 80-82%, and 86% once
#: the tuples were made untracked by the cycle collector (move_points).
_MOVES_PER_STEP = 1 << 12


@overload
def moves_of(cells: np.ndarray, width: int, turns: None = ...) -> List[Move]: ...
@overload
def moves_of(cells: np.ndarray, width: int, turns: np.ndarray) -> List[Tuple[Point, Point, int]]: ...


def moves_of(cells: np.ndarray, width: int, turns: Optional[np.ndarray] = None
             ) -> Union[List[Move], List[Tuple[Point, Point, int]]]:
    """(k, 2) padded cells of removals -> [((r1, c1), (r2, c2)), ...]; with ``turns`` (k ints)
    [((r1, c1), (r2, c2), turns), ...]."""
    # The tuples are made in C (numpy's divmod and tolist took 72,000 instructions for the 18
    # moves of a 6x6 solution, a quarter of llk.solve), a step at a time.
    cells = np.ascontiguousarray(cells, dtype=np.int32).reshape(-1, 2)
    if turns is not None:
        turns = np.ascontiguousarray(turns, dtype=np.int32)
    moves: list = []
    for start in range(0, len(cells), _MOVES_PER_STEP):
        moves += move_points(cells, width, start, min(start + _MOVES_PER_STEP, len(cells)),
                             turns)
    return moves
