"""A user's script of the public API, for tests/test_typing.py: it runs, and `mypy --strict`
accepts it with every public call's type exact (``assert_type`` fails on Any, too)."""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

import llkcore as llk
from llkcore.deals import Deals

Point = Tuple[int, int]
Move = Tuple[Point, Point]

grid = [[1, 2, 0, 1], [3, 3, 2, 0], [0, 4, 0, 4]]
assert_type(llk.can_link(grid, (0, 0), (0, 3)), bool)
assert_type(llk.find_path(grid, (0, 0), (0, 3)), Optional[List[Point]])
assert_type(llk.moves(grid), List[Move])
assert_type(llk.moves(grid, with_turns=True), List[Tuple[Point, Point, int]])
assert_type(llk.hint(grid), Optional[Move])
assert_type(llk.__version__, str)

board = llk.Board(grid, rules=llk.Rules(max_turns=2, border=True))
assert_type(board.grid, npt.NDArray[np.int32])
assert_type(board.moves(), List[Move])
assert_type(board.moves(with_turns=True), List[Tuple[Point, Point, int]])
assert_type(board.moves_array(with_turns=True), npt.NDArray[np.int32])
assert_type(board.can_link_many([[0, 0, 0, 3]]), npt.NDArray[np.bool_])
assert_type(board.hint(), Optional[Move])
safe = assert_type(board.hint(safe=True), Optional[llk.Hint])
if safe is not None:
    assert_type(safe.safe, bool)
    assert_type(safe.verdict, llk.Verdict)
    assert_type(safe[0], Point)                 # a Hint is a typed pair of points, not Any
assert_type(board.remove((1, 0), (1, 1)), List[Point])
assert_type(board.undo(), bool)
assert_type(board.index.counts(), Dict[int, int])
assert_type(board.winnable(), llk.Verdict)
assert_type(board.traps(), llk.Traps)
for trap in board.traps():
    assert_type(trap, Move)
assert_type(llk.Board.from_json(board.to_json()), llk.Board)


class BotBoard(llk.Board):
    """A subclass keeps its class through copies, loads and parses, in its types too."""


bot = BotBoard(grid)
assert_type(bot.copy(), BotBoard)
assert_type(BotBoard.from_json(bot.to_json()), BotBoard)
assert_type(BotBoard.from_text(bot.to_text()), BotBoard)
assert_type(BotBoard.from_labels([["a", "a"]]), BotBoard)

deal = llk.generate(8, 18, seed=7)
solution = assert_type(llk.solve(deal, time_limit=1.0), llk.Solution)
assert_type(solution.verdict, llk.Verdict)
if solution.moves is not None:
    assert_type(llk.verify(deal, solution.moves), bool)
rating = assert_type(llk.rate(deal), llk.Rating)
assert_type(rating.score, float)
assert_type(llk.rate(deal, time_limit=0.5).complete, bool)
for dealt in Deals(2, 4, count=2, seed=1):
    assert_type(dealt, llk.Board)
result = assert_type(llk.analyze([deal], time_limit=1.0), llk.Analysis)
assert_type(result.verdict, npt.NDArray[np.int8])
assert_type(llk.render.svg(deal), str)
