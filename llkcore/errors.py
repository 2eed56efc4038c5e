"""The exceptions llkcore raises for input it refuses or work it cannot do."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .analysis import Analysis


class BoardError(ValueError):
    """A malformed board: not 2-D, empty, ragged, non-integer, out of int32, or too large."""


class CoordinateError(ValueError, IndexError):
    """A point that is not a (row, col) pair of ints on the board."""


class IllegalMove(ValueError):
    """A removal the rules forbid; the board is left unchanged."""


class DealError(ValueError):
    """No solvable deal or reshuffle: the layout cannot be cleared under the rules (a type with
    an odd count, a wall-enclosed region with an odd number of tiles, or proved by exact search),
    or no removal order was found within the budgets. Nothing was changed."""


class AnalysisInterrupted(KeyboardInterrupt):
    """Ctrl-C (or a progress callback's KeyboardInterrupt) stopped ``llk.analyze``: a
    KeyboardInterrupt that keeps what was finished. ``analysis`` holds the results of the
    boards from the first up to the first one not finished (``len(analysis)`` of them; every
    board after it is dropped, finished or not), so a batch stopped after an hour keeps its
    hour of work."""

    def __init__(self, analysis: "Analysis") -> None:
        super().__init__(f"interrupted: the first {len(analysis)} boards were analysed")
        self.analysis = analysis

    def __reduce__(self):
        # (Pickled by its args, the message, it would come back with the message as analysis.)
        return type(self), (self.analysis,)
