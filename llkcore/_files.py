"""Files: bytes read as text (``text_of``), and files written whole or not at all (``llk``'s
outputs and ``Picture.save``).

A file goes to a temporary file in its target's folder and is renamed over the target only once
complete, so an error or Ctrl-C part way never leaves half a file, nor destroys the file that was
there. A symbolic link stays (its target is written so); a device or a pipe (``/dev/null``) is
written in place, since renaming would replace it by a file.
"""
from __future__ import annotations

import contextlib
import json
import os
import tempfile
from typing import BinaryIO, Iterator, Tuple


def text_of(raw: bytes) -> str:
    """A board file's or saved game's bytes as text: UTF-8, UTF-16 or UTF-32, told apart as
    ``json.loads`` tells them (a byte order mark, or the zero bytes beside the first ASCII
    character), so that the text formats read what ``from_json`` reads; Windows PowerShell 5's
    ``>`` writes UTF-16. A byte order mark is dropped. UnicodeDecodeError for other bytes."""
    return raw.decode(json.detect_encoding(raw))


def write_target(path: str) -> Tuple[str, bool]:
    """(the file to write for ``path``, whether to write it in place): a symbolic link's target
    (renaming over the link would replace it), written in place when it exists and is neither a
    regular file nor a folder (a device or a pipe, which renaming would replace by a file)."""
    target = os.path.realpath(path)
    return target, os.path.exists(target) and not os.path.isfile(target) and not os.path.isdir(target)


def temp_beside(target: str) -> Tuple[int, str]:
    """(fd, name) of a new temporary file in ``target``'s folder, where ``atomic_writer`` writes
    before renaming (OSError when none can be made there)."""
    folder = os.path.dirname(os.path.abspath(target))
    try:
        return tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise naming(exc, target) from None


def naming(exc: OSError, target: str) -> OSError:
    """``exc`` as raised for ``target``: the caller's file, not the hidden temporary file."""
    return type(exc)(exc.errno, exc.strerror, target) if exc.errno is not None else exc


@contextlib.contextmanager
def atomic_writer(path: str) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through (see the module docstring); the target is
    replaced when the block ends without an exception, and left as it was otherwise. OSError
    when ``path`` cannot be written."""
    target, in_place = write_target(path)
    if in_place:
        with open(target, "wb") as fh:
            yield fh
        return
    fd, tmp = temp_beside(target)
    renamed = False
    try:
        with os.fdopen(fd, "wb") as fh:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fh.fileno(), 0o666 & ~umask)     # (mkstemp makes it 0o600)
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.replace(tmp, target)
        except OSError as exc:          # a folder of that name, say
            raise naming(exc, target) from None
        renamed = True
    finally:
        if not renamed and os.path.exists(tmp):
            os.unlink(tmp)
