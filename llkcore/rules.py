"""Rules: the variant of the game a board is played under."""
from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Optional

import numpy as np

#: Gravity directions; None means tiles never move.
GRAVITIES = (None, "down", "up", "left", "right")
# Codes the kernels use (grid.pxd GRAVITY_*).
GRAVITY_CODES = {None: 0, "down": 1, "up": 2, "left": 3, "right": 4}


@dataclass(frozen=True)
class Rules:
    """A rule variant (frozen, hashable).

    max_turns: turns a linking path may make (0 straight only, 2 the classic game, 3+ "三折").
    border: True lets paths run round the board through one ring of empty cells outside it
        (Shisen-Sho, Onet); False keeps them inside (QQ 连连看, HDU 1175).
    gravity: None, "down", "up", "left" or "right": after each removal tiles slide that way
        inside their wall-bounded segment.
    """

    max_turns: int = 2
    border: bool = True
    gravity: Optional[str] = None

    def __post_init__(self) -> None:
        if isinstance(self.max_turns, bool):
            raise TypeError("Rules.max_turns must be an int, not bool")
        try:
            turns = operator.index(self.max_turns)
        except TypeError:
            raise TypeError(f"Rules.max_turns must be an int, got {type(self.max_turns).__name__}") from None
        if turns < 0:
            raise ValueError(f"Rules.max_turns must be >= 0, got {turns}")
        if turns > 2**31 - 1:
            raise ValueError(f"Rules.max_turns must fit in int32, got {turns}")
        object.__setattr__(self, "max_turns", int(turns))
        if not isinstance(self.border, (bool, np.bool_)):
            raise TypeError(f"Rules.border must be a bool, got {type(self.border).__name__}")
        object.__setattr__(self, "border", bool(self.border))
        if self.gravity not in GRAVITY_CODES:
            raise ValueError(f"Rules.gravity must be one of {GRAVITIES}, got {self.gravity!r}")

    @property
    def gravity_code(self) -> int:
        return GRAVITY_CODES[self.gravity]


DEFAULT_RULES = Rules()


def as_rules(rules: Optional[Rules]) -> Rules:
    """The rules to use for a call: the default when None, else a Rules instance."""
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be llkcore.Rules or None, got {type(rules).__name__}")
    return rules
