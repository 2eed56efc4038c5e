"""Index: the read-only Python view of a Board's type index (type -> positions).

The index itself lives in the compiled GridState (CSR arrays with a position -> slot map) and
is kept exact by every removal, undo, redo, gravity step and reshuffle.
"""
from __future__ import annotations

from typing import Dict, Iterator, List, Tuple

import numpy as np


class Index:
    """Types still on the board and where their tiles are. Live: it follows its Board."""

    __slots__ = ("_board",)

    def __init__(self, board) -> None:
        self._board = board

    def types(self) -> List[int]:
        """Tile types that still have tiles, ascending."""
        return [int(v) for v in self._board._state.type_values()]

    def positions(self, tile_type: int) -> List[Tuple[int, int]]:
        """Sorted (row, col) of the tiles of ``tile_type`` (empty if none are left)."""
        cells = np.sort(self._board._state.positions_of(int(tile_type)))
        return [self._board._point(p) for p in cells]

    def count(self, tile_type: int) -> int:
        return len(self._board._state.positions_of(int(tile_type)))

    def counts(self) -> Dict[int, int]:
        values, counts = self._board._state.type_counts()
        return {int(v): int(c) for v, c in zip(values, counts)}

    def __len__(self) -> int:
        """Number of types with tiles left."""
        return len(self._board._state.type_values())

    def __iter__(self) -> Iterator[int]:
        return iter(self.types())

    def __contains__(self, tile_type: object) -> bool:
        try:
            return self.count(int(tile_type)) > 0  # type: ignore[arg-type]
        except (TypeError, ValueError, OverflowError):
            return False

    def as_dict(self) -> Dict[int, List[Tuple[int, int]]]:
        return {t: self.positions(t) for t in self.types()}

    def __repr__(self) -> str:
        return f"Index({self.counts()})"
