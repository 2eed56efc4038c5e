"""Deals: seeded random boards, guaranteed-solvable boards with a certificate, and reshuffles.

A solvable deal (DESIGN §3) is made backwards from a game: the cells to fill get one placeholder
type, a random legal removal order is played on them (gravity included), and the two tiles of
each removed pair are then given one type in the cells where they started; the pair types are a
shuffled list holding each type's count / 2 pairs, so the counts come out exact. The removal
order is the certificate. A reshuffle does the same on the occupied cells of a position with
the position's own multiset of types. Every random number comes from one seeded stream
(``llkcore._core.gen``), so a seed gives the same board and certificate on every run, platform
and numpy version.
"""
from __future__ import annotations

import operator
from typing import Any, List, Optional, Tuple

import numpy as np

from ._core import deal as _gen
from ._core.state import GridState
from .board import MAX_SIDE, Board, Move
from .errors import BoardError
from .rules import Rules, as_rules

#: Random playouts tried on one layout before a solvable deal or reshuffle gives up. They
#: alternate between open playouts (the first; they give the best-looking deals) and careful
#: ones (they pick the most constrained tile first: straight-only rules and tight layouts).
MAX_ATTEMPTS = 16
#: Node budget of the exact search that decides a layout when every playout got stuck.
EXACT_NODE_LIMIT = 50_000


class DealError(ValueError):
    """No solvable deal or reshuffle: the layout cannot be cleared under the rules (a type with
    an odd count, a wall-enclosed region with an odd number of tiles, or proved by exact search),
    or no removal order was found within the budgets. Nothing was changed."""


def _int_arg(value: Any, name: str, low: int) -> int:
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int, got bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__}") from None
    if v < low:
        raise ValueError(f"{name} must be >= {low}, got {v}")
    return v


def rng_state(seed: Optional[int]) -> np.ndarray:
    """The 4-word state of the deal stream for ``seed`` (fresh entropy when None).

    Derived through numpy's SeedSequence, whose output is fixed by its specification.
    """
    if seed is not None:
        seed = _int_arg(seed, "seed", 0)
    state = np.random.SeedSequence(seed).generate_state(4, dtype=np.uint64)
    if not state.any():  # xoshiro's one forbidden state; SeedSequence never yields it in practice
        state[0] = 1
    return state


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


def _clear_order(state: GridState, rules: Rules, stream: np.ndarray,
                 what: str) -> Tuple[np.ndarray, np.ndarray]:
    """A removal order that clears ``state`` (tiles all of one type), drawn from ``stream``.

    Returns (current, start): (k, 2) padded cells of each pair when removed and where its tiles
    started. MAX_ATTEMPTS random playouts first; if they all get stuck, the exact solver decides
    the layout (within EXACT_NODE_LIMIT nodes): its order is used, or DealError says why not.
    """
    need = state.tiles // 2
    for attempt in range(MAX_ATTEMPTS):
        current, start = _gen.playout(state.copy(), rules.max_turns, rules.gravity_code,
                                      attempt % 2 == 1, stream)
        if len(current) == need:
            return current, start
    layout = np.array(state.grid_view())
    odd = _odd_region(layout, rules.border)
    if odd is not None:
        cell, tiles = odd
        edge = "" if rules.border else " (with border=False the edge of the board is a wall too)"
        raise DealError(
            f"no solvable {what} exists: the region of non-wall cells around {cell} holds "
            f"{tiles} tile(s), an odd number, and no path or slide ever crosses a wall{edge}")
    from .solver import Verdict, solve  # the solver imports the board facade, as we do

    solution = solve(layout, rules=rules, node_limit=EXACT_NODE_LIMIT)
    if solution.verdict == Verdict.SOLVABLE:
        return _replay_order(state.copy(), solution.moves, rules.gravity_code)
    if solution.verdict == Verdict.UNSOLVABLE:
        raise DealError(
            f"no solvable {what} exists: no removal order clears these {state.tiles} cells under "
            f"{rules!r}, whatever the types (proved by exact search); change the layout or "
            "the rules, or use solvable=False")
    raise DealError(
        f"no solvable {what} found: {MAX_ATTEMPTS} random playouts of the {state.tiles} tiles "
        f"got stuck under {rules!r} and the exact search ran out of its {EXACT_NODE_LIMIT} "
        "nodes (a layout too tight for these rules, e.g. straight links only); change the "
        "layout or the rules, or use solvable=False")


