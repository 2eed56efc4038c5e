"""Seeded 40x40 benchmark boards shared by the bench suites (core vs llkref in one run), and the
llkref answers computed in the run.

A ref side of llkref costs seconds a round (a pure-Python BFS per query), so llkref runs each
distinct piece of work only as often as its benchmark needs:

- ``ref_answers``: a ref benchmark keeps what llkref returned, and the core tests that check their
  answers against llkref take it from there instead of running llkref again. The ref tests run
  first (``pytest_collection_modifyitems`` below); a core test that finds no answer computes it.
- A core benchmark whose llkref work is exactly another group's (the same llkref function on the
  same list and queries) names that group in ``extra_info["ref_group"]`` and has no ref test of its
  own: ci/bench_gate.py takes the ratio against that group's ref median, measured in the same run.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

import llkcore as llk  # noqa: E402

SIZE = 40
#: Fraction of tiles left on each benchmark board.
FILLS = {"full": 1.0, "half": 0.5, "sparse": 0.15}
QUERIES = 200


def bench_grid(fill: str, seed: int = 2026) -> np.ndarray:
    """A seeded 40x40 deal (400 types x 4) with whole pairs emptied down to the fill level."""
    grid = llk.generate(SIZE, SIZE, copies=4, solvable=False, seed=seed).grid.copy()
    rng = np.random.default_rng(seed + 1)
    keep = FILLS[fill]
    if keep < 1.0:
        for t in np.unique(grid[grid > 0]):
            cells = np.argwhere(grid == t)
            for pair in (cells[:2], cells[2:]):
                if rng.random() > keep:
                    grid[tuple(pair.T)] = 0
    return grid


def same_type_queries(grid: np.ndarray, n: int = QUERIES, seed: int = 7) -> np.ndarray:
    """n seeded (r1, c1, r2, c2) queries between two distinct tiles of one type."""
    rng = np.random.default_rng(seed)
    types = np.unique(grid[grid > 0])
    out = np.empty((n, 4), dtype=np.int32)
    for i in range(n):
        cells = np.argwhere(grid == rng.choice(types))
        a, b = rng.choice(len(cells), size=2, replace=False)
        out[i] = (*cells[a], *cells[b])
    return out


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Run the ref benchmarks (names with "_ref") before the others, each side in its order, so
    that their answers are kept before the core tests check theirs. Order changes no timing:
    every ratio is of medians measured in this one run."""
    items.sort(key=lambda item: "_ref" not in item.name)


class RefAnswers(dict):
    """llkref's answers computed in this run, by key (see the module's docstring)."""

    def get_or_compute(self, key, compute):
        if key not in self:
            self[key] = compute()
        return self[key]


@pytest.fixture(scope="session")
def ref_answers():
    return RefAnswers()


@pytest.fixture(scope="session", params=list(FILLS))
def case(request):
    """(fill name, grid as ndarray, grid as list of lists, queries)."""
    grid = bench_grid(request.param)
    return request.param, grid, grid.tolist(), same_type_queries(grid)
