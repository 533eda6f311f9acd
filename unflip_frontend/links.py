"""The game's share links, both ways. The editor shares a level as `<page>?custom=s_W_H$m_2$v$<digits>`:
the shape WIDTH FIRST, the two-colour arithmetic, and a solution vector in the game's move order
(game_vectors.py); the level is what that vector makes of an all-white board, and the par the game shows is
the vector's weight, the creator's move count. A three-colour level is `m_3`, its vector one digit 0–2 per
move (a square pressed twice counts two), its tiles tile − 1 = (A·x) mod 3 (game_vectors.vector_board).
Earlier versions wrote the vector's entries separated by '_' (`$v$_0_1_…`, or `$v$0_1_…`). The game's level
identifiers carry the tiles instead, row by row, 1 white and 2 black: `s_W_H$m_2$t$1_2_1_…`, after the
level's id and a '$' in a full identifier."""

from __future__ import annotations

import re
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from .boards import MAX_SIZE, MIN_SIZE, SCHEMES, TWO, Board, in_scheme, scheme_of, shape
from .errors import MAX_DIGITS, InputError, whole_number
from .game_vectors import Vector, vector_board, vector_fault, vector_problem
from .option_values import GAME_PAGE

# The link's arithmetic field of each scheme: its number of colours.
ARITHMETICS = {f"m_{colours}": scheme for scheme, colours in SCHEMES.items()}
SHAPE = re.compile(r"s_([^_]+)_([^_]+)")
ARITHMETIC = re.compile(r"m_([^_]+)")
WHERE = "game link"
# The page `make web` builds (docs/web.md), where it is in a clone: it reads a compact string in its address's
# fragment, as the game reads one in its custom parameter.
WEB_PAGE = "web/unflip.html"


@dataclass(frozen=True)
class SharedLevel:
    board: Board  # in the solver's terms: 0 white
    vector: Vector | None  # the link's solution vector (the $v$ form); None for the tile form
    identifier: str | None  # the level id before the compact string, in a full identifier
    compact: str  # the compact string read, decoded

    @property
    def par(self) -> int | None:
        """The par the game shows for the link: its vector's weight (the creator's count, not the optimum)."""
        return None if self.vector is None else sum(self.vector)


def looks_like_link(text: str) -> bool:
    """Whether a SOURCE is meant as a game link or compact string, not a file or a book's name: a compact
    string cannot be a sensible file name ('$'), and a link names the custom parameter."""
    decoded = urllib.parse.unquote(text.strip())
    return "?custom=" in decoded or "&custom=" in decoded or bool(re.match(r"([^$]*\$)?s_\d+_\d+\$", decoded))


def parse_link(text: str) -> SharedLevel:
    """A game link (any URL with a custom parameter), or the compact string alone, percent-encoded or not."""
    compact = compact_string(text)
    parts = compact.split("$")
    identifier = None
    if len(parts) == 5 and not parts[0].startswith("s_"):
        identifier, parts = parts[0], parts[1:]
    if len(parts) != 4:
        raise InputError(
            f"{WHERE}: {shown(compact)} is not a level: expected s_W_H$m_2$v$<digits> or s_W_H$m_2$t$<tiles>"
        )
    geometry, arithmetic, form, data = parts
    width, height = read_shape(geometry)
    scheme = read_arithmetic(arithmetic)
    values = read_values(data)
    if form == "v":
        vector = tuple(values)
        fault = vector_fault(list(vector), height, width, scheme)
        if fault is not None:
            raise InputError(f"{WHERE}: the solution vector {fault}")
        return SharedLevel(vector_board(vector, height, width, scheme), vector, identifier, compact)
    if form == "t":
        return SharedLevel(read_tiles(values, height, width, scheme), None, identifier, compact)
    raise InputError(f"{WHERE}: {form!r} is not a level's form; the game writes v (a vector) or t (tiles)")


def compact_string(text: str) -> str:
    text = text.strip()
    if not text:
        raise InputError(f"{WHERE}: it is empty")
    if "custom=" in text:
        query = urllib.parse.urlsplit(text).query
        # keep_blank_values: 'custom=' with nothing after it is a link with an empty level, said as such.
        values = urllib.parse.parse_qs(query, keep_blank_values=True).get("custom")
        if not values:
            raise InputError(f"{WHERE}: {shown(text)} has no custom parameter in its query")
        if len(values) > 1:
            raise InputError(
                f"{WHERE}: {shown(text)} has {len(values)} custom parameters; a link holds one level"
            )
        if not values[0].strip():
            raise InputError(f"{WHERE}: {shown(text)}: the custom parameter, which holds the level, is empty")
        return values[0].strip()
    if "://" in text:
        raise InputError(f"{WHERE}: {shown(text)} has no custom=… parameter, which holds the level")
    return urllib.parse.unquote(text)


def shown(text: str, limit: int = 60) -> str:
    """Input as a message quotes it: printable, and short."""
    printable = "".join(ch if ch.isprintable() else "\ufffd" for ch in text)
    return repr(printable if len(printable) <= limit else printable[: limit - 1] + "…")


