"""The solver's move counts against the independent oracle: BFS, coset enumeration, CP-SAT."""

from __future__ import annotations

import random

import oracle
import pytest
from helpers import annealing_tally
from oracle import board_from_mask, board_text

SINGLE = ("--threads", "1", "--quiet")


def report(failures: list[str], total: int) -> str:
    shown = "\n\n".join(failures[:5])
    return f"{len(failures)} of {total} boards wrong; the first {min(5, len(failures))}:\n\n{shown}"


def run_cases(run_solver_many, cases):
    """cases: [(board, target, oracle optimum or None)]; every solver answer must match exactly."""
    cases = list(cases)
    by_target: dict[int, list] = {}
    for case in cases:
        by_target.setdefault(case[1], []).append(case)
    failures = []
    for target, group in sorted(by_target.items()):
        results = run_solver_many([board_text(b) for b, _, _ in group], "--target", target, *SINGLE)
        for (board, _, optimum), result in zip(group, results, strict=True):
            problem = result.mismatch(board, target, optimum)
            if problem:
                failures.append(problem)
    assert not failures, report(failures, len(cases))


# --- 4x4, exhaustively -------------------------------------------------------------------------


def test_every_solvable_4x4_board_is_solved_in_its_bfs_distance(run_solver_many):
    dist = oracle.bfs_distances_4x4()
    run_cases(run_solver_many, [(board_from_mask(mask, 4), 0, d) for mask, d in sorted(dist.items())])


def test_unsolvable_4x4_boards_are_reported_unsolvable_across_every_coset(run_solver_many):
    # All 61,440 would cost over a minute of process start-ups alone; a fixed random tenth still
    # covers each of the 15 unsolvable cosets hundreds of times.
    dist = oracle.bfs_distances_4x4()
    unsolvable = [mask for mask in range(1 << 16) if mask not in dist]
    assert len(unsolvable) == 61440
    sample = random.Random(4444).sample(unsolvable, 6144)
    run_cases(run_solver_many, [(board_from_mask(mask, 4), 0, None) for mask in sample])


def test_every_solvable_4x4_board_reaches_target_1_in_its_bfs_distance_from_all_1(run_solver_many):
    dist = oracle.bfs_distances_4x4()
    full = (1 << 16) - 1
    sample = random.Random(4445).sample(sorted(dist), 1024)
    run_cases(run_solver_many, [(board_from_mask(mask, 4), 1, dist[mask ^ full]) for mask in sample])


# --- 5x5 and 6x6 against coset enumeration -----------------------------------------------------


@pytest.mark.parametrize("n, count", [(5, 150), (6, 150)])
def test_uniformly_random_solvable_boards_get_the_coset_optimum(run_solver_many, n, count):
    rng = random.Random(500 + n)
    cases = []
    for i in range(count):
        board = oracle.random_solvable_board(rng, n)
        # A quarter of the boards go to target 1, so both targets meet the exhaustive oracle.
        target = 1 if i % 4 == 3 else 0
        cases.append((board, target, oracle.coset_optimum(board, target)))
    run_cases(run_solver_many, cases)


@pytest.mark.parametrize("n", [5, 6])
def test_random_unsolvable_boards_are_reported_unsolvable(run_solver_many, n):
    rng = random.Random(600 + n)
    cases = []
    while len(cases) < 60:
        board = oracle.random_board(rng, n)
        if oracle.coset_optimum(board) is None:
            cases.append((board, len(cases) % 2, None))
    run_cases(run_solver_many, cases)


# --- 7x7 and up against CP-SAT -----------------------------------------------------------------


@pytest.mark.parametrize("n", [7, 8])
def test_boards_made_by_6_to_14_random_moves_get_the_cpsat_optimum(run_solver_many, n):
    rng = random.Random(700 + n)
    cases = []
    for i in range(45):
        board = oracle.board_from_random_moves(rng, n, 6 + i % 9)
        cases.append((board, 0, oracle.cpsat_optimum(board)))
    run_cases(run_solver_many, cases)


