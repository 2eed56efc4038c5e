"""Stub for the compiled module llkcore._core.link (padded cell indices; see grid.pxd)."""
from typing import List, Optional, Tuple

import numpy as np
import numpy.typing as npt

from .state import GridState

def link(s: GridState, pa: int, pb: int, max_turns: int) -> bool: ...
def link_many(s: GridState, pairs: npt.NDArray[np.int32], max_turns: int) -> npt.NDArray[np.uint8]: ...
def path(s: GridState, pa: int, pb: int, max_turns: int) -> Optional[List[Tuple[int, int]]]: ...
