"""Deal-making below the Board: the seeded stream, layouts, type counts, and the removal orders
behind solvable deals and reshuffles. Board (reshuffles) and deals.py (``llk.generate``) both
build on it; it calls the kernels directly and imports neither.

A solvable layout is made backwards from a game (docs/architecture.md, "Solvable deals"): the
cells to fill get one placeholder type, a random legal removal order is played on them (gravity
included), and the two tiles of each removed pair are then given one type in the cells where
they started; the pair types are a shuffled list holding each type's count / 2 pairs, so the
counts come out exact. The removal order is the certificate. Every random number comes from one
seeded stream (``_core/rng.pxd``), so a seed gives the same board and certificate on every run,
platform and numpy version.
"""
from __future__ import annotations

import itertools
import secrets
from typing import Any, List, Optional, Tuple

import numpy as np

from ._core import deal as _deal
from ._core import solve as _solve
from ._core.reader import GridReader
from ._core.state import MAX_SIDE, GridState
from .checks import integer, is_array
from .coords import Move, moves_of
from .errors import BoardError, DealError
from .rules import Rules

#: Random playouts tried on one layout before a solvable deal or reshuffle gives up. They
#: alternate between open playouts (the first; they give the best-looking deals) and careful
#: ones (they pick the most constrained tile first: straight-only rules and tight layouts).
MAX_ATTEMPTS = 16
#: Node budget of the exact search that decides a layout when every playout got stuck.
EXACT_NODE_LIMIT = 50_000


def fresh_seed() -> int:
    """A new seed from the system's entropy (63 bits), for a deal that records its seed."""
    return secrets.randbits(63)


def rng_state(seed: Optional[int], stream: int = 0) -> np.ndarray:
    """The 4-word state of the deal stream for ``seed`` (fresh entropy when None); ``stream``
    > 0 names another stream of the same seed, independent of it.

    Derived through numpy's SeedSequence, whose output is fixed by its specification.
    """
    if seed is not None:
        seed = integer(seed, "seed", low=0)
    entropy = seed if stream == 0 or seed is None else [seed, stream]
    state = np.random.SeedSequence(entropy).generate_state(4, dtype=np.uint64)
    if not state.any():  # xoshiro's one forbidden state; SeedSequence never yields it in practice
        state[0] = 1
    return state


def fill_mask(rows: int, cols: int, layout: Any) -> Tuple[np.ndarray, np.ndarray]:
    """(cells to fill as a bool array, the grid of walls as int32) from a ``layout`` argument.

    layout None: every cell. A boolean mask: True cells get tiles. A grid of ints (checked like
    a board: int32 values, never wrapped): walls (< 0) stay walls with their values, cells > 0
    get tiles, 0 stays empty.
    """
    if layout is None:
        return np.ones((rows, cols), dtype=bool), np.zeros((rows, cols), dtype=np.int32)
    arr = layout if is_array(layout) else None
    if arr is None and not hasattr(layout, "__len__") and hasattr(layout, "__iter__"):
        # An iterator of rows, read once here (the mask test below read it, and the board
        # reader then lost its first row); at most one row too many, as a board's.
        layout = list(itertools.islice(layout, MAX_SIDE + 1))
    if arr is not None and arr.dtype == np.bool_:
        if isinstance(arr, np.ma.MaskedArray):
            raise BoardError("a masked array is not a layout: fill the masked cells first")
        if arr.shape != (rows, cols):       # (before the copy: it may be a view of 10**12)
            raise BoardError(f"layout has shape {arr.shape}, expected {(rows, cols)}")
        mask = np.array(arr, dtype=bool)
    elif arr is None and _is_bool_grid(layout):
        for r, row in enumerate(layout):
            if len(row) != cols:
                raise BoardError(f"layout row {r} has {len(row)} values, expected {cols}")
        mask = np.array(layout, dtype=bool)
    else:
        values = GridReader(layout).values()
        if values.shape != (rows, cols):
            raise BoardError(f"layout has shape {values.shape}, expected {(rows, cols)}")
        return values > 0, np.where(values < 0, values, 0).astype(np.int32)
    if mask.shape != (rows, cols):
        raise BoardError(f"layout has shape {mask.shape}, expected {(rows, cols)}")
    return mask, np.zeros((rows, cols), dtype=np.int32)


