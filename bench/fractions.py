#!/usr/bin/env python3
"""Solvable fractions of random KShisen deals, with and without gravity.

KShisen names its board sizes width x height: 14x6, 16x9, 18x8 (the default), 24x12, 26x14,
30x16. Here they are dealt as ``rows x cols`` = 6x14, 9x16, 8x18, 12x24, 14x26, 16x30, four
copies of each tile type, the ring round the board on, two turns, gravity None or "down":

    llk.generate(rows, cols, solvable=False, seed=s, rules=llk.Rules(gravity=g))   s = 0, 1, ...

Each deal is decided by the exact solver within a time limit (SOLVABLE with a certificate that
``llk.verify`` replays, UNSOLVABLE proved, or UNKNOWN when the limit ran out), and also played
once by greedy-freedom, KShisen's own solvability check (one playout: remove the pair with the
fewest empty neighbours). The table gives, per size and gravity: the fractions with 95% Wilson
intervals, the fraction a one-playout check accepts beside the true solvable fraction, and the
median and p99 solve time.

  python bench/fractions.py --results r.jsonl     the README table, keeping every deal's result
                                                  (a rerun reads them and solves only the rest)
  python bench/fractions.py --deals 50 --large 20  a quick look

Budgets: 1 s per deal for the three small sizes, 10 s for the large ones (``--time-limit``,
``--large-time-limit``). ``--retry-unknown 60`` solves every deal left UNKNOWN once more with
60 s; the table then counts each deal by its last answer, and its limit column says how many
deals were retried.

Times are wall-clock seconds of one worker thread; with ``--workers`` above the free cores they
grow and more deals hit the limit. Every answer is deterministic except which deals hit the
time limit.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

import llkcore as llk

#: KShisen's sizes: (name as KShisen writes it, width x height; rows; cols).
SIZES: List[Tuple[str, int, int]] = [("14x6", 6, 14), ("16x9", 9, 16), ("18x8", 8, 18),
                                     ("24x12", 12, 24), ("26x14", 14, 26), ("30x16", 16, 30)]
LARGE = {"24x12", "26x14", "30x16"}
GRAVITIES = (None, "down")
Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> Tuple[float, float]:
    """95% Wilson score interval of a proportion k / n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def solve_deal(rows: int, cols: int, gravity: Optional[str], seed: int,
               time_limit: float) -> Dict[str, object]:
    """One deal: the exact verdict (certificate replayed) and KShisen's one-playout check."""
    rules = llk.Rules(gravity=gravity)
    board = llk.generate(rows, cols, solvable=False, seed=seed, rules=rules)
    sol = llk.solve(board, time_limit=time_limit)
    if sol.verdict == llk.Verdict.SOLVABLE and not llk.verify(board, sol.moves):
        raise AssertionError(f"wrong certificate: {rows}x{cols} gravity={gravity} seed={seed}")
    playout = llk.solve(board, strategy="greedy-freedom")
    if playout.verdict == llk.Verdict.SOLVABLE and not llk.verify(board, playout.moves):
        raise AssertionError(f"wrong playout: {rows}x{cols} gravity={gravity} seed={seed}")
    return {"rows": rows, "cols": cols, "gravity": gravity, "seed": seed,
            "time_limit": time_limit, "verdict": int(sol.verdict), "reason": sol.reason,
            "nodes": sol.nodes, "seconds": sol.seconds,
            "freedom": playout.verdict == llk.Verdict.SOLVABLE}


def load(path: Optional[str]) -> Dict[tuple, dict]:
    done: Dict[tuple, dict] = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    done[(r["rows"], r["cols"], r["gravity"], r["seed"], r["time_limit"])] = r
    return done


