"""The error ``import llkcore`` raises when the compiled kernels cannot be loaded.

The usual cause is running Python from a clone's root after ``pip install .``: the source folder
``llkcore/`` (with no built kernels) hides the installed package. llkcore has no slow fallback.
"""
from __future__ import annotations

import os


def kernels_missing(exc: ImportError) -> ImportError:
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    in_source_tree = (os.path.exists(os.path.join(root, "setup.py"))
                      and os.path.exists(os.path.join(root, "pyproject.toml")))
    if in_source_tree:
        return ImportError(
            f"llkcore was imported from its source folder {here}, which has no built kernels "
            f"({exc}). Python puts the current folder first on the path, so this folder hides "
            "an installed llkcore: run from another folder, or install in editable mode "
            "(`pip install -e .` in the clone; kernels are built in place) to work on the source.")
    return ImportError(
        f"llkcore's compiled kernels are missing or failed to load ({exc}). llkcore has no slow "
        "fallback: reinstall it (`pip install llkcore`, or `pip install .` from a clone; a source "
        "build needs a C compiler, and pip fetches Cython and numpy).")
