"""Stub for the compiled module llkcore._core.solve (strategies and the exact search)."""
from typing import Dict, Optional, Tuple

import numpy as np
import numpy.typing as npt

from .grid import GridState

#: Default cap of the exact search's dead-state table, in entries of 16 bytes.
MEMO_ENTRIES: int
#: Run status code -> name ("unsolvable", "solved", "node_limit", "time_limit", "stuck",
#: "memory", "odd_count", "cancelled").
STATUS_NAMES: Dict[int, str]

def solve_state(s: GridState, strategy: int, max_turns: int, gravity: int, node_limit: int,
                time_limit: float, memo_entries: int = ..., seed: int = ..., options: int = ...,
                cancel: Optional[npt.NDArray[np.int32]] = ...) -> Tuple[int, Optional[npt.NDArray[np.int32]], int]: ...
