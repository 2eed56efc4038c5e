"""Checks on the values users pass in: the one place each kind of argument is validated.

Every public function checks its arguments here (boards are checked by the compiled reader,
``_core/reader.pyx``), so the same argument gets the same error and message everywhere. The
kernels trust what they are given. docs/architecture.md ("Input checks") lists what each call
checks.
"""
from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any, Hashable, List, Optional, Tuple, Type

import numpy as np

from .coords import size_words
from .errors import BoardError, CoordinateError

INT32_MAX = 2**31 - 1
#: Node budgets above this are taken as this: the kernels count nodes in 64 bits, and no search
#: comes near it.
NODE_LIMIT_MAX = 2**62


def integer(value: Any, name: str, *, low: Optional[int] = None, high: Optional[int] = None,
            error: Type[Exception] = TypeError) -> int:
    """``value`` as an int (anything with ``__index__``, never a bool), within [low, high].

    A value of the wrong type raises ``error`` (TypeError unless told otherwise); one out of
    range raises ValueError (or ``error`` when it is a CoordinateError). Both name ``name``.
    """
    if isinstance(value, (bool, np.bool_)):
        raise error(f"{name} must be an int, got bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise error(f"{name} must be an int, got {type(value).__name__}") from None
    out_of_range = CoordinateError if error is CoordinateError else ValueError
    if low is not None and v < low:
        raise out_of_range(f"{name} must be >= {low}, got {shown(v)}")
    if high is not None and v > high:
        raise out_of_range(f"{name} must be <= {high}, got {shown(v)}")
    return int(v)


def optional_integer(value: Any, name: str, *, low: Optional[int] = None,
                     high: Optional[int] = None) -> Optional[int]:
    return None if value is None else integer(value, name, low=low, high=high)


def node_budget(value: Any, name: str = "node_limit", *, low: int = 0) -> Optional[int]:
    """A node budget: None (no limit) or a whole number >= low, capped at NODE_LIMIT_MAX."""
    return None if value is None else min(integer(value, name, low=low), NODE_LIMIT_MAX)


def seconds(value: Any, name: str, *, positive: bool = False) -> Optional[float]:
    """A number of seconds or None (no limit): a real number, not NaN, >= 0 (> 0 when
    ``positive``); infinity means no limit (None)."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number of seconds or None, got {type(value).__name__}")
    try:
        v = float(value)
    except OverflowError:               # an int beyond any float: endless one way or the other
        v = math.inf if value > 0 else -math.inf
    if math.isnan(v) or v < 0 or (positive and v == 0):
        raise ValueError(f"{name} must be {'a positive' if positive else 'a non-negative'} "
                         f"number of seconds, got {value!r}")
    return None if math.isinf(v) else v


# The one key of every NaN label: NaN equals nothing, itself included, so as a dict key each NaN
# object would be a label of its own (each NaN cell of a float grid a new tile type).
_NAN_LABEL = float("nan")


def label_key(label: Hashable) -> Hashable:
    """How labels are told apart: as dict keys are, except that every NaN is one label, inside
    a tuple too (a tuple compares its items by identity first, so two NaN objects differ)."""
    if isinstance(label, (float, complex, np.floating, np.complexfloating)) and label != label:
        return _NAN_LABEL
    if isinstance(label, tuple):
        return tuple(label_key(item) for item in label)
    return label


def flag(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return bool(value)


def choice(value: Any, name: str, options: Sequence[Any]) -> Any:
    """One of ``options`` (strings compared exactly; anything else is a TypeError)."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, one of {tuple(options)}, got {type(value).__name__}")
    if value not in options:
        raise ValueError(f"unknown {name} {value!r}; choose one of {tuple(options)}")
    return value


def text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    return value


def is_array(value: Any) -> bool:
    """True for an ndarray (or subclass) by its type: ``isinstance`` would also believe an object
    whose ``__class__`` claims to be one, and then read attributes it does not have."""
    return issubclass(type(value), np.ndarray)


#: Sequences that are never a (row, col) pair: their order is not one (dict, set) or they hold
#: bytes, not ints the caller wrote (b"\x00\x03" is no point).
_NOT_POINTS = (str, bytes, bytearray, memoryview, dict, set, frozenset)


def pair(p: Any, what: str = "a point") -> Tuple[int, int]:
    """A (row, col) pair of ints, anywhere, else CoordinateError naming ``what``.

    A pair is a tuple, list, 1-D array or other sequence of two ints; a dict, set, string or
    bytes is not (not a (row, col) order, or not ints the caller wrote).
    """
    if type(p) is tuple and len(p) == 2:
        r, c = p
    elif isinstance(p, _NOT_POINTS) or not (
            isinstance(p, Sequence) or is_array(p)):
        raise CoordinateError(f"{what} must be a (row, col) pair, got {shown(p)}")
    else:
        if is_array(p) and p.ndim != 1:
            raise CoordinateError(f"{what} must be a (row, col) pair, got an array of shape {p.shape}")
        if len(p) != 2:
            raise CoordinateError(f"{what} must be a (row, col) pair, got {shown(p)}")
        r, c = p
    if type(r) is not int:
        r = _coordinate(r, "row", what, p)
    if type(c) is not int:
        c = _coordinate(c, "col", what, p)
    return r, c


