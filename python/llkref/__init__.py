"""llkref: the pure-Python reference engine for 连连看 (Link-up / Onet / Shisen-Sho).

The readable specification of the rules, the test oracle for llkcore, and the slow benchmark
baseline. Plain lists, dicts and collections.deque; no third-party imports; never tuned.

Grids are lists of lists of ints: 0 empty, > 0 a tile type, < 0 a wall. Coordinates are
(row, col), 0-based. Rules are keywords: max_turns (default 2), border (default True: a virtual
empty ring surrounds the board), gravity (None, "down", "up", "left", "right").
"""

from .board import Board, apply_gravity, hint, moves, tile_index, verify
from .generate import kshisen_generate, random_deal
from .link import can_link, find_path, path_length, path_turns
from .solve import greedy_freedom, greedy_mobility, hopcroft_karp, matching, solve_exhaustive

__all__ = [
    "Board",
    "apply_gravity",
    "can_link",
    "find_path",
    "greedy_freedom",
    "greedy_mobility",
    "hint",
    "hopcroft_karp",
    "kshisen_generate",
    "matching",
    "moves",
    "path_length",
    "path_turns",
    "random_deal",
    "solve_exhaustive",
    "tile_index",
    "verify",
]
