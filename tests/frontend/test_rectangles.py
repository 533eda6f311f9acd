"""Rectangular boards, H rows of W tiles, through every part of the front end: text boards in each layout,
books in both tile encodings, the cards, --compact, --list, --all, --json and its round trip, and the
outcomes a rectangle has that a square does not (one colour reachable and not the other). Optima are the
oracle's, not the solver's."""

import random
import re

import oracle
import pytest
from helpers import book_tiles
from oracle import board_text, replay, uniform
from support import json_records, one_line, run, write, write_book

from unflip_frontend.boards import Move, parse_board_text
from unflip_frontend.render import ASCII, UNICODE, render_board


def moves_in(stdout: str) -> list[tuple[int, int, int]]:
    """The moves of a --compact listing, 0-based as the protocol gives them."""
    found = re.findall(r"flip the (\d+)[x×]\d+ square covering rows (\d+)[-–]\d+, cols (\d+)[-–]\d+", stdout)
    return [(int(row) - 1, int(col) - 1, int(size)) for size, row, col in found]


def solved_in(board: oracle.Board, stdout: str) -> int:
    """How many moves the listing took; that they clear the board is checked here, on the oracle's replay."""
    moves = moves_in(stdout)
    assert replay(board, moves) == uniform(len(board), 0, len(board[0])), stdout
    return len(moves)


STRIP = oracle.board_from_random_moves(random.Random(2), 2, 5, w=11)  # 2×11: only 2×2 moves fit
TOWER = oracle.board_from_random_moves(random.Random(15), 15, 4, w=2)  # 15×2


@pytest.mark.parametrize(("name", "board"), [("2×11 strip", STRIP), ("15×2 tower", TOWER)])
def test_a_strip_and_a_tower_are_solved_in_the_oracles_optimum_and_verified(tmp_path, name, board):
    result = run(str(write(tmp_path / "b.txt", board_text(board))), "--compact")
    assert result.exit_code == 0, result.stderr
    height, width = oracle.shape(board)
    assert result.stdout.startswith(f"{tmp_path / 'b.txt'} — {height}×{width}\nOptimal: ")
    assert solved_in(board, result.stdout) == oracle.coset_optimum(board), name
    assert "✓ Verified" in result.stdout


def test_every_card_of_a_rectangle_shows_its_rows_and_columns_and_the_last_is_white(tmp_path):
    result = run(str(write(tmp_path / "b.txt", board_text(STRIP))), "--ascii", "--no-color")
    assert result.exit_code == 0, result.stderr
    header = "     1  2  3  4  5  6  7  8  9 10 11"
    cards = result.stdout.split("\n\n")[1:-1]
    assert cards and all(card.split("\n")[1] == header for card in cards)
    white_row = "  ".join("." * 11)
    assert cards[-1] == f"Solved:\n{header}\n  1  {white_row}\n  2  {white_row}"


def test_a_rectangle_written_in_each_layout_reads_as_the_same_board():
    board = ((0, 1, 1, 0, 0, 0, 1), (1, 1, 0, 0, 1, 0, 0), (0, 0, 0, 1, 1, 1, 0))
    plain = "".join("".join(map(str, row)) + "\n" for row in board)
    layouts = [
        plain,
        plain.replace("1", "2").replace("0", "1"),
        "\n".join(" ".join(map(str, row)) for row in board),
        "\r\n".join(",".join(map(str, row)) for row in board) + "\r\n\r\n",
        render_board(board, UNICODE, Move(1, 4, 2)).plain,
        render_board(board, ASCII, Move(0, 0, 3)).plain,
    ]
    for text in layouts:
        assert parse_board_text(text, "b") == board, text


