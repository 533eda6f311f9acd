"""Rendering: step cards in the specification's layout, boards and level tables, Unicode or ASCII, as rich
text. Nothing here prints; the command layer decides where each piece goes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich import box
from rich.text import Text

from .boards import TRI, TWO, Board, Move, colour_names, moves_word, scheme_of, shape, shape_text
from .books import Level
from .protocol import Solution

HIGHLIGHT = "bold yellow"


@dataclass(frozen=True)
class Glyphs:
    white: str
    black: str
    corners: str  # top-left, top-right, bottom-left, bottom-right
    horizontal: str
    vertical: str
    times: str
    dash: str  # between "Step 1 of 3" and the move
    through: str  # in ranges: rows 2–3
    check: str  # before a success line, space included
    spinner: str  # rich spinner name
    table_box: box.Box
    arrows: tuple[str, str]  # left, right
    tri: str  # a tri board's tiles: cream, blue, red (boards.PRINTED_TRI_TILES reads them back)


UNICODE = Glyphs("·", "■", "┌┐└┘", "─", "│", "×", "—", "–", "✓ ", "dots", box.SIMPLE_HEAD, ("←", "→"), "·○●")
ASCII = Glyphs(".", "#", "++++", "-", "|", "x", "-", "-", "", "line", box.ASCII, ("<-", "->"), ".br")
# The game's own colours of a tri board's tiles (its ColorScheme): cream, blue, red.
TRI_STYLES = ("#F9FAC8", "#0431D4", "#FF0040")


def glyphs_for(encoding: str, ascii_: bool = False) -> Glyphs:
    """ASCII when asked for, or when the output's encoding cannot carry the Unicode glyphs (rather than a
    crash)."""
    unicode_ok = not ascii_ and encoding.lower().replace("-", "").startswith("utf")
    return UNICODE if unicode_ok else ASCII


LABEL_WIDTH = 5  # a row number right-aligned in 3 columns, then 2 spaces before the first tile


def tile_x(col: int, width: int) -> int:
    """Screen column of a tile. Boards 10 and more tiles wide get 3 columns per tile so two-digit column
    numbers line up above their tiles; the outline then sits in the gap, one space from each neighbour."""
    return LABEL_WIDTH + (2 if width < 10 else 3) * col


def render_board(board: Board, glyphs: Glyphs, square: Move | None = None) -> Text:
    """The board with column numbers on top and row numbers on the left, all 1-based; the square (if any)
    outlined by lines between the tiles: above its top row, below its bottom row, and on both sides."""
    columns = len(board[0])
    width = tile_x(columns - 1, columns) + 2
    header = [" "] * width
    for c in range(columns):
        end = tile_x(c, columns) + 1
        header[end - len(str(c + 1)) : end] = str(c + 1)
    lines = [Text("".join(header), style="dim")]
    top = bottom = left = right = -1
    if square:
        top, bottom = square.row, square.row + square.size - 1
        left = tile_x(square.col, columns) - 1
        right = tile_x(square.col + square.size - 1, columns) + 1

    tri = scheme_of(board) == TRI

    def tile_glyph(tile: int) -> str:
        return glyphs.tri[tile] if tri else glyphs.black if tile else glyphs.white

    def outlined(label: str, chars: str) -> Text:
        return Text.assemble(
            (label, "dim"), chars[len(label) : left], (chars[left : right + 1], HIGHLIGHT), chars[right + 1 :]
        )

    def rule(ends: str) -> Text:
        return outlined("", " " * left + ends[0] + glyphs.horizontal * (right - left - 1) + ends[1])

    for r, row in enumerate(board):
        if r == top:
            lines.append(rule(glyphs.corners[:2]))
        label = f"{r + 1:>3}"
        cells = list(label.ljust(width))
        for c, tile in enumerate(row):
            cells[tile_x(c, columns)] = tile_glyph(tile)
        if top <= r <= bottom:
            cells[left] = cells[right] = glyphs.vertical
            lines.append(outlined(label, "".join(cells)))
        else:
            lines.append(Text.assemble((label, "dim"), "".join(cells[len(label) :])))
        if tri:  # each tile in the game's colour
            for c, tile in enumerate(row):
                lines[-1].stylize(TRI_STYLES[tile], tile_x(c, columns), tile_x(c, columns) + 1)
        if r == bottom:
            lines.append(rule(glyphs.corners[2:]))
    for line in lines:
        line.rstrip()
    return Text("\n").join(lines)


def square_span(move: Move, glyphs: Glyphs) -> str:
    """The rows and columns a move covers, 1-based and inclusive: 'rows 2–3, cols 2–3'."""
    k, to = move.size, glyphs.through
    return f"rows {move.row + 1}{to}{move.row + k}, cols {move.col + 1}{to}{move.col + k}"


def describe_move(move: Move, glyphs: Glyphs, scheme: str = TWO, again: bool = False) -> str:
    """A move in words; a tri press says which way its tiles turn, and a square's second press says so."""
    k = move.size
    if scheme == TWO:
        return f"flip the {k}{glyphs.times}{k} square covering {square_span(move, glyphs)}"
    to = f" {glyphs.arrows[1]} "
    turn = to.join(TRI_TURN)
    return (
        f"press the {k}{glyphs.times}{k} square covering {square_span(move, glyphs)}{' again' * again} "
        f"(its tiles turn {turn})"
    )


