"""A book's --list and --all: the table of levels, and a run over every level checked against par."""

import re

import pytest
from helpers import book_tiles, random_board_text
from oracle import as_board
from support import one_line, run, write, write_book


def test_list_reads_the_book_without_running_the_solver(tmp_path, small_book):
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--list", env={"UNFLIP_SOLVER": str(tmp_path / "absent")})
    assert result.exit_code == 0, result.stderr


def test_list_shows_each_level_with_number_size_par_and_title(tmp_path, small_book):
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--list")
    assert result.exit_code == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if re.match(r"\s+\d", line)]
    assert rows == [
        ["1", "4×4", "1", "One", "square"],
        ["2", "5×5", "2", "Two", "corners"],
        ["3", "6×6", "-"],
    ]


def test_all_exits_0_when_every_level_is_solved_verified_and_at_par(tmp_path, small_book):
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all")
    assert result.exit_code == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if re.match(r"\s+\d", line)]
    assert [row[:4] for row in rows] == [
        ["1", "4×4", "1", "1"],
        ["2", "5×5", "2", "2"],
        ["3", "6×6", "-", "1"],
    ]
    assert "par matched on 2 of 2 levels with a par" in result.stdout
    assert "✓ All 3 levels solved and verified" in result.stdout
    assert re.search(r"^total solver time: \d+\.\d\ds$", result.stdout, re.M)


def test_all_exits_1_and_names_the_level_whose_par_is_wrong_as_the_books_error_with_its_fix(
    tmp_path, small_book
):
    small_book[1]["par"] = 3
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all")
    assert result.exit_code == 1
    assert "par matched on 1 of 2 levels with a par" in result.stdout
    assert one_line(result.stderr) == (
        "error: the book is wrong on 1 of 3 levels: level 2 (par 3, optimum 2, proven; the par should be 2)"
    )


def test_all_names_a_par_below_the_optimum_and_a_stored_vector_that_is_not_optimal(tmp_path, small_book):
    small_book[1]["par"] = 1
    # The 4×4 level's one-square solution, and a two-move vector that clears nothing.
    small_book[0]["solutionVector"] = [1] + [0] * 13
    small_book[0]["solutions"] = [[1, 1] + [0] * 12]
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all")
    assert result.exit_code == 1
    line = one_line(result.stderr)
    assert line.startswith("error: the book is wrong on 2 of 3 levels: level 1 (solutions entry 1 does not ")
    assert "; the game drops it); level 2 (par 1, below the optimum 2, proven" in line
    assert "solutionVector" not in line  # the first move alone is the optimum: nothing wrong with it


def test_a_solver_that_crashes_on_every_level_makes_all_exit_4_not_1(tmp_path, small_book, fake_solver):
    env = fake_solver(stderr="Segmentation fault\n", signal_number=11)
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all", env=env)
    assert result.exit_code == 4, result.output
    assert one_line(result.stderr).startswith("error: the solver failed on 3 of 3 levels: level 1 (")
    assert "the book is wrong" not in result.stderr


def test_the_books_errors_and_the_solvers_failures_are_named_apart_and_the_solvers_set_the_status(
    tmp_path, small_book, fake_solver
):
    # The fake solver solves every level in one move: a level whose par is 2 is then the book's error.
    env = fake_solver("TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n")
    small_book.append({"tiles": [[2, 2], [2, 2]], "par": 2})
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all", env=env)
    assert result.exit_code == 4, result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 2
    assert lines[0] == (
        "error: the book is wrong on 1 of 4 levels: level 4 (par 2, optimum 1, proven; the par should be 1)"
    )
    assert lines[1].startswith("error: the solver failed on 2 of 4 levels: level 2 (verification failed")


def test_all_exits_1_when_a_level_is_unsolvable_and_goes_on_with_the_rest(tmp_path, small_book):
    small_book.insert(0, {"tiles": [[2, 1], [1, 1]], "par": 1})
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all")
    assert result.exit_code == 1
    assert one_line(result.stderr) == (
        "error: the book is wrong on 1 of 4 levels: level 1 (par 1, but no moves clear this board, proven; "
        "the game's word for it is 'impossible', par null)"
    )
    assert "par matched on 2 of 3 levels with a par" in result.stdout


def test_all_counts_a_level_stopped_by_its_budget_as_a_failure_of_status_3(tmp_path, small_book):
    tiles = book_tiles(as_board(random_board_text(13, 13)))
    small_book.append({"tiles": tiles, "title": "Random"})
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all", "--max-nodes", "1000")
    assert result.exit_code == 3
    assert re.fullmatch(
        r"error: a budget stopped 1 of 4 levels: level 4 \(stopped by budget, no solution with fewer than "
        r"\d+ moves\)",
        one_line(result.stderr),
    )
    assert re.search(r"^\s+4\s+13×13\s+-\s+stopped\s", result.stdout, re.M)


# --- titles and names are shown as written, whatever they hold ----------------------------------------------


@pytest.mark.parametrize("option", ["--list", "--all"])
def test_a_title_and_a_path_that_look_like_rich_markup_are_shown_as_written(tmp_path, monkeypatch, option):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "d[").mkdir()
    level = {"tiles": [[2, 2], [2, 2]], "par": 1, "title": "[/bold] :smile:"}
    write_book(tmp_path / "d[" / "x]b.json", [level])
    result = run("d[/x]b.json", option)
    assert result.exit_code == 0, result.output
    assert "[/bold] :smile:" in result.stdout
    if option == "--all":
        assert "d[/x]b.json: solving all 1 levels" in result.stdout


@pytest.mark.parametrize("option", ["--list", "--all"])
def test_a_title_with_a_lone_surrogate_or_control_characters_is_shown_with_replacement_characters(
    tmp_path, option
):
    book = write(
        tmp_path / "book.json",
        '{"levels": [{"tiles": [[2, 2], [2, 2]], "par": 1, "title": "a\\ud800b\\u001b[2Jc\\nd"}]}',
    )
    result = run(str(book), option)
    assert result.exit_code == 0, result.output
    assert "a\ufffdb\ufffd[2Jc\ufffdd" in result.stdout
    assert "\x1b" not in result.stdout
