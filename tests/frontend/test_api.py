"""The public Python API (unflip_frontend/api.py): boards from a text, rows or a book level; results as frozen
dataclasses whose moves replay; the typed errors; and answers that agree with the command line's."""

from __future__ import annotations

import copy
import dataclasses
import doctest
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO
from oracle import as_board, board_text, replay, uniform
from support import SPEC_BOARD, json_records, run

import unflip_frontend
from unflip_frontend import (
    Board,
    Hint,
    InputError,
    LowerBound,
    Move,
    Optima,
    OptimaCount,
    SearchProgress,
    Solution,
    Stopped,
    Unsolvable,
    all_solutions,
    count_solutions,
    hint,
    lower_bound,
    read_book,
    solve,
)
from unflip_frontend import api as api_module

UNSOLVABLE_4X4 = "1000\n0000\n0000\n0000\n"  # a lone black corner: every move flips at least four tiles


def solved(result: object) -> Solution:
    assert isinstance(result, Solution), result
    return result


def test_the_specification_board_solves_in_8_row_col_size_triples_that_replay_to_white():
    result = solved(solve(Path(REPO / "board.txt").read_text()))
    assert len(result.moves) == 8 and result.optimal and result.target == 0
    assert all(isinstance(move, tuple) and len(move) == 3 for move in result.moves)
    assert replay(as_board(SPEC_BOARD), result.moves) == uniform(5, 0)


def test_a_move_is_a_row_col_size_triple_that_keeps_its_names():
    move = Move(1, 2, 3)
    row, col, size = move
    assert (row, col, size) == move == (1, 2, 3) and (move.row, move.col, move.size) == (1, 2, 3)


def test_a_board_from_text_from_rows_and_as_a_board_solve_alike():
    rows = [list(map(int, line)) for line in SPEC_BOARD.split()]
    answers = [solve(board) for board in (SPEC_BOARD, rows, Board(rows), Board.from_text(SPEC_BOARD))]
    assert {len(solved(answer).moves) for answer in answers} == {8}


def test_a_board_prints_as_the_text_it_reads_back_from():
    board = Board.from_text("1 2 2\n2 1 1\n")  # the game's 1/2, apart
    assert str(board) == "011\n100" and Board.from_text(str(board)) == board
    assert (board.height, board.width) == (2, 3)


def test_a_book_level_solves_at_its_par():
    level = read_book("daily").levels[4]
    assert (level.name, level.number) == ("daily level 5", 5)
    result = solved(solve(level))
    assert len(result.moves) == level.par
    height, width = len(level.board), len(level.board[0])
    assert replay(level.board, result.moves) == uniform(height, 0, width)


def test_a_book_file_reads_as_its_levels(tmp_path):
    path = tmp_path / "book.json"
    path.write_text('{"levels": [{"tiles": [[2, 2], [2, 2]], "par": 1, "title": "Whole"}]}')
    [level] = read_book(path).levels
    assert (level.board, level.par, level.title) == (((1, 1), (1, 1)), 1, "Whole")
    assert solved(solve(level)).moves == ((0, 0, 2),)


def test_an_unsolvable_4x4_is_unsolvable():
    result = solve(UNSOLVABLE_4X4)
    assert isinstance(result, Unsolvable) and result.target == 0


def test_a_tiny_budget_stops_with_a_proven_bound_no_more_than_the_optimum():
    result = solve(SPEC_BOARD, max_nodes=1)
    assert isinstance(result, Stopped)
    assert 1 <= result.bound <= 8


def test_results_are_frozen():
    result = solved(solve(SPEC_BOARD))
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.moves = ()


def test_progress_is_reported_as_the_search_goes():
    seen: list[SearchProgress] = []
    solve(SPEC_BOARD, threads=1, on_progress=seen.append)
    assert seen and seen[-1].bound <= 8


def test_the_target_black_and_either_are_reached():
    black = solved(solve(SPEC_BOARD, target="black"))
    assert black.target == 1 and replay(as_board(SPEC_BOARD), black.moves) == uniform(5, 1)
    either = solved(solve(SPEC_BOARD, target="either"))
    assert replay(as_board(SPEC_BOARD), either.moves) == uniform(5, either.target)


# --- agreeing with the command line -----------------------------------------------------------------------


def cli_json(*args: str, board: str = SPEC_BOARD) -> list[dict]:
    return json_records(run(*args, "-", "--json", input=board))


def test_all_solutions_are_the_command_lines_and_each_replays():
    found = all_solutions(SPEC_BOARD)
    assert isinstance(found, Optima) and found.complete
    *listed, _ = cli_json("--all-solutions")
    as_sets = {frozenset((m["row"], m["col"], m["size"]) for m in record["moves"]) for record in listed}
    assert {frozenset(solution) for solution in found.solutions} == as_sets and len(as_sets) == 2
    for solution in found.solutions:
        assert replay(as_board(SPEC_BOARD), solution) == uniform(5, 0)


