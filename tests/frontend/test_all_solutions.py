"""--all-solutions, --count and --max-solutions in the front end: every optimal solution listed on a
numbered line (each replayed first), the count, "unique" exactly when there is one, an honest "at least"
when --max-solutions cut the search short, a column of counts under --all; the same as --json records that
validate and replay; and the solver's enumeration output read strictly."""

from __future__ import annotations

import random
import re

import oracle
import pytest
from helpers import book_tiles
from oracle import as_board, board_text, replay, uniform
from support import SPEC_BOARD, json_records, one_line, recorded, run, write, write_book

LISTED = re.compile(r"^ +(\d+)\. (.*)$", re.M)
MOVE_CODE = re.compile(r"(\d+)×\1@(\d+),(\d+)")


def listed_sets(stdout: str) -> list[frozenset[oracle.Move]]:
    """The numbered solution lines of the text output, read back as move sets (their codes count from 1),
    checking they are numbered 1, 2, ... in order."""
    lines = LISTED.findall(stdout)
    assert [int(number) for number, _ in lines] == list(range(1, len(lines) + 1))
    sets = []
    for _, line in lines:
        codes = [MOVE_CODE.fullmatch(code) for code in line.split()]
        assert all(codes), line
        sets.append(frozenset((int(m[2]) - 1, int(m[3]) - 1, int(m[1])) for m in codes if m))
    return sets


def random_boards(seed: int, n: int, count: int) -> list[oracle.Board]:
    rng = random.Random(seed)
    return [oracle.random_solvable_board(rng, n) for _ in range(count)]


def several_and_one(n: int = 5) -> tuple[oracle.Board, oracle.Board]:
    """A board with several optimal solutions and one whose optimum is unique."""
    boards = random_boards(5100, n, 60)
    counts = [len(oracle.optimal_solution_sets(board)) for board in boards]
    return boards[next(i for i, c in enumerate(counts) if c >= 3)], boards[counts.index(1)]


@pytest.mark.parametrize("n", [5, 6])
def test_all_solutions_lists_exactly_the_oracles_optimal_sets_one_numbered_line_each(n):
    counts = []
    for board in random_boards(5000 + n, n, 30):
        expected = oracle.optimal_solution_sets(board)
        counts.append(len(expected))
        result = run("-", "--all-solutions", input=board_text(board))
        assert result.exit_code == 0, result.stderr
        listed = listed_sets(result.stdout)
        assert len(listed) == len(set(listed)) and set(listed) == expected, board_text(board)
        optimum, count = len(next(iter(expected))), len(expected)
        summary = result.stdout.splitlines()[1]
        if count == 1:
            assert summary.startswith(f"1 optimal solution of {optimum} move"), summary
            assert ": unique" in summary
        else:
            assert summary.startswith(f"{count} optimal solutions of {optimum} moves — "), summary
            assert "unique" not in summary
        which = "the solution" if count == 1 else f"each of the {count} solutions"
        assert (
            f"✓ Verified: {which}, replayed on the original board, leaves every tile white." in result.stdout
        )
    assert 1 in counts and max(counts) > 1, "premise: boards with a unique optimum and with several"


def test_count_gives_just_the_count_and_unique_exactly_when_there_is_one():
    several, one = several_and_one()
    expected = len(oracle.optimal_solution_sets(several))
    result = run("-", "--count", input=board_text(several))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1].startswith(f"{expected} optimal solutions of ")
    assert "unique" not in result.stdout and not LISTED.search(result.stdout)
    assert not MOVE_CODE.search(result.stdout)  # no move of any solution is given away
    result = run("-", "--count", input=board_text(one))
    assert result.exit_code == 0, result.stderr
    assert re.match(r"1 optimal solution of \d+ moves: unique — ", result.stdout.splitlines()[1])
    assert not MOVE_CODE.search(result.stdout)


