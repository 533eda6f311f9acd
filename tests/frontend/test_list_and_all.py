"""A book's --list and --all: the table of levels, and a run over every level checked against par."""

import re

from helpers import book_tiles, random_board_text
from oracle import as_board
from support import one_line, run, write_book


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


def test_all_exits_1_and_names_the_level_whose_par_is_wrong(tmp_path, small_book):
    small_book[1]["par"] = 3
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all")
    assert result.exit_code == 1
    assert "par matched on 1 of 2 levels with a par" in result.stdout
    assert one_line(result.stderr) == "error: 1 of 3 levels failed: level 2 (2 moves, par 3)"


def test_all_exits_1_when_a_level_is_unsolvable_and_goes_on_with_the_rest(tmp_path, small_book):
    small_book.insert(0, {"tiles": [[2, 1], [1, 1]], "par": 1})
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all")
    assert result.exit_code == 1
    assert one_line(result.stderr) == "error: 1 of 4 levels failed: level 1 (unsolvable)"
    assert "par matched on 2 of 3 levels with a par" in result.stdout


def test_all_counts_a_level_stopped_by_its_budget_as_a_failure(tmp_path, small_book):
    tiles = book_tiles(as_board(random_board_text(13, 13)))
    small_book.append({"tiles": tiles, "title": "Random"})
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all", "--max-nodes", "1000")
    assert result.exit_code == 1
    assert re.fullmatch(
        r"error: 1 of 4 levels failed: level 4 \(stopped by budget, no solution with fewer than \d+ moves\)",
        one_line(result.stderr),
    )
    assert re.search(r"^\s+4\s+13×13\s+-\s+stopped\s", result.stdout, re.M)
