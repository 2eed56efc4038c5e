"""The exceptions llkcore raises for input it refuses or work it cannot do."""


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
