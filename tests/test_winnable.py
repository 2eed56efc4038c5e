"""Play-time insight: Board.winnable, Board.hint(safe=True), Board.traps (llkcore/_insight.py).

- every answer agrees with llkref.solve_exhaustive (all move orders) on small boards of every
  rule variant, gravity included: the verdict, which moves are traps and which are safe, and a
  safe hint is safe and comes first in hint order among the safe moves;
- the cache answers by position: right after remove / undo / redo / shuffle / update, bounded,
  a repeated question costs no search, an UNKNOWN is searched again only with more time;
- certificates are reused (the deal's, and what is left of the last one), also under gravity;
- queries never change the board, bad time limits are refused with a clear message.
"""
from __future__ import annotations

import functools
import pickle
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import llkcore as llk
import llkref
from conftest import GRAVITIES, assert_unchanged, deals, examples, ref_kwargs, rules_st, snapshot
from llkcore import _insight
from llkref.board import copy_grid, play_pair
from llkref.solve import solve_exhaustive

S, U, K = llk.Verdict.SOLVABLE, llk.Verdict.UNSOLVABLE, llk.Verdict.UNKNOWN


def exhaustive(grid, rules):
    """True / False: can ``grid`` (already compacted) be cleared under ``rules``."""
    solvable, _, _ = solve_exhaustive(grid, **ref_kwargs(rules, gravity=True))
    return solvable


def child_solvable(grid, move, rules):
    child = copy_grid(grid)
    play_pair(child, move[0], move[1], rules.gravity)
    return exhaustive(child, rules)


def hint_key(grid, move, rules):
    path = llkref.find_path(grid, *move, **ref_kwargs(rules))
    return (llkref.path_turns(path), llkref.path_length(path), move)


@settings(max_examples=examples(80), deadline=None)
@given(grid=deals(max_side=5, max_types=3), rules=rules_st(gravity=True, turns=(0, 1, 2, 3)))
def test_winnable_traps_and_safe_hint_agree_with_exhaustive_search(grid, rules):
    board = llk.Board(grid, rules=rules)
    g = board.grid.tolist()
    before = snapshot(board)
    solvable = exhaustive(g, rules)
    assert board.winnable(time_limit=None) == (S if solvable else U)
    traps = board.traps(time_limit=None)
    assert traps.verdict == (S if solvable else U)
    assert traps.undecided == []
    moves = board.moves()
    if not solvable:
        assert list(traps) == [] and traps.safe == []
    else:
        truth = {m: child_solvable(g, m, rules) for m in moves}
        assert list(traps) == [m for m in moves if not truth[m]]
        assert traps.safe == [m for m in moves if truth[m]]
    hint = board.hint(safe=True, time_limit=None)
    if not moves:
        assert hint is None
    elif not solvable:
        assert hint.verdict == U and not hint.safe and hint == board.hint()
    else:
        assert hint.safe and truth[tuple(hint)]
        ranked = sorted(moves, key=lambda m: hint_key(g, m, rules))
        ahead = ranked[:ranked.index(tuple(hint))]
        # Every move ahead of the hint is unsafe, or more were ahead than a hint tries.
        assert all(not truth[m] for m in ahead) or len(ahead) >= _insight.HINT_TRIES
    assert_unchanged(board, before)


def test_the_hint_is_a_move_tuple_that_says_whether_it_is_safe():
    board = llk.generate(6, 6, seed=3)
    hint = board.hint(safe=True)
    a, b = hint
    assert isinstance(hint, tuple) and hint == (a, b) and board.can_link(a, b)
    assert hint.verdict == S and hint.safe
    assert repr(hint).startswith("Hint(") and "SOLVABLE" in repr(hint)
    again = pickle.loads(pickle.dumps(hint))
    assert again == hint and again.verdict == S
    plain = board.hint()
    assert type(plain) is tuple       # the plain hint is unchanged
    traps = board.traps()
    assert pickle.loads(pickle.dumps(traps)) == traps and "Traps(" in repr(traps)


def test_a_lost_position_says_so_and_a_trap_is_reported():
    # Crossed pairs with no border: stuck, so lost.
    lost = llk.Board([[1, 2], [2, 1]], rules=llk.Rules(border=False))
    assert lost.winnable() == U
    assert lost.hint(safe=True) is None      # stuck: no move at all
    assert list(lost.traps()) == [] and lost.traps().verdict == U
    # Three moves, one a trap: removing (0, 0) with (2, 1) walls the 2s off from each other.
    board = llk.Board([[1, 1, 2], [0, 2, 1], [0, 1, 0]], rules=llk.Rules(border=False))
    assert board.winnable() == S
    traps = board.traps()
    assert traps.verdict == S and traps.undecided == []
    assert list(traps) == [((0, 0), (2, 1))]
    assert traps.safe == [((0, 0), (0, 1)), ((1, 2), (2, 1))]
    hint = board.hint(safe=True)
    assert hint.safe and hint in traps.safe
    board.remove((0, 0), (2, 1))
    assert board.winnable() == U and board.is_stuck()
    board.undo()
    board.remove((0, 0), (0, 1))        # a safe move instead
    assert board.winnable() == S


