"""Saved games: board.to_json() / llk.Board.from_json() (and pickling, which uses the same
document and replay) keep the grid, rules, undo and redo history (reshuffles included),
certificate, labels and seed; a malformed document or one of a newer version is refused with a
BoardError that says what is wrong."""
from __future__ import annotations

import json
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import llkcore as llk
from llkcore import saving
from conftest import examples, redo_trail


def undo_trail(board):
    """The grids (and certificates) undo leads to, computed on a copy."""
    work = board.copy()
    trail = []
    while work.undo():
        trail.append((work.grid.tolist(), work.certificate))
    return trail


def assert_same_game(again, board):
    """Same position, rules, history both ways, certificate, labels and seed."""
    assert again.rules == board.rules
    assert again.grid.tolist() == board.grid.tolist()
    assert again.index.as_dict() == board.index.as_dict()
    assert again.history == board.history
    assert again.certificate == board.certificate
    assert again.seed == board.seed
    assert again.labels == board.labels
    assert undo_trail(again) == undo_trail(board)
    assert redo_trail(again) == redo_trail(board)


def play(board, data, steps):
    """Random legal removals, undos, redos and reshuffles drawn by hypothesis."""
    for _ in range(steps):
        action = data.draw(st.sampled_from(["remove", "remove", "remove", "undo", "redo", "shuffle"]))
        if action == "remove":
            moves = board.moves()
            if moves:
                board.remove(*moves[data.draw(st.integers(0, len(moves) - 1))])
        elif action == "undo":
            board.undo()
        elif action == "redo":
            board.redo()
        else:
            try:
                board.shuffle(seed=data.draw(st.integers(0, 99)),
                              solvable=data.draw(st.booleans()))
            except llk.DealError:
                pass


@settings(max_examples=examples(60))
@given(seed=st.integers(0, 10**6), gravity=st.sampled_from([None, "down", "up", "left", "right"]),
       border=st.booleans(), data=st.data())
def test_round_trip_of_a_played_game_with_gravity_reshuffles_undo_and_redo(seed, gravity, border, data):
    rules = llk.Rules(border=border, gravity=gravity)
    board = llk.generate(data.draw(st.integers(2, 6)), data.draw(st.integers(2, 6)) // 2 * 2,
                         seed=seed, rules=rules)
    play(board, data, data.draw(st.integers(0, 12)))
    text = board.to_json()
    again = llk.Board.from_json(text)
    assert_same_game(again, board)
    assert again.to_json() == text                      # the document is a fixed point
    assert json.loads(text)["version"] == saving.VERSION
    twin = pickle.loads(pickle.dumps(board))             # pickling: the same replay
    assert_same_game(twin, board)
    # The restored game plays on like the original.
    for b in (board, again):
        while b.redo():
            pass
    assert again.grid.tolist() == board.grid.tolist() and again.certificate == board.certificate


def test_document_fields_of_a_generated_game():
    board = llk.generate(4, 6, seed=12, rules=llk.Rules(gravity="down"))
    first, second = board.certificate[:2]
    board.remove(*first)
    board.remove(*second)
    board.undo()
    doc = json.loads(board.to_json())
    assert doc["format"] == "llkcore.board" and doc["version"] == 1
    assert doc["rules"] == {"max_turns": 2, "border": True, "gravity": "down"}
    assert doc["seed"] == 12 and doc["labels"] is None
    assert doc["grid"] == board.grid.tolist()
    assert doc["start"]["grid"] == llk.generate(4, 6, seed=12, rules=board.rules).grid.tolist()
    assert doc["history"] == [[*first[0], *first[1]]]
    assert doc["redo"] == [[*second[0], *second[1]]]
    assert doc["certificate"] == [[*a, *b] for a, b in board.certificate]
    # A board without history has no start position.
    assert "start" not in json.loads(llk.Board([[1, 1]]).to_json())


