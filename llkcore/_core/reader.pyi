"""Stub for the compiled module llkcore._core.reader (user grids read in place)."""
from typing import Any, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from .state import GridState

UNORDERED: Tuple[type, ...]

class GridReader:
    rows: int
    cols: int
    def __init__(self, grid: Any) -> None: ...
    def state(self, border: bool) -> GridState: ...
    def values(self) -> npt.NDArray[np.int32]: ...
    def link(self, ra: int, ca: int, rb: int, cb: int, max_turns: int, border: bool) -> bool: ...
    def path(self, ra: int, ca: int, rb: int, cb: int, max_turns: int,
             border: bool) -> Optional[List[Tuple[int, int]]]: ...