def test_a_position_with_a_tile_left_over_is_lost():
    """Found by tests/fuzz: one lone tile was SOLVABLE (certificate reuse asked for tiles // 2 = 0
    moves, and no moves "cleared" it), and so was an odd count with a certificate of its pairs,
    or under gravity (a random playout of tiles // 2 removals counted as clearing); llk.rate
    called such playouts clear."""
    assert llk.Board([[1, 1, 2]], rules=llk.Rules(gravity="down")).winnable() == U
    assert llk.rate([[1, 1, 2]], playouts=4).clear_rate == 0.0
    for rules in (llk.Rules(), llk.Rules(gravity="down")):
        lone = llk.Board([[1]], rules=rules)
        assert lone.winnable() == U and lone.traps().verdict == U and lone.hint(safe=True) is None
        odd = llk.Board([[1, 1, 2]], rules=rules)
        with pytest.raises(ValueError, match="must clear"):
            odd.certificate = [((0, 0), (0, 1))]
        # Past the setter's check, as unpickled data can bring it: the insight trusts no certificate.
        odd._certificate = [((0, 0), (0, 1))]
        assert odd.winnable() == U
        assert odd.traps().verdict == U and list(odd.traps()) == [] and odd.traps().safe == []
        assert odd.hint(safe=True).verdict == U
        assert llk.rate(odd, playouts=4).clear_rate == 0.0


@pytest.mark.parametrize("time_limit", [0, 1e-9, 1.0])
@pytest.mark.parametrize("gravity", [None, "down"])
def test_a_position_lost_at_sight_is_unsolvable_at_any_time_limit(time_limit, gravity):
    """A helper's audit: winnable(time_limit=0) on a stuck position said UNKNOWN while traps()
    with the same limit said UNSOLVABLE, and a tile left over was UNKNOWN to winnable, traps and
    the safe hint at 0: a game asking winnable(time_limit=0) every frame never learnt that a
    dead game was dead. Neither needs a search."""
    rules = llk.Rules(border=False, gravity=gravity)
    stuck = llk.Board([[1, 2], [2, 1]], rules=rules)
    odd = llk.Board([[1, 1, 1]], rules=rules)
    for board in (stuck, odd):
        assert board.winnable(time_limit=time_limit) == U
        assert board.traps(time_limit=time_limit).verdict == U
    assert stuck.hint(safe=True, time_limit=time_limit) is None
    assert odd.hint(safe=True, time_limit=time_limit).verdict == U


def test_a_hint_with_no_proof_in_time_falls_back_to_the_plain_hint(monkeypatch):
    board = llk.generate(6, 6, seed=8)
    board.certificate = None
    monkeypatch.setattr(_insight, "search", lambda state, rules, budget: _insight.Decision(K))
    hint = board.hint(safe=True, time_limit=0.01)
    assert hint == board.hint() and hint.verdict == K and not hint.safe
    assert board.winnable() == K
    traps = board.traps()
    assert traps.verdict == K and list(traps) == [] and traps.undecided == board.moves()


def test_out_of_time_before_the_moves_are_ordered_the_hint_says_what_is_known(monkeypatch):
    """The plain hint lists and weighs every move, which no time limit bounds (15.6 s on a
    1024x1024 board with gravity in a helper's audit): when the time runs out ordering the moves,
    the safe hint answers from what is known without a search. A known certificate: its first
    move, safe. A type with an odd count (an audit: UNKNOWN after the whole time limit, on a
    100 x 100 board of max_turns 6 that winnable() calls lost at once): lost. Else the first
    removable pair the listing meets, undecided."""
    from llkcore._core import pairs as _pairs

    monkeypatch.setattr(_insight._pairs, "hint_order", lambda state, turns, seconds: None)
    board = llk.generate(8, 8, seed=3)
    hint = board.hint(safe=True, time_limit=0.5)
    assert hint.verdict == S and hint.safe and hint == board.certificate[0]
    fresh = llk.Board(board.grid.tolist())
    hint = fresh.hint(safe=True, time_limit=0)
    assert hint.verdict == K and not hint.safe
    first = _pairs.first_move(fresh._state, fresh.rules.max_turns)
    assert tuple(hint) == tuple(fresh._point(c) for c in first) and hint in fresh.moves()
    odd = board.grid.tolist()
    odd[0][0] = 0
    lost = llk.Board(odd)
    hint = lost.hint(safe=True, time_limit=0.5)
    assert hint.verdict == U and not hint.safe and hint in lost.moves()
    stuck = llk.Board([[1, 2], [2, 1]], rules=llk.Rules(border=False))
    assert _pairs.first_move(stuck._state, 2) is None and stuck.hint(safe=True) is None


def test_a_lost_big_board_is_called_lost_though_its_moves_are_not_ordered_in_time():
    """The audit's board, unpatched: ordering the moves of three turns or more on 100 x 100
    outlasts 50 ms, and the odd count still makes the answer UNSOLVABLE, at once."""
    rng = np.random.default_rng(0)
    grid = rng.integers(1, 5, size=(100, 100)).astype(np.int32)
    grid[0, :4] = [0, 1, 1, 2]
    if (grid == 1).sum() % 2 == 0:
        grid[1, 1] = 2 if grid[1, 1] == 1 else 1
    board = llk.Board(grid, rules=llk.Rules(max_turns=6))
    assert board.winnable(time_limit=0) == U
    assert board.hint(safe=True, time_limit=0.05).verdict == U


