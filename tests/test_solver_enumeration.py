"""Every optimal solution, each once: `--all-solutions`, `--count` and `--max-solutions K` agree with
exhaustive enumeration of the optimal move sets (the oracle's coset search) and with the official daily
book's exhaustive solution lists, whatever the threads or the target option."""

from __future__ import annotations

import random

import oracle
import pytest
from oracle import board_from_mask, board_text, replay, uniform
from test_solver_premises import UNIFORM_10


def enumeration(result):
    """(target, optimum, solutions as a set of frozensets, count, incomplete) of an enumeration, whose
    output the shared parser has checked line by line."""
    assert result.outcome in ("solved", "unsolvable") and result.solution_count is not None, result.describe()
    solutions = set(result.solutions or ())
    assert len(solutions) == len(result.solutions or ()), "a solution listed twice\n" + result.describe()
    return result.target, result.optimum, solutions, result.solution_count, result.incomplete


def check_against_oracle(boards, results, target=0):
    failures = []
    for board, result in zip(boards, results, strict=True):
        expected = oracle.optimal_solution_sets(board, target)
        got_target, optimum, solutions, count, incomplete = enumeration(result)
        h, w = oracle.shape(board)
        for solution in solutions:
            assert replay(board, solution) == uniform(h, target, w), result.describe()
        if expected is None:
            ok = count == 0 and optimum is None
        else:
            ok = (
                solutions == expected
                and count == len(expected)
                and not incomplete
                and got_target == target
                and optimum == len(next(iter(expected)))
            )
        if not ok:
            failures.append(f"oracle: {expected}\n{result.describe()}")
    assert not failures, f"{len(failures)} of {len(boards)} wrong; the first:\n" + failures[0]


def test_every_solvable_4x4_board_lists_exactly_its_optimal_move_sets(run_solver_many):
    boards = [board_from_mask(mask, 4) for mask in sorted(oracle.bfs_distances_4x4())]
    check_against_oracle(
        boards,
        run_solver_many([board_text(b) for b in boards], "--all-solutions", "--threads", "1", "--quiet"),
    )


@pytest.mark.parametrize("n, target", [(5, 0), (5, 1), (6, 0), (6, 1)])
def test_random_boards_list_exactly_the_oracle_optimal_sets(run_solver_many, n, target):
    rng = random.Random(9000 + 10 * n + target)
    boards = [oracle.random_board(rng, n) for _ in range(120)]
    results = run_solver_many(
        [board_text(b) for b in boards], "--all-solutions", "--target", target, "--threads", "2", "--quiet"
    )
    check_against_oracle(boards, results, target)


@pytest.mark.parametrize("h, w", [(3, 5), (4, 6), (5, 4)])
def test_rectangles_list_exactly_the_oracle_optimal_sets(run_solver_many, h, w):
    rng = random.Random(9100 + h * 10 + w)
    boards = [oracle.random_board(rng, h, w) for _ in range(60)]
    check_against_oracle(
        boards,
        run_solver_many([board_text(b) for b in boards], "--all-solutions", "--threads", "1", "--quiet"),
    )


def test_counts_do_not_depend_on_threads_target_option_or_symmetry(run_solver_many):
    rng = random.Random(9200)
    boards = [oracle.board_from_random_moves(rng, 7, 9) for _ in range(6)]
    boards += [oracle.symmetric_board(rng, 8, group) for group in ("quarter turns", "every symmetry")]
    texts = [board_text(b) for b in boards]
    reference = [enumeration(r)[3] for r in run_solver_many(texts, "--count", "--threads", "1", "--quiet")]
    assert max(reference) > 1, "premise: some board with several optimal solutions"
    for args in (["--threads", "2"], ["--threads", "4"], ["--no-symmetry"], ["--target", "either"]):
        results = run_solver_many(texts, "--count", *args, "--quiet")
        for board, expected, result in zip(boards, reference, results, strict=True):
            target, optimum, _, count, _ = enumeration(result)
            if target == 0:  # with --target either the count is for target 0 whenever it is optimal
                assert count == expected, (args, board_text(board), result.describe())
            else:
                assert args == ["--target", "either"], result.describe()


def test_max_solutions_stops_at_k_and_says_there_may_be_more(run_solver_many):
    rng = random.Random(9300)
    boards = [oracle.random_board(rng, 6) for _ in range(80)]
    boards = [b for b in boards if (s := oracle.optimal_solution_sets(b)) and len(s) >= 3][:10]
    assert len(boards) >= 5, "premise: boards with three or more optimal solutions"
    for k in (1, 2):
        results = run_solver_many([board_text(b) for b in boards], "--max-solutions", k, "--quiet")
        for board, result in zip(boards, results, strict=True):
            _, _, solutions, count, incomplete = enumeration(result)
            assert count == k == len(solutions) and incomplete, result.describe()
            assert solutions <= oracle.optimal_solution_sets(board)
    results = run_solver_many([board_text(b) for b in boards], "--count", "--max-solutions", 1000, "--quiet")
    for board, result in zip(boards, results, strict=True):
        _, _, solutions, count, incomplete = enumeration(result)
        assert count == len(oracle.optimal_solution_sets(board)) and not incomplete and not solutions


