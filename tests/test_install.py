"""Installing: what ``import llkcore`` says when the kernels are missing (the clone-root trap),
and that an editable install (``pip install -e .``, the README's developer install) works from
the clone's root. Run in subprocesses, so the test process's own llkcore is not touched."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import llkcore

PACKAGE = Path(llkcore.__file__).resolve().parent


def import_from(folder: Path) -> subprocess.CompletedProcess:
    """``import llkcore`` in a fresh interpreter with ``folder`` first on the path (as Python
    puts the current folder first for ``python -c`` and ``python -m``)."""
    code = f"import sys; sys.path.insert(0, {str(folder)!r}); import llkcore"
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True,
                          text=True, timeout=120)


def fake_clone(tmp_path: Path, *, source_tree: bool) -> Path:
    """A folder holding llkcore's Python files without any compiled kernel, with a clone's
    setup.py and pyproject.toml when ``source_tree``."""
    root = tmp_path / "clone"
    shutil.copytree(PACKAGE, root / "llkcore",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__", "build"))
    if source_tree:
        (root / "setup.py").write_text("# a clone's setup.py\n")
        (root / "pyproject.toml").write_text("[project]\nname = 'llkcore'\n")
    return root


def test_a_source_folder_without_kernels_says_to_run_elsewhere_or_install_editable(tmp_path):
    done = import_from(fake_clone(tmp_path, source_tree=True))
    assert done.returncode != 0
    message = done.stderr.strip().splitlines()[-1]
    assert message.startswith("ImportError: llkcore was imported from its source folder")
    assert "run from another folder" in message
    assert "pip install -e ." in message
    assert "build the kernels" not in message


def test_missing_kernels_outside_a_clone_say_to_reinstall(tmp_path):
    done = import_from(fake_clone(tmp_path, source_tree=False))
    assert done.returncode != 0
    message = done.stderr.strip().splitlines()[-1]
    assert "compiled kernels are missing" in message and "reinstall" in message


def test_an_editable_install_works_from_the_clone_root():
    """With ``pip install -e .`` the kernels are built in place, so Python run from the clone's
    root (which puts the source folder first on the path) imports a working llkcore."""
    root = PACKAGE.parent
    if not (root / "setup.py").exists() or not (root / "pyproject.toml").exists():
        pytest.skip("llkcore is installed from a wheel, not in place in a clone")
    code = ("import llkcore, pathlib; "
            "print(pathlib.Path(llkcore.__file__).resolve().parent); "
            "print(llkcore.Board([[1, 0, 1]]).moves())")
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    where, moves = done.stdout.splitlines()
    assert Path(where) == PACKAGE and moves == "[((0, 0), (0, 2))]"
    done = subprocess.run([sys.executable, "-m", "llkcore", "--version"], cwd=root,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and llkcore.__version__ in done.stdout, done.stderr
