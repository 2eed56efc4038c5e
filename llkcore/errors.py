"""The exceptions llkcore raises for input it refuses."""


class BoardError(ValueError):
    """A malformed board: not 2-D, empty, ragged, non-integer, out of int32, or too large."""


class CoordinateError(ValueError, IndexError):
    """A point that is not a (row, col) pair of ints on the board."""


class IllegalMove(ValueError):
    """A removal the rules forbid; the board is left unchanged."""
