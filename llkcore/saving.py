"""Saved games: ``board.to_json()`` / ``llk.Board.from_json(text)``, and pickling.

The document (format version 1) is one JSON object::

    {"format": "llkcore.board", "version": 1,
     "grid": [[...]],                 the position now
     "rules": {"max_turns": 2, "border": true, "gravity": null},
     "certificate": [[r1, c1, r2, c2], ...] or null,
     "seed": 7 or null,               the seed llk.generate dealt the board from
     "labels": [[number, label], ...] or null,   Board.from_labels (a tuple label is a list,
                                      a NaN or infinite one {"float": "nan" | "inf" | "-inf"})
     "start": {"grid": [[...]], "certificate": ...},   where the history begins
     "history": [step, ...],          the steps made, oldest first (what undo takes back)
     "redo": [step, ...]}             the steps undone, the next redo first

A step is a removal ``[r1, c1, r2, c2]`` (the points when it was made) or a reshuffle
``{"shuffle": [types], "certificate": ...}``: the new types of the tiles, row by row, and the
certificate it gave the board. "start" is left out when there is no history.

Loading replays the history from the start position with the checked removal, so a step the
rules forbid is an error and never a corrupt board; then it plays the redo steps and undoes them
again, so undo and redo work as they did before saving. The replay must arrive at "grid". A
document that is not this format, is malformed, or has a newer version raises BoardError.
Pickling ships the same document (grids as arrays, and the board's own certificate as one
(k, 4) array) through the same replay, so there is one piece of code for both
(docs/architecture.md, "Saved games").
"""
from __future__ import annotations

import json
import math
import operator
from typing import TYPE_CHECKING, Any, Dict, Hashable, List, Optional, Tuple, Type, Union

import numpy as np

from .checks import INT32_MAX, label_key, optional_integer, point as check_point, shown
from .coords import Move, points_of
from .errors import BoardError, CoordinateError, IllegalMove
from .rules import Rules
from ._version import __version__

if TYPE_CHECKING:
    from .board import Board

FORMAT = "llkcore.board"
#: The format version this llkcore writes; it reads this one and older.
VERSION = 1

_FIELDS = ("format", "version", "grid", "rules", "certificate", "seed", "labels", "start",
           "history", "redo")
_SHUFFLE = "shuffle"
#: How deep tuples may nest in a saved label (a file's label cannot exhaust the stack).
LABEL_DEPTH = 32


# ---- writing ----------------------------------------------------------------------------------

def document(board: "Board", *, arrays: bool = False) -> Dict[str, Any]:
    """The saved form of ``board`` as a dict of JSON values (grids and reshuffle types as
    numpy arrays when ``arrays``, as pickling wants them)."""
    # Everything is read from one copy, made under the board's lock: a removal by another
    # thread cannot fall between reading the history and reading the grid.
    board = board._work_copy()
    made_out: Dict[str, Any] = {}       # (the certificate's array, made once for both places)
    doc: Dict[str, Any] = {
        "format": FORMAT, "version": VERSION,
        "grid": _grid_out(np.array(board.grid), arrays),
        "rules": board.rules.to_dict(),
        "certificate": _certificate_out(board, board._certificate, arrays, made_out),
        "seed": _seed_out(board.seed),
        "labels": _labels_out(board.labels, as_is=arrays),
    }
    present = board.certificate
    start, start_certificate, made, undone = board._unwind_history()
    if board._branched and not arrays:
        # A removal made after undoing drops the undone positions, perhaps the only one a
        # certificate set by hand cleared: from_json would refuse it, so it is left out.
        # (Pickle copies the board as it is; its load checks nothing.)
        if uncleared(board, [(present, "")]) is not None:
            doc["certificate"] = None
        if uncleared(board, [(start_certificate, "")]) is not None:
            start_certificate = None
    if made or undone:
        doc["start"] = {"grid": _grid_out(start, arrays),
                        "certificate": _certificate_out(board, start_certificate, arrays, made_out)}
        doc["history"] = [_step_out(s, arrays) for s in made]
        doc["redo"] = [_step_out(s, arrays) for s in undone]
    return doc