@pytest.mark.parametrize("turns", [2, 3, 4])
def test_first_move_is_a_move_exactly_when_there_is_one(turns):
    """Above two turns first_move looks for a move of at most two turns first, then floods:
    it must still find a move exactly when there is one (a move of three turns only, too)."""
    from llkcore._core import pairs as _pairs

    only_three = llk.Board([[1, 0, 0], [-1, -1, 0], [0, 0, 0], [1, -1, -1]],
                           rules=llk.Rules(max_turns=turns, border=False))
    assert (_pairs.first_move(only_three._state, turns) is None) == (turns < 3)
    for seed in range(30):
        board = llk.Board(llk.generate(5, 6, seed=seed).grid, rules=llk.Rules(max_turns=turns))
        while True:
            first = _pairs.first_move(board._state, turns)
            moves = board.moves()
            assert (first is None) == (not moves) == board.is_stuck() or board.is_clear()
            if first is None:
                break
            assert first[0] < first[1]
            move = (board._point(first[0]), board._point(first[1]))
            assert move in moves
            board.remove(*move)


# ---------------------------------------------------------------------------------------------
# the cache
# ---------------------------------------------------------------------------------------------

def counting_search(monkeypatch):
    calls = []
    real = _insight.search

    def search(state, rules, budget):
        calls.append(budget)
        return real(state, rules, budget)

    monkeypatch.setattr(_insight, "search", search)
    return calls


@pytest.mark.parametrize("gravity", GRAVITIES)
def test_answers_follow_the_position_through_every_change(gravity):
    rules = llk.Rules(gravity=gravity)
    board = llk.generate(5, 6, seed=11, rules=rules)
    fresh = lambda: llk.Board(board.grid, rules=rules).winnable(time_limit=None)
    seen = [board.winnable(time_limit=None)]
    for a, b in board.certificate[:4]:
        board.remove(a, b)
        seen.append(board.winnable(time_limit=None))
        assert seen[-1] == fresh() == S
    board.undo(); board.undo()
    assert board.winnable(time_limit=None) == fresh()
    board.redo()
    assert board.winnable(time_limit=None) == fresh()
    board.shuffle(seed=3)
    assert board.winnable(time_limit=None) == fresh() == S
    lost = [[1, 2, 0, 0, 0, 0], [2, 1, 0, 0, 0, 0]] + [[0] * 6] * 3
    board.update(lost)
    assert board.winnable(time_limit=None) == fresh()
    # A lost position and back: the verdicts flip with the position.
    stuck = llk.Board([[1, 2, 0], [2, 1, 0], [0, 0, 3], [0, 0, 3]], rules=llk.Rules(border=False))
    assert stuck.winnable() == U
    stuck.remove((2, 2), (3, 2))
    assert stuck.winnable() == U
    stuck.undo()
    assert stuck.winnable() == U


def test_a_repeated_question_costs_no_search(monkeypatch):
    calls = counting_search(monkeypatch)
    board = llk.generate(6, 8, solvable=False, seed=5)
    first = board.winnable()
    assert len(calls) == 1
    for _ in range(3):
        assert board.winnable() == first
    assert len(calls) == 1
    m = board.moves()[0]
    board.remove(*m)
    board.winnable()
    searched = len(calls)           # 1 or 2: what is left of a certificate may prove it
    board.undo()
    assert board.winnable() == first
    board.redo()
    board.winnable()
    assert len(calls) == searched   # both positions again: from the cache


def test_an_unknown_is_searched_again_only_with_more_time(monkeypatch):
    calls = []

    def search(state, rules, budget):
        calls.append(budget)
        return _insight.Decision(K)

    monkeypatch.setattr(_insight, "search", search)
    board = llk.generate(6, 8, solvable=False, seed=6)
    assert board.winnable(time_limit=0.5) == K
    assert board.winnable(time_limit=0.2) == K and len(calls) == 1
    # A quarter more time is not more time (Budget.covers): asked again at once, the time
    # left is never quite the same.
    assert board.winnable(time_limit=0.5 * _insight.SECONDS_SLACK) == K and len(calls) == 1
    assert board.winnable(time_limit=2.0) == K and len(calls) == 2
    assert board.winnable(time_limit=None) == K and len(calls) == 3
    assert board.winnable(time_limit=100) == K and len(calls) == 3


def test_a_safe_hint_asked_again_on_an_undecided_position_searches_nothing(monkeypatch):
    """Each decision of a safe hint gets a share of the time left, never twice the same: a
    hard position's UNKNOWNs were searched again on every call (0.4 s a call on a tall 18 x 8
    deal with gravity, an audit). The second call is answered from the cache, the same."""
    calls = []

    def search(state, rules, budget):
        calls.append(budget)
        time.sleep(0.002)               # the clock moves between the decisions
        return _insight.Decision(K)

    monkeypatch.setattr(_insight, "search", search)
    board = llk.generate(6, 8, solvable=False, seed=6)
    first = board.hint(safe=True, time_limit=0.5)
    searched = len(calls)
    assert searched > 1 and first.verdict == K
    assert board.hint(safe=True, time_limit=0.5) == first and len(calls) == searched


