"""Play-time insight below the Board: can the position still be won, which move keeps it
winnable, which moves lose it (docs/architecture.md, "Play-time insight").

The Board's ``winnable``, ``hint(safe=True)`` and ``traps`` are thin methods over ``Insight``,
one per Board, which calls the kernels directly (the solver's facade, solver.py, sits above the
Board). Every answer is a proof or UNKNOWN, never a guess:

- SOLVABLE comes with a certificate, a removal sequence that clears the position (padded cells).
  It is found, cheapest first, by replaying a certificate already known (the deal's, or the last
  one found: after the moves played since, what is left of it often still clears the position),
  by uniformly random playouts (with gravity only, where the exact search is weak), and by the
  exact search.
- UNSOLVABLE comes from the exact search (or from every move of a position leading to a lost
  one).

Without gravity removing tiles only empties cells, so every move of a certificate still links
once other tiles are gone: the pairs a certificate removes are safe moves right now, and a
certificate stays valid, minus the pairs already played, when the player removes some of its
pairs in another order. That makes most safe-move questions free of search.

Decided positions are cached by position (a hash of the rules, the shape and the grid), so a
question about a position asked again after undo/redo costs a hash. The cache is bounded in
entries and bytes, oldest out first.
"""
from __future__ import annotations

import hashlib
import threading
import time
from collections import OrderedDict, deque
from typing import Callable, Dict, Iterable, List, NamedTuple, Optional, Tuple

import numpy as np
import numpy.typing as npt

from ._core import pairs as _pairs
from ._core import playouts as _playouts
from ._core import solve as _solve
from ._core.state import GridState
from ._deals import rng_state
from .coords import Move, Point, moves_of
from .rules import Rules
from .verdict import VERDICT_OF_STATUS, Verdict

#: Cap of one Board's cache of decided positions: entries, and bytes of the certificates kept.
CACHE_ENTRIES = 4096
CACHE_BYTES = 4 << 20
#: Certificates found lately that a new position tries to reuse (most recent first).
RECENT = 4
#: Link tests a certificate's repair may make for each pair it is to play (``_repaired``,
#: ``repaired_after``): as many as that many replays of the certificate.
REPAIR_TESTS = 64
#: Uniformly random playouts tried (under gravity) before the exact search, and the share of a
#: time or node budget they may use (a playout counts a node per pair it can remove).
PROBE_PLAYOUTS = 64
PROBE_SHARE = 0.25
#: Moves ahead of the certificate's first move in hint order that a safe hint tries to prove
#: safe (each a search of its own) before it settles for the certificate's move.
HINT_TRIES = 8

_EXACT = _solve.STRATEGIES.index("exact")
_NO_CERTIFICATE = np.empty((0, 2), dtype=np.int32)


class Hint(Tuple[Point, Point]):
    """A suggested move ``((r1, c1), (r2, c2))`` (a tuple: it unpacks and compares like the
    plain hint) that says whether it is proved safe: what ``Board.hint(safe=True)`` returns.

    ``verdict``: SOLVABLE when the position after the move is proved winnable (the move is
    safe); otherwise no move could be proved safe and this is the plain hint, with the verdict
    on the position before it: UNSOLVABLE (the game is already lost: no move can keep it
    winnable) or UNKNOWN (not decided within the time limit). When the time ran out before the
    moves were ordered, the move is the first one found. ``safe`` is True iff SOLVABLE.
    """

    verdict: Verdict

    def __new__(cls, a: Point, b: Point, verdict: Verdict) -> "Hint":
        self = super().__new__(cls, (a, b))
        self.verdict = Verdict(verdict)
        return self

    @property
    def safe(self) -> bool:
        """True when the position after this move is proved winnable."""
        return self.verdict == Verdict.SOLVABLE

    def __repr__(self) -> str:
        return f"Hint({self[0]}, {self[1]}, verdict={self.verdict.name})"

    def __reduce__(self):
        return (Hint, (self[0], self[1], self.verdict))