def test_reshuffles_are_saved_as_steps_and_undo_restores_the_certificate():
    board = llk.generate(4, 4, seed=3)
    dealt = board.certificate
    board.remove(*dealt[0])
    board.shuffle(seed=5)
    reshuffled = board.certificate
    board.remove(*reshuffled[0])
    board.undo()
    doc = json.loads(board.to_json())
    (removal, shuffle) = doc["history"]
    assert shuffle["certificate"] == [[*a, *b] for a, b in reshuffled]
    assert sorted(shuffle["shuffle"]) == sorted(board.grid[board.grid > 0].tolist())
    again = llk.Board.from_json(json.dumps(doc))
    assert again.certificate == reshuffled
    assert again.redo() and again.undo()
    assert again.undo() and again.certificate == dealt       # undoing the reshuffle
    assert again.undo() and again.grid.tolist() == llk.generate(4, 4, seed=3).grid.tolist()


def test_labels_round_trip_tuples_none_and_walls():
    screen = [["cat", ("dog", 2), None, "rock"],
              ["cat", ("dog", 2), 7, 7.5],
              [True, None, 7.5, True]]
    board = llk.Board.from_labels(screen, walls=["rock"])
    board.remove((0, 0), (1, 0))
    again = llk.Board.from_json(board.to_json())
    assert again.labels == board.labels and again.label_at((0, 1)) == ("dog", 2)
    assert again.undo() and again.label_at((0, 0)) == "cat"
    assert pickle.loads(pickle.dumps(board)).labels == board.labels
    # Labels JSON cannot hold are refused by to_json, not written wrong (pickle keeps them).
    odd = llk.Board.from_labels([[frozenset({1}), frozenset({1})]])
    with pytest.raises(TypeError, match="cannot be saved as JSON"):
        odd.to_json()
    assert pickle.loads(pickle.dumps(odd)).labels == odd.labels


def test_non_finite_float_labels_round_trip_by_json_and_pickle():
    """A float screen's empty cells are NaN (``empty=np.nan``): such a board saves, pickles (to
    a worker process, say) and plays on after loading (pickle.loads and to_json refused it)."""
    screen = np.array([[1.0, 1.0, np.nan], [np.inf, np.nan, -np.inf], [np.inf, 2.0, -np.inf]])
    board = llk.Board.from_labels(screen, empty=np.nan)
    text = board.to_json()
    assert "NaN" not in text and "Infinity" not in text         # strict JSON
    for again in (llk.Board.from_json(text), pickle.loads(pickle.dumps(board))):
        assert again.grid.tolist() == board.grid.tolist()
        assert np.isnan(again.labels[0]) and again.label_at((1, 0)) == np.inf
        assert again.label_at((1, 2)) == -np.inf
        again.update(np.array([[np.nan, np.nan, np.nan], [np.inf, np.nan, np.inf]] + [[2.0] * 3]))
        assert again.grid.tolist() == [[0, 0, 0], [2, 0, 2], [4, 4, 4]]
    for bad in ({"float": "NaN"}, {"float": 1.5}, {"float": "nan", "x": 1}, {"int": "nan"}):
        doc = json.loads(text)
        doc["labels"][0][1] = bad
        with pytest.raises(llk.BoardError, match="a label is"):
            llk.Board.from_json(json.dumps(doc))


def test_generate_records_its_seed_and_the_seed_deals_the_board_again():
    board = llk.generate(6, 6, seed=99)
    assert board.seed == 99
    fresh = llk.generate(6, 6)                          # seed None: a drawn seed is recorded
    assert isinstance(fresh.seed, int) and fresh.seed >= 0
    again = llk.generate(6, 6, seed=fresh.seed)
    assert again.grid.tolist() == fresh.grid.tolist() and again.certificate == fresh.certificate
    assert llk.generate(4, 4, solvable=False, seed=4).seed == 4
    assert llk.Board(board.grid).seed is None
    assert board.copy().seed == 99
    board.update(board.grid.copy())                     # a new screen is not the dealt board
    assert board.seed is None


# ---------------------------------------------------------------------------------------------
# Refused documents
# ---------------------------------------------------------------------------------------------

def saved(**changes):
    board = llk.generate(2, 4, seed=1)
    board.remove(*board.certificate[0])
    doc = json.loads(board.to_json())
    for key, value in changes.items():
        if value is KeyError:
            del doc[key]
        else:
            doc[key] = value
    return json.dumps(doc)


