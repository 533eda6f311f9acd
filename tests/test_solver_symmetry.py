"""Symmetry breaking never costs an optimum: boards invariant under each subgroup of the square's
symmetries, including boards whose optimal solutions are all asymmetric, get the oracle's optimum."""

from __future__ import annotations

import random

import oracle
import pytest
from oracle import board_text
from test_solver_optimality import run_cases


def symmetric_cases(group: str, sizes_and_counts: list[tuple[int, int]], seed: int):
    rng = random.Random(seed)
    cases = []
    for n, count in sizes_and_counts:
        for i in range(count):
            board = oracle.symmetric_board(rng, n, group)
            assert oracle.is_invariant(board, group)
            target = i % 2
            cases.append((board, target, oracle.optimum(board, target)))
    return cases


@pytest.mark.parametrize("group", sorted(oracle.SYMMETRY_GROUPS))
def test_boards_invariant_under_each_symmetry_group_get_the_oracle_optimum(run_solver_many, group):
    seed = sorted(oracle.SYMMETRY_GROUPS).index(group)
    cases = symmetric_cases(group, [(5, 10), (6, 10), (7, 4), (8, 3)], 3000 + seed)
    run_cases(run_solver_many, cases)


@pytest.mark.parametrize("group", ["quarter turns", "every symmetry", "both mirrors"])
def test_several_threads_agree_on_symmetric_boards(run_solver_many, group):
    cases = [case for case in symmetric_cases(group, [(8, 4), (9, 2)], 3100) if case[1] == 0]
    for threads in ("2", "3"):
        results = run_solver_many([board_text(board) for board, _, _ in cases], "--threads", threads)
        for (board, _, optimum), result in zip(cases, results, strict=True):
            problem = result.mismatch(board, 0, optimum)
            assert problem is None, problem


def test_symmetric_boards_whose_every_optimal_solution_is_asymmetric_are_solved_optimally(run_solver_many):
    """The premise that makes symmetry breaking delicate: a symmetric board need not have a symmetric
    optimal solution. Find such boards with the oracle (the best symmetric solution is longer than the
    optimum), then check the solver on them."""
    rng = random.Random(3200)
    found = []
    for group in ("half turn", "quarter turns", "left-right mirror", "every symmetry"):
        for _ in range(12):
            board = oracle.symmetric_board(rng, 7, group)
            best = oracle.cpsat_optimum(board)
            if best is None:
                continue
            symmetric_best = oracle.cpsat_optimum(board, invariant_under=group)
            if symmetric_best is None or symmetric_best > best:
                found.append((board, 0, best))
    assert len(found) >= 4, f"only {len(found)} boards without a symmetric optimum; widen the search"
    run_cases(run_solver_many, found)