def _odd_region(grid: np.ndarray, border: bool) -> Optional[Tuple[Tuple[int, int], int]]:
    """A region of non-wall cells (4-connected; with a border the regions touching the edge are
    one, joined by the ring) holding an odd number of tiles: ((row, col) in it, tiles), or None.

    Tiles pair only inside a region, so such a layout can never be cleared. Plain Python: it
    only runs once the random playouts have failed.
    """
    rows, cols = grid.shape
    seen = np.zeros((rows, cols), dtype=bool)
    regions = []  # (first cell, tiles, touches the edge)
    for r0 in range(rows):
        for c0 in range(cols):
            if grid[r0, c0] < 0 or seen[r0, c0]:
                continue
            seen[r0, c0] = True
            todo = [(r0, c0)]
            tiles = 0
            edge = False
            while todo:
                r, c = todo.pop()
                tiles += int(grid[r, c] > 0)
                edge = edge or r in (0, rows - 1) or c in (0, cols - 1)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < rows and 0 <= cc < cols and grid[rr, cc] >= 0 and not seen[rr, cc]:
                        seen[rr, cc] = True
                        todo.append((rr, cc))
            regions.append(((r0, c0), tiles, edge))
    if border:
        outer = [reg for reg in regions if reg[2]]
        if outer and sum(reg[1] for reg in outer) % 2:
            return outer[0][0], sum(reg[1] for reg in outer)
        regions = [reg for reg in regions if not reg[2]]
    for cell, tiles, _ in regions:
        if tiles % 2:
            return cell, tiles
    return None


def _replay_order(state: GridState, moves: List[Move],
                  gravity: int) -> Tuple[np.ndarray, np.ndarray]:
    """(current, start) of a removal order given as moves on the board of ``state`` (mutated)."""
    width = state.width
    origin = np.arange((state.rows + 2) * width, dtype=np.int64)
    current = np.array([[(r + 1) * width + c + 1 for r, c in move] for move in moves],
                       dtype=np.int32).reshape(-1, 2)
    start = np.empty_like(current)
    for i, (pa, pb) in enumerate(current.tolist()):
        start[i] = origin[pa], origin[pb]
        for src, dst in state.remove_pair(pa, pb, gravity).tolist():
            origin[dst] = origin[src]
    return current, start


def _certificate(current: np.ndarray, width: int) -> List[Move]:
    """Removal sequence ((r1, c1), (r2, c2)) from (k, 2) padded cells."""
    points = np.empty((len(current), 4), dtype=np.int64)
    points[:, 0::2] = current // width - 1
    points[:, 1::2] = current % width - 1
    return [((a, b), (c, d)) for a, b, c, d in points.tolist()]


