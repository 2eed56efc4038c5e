"""Index: the read-only Python view of a Board's type index (type -> positions).

The index itself lives in the compiled GridState (CSR arrays with a position -> slot map) and
is kept exact by every removal, undo, redo, gravity step and reshuffle.
"""
from __future__ import annotations

import math
import operator
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np

from .coords import point_list

_INT32_MAX = 2**31 - 1


def _type_key(tile_type: Any) -> Optional[int]:
    """The int a tile type lookup means, or None when it cannot name a type: like a dict keyed
    by int (1.5 and "1" are not types, True and 1.0 are 1), and values beyond int32 name no
    type."""
    try:
        value = operator.index(tile_type)
    except TypeError:
        # A float equal to an int finds it, as a dict key would (1.0 == 1, and hashes alike).
        # (By its type: isinstance would believe an object that claims to be a float.)
        if not issubclass(type(tile_type), (float, np.floating)):
            return None
        number = float(tile_type)
        if not (math.isfinite(number) and number.is_integer()):
            return None
        value = int(number)
    return value if 0 < value <= _INT32_MAX else None


class Index:
    """Types still on the board and where their tiles are. Live: it follows its Board."""

    __slots__ = ("_board",)

    def __init__(self, board) -> None:
        self._board = board

    def types(self) -> List[int]:
        """Tile types that still have tiles, ascending."""
        return [int(v) for v in self._board._state.type_values()]

    def _cells(self, tile_type: Any) -> np.ndarray:
        key = _type_key(tile_type)
        if key is None:
            return np.empty(0, dtype=np.int32)
        return self._board._state.positions_of(key)

    def positions(self, tile_type: int) -> List[Tuple[int, int]]:
        """Sorted (row, col) of the tiles of ``tile_type`` (empty if none are left)."""
        return point_list(sorted(self._cells(tile_type).tolist()), self._board._width)

    def count(self, tile_type: int) -> int:
        """Tiles of ``tile_type`` left (0 for anything that is not a type on the board)."""
        return len(self._cells(tile_type))

    def counts(self) -> Dict[int, int]:
        """Type -> number of its tiles on the board, for every type with tiles left."""
        values, counts = self._board._state.type_counts()
        return {int(v): int(c) for v, c in zip(values, counts)}

    def __len__(self) -> int:
        """Number of types with tiles left."""
        return len(self._board._state.type_values())

    def __iter__(self) -> Iterator[int]:
        return iter(self.types())

    def __contains__(self, tile_type: object) -> bool:
        return self.count(tile_type) > 0  # type: ignore[arg-type]

    def as_dict(self) -> Dict[int, List[Tuple[int, int]]]:
        """Type -> the points of its tiles (``positions``), for every type with tiles left."""
        return {t: self.positions(t) for t in self.types()}

    def __repr__(self) -> str:
        # Sizes only: the counts of a 1024 x 1024 deal ran to 2.7 million characters.
        counts = self.counts()
        return f"Index({len(counts)} types, {sum(counts.values())} tiles)"