# Which way a press turns a tri tile, in the game's colours: its 1 → 3 → 2 → 1.
TRI_TURN = ("cream", "red", "blue", "cream")


def step_card(step: int, total: int, move: Move, board: Board, glyphs: Glyphs, again: bool = False) -> Text:
    """The heading and the board before the move, with the move's square outlined."""
    words = describe_move(move, glyphs, scheme_of(board), again)
    heading = Text(f"Step {step} of {total} {glyphs.dash} {words}:", style="bold")
    return Text("\n").join([heading, render_board(board, glyphs, move)])


def presses_again(moves: tuple[Move, ...]) -> list[bool]:
    """Which moves are a square's second press in a row: a tri square pressed twice is two steps."""
    return [index > 0 and moves[index - 1] == move for index, move in enumerate(moves)]


def board_size(board: Board, glyphs: Glyphs) -> str:
    return shape_text(*shape(board), glyphs.times)


def describe_level(level: Level, glyphs: Glyphs) -> Text:
    parts = [level.name, board_size(level.board, glyphs)]
    if level.number is not None or level.link is not None:  # a link's par is the game's, as a book's
        parts.append("no par" if level.par is None else f"par {level.par}")
    if level.title:
        parts.append(level.title)
    return Text(f" {glyphs.dash} ".join(parts), style="bold cyan")


def par_note(level: Level, total: int) -> str:
    """A word on the book's par when the proven optimum differs from it."""
    return "" if level.par is None or level.par == total else f" (the book's par is {level.par})"


def solution_summary(level: Level, solution: Solution, glyphs: Glyphs) -> Text:
    total = len(solution.moves)
    return Text(
        f"Optimal: {moves_word(total)}{par_note(level, total)} {glyphs.dash} "
        f"{solution.nodes:,} nodes, {solution.seconds:.3f} s",
        style="bold",
    )


def board_cards(solution: Solution, boards: list[Board], glyphs: Glyphs) -> list[Text]:
    """A card per move, then the solved board."""
    total = len(solution.moves)
    again = presses_again(solution.moves)
    cards = [
        step_card(step, total, move, board, glyphs, again[step - 1])
        for step, (move, board) in enumerate(zip(solution.moves, boards, strict=False), 1)
    ]
    heading = "Solved:" if total else f"Already solved, nothing to {verb(boards[0])}:"
    return [*cards, Text("\n").join([Text(heading, style="bold"), render_board(boards[-1], glyphs)])]


def verb(board: Board) -> str:
    """What a move does, as the cards say it: flip a two-colour square, press a tri one."""
    return "press" if scheme_of(board) == TRI else "flip"


