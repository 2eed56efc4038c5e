"""The ``llk`` command end to end on files in a temp dir: generate, moves, solve, render, analyze;
every file format; malformed files and bad option values give one clear line and exit code 2."""
from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import llkcore as llk
from llkcore import cli
from conftest import ctrl_c

BIN = Path(sys.executable).parent


def run(capsys, *argv):
    """main(argv) in this process: (exit code, stdout, stderr)."""
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err, command):
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"llk {command}: error: "), err
    return lines[0]


# ---------------------------------------------------------------------------------------------
# generate, then read the file back with every other command
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ext", [".txt", ".json", ".npy"])
def test_generate_writes_each_format_and_the_other_commands_read_it(tmp_path, capsys, ext):
    path = tmp_path / f"board{ext}"
    code, out, err = run(capsys, "generate", "6x8", "--seed", 11, "-o", path)
    assert code == 0, err
    expected = llk.generate(6, 8, solvable=False, seed=11)
    if ext == ".npy":
        assert np.array_equal(np.load(path), expected.grid)
    elif ext == ".json":
        data = json.loads(path.read_text())
        assert data["grid"] == expected.grid.tolist() and data["seed"] == 11
    else:
        assert path.read_text() == expected.to_text()

    code, out, err = run(capsys, "moves", path)
    assert code == 0, err
    listed = [tuple(tuple(int(v) for v in p.split(",")) for p in line.split()) for line in out.splitlines()]
    assert listed == expected.moves()
    code, out, _ = run(capsys, "moves", path, "--json")
    assert [tuple(map(tuple, (m[:2], m[2:]))) for m in json.loads(out)] == expected.moves()

    code, out, err = run(capsys, "render", path)
    assert code == 0, err
    assert llk.board.parse_text(out) == expected.grid.tolist()


def test_generate_to_stdout_is_deterministic_per_seed(capsys):
    _, first, _ = run(capsys, "generate", "8x6", "--seed", 3)
    _, again, _ = run(capsys, "generate", "8x6", "--seed", 3)
    _, other, _ = run(capsys, "generate", "8x6", "--seed", 4)
    assert first == again != other
    assert llk.Board.from_text(first).shape == (8, 6)


def test_generate_solvable_carries_its_certificate(tmp_path, capsys):
    path = tmp_path / "deal.json"
    code, _, err = run(capsys, "generate", "6x6", "--solvable", "--seed", 5, "-o", path)
    assert code == 0, err
    data = json.loads(path.read_text())
    moves = [((m[0], m[1]), (m[2], m[3])) for m in data["certificate"]]
    assert llk.verify(np.array(data["grid"]), moves)


def test_generate_rules_options_go_into_json(tmp_path, capsys):
    path = tmp_path / "g.json"
    code, _, err = run(capsys, "generate", "6x6", "--seed", 1, "--gravity", "down", "--no-border",
                       "--turns", 3, "-o", path)
    assert code == 0, err
    data = json.loads(path.read_text())
    assert data["rules"] == {"max_turns": 3, "border": False, "gravity": "down"}
    # moves reads the rules from the file.
    code, out, _ = run(capsys, "moves", path)
    board = llk.Board(data["grid"], rules=llk.Rules(max_turns=3, border=False, gravity="down"))
    assert len(out.splitlines()) == len(board.moves())


def test_generate_says_what_text_and_npy_leave_out(tmp_path, capsys):
    """An audit: `llk generate 8x18 --solvable --gravity down | llk solve -` solved the deal
    under the classic rules without a word: only .json holds the rules and the certificate."""
    code, out, err = run(capsys, "generate", "6x6", "--seed", 1, "--solvable", "--gravity", "down")
    assert code == 0 and out
    assert err == ("note: the text keeps only the grid, not its rules or its certificate (-o "
                   "FILE.json keeps everything)\n")
    npy = tmp_path / "g.npy"
    code, _, err = run(capsys, "generate", "6x6", "--seed", 1, "--turns", 3, "-o", npy)
    assert code == 0 and err.splitlines()[-1] == (f"note: {npy} keeps only the grid, not its "
                                                  "rules (-o FILE.json keeps everything)")
    for argv in (["-o", tmp_path / "g.json", "--solvable", "--gravity", "down"], ["--seed", 2]):
        code, _, err = run(capsys, "generate", "6x6", *argv)
        assert code == 0 and "note" not in err, err


def test_every_rule_field_can_be_set_over_a_files_rules(tmp_path, capsys):
    """An audit: --no-border had no --border to turn the ring back on over a file's rules, and
    a file whose gravity was "none", the command line's own word, was refused."""
    path = tmp_path / "walled.json"
    # Each pair is cut by the other: only the ring round the board links one.
    path.write_text(json.dumps({"grid": [[1, 2, 1, 2]], "rules": {"border": False, "gravity": "none"}}))
    code, out, err = run(capsys, "solve", path)
    assert code == 0 and out.startswith("unsolvable"), err
    code, out, err = run(capsys, "solve", path, "--border")
    assert code == 0 and out.startswith("solvable"), err
    assert llk.Rules(gravity="none") == llk.Rules() == llk.Rules.from_dict({"gravity": "none"})


@pytest.mark.parametrize("extra", [{"rulez": {"max_turns": 0}}, {"seed": 5, "history": [[0, 0, 0, 1]]}])
def test_a_plain_json_board_with_unknown_fields_is_refused(tmp_path, capsys, extra):
    """An audit: a typo of "rules", or a saved game without its "format", was read as a plain
    grid under the default rules and its other fields dropped without a word."""
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"grid": [[1, 1]], **extra}))
    code, out, err = run(capsys, "moves", path)
    assert code == 2 and not out
    assert f"unknown field(s) {sorted(set(extra) - {'seed'})}" in one_error_line(err, "moves")


