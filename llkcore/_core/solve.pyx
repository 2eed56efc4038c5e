# cython: language_level=3
"""The solvers' entry point: strategy codes, run statuses, and the order of an "exact" solve.

Every strategy plays on the GridState it is given (the facade passes a private copy), records
the removals it makes (padded cells, in play order: the certificate) and runs without the GIL.
The strategies live in greedy.pyx, matching.pyx, pairing.pyx (+ peeling.pyx) and
gravity_search.pyx; docs/architecture.md ("Solvers") says what each proves.

Without gravity "exact" first looks at the root alone (random big deals are proved dead there),
then lets the two greedy players try for a cheap certificate (most solvable boards), then searches;
all phases share the budgets and the node count. With gravity it searches at once: the search's
first descent plays tops first, which finds more certificates than the greedy players (measured:
same UNKNOWN count, fewer nodes in the median; docs/architecture.md, "The gravity search").

A run cut short (time, a cancel, Ctrl-C) reports that, whatever the strategy returned: after
the cut every link test answers "no" at once (link.pxd), so only a certificate (made of real
removals) is still trusted. Ctrl-C in the main thread raises KeyboardInterrupt here.
"""
cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.string cimport memset

from .gravity cimport slide_room
from .gravity_search cimport run_gravity_search
from .greedy cimport run_freedom, run_mobility
from .grid cimport GRAVITY_NONE, Grid, sort_positions
from .matching cimport run_matching
from .memo import MEMO_ENTRIES
from .pairing cimport run_pairing
from .pairs cimport wants_floods
from .run cimport (OPT_HUNT_ONLY, OPT_NO_CBJ, OPT_NO_DEAD, OPT_NO_DEAD_BELOW, OPT_NO_GPROBE,
                   OPT_NO_HUNT, OPT_NO_KEPT_MOVES, OPT_NO_PEEL, OPT_NO_PROBE, OPT_NO_PROBE_ORDER,
                   OPT_NO_QUICK, OPT_NO_REPLAY, OPT_NO_SAFE, OPT_NO_SLEEP, OPT_PROBE_FIRST,
                   ST_CANCELLED, ST_DEAD, ST_INTERRUPTED, ST_MEMORY, ST_NODES, ST_ODD, ST_SOLVED,
                   ST_STUCK, ST_TIME, Ctx,
                   budget_raise, budget_start, cancel_flag, cut_short)
from .state cimport GridState

import numpy as np

cnp.import_array()

#: The strategy names; a strategy's code is its index.
STRATEGIES = ("exact", "greedy-freedom", "greedy-mobility", "matching")
cdef enum:
    STRAT_EXACT = 0
    STRAT_FREEDOM = 1
    STRAT_MOBILITY = 2
    STRAT_MATCHING = 3

#: Run status code -> name, and -> verdict (1 solvable, 0 unsolvable, -1 unknown).
STATUS_NAMES = {ST_DEAD: "unsolvable", ST_SOLVED: "solved", ST_NODES: "node_limit",
                ST_TIME: "time_limit", ST_STUCK: "stuck", ST_MEMORY: "memory", ST_ODD: "odd_count",
                ST_CANCELLED: "cancelled", ST_INTERRUPTED: "interrupted"}
STATUS_VERDICTS = {ST_DEAD: 0, ST_SOLVED: 1, ST_NODES: -1, ST_TIME: -1, ST_STUCK: -1,
                   ST_ODD: 0, ST_CANCELLED: -1, ST_INTERRUPTED: -1}

#: solve_state's ``options`` bits by name (run.pxd), for the tests that switch a pruning off.
TEST_OPTIONS = {"no_cbj": OPT_NO_CBJ, "no_peel": OPT_NO_PEEL, "no_probe": OPT_NO_PROBE,
                "probe_first": OPT_PROBE_FIRST, "no_quick": OPT_NO_QUICK,
                "no_safe": OPT_NO_SAFE, "no_sleep": OPT_NO_SLEEP, "no_dead": OPT_NO_DEAD,
                "no_replay": OPT_NO_REPLAY, "no_gprobe": OPT_NO_GPROBE,
                "no_probe_order": OPT_NO_PROBE_ORDER, "no_dead_below": OPT_NO_DEAD_BELOW,
                "no_hunt": OPT_NO_HUNT, "hunt_only": OPT_HUNT_ONLY,
                "no_kept_moves": OPT_NO_KEPT_MOVES}

# Node cap of each greedy try before the exact search, per tile on the board.
cdef enum:
    QUICK_NODES_PER_TILE = 16


