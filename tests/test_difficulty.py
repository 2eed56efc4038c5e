"""Difficulty: llk.rate, generate(difficulty=...), analyze(rate=True) (llkcore/difficulty.py).

- a rating is reproducible from the position, rules and seed (not the history), and never
  changes the board; its components are what the docs define (checked on boards whose answer
  is known, and the careful game's first position against Board.traps);
- generate(difficulty=d) gives a solvable deal with its certificate whose rating is in band d;
  the quick screen never accepts a board outside the band;
- bad difficulty names and arguments get clear errors; an impossible band a DealError.
"""
from __future__ import annotations

import math
import time

import numpy as np
import pytest

import llkcore as llk
from conftest import assert_unchanged, snapshot
from llkcore import _deals
from llkcore.difficulty import BANDS, DIFFICULTIES, band_of, in_band, stuck_count

TWINS = [[1, 1, 0, 2, 2],
         [0, 0, 0, 0, 0],
         [3, 3, 0, 4, 4]]


def test_a_board_every_random_game_clears_rates_zero():
    r = llk.rate(llk.Board(TWINS))
    assert r.score == 0.0 and r.band == "easy" and r.clear_rate == 1.0 and r.playouts == 200
    assert r.traps == 0 and r.trap_rate == 0.0 and r.undecided == 0
    assert r.game_length == 4 and r.branching == pytest.approx((4 + 3 + 2 + 1) / 4)
    assert r.decided == 4 + 3 + 2 + 1


def test_a_lost_board_rates_100_with_no_trap_rate():
    r = llk.rate(llk.Board([[1, 2], [2, 1]], rules=llk.Rules(border=False)))
    assert r.score == 100.0 and r.band == "hard" and r.clear_rate == 0.0
    assert r.trap_rate is None and r.decided == 0 and r.game_length == 0 and r.branching is None


def test_the_clear_rate_counts_the_random_games_that_clear():
    # Three moves, one a trap (see test_winnable): a random game falls into it with 1/3.
    board = llk.Board([[1, 1, 2], [0, 2, 1], [0, 1, 0]], rules=llk.Rules(border=False))
    r = llk.rate(board, playouts=3000)
    assert abs(r.clear_rate - 2 / 3) < 0.04
    assert r.score == pytest.approx(100 * (1 - r.clear_rate))
    # The careful game starts with the three moves, one of them a trap.
    assert r.traps >= 1 and r.decided >= 3


@pytest.mark.parametrize("gravity", [None, "down"])
def test_a_rating_is_reproducible_and_changes_nothing(gravity):
    rules = llk.Rules(gravity=gravity)
    board = llk.generate(6, 8, seed=3, rules=rules)
    before = snapshot(board)
    first = llk.rate(board, seed=5)
    assert llk.rate(board, seed=5) == first
    assert_unchanged(board, before)
    # The position decides, not the history or the certificate.
    for a, b in board.certificate[:3]:
        board.remove(a, b)
    board.undo(); board.undo(); board.undo()
    fresh = llk.Board(board.grid, rules=rules)
    assert llk.rate(fresh, seed=5) == first
    assert llk.rate(board.grid, rules=rules, seed=5) == first
    others = {llk.rate(board, seed=s, traps=False).clear_rate for s in range(6)}
    assert len(others) > 1          # the seed matters


def test_seed_none_draws_a_seed_that_the_rating_records():
    board = llk.generate(6, 8, seed=3)
    drawn = [llk.rate(board, seed=None, traps=False, playouts=20) for _ in range(3)]
    assert len({r.seed for r in drawn}) == 3 and all(r.seed >= 0 for r in drawn)
    for rating in drawn:            # rated again from the recorded seed: the same Rating
        assert llk.rate(board, seed=rating.seed, traps=False, playouts=20) == rating


def test_the_careful_game_starts_with_what_board_traps_says():
    board = llk.generate(6, 8, seed=21, difficulty="hard")
    traps = board.traps(time_limit=None)
    assert traps.verdict == llk.Verdict.SOLVABLE
    r = llk.rate(board, playouts=10)
    assert r.decided >= len(traps) + len(traps.safe)
    assert r.traps >= len(traps)
    assert r.game_length == board.tiles_left // 2       # it never walks into a dead end
    assert r.trap_rate == pytest.approx(r.traps / r.decided)


def test_traps_false_skips_the_careful_game():
    r = llk.rate(llk.generate(6, 8, seed=1), traps=False)
    assert r.trap_rate is None and r.branching is None and r.game_length == 0 and r.decided == 0


def test_bands():
    assert DIFFICULTIES == ("easy", "medium", "hard")
    assert [band_of(s) for s in (0, 9.5, 10, 24.5, 25, 100)] == \
        ["easy", "easy", "medium", "medium", "hard", "hard"]
    lows = [BANDS[d][0] for d in DIFFICULTIES]
    assert lows == sorted(lows) and BANDS["hard"][1] == math.inf
    with pytest.raises(ValueError):
        band_of(-1)