def _is_bool_grid(layout: Any) -> bool:
    """A list of rows holding only bools (a mask written as lists). Nothing of a layout bigger
    than a board can be is read: a row may be a view of 10**12 bools."""
    try:
        return (0 < len(layout) <= MAX_SIDE and all(len(row) <= MAX_SIDE for row in layout)
                and all(isinstance(v, (bool, np.bool_)) for row in layout for v in row))
    except TypeError:
        return False


def type_counts(cells: int, copies: int = 4, types: Optional[int] = None) -> np.ndarray:
    """How many tiles of each type (types 1..k) fill ``cells`` cells.

    With ``types=None``: ``cells // copies`` types of ``copies`` tiles each; the remainder (even)
    becomes one extra pair for each of the first types in turn. With ``types=k``: k types whose
    counts are even and differ by at most 2, the larger counts going to the first types.
    """
    if cells % 2:
        # No deal can exist, like an odd walled-off region: DealError (a ValueError) too.
        raise DealError(f"the number of cells to fill must be even, got {cells}: no deal can "
                        "pair them all")
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


def clear_order(state: GridState, rules: Rules, stream: np.ndarray,
                what: str) -> Tuple[np.ndarray, np.ndarray]:
    """A removal order that clears ``state`` (tiles all of one type), drawn from ``stream``.

    Returns (current, start): (k, 2) padded cells of each pair when removed and where its tiles
    started. A region of walls holding an odd number of tiles is a DealError at once (it took
    16 futile playouts to find: 35 s on a 512 x 512 layout). Then MAX_ATTEMPTS random playouts;
    if they all get stuck, the exact solver decides the layout (within EXACT_NODE_LIMIT nodes):
    its order is used, or DealError says why not.
    """
    odd = _deal.odd_region(np.array(state.grid_view(), dtype=np.int32), rules.border)
    if odd is not None:
        cell, tiles = odd
        edge = "" if rules.border else " (with border=False the edge of the board is a wall too)"
        raise DealError(
            f"no solvable {what} exists: the region of non-wall cells around {cell} holds "
            f"{tiles} tile(s), an odd number, and no path or slide ever crosses a wall{edge}")
    need = state.tiles // 2
    for attempt in range(MAX_ATTEMPTS):
        current, start = _deal.playout(state.copy(), rules.max_turns, rules.gravity_code,
                                       attempt % 2 == 1, stream)
        if len(current) == need:
            return current, start
    status, cells, _ = _solve.solve_state(state.copy(), _solve.STRATEGIES.index("exact"),
                                          rules.max_turns, rules.gravity_code, EXACT_NODE_LIMIT,
                                          -1.0)
    verdict = _solve.STATUS_VERDICTS[status]
    if verdict == 1:
        assert cells is not None        # a solved run always returns its removals
        return _replay_order(state.copy(), cells, rules.gravity_code)
    if verdict == 0:
        raise DealError(
            f"no solvable {what} exists: no removal order clears these {state.tiles} cells under "
            f"{rules!r}, whatever the types (proved by exact search); change the layout or "
            "the rules, or use solvable=False")
    raise DealError(
        f"no solvable {what} found: {MAX_ATTEMPTS} random playouts of the {state.tiles} tiles "
        f"got stuck under {rules!r} and the exact search ran out of its {EXACT_NODE_LIMIT} "
        "nodes (a layout too tight for these rules, e.g. straight links only); change the "
        "layout or the rules, or use solvable=False")