class Traps(List[Move]):
    """The removable pairs that lose the game: after each, the position is proved lost, while
    it is not lost now (``verdict`` SOLVABLE; or UNKNOWN: then they are moves proved to lose,
    and whether the position can still be won is not known). Sorted like ``Board.moves()``.
    What ``Board.traps()`` returns.

    ``verdict``: the verdict on the position now (UNSOLVABLE: already lost, so no move is a
    trap and the list is empty). ``safe``: the moves proved to keep it winnable. ``undecided``:
    the moves whose outcome was not decided within the time limit (neither list holds them).
    ``listed``: False when the time ran out before the moves were even listed (boards of a
    million cells): then the three lists are empty and only ``verdict`` says anything.
    """

    verdict: Verdict
    listed: bool

    def __init__(self, traps: Iterable[Move] = (), *, verdict: Verdict = Verdict.UNKNOWN,
                 safe: Iterable[Move] = (), undecided: Iterable[Move] = (),
                 listed: bool = True) -> None:
        super().__init__(traps)
        self.verdict = Verdict(verdict)
        self._lists = {"safe": list(safe), "undecided": list(undecided)}
        #: Moves kept as (padded cells, width) until first read (_of_cells).
        self._cells: Dict[str, Tuple[np.ndarray, int]] = {}
        self.listed = listed

    @classmethod
    def _of_cells(cls, traps: np.ndarray, verdict: Verdict, safe: np.ndarray,
                  undecided: np.ndarray, width: int) -> "Traps":
        """Traps from (k, 2) padded cells. ``safe`` and ``undecided`` become moves when first
        read: a board of a million cells can have millions of them, and making a tuple of each
        took seconds past the call's time limit (about 1 µs a move)."""
        made = cls(moves_of(traps, width), verdict=verdict)
        made._cells = {"safe": (safe, width), "undecided": (undecided, width)}
        return made

    def _moves(self, name: str) -> List[Move]:
        if name in self._cells:
            self._lists[name] = moves_of(*self._cells.pop(name))
        return self._lists[name]

    @property
    def safe(self) -> List[Move]:
        """The moves proved to keep the position winnable."""
        return self._moves("safe")

    @property
    def undecided(self) -> List[Move]:
        """The moves not decided within the time limit."""
        return self._moves("undecided")

    def _count(self, name: str) -> int:
        return len(self._cells[name][0]) if name in self._cells else len(self._lists[name])

    def __repr__(self) -> str:
        return (f"Traps({list.__repr__(self)}, verdict={self.verdict.name}, "
                f"safe={self._count('safe')}, undecided={self._count('undecided')}"
                f"{'' if self.listed else ', listed=False'})")

    def __reduce__(self):
        return (_traps, (list(self), self.verdict, self.safe, self.undecided, self.listed))


def _traps(traps, verdict, safe, undecided, listed=True) -> Traps:
    return Traps(traps, verdict=verdict, safe=safe, undecided=undecided, listed=listed)


#: Listing the moves, or replaying a known certificate, is not a search: even ``time_limit=0``
#: gives it this long, so the moves of a board of any usual size are always listed (``traps``)
#: and its certificates replayed; listing the moves of a board of a million cells takes about
#: a second, and replaying its certificate with gravity about three: either is given up.
LISTING_SECONDS = 0.05


def _distinct(certificates: List[np.ndarray]) -> List[np.ndarray]:
    """``certificates`` with one of each ending (the same memory), the first: the board's
    certificate and the rests of it among the recent ones (a rest that a replay proved is a
    view of it) were replays of one suffix, 0.05 s each on a 1024 x 1024 deal. Only views of
    one certificate end alike, and the board's comes first. With gravity only the
    last tiles / 2 removals of a candidate are replayed, the same for all of them; without it
    the board's whole certificate holds every pair of a rest of it, which reuse needs."""
    seen = set()
    kept = []
    for cert in certificates:
        if cert is None:
            continue
        end = (cert.__array_interface__["data"][0] + cert.nbytes, cert.strides)
        if end not in seen:
            seen.add(end)
            kept.append(cert)
    return kept


def listing_seconds(left: Optional[float]) -> float:
    """The seconds a listing of the moves (or other set-up that is not a search) may take
    when ``left`` are left (None: no limit, -1 for the kernels)."""
    return -1.0 if left is None else max(left, LISTING_SECONDS)


