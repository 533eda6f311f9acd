"""Boards and moves. A board is a tuple of rows of 0/1 in the solver's terms: 0 is the game's white."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError

Board = tuple[tuple[int, ...], ...]

MIN_SIZE, MAX_SIZE = 2, 15
COLOUR_NAMES = {0: "white", 1: "black"}


@dataclass(frozen=True)
class Move:
    row: int  # top-left corner, 0-based, as the protocol gives it
    col: int
    size: int

    def fits(self, n: int) -> bool:
        return (
            MIN_SIZE <= self.size
            and 0 <= self.row
            and 0 <= self.col
            and max(self.row, self.col) + self.size <= n
        )


def all_moves(n: int) -> list[Move]:
    return [Move(r, c, k) for k in range(MIN_SIZE, n + 1) for r in range(n - k + 1) for c in range(n - k + 1)]


def apply_move(board: Board, move: Move) -> Board:
    rows = range(move.row, move.row + move.size)
    cols = range(move.col, move.col + move.size)
    return tuple(
        tuple(tile ^ (r in rows and c in cols) for c, tile in enumerate(line)) for r, line in enumerate(board)
    )


def replay(board: Board, moves: tuple[Move, ...]) -> list[Board]:
    """Every board along the way: before the first move, ..., after the last."""
    boards = [board]
    for move in moves:
        boards.append(apply_move(boards[-1], move))
    return boards


def moves_word(count: int) -> str:
    return f"{count} move" + ("" if count == 1 else "s")


def check_size(n: int, where: str) -> None:
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise InputError(f"{where}: the board is {n}×{n}; sizes {MIN_SIZE} to {MAX_SIZE} are supported")


def parse_board_text(text: str, where: str) -> Board:
    """Read N lines of N digits, all 0/1 or all 1/2, as README.md's protocol does: trailing spaces,
    CRLF and trailing blank lines are fine; 1/2 maps to 0/1; a board of only 1s is read as 0/1."""
    lines = [line.rstrip(" \t\r") for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise InputError(f"{where}: the board is empty")
    width = len(lines[0])
    for number, line in enumerate(lines, 1):
        if not line:
            raise InputError(f"{where} line {number} is blank; board rows must be consecutive")
        bad = next((ch for ch in line if ch not in "012"), None)
        if bad is not None:
            raise InputError(f"{where} line {number}: {bad!r} is not a tile (use digits 0/1 or 1/2)")
        if len(line) != width:
            raise InputError(f"{where} line {number}: {len(line)} tiles, but line 1 has {width}")
    if len(lines) != width:
        raise InputError(f"{where}: the board is {width} tiles wide and {len(lines)} high; it must be square")
    check_size(width, where)
    digits = set("".join(lines))
    if {"0", "2"} <= digits:
        raise InputError(f"{where}: mixes 0 and 2; use 0/1 (0 = white) or 1/2 (1 = white) throughout")
    offset = 1 if "2" in digits else 0
    return tuple(tuple(int(ch) - offset for ch in line) for line in lines)