def to_json(board: "Board", *, indent: Optional[int] = None) -> str:
    indent = optional_integer(indent, "indent", low=0, high=64)
    # Strict JSON: non-finite labels are written as tagged objects (_label_out), never as NaN.
    return json.dumps(document(board), indent=indent, allow_nan=False)


def _grid_out(grid: np.ndarray, arrays: bool) -> Any:
    return np.ascontiguousarray(grid, dtype=np.int32) if arrays else grid.tolist()


def _moves_out(moves: Optional[List[Move]]) -> Optional[List[List[int]]]:
    if moves is None:
        return None
    # (Plain ints already: every way a certificate is set checks it into ints.)
    return [[r1, c1, r2, c2] for (r1, c1), (r2, c2) in moves]


def _certificate_out(board: "Board", moves: Optional[List[Move]], arrays: bool,
                     memo: Dict[str, Any]) -> Any:
    """``_moves_out``; for pickling, the board's own certificate as a (k, 4) int32 array made
    from its cells, the same array for the start and now when they are one certificate (pickle
    then ships it once): as lists, a 1024 x 1024 deal's went out twice in 0.83 s and came back
    in 2.2 s, checked move by move."""
    made = board._certificate_cells
    if not arrays or moves is None or made is None or made[0] is not moves:
        return _moves_out(moves)
    if memo.get("moves") is not moves:
        memo.update(moves=moves, points=points_of(made[1], board._width))
    return memo["points"]


def _step_out(step: tuple, arrays: bool) -> Any:
    if step[0] == _SHUFFLE:
        types = np.asarray(step[1], dtype=np.int32)
        return {_SHUFFLE: types.copy() if arrays else types.tolist(),
                "certificate": _moves_out(step[2])}
    (r1, c1), (r2, c2) = step
    return [r1, c1, r2, c2]


def _labels_out(labels: Optional[Dict[int, Hashable]], as_is: bool) -> Optional[list]:
    """[[number, label], ...]; labels as JSON values unless ``as_is`` (pickle takes any)."""
    if labels is None:
        return None
    return [[number, label if as_is else _label_out(label)] for number, label in labels.items()]


def _seed_out(seed: Any) -> Optional[int]:
    if seed is None:
        return None
    try:
        value = operator.index(seed)
    except TypeError:
        raise TypeError(f"board.seed must be an int or None, got {type(seed).__name__}") from None
    if value < 0:       # (a seed is >= 0, which loading checks: refused here, not there)
        raise ValueError(f"board.seed must be an int >= 0 or None, got {value}")
    return value


#: The longest int label written (13,000 bits, about 3,900 digits): json.loads reads no int of
#: more than 4,300 digits, so a longer one would be saved and then refused.
_LABEL_BITS = 13_000
#: How a saved label that is a NaN or infinite float is written: {"float": "nan"}.
_FLOAT_TAG = "float"
_NON_FINITE = ("nan", "inf", "-inf")


def _label_out(label: Any, depth: int = 0) -> Any:
    """A label as a JSON value: None, bool, int, float, str, or a tuple of them as a list
    (nested at most LABEL_DEPTH deep)."""
    if label is None:
        return None
    if isinstance(label, (bool, np.bool_)):
        return bool(label)
    if isinstance(label, str):
        return str(label)
    if isinstance(label, (int, np.integer)):
        if int(label).bit_length() > _LABEL_BITS:
            raise TypeError(f"an int label of {int(label).bit_length():,} bits cannot be saved as "
                            "JSON (Python reads ints of at most 4,300 digits)")
        return int(label)
    if isinstance(label, (float, np.floating)):
        value = float(label)
        # Strict JSON has no NaN or infinity (a float screen's empty cells are NaN).
        return value if math.isfinite(value) else {_FLOAT_TAG: repr(value)}
    if isinstance(label, tuple):
        if depth == LABEL_DEPTH:
            raise TypeError(f"a label nested more than {LABEL_DEPTH} deep cannot be saved as JSON")
        return [_label_out(item, depth + 1) for item in label]
    raise TypeError(f"label {label!r} ({type(label).__name__}) cannot be saved as JSON: labels "
                    "may be str, int, float, bool, None or tuples of them")


