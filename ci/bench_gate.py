#!/usr/bin/env python3
"""Benchmark gate: run bench/ (pytest-benchmark), print core-vs-llkref ratios, fail below the floors.

Every benchmark group holds a core test and a ref test (names contain "_core" / "_ref") that run
the same work, so ratio = median(ref) / median(core) is measured in one run on one machine and
does not depend on how fast the machine is. A group whose llkref work is exactly another group's
(link-batch and module-link-* share link-single's llkref loop over the same queries) names that
group in its core test's ``extra_info["ref_group"]`` and takes that group's ref median, from the
same run; llkref, seconds a round, runs that work once. A group whose other side is llkcore
itself with one optimisation switched off (a ``_baseline`` test: probe-order-16x9, the exact
search with probing in plain type order) takes that side as its ref: the ratio is what the
optimisation saves, measured in the same run. Groups without a ref are reported, not gated.

Time: pytest-benchmark runs each core side for ``--benchmark-max-time`` (0.5 s here, against its
default 1 s): thousands of rounds for every gated core side, so their medians hold still. The ref
sides set their own rounds (``benchmark.pedantic``; 1 to 3 rounds of seconds each).

The thread speed-up of ``llk.analyze`` (workers=2 against workers=1) is reported, not gated: it
measures free cores, so it drops whenever other processes share the machine. What it stood for,
that the kernels release the GIL, is gated by the ``gil-*`` probes (bench/test_bench_gil.py): the
fraction of a long kernel call during which a Python thread kept running, which a busy machine
does not change. Extra gates that are not timings (the solver's node-count gate) are run by
their own scripts.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# group prefix -> (gate floor, README target). A ratio below the floor fails the run.
GATES = {
    "link-single": (300, 1_000),
    # A module call on the bot's own grid (read in place): a list, an int32 ndarray.
    "module-link-list": (250, 300),
    "module-link-array": (800, 1_000),
    # The same call late in a game on a 200x200 list (24 tiles): 660x when it read every crossing
    # line of the runs' overlap, 34,800x since it reads them in doubling batches.
    "module-link-sparse": (5_000, 20_000),
    # llk.find_path on that list, 12 calls: 807x when the best-path search flooded the board
    # (the module's grid had no occupancy bits), 2,870x when it was bounded as on a Board but
    # read the whole grid, about 99,000x since it reads only the lines a best path can use.
    "module-path-sparse": (20_000, 50_000),
    # llk.find_path on the 40x40 list, 200 calls: about 220x while it read the whole grid,
    # 800-1,000x since it reads lines as the link test does.
    "module-path-list": (300, 500),
    # np.array(list, int32) time / Board(list) (or update) time: a Board costs <= 3x the copy.
    "board-from-list": (0.3, 0.33),
    "board-update-list": (0.3, 0.33),
    # Board.can_link_many on 200 queries: an array, or (link-batch-list) a list of lists, whose
    # checks in Python made it 900x (1.3 ms) before they were made in C.
    "link-batch": (5_000, 20_000),
    # Board.moves_array on a sparse 256x256 (4 types of 66 tiles) against can_link_many on all
    # its same-type pairs: 0.002x when types above 64 tiles were flooded tile by tile whatever
    # the board's density, 0.7x since the listing weighs a flood against the pairs' sweeps.
    "listing-vs-pairs-sparse": (0.25, 0.5),
    # Board.hint on a sparse board of two types against Board.moves_array there: 0.7x when the
    # hint listed every move of up to two turns first, 136x since it lists by turns, 539x since
    # passes over the cells find the moves of at most one turn.
    "hint-vs-listing-few-types": (10, 100),
    # Board.hint on a crowded 256x256 of 64 types (60% full) against Board.moves_array there:
    # 5.2x when it listed the moves of 0, then 1 turn by a flood from every tile; passes over
    # the cells find them now (45x against the flood listing, 11x against the listing by runs).
    "hint-vs-listing-crowded": (8, 12),
    # The moves of that board listed by runs against a flood from each tile (by_runs=False).
    "listing-by-runs-crowded": (2, 4),
    "moves": (2_000, 10_000),
    "generate-18x8": (1_000, 5_000),
    # llk.verify(list grid, 72 removals) against llkref.verify: 39x when each move was checked
    # point by point in Python and replayed call by call, 250x since one kernel loop replays it.
    "verify-18x8": (100, 200),
    # The exact search on two 16x9 tail deals against itself with OPT_NO_PROBE_ORDER (2.5x).
    "probe-order-16x9": (1.5, 2.5),
    # Random playouts of a 96x96 deal keeping their list of moves, against a fresh listing at
    # each step whose draws all miss (the same draws): 7.6x when measured (2026-12-05).
    "playouts-kept-list-96x96": (3, 6),
    # Every move of a 64x64 deal ten removals in, decided as traps() and ratings do (20,000
    # nodes a decision), against the same with certificates not repaired (_insight._repaired):
    # 1,386x when measured (2026-12-05; 542-810x with the repair made in Python); most moves
    # off the certificate are then exact searches that run out of nodes.
    "repaired-certificates-64x64": (20, 100),
    # The moves of a 20x20 deal with gravity, each decided by the deal's certificate repaired
    # from the position before it (_insight.repaired_after), against the playouts and exact
    # searches without it: 25x when measured (2026-12-05), 12x once probing's shared tests made
    # those searches faster (0.46 s -> 0.25 s; same day, the CI run of cac8063).
    "repaired-certificates-gravity-20x20": (5, 10),
    # winnable on a 512x512 deal with gravity three removals into its certificate, on a copy
    # (a fresh cache), the board following its certificate, against replaying the rest of it to
    # prove it, as every query at a new position did: 19x when measured (2026-12-05; the copy
    # and the position's hash are most of the 9 ms; 2.9 s a query at 1024x1024 before).
    "certificate-followed-gravity-512": (5, 15),
    # Probing at the root of nine 24x12 positions with gravity (five solvable, four random deals),
    # each test replaying the order of the one before and pairings witnessed alive by it taken
    # without a test, against every test from scratch (OPT_NO_REPLAY): 3.9-4.2x when measured
    # (2026-12-05; 1.0-1.75x on the solvable positions, 3-5.8x on the random deals).
    "gravity-probing-24x12": (2, 4),
}
#: Least coverage of a long kernel call by a Python thread (bench/test_bench_gil.py): about 0
#: when a call holds the GIL, about 1 when it releases it, however busy the machine.
GIL_FLOOR = 0.5
#: Probes with a floor of their own. moves-list: the kernel releases the GIL, but the Python
#: list made from its answer held it for 0.35 s of 0.75 (coverage 0.59); in steps, 0.90.
GIL_FLOORS = {"gil-moves-list": 0.7}


def run_benchmarks(json_path: Path, extra: list[str]) -> int:
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(ROOT / "bench"),
           "--benchmark-json", str(json_path), "--benchmark-columns=median,rounds",
           "--benchmark-sort=name", "--benchmark-max-time=0.5", *extra]
    print("+", " ".join(cmd), flush=True)
    # Run from a temp dir so the source tree's llkcore/ never shadows the installed build.
    return subprocess.call(cmd, cwd=tempfile.gettempdir())


def ratios(json_path: Path) -> dict[str, dict]:
    """group -> {"core": median, "ref": median, "ref_group": the group whose ref it shares}."""
    data = json.loads(json_path.read_text())
    groups: dict[str, dict] = {}
    shared: dict[str, str] = {}
    for bench in data["benchmarks"]:
        if (bench["group"] or "").startswith("gil-"):
            continue
        group = bench["group"] or bench["name"]
        name = bench["name"]
        side = ("core" if "_core" in name else "ref" if "_ref" in name or "_baseline" in name
                else "core")
        groups.setdefault(group, {})[side] = bench["stats"]["median"]
        if bench.get("extra_info", {}).get("ref_group"):
            shared[group] = bench["extra_info"]["ref_group"]
    for group, source in shared.items():
        if "ref" not in groups[group] and "ref" in groups.get(source, {}):
            groups[group]["ref"] = groups[source]["ref"]
            groups[group]["ref_group"] = source
    return groups


def gil_probes(json_path: Path) -> dict[str, dict]:
    data = json.loads(json_path.read_text())
    return {b["group"]: b["extra_info"] for b in data["benchmarks"]
            if (b["group"] or "").startswith("gil-")}


def _ratio(ratio):
    return f"{ratio:,.0f}x" if ratio >= 10 else f"{ratio:.2f}x"


def _us(seconds):
    return "-" if seconds is None else f"{seconds * 1e6:,.1f}us"


def gate_for(group: str):
    for prefix, gate in GATES.items():
        if group.startswith(prefix):
            return gate
    return None


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        json_path = Path(tmp) / "bench.json"
        code = run_benchmarks(json_path, argv)
        if code != 0 or not json_path.exists():
            print(f"bench gate: benchmarks failed (pytest exit {code})")
            return 1
        groups = ratios(json_path)
        probes = gil_probes(json_path)
    failed = []
    print()
    print(f"{'group':28s} {'core median':>14s} {'ref median':>14s} {'ratio':>10s} {'gate':>8s} {'target':>8s}")
    for group in sorted(groups):
        times = groups[group]
        core, ref = times.get("core"), times.get("ref")
        gate = gate_for(group)
        ratio = ref / core if core and ref else None
        status = ""
        if gate is not None:
            if ratio is None or ratio < gate[0]:
                status = "  FAIL"
                failed.append(group)
        print(f"{group:28s} {_us(core):>14s} {_us(ref):>14s} "
              f"{(_ratio(ratio) if ratio else '-'):>10s} "
              f"{(_ratio(gate[0]) if gate else '-'):>8s} {(_ratio(gate[1]) if gate else '-'):>8s}{status}"
              + (f"  (ref: {times['ref_group']})" if times.get("ref_group") else ""))
    print()
    print("GIL: share of a long kernel call during which a Python thread kept running "
          "(coverage; its rate vs alone)")
    print(f"{'probe':28s} {'call':>10s} {'coverage':>10s} {'rate':>8s} {'floor':>8s}")
    for group in sorted(probes):
        info = probes[group]
        status = ""
        floor = GIL_FLOORS.get(group, GIL_FLOOR)
        if info.get("gil_coverage", 0) < floor:
            status = "  FAIL"
            failed.append(group)
        print(f"{group:28s} {info.get('call_seconds', 0):>9.2f}s {info.get('gil_coverage', 0):>10.2f} "
              f"{info.get('gil_rate', 0):>8.2f} {floor:>8.2f}{status}")
    if not probes:
        print("  no gil-* probe ran")
        failed.append("gil (no probe)")
    if failed:
        print(f"\nbench gate: FAILED for {', '.join(failed)}")
        return 1
    print("\nbench gate: all ratios and GIL coverages above their floors")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
