"""Properties of the board and book readers, over inputs Hypothesis makes up: whatever the text, bytes or
JSON, the reader returns a well-formed board or book, or raises one InputError whose message is one line;
never another exception. And every board or book written in a form the readers promise to accept reads back
as itself. The number of examples each property runs is set here; docs/checks.md adds them up."""

from __future__ import annotations

import json
import string
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support import run, write_book

from unflip_frontend.boards import MAX_SIZE, MIN_SIZE, Board, Move, parse_board_text
from unflip_frontend.books import Book, Level, load_source, parse_book
from unflip_frontend.errors import InputError
from unflip_frontend.render import ASCII, UNICODE, render_board

# Any text at all. Hypothesis seldom puts a lone surrogate (which JSON escapes and file names that are not
# UTF-8 give) or rich markup into text by itself, so pieces of both are mixed in.
TRICKY = st.sampled_from(["\ud800", "\udcff", "[/]", "[/bold]", "[bold]", ":smile:", "\x1b[2J", "\r\n"])
ANY_TEXT = st.lists(st.text(st.characters(exclude_categories=[]), max_size=4) | TRICKY, max_size=8)
ANY_TEXT = ANY_TEXT.map("".join)
# Text made of what boards are written with, so examples get past the first line.
BOARD_CHARACTERS = "0120 ,\t\r\n·■.#│|┌┐└┘─+-3456789x"


def clean_error(error: InputError) -> None:
    message = str(error)
    assert message and "\n" not in message and "Traceback" not in message


def well_formed(board: Board) -> None:
    height, width = len(board), len(board[0])
    assert MIN_SIZE <= height <= MAX_SIZE and MIN_SIZE <= width <= MAX_SIZE
    assert all(len(row) == width and set(row) <= {0, 1} for row in board)


def printable(text: str) -> bool:
    return not any(unicodedata.category(ch) in ("Cc", "Cs") for ch in text)


def read_board(text: str) -> Board | None:
    try:
        board = parse_board_text(text, "b")
    except InputError as error:
        clean_error(error)
        return None
    well_formed(board)
    return board


# --- boards -------------------------------------------------------------------------------------------------


@settings(max_examples=1000)
@given(ANY_TEXT)
def test_any_text_is_a_board_or_one_clean_error(text):
    read_board(text)


@settings(max_examples=1000)
@given(st.text(st.sampled_from(BOARD_CHARACTERS), max_size=400))
def test_any_text_of_board_characters_is_a_board_or_one_clean_error(text):
    read_board(text)


# Every side the reader takes; half the draws up to half the largest, which keeps the run's time where it
# was when 15 was the largest (a board's cost grows with its area).
SIDES = st.integers(MIN_SIZE, MAX_SIZE // 2) | st.integers(MIN_SIZE, MAX_SIZE)
# Squares and rectangles alike: a height, then a width.
boards = st.tuples(SIDES, SIDES).flatmap(
    lambda shape: st.lists(
        st.lists(st.integers(0, 1), min_size=shape[1], max_size=shape[1]).map(tuple),
        min_size=shape[0],
        max_size=shape[0],
    )
).map(tuple)


def squares(height: int, width: int) -> st.SearchStrategy[Move | None]:
    return st.none() | st.integers(2, min(height, width)).flatmap(
        lambda k: st.builds(Move, st.integers(0, height - k), st.integers(0, width - k), st.just(k))
    )


@st.composite
def written_boards(draw: st.DrawFn) -> tuple[Board, str]:
    """A board, and one of the ways the reader promises to accept it."""
    board = draw(boards)
    style = draw(st.sampled_from(["0/1", "1/2", "spaces", "commas", "unicode", "ascii"]))
    if style in ("unicode", "ascii"):
        glyphs = UNICODE if style == "unicode" else ASCII
        text = render_board(board, glyphs, draw(squares(len(board), len(board[0])))).plain
    else:
        if style == "1/2":
            assume(any(map(any, board)))  # all 1s is read as 0/1: an all-white board cannot be written so
        offset = 1 if style == "1/2" else 0
        between = {"spaces": " ", "commas": ", "}.get(style, "")
        text = "\n".join(between.join(str(tile + offset) for tile in row) for row in board)
    end = draw(st.sampled_from(["\n", "\r\n"]))
    trailing = draw(st.sampled_from(["", " ", "\t "]))
    blank_lines = draw(st.sampled_from(["", "\n\n"]))
    return board, "".join(line + trailing + end for line in text.split("\n")) + blank_lines


@settings(max_examples=500)
@given(written_boards())
def test_every_board_reads_back_as_itself_however_it_is_written(written):
    board, text = written
    assert parse_board_text(text, "b") == board


# --- books --------------------------------------------------------------------------------------------------

BOOK_KEYS = st.sampled_from(["levels", "tiles", "par", "title", "array", "width", "height"])
LEAVES = st.none() | st.booleans() | st.integers(-2, 20) | st.integers() | st.floats()
LEAVES |= ANY_TEXT
JSON_VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=6)
    | st.dictionaries(BOOK_KEYS | st.text(max_size=4), inner, max_size=5),
    max_leaves=40,
)
# Values shaped more and more like a book, so that examples reach the level, tile and par checks.
BOOKISH = st.one_of(
    JSON_VALUES,
    st.builds(lambda levels: {"levels": levels}, JSON_VALUES),
    st.builds(
        lambda tiles, par, title: {"levels": [{"tiles": tiles, "par": par, "title": title}]},
        JSON_VALUES | st.lists(st.lists(st.integers(0, 3), max_size=4), max_size=4),
        LEAVES,
        LEAVES,
    ),
)


