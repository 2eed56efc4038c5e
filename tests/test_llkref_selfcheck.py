"""Hand-checked cases proving the reference engine llkref is right.

Every expected value here was worked out by hand (the reasoning is in the comments), so these tests
check llkref against the rules, not against itself. They must stay small and fast.
"""

import pytest

from llkref import (Board, apply_gravity, can_link, find_path, greedy_freedom, greedy_mobility,
                    hopcroft_karp, kshisen_generate, matching, moves, path_length, path_turns,
                    random_deal, solve_exhaustive, tile_index, verify)

RULE_VARIANTS = [
    dict(max_turns=2, border=True, gravity=None),
    dict(max_turns=2, border=False, gravity=None),
    dict(max_turns=2, border=True, gravity="down"),
    dict(max_turns=3, border=False, gravity="left"),
]


# ---------------------------------------------------------------------------------------------
# Seed 000 §6.1: the five boundary cases, on 3x3 boards
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("border", [True, False])
def test_case1_first_row_ends_with_empties_between(border):
    grid = [[1, 0, 1],
            [2, 3, 4],
            [5, 6, 7]]
    assert can_link(grid, (0, 0), (0, 2), border=border)
    assert find_path(grid, (0, 0), (0, 2), border=border) == [(0, 0), (0, 2)]


@pytest.mark.parametrize("border", [True, False])
def test_case2_same_column_with_blocker(border):
    # Full board: no empty cell inside. Going round needs the ring, and even on the ring the
    # shortest way from the top edge to the bottom edge takes 4 turns: False either way.
    grid = [[2, 1, 3],
            [4, 5, 6],
            [7, 1, 8]]
    assert not can_link(grid, (0, 1), (2, 1), border=border)
    assert find_path(grid, (0, 1), (2, 1), border=border) is None
    # With 4 turns allowed the ring route (up, left, down, right, up) exists, only with a border.
    assert can_link(grid, (0, 1), (2, 1), max_turns=4, border=border) is border


def test_case3_corners_round_the_outer_ring():
    # (0,0) and (0,2) are separated by the 2 at (0,1); over the top ring: up, right, down.
    grid = [[1, 2, 1],
            [3, 4, 5],
            [6, 7, 8]]
    assert can_link(grid, (0, 0), (0, 2), border=True)
    assert find_path(grid, (0, 0), (0, 2), border=True) == [(0, 0), (-1, 0), (-1, 2), (0, 2)]
    assert not can_link(grid, (0, 0), (0, 2), border=False)
    assert find_path(grid, (0, 0), (0, 2), border=False) is None


def test_case4_different_types():
    grid = [[1, 0, 2],
            [0, 0, 0],
            [0, 0, 0]]
    assert not can_link(grid, (0, 0), (0, 2))
    assert find_path(grid, (0, 0), (0, 2)) is None


def test_case5_same_coordinates():
    grid = [[1, 0, 1],
            [0, 0, 0],
            [0, 0, 0]]
    assert not can_link(grid, (0, 0), (0, 0))
    assert find_path(grid, (0, 0), (0, 0)) is None


def test_empty_and_wall_endpoints_do_not_link():
    grid = [[0, 0, 0],
            [-1, 0, -1]]
    assert not can_link(grid, (0, 0), (0, 2))
    assert not can_link(grid, (1, 0), (1, 2))
    assert find_path(grid, (1, 0), (1, 2)) is None


def test_out_of_board_raises():
    grid = [[1, 1]]
    for bad in [(-1, 0), (1, 0), (0, 2), (0, -1)]:
        with pytest.raises(ValueError):
            can_link(grid, bad, (0, 1))
        with pytest.raises(ValueError):
            find_path(grid, (0, 1), bad)


# ---------------------------------------------------------------------------------------------
# HDU 1175 sample (border=False, max_turns=2)
# ---------------------------------------------------------------------------------------------
# Written from memory of the problem's sample (two boards, answers YES NO NO NO / NO YES); each
# expected answer below was re-derived by hand, so the cases stand on their own even if the
# memory is off. Queries are 1-based "r1 c1 r2 c2" in the problem; converted to 0-based here.