@pytest.mark.parametrize("n, count", [(7, 12), (8, 8)])
def test_uniformly_random_boards_get_the_cpsat_optimum(run_solver_many, n, count):
    rng = random.Random(800 + n)
    cases = []
    for i in range(count):
        board = oracle.random_solvable_board(rng, n)
        target = i % 2
        cases.append((board, target, oracle.cpsat_optimum(board, target)))
    run_cases(run_solver_many, cases)


@pytest.mark.parametrize("n", range(9, 16))
def test_larger_boards_made_by_a_few_random_moves_get_the_cpsat_optimum(run_solver_many, n):
    rng = random.Random(900 + n)
    cases = []
    for count in (4, 6, 8):
        board = oracle.board_from_random_moves(rng, n, count)
        cases.append((board, 0, oracle.cpsat_optimum(board)))
    run_cases(run_solver_many, cases)


# --- threads -----------------------------------------------------------------------------------


def test_one_two_and_four_threads_find_the_same_optimal_move_count(run_solver):
    rng = random.Random(1234)
    boards = [oracle.random_solvable_board(rng, n) for n in (7, 8, 8, 9, 9, 9)]
    most_nodes = 0
    for board in boards:
        optimum = oracle.cpsat_optimum(board)
        for threads in (1, 2, 4):
            result = run_solver(board_text(board), "--threads", threads, "--quiet")
            problem = result.mismatch(board, 0, optimum)
            assert problem is None, problem
            if threads == 1:
                most_nodes = max(most_nodes, result.nodes)
    # Premise, not performance: boards settled in a few nodes would never hand the pool any work. A worker
    # looks for an idle one after each batch of 1,024 nodes (search.h's kNodeBatch), so four batches at least.
    assert most_nodes >= 4_096, f"the hardest board took only {most_nodes} nodes; pick harder boards"


# --- annealing ---------------------------------------------------------------------------------


def test_annealing_after_every_bound_gets_the_oracle_optimum_and_only_ever_saves_the_last_bound(
    run_solver_many,
):
    """`--anneal-after 0` anneals after every exhausted bound, and a solution it meets one move over that
    bound is the answer. On one thread the exhausted bounds are the same search either way, so a run with
    annealing takes exactly the other's nodes, less the last bound's whenever annealing met the solution;
    and that must happen on most boards with a bound to exhaust, or this test would not be testing
    annealing's answers."""
    rng = random.Random(2612)
    cases = [
        (oracle.random_solvable_board(rng, n), target) for n in (5, 6) for target in (0, 1) for _ in range(20)
    ]
    runs = []
    for target in (0, 1):
        group = [board for board, t in cases if t == target]
        texts = [board_text(board) for board in group]
        annealed = run_solver_many(texts, "--target", target, "--anneal-after", "0", "--threads", "1")
        searched = run_solver_many(texts, "--target", target, "--no-annealing", *SINGLE)
        runs += [
            (with_it, without_it, with_it.mismatch(board, target, oracle.coset_optimum(board, target)))
            for board, with_it, without_it in zip(group, annealed, searched, strict=True)
        ]
    failures, exhausted_one, ended_by_annealing = annealing_tally(runs)
    assert not failures, report(failures, len(cases))
    assert ended_by_annealing >= exhausted_one // 2 > 0, (
        f"annealing ended {ended_by_annealing} of the {exhausted_one} runs that exhausted a bound"
    )


def test_annealing_with_both_targets_reports_the_shorter_and_a_solution_that_reaches_it(run_solver_many):
    rng = random.Random(2613)
    boards = [oracle.random_board(rng, n) for n in (5,) * 20 + (6,) * 20]
    results = run_solver_many(
        [board_text(b) for b in boards], "--target", "either", "--anneal-after", "0", *SINGLE
    )
    failures = []
    for board, result in zip(boards, results, strict=True):
        optima = {t: oracle.coset_optimum(board, t) for t in (0, 1)}
        reachable = [m for m in optima.values() if m is not None]
        if not reachable:
            problem = result.mismatch(board, 0, None)
        else:
            problem = result.mismatch(board, result.target, min(reachable))
            if problem is None and optima[result.target] != min(reachable):
                problem = f"target {result.target} is not the shorter: {optima}\n{result.describe()}"
        if problem:
            failures.append(problem)
    assert not failures, report(failures, len(boards))