@pytest.mark.parametrize("option", ["--all-solutions", "--count"])
def test_max_solutions_cut_short_says_at_least_and_there_may_be_more_and_never_unique(option):
    several, _ = several_and_one()
    for k in (1, 2):
        result = run("-", option, "--max-solutions", str(k), input=board_text(several))
        assert result.exit_code == 0, result.stderr
        summary = result.stdout.splitlines()[1]
        assert summary.startswith(f"at least {k} optimal solution{'s' * (k > 1)} of "), summary
        assert f"--max-solutions stopped the search at {k}, so there may be more" in summary
        assert "unique" not in result.stdout
        if option == "--all-solutions":
            listed = listed_sets(result.stdout)
            assert len(listed) == k and set(listed) <= oracle.optimal_solution_sets(several)


def test_max_solutions_above_the_count_gives_the_whole_count_with_no_at_least():
    several, _ = several_and_one()
    count = len(oracle.optimal_solution_sets(several))
    result = run("-", "--count", "--max-solutions", str(count + 1), input=board_text(several))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1].startswith(f"{count} optimal solutions of ")
    assert "at least" not in result.stdout


def test_a_solved_board_has_one_optimal_solution_of_no_moves():
    result = run("-", "--all-solutions", input="000\n000\n000\n")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1].startswith("1 optimal solution of 0 moves: unique")
    assert "   1. no moves: already solved" in result.stdout


@pytest.mark.parametrize("option", ["--all-solutions", "--count"])
def test_an_unsolvable_board_is_unsolvable_when_enumerating_too(option):
    result = run("-", option, input="10\n00\n")
    assert result.exit_code == 1
    assert one_line(result.stderr) == "unsolvable: no sequence of moves clears this board"
    [record] = json_records(run("-", option, "--json", input="10\n00\n"))
    assert record["outcome"] == "unsolvable" and "solution_count" not in record


def test_a_budget_that_runs_out_while_enumerating_is_a_stop_with_exit_status_3(tmp_path):
    rng = random.Random(5200)
    board = write(tmp_path / "b.txt", board_text(oracle.random_solvable_board(rng, 12)))
    result = run(str(board), "--all-solutions", "--max-nodes", "100")
    assert result.exit_code == 3
    assert one_line(result.stderr).startswith("stopped by budget: no solution with fewer than ")


# On one thread the specification's board takes 45 nodes to prove its optimum 8, 100 to list both its
# optimal solutions: a budget between stops the listing, not the proof.
COUNT_STOPPED = ("--max-nodes", "80", "--threads", "1")


@pytest.mark.parametrize("option", ["--all-solutions", "--count"])
def test_a_budget_that_runs_out_while_counting_keeps_the_optimum_and_says_the_counting_stopped(option):
    result = run("-", option, *COUNT_STOPPED, input=SPEC_BOARD)
    assert result.exit_code == 3, result.stderr
    assert (
        "Optimal: 8 moves, proven; counting stopped by budget after 2 optimal solutions, so there may be more"
        in result.stdout
    )
    assert "each of the 2 solutions, replayed on the original board" in result.stdout
    assert len(listed_sets(result.stdout)) == (2 if option == "--all-solutions" else 0)
    assert one_line(result.stderr).startswith(
        "stopped by budget: counting stopped after 2 optimal solutions of 8 moves; searched 80 nodes"
    )
    # The proof alone fits the budget: a plain solve on it is no stop.
    assert run("-", *COUNT_STOPPED, input=SPEC_BOARD).exit_code == 0


def test_a_stopped_count_json_record_carries_the_optimum_and_an_incomplete_count():
    [record] = json_records(run("-", "--count", "--json", *COUNT_STOPPED, input=SPEC_BOARD))
    assert (record["outcome"], record["exit_status"], record["move_count"], record["lower_bound"]) == (
        "stopped",
        3,
        8,
        8,
    )
    assert (record["solution_count"], record["enumeration_complete"], record["optimal"]) == (2, False, True)
    assert "solutions" not in record and "moves" not in record
    *solutions, solve = json_records(run("-", "--all-solutions", "--json", *COUNT_STOPPED, input=SPEC_BOARD))
    expected = oracle.optimal_solution_sets(as_board(SPEC_BOARD.split()))
    assert as_sets([record["moves"] for record in solutions]) == as_sets(solve["solutions"]) == expected
    assert (solve["solution_count"], solve["enumeration_complete"]) == (2, False)


