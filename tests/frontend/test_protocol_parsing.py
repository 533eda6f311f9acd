"""The front end's reading of the solver's line protocol, with stand-in solvers (conftest.py) that answer
as told: malformed output, crashes, rejections and budgets are each one line with their own exit status."""

import re
import signal

import pytest
from support import one_line, run, write

from unflip_frontend.bound_and_count import (
    LowerBound,
    OptimaCount,
    parse_count_output,
    parse_lower_bound_output,
)
from unflip_frontend.contract import solver_contract
from unflip_frontend.errors import SolverError
from unflip_frontend.protocol import PROGRESS_LINE, SearchProgress, Stopped, Unsolvable, parse_solver_output

EXITS = solver_contract().exits


@pytest.mark.parametrize(
    ("stdout", "code", "message"),
    [
        ("", EXITS.solved, "malformed solver output: line 1: expected 'TARGET 0', the output ended"),
        (
            "TARGET 1\nMOVES 0\nNODES 1\nTIME 0\n",
            EXITS.solved,
            "malformed solver output: line 1: expected 'TARGET 0', got 'TARGET 1'",
        ),
        (
            "TARGET 0\nMOVES two\n",
            EXITS.solved,
            "malformed solver output: line 2: expected 'MOVES <count>', got 'MOVES two'",
        ),
        (
            "TARGET 0\nMOVES 2\n0 0 2\nNODES 5\nTIME 0\n",
            EXITS.solved,
            "malformed solver output: line 4: expected a move 'row col size' that fits the 3×3 board, "
            "got 'NODES 5'",
        ),
        (
            "TARGET 0\nMOVES 1\n2 0 2\nNODES 5\nTIME 0\n",
            EXITS.solved,
            "malformed solver output: line 3: expected a move 'row col size' that fits the 3×3 board, "
            "got '2 0 2'",
        ),
        (
            "TARGET 0\nMOVES 1\n0 0 1\nNODES 5\nTIME 0\n",
            EXITS.solved,
            "malformed solver output: line 3: expected a move 'row col size' that fits the 3×3 board, "
            "got '0 0 1'",
        ),
        (
            "TARGET 0\nMOVES 1\n0 0 2\nNODES -5\nTIME 0\n",
            EXITS.solved,
            "malformed solver output: line 4: expected 'NODES <count>', got 'NODES -5'",
        ),
        (
            "TARGET 0\nMOVES 1\n0 0 2\nNODES 5\nTIME 0\nsurprise\n",
            EXITS.solved,
            "malformed solver output: line 6: expected nothing after 'TIME', got 'surprise'",
        ),
        (
            "TARGET 0\nSTOPPED 4\nNODES 5\n",
            EXITS.stopped,
            "malformed solver output: line 4: expected 'TIME <seconds>', the output ended",
        ),
        (
            "TARGET 0\nMOVES 0\nNODES 0\nTIME 0\n",
            EXITS.unsolvable,
            "malformed solver output: line 2: expected 'UNSOLVABLE', got 'MOVES 0'",
        ),
    ],
)
def test_malformed_solver_output_is_a_one_line_error_naming_the_line(
    tmp_path, fake_solver, stdout, code, message
):
    env = fake_solver(stdout, code=code)
    result = run(str(write(tmp_path / "b.txt", "110\n110\n000\n")), env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr) == f"error: {message}"


@pytest.mark.parametrize(
    "move", ["0 0 3", "0 4 2", "1 0 2"], ids=["taller than the board", "past the right", "past the bottom"]
)
def test_a_move_that_does_not_fit_a_rectangle_is_malformed_output(tmp_path, fake_solver, move):
    env = fake_solver(f"TARGET 0\nMOVES 1\n{move}\nNODES 1\nTIME 0\n")
    result = run(str(write(tmp_path / "b.txt", "11100\n11100\n")), env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr) == (
        f"error: malformed solver output: line 3: expected a move 'row col size' that fits the 2×5 board, "
        f"got '{move}'"
    )


def test_a_solution_that_does_not_clear_the_board_fails_verification(tmp_path, fake_solver):
    env = fake_solver("TARGET 0\nMOVES 1\n1 1 2\nNODES 1\nTIME 0\n")
    result = run(str(write(tmp_path / "b.txt", "110\n110\n000\n")), env=env)
    assert result.exit_code == 4
    assert "Verified" not in result.stdout
    assert one_line(result.stderr) == (
        "error: verification failed: replaying the solver's 1 move leaves 6 tiles not white "
        "(first at row 1, col 1)"
    )


def test_a_crashing_solver_is_reported_with_its_signal(tmp_path, fake_solver):
    env = fake_solver("TARGET 0\n", signal_number=signal.SIGSEGV)
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr) == "error: the solver was killed by SIGSEGV"


def test_an_unexpected_exit_status_is_reported_with_the_solvers_last_complaint(tmp_path, fake_solver):
    env = fake_solver(stderr="bound 3 exhausted, nodes=9\nout of memory\n", code=7)
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr) == "error: the solver exited with status 7: out of memory"


def test_a_board_the_solver_rejects_is_reported_with_its_reason(tmp_path, fake_solver):
    env = fake_solver(stderr="error: line 2: bad digit\n", code=EXITS.rejected)
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr) == "error: the solver rejected the board: line 2: bad digit"