@pytest.mark.parametrize("encoding", ["rows", "array"])
def test_a_book_of_rectangles_in_either_tile_encoding_is_listed_and_solved_at_par(tmp_path, encoding):
    boards = [STRIP, TOWER, oracle.board_from_random_moves(random.Random(5), 4, 6, w=9)]
    levels = []
    for number, board in enumerate(boards, 1):
        tiles: object = book_tiles(board)
        if encoding == "array":
            array = [tile for row in tiles for tile in row]
            tiles = {"array": array, "width": len(board[0]), "height": len(board)}
        levels.append({"tiles": tiles, "par": oracle.coset_optimum(board), "title": f"R{number}"})
    book = write_book(tmp_path / "book.json", levels)
    listed = run(str(book), "--list")
    assert listed.exit_code == 0, listed.stderr
    rows = [line.split() for line in listed.stdout.splitlines() if re.match(r"\s+\d", line)]
    assert [row[:2] for row in rows] == [["1", "2×11"], ["2", "15×2"], ["3", "4×9"]]
    solved = run(str(book), "--all")
    assert solved.exit_code == 0, solved.stdout + solved.stderr
    assert "par matched on 3 of 3 levels with a par" in solved.stdout
    level = run(str(book), "3", "--compact")
    assert solved_in(boards[2], level.stdout) == levels[2]["par"]


def test_a_rectangles_json_record_has_its_height_and_width_and_its_board_reads_back_to_the_same_optimum(
    tmp_path,
):
    board = oracle.board_from_random_moves(random.Random(9), 5, 7, w=12)
    [first] = json_records(run(str(write(tmp_path / "b.txt", board_text(board))), "--json"))
    assert (first["level"]["height"], first["level"]["width"]) == (5, 12)
    moves = [(move["row"], move["col"], move["size"]) for move in first["moves"]]
    assert replay(oracle.as_board(first["level"]["board"]), moves) == uniform(5, 0, 12)
    assert first["move_count"] == oracle.cpsat_optimum(board)
    [again] = json_records(run("-", "--json", input="\n".join(first["level"]["board"]) + "\n"))
    assert again["level"]["board"] == first["level"]["board"]
    assert again["move_count"] == first["move_count"]


def test_all_with_json_on_a_book_of_rectangles_gives_records_that_validate(tmp_path):
    book = write_book(tmp_path / "book.json", [{"tiles": book_tiles(STRIP)}, {"tiles": book_tiles(TOWER)}])
    records = json_records(run(str(book), "--all", "--json"))
    assert [(r["level"]["height"], r["level"]["width"]) for r in records[:-1]] == [(2, 11), (15, 2)]
    assert records[-1]["outcome"] == "passed"


# --- what a rectangle can do that a square cannot -----------------------------------------------------------

# On a 2×3 board the two 2×2 squares share the middle column, so no set of them blackens every tile: white is
# reachable (it is there already), black is not. On a square board the whole board is a move, and that
# cannot happen.
WHITE_2X3 = "000\n000\n"


def test_a_rectangle_that_cannot_be_made_black_says_so_for_target_1(tmp_path):
    assert oracle.is_solvable(oracle.as_board(WHITE_2X3), 0)
    assert not oracle.is_solvable(oracle.as_board(WHITE_2X3), 1)
    result = run(str(write(tmp_path / "b.txt", WHITE_2X3)), "--target", "black")
    assert result.exit_code == 1
    assert one_line(result.stderr) == "unsolvable: no sequence of moves makes every tile black"


def test_target_either_on_a_rectangle_takes_the_colour_that_can_be_reached(tmp_path):
    black_2x3 = "111\n111\n"  # the same two squares cannot whiten it, and it is black already
    result = run(str(write(tmp_path / "b.txt", black_2x3)), "--target", "either", "--json")
    [record] = json_records(result)
    assert (record["outcome"], record["target"], record["move_count"]) == ("solved", 1, 0)


def test_a_rectangle_neither_colour_can_be_reached_from_says_both(tmp_path):
    board = "100\n000\n"
    assert not any(oracle.is_solvable(oracle.as_board(board), target) for target in (0, 1))
    result = run(str(write(tmp_path / "b.txt", board)), "--target", "either")
    assert result.exit_code == 1
    assert one_line(result.stderr) == (
        "unsolvable: no sequence of moves makes every tile white or every tile black"
    )