def verified_line(solution: Solution, glyphs: Glyphs, board: Board) -> Text:
    colour = colour_names(board)[solution.target]
    count = len(solution.moves)
    if count == 0:
        return Text(f"{glyphs.check}Verified: every tile of the board is {colour} already.", style="green")
    replayed = "the 1 move" if count == 1 else f"all {moves_word(count)}"
    return Text(
        f"{glyphs.check}Verified: replaying {replayed} on the original board leaves every tile {colour}.",
        style="green",
    )


def solution_report(
    level: Level, solution: Solution, boards: list[Board], glyphs: Glyphs, compact: bool
) -> list[Text]:
    """What a solved level shows, line group by line group: the summary, a card per move (or the numbered
    move list when compact), the solved board, and the verification."""
    parts = [solution_summary(level, solution, glyphs)]
    if compact:
        again, scheme = presses_again(solution.moves), scheme_of(boards[0])
        parts += [
            Text(f"{step:>4}. {describe_move(move, glyphs, scheme, again[step - 1])}")
            for step, move in enumerate(solution.moves, 1)
        ]
    else:
        for card in board_cards(solution, boards, glyphs):
            parts += [Text(), card]
        parts.append(Text())
    return [*parts, verified_line(solution, glyphs, boards[0])]


class RowTable:
    """A table of levels printed a row at a time, so each row can show as soon as its level is done: its
    columns are sized up front from the levels it will hold. Level number, board size and par come first,
    the title last, the given columns between; the look is rich's own table in the glyphs' box."""

    def __init__(self, title: str, levels: Sequence[Level], glyphs: Glyphs, *middle: tuple[str, int]) -> None:
        self.title, self.glyphs = title, glyphs
        cells = [level_cells(level, glyphs) for level in levels]
        fixed = [
            (heading, max([len(heading), *(len(row[i]) for row in cells)])) for i, heading in enumerate(LEFT)
        ]
        last = max([len("title"), *(len(level.title) for level in levels)])
        self.widths = [width for _, width in (*fixed, *middle)] + [last]
        self.headings = [heading for heading, _ in (*fixed, *middle)] + ["title"]

    def line(self, cells: Sequence[str | Text], ends: tuple[str, str, str]) -> Text:
        left, between, right = ends
        parts: list[Text] = []
        for index, (cell, width) in enumerate(zip(cells, self.widths, strict=True)):
            text = cell.copy() if isinstance(cell, Text) else Text(cell)
            # Numbers right-aligned, the title (last) left-aligned, as rich aligns them.
            text.align("left" if index == len(cells) - 1 else "right", width)
            parts.append(Text.assemble(" ", text, " "))
        line = Text.assemble(left, Text(between).join(parts), right)
        line.rstrip()
        return line

    def head(self) -> Text:
        box_ = self.glyphs.table_box
        padded = [width + 2 for width in self.widths]
        headings = [Text(heading, style="bold") for heading in self.headings]
        return Text("\n").join(
            [
                Text(self.title.center(sum(padded) + len(padded) + 1).rstrip(), style="italic"),
                Text(box_.get_top(padded).rstrip()),
                self.line(headings, (box_.head_left, box_.head_vertical, box_.head_right)),
                Text(box_.get_row(padded, "head").rstrip()),
            ]
        )

    def row(self, cells: Sequence[str | Text]) -> Text:
        box_ = self.glyphs.table_box
        return self.line(cells, (box_.mid_left, box_.mid_vertical, box_.mid_right))

    def foot(self) -> Text:
        return Text(self.glyphs.table_box.get_bottom([width + 2 for width in self.widths]).rstrip())


LEFT = ("level", "board", "par")


def level_cells(level: Level, glyphs: Glyphs) -> tuple[str, str, str]:
    size = "malformed" if level.problem is not None else board_size(level.board, glyphs)
    return str(level.number), size, "-" if level.par is None else str(level.par)