@pytest.mark.parametrize("text, message", [
    ("{not json", "not valid JSON"),
    ("[" * 100_000, "nested too deeply|not valid JSON"),
    ("[[1, 1]]", "expected a JSON object"),
    ('{"grid": [[1, 1]]}', "not a saved llkcore board"),
    (saved(format="something.else"), "not a saved llkcore board"),
    (saved(version=2), r"version 2 is newer .* upgrade llkcore"),
    # A helper's audit: each was echoed whole (a 400-digit number, a 100,000-character string).
    (saved(version=10**400), r"^saved board: format version an int of 1329 bits is newer"),
    (saved(format="x" * 100_000), r"^not a saved llkcore board: \"format\" is 'xxx.*\(100,000 "
                                  r"characters\), expected"),
    (saved(version="1" * 100_000), r"^saved board: \"version\" must be an int >= 1, got '111.*"
                                   r"\(100,000 characters\)$"),
    (saved(version=0), "version"),
    (saved(version="1"), "version"),
    (saved(version=True), "version"),
    (saved(extra=1), r"unknown field\(s\) \['extra'\]"),
    (saved(grid=KeyError), "required"),
    (saved(rules=KeyError), "required"),
    (saved(grid=[[1.0, 1]]), "list of rows of integers"),
    (saved(grid=[[True, 1]]), "list of rows of integers"),
    (saved(grid=[[1, 1], [1]]), "ragged|rows"),
    (saved(grid=[[2**40, 1]]), r"^saved board: grid: board values must fit in int32"),
    (saved(rules={"max_turns": 2, "gravity": "sideways"}), "bad rules"),
    (saved(rules={"turns": 2}), "bad rules: unknown rules field"),
    (saved(rules=[2]), "bad rules"),
    (saved(history=[[0, 0, 0, 0]]), "history step 1 is not a legal removal"),
    (saved(history=[[0, 0, 9, 9]]), "history step 1: point"),
    (saved(history=[[0, 0, 1]]), r"history step 1 must be \[r1, c1, r2, c2\]"),
    (saved(history="no"), "must be a list of steps"),
    (saved(history=[{"shuffle": [1], "certificate": None}]), "lists the new type of each"),
    (saved(history=[{"shuffle": [9] * 8, "certificate": None}]), "not the same multiset"),
    # beyond int64 (an OverflowError converting it, found by a helper's audit)
    (saved(history=[{"shuffle": [10**30] + [1] * 7, "certificate": None}]), "not the same multiset"),
    (saved(history=[{"shuffle": [1] * 8}]), "a reshuffle is"),
    (saved(start=KeyError), "needs its \"start\""),
    (saved(grid=[[0, 0, 0, 0], [0, 0, 0, 0]]), "does not lead to its grid"),
    (saved(start=[[1, 1]]), "\"start\" must be an object"),
    (saved(seed=-1), "seed"),
    (saved(seed=False), "seed"),
    (saved(certificate=[[0, 0, 0]]), r"certificate move 1 must be \[r1, c1, r2, c2\]"),
    (saved(certificate=[[0, 0, 5, 5]]), "certificate move 1: point"),
    (saved(labels=[[1, "a"]]), "no label for an empty cell"),
    (saved(labels=[[0, None], [0, "a"]]), "appears twice"),
    (saved(labels=[[0, None], [1, "a"]]), "does not name"),
    (saved(labels=[[0, {"a": 1}]]), "a label is"),
    # Every NaN is one label (Board.from_labels), and a label's number is a cell's int32
    # (an edges audit: both were loaded).
    (saved(labels=[[0, None], [1, {"float": "nan"}], [2, {"float": "nan"}]]), "appears twice"),
    (saved(labels=[[0, None], [1, ["x", {"float": "nan"}]], [2, ["x", {"float": "nan"}]]]),
     "appears twice"),
    (saved(labels=[[0, None], [1, "a"], [2, "b"], [2**31, "c"]]), "not an int32"),
    (saved(labels=[[0, None], [1, "a"], [2, "b"], [-2**31 - 1, "c"]]), "not an int32"),
    # deep enough for a RecursionError, not for json's own "nested too deeply" (helper audit)
    (saved(labels=[[0, None], [1, "a"], [2, json.loads("[" * 600 + "]" * 600)]]), "nested more than 32"),
])
def test_malformed_or_newer_documents_raise_board_error(text, message):
    with pytest.raises(llk.BoardError, match=message):
        llk.Board.from_json(text)