#: An UNKNOWN found with ``t`` seconds answers a question asked with up to SECONDS_SLACK * t
#: (Budget.covers).
SECONDS_SLACK = 1.25


class Budget(NamedTuple):
    """How long one decision may search: seconds (wall clock) and nodes, None for no limit.

    A node budget alone gives answers that do not depend on the machine (ratings use that)."""

    seconds: Optional[float] = None
    nodes: Optional[int] = None
    #: An int32 array whose first item another thread sets to stop the search (a cancelled
    #: search answers UNKNOWN): analyze's workers stop a rating so on Ctrl-C.
    cancel: Optional[np.ndarray] = None

    def covers(self, other: "Budget") -> bool:
        """About as generous as ``other`` in both limits (None is unlimited): every node it
        asks, and at least 1 / SECONDS_SLACK of its time. A search given a quarter more time
        seldom decides what it did not, and a time budget is what is left of a clock, never
        twice the same: without the slack a question asked again at once (a bot's safe hint,
        every frame) searched again for as long each time (0.4 s on a tall 18 x 8 deal)."""
        if self.nodes is not None and (other.nodes is None or other.nodes > self.nodes):
            return False
        return self.seconds is None or (other.seconds is not None
                                        and other.seconds <= self.seconds * SECONDS_SLACK)


class Decision(NamedTuple):
    verdict: Verdict
    #: When SOLVABLE: a (k, 2) int32 array of padded cells that clears the position, in order.
    certificate: Optional[np.ndarray] = None


