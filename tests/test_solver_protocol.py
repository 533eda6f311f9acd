"""./unflip_solver's line protocol (docs/protocol.md): input formats, flags, the shape of every outcome."""

from __future__ import annotations

import json
import random
import re
import subprocess

import oracle
import pytest
from helpers import MAX_SIDE, MIN_SIDE, REPO
from oracle import as_board, board_text, replay, uniform

from unflip_frontend.contract import solver_contract

EXITS = solver_contract().exits

SPEC_BOARD = as_board(["00000", "00010", "00000", "01000", "00000"])
SPEC_TEXT = board_text(SPEC_BOARD)
QUIET = ("--threads", "1", "--quiet")


def assert_solved(result, board, target, optimum):
    assert result.mismatch(board, target, optimum) is None, result.mismatch(board, target, optimum)


# --- solved boards -----------------------------------------------------------------------------


def test_the_specification_board_needs_exactly_8_moves_and_they_clear_it(run_solver):
    result = run_solver(SPEC_TEXT, *QUIET)
    assert_solved(result, SPEC_BOARD, 0, 8)
    assert oracle.coset_optimum(SPEC_BOARD) == 8


def test_a_board_file_named_on_the_command_line_is_read_like_standard_input(run_solver, tmp_path):
    path = tmp_path / "board.txt"
    path.write_text(SPEC_TEXT)
    assert_solved(run_solver(None, path, *QUIET), SPEC_BOARD, 0, 8)
    assert_solved(run_solver(None, *QUIET, path), SPEC_BOARD, 0, 8)


def test_the_repository_board_txt_is_the_specification_example(run_solver):
    assert as_board((REPO / "board.txt").read_text()) == SPEC_BOARD
    assert_solved(run_solver(None, REPO / "board.txt", "--quiet"), SPEC_BOARD, 0, 8)


def test_target_0_is_the_default(run_solver):
    assert run_solver(SPEC_TEXT, "--quiet").target == 0


@pytest.mark.parametrize("n", range(MIN_SIDE, MAX_SIDE + 1))
def test_an_all_0_board_of_every_size_needs_no_moves(run_solver, n):
    result = run_solver(board_text(uniform(n, 0)), *QUIET)
    assert_solved(result, uniform(n, 0), 0, 0)
    assert result.stdout.startswith("TARGET 0\nMOVES 0\nNODES ")


@pytest.mark.parametrize("n", [2, 3, 8, 15, 16, MAX_SIDE])
def test_an_all_1_board_is_one_full_square_from_target_0_and_none_from_target_1(run_solver, n):
    ones = uniform(n, 1)
    to_zero = run_solver(board_text(ones), *QUIET)
    assert_solved(to_zero, ones, 0, 1)
    assert to_zero.moves == ((0, 0, n),)
    assert_solved(run_solver(board_text(ones), "--target", "1", *QUIET), ones, 1, 0)


def test_2x2_boards_are_accepted_and_solved_or_rejected_as_unsolvable(run_solver):
    for mask in range(16):
        board = oracle.board_from_mask(mask, 2)
        optimum = {0: 0, 15: 1}.get(mask)
        assert_solved(run_solver(board_text(board), *QUIET), board, 0, optimum)


def test_a_15x15_board_made_by_a_few_moves_is_solved_optimally(run_solver):
    rng = random.Random(1515)
    for count in (3, 5):
        board = oracle.board_from_random_moves(rng, 15, count)
        result = run_solver(board_text(board), "--quiet")
        assert_solved(result, board, 0, oracle.cpsat_optimum(board))


def test_target_1_is_solved_optimally_against_the_oracle(run_solver):
    rng = random.Random(21)
    for n in (3, 4, 5, 6):
        for _ in range(6):
            board = oracle.random_solvable_board(rng, n)
            result = run_solver(board_text(board), "--target", "1", *QUIET)
            assert_solved(result, board, 1, oracle.coset_optimum(board, 1))