def test_a_certificate_that_does_not_clear_its_position_is_refused():
    """A saved certificate promises its position can be cleared: the start's, a reshuffle's and
    the present one are replayed on load (helper audit, 2026-12-03: they were taken unread)."""
    for doc in [saved(certificate=[[0, 0, 0, 0]]),
                saved(certificate=[]),
                json.dumps({**json.loads(saved()), "start": {
                    **json.loads(saved())["start"], "certificate": [[0, 0, 0, 0]]}})]:
        with pytest.raises(llk.BoardError, match="clears no position of the game"):
            llk.Board.from_json(doc)
    # A board in memory cannot be given such a certificate (a helper's audit: to_json wrote
    # what from_json then refused, while pickle took it), nor a malformed one.
    lost = llk.Board([[1, 2], [2, 1]], rules=llk.Rules(border=False))
    with pytest.raises(ValueError, match="must clear the board's current position, or one"):
        lost.certificate = [((0, 0), (1, 1)), ((0, 1), (1, 0))]
    with pytest.raises(TypeError, match="moves must be a sequence"):
        lost.certificate = "garbage"
    assert lost.certificate is None
    kept = llk.Board([[1, 2], [1, 2]], rules=llk.Rules(border=False))
    kept.certificate = np.array([[0, 0, 1, 0], [0, 1, 1, 1]])
    assert kept.certificate == [((0, 0), (1, 0)), ((0, 1), (1, 1))]
    # Pickle copies a board in memory as it is (pickled data is trusted: it can run any code).
    assert pickle.loads(pickle.dumps(kept)).certificate == kept.certificate
    assert llk.Board.from_json(kept.to_json()).certificate == kept.certificate
    board = llk.generate(4, 4, seed=3)
    board.remove(*board.certificate[0])
    board.shuffle(seed=5)
    doc = json.loads(board.to_json())
    cert = doc["history"][1]["certificate"]
    doc["history"][1]["certificate"] = cert[:1] * len(cert)     # its first removal, again and again
    doc["certificate"] = doc["history"][1]["certificate"]
    with pytest.raises(llk.BoardError, match="certificate of history step 2 does not clear the "
                       "position its reshuffle made"):
        llk.Board.from_json(json.dumps(doc))


def test_a_certificate_given_twice_is_replayed_once(monkeypatch):
    """A dealt board played on saves its certificate as the start's and the present one: one
    replay proves both (it is the load's main cost on big boards)."""
    board = llk.generate(6, 6, seed=2)
    board.remove(*board.certificate[0])
    replays = []
    clears = llk.Board._clears_here
    monkeypatch.setattr(llk.Board, "_clears_here",
                        lambda self, moves, **kw: replays.append(1) or clears(self, moves, **kw))
    assert llk.Board.from_json(board.to_json()).certificate == board.certificate
    assert replays == [1]


@pytest.mark.parametrize("value", [True, 1.0])
def test_a_certificate_given_twice_is_read_strictly_both_times(value):
    """The present certificate equal to the start's is not read again; == takes True and 1.0
    for 1, which reading refuses, so such a copy is read and refused."""
    board = llk.Board([[1, 1, 0], [2, 2, 0]])
    board.certificate = [((0, 0), (0, 1)), ((1, 0), (1, 1))]
    board.remove((0, 0), (0, 1))
    board.undo()
    doc = json.loads(board.to_json())
    assert doc["certificate"] == doc["start"]["certificate"] == [[0, 0, 0, 1], [1, 0, 1, 1]]
    doc["certificate"][1][0] = value
    with pytest.raises(llk.BoardError, match="certificate move 2"):
        llk.Board.from_json(json.dumps(doc))


def test_a_certificate_set_by_hand_loads_when_it_clears_the_position_it_was_found_for():
    board = llk.generate(6, 6, solvable=False, seed=1)
    found = llk.solve(board, time_limit=5)
    assert found.verdict == llk.Verdict.SOLVABLE
    for a, b in found.moves[:3]:              # found for the present position, then played on
        board.remove(a, b)
    board.certificate = list(found.moves[3:])
    assert llk.Board.from_json(board.to_json()).certificate == board.certificate
    board.certificate = list(found.moves)     # found for the start, three removals ago
    again = llk.Board.from_json(board.to_json())
    assert again.certificate == board.certificate and again.history == board.history