def test_a_cap_on_all_solutions_says_there_may_be_more():
    found = all_solutions(SPEC_BOARD, max_solutions=1)
    assert isinstance(found, Optima) and len(found.solutions) == 1 and not found.complete


def test_the_count_is_the_command_lines():
    counted = count_solutions(SPEC_BOARD)
    [record] = cli_json("--count")
    assert isinstance(counted, OptimaCount)
    assert (counted.count, counted.optimum, counted.complete) == (
        record["solution_count"],
        record["move_count"],
        record["enumeration_complete"],
    )
    assert not counted.unique and count_solutions([[1, 1], [1, 1]]).unique


def test_a_hint_is_the_command_lines_hint():
    found = hint(SPEC_BOARD)
    [record] = cli_json("hint")
    assert isinstance(found, Hint)
    assert (found.move, found.remaining) == (tuple(record["move"].values()), record["moves_remaining"])


def test_a_hint_on_a_solved_board_is_the_solution_of_no_moves():
    assert solved(hint("00\n00\n")).moves == ()


def test_the_lower_bound_is_the_solvers_own_and_no_more_than_the_optimum(run_solver):
    bound = lower_bound(SPEC_BOARD)
    assert isinstance(bound, LowerBound)
    assert bound.bound == run_solver(SPEC_BOARD, "--lower-bound").bound <= 8


def test_unsolvable_and_stopped_are_the_command_lines_outcomes_too():
    [unsolvable] = cli_json(board=UNSOLVABLE_4X4)
    [stopped] = cli_json("--max-nodes", "1")
    assert unsolvable["outcome"] == "unsolvable" and isinstance(solve(UNSOLVABLE_4X4), Unsolvable)
    # Where a budget stops the search varies from run to run; what it proves never exceeds the optimum.
    result = solve(SPEC_BOARD, max_nodes=1)
    assert isinstance(result, Stopped) and stopped["outcome"] == "stopped"
    assert max(result.bound, stopped["lower_bound"]) <= 8


# --- bad input --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: solve("01\n1x\n"), "board line 2: 'x' is not a tile"),
        (lambda: solve([[0, 1], [1]]), "board row 2: 1 tiles, but row 1 has 2"),
        (lambda: solve([[0, 2], [1, 0]]), "board: tile 2 at row 1, col 2"),
        (lambda: solve([[True, 0], [0, 0]]), "board: tile True at row 1, col 1"),
        (lambda: solve([[0]]), "board: the board is 1×1"),
        (lambda: solve([]), "board: it has no tiles"),
        (lambda: solve(SPEC_BOARD, target="grey"), "target must be 0, 1, 'white', 'black' or 'either'"),
        (lambda: solve(SPEC_BOARD, threads=0), "threads must be a whole number from 1 to"),
        (lambda: solve(SPEC_BOARD, max_nodes=1.5), "max_nodes must be a whole number"),
        (lambda: solve(SPEC_BOARD, max_seconds=float("nan")), "max_seconds must be a number of seconds"),
        (lambda: all_solutions(SPEC_BOARD, max_solutions=0), "max_solutions must be a whole number"),
        (lambda: read_book("dialy"), "did you mean 'daily'?"),
        (lambda: read_book(REPO / "board.txt"), "board.txt is a board, not a book of levels"),
    ],
    ids=[
        "bad tile",
        "ragged rows",
        "tile 2",
        "a bool tile",
        "too small",
        "empty",
        "target",
        "threads",
        "nodes",
        "seconds",
        "solutions",
        "book name",
        "board as a book",
    ],
)
def test_bad_input_raises_input_error_with_one_readable_line(call, message):
    with pytest.raises(InputError) as raised:
        call()
    assert message in str(raised.value) and "\n" not in str(raised.value)


# --- the surface ------------------------------------------------------------------------------------------


def test_the_module_help_and_every_docstring_example_hold():
    assert doctest.testmod(api_module).failed == 0


def test_the_package_exports_exactly_the_api_and_ships_its_types():
    assert set(unflip_frontend.__all__) == set(api_module.__all__)
    assert all(hasattr(unflip_frontend, name) for name in unflip_frontend.__all__)
    assert (REPO / "unflip_frontend" / "py.typed").is_file()


def test_the_api_solves_without_the_command_line_loaded():
    script = (
        "import sys, unflip_frontend\n"
        f"assert len(unflip_frontend.solve({board_text(as_board(SPEC_BOARD))!r}).moves) == 8\n"
        "print(sorted({'click', 'rich', 'unflip_frontend.cli'} & set(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "[]\n"), done.stderr


def test_a_board_pickled_or_copied_keeps_its_tiles_and_its_scheme():
    # A cluster's workers receive boards pickled; a tri board's rows alone read as two colours' and fail.
    for text in ("scheme tri\n123\n231\n312\n", "110\n011\n"):
        board = Board.from_text(text)
        for again in (pickle.loads(pickle.dumps(board)), copy.deepcopy(board)):
            assert (again, again.scheme, type(again)) == (board, board.scheme, type(board))
