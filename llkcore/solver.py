"""Solvers: decide whether a board can be cleared, with a replayable certificate.

Strategies (docs/architecture.md, "Solvers"):

``"exact"``
    The only strategy that may answer UNSOLVABLE. Without gravity it looks at the root, lets the
    two greedy players try for a cheap certificate, then searches pairings
    (who is removed with whom), not move orders, closing every node under the safe steps,
    proving dead states with a relaxed peeling test, backjumping over decisions a dead end does
    not depend on and remembering dead states; with gravity it searches moves with a table of
    dead positions. A node or time budget that runs out gives UNKNOWN, never a guess.
``"greedy-freedom"`` (seed 001)
    Remove the linkable pair whose tiles have the fewest empty neighbours; ties to the smallest pair.
``"greedy-mobility"`` (seed 004)
    Remove the pair that leaves the most removable pairs; ties to the smallest pair.
``"matching"`` (seed 003)
    Per type, a maximum matching (Hopcroft-Karp) of the currently linkable pairs; remove the matched
    pairs that still link; rebuild the matching when a sweep removes nothing.

The heuristics answer SOLVABLE (with moves) or UNKNOWN, never UNSOLVABLE, except that every
strategy answers UNSOLVABLE at once (nodes = 0) when some type has an odd number of tiles.

``nodes`` counts positions examined: one per search node for "exact" (a position after closure,
or with gravity a position reached by a move; its greedy tries count as below), one per move
chosen for "greedy-freedom", one per position chosen in or scored for "greedy-mobility", one per
matching built or removal for "matching". ``node_limit`` caps that count. Node counts are
deterministic: the same board and rules give the same moves and nodes. Work between nodes is not
counted (the gravity search's dead tests and its probing of pairings at the root of the third
round: 0.5 s on a 40 x 40 position), and a greedy node scores every same-type pair (5.3 s for one
node on a 256 x 256 deal of two types), so ``time_limit``, not ``node_limit``, bounds the time.

Memory: the exact search's table of dead states is capped (``MEMO_ENTRIES`` entries of 16 bytes,
32 MiB by default, ``Solver(memo_entries=...)`` to change it); everything else it allocates is
proportional to the board, so a long search does not grow the process.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import numpy as np

from ._core import memo as _memo
from . import _insight
from ._core import solve as _solve
from .board import GridLike, board_for
from .checks import choice, integer, move_sequence, node_budget, seconds
from .coords import Move, moves_of
from .rules import Rules, as_rules
from .verdict import VERDICT_OF_STATUS as _VERDICT_OF_STATUS
from .verdict import Verdict

#: The strategy names (a strategy's kernel code is its index).
STRATEGIES: Tuple[str, ...] = _solve.STRATEGIES

#: Cap of the exact search's table of dead states, in entries of 16 bytes (2**21 = 32 MiB). The
#: table starts small, doubles while more than half full and, once at the cap, replaces old
#: entries, so a long search never grows the process past it.
MEMO_ENTRIES: int = _memo.MEMO_ENTRIES


@dataclass(frozen=True)
class Solution:
    """The answer of one solve.

    verdict: SOLVABLE / UNSOLVABLE / UNKNOWN.
    moves: when SOLVABLE, the removals ((r1, c1), (r2, c2)) in play order (first point smaller,
        coordinates as on the board when each is played, gravity included); ``verify`` accepts
        them. None otherwise.
    nodes: positions examined (see the module docstring); deterministic.
    seconds: wall time of the solve.
    strategy: the strategy that produced it.
    reason: why the solver stopped: "solved", "unsolvable", "odd_count", "node_limit",
        "time_limit", "cancelled" (Solver.cancel), "stuck" (a heuristic found no move it would
        play) or "certificate" ("exact" on a Board whose certificate, or what is left of it,
        clears the position: no search, 0 nodes). Ctrl-C in the main thread raises
        KeyboardInterrupt instead (within about 20 ms).
    """

    verdict: Verdict
    moves: Optional[List[Move]]
    nodes: int
    seconds: float
    strategy: str
    reason: str = ""

    @property
    def solvable(self) -> Optional[bool]:
        """True, False, or None when unknown."""
        if self.verdict == Verdict.UNKNOWN:
            return None
        return self.verdict == Verdict.SOLVABLE

    def __repr__(self) -> str:
        nmoves = "None" if self.moves is None else f"[{len(self.moves)} moves]"
        return (f"Solution(verdict={self.verdict.name}, moves={nmoves}, nodes={self.nodes}, "
                f"seconds={self.seconds:.4f}, strategy={self.strategy!r}, reason={self.reason!r})")


def _node_limit(value: Any) -> int:
    """None -> -1 (no budget); else an int >= 0 (clamped to NODE_LIMIT_MAX)."""
    nodes = node_budget(value)
    return -1 if nodes is None else nodes


def _time_limit(value: Any) -> float:
    """None -> -1.0 (no budget); else a number of seconds >= 0 (infinity: no budget)."""
    v = seconds(value, "time_limit")
    return -1.0 if v is None else v


def _memo_entries(value: Any) -> int:
    return MEMO_ENTRIES if value is None else min(integer(value, "memo_entries", low=2), 2**40)


class Solver:
    """A configured solver; ``solve`` may be called on many boards (it never changes them).

    rules: the rules for plain grids (None: the default Rules); a Board brings its own rules and
        a different ``rules`` here is an error. strategy: one of STRATEGIES. node_limit: at most
        this many nodes (None: no limit). time_limit: at most about this many seconds (None: no
        limit). Either budget running out gives Verdict.UNKNOWN. memo_entries: cap of the exact
        search's dead-state table (default MEMO_ENTRIES, 16 bytes per entry).
    """

    # The settings are read-only properties: a changed attribute would not reach the kernel
    # arguments checked here (a helper's audit saw strategy="matching" reported for an exact run).
    __slots__ = ("_rules", "_strategy", "_node_limit", "_time_limit",
                 "_code", "_nodes", "_seconds", "_memo", "_cancel")

    def __init__(self, rules: Optional[Rules] = None, strategy: str = "exact",
                 node_limit: Optional[int] = None, time_limit: Optional[float] = None,
                 memo_entries: Optional[int] = None) -> None:
        if isinstance(rules, str) and rules in STRATEGIES:
            raise TypeError(f"Solver's first argument is the rules: write "
                            f"Solver(strategy={rules!r})")
        if rules is not None:
            as_rules(rules)  # TypeError for anything but Rules
        self._rules = rules
        self._code = STRATEGIES.index(choice(strategy, "strategy", STRATEGIES))
        self._strategy = strategy
        self._nodes = _node_limit(node_limit)
        self._node_limit = node_limit
        self._seconds = _time_limit(time_limit)
        self._time_limit = time_limit
        self._memo = _memo_entries(memo_entries)
        # Read by the running kernels (GIL released) at every node; see cancel().
        self._cancel = np.zeros(1, dtype=np.int32)

    @property
    def rules(self) -> Optional[Rules]:
        """The rules for plain grids (None: the default Rules)."""
        return self._rules

    @property
    def strategy(self) -> str:
        """One of STRATEGIES."""
        return self._strategy

    @property
    def node_limit(self) -> Optional[int]:
        """At most this many nodes a solve (None: no limit)."""
        return self._node_limit

    @property
    def time_limit(self) -> Optional[float]:
        """At most about this many seconds a solve (None: no limit)."""
        return self._time_limit

    @property
    def memo_entries(self) -> int:
        """The cap of the exact search's dead-state table (entries of 16 bytes)."""
        return self._memo

    def __copy__(self) -> "Solver":
        # Its own cancel flag (in the state this one's is in): cancelling a copy must not stop
        # the solves running on the original.
        other = Solver.__new__(Solver)
        for name in Solver.__slots__:
            setattr(other, name, getattr(self, name))
        other._cancel = self._cancel.copy()
        return other

    def __deepcopy__(self, memo: dict) -> "Solver":
        return self.__copy__()

    def cancel(self) -> None:
        """Stop every solve running on this Solver, from any thread: each returns UNKNOWN with
        reason "cancelled" at its next node or link test. Later solves on this Solver stop at
        once too."""
        self._cancel[0] = 1

    @property
    def cancelled(self) -> bool:
        """True once ``cancel()`` was called."""
        return bool(self._cancel[0])

    def __repr__(self) -> str:
        return (f"Solver(rules={self.rules!r}, strategy={self.strategy!r}, "
                f"node_limit={self.node_limit!r}, time_limit={self.time_limit!r})")

    def solve(self, board_or_grid: GridLike) -> Solution:
        """Solve a Board (from its current position, with its rules) or a grid; see ``solve``."""
        return self._solve_within(board_or_grid, self._seconds)

    def _solve_within(self, board_or_grid: GridLike, seconds: float) -> Solution:
        """``solve`` in ``seconds`` (< 0: no limit) instead of the time limit: what is left of
        it after work the caller did for the same board (analyze lists its moves first)."""
        start = time.perf_counter()
        board = board_for(board_or_grid, self.rules)
        rules = board.rules
        state, known, proved = board._snapshot()
        if known and self.strategy == "exact" and not self.cancelled:
            # The answer is already in hand (a generated or reshuffled board's certificate, or
            # one set by the caller): what is left of it, known to clear the position or proved
            # by replay, instead of a search that can take longer than any limit on a big deal.
            cells = proved if proved is not None else _insight.reuse(
                state, rules, known, _insight.Clock(None if seconds < 0 else seconds, self._cancel))
            if cells is not None:
                return Solution(verdict=Verdict.SOLVABLE, moves=moves_of(cells, board._width),
                                nodes=0, seconds=time.perf_counter() - start,
                                strategy=self.strategy, reason="certificate")
        status, cells, nodes = _solve.solve_state(
            state, self._code, rules.max_turns, rules.gravity_code, self._nodes, seconds,
            self._memo, cancel=self._cancel)
        verdict = _VERDICT_OF_STATUS[status]
        moves = None if cells is None else moves_of(cells, board._width)
        return Solution(verdict=verdict, moves=moves, nodes=int(nodes),
                        seconds=time.perf_counter() - start, strategy=self.strategy,
                        reason=_solve.STATUS_NAMES[status])


