"""Stub for the compiled module llkcore._core.playouts (uniformly random playouts, replays)."""
from typing import Optional, Tuple

import numpy as np
import numpy.typing as npt

from .state import GridState

KEEP_LIST_CELLS: int

def random_playouts(s: GridState, max_turns: int, gravity: int, count: int,
                    rng_state: npt.NDArray[np.uint64], time_limit: float = ...,
                    keep_clear: bool = ..., draws: int = ...,
                    cancel: Optional[npt.NDArray[np.int32]] = ..., until_clear: bool = ...,
                    keep_list_cells: int = ...
                    ) -> Tuple[npt.NDArray[np.int32], Optional[npt.NDArray[np.int32]]]: ...
def replay(s: GridState, cells: npt.NDArray[np.int32], max_turns: int, gravity: int,
           take_back: bool = False, time_limit: float = -1.0,
           cancel: Optional[npt.NDArray[np.int32]] = None) -> int: ...
def start_cells(s: GridState, cells: npt.NDArray[np.int32], max_turns: int, gravity: int,
                time_limit: float = -1.0,
                cancel: Optional[npt.NDArray[np.int32]] = None) -> npt.NDArray[np.int32]: ...
def play_greedily(s: GridState, cells: npt.NDArray[np.int32], max_turns: int, gravity: int,
                  max_tests: int, time_limit: float = -1.0,
                  cancel: Optional[npt.NDArray[np.int32]] = None) -> npt.NDArray[np.int32]: ...