def test_generate_json_is_a_saved_game_the_api_reads(tmp_path, capsys):
    path = tmp_path / "deal.json"
    code, _, err = run(capsys, "generate", "6x6", "--solvable", "--seed", 5, "--gravity", "up",
                       "-o", path)
    assert code == 0, err
    loaded = llk.Board.from_json(path.read_text())
    dealt = llk.generate(6, 6, seed=5, rules=llk.Rules(gravity="up"))
    assert loaded.to_json() == dealt.to_json()
    assert loaded.seed == 5 and loaded.certificate == dealt.certificate


def test_commands_read_a_saved_game_at_its_current_position(tmp_path, capsys):
    board = llk.generate(6, 6, seed=8, rules=llk.Rules(gravity="down"))
    for move in board.certificate[:5]:
        board.remove(*move)
    board.undo()
    path = tmp_path / "game.json"
    path.write_text(board.to_json())
    code, out, _ = run(capsys, "moves", path, "--json")
    assert code == 0
    assert [((m[0], m[1]), (m[2], m[3])) for m in json.loads(out)] == board.moves()
    # Options override the saved rules: the position now, under the options' rules.
    code, out, _ = run(capsys, "moves", path, "--json", "--gravity", "none", "--turns", "1")
    assert [((m[0], m[1]), (m[2], m[3])) for m in json.loads(out)] == \
        llk.Board(board.grid, rules=llk.Rules(max_turns=1)).moves()


@pytest.mark.parametrize("content", [
    [[1, 2, 0], [2, 1, 0]],                                             # a plain grid
    {"grid": [[1, 2, 0], [2, 1, 0]], "rules": {"max_turns": 2, "border": True, "gravity": None}},
    # what llk generate wrote before saved games: grid, rules, seed and certificate
    {"grid": [[1, 2, 0], [2, 1, 0]], "rules": {"max_turns": 2, "border": True, "gravity": None},
     "seed": 3, "certificate": [[0, 0, 1, 1], [0, 1, 1, 0]]},
])
def test_older_json_boards_still_load(tmp_path, capsys, content):
    path = tmp_path / "old.json"
    path.write_text(json.dumps(content))
    code, out, err = run(capsys, "moves", path, "--json")
    assert code == 0, err
    assert [((m[0], m[1]), (m[2], m[3])) for m in json.loads(out)] == \
        llk.Board([[1, 2, 0], [2, 1, 0]]).moves()


# ---------------------------------------------------------------------------------------------
# solve and render
# ---------------------------------------------------------------------------------------------

def test_solve_prints_the_verdict_and_a_replayable_solution(tmp_path, capsys):
    for seed in range(30):
        board = llk.generate(6, 6, solvable=False, seed=seed)
        if llk.solve(board).verdict == llk.Verdict.SOLVABLE:
            break
    path = tmp_path / "b.txt"
    path.write_text(board.to_text())
    code, out, err = run(capsys, "solve", path, "--svg", tmp_path / "s.svg", "--json",
                         tmp_path / "s.json")
    assert code == 0, err
    # The report as without --json, as analyze prints its table beside its file (an audit:
    # solve printed nothing); --json - is the report itself.
    assert out.splitlines()[0].startswith("solvable (exact") and len(out.splitlines()) == \
        1 + board.tiles_left // 2
    # Each file written is named on stderr, as generate does (solve said nothing: an audit).
    assert err.splitlines() == [
        f"wrote the result (solvable, {board.tiles_left // 2} moves) to {tmp_path / 's.json'}",
        f"wrote the picture to {tmp_path / 's.svg'}"]
    data = json.loads((tmp_path / "s.json").read_text())
    ref = llk.solve(board)
    assert data["verdict"] == "solvable" and data["nodes"] == ref.nodes
    moves = [((m[0], m[1]), (m[2], m[3])) for m in data["moves"]]
    assert llk.verify(board.grid, moves)
    root = ET.parse(tmp_path / "s.svg").getroot()
    steps = [e for e in root.iter() if e.get("class") == "step"]
    assert len(steps) == 2 * len(moves)
    # Text output: the verdict line, then one numbered line per move.
    code, out, _ = run(capsys, "solve", path)
    lines = out.splitlines()
    assert lines[0].startswith("solvable")
    assert len(lines) == 1 + len(moves)


def test_solve_reports_unsolvable(tmp_path, capsys):
    path = tmp_path / "stuck.txt"
    path.write_text("1 2\n2 1\n")
    code, out, err = run(capsys, "solve", path, "--no-border")
    assert code == 0, err
    assert out.startswith("unsolvable")