def solve(board_or_grid: GridLike, *, strategy: str = "exact", rules: Optional[Rules] = None,
          node_limit: Optional[int] = None, time_limit: Optional[float] = None) -> Solution:
    """Decide whether ``board_or_grid`` can be cleared; never changes a Board passed in.

    A Board is solved from its current position under its own rules (``rules`` must then be
    None or equal to them); a grid (list of lists or 2-D integer array) is solved under
    ``rules`` (default Rules()). With gravity the grid is compacted first, as Board does.
    Returns a Solution; its moves (when SOLVABLE) replay with ``verify``.
    """
    return Solver(rules=rules, strategy=strategy, node_limit=node_limit,
                  time_limit=time_limit).solve(board_or_grid)




def verify(grid: GridLike, moves: Any, *, rules: Optional[Rules] = None) -> bool:
    """Replay ``moves`` on a copy of ``grid``; True iff every move is legal when played and the
    board ends clear. Gravity (from the rules) is applied before the first move and after each.

    A Board is replayed from its current position with its rules (it is not changed). Raises
    TypeError / ValueError only for input that is not a sequence of moves; a move that names an
    empty cell, a wall, a point off the board, two types or an unlinkable pair gives False.
    """
    sequence = move_sequence(moves)
    return board_for(grid, rules)._clears(sequence)