def read_shape(geometry: str) -> tuple[int, int]:
    match = SHAPE.fullmatch(geometry)
    if not match:
        raise InputError(f"{WHERE}: the shape is {shown(geometry)}; the game writes s_W_H (width first)")
    width, height = read_number(match[1], geometry), read_number(match[2], geometry)
    if not (MIN_SIZE <= width <= MAX_SIZE and MIN_SIZE <= height <= MAX_SIZE):
        raise InputError(
            f"{WHERE}: the shape s_{width}_{height} is {width} wide and {height} high; "
            f"each side must be {MIN_SIZE} to {MAX_SIZE} tiles"
        )
    return width, height


def read_arithmetic(arithmetic: str) -> str:
    """The scheme a link's arithmetic field names."""
    match = ARITHMETIC.fullmatch(arithmetic)
    if not match:
        raise InputError(f"{WHERE}: the arithmetic is {shown(arithmetic)}; the game writes m_2")
    colours = read_number(match[1], arithmetic)  # no leading zero: m_2 is the one spelling of two colours
    if arithmetic not in ARITHMETICS:
        raise InputError(
            f"{WHERE}: {arithmetic} would be a {colours}-colour arithmetic; "
            "unflip solves the game's two-colour (m_2) and three-colour (m_3) levels"
        )
    return ARITHMETICS[arithmetic]


def read_values(data: str) -> list[int]:
    """A vector's or the tiles' values: a digit each, or '_'-separated (with or without a leading '_')."""
    if not data:
        raise InputError(f"{WHERE}: nothing follows the last '$', where the level's values go")
    pieces = data.removeprefix("_").split("_") if "_" in data else list(data)
    return [read_number(piece, data) for piece in pieces]


def read_number(digits: str, field: str) -> int:
    """A number of one of the link's fields as the game writes it: ASCII digits without a leading zero, so
    that a level has one spelling (`m_02` is not the m_2 it would be read as)."""
    if len(digits) > MAX_DIGITS:
        raise InputError(
            f"{WHERE}: {shown(digits)} in {shown(field)} is {len(digits):,} characters long; "
            f"no number in a level has more than {MAX_DIGITS} digits"
        )
    value = whole_number(digits)
    if value is None:
        raise InputError(f"{WHERE}: {shown(digits)} in {shown(field)} is not a number")
    if digits != str(value):
        raise InputError(
            f"{WHERE}: {shown(digits)} in {shown(field)} has a leading zero; the game writes numbers without"
        )
    return value


def read_tiles(values: list[int], height: int, width: int, scheme: str) -> Board:
    if len(values) != width * height:
        raise InputError(
            f"{WHERE}: {len(values)} tiles, but a board {width} wide and {height} high has {width * height}"
        )
    bad = next((i for i, value in enumerate(values) if not 1 <= value <= SCHEMES[scheme]), None)
    if bad is not None:
        expected = "1 = white or 2 = black" if scheme == TWO else "1 = cream, 2 = blue or 3 = red"
        where = f"row {bad // width + 1}, col {bad % width + 1}"
        raise InputError(f"{WHERE}: tile {values[bad]} at {where} (expected {expected})")
    rows = tuple(tuple(value - 1 for value in values[r * width : (r + 1) * width]) for r in range(height))
    return in_scheme(rows, scheme)


def arithmetic_of(board: Board) -> str:
    return next(field for field, scheme in ARITHMETICS.items() if scheme == scheme_of(board))


def compact_vector(board: Board, vector: Vector) -> str:
    """The compact string the game's editor writes for a board and a solution vector that clears it."""
    problem = vector_problem(board, list(vector), None)
    if problem is not None:
        raise ValueError(f"the vector {problem}")
    height, width = shape(board)
    return f"s_{width}_{height}${arithmetic_of(board)}$v$" + "".join(map(str, vector))


def compact_tiles(board: Board) -> str:
    """The tile form of the game's level identifiers."""
    height, width = shape(board)
    tiles = "_".join(str(tile + 1) for row in board for tile in row)
    return f"s_{width}_{height}${arithmetic_of(board)}$t${tiles}"


def share_link(board: Board, vector: Vector, page: str = GAME_PAGE) -> str:
    """The link that opens the board in the game with the vector as its solution: the game shows the
    vector's weight as par, so an optimal vector makes it show the proven par. '$' is written as the editor
    writes it; a browser and parse_link read it either way."""
    check_page(page)
    joiner = "" if page.endswith(("?", "&")) else "&" if "?" in page else "?"
    return f"{page}{joiner}custom={compact_vector(board, vector)}"


def check_page(page: str) -> None:
    """A page a link can be made from: a URL as a browser's address bar shows it (not empty, no space or
    control character, which would end up in the link as they are), without a '#' fragment (a parameter
    after it does not count) and without a custom parameter of its own (the link would carry two levels)."""
    if not page:
        raise InputError("the game's page is empty; give its URL, such as " + GAME_PAGE)
    if any(ch.isspace() or not ch.isprintable() for ch in page):
        raise InputError(
            f"the game's page {shown(page)} has a space or a control character; a URL has none "
            "(percent-encode it: %20 for a space)"
        )
    if "#" in page:
        raise InputError(f"the game's page {shown(page)} has a '#' fragment; no parameter after it counts")
    if "custom" in urllib.parse.parse_qs(urllib.parse.urlsplit(page).query, keep_blank_values=True):
        raise InputError(
            f"the game's page {shown(page)} has a custom parameter already; give the page without it"
        )


def page_address(page: Path, board: Board) -> str:
    """The page's file:// address with the board in its fragment (the tile form, which any board has)."""
    return f"{page.resolve().as_uri()}#{compact_tiles(board)}"