def test_render_svg_with_a_path(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("2 3 2\n4 5 4\n")
    svg = tmp_path / "b.svg"
    code, _, err = run(capsys, "render", path, "-o", svg, "--path", "0,0,0,2")
    assert code == 0 and err == f"wrote the picture to {svg}\n", err
    root = ET.parse(svg).getroot()
    (line,) = [e for e in root.iter() if e.get("class") == "path"]
    corners = llk.find_path([[2, 3, 2], [4, 5, 4]], (0, 0), (0, 2))
    assert line.get("data-points") == " ".join(f"{r},{c}" for r, c in corners)
    # Text with the path overlay.
    code, out, _ = run(capsys, "render", path, "--path", "0,0,0,2")
    assert code == 0 and out.count("[2]") == 2
    # Pairs that do not link: exit 1; points off the board: a usage error.
    code, _, err = run(capsys, "render", path, "--path", "0,1,1,1")
    assert code == 1 and "do not link" in err
    code, _, err = run(capsys, "render", path, "--path", "0,0,9,9")
    assert code == 2
    one_error_line(err, "render")


def test_render_png_with_a_path_and_a_solution(tmp_path, capsys, monkeypatch):
    pytest.importorskip("PIL", reason="PNG pictures need Pillow: pip install 'llkcore[png]'")
    from PIL import Image
    from llkcore import render
    path = tmp_path / "b.txt"
    path.write_text("1 2\n1 2\n")
    for extra in (["--path", "0,0,1,0"], ["--solution"]):
        png = tmp_path / "b.png"
        code, _, err = run(capsys, "render", path, "-o", png, "--cell", 20, *extra)
        assert code == 0, err
        pic = render.layout(llk.Board.from_text(path.read_text()), cell=20)
        assert Image.open(png).size == (pic.width, pic.height)
    # Without Pillow: one line saying how to get it, before any work.
    def missing():
        raise ImportError('PNG pictures need Pillow: pip install "llkcore[png]"')
    monkeypatch.setattr(render, "pillow", missing)
    code, _, err = run(capsys, "render", path, "-o", tmp_path / "c.png")
    assert code == 2 and "llkcore[png]" in one_error_line(err, "render")
    assert not (tmp_path / "c.png").exists()


def test_render_numbered_solution_needs_an_svg(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("1 2\n1 2\n")
    code, _, err = run(capsys, "render", path, "-o", tmp_path / "s.svg", "--solution")
    assert code == 0, err
    ET.parse(tmp_path / "s.svg")
    code, _, err = run(capsys, "render", path, "--solution")
    assert code == 2
    one_error_line(err, "render")
    code, _, err = run(capsys, "render", path, "-o", tmp_path / "s.gif")
    assert code == 2 and ".png" in one_error_line(err, "render")


@pytest.mark.parametrize("output", [[], ["-o", "b.txt"]])
def test_render_refuses_a_cell_size_for_text(tmp_path, capsys, monkeypatch, output):
    """--cell sizes a picture: with text output it was taken and did nothing (an audit)."""
    monkeypatch.chdir(tmp_path)
    Path("b.txt").write_text("1 2\n1 2\n")
    code, _, err = run(capsys, "render", "b.txt", *output, "--cell", 20)
    assert code == 2 and "--cell sizes a picture" in one_error_line(err, "render")
    widths = []
    for cell in ([], ["--cell", 20]):
        code, _, err = run(capsys, "render", "b.txt", "-o", "b.svg", *cell)
        assert code == 0, err
        widths.append(float(ET.parse("b.svg").getroot().get("width")))
    assert widths[1] < widths[0]        # (the default, 36 pixels a cell, and 20)



def test_render_takes_the_cell_sizes_the_api_takes(tmp_path, capsys, monkeypatch):
    """A UI audit: render.svg took cells of 8 to 1024 pixels, llk render --cell 8 to 512."""
    from llkcore import render

    monkeypatch.chdir(tmp_path)
    Path("b.txt").write_text("1 2\n1 2\n")
    assert run(capsys, "render", "b.txt", "-o", "b.svg", "--cell", render.MAX_CELL)[0] == 0
    assert Path("b.svg").read_text() == render.svg(llk.Board.from_text("1 2\n1 2\n"), cell=render.MAX_CELL)
    code, _, err = run(capsys, "render", "b.txt", "-o", "b.svg", "--cell", render.MAX_CELL + 1)
    assert code == 2 and "--cell" in one_error_line(err, "render")


# ---------------------------------------------------------------------------------------------
# analyze
# ---------------------------------------------------------------------------------------------

def test_analyze_matches_solving_the_same_seeded_deals(tmp_path, capsys):
    out_json = tmp_path / "a.json"
    code, out, err = run(capsys, "analyze", "--size", "6x6", "--count", 24, "--seed", 9,
                         "--workers", 2, "--json", out_json, "-q")
    assert code == 0 and err == f"wrote the results of 24 deals to {out_json}\n", err
    assert "solvable" in out and "24 boards" in out
    data = json.loads(out_json.read_text())
    verdicts, nodes = [], []
    for i in range(24):
        board = llk.generate(6, 6, solvable=False, seed=cli.deal_seed(9, i))
        sol = llk.solve(board)
        verdicts.append(int(sol.verdict))
        nodes.append(sol.nodes)
    assert data["boards"]["verdict"] == verdicts
    assert data["boards"]["nodes"] == nodes
    assert data["summary"]["boards"] == 24
    assert data["deals"] == {"rows": 6, "cols": 6, "count": 24, "copies": 4, "types": None,
                             "solvable": False, "seed": 9}


def test_analyze_json_to_stdout_keeps_the_table_apart(capsys):
    code, out, err = run(capsys, "analyze", "--size", "4x4", "--count", 5, "--json", "-", "-q",
                         "--keep-moves")
    assert code == 0
    data = json.loads(out)  # stdout is the JSON alone
    assert len(data["boards"]["moves"]) == 5 and "verdict" in err


def test_analyze_refuses_an_unwritable_json_before_the_run(tmp_path, capsys):
    """A --json path that cannot be written fails at once (exit 2), not after a long run whose
    answers it then loses: a million deals would take minutes."""
    for where in (tmp_path / "no such folder" / "a.json", tmp_path):
        start = time.perf_counter()
        code, out, err = run(capsys, "analyze", "--count", 10**6, "--json", where, "-q")
        assert code == 2 and "cannot write" in one_error_line(err, "analyze")
        assert time.perf_counter() - start < 30 and "boards" not in out


@pytest.mark.parametrize("argv", [["analyze", "--size", "4x4", "--count", "3", "-q", "--json",
                                   "out.json"],
                                  ["solve", "b.txt", "--json", "out.json", "--svg", "out.svg"]])
def test_files_asked_for_are_written_when_stdout_fails(tmp_path, argv):
    """A helper's audit: ``llk analyze --json run.json | head -1`` printed its summary first, met
    the pipe its reader had closed and exited 0 without writing run.json (the whole run lost);
    ``llk solve --svg`` the same. Files are written first: then a gone reader is still exit 0, a
    full disk exit 2, and the files are there either way."""
    (tmp_path / "b.txt").write_text("1 1\n2 2\n")
    outputs = [tmp_path / name for name in argv if name.startswith("out.")]
    command = [sys.executable, "-m", "llkcore", *argv]
    read_end, write_end = os.pipe()
    os.close(read_end)              # the reader is gone before the first line
    try:
        done = subprocess.run(command, cwd=tmp_path, stdout=write_end, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    finally:
        os.close(write_end)
    assert done.returncode == 0, done.stderr
    assert all(path.stat().st_size > 0 for path in outputs), done.stderr
    if os.path.exists("/dev/full"):
        for path in outputs:
            path.unlink()
        with open("/dev/full", "w") as full:
            done = subprocess.run(command, cwd=tmp_path, stdout=full, stderr=subprocess.PIPE,
                                  text=True, timeout=120)
        assert done.returncode == 2, done.stderr
        assert all(path.stat().st_size > 0 for path in outputs), done.stderr


@pytest.mark.parametrize("argv", [["analyze", "--size", "4x4", "--count", "2", "-q", "--json"],
                                  ["solve", "b.txt", "--json"], ["solve", "b.txt", "--svg"],
                                  ["analyze", "--count", "2", "-q", "--keep-moves", "--json"]])
def test_an_empty_output_name_is_refused(tmp_path, capsys, monkeypatch, argv):
    """``--json ""`` (say ``--json "$OUT"`` with OUT unset) was taken as no --json: the run's
    results went nowhere, and with --keep-moves the error said --json was missing."""
    (tmp_path / "b.txt").write_text("1 1\n2 2\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *argv, "")
    assert code == 2 and one_error_line(err, argv[0]).endswith(
        "an output file name is empty: give a name, or - for stdout")
    assert not out


def test_analyze_reproduces_its_exact_time_limit(capsys):
    code, out, err = run(capsys, "analyze", "--size", "4x4", "--count", 2, "--json", "-", "-q",
                         "--time-limit", "0.1234567")
    assert code == 0 and "--time-limit 0.1234567 " in json.loads(out)["reproduce"] + " "
    assert "--keep-moves" not in json.loads(out)["reproduce"]


@pytest.mark.parametrize("keep_moves", [[], ["--keep-moves"]])
def test_analyze_reproduces_its_document(capsys, tmp_path, keep_moves):
    """The reproduce command, run as it stands, writes the same document again: with the
    solutions when they were kept (it once left out the --json that --keep-moves needs)."""
    where = tmp_path / "a run.json"
    code, out, err = run(capsys, "analyze", "--size", "4x4", "--count", 2, "--json", where, "-q",
                         *keep_moves)
    doc = json.loads(where.read_text())
    assert code == 0 and ("moves" in doc["boards"]) == bool(keep_moves)
    where.unlink()
    code, out, err = run(capsys, *shlex.split(doc["reproduce"])[1:])      # (after "llk")
    assert code == 0, err
    again = json.loads(where.read_text())
    for boards in (again["boards"], doc["boards"]):
        del boards["seconds"]                           # (times differ from run to run)
    assert again["boards"] == doc["boards"] and again["reproduce"] == doc["reproduce"]


def test_analyze_names_the_option_a_deal_size_fails_on(capsys):
    code, out, err = run(capsys, "analyze", "--copies", 3)
    assert code == 2 and "--copies 3" in one_error_line(err, "analyze")


def test_analyze_shows_progress_and_passes_rules(capsys):
    code, out, err = run(capsys, "analyze", "--size", "4x6", "--count", 10, "--gravity", "down",
                         "--no-border", "--workers", 1, "--progress")
    assert code == 0
    assert "gravity=down" in out and "border=False" in out
    assert "analyze" in err  # the progress bar (or plain line) on stderr
    # Without --progress, a stderr that is not a terminal (a log file) gets no bar.
    code, out, err = run(capsys, "analyze", "--size", "4x6", "--count", 10, "--workers", 1)
    assert code == 0 and "gravity=None" in out and err == ""


def test_deal_seeds_are_independent_per_index_and_run():
    seeds = {cli.deal_seed(s, i) for s in range(5) for i in range(200)}
    assert len(seeds) == 1000


def test_a_deal_series_is_at_most_as_long_as_len_can_say():
    """Found by tests/fuzz: Deals accepted a count of 2**63, then len() raised OverflowError."""
    import sys
    assert len(llk.deals.Deals(2, 2, sys.maxsize)) == sys.maxsize
    with pytest.raises(ValueError, match="count"):
        llk.deals.Deals(2, 2, sys.maxsize + 1)


# ---------------------------------------------------------------------------------------------
# Bad input: one line, exit code 2
# ---------------------------------------------------------------------------------------------

MALFORMED = {
    "letters.txt": b"1 2\n1 x\n",
    "ragged.txt": b"1 2 3\n1 2\n",
    "empty.txt": b"\n\n",
    "binary.txt": b"\xff\xfe\x00\x01",
    "syntax.json": b"[[1, 2], [1, 2",
    "shape.json": b"{\"rows\": 2}",
    "floats.json": b"[[1.5, 2], [1, 2]]",
    "badrules.json": b"{\"grid\": [[1, 1]], \"rules\": {\"gravity\": \"sideways\"}}",
    "notnpy.npy": b"this is not an npy file",
    "newer.json": b'{"format": "llkcore.board", "version": 99, "grid": [[1, 1]], "rules": {}}',
    "illegal.json": (b'{"format": "llkcore.board", "version": 1, "grid": [[0, 0]], "rules": {}, '
                     b'"start": {"grid": [[1, 2]], "certificate": null}, "history": [[0, 0, 0, 1]]}'),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
@pytest.mark.parametrize("command", ["solve", "moves", "render"])
def test_malformed_file_gives_one_line_and_exit_2(tmp_path, capsys, name, command):
    path = tmp_path / name
    path.write_bytes(MALFORMED[name])
    code, out, err = run(capsys, command, path)
    assert code == 2
    line = one_error_line(err, command)
    assert name in line
    assert "Traceback" not in err


@pytest.mark.parametrize("array", [np.ones((2, 2, 2), np.int32), np.full((2, 2), 0.5),
                                   np.array([[1, 2]], dtype=object)])
def test_malformed_npy_gives_one_line_and_exit_2(tmp_path, capsys, array):
    path = tmp_path / "bad.npy"
    np.save(path, array, allow_pickle=True)
    code, _, err = run(capsys, "moves", path)
    assert code == 2
    one_error_line(err, "moves")


def test_missing_file_gives_one_line_and_exit_2(tmp_path, capsys):
    code, _, err = run(capsys, "solve", tmp_path / "nope.txt")
    assert code == 2
    assert "nope.txt" in one_error_line(err, "solve")


@pytest.mark.parametrize("argv, command", [
    (["analyze", "--size", "40y40"], "analyze"),
    (["analyze", "--size", "0x5"], "analyze"),
    (["analyze", "--size", "3x3"], "analyze"),          # odd number of cells
    (["analyze", "--count", "0"], "analyze"),
    (["analyze", "--workers", "0"], "analyze"),
    (["analyze", "--gravity", "sideways"], "analyze"),
    (["analyze", "--strategy", "guess"], "analyze"),
    (["analyze", "--time-limit", "-1"], "analyze"),
    (["analyze", "--copies", "x"], "analyze"),
    (["generate", "5000x2"], "generate"),
    (["generate", "4x4", "--seed", "-3"], "generate"),
    (["render", "b.txt", "--path", "1,2,3"], "render"),
    (["solve"], "solve"),
])
def test_bad_option_values_give_one_line_and_exit_2(capsys, argv, command):
    code, out, err = run(capsys, *argv)
    assert code == 2
    one_error_line(err, command)


@pytest.mark.parametrize("argv, says", [
    (["generate", "99999999x99999999"], "rows and columns must be 1..1024"),
    (["generate", "12345678x4"], "rows and columns must be 1..1024"),
    (["generate", "\uff13x\uff14"], "is not a size"),                 # fullwidth digits
    (["generate", "\u0663x\u0664"], "is not a size"),                 # Arabic-Indic digits
    (["generate", "4x4", "--seed", "\u0663"], "is not an integer"),
    (["generate", "4x4", "--seed", "1_000"], "is not an integer"),
    (["generate", "4x4", "--seed", "9" * 5000], "must be between 0 and"),
    (["generate", "4x4", "-o", ""], "an output file name is empty"),
    (["render", "b.txt", "--path", "99999999999999,0,0,3"], "on no board"),
    (["render", "b.txt", "--path", "\u0663,0,0,3"], "four integers"),
    # argparse takes "-1,0,0,3" for an option: "expected one argument" alone left it a puzzle.
    (["render", "b.txt", "--path", "-1,0,0,3"], "is written --path=VALUE"),
    (["render", "b.txt", "--path=-1,0,0,3"], "point (-1, 0) is off the board"),
    (["generate", "4x4", "-o", "-x.txt"], "is written --output=VALUE"),
])
def test_option_errors_say_what_is_wrong(capsys, tmp_path, monkeypatch, argv, says):
    """An audit: sizes of 8 digits were "not a size", an empty -o "a folder", a far --path "not
    four integers"; other scripts' digits were taken (a board's text refuses them); a seed of
    5,000 digits was written whole."""
    monkeypatch.chdir(tmp_path)
    Path("b.txt").write_text("1 1\n2 2\n")
    code, _, err = run(capsys, *argv)
    line = one_error_line(err, argv[0])
    assert code == 2 and says in line and len(line) < 300, line


def test_no_command_prints_help_and_exit_2(capsys):
    code, _, err = run(capsys)
    assert code == 2 and "analyze" in err
    code, out, _ = run(capsys, "--version")
    assert code == 0 and llk.__version__ in out


# ---------------------------------------------------------------------------------------------
# The installed entry points, as a user runs them
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("entry", [[str(BIN / "llk")], [sys.executable, "-m", "llkcore"]])
def test_entry_points_run_end_to_end(tmp_path, entry):
    env = dict(os.environ)
    board = tmp_path / "b.txt"
    done = subprocess.run(entry + ["generate", "4x4", "--seed", "1", "-o", str(board)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    done = subprocess.run(entry + ["moves", str(board)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == len(llk.Board.from_text(board.read_text()).moves())
    board.write_text("1 1\n1 oops\n")
    done = subprocess.run(entry + ["solve", str(board)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and "oops" in done.stderr


def stopped_analysis(tmp_path, signum, workers):
    """``llk analyze`` over a million deals into run.json, sent ``signum`` once it is at work:
    (the process, its stdout, its stderr, seconds from the signal to its exit)."""
    proc = subprocess.Popen([str(BIN / "llk"), "analyze", "--size", "10x10", "--count", "1000000",
                             "--workers", str(workers), "--progress", "--json", "run.json"],
                            cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def busy():
        # The first progress output means Python is up and boards are being solved.
        assert proc.stderr.read(1), proc.communicate()
        time.sleep(0.5)

    return (proc, *ctrl_c(proc, busy, signum))


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no SIGINT for one process: "
                    "Ctrl-C goes to a whole console group")
def test_ctrl_c_stops_analyze_promptly(tmp_path):
    """A real SIGINT to a running ``llk analyze`` over a million deals: it stops within seconds,
    says so, exits 130, and leaves no thread behind (the process would hang otherwise). The
    deals finished are summarised and saved as the run of that many deals they are."""
    proc, out, err, stopped = stopped_analysis(tmp_path, signal.SIGINT, workers=2)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert stopped < 10, stopped
    data = json.loads((tmp_path / "run.json").read_text())
    count = data["deals"]["count"]
    assert count == data["summary"]["boards"] > 0
    assert f"interrupted: the first {count} of 1000000 deals" in out and "verdict" in out
    command = shlex.split(data["reproduce"])
    assert command[command.index("--count") + 1] == str(count)
    again = subprocess.run([str(BIN / "llk")] + command[1:-2] + ["--json", "again.json"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    redone = json.loads((tmp_path / "again.json").read_text())
    assert redone["boards"]["verdict"] == data["boards"]["verdict"]
    assert redone["boards"]["nodes"] == data["boards"]["nodes"]


@pytest.mark.skipif(sys.platform == "win32", reason="no SIGTERM or SIGHUP to send there")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_end_a_command_as_ctrl_c_does(tmp_path, name):
    """An audit: `timeout` (SIGTERM) or a closed terminal (SIGHUP) killed llk outright: a
    render left its half-written temporary file, an analysis saved none of its finished deals.
    Now they end it as Ctrl-C does, with the shell's exit code for the signal (128 + N)."""
    signum = getattr(signal, name)
    proc, out, err, stopped = stopped_analysis(tmp_path, signum, workers=1)
    assert proc.returncode == 128 + signum, err
    assert err.rstrip().endswith("llk analyze: terminated"), err
    data = json.loads((tmp_path / "run.json").read_text())
    assert data["deals"]["count"] == data["summary"]["boards"] > 0
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]     # no temporary file left


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no SIGINT for one process")
@pytest.mark.parametrize("turned_into", ["KeyboardInterrupt", "ImportError"])
def test_ctrl_c_while_llk_imports_llkcore_is_one_line_and_exit_130(turned_into):
    """A helper's audit: Ctrl-C in the half second ``llk`` spends importing llkcore and numpy
    printed a traceback (the entry point was inside the package, reached only after that
    import), or, caught by numpy's import as an ImportError, llkcore's advice on a broken
    install. The entry point is now _llk_command, outside the package; here a real SIGINT
    lands during its import of the command, as it is or turned into an ImportError."""
    code = ("import builtins, os, signal, sys, time\n"
            "real_import = builtins.__import__\n"
            "def interrupted(name, *args, **kwargs):\n"
            "    if name == 'llkcore.cli':\n"
            "        try:\n"
            "            os.kill(os.getpid(), signal.SIGINT)\n"
            "            time.sleep(30)\n"
            "        except KeyboardInterrupt:\n"
            f"            raise {turned_into}('interrupted import')\n"
            "    return real_import(name, *args, **kwargs)\n"
            "builtins.__import__ = interrupted\n"
            "import _llk_command\n"
            "sys.exit(_llk_command.main())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "llk: interrupted\n")
    # Any other failure of the import is not called an interruption.
    done = subprocess.run([sys.executable, "-c", code.replace("os.kill(os.getpid(), "
                                                              "signal.SIGINT)", "1 / 0")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "ZeroDivisionError" in done.stderr
    assert "from _llk_command import main" in (BIN / "llk").read_text()


def test_outputs_through_a_link_or_to_a_pipe_keep_what_is_there(tmp_path, capsys):
    """Writing renames a finished temporary file over the output, which would replace a symbolic
    link by a file, and a device or a pipe too (a helper's audit, as root: -o /dev/full became a
    7 MB file). A link's target is written so and the link stays; a pipe is written in place."""
    import stat
    import threading

    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to("real.txt")
    code, out, err = run(capsys, "generate", "2x4", "--seed", 1, "-o", link)
    assert code == 0 and link.is_symlink() and real.read_text() != "old"
    assert llk.Board.from_text(real.read_text()).shape == (2, 4)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.txt", "real.txt"]   # no temp left

    pipe = tmp_path / "pipe.txt"
    os.mkfifo(pipe)
    got = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_text()), daemon=True)
    reader.start()
    code, out, err = run(capsys, "generate", "2x4", "--seed", 1, "-o", pipe)
    reader.join(timeout=30)
    assert code == 0 and stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert got == [real.read_text()]


def test_running_out_of_memory_gives_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    """A picture too big for the machine (a helper's audit: llk render of a 1024x1024 board as
    PNG under a memory limit printed Pillow's MemoryError traceback)."""
    board = tmp_path / "b.txt"
    board.write_text("1 1\n")

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(llk.render, "png", no_memory)
    code, out, err = run(capsys, "render", board, "-o", tmp_path / "b.png")
    assert code == 2 and "not enough memory" in one_error_line(err, "render")
    assert not (tmp_path / "b.png").exists()


def test_every_dealing_command_explains_copies_types_and_seed(capsys):
    """generate listed --copies, --types and --seed with no help (a helper's audit); the three
    dealing commands share one declaration of the counts."""
    for command in ("generate", "analyze", "play"):
        assert cli.main([command, "--help"]) == 0
        out = " ".join(capsys.readouterr().out.split())
        assert "--copies K tiles per type (even, default 4)" in out, command
        assert "--types T number of types instead of --copies" in out, command
        assert "--seed S seed of" in out, command


def test_sizes_of_one_row_or_column_read_in_the_singular():
    with pytest.raises(llk.CoordinateError, match=r"off the board of 1 row x 3 columns"):
        llk.Board([[1, 0, 1]]).can_link((0, 0), (2, 2))
    with pytest.raises(llk.CoordinateError, match=r"off the board of 3 rows x 1 column\b"):
        llk.Board([[1], [0], [1]]).can_link((0, 0), (0, 2))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["generate", "4x4", "--seed", "1"], ["moves", "b.txt"],
                                  ["solve", "b.txt"], ["render", "b.txt"],
                                  ["analyze", "--size", "4x4", "--count", "2", "-q"]])
def test_an_unwritable_or_closed_stdout_gives_one_line_and_exit_2(tmp_path, argv):
    """A full disk (> /dev/full) and a closed stdout (>&-) are bad output, said in one line; a
    closed stdout must not pass silently (print() to a None stdout writes nothing)."""
    (tmp_path / "b.txt").write_text("1 1\n2 2\n")
    command = [sys.executable, "-m", "llkcore", *argv]
    with open("/dev/full", "w") as full:
        done = subprocess.run(command, cwd=tmp_path, stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert one_error_line(done.stderr, argv[0]).endswith(
        "cannot write the output: No space left on device")
    done = subprocess.run(command, cwd=tmp_path, stderr=subprocess.PIPE, text=True, timeout=120,
                          preexec_fn=lambda: os.close(1))
    assert done.returncode == 2, done.stderr
    assert one_error_line(done.stderr, argv[0]).endswith("cannot write the output: stdout is closed")


def test_help_prints_on_an_ascii_stdout():
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    done = subprocess.run([sys.executable, "-m", "llkcore", "--help"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "\\u8fde\\u8fde\\u770b" in done.stdout and not done.stderr


def test_solve_refuses_bad_outputs_before_solving(tmp_path, capsys, monkeypatch):
    board = tmp_path / "b.txt"
    board.write_text("1 1\n2 2\n")
    monkeypatch.setattr(cli.solve, "solve", lambda *a, **k: pytest.fail("solved first"))
    for option, name, says in [("--json", "no/such/dir/out.json", "cannot write"),
                               ("--svg", "no/such/dir/out.svg", "cannot write"),
                               ("--svg", "out.png", "write a .svg file")]:
        code, _, err = run(capsys, "solve", board, option, tmp_path / name)
        assert code == 2 and says in one_error_line(err, "solve"), err
    code, _, err = run(capsys, "solve", board, "--svg", "-", "--json", "-")
    assert code == 2 and "cannot both have stdout" in one_error_line(err, "solve")
    assert not (tmp_path / "out.png").exists()


def test_solve_svg_to_stdout_sends_the_report_to_stderr(tmp_path, capsys):
    board = tmp_path / "b.txt"
    board.write_text("1 1\n2 2\n")
    code, out, err = run(capsys, "solve", board, "--svg", "-")
    assert code == 0, err
    ET.fromstring(out)      # nothing but the picture
    assert err.startswith("solvable (exact,") and "0,0 0,1" in err


def test_render_solution_has_a_time_limit_and_unknown_says_why(tmp_path, capsys):
    board = tmp_path / "hard.json"
    run(capsys, "generate", "12x12", "--seed", 1, "--gravity", "down", "-o", board)
    code, _, err = run(capsys, "render", board, "--solution", "-o", tmp_path / "s.svg",
                       "--time-limit", 0.02)
    assert code == 1
    assert err.strip() == ("llk render: no solution to draw (unknown: time limit reached) "
                           "(--time-limit gives it longer)")
    assert not (tmp_path / "s.svg").exists()
    code, out, err = run(capsys, "solve", board, "--node-limit", 5)
    assert code == 0, err
    assert out.startswith("unknown: node limit reached (exact, ")


def test_pictures_go_to_devices_and_options_that_cannot_apply_are_refused(tmp_path, capsys):
    """The README: a device such as /dev/null is written in place, so its name needs no
    extension; --time-limit without --solution, -q with --progress and --keep-moves without
    --json contradict each other (all were taken silently: README audits)."""
    board = tmp_path / "b.txt"
    run(capsys, "generate", "4x4", "--seed", 1, "-o", board)
    assert run(capsys, "render", board, "-o", os.devnull)[0] == 0
    assert run(capsys, "solve", board, "--svg", os.devnull)[0] == 0
    code, _, err = run(capsys, "render", board, "--time-limit", 1, "-o", tmp_path / "x.svg")
    assert code == 2 and "--time-limit bounds the solve of --solution" in err
    assert not (tmp_path / "x.svg").exists()
    code, _, err = run(capsys, "analyze", "--size", "4x4", "--count", 1, "-q", "--progress")
    assert code == 2 and "not allowed with argument -q/--quiet" in err
    # --keep-moves keeps the solutions in the --json document: alone it did nothing (an audit)
    code, out, err = run(capsys, "analyze", "--size", "4x4", "--count", 1, "-q", "--keep-moves")
    assert code == 2 and "--keep-moves keeps the solutions in the --json document" in err
    assert out == ""
    code, _, err = run(capsys, "render", board, "-o", tmp_path / "x.gif")
    assert code == 2 and "write .svg or .png" in err


def test_unrecognized_arguments_are_blamed_on_the_command(capsys):
    code, _, err = run(capsys, "generate", "--size", "8x18")
    assert code == 2
    assert err.strip() == ("llk generate: error: unrecognized arguments: --size "
                           "(see 'llk generate -h')")
    code, _, err = run(capsys, "--bogus")
    assert code == 2 and err.strip() == "llk: error: unrecognized arguments: --bogus (see 'llk -h')"


@pytest.mark.parametrize("command", [["generate", "8x18"], ["analyze", "--size", "8x18", "-q"],
                                     ["play", "8x18"]])
def test_copies_and_types_together_or_copies_beyond_the_board_are_refused(capsys, command):
    code, _, err = run(capsys, *command, "--copies", 4, "--types", 3)
    assert code == 2 and one_error_line(err, command[0]).endswith("give --copies or --types, not both")
    code, _, err = run(capsys, *command, "--copies", 1000)
    assert code == 2 and one_error_line(err, command[0]).endswith(
        "--copies 1000: 1000 tiles of a type do not fit in 144 cells (at most 144)")


@pytest.mark.parametrize("command", [["generate", "1x2"], ["analyze", "--size", "1x2", "-q"],
                                     ["play", "1x2"]])
def test_the_default_copies_are_checked_against_the_board_too(capsys, command):
    """A helper's audit: llk analyze --size 1x2 dealt one pair a deal while its summary said "4
    copies per type", and the command its --json gives to reproduce the run (with --copies 4)
    was refused."""
    code, _, err = run(capsys, *command)
    assert code == 2 and one_error_line(err, command[0]).endswith(
        "--copies 4 (the default): 4 tiles of a type do not fit in 2 cells (at most 2): give "
        "--copies 2")
    if command[0] != "play":
        code, out, err = run(capsys, *command, "--copies", 2)
        assert code == 0, err


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_board_is_read_from_stdin_as_text_or_json(tmp_path, fmt):
    board = llk.generate(4, 4, seed=2)
    content = board.to_text() if fmt == "text" else board.to_json()
    done = subprocess.run([sys.executable, "-m", "llkcore", "moves", "-"], input=content,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == len(board.moves())
    np.save(tmp_path / "b.npy", board.grid)
    with open(tmp_path / "b.npy", "rb") as fh:
        done = subprocess.run([sys.executable, "-m", "llkcore", "solve", "-"], stdin=fh,
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert one_error_line(done.stderr, "solve").endswith("-: stdin holds a .npy array: give the "
                                                         "file's name")


@pytest.mark.parametrize("name, content, says", [
    ("ragged.txt", b"1 1\n\n2 2 3\n", "ragged board: line 3 has 3 values, line 1 has 2"),
    ("bytes.json", b"[[1, 1]]\xff\xfe", "invalid JSON: not UTF-8, UTF-16 or UTF-32 text"),
    ("huge.json", b"[[" + b"9" * 5000 + b"]]", "invalid JSON: a number too large for a board"),
])
def test_bad_files_are_explained(tmp_path, capsys, name, content, says):
    (tmp_path / name).write_bytes(content)
    code, _, err = run(capsys, "moves", tmp_path / name)
    assert code == 2 and one_error_line(err, "moves").endswith(f"{name}: {says}"), err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
def test_utf16_and_utf32_files_are_read_as_from_json_reads_them(tmp_path, capsys, encoding):
    """Windows PowerShell 5's ``>`` writes UTF-16 with a byte order mark: llk refused such a
    file as "not UTF-8 text", though Board.from_json read its bytes (an audit). Text and JSON
    boards and saved games, from files and stdin, in every encoding json.loads tells apart."""
    saved = llk.generate(4, 4, seed=1)
    expected = [f"{r1},{c1} {r2},{c2}" for (r1, c1), (r2, c2) in saved.moves()]
    for name, text in (("b.txt", saved.to_text()), ("b.json", json.dumps(saved.grid.tolist())),
                       ("s.json", saved.to_json())):
        (tmp_path / name).write_bytes(text.encode(encoding))
        code, out, err = run(capsys, "moves", tmp_path / name)
        assert code == 0 and out.splitlines() == expected, (name, err)
        done = subprocess.run([sys.executable, "-m", "llkcore", "moves", "-"],
                              input=text.encode(encoding), capture_output=True, timeout=60)
        assert done.returncode == 0 and done.stdout.decode().splitlines() == expected, \
            (name, done.stderr)


def test_a_byte_order_mark_is_skipped(tmp_path, capsys):
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbf1 1\n2 2\n")
    code, out, err = run(capsys, "moves", tmp_path / "bom.txt")
    assert code == 0 and out.splitlines() == ["0,0 0,1", "1,0 1,1"], err
    # JSON on stdin too: the BOM hid the "{" that tells JSON from text (an audit).
    for document in (b'{"grid": [[1, 1], [2, 2]]}', b"[[1, 1], [2, 2]]"):
        done = subprocess.run([sys.executable, "-m", "llkcore", "moves", "-"],
                              input=b"\xef\xbb\xbf" + document, capture_output=True, timeout=60)
        assert done.returncode == 0 and done.stdout.decode().splitlines() == [
            "0,0 0,1", "1,0 1,1"], done.stderr
    # And Board.from_json of a str that kept it (read_text() does), as it is skipped in bytes.
    saved = llk.Board([[1, 1]]).to_json()
    assert llk.Board.from_json("\ufeff" + saved).grid.tolist() == [[1, 1]]
    assert llk.Board.from_json(b"\xef\xbb\xbf" + saved.encode()).grid.tolist() == [[1, 1]]


def test_an_unwritable_output_is_named_as_given(tmp_path, capsys, monkeypatch):
    (tmp_path / "real").mkdir()
    os.symlink(tmp_path / "real", tmp_path / "link")
    monkeypatch.chdir(tmp_path)
    for argv in (["generate", "4x4", "-o", "link/gone/b.txt"],
                 ["analyze", "--size", "4x4", "--count", "1", "--json", "link/gone/a.json"]):
        code, _, err = run(capsys, *argv)
        assert code == 2
        assert one_error_line(err, argv[0]).endswith(
            f"error: {argv[-1]}: cannot write: No such file or directory"), err
