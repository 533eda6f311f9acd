"""Boards as people write them: digits together or apart (spaces, commas), and the boards the front end
prints, pasted back in. Each reads as the same board the plain 0/1 text gives."""

import pytest
from support import SPEC_BOARD, one_line, recorded, run, write

from unflip_frontend.boards import Move, parse_board_text
from unflip_frontend.render import ASCII, UNICODE, render_board

SPEC = parse_board_text(SPEC_BOARD, "the spec's board")
PRINTED_TILES = "(a printed board's tiles are · and ■, or . and #)"


@pytest.mark.parametrize(
    "text",
    [
        "0 0 0 0 0\n0 0 0 1 0\n0 0 0 0 0\n0 1 0 0 0\n0 0 0 0 0\n",
        "0,0,0,0,0\n0,0,0,1,0\n0,0,0,0,0\n0,1,0,0,0\n0,0,0,0,0\n",
        "0, 0, 0, 0, 0,\r\n0, 0, 0, 1, 0,\r\n0, 0, 0, 0, 0,\r\n0, 1, 0, 0, 0,\r\n0, 0, 0, 0, 0\r\n",
        "\t1 1 1 1 1\n\t1 1 1 2 1\n\t1 1 1 1 1\n\t1 2 1 1 1\n\t1 1 1 1 1\n",
    ],
    ids=["spaces", "commas", "commas, spaces and CRLF", "tabs and 1/2"],
)
def test_digits_separated_by_spaces_or_commas_read_as_the_plain_board(text):
    assert parse_board_text(text, "b") == SPEC


@pytest.mark.parametrize("glyphs", [UNICODE, ASCII], ids=["unicode", "ascii"])
@pytest.mark.parametrize("square", [None, Move(1, 1, 2), Move(0, 0, 5)], ids=["plain", "inner", "whole"])
def test_a_board_the_front_end_printed_reads_back_as_itself(glyphs, square):
    printed = render_board(SPEC, glyphs, square).plain
    assert parse_board_text(printed, "b") == SPEC


def test_a_printed_board_without_its_numbers_reads_too():
    assert parse_board_text("· · · · ·\n· · · ■ ·\n· · · · ·\n· ■ · · ·\n· · · · ·\n", "b") == SPEC


def test_a_step_card_board_pasted_from_the_output_is_solved_in_the_same_moves(tmp_path):
    result = run(str(write(tmp_path / "b.txt", SPEC_BOARD)), "--no-color")
    assert result.exit_code == 0, result.stderr
    card = result.stdout.split("Step 1 of 8", 1)[1].split("\n\n", 1)[0]
    board = "\n".join(card.splitlines()[1:]) + "\n"
    again = run("-", "--compact", input=board)
    assert again.exit_code == 0, again.stderr
    assert "Optimal: 8 moves" in again.stdout


def test_a_pasted_board_goes_to_the_solver_as_plain_digits(tmp_path, fake_solver):
    env = fake_solver("TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n")
    result = run("-", input="     1 2\n  1  ■ ■\n  2  ■ ■\n", env=env)
    assert result.exit_code == 0, result.stderr
    assert recorded(tmp_path)["stdin"] == "11\n11\n"


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ("0 10\n0 1 0\n0 0 0\n", "line 1: '10' is more than one tile; separate every tile of a row, or none"),
        ("· ■\n■ 1\n", "line 2: '1' is not a tile " + PRINTED_TILES),
        ("· ■ ·\n■ ·\n· · ·\n", "line 2: 2 tiles, but line 1 has 3"),
        ("  1 2\n1 · ■\n2 ■ x\n", "line 3: 'x' is not a tile " + PRINTED_TILES),
    ],
)
def test_a_malformed_board_in_another_layout_names_the_line(board, message):
    result = run("-", input=board)
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"error: standard input {message}"