def test_the_cache_is_bounded(monkeypatch):
    monkeypatch.setattr(_insight, "CACHE_ENTRIES", 5)
    board = llk.generate(6, 8, seed=9)
    board.winnable()
    for a, b in board.certificate[:12]:
        board.remove(a, b)
        assert board.winnable() == S
        assert len(board._insight) <= 5
    monkeypatch.setattr(_insight, "CACHE_BYTES", 64)
    board.traps()
    assert board._insight._bytes <= 64 + 8 * board.tiles_left


@pytest.mark.parametrize("gravity", GRAVITIES)
def test_certificates_are_reused_without_search(monkeypatch, gravity):
    """A generated deal is winnable by its certificate; after the moves of a certificate (in
    its order; without gravity in any order) what is left of it proves the position."""
    rules = llk.Rules(gravity=gravity)
    board = llk.generate(6, 8, seed=13, rules=rules)
    calls = counting_search(monkeypatch)
    assert board.winnable() == S and not calls
    certificate = list(board.certificate)
    for i in range(6):
        if gravity:
            a, b = certificate[i]
        else:   # pairs of the certificate out of its order: its first three never played
            a, b = next((a, b) for a, b in certificate[3:] if board.can_link(a, b))
        board.remove(a, b)
        assert board.winnable() == S
    assert not calls
    hint = board.hint(safe=True)
    assert hint.safe


def off_certificate(board):
    """(position, rules, the deal's certificate as padded cells, the removable pairs it does not
    hold, padded)."""
    state, (certificate,), _ = board._snapshot()
    held = {tuple(pair) for pair in certificate.tolist()}
    moves = _insight._pairs.moves_cells(state, board.rules.max_turns)
    return state, board.rules, certificate, [m for m in moves if tuple(m.tolist()) not in held]


def grid_of(state):
    return np.asarray(state.grid_view()).tolist()


@pytest.mark.parametrize("seed", [5, 6])
def test_a_certificate_survives_removals_it_pairs_otherwise(seed):
    """Without gravity, after a removal (a, b) that a certificate pairs as (a, x) and (b, y), the
    certificate with (x, y) paired instead mostly still clears the position, played greedily
    (a 64 x 64 board's traps() went from 1.2 s with 7 moves undecided to 0.01 s with none); and
    after two such removals. Each answer clears the board in llkref."""
    board = llk.generate(8, 10, seed=seed)
    state, rules, certificate, off = off_certificate(board)
    width = board.cols + 2
    assert len(off) >= 5
    repaired = twice = 0
    for move in off:
        child = _insight.after(state, move, rules)
        found = _insight.reuse(child, rules, [certificate])
        if found is None:
            continue
        repaired += 1
        assert llkref.verify(grid_of(child), _insight.moves_of(found, width))
        for second in off:
            if set(second.tolist()) & set(move.tolist()) or not llkref.can_link(
                    grid_of(child), *_insight.moves_of(second[None], width)[0]):
                continue
            grandchild = _insight.after(child, second, rules)
            again = _insight.reuse(grandchild, rules, [certificate])
            if again is not None and len(again):
                twice += 1
                assert llkref.verify(grid_of(grandchild), _insight.moves_of(again, width))
    assert repaired >= len(off) // 2 and twice > 0


@pytest.mark.parametrize("gravity", ["down", "up", "left", "right"])
def test_with_gravity_a_certificate_is_repaired_around_each_move(gravity):
    """With gravity tiles slide, so a certificate is repaired from the position before the move:
    the move, then its pairs (the broken two replaced by their partners paired), each played as
    soon as it links, every tile followed as it slides. Most moves of a deal get a certificate
    so, each of which clears the board in llkref under that gravity."""
    rules = llk.Rules(gravity=gravity)
    board = llk.generate(6, 8, seed=3, rules=rules)
    state, (certificate,), _ = board._snapshot()
    width = board.cols + 2
    moves = _insight._pairs.moves_cells(state, rules.max_turns)
    repaired = 0
    for move in moves:
        found = _insight.repaired_after(state, rules, move, [certificate])
        if found is None:
            continue
        repaired += 1
        child = _insight.after(state, move, rules)
        assert llkref.verify(grid_of(child), _insight.moves_of(found, width), gravity=gravity)
    assert repaired >= len(moves) // 2


