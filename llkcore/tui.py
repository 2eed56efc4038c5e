"""The terminal game behind ``llk play`` (docs/architecture.md, "Play-time insight").

``Game`` is the game without a terminal: actions in (``handle``), the screen out as text lines
and cell styles (``screen``), so tests can drive it directly. ``play(screen, game)`` is the
curses loop: it turns keys into actions and draws the lines. Curses comes from the standard
library and is imported only there.

The screen: a title, the column numbers, the board inside a ring of blank cells (paths may run
through it when the rules have a border), then a status line (tiles left, moves available,
"still winnable: yes / no / unknown"), a message line and the keys. Every cell is three
characters wide: `` A `` a tile (types 1, 2, ... shown as A-Z, a-z, 0-9, then two characters),
`` . `` empty, ``###`` a wall; ``[A]`` the selected tile, ``{A}`` the two tiles of a hint;
after a removal its path is drawn with ``-``, ``|`` and ``+`` and the removed tiles as
``(A)`` until the next key (without gravity: with it, tiles slide into those cells at once, and
the message line alone says what was removed).
"""
from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional, Tuple

from .board import Board
from .checks import room, seconds as check_seconds
from .coords import Point, size_words
from .errors import DealError, IllegalMove
from .render import _path_marks     # the path's cells and directions, as render.text draws them
from .verdict import Verdict

#: Labels of tile types 1..62; larger types get two characters.
SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
#: Screen columns per cell, and before the ring (row numbers).
CELL = 3
LEFT = 4
#: The keys, on two lines that fit MIN_WIDTH.
KEYS_HELP = ("arrows+space or row,col+enter: select   h hint   q quit",
             "u undo   r redo   s reshuffle")
#: Lines above the ring (title, column numbers) and below it (status, message, keys).
TOP = 2
BOTTOM = 2 + len(KEYS_HELP)
#: Narrowest screen the status and keys lines are whole in (curses leaves the last column):
#: "tiles left: 144  moves available: 100  still winnable: unknown" is 62 characters.
MIN_WIDTH = 64

# The text of "still winnable" for each verdict (None: not asked yet).
_WINNABLE = {Verdict.SOLVABLE: "yes", Verdict.UNSOLVABLE: "no", Verdict.UNKNOWN: "unknown",
             None: "..."}
_MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
_TYPED = re.compile(r"^\s*(-?\d+)[\s,]+(-?\d+)(?:[\s,]+(-?\d+)[\s,]+(-?\d+))?\s*$")


def label(value: int) -> str:
    """The screen label of a tile type (two characters at most for types up to 62 * 63)."""
    if value <= len(SYMBOLS):
        return SYMBOLS[value - 1]
    hi, lo = divmod(value - 1, len(SYMBOLS))
    return (SYMBOLS[(hi - 1) % len(SYMBOLS)] + SYMBOLS[lo]) if hi <= len(SYMBOLS) else "**"


