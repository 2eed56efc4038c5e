"""Deals: seeded random boards and guaranteed-solvable boards with a certificate (``llk.generate``).

How a solvable deal is made (a random legal removal order played backwards on the layout) is in
``_deals.py``, below the Board, which reshuffles use too; docs/architecture.md ("Solvable deals")
explains why the result can always be cleared. The public function is ``llkcore.generate``; this
module is ``llkcore.deals``, so that neither hides the other.
"""
from __future__ import annotations

import sys
from typing import Any, Dict, Iterator, Optional, Tuple

import numpy as np

from . import _deals
from ._core import deal as _deal
from ._core.state import MAX_SIDE
from .board import Board
from .checks import flag, integer, shown
from .coords import size_words
from .difficulty import check_difficulty, in_band
from .errors import BoardError, DealError
from .rules import Rules, as_rules

__all__ = ["DealError", "Deals", "deal_seed", "generate"]


#: Candidate deals tried for a ``difficulty`` band before generate gives up.
DIFFICULTY_ATTEMPTS = 1000


def generate(rows: int, cols: int, *, copies: int = 4, types: Optional[int] = None,
             solvable: bool = True, seed: Optional[int] = None, layout: Any = None,
             rules: Optional[Rules] = None, difficulty: Optional[str] = None) -> Board:
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
    board and certificate on every run and platform. ``board.seed`` records it (with None, the
    seed drawn), so every generated board can be dealt again.

    ``difficulty`` ("easy", "medium" or "hard"; needs ``solvable=True``): a solvable deal whose
    rating falls in that band, ``llk.rate(board).band == difficulty`` (the score: the percentage
    of uniformly random playouts that get stuck; see llkcore.difficulty). Candidate deals are
    drawn from the seed's streams 1, 2, ... until one is in the band; DealError after
    DIFFICULTY_ATTEMPTS of them (deals of this size and rules are rarely that easy or hard).
    """
    rows, cols, copies, types = _deal_size(rows, cols, copies, types)
    solvable = flag(solvable, "solvable")
    rules = as_rules(rules)
    seed = _deals.fresh_seed() if seed is None else integer(seed, "seed", low=0)
    if difficulty is not None:
        difficulty = check_difficulty(difficulty)
        if not solvable:
            raise ValueError("difficulty= rates solvable deals: use it with solvable=True")
    stream = _deals.rng_state(seed)
    fill, walls = _deals.fill_mask(rows, cols, layout)
    counts = _deals.type_counts(int(fill.sum()), copies, types)
    if difficulty is None:
        return _one_deal(fill, walls, counts, solvable, rules, stream, seed)
    for attempt in range(1, DIFFICULTY_ATTEMPTS + 1):
        board = _one_deal(fill, walls, counts, True, rules, _deals.rng_state(seed, attempt), seed)
        if in_band(board, difficulty):
            return board
    raise DealError(f"no {difficulty} deal of {size_words(rows, cols)} under {rules!r} in "
                    f"{DIFFICULTY_ATTEMPTS} solvable deals: deals of this size and rules rarely "
                    f"rate {difficulty} (see llkcore.difficulty.BANDS); try another "
                    "difficulty, size or rules")


def _deal_size(rows: Any, cols: Any, copies: Any, types: Any
               ) -> Tuple[int, int, int, Optional[int]]:
    """rows, cols, copies and types checked as ``generate`` takes them."""
    rows = integer(rows, "rows", low=1)
    cols = integer(cols, "cols", low=1)
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise BoardError(f"a board may have at most {MAX_SIDE} rows and columns, got "
                         f"{shown(rows)} rows x {shown(cols)} columns")
    if types is None:
        copies = integer(copies, "copies", low=2)
        if copies % 2:
            raise ValueError(f"copies must be an even number >= 2, got {copies}")
    else:
        types = integer(types, "types", low=1)
    return rows, cols, copies, types


def _one_deal(fill: np.ndarray, walls: np.ndarray, counts: np.ndarray, solvable: bool, rules: Rules,
              stream: np.ndarray, seed: int) -> Board:
    """One deal on the cells ``fill`` (walls kept), drawing from ``stream`` (of ``seed``)."""
    grid = walls.copy()
    if not solvable:
        values = np.arange(1, len(counts) + 1, dtype=np.int32)
        tiles = np.ascontiguousarray(np.repeat(values, counts), dtype=np.int32)
        _deal.permute(tiles, stream)
        grid[fill] = tiles
        board = Board(grid, rules=rules)
    else:
        grid[fill] = 1
        grid, certificate = _deals.solvable_layout(grid, counts, rules, stream)
        board = Board(grid, rules=rules)
        board._certificate, board._certificate_cells = certificate[0], certificate
        board._certificate_at = (certificate[0], 0, 0)
    board.seed = seed
    return board


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` in a series seeded ``seed``: independent streams per deal
    (``llk analyze --seed S`` solves ``generate(..., seed=deal_seed(S, i))`` for i = 0, 1, ...)."""
    return int(np.random.SeedSequence([integer(seed, "seed", low=0), integer(index, "index", low=0)])
               .generate_state(1, np.uint64)[0])


class Deals:
    """A seeded series of deals, generated one at a time as it is iterated (sized, so that a
    progress bar knows the total): deal i is ``generate(rows, cols, seed=deal_seed(seed, i),
    solvable=solvable, ...)`` with this class's defaults, which differ from generate's: random
    deals (``solvable=False``, what solvable fractions are measured on) from seed 0."""

    def __init__(self, rows: int, cols: int, count: int, *, copies: int = 4,
                 types: Optional[int] = None, solvable: bool = False, seed: int = 0,
                 rules: Optional[Rules] = None) -> None:
        # Checked now, as generate checks them, not when the deals are first drawn.
        rows, cols, copies, types = _deal_size(rows, cols, copies, types)
        _deals.type_counts(rows * cols, copies, types)
        self.rows, self.cols = rows, cols
        # len() must be able to answer: at most sys.maxsize deals.
        self.count = integer(count, "count", low=0, high=sys.maxsize)
        self.options: Dict[str, Any] = dict(copies=copies, types=types,
                                            solvable=flag(solvable, "solvable"),
                                            rules=as_rules(rules))
        self.seed = integer(seed, "seed", low=0)

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Board]:
        for i in range(self.count):
            yield generate(self.rows, self.cols, seed=deal_seed(self.seed, i), **self.options)
