"""Stub for the compiled module llkcore._core.solve (strategies and the exact search)."""
from typing import Dict, Optional, Tuple

import numpy as np
import numpy.typing as npt

from .state import GridState

#: The strategy names; a strategy's code is its index.
STRATEGIES: Tuple[str, ...]
#: Run status code -> name ("unsolvable", "solved", "node_limit", "time_limit", "stuck",
#: "memory", "odd_count", "cancelled", "interrupted": never returned, solve_state raises the
#: KeyboardInterrupt instead).
STATUS_NAMES: Dict[int, str]
#: Run status code -> verdict value (1 solvable, 0 unsolvable, -1 unknown).
STATUS_VERDICTS: Dict[int, int]
TEST_OPTIONS: Dict[str, int]
#: The default size of the table of dead positions, in entries (from .memo).
MEMO_ENTRIES: int

def solve_state(s: GridState, strategy: int, max_turns: int, gravity: int, node_limit: int,
                time_limit: float, memo_entries: int = ..., seed: int = ..., options: int = ...,
                cancel: Optional[npt.NDArray[np.int32]] = ...,
                stats: Optional[Dict[str, int]] = ...) -> Tuple[int, Optional[npt.NDArray[np.int32]], int]: ...
