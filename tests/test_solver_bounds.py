"""The lower bounds never claim more than the truth: the root bound (`--lower-bound`: the pair and
line bounds and the covering LP's weighting) never exceeds the oracle's optimum, on random boards and
on positions deep inside optimal solutions, where a search meets them; the weightings an LP below the
root hands down to its subtree (the covering one and the one with its parity rows' duals) and the
Lagrangian's refutations and weightings never make a search miss its optimum; and the covering bound is
what makes it strong."""

from __future__ import annotations

import random

import oracle
import pytest
from oracle import board_from_mask, board_text, replay

BOUND = ("--lower-bound", "--threads", "1")


def bounds_of(run_solver_many, boards, target=0, *args):
    results = run_solver_many([board_text(b) for b in boards], *BOUND, "--target", target, *args)
    for result in results:
        assert result.outcome in ("lower bound", "unsolvable"), result.describe()
        if result.outcome == "lower bound":
            assert result.target == target, result.describe()
    return [r.bound if r.outcome == "lower bound" else None for r in results]


def overclaims(boards, bounds, optima):
    return [
        f"bound {b} > optimum {o} on\n{board_text(board)}"
        for board, b, o in zip(boards, bounds, optima, strict=True)
        if b is not None and (o is None or b > o)
    ]


def test_no_4x4_board_gets_a_bound_above_its_bfs_distance(run_solver_many):
    dist = oracle.bfs_distances_4x4()
    masks = sorted(dist)
    boards = [board_from_mask(mask, 4) for mask in masks]
    bounds = bounds_of(run_solver_many, boards)
    assert not overclaims(boards, bounds, [dist[m] for m in masks])
    # The bound is informative, not just safe: it is exact on a good share of the boards.
    assert sum(b == dist[m] for b, m in zip(bounds, masks, strict=True)) > len(masks) // 3


@pytest.mark.parametrize("n, target", [(5, 0), (5, 1), (6, 0), (6, 1)])
def test_uniformly_random_boards_get_a_bound_at_most_the_coset_optimum(run_solver_many, n, target):
    rng = random.Random(7000 + 10 * n + target)
    boards = [oracle.random_solvable_board(rng, n) for _ in range(250)]
    bounds = bounds_of(run_solver_many, boards, target)
    assert not overclaims(boards, bounds, [oracle.coset_optimum(b, target) for b in boards])


def positions_along_optimal_solutions(rng: random.Random, n: int, boards: int) -> tuple[list, list[int]]:
    """Every position k moves into an optimal solution (its moves shuffled) of each of `boards` random
    solvable n x n boards, and the moves it has left: exactly that many, since the rest of the solution
    is optimal from there."""
    positions, remaining = [], []
    for _ in range(boards):
        board = oracle.random_solvable_board(rng, n)
        solution = oracle.cpsat_solution(board)
        rng.shuffle(solution)
        for k in range(len(solution)):
            positions.append(replay(board, solution[:k]))
            remaining.append(len(solution) - k)
    return positions, remaining


@pytest.mark.parametrize("n", [7, 8])
def test_positions_along_optimal_solutions_get_a_bound_at_most_the_moves_left(run_solver_many, n):
    """After k moves of an optimal solution of length m the position needs exactly m - k more: every
    such intermediate position is one a search passes through on its way to the answer."""
    positions, remaining = positions_along_optimal_solutions(random.Random(7100 + n), n, 12 if n == 7 else 6)
    bounds = bounds_of(run_solver_many, positions)
    assert not overclaims(positions, bounds, remaining)


@pytest.mark.parametrize("rounds", ["0", "1", "20"])
def test_parity_rows_never_make_the_bound_overclaim(run_solver_many, rounds):
    rng = random.Random(7300 + int(rounds))
    boards = [oracle.random_board(rng, 6) for _ in range(200)]
    bounds = bounds_of(run_solver_many, boards, 0, "--parity-rounds", rounds)
    assert not overclaims(boards, bounds, [oracle.coset_optimum(b) for b in boards])


def assert_solved_in(run_solver_many, positions, moves_needed, args):
    """Each position solved, on target 0, in exactly the moves it needs: a bound that overclaimed anywhere
    in its search would have pruned the optimum, and the answer would be longer, or none."""
    results = run_solver_many([board_text(p) for p in positions], *args)
    failures = [
        problem
        for position, needed, result in zip(positions, moves_needed, results, strict=True)
        if (problem := result.mismatch(position, 0, needed))
    ]
    assert not failures, "\n\n".join(failures[:5])