# ---- reading ----------------------------------------------------------------------------------

def from_json(text: Union[str, bytes], board_class: Type["Board"]) -> "Board":
    """The Board (of ``board_class``) a ``to_json`` document describes (see the module
    docstring)."""
    if not isinstance(text, (str, bytes, bytearray)):
        raise TypeError(f"a saved board is JSON text (str or bytes), got {type(text).__name__}")
    if isinstance(text, str):
        # A byte order mark (Notepad's UTF-8), as json.loads skips it in bytes and llk does in
        # files: read_text() keeps it in the str.
        text = text.removeprefix("\ufeff")
    try:
        data = json.loads(text)
    except RecursionError:
        raise BoardError("saved board: JSON nested too deeply") from None
    except ValueError as exc:      # syntax, encoding, integers too long for Python
        raise BoardError(f"saved board: not valid JSON ({exc})") from None
    return restore(data, board_class)


def is_document(data: Any) -> bool:
    """True for a dict that says it is a saved board (of any version): what the CLI reads
    with ``restore`` rather than as a plain grid."""
    return isinstance(data, dict) and "format" in data


def restore(data: Any, board_class: Type["Board"], check_certificates: bool = True) -> "Board":
    """The Board (of ``board_class``: saving sits below board.py, which passes Board in and
    makes a subclass's object of the result) a saved document describes (lists or arrays for
    grids); BoardError if it is malformed, of another format or of a newer version.
    ``check_certificates``: replay every certificate (_check_certificates); unpickling skips
    it, as pickled data is trusted anyway (unpickling can run any code) and a board in memory
    keeps whatever certificate it was given."""
    _check_header(data)
    rules = _rules_in(data.get("rules"))
    now = _board_in(board_class, data.get("grid"), rules, "grid")     # checks every cell
    start = data.get("start")
    history = _list_in(data.get("history", []), "history")
    redo = _list_in(data.get("redo", []), "redo")
    if start is None:
        if history or redo:
            raise BoardError("saved board: a history needs its \"start\" position")
        board, start_saved, start_what = now, data.get("certificate"), "certificate"
    else:
        if not isinstance(start, dict) or set(start) - {"grid", "certificate"} or "grid" not in start:
            raise BoardError("saved board: \"start\" must be an object with \"grid\" and "
                             "\"certificate\"")
        board = _board_in(board_class, start["grid"], rules, "start grid")
        start_saved, start_what = start.get("certificate"), "start certificate"
    start_certificate = board._certificate = _moves_in(start_saved, start_what, board)
    # Checked where the game begins first: when it clears that position the board follows it
    # through the history as the board saved did (Board._certificate_at), and keeps the cells
    # the check made. (One set by hand in mid-game clears a later position: checked below.)
    start_checked = False
    if check_certificates and start_certificate is not None and board._clears(start_certificate):
        board._certificate_at = (start_certificate, 0, 0)
        start_checked = True
    shape = board.shape
    for what, steps in (("history", history), ("redo", redo)):
        for k, step in enumerate(steps, 1):
            _replay(board, step, f"{what} step {k}")
            # A reshuffle's certificate (now the board's) is the one it found for the position
            # it made: replayed there, once (a file cannot make a false promise).
            if (check_certificates and isinstance(step, dict) and board._certificate is not None
                    and not board._clears_here(board._certificate)):
                raise BoardError(f"saved board: the certificate of {what} step {k} does not clear "
                                 "the position its reshuffle made")
    for _ in redo:
        board.undo()
    if not np.array_equal(board.grid, now.grid):
        raise BoardError(f"saved board: its history does not lead to its grid (a {shape[0]}x"
                         f"{shape[1]} start position replayed gives another position)")
    saved = data.get("certificate")
    followed = board._certificate_followed()
    if saved is not None and (saved is start_saved or _same_moves(saved, start_saved)):
        # One certificate given twice (an array once in a pickle, a list twice in JSON): read
        # once (0.75 s for a 1024 x 1024 deal's).
        board._certificate = start_certificate
    else:
        board._certificate = _moves_in(saved, "certificate", board)
        if followed is not None and board._certificate == followed[0]:
            board._certificate = followed[0]        # the one followed (checked), still followed
    if check_certificates:
        # A certificate followed was checked on the position it was made for (the start's
        # above, a reshuffle's as it was replayed).
        _check_certificates(board, [
            (None if start_checked else start_certificate, start_what),
            (None if board._certificate_followed() else board.certificate, "certificate")])
    board.seed = _seed_in(data.get("seed"))
    board._labels = _labels_in(data.get("labels"), board, data.get("grid"), start)
    return board