def test_all_with_count_shows_the_optimum_of_a_level_whose_counting_the_budget_stopped(tmp_path):
    """Plain --all solves both levels within the budget; --all --count proves both optima, and the
    budget stops the counting on the first, which fails the run as a stop does."""
    spec = book_tiles(as_board(SPEC_BOARD.split()))
    levels = [{"tiles": spec, "par": 8}, {"tiles": [[2, 2], [2, 2]], "par": 1}]
    book = str(write_book(tmp_path / "book.json", levels))
    assert run(book, "--all", *COUNT_STOPPED).exit_code == 0
    result = run(book, "--all", "--count", *COUNT_STOPPED)
    rows = [line.split() for line in result.stdout.splitlines() if re.match(r"\s+\d", line)]
    assert [row[3:5] for row in rows] == [["8", "2+"], ["1", "1"]], result.stdout
    stop = "level 1 (stopped by budget, counting stopped after 2 optimal solutions of 8 moves)"
    assert stop in result.stderr
    *records, _ = json_records(run(book, "--all", "--count", "--json", *COUNT_STOPPED))
    assert [(r["outcome"], r.get("move_count"), r["solution_count"]) for r in records] == [
        ("stopped", 8, 2),
        ("solved", 1, 1),
    ]


@pytest.mark.parametrize(
    ("stdout", "message"),
    [
        ("TARGET 0\nMOVES 1\nSOLUTIONS 0\nNODES 1\nTIME 0\n", "line 4: expected 'INCOMPLETE', got 'NODES 1'"),
        (
            "TARGET 0\nMOVES 1\nSOLUTION 0 0 2\nSOLUTIONS 2\nINCOMPLETE\nNODES 1\nTIME 0\n",
            "line 4: expected 'SOLUTIONS 1', got 'SOLUTIONS 2'",
        ),
        ("TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n", "line 3: expected 'SOLUTIONS 0', got '0 0 2'"),
    ],
    ids=["no INCOMPLETE", "count unlike the lines", "a plain move list"],
)
def test_malformed_output_of_a_stopped_count_is_a_solver_failure_naming_the_line(
    tmp_path, fake_solver, stdout, message
):
    env = fake_solver(stdout, code=3)
    result = run(str(write(tmp_path / "b.txt", SIX)), "--all-solutions", env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr).startswith(f"error: malformed solver output: {message}")


@pytest.mark.parametrize(
    ("args", "passed"),
    [
        (["--all-solutions"], "--target 0 --all-solutions"),
        (["--count"], "--target 0 --all-solutions"),
        (
            ["--count", "--max-solutions", "7", "--threads", "2"],
            "--target 0 --all-solutions --threads 2 --max-solutions 7",
        ),
    ],
)
def test_count_has_the_solver_list_the_solutions_too_so_that_each_one_counted_is_replayed(
    tmp_path, fake_solver, args, passed
):
    env = fake_solver("TARGET 0\nMOVES 1\nSOLUTION 0 0 2\nSOLUTIONS 1\nNODES 1\nTIME 0\n")
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), *args, env=env)
    assert result.exit_code == 0, result.stderr
    assert " ".join(recorded(tmp_path)["argv"]) == passed


SIX = "110000\n110000\n000000\n000000\n000000\n000000\n"  # one 2×2 square: 1 move


