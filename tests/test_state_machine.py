"""State machine: llkcore.Board driven side by side with the model llkref.Board.

Each run picks rules (every gravity, border on/off, max_turns 1-3) and a board, then applies
random steps to one of up to three sessions (a session is an llkcore.Board and its llkref model;
copy() forks a session): legal removals, arbitrary (mostly illegal) removals, undo, redo, copy.
After every step every session must show its model's position: grid, index and moves; an illegal
removal must raise IllegalMove and change nothing.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import llkcore as llk
import llkref
from conftest import (assert_path_matches_ref, assert_same_position, assert_unchanged, deals,
                      examples, grids, ref_kwargs, rules_st, snapshot)

MAX_SESSIONS = 3


class BoardMachine(RuleBasedStateMachine):
    @initialize(grid=st.one_of(deals(min_side=3, max_side=6, min_fill=0.5), deals(max_side=6), grids(max_side=5)),
                r=rules_st(gravity=True, turns=(1, 2, 3)))
    def start(self, grid, r):
        self.rules = r
        self.sessions = [(llk.Board(grid, rules=r), llkref.Board(grid, **ref_kwargs(r, gravity=True)))]
        self.touched = self.sessions[0]

    def pick(self, data):
        return self.sessions[data.draw(st.integers(0, len(self.sessions) - 1), label="session")]

    # One rule with a weighted choice of action, rather than one rule per action: hypothesis's
    # swarm testing would otherwise switch legal removals off in about half of the runs.
    ACTIONS = ["remove_legal"] * 5 + ["remove_any"] * 2 + ["undo"] * 2 + ["redo", "undo_all", "fork"]

    @rule(data=st.data())
    def step(self, data):
        action = data.draw(st.sampled_from(self.ACTIONS), label="action")
        session = self.pick(data)
        self.touched = session
        getattr(self, action)(data, *session)

    def remove_legal(self, data, core, ref):
        moves = ref.moves()
        if not moves:
            assert core.moves() == [] and core.hint() is None
            return
        a, b = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        if data.draw(st.booleans(), label="swap"):
            a, b = b, a
        before = ref.grid
        path = core.remove(a, b)
        assert_path_matches_ref(before, path, a, b, self.rules)
        assert ref.remove(a, b) is not None
        assert core.history[-1] == (a, b)

    def remove_any(self, data, core, ref):
        """Any two cells, sometimes off the board: legal iff the model says so."""
        rows, cols = core.shape
        a = (data.draw(st.integers(-1, rows), label="r1"), data.draw(st.integers(-1, cols), label="c1"))
        b = (data.draw(st.integers(-1, rows), label="r2"), data.draw(st.integers(-1, cols), label="c2"))
        try:
            ref_path = ref.remove(a, b)
        except ValueError:
            before = snapshot(core)
            with pytest.raises(llk.IllegalMove):
                core.remove(a, b)
            assert_unchanged(core, before)
        else:
            assert core.remove(a, b) is not None and ref_path is not None

    def undo(self, data, core, ref):
        assert core.undo() is ref.undo()

    def redo(self, data, core, ref):
        assert core.redo() is ref.redo()

    def undo_all(self, data, core, ref):
        """Undo everything, then redo it all."""
        steps = 0
        while core.undo():
            assert ref.undo()
            steps += 1
        assert not ref.undo() and core.history == []
        assert core.grid.tolist() == ref.grid
        for _ in range(steps):
            assert core.redo() and ref.redo()

    def fork(self, data, core, ref):
        """copy() a session into a new one (independent from then on); at the limit, drop one."""
        if len(self.sessions) < MAX_SESSIONS:
            twin = core.copy()
            assert twin.history == core.history and twin.rules == core.rules
            self.sessions.append((twin, ref.copy()))
        else:
            self.sessions.pop(data.draw(st.integers(0, len(self.sessions) - 1), label="drop"))

    @invariant()
    def every_session_matches_its_model(self):
        # The session the step acted on in full (moves against llkref), the others cheaply.
        core, ref = self.touched
        assert_same_position(core, ref)
        hint = core.hint()
        assert (hint is None) is (not core.moves())
        assert hint is None or hint in core.moves()
        for core, ref in self.sessions:
            assert core.grid.tolist() == ref.grid
            assert core.index.as_dict() == ref.index()
        # Sessions never share cells.
        for i, (x, _) in enumerate(self.sessions):
            for y, _ in self.sessions[i + 1:]:
                assert not np.shares_memory(x.grid, y.grid)


BoardMachine.TestCase.settings = settings(max_examples=examples(120), stateful_step_count=50,
                                          deadline=None)
TestBoardMachine = BoardMachine.TestCase
