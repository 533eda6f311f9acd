"""The WebAssembly core (`make web`, docs/web.md) under node, held to the protocol's own checks: the same
source built without threads, so its one worker runs inline and the driver watches the time budget and
writes the progress lines from inside the search. A subset of tests/test_solver_protocol.py's checks,
some of its tests run here as they are, on every outcome, bad input, enumeration and both budgets."""

from __future__ import annotations

import re
from pathlib import Path

import oracle
import pytest
from helpers import MAX_SIDE, random_board_text
from oracle import board_text, uniform
from test_solver_protocol import (
    SPEC_BOARD,
    SPEC_TEXT,
    assert_rejected,
    assert_solved,
    test_a_search_that_fits_its_node_budget_reports_its_solution_and_one_node_less_stops_it,
    test_the_specification_board_needs_exactly_8_moves_and_they_clear_it,
    weekly_text,
)

# Run here as they are, against the WebAssembly core (the module's run_solver below).
__all__ = [
    "test_the_specification_board_needs_exactly_8_moves_and_they_clear_it",
    "test_a_search_that_fits_its_node_budget_reports_its_solution_and_one_node_less_stops_it",
]

QUIET = ("--quiet",)
# Uniformly random 13x13 #2: more than 10 s on one native thread (it is not solved here), so any budget
# below that stops it mid-search.
LONG_BOARD = random_board_text(13, 2)


@pytest.fixture(scope="module")
def core_command(web_build: Path, node: str) -> list[str]:
    return [node, str(web_build / "core_node.js"), str(web_build / "unflip_core.js")]


@pytest.fixture(scope="module")
def run_solver(make_solver_runner, core_command: list[str]):
    """The protocol tests' run_solver, running the WebAssembly core instead of ./unflip_solver."""
    return make_solver_runner(core_command)


def test_every_outcome_of_a_target_has_the_protocols_shape(run_solver):
    ones = uniform(8, 1)
    assert_solved(run_solver(board_text(ones), *QUIET), ones, 0, 1)
    assert_solved(run_solver(board_text(ones), "--target", "1", *QUIET), ones, 1, 0)
    unsolvable = oracle.as_board(["10", "00"])
    for target in ("0", "1", "either"):
        result = run_solver(board_text(unsolvable), "--target", target, *QUIET)
        assert (result.outcome, result.nodes) == ("unsolvable", 0), result.describe()
    bound = run_solver(SPEC_TEXT, "--lower-bound", *QUIET)
    assert bound.outcome == "lower bound" and 0 < bound.bound <= 8, bound.describe()


def test_the_weekly_levels_optima_are_the_native_solvers(run_solver, make_solver_runner, solver_path):
    native = make_solver_runner([str(solver_path)])
    for number in (3, 16, 21):
        text = weekly_text(number)
        result = run_solver(text, *QUIET)
        assert_solved(result, oracle.as_board(text), 0, native(text, "--threads", "1", *QUIET).move_count)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("0a0\n000\n000\n", id="letter"),
        pytest.param("", id="empty"),
        pytest.param(board_text(uniform(MAX_SIDE + 1, 0)), id="one-too-large"),
    ],
)
def test_malformed_boards_are_rejected_with_one_error_line_and_exit_2(run_solver, text):
    assert_rejected(run_solver(text))


@pytest.mark.parametrize("args", [["--frobnicate"], ["--threads", "0"], ["--max-nodes", "x"]])
def test_bad_flags_are_rejected_with_one_error_line_and_exit_2(run_solver, args):
    assert_rejected(run_solver(SPEC_TEXT, *args))


def test_more_than_one_thread_is_rejected_by_the_build_without_threads(run_solver):
    result = run_solver(SPEC_TEXT, "--threads", "2")
    assert_rejected(result)
    assert "from 1 to 1" in result.stderr, result.describe()
    assert_solved(run_solver(SPEC_TEXT, "--threads", "1", *QUIET), SPEC_BOARD, 0, 8)


def test_every_optimal_solution_is_listed_counted_and_capped_as_the_protocol_says(run_solver):
    listed = run_solver(SPEC_TEXT, "--all-solutions", *QUIET)
    assert (listed.outcome, listed.optimum, listed.solution_count) == ("solved", 8, 2), listed.describe()
    assert all(oracle.replay(SPEC_BOARD, sorted(s)) == uniform(5, 0) for s in listed.solutions)
    counted = run_solver(SPEC_TEXT, "--count", *QUIET)
    counts = (counted.solution_count, counted.solutions, counted.incomplete)
    assert counts == (2, (), False), counted.describe()
    capped = run_solver(SPEC_TEXT, "--all-solutions", "--max-solutions", "1", *QUIET)
    counts = (capped.solution_count, len(capped.solutions), capped.incomplete)
    assert counts == (1, 1, True), capped.describe()


@pytest.mark.parametrize("budget", [1, 500])
def test_a_node_budget_stops_one_worker_at_exactly_its_budget(run_solver, budget):
    result = run_solver(weekly_text(21), "--max-nodes", budget, *QUIET)
    assert (result.outcome, result.nodes) == ("stopped", budget), result.describe()


def test_a_time_budget_stops_the_inline_worker_which_writes_progress_lines_as_it_searches(
    make_solver_runner, core_command
):
    """Without threads nothing watches the clock beside the search: the worker must call the watch itself.
    A core whose worker did not would search on past the budget, to its answer or to the timeout."""
    result = make_solver_runner(core_command, timeout=120)(LONG_BOARD, "--max-seconds", "2.5")
    assert result.outcome == "stopped" and result.bound > 0, result.describe()
    assert result.seconds >= 2.5, result.describe()
    assert re.search(r"^bound [0-9]+ searching, nodes=[1-9][0-9]*$", result.stderr, re.M), result.describe()