HDU_BOARD_1 = [[1, 2, 3, 4],
               [0, 0, 0, 0],
               [4, 3, 2, 1]]
HDU_BOARD_2 = [[0, 1, 4, 3],
               [0, 2, 4, 1],
               [0, 0, 0, 0]]


@pytest.mark.parametrize("grid, query, expected", [
    (HDU_BOARD_1, (1, 1, 3, 4), True),   # 1s: down into row 2, along it, down: 2 turns
    (HDU_BOARD_1, (1, 1, 2, 4), False),  # (2,4) is empty
    (HDU_BOARD_1, (1, 1, 3, 3), False),  # 1 vs 2: different types
    (HDU_BOARD_1, (2, 1, 2, 4), False),  # both endpoints empty
    (HDU_BOARD_2, (1, 1, 2, 4), False),  # (1,1) is empty
    (HDU_BOARD_2, (1, 3, 2, 3), True),   # two 4s, vertically adjacent
])
def test_hdu1175_sample(grid, query, expected):
    r1, c1, r2, c2 = query
    a, b = (r1 - 1, c1 - 1), (r2 - 1, c2 - 1)
    assert can_link(grid, a, b, border=False) is expected
    assert (find_path(grid, a, b, border=False) is not None) is expected


def test_hdu1175_path_and_turn_limits():
    # (0,0) -> (0,3) on board 1: the only inside route is down, right, down (2 turns).
    assert find_path(HDU_BOARD_1, (0, 0), (2, 3), border=False) == [(0, 0), (1, 0), (1, 3), (2, 3)]
    assert not can_link(HDU_BOARD_1, (0, 0), (2, 3), max_turns=1, border=False)


# ---------------------------------------------------------------------------------------------
# find_path: fewest turns first, then shortest
# ---------------------------------------------------------------------------------------------

def test_find_path_unique_one_turn():
    # The corner (2,0) route is blocked by the 2, so the only 1-turn path goes via (0,2).
    grid = [[1, 0, 0],
            [2, 0, 0],
            [0, 0, 1]]
    path = find_path(grid, (0, 0), (2, 2))
    assert path == [(0, 0), (0, 2), (2, 2)]
    assert path_turns(path) == 1 and path_length(path) == 4


# a = (0,0), b = (3,3). Inside, the only route is the 3-turn staircase
# (0,0) r (0,1) d (1,1) r (1,3) d (3,3), length 6: every 0/1/2-turn inside route is blocked by a
# wall. With the ring, a 2-turn route exists: left to (0,-1), down to (3,-1), right to b, length 8.
FEWEST_TURNS_GRID = [[1, 0, -1, -1],
                     [-1, 0, 0, 0],
                     [-1, -1, -1, 0],
                     [0, 0, 0, 1]]


def test_find_path_prefers_fewer_turns_over_shorter():
    path = find_path(FEWEST_TURNS_GRID, (0, 0), (3, 3), max_turns=3, border=True)
    assert path == [(0, 0), (0, -1), (3, -1), (3, 3)]
    assert path_turns(path) == 2 and path_length(path) == 8


def test_find_path_needs_three_turns_without_border():
    staircase = [(0, 0), (0, 1), (1, 1), (1, 3), (3, 3)]
    assert find_path(FEWEST_TURNS_GRID, (0, 0), (3, 3), max_turns=3, border=False) == staircase
    assert path_turns(staircase) == 3 and path_length(staircase) == 6
    assert find_path(FEWEST_TURNS_GRID, (0, 0), (3, 3), max_turns=2, border=False) is None
    assert can_link(FEWEST_TURNS_GRID, (0, 0), (3, 3), max_turns=3, border=False)
    assert not can_link(FEWEST_TURNS_GRID, (0, 0), (3, 3), max_turns=2, border=False)


