"""Rectangular boards, H rows by W columns, through the solver's command line: the solver's optimum equals
the oracle's on random boards up to 10x13 (coset enumeration, CP-SAT), and unsolvable rectangles are named
as such. Every board of the small shapes is checked in tests/test_solver_all_boards.py."""

from __future__ import annotations

import random

import oracle
import pytest
from test_solver_optimality import run_cases


@pytest.mark.parametrize("h, w", [(5, 6), (6, 5), (4, 7), (2, 9)])
def test_uniformly_random_boards_get_the_coset_optimum_on_both_targets(run_solver_many, h, w):
    rng = random.Random(h * 31 + w)
    cases = []
    for i in range(40):
        board = oracle.random_board(rng, h, w)
        target = i % 2
        cases.append((board, target, oracle.coset_optimum(board, target)))
    assert any(optimum is None for _, _, optimum in cases) or oracle.solvable_fraction(h, w) == 1
    run_cases(run_solver_many, cases)


@pytest.mark.parametrize("h, w", [(7, 9), (9, 7), (7, 10), (6, 12)])
def test_uniformly_random_solvable_rectangles_get_the_cpsat_optimum(run_solver_many, h, w):
    rng = random.Random(h * 53 + w)
    boards = [oracle.random_solvable_board(rng, h, w) for _ in range(3)]
    run_cases(run_solver_many, [(b, 0, oracle.cpsat_optimum(b)) for b in boards])


@pytest.mark.parametrize("h, w", [(10, 13), (13, 10), (15, 2), (2, 15), (15, 3), (4, 15)])
def test_rectangles_up_to_the_largest_shapes_get_the_cpsat_optimum(run_solver_many, h, w):
    rng = random.Random(h * 71 + w)
    boards = [oracle.board_from_random_moves(rng, h, count, w=w) for count in (4, 7, 10)]
    boards.append(oracle.random_solvable_board(rng, h, w))
    if h * w > 100:
        boards.pop()  # a uniformly random 10x13 takes CP-SAT minutes
    run_cases(run_solver_many, [(b, 0, oracle.cpsat_optimum(b)) for b in boards])


def test_the_solvable_fraction_depends_on_the_shape():
    """What docs/results.md states: 2 x w boards are one in 2^(w+1), 3 x w and 4 x w (w >= 3) one in 16,
    and from 6 x 7 up every board is solvable."""
    assert oracle.solvable_fraction(2, 6) == 2.0**-7
    assert oracle.solvable_fraction(3, 9) == oracle.solvable_fraction(4, 9) == 1 / 16
    assert oracle.solvable_fraction(5, 9) == 1 / 2
    assert oracle.solvable_fraction(6, 7) == oracle.solvable_fraction(7, 8) == 1