class Insight:
    """One Board's solver-backed answers and their cache (safe to share between threads)."""

    __slots__ = ("_entries", "_bytes", "_lock", "_recent")

    def __init__(self) -> None:
        # key -> (Decision, the Budget an UNKNOWN was found with, or None when decided)
        self._entries: "OrderedDict[bytes, Tuple[Decision, Optional[Budget]]]" = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()
        # The last certificates found: what is left of one may clear the next positions too.
        self._recent: "deque[np.ndarray]" = deque(maxlen=RECENT)

    def __len__(self) -> int:
        return len(self._entries)

    def after_fork(self) -> None:
        """In a forked child: a cache whose lock a parent's thread held may be half-updated, so
        it starts empty with a new lock."""
        if held_at_fork(self._lock):
            self._lock = threading.Lock()
            self._entries.clear()
            self._bytes = 0
            self._recent.clear()

    # ---- the cache ----------------------------------------------------------------------------

    def _lookup(self, key: bytes, budget: Budget) -> Optional[Decision]:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            decision, tried = entry
            if tried is not None and not tried.covers(budget):
                return None     # an UNKNOWN found with less time than we have now: try again
            self._entries.move_to_end(key)
            return decision

    def _store(self, key: bytes, decision: Decision, budget: Budget, recent: bool = True) -> None:
        size = 0 if decision.certificate is None else decision.certificate.nbytes
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None and old[0].certificate is not None:
                self._bytes -= old[0].certificate.nbytes
            tried = budget if decision.verdict == Verdict.UNKNOWN else None
            self._entries[key] = (decision, tried)
            self._bytes += size
            while len(self._entries) > CACHE_ENTRIES or self._bytes > CACHE_BYTES:
                _, (dropped, _) = self._entries.popitem(last=False)
                if dropped.certificate is not None:
                    self._bytes -= dropped.certificate.nbytes
            if recent and decision.certificate is not None and len(decision.certificate):
                self._recent.append(decision.certificate)

    # ---- deciding one position ----------------------------------------------------------------

    def decide(self, state: GridState, rules: Rules, budget: Budget,
               known: Iterable[np.ndarray] = (),
               repair: Optional[Callable[[List[np.ndarray], "Clock"], Optional[np.ndarray]]] = None,
               proved: Optional[np.ndarray] = None, recent: bool = True) -> Decision:
        """The verdict on the position of ``state`` (read only), with a certificate when
        SOLVABLE. ``known``: certificates (padded cells) of earlier positions worth trying;
        ``repair``: makes one from them when none applies as it is (``decide_after``);
        ``proved``: a certificate known to clear the position without a replay (the rest of
        the board's own, followed along its removals: Board._certificate_at), the answer at
        once. A replay would prove it again: with gravity 2.9 s at every new position of a
        1024 x 1024 deal. ``recent=False``: a certificate found is cached under the position
        but not made one of the RECENT tried at new positions (``classify``)."""
        if proved is not None:
            return Decision(Verdict.SOLVABLE, proved)
        key = position_key(state, rules)
        found = self._lookup(key, budget)
        if found is not None:
            return found
        with self._lock:
            candidates = _distinct(list(known) + list(reversed(self._recent)))
        # The replays and repairs of certificates stop with the clock too, and the search gets
        # what they left (with gravity a replay on a big board takes seconds).
        clock = Clock(budget.seconds, budget.cancel)
        certificate = reuse(state, rules, candidates, clock)
        if certificate is None and repair is not None:
            certificate = repair(candidates, clock)
        decision = (Decision(Verdict.SOLVABLE, certificate) if certificate is not None
                    else search(state, rules, budget._replace(seconds=clock.left())))
        self._store(key, decision, budget, recent)
        return decision

    def decide_after(self, state: GridState, rules: Rules, move: np.ndarray, budget: Budget,
                     known: Iterable[np.ndarray] = (), recent: bool = True) -> Decision:
        """The verdict on the position after the removal ``move`` (padded cells) from
        ``state`` (not changed). With gravity a certificate of ``state``'s position is repaired
        around the move (``repaired_after``) when none applies as it is."""
        repair = None
        if rules.gravity is not None:
            repair = lambda candidates, clock: repaired_after(  # noqa: E731
                state, rules, move, candidates, clock)
        return self.decide(after(state, move, rules), rules, budget, known, repair,
                           recent=recent)

    # ---- safe hints and traps -----------------------------------------------------------------

    def safe_hint(self, state: GridState, rules: Rules, budget: Budget,
                  known: Iterable[np.ndarray] = (), proved: Optional[np.ndarray] = None
                  ) -> Optional[Tuple[np.ndarray, Verdict]]:
        """(move, verdict): a move that keeps the position winnable, verdict SOLVABLE; or,
        when none could be proved safe, the plain hint with the position's verdict (UNSOLVABLE:
        no move can; UNKNOWN: not decided in time). When the time ran out ordering the moves: a
        known certificate's first move, or the first move found with what is known at no cost.
        None when no pair can be removed.

        Among the moves proved safe it prefers the hint order (fewest turns, shortest path,
        smallest pair), looking at up to HINT_TRIES moves ahead of the certificate's first.
        ``budget``: seconds for the whole call, nodes per decision; ``proved`` as for decide."""
        clock = Clock(budget.seconds, nodes=budget.nodes)
        order = _pairs.hint_order(state, rules.max_turns, listing_seconds(clock.left()))
        if order is None:
            # The time ran out ordering the moves (listing them, and a path search for each
            # move of three turns or more, can take seconds on a big sparse board). The plain
            # hint would list them all again. What is known of the position without a search
            # decides (as in classify): a certificate's first move is safe; a lost position
            # (a type with an odd count) is lost whatever the move; else the first move found.
            found = _pairs.first_move(state, rules.max_turns)
            if found is None:
                return None
            known_now = self.decide(state, rules, Budget(0.0, budget.nodes), known, proved=proved)
            if known_now.certificate is not None:
                return known_now.certificate[0], Verdict.SOLVABLE
            return np.array(found, dtype=np.int32), known_now.verdict   # UNSOLVABLE or UNKNOWN
        if len(order) == 0:
            return None
        known = list(known)
        root = self.decide(state, rules, clock.budget(), known, proved=proved)
        if root.verdict == Verdict.UNSOLVABLE:
            return order[0], Verdict.UNSOLVABLE
        # (Annotated: numpy 2.2's stubs give np.zeros and np.isin different shape types.)
        safe: npt.NDArray[np.bool_] = np.zeros(len(order), dtype=bool)
        if root.certificate is not None:
            known.append(root.certificate)
            # The certificate's first move is safe, and without gravity every pair it removes.
            proved = root.certificate if rules.gravity is None else root.certificate[:1]
            # Each tile's partner in it, by padded cell (a certificate takes each tile once): a
            # set of its pair keys cost 70 ms for a 1024 x 1024 deal's 524,288 pairs, np.isin
            # more than the rest of a cached hint on a small board.
            partner = np.full((state.rows + 2) * state.width, -1, dtype=np.int32)
            partner[proved[:, 0]] = proved[:, 1]
            partner[proved[:, 1]] = proved[:, 0]
            safe = partner[order[:, 0]] == order[:, 1]
        ahead = int(np.argmax(safe)) if safe.any() else len(order)     # the first known safe
        for i in range(min(ahead, HINT_TRIES)):
            if clock.spent():
                break
            child = self.decide_after(state, rules, order[i], clock.budget(HINT_TRIES - i), known)
            if child.verdict == Verdict.SOLVABLE:
                return order[i], Verdict.SOLVABLE
        if ahead < len(order):
            return order[ahead], Verdict.SOLVABLE
        return order[0], root.verdict

    def classify(self, state: GridState, rules: Rules, budget: Budget,
                 known: Iterable[np.ndarray] = (), per_move: bool = False,
                 proved: Optional[np.ndarray] = None
                 ) -> Tuple[Verdict, Optional[np.ndarray], Optional[np.ndarray]]:
        """(the position's verdict, every removable pair (k, 2) padded cells sorted, the
        verdict on the position after each (int8 Verdict values)).

        ``budget``: for the whole call, or per decision with ``per_move``. When the position is
        UNSOLVABLE every move leads to a lost position and none is searched. When the time for
        the whole call runs out listing the moves (a board of a million cells), or ``budget.cancel``
        is set then, the verdict is what is already known, and the moves and their verdicts are
        None. Once ``budget.cancel`` is set the moves not yet decided stay UNKNOWN. ``proved``
        as for decide."""
        clock = Clock(budget.seconds, nodes=budget.nodes)
        left = None if per_move else clock.left()
        known = list(known)
        moves = _pairs.moves_cells(state, rules.max_turns, budget.cancel, listing_seconds(left))
        if moves is None:
            return (self.decide(state, rules, Budget(0.0, budget.nodes), known, proved=proved)
                    .verdict, None, None)
        after_each = np.full(len(moves), int(Verdict.UNKNOWN), dtype=np.int8)
        share = clock.budget if not per_move else (lambda ways: budget)
        # The position's own verdict gets half the time: a lost position needs no move decided,
        # and it was left UNKNOWN with traps listed, a k-th of the time for k moves, where
        # winnable proved it lost at once (12 x 24 with gravity: 0.023 s; traps at 0.2 s not).
        root = self.decide(state, rules, share(2), known, proved=proved)
        if root.verdict == Verdict.UNSOLVABLE:
            after_each[:] = int(Verdict.UNSOLVABLE)
            return root.verdict, moves, after_each
        # Without gravity a pair some clearing sequence removes is a safe move: the root's
        # certificate, and a sibling's certificate for moves disjoint from that sibling. They
        # are marked when the certificate is found (by binary search: the moves are sorted), so
        # the loop below only decides moves, and stops when the time is up.
        gravity = rules.gravity is not None
        keys = pair_keys(moves)

        def safe_by(certificate: np.ndarray, sibling: Optional[np.ndarray] = None) -> None:
            found = pair_keys(certificate)
            at = np.minimum(np.searchsorted(keys, found), len(keys) - 1)
            at = at[keys[at] == found]
            if sibling is not None:
                at = at[(moves[at] != sibling[0]).all(1) & (moves[at] != sibling[1]).all(1)]
            at = at[after_each[at] == int(Verdict.UNKNOWN)]
            after_each[at] = int(Verdict.SOLVABLE)

        if root.certificate is not None:
            known.append(root.certificate)
            if len(moves):
                # With gravity only the first removal is known safe: the rest are made after
                # tiles have fallen.
                safe_by(root.certificate[:1] if gravity else root.certificate)
        # Read one index at a time: a million-cell board can list millions of moves, and
        # making a list of them all cost 0.2 s past the time limit that stops this loop at once.
        for i in map(int, np.flatnonzero(after_each == int(Verdict.UNKNOWN))):
            if after_each[i] != int(Verdict.UNKNOWN):
                continue                # a sibling's certificate proved it meanwhile
            if (not per_move and clock.spent()) or (budget.cancel is not None and budget.cancel[0]):
                break
            move = moves[i]
            # Each child's certificate is cached under its position, which a move to it finds;
            # as one of the RECENT, dozens of them pushed out the root's, which alone clears the
            # position after a move it proves safe with gravity (its first): the next winnable
            # searched there, UNKNOWN at 1 s on a 64 x 64 deal (an audit).
            child = self.decide_after(state, rules, move, share(len(moves) - i), known,
                                      recent=False)
            after_each[i] = int(child.verdict)
            if child.certificate is not None and not gravity:
                safe_by(child.certificate, move)
        verdict: Verdict = root.verdict
        if verdict == Verdict.UNKNOWN:
            if (after_each == int(Verdict.SOLVABLE)).any():
                verdict = Verdict.SOLVABLE
            elif (after_each == int(Verdict.UNSOLVABLE)).all():
                verdict = Verdict.UNSOLVABLE    # (tiles left and no move at all: stuck)
        return verdict, moves, after_each


