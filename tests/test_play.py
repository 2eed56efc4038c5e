"""``llk play``, the terminal game: played as a person plays it, under tmux (keys sent to a real
terminal, the screen read back), and its game logic (llkcore/tui.py) without a terminal.

The tmux tests are skipped only where tmux is not installed (CI installs it).
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

import llkcore as llk
from llkcore import cli, tui

ROOT = Path(__file__).resolve().parents[1]
TMUX = shutil.which("tmux")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed: the terminal game "
                                "is tested by driving it in tmux (apt-get install tmux)")


class Terminal:
    """``llk play ARGS`` in a detached tmux session of a fixed size, on a private server."""

    def __init__(self, args, width=100, height=30):
        self.server = f"llk-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        command = shlex.join([sys.executable, "-m", "llkcore", "play", *map(str, args)])
        # The shell stays after the game ends, so its last words can be read.
        self.tmux("new-session", "-d", "-s", "game", "-x", str(width), "-y", str(height),
                  f"cd {shlex.quote(str(ROOT))} && {command}; echo EXITED $?; sleep 60")

    def tmux(self, *args):
        return subprocess.run([TMUX, "-L", self.server, *args], check=True, capture_output=True,
                              text=True, timeout=20).stdout

    def keys(self, *keys):
        self.tmux("send-keys", "-t", "game", *keys)

    def type(self, text):
        self.tmux("send-keys", "-t", "game", "-l", text)

    def screen(self):
        return self.tmux("capture-pane", "-p", "-t", "game")

    def wait_for(self, *texts, timeout=60.0):
        """The screen once it shows every one of ``texts``."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if all(t in screen for t in texts):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed {texts!r}:\n{screen}")
            time.sleep(0.05)

    def resize(self, width, height):
        self.tmux("resize-window", "-t", "game", "-x", str(width), "-y", str(height))

    def close(self):
        try:
            socket = self.tmux("display-message", "-p", "#{socket_path}").strip()
            self.tmux("kill-server")
        except subprocess.CalledProcessError:
            return
        if socket and os.path.exists(socket):
            os.unlink(socket)       # tmux may leave the socket file of a killed server


@pytest.fixture
def terminal():
    opened = []

    def start(*args, **size):
        t = Terminal(args, **size)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def board_lines(board):
    """The board rows as the game draws them (no selection, hint or path)."""
    game = tui.Game(board)
    return [line for line, _ in game.screen()[tui.TOP + 1:tui.TOP + 1 + board.rows]]


def assert_shows(t, game):
    """The terminal shows what ``game`` (the same game played in this process) draws, title
    aside: board, selection, hint, path, status and message lines alike."""
    game.refresh()
    expected = [line[:99].rstrip() for line, _ in game.screen()][1:]
    # Wait until the status and message lines (above the keys, which never change) are drawn:
    # the winnability check updates the status last.
    keys = len(tui.KEYS_HELP)
    screen = t.wait_for(expected[-2 - keys], expected[-1 - keys])
    assert screen.splitlines()[1:len(expected) + 1] == expected, screen
    return screen


