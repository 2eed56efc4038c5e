"""The README's examples run, and say what they print.

Every ```python block right after a ``<!-- checked by tests/test_readme.py -->`` line runs, in
README order, in one namespace (a block may use what an earlier one made). A one-line expression
statement (or ``name = ...`` assignment) with a comment that starts with a Python literal, like

    llk.find_path(grid, (0, 0), (0, 3))       # [(0, 0), (-1, 0), (-1, 3), (0, 3)]

must evaluate to that literal (the literal ends at the comment's end, or where a ": " or "; "
starts the prose). Comments that are prose ("copies the grid; cheap") are not checked. Blocks
without the marker hold placeholders (``screen``, ``click``) and are not run.
"""
from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
MARKER = "<!-- checked by tests/test_readme.py -->"


def checked_blocks(text: str) -> list[tuple[int, str]]:
    """(line number of the block's first code line, its source) for each marked block."""
    lines = text.splitlines()
    blocks = []
    for i, line in enumerate(lines):
        if line.strip() == MARKER:
            assert lines[i + 1].strip() == "```python", f"README line {i + 2}: a marker must precede ```python"
            end = lines.index("```", i + 2)
            blocks.append((i + 3, "\n".join(lines[i + 2:end])))
    return blocks


def expected_value(comment: str):
    """The literal a comment starts with (the longest prefix, cut at ": ", "; " or the end, that
    parses as a Python literal), or raise ValueError if it starts with prose."""
    cuts = [m.start() for m in re.finditer(r": |; ", comment)] + [len(comment)]
    for cut in sorted(cuts, reverse=True):
        try:
            return ast.literal_eval(comment[:cut].strip())
        except (ValueError, SyntaxError):
            continue
    raise ValueError(comment)


def instrument(source: str) -> tuple[str, int]:
    """The block with each checkable line turned into a check; how many lines are checked."""
    lines = source.splitlines()
    checked = 0
    for stmt in ast.parse(source).body:
        one_name = (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name))
        if not (isinstance(stmt, ast.Expr) or one_name) or stmt.lineno != stmt.end_lineno:
            continue
        line = lines[stmt.lineno - 1]
        code_end = stmt.end_col_offset
        comment = line[code_end:].strip()
        if not comment.startswith("#"):
            continue
        try:
            want = expected_value(comment[1:].strip())
        except ValueError:
            continue
        code = line[stmt.col_offset:code_end]
        if one_name:        # `name = value  # literal`: the value is checked once assigned
            name = stmt.targets[0].id
            lines[stmt.lineno - 1] = f"{code}; __check__({name}, {want!r}, {stmt.lineno})"
        else:
            lines[stmt.lineno - 1] = f"__check__({code}, {want!r}, {stmt.lineno})"
        checked += 1
    return "\n".join(lines), checked


def test_expected_value_reads_literals_and_skips_prose():
    assert expected_value("True: round the top of the board (border on)") is True
    assert expected_value("((1, 0), (1, 1)): fewest turns, then shortest path") == ((1, 0), (1, 1))
    assert expected_value("{0: None, 1: 'cat'}") == {0: None, 1: "cat"}
    assert expected_value("[(1, 0), (1, 1)]; raises llk.IllegalMove if forbidden") == [(1, 0), (1, 1)]
    for prose in ("copies the grid; cheap", "{type: tiles left}", "the same as Rules(border=False)"):
        with pytest.raises(ValueError):
            expected_value(prose)


def test_a_wrong_comment_fails():
    source, checked = instrument("x = [1, 2]\nlen(x)                 # 3: a wrong count\n")
    assert checked == 1

    def check(value, want, line):
        assert value == want, (line, value, want)

    with pytest.raises(AssertionError):
        exec(compile(source, "<block>", "exec"), {"__check__": check})


@pytest.mark.skipif(not README.exists(), reason="README.md is not beside the tests (an installed copy)")
def test_readme_examples_run_and_print_what_they_say(tmp_path, monkeypatch):
    blocks = checked_blocks(README.read_text(encoding="utf-8"))
    assert len(blocks) >= 4, "the README's runnable examples lost their markers"
    monkeypatch.chdir(tmp_path)            # an example that saves a file writes it here
    failures = []

    def check(value, want, line):
        if value != want:
            failures.append(f"README line {first + line - 1}: got {value!r}, the comment says {want!r}")

    namespace = {"__check__": check, "__name__": "readme"}
    total = 0
    for first, source in blocks:
        code, checked = instrument(source)
        total += checked
        exec(compile(code, f"README.md:{first}", "exec"), namespace)
    assert not failures, "\n".join(failures)
    assert total >= 8, total          # the example lines checked now: none may drop out
    assert os.getcwd() == str(tmp_path)
