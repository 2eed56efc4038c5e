"""Fuzzing the ``llk`` command in-process: ``llkcore.cli.main(argv)`` with generated argument
lists and generated board files (text, .json, .npy, hostile headers, binary junk, missing files,
folders).

The contract (docs/architecture.md, "Fuzzing, AddressSanitizer and the leak check"): main never raises; it returns 0 (done), 1 (a negative answer) or
2 (bad input); a 2 comes with one line on stderr, ``llk <command>: error: ...`` (or the help text
when no command is given), never a traceback. A file the command writes is complete or absent:
every output named on the command line holds, after the call, either what it held before or a
whole board, JSON document or SVG picture, and no temporary file is left behind.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import llkcore as llk
from llkcore import cli
from fuzzing import SEEDS, Fuzz, Pick, example_grids
from test_fuzz_api import token_text

pytestmark = pytest.mark.fuzz

CLI = Fuzz("cli")
#: Files live in memory when the machine has a tmpfs (write_atomic fsyncs every file).
TMP_ROOT = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
SENTINEL = b"SENTINEL: what the file held before the call\n"
OUTPUTS = ("out.txt", "out.json", "out.npy", "out.svg", "out.png", "out.bad", "out")


# ---------------------------------------------------------------------------------------------
# Board files
# ---------------------------------------------------------------------------------------------

RULE_OBJECTS = [None, {}, {"max_turns": 3}, {"border": False}, {"gravity": "down"},
                {"max_turns": 1, "border": True, "gravity": "left"}, {"gravity": "sideways"},
                {"max_turns": -1}, {"max_turns": 2.5}, {"max_turns": "2"}, {"border": 1},
                {"colour": "red"}, [], "classic", 7, {"max_turns": 10**30}]
JSON_JUNK = [b"[" * 100_000 + b"]" * 100_000, b"[[" + b"1" * 5000 + b"]]", b"[[1.5, 1]]",
             b"[[true, 1]]", b"[[1, 1], [1]]", b"[]", b"[[]]", b"{}", b'{"grid": 5}',
             b'{"grid": [[1, 1]], "rules": {"gravity": null, "border": false}}',
             b'{"grid": [[1, "1"]]}', b"null", b"\"[[1]]\"", b"[[1, 1]] trailing",
             b'{"grid": [[2147483648, 1]]}', b'{"grid": [[NaN, 1]]}', b"\xff\xfe[[1]]",
             b'[[1, 1]' + b', [1, 1]' * 1100 + b']']
NPY_HEADERS = [("<i8", False, "(1000000000, 1000000000)"), ("<i8", False, "(2, 2)"),
               ("<i8", False, "()"), ("<i8", False, "(-1, 2)"), ("|O", False, "(2, 2)"),
               ("<U4", False, "(2, 2)"), ("|V8", False, "(2, 2)"), ("<f8", True, "(2, 2)"),
               ("<i4", True, "(1025, 1)"), ("<i8", "maybe", "(2, 2)"), ("<i8", False, "(2, 2, 'x')")]
NPY_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64, ">i4", "<i2", bool,
              np.float64]


def _npy_header(descr, fortran, shape):
    header = "{'descr': %r, 'fortran_order': %r, 'shape': %s, }" % (descr, fortran, shape)
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1")


def board_file(pick, grid):
    """(file name, its bytes); the name's extension picks the format the command reads."""
    kind = pick.one(("text", "text", "json", "json", "npy", "npy", "tokens", "bytes",
                     "json-junk", "npy-junk"))
    if kind == "text":
        text = llk.Board(grid).to_text()
        text = pick.one((text, text.replace("\n", "\r\n"), "\ufeff" + text,
                         text.replace(" ", "\x00", 1), text.replace(" ", "\t"), text.rstrip("\n")))
        return pick.one(("b.txt", "b", "b.TXT", "b.dat")), text.encode("utf-8")
    if kind == "tokens":
        return "t.txt", token_text(pick).encode("utf-8", "surrogatepass")
    if kind == "bytes":
        return (pick.one(("x.txt", "x.json", "x.npy")),
                bytes(pick.int(0, 255) for _ in range(pick.int(0, 40))))
    if kind == "json":
        wrap = pick.one(("grid", "object", "object", "extra"))
        data = grid if wrap == "grid" else {"grid": grid, "rules": pick.one(RULE_OBJECTS)}
        if wrap == "extra":
            data["seed"], data["certificate"] = 5, [[0, 0, 0, 1]]
        return "b.json", json.dumps(data).encode()
    if kind == "json-junk":
        return "j.json", pick.one(JSON_JUNK)
    if kind == "npy":
        arr = np.array(grid, dtype=np.int64)
        try:
            arr = arr.astype(pick.one(NPY_DTYPES))
        except (OverflowError, ValueError):
            pass
        if pick.chance(0.5):
            arr = np.asfortranarray(arr)
        arr = pick.one((arr, arr, arr.ravel(), arr[None], arr.ravel()[:1].reshape(()), arr[:0]))
        buffer = io.BytesIO()
        np.save(buffer, arr)
        return "b.npy", buffer.getvalue()
    header = _npy_header(*pick.one(NPY_HEADERS))
    if pick.chance(0.2):
        header = header.replace(b"\x01\x00", pick.one((b"\x03\x00", b"\x09\x09")), 1)
    return "h.npy", header + pick.one((b"", b"\x01" * 8, b"\x01" * 32, b"\x00" * 64))