@pytest.mark.parametrize(
    ("stdout", "args", "message"),
    [
        (
            "TARGET 0\nMOVES 1\nSOLUTION 0 0 2\nSOLUTIONS 2\nNODES 1\nTIME 0\n",
            [],
            "line 4: expected 'SOLUTIONS 1', got 'SOLUTIONS 2'",
        ),
        ("TARGET 0\nMOVES 1\nSOLUTIONS 0\nNODES 1\nTIME 0\n", [], "line 3: expected 'SOLUTION' and 1 moves"),
        (
            "TARGET 0\nMOVES 1\nSOLUTION 0 0 2 1 1 2\nSOLUTIONS 1\nNODES 1\nTIME 0\n",
            [],
            "line 3: expected 'SOLUTION' and 1 moves",
        ),
        (
            "TARGET 0\nMOVES 1\nSOLUTION 0 0 2\nSOLUTIONS 1\nINCOMPLETE\nNODES 1\nTIME 0\n",
            [],
            "line 5: expected 'NODES <count>', got 'INCOMPLETE'",
        ),
        (
            "TARGET 0\nMOVES 1\nSOLUTION 0 0 2\nSOLUTIONS 1\nNODES 1\nTIME 0\n",
            ["--max-solutions", "1"],
            "line 5: expected 'INCOMPLETE', got 'NODES 1'",
        ),
        (
            "TARGET 0\nMOVES 1\nSOLUTION 0 0 2\nSOLUTION 4 4 2\nSOLUTIONS 2\nINCOMPLETE\nNODES 1\nTIME 0\n",
            ["--max-solutions", "1"],
            "line 4: expected 'SOLUTIONS 1', got 'SOLUTION 4 4 2'",
        ),
        ("TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n", [], "line 3: expected 'SOLUTION' and 1 moves"),
    ],
    ids=[
        "count unlike the lines",
        "no solution",
        "too many moves",
        "INCOMPLETE below the cap",
        "the cap without INCOMPLETE",
        "more than the cap",
        "a plain move list",
    ],
)
def test_malformed_enumeration_output_is_a_solver_failure_naming_the_line(
    tmp_path, fake_solver, stdout, args, message
):
    env = fake_solver(stdout)
    result = run(str(write(tmp_path / "b.txt", SIX)), "--all-solutions", *args, env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr).startswith(f"error: malformed solver output: {message}")


@pytest.mark.parametrize(
    ("solutions", "message"),
    [
        (["0 0 2 4 4 2"], "replaying solution 1's 2 moves leaves 8 tiles not white"),
        (["0 0 2 0 0 2"], "the solver's solution 1 makes a move twice"),
        (["0 0 2 1 1 2", "1 1 2 0 0 2"], "the solver listed the same solution twice"),
        (["1 1 2 1 1 3", "0 0 2 4 4 2"], "replaying solution 1's 2 moves leaves"),
    ],
    ids=["one fails replay", "a move twice", "a set listed twice", "the first fails"],
)
def test_a_listed_solution_that_fails_verification_is_a_solver_failure(
    tmp_path, fake_solver, solutions, message
):
    lines = "".join(f"SOLUTION {moves}\n" for moves in solutions)
    env = fake_solver(f"TARGET 0\nMOVES 2\n{lines}SOLUTIONS {len(solutions)}\nNODES 1\nTIME 0\n")
    board = board_text(replay(uniform(6, 0), [(0, 0, 2), (1, 1, 2)]))
    result = run(str(write(tmp_path / "b.txt", board)), "--count", env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr).startswith(f"error: verification failed: {message}")
    assert "optimal solution" not in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["daily", "5", "--all-solutions", "--count"], "give --all-solutions or --count, not both"),
        (["daily", "5", "--max-solutions", "3"], "--max-solutions caps --all-solutions, --count or"),
        (["daily", "--list", "--count"], "--list reads the book without solving"),
        (["daily", "--all", "--all-solutions"], "--all-solutions lists one level's solutions"),
        (["daily", "5", "--all-solutions", "--svg", "x.svg"], "--svg shows one solution"),
        (["daily", "5", "--count", "--step"], "--step shows one solution"),
        (["daily", "5", "--count", "--max-solutions", "0"], "Invalid value for '--max-solutions'"),
    ],
)
def test_enumeration_options_that_do_not_go_together_are_one_line_and_exit_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert one_line(result.stderr).startswith(f"error: {message}")


# --- --all --count ------------------------------------------------------------------------------------------


def test_all_with_count_adds_a_column_of_each_levels_number_of_optima(tmp_path):
    several, one = several_and_one()
    boards = [several, one, replay(uniform(4, 0), [(0, 0, 2)])]
    levels = [{"tiles": book_tiles(board), "par": oracle.coset_optimum(board)} for board in boards]
    result = run(str(write_book(tmp_path / "book.json", levels)), "--all", "--count")
    assert result.exit_code == 0, result.stderr
    head = next(line for line in result.stdout.splitlines() if "level" in line and "title" in line)
    assert head.split() == ["level", "board", "par", "moves", "optima", "time", "title"]
    rows = [line.split() for line in result.stdout.splitlines() if re.match(r"\s+\d", line)]
    assert [row[4] for row in rows] == [str(len(oracle.optimal_solution_sets(board))) for board in boards]
    assert "optima: how many optimal solutions a level has" in result.stdout


