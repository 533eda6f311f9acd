"""Golden tests of the step cards unflip.py prints: Unicode, ASCII, colour and no colour.

Every board here is made up for the test; the expected cards are written out by hand from the layout the
specification shows, not captured from the renderer.
"""

import io

from rich.console import Console

from unflip_frontend.boards import Board, Move
from unflip_frontend.render import ASCII, UNICODE, describe_move, render_board, step_card


def board(*rows: str) -> Board:
    return tuple(tuple(int(ch) for ch in row) for row in rows)


def ansi(text, *, no_color: bool = False) -> str:
    """What a colour terminal receives for this text."""
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, color_system="standard", width=200, no_color=no_color)
    console.print(text, soft_wrap=True)
    return buffer.getvalue()


FIVE = board("01100", "00111", "10011", "01000", "11001")


def test_a_unicode_card_outlines_the_square_between_the_tiles_with_box_drawing_lines():
    card = step_card(2, 5, Move(0, 2, 3), FIVE, UNICODE)
    assert card.plain == (
        "Step 2 of 5 — flip the 3×3 square covering rows 1–3, cols 3–5:\n"
        "     1 2 3 4 5\n"
        "        ┌─────┐\n"
        "  1  · ■│■ · ·│\n"
        "  2  · ·│■ ■ ■│\n"
        "  3  ■ ·│· ■ ■│\n"
        "        └─────┘\n"
        "  4  · ■ · · ·\n"
        "  5  ■ ■ · · ■"
    )


def test_an_ascii_card_uses_dots_hashes_and_plus_minus_bar_outlines():
    card = step_card(5, 5, Move(3, 0, 2), FIVE, ASCII)
    assert card.plain == (
        "Step 5 of 5 - flip the 2x2 square covering rows 4-5, cols 1-2:\n"
        "     1 2 3 4 5\n"
        "  1  . # # . .\n"
        "  2  . . # # #\n"
        "  3  # . . # #\n"
        "    +---+\n"
        "  4 |. #|. . .\n"
        "  5 |# #|. . #\n"
        "    +---+"
    )


def test_the_card_matches_the_example_printed_in_the_specification():
    # The specification shows rows 1-4 of a 7x7 card and elides the rest ("...").
    spec = (
        "Step 1 of 3 — flip the 2×2 square covering rows 2–3, cols 3–4:\n"
        "     1 2 3 4 5 6 7\n"
        "  1  · · · · · · ·\n"
        "        ┌───┐\n"
        "  2  · ·│■ ■│· · ·\n"
        "  3  · ·│· ·│■ · ·\n"
        "        └───┘\n"
        "  4  · · ■ ■ ■ · ·\n"
    )
    seven = board("0000000", "0011000", "0000100", "0011100", "0000000", "0100010", "0000000")
    card = step_card(1, 3, Move(1, 2, 2), seven, UNICODE)
    assert card.plain.startswith(spec)


def test_two_digit_column_numbers_line_up_above_their_tiles_on_a_12x12_board():
    twelve = ["100000000001"] + ["000000000000"] * 8 + ["000000000111"] * 3
    card = render_board(board(*twelve), UNICODE, Move(9, 9, 3))
    white_row = "  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·"
    assert card.plain.split("\n") == [
        "     1  2  3  4  5  6  7  8  9 10 11 12",
        "  1  ■  ·  ·  ·  ·  ·  ·  ·  ·  ·  ·  ■",
        *(f"{r:>3}{white_row}" for r in range(2, 10)),
        "                               ┌───────┐",
        " 10  ·  ·  ·  ·  ·  ·  ·  ·  · │■  ■  ■│",
        " 11  ·  ·  ·  ·  ·  ·  ·  ·  · │■  ■  ■│",
        " 12  ·  ·  ·  ·  ·  ·  ·  ·  · │■  ■  ■│",
        "                               └───────┘",
    ]