def test_a_solver_that_failed_on_its_own_account_is_a_solver_error_with_its_reason_not_a_rejection(
    tmp_path, fake_solver
):
    env = fake_solver(stderr="error: cannot allocate the transposition table (2048 MiB)\n", code=EXITS.failed)
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr) == (
        "error: the solver failed: cannot allocate the transposition table (2048 MiB)"
    )
    with pytest.raises(SolverError, match=r"^the solver failed: cannot allocate \S+$"):
        parse_solver_output(EXITS.failed, "", "error: cannot allocate 1GiB\n", (2, 2), "0")


def test_progress_lines_are_read_and_the_outcome_is_parsed_from_stdout():
    seen = []
    stderr = "bound 1 exhausted, nodes=1\nbound 2 annealing, nodes=1\nbound 2 searching, nodes=5\n"
    outcome = parse_solver_output(
        EXITS.stopped, "TARGET 0\nSTOPPED 2\nNODES 5\nTIME 1.5\n", stderr, (4, 4), "0"
    )
    assert outcome == Stopped(target=0, bound=2, nodes=5, seconds=1.5)
    for line in stderr.splitlines():
        match = PROGRESS_LINE.fullmatch(line)
        seen.append(str(SearchProgress(int(match[1]), match[2], int(match[3]))))
    assert seen == [
        "no solution in 1 moves (1 nodes)",
        "annealing for a 2-move solution (1 nodes)",
        "trying 2 moves (5 nodes)",
    ]


def test_a_stopped_outcome_exits_3_with_the_proven_bound_the_time_it_ran_and_the_nodes(tmp_path, fake_solver):
    env = fake_solver("TARGET 0\nSTOPPED 12\nNODES 1234567\nTIME 60.0\n", code=EXITS.stopped)
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env=env)
    assert result.exit_code == 3
    assert one_line(result.stderr) == (
        "stopped by budget: no solution with fewer than 12 moves; searched 1,234,567 nodes in 60.00 s"
    )


def test_an_UNFLIP_SOLVER_that_is_not_executable_is_an_error(tmp_path):
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env={"UNFLIP_SOLVER": str(tmp_path / "nope")})
    assert result.exit_code == 4
    assert one_line(result.stderr) == f"error: UNFLIP_SOLVER={tmp_path / 'nope'} is not an executable file"


# --- the generator's questions: how many optima (--count), the root's lower bound (--lower-bound) ----------


@pytest.mark.parametrize(
    ("stdout", "count", "complete", "unique"),
    [
        ("TARGET 0\nMOVES 3\nSOLUTIONS 1\nNODES 9\nTIME 0.01\n", 1, True, True),
        ("TARGET 0\nMOVES 3\nSOLUTIONS 2\nINCOMPLETE\nNODES 9\nTIME 0.01\n", 2, False, False),
        ("TARGET 0\nMOVES 3\nSOLUTIONS 1\nINCOMPLETE\nNODES 9\nTIME 0.01\n", 1, False, False),
        ("TARGET 0\nMOVES 0\nSOLUTIONS 1\nNODES 0\nTIME 0\n", 1, True, True),
    ],
    ids=["unique", "cut short at two", "cut short at one", "already solved"],
)
def test_a_count_of_optima_is_read_as_unique_only_when_one_and_complete(stdout, count, complete, unique):
    outcome = parse_count_output(EXITS.solved, stdout, "", "0")
    assert isinstance(outcome, OptimaCount)
    assert (outcome.count, outcome.complete, outcome.unique) == (count, complete, unique)


def test_an_unsolvable_count_and_a_lower_bound_are_read_as_their_outcomes():
    counted = parse_count_output(
        EXITS.unsolvable, "TARGET 0\nUNSOLVABLE\nSOLUTIONS 0\nNODES 0\nTIME 0\n", "", "0"
    )
    assert counted == Unsolvable(target=0, seconds=0.0)
    bound = parse_lower_bound_output(EXITS.solved, "TARGET 1\nLOWER_BOUND 7\nNODES 0\nTIME 0.002\n", "", "1")
    assert bound == LowerBound(target=1, bound=7, seconds=0.002)


@pytest.mark.parametrize(
    ("parse", "code", "stdout", "message"),
    [
        (
            parse_count_output,
            EXITS.solved,
            "TARGET 0\nMOVES 3\n0 0 2\nSOLUTIONS 1\nNODES 9\nTIME 0\n",
            "line 3: expected 'SOLUTIONS <count>', got '0 0 2'",
        ),
        (
            parse_count_output,
            EXITS.solved,
            "TARGET 0\nMOVES 3\nSOLUTIONS 1\nMAYBE\nNODES 9\nTIME 0\n",
            "line 4: expected 'NODES <count>', got 'MAYBE'",
        ),
        (
            parse_count_output,
            EXITS.unsolvable,
            "TARGET 0\nUNSOLVABLE\nSOLUTIONS 2\nNODES 0\nTIME 0\n",
            "line 3: expected 'SOLUTIONS 0', got 'SOLUTIONS 2'",
        ),
        (
            parse_lower_bound_output,
            EXITS.solved,
            "TARGET 0\nLOWER_BOUND\nNODES 0\nTIME 0\n",
            "line 2: expected 'LOWER_BOUND <count>', got 'LOWER_BOUND'",
        ),
    ],
    ids=["a move listed", "an unknown line", "unsolvable with solutions", "a bound without its number"],
)
def test_malformed_count_or_bound_output_names_the_line(parse, code, stdout, message):
    with pytest.raises(SolverError, match=rf"^malformed solver output: {re.escape(message)}$"):
        parse(code, stdout, "", "0")