def clears_in_some_order(grid, pairs):
    """Whether some order of removing ``pairs`` (fixed) clears them from ``grid`` (llkref,
    every subset of them searched)."""
    @functools.lru_cache(maxsize=None)
    def clears(removed):
        if removed == (1 << len(pairs)) - 1:
            return True
        here = copy_grid(grid)
        for i, pair in enumerate(pairs):
            if removed >> i & 1:
                for r, c in pair:
                    here[r][c] = 0
        return any(not removed >> i & 1 and llkref.can_link(here, *pair)
                   and clears(removed | 1 << i) for i, pair in enumerate(pairs))
    return clears(0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_a_repaired_certificate_is_found_iff_its_pairs_clear_in_some_order(seed):
    """The repair plays at each step the first pair that links: without gravity that clears them
    iff some order does (a removal never stops another pair linking). Checked against every
    order on small deals, for each removal the certificate pairs otherwise."""
    board = llk.generate(4, 5, seed=seed)
    state, rules, certificate, off = off_certificate(board)
    width = board.cols + 2
    for move in off:
        child = _insight.after(state, move, rules)
        grid = grid_of(child)
        pairs = [pair for pair in _insight.moves_of(certificate, width)
                 if all(grid[r][c] for r, c in pair)]
        alone = sorted((r, c) for r, row in enumerate(grid) for c, v in enumerate(row)
                       if v and all((r, c) not in pair for pair in pairs))
        assert len(alone) == 2          # the two the certificate paired with the removed ones
        found = _insight.reuse(child, rules, [certificate])
        assert (found is not None) == clears_in_some_order(grid, pairs + [tuple(alone)])
        if found is not None:
            assert llkref.verify(grid, _insight.moves_of(found, width))


@pytest.mark.parametrize("gravity", [None, "down"])
def test_a_time_limit_of_0_answers_from_what_is_known_and_searches_nothing(monkeypatch, gravity):
    """time_limit=0 is "do we know yet?": cached answers and known certificates, no search
    (``llk.solve`` accepts 0 too; it answers UNKNOWN)."""
    rules = llk.Rules(gravity=gravity)
    generated = llk.generate(6, 8, seed=13, rules=rules)
    fresh = llk.Board(generated.grid.tolist(), rules=rules)       # the same deal, no certificate
    calls = counting_search(monkeypatch)
    assert generated.winnable(time_limit=0) == S                  # by its own certificate
    assert fresh.winnable(time_limit=0) == K
    hint = fresh.hint(safe=True, time_limit=0)
    assert hint.verdict == K and tuple(hint) == fresh.hint()
    traps = fresh.traps(time_limit=0)
    assert traps.verdict == K and not traps and not traps.safe
    assert len(traps.undecided) == len(fresh.moves())
    assert all(b.seconds == 0 for b in calls)   # each search it reached was given no time
    assert fresh.winnable(time_limit=None) == S                   # now it is known...
    assert fresh.winnable(time_limit=0) == S                      # ...and asking is free
    assert fresh.hint(safe=True, time_limit=0).safe
    known = fresh.traps(time_limit=0)           # the certificate's first move, at least
    assert known.verdict == S and known.safe
    generated_traps = generated.traps(time_limit=0)
    assert generated_traps.verdict == S and generated_traps.safe


def test_safe_hint_prefers_the_hint_order_among_safe_moves():
    # Without gravity every pair of the certificate is safe: the safe hint is the first safe
    # move in hint order, here the plain hint itself whenever that is safe.
    for seed in range(10):
        board = llk.generate(6, 8, seed=seed)
        hint = board.hint(safe=True)
        if tuple(board.hint()) in board.traps().safe:
            assert hint == board.hint()


# ---------------------------------------------------------------------------------------------
# threads, bad input
# ---------------------------------------------------------------------------------------------

def test_threads_may_ask_while_another_plays():
    board = llk.generate(8, 10, seed=21)
    certificate = list(board.certificate)
    errors = []

    def ask():
        try:
            for _ in range(20):
                assert board.winnable() in (S, K)
                hint = board.hint(safe=True)
                assert hint is None or hint.verdict in (S, K)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(3)]
    for t in threads:
        t.start()
    for a, b in certificate[:20]:
        board.remove(a, b)
    for t in threads:
        t.join()
    assert not errors
    assert board.winnable() == S


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (-0.5, ValueError), (float("nan"), ValueError),
                                        ("1", TypeError), (True, TypeError), ([1], TypeError)])
def test_bad_time_limits_are_refused_and_change_nothing(bad, error):
    board = llk.generate(4, 6, seed=1)
    before = snapshot(board)
    for query in (lambda: board.winnable(time_limit=bad), lambda: board.traps(time_limit=bad),
                  lambda: board.hint(safe=True, time_limit=bad),
                  lambda: board.hint(time_limit=bad)):
        with pytest.raises(error, match="time_limit"):
            query()
    with pytest.raises(TypeError, match="safe"):
        board.hint(safe="yes")
    assert_unchanged(board, before)


def test_a_time_limit_of_0_lists_the_moves_of_a_usual_board_for_the_safe_hint():
    """An audit: from 16 x 16 up, hint(safe=True, time_limit=0) gave up ordering the moves
    (no time at all) and answered UNKNOWN with the first move found, though the position was
    known SOLVABLE; traps had a floor for its listing (0.05 s), the safe hint now shares it."""
    board = llk.generate(16, 16, seed=7)
    fresh = llk.Board(board.grid.tolist())
    assert fresh.hint(safe=True, time_limit=0).verdict == K       # nothing known: plain hint
    assert tuple(fresh.hint(safe=True, time_limit=0)) == fresh.hint()
    assert board.winnable(time_limit=0) == S
    hint = board.hint(safe=True, time_limit=0)
    assert hint.safe and hint.verdict == S
    assert board.traps(time_limit=0).listed


def test_the_certificate_becomes_cells_once_not_on_every_query(monkeypatch):
    """An audit: every play-time query made the board's certificate an array first, cached
    answers included (0.17 s for a 1024 x 1024 deal's 524,288 moves, where asking again
    "costs a hash"). It is made once per certificate."""
    from llkcore import board as board_module

    made = []
    real = board_module.cells_of
    monkeypatch.setattr(board_module, "cells_of", lambda *args: made.append(1) or real(*args))
    board = llk.generate(8, 18, seed=4)
    board.certificate = board.certificate   # one set by hand (a deal's comes as cells too)
    for _ in range(3):
        assert board.winnable(time_limit=0) == S
        assert board.hint(safe=True, time_limit=0).safe
    assert len(made) == 1
    board.certificate = llk.solve(board).moves      # a new certificate: made again, once
    for _ in range(2):
        assert board.winnable(time_limit=0) == S
    assert len(made) == 2


