"""Boards and moves. A board is a tuple of rows of 0/1 in the solver's terms: 0 is the game's white. A board
has H rows of W tiles, MIN_SIZE ≤ H, W ≤ MAX_SIZE (the solver's contract's: 2 and 31), square or not; a move
is a k×k square, 2 ≤ k ≤ min(H, W).

A board of the game's three-colour scheme ("tri") is a TriBoard: its tiles are 0, 1, 2, the game's tile − 1
(1 cream, the solved colour; 2 blue; 3 red), and a press turns each tile of its square one step back,
1 → 3 → 2 → 1, so three presses of one square undo themselves. The board carries its scheme: scheme_of
reads it, and every board made from a board (a move made, a mirror image) keeps it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from .contract import solver_contract
from .errors import InputError

Board = tuple[tuple[int, ...], ...]

LIMITS = solver_contract().limits
MIN_SIZE, MAX_SIZE = LIMITS.min_side, LIMITS.max_side
COLOUR_NAMES = {0: "white", 1: "black"}

# The game's colour schemes, as the solver's --scheme names them: how many colours each cycles through.
SCHEMES = {"two": 2, "tri": 3}
TWO, TRI = SCHEMES
TRI_COLOUR_NAMES = {0: "cream", 1: "blue", 2: "red"}


class TriBoard(tuple[tuple[int, ...], ...]):
    """A three-colour board: rows of tiles 0 (cream, the game's 1), 1 (blue, its 2) and 2 (red, its 3)."""

    __slots__ = ()


def scheme_of(board: Board) -> str:
    return TRI if isinstance(board, TriBoard) else TWO


def colours(board: Board) -> int:
    """How many colours a tile of the board cycles through: 2, or 3 for a tri board."""
    return SCHEMES[scheme_of(board)]


def colour_names(board: Board) -> dict[int, str]:
    return TRI_COLOUR_NAMES if isinstance(board, TriBoard) else COLOUR_NAMES


def in_scheme(rows: Board, scheme: str) -> Board:
    """Rows of tiles as a board of the scheme."""
    return TriBoard(rows) if scheme == TRI else tuple(rows)


def like(board: Board, rows: Board) -> Board:
    """Rows made from a board, as a board of its scheme."""
    return in_scheme(rows, scheme_of(board))


class Move(NamedTuple):
    """A k×k square to flip: a (row, col, size) triple, as the protocol writes it."""

    row: int  # top-left corner, 0-based, as the protocol gives it
    col: int
    size: int

    def fits(self, height: int, width: int) -> bool:
        return (
            MIN_SIZE <= self.size
            and 0 <= self.row
            and 0 <= self.col
            and self.row + self.size <= height
            and self.col + self.size <= width
        )


def shape(board: Board) -> tuple[int, int]:
    """(height, width): rows, then tiles a row."""
    return len(board), len(board[0])


def shape_text(height: int, width: int, times: str = "×") -> str:
    """How a shape is written everywhere: rows first, '7×10' is 7 rows of 10 tiles."""
    return f"{height}{times}{width}"


def all_moves(height: int, width: int) -> list[Move]:
    return [
        Move(r, c, k)
        for k in range(MIN_SIZE, min(height, width) + 1)
        for r in range(height - k + 1)
        for c in range(width - k + 1)
    ]


def apply_move(board: Board, move: Move) -> Board:
    """The board after one press: each tile of the square one colour on (two colours: flipped; three: a step
    1 → 3 → 2 → 1 of the game's tiles, which is one step down in the front end's)."""
    rows = range(move.row, move.row + move.size)
    cols = range(move.col, move.col + move.size)
    modulus = colours(board)
    return like(
        board,
        tuple(
            tuple((tile - (r in rows and c in cols)) % modulus for c, tile in enumerate(line))
            for r, line in enumerate(board)
        ),
    )


def replay(board: Board, moves: tuple[Move, ...]) -> list[Board]:
    """Every board along the way: before the first move, ..., after the last."""
    boards = [board]
    for move in moves:
        boards.append(apply_move(boards[-1], move))
    return boards


# The symmetries of a square, besides the identity, as maps of a tile (row, col) of an H×W board; the last
# four turn an H×W board into a W×H one, so only a square has them.
TileMap = Callable[[int, int, int, int], tuple[int, int]]
TILE_MAPS: dict[str, TileMap] = {
    "mirror": lambda r, c, h, w: (r, w - 1 - c),
    "mirror-ud": lambda r, c, h, w: (h - 1 - r, c),
    "half-turn": lambda r, c, h, w: (h - 1 - r, w - 1 - c),
    "diagonal": lambda r, c, h, w: (c, r),
    "antidiagonal": lambda r, c, h, w: (w - 1 - c, h - 1 - r),
    "quarter-turn": lambda r, c, h, w: (c, h - 1 - r),
    "three-quarter-turn": lambda r, c, h, w: (w - 1 - c, r),
}
RECTANGLE_MAPS = ("mirror", "mirror-ud", "half-turn")

# Each subgroup of the square's symmetries (up to which mirror it uses), by its elements besides the
# identity: what generate --symmetric names.
SYMMETRY_GROUPS: dict[str, tuple[str, ...]] = {
    "mirror": ("mirror",),  # left-right
    "mirror-ud": ("mirror-ud",),  # up-down
    "half-turn": ("half-turn",),  # 180 degrees
    "mirrors": ("mirror", "mirror-ud", "half-turn"),  # both mirrors
    "diagonal": ("diagonal",),
    "antidiagonal": ("antidiagonal",),
    "diagonals": ("diagonal", "antidiagonal", "half-turn"),
    "quarter-turn": ("quarter-turn", "half-turn", "three-quarter-turn"),  # 90-degree turns
    "square": tuple(TILE_MAPS),  # all eight
}


# The groups a rectangle can have: of its mirrors and the half turn.
RECTANGLE_GROUPS = tuple(group for group, maps in SYMMETRY_GROUPS.items() if set(maps) <= set(RECTANGLE_MAPS))


def board_image(board: Board, tile_map: str) -> Board:
    """The board turned or mirrored: each tile moved where the map sends it."""
    height, width = shape(board)
    to = TILE_MAPS[tile_map]
    places = {to(r, c, height, width): tile for r, row in enumerate(board) for c, tile in enumerate(row)}
    rows, columns = (height, width) if tile_map in RECTANGLE_MAPS else (width, height)
    return like(board, tuple(tuple(places[r, c] for c in range(columns)) for r in range(rows)))


def move_image(move: Move, tile_map: str, height: int, width: int) -> Move:
    """Where a map sends a move: the square whose corners are the images of the move's corners."""
    to, last = TILE_MAPS[tile_map], move.size - 1
    corners = [to(move.row + dr, move.col + dc, height, width) for dr in (0, last) for dc in (0, last)]
    return Move(min(r for r, _ in corners), min(c for _, c in corners), move.size)


def moves_word(count: int) -> str:
    return f"{count} move" + ("" if count == 1 else "s")


def check_shape(height: int, width: int, where: str) -> None:
    if not (MIN_SIZE <= height <= MAX_SIZE and MIN_SIZE <= width <= MAX_SIZE):
        raise InputError(
            f"{where}: the board is {shape_text(height, width)}; "
            f"each side must be {MIN_SIZE} to {MAX_SIZE} tiles"
        )


# The solver's cap on a board's text (max_input_bytes): far above any 31×31 board, and a guard against
# endless input such as /dev/zero.
MAX_BOARD_CHARS = LIMITS.max_input_bytes

# The tiles as the front end prints them (render.py, Unicode and --ascii): a printed board pasted back in
# reads as itself. A tri board's are its own (cream, blue, red), read only as a tri board's.
PRINTED_TILES = {"·": 0, "■": 1, ".": 0, "#": 1}
PRINTED_TRI_TILES = {"·": 0, "○": 1, "●": 2, ".": 0, "b": 1, "r": 2}
# Only a printed board needs these: compiled on first use (re's cache of patterns), not by every start.
OUTLINE_RULE = r"[┌┐└┘─+-]+"  # above and below a flip square
OUTLINE_SIDE = r"[│|\s]"
ROW_NUMBER = r"\s*\d+(\s|$)"
SEPARATORS = re.compile(r"[\s,]+")
# The first line that says a text board is tri (or two-colour): its digits cannot say it, since a board of
# 1s and 2s is a two-colour board as much as a tri one.
SCHEME_LINE = re.compile(r"scheme\s+(\S+)", re.IGNORECASE)


# Unix, Windows and classic Mac OS line ends alike.
LINE_ENDS = re.compile(r"\r\n?|\n")


def parse_board_text(text: str, where: str, scheme: str | None = None) -> Board:
    """Read H lines of W digits, all 0/1 or all 1/2, as the line protocol does: trailing spaces, CRLF or
    lone CR line ends and trailing blank lines are fine; 1/2 maps to 0/1; a board of only 1s is read as
    0/1. People write boards other ways too: the tiles of a row may be separated by spaces or commas, and
    a board the front end printed (· and ■, or . and #; the numbers and the outline are skipped) reads as
    itself. A byte-order mark before it, as some editors save a file, is not part of it.

    A tri board says so: a first line `scheme tri`, or the scheme given (--scheme tri); its tiles are the
    game's 1 (cream), 2 (blue) and 3 (red), or the glyphs the front end prints them as. A first line
    `scheme two` says the default. A text and a scheme given that disagree are an error."""
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_BOARD_CHARS:
        raise InputError(
            f"{where} is larger than {MAX_BOARD_CHARS} characters; "
            f"a board is at most {MAX_SIZE} lines of {MAX_SIZE} digits"
        )
    lines = [line.rstrip() for line in LINE_ENDS.split(text)]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise InputError(f"{where}: the board is empty")
    first = 1
    stated = SCHEME_LINE.fullmatch(lines[0].strip())
    if stated:
        said = stated[1].lower()
        if said not in SCHEMES:
            raise InputError(f"{where} line 1: scheme {stated[1]!r} is not one of {', '.join(SCHEMES)}")
        if scheme is not None and scheme != said:
            raise InputError(f"{where} line 1 says scheme {said}, but the scheme asked for is {scheme}")
        scheme, lines, first = said, lines[1:], 2
        if not lines:
            raise InputError(f"{where}: the board is empty after its scheme line")
    tri = scheme == TRI
    glyphs = PRINTED_TRI_TILES if tri else PRINTED_TILES
    body = "\n".join(lines)
    printed = any(glyph in body for glyph in glyphs if not glyph.isdigit())
    numbered = printed_lines(lines, first) if printed else list(enumerate(lines, first))
    rows: list[str] = []
    for number, line in numbered:
        row = printed_row(line, number, where, glyphs) if printed else digit_row(line, number, where, tri)
        if not row:
            raise InputError(f"{where} line {number} is blank; board rows must be consecutive")
        if rows and len(row) != len(rows[0]):
            raise InputError(
                f"{where} line {number}: {len(row)} tiles, but line {numbered[0][0]} has {len(rows[0])}"
            )
        rows.append(row)
    check_shape(len(rows), len(rows[0]), where)
    if printed:
        return in_scheme(tuple(tuple(glyphs[ch] for ch in row) for row in rows), TRI if tri else TWO)
    if tri:
        return TriBoard(tuple(int(ch) - 1 for ch in row) for row in rows)
    digits = set("".join(rows))
    if {"0", "2"} <= digits:
        raise InputError(f"{where}: mixes 0 and 2; use 0/1 (0 = white) or 1/2 (1 = white) throughout")
    offset = 1 if "2" in digits else 0
    return tuple(tuple(int(ch) - offset for ch in row) for row in rows)


def digit_row(line: str, number: int, where: str, tri: bool = False) -> str:
    """A row's digits, written together ('0110') or each apart ('0 1 1 0', '0,1,1,0')."""
    tiles = [tile for tile in SEPARATORS.split(line) if tile]
    if len(tiles) > 1:
        wide = next((tile for tile in tiles if len(tile) > 1), None)
        if wide is not None:
            raise InputError(
                f"{where} line {number}: {wide!r} is more than one tile; "
                "separate every tile of a row, or none"
            )
    row = "".join(tiles)
    allowed, kinds = (
        ("123", "a tri board's tiles are 1 cream, 2 blue, 3 red") if tri else ("012", "use digits 0/1 or 1/2")
    )
    bad = next((ch for ch in row if ch not in allowed), None)
    if bad is not None:
        raise InputError(f"{where} line {number}: {bad!r} is not a tile ({kinds})")
    return row


def printed_lines(lines: list[str], first: int) -> list[tuple[int, str]]:
    """The numbered lines of a printed board that hold tiles (the first of them numbered first): not the
    column numbers on top, nor the rules above and below a flip square."""
    numbered = list(enumerate(lines, first))
    header = lines[0].split()
    if header and header == [str(column) for column in range(1, len(header) + 1)]:
        numbered = numbered[1:]
    return [(number, line) for number, line in numbered if not re.fullmatch(OUTLINE_RULE, line.strip())]


def printed_row(line: str, number: int, where: str, glyphs: dict[str, int]) -> str:
    """A printed row's tiles: the row number before them and the sides of an outline between them dropped."""
    label = re.match(ROW_NUMBER, line)
    row = re.sub(OUTLINE_SIDE, "", line[label.end() :] if label else line)
    bad = next((ch for ch in row if ch not in glyphs), None)
    if bad is not None:
        kinds = "·, ○ and ●, or ., b and r" if glyphs is PRINTED_TRI_TILES else "· and ■, or . and #"
        raise InputError(
            f"{where} line {number}: {bad!r} is not a tile (a printed board's tiles are {kinds})"
        )
    return row