def _check_certificates(board: "Board", saved: List[Tuple[Optional[List[Move]], str]]) -> None:
    """The start's and the present certificate must each clear some position of the game: a
    file cannot make a false promise (uncleared)."""
    what = uncleared(board, saved)
    if what is not None:
        raise BoardError(f"saved board: the {what} clears no position of the game")


def uncleared(board: "Board", saved: List[Tuple[Optional[List[Move]], str]]) -> Optional[str]:
    """The name of the first certificate of ``saved`` (moves, name) that clears no position of
    the game (start, history, redo) with as many tiles as it removes, or None. A certificate
    promises that its position can be cleared. (The position is not named: one set by hand is
    kept through later removals.) Positions are walked once from the start; only those with a
    certificate's number of tiles replay it, on the walk itself (no copy per position), and a
    certificate given twice (a dealt board's, at the start and now) only once. The positions
    of one tile count follow each other (a removal takes two tiles, a reshuffle none), and each
    after the first is a reshuffle, whose saved types cost as much as a replay: so the work
    grows as the document does, never as its square."""
    pending: List[Tuple[List[Move], str]] = []
    for moves, what in saved:
        if moves is not None and all(moves != other for other, _ in pending):
            pending.append((moves, what))
    walk = board._work_copy()
    while pending and walk.undo():
        pass
    while pending:
        pending = [(moves, what) for moves, what in pending
                   if not (walk.tiles_left == 2 * len(moves) and walk._clears_here(moves))]
        if not walk.redo():
            break
    return pending[0][1] if pending else None


def _check_header(data: Any) -> None:
    if not isinstance(data, dict):
        raise BoardError(f"saved board: expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise BoardError(f"not a saved llkcore board: \"format\" is {shown(data.get('format'))}, "
                         f"expected {FORMAT!r}")
    version = data.get("version")
    if type(version) is not int or version < 1:
        raise BoardError(f"saved board: \"version\" must be an int >= 1, got {shown(version)}")
    if version > VERSION:
        raise BoardError(f"saved board: format version {shown(version)} is newer than this llkcore "
                         f"({__version__}) reads (version {VERSION} and older): upgrade llkcore")
    unknown = sorted(set(data) - set(_FIELDS), key=str)
    if unknown:
        raise BoardError(f"saved board: unknown field(s) {unknown} in a version {version} document")
    if "grid" not in data or "rules" not in data:
        raise BoardError("saved board: \"grid\" and \"rules\" are required")


def _rules_in(value: Any) -> Rules:
    try:
        return Rules.from_dict(value)
    except (TypeError, ValueError) as exc:
        raise BoardError(f"saved board: bad rules: {exc}") from None