def test_from_json_takes_text_only():
    with pytest.raises(TypeError, match="JSON text"):
        llk.Board.from_json({"format": "llkcore.board"})
    assert llk.Board.from_json(saved().encode()).shape == (2, 4)


def test_rules_to_dict_and_back():
    for rules in (llk.Rules(), llk.Rules(max_turns=0, border=False, gravity="left")):
        assert llk.Rules.from_dict(rules.to_dict()) == rules
    assert llk.Rules.from_dict({}) == llk.Rules()
    with pytest.raises(ValueError, match="unknown rules field"):
        llk.Rules.from_dict({"gravity": None, "diagonal": True})
    with pytest.raises(TypeError):
        llk.Rules.from_dict({"border": "yes"})


def test_indent_is_a_small_int():
    """Found by tests/fuzz: indent=2**80 raised OverflowError and a str indent was used as the
    indent text; indent is None or an int from 0 to 64."""
    board = llk.Board([[1, 1]])
    assert board.to_json(indent=2).startswith("{\n  ")
    for bad, error in ((2**80, ValueError), (-1, ValueError), (65, ValueError), ("\t", TypeError),
                       (2.0, TypeError), (True, TypeError)):
        with pytest.raises(error, match="indent"):
            board.to_json(indent=bad)


def test_labels_nest_as_deep_as_a_file_may_hold():
    """A label of tuples nested 32 deep saves and loads; one deeper cannot be saved (TypeError,
    as for any label JSON cannot hold), so every saved board loads again."""
    deep = "a"
    for _ in range(32):
        deep = (deep,)
    board = llk.Board.from_labels([[deep, deep]])
    assert llk.Board.from_json(board.to_json()).labels == board.labels
    with pytest.raises(TypeError, match="nested more than 32 deep"):
        llk.Board.from_labels([[(deep,), (deep,)]]).to_json()


def test_a_reshuffle_must_keep_the_multiset_and_the_history_must_lead_to_the_grid():
    """Two checks a mutation audit found untested by cases that tell them apart: a reshuffle with
    the same *set* of types but other counts (three 1s where there were two: the kernel's index
    has no room for it, so the check guards memory, not only meaning), and a history that leads
    to a grid with as many tiles as the saved one but other cells."""
    board = llk.Board([[1, 2, 1, 2], [3, 3, 4, 4]])
    board.shuffle(solvable=False, seed=3)
    doc = json.loads(board.to_json())
    doc["history"][0]["shuffle"] = [1, 1, 1, 2, 3, 3, 4, 4]
    doc["grid"] = [[1, 1, 1, 2], [3, 3, 4, 4]]
    with pytest.raises(llk.BoardError, match="not the same multiset"):
        llk.Board.from_json(json.dumps(doc))
    board = llk.Board([[1, 2, 1, 2], [3, 3, 4, 4]])
    board.remove((0, 0), (0, 2))
    doc = json.loads(board.to_json())
    doc["grid"] = [[0, 3, 0, 3], [2, 2, 4, 4]]          # 6 tiles, as the replay leaves
    with pytest.raises(llk.BoardError, match="does not lead to its grid"):
        llk.Board.from_json(json.dumps(doc))