def _replay_order(state: GridState, current: np.ndarray,
                  gravity: int) -> Tuple[np.ndarray, np.ndarray]:
    """(current, start) of a removal order (padded cells in play order) on ``state`` (mutated)."""
    origin = np.arange((state.rows + 2) * state.width, dtype=np.int64)
    current = np.ascontiguousarray(current, dtype=np.int32).reshape(-1, 2)
    start = np.empty_like(current)
    for i, (pa, pb) in enumerate(current.tolist()):
        start[i] = origin[pa], origin[pb]
        for src, dst in state.remove_pair(pa, pb, gravity).tolist():
            origin[dst] = origin[src]
    return current, start


def pair_values(values: np.ndarray, counts: np.ndarray, stream: np.ndarray) -> np.ndarray:
    """One value per pair (counts // 2 pairs of each value), in random order."""
    pairs = np.repeat(np.asarray(values, dtype=np.int32), np.asarray(counts) // 2)
    pairs = np.ascontiguousarray(pairs, dtype=np.int32)
    _deal.permute(pairs, stream)
    return pairs


def write_pairs(grid: np.ndarray, start: np.ndarray, width: int, values: np.ndarray) -> None:
    """Give both starting cells of pair i the value values[i] (grid: the unpadded board)."""
    grid[start // width - 1, start % width - 1] = values[:, None]


#: A certificate the package made: (its moves, them as a read-only (k, 2) array of padded cells).
#: The Board keeps both (Board._certificate_cells), since making the cells from the moves took
#: 0.25 s for a 1024 x 1024 deal's 524,288 at its first query.
Certificate = Tuple[List[Move], np.ndarray]


def certificate_of(cells: np.ndarray, width: int) -> Certificate:
    """The Certificate of a removal order given as (k, 2) padded cells."""
    cells = np.array(cells, dtype=np.int32)
    cells.flags.writeable = False
    return moves_of(cells, width), cells


def solvable_layout(layout: np.ndarray, counts: np.ndarray, rules: Rules,
                    stream: np.ndarray) -> Tuple[np.ndarray, Certificate]:
    """Types for the cells > 0 of ``layout`` (walls < 0 kept) such that the board clears:
    (the grid, compacted under gravity, and its certificate)."""
    state = GridState(np.ascontiguousarray(layout, dtype=np.int32), rules.border)
    if rules.gravity is not None:
        state.compact(rules.gravity_code)
    current, start = clear_order(state, rules, stream, "deal")
    grid = np.array(state.grid_view())
    values = np.arange(1, len(counts) + 1, dtype=np.int32)
    write_pairs(grid, start, state.width, pair_values(values, counts, stream))
    return grid, certificate_of(current, state.width)


def reshuffle_types(state: GridState, rules: Rules, *, solvable: bool = True,
                    seed: Optional[int] = None
                    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Optional[Certificate]]:
    """New types for the tiles of a position: what ``Board.shuffle`` applies.

    Returns (cells, before, after, certificate): the padded cells of the tiles (row-major), their
    values now and after the reshuffle (the same multiset), and the removal sequence that clears
    the reshuffled position (None when ``solvable`` is False). Reads ``state`` only.
    """
    stream = rng_state(seed)
    cells, before = state.tile_cells()
    if not solvable:
        after = before.copy()
        _deal.permute(after, stream)
        return cells, before, after, None
    values, counts = np.unique(before, return_counts=True)
    odd = counts % 2 == 1
    if odd.any():
        left = int(counts[odd][0])
        raise DealError(f"type {int(values[odd][0])} has {left} tile{'s' * (left != 1)} left: a board "
                        "with an odd count of some type can never be cleared, so no solvable "
                        "reshuffle exists (use solvable=False)")
    grid = np.array(state.grid_view())
    occupied = grid > 0
    width = state.width
    placeholder = np.where(occupied, 1, grid).astype(np.int32)
    # The position is already compacted under gravity (every removal keeps it so).
    current, start = clear_order(GridState(placeholder, rules.border), rules, stream, "reshuffle")
    shuffled = grid.copy()
    write_pairs(shuffled, start, width, pair_values(values, counts, stream))
    return cells, before, np.ascontiguousarray(shuffled[occupied]), certificate_of(current, width)