def _pair_values(values: np.ndarray, counts: np.ndarray, stream: np.ndarray) -> np.ndarray:
    """One value per pair (counts // 2 pairs of each value), in random order."""
    pairs = np.repeat(np.asarray(values, dtype=np.int32), np.asarray(counts) // 2)
    pairs = np.ascontiguousarray(pairs, dtype=np.int32)
    _gen.permute(pairs, stream)
    return pairs


def _write_pairs(grid: np.ndarray, start: np.ndarray, width: int, values: np.ndarray) -> None:
    """Give both starting cells of pair i the value values[i] (grid: the unpadded board)."""
    grid[start // width - 1, start % width - 1] = values[:, None]


def generate(rows: int, cols: int, *, copies: int = 4, types: Optional[int] = None,
             solvable: bool = True, seed: Optional[int] = None, layout: Any = None,
             rules: Optional[Rules] = None) -> Board:
    """A seeded deal on a rows x cols board, by default one that can be cleared.

    Cells to fill: every cell, or those a ``layout`` marks: a boolean mask (True = a tile), or an
    int grid (> 0 = a tile, 0 = empty, < 0 = a wall, kept with its value). Their number must be
    even. With gravity the board starts compacted, like every Board, so tiles may slide off the
    cells the layout marks (never across a wall).

    Type counts (types 1..k): ``copies`` (even, >= 2) tiles of each of ``cells // copies`` types;
    when ``copies`` does not divide the number of cells, the remainder (even) is made of extra
    pairs of the first types: types 1, 2, ... get ``copies + 2`` tiles (wrapping round to type 1
    if there are more extra pairs than types; with fewer cells than ``copies``, every pair is a
    type of its own). ``types=k`` instead fixes the number of types and ignores ``copies``: the
    counts are even, differ by at most 2, and the larger counts go to the first types.

    ``solvable=True``: the board can be cleared under ``rules`` (gravity included), and
    ``board.certificate`` holds a removal sequence that clears it (``llk.verify`` accepts it).
    It is made by random playouts on the empty layout (see the module docstring), the exact
    solver deciding the layout if MAX_ATTEMPTS of them get stuck. Raises DealError when no
    removal order clears the layout under these rules (e.g. a wall-enclosed region with an odd
    number of cells) or none was found within the budgets. ``solvable=False``: a uniformly
    shuffled deal, ``certificate`` None.

    ``seed`` (an int >= 0, or None for fresh entropy): the same seed and arguments give the same
    board and certificate on every run and platform.
    """
    rows = _int_arg(rows, "rows", 1)
    cols = _int_arg(cols, "cols", 1)
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise BoardError(f"a board may have at most {MAX_SIDE} rows and columns, got {rows}x{cols}")
    if types is None:
        copies = _int_arg(copies, "copies", 2)
        if copies % 2:
            raise ValueError(f"copies must be an even number >= 2, got {copies}")
    else:
        types = _int_arg(types, "types", 1)
    rules = as_rules(rules)
    stream = rng_state(seed)
    fill, walls = fill_mask(rows, cols, layout)
    counts = type_counts(int(fill.sum()), copies, types)
    grid = np.zeros((rows, cols), dtype=np.int32)
    if walls.any():
        grid[walls] = np.asarray(layout)[walls]
    values = np.arange(1, len(counts) + 1, dtype=np.int32)
    if not solvable:
        tiles = np.ascontiguousarray(np.repeat(values, counts), dtype=np.int32)
        _gen.permute(tiles, stream)
        grid[fill] = tiles
        return Board(grid, rules=rules)
    grid[fill] = 1
    state = GridState(grid, rules.border)
    if rules.gravity is not None:
        state.compact(rules.gravity_code)
    current, start = _clear_order(state, rules, stream, "deal")
    grid = np.array(state.grid_view())
    _write_pairs(grid, start, state.width, _pair_values(values, counts, stream))
    board = Board(grid, rules=rules)
    board.certificate = _certificate(current, state.width)
    return board


def reshuffle_types(state: GridState, rules: Rules, *, solvable: bool = True,
                    seed: Optional[int] = None
                    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, Optional[List[Move]]]:
    """New types for the tiles of a position: what ``Board.shuffle`` applies.

    Returns (cells, before, after, certificate): the padded cells of the tiles (row-major), their
    values now and after the reshuffle (the same multiset), and the removal sequence that clears
    the reshuffled position (None when ``solvable`` is False). Reads ``state`` only.
    """
    stream = rng_state(seed)
    grid = state.grid_view()
    occupied = grid > 0
    width = state.width
    rc = np.argwhere(occupied)
    cells = ((rc[:, 0] + 1) * width + rc[:, 1] + 1).astype(np.int32)
    before = np.ascontiguousarray(grid[occupied], dtype=np.int32)
    if not solvable:
        after = before.copy()
        _gen.permute(after, stream)
        return cells, before, after, None
    values, counts = np.unique(before, return_counts=True)
    odd = counts % 2 == 1
    if odd.any():
        raise DealError(f"type {int(values[odd][0])} has {int(counts[odd][0])} tiles left: a board "
                        "with an odd count of some type can never be cleared, so no solvable "
                        "reshuffle exists (use solvable=False)")
    placeholder = np.where(occupied, 1, grid).astype(np.int32)
    # The position is already compacted under gravity (every removal keeps it so).
    current, start = _clear_order(GridState(placeholder, rules.border), rules, stream, "reshuffle")
    shuffled = np.array(grid)
    _write_pairs(shuffled, start, width, _pair_values(values, counts, stream))
    return cells, before, np.ascontiguousarray(shuffled[occupied]), _certificate(current, width)
