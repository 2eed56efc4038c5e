"""Board files of the ``llk`` command: reading them safely, writing them atomically.

Formats: the text grid (any extension but .json and .npy on input; .txt or none on output),
``.json`` (written as a saved game, ``board.to_json()``, see saving.py; read as that, or as a
plain grid or ``{"grid": ..., "rules": ...}``) and ``.npy`` (a 2-D integer array). A
hostile file gets one line and exit code 2: sizes, the .npy header (checked before anything is
allocated), the JSON nesting depth and integer sizes are all bounded. Every file written goes to
a temporary file in the same folder and is renamed over the target only once complete, so a
failed write never destroys the file that was there.
"""
from __future__ import annotations

import errno
import io
import json
import os
import sys
from typing import Any, Iterable, Optional, Tuple

import numpy as np

from .._core.state import MAX_SIDE
from .. import saving
from .._files import atomic_writer, temp_beside, text_of, write_target
from ..board import Board, parse_text
from ..errors import BoardError
from ..rules import Rules
from .options import UsageError

#: Largest board file read: a MAX_SIDE x MAX_SIDE grid of int32 values in text or JSON.
MAX_FILE_BYTES = 64 << 20
#: Board file extensions the command writes.
BOARD_EXTENSIONS = (".txt", ".json", ".npy", "")


def rules_from_json(obj: Any, path: str) -> Optional[Rules]:
    if obj is None:
        return None
    try:
        return Rules.from_dict(obj)
    except (TypeError, ValueError) as exc:
        raise UsageError(f"{path}: bad rules: {exc}") from None


def read_npy(path: str) -> np.ndarray:
    """A 2-D integer array from a .npy file whose header is checked before any allocation."""
    fmt = np.lib.format
    with open(path, "rb") as fh:
        try:
            version = fmt.read_magic(fh)
            header = (fmt.read_array_header_1_0 if version == (1, 0)
                      else fmt.read_array_header_2_0)
            shape, _, dtype = header(fh)
        except (ValueError, EOFError, OSError) as exc:
            raise UsageError(f"{path}: not a .npy array file ({exc})") from None
        if len(shape) != 2:
            raise UsageError(f"{path}: a board must be 2-D, the file holds shape {shape}")
        if not all(1 <= n <= MAX_SIDE for n in shape):
            raise UsageError(f"{path}: a board has 1..{MAX_SIDE} rows and columns, the file "
                             f"holds shape {shape}")
        if dtype.kind not in "iu":
            raise UsageError(f"{path}: board values must be integers, the file holds {dtype}")
        fh.seek(0)
        try:
            return np.load(fh, allow_pickle=False)
        except (ValueError, EOFError, OSError) as exc:
            raise UsageError(f"{path}: not a readable .npy array ({exc})") from None


def read_json(content: str, path: str) -> Any:
    try:
        return json.loads(content)
    except RecursionError:
        raise UsageError(f"{path}: JSON nested too deeply") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):     # more digits than Python reads
            raise UsageError(f"{path}: invalid JSON: a number too large for a board") from None
        raise UsageError(f"{path}: invalid JSON: {exc}") from None


def read_board(path: str, rules: Any) -> Board:
    """A Board from a file ('-': stdin, text or JSON). ``rules``: a function from the file's
    rules (or None) to the rules to use (the command line's options override the file's)."""
    ext = os.path.splitext(path)[1].lower()
    file_rules: Optional[Rules] = None
    try:
        if ext == ".npy" and path != "-":
            grid: Any = read_npy(path)
        else:
            if path == "-":
                if sys.stdin is None:
                    raise OSError(errno.EBADF, "stdin is closed")
                raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
                if raw.startswith(b"\x93NUMPY"):
                    raise UsageError("-: stdin holds a .npy array: give the file's name")
            else:
                with open(path, "rb") as fh:
                    raw = fh.read(MAX_FILE_BYTES + 1)
            if len(raw) > MAX_FILE_BYTES:
                raise UsageError(f"{path}: larger than {MAX_FILE_BYTES >> 20} MiB, too large for a board")
            content = text_of(raw)      # UTF-8, -16 or -32, as from_json reads; no byte order mark
            if path == "-":
                # No name to tell the format by: JSON is an object or a list, text never is.
                ext = ".json" if content.lstrip()[:1] in ("{", "[") else ""
            if ext == ".json":
                data = read_json(content, path)
                if saving.is_document(data):
                    return _with_rules(saving.restore(data, Board), rules)
                if isinstance(data, dict):
                    if "grid" not in data:
                        raise UsageError(f"{path}: a JSON board is a grid or an object with \"grid\"")
                    # (seed and certificate: what llk generate wrote before saved games.)
                    unknown = sorted(set(data) - {"grid", "rules", "seed", "certificate"}, key=str)
                    if unknown:
                        # A typo ("rulez") or a saved game without its "format" lost what it
                        # said without a word: the board was read under other rules.
                        raise UsageError(f"{path}: unknown field(s) {unknown} beside \"grid\" "
                                         "(a board is {\"grid\": ..., \"rules\": ...}; a saved "
                                         "game, as to_json writes it, starts with its \"format\")")
                    file_rules = rules_from_json(data.get("rules"), path)
                    grid = data["grid"]
                else:
                    grid = data
                if not isinstance(grid, list) or not all(
                        isinstance(row, list) and all(type(v) is int for v in row) for row in grid):
                    raise UsageError(f"{path}: the grid must be a list of lists of integers")
            else:
                grid = parse_text(content)
        return Board(grid, rules=rules(file_rules))
    except UnicodeDecodeError:
        if ext == ".json":
            raise UsageError(f"{path}: invalid JSON: not UTF-8, UTF-16 or UTF-32 text") from None
        raise UsageError(f"{path}: not a text board (use .npy or .json for other formats)") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (BoardError, ValueError) as exc:
        raise UsageError(f"{path}: {exc}") from None