# The LP solved again at nearly every node (--lp-after 1), so that the weightings it hands down bound
# almost every position of the search.
DEEP_LP = ("--threads", "1", "--quiet", "--lp-after", "1")


@pytest.mark.parametrize("weights", ["parity", "covering only"])
def test_weights_handed_below_a_node_never_make_the_search_miss_the_optimum(run_solver_many, weights):
    rng = random.Random(7500)
    boards = [oracle.random_solvable_board(rng, n) for n in (5, 6) for _ in range(600)]
    args = DEEP_LP if weights == "parity" else (*DEEP_LP, "--no-parity-weights")
    assert_solved_in(run_solver_many, boards, [oracle.coset_optimum(b) for b in boards], args)


@pytest.mark.parametrize("n", [7, 8])
def test_positions_along_optimal_solutions_are_solved_in_the_moves_left_with_the_lp_at_every_node(
    run_solver_many, n
):
    positions, remaining = positions_along_optimal_solutions(random.Random(7600 + n), n, 10 if n == 7 else 5)
    assert_solved_in(run_solver_many, positions, remaining, DEEP_LP)


# The Lagrangian (solver/lagrangian.h) at every node (by default it runs only with 12 or more moves left),
# with more steps than by default so that it proves all it can: its refutations and the weightings it
# hands down bound nearly every position of the search.
DEEP_LAGRANGIAN = ("--threads", "1", "--quiet", "--lagrangian-from", "1", "--lagrangian-iterations", "200")


@pytest.mark.parametrize("n", [5, 6])
def test_the_lagrangian_at_every_node_never_makes_the_search_miss_the_optimum(run_solver_many, n):
    rng = random.Random(7700 + n)
    boards = [oracle.random_solvable_board(rng, n) for _ in range(600)]
    assert_solved_in(run_solver_many, boards, [oracle.coset_optimum(b) for b in boards], DEEP_LAGRANGIAN)


@pytest.mark.parametrize("n", [7, 8])
def test_positions_along_optimal_solutions_are_solved_in_the_moves_left_with_the_lagrangian_at_every_node(
    run_solver_many, n
):
    positions, remaining = positions_along_optimal_solutions(random.Random(7800 + n), n, 10 if n == 7 else 5)
    assert_solved_in(run_solver_many, positions, remaining, DEEP_LAGRANGIAN)


def test_parity_rows_raise_the_bound_on_some_boards(run_solver_many):
    rng = random.Random(7400)
    boards = [oracle.random_solvable_board(rng, n) for n in (8, 9, 10) for _ in range(10)]
    with_parity = bounds_of(run_solver_many, boards)
    covering_only = bounds_of(run_solver_many, boards, 0, "--parity-rounds", "0")
    assert all(a >= b for a, b in zip(with_parity, covering_only, strict=True))
    assert sum(a > b for a, b in zip(with_parity, covering_only, strict=True)) >= len(boards) // 4


def test_mended_duals_raise_the_root_bound_on_some_boards_and_never_past_the_optimum(run_solver_many):
    # Rounding a parity row's dual down can overload a tight move by a unit and lose the LP's whole proof;
    # mended from the move's covering duals (--no-dual-repair keeps the loss), the proof must still be one.
    # 9x9 boards raise it as often, but their optima cost CP-SAT three times the 7x7 and 8x8 ones'.
    rng = random.Random(7600)
    boards = [oracle.random_solvable_board(rng, n) for n in (7, 8) for _ in range(40)]
    mended = bounds_of(run_solver_many, boards)
    unmended = bounds_of(run_solver_many, boards, 0, "--no-dual-repair")
    assert all(a >= b for a, b in zip(mended, unmended, strict=True))
    raised = [(board, a) for board, a, b in zip(boards, mended, unmended, strict=True) if a > b]
    assert len(raised) >= len(boards) // 15, f"mending raised the bound on {len(raised)} boards only"
    optima = [oracle.optimum(board) for board, _ in raised]
    assert not overclaims([board for board, _ in raised], [bound for _, bound in raised], optima)


def test_the_covering_bound_is_stronger_than_the_line_bounds_alone(run_solver_many):
    rng = random.Random(7200)
    boards = [oracle.random_solvable_board(rng, n) for n in (7, 8, 9, 10) for _ in range(10)]
    with_cover = bounds_of(run_solver_many, boards)
    lines_only = bounds_of(run_solver_many, boards, 0, "--no-cover-bound")
    assert all(a >= b for a, b in zip(with_cover, lines_only, strict=True))
    assert sum(a > b for a, b in zip(with_cover, lines_only, strict=True)) >= len(boards) // 2
