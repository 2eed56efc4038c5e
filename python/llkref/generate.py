"""Deals: a uniformly shuffled board, and KShisen's "deal until a greedy playout clears it"."""

from __future__ import annotations

import random

from .solve import greedy_freedom


def _deal(rows: int, cols: int, copies: int, rng: random.Random) -> list[list[int]]:
    """One shuffled deal drawn from rng (see random_deal)."""
    if rows < 1 or cols < 1:
        raise ValueError("rows and cols must be >= 1")
    if copies < 2 or copies % 2:
        raise ValueError("copies must be a positive even number")
    cells = rows * cols
    if cells % 2:
        raise ValueError(f"a {rows}x{cols} board has an odd number of cells")
    types = cells // copies
    extra = cells - types * copies  # even, because cells and copies are even
    tiles = [t for t in range(1, types + 1) for _ in range(copies)]
    for t in range(1, extra // 2 + 1):
        tiles += [t, t]  # the remainder is made of extra pairs of types 1, 2, ...
    rng.shuffle(tiles)
    return [tiles[r * cols:(r + 1) * cols] for r in range(rows)]


def random_deal(rows: int, cols: int, *, copies: int = 4, seed=None) -> list[list[int]]:
    """A full rows x cols board: types 1..k, `copies` tiles of each (k = rows*cols // copies).

    If rows*cols is not a multiple of copies, the remaining cells hold extra pairs of types
    1, 2, ... The tiles are shuffled with random.Random(seed). ValueError if rows*cols is odd,
    if rows or cols < 1, or if copies is not a positive even number (an odd count could never clear).
    """
    return _deal(rows, cols, copies, random.Random(seed))


def kshisen_generate(rows: int, cols: int, *, copies: int = 4, seed=None, max_turns: int = 2,
                     border: bool = True, gravity=None, tries: int = 200):
    """KShisen's rejection scheme: deal at random and keep the first deal that ONE greedy_freedom
    playout clears, trying at most `tries` deals (all drawn from one random.Random(seed)).

    Returns (grid, deals tried) on success, (None, tries) if no deal passed.
    """
    rng = random.Random(seed)
    for attempt in range(1, tries + 1):
        grid = _deal(rows, cols, copies, rng)
        if greedy_freedom(grid, max_turns=max_turns, border=border, gravity=gravity) is not None:
            return grid, attempt
    return None, tries
