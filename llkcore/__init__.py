"""llkcore: a fast, exact engine for the tile-matching game 连连看 (Link-up / Onet / Shisen-Sho).

The public API is re-exported here; see README.md and docs/architecture.md.
"""
try:
    from ._core import state as _state_check  # noqa: F401
except ImportError as exc:
    from ._missing import kernels_missing

    raise kernels_missing(exc) from exc

from .board import MAX_SIDE, Board, Hint, Traps, can_link, find_path, hint, moves
from .index import Index
from .deals import generate
from .errors import AnalysisInterrupted, BoardError, CoordinateError, DealError, IllegalMove
from .rules import GRAVITIES, PRESETS, Rules
from .solver import STRATEGIES, Solution, Solver, Verdict, solve, verify
from .batch import Analysis, analyze
from .difficulty import DIFFICULTIES, Rating, rate
from . import render  # noqa: F401  (it gives the Board its pictures: board.use_pictures)

from ._version import __version__

__all__ = [
    "Board", "BoardError", "CoordinateError", "DealError", "GRAVITIES", "IllegalMove", "MAX_SIDE",
    "PRESETS", "Rules", "Index", "can_link", "find_path", "generate", "hint", "moves",
    "Hint", "Traps",
    "STRATEGIES", "Solution", "Solver", "Verdict", "solve", "verify",
    "Analysis", "AnalysisInterrupted", "analyze", "DIFFICULTIES", "Rating", "rate",
    "__version__",
]