def test_playouts_split_on_one_stream_equal_one_run():
    board = llk.generate(6, 8, seed=2)
    state, rules = board._state, board.rules
    whole, played = stuck_count(state, rules, 200, _deals.rng_state(0))
    stream = _deals.rng_state(0)
    first, second = stuck_count(state, rules, 32, stream), stuck_count(state, rules, 168, stream)
    assert first[0] + second[0] == whole and (first[1], second[1], played) == (32, 168, 200)
    assert whole == round(2 * llk.rate(board, traps=False).score)


@pytest.mark.parametrize("gravity", [None, "down"])
def test_a_time_limit_that_cuts_nothing_gives_the_same_rating(gravity):
    for seed in range(3):
        board = llk.generate(6, 8, seed=seed, solvable=False, rules=llk.Rules(gravity=gravity))
        timed = llk.rate(board, time_limit=60)
        assert timed.complete and timed == llk.rate(board)


def test_a_time_limit_of_zero_plays_nothing():
    board = llk.generate(6, 8, seed=1)
    rating = llk.rate(board, time_limit=0)
    assert (rating.playouts, rating.game_length, rating.decided, rating.complete) == (0, 0, 0, False)
    assert math.isnan(rating.score) and math.isnan(rating.clear_rate) and rating.band is None


def test_a_time_limit_cuts_the_first_playout_too():
    """The first playout was always played out, so that a score had one: on a 128 x 128 deal
    with three turns one playout takes 8 s, and rate(time_limit=0.02) took 8.35 s (an audit).
    The limit now cuts it too; a rating with no playout finished has no score."""
    board = llk.generate(128, 128, seed=0, rules=llk.Rules(max_turns=3))
    start = time.perf_counter()
    rating = llk.rate(board, time_limit=0.05)
    assert time.perf_counter() - start < 2
    assert rating.playouts == 0 and not rating.complete
    assert math.isnan(rating.score) and rating.band is None and rating.game_length == 0


def test_a_time_limit_stops_a_long_rating_and_says_so():
    # A tall deal with gravity: the full rating takes seconds (2.3 s on the 2-core machine), most
    # of it in the careful game, which 0.3 s cuts short on any machine this runs on.
    board = llk.generate(18, 8, seed=2, solvable=False, rules=llk.Rules(gravity="down"))
    full = llk.rate(board)
    assert full.complete and full.game_length == 18
    before = snapshot(board)
    cut = llk.rate(board, time_limit=0.3)
    assert_unchanged(board, before)
    assert not cut.complete and 1 <= cut.playouts <= full.playouts
    assert cut.game_length < full.game_length
    assert cut.traps + cut.undecided <= full.traps + full.undecided


@pytest.mark.parametrize("bad, error", [(-1, ValueError), (float("nan"), ValueError),
                                        ("1", TypeError), (True, TypeError)])
def test_a_bad_time_limit_is_refused(bad, error):
    with pytest.raises(error, match="time_limit"):
        llk.rate([[1, 1]], time_limit=bad)


@pytest.mark.parametrize("name", DIFFICULTIES)
@pytest.mark.parametrize("gravity", [None, "down"])
def test_generate_gives_a_deal_in_the_band(name, gravity):
    rules = llk.Rules(gravity=gravity)
    board = llk.generate(8, 10, seed=7, difficulty=name, rules=rules)
    assert llk.rate(board, traps=False).band == name
    assert llk.verify(board, board.certificate)
    again = llk.generate(8, 10, seed=7, difficulty=name, rules=rules)
    assert np.array_equal(again.grid, board.grid) and again.certificate == board.certificate


def test_hard_deals_are_harder_than_easy_ones():
    easy = [llk.rate(llk.generate(6, 8, seed=s, difficulty="easy"), playouts=100) for s in range(6)]
    hard = [llk.rate(llk.generate(6, 8, seed=s, difficulty="hard"), playouts=100) for s in range(6)]
    assert max(r.score for r in easy) < min(r.score for r in hard)
    assert np.mean([r.clear_rate for r in easy]) > np.mean([r.clear_rate for r in hard])


def test_the_screen_never_accepts_a_board_outside_the_band():
    for seed in range(40):
        board = llk.generate(6, 8, seed=seed)
        band = llk.rate(board, traps=False).band
        for name in DIFFICULTIES:
            if in_band(board, name):
                assert name == band