def test_a_deal_s_and_a_reshuffle_s_certificates_come_as_cells_and_copies_share_them(monkeypatch):
    """The cells were made from the moves at the first query of every board, copies included:
    0.25 s for a 1024 x 1024 deal (0.54 s on a copy, which analyze makes of a Board). A deal
    and a reshuffle hand over the cells they made the moves from; copies share them."""
    from llkcore import board as board_module
    from llkcore.coords import cells_of

    made = []
    monkeypatch.setattr(board_module, "cells_of", lambda *args: made.append(1) or cells_of(*args))
    for gravity in GRAVITIES:
        board = llk.generate(8, 18, seed=4, rules=llk.Rules(gravity=gravity))
        board.shuffle(seed=2) if gravity == "up" else None
        for twin in (board, board.copy()):
            _, (cells,), _ = twin._snapshot()
            assert not cells.flags.writeable
            assert cells.tolist() == cells_of(np.array(board.certificate).reshape(-1, 4),
                                              board._width).tolist()
    assert made == []


def proved_moves(board):
    """The rest of the board's certificate that it knows clears its position without a
    replay, as moves; None when it does not know one."""
    _, _, proved = board._snapshot()
    return None if proved is None else llk.coords.moves_of(proved, board._width)


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**16), rules=rules_st(gravity=True, turns=(1, 2, 3)),
       actions=st.lists(st.tuples(st.sampled_from(["on", "on", "on", "off", "undo", "undo",
                                                    "redo", "shuffle", "copy", "set"]),
                                  st.integers(0, 2**16)), max_size=30))
def test_the_rest_of_the_certificate_is_known_to_clear_only_where_it_does(seed, rules, actions):
    """A board follows its certificate along the removals made (Board._certificate_at): after
    k of its removals, in its order, the rest clears the position without a replay (a query
    then takes it as the answer); after other removals it knows it is off by that many, and
    undoing them brings it back. What it claims must clear the position (replayed here), and
    it knows exactly what this model of it knows: (k, stray) or nothing."""
    board = llk.generate(4, 6, seed=seed, rules=rules)
    model = (0, 0)          # (the certificate's removals made, other removals since), or None

    def removed(model, move):
        if model is None:
            return None
        k, stray = model
        certificate = board.certificate
        if stray == 0 and k < len(certificate) and set(move) == set(certificate[k]):
            return k + 1, 0
        return k, stray + 1

    for action, pick in actions:
        certificate = board.certificate
        if action == "on" and model is not None and model[1] == 0 and model[0] < len(certificate):
            move = certificate[model[0]]
            move = move if pick % 2 else move[::-1]        # either order of the pair
            model = removed(model, move)
            board.remove(*move)
        elif action in ("on", "off"):
            moves = board.moves()
            if not moves:
                continue
            move = moves[pick % len(moves)]
            model = removed(model, move)
            board.remove(*move)
        elif action == "undo":
            made = len(board.history)
            if board.undo():
                if len(board.history) == made:              # a reshuffle taken back
                    model = None
                elif model is not None:
                    k, stray = model
                    model = (k, stray - 1) if stray else (k - 1, 0) if k else None
        elif action == "redo":
            made = len(board.history)
            if board.redo():
                if len(board.history) == made:              # a reshuffle made again
                    model = None if board.certificate is None else (0, 0)
                else:
                    model = removed(model, board.history[-1])
        elif action == "shuffle":
            if board.tiles_left % 2 == 0 and board.tiles_left:
                try:
                    board.shuffle(seed=pick)
                except llk.DealError:       # a type with an odd count left, or no playout clears
                    continue
                model = (0, 0)
        elif action == "copy":
            board = board.copy()
        elif action == "set" and board.winnable(time_limit=1.0) == S:
            board.certificate = llk.solve(board).moves
            model = None
        proved = proved_moves(board)
        if proved is not None:
            assert llk.verify(board, proved), (action, proved)
        expected = None if model is None or model[1] else board.certificate[model[0]:]
        assert proved == expected, (action, model)


def test_after_the_certificate_s_moves_queries_replay_nothing(monkeypatch):
    """With gravity what is left of a certificate was replayed to prove it at every new
    position: 2.9 s a query on a 1024 x 1024 deal, past any time limit. A board that followed
    its certificate knows the rest clears: winnable, the safe hint, traps and solve replay
    nothing, even with a time limit of 0. A removal off the certificate ends that."""
    replays = []
    real = _insight.reuse
    monkeypatch.setattr(_insight, "reuse", lambda *args: replays.append(1) or real(*args))
    board = llk.generate(12, 12, seed=3, rules=llk.Rules(gravity="down"))
    certificate = board.certificate
    for a, b in certificate[:5]:
        board.remove(a, b)
        assert board.winnable(time_limit=0) == S
        hint = board.hint(safe=True, time_limit=0)
        assert hint.safe
        assert llk.solve(board, time_limit=0).reason == "certificate"
    assert replays == []
    board.undo()
    board.undo()
    assert board.winnable(time_limit=0) == S and replays == []
    off = next(m for m in board.moves() if m != certificate[len(board.history)])
    board.remove(*off)
    assert proved_moves(board) is None
    board.winnable(time_limit=0)
    assert replays
    # A move tried and taken back (a bot's look-ahead) comes back to the certificate: undoing a
    # stray move left the board off it for good, UNKNOWN at 1 s on a 1024 x 1024 gravity deal.
    board.remove(*next(m for m in board.moves()))
    board.undo()
    board.undo()
    replays.clear()
    assert proved_moves(board) == certificate[len(board.history):]
    assert board.winnable(time_limit=0) == S and replays == []


