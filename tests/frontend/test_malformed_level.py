"""One malformed level of a book blocks none of the others: they solve, list and check as usual; the
malformed one is named with what is wrong wherever it is asked for, and --all counts it as the book's
error (exit 1), not the solver's."""

from __future__ import annotations

import json

import pytest
from support import json_records, one_line, run, square_board, write_book

from unflip_frontend import api
from unflip_frontend.errors import InputError

BAD = "par must be a whole number or null, not 'seven'"


@pytest.fixture
def book(tmp_path):
    return write_book(
        tmp_path / "book.json",
        [
            {"tiles": square_board(4, [(0, 0, 2)]), "par": 1, "title": "Fine"},
            {"tiles": square_board(4, [(1, 1, 2)]), "par": "seven", "title": "Broken"},
            {"tiles": square_board(5, [(0, 0, 2), (3, 3, 2)]), "par": 2},
        ],
    )


@pytest.mark.parametrize("number", ["1", "3"])
def test_the_other_levels_of_a_book_with_a_malformed_level_solve(book, number):
    result = run(str(book), number, "--compact")
    assert result.exit_code == 0, result.stderr


def test_asking_for_the_malformed_level_names_what_is_wrong_with_it(book):
    result = run(str(book), "2")
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"error: {book} level 2: {BAD}"


def test_list_shows_the_malformed_level_as_such(book):
    result = run(str(book), "--list")
    assert result.exit_code == 0, result.stderr
    assert "malformed" in result.stdout and "Broken" in result.stdout
    listed = json_records(run(str(book), "--list", "--json"))[0]["levels"]
    assert listed[1]["problem"] == BAD and listed[1]["board"] is None
    assert listed[2]["height"] == 5


def test_all_counts_the_malformed_level_as_the_books_error_and_solves_the_rest(book):
    result = run(str(book), "--all")
    assert result.exit_code == 1
    assert "malformed" in result.stdout
    assert f"level 2 ({BAD})" in result.stderr
    records = json_records(run(str(book), "--all", "--json"))
    levels = [r for r in records if r["record"] == "level"]
    assert [r["outcome"] for r in levels] == ["solved", "malformed", "solved"]
    assert levels[1]["failure_kind"] == "book"
    assert records[-1]["exit_status"] == 1


def test_the_api_reads_the_book_and_refuses_only_the_malformed_level(book):
    levels = api.read_book(book).levels
    assert len(levels) == 3
    assert isinstance(api.solve(levels[0]), api.Solution)
    with pytest.raises(InputError, match="par must be a whole number"):
        api.solve(levels[1])


def test_annotate_keeps_the_malformed_level_as_it_is_and_annotates_the_rest(book, tmp_path):
    out = tmp_path / "out.json"
    result = run("annotate", str(book), "--out", str(out))
    assert result.exit_code == 1, result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        f"error: 1 of 3 levels malformed, kept as they are: level 2 ({BAD})"
    )
    written = json.loads(out.read_text())["levels"]
    assert written[1] == json.loads(book.read_text())["levels"][1]
    assert written[0]["solutionVector"] and written[2]["solutionVector"]
