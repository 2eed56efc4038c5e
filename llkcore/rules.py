"""Rules: the variant of the game a board is played under."""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Dict, Mapping, Optional

from ._core.state import GRAVITY_CODES
from .checks import flag, integer

#: Gravity directions; None means tiles never move.
GRAVITIES = (None, "down", "up", "left", "right")


@dataclass(frozen=True)
class Rules:
    """A rule variant (frozen, hashable).

    max_turns: turns a linking path may make (0 straight only, 2 the classic game, 3+ "三折").
    border: True lets paths run round the board through one ring of empty cells outside it
        (Shisen-Sho, Onet); False keeps them inside (QQ 连连看, HDU 1175).
    gravity: None, "down", "up", "left" or "right": after each removal tiles slide that way
        inside their wall-bounded segment. "none", the command line's word, is taken as None.
    """

    max_turns: int = 2
    border: bool = True
    gravity: Optional[str] = None

    def __post_init__(self) -> None:
        turns = integer(self.max_turns, "Rules.max_turns", low=0, high=2**31 - 1)
        object.__setattr__(self, "max_turns", turns)
        object.__setattr__(self, "border", flag(self.border, "Rules.border"))
        if isinstance(self.gravity, str) and self.gravity == "none":
            # `llk --gravity none` writes it, so a hand-written file may too.
            object.__setattr__(self, "gravity", None)
        if not (self.gravity is None or isinstance(self.gravity, str)) or self.gravity not in GRAVITY_CODES:
            raise ValueError(f"Rules.gravity must be one of {GRAVITIES} or 'none', got "
                             f"{self.gravity!r}")

    @property
    def gravity_code(self) -> int:
        """The kernels' code of ``gravity`` (GRAVITY_CODES)."""
        return GRAVITY_CODES[self.gravity]

    def to_dict(self) -> Dict[str, Any]:
        """``{"max_turns": ..., "border": ..., "gravity": ...}``, as files store the rules."""
        return {"max_turns": self.max_turns, "border": self.border, "gravity": self.gravity}

    @classmethod
    def from_dict(cls, fields: Any) -> "Rules":
        """Rules from ``to_dict``'s form (fields left out keep their defaults); a non-dict or an
        unknown field raises ValueError, a bad value what the constructor raises."""
        if not isinstance(fields, dict):
            raise ValueError(f"rules must be an object of max_turns, border and gravity, got "
                             f"{type(fields).__name__}")
        unknown = sorted(set(fields) - {"max_turns", "border", "gravity"}, key=str)
        if unknown:
            raise ValueError(f"unknown rules field(s) {unknown}")
        return cls(**fields)

    @classmethod
    def preset(cls, name: str) -> "Rules":
        """The rules of a named game (see PRESETS), e.g. ``Rules.preset("qq")``."""
        if not isinstance(name, str) or name not in PRESETS:
            raise ValueError(f"unknown rules preset {name!r}; choose one of {tuple(PRESETS)}")
        return PRESETS[name]


DEFAULT_RULES = Rules()

#: Named rule sets of common games, so callers need not know what ``border`` means.
PRESETS: Mapping[str, Rules] = MappingProxyType({
    # Shisen-Sho, Onet, Link-up: two turns, paths may run round the outside of the board.
    "classic": DEFAULT_RULES,
    "shisen-sho": DEFAULT_RULES,
    "onet": DEFAULT_RULES,
    # KShisen's default game: the classic rules, and tiles fall down after each removal.
    "kshisen": Rules(gravity="down"),
    # QQ 连连看 and the HDU 1175 judge problem: two turns, paths stay inside the board.
    "qq": Rules(border=False),
    "hdu1175": Rules(border=False),
})     # read-only: a changed preset would change every later Rules.preset of the process


def as_rules(rules: Optional[Rules]) -> Rules:
    """The rules to use for a call: the default when None, else a Rules instance."""
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, Rules):
        hint = (f"; for a preset write llk.Rules.preset({rules!r})" if isinstance(rules, str)
                else "")
        raise TypeError(f"rules must be llkcore.Rules or None, got {type(rules).__name__}{hint}")
    return rules