def test_a_game_of_many_reshuffles_loads_with_one_replay_per_certificate(monkeypatch):
    """An edges audit: a document of K reshuffles with distinct certificates loaded in ~K**3
    (each certificate replayed on every position of its tile count, on a copy of the board and
    its history each time): 400 reshuffles of a 6 x 6 deal took 0.54 s, 2,000 of a hostile
    file 56 s. A reshuffle's certificate is now replayed once, on the position it was made for,
    and the walk for the start's and the present certificate replays on itself."""
    board = llk.generate(6, 6, seed=1)
    board.remove(*board.certificate[0])
    for seed in range(150):
        board.shuffle(seed=seed)
    board.undo()
    text = board.to_json()
    copies, replays = [], []
    work_copy, clears_here = llk.Board._work_copy, llk.Board._clears_here
    monkeypatch.setattr(llk.Board, "_work_copy", lambda self: copies.append(1) or work_copy(self))
    monkeypatch.setattr(llk.Board, "_clears_here",
                        lambda self, moves, **kw: replays.append(len(moves))
                        or clears_here(self, moves, **kw))
    again = llk.Board.from_json(text)
    assert again.certificate == board.certificate and again.redo() and again.undo()
    assert len(copies) <= 2     # the start's check and the walk: none a step
    # 150 reshuffles, each replayed once; a certificate the start's check leaves is tried on the
    # 151 positions of its tile count until it clears one; the present one likewise.
    assert len(replays) <= 150 + 2 * 151


def test_a_reshuffle_certificate_must_clear_the_position_it_was_made_for():
    """Board.shuffle gives the board the certificate of the position it makes, and that is what
    a saved reshuffle step holds; a file whose step holds another position's certificate (one
    that clears a later position only) is refused: it makes a promise the game never made."""
    pairs = [[[1, 1, 2, 2], [3, 3, 4, 4]], [[1, 2, 1, 2], [3, 4, 3, 4]]]
    adjacent = [[0, 0, 0, 1], [0, 2, 0, 3], [1, 0, 1, 1], [1, 2, 1, 3]]
    doc = {"format": "llkcore.board", "version": 1, "grid": pairs[0],
           "rules": {"max_turns": 2, "border": True, "gravity": None}, "certificate": None,
           "seed": None, "labels": None, "start": {"grid": pairs[0], "certificate": adjacent},
           "history": [{"shuffle": sum(pairs[1], []), "certificate": adjacent},
                       {"shuffle": sum(pairs[0], []), "certificate": adjacent}], "redo": []}
    with pytest.raises(llk.BoardError, match="certificate of history step 1 does not clear"):
        llk.Board.from_json(json.dumps(doc))
    doc["history"][0]["certificate"] = [[0, 0, 0, 2], [0, 1, 0, 3], [1, 0, 1, 2], [1, 1, 1, 3]]
    assert llk.Board.from_json(json.dumps(doc)).grid.tolist() == pairs[0]


def test_a_replay_tests_links_and_searches_no_path(monkeypatch):
    """An audit: each replayed removal (a history step, a certificate's move) searched the best
    path, which covers a big sparse board: a 6 MB document of 1,000 reshuffles of four tiles in
    the corners of 1024 x 1024 loaded in 52 s (0.19 s now), at three turns 130 ms a step. A
    replay needs only the link test (and above two turns the two-turn sweep is tried first)."""
    n = 64
    grid = [[0] * n for _ in range(n)]
    grid[0][0] = grid[n - 1][n - 1] = 1
    grid[0][n - 1] = grid[n - 1][0] = 2
    board = llk.Board(grid, rules=llk.Rules(max_turns=3))
    board.certificate = [((0, 0), (n - 1, n - 1)), ((0, n - 1), (n - 1, 0))]
    board.remove((0, 0), (n - 1, n - 1))
    text = board.to_json()
    asked = []
    monkeypatch.setattr(llk.Board, "remove", lambda *args: pytest.fail("remove() in a replay"))
    real = llk.Board._remove
    monkeypatch.setattr(llk.Board, "_remove",
                        lambda self, a, b, with_path: asked.append(with_path) or real(self, a, b, with_path))
    again = llk.Board.from_json(text)
    assert asked == [False] and again.history == board.history
    assert again.certificate == board.certificate