def test_max_turns_zero_and_paths_never_cross_tiles():
    # Straight only. The same-type 1 in the middle blocks like any other tile.
    grid = [[1, 0, 1, 0, 1]]
    assert can_link(grid, (0, 0), (0, 2), max_turns=0)
    assert not can_link(grid, (0, 0), (0, 4), max_turns=0)
    assert not can_link(grid, (0, 0), (0, 4), max_turns=0, border=False)
    assert find_path(grid, (0, 0), (0, 4), max_turns=2) == [(0, 0), (-1, 0), (-1, 4), (0, 4)]


# ---------------------------------------------------------------------------------------------
# Board helpers
# ---------------------------------------------------------------------------------------------

def test_tile_index_and_moves():
    grid = [[1, 2, 0],
            [2, -1, 1]]
    assert tile_index(grid) == {1: [(0, 0), (1, 2)], 2: [(0, 1), (1, 0)]}
    # 1s: (0,0) up to the ring, right to col 2... needs down through (0,2) to (1,2): up, right,
    # down = 2 turns. 2s: (0,1) and (1,0) are diagonal with no empty corner inside; on the ring
    # (0,1) up/left/down, into (1,0) from the left = 3 turns. So only the 1s.
    assert moves(grid) == [((0, 0), (1, 2))]
    assert moves(grid, max_turns=3) == [((0, 0), (1, 2)), ((0, 1), (1, 0))]
    # Inside only: (0,0) has no empty neighbour, so it cannot link to a non-adjacent tile.
    assert moves(grid, border=False) == []


GRAVITY_GRID = [[0, 1, 0, 2],
                [3, -1, 0, 0],
                [0, 0, 4, -1],
                [5, 6, 0, 0]]


@pytest.mark.parametrize("gravity, expected", [
    # col 0 packs to the bottom; col 1's 6 is already at the bottom of its run under the wall;
    # col 3's 2 falls only onto the wall at (2,3).
    ("down", [[0, 1, 0, 0],
              [0, -1, 0, 2],
              [3, 0, 0, -1],
              [5, 6, 4, 0]]),
    # col 1's 6 rises only to just under the wall at (1,1); col 3's 2 is at the top already.
    ("up", [[3, 1, 4, 2],
            [5, -1, 0, 0],
            [0, 6, 0, -1],
            [0, 0, 0, 0]]),
    # row 1's 3 stays left of its wall; row 2's 4 moves left (its wall is on the right).
    ("left", [[1, 2, 0, 0],
              [3, -1, 0, 0],
              [4, 0, 0, -1],
              [5, 6, 0, 0]]),
    # row 1's 3 is boxed by the wall; row 2's 4 is already against the wall; 5, 6 keep order.
    ("right", [[0, 0, 1, 2],
               [3, -1, 0, 0],
               [0, 0, 4, -1],
               [0, 0, 5, 6]]),
    (None, GRAVITY_GRID),
])
def test_apply_gravity(gravity, expected):
    grid = [list(row) for row in GRAVITY_GRID]
    apply_gravity(grid, gravity)
    assert grid == expected


def test_apply_gravity_rejects_unknown_direction():
    with pytest.raises(ValueError):
        apply_gravity([[1]], "sideways")


