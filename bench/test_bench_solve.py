"""Solvers on seeded 18x8 deals (KShisen's default board): llkcore vs llkref in the same run.

Each group pairs a ``_core`` and a ``_ref`` benchmark on the same deals, so ratio = ref / core:
- solve-greedy-freedom / solve-matching (18x8) and solve-greedy-mobility-8x6: the same strategy
  in both engines (they play the same moves, asserted); mobility scores every move by listing
  the moves after it, which takes llkref about 20 s per 18x8 deal, hence the smaller board;
- solve-exact-18x8: llkcore's exact answer against llkref's one greedy playout (KShisen's
  "solvable games only" check, which guesses): what a proof costs next to a guess. That playout
  on these deals is exactly solve-greedy-freedom's ref side, so the group takes its ratio against
  it (``extra_info["ref_group"]``, bench/conftest.py) instead of timing it twice;
- solve-exact-6x6: llkcore's exact search against llkref's exhaustive search on 6x6 deals small
  enough for it (same verdicts, asserted).
Node counts of the exact search go to extra_info (bench/strength.py has the full strength table).
"""
from __future__ import annotations

import llkref
import pytest

import llkcore as llk
from llkcore._core import solve as _kernel

SEEDS_18x8 = range(3)
SEEDS_8x6 = range(3)
SEEDS_6x6 = range(6)
REF = {"greedy-freedom": llkref.greedy_freedom, "greedy-mobility": llkref.greedy_mobility,
       "matching": llkref.matching}


@pytest.fixture(scope="module")
def deals_18x8():
    boards = [llk.generate(18, 8, solvable=False, seed=s) for s in SEEDS_18x8]
    return boards, [b.grid.tolist() for b in boards]


@pytest.fixture(scope="module")
def deals_8x6():
    boards = [llk.generate(8, 6, solvable=False, seed=s) for s in SEEDS_8x6]
    return boards, [b.grid.tolist() for b in boards]


@pytest.fixture(scope="module")
def deals_6x6():
    boards = [llk.generate(6, 6, solvable=False, seed=s) for s in SEEDS_6x6]
    return boards, [b.grid.tolist() for b in boards]


def _core_all(boards, strategy):
    solver = llk.Solver(strategy=strategy)
    return [solver.solve(b) for b in boards]


def _deals_for(strategy, request):
    if strategy == "greedy-mobility":
        return f"solve-{strategy}-8x6", request.getfixturevalue("deals_8x6")
    return f"solve-{strategy}", request.getfixturevalue("deals_18x8")


@pytest.mark.parametrize("strategy", sorted(REF))
def test_heuristic_core(benchmark, request, strategy, ref_answers):
    benchmark.group, (boards, grids) = _deals_for(strategy, request)
    sols = benchmark(_core_all, boards, strategy)
    # A heuristic returns None when stuck; llkcore says UNKNOWN with no moves then.
    expected = ref_answers.get_or_compute(("solve", strategy), lambda: [REF[strategy](g) for g in grids])
    assert [s.moves for s in sols] == expected


@pytest.mark.parametrize("strategy", sorted(REF))
def test_heuristic_ref(benchmark, request, strategy, ref_answers):
    benchmark.group, (_, grids) = _deals_for(strategy, request)
    ref_answers[("solve", strategy)] = benchmark.pedantic(lambda: [REF[strategy](g) for g in grids],
                                                          rounds=1, iterations=1)


def test_exact_18x8_core(benchmark, deals_18x8):
    boards, _ = deals_18x8
    benchmark.group = "solve-exact-18x8"
    # llkref's side: one greedy-freedom playout per deal, timed in solve-greedy-freedom.
    benchmark.extra_info["ref_group"] = "solve-greedy-freedom"
    sols = benchmark(_core_all, boards, "exact")
    assert all(s.verdict != llk.Verdict.UNKNOWN for s in sols)
    assert all(llk.verify(b, s.moves) for b, s in zip(boards, sols) if s.moves is not None)
    benchmark.extra_info["nodes"] = [s.nodes for s in sols]
    benchmark.extra_info["verdicts"] = [int(s.verdict) for s in sols]


def test_exact_6x6_core(benchmark, deals_6x6):
    boards, grids = deals_6x6
    benchmark.group = "solve-exact-6x6"
    sols = benchmark(_core_all, boards, "exact")
    expected = [llkref.solve_exhaustive(g)[0] for g in grids]
    assert [s.verdict == llk.Verdict.SOLVABLE for s in sols] == expected