class Game:
    """One game of ``llk play``: the board, the cursor, the selection and what to show.

    ``title``: the first screen line. ``time_limit``: seconds for each winnability check and
    hint (positive, or None for no limit).
    """

    def __init__(self, board: Board, *, title: str = "", time_limit: Optional[float] = 0.5) -> None:
        self.board = board
        self.title = title
        self.time_limit = check_seconds(time_limit, "time_limit", positive=True)
        self.cursor: Point = (0, 0)
        self.selected: Optional[Point] = None
        self.hint: Optional[Tuple[Point, Point]] = None
        self.path: Optional[List[Point]] = None     # the last removal's path, until the next key
        self.removed: Dict[Point, int] = {}         # ... and its two tiles
        self.typed = ""                             # coordinates being typed
        self.message = "select two tiles of one type that a path with at most " \
                       f"{board.rules.max_turns} turn(s) joins"
        self.verdict: Optional[Verdict] = None      # None: to be checked (see refresh)
        self.moves_left = 0
        self.refresh_counts()

    # ---- size -------------------------------------------------------------------------------

    def needed(self) -> Tuple[int, int]:
        """(lines, columns) the screen needs."""
        return (TOP + self.board.rows + 2 + BOTTOM,
                max(LEFT + CELL * (self.board.cols + 2), MIN_WIDTH))

    def check_room(self, lines: int, columns: int) -> None:
        """ValueError with what to do when a lines x columns screen cannot show the game."""
        need_lines, need_columns = self.needed()
        # A smaller board helps unless the screen is narrower than any game needs.
        smaller = lines < need_lines or need_columns > max(columns, MIN_WIDTH)
        room((need_lines, need_columns), (lines, columns),
             f"the board of {size_words(self.board.rows, self.board.cols)}",
             "enlarge the window" + (", or play a smaller board (e.g. llk play 6x8)" if smaller
                                     else "") + "; q quits")

    # ---- actions ----------------------------------------------------------------------------

    def handle(self, action: str) -> bool:
        """Apply one action: "up", "down", "left", "right", "select", "backspace", "cancel",
        or a typed character. Returns False when the game should end ("q")."""
        if self.path is not None:
            self.path = None
            self.removed = {}
        if action in _MOVES:
            dr, dc = _MOVES[action]
            r, c = self.cursor
            self.cursor = (min(max(r + dr, 0), self.board.rows - 1),
                           min(max(c + dc, 0), self.board.cols - 1))
        elif action == "select":
            if self.typed.strip():
                self.enter_typed()
            else:
                self.typed = ""
                self.select(self.cursor)
        elif action == "backspace":
            self.typed = self.typed[:-1]
        elif action == "cancel":
            self.typed = ""
            self.selected = None
            self.message = ""
        elif len(action) == 1 and (action.isdigit() or action in ", -"):
            if action == " " and not self.typed:
                self.select(self.cursor)
            else:
                self.typed += action
        elif action == "q":
            return False
        elif action == "h":
            self.show_hint()
        elif action == "u":
            self.step(self.board.undo(), "undone", "nothing to undo")
        elif action == "r":
            self.step(self.board.redo(), "redone", "nothing to redo")
        elif action == "s":
            self.shuffle()
        return True

    def enter_typed(self) -> None:
        text, self.typed = self.typed, ""
        m = _TYPED.match(text)
        if not m:
            self.message = f"{text.strip()!r}: type row,col (or r1,c1,r2,c2) then enter"
            return
        values = [int(v) for v in m.groups() if v is not None]
        points = [(values[i], values[i + 1]) for i in range(0, len(values), 2)]
        for r, c in points:
            if not (0 <= r < self.board.rows and 0 <= c < self.board.cols):
                self.message = (f"({r}, {c}) is off the board of "
                                f"{size_words(self.board.rows, self.board.cols)}")
                return
        if len(points) == 2:
            self.selected = None
        for p in points:
            self.cursor = p
            self.select(p)

    def select(self, p: Point) -> None:
        value = int(self.board.grid[p])
        if value <= 0:
            self.message = f"{p} is {'empty' if value == 0 else 'a wall'}"
            self.selected = None
            return
        if self.selected is None or self.selected == p:
            self.selected = None if self.selected == p else p
            self.message = f"selected {p} {label(value)}: now its twin" if self.selected else ""
            return
        a, self.selected = self.selected, None
        first = int(self.board.grid[a])
        if 0 < first != value:
            # Said here with the screen's labels (the Board's message names type numbers).
            self.selected = p
            self.message = (f"not removable: {a} {label(first)} and {p} {label(value)} are not "
                            f"the same type; selected {p} {label(value)}")
            return
        try:
            path = self.board.remove(a, p)
        except IllegalMove as exc:
            self.selected = p
            self.message = f"not removable: {exc}; selected {p} {label(value)}"
            return
        if self.board.rules.gravity is None:
            self.path = path
            self.removed = {a: value, p: value}
        # (With gravity, tiles have slid into the path's cells: drawn there, it would join them.)
        self.hint = None
        self.message = f"removed {label(value)} {a} and {p}"
        self.changed()
        if self.board.is_clear():
            self.message = "board cleared: you won! q quits"
        elif self.board.is_stuck():
            self.message = "no moves left: u undoes, s reshuffles"

    def show_hint(self) -> None:
        hint = self.board.hint(safe=True, time_limit=self.time_limit)
        if hint is None:
            self.message = "no hint: " + ("the board is clear" if self.board.is_clear()
                                          else "no pair can be removed (u undoes, s reshuffles)")
            return
        a, b = hint
        self.hint = (a, b)
        self.cursor = a
        why = {Verdict.SOLVABLE: "safe: the game stays winnable",
               Verdict.UNSOLVABLE: "not safe: the game can no longer be won",
               Verdict.UNKNOWN: "not proved safe in time"}[hint.verdict]
        self.message = f"hint: {a} and {b} ({why})"

    def step(self, done: bool, yes: str, no: str) -> None:
        self.message = yes if done else no
        if done:
            self.selected = None
            self.hint = None
            self.changed()

    def shuffle(self) -> None:
        if self.board.is_clear():
            self.message = "nothing to reshuffle: the board is clear (q quits)"
            return
        try:
            self.board.shuffle(solvable=True)
        except DealError as exc:
            self.message = f"no reshuffle: {exc}"
            return
        self.message = "reshuffled: the tiles left can be cleared (u undoes)"
        self.selected = None
        self.hint = None
        self.changed()

    # ---- status -----------------------------------------------------------------------------

    def changed(self) -> None:
        """The position changed: counts now, the winnability check at the next refresh."""
        self.verdict = None
        self.refresh_counts()

    def refresh_counts(self) -> None:
        self.moves_left = int(self.board.moves_array().shape[0])

    def refresh(self) -> None:
        """Decide whether the position can still be won (cached by position: cheap when asked
        again)."""
        if self.verdict is None:
            self.verdict = self.board.winnable(time_limit=self.time_limit)

    def status(self) -> str:
        return (f"tiles left: {self.board.tiles_left}  moves available: {self.moves_left}  "
                f"still winnable: {_WINNABLE[self.verdict]}")

    # ---- the screen -------------------------------------------------------------------------

    def cell_text(self, r: int, c: int, marks: Dict[Point, set]) -> Tuple[str, str]:
        """(three characters, style) of the display cell (r, c); the ring is r or c = -1 / size.

        Styles: "" plain, "wall", "empty", "path", "removed", "selected", "hint", or "tile:N"
        (N the type); the cursor is drawn by the caller."""
        rows, cols = self.board.rows, self.board.cols
        value = int(self.board.grid[r, c]) if 0 <= r < rows and 0 <= c < cols else 0
        p = (r, c)
        if value == 0 and p in self.removed:
            return f"({label(self.removed[p])[:1]})", "removed"
        if value == 0 and p in marks:
            dirs = marks[p]
            centre = "|" if dirs <= {"n", "s"} else "-" if dirs <= {"e", "w"} else "+"
            return ("-" if "w" in dirs else " ") + centre + ("-" if "e" in dirs else " "), "path"
        if not (0 <= r < rows and 0 <= c < cols):
            return "   ", ""
        if value < 0:
            return "###", "wall"
        if value == 0:
            return " . ", "empty"
        text = label(value)
        if p == self.selected:
            return f"[{text[:1]}]" if len(text) == 1 else f"[{text}"[:3], "selected"
        if self.hint is not None and p in self.hint:
            return f"{{{text[:1]}}}" if len(text) == 1 else f"{{{text}"[:3], "hint"
        return f" {text} " if len(text) == 1 else f" {text}", f"tile:{value}"

    def screen(self) -> List[Tuple[str, List[Tuple[int, int, str]]]]:
        """The lines to show, each with its styled spans (x, width, style)."""
        rows, cols = self.board.rows, self.board.cols
        marks = _path_marks(self.path) if self.path else {}
        lines: List[Tuple[str, List[Tuple[int, int, str]]]] = [(self.title, [])]
        header = " " * (LEFT + CELL) + "".join(f"{c:>2} " for c in range(cols))
        lines.append((header, []))
        for r in range(-1, rows + 1):
            text = f"{r:>3} " if 0 <= r < rows else " " * LEFT
            spans = []
            for c in range(-1, cols + 1):
                cell, style = self.cell_text(r, c, marks)
                if (r, c) == self.cursor:
                    style = "cursor"
                if style:
                    spans.append((len(text), CELL, style))
                text += cell
            lines.append((text.rstrip(), spans))
        lines.append((self.status(), []))
        typed = f"   typed: {self.typed}_" if self.typed else ""
        lines.append((self.message + typed, []))
        lines.extend((keys, []) for keys in KEYS_HELP)
        return lines

    def text(self) -> str:
        """The screen as plain text (what a terminal shows, without colours)."""
        return "\n".join(line for line, _ in self.screen()) + "\n"