def test_target_either_picks_the_target_with_the_shorter_optimum(run_solver):
    rng = random.Random(22)
    seen_targets = set()
    for n in (3, 4, 5, 6):
        for _ in range(12):
            board = oracle.random_solvable_board(rng, n)
            optima = {t: oracle.coset_optimum(board, t) for t in (0, 1)}
            result = run_solver(board_text(board), "--target", "either", *QUIET)
            assert result.outcome == "solved", result.describe()
            assert result.move_count == min(optima.values()), (optima, result.describe())
            assert optima[result.target] == result.move_count, (optima, result.describe())
            assert replay(board, result.moves) == uniform(n, result.target), result.describe()
            if optima[0] != optima[1]:
                seen_targets.add(result.target)
    assert seen_targets == {0, 1}, "the sample should include boards where each target is strictly shorter"


def test_the_two_targets_optima_differ_by_at_most_one_in_the_solver_too(run_solver):
    rng = random.Random(23)
    for n in (5, 7, 9):
        for _ in range(4):
            text = board_text(oracle.board_from_random_moves(rng, n, 7))
            zero, one = (run_solver(text, "--target", t, *QUIET) for t in "01")
            assert zero.outcome == one.outcome == "solved"
            assert abs(zero.move_count - one.move_count) <= 1, (zero.describe(), one.describe())


# --- unsolvable boards -------------------------------------------------------------------------


# Only sizes 2 to 6 have unsolvable boards: from 7x7 on the moves span every board.
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_unsolvable_boards_exit_1_with_unsolvable_and_zero_nodes_for_every_target(run_solver, n):
    rng = random.Random(1000 + n)
    found = 0
    while found < 3:
        board = oracle.random_board(rng, n)
        if oracle.is_solvable(board):
            continue
        found += 1
        for target in ("0", "1", "either"):
            result = run_solver(board_text(board), "--target", target, "--quiet")
            assert result.returncode == EXITS.unsolvable, result.describe()
            assert result.outcome == "unsolvable" and result.nodes == 0, result.describe()
            lines = result.stdout.splitlines()
            assert lines[1:3] == ["UNSOLVABLE", "NODES 0"], result.describe()
            if target != "either":
                assert result.target == int(target), result.describe()


# --- input formats -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param(lambda t: t.replace("\n", "\r\n"), id="crlf"),
        pytest.param(lambda t: t.replace("\n", "  \n"), id="trailing-spaces"),
        pytest.param(lambda t: t.replace("\n", " \t\n"), id="trailing-space-and-tab"),
        pytest.param(lambda t: t + "\n", id="final-blank-line"),
        pytest.param(lambda t: t + "\n\n\n", id="several-final-blank-lines"),
        pytest.param(lambda t: t.replace("\n", " \r\n") + "\r\n", id="crlf-trailing-spaces-and-blank-line"),
        pytest.param(lambda t: t.rstrip("\n"), id="no-final-newline"),
    ],
)
def test_harmless_whitespace_variants_of_a_board_are_accepted(run_solver, variant):
    assert_solved(run_solver(variant(SPEC_TEXT), *QUIET), SPEC_BOARD, 0, 8)


def test_the_1_2_encoding_maps_1_to_0_and_2_to_1(run_solver):
    text = SPEC_TEXT.replace("1", "2").replace("0", "1")
    result = run_solver(text, *QUIET)
    assert_solved(result, SPEC_BOARD, 0, 8)
    to_one = run_solver(text, "--target", "1", *QUIET)
    assert_solved(to_one, SPEC_BOARD, 1, oracle.coset_optimum(SPEC_BOARD, 1))


def test_a_board_of_only_2s_is_all_colour_1(run_solver):
    assert_solved(run_solver("222\n222\n222\n", *QUIET), uniform(3, 1), 0, 1)


def test_a_board_of_only_1s_is_read_as_0_1_digits(run_solver):
    result = run_solver("111\n111\n111\n", *QUIET)
    assert_solved(result, uniform(3, 1), 0, 1)


# --- rejected input ----------------------------------------------------------------------------