def run(cases: Sequence[Tuple[int, int, Optional[str], int]], time_limit: float, workers: int,
        results: Optional[str], progress: bool = True) -> List[dict]:
    """Solve every (rows, cols, gravity, seed) not already in ``results``; returns all records."""
    done = load(results)
    todo = [c for c in cases if (*c, time_limit) not in done]
    out = open(results, "a") if results else None
    start = time.perf_counter()
    try:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(solve_deal, r, c, g, s, time_limit) for r, c, g, s in todo]
            for i, fut in enumerate(futures):
                rec = fut.result()
                done[(rec["rows"], rec["cols"], rec["gravity"], rec["seed"], time_limit)] = rec
                if out:
                    out.write(json.dumps(rec) + "\n")
                    out.flush()
                if progress and (i + 1) % 100 == 0:
                    print(f"  {i + 1}/{len(todo)} deals, {time.perf_counter() - start:.0f} s",
                          file=sys.stderr, flush=True)
    finally:
        if out:
            out.close()
    return [done[(*c, time_limit)] for c in cases]


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def interval(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{pct(k / n)}% [{pct(lo)}, {pct(hi)}]"


def ms(x: float) -> str:
    return f"{x:,.1f}" if x < 100 else f"{x:,.0f}"


def limits(recs: Sequence[dict]) -> str:
    """The limit column: the first solve's limit, and the retry's (the longer) with how many deals
    had it."""
    first = min(r["time_limit"] for r in recs)
    retried = [r for r in recs if r["time_limit"] != first]
    if not retried:
        return f"{first:g} s"
    return f"{first:g} s; {retried[0]['time_limit']:g} s for the {len(retried)} left unknown"


def retry_unknown(cases: Sequence[Tuple[int, int, Optional[str], int]], recs: List[dict],
                  time_limit: float, workers: int, results: Optional[str]) -> List[dict]:
    """Solve the deals of ``recs`` left UNKNOWN once more within ``time_limit``; each deal's
    record is then its last answer."""
    unknown = [c for c, r in zip(cases, recs) if r["verdict"] == int(llk.Verdict.UNKNOWN)]
    if not unknown:
        return recs
    print(f"  {len(unknown)} left unknown: {time_limit:g} s each", file=sys.stderr, flush=True)
    again = dict(zip(unknown, run(unknown, time_limit, workers, results, progress=False)))
    return [again.get(c, r) for c, r in zip(cases, recs)]


def table(rows: Iterable[Tuple[str, Optional[str], List[dict]]]) -> str:
    lines = ["| KShisen size (rows × cols) | gravity | deals | solvable | unsolvable | unknown | "
             "one playout accepts | ms median / p99 | limit |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, gravity, recs in rows:
        n = len(recs)
        v = np.array([r["verdict"] for r in recs])
        t = np.array([r["seconds"] for r in recs]) * 1e3
        free = sum(r["freedom"] for r in recs)
        rr, cc = recs[0]["rows"], recs[0]["cols"]
        lines.append(
            f"| {name} ({rr} × {cc}) | {gravity or '–'} | {n} | {interval(int((v == 1).sum()), n)} | "
            f"{interval(int((v == 0).sum()), n)} | {interval(int((v == -1).sum()), n)} | "
            f"{interval(free, n)} | {ms(np.median(t))} / {ms(np.percentile(t, 99))} | "
            f"{limits(recs)} |")
    lines.append("")
    lines.append("Percentages with 95% Wilson intervals [low, high].")
    return "\n".join(lines)


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=positive_int, default=1000,
                    help="deals per small size (default 1000)")
    ap.add_argument("--large", type=positive_int, default=200,
                    help="deals per large size, 24x12 and up (default 200)")
    ap.add_argument("--time-limit", type=float, default=1.0,
                    help="seconds per deal of a small size (default 1)")
    ap.add_argument("--large-time-limit", type=float, default=10.0,
                    help="seconds per deal of a large size (default 10)")
    ap.add_argument("--retry-unknown", type=float, metavar="SECONDS",
                    help="solve every deal left UNKNOWN once more with this limit (default: no)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="threads")
    ap.add_argument("--sizes", nargs="+", choices=[s[0] for s in SIZES], help="only these sizes")
    ap.add_argument("--gravity", nargs="+", choices=["none", "down"], help="only these")
    ap.add_argument("--results", help="JSON-lines file of per-deal results (read and appended)")
    args = ap.parse_args(argv)
    sizes = [s for s in SIZES if not args.sizes or s[0] in args.sizes]
    # Only the limits of the sizes that run: a retry shorter than an unused default is fine.
    limits = {args.large_time_limit if name in LARGE else args.time_limit for name, _, _ in sizes}
    if args.retry_unknown is not None and args.retry_unknown <= max(limits):
        ap.error("--retry-unknown must be longer than the first solve's limit (--time-limit, "
                 "or --large-time-limit for 24x12 and up)")
    gravities = [None if g == "none" else g for g in args.gravity] if args.gravity else list(GRAVITIES)
    groups = []
    for name, rows, cols in sizes:
        deals = args.large if name in LARGE else args.deals
        limit = args.large_time_limit if name in LARGE else args.time_limit
        for gravity in gravities:
            cases = [(rows, cols, gravity, s) for s in range(deals)]
            print(f"{name} ({rows} rows x {cols} cols), gravity {gravity}: {deals} deals, "
                  f"{limit:g} s each", file=sys.stderr, flush=True)
            recs = run(cases, limit, args.workers, args.results)
            if args.retry_unknown:
                recs = retry_unknown(cases, recs, args.retry_unknown, args.workers, args.results)
            groups.append((name, gravity, recs))
    print(table(groups))
    return 0


if __name__ == "__main__":
    sys.exit(main())