def read_book(text: str) -> Book | None:
    try:
        book = parse_book(text, "book")
    except InputError as error:
        clean_error(error)
        return None
    assert book.levels
    for level in book.levels:
        assert printable(level.title)
        if level.problem is not None:  # a malformed level says why, in one clean line, and holds nothing
            clean_error(InputError(level.problem))
            assert level.board == () and level.par is None
            continue
        well_formed(level.board)
        assert level.par is None or (type(level.par) is int and level.par >= 0)
    return book


@settings(max_examples=500)
@given(BOOKISH)
def test_any_json_is_a_book_or_one_clean_error(value):
    read_book(json.dumps(value))


@settings(max_examples=500)
@given(st.text(st.sampled_from(string.printable + "{}[]\"")) | ANY_TEXT)
def test_any_text_given_as_a_book_is_a_book_or_one_clean_error(text):
    read_book(text)


@st.composite
def written_books(draw: st.DrawFn) -> tuple[list[tuple[Board, int | None, str]], str]:
    level = st.tuples(boards, st.none() | st.integers(0, 300), ANY_TEXT)
    levels = draw(st.lists(level, min_size=1, max_size=4))
    entries = []
    for board, par, title in levels:
        tiles: object = [[tile + 1 for tile in row] for row in board]
        if draw(st.booleans()):  # the game's other encoding: one row-major array
            array = [tile + 1 for row in board for tile in row]
            tiles = {"array": array, "width": len(board[0]), "height": len(board)}
        entries.append({"tiles": tiles, "par": par, "title": title})
    return levels, json.dumps({"levels": entries})


@settings(max_examples=300)
@given(written_books())
def test_every_book_reads_back_its_boards_pars_and_titles_shown_printable(written):
    levels, text = written
    book = read_book(text)
    assert book is not None
    for level, (board, par, title) in zip(book.levels, levels, strict=True):
        assert (level.board, level.par) == (board, par)
        meant = json.loads(json.dumps(title))  # JSON joins an escaped surrogate pair into one character
        assert level.title == meant if printable(meant) else len(level.title) == len(meant)


# --- any bytes, through the command's own reading of a source -----------------------------------------------


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("properties")


@settings(max_examples=500)
@given(
    st.binary()
    | st.text(st.sampled_from(BOARD_CHARACTERS)).map(str.encode)
    | st.builds(lambda value: b"\xef\xbb\xbf" + json.dumps(value).encode(), BOOKISH)
)
def test_any_bytes_in_a_file_are_a_board_a_book_or_one_clean_error(scratch, data):
    path = scratch / "source"
    path.write_bytes(data)
    try:
        loaded = load_source(str(path), None)
    except InputError as error:
        clean_error(error)
        return
    assert isinstance(loaded, Book | Level)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ANY_TEXT, min_size=1, max_size=3))
def test_any_titles_are_listed_without_a_traceback(scratch, titles):
    levels = [{"tiles": [[2, 1], [1, 1]], "title": title} for title in titles]
    book = write_book(scratch / "titled.json", levels)
    result = run(str(book), "--list")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


# --- the front end reads the protocol's own boards as the solver does ---------------------------------------


@st.composite
def near_boards(draw: st.DrawFn) -> str:
    """Text in the line protocol's alphabet: rows of about one width, squares and rectangles near and past
    the limits (0 to max_side + 2 rows of 0 to max_side + 2 tiles), some of it valid."""
    height, width = draw(st.integers(0, MAX_SIZE + 2)), draw(st.integers(0, MAX_SIZE + 2))
    rows = draw(
        st.lists(
            st.text(st.sampled_from("0120"), min_size=max(0, width - 1), max_size=width + 1),
            min_size=max(0, height - 1),
            max_size=height + 1,
        )
    )
    return "\n".join(rows) + draw(st.sampled_from(["", "\n", "\n\n"]))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(near_boards())
def test_a_protocol_board_is_accepted_exactly_when_the_solver_accepts_it(run_solver, text):
    """Squares and rectangles alike: the front end refuses a text in the solver's own alphabet exactly when
    the solver does."""
    try:
        board = parse_board_text(text, "b")
        well_formed(board)
    except InputError:
        board = None
    theirs = run_solver(text, "--lower-bound", "--threads", "1", "--quiet")
    assert (theirs.outcome == "rejected") == (board is None), theirs.describe()
