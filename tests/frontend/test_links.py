"""links.py: the game's share links read in every form the game writes (a ?custom= URL, the bare compact
string, percent-encoded, digits or '_'-separated, vectors or tiles, width first) and written back, a board
read back as itself for squares and rectangles; bad input is one clear line."""

from __future__ import annotations

import random

import oracle
import pytest
from helpers import MAX_SIDE
from oracle import replay, uniform
from support import SIDE_RANGE

from unflip_frontend.errors import InputError
from unflip_frontend.links import (
    GAME_PAGE,
    compact_tiles,
    looks_like_link,
    parse_link,
    share_link,
)


def random_vector(rng: random.Random, height: int, width: int) -> tuple[int, ...]:
    return tuple(rng.randint(0, 1) for _ in oracle.game_order(height, width))


def made_by(vector: tuple[int, ...], height: int, width: int) -> oracle.Board:
    """What a vector makes of an all-white board, by the oracle."""
    moves = [move for move, bit in zip(oracle.game_order(height, width), vector, strict=True) if bit]
    return replay(uniform(height, 0, width), moves)


# 3 wide and 2 high: only 2×2 squares fit, at columns 0 and 1; the vector makes the first.
RECTANGLE_LINK = "https://unflipgame.com/?custom=s_3_2$m_2$v$10"


def test_the_shape_is_width_first_and_the_level_is_what_its_vector_makes_of_a_white_board():
    shared = parse_link(RECTANGLE_LINK)
    assert shared.board == ((1, 1, 0), (1, 1, 0))
    assert shared.vector == (1, 0)
    assert shared.par == 1


@pytest.mark.parametrize(
    "text",
    [
        RECTANGLE_LINK,
        "https://unflipgame.com/?custom=s_3_2%24m_2%24v%2410",
        "http://localhost:5173/play/?lang=en&custom=s_3_2$m_2$v$10#top",
        "s_3_2$m_2$v$10",
        "s_3_2%24m_2%24v%2410",
        "  s_3_2$m_2$v$_1_0\n",
        "s_3_2$m_2$v$1_0",
    ],
)
def test_every_form_of_a_link_the_game_writes_reads_as_the_same_level(text):
    assert looks_like_link(text)
    shared = parse_link(text)
    assert (shared.board, shared.vector) == (((1, 1, 0), (1, 1, 0)), (1, 0))


def test_the_tile_form_reads_row_by_row_with_1_white_and_2_black_also_after_a_level_id():
    tiles = "s_3_2$m_2$t$2_2_1_1_1_2"
    assert parse_link(tiles).board == ((1, 1, 0), (0, 0, 1))
    assert parse_link(tiles).vector is None and parse_link(tiles).par is None
    full = parse_link("level_1000000000001$" + tiles)
    assert (full.identifier, full.board) == ("level_1000000000001", ((1, 1, 0), (0, 0, 1)))


@pytest.mark.parametrize(
    ("height", "width"),
    [(2, 2), (4, 4), (7, 7), (3, 5), (5, 3), (2, 15), (15, 15), (20, 20), (16, MAX_SIDE), (MAX_SIDE, 2)],
)
def test_a_shared_link_reads_back_as_the_same_board_and_vector_for_squares_and_rectangles(height, width):
    rng = random.Random(height * 31 + width)
    for _ in range(5):
        vector = random_vector(rng, height, width)
        board = made_by(vector, height, width)
        link = share_link(board, vector)
        assert link.startswith(f"{GAME_PAGE}?custom=s_{width}_{height}$m_2$v$")
        shared = parse_link(link)
        assert (shared.board, shared.vector) == (board, vector)
        assert parse_link(compact_tiles(board)).board == board


def test_the_official_main_books_levels_share_and_read_back_as_themselves(books):
    for level in books["main"]:
        board = oracle.book_board(level)
        shared = parse_link(share_link(board, tuple(level["solutionVector"])))
        assert shared.board == board
        assert level["par"] is None or shared.par == level["par"]


def test_the_base_address_is_configurable():
    board, vector = ((1, 1, 0), (1, 1, 0)), (1, 0)
    assert (
        share_link(board, vector, "http://localhost:5173/") == "http://localhost:5173/?custom=s_3_2$m_2$v$10"
    )
    assert share_link(board, vector, "https://x.org/?lang=fr").endswith("?lang=fr&custom=s_3_2$m_2$v$10")
    with pytest.raises(InputError, match="fragment"):
        share_link(board, vector, "https://x.org/#play")


def test_a_vector_that_does_not_make_the_board_is_never_shared():
    with pytest.raises(ValueError, match="does not replay"):
        share_link(((1, 1, 0), (1, 1, 0)), (0, 1))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "s_3_2$m_4$v$10",
            "m_4 would be a 4-colour arithmetic; unflip solves the game's two-colour (m_2) and "
            "three-colour (m_3) levels",
        ),
        ("s_3_2$m_3$v$13", "the solution vector has 3 at entry 2; every entry is 0, 1 or 2"),
        ("s_3_2$m_3$v$_1_3", "the solution vector has 3 at entry 2; every entry is 0, 1 or 2"),
        ("s_3_2$m_3$t$1_2_3_4_1_1", "tile 4 at row 2, col 1 (expected 1 = cream, 2 = blue or 3 = red)"),
        ("s_3_2$m_1$v$10", "m_1 would be a 1-colour arithmetic"),
        ("s_3_2$m_2$v$100", "the solution vector has 3 entries, but a 2×3 board has 2 moves"),
        ("s_3_2$m_2$v$12", "the solution vector has 2 at entry 2; every entry is 0 or 1"),
        ("s_3_2$m_2$v$1x", "'x' in '1x' is not a number"),
        (
            f"s_{MAX_SIDE + 1}_2$m_2$v$0",
            f"the shape s_{MAX_SIDE + 1}_2 is {MAX_SIDE + 1} wide and 2 high; {SIDE_RANGE}",
        ),
        ("s_1_4$m_2$v$0", SIDE_RANGE),
        ("s_3_2$m_2$t$1_2_1", "3 tiles, but a board 3 wide and 2 high has 6"),
        ("s_3_2$m_2$t$1_2_1_0_1_1", "tile 0 at row 2, col 1 (expected 1 = white or 2 = black)"),
        ("s_3_2$m_2$x$10", "'x' is not a level's form"),
        ("s_3_2$m_2$v$", "nothing follows the last '$'"),
        ("h_3_2$m_2$v$10", "the shape is 'h_3_2'; the game writes s_W_H (width first)"),
        ("garbage", "'garbage' is not a level"),
        ("https://unflipgame.com/?level=3", "has no custom=… parameter"),
        ("https://unflipgame.com/?custom=", "the custom parameter, which holds the level, is empty"),
        ("", "it is empty"),
    ],
)
def test_bad_input_is_one_clear_line(text, words):
    with pytest.raises(InputError) as caught:
        parse_link(text)
    message = str(caught.value)
    assert message.startswith("game link: ") and words in message
    assert "\n" not in message


@pytest.mark.parametrize("text", ["board.txt", "daily", "-", "books/main.json", "s_1.txt"])
def test_files_and_book_names_are_not_taken_for_links(text):
    assert not looks_like_link(text)
