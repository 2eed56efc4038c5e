"""The type hints hold: mypy accepts the package (stubs of the compiled modules included), and
`mypy --strict` accepts a user's script of the public API in which every call's type is exact.
A stub that disagrees with its kernel shows up here (the package's own calls are checked
against it), and so does a public call whose type turned into Any."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy", reason="mypy comes with the test extra")

ROOT = Path(__file__).resolve().parents[1]
USER_SCRIPT = ROOT / "tests" / "typing" / "public_api.py"


def mypy(*args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    # MYPYPATH: an editable install's import hook is invisible to mypy, so the sources are named.
    env = dict(os.environ, MYPYPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(tmp_path / "mypy_cache"), *args],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_package_type_checks(tmp_path):
    done = mypy("llkcore", tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_public_api_types_are_exact_under_strict(tmp_path):
    done = mypy("--strict", "--follow-imports=silent", str(USER_SCRIPT), tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_user_script_runs():
    """The script's calls are real ones (assert_type returns its argument at run time)."""
    subprocess.run([sys.executable, str(USER_SCRIPT)], cwd=ROOT / "tests", check=True, timeout=300)


def test_readme_examples_type_check(tmp_path):
    """The README's runnable examples, as one script (test_readme runs them so), pass mypy: an
    example that ignores an Optional (a hint that may be None, say) teaches users code their
    type checker refuses (a docs audit found four)."""
    from test_readme import README, checked_blocks

    script = tmp_path / "readme_examples.py"
    script.write_text("\n".join(source for _, source in checked_blocks(README.read_text("utf-8"))))
    done = mypy("--follow-imports=silent", str(script), tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
