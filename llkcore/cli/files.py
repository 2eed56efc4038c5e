"""Board files of the ``llk`` command: reading them safely, writing them atomically.

Formats: the text grid (any extension but .json and .npy on input; .txt or none on output),
``.json`` (a grid, or ``{"grid": ..., "rules": ...}``) and ``.npy`` (a 2-D integer array). A
hostile file gets one line and exit code 2: sizes, the .npy header (checked before anything is
allocated), the JSON nesting depth and integer sizes are all bounded. Every file written goes to
a temporary file in the same folder and is renamed over the target only once complete, so a
failed write never destroys the file that was there.
"""
from __future__ import annotations

import io
import json
import os
import sys
import tempfile
from typing import Any, Dict, Optional

import numpy as np

from .._core.state import MAX_SIDE
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
    if not isinstance(obj, dict):
        raise UsageError(f"{path}: \"rules\" must be an object")
    unknown = set(obj) - {"max_turns", "border", "gravity"}
    if unknown:
        raise UsageError(f"{path}: unknown rules field(s) {sorted(unknown)}")
    try:
        return Rules(**obj)
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
    except ValueError as exc:      # syntax, and integers of more digits than Python reads
        raise UsageError(f"{path}: invalid JSON: {exc}") from None


def read_board(path: str, rules: Any) -> Board:
    """A Board from a file. ``rules``: a function from the file's rules (or None) to the rules
    to use (the command line's options override the file's)."""
    ext = os.path.splitext(path)[1].lower()
    file_rules: Optional[Rules] = None
    try:
        if ext == ".npy":
            grid: Any = read_npy(path)
        else:
            with open(path, "rb") as fh:
                raw = fh.read(MAX_FILE_BYTES + 1)
            if len(raw) > MAX_FILE_BYTES:
                raise UsageError(f"{path}: larger than {MAX_FILE_BYTES >> 20} MiB, too large for a board")
            content = raw.decode("utf-8")
            if ext == ".json":
                data = read_json(content, path)
                if isinstance(data, dict):
                    if "grid" not in data:
                        raise UsageError(f"{path}: a JSON board is a grid or an object with \"grid\"")
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
        raise UsageError(f"{path}: not a text board (use .npy or .json for other formats)") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (BoardError, ValueError) as exc:
        raise UsageError(f"{path}: {exc}") from None


def write_atomic(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, renamed over the
    target when complete ('-': stdout)."""
    if path == "-":
        sys.stdout.buffer.write(data) if hasattr(sys.stdout, "buffer") else sys.stdout.write(data.decode())
        sys.stdout.flush()
        return
    folder = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=folder)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise UsageError(f"{path}: cannot write: {exc.strerror or exc}") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


def write_text(path: str, content: str) -> None:
    write_atomic(path, content.encode("utf-8"))


def board_extension(path: str) -> str:
    """The board format of an output name; UsageError for one the command cannot write."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in BOARD_EXTENSIONS:
        raise UsageError(f"{path}: cannot write a board as {ext}: use .txt, .json or .npy "
                         "(pictures: llk render -o FILE.svg)")
    return ext


def write_board(board: Board, path: Optional[str], extra: Optional[Dict[str, Any]] = None) -> None:
    """Write a board as text (stdout when path is None or '-'), .json or .npy."""
    if path in (None, "-"):
        sys.stdout.write(board.to_text())
        return
    ext = board_extension(path)
    if ext == ".npy":
        buffer = io.BytesIO()
        np.save(buffer, np.array(board.grid))
        write_atomic(path, buffer.getvalue())
    elif ext == ".json":
        r = board.rules
        data = {"grid": np.asarray(board.grid).tolist(),
                "rules": {"max_turns": r.max_turns, "border": r.border, "gravity": r.gravity}}
        data.update(extra or {})
        if board.certificate is not None:
            data["certificate"] = [[a[0], a[1], b[0], b[1]] for a, b in board.certificate]
        write_text(path, json.dumps(data) + "\n")
    else:
        write_text(path, board.to_text())
