#!/usr/bin/env python3
"""Solver strength on seeded random deals: how many each strategy decides, with how much work.

For every board size, gravity setting and strategy it deals seeded random boards with
``llk.generate(..., solvable=False, seed=s)`` (s = 0, 1, ...), solves each under a node and time
budget and prints the fraction SOLVABLE / UNSOLVABLE / UNKNOWN, the median and p99 node count
(deterministic, so comparable across machines) and the median and p99 wall time. Every SOLVABLE
answer is replayed with ``llk.verify`` (a wrong certificate aborts the run).

Sizes are named ROWSxCOLS: "8x18" is KShisen's default game (8 rows, 18 columns; KShisen calls
it 18x8, width x height), "18x8" the tall board of 18 rows and 8 columns.

  python bench/strength.py           a short table (a few deals per case, seconds)
  python bench/strength.py --full    the README table (the targets' deal counts and budgets)
  python bench/strength.py --gate    the CI gate (GATE below), node budgets only, so the same
                                     build gives the same answer on any machine:
      18x8, no gravity, 200 deals at 200,000 nodes: at most 1% UNKNOWN (the pairing search);
      16x9, no gravity, 200 deals at 10,000 nodes: at most 0.5% UNKNOWN (none now; 2 without
          the probing of pairings);
      8x18, gravity down, 200 deals at 30,000 nodes: at most 1.5% UNKNOWN (the gravity search:
          1 of 200 now; 4 with safe clearing off, 4 with sleep sets off);
      14x26, gravity down, 100 deals at 3,000 nodes: at most 10% UNKNOWN (two rounds and the
          third's root, where probing of pairings runs: 92 proved unsolvable; 85 without
          probing, by the dead test at the first root; without that none).

Importable: ``gate_unknown_fraction()`` returns the first gate row's UNKNOWN fraction,
``gate()`` every row's, ``measure()`` one row of the table.
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

import numpy as np

import llkcore as llk

#: (name ROWSxCOLS, rows, cols, copies): KShisen's default game 8x18 and its 9x16 and 14x26
#: (KShisen's 18x8, 16x9, 26x14), the tall 18x8 and 16x9, 24x12 with 8 copies, 40x40.
SIZES = [("8x18", 8, 18, 4), ("9x16", 9, 16, 4), ("18x8", 18, 8, 4), ("16x9", 16, 9, 4),
         ("24x12", 24, 12, 8), ("14x26", 14, 26, 4), ("40x40", 40, 40, 4)]
GRAVITIES = (None, "down")

#: The CI gate: (size, gravity, deals, node_limit, most UNKNOWN allowed).
GATE = [("18x8", None, 200, 200_000, 0.01),
        ("16x9", None, 200, 10_000, 0.005),
        ("8x18", "down", 200, 30_000, 0.015),
        ("14x26", "down", 100, 3_000, 0.10)]
GATE_DEALS, GATE_NODE_LIMIT, GATE_MAX_UNKNOWN = GATE[0][2:]

#: Budgets and deal counts of the two table modes: (deals, node_limit, time_limit) per size and
#: gravity. With gravity the exact search over moves often runs into its budget, so --full deals
#: fewer boards there to keep the run to minutes.
SHORT = {("8x18", None): (40, 200_000, 1.0), ("9x16", None): (20, 200_000, 1.0),
         ("18x8", None): (40, 200_000, 1.0), ("16x9", None): (20, 200_000, 1.0),
         ("24x12", None): (10, 200_000, 1.0), ("14x26", None): (10, 200_000, 1.0),
         ("40x40", None): (4, 200_000, 5.0)}
SHORT.update({(size, "down"): budget for (size, _), budget in list(SHORT.items())})
FULL = {("8x18", None): (1000, None, 1.0), ("9x16", None): (1000, None, 1.0),
        ("18x8", None): (1000, None, 1.0), ("16x9", None): (1000, None, 1.0),
        ("24x12", None): (200, None, 1.0), ("14x26", None): (200, None, 1.0),
        ("40x40", None): (100, None, 5.0),
        ("8x18", "down"): (1000, None, 1.0), ("9x16", "down"): (1000, None, 1.0),
        ("18x8", "down"): (200, None, 1.0), ("16x9", "down"): (200, None, 1.0),
        ("24x12", "down"): (50, None, 1.0), ("14x26", "down"): (200, None, 1.0),
        ("40x40", "down"): (20, None, 5.0)}


@dataclass
class Row:
    size: str
    gravity: Optional[str]
    strategy: str
    deals: int
    solvable: float
    unsolvable: float
    unknown: float
    nodes_median: float
    nodes_p99: float
    ms_median: float
    ms_p99: float

    @property
    def decided(self) -> float:
        return self.solvable + self.unsolvable


def deal(rows: int, cols: int, copies: int, seed: int, gravity: Optional[str]) -> llk.Board:
    return llk.generate(rows, cols, copies=copies, solvable=False, seed=seed,
                        rules=llk.Rules(gravity=gravity))


def measure(size: str, gravity: Optional[str], strategy: str, deals: int,
            node_limit: Optional[int], time_limit: Optional[float]) -> Row:
    """Solve ``deals`` seeded deals of one size / gravity with one strategy; one table row."""
    _, rows, cols, copies = next(s for s in SIZES if s[0] == size)
    solver = llk.Solver(strategy=strategy, node_limit=node_limit, time_limit=time_limit)
    verdicts, nodes, seconds = [], [], []
    for seed in range(deals):
        board = deal(rows, cols, copies, seed, gravity)
        sol = solver.solve(board)
        if sol.verdict == llk.Verdict.SOLVABLE and not llk.verify(board, sol.moves):
            raise AssertionError(f"{strategy} gave a wrong certificate on {size} seed {seed}")
        verdicts.append(int(sol.verdict))
        nodes.append(sol.nodes)
        seconds.append(sol.seconds)
    v = np.array(verdicts)
    n = np.array(nodes, dtype=np.float64)
    ms = np.array(seconds) * 1e3
    return Row(size, gravity, strategy, deals, float(np.mean(v == 1)), float(np.mean(v == 0)),
               float(np.mean(v == -1)), float(np.median(n)), float(np.percentile(n, 99)),
               float(np.median(ms)), float(np.percentile(ms, 99)))


def gate_unknown_fraction(deals: int = GATE_DEALS, node_limit: int = GATE_NODE_LIMIT) -> float:
    """Fraction of seeded 18x8 deals (no gravity) that "exact" leaves UNKNOWN at node_limit."""
    return measure("18x8", None, "exact", deals, node_limit, None).unknown


def gate(out=sys.stdout) -> bool:
    """Run every GATE row ("exact", node budgets only); print one line each; True if all pass."""
    ok = True
    for size, gravity, deals, node_limit, most in GATE:
        start = time.perf_counter()
        frac = measure(size, gravity, "exact", deals, node_limit, None).unknown
        passed = frac <= most
        ok = ok and passed
        print(f"solver gate: exact leaves {frac:.1%} of {deals} seeded {size} deals "
              f"(gravity {gravity or 'none'}) UNKNOWN at node_limit={node_limit:,} "
              f"(limit {most:.1%}) in {time.perf_counter() - start:.1f} s: "
              f"{'ok' if passed else 'FAILED'}", file=out, flush=True)
    return ok


def table(budgets: Dict[tuple, tuple], sizes: Sequence[str], strategies: Sequence[str],
          gravities: Sequence[Optional[str]], out=sys.stdout) -> List[Row]:
    rows = []
    print(f"{'size':6s} {'gravity':7s} {'strategy':16s} {'deals':>5s} {'solv':>6s} {'unsolv':>6s} "
          f"{'unknown':>7s} {'nodes med':>9s} {'nodes p99':>9s} {'ms med':>8s} {'ms p99':>8s}  budget",
          file=out, flush=True)
    for size in sizes:
        for gravity in gravities:
            deals, node_limit, time_limit = budgets[(size, gravity)]
            for strategy in strategies:
                r = measure(size, gravity, strategy, deals, node_limit, time_limit)
                rows.append(r)
                budget = ", ".join(x for x in (f"{node_limit:,} nodes" if node_limit else "",
                                               f"{time_limit:g} s" if time_limit else "") if x)
                print(f"{size:6s} {str(gravity):7s} {strategy:16s} {r.deals:5d} {r.solvable:6.1%} "
                      f"{r.unsolvable:6.1%} {r.unknown:7.1%} {r.nodes_median:9,.0f} "
                      f"{r.nodes_p99:9,.0f} {r.ms_median:8.2f} {r.ms_p99:8.1f}  {budget}",
                      file=out, flush=True)
    return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--full", action="store_true", help="the README table (minutes)")
    mode.add_argument("--gate", action="store_true", help="only the CI node-count gate")
    ap.add_argument("--sizes", nargs="+", choices=[s[0] for s in SIZES], help="only these sizes")
    ap.add_argument("--strategies", nargs="+", choices=list(llk.STRATEGIES), help="only these strategies")
    ap.add_argument("--gravity", nargs="+", choices=["none", "down"], help="only these gravity settings")
    args = ap.parse_args(argv)

    if args.gate:
        return 0 if gate() else 1

    sizes = args.sizes or [s[0] for s in SIZES]
    strategies = args.strategies or list(llk.STRATEGIES)
    gravities = [None if g == "none" else g for g in args.gravity] if args.gravity else list(GRAVITIES)
    table(FULL if args.full else SHORT, sizes, strategies, gravities)
    return 0


if __name__ == "__main__":
    sys.exit(main())