def test_exact_6x6_ref(benchmark, deals_6x6):
    _, grids = deals_6x6
    benchmark.group = "solve-exact-6x6"
    benchmark.pedantic(lambda: [llkref.solve_exhaustive(g) for g in grids], rounds=1, iterations=1)


#: Two 16x9 deals without gravity (rows x cols) that probing decides only after thousands of
#: nodes, both unsolvable: the tail the probing order was made for (docs/architecture.md,
#: "Probing order").
SEEDS_PROBE_TAIL = (560, 969)


@pytest.fixture(scope="module")
def deals_probe_tail():
    return [llk.generate(16, 9, solvable=False, seed=s) for s in SEEDS_PROBE_TAIL]


def _exact_kernel(boards, options):
    """The exact search alone (solve_state, no time limit) on copies of the boards: statuses."""
    return [_kernel.solve_state(b._state.copy(), 0, b.rules.max_turns, b.rules.gravity_code, -1,
                                -1.0, 1 << 20, 0, options)[0] for b in boards]


def _probe_order(benchmark, boards, options):
    benchmark.group = "probe-order-16x9"
    statuses = benchmark.pedantic(_exact_kernel, args=(boards, options), rounds=3, iterations=1)
    assert [_kernel.STATUS_VERDICTS[st] for st in statuses] == [0] * len(boards), statuses


def test_probe_order_16x9_core(benchmark, deals_probe_tail):
    """probe-order-16x9: the search as it is, against the same build with probing in type order,
    every pairing, no skips (``_baseline``: OPT_NO_PROBE_ORDER). The gate's ratio is what the
    probing order saves on the tail, measured in one run."""
    _probe_order(benchmark, deals_probe_tail, 0)


def test_probe_order_16x9_baseline(benchmark, deals_probe_tail):
    _probe_order(benchmark, deals_probe_tail, _kernel.TEST_OPTIONS["no_probe_order"])


@pytest.fixture(scope="module")
def positions_gravity_probing():
    """KShisen's 24x12 with gravity "down" (12 rows x 24 columns), where probing at the root runs
    two or three dead tests for each of 72 types: five solvable deals 10 removals along their
    certificates (their pairings alive), and four random deals (seeds 0-3: many pairings dead,
    seed 1 proved dead by probing)."""
    rules = llk.Rules(gravity="down")
    boards = []
    for seed in range(5):
        board = llk.generate(12, 24, seed=seed, rules=rules)
        for move in board.certificate[:10]:
            board.remove(*move)
        boards.append(board)
    boards += [llk.generate(12, 24, solvable=False, seed=seed, rules=rules) for seed in range(4)]
    return boards


def _probed(boards, options):
    """Statuses of one node of the gravity search: the root's dead test and its probing (from
    the first round on), nothing else."""
    options |= _kernel.TEST_OPTIONS["probe_first"] | _kernel.TEST_OPTIONS["no_quick"]
    return [_kernel.solve_state(b._state.copy(), 0, b.rules.max_turns, b.rules.gravity_code, 1,
                                -1.0, 1 << 16, 0, options)[0] for b in boards]


def test_gravity_probing_24x12_core(benchmark, positions_gravity_probing):
    """gravity-probing-24x12: probing as it is (each test replays the order of the one before; a
    type whose tiles the test before deleted in pairs has that pairing alive without a test),
    against every test from scratch (``_baseline``: OPT_NO_REPLAY), with the same statuses."""
    benchmark.group = "gravity-probing-24x12"
    statuses = benchmark.pedantic(_probed, args=(positions_gravity_probing, 0), rounds=3,
                                  iterations=1, warmup_rounds=1)
    assert statuses == _probed(positions_gravity_probing, _kernel.TEST_OPTIONS["no_replay"])
    assert statuses.count(0) == 1, statuses     # random seed 1 proved dead, the others open


def test_gravity_probing_24x12_baseline(benchmark, positions_gravity_probing):
    benchmark.group = "gravity-probing-24x12"
    benchmark.pedantic(_probed, args=(positions_gravity_probing, _kernel.TEST_OPTIONS["no_replay"]),
                       rounds=3, iterations=1, warmup_rounds=1)