def assert_rejected(result):
    assert result.returncode == EXITS.rejected, result.describe()
    assert result.stdout == "", result.describe()
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.describe()
    assert result.stderr.endswith("\n"), result.describe()


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("0a0\n000\n000\n", id="letter"),
        pytest.param("030\n000\n000\n", id="digit-3"),
        pytest.param("010\n090\n000\n", id="digit-9"),
        pytest.param("010\n0-0\n000\n", id="punctuation"),
        pytest.param("020\n000\n000\n", id="0-mixed-with-2"),
        pytest.param("012\n111\n111\n", id="0-1-and-2"),
        pytest.param("000\n00\n000\n", id="short-row"),
        pytest.param("000\n0000\n000\n", id="long-row"),
        pytest.param("0000\n", id="1-tall"),
        pytest.param("0\n0\n0\n", id="1-wide"),
        pytest.param(board_text(uniform(MAX_SIDE + 1, 0, 3)), id="one-too-tall"),
        pytest.param(board_text(uniform(2, 0, MAX_SIDE + 1)), id="one-too-wide"),
        pytest.param("0 0\n0 0\n", id="spaces-between-tiles"),
        pytest.param("00\n\n00\n", id="blank-line-between-rows"),
        pytest.param("", id="empty"),
        pytest.param("\n\n", id="only-blank-lines"),
        pytest.param("0\n", id="1x1"),
        pytest.param("1\n", id="1x1-one"),
        pytest.param(board_text(uniform(MAX_SIDE + 1, 0)), id="one-too-large"),
        pytest.param(board_text(uniform(MAX_SIDE + 1, 1)).replace("1", "2"), id="one-too-large-in-1-2"),
    ],
)
def test_malformed_boards_are_rejected_with_one_error_line_and_exit_2(run_solver, text):
    assert_rejected(run_solver(text))


def test_a_missing_board_file_is_rejected(run_solver, tmp_path):
    assert_rejected(run_solver(None, tmp_path / "no-such-board.txt"))


def test_a_directory_given_as_the_board_file_is_rejected(run_solver, tmp_path):
    assert_rejected(run_solver(None, tmp_path))


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--frobnicate"], id="unknown-flag"),
        pytest.param(["-x"], id="unknown-short-flag"),
        pytest.param(["--threads", "0"], id="threads-0"),
        pytest.param(["--threads", "-1"], id="threads-negative"),
        pytest.param(["--threads", "abc"], id="threads-word"),
        pytest.param(["--threads", "1.5"], id="threads-fraction"),
        pytest.param(["--threads"], id="threads-missing-value"),
        pytest.param(["--target", "2"], id="target-2"),
        pytest.param(["--target", "both"], id="target-word"),
        pytest.param(["--target"], id="target-missing-value"),
        pytest.param(["--max-nodes", "x"], id="max-nodes-word"),
        pytest.param(["--max-seconds", "x"], id="max-seconds-word"),
    ],
)
def test_bad_flags_are_rejected_with_one_error_line_and_exit_2(run_solver, args):
    assert_rejected(run_solver(SPEC_TEXT, *args))


def test_two_board_files_are_rejected(run_solver):
    board = REPO / "board.txt"
    assert_rejected(run_solver(None, board, board))


# --- progress, budgets -------------------------------------------------------------------------


def test_progress_lines_on_stderr_name_only_bounds_below_the_optimum_and_quiet_silences_them(run_solver):
    # Premise: a board whose root bound is below its optimum, so some bound is searched and exhausted.
    rng = random.Random(31)
    while True:
        board = oracle.random_solvable_board(rng, 8)
        optimum = oracle.cpsat_optimum(board)
        if run_solver(board_text(board), "--lower-bound").bound < optimum:
            break
    loud = run_solver(board_text(board), "--threads", "1")
    assert loud.mismatch(board, 0, optimum) is None, loud.mismatch(board, 0, optimum)
    progress = re.compile(r"bound (0|[1-9][0-9]*) (exhausted|searching), nodes=(0|[1-9][0-9]*)")
    exhausted = []
    for line in loud.stderr.splitlines():
        m = progress.fullmatch(line)
        assert m, f"unexpected stderr line {line!r}\n{loud.describe()}"
        if m.group(2) == "exhausted":
            exhausted.append(int(m.group(1)))
    assert exhausted, loud.describe()
    assert exhausted == sorted(set(exhausted)) and max(exhausted) < optimum, loud.describe()
    quiet = run_solver(board_text(board), "--threads", "1", "--quiet")
    assert quiet.stderr == "" and quiet.move_count == optimum, quiet.describe()