@needs_tmux
def test_a_game_played_with_keys_and_typed_coordinates(terminal):
    t = terminal("4x6", "--seed", 3)
    game = tui.Game(llk.generate(4, 6, seed=3), time_limit=0.5)
    board = game.board
    screen = assert_shows(t, game)
    assert "tiles left: 24" in screen and "still winnable: yes" in screen

    # h: the safe hint, its two tiles in braces.
    hint = board.hint(safe=True)
    assert hint.safe
    t.keys("h")
    game.handle("h")
    screen = assert_shows(t, game)
    assert f"hint: {hint[0]} and {hint[1]} (safe: the game stays winnable)" in screen
    assert screen.count("{") == 2

    # Typed coordinates: the hint's two tiles go; the path and the removed tiles are drawn.
    (r1, c1), (r2, c2) = hint
    t.type(f"{r1},{c1} {r2},{c2}")
    for ch in f"{r1},{c1} {r2},{c2}":
        game.handle(ch)
    t.wait_for(f"typed: {r1},{c1} {r2},{c2}_")
    t.keys("Enter")
    game.handle("select")
    screen = assert_shows(t, game)
    assert "tiles left: 22" in screen and "removed" in screen and screen.count("(") >= 4

    # Arrow keys and space: a pair whose path turns, so the path shows a corner.
    turning = [m for m in board.moves() if len(board.find_path(*m)) > 2]
    move = turning[0] if turning else board.moves()[0]
    bends = len(board.find_path(*move)) > 2
    for goal in move:
        r0, c0 = game.cursor
        keys = ["Down" if goal[0] > r0 else "Up"] * abs(goal[0] - r0)
        keys += ["Right" if goal[1] > c0 else "Left"] * abs(goal[1] - c0)
        for key in keys:
            game.handle(key.lower())
        if keys:
            t.keys(*keys)
        t.keys("Space")
        game.handle(" ")
        assert_shows(t, game)
    screen = assert_shows(t, game)
    assert "tiles left: 20" in screen
    if bends:
        assert "+" in screen

    # Undo, redo, a solvable reshuffle (the game in this process reshuffles the same way only
    # by chance, so the screen is checked for the message and the counts).
    for key, words in (("u", "undone"), ("r", "redone")):
        t.keys(key)
        game.handle(key)
        assert words in assert_shows(t, game)
    t.keys("s")
    t.wait_for("reshuffled: the tiles left can be cleared", "tiles left: 20",
               "still winnable: yes")

    # q quits and says how the game ended.
    t.keys("q")
    screen = t.wait_for("EXITED 0")
    assert "llk play: seed 3, 20 tiles left" in screen


def first_trap(rules, rows, cols, seeds):
    """(seed, the certificate moves leading to a position with a trap, the trap) of a deal."""
    for seed in seeds:
        board = llk.generate(rows, cols, seed=seed, rules=rules)
        for i, move in enumerate(board.certificate):
            traps = board.traps(time_limit=None)
            if len(traps):
                return seed, board.certificate[:i], traps[0]
            board.remove(*move)
    pytest.fail("no deal with a trap found")  # pragma: no cover


@needs_tmux
def test_a_losing_move_makes_the_status_say_no(terminal):
    # Traps are rare early in a deal: follow the certificate of a seeded deal to the first
    # position that has one, then walk into it.
    seed, moves, trap = first_trap(llk.Rules.preset("qq"), 4, 6, range(40))
    t = terminal("4x6", "--seed", seed, "--rules", "qq")
    t.wait_for("still winnable: yes")
    for i, ((r1, c1), (r2, c2)) in enumerate(moves + [trap]):
        t.type(f"{r1},{c1},{r2},{c2}")
        t.keys("Enter")
        t.wait_for(f"tiles left: {24 - 2 * i - 2} ")
    screen = t.wait_for("still winnable: no")
    if "no moves left" not in screen:
        t.keys("h")
        t.wait_for("the game can no longer be won")
    t.keys("u")
    t.wait_for(f"tiles left: {24 - 2 * len(moves)}", "still winnable: yes")
    t.keys("q")
    t.wait_for("EXITED 0")


@needs_tmux
def test_a_terminal_too_small_says_so_until_it_is_big_enough(terminal):
    t = terminal("8x18", "--seed", 1, "--gravity", "down", width=40, height=10)
    screen = t.wait_for("terminal too small")
    flat = " ".join(screen.split())
    assert "needs 64 columns x 16 lines" in flat and "has 40 x 10" in flat
    assert "smaller board" in flat
    t.resize(100, 30)
    t.wait_for("still winnable:", "tiles left: 144", "gravity down")
    t.resize(30, 8)
    t.wait_for("terminal too small")
    t.keys("q")
    t.wait_for("EXITED 0")


@needs_tmux
def test_rules_presets_and_difficulty_reach_the_game(terminal):
    t = terminal("6x6", "--seed", 2, "--rules", "qq", "--difficulty", "hard")
    screen = t.wait_for("still winnable: yes", "no border", "hard")
    board = llk.generate(6, 6, seed=2, rules=llk.Rules.preset("qq"), difficulty="hard")
    for line in board_lines(board):
        assert line in screen
    t.keys("q")
    t.wait_for("EXITED 0")