# ---- curses -------------------------------------------------------------------------------------

def play(stdscr: Any, game: Game) -> None:
    """Run ``game`` on a curses screen until the player quits (Ctrl-C: KeyboardInterrupt)."""
    import curses

    try:
        curses.curs_set(0)
    except curses.error:
        pass
    stdscr.keypad(True)
    colours = _colours(curses)
    special = {curses.KEY_UP: "up", curses.KEY_DOWN: "down", curses.KEY_LEFT: "left",
               curses.KEY_RIGHT: "right", curses.KEY_ENTER: "select",
               curses.KEY_BACKSPACE: "backspace", "\n": "select", "\r": "select",
               "\x7f": "backspace", "\b": "backspace", "\x1b": "cancel"}
    while True:
        fits = _draw(curses, stdscr, game, colours)
        if fits and game.verdict is None:
            game.refresh()
            _draw(curses, stdscr, game, colours)
        try:
            key = stdscr.get_wch()      # Ctrl-C goes on up: llk play exits 130, as interrupted
        except curses.error:
            continue
        if key == curses.KEY_RESIZE:
            continue
        action = special.get(key, key.lower() if isinstance(key, str) else "")
        if not fits:
            if action in ("q", "cancel"):
                return
            continue
        if action and not game.handle(action):
            return


