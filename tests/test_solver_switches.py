"""Every pruning switch changes only the speed, never the answer: each configuration, alone and with
threads sharing the transposition table, gives the oracle's optimum on the same boards."""

from __future__ import annotations

import random

import oracle
import pytest
from oracle import board_text

CONFIGURATIONS = [
    (),
    ("--tt",),
    ("--tt", "--tt-min-budget", "1"),
    ("--tt", "--tt-min-budget", "1", "--no-exclusion"),
    ("--no-exclusion",),
    ("--no-ordering",),
    ("--no-fewest-branches",),
    ("--no-pair-bound",),
    ("--no-line-bound",),
    ("--no-pair-bound", "--no-line-bound", "--no-fewest-branches", "--no-ordering"),
    ("--no-cover-bound",),
    ("--lp-after", "0"),
    ("--lp-after", "1"),
    ("--lp-after", "1", "--no-exclusion"),
    ("--lp-after", "1", "--tt", "--tt-min-budget", "1"),
    ("--lp-after", "1", "--no-pair-bound", "--no-line-bound"),
    ("--no-symmetry",),
    ("--no-symmetry", "--lp-after", "1"),
    ("--parity-rounds", "0"),
    ("--parity-rounds", "20", "--lp-after", "1"),
    ("--parity-rounds", "20", "--lp-after", "1", "--no-exclusion"),
]


@pytest.fixture(scope="module")
def cases():
    """Uniform random 5x5 and 6x6 boards, and 7x7 and 8x8 boards made by random moves, with their optima."""
    rng = random.Random(2024)
    boards = [oracle.random_solvable_board(rng, n) for n in (5, 5, 5, 6, 6, 6)]
    boards += [oracle.board_from_random_moves(rng, 7, count) for count in (5, 7, 9)]
    boards += [oracle.board_from_random_moves(rng, 8, count) for count in (10, 12)]
    return [(board, oracle.optimum(board)) for board in boards]


@pytest.mark.parametrize("switches", CONFIGURATIONS, ids=[" ".join(c) or "defaults" for c in CONFIGURATIONS])
@pytest.mark.parametrize("threads", ["1", "2"])
def test_each_switch_configuration_finds_the_oracle_optimum(run_solver_many, cases, switches, threads):
    results = run_solver_many([board_text(board) for board, _ in cases], "--threads", threads, *switches)
    failures = [
        problem
        for (board, optimum), result in zip(cases, results, strict=True)
        if (problem := result.mismatch(board, 0, optimum))
    ]
    assert not failures, "\n\n".join(failures)
