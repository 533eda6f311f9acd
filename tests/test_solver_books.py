"""The solver on the game's official level books, read from ../shared/books at test time.

The books' boards stay outside the repository: nothing here stores a board, only titles and the
optima the specification publishes for the weekly challenges.
"""

from __future__ import annotations

import oracle
import pytest
from oracle import board_text

SINGLE = ("--threads", "1", "--quiet")

# Optima from the specification's weekly table, by title.
WEEKLY_OPTIMA = {
    "Weekly #1": 12, "Weekly #2": 18, "Weekly #3": 18, "Weekly #4": 19, "Weekly #5": 17,
    "Weekly #6A": 24, "Weekly #6B": 16, "Weekly #7": 17, "Weekly #8": 19, "Weekly #9": 13,
    "Weekly #10": 18, "Weekly #11": 12, "Weekly #12": 13, "Weekly #13": 17, "Weekly #14": 14,
    "Weekly #15": 24, "Weekly #16": 25, "Weekly #17": 14, "Weekly #18": 11, "Weekly #19": 19,
}  # fmt: skip
# These two take over a minute each on 2 cores: by default they get a budgeted run instead of a full solve.
SLOW_WEEKLIES = ("Weekly #6A", "Weekly #15")


def solve_levels(run_solver_many, levels):
    boards = [oracle.book_board(level) for level in levels]
    return boards, run_solver_many([board_text(b) for b in boards], *SINGLE)


def assert_book_solved_in_par(run_solver_many, name, levels):
    boards, results = solve_levels(run_solver_many, levels)
    failures = []
    for level, board, result in zip(levels, boards, results, strict=True):
        problem = result.mismatch(board, 0, level["par"])
        if problem:
            failures.append(f"{name} level index {level.get('index')} ({len(board)}x{len(board)}): {problem}")
    assert not failures, f"{len(failures)} of {len(levels)} levels wrong:\n\n" + "\n\n".join(failures[:5])


def test_all_159_daily_levels_are_solved_in_exactly_par_moves(run_solver_many, books):
    daily = books["daily"]
    assert len(daily) == 159 and all(isinstance(level["par"], int) for level in daily)
    assert_book_solved_in_par(run_solver_many, "daily", daily)


def test_all_119_main_levels_with_a_par_are_solved_in_exactly_par_moves(run_solver_many, books):
    with_par = [level for level in books["main"] if level.get("par") is not None]
    assert len(books["main"]) == 120 and len(with_par) == 119
    assert_book_solved_in_par(run_solver_many, "main", with_par)


def test_the_main_level_without_par_is_solved_optimally_in_at_most_the_books_2_moves(run_solver, books):
    (level,) = [level for level in books["main"] if level.get("par") is None]
    board = oracle.book_board(level)
    stored = oracle.book_vector_moves(len(board), level["solutionVector"])
    assert len(stored) == 2
    optimum = oracle.optimum(board)
    assert optimum <= 2
    result = run_solver(board_text(board), *SINGLE)
    assert result.mismatch(board, 0, optimum) is None, result.mismatch(board, 0, optimum)


def weekly_level(books, title):
    (level,) = [level for level in books["weekly"] if level["title"] == title]
    return level


def test_the_weekly_book_holds_exactly_the_titles_of_the_specifications_table(books):
    assert sorted(level["title"] for level in books["weekly"]) == sorted(WEEKLY_OPTIMA)


@pytest.mark.parametrize("title", [t for t in WEEKLY_OPTIMA if t not in SLOW_WEEKLIES])
def test_weekly_challenges_are_solved_in_their_known_optimum(run_solver, books, title):
    board = oracle.book_board(weekly_level(books, title))
    result = run_solver(board_text(board), "--quiet")
    problem = result.mismatch(board, 0, WEEKLY_OPTIMA[title])
    assert problem is None, f"{title}: {problem}"


@pytest.mark.parametrize("title", SLOW_WEEKLIES)
def test_the_slowest_weeklies_under_a_short_budget_give_the_optimum_or_a_bound_not_above_it(
    run_solver, books, title
):
    board = oracle.book_board(weekly_level(books, title))
    optimum = WEEKLY_OPTIMA[title]
    result = run_solver(board_text(board), "--quiet", "--max-seconds", "2")
    if result.outcome == "stopped":
        assert result.returncode == 3 and result.target == 0, result.describe()
        assert 0 <= result.bound <= optimum, f"{title}: bound above {optimum}\n{result.describe()}"
    else:
        problem = result.mismatch(board, 0, optimum)
        assert problem is None, f"{title}: {problem}"


@pytest.mark.parametrize("title", SLOW_WEEKLIES)
def test_the_slowest_weeklies_are_solved_in_their_known_optimum(run_solver, books, title):
    board = oracle.book_board(weekly_level(books, title))
    result = run_solver(board_text(board), "--quiet")
    problem = result.mismatch(board, 0, WEEKLY_OPTIMA[title])
    assert problem is None, f"{title}: {problem}"


def smallest(levels, count, sizes):
    picked = [level for level in levels if len(level["tiles"]) in sizes]
    return sorted(picked, key=lambda level: (len(level["tiles"]), level["index"]))[:count]


@pytest.mark.parametrize(
    "book, sizes, count",
    [
        ("daily", (4, 5, 6), 16),
        ("daily", (7, 8), 4),
        ("main", (4, 5, 6), 7),
        ("main", (7,), 3),
    ],
)
def test_a_sample_of_book_levels_has_par_equal_to_the_oracle_optimum_and_to_the_solver(
    run_solver_many, books, book, sizes, count
):
    levels = smallest([lv for lv in books[book] if lv.get("par") is not None], count, sizes)
    assert len(levels) == count
    boards, results = solve_levels(run_solver_many, levels)
    for level, board, result in zip(levels, boards, results, strict=True):
        optimum = oracle.coset_optimum(board) if len(board) <= 6 else oracle.cpsat_optimum(board)
        where = f"{book} level index {level['index']}"
        assert optimum == level["par"], f"{where}: oracle {optimum}, par {level['par']}"
        assert result.mismatch(board, 0, optimum) is None, f"{where}: {result.mismatch(board, 0, optimum)}"
