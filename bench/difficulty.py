#!/usr/bin/env python3
"""Are "hard" deals really harder? Rate seeded deals of each difficulty band and compare.

For each band, deal i is ``llk.generate(rows, cols, seed=deal_seed(seed, i), difficulty=band)``
and is rated with ``llk.rate`` (its defaults: 200 random playouts, the careful game with 20,000
nodes per position). The table shows, per band, the means of the score, the random-clear rate,
the trap rate (pooled: all traps over all decided moves of the band's careful games) and the
branching, the share of deals whose careful game met at least one trap, and the time to deal
and to rate. The run fails (exit code 1) unless "hard" deals have a lower random-clear rate and
a higher trap rate than "easy" ones.

    python bench/difficulty.py                      # 200 deals per band, 18x8 (a few minutes)
    python bench/difficulty.py --count 20 --size 6x8
    python bench/difficulty.py --latency            # play-time query times along games instead
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import llkcore as llk
from llkcore.cli.options import parse_size
from llkcore.deals import deal_seed


def one(job):
    band, rows, cols, seed, gravity = job
    start = time.perf_counter()
    board = llk.generate(rows, cols, seed=seed, difficulty=band, rules=llk.Rules(gravity=gravity))
    dealt = time.perf_counter()
    rating = llk.rate(board)
    return band, rating, dealt - start, time.perf_counter() - dealt


def latency(rows: int, cols: int, count: int, seed: int, gravity) -> None:
    """Median and p90 times of the play-time queries along the games of ``count`` deals: each
    deal is played along a random safe line (the first safe move of ``traps``), and every
    position is asked winnable (on a new Board: nothing cached; on the board in play: the last
    traps() decided it already; then again), hint(safe=True) and traps()."""
    rules = llk.Rules(gravity=gravity)
    times = {"winnable (cold: a new Board)": [], "winnable (in play)": [],
             "winnable (asked again)": [],
             "hint(safe=True)": [], "traps()": [], "rate(traps=False), 200 playouts": []}
    unknown = 0
    for i in range(count):
        board = llk.generate(rows, cols, seed=deal_seed(seed, i), rules=rules)
        board.certificate = None        # no head start from the deal's own certificate
        t = time.perf_counter()
        llk.rate(board, traps=False)
        times["rate(traps=False), 200 playouts"].append(time.perf_counter() - t)
        while board.tiles_left:
            cold = llk.Board(board.grid, rules=rules)
            for name, query in (("winnable (cold: a new Board)", cold.winnable),
                                ("winnable (in play)", board.winnable),
                                ("winnable (asked again)", board.winnable),
                                ("hint(safe=True)", lambda: board.hint(safe=True)),
                                ("traps()", board.traps)):
                t = time.perf_counter()
                answer = query()
                times[name].append(time.perf_counter() - t)
            unknown += answer.verdict == llk.Verdict.UNKNOWN
            moves = answer.safe or answer.undecided
            if not moves:
                break
            board.remove(*moves[len(moves) // 2])
    print(f"{rows}x{cols}, gravity {gravity}, {count} deals, {len(times['traps()'])} positions "
          f"({unknown} with traps() UNKNOWN)\n")
    print("| query | median ms | p90 ms | max ms |")
    print("|---|---|---|---|")
    for name, values in times.items():
        ms = 1000 * np.array(values)
        print(f"| `{name}` | {np.median(ms):.2f} | {np.percentile(ms, 90):.2f} | {ms.max():.2f} |")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=parse_size, default=(8, 18), help="ROWSxCOLS (default 8x18)")
    parser.add_argument("--count", type=int, default=200, help="deals per band (default 200)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bands", default="easy,medium,hard")
    parser.add_argument("--gravity", default=None, choices=[g for g in llk.GRAVITIES if g])
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--latency", action="store_true",
                        help="time the play-time queries along --count games instead")
    args = parser.parse_args(argv)
    rows, cols = args.size
    if args.latency:
        latency(rows, cols, args.count, args.seed, args.gravity)
        return 0
    bands = args.bands.split(",")
    jobs = [(band, rows, cols, deal_seed(args.seed, i), args.gravity)
            for band in bands for i in range(args.count)]
    ratings = {band: [] for band in bands}
    times = {band: [] for band in bands}
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for band, rating, deal_s, rate_s in pool.map(one, jobs, chunksize=4):
            ratings[band].append(rating)
            times[band].append((deal_s, rate_s))
    wall = time.perf_counter() - start
    print(f"{rows}x{cols}, gravity {args.gravity}, {args.count} deals per band, seed "
          f"{args.seed}, {wall:.0f} s wall on {args.workers} processes\n")
    print("| band | deals | score (mean) | random-clear rate (mean) | trap rate (pooled) | "
          "deals with a trap | branching (mean) | deal ms (median) | rate ms (median) |")
    print("|---|---|---|---|---|---|---|---|---|")
    summary = {}
    for band in bands:
        rs = ratings[band]
        traps = sum(r.traps for r in rs)
        decided = sum(r.decided for r in rs)
        summary[band] = (np.mean([r.clear_rate for r in rs]), traps / decided if decided else 0.0)
        deal_ms, rate_ms = (1000 * np.median([t[k] for t in times[band]]) for k in (0, 1))
        print(f"| {band} | {len(rs)} | {np.mean([r.score for r in rs]):.1f} | "
              f"{summary[band][0]:.3f} | {100 * summary[band][1]:.2f}% | "
              f"{100 * np.mean([r.traps > 0 for r in rs]):.0f}% | "
              f"{np.mean([r.branching for r in rs]):.1f} | {deal_ms:.0f} | {rate_ms:.0f} |")
    if "easy" in summary and "hard" in summary:
        (easy_clear, easy_traps), (hard_clear, hard_traps) = summary["easy"], summary["hard"]
        ok = hard_clear < easy_clear and hard_traps > easy_traps
        print(f"\nhard vs easy: random-clear rate {hard_clear:.3f} < {easy_clear:.3f}, "
              f"trap rate {100 * hard_traps:.2f}% > {100 * easy_traps:.2f}%: "
              f"{'yes' if ok else 'NO'}")
        return 0 if ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