# ---------------------------------------------------------------------------------------------
# Argument lists
# ---------------------------------------------------------------------------------------------

SIZES = ["2x2", "4x4", "3x6", "6x5", "8x6", "1x2", "kshisen-14x6", "KShisen", "4X4", "2 x 2",
         "3x3", "0x4", "2000x2000", "1025x1", "4y4", "", "x", "-4x4", "4x", "१x2"]
INTS = ["0", "1", "2", "3", "-1", "7", "2147483648", "99999999999999999999", "1.5", "x", "", "0x10"]
SECONDS = ["0.01", "0.2", "0", "-1", "nan", "inf", "1e-9", "x"]
RULE_OPTIONS = [["--turns", "3"], ["--turns", "0"], ["--no-border"], ["--gravity", "down"],
                ["--gravity", "none"], ["--gravity", "sideways"], ["--rules", "qq"],
                ["--rules", "kshisen"], ["--rules", "nope"], ["--turns", "-1"], ["--turns"]]
JUNK_OPTIONS = [["--bogus"], ["stray"], ["-o"], ["--json"], ["--size"], ["--"], ["-h"],
                ["--version"], ["--turns=2"], ["--seed=5"], ["-q", "-q"]]
COMMANDS = ["generate", "solve", "moves", "render", "analyze"]
OTHER_COMMANDS = ["analyse", "", "help", "--rules"]


def _options(pick, choices):
    """A few options from ``choices`` (argv words, or functions of ``pick`` that make them),
    sometimes with junk mixed in."""
    picked = pick.some(choices, 3)
    if pick.chance(0.15):
        picked.append(pick.one(JUNK_OPTIONS))
    return [word for option in picked for word in (option(pick) if callable(option) else option)]


def _value(pick, good, bad=INTS):
    return pick.one(good) if pick.chance(0.8) else pick.one(bad)


def _opt(flag, good, bad=INTS):
    """An option whose value is picked when the option is."""
    return lambda pick: [flag, _value(pick, good, bad)]


def _out(flag, bad=("",)):
    return lambda pick: [flag, _value(pick, [f"@{o}" for o in OUTPUTS] + ["-"], list(bad))]


GENERATE = [_opt("--seed", ["0", "1", "9"]), ["--solvable"], _opt("--copies", ["2", "4", "6"]),
            _opt("--types", ["1", "3", "5"]), _out("-o", ("", "@no/b.txt")), *RULE_OPTIONS]
SOLVE = [_out("--svg"), _out("--json"), _opt("--strategy", list(llk.STRATEGIES), ["guess", ""]),
         _opt("--node-limit", ["1", "50", "2000"]), _opt("--time-limit", SECONDS[:2], SECONDS[2:]),
         *RULE_OPTIONS]
MOVES = [["--json"], *RULE_OPTIONS]
RENDER = [_out("-o"), _opt("--path", ["0,0,0,1", "0,0,1,1", "1 2 3 4"],
                           ["0,0", "a,b,c,d", "0,0,99,99", "-1,0,0,0"]),
          ["--solution"], _opt("--cell", ["8", "36"], ["7", "513", "x"]), *RULE_OPTIONS]
ANALYZE = [_opt("--seed", ["0", "3"]), ["--solvable"], _opt("--workers", ["1", "2"], ["0", "1025"]),
           _out("--json", ("@",)), ["--keep-moves"], _opt("--copies", ["2", "4"]),
           _opt("--types", ["2", "3"]), _opt("--strategy", list(llk.STRATEGIES), ["guess"]),
           _opt("--time-limit", SECONDS[:2], SECONDS[2:]), ["--rate"], *RULE_OPTIONS]
