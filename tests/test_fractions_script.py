"""bench/fractions.py's retry of the deals left UNKNOWN: each deal counts by its last answer, and
the table's limit column says how many deals had the second limit."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import llkcore as llk

SCRIPT = Path(__file__).resolve().parents[1] / "bench" / "fractions.py"


@pytest.fixture()
def fractions(monkeypatch):
    spec = importlib.util.spec_from_file_location("fractions_script", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    calls = []

    def solve_deal(rows, cols, gravity, seed, time_limit):
        # Even seeds (the first deal too) are open under the short limit; with the long one,
        # seeds 2 and 6 are solvable and the rest unsolvable.
        calls.append((seed, time_limit))
        if seed % 2 == 1:
            verdict = llk.Verdict.SOLVABLE
        elif time_limit < 5:
            verdict = llk.Verdict.UNKNOWN
        else:
            verdict = llk.Verdict.SOLVABLE if seed in (2, 6) else llk.Verdict.UNSOLVABLE
        return {"rows": rows, "cols": cols, "gravity": gravity, "seed": seed,
                "time_limit": time_limit, "verdict": int(verdict), "reason": "",
                "nodes": 1, "seconds": time_limit / 2, "freedom": False}

    monkeypatch.setattr(module, "solve_deal", solve_deal)
    module.calls = calls
    return module


def test_only_the_deals_left_unknown_are_solved_again(fractions, tmp_path):
    cases = [(9, 16, "down", s) for s in range(8)]
    results = str(tmp_path / "r.jsonl")
    first = fractions.run(cases, 1.0, 1, results, progress=False)
    recs = fractions.retry_unknown(cases, first, 60.0, 1, results)
    assert sorted(s for s, limit in fractions.calls if limit == 60.0) == [0, 2, 4, 6]
    assert [r["seed"] for r in recs] == list(range(8))
    assert [r["verdict"] for r in recs] == [0, 1, 1, 1, 0, 1, 1, 1]
    row = fractions.table([("16x9", "down", recs)]).splitlines()[2]
    assert "75.0%" in row and "| 1 s; 60 s for the 4 left unknown |" in row
    # A rerun with the same results file solves nothing again.
    del fractions.calls[:]
    again = fractions.retry_unknown(cases, fractions.run(cases, 1.0, 1, results, progress=False),
                                    60.0, 1, results)
    assert fractions.calls == [] and again == recs


def test_without_unknown_deals_nothing_is_retried(fractions):
    cases = [(9, 16, None, s) for s in (1, 3, 5)]
    recs = fractions.run(cases, 1.0, 1, None, progress=False)
    assert fractions.retry_unknown(cases, recs, 60.0, 1, None) is recs
    assert fractions.calls == [(1, 1.0), (3, 1.0), (5, 1.0)]
    assert fractions.table([("16x9", None, recs)]).splitlines()[2].endswith("| 1 s |")


@pytest.mark.parametrize("argv", [["--retry-unknown", "1", "--sizes", "14x6"],
                                  ["--retry-unknown", "10", "--sizes", "14x6", "24x12"],
                                  ["--deals", "0", "--sizes", "14x6"]])
def test_a_retry_no_longer_than_the_first_limit_and_no_deals_are_refused(fractions, capsys, argv):
    with pytest.raises(SystemExit):
        fractions.main(argv)
    assert "--retry-unknown must be longer" in capsys.readouterr().err or argv[0] == "--deals"
    assert fractions.calls == []


def test_a_retry_is_compared_with_the_limits_of_the_sizes_that_run(fractions, capsys):
    """--retry-unknown 5 on a small size only: longer than its 1 s (the 10 s of the large sizes,
    which do not run, does not count; helper audit, 2026-12-03)."""
    assert fractions.main(["--retry-unknown", "5", "--sizes", "14x6", "--gravity", "none",
                           "--deals", "3", "--workers", "1"]) == 0
    assert fractions.calls == [(0, 1.0), (1, 1.0), (2, 1.0), (0, 5.0), (2, 5.0)]
