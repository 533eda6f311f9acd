"""The tri core's own promises beside the oracle's (tests/test_solver_tri.py): the wide layout searches a
tri board node for node as the small one does; budgets and --lower-bound give bounds no higher than the
optimum; a 31x31 tri board is solved; and the
two-colour output is the same whether --scheme two is given or not."""

from __future__ import annotations

import random

import oracle
from oracle import tri_board_text

TRI = ("--scheme", "tri", "--quiet", "--threads", "1")


def without_time(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if not line.startswith("TIME ")]


def designer_boards(seed: int, sides: list[int], presses: int) -> list[oracle.TriBoard]:
    rng = random.Random(seed)
    return [oracle.tri_board_from_random_presses(rng, side, presses) for side in sides]


def test_the_wide_layout_searches_tri_boards_node_for_node_as_the_small_one(run_solver_many):
    boards = designer_boards(3601, [4, 5, 6, 7, 7, 8], 12) + [oracle.random_tri_board(random.Random(3602), 5)]
    texts = [tri_board_text(board) for board in boards]
    small = run_solver_many(texts, *TRI)
    wide = run_solver_many(texts, *TRI, "--wide-lattice")
    for board, a, b in zip(boards, small, wide, strict=True):
        same = a.returncode == b.returncode and without_time(a.stdout) == without_time(b.stdout)
        assert same, (board, a.describe(), b.describe())
        assert a.scheme == "tri" and a.nodes is not None and a.nodes > 0, a.describe()


def test_a_node_budget_and_lower_bound_never_claim_more_than_the_tri_optimum(run_solver):
    board = oracle.tri_board_from_random_presses(random.Random(3603), 7, 16)
    text = tri_board_text(board)
    solved = run_solver(text, *TRI)
    assert solved.returncode == 0 and solved.optimum is not None, solved.describe()
    stopped = run_solver(text, *TRI, "--max-nodes", "2")
    assert stopped.returncode == 3 and stopped.outcome == "stopped", stopped.describe()
    assert stopped.scheme == "tri" and stopped.bound is not None and 1 <= stopped.bound <= solved.optimum
    bound = run_solver(text, *TRI, "--lower-bound")
    assert bound.returncode == 0 and bound.scheme == "tri", bound.describe()
    assert bound.bound is not None and 1 <= bound.bound <= solved.optimum


def test_a_31x31_tri_board_of_twelve_presses_is_solved_and_replays_to_all_ones(run_solver):
    board = oracle.tri_board_from_random_presses(random.Random(3604), 31, 12)
    result = run_solver(tri_board_text(board), *TRI, "--max-seconds", "60")
    assert result.returncode == 0 and result.moves is not None, result.describe()
    assert 1 <= len(result.moves) <= 12
    assert oracle.tri_replay(board, result.moves) == oracle.tri_solved(31, 31), result.describe()


def test_scheme_two_prints_what_no_scheme_prints(run_solver):
    text = "0110\n1001\n1001\n0110\n"
    plain = run_solver(text, "--quiet", "--threads", "1")
    two = run_solver(text, "--scheme", "two", "--quiet", "--threads", "1")
    assert plain.returncode == two.returncode == 0 and two.scheme == "two"
    assert without_time(plain.stdout) == without_time(two.stdout) and not two.stdout.startswith("SCHEME")


def test_a_scheme_the_solver_does_not_know_is_refused_in_one_line(run_solver):
    result = run_solver("11\n11\n", "--scheme", "three", "--quiet")
    assert result.returncode == 2 and result.stderr == "error: --scheme needs two or tri, not 'three'\n"