@pytest.mark.parametrize("gravity", [None, "down"])
def test_replays_and_repairs_of_certificates_run_on_the_query_s_clock(monkeypatch, gravity):
    """A query replays or repairs known certificates before it searches, and those ran without
    a clock: after a removal off a 1024 x 1024 deal's certificate, winnable(time_limit=0.01)
    took 0.41 s (no gravity), and a safe hint of a 512 x 512 deal with gravity 0.46 s. Each
    kernel now gets what is left of the limit (the set-up as a whole at least LISTING_SECONDS,
    as listing the moves gets); without a limit, none (-1)."""
    given = []

    def spy(name):
        real = getattr(_insight._playouts, name)

        def call(*args, time_limit=-1.0, cancel=None, **kwargs):
            given.append((name, time_limit))
            return real(*args, time_limit=time_limit, cancel=cancel, **kwargs)
        monkeypatch.setattr(_insight._playouts, name, call)

    for name in ("replay", "start_cells", "play_greedily"):
        spy(name)
    board = llk.generate(8, 10, seed=2, rules=llk.Rules(gravity=gravity))
    board.certificate = board.certificate       # set by hand: proved by a replay
    for time_limit in (0.3, None):
        given.clear()
        assert board.copy().winnable(time_limit=time_limit) == S
        board.copy().traps(time_limit=time_limit)
        assert {name for name, _ in given} >= {"replay", "play_greedily"}
        if time_limit is None:
            assert all(limit == -1.0 for _, limit in given)
        else:
            assert all(0 <= limit <= time_limit for _, limit in given)


def test_traps_give_the_position_s_own_verdict_half_the_time(monkeypatch):
    """traps() decided the position itself with a k-th of its time for k moves, so it left
    positions UNKNOWN, traps listed, that winnable() proved lost at once (a random 12 x 24
    deal with gravity: 0.023 s; traps(time_limit=0.2) gave UNKNOWN). The root now gets half."""
    given = counting_search(monkeypatch)
    board = llk.generate(8, 18, solvable=False, seed=3)
    assert len(board.moves()) > 4
    board.traps(time_limit=1.0)
    assert given and given[0].seconds >= 0.45
    lost = llk.generate(12, 24, solvable=False, seed=1, rules=llk.Rules(gravity="down"))
    assert lost.traps(time_limit=0.2).verdict == U


@pytest.mark.parametrize("bad, error", [(0, ValueError), (-1, ValueError), (1.5, TypeError),
                                        ("10", TypeError), (True, TypeError)])
def test_bad_node_limits_are_refused_and_change_nothing(bad, error):
    board = llk.generate(4, 6, seed=1)
    before = snapshot(board)
    for query in (lambda: board.winnable(node_limit=bad), lambda: board.traps(node_limit=bad),
                  lambda: board.hint(safe=True, node_limit=bad)):
        with pytest.raises(error, match="node_limit"):
            query()
    assert_unchanged(board, before)


def test_a_node_limit_bounds_each_decision_and_answers_alike_on_any_machine(monkeypatch):
    """winnable, the safe hint and traps took only a time limit, so their answers depended on
    the machine's speed (an audit; llk.rate alone took node_limit). With ``node_limit`` and no
    time limit every search they make gets that many nodes, and the answers repeat."""
    from conftest import hard_deal

    given = counting_search(monkeypatch)
    hard = hard_deal()          # open after 37.8 million nodes
    assert hard.copy().winnable(time_limit=None, node_limit=2_000) == K
    hint = hard.copy().hint(safe=True, time_limit=None, node_limit=2_000)
    assert hint is not None and hint.verdict == K
    first = hard.copy().traps(time_limit=None, node_limit=2_000)
    again = hard.copy().traps(time_limit=None, node_limit=2_000)
    assert (list(first), first.safe, first.undecided, first.verdict) == \
        (list(again), again.safe, again.undecided, again.verdict)
    assert given and all(b.nodes == 2_000 and b.seconds is None for b in given)
    # A position decided within the budget is decided.
    deal = llk.generate(8, 18, solvable=False, seed=3)
    assert deal.winnable(time_limit=None, node_limit=200_000) != K


