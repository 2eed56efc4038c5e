"""All removable pairs and a remove + undo cycle: llkcore vs llkref on the same boards."""
import llkref

import llkcore as llk


def _ref_moves(ref_answers, fill, grid_list):
    """llkref's moves on the fill's board (kept by test_moves_ref: seconds on a full 40x40)."""
    return ref_answers.get_or_compute(("moves", fill), lambda: llkref.moves(grid_list))


def test_moves_core(benchmark, case, ref_answers):
    fill, grid, grid_list, _ = case
    benchmark.group = f"moves-{fill}"
    board = llk.Board(grid)
    result = benchmark(board.moves_array)
    assert [((a, b), (c, d)) for a, b, c, d in result.tolist()] == _ref_moves(ref_answers, fill, grid_list)


def test_moves_ref(benchmark, case, ref_answers):
    fill, grid, grid_list, _ = case
    benchmark.group = f"moves-{fill}"
    ref_answers[("moves", fill)] = benchmark.pedantic(llkref.moves, args=(grid_list,), rounds=1,
                                                      iterations=1)


def _first_move(ref_answers, fill, grid_list):
    found = _ref_moves(ref_answers, fill, grid_list)
    return found[0] if found else None


def test_remove_undo_core(benchmark, case, ref_answers):
    fill, grid, grid_list, _ = case
    benchmark.group = f"remove-undo-{fill}"
    move = _first_move(ref_answers, fill, grid_list)
    board = llk.Board(grid)

    def cycle():
        board.remove(*move)
        board.undo()

    benchmark(cycle)
    assert board.grid.tolist() == grid_list


def test_remove_undo_ref(benchmark, case, ref_answers):
    fill, grid, grid_list, _ = case
    benchmark.group = f"remove-undo-{fill}"
    move = _first_move(ref_answers, fill, grid_list)
    board = llkref.Board(grid_list)

    def cycle():
        board.remove(*move)
        board.undo()

    benchmark.pedantic(cycle, rounds=20, iterations=1)