def test_a_card_of_a_board_wider_than_tall_numbers_its_eleven_columns_and_outlines_a_square_its_height():
    wide = board("10000000011", "00000000010", "01000000111")
    card = step_card(2, 4, Move(0, 8, 3), wide, UNICODE)
    assert card.plain.split("\n") == [
        "Step 2 of 4 — flip the 3×3 square covering rows 1–3, cols 9–11:",
        "     1  2  3  4  5  6  7  8  9 10 11",
        "                            ┌───────┐",
        "  1  ■  ·  ·  ·  ·  ·  ·  · │·  ■  ■│",
        "  2  ·  ·  ·  ·  ·  ·  ·  · │·  ■  ·│",
        "  3  ·  ■  ·  ·  ·  ·  ·  · │■  ■  ■│",
        "                            └───────┘",
    ]


def test_a_card_of_a_board_taller_than_wide_numbers_its_eleven_rows_in_ascii():
    tall = board("10", *["00"] * 7, "01", "11", "10")
    card = step_card(1, 1, Move(9, 0, 2), tall, ASCII)
    assert card.plain.split("\n") == [
        "Step 1 of 1 - flip the 2x2 square covering rows 10-11, cols 1-2:",
        "     1 2",
        "  1  # .",
        *(f"  {r}  . ." for r in range(2, 9)),
        "  9  . #",
        "    +---+",
        " 10 |# #|",
        " 11 |# .|",
        "    +---+",
    ]


def test_a_15x15_board_keeps_every_column_number_over_its_tile():
    fifteen = board(*["1" * 15] * 15)
    header, first_row = render_board(fifteen, ASCII).plain.split("\n")[:2]
    for col in range(15):
        number_end = header.index(str(col + 1), 3 * col) + len(str(col + 1)) - 1
        assert first_row[number_end] == "#"


def test_a_card_in_colour_highlights_the_outline_and_the_flipped_tiles():
    four = board("0000", "0110", "0100", "0000")
    card = step_card(1, 1, Move(1, 1, 2), four, UNICODE)
    assert ansi(card) == (
        "\x1b[1mStep 1 of 1 — flip the 2×2 square covering rows 2–3, cols 2–3:\x1b[0m\n"
        "\x1b[2m     1 2 3 4\x1b[0m\n"
        "\x1b[2m  1\x1b[0m  · · · ·\n"
        "      \x1b[1;33m┌───┐\x1b[0m\n"
        "\x1b[2m  2\x1b[0m  ·\x1b[1;33m│■ ■│\x1b[0m·\n"
        "\x1b[2m  3\x1b[0m  ·\x1b[1;33m│■ ·│\x1b[0m·\n"
        "      \x1b[1;33m└───┘\x1b[0m\n"
        "\x1b[2m  4\x1b[0m  · · · ·\n"
    )


def test_a_card_without_colour_keeps_only_bold_and_dim_on_a_terminal():
    four = board("0000", "0110", "0100", "0000")
    card = step_card(1, 1, Move(1, 1, 2), four, ASCII)
    assert ansi(card, no_color=True) == (
        "\x1b[1mStep 1 of 1 - flip the 2x2 square covering rows 2-3, cols 2-3:\x1b[0m\n"
        "\x1b[2m     1 2 3 4\x1b[0m\n"
        "\x1b[2m  1\x1b[0m  . . . .\n"
        "      \x1b[1m+---+\x1b[0m\n"
        "\x1b[2m  2\x1b[0m  .\x1b[1m|# #|\x1b[0m.\n"
        "\x1b[2m  3\x1b[0m  .\x1b[1m|# .|\x1b[0m.\n"
        "      \x1b[1m+---+\x1b[0m\n"
        "\x1b[2m  4\x1b[0m  . . . .\n"
    )


def test_a_plain_board_has_no_outline_and_no_trailing_spaces():
    text = render_board(board("10", "01"), UNICODE).plain
    assert text == "     1 2\n  1  ■ ·\n  2  · ■"


def test_moves_are_described_with_1_based_inclusive_rows_and_columns():
    assert describe_move(Move(0, 4, 2), UNICODE) == ("flip the 2×2 square covering rows 1–2, cols 5–6")
    assert describe_move(Move(9, 0, 6), ASCII) == ("flip the 6x6 square covering rows 10-15, cols 1-6")
