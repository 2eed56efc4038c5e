"""Verdict: what the solver proved about a position.

It sits below the Board (with rules and errors) because both the solvers (solver.py) and the
Board's play-time queries (``Board.winnable``, ``Board.hint(safe=True)``, ``Board.traps``; see
_insight.py) answer with it.
"""
from __future__ import annotations

from enum import IntEnum

from ._core import solve as _solve

__all__ = ["Verdict", "VERDICT_OF_STATUS"]


class Verdict(IntEnum):
    """What a solver proved about a board."""

    #: The board can be cleared; ``Solution.moves`` is a removal sequence that clears it.
    SOLVABLE = 1
    #: No removal sequence clears the board (proved by "exact", or some type has an odd count).
    UNSOLVABLE = 0
    #: Not decided: a budget ran out, or a heuristic strategy got stuck.
    UNKNOWN = -1

    # Printed as its name on every Python: IntEnum's str() is "Verdict.SOLVABLE" up to 3.10 and
    # "1" from 3.11. Numeric format specs ("d", "x", ...) still format the int; JSON writes it.
    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        if spec and spec[-1] in "bcdoxXn":
            return format(int(self), spec)
        return format(self.name, spec)


#: Kernel run status -> Verdict.
VERDICT_OF_STATUS = {status: Verdict(v) for status, v in _solve.STATUS_VERDICTS.items()}