def _with_rules(board: Board, rules: Any) -> Board:
    """A saved game under the rules to use: itself, or its position under the options' rules
    (its history belongs to its own rules)."""
    own = rules(board.rules)
    return board if own == board.rules else Board(board.grid, rules=own)


def write_atomic(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (llkcore/_files.py; '-': stdout)."""
    write_pieces(path, [data])


def write_pieces(path: str, pieces: Iterable[bytes]) -> None:
    """Write ``pieces`` one after another to ``path`` whole or not at all (llkcore/_files.py:
    an error or Ctrl-C part way leaves the file that was there); '-': stdout. A big picture is
    written a piece at a time, never held whole."""
    if path == "-":
        out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
        for piece in pieces:
            out.write(piece) if out is not None else sys.stdout.write(piece.decode())
        sys.stdout.flush()
        return
    named(path)
    try:
        with atomic_writer(path) as fh:
            for piece in pieces:
                fh.write(piece)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None


def named(path: str) -> str:
    """``path``, refused when empty ("" is the current folder to the file system: the error
    said "a folder")."""
    if not path:
        raise UsageError("an output file name is empty: give a name, or - for stdout")
    return path


def check_writable(path: str) -> None:
    """UsageError now if write_atomic could not write ``path`` later (no such folder, no right
    to write there, a folder by that name): for outputs written after a long run."""
    if path == "-":
        return
    target, in_place = write_target(named(path))
    if os.path.isdir(target):
        raise UsageError(f"{path}: cannot write: it is a folder")
    if in_place:
        if not os.access(target, os.W_OK):
            raise UsageError(f"{path}: cannot write: permission denied")
        return
    try:
        fd, tmp = temp_beside(target)
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(tmp)


def write_text(path: str, content: str) -> None:
    write_atomic(path, content.encode("utf-8"))


def say_wrote(what: str, path: Optional[str]) -> None:
    """Tell the user, on stderr, what went into a file (nothing for stdout): every command
    that writes a file says so."""
    if path not in (None, "-"):
        print(f"wrote {what} to {path}", file=sys.stderr)


def board_extension(path: str) -> str:
    """The board format of an output name; UsageError for one the command cannot write."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in BOARD_EXTENSIONS:
        raise UsageError(f"{path}: cannot write a board as {ext}: use .txt, .json or .npy "
                         "(pictures: llk render -o FILE.svg)")
    return ext


def output_extension(option: str, path: str, allowed: Tuple[str, ...], what: str) -> str:
    """The extension of an output name, lower case; UsageError (``{option} {path}: write
    {what}``) for one not in ``allowed``, so a picture never goes into a .png or .gif name of the
    wrong format."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in allowed and not write_target(named(path))[1]:
        # (A device or a pipe, /dev/null say, has no extension to check: the first allowed
        # format is written to it.)
        raise UsageError(f"{option} {path}: write {what}")
    return ext if ext in allowed else allowed[0]


def write_board(board: Board, path: Optional[str]) -> None:
    """Write a board as text (stdout when path is None or '-'), .npy (the grid) or .json (the
    saved game: grid, rules, history, certificate, seed; ``llk.Board.from_json`` reads it)."""
    if path is None or path == "-":
        sys.stdout.write(board.to_text())
        return
    ext = board_extension(path)
    if ext == ".npy":
        buffer = io.BytesIO()
        np.save(buffer, np.array(board.grid))
        write_atomic(path, buffer.getvalue())
    elif ext == ".json":
        write_text(path, board.to_json() + "\n")
    else:
        write_text(path, board.to_text())
