"""llkcore: a fast, exact engine for the tile-matching game 连连看 (Link-up / Onet / Shisen-Sho).

The public API is re-exported here; see README.md and DESIGN.md.
"""
try:
    from ._core import state as _state_check  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised only on a broken install
    raise ImportError(
        "llkcore's compiled kernels are missing or failed to load "
        f"({exc}). llkcore has no slow fallback: build them with `pip install .` from the "
        "source tree (needs a C compiler; Cython and numpy are fetched by pip)."
    ) from exc

from .board import MAX_SIDE, Board, can_link, find_path, moves
from .index import Index
from .generate import generate
from .errors import BoardError, CoordinateError, IllegalMove
from .rules import GRAVITIES, Rules
from .solver import STRATEGIES, Solution, Solver, Verdict, solve, verify
from .batch import Analysis, analyze

__version__ = "0.1.0"

__all__ = [
    "Board", "BoardError", "CoordinateError", "GRAVITIES", "IllegalMove", "MAX_SIDE", "Rules",
    "Index", "can_link", "find_path", "generate", "moves",
    "STRATEGIES", "Solution", "Solver", "Verdict", "solve", "verify",
    "Analysis", "analyze",
]
