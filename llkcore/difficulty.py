"""Difficulty: how hard a deal is, measured by play (``llk.rate``); docs/architecture.md, "Play-time insight".

Components, each reproducible from the position, the rules and ``seed``:

- **random-clear rate**: the fraction of ``playouts`` uniformly random playouts (at every step
  one removable pair drawn uniformly among all of them) that clear the board
  (``_core/playouts.pyx``);
- **trap rate** along a seeded *careful random game*: from the position, at every step every
  removable pair is classified (safe, trap, undecided: ``Board.traps``, the exact solver with
  ``node_limit`` nodes per position, so the answer does not depend on the machine), and the game
  goes on with a move drawn uniformly among the safe ones (among all when none is proved safe),
  so it never walks into a dead end and meets the positions a player who never blunders meets. The trap rate is the traps over the
  decided moves, summed over the positions of the game that are not lost;
- **branching**: the removable pairs per position along that game (its mean).

A ``time_limit`` bounds the whole rating on the clock: the playouts, then the careful game, stop
when it runs out, and the Rating says so (``complete`` False; ``playouts`` and the game's counts
are then of what was played, and with no playout finished the score is NaN). A rating the limit
did not cut is the one without a limit.

The **score** is the percentage of the random playouts that got stuck, 0 (every random game
clears) to 100 (none does): the chance that a player who picks any legal move at random loses.
Bands: ``easy`` score < 10, ``medium`` 10 <= score < 25, ``hard`` score >= 25.
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

import numpy as np

from . import _deals, _insight
from ._core import deal as _deal
from ._core import playouts as _playouts
from ._core.state import GridState
from .board import Board, GridLike, board_for
from .checks import choice, flag, integer, node_budget, seconds
from .rules import Rules
from .verdict import Verdict

__all__ = ["BANDS", "DIFFICULTIES", "PLAYOUTS", "NODE_LIMIT", "Rating", "band_of", "rate"]

#: The difficulty bands by score: name -> [low, high).
BANDS: Dict[str, Tuple[float, float]] = {"easy": (0.0, 10.0), "medium": (10.0, 25.0),
                                         "hard": (25.0, math.inf)}
DIFFICULTIES: Tuple[str, ...] = tuple(BANDS)
#: Default number of random playouts behind the score.
PLAYOUTS = 200
#: Default node budget of the exact search for each position of the careful game.
NODE_LIMIT = 20_000
# Stream of the careful game's draws, apart from the playouts' stream of the same seed.
_GAME_STREAM = 1


@dataclass(frozen=True)
class Rating:
    """How hard a position is (``llk.rate``; see the module docstring for the definitions).

    score: percentage of random playouts that got stuck, 0..100. band: "easy", "medium" or
    "hard" (``BANDS``). clear_rate: fraction of the ``playouts`` random playouts that cleared
    the board. trap_rate: traps / decided moves along the careful game (None when it met no
    position that is not lost, or the game was skipped). traps, decided, undecided: the counts
    behind it (undecided: moves whose outcome the node budget did not settle). branching: mean
    removable pairs per position of the game (None when it met no position with a move, or
    was skipped). game_length: removals the game made. seed: the seed of the playouts and the
    game. complete: False when ``time_limit`` stopped the playouts (``playouts`` is then how
    many were played) or the careful game (its counts are then of the positions it finished).
    When it stopped them before one playout ended, ``playouts`` is 0, ``score`` and
    ``clear_rate`` are NaN and ``band`` is None.
    """

    score: float
    band: Optional[str]
    clear_rate: float
    playouts: int
    trap_rate: Optional[float]
    traps: int
    decided: int
    undecided: int
    branching: Optional[float]
    game_length: int
    seed: int
    complete: bool = True


def band_of(score: float) -> str:
    """The band a score falls in."""
    for name, (low, high) in BANDS.items():
        if low <= score < high:
            return name
    raise ValueError(f"a score is between 0 and 100, got {score!r}")


def stuck_count(state: GridState, rules: Rules, playouts: int, stream: np.ndarray,
                cancel: Optional[np.ndarray] = None) -> Tuple[int, int]:
    """(how many random playouts from ``state`` (not changed) got stuck, how many were played):
    ``playouts`` of them, drawing from ``stream`` (advanced: playing n then m playouts equals
    playing n + m). A set ``cancel`` flag ends them early, fewer played."""
    removed, _ = _playouts.random_playouts(state.copy(), rules.max_turns, rules.gravity_code,
                                           playouts, stream, cancel=cancel)
    if state.tiles % 2:
        return len(removed), len(removed)   # a tile is always left over: every playout is stuck
    return int(np.count_nonzero(removed != state.tiles // 2)), len(removed)


def score_of(stuck: int, playouts: int) -> float:
    return 100.0 * stuck / playouts if playouts else 0.0


def rate(board_or_grid: GridLike, *, rules: Optional[Rules] = None, playouts: int = PLAYOUTS,
         seed: Optional[int] = 0, node_limit: Optional[int] = NODE_LIMIT, traps: bool = True,
         time_limit: Optional[float] = None) -> Rating:
    """Rate how hard the position of a Board (or grid, under ``rules``) is; never changes it.

    ``playouts`` (>= 1) random playouts give the random-clear rate and the score; the careful
    game gives the trap rate and branching (``traps=False`` skips it: the score alone is cheap).
    ``seed`` (int >= 0) seeds both, so the same position, rules and arguments give the same
    Rating on every run and machine; None draws a fresh seed, which ``Rating.seed`` records
    (as ``generate`` does). ``node_limit`` (None: no limit) bounds the exact search
    of each position of the game. ``time_limit`` (seconds, None: none) bounds the whole call
    on the clock: what it cuts is said by ``Rating.complete`` (with no playout finished, the
    score is NaN and the band None), and a rating it does not cut is the same as without it
    (so the same on every machine).
    """
    board = board_for(board_or_grid, rules)
    playouts = integer(playouts, "playouts", low=1, high=2**31 - 1)
    seed = _deals.fresh_seed() if seed is None else integer(seed, "seed", low=0)
    node_limit = node_budget(node_limit, low=1)
    traps = flag(traps, "traps")
    time_limit = seconds(time_limit, "time_limit")
    if time_limit is None:
        return rating_of(board, playouts, seed, node_limit, traps)
    return rating_on_clock(board, time_limit, np.zeros(1, dtype=np.int32), playouts, seed,
                           node_limit, traps)


def rating_on_clock(board: Board, time_limit: float, stop: np.ndarray, playouts: int = PLAYOUTS,
                    seed: int = 0, node_limit: Optional[int] = NODE_LIMIT,
                    traps: bool = True) -> Rating:
    """``rating_of`` that stops once ``time_limit`` seconds have passed: a timer sets ``stop``
    (an int32 flag that another thread may set too: analyze's workers on Ctrl-C)."""
    # The clock sets the cancel flag that the kernels and the careful game already obey.
    if time_limit == 0:
        stop.fill(1)            # nothing is played (a timer of 0 s would let a little be)
    timer = threading.Timer(time_limit, stop.fill, (1,))
    timer.daemon = True
    timer.start()
    try:
        return rating_of(board, playouts, seed, node_limit, traps, stop)
    finally:
        timer.cancel()


def rating_of(board: Board, playouts: int = PLAYOUTS, seed: int = 0,
              node_limit: Optional[int] = NODE_LIMIT, traps: bool = True,
              cancel: Optional[np.ndarray] = None) -> Rating:
    """``rate`` of a Board with checked arguments. ``cancel``: an int32 array whose first
    item another thread sets to stop the playouts and the careful game (analyze's workers on
    Ctrl-C, ``rate``'s clock); the Rating is then partial and says so."""
    rules = board.rules
    state, known, _ = board._snapshot()
    stream = _deals.rng_state(seed)
    stuck, played = stuck_count(state, rules, playouts, stream, cancel)
    score = score_of(stuck, played) if played else math.nan
    counts = {"traps": 0, "decided": 0, "undecided": 0, "positions": 0, "branching": 0,
              "length": 0}
    game_finished = True
    if traps:
        game_finished = _careful_game(state, rules, node_limit,
                                      _deals.rng_state(seed, _GAME_STREAM), known, counts, cancel)
    return Rating(
        score=score, band=band_of(score) if played else None,
        clear_rate=(played - stuck) / played if played else math.nan,
        playouts=played,
        trap_rate=counts["traps"] / counts["decided"] if counts["decided"] else None,
        traps=counts["traps"], decided=counts["decided"], undecided=counts["undecided"],
        branching=counts["branching"] / counts["positions"] if counts["positions"] else None,
        game_length=counts["length"], seed=seed,
        complete=played == playouts and game_finished)


def _careful_game(state: GridState, rules: Rules, node_limit: Optional[int], stream: np.ndarray,
                  known: list, counts: Dict[str, int], cancel: Optional[np.ndarray] = None) -> bool:
    """Play the careful random game on ``state`` (changed), adding up ``counts``; whether it
    ran to its end: it stops when ``cancel`` is set, and the position being classified then
    (its answers may be cut short) is not counted."""
    insight = _insight.Insight()        # a fresh cache: the answer depends on the position only
    budget = _insight.Budget(None, node_limit, cancel)
    while state.tiles > 0:
        if cancel is not None and cancel[0]:
            return False
        verdict, moves, after = insight.classify(state, rules, budget, known, per_move=True)
        if cancel is not None and cancel[0]:
            return False
        assert moves is not None and after is not None     # (per move: the listing is not timed)
        if len(moves) == 0:
            break
        counts["positions"] += 1
        counts["branching"] += len(moves)
        if verdict != Verdict.UNSOLVABLE:
            counts["traps"] += int(np.count_nonzero(after == int(Verdict.UNSOLVABLE)))
            counts["decided"] += int(np.count_nonzero(after != int(Verdict.UNKNOWN)))
            counts["undecided"] += int(np.count_nonzero(after == int(Verdict.UNKNOWN)))
        pool = moves[after == int(Verdict.SOLVABLE)]
        if len(pool) == 0:
            pool = moves        # nothing proved safe: any move
        move = pool[_deal.draw_below(len(pool), stream)]
        state.remove_pair(int(move[0]), int(move[1]), rules.gravity_code, keep_moves=False)
        counts["length"] += 1
    return True


def check_difficulty(difficulty: str) -> str:
    return choice(difficulty, "difficulty", DIFFICULTIES)


def in_band(board: Board, difficulty: str, playouts: int = PLAYOUTS, seed: int = 0,
            screen: int = 32) -> bool:
    """Whether ``rate(board, playouts=playouts, seed=seed).band == difficulty``, found faster:
    the first ``screen`` playouts are looked at first and a board far outside the band is
    dropped then (the answer True is always exact; False may drop a board just inside)."""
    low, high = BANDS[difficulty]
    state = board._state.copy()
    stream = _deals.rng_state(seed)
    first = min(screen, playouts)
    stuck, _ = stuck_count(state, board.rules, first, stream)
    if first < playouts:
        share = stuck / first
        # Three standard deviations outside the band's edges: almost surely not in it.
        if share * 100 < low - 300 * math.sqrt(max(low / 100 * (1 - low / 100), 1e-4) / first):
            return False
        if high < math.inf and share * 100 >= high + 300 * math.sqrt(
                high / 100 * (1 - high / 100) / first):
            return False
        stuck += stuck_count(state, board.rules, playouts - first, stream)[0]
    return band_of(score_of(stuck, playouts)) == difficulty
