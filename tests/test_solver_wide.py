"""Boards past 15 a side, up to 31: the solver searches them on its 32-point lattice layout (solver/lattice.h)
and proves the same optima as CP-SAT on designer boards of 16x16 to 31x31 (a few random presses, the boards
a level designer makes) and on the longest rectangles, on 1, 2 and 4 threads. Every small board gets the
same answer, node for node, on the wide layout (--wide-lattice) as on its own, so the whole suite's small
boards vouch for the wide code too. 31 is the largest side, and 32 is refused with one line."""

from __future__ import annotations

import random
import subprocess

import oracle
import pytest
from helpers import built
from oracle import board_text
from test_solver_all_boards import oracle_optima
from test_solver_optimality import SINGLE, run_cases

from unflip_frontend.contract import solver_contract

MAX_SIDE = solver_contract().limits.max_side


def designer_boards(seed: int, shapes: list[tuple[int, int]], presses: tuple[int, int]) -> list[oracle.Board]:
    rng = random.Random(seed)
    return [oracle.board_from_random_moves(rng, h, rng.randint(*presses), w) for h, w in shapes]


def test_the_contract_allows_sides_to_31():
    assert MAX_SIDE == 31


@pytest.mark.parametrize("side", [16, 17, 20, 24, 31])
def test_designer_boards_from_16x16_to_31x31_get_the_cpsat_optimum(run_solver_many, side):
    boards = designer_boards(side, [(side, side)] * 3, (5, 25))
    run_cases(run_solver_many, [(board, 0, oracle.cpsat_optimum(board)) for board in boards])


@pytest.mark.parametrize("h, w", [(16, 31), (31, 16), (31, 2), (2, 31), (3, 31), (31, 4), (18, 27)])
def test_the_longest_rectangles_get_the_cpsat_optimum(run_solver_many, h, w):
    boards = designer_boards(h * 32 + w, [(h, w)] * 2, (5, 25))
    run_cases(run_solver_many, [(board, 0, oracle.cpsat_optimum(board)) for board in boards])


def test_boards_past_15_on_one_two_and_four_threads_get_the_same_optimum(run_solver):
    for board in designer_boards(4, [(20, 20), (16, 31), (31, 31)], (20, 30)):
        optimum = oracle.cpsat_optimum(board)
        for threads in ("1", "2", "4"):
            result = run_solver(board_text(board), "--quiet", "--threads", threads)
            assert result.mismatch(board, 0, optimum) is None, f"{threads} threads: {result.describe()}"


def test_every_optimal_solution_of_a_board_past_15_replays_and_counting_agrees(run_solver):
    (board,) = designer_boards(9, [(18, 18)], (6, 6))
    listed = run_solver(board_text(board), *SINGLE, "--all-solutions")
    counted = run_solver(board_text(board), *SINGLE, "--count")
    assert listed.outcome == counted.outcome == "solved", listed.describe() + counted.describe()
    assert len(listed.solutions) == len(set(listed.solutions)) == counted.solution_count >= 1
    optimum = oracle.cpsat_optimum(board)
    for solution in listed.solutions:
        assert len(solution) == optimum
        assert oracle.replay(board, solution) == oracle.uniform(18, 0)


def test_a_dense_board_past_15_under_a_node_budget_stops_with_its_root_bound(run_solver):
    board = oracle.random_solvable_board(random.Random(16), 24, 24)
    bound = run_solver(board_text(board), *SINGLE, "--lower-bound")
    stopped = run_solver(board_text(board), *SINGLE, "--max-nodes", "50")
    outcomes = (bound.outcome, stopped.outcome)
    assert outcomes == ("lower bound", "stopped"), bound.describe() + stopped.describe()
    assert stopped.bound >= bound.bound > 0


def test_every_4x4_and_3x4_board_gets_the_same_answer_on_the_wide_layout():
    program = built("unflip_all_boards")
    for h, w, target in [(4, 4, 0), (3, 4, 1), (4, 3, 0)]:
        result = subprocess.run(
            [str(program), "--wide-lattice"],
            input=f"{h} {w} {target}\n".encode() + oracle_optima(h, w, target),
            capture_output=True,
            timeout=600,
        )
        assert result.returncode == 0 and b", 0 wrong" in result.stdout, result.stdout + result.stderr


def test_the_weekly_book_takes_the_same_nodes_and_moves_on_the_wide_layout(run_solver, books):
    for level in books["weekly"][:20]:
        text = board_text(oracle.book_board(level))
        small = run_solver(text, *SINGLE)
        wide = run_solver(text, *SINGLE, "--wide-lattice")
        same = (small.outcome, small.moves, small.nodes) == (wide.outcome, wide.moves, wide.nodes)
        assert same, level["title"] + small.describe() + wide.describe()


@pytest.mark.parametrize("h, w", [(MAX_SIDE, MAX_SIDE), (2, MAX_SIDE), (MAX_SIDE, 2)])
def test_a_side_of_31_is_taken(run_solver, h, w):
    result = run_solver(board_text(oracle.uniform(h, 0, w)), *SINGLE)
    assert result.outcome == "solved" and result.moves == (), result.describe()


@pytest.mark.parametrize("h, w", [(MAX_SIDE + 1, MAX_SIDE + 1), (2, MAX_SIDE + 1), (MAX_SIDE + 1, 2)])
def test_a_side_of_32_is_refused_with_one_line(run_solver, h, w):
    result = run_solver(board_text(oracle.uniform(h, 0, w)), *SINGLE)
    assert result.outcome == "rejected" and result.stdout == "", result.describe()
    assert result.stderr == f"error: the board is {h}x{w} (rows x columns); each must be 2 to {MAX_SIDE}\n"