def _coordinate(value: Any, part: str, what: str, p: Any) -> int:
    """A point's row or col that is not a plain int (a numpy int, a 1-D array's item) as an
    int, else CoordinateError. The message names the point too ("col must be an int" did not
    say which of a move's two), and is made only when raised: the point's repr made a call
    with a 1-D array point 75 us, against 0.4 us with a tuple (an audit)."""
    if not isinstance(value, (bool, np.bool_)):
        try:
            return int(operator.index(value))
        except TypeError:
            pass
    return integer(value, f"the {part} of {what} {shown(p)}", error=CoordinateError)


#: What to do with a grid of labels, where a board wants ints.
LABELS_HINT = "a grid of labels: llk.Board.from_labels"


def board_dtype(dtype: np.dtype) -> np.dtype:
    """``dtype`` when it is one a board's values may have (signed or unsigned ints); else the
    BoardError refusing it, with the way out for labels (object or string arrays) and floats."""
    if dtype.kind in "iu":
        return dtype
    way_out = {"O": LABELS_HINT, "U": LABELS_HINT, "S": LABELS_HINT,
               "f": "whole numbers: .astype(int)"}.get(dtype.kind)
    raise BoardError(f"board values must be ints, got dtype {dtype}"
                     + (f" ({way_out})" if way_out else ""))


def shown(value: Any, typed: bool = False) -> str:
    """``value`` for a message: its repr (after its type's name when ``typed``), or what it is
    when the repr is long or cannot be made (Python writes no int of over 4,300 digits)."""
    if issubclass(type(value), int) and not -10**40 < value < 10**40:
        return f"an int of {value.bit_length()} bits"
    if type(value) is str and len(value) > 40:
        return f"{value[:30]!r}... ({len(value):,} characters)"
    try:
        text = repr(value)
    except Exception:
        text = ""
    if not 0 < len(text) <= 40:
        return f"(a {type(value).__name__})"
    return f"{type(value).__name__} {text}" if typed else text


def point(p: Any, rows: int, cols: int) -> Tuple[int, int]:
    """A (row, col) pair of ints (see ``pair``) on a rows x cols board, else CoordinateError."""
    if type(p) is tuple and len(p) == 2 and type(p[0]) is int and type(p[1]) is int:
        r, c = p                        # the usual point, checked inline: queries are cheap
    else:
        r, c = pair(p)
    if not (0 <= r < rows and 0 <= c < cols):
        raise CoordinateError(f"point ({shown(r)}, {shown(c)}) is off the board of "
                              f"{size_words(rows, cols)}")
    return r, c


def room(needed: Tuple[int, int], available: Tuple[int, int], what: str, advice: str = "") -> None:
    """ValueError unless a screen of ``available`` (lines, columns) can show ``what``, which
    needs ``needed`` (lines, columns); the message says both sizes and ``advice``."""
    (need_lines, need_columns), (lines, columns) = needed, available
    if lines < need_lines or columns < need_columns:
        raise ValueError(f"terminal too small: {what} needs {need_columns} columns x "
                         f"{need_lines} lines, this terminal has {columns} x {lines}"
                         + (f"; {advice}" if advice else ""))


_PLAIN = (tuple, list)      # the types of moves and points checked without isinstance


def _move_point(p: Any, i: int) -> Tuple[int, int]:
    """One point of move i: a sequence of two ints (not a dict, set or string)."""
    if type(p) in _PLAIN and len(p) == 2 and type(p[0]) is int and type(p[1]) is int:
        return (p[0], p[1])         # the usual point, checked inline: certificates are long
    if is_array(p):
        p = p.tolist()
    if isinstance(p, _NOT_POINTS) or not isinstance(p, Sequence) or len(p) != 2:
        raise ValueError(f"move {i}: a point must be a (row, col) pair, got {shown(p)}")
    return (integer(p[0], f"move {i}: row"), integer(p[1], f"move {i}: col"))


def move_sequence(moves: Any) -> List[Tuple[Tuple[int, int], Tuple[int, int]]]:
    """Check the shape of a move sequence: each move ((r1, c1), (r2, c2)) or (r1, c1, r2, c2).

    Raises TypeError / ValueError for anything not of that shape; values are checked later
    (a point off the board is a well-formed but illegal move).
    """
    if is_array(moves):
        if moves.size == 0:
            return []
        if moves.dtype.kind not in "iu":
            raise TypeError(f"moves must hold integers, got dtype {moves.dtype}")
        if moves.ndim == 2 and moves.shape[1] == 4:
            return [((a, b), (c, d)) for a, b, c, d in moves.tolist()]
        if moves.ndim == 3 and moves.shape[1:] == (2, 2):
            return [((a, b), (c, d)) for (a, b), (c, d) in moves.tolist()]
        raise ValueError(f"a moves array must have shape (k, 4) or (k, 2, 2), got {moves.shape}")
    if isinstance(moves, (str, bytes, dict, set, frozenset)) or not hasattr(moves, "__iter__"):
        raise TypeError(f"moves must be a sequence of ((r1, c1), (r2, c2)), got {type(moves).__name__}")
    out = []
    for i, move in enumerate(moves):
        if type(move) in _PLAIN and len(move) == 2:
            out.append((_move_point(move[0], i), _move_point(move[1], i)))
            continue
        if is_array(move):
            move = move.tolist()
        if isinstance(move, _NOT_POINTS) or not isinstance(move, Sequence):
            raise TypeError(f"move {i} must be ((r1, c1), (r2, c2)), got {shown(move)}")
        if len(move) == 4:
            move = ((move[0], move[1]), (move[2], move[3]))
        if len(move) != 2:
            raise ValueError(f"move {i} must be ((r1, c1), (r2, c2)), got {shown(move)}")
        out.append((_move_point(move[0], i), _move_point(move[1], i)))
    return out