# ---------------------------------------------------------------------------------------------
# the game without a terminal
# ---------------------------------------------------------------------------------------------

def test_game_selection_messages():
    board = llk.Board([[1, 0, 2], [2, -1, 1]], rules=llk.Rules(border=False))
    game = tui.Game(board, time_limit=None)
    game.handle("select")                    # cursor (0, 0): a tile
    assert game.selected == (0, 0) and "selected (0, 0) A" in game.message
    assert "[A]" in game.text()
    game.handle("select")                    # again: deselected
    assert game.selected is None
    game.handle("right"); game.handle("select")
    assert "(0, 1) is empty" in game.message
    game.handle("down"); game.handle("select")
    assert "(1, 1) is a wall" in game.message
    for ch in "0,0 1,2":
        game.handle(ch)
    game.handle("select")
    assert "not removable" in game.message and board.tiles_left == 4
    assert game.selected == (1, 2)           # the second tile is selected instead
    for ch in "1,0":                         # a B after the A: said with the screen's letters
        game.handle(ch)
    game.handle("select")
    assert "(1, 2) A and (1, 0) B are not the same type" in game.message
    assert "type 1" not in game.message and game.selected == (1, 0)
    for ch in "1,2":
        game.handle(ch)
    game.handle("select")
    assert game.selected == (1, 2)           # the A again, as before
    for ch in "9,9":
        game.handle(ch)
    game.handle("select")
    assert "(9, 9) is off the board of 2 rows x 3 columns" in game.message
    game.handle("1"); game.handle("backspace")
    assert game.typed == ""
    game.handle("1"); game.handle("cancel")
    assert game.typed == "" and game.selected is None
    for ch in "5":
        game.handle(ch)
    game.handle("select")
    assert "type row,col" in game.message
    game.handle("x")                          # not a key of the game: nothing happens
    assert game.handle("q") is False


def test_game_status_hint_undo_redo_and_the_end():
    board = llk.Board([[1, 1, 0], [0, 0, 0]])
    game = tui.Game(board, time_limit=1.0)
    game.refresh()
    assert "tiles left: 2  moves available: 1  still winnable: yes" in game.text()
    game.handle("h")
    assert game.hint == ((0, 0), (0, 1)) and "safe" in game.message
    assert "{A}{A}" in game.text()
    for ch in "0,0,0,1":
        game.handle(ch)
    game.handle("select")
    assert board.is_clear() and "you won" in game.message
    assert "(A)(A)" in game.text()
    assert game.verdict is None          # to be checked again
    game.refresh()
    assert "still winnable: yes" in game.text()
    game.handle("h")
    assert "no hint: the board is clear" in game.message
    game.handle("u")
    assert board.tiles_left == 2 and game.message == "undone"
    game.handle("u")
    assert game.message == "nothing to undo"
    game.handle("r")
    assert board.is_clear()


def test_a_stuck_game_and_a_reshuffle():
    board = llk.Board([[1, 2], [2, 1]], rules=llk.Rules(border=False))
    game = tui.Game(board, time_limit=1.0)
    game.refresh()
    assert "moves available: 0  still winnable: no" in game.text()
    game.handle("h")
    assert "no pair can be removed" in game.message
    game.handle("s")
    assert game.message.startswith("reshuffled") and game.verdict is None
    game.refresh()
    assert "still winnable: yes" in game.text() and board.tiles_left == 4
    odd = tui.Game(llk.Board([[1, 3], [3, 0]]), time_limit=1.0)
    odd.handle("s")
    assert odd.message.startswith("no reshuffle: type 1 has 1 tile left")