def test_a_certificate_whose_position_a_later_removal_dropped_is_not_saved(monkeypatch):
    """An audit: a certificate set by hand for a position, then an undo and another removal
    (which drops the undone positions), was saved as the present and the start certificate,
    and from_json refused the file: 19 of 600 random games. to_json now checks them on a board
    where a removal dropped undone steps, and leaves out one that clears no position."""
    board = llk.generate(4, 4, seed=1)
    first = board.hint()
    board.remove(*first)
    board.certificate = llk.solve(board, time_limit=5).moves    # clears this position only
    board.undo()
    board.remove(*[m for m in board.moves() if set(m) != set(first)][0])
    for text in (board.to_json(), pickle.loads(pickle.dumps(board)).to_json()):
        doc = json.loads(text)
        assert doc["certificate"] is None and doc["start"]["certificate"] is None
        again = llk.Board.from_json(text)
        assert again.certificate is None and again.history == board.history
    # A board where no removal dropped undone steps is saved without that check.
    checks = []
    real = saving.uncleared
    monkeypatch.setattr(saving, "uncleared", lambda *args: checks.append(1) or real(*args))
    dealt = llk.generate(6, 6, seed=2)
    dealt.remove(*dealt.certificate[0])
    dealt.undo()
    dealt.redo()
    assert json.loads(dealt.to_json())["certificate"] is not None and checks == []


def test_a_certificate_whose_position_a_reshuffle_after_undo_dropped_is_not_saved():
    """An audit: a reshuffle after an undo drops the undone positions as a removal does, but
    did not mark the board so: a certificate set by hand for an undone position was saved as the
    start's, and from_json refused the file (7 of 3,000 random games)."""
    board = llk.Board([[1, 1], [1, 1]])
    board.remove((1, 0), (1, 1))
    board.certificate = [((0, 0), (0, 1))]      # clears this position only
    board.undo()
    board.shuffle(seed=1, solvable=False)
    doc = json.loads(board.to_json())
    assert doc["start"]["certificate"] is None and doc["certificate"] is None
    again = llk.Board.from_json(board.to_json())
    assert again.grid.tolist() == board.grid.tolist() and again.certificate is None
    assert again.undo() and again.grid.tolist() == [[1, 1], [1, 1]]


def test_what_loading_would_refuse_is_refused_when_saving():
    """An audit: a negative board.seed was written by to_json (and pickled) and then refused
    on load (a board a process pool could pickle but not unpickle); an int label of more than
    4,300 digits made to_json raise Python's own ValueError. Both are refused when saving."""
    board = llk.Board([[1, 1]])
    board.seed = -3
    for save in (board.to_json, lambda: pickle.dumps(board)):
        with pytest.raises(ValueError, match="seed must be an int >= 0"):
            save()
    board.seed = 2**70
    assert llk.Board.from_json(board.to_json()).seed == 2**70
    huge = llk.Board.from_labels([[10**4400, 10**4400]])
    with pytest.raises(TypeError, match="cannot be saved as JSON"):
        huge.to_json()
    long = llk.Board.from_labels([[10**3800, 10**3800]])
    assert llk.Board.from_json(long.to_json()).labels == long.labels


@pytest.mark.parametrize("gravity", [None, "down"])
def test_a_pickle_ships_the_board_s_certificate_once_as_an_array(gravity):
    """Pickling wrote the certificate as lists twice (the start's and the present one, one
    certificate) and unpickling checked it move by move: 1.2 s out and 2.6 s back for a
    1024 x 1024 deal with gravity. The board's own certificate now goes as one (k, 4) array
    made from its cells, and comes back as the one certificate it was, followed as before."""
    board = llk.generate(12, 10, seed=3, rules=llk.Rules(gravity=gravity))
    for a, b in board.certificate[:3]:
        board.remove(a, b)
    board.undo()
    board.winnable(time_limit=0)            # (its cells are made; a deal's come with it anyway)
    document = board.__reduce__()[1][0]
    present, start = document["certificate"], document["start"]["certificate"]
    assert isinstance(present, np.ndarray) and present is start and present.shape == (60, 4)
    again = pickle.loads(pickle.dumps(board))
    assert again.certificate == board.certificate and again.history == board.history
    assert again.grid.tolist() == board.grid.tolist()
    assert again._certificate_done() == board._certificate_done() == 2
    assert again.redo() and again.grid.tolist() == (board.redo() and board.grid).tolist()
    assert json.loads(again.to_json()) == json.loads(board.to_json())   # lists in JSON still
    # The array is checked on the way in as a list would be.
    bad = dict(document, certificate=present + np.array([0, 0, 99, 0], dtype=np.int32))
    with pytest.raises(llk.BoardError, match="array of points on the board"):
        saving.restore(bad, llk.Board, check_certificates=False)