def test_bad_difficulty_and_arguments_are_refused():
    with pytest.raises(ValueError, match="difficulty 'brutal'.*'easy', 'medium', 'hard'"):
        llk.generate(6, 6, difficulty="brutal")
    with pytest.raises(TypeError, match="difficulty"):
        llk.generate(6, 6, difficulty=2)
    with pytest.raises(ValueError, match="solvable=True"):
        llk.generate(6, 6, difficulty="easy", solvable=False)
    board = llk.generate(4, 4, seed=1)
    before = snapshot(board)
    for kwargs, error in (({"playouts": 0}, ValueError), ({"playouts": 1.5}, TypeError),
                          ({"seed": -1}, ValueError), ({"node_limit": 0}, ValueError),
                          ({"traps": 1}, TypeError)):
        with pytest.raises(error, match=next(iter(kwargs))):
            llk.rate(board, **kwargs)
    assert_unchanged(board, before)


@pytest.mark.parametrize("huge", [2**64 - 1, np.uint64(2**64 - 1), 10**30])
def test_a_node_limit_beyond_any_search_is_no_limit_in_rate_as_in_solve(huge):
    """Found by the fuzz suite: rate(node_limit=np.uint64(2**64 - 1)) reached the kernel and raised
    OverflowError; node budgets are capped in one place (checks.node_budget) for both."""
    board = llk.generate(4, 4, seed=1)
    assert llk.rate(board, node_limit=huge, playouts=8) == llk.rate(board, node_limit=None, playouts=8)
    assert llk.solve(board, node_limit=huge).nodes == llk.solve(board).nodes


def test_an_impossible_band_is_a_deal_error(monkeypatch):
    monkeypatch.setattr(llk.deals, "DIFFICULTY_ATTEMPTS", 20)
    with pytest.raises(llk.DealError, match="no hard deal of 2 rows x 2 columns.*rarely rate hard"):
        llk.generate(2, 2, difficulty="hard", seed=0)


def test_analyze_reports_the_rating_columns():
    boards = [llk.generate(4, 6, seed=s) for s in range(5)]
    result = llk.analyze(boards, rate=True, workers=2)
    expected = [llk.rate(b) for b in boards]
    assert result.ratings["score"].tolist() == [r.score for r in expected]
    assert result.ratings["trap_rate"].tolist() == [r.trap_rate for r in expected]
    summary = result.summary()
    assert summary["score"]["max"] == max(r.score for r in expected)
    assert "difficulty score" in str(summary) and "trap rate" in str(summary)
    record = result.to_records()[0]
    assert record["clear_rate"] == expected[0].clear_rate
    assert result.to_dict()["boards"]["branching"][0] == expected[0].branching
    assert llk.analyze(boards).ratings is None
    assert llk.Analysis.concat([result, result]).ratings["score"].shape == (10,)
    pytest.importorskip("pandas")
    frame = result.to_dataframe()
    assert frame["trap_rate"].tolist() == result.ratings["trap_rate"].tolist()
    assert frame.columns.tolist()[-4:] == list(llk.analysis.RATING_FIELDS)


def test_llk_analyze_rate_prints_and_writes_the_rating_columns(tmp_path, capsys):
    from llkcore import cli
    out_json = tmp_path / "r.json"
    code = cli.main(["analyze", "--size", "4x6", "--count", "3", "--solvable", "--rate", "-q",
                     "--json", str(out_json)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "difficulty score" in out and "random-clear rate" in out and "branching" in out
    import json
    data = json.loads(out_json.read_text())
    assert len(data["boards"]["score"]) == 3 and " --rate " in data["reproduce"]


def test_the_clear_rate_is_the_share_of_playouts_that_cleared():
    """cleared / playouts, so 100 * (1 - clear_rate) is the score exactly (it was 1 - stuck /
    playouts: 0.5349999999999999 against a score of 46.5, a helper's audit)."""
    rating = llk.rate(llk.generate(12, 24, seed=0, rules=llk.Rules(gravity="down")), traps=False)
    assert rating.clear_rate == 0.535 and rating.score == 46.5


def test_the_probe_playouts_are_charged_to_the_node_budget(monkeypatch):
    """An edges audit: under gravity every decision first ran 64 random playouts, whatever the
    node budget, so rate(node_limit=100) of a 1 x 256 board took 5.9 s (ten times per doubling:
    playouts of 128 removals where the search had 100 nodes). Each playout now counts a node per
    pair it can remove, within the probe's share of the budget."""
    from llkcore import _insight

    probes = []
    real = _insight._playouts.random_playouts

    def counting(state, max_turns, gravity, count, *args, **kwargs):
        probes.append((count, state.tiles // 2))
        return real(state, max_turns, gravity, count, *args, **kwargs)

    monkeypatch.setattr(_insight._playouts, "random_playouts", counting)
    line = np.repeat(np.arange(1, 33, dtype=np.int32), 2).reshape(1, 64)
    board = llk.Board(line, rules=llk.Rules(gravity="down"))
    llk.rate(board, node_limit=400, playouts=1, traps=True)
    assert probes and all(count * pairs <= 400 * _insight.PROBE_SHARE for count, pairs in probes)
    probes.clear()
    board.winnable(time_limit=None)         # no node budget: the full probe
    assert [count for count, _ in probes] == [_insight.PROBE_PLAYOUTS]
