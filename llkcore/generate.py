"""Deals: seeded random boards (and, with solvable=True, boards with a certificate)."""
from __future__ import annotations

import operator
from typing import Any, Optional

import numpy as np

from .board import MAX_SIDE, Board
from .errors import BoardError
from .rules import Rules, as_rules


def _positive_int(value: Any, name: str) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, got bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__}") from None
    if v < 1:
        raise ValueError(f"{name} must be >= 1, got {v}")
    return v


def fill_mask(rows: int, cols: int, layout: Any) -> tuple[np.ndarray, np.ndarray]:
    """(cells to fill, walls) as boolean (rows, cols) arrays from a ``layout`` argument.

    layout None: every cell. A boolean mask: True cells get tiles. A grid of ints: walls (< 0)
    stay walls, cells > 0 get tiles, 0 stays empty.
    """
    if layout is None:
        return np.ones((rows, cols), dtype=bool), np.zeros((rows, cols), dtype=bool)
    arr = np.asarray(layout)
    if arr.shape != (rows, cols):
        raise BoardError(f"layout has shape {arr.shape}, expected {(rows, cols)}")
    if arr.dtype == np.bool_:
        return arr.copy(), np.zeros((rows, cols), dtype=bool)
    if not np.issubdtype(arr.dtype, np.integer):
        raise BoardError(f"layout must be a boolean mask or an int grid, got dtype {arr.dtype}")
    return arr > 0, arr < 0


def type_counts(cells: int, copies: int = 4, types: Optional[int] = None) -> np.ndarray:
    """How many tiles of each type (types 1..k) fill ``cells`` cells.

    With ``types=None``: ``cells // copies`` types of ``copies`` tiles each; the remainder (even)
    becomes one extra pair for each of the first types in turn. With ``types=k``: k types whose
    counts are even and differ by at most 2, the larger counts going to the first types.
    """
    if cells % 2:
        raise ValueError(f"the number of cells to fill must be even, got {cells}")
    if types is None:
        if copies < 2 or copies % 2:
            raise ValueError(f"copies must be an even number >= 2, got {copies}")
        k = cells // copies
        extra_pairs = (cells - k * copies) // 2
        if k == 0:
            k, copies, extra_pairs = extra_pairs, 2, 0
        counts = np.full(k, copies, dtype=np.int64)
        # More extra pairs than types only happens for tiny boards; wrap round.
        for i in range(extra_pairs):
            counts[i % k] += 2
        return counts
    if types < 1:
        raise ValueError(f"types must be >= 1, got {types}")
    pairs = cells // 2
    if types > pairs:
        raise ValueError(f"{types} types do not fit in {cells} cells (at most {pairs})")
    counts = np.full(types, 2 * (pairs // types), dtype=np.int64)
    counts[: pairs % types] += 2
    return counts


def generate(rows: int, cols: int, *, copies: int = 4, types: Optional[int] = None,
             solvable: bool = True, seed: Optional[int] = None, layout: Any = None,
             rules: Optional[Rules] = None) -> Board:
    """A seeded deal on a rows x cols board (see ``type_counts`` for the counts rule).

    ``solvable=False`` deals uniformly at random. The same seed gives the same board on every
    run and platform (numpy's PCG64).
    """
    rows = _positive_int(rows, "rows")
    cols = _positive_int(cols, "cols")
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise BoardError(f"a board may have at most {MAX_SIDE} rows and columns")
    copies = _positive_int(copies, "copies")
    if types is not None:
        types = _positive_int(types, "types")
    rules = as_rules(rules)
    fill, walls = fill_mask(rows, cols, layout)
    counts = type_counts(int(fill.sum()), copies, types)
    rng = np.random.default_rng(seed)
    grid = np.zeros((rows, cols), dtype=np.int32)
    grid[walls] = -1
    if solvable:
        raise NotImplementedError("solvable generation is not built yet")
    tiles = np.repeat(np.arange(1, len(counts) + 1, dtype=np.int32), counts)
    grid[fill] = rng.permutation(tiles)
    return Board(grid, rules=rules)