def test_a_decision_s_set_up_has_one_floor_and_tries_each_certificate_once(monkeypatch):
    """Each certificate a decision tried got at least LISTING_SECONDS, even once its time was
    up, and the board's certificate came up to three times (itself and rests of it among the
    recent ones, each a view of it): traps(time_limit=0.1) on a 1024 x 1024 deal five moves
    into its certificate took 0.3 s (an audit). The floor is the set-up's, and one memory is
    replayed once."""
    clock = _insight.Clock(0.0)
    assert 0 < clock.setup_seconds() <= _insight.LISTING_SECONDS
    time.sleep(_insight.LISTING_SECONDS * 1.2)
    assert clock.setup_seconds() == 0.0
    assert _insight.Clock(None).setup_seconds() == -1.0
    assert _insight.Clock(0.3).setup_seconds() <= 0.3

    board = llk.generate(8, 10, seed=2, rules=llk.Rules(gravity="down"))
    for a, b in board.certificate[:3]:
        board.remove(a, b)
    _, (cells,), proved = board._snapshot()
    other = np.array(cells)         # the same pairs in other memory: a certificate of its own
    kept = _insight._distinct([cells, proved, cells[3:], other, None, None])
    assert len(kept) == 2 and kept[0] is cells and kept[1] is other
    replayed = []
    real = _insight._playouts.start_cells
    monkeypatch.setattr(_insight._playouts, "start_cells",
                        lambda *args, **kwargs: replayed.append(1) or real(*args, **kwargs))
    traps = board.copy().traps(time_limit=None)
    assert traps.verdict == S and len(replayed) <= len(board.moves())  # one candidate a move


@pytest.mark.parametrize("drop", ["update", "set None", "set another"])
def test_a_certificate_replaced_or_dropped_lets_go_of_its_memory(drop):
    """update() and the certificate setter dropped the certificate, but its cells and its
    following stayed (140 MB for a 1024 x 1024 deal's, an audit). They go with it."""
    import gc
    import weakref

    board = llk.generate(8, 10, seed=2)
    cells = weakref.ref(board._certificate_cells[1])
    if drop == "update":
        board.update(board.grid)
    elif drop == "set None":
        board.certificate = None
    else:
        board.certificate = llk.solve(board).moves
    gc.collect()
    assert cells() is None
    assert board._certificate_at is None
    if drop == "set another":       # the new one is followed from scratch, correctly
        assert board.winnable(time_limit=0) == S


@pytest.mark.parametrize("gravity", [None, "down"])
def test_a_pickled_or_saved_board_still_follows_its_certificate(monkeypatch, gravity):
    """Pickling and saving dropped the following: the first query on an unpickled 1024 x 1024
    deal with gravity replayed the certificate, UNKNOWN at 1 s where the board it came from
    answered in 0.03 s (an audit). A pickle carries the following and the cells; a saved
    game with no history is followed from its position, once its certificate is checked."""
    import pickle

    board = llk.generate(8, 10, seed=4, rules=llk.Rules(gravity=gravity))
    fresh_saved = llk.Board.from_json(board.to_json())
    for a, b in board.certificate[:3]:
        board.remove(a, b)
    board.remove(*board.moves()[0])
    board.undo()                                    # a stray move taken back
    replays = []
    real = _insight.reuse
    monkeypatch.setattr(_insight, "reuse", lambda *args: replays.append(1) or real(*args))
    again = pickle.loads(pickle.dumps(board))
    assert proved_moves(again) == proved_moves(board) == board.certificate[3:]
    assert again._certificate_cells[1].tolist() == board._certificate_cells[1].tolist()
    assert proved_moves(fresh_saved) == fresh_saved.certificate
    for loaded in (again, fresh_saved):
        assert loaded.winnable(time_limit=0) == S
    assert replays == []
    # A saved game with a history is followed from its start when the start's certificate
    # clears the start (a loaded 1024 x 1024 gravity game was UNKNOWN at 0.01 s where the
    # board saved answered SOLVABLE at once: an audit), and its cells come from that check.
    later = llk.Board.from_json(board.to_json())
    assert proved_moves(later) == board.certificate[3:]
    assert later._certificate_cells[1].tolist() == board._certificate_cells[1].tolist()
    assert not later._certificate_cells[1].flags.writeable
    assert later.winnable(time_limit=0) == S and replays == []
    # ... and through a reshuffle, from the position the reshuffle made.
    shuffled = board.copy()
    shuffled.shuffle(seed=1)
    shuffled.remove(*shuffled.certificate[0])
    again = llk.Board.from_json(shuffled.to_json())
    assert proved_moves(again) == shuffled.certificate[1:] == proved_moves(shuffled)
    # A certificate set by hand in mid-game clears a later position, not the start: not
    # followed (following it from the start would claim the start can be cleared by it).
    by_hand = board.copy()
    by_hand.certificate = llk.solve(by_hand).moves
    by_hand.remove(*by_hand.certificate[0])
    loaded = llk.Board.from_json(by_hand.to_json())
    assert loaded._certificate_at is None and proved_moves(loaded) is None
    assert loaded.winnable() == S and loaded.certificate == by_hand.certificate


def test_traps_do_not_push_out_the_certificate_the_next_position_needs():
    """An audit: with gravity a safe move proved by the position's certificate (its first
    removal) is not decided, so the next position needs that certificate among the RECENT; the
    certificates traps() found for each move pushed it out, and winnable() after the move
    searched: UNKNOWN at 1 s here. traps() caches its children's certificates under their
    positions only."""
    board = llk.generate(64, 64, seed=5, rules=llk.Rules(gravity="down"))
    for _ in range(48):
        board.remove(*board.hint(safe=True))
    move = board.hint(safe=True)
    assert move.verdict == S
    board.traps()
    board.remove(move[0], move[1])
    assert board.winnable(time_limit=0.3) == S