# ---- helpers ------------------------------------------------------------------------------------

def held_at_fork(lock: "threading.Lock") -> bool:
    """In a forked child: was ``lock`` held at the fork (by a thread that is not here)?

    Asked by trying it, not by ``locked()``: that reads a flag the holder sets once it has the
    GIL back, so a thread that had just been handed the lock, still waiting for the GIL when
    another thread forked, left a lock that ``locked()`` calls free and no one can take: forking
    beside two threads playing on one Board, a child hung within the first 5 to 43 forks."""
    if lock.acquire(blocking=False):
        lock.release()
        return False
    return True


class Clock:
    """A time budget shared by several decisions made one after another (each with ``nodes``,
    None for no limit), or by the steps of one (with the cancel flag, for the kernels:
    ``setup_seconds``)."""

    def __init__(self, seconds: Optional[float], cancel: Optional[np.ndarray] = None,
                 nodes: Optional[int] = None) -> None:
        self.seconds = seconds
        self.cancel = cancel
        self.nodes = nodes
        self.start = time.perf_counter()

    def setup_seconds(self) -> float:
        """What a kernel doing set-up may take now: the time left, or what is left of
        LISTING_SECONDS from the clock's start when that is more (-1: no limit). The floor is
        the whole set-up's, not each kernel's: a decision tries up to six certificates, and
        each got 0.05 s once the time was up (traps at time_limit=0.1 took 0.3 s)."""
        if self.seconds is None:
            return -1.0
        return max(0.0, max(self.seconds, LISTING_SECONDS) - (time.perf_counter() - self.start))

    def left(self) -> Optional[float]:
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - (time.perf_counter() - self.start))

    def spent(self) -> bool:
        left = self.left()
        return left is not None and left <= 0.0

    def budget(self, ways: int = 1) -> Budget:
        """An even share of the time left among ``ways`` decisions still to make, and the node
        limit of one."""
        left = self.left()
        return Budget(None if left is None else left / max(1, ways), self.nodes)