def test_board_remove_gravity_undo_redo():
    start = [[1, 2],
             [3, 3],
             [1, 2]]
    board = Board(start, gravity="down")
    assert board.grid == start and board.grid is not start
    assert (board.rows, board.cols, board.tiles_left) == (3, 2, 6)
    assert not board.undo() and not board.redo()

    path = board.remove((1, 0), (1, 1))  # adjacent 3s
    assert path == [(1, 0), (1, 1)]
    after_first = [[0, 0],
                   [1, 2],
                   [1, 2]]  # the top row fell into the gap
    assert board.grid == after_first
    assert board.index() == {1: [(1, 0), (2, 0)], 2: [(1, 1), (2, 1)]}

    assert board.undo() and board.grid == start
    assert board.redo() and board.grid == after_first
    assert not board.redo()

    with pytest.raises(ValueError):
        board.remove((1, 0), (2, 1))  # 1 and 2
    assert board.grid == after_first  # an illegal move changes nothing

    board.remove((1, 0), (2, 0))
    assert board.undo()
    board.remove((1, 1), (2, 1))  # a new removal after an undo clears the redo stack
    assert not board.redo()
    board.remove((1, 0), (2, 0))
    assert board.is_clear() and not board.is_stuck()

    # Undo all the way back, exactly, snapshot by snapshot.
    assert board.undo() and board.grid == [[0, 0], [1, 0], [1, 0]]
    assert board.undo() and board.grid == after_first
    assert board.undo() and board.grid == start
    assert not board.undo()
    assert board.tiles_left == 6


def test_board_gravity_at_start_copy_and_stuck():
    board = Board([[1, 0], [0, 2], [2, 1]], border=False, gravity="down")
    assert board.grid == [[0, 0], [1, 2], [2, 1]]  # compacted before play
    # 1s at (1,0),(2,1): the corner (1,1) and (2,0) hold 2s; via row 0: up, right, down hits the
    # 2 at (1,1). 2s are symmetric. So nothing links: stuck.
    assert board.is_stuck() and board.moves() == []
    twin = board.copy()
    twin.grid[0][0] = 9
    assert board.grid[0][0] == 0


def test_verify():
    grid = [[1, 2, 2, 1]]
    good = [((0, 1), (0, 2)), ((0, 0), (0, 3))]
    assert verify(grid, good, border=False)
    assert not verify(grid, list(reversed(good)), border=False)  # 1s blocked at first
    assert not verify(grid, good[:1], border=False)              # board not cleared
    assert not verify(grid, good + good[:1], border=False)       # replays an empty cell
    assert not verify(grid, [((0, 1), (0, 5))] + good, border=False)  # off the board
    assert verify(grid, [((0, 0), (0, 3)), ((0, 1), (0, 2))], border=True)  # over the ring
    assert grid == [[1, 2, 2, 1]]  # replay works on a copy


# ---------------------------------------------------------------------------------------------
# Solvers
# ---------------------------------------------------------------------------------------------

def test_solve_exhaustive_solvable():
    # Inside one row: only the 2s link at first, then the 1s.
    ok, sol, nodes = solve_exhaustive([[1, 2, 2, 1]], border=False)
    assert (ok, sol, nodes) == (True, [((0, 1), (0, 2)), ((0, 0), (0, 3))], 3)


def test_solve_exhaustive_unsolvable_with_a_dead_end():
    # 1s at cols 0,1,3,5, 2s at cols 2,4; one row, inside only, so links are straight along the
    # row. The only move is the adjacent 1s at cols 0-1, after which 1 2 1 2 blocks itself.
    grid = [[1, 1, 2, 1, 2, 1]]
    assert moves(grid, border=False) == [((0, 0), (0, 1))]
    assert solve_exhaustive(grid, border=False) == (False, None, 2)
    # With the ring the 2s go over the 1 between them, and the board clears.
    ok, sol, _ = solve_exhaustive(grid, border=True)
    assert ok and verify(grid, sol, border=True)


def test_solve_exhaustive_two_by_two_diagonals():
    grid = [[1, 2],
            [2, 1]]
    # Diagonal twins, no empty cell: inside, nothing ever links.
    for turns in (0, 1, 2, 3):
        assert solve_exhaustive(grid, max_turns=turns, border=False) == (False, None, 1)
    # On the ring, (0,0) -> (1,1) is up, right, down, left: 3 turns. Not with 2 ...
    assert solve_exhaustive(grid, max_turns=2, border=True) == (False, None, 1)
    # ... but with 3, and afterwards the 2s link through the emptied corner.
    ok, sol, _ = solve_exhaustive(grid, max_turns=3, border=True)
    assert ok and sol == [((0, 0), (1, 1)), ((0, 1), (1, 0))]