def test_a_one_node_budget_stops_with_exit_3_and_a_lower_bound_not_above_the_optimum(run_solver):
    rng = random.Random(33)
    for n in (7, 8, 8):
        board = oracle.random_solvable_board(rng, n)
        optimum = oracle.cpsat_optimum(board)
        result = run_solver(board_text(board), "--max-nodes", "1", "--quiet")
        assert result.outcome == "stopped" and result.returncode == EXITS.stopped, result.describe()
        assert result.target == 0 and 0 <= result.bound <= optimum, (optimum, result.describe())


def test_a_generous_node_budget_changes_nothing(run_solver):
    result = run_solver(SPEC_TEXT, "--max-nodes", "100000000", "--max-seconds", "100000", *QUIET)
    assert_solved(result, SPEC_BOARD, 0, 8)


def node_budget_overshoot(budget: int, threads: int) -> int:
    """The most a search stopped by --max-nodes may count beyond it, as docs/protocol.md states it."""
    return threads * (min(1024, max(1, budget // (16 * threads))) - 1)


def weekly_text(number: int) -> str:
    book = json.loads((REPO / "weekly_challenges_book.json").read_text())
    return board_text(oracle.book_board(book["levels"][number - 1]))


def test_the_documented_node_budget_overshoot_is_none_below_32_nodes_a_thread_and_under_a_sixteenth():
    assert node_budget_overshoot(1, 2) == node_budget_overshoot(63, 2) == 0
    assert node_budget_overshoot(2000, 2) == 2 * 61
    assert node_budget_overshoot(10**9, 2) == 2 * 1023


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("budget", [1, 10, 500, 2000])
def test_a_node_budget_stops_the_search_within_the_documented_overshoot(run_solver_many, threads, budget):
    """Weekly #23 and #24 need 12,386 and 6,597 nodes on one thread (with the Lagrangian), so every budget
    here stops them. One thread is exact: a stopped search counted exactly its budget."""
    numbers = (23, 24)
    runs = 1 if threads == 1 else 4
    texts = [weekly_text(number) for number in numbers] * runs
    for result in run_solver_many(texts, "--threads", threads, "--max-nodes", budget, "--quiet"):
        assert result.outcome in ("stopped", "solved"), result.describe()
        assert result.nodes <= budget + node_budget_overshoot(budget, threads), result.describe()
        if threads == 1:
            assert result.outcome == "stopped" and result.nodes == budget, result.describe()


def test_a_search_that_fits_its_node_budget_reports_its_solution_and_one_node_less_stops_it(run_solver):
    for number in (1, 8):
        text = weekly_text(number)
        free = run_solver(text, *QUIET)
        assert free.outcome == "solved", free.describe()
        fits = run_solver(text, *QUIET, "--max-nodes", free.nodes)
        assert (fits.outcome, fits.moves, fits.nodes) == ("solved", free.moves, free.nodes), fits.describe()
        short = run_solver(text, *QUIET, "--max-nodes", free.nodes - 1)
        assert (short.outcome, short.bound, short.nodes) == ("stopped", free.move_count, free.nodes - 1), (
            short.describe()
        )


# --- the contract -------------------------------------------------------------------------------


def test_the_solvers_contract_listing_is_exactly_what_the_front_end_reads_from_contract_def(solver_path):
    """The core compiles solver/contract.def in and the front end reads it as text: `--contract` prints
    the core's side, entry by entry, so the two cannot disagree about a status or a limit."""
    listed = subprocess.run([str(solver_path), "--contract"], capture_output=True, text=True, timeout=60)
    assert (listed.returncode, listed.stderr) == (EXITS.solved, ""), listed.stderr
    assert listed.stdout.splitlines() == [str(entry) for entry in solver_contract().entries]