def _grid_in(value: Any, what: str) -> Any:
    """A grid as the document holds it: a list of lists of ints (JSON) or an int array (pickle).
    Board() checks the values; here only what JSON could smuggle in (floats, bools)."""
    if isinstance(value, np.ndarray):
        if value.ndim != 2 or value.dtype.kind not in "iu":
            raise BoardError(f"saved board: {what} must be a 2-D integer array")
        return value
    if not isinstance(value, list) or not all(
            isinstance(row, list) and all(type(v) is int for v in row) for row in value):
        raise BoardError(f"saved board: {what} must be a list of rows of integers")
    return value


def _board_in(board_class: Type["Board"], value: Any, rules: Rules, what: str) -> "Board":
    """The Board of the document's ``what`` grid, whose errors name the document."""
    grid = _grid_in(value, what)
    try:
        return board_class(grid, rules=rules)
    except BoardError as exc:
        raise BoardError(f"saved board: {what}: {exc}") from None


def _list_in(value: Any, what: str) -> list:
    if not isinstance(value, list):
        raise BoardError(f"saved board: \"{what}\" must be a list of steps")
    return value


def _move_in(value: Any, what: str, board: "Board", number: Optional[int] = None) -> Move:
    """A saved move, checked; ``what`` names it in errors (move ``number`` of ``what`` when
    given: the name is made only for an error, not for each of a long certificate's moves)."""
    if type(value) is list and len(value) == 4:     # the usual move, checked inline
        r1, c1, r2, c2 = value
        rows, cols = board._rows, board._cols
        if (type(r1) is int and type(c1) is int and type(r2) is int and type(c2) is int
                and 0 <= r1 < rows and 0 <= c1 < cols and 0 <= r2 < rows and 0 <= c2 < cols):
            return ((r1, c1), (r2, c2))
    if number is not None:
        what = f"{what} move {number}"
    if not isinstance(value, (list, tuple)) or len(value) != 4:
        raise BoardError(f"saved board: {what} must be [r1, c1, r2, c2], got {shown(value)}")
    try:
        a = check_point((value[0], value[1]), board.rows, board.cols)
        b = check_point((value[2], value[3]), board.rows, board.cols)
    except CoordinateError as exc:
        raise BoardError(f"saved board: {what}: {exc}") from None
    return (a, b)


def _moves_in(value: Any, what: str, board: "Board") -> Optional[List[Move]]:
    if value is None:
        return None
    if isinstance(value, np.ndarray):       # a pickle's (_certificate_out), checked at once
        inside = (value.ndim == 2 and value.shape[1] == 4 and value.dtype.kind in "iu"
                  and bool((value >= 0).all())
                  and bool((value[:, 0::2] < board._rows).all())
                  and bool((value[:, 1::2] < board._cols).all()))
        if not inside:
            raise BoardError(f"saved board: {what} must be a (k, 4) array of points on the board")
        return [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in value.tolist()]
    if not isinstance(value, list):
        raise BoardError(f"saved board: {what} must be a list of [r1, c1, r2, c2] or null")
    return [_move_in(m, what, board, i + 1) for i, m in enumerate(value)]


def _same_moves(saved: Any, read: Any) -> bool:
    """Is ``saved`` (a document's moves) the list ``read`` (moves as the document gave them,
    which reading accepted), with ints where it has ints? (== alone takes True and 1.0 for 1,
    which reading refuses.)"""
    return (type(saved) is list and type(read) is list and saved == read
            and all(type(v) is int for move in saved for v in move))


def _replay(board: "Board", step: Any, what: str) -> None:
    """Make one saved step on ``board``, checked: a removal the rules allow, or a reshuffle
    that keeps the tiles' types."""
    if isinstance(step, dict):
        if set(step) != {_SHUFFLE, "certificate"}:
            raise BoardError(f"saved board: {what}: a reshuffle is {{\"shuffle\": [types], "
                             f"\"certificate\": ...}}, got the fields {sorted(step, key=str)}")
        _reshuffle(board, step[_SHUFFLE], step["certificate"], what)
        return
    a, b = _move_in(step, what, board)
    try:
        board._remove(a, b, with_path=False)
    except IllegalMove as exc:
        raise BoardError(f"saved board: {what} is not a legal removal: {exc}") from None