def _colours(curses: Any) -> Dict[str, int]:
    """Curses attributes by style; tiles get one of six colours by type when the terminal has
    colours and NO_COLOR (https://no-color.org) is unset or empty."""
    styles = {"cursor": curses.A_REVERSE, "selected": curses.A_BOLD | curses.A_REVERSE,
              "hint": curses.A_BOLD | curses.A_UNDERLINE, "path": curses.A_BOLD,
              "removed": curses.A_DIM, "wall": curses.A_DIM, "empty": curses.A_DIM}
    try:
        if curses.has_colors() and not os.environ.get("NO_COLOR"):
            curses.start_color()
            curses.use_default_colors()
            for i, colour in enumerate((curses.COLOR_RED, curses.COLOR_GREEN, curses.COLOR_YELLOW,
                                        curses.COLOR_BLUE, curses.COLOR_MAGENTA,
                                        curses.COLOR_CYAN), 1):
                curses.init_pair(i, colour, -1)
                styles[f"colour:{i}"] = curses.color_pair(i)
    except curses.error:
        pass
    return styles


def _draw(curses: Any, stdscr: Any, game: Game, styles: Dict[str, int]) -> bool:
    """Draw the game, or the too-small message; returns whether the game fitted."""
    lines, columns = stdscr.getmaxyx()
    stdscr.erase()
    try:
        game.check_room(lines, columns)
    except ValueError as exc:
        _put(curses, stdscr, 0, 0, "", 0)
        words, y, line = str(exc).split(), 0, ""
        for word in words:       # wrap the message to the screen width
            if line and len(line) + 1 + len(word) > columns - 1:
                _put(curses, stdscr, y, 0, line, 0)
                y, line = y + 1, word
            else:
                line = f"{line} {word}" if line else word
        _put(curses, stdscr, y, 0, line, 0)
        stdscr.refresh()
        return False
    for y, (text, spans) in enumerate(game.screen()):
        _put(curses, stdscr, y, 0, text[:columns - 1], 0)
        for x, width, style in spans:
            attr = styles.get(style, 0)
            if style.startswith("tile:"):
                attr = styles.get(f"colour:{int(style[5:]) % 6 + 1}", 0)
            if attr:
                try:
                    stdscr.chgat(y, x, width, attr)
                except curses.error:
                    pass
    stdscr.refresh()
    return True


def _put(curses: Any, stdscr: Any, y: int, x: int, text: str, attr: int) -> None:
    try:
        stdscr.addstr(y, x, text, attr)
    except curses.error:
        pass    # writing the bottom-right cell moves the cursor off the screen: harmless