#: Every solve is bounded (and render --solution only sees boards of at most 5x5).
BUDGET = ["--node-limit", "2000"]


def argv(pick, board):
    """An argument list; '@name' stands for a file in the test's folder."""
    command = pick.one(COMMANDS) if pick.chance(0.92) else pick.one(OTHER_COMMANDS)
    words = [command] if command else []
    if command == "generate":
        words += [_value(pick, SIZES[:9], SIZES[9:])] + _options(pick, GENERATE)
    elif command == "solve":
        words += [board] + _options(pick, SOLVE) + BUDGET
    elif command == "moves":
        words += [board] + _options(pick, MOVES)
    elif command == "render":
        words += [board] + _options(pick, RENDER)
    elif command == "analyze":
        if pick.chance(0.8):
            words += ["--size", _value(pick, SIZES[:6], SIZES[9:])]
        words += ["--count", _value(pick, ["1", "2", "3"], ["0", "-1", "x"]), "-q"]
        words += _options(pick, ANALYZE) + BUDGET
    elif command:
        words += _options(pick, RULE_OPTIONS)
    return words


# ---------------------------------------------------------------------------------------------
# The contract
# ---------------------------------------------------------------------------------------------

class _Stdout(io.TextIOWrapper):
    def __init__(self):
        super().__init__(io.BytesIO(), encoding="utf-8", write_through=True)

    def text(self):
        return self.buffer.getvalue().decode("utf-8")


def run_main(words):
    out, err = _Stdout(), _Stdout()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(words)
    return code, out.text(), err.text()


def assert_whole(path: Path):
    """An output file holds what it held before the call, or a complete document (whatever its
    name: ``solve --svg out.bad`` writes an SVG there)."""
    data = path.read_bytes()
    if data == SENTINEL:
        return
    if data.startswith(b"\x89PNG"):
        from PIL import Image
        Image.open(io.BytesIO(data)).verify()
    elif data.startswith(b"<svg"):
        ET.fromstring(data)
    elif data.startswith(b"\x93NUMPY"):
        assert np.load(io.BytesIO(data)).ndim == 2
    elif data.startswith((b"{", b"[")):
        json.loads(data)
    else:
        assert llk.board.parse_text(data.decode("utf-8")), path


def cli_example(data, folder: Path):
    """One board file (or a missing path, or a folder), then a few commands on it."""
    pick = Pick(data.draw(SEEDS, label="seed"))
    for leftover in folder.iterdir():
        if leftover.is_file():
            leftover.unlink()
    name, content = board_file(pick, data.draw(example_grids(5), label="board"))
    where = pick.one(("file", "file", "file", "file", "missing", "folder"))
    board = folder / name
    if where == "file":
        board.write_bytes(content)
    elif where == "folder":
        board = folder
    for _ in range(CALLS_PER_FILE):
        words = [str(folder / w[1:]) if w.startswith("@") else w for w in argv(pick, str(board))]
        one_command(words, folder)


def one_command(words, folder: Path):
    for output in OUTPUTS:
        (folder / output).write_bytes(SENTINEL)
    entry = "llk " + (words[0] if words and words[0] in COMMANDS else "(other)")
    _, (code, out, err) = CLI.call(entry, run_main, words)
    assert code in (0, 1, 2), (words, code, err)
    assert "Traceback" not in err and "Traceback" not in out, (words, err)
    if code == 2:
        lines = err.strip().splitlines()
        assert lines, words
        assert (len(lines) == 1 and lines[0].startswith("llk") and "error" in lines[0]) or \
            lines[0].startswith("usage:"), (words, err)
    if code == 1:
        assert err.strip(), words
    for output in OUTPUTS:
        assert_whole(folder / output)
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")], words
    if code == 0 and words[:1] == ["moves"] and not {"--json", "-h", "--version"} & set(words):
        assert all(len(line.split()) == 2 for line in out.splitlines()), (words, out)


CALLS_PER_FILE = 3


def test_fuzz_cli(pytestconfig):
    with tempfile.TemporaryDirectory(prefix="llk-fuzz-", dir=TMP_ROOT) as tmp:
        CLI.run(lambda data: cli_example(data, Path(tmp)), pytestconfig)