def test_solve_exhaustive_gravity_changes_the_answer():
    grid = [[1, 2],
            [3, 3],
            [2, 1]]
    # No gravity: remove the 3s, then the 1s go (0,0) d (1,0) r (1,1) d (2,1), then the 2s.
    ok, sol, _ = solve_exhaustive(grid, border=False)
    assert ok and verify(grid, sol, border=False)
    # Gravity down: after the 3s the board is [[0,0],[1,2],[2,1]], which is stuck (see
    # test_board_gravity_at_start_copy_and_stuck).
    assert solve_exhaustive(grid, border=False, gravity="down")[0] is False


def test_solve_exhaustive_quick_reject_and_node_limit():
    assert solve_exhaustive([[1, 1, 1, 0]]) == (False, None, 0)
    assert solve_exhaustive([[1, 2, 2, 1]], border=False, node_limit=1) == (None, None, 1)
    assert solve_exhaustive([[0, -1]]) == (True, [], 1)


def test_greedy_strategies_on_hand_boards():
    line = [[1, 2, 2, 1]]
    only_order = [((0, 1), (0, 2)), ((0, 0), (0, 3))]
    for strategy in (greedy_freedom, greedy_mobility, matching):
        assert strategy(line, border=False) == only_order
        assert strategy([[1, 2], [2, 1]], border=False) is None

    grid = [[1, 1, 0],
            [2, 2, -1]]
    # Freedom (inside only): 1s have 0 + 1 empty neighbours, 2s have 0 + 0 (wall on the right):
    # the 2s go first.
    assert greedy_freedom(grid, border=False) == [((1, 0), (1, 1)), ((0, 0), (0, 1))]
    # Mobility: either removal leaves exactly one move; tie -> the smallest pair, the 1s.
    assert greedy_mobility(grid, border=False) == [((0, 0), (0, 1)), ((1, 0), (1, 1))]


def test_strategies_return_verified_sequences_and_do_not_mutate():
    for seed in range(3):
        grid = random_deal(4, 6, copies=4, seed=seed)
        before = [list(row) for row in grid]
        for rules in RULE_VARIANTS:
            for strategy in (greedy_freedom, greedy_mobility, matching):
                sol = strategy(grid, **rules)
                assert grid == before
                if sol is not None:
                    assert verify(grid, sol, **rules)


def test_hopcroft_karp_finds_a_maximum_matching():
    # Left 0 likes 0,1; left 1 likes only 0; left 2 likes 1,2. A perfect matching exists and
    # needs left 0 to give up right 0.
    match = hopcroft_karp([[0, 1], [0], [1, 2]], 3)
    assert sorted(match) == [0, 1, 2] and match[1] == 0


# ---------------------------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------------------------

def test_random_deal_counts_and_determinism():
    grid = random_deal(4, 5, copies=4, seed=11)
    assert grid == random_deal(4, 5, copies=4, seed=11)
    assert {t: len(p) for t, p in tile_index(grid).items()} == {1: 4, 2: 4, 3: 4, 4: 4, 5: 4}
    # 2 x 3 = 6 cells: one type of 4, plus one extra pair of type 1.
    assert {t: len(p) for t, p in tile_index(random_deal(2, 3, seed=1)).items()} == {1: 6}
    # 3 x 6 = 18 cells with copies 4: four types of 4, plus one extra pair of type 1.
    counts = {t: len(p) for t, p in tile_index(random_deal(3, 6, seed=2)).items()}
    assert counts == {1: 6, 2: 4, 3: 4, 4: 4}
    with pytest.raises(ValueError):
        random_deal(3, 3)


def test_kshisen_generate_keeps_a_deal_greedy_clears():
    for rules in RULE_VARIANTS[:3]:
        grid, tried = kshisen_generate(4, 4, seed=5, **rules)
        assert grid is not None and 1 <= tried <= 200
        assert verify(grid, greedy_freedom(grid, **rules), **rules)