def _reshuffle(board: "Board", types: Any, certificate: Any, what: str) -> None:
    # (The tiles from the index: a step costs its tiles, not the whole grid.)
    cells, before = board._state.tile_cells()
    if isinstance(types, np.ndarray):
        ok = types.ndim == 1 and types.dtype.kind in "iu"
    else:
        ok = isinstance(types, list) and all(type(v) is int for v in types)
    if not ok or len(types) != len(before):
        raise BoardError(f"saved board: {what}: a reshuffle lists the new type of each of the "
                         f"{len(before)} tiles, row by row")
    # (A tile type is an int32; a larger int cannot be one, nor be converted to compare.)
    in_range = isinstance(types, np.ndarray) or all(-2**31 <= v < 2**31 for v in types)
    after = np.ascontiguousarray(types if in_range else [], dtype=np.int64)
    if not np.array_equal(np.sort(after), np.sort(before)):
        raise BoardError(f"saved board: {what}: a reshuffle keeps the types of the tiles left; "
                         "these types are not the same multiset")
    moves = _moves_in(certificate, f"{what} certificate", board)
    with board._writer:
        board._record_shuffle(cells, before, after.astype(np.int32), moves)


def _seed_in(value: Any) -> Optional[int]:
    if value is None:
        return None
    if type(value) is not int or value < 0:
        raise BoardError(f"saved board: \"seed\" must be an int >= 0 or null, got {value!r}")
    return value


def _labels_in(value: Any, board: "Board", grid: Any, start: Any) -> Optional[Dict[int, Hashable]]:
    if value is None:
        return None
    if not isinstance(value, list):
        raise BoardError("saved board: \"labels\" must be a list of [number, label] or null")
    labels: Dict[int, Hashable] = {}
    seen = set()
    for item in value:
        if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int:
            raise BoardError(f"saved board: a label entry is [number, label], got {item!r}")
        number, label = item[0], _label_in(item[1])
        if not -INT32_MAX - 1 <= number <= INT32_MAX:
            raise BoardError(f"saved board: label number {number} is not an int32 (no cell "
                             "can hold it)")
        # (Every NaN is one label, as Board.from_labels reads them: label_key.)
        if number in labels or label_key(label) in seen:
            raise BoardError(f"saved board: number {number} or label {label!r} appears twice in "
                             "\"labels\"")
        labels[number] = label
        seen.add(label_key(label))
    if 0 not in labels:
        raise BoardError("saved board: \"labels\" has no label for an empty cell (number 0)")
    grids = [np.asarray(grid)] + ([np.asarray(start["grid"])] if start is not None else [])
    missing = set(np.unique(np.concatenate([g.ravel() for g in grids])).tolist()) - set(labels)
    if missing:
        raise BoardError(f"saved board: the grid holds numbers {sorted(missing)[:5]} that "
                         "\"labels\" does not name")
    return labels


def _label_in(value: Any, depth: int = 0) -> Hashable:
    """A saved label: lists were tuples (a label is hashable, a list is not)."""
    if isinstance(value, list):
        if depth == LABEL_DEPTH:
            raise BoardError(f"saved board: a label is nested more than {LABEL_DEPTH} deep")
        return tuple(_label_in(v, depth + 1) for v in value)
    if isinstance(value, dict):
        special = value.get(_FLOAT_TAG) if len(value) == 1 else None
        if special not in _NON_FINITE:
            raise BoardError("saved board: a label is a str, number, bool, null, a list of them "
                             f"or {{\"{_FLOAT_TAG}\": \"nan\" | \"inf\" | \"-inf\"}}")
        return float(special)
    return value        # (a non-finite float too: pickling ships labels as they are)
