"""The solutions the walkthrough tests draw: made up for the tests, each showing something a walkthrough
must get right. Both test_walkthrough.py (golden files) and test_browser.py (screenshots) use them."""

from __future__ import annotations

from support import SPEC_BOARD

from unflip_frontend.boards import Board, Move, parse_board_text, replay
from unflip_frontend.books import Level
from unflip_frontend.protocol import Solution

SPEC_MOVES = (
    Move(1, 1, 2),
    Move(1, 1, 3),
    Move(0, 3, 2),
    Move(0, 0, 3),
    Move(0, 0, 5),
    Move(2, 2, 2),
    Move(2, 2, 3),
    Move(3, 0, 2),
)  # support.SPEC_OUTPUT's moves


def made_by(height: int, moves: tuple[Move, ...], width: int | None = None) -> Board:
    """The board these moves clear: they flipped an all-white one (square unless a width is given)."""
    return replay(tuple((0,) * (width or height) for _ in range(height)), moves)[-1]


def spec_board() -> tuple[Level, Solution]:
    """The specification's example: squares overlapping, and one covering the whole board."""
    level = Level("board.txt", None, parse_board_text(SPEC_BOARD, "board.txt"), None, "")
    return level, Solution(0, SPEC_MOVES, 65, 0.002)


def twelve() -> tuple[Level, Solution]:
    """Two-digit row and column numbers, a par the optimum differs from, and a title to escape."""
    moves = (Move(9, 9, 3), Move(0, 0, 12))
    return Level("weekly level 3", 3, made_by(12, moves), 3, "Corners & <edges>"), Solution(0, moves, 9, 0.1)


def fifteen() -> tuple[Level, Solution]:
    """The largest board, so the smallest tiles, with squares at the far edges."""
    moves = (Move(13, 13, 2), Move(0, 5, 7), Move(2, 0, 13))
    return Level("fifteen.txt", None, made_by(15, moves), None, ""), Solution(0, moves, 30, 0.01)


def already_solved() -> tuple[Level, Solution]:
    return Level("white.txt", None, made_by(3, ()), None, ""), Solution(0, (), 0, 0.0)


def strip() -> tuple[Level, Solution]:
    """A rectangle wider than tall, 3×12: two-digit column numbers, squares up to its height."""
    moves = (Move(0, 9, 3), Move(1, 0, 2), Move(0, 4, 3))
    return Level("strip.txt", None, made_by(3, moves, 12), None, ""), Solution(0, moves, 4, 0.001)


def tower() -> tuple[Level, Solution]:
    """A rectangle taller than wide, 15×2: drawn at a square board's scale, not stretched to the width."""
    moves = (Move(13, 0, 2), Move(6, 0, 2))
    return Level("tower.txt", None, made_by(15, moves, 2), None, ""), Solution(0, moves, 3, 0.001)


def thirty_one() -> tuple[Level, Solution]:
    """The largest board, its tiles at the least pitch: squares at the far corner and across the middle."""
    moves = (Move(29, 29, 2), Move(2, 0, 27))
    return Level("wide.txt", None, made_by(31, moves), None, ""), Solution(0, moves, 5, 0.01)


CASES = {
    "spec_board": spec_board,
    "twelve": twelve,
    "fifteen": fifteen,
    "already_solved": already_solved,
    "strip": strip,
    "tower": tower,
}
# Drawn by the browser's tests, not kept as a golden file: a 31×31 picture is some 200 KB of tiles.
WIDE_CASES = {"thirty_one": thirty_one}


def tri_case() -> tuple[Level, Solution]:
    """A three-colour board whose first square is pressed twice: two steps of the same square."""
    moves = (Move(0, 0, 2), Move(0, 0, 2), Move(0, 0, 3), Move(1, 1, 2))
    board = parse_board_text("scheme tri\n112\n123\n233\n", "tri.txt")
    return Level("tri.txt", None, board, None, ""), Solution(0, moves, 5, 0.006)