SPEC_TEXT = "00000\n00010\n00000\n01000\n00000\n"


def test_a_budget_that_runs_out_while_counting_keeps_the_proven_optimum_and_the_solutions_found(run_solver):
    """The specification's board: 45 nodes prove its optimum 8, 100 list its two optimal sets. Every budget
    between stops the listing with exit 3, yet keeps the optimum and the sets found so far."""
    board = oracle.as_board(SPEC_TEXT.split())
    expected = oracle.optimal_solution_sets(board)
    solve = run_solver(SPEC_TEXT, "--threads", "1", "--quiet")
    full = run_solver(SPEC_TEXT, "--all-solutions", "--threads", "1", "--quiet")
    assert (solve.move_count, full.solution_count, set(full.solutions)) == (8, 2, expected), full.describe()
    counts = []
    for budget in range(solve.nodes, full.nodes):
        result = run_solver(SPEC_TEXT, "--all-solutions", "--max-nodes", budget, "--threads", "1", "--quiet")
        assert result.outcome == "stopped" and result.returncode == 3, result.describe()
        assert (result.target, result.optimum, result.incomplete, result.nodes) == (0, 8, True, budget), (
            result.describe()
        )
        assert set(result.solutions) <= expected and result.solution_count == len(result.solutions)
        counts.append(result.solution_count)
    assert counts == sorted(counts) and counts[0] < 2 and counts[-1] == 2, counts
    listing = ("--all-solutions", "--threads", "1", "--quiet")
    short = run_solver(SPEC_TEXT, *listing, "--max-nodes", solve.nodes - 1)
    assert (short.outcome, short.bound, short.optimum) == ("stopped", 8, None), short.describe()
    enough = run_solver(SPEC_TEXT, *listing, "--max-nodes", full.nodes)
    assert (enough.outcome, enough.solution_count, enough.incomplete) == ("solved", 2, False), (
        enough.describe()
    )


@pytest.mark.parametrize("threads", ["1", "2"])
def test_a_count_stopped_by_its_budget_says_so_with_the_optimum_on_any_threads_or_target(run_solver, threads):
    """A uniform 10x10 board (tests/test_solver_premises.py's): its optimum 21 takes 475 nodes on one
    thread, its one optimal solution 1,961 to count (about 470-800 and 2,300-2,800 on two threads,
    targets 0 and either), so 1,200 nodes prove the optimum and stop the count."""
    for target in ("0", "either"):
        result = run_solver(
            UNIFORM_10, "--count", "--max-nodes", 1200, "--threads", threads, "--target", target
        )
        assert (result.outcome, result.optimum, result.incomplete) == ("stopped", 21, True), result.describe()
        assert result.solution_count <= 1 and not result.solutions, result.describe()


def test_the_default_output_is_unchanged_by_the_enumeration_options(run_solver):
    result = run_solver("00000\n00010\n00000\n01000\n00000\n", "--threads", "1", "--quiet")
    assert "SOLUTION" not in result.stdout and result.move_count == 8


def test_conflicting_enumeration_options_are_rejected(run_solver):
    for args in (["--all-solutions", "--count"], ["--count", "--lower-bound"], ["--max-solutions", "0"]):
        result = run_solver("00\n00\n", *args)
        assert result.outcome == "rejected" and result.stderr.startswith("error: "), (args, result.describe())


def test_every_exhaustive_daily_level_lists_exactly_the_books_optimal_solutions(books, run_solver_many):
    levels = [level for level in books["daily"] if level.get("solutionType") == "exhaustive"]
    assert len(levels) >= 100
    boards = [oracle.book_board(level) for level in levels]
    results = run_solver_many([board_text(b) for b in boards], "--all-solutions", "--threads", "2", "--quiet")
    failures = []
    for level, board, result in zip(levels, boards, results, strict=True):
        n = len(board)
        expected = {frozenset(oracle.book_vector_moves(n, vector)) for vector in level["solutions"]}
        _, optimum, solutions, count, incomplete = enumeration(result)
        if solutions != expected or count != len(expected) or incomplete or optimum != level["par"]:
            failures.append(f"level {level.get('index')}: book {len(expected)}, solver {count}")
    assert not failures, "\n".join(failures)