#: No time limit (the replays and repairs of a caller without one).
NO_CLOCK = Clock(None)


def position_key(state: GridState, rules: Rules) -> bytes:
    """The cache key of a position: a 128-bit hash of the rules, the shape and the cells."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{rules.max_turns},{rules.border},{rules.gravity},{state.rows},{state.cols};".encode())
    h.update(np.ascontiguousarray(state.grid_view()).tobytes())
    return h.digest()


def pair_keys(pairs: np.ndarray) -> np.ndarray:
    """One int64 per removal of a (k, 2) array of padded cells (pa < pb, as listed and as
    certificates hold them): sorted moves give sorted keys."""
    pairs = np.asarray(pairs, dtype=np.int64).reshape(-1, 2)
    return pairs[:, 0] << 32 | pairs[:, 1]


def after(state: GridState, move: np.ndarray, rules: Rules) -> GridState:
    """A copy of ``state`` with the removal ``move`` (padded cells, legal) made."""
    child = state.copy()
    child.remove_pair(int(move[0]), int(move[1]), rules.gravity_code, keep_moves=False)
    return child


def reuse(state: GridState, rules: Rules, candidates: Iterable[np.ndarray],
          clock: Clock = NO_CLOCK) -> Optional[np.ndarray]:
    """What is left of one of the ``candidates`` (certificates of earlier positions) that clears
    this position, or None. Proved by replaying it on a copy, within ``clock``'s set-up time
    (a replay cut short proves nothing).

    Without gravity: the candidate's pairs whose two cells still hold tiles, in order (a removal
    only empties cells, so they link at least as well as before), and when they leave tiles out,
    two of a type, with those paired (``_repaired``). With gravity tiles move, so
    only a suffix can still apply: the last tiles / 2 moves (when the moves played since were
    the candidate's first ones)."""
    if state.tiles == 0:
        return _NO_CERTIFICATE
    if state.tiles % 2:
        return None                     # a tile would be left over, whatever is replayed
    need = state.tiles // 2
    occupied: Optional[np.ndarray] = None     # by padded cell: one lookup a pair, not 8 passes
    for cert in candidates:
        if cert is None or len(cert) < need:
            continue
        if rules.gravity is None:
            if occupied is None:
                padded = np.zeros((state.rows + 2, state.width), dtype=bool)
                padded[1:-1, 1:-1] = np.asarray(state.grid_view()) > 0
                occupied = padded.ravel()
            held = occupied[cert]
            left = cert[held[:, 0] & held[:, 1]]
            if len(left) < need:
                found = _repaired(state, rules, left, occupied, clock)
                if found is not None:
                    return found
        else:
            left = cert[len(cert) - need:]
        if len(left) != need:
            continue
        trial = state.copy()
        if _playouts.replay(trial, left, rules.max_turns, rules.gravity_code,
                            time_limit=clock.setup_seconds(), cancel=clock.cancel) == need:
            return np.ascontiguousarray(left, dtype=np.int32)
    return None



def _repaired(state: GridState, rules: Rules, left: np.ndarray, occupied: np.ndarray,
              clock: Clock = NO_CLOCK) -> Optional[np.ndarray]:
    """Without gravity: the removals ``left`` (pairs of a certificate whose tiles are all still
    here) and the tiles they leave out, paired by type (when every type leaves out two), in an
    order that clears the position, or None. That is how a certificate survives removals it
    pairs otherwise: after (a, b) where it pairs a with x and b with y, (x, y) is paired.

    A removal only empties cells, so a pair that links keeps linking whatever else is removed:
    with the pairs fixed, going round them and playing each as soon as it links clears the
    board iff some order of them does (``playouts.play_greedily``, ``left`` first, in its order,
    within REPAIR_TESTS link tests a pair). The answer is the order played on a copy."""
    covered = np.zeros(len(occupied), dtype=bool)
    covered[left.ravel()] = True
    lone = np.flatnonzero(occupied & ~covered).astype(np.int32)
    kinds = np.asarray(state.grid_view())[lone // state.width - 1, lone % state.width - 1]
    by_kind = np.argsort(kinds, kind="stable")      # (cells ascending within a type)
    lone, kinds = lone[by_kind], kinds[by_kind]
    if len(lone) % 2 or (kinds[0::2] != kinds[1::2]).any() or (kinds[2::2] == kinds[1:-1:2]).any():
        return None                     # a type leaves out other than two: no one pairing
    return _played_in_full(state, rules, np.concatenate([left, lone.reshape(-1, 2)]), clock)


def _played_in_full(state: GridState, rules: Rules, pairs: np.ndarray,
                    clock: Clock = NO_CLOCK) -> Optional[np.ndarray]:
    """The removals ``pairs`` as ``playouts.play_greedily`` plays them from ``state`` (not
    changed), within REPAIR_TESTS link tests a pair and ``clock``'s set-up time, when it plays
    them all; else None."""
    played = _playouts.play_greedily(state.copy(), np.ascontiguousarray(pairs, np.int32),
                                     rules.max_turns, rules.gravity_code,
                                     REPAIR_TESTS * len(pairs), time_limit=clock.setup_seconds(),
                                     cancel=clock.cancel)
    return played if len(played) == len(pairs) else None


def repaired_after(state: GridState, rules: Rules, move: np.ndarray,
                   candidates: Iterable[np.ndarray], clock: Clock = NO_CLOCK
                   ) -> Optional[np.ndarray]:
    """With gravity: a certificate of the position after ``move`` (padded cells, legal) from
    ``state`` (not changed), made from a candidate certificate of ``state``'s position (its
    last tiles / 2 removals), or None. Tiles slide, so the repair starts from ``state``: the
    move first, then the candidate's pairs that do not hold its tiles, and the partners of its
    two tiles paired when it pairs them otherwise, each played as soon as it links, in that
    order, every tile followed through the gravity moves (``playouts.play_greedily``). Not an
    exact test as without gravity, but what it finds is a legal clearing sequence."""
    need = state.tiles // 2
    for cert in candidates:
        if cert is None or len(cert) < need or need == 0:
            continue
        # The pairs by the tiles they take: where those stand in this position.
        suffix = _playouts.start_cells(state.copy(), cert[len(cert) - need:], rules.max_turns,
                                       rules.gravity_code, time_limit=clock.setup_seconds(),
                                       cancel=clock.cancel)
        if len(suffix) < need:
            continue                    # not a certificate of this position
        touched = (suffix == move[0]) | (suffix == move[1])
        hit = touched.any(axis=1)
        partners = suffix[hit][~touched[hit]]
        if hit.sum() == 1 and touched[hit].all():
            pairs = np.concatenate([move[None], suffix[~hit]])
        elif hit.sum() == 2 and len(partners) == 2:
            pairs = np.concatenate([move[None], suffix[~hit], np.sort(partners)[None]])
        else:
            continue
        played = _played_in_full(state, rules, pairs, clock)
        if played is not None:
            return played[1:]
    return None


def search(state: GridState, rules: Rules, budget: Budget) -> Decision:
    """Decide the position by search: random playouts first under gravity, then the exact
    solver, within ``budget``."""
    if state.tiles == 0:
        return Decision(Verdict.SOLVABLE, _NO_CERTIFICATE)
    if state.odd_type() or not _pairs.has_move(state, rules.max_turns):
        # Lost at sight, whatever the budget (a time limit of 0 too: these are checks, not a
        # search), as traps() answers a position without moves: a tile would be left over, or
        # no pair can be removed.
        return Decision(Verdict.UNSOLVABLE)
    if budget.seconds == 0 or (budget.cancel is not None and budget.cancel[0]):
        return Decision(Verdict.UNKNOWN)       # a time limit of 0: only what is already known
    start = time.perf_counter()
    playouts = PROBE_PLAYOUTS
    if budget.nodes is not None:
        # A node budget bounds the probe too (ratings decide every move of every position
        # by nodes): each playout is charged a node per pair it can remove.
        playouts = min(playouts, int(budget.nodes * PROBE_SHARE) // max(1, state.tiles // 2))
    if rules.gravity is not None and playouts > 0:
        probe_seconds = -1.0 if budget.seconds is None else budget.seconds * PROBE_SHARE
        _, cleared = _playouts.random_playouts(state.copy(), rules.max_turns, rules.gravity_code,
                                               playouts, rng_state(0), probe_seconds, True,
                                               cancel=budget.cancel, until_clear=True)
        if cleared is not None:
            return Decision(Verdict.SOLVABLE, cleared)
    seconds = -1.0
    if budget.seconds is not None:
        seconds = max(0.0, budget.seconds - (time.perf_counter() - start))
    nodes = -1 if budget.nodes is None else budget.nodes
    status, cells, _ = _solve.solve_state(state.copy(), _EXACT, rules.max_turns,
                                          rules.gravity_code, nodes, seconds, cancel=budget.cancel)
    verdict = VERDICT_OF_STATUS[status]
    return Decision(verdict, cells if verdict == Verdict.SOLVABLE else None)