def test_all_with_count_and_max_solutions_marks_the_counts_cut_short(tmp_path):
    several, one = several_and_one()
    levels = [{"tiles": book_tiles(board), "par": None} for board in (several, one)]
    result = run(str(write_book(tmp_path / "book.json", levels)), "--all", "--count", "--max-solutions", "2")
    assert result.exit_code == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if re.match(r"\s+\d", line)]
    assert [row[4] for row in rows] == ["2+", "1"]


def test_all_without_count_has_no_column_of_optima(tmp_path, small_book):
    result = run(str(write_book(tmp_path / "book.json", small_book)), "--all")
    assert result.exit_code == 0, result.stderr
    assert "optima" not in result.stdout


# --- --json -------------------------------------------------------------------------------------------------


def replays(board: oracle.Board, target: int, moves: list[dict]) -> bool:
    return replay(board, [(m["row"], m["col"], m["size"]) for m in moves]) == uniform(len(board), target)


def as_sets(solutions: list[list[dict]]) -> set[frozenset[oracle.Move]]:
    return {frozenset((m["row"], m["col"], m["size"]) for m in moves) for moves in solutions}


@pytest.mark.parametrize("target", [0, 1])
def test_all_solutions_json_is_a_record_per_solution_then_the_solve_record_all_replaying_and_validating(
    target,
):
    for board in random_boards(5300 + target, 5, 10):
        result = run("-", "--all-solutions", "--json", "--target", str(target), input=board_text(board))
        *solutions, solve = json_records(result)
        expected = oracle.optimal_solution_sets(board, target)
        assert [record["record"] for record in solutions] == ["solution"] * len(expected)
        assert [record["index"] for record in solutions] == list(range(1, len(expected) + 1))
        assert as_sets([record["moves"] for record in solutions]) == expected
        assert [record["moves"] for record in solutions] == solve["solutions"]
        assert (solve["solution_count"], solve["enumeration_complete"]) == (len(expected), True)
        assert solve["moves"] == solve["solutions"][0] and solve["move_count"] == len(solve["moves"])
        # Each solution, read back from the record, replays on the record's board to its target.
        start = as_board(solve["level"]["board"])
        assert all(replays(start, record["target"], record["moves"]) for record in solutions)


def test_count_json_is_one_solve_record_with_the_count_and_no_solutions():
    several, _ = several_and_one()
    [record] = json_records(run("-", "--count", "--json", input=board_text(several)))
    assert record["solution_count"] == len(oracle.optimal_solution_sets(several))
    assert record["enumeration_complete"] is True and "solutions" not in record
    assert replays(several, record["target"], record["moves"])


def test_json_says_the_enumeration_is_incomplete_when_max_solutions_cut_it_short():
    several, _ = several_and_one()
    result = run("-", "--all-solutions", "--max-solutions", "2", "--json", input=board_text(several))
    *solutions, solve = json_records(result)
    assert len(solutions) == 2 == solve["solution_count"] and solve["enumeration_complete"] is False


def test_all_count_json_gives_each_level_record_its_count(tmp_path, small_book):
    result = run(str(write_book(tmp_path / "book.json", small_book)), "--all", "--count", "--json")
    *levels, summary = json_records(result)
    assert [level["solution_count"] for level in levels] == [1, 1, 1]
    assert all(level["enumeration_complete"] and "solutions" not in level for level in levels)
    assert summary["outcome"] == "passed"


def test_the_specification_board_has_its_two_optimal_solutions(tmp_path):
    result = run(str(write(tmp_path / "b.txt", SPEC_BOARD)), "--all-solutions", "--json")
    *_, solve = json_records(result)
    assert solve["solution_count"] == 2 and solve["move_count"] == 8
    assert as_sets(solve["solutions"]) == oracle.optimal_solution_sets(as_board(SPEC_BOARD))