cdef int run_phase(Ctx *c, GridState s, int strategy, int maxcount, int64_t memo_cap,
                   uint64_t zseed, int options, int64_t cap) noexcept:
    """Run one strategy on s with the shared budgets, at most ``cap`` more nodes (cap < 0: no
    cap of its own). ST_NODES from the cap alone comes back as ST_STUCK."""
    cdef int64_t user_limit = c.b.node_limit
    cdef int status
    c.g = &s.g
    c.w = &s.work
    c.nout = 0
    c.b.stop = 0
    s.work.budget = &c.b      # link tests deep inside a strategy see the budget (link.pxd)
    if cap >= 0 and (user_limit < 0 or c.b.nodes + cap < user_limit):
        c.b.node_limit = c.b.nodes + cap
    with nogil:
        if strategy == STRAT_FREEDOM:
            status = run_freedom(c)
        elif strategy == STRAT_MOBILITY:
            status = run_mobility(c)
        elif strategy == STRAT_MATCHING:
            status = run_matching(c, maxcount)
        elif c.gravity == GRAVITY_NONE:
            status = run_pairing(c, maxcount, memo_cap, zseed, options)
        else:
            status = run_gravity_search(c, memo_cap, zseed, options)
    s.work.budget = NULL
    if status != ST_SOLVED and cut_short(&c.b):
        status = c.b.stop
    elif status == ST_NODES and c.b.node_limit != user_limit:
        status = ST_STUCK
    c.b.node_limit = user_limit
    return status


cdef GridState trial_copy(GridState s, int max_turns):
    """A copy of s to play a trial on (with its path-search buffers when they are needed)."""
    cdef GridState trial = s.copy()
    if max_turns > 2 or wants_floods(&s.g):
        trial.lock_work()
        trial.unlock()
    return trial


def solve_state(GridState s, int strategy, int max_turns, int gravity, long long node_limit,
                double time_limit, long long memo_entries=MEMO_ENTRIES, unsigned long long seed=0,
                int options=0, cnp.ndarray cancel=None, dict stats=None):
    """Run a strategy on ``s`` (played on in place: pass a copy no other thread uses).

    ``stats`` (tests): a dict given gets the gravity search's counts of work that is not nodes,
    "dead_tests" (dead tests run) and "dead_links" (their link tests).

    ``cancel``: an int32 array whose first item another thread may set to non-zero to stop the
    run (status ST_CANCELLED) at the next node.

    node_limit < 0 / time_limit < 0 mean no budget. Returns (status, moves, nodes): status one of
    the ST_* codes (see STATUS_NAMES), moves a (k, 2) int32 array of padded cells in play order
    (the certificate when solved, else None).
    """
    cdef Grid *g = &s.g
    cdef Ctx c
    cdef int t, n, maxcount = 0, status, k
    cdef GridState trial
    for t in range(g.ntypes):
        n = g.offset[t + 1] - g.offset[t]
        if n > maxcount:
            maxcount = n
        if g.count[t] % 2:
            return ST_ODD, None, 0
    if g.tiles == 0:
        return ST_SOLVED, np.empty((0, 2), dtype=np.int32), 0
    sort_positions(g)       # same grid, same search, whatever play led to it
    if max_turns > 2 or wants_floods(g):
        s.lock_work()       # path-search and flood buffers (pairs.pxd)
        s.unlock()
    memset(&c, 0, sizeof(Ctx))
    budget_start(&c.b, time_limit, cancel_flag(cancel))
    c.max_turns = max_turns
    c.gravity = gravity
    c.b.node_limit = node_limit
    out = np.empty(g.tiles + 2, dtype=np.int32)
    c.out = <int32_t *>cnp.PyArray_DATA(out)
    gbuf = np.empty(slide_room(g), dtype=np.int32)
    c.gbuf = <int32_t *>cnp.PyArray_DATA(gbuf)
    cdef int64_t memo_cap = memo_entries
    cdef uint64_t zseed = seed
    if strategy != STRAT_EXACT or (options & OPT_NO_QUICK) or gravity != GRAVITY_NONE:
        status = run_phase(&c, s, strategy, maxcount, memo_cap, zseed, options, -1)
    else:
        status = run_phase(&c, trial_copy(s, max_turns), STRAT_EXACT, maxcount, memo_cap, zseed,
                           options, 1)
        if status == ST_STUCK:
            for k in range(2):
                trial = trial_copy(s, max_turns)
                status = run_phase(&c, trial, STRAT_FREEDOM if k == 0 else STRAT_MOBILITY,
                                   maxcount, memo_cap, zseed, options, QUICK_NODES_PER_TILE * g.tiles)
                if status != ST_STUCK:
                    break
        if status == ST_STUCK:
            status = run_phase(&c, s, STRAT_EXACT, maxcount, memo_cap, zseed, options, -1)
    budget_raise(&c.b)
    if status == ST_MEMORY:
        raise MemoryError("llkcore: the solver could not allocate its work space")
    moves = out[:2 * c.nout].reshape(c.nout, 2).copy() if status == ST_SOLVED else None
    if stats is not None:
        stats["dead_tests"] = c.dead_tests
        stats["dead_links"] = c.dead_links
    return status, moves, c.b.nodes