def test_labels_and_the_room_a_board_needs():
    assert [tui.label(v) for v in (1, 26, 27, 62)] == ["A", "Z", "a", "9"]
    two = {tui.label(v) for v in range(63, 63 + 62 * 5)}
    assert len(two) == 62 * 5 and all(len(s) == 2 for s in two)
    game = tui.Game(llk.generate(8, 18, seed=1))
    assert game.needed() == (16, 64)
    game.check_room(16, 64)
    with pytest.raises(ValueError, match="terminal too small: the board of 8 rows x 18 columns needs 64 columns "
                                         "x 16 lines, this terminal has 63 x 16; enlarge the window; q quits"):
        game.check_room(16, 63)         # (no board is narrower: a smaller one would not help)
    with pytest.raises(ValueError, match="has 64 x 15; enlarge the window, or play a smaller board"):
        game.check_room(15, 64)
    # The status and keys lines are whole in the narrowest screen a game takes (a helper's audit:
    # at 44 columns "still winnable" and "q quit" were cut off): curses leaves the last column.
    assert tui.Game(llk.generate(4, 6, seed=1)).needed()[1] == tui.MIN_WIDTH
    game.moves_left, game.verdict = 100, llk.Verdict.UNKNOWN       # 144 tiles, the longest words
    assert len(game.status()) <= tui.MIN_WIDTH - 1
    assert all(len(keys) <= tui.MIN_WIDTH - 1 for keys in tui.KEYS_HELP)
    with pytest.raises(ValueError, match="time_limit"):
        tui.Game(llk.Board([[1, 1]]), time_limit=0)


def test_llk_play_needs_a_terminal_and_good_options(capsys):
    code = cli.main(["play", "4x4", "--seed", "1"])
    _, err = capsys.readouterr()
    assert code == 2 and err.strip() == "llk play: error: play needs a terminal (stdin and " \
                                        "stdout must be a tty)"
    code = cli.main(["play", "4x4", "--difficulty", "brutal"])
    _, err = capsys.readouterr()
    assert code == 2 and "invalid choice: 'brutal'" in err and len(err.strip().splitlines()) == 1
    code = cli.main(["play", "4x4", "--time-limit", "0"])
    _, err = capsys.readouterr()
    assert code == 2 and "positive number of seconds" in err


def test_with_gravity_no_path_is_drawn_over_the_tiles_that_slid_in():
    """A removal's path and (A) marks are drawn where the tiles were; with gravity other tiles
    slide there at once, and the path seemed to join the two C that fell into its ends (a
    helper's audit). The message says what was removed."""
    board = llk.Board([[3, 2, 3], [1, 0, 1]], rules=llk.Rules(gravity="down"))
    game = tui.Game(board, title="gravity down")
    for key in "1,0,1,2":
        game.handle(key)
    game.handle("select")
    text = game.text()
    assert board.grid.tolist() == [[0, 0, 0], [3, 2, 3]]
    assert "+--" not in text and "(A)" not in text and "removed A (1, 0) and (1, 2)" in text


def test_s_on_a_won_game_says_there_is_nothing_to_reshuffle():
    board = llk.generate(2, 2, seed=0)
    game = tui.Game(board, title="t")
    for a, b in board.certificate:
        for key in f"{a[0]},{a[1]},{b[0]},{b[1]}":
            game.handle(key)
        game.handle("select")
    assert game.message == "board cleared: you won! q quits"
    game.handle("s")
    assert game.message.startswith("nothing to reshuffle") and board.is_clear()


@needs_tmux
def test_ctrl_c_ends_the_game_with_exit_code_130(terminal):
    t = terminal("4x4", "--seed", 1)
    t.wait_for("still winnable:")
    t.keys("C-c")
    screen = t.wait_for("EXITED 130")
    assert "llk play: seed 1, 16 tiles left" in screen and "llk play: interrupted" in screen


class FakeCurses:
    """What tui._colours asks of curses, recording the colour pairs it sets up."""
    A_REVERSE = A_BOLD = A_UNDERLINE = A_DIM = 1
    COLOR_RED = COLOR_GREEN = COLOR_YELLOW = COLOR_BLUE = COLOR_MAGENTA = COLOR_CYAN = 0
    error = Exception

    def has_colors(self):
        return True

    def start_color(self):
        pass

    def use_default_colors(self):
        pass

    def init_pair(self, *args):
        pass

    def color_pair(self, i):
        return i << 8


@pytest.mark.parametrize("value, coloured", [(None, True), ("", True), ("1", False)])
def test_no_color_set_and_not_empty_turns_the_colours_off(monkeypatch, value, coloured):
    if value is None:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", value)
    styles = tui._colours(FakeCurses())
    assert any(k.startswith("colour:") for k in styles) == coloured
