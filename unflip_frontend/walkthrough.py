"""Walkthroughs to share: one SVG picture of every step, and one self-contained HTML page that steps
through them (buttons, arrow keys, a phone's width). Both show the same cards, drawn by the same code:
the start board, each step's board with the square to flip outlined and its tiles highlighted, and the
solved board. Nothing here prints or writes; the command layer puts the text in a file.

The colours are part of the contract with tests/frontend/test_browser.py, which reads screenshots: the
board's frame and the outline are colours nothing else on the page uses, tiles are light or dark whatever
their highlight."""

from __future__ import annotations

import html
from dataclasses import dataclass

from .boards import TRI, Board, Move, colour_names, moves_word, scheme_of, shape
from .books import Level
from .protocol import Solution
from .render import UNICODE, describe_level, describe_move, par_note, presses_again, square_span

FRAME = "#364fc7"  # the board's edge and the gaps between tiles
WHITE, BLACK = "#ffffff", "#212529"
WHITE_LIT, BLACK_LIT = "#ffd43b", "#5c4400"  # tiles inside the square to flip
OUTLINE = "#f76707"
# A tri board's tiles in the game's colours (cream, blue, red), and lit inside the square to press.
TRI_TILES = ("#f9fac8", "#0431d4", "#ff0040")
TRI_LIT = ("#ffd43b", "#4c6ef5", "#ff8fa3")
TEXT, MUTED = "#212529", "#495057"

BOARD_SPAN = 216  # a board's longer side in SVG units up to 21 tiles, less what whole tiles leave over
GAP = 2
# The least distance from a tile to the next: past 21 tiles a board grows instead of its tiles shrinking, so
# a tile stays four times the gap and a column number of two digits fits over its tile.
MIN_PITCH = 10
NUMBERED_PITCH = 12  # the least pitch a column number of two digits fits over
LABEL = 18  # room for the row numbers left of the board and the column numbers above it
PAD = 12
HEADING = 44  # a card's two lines of text above the board
STROKE = 4


@dataclass(frozen=True)
class Card:
    heading: str
    detail: str
    board: Board
    move: Move | None  # outlined and highlighted when set
    again: bool = False  # the move is its square's second press in a row (tri)


def cards(solution: Solution, boards: list[Board]) -> list[Card]:
    """Start, one card per move (the board before it, the square marked), and the solved board. A tri square
    pressed twice is two cards, the second saying so."""
    total = len(solution.moves)
    names = colour_names(boards[0])
    unsolved = sum(bool(tile) for row in boards[0] for tile in row)
    colour = names[solution.target]
    height, width = shape(boards[0])
    which = "not cream" if scheme_of(boards[0]) == TRI else "black"
    start = Card("Start", f"{unsolved} of {height * width} tiles {which}", boards[0], None)
    again = presses_again(solution.moves)
    steps = [
        Card(
            f"Step {step} of {total}",
            f"{move.size}×{move.size}: {square_span(move, UNICODE)}{' again' * again[step - 1]}",
            board,
            move,
            again[step - 1],
        )
        for step, (move, board) in enumerate(zip(solution.moves, boards, strict=False), 1)
    ]
    end = Card("Solved", f"every tile {colour} after {moves_word(total)}", boards[-1], None)
    return [start, *steps, end]


def summary(level: Level, solution: Solution) -> tuple[str, str]:
    """The two title lines: the level as the terminal names it, and what was proven."""
    total = len(solution.moves)
    proven = f"{moves_word(total)}, proven optimal and verified by replay{par_note(level, total)}"
    return describe_level(level, UNICODE).plain, proven


def pitch(board: Board) -> int:
    """Tiles are square, and the board's longer side spans BOARD_SPAN (no less than MIN_PITCH a tile): a 15×2
    strip is drawn at the scale of a 15×15 board."""
    return max(BOARD_SPAN // max(shape(board)), MIN_PITCH)


def board_extent(board: Board) -> tuple[int, int]:
    """The drawn board's width and height, frame included."""
    height, width = shape(board)
    step = pitch(board)
    return width * step + GAP, height * step + GAP


def longer_extent(board: Board) -> int:
    """The drawn board's longer side: what a square board of that side would span."""
    return max(board_extent(board))


def board_svg(board: Board, move: Move | None) -> str:
    """The board's frame, tiles and outline, with its top-left corner at (0, 0)."""
    step = pitch(board)
    side = step - GAP
    across, down = board_extent(board)
    parts = [f'<rect class="frame" width="{across}" height="{down}" fill="{FRAME}"/>']
    tri = scheme_of(board) == TRI
    for r, row in enumerate(board):
        for c, tile in enumerate(row):
            inside = (
                move is not None
                and move.row <= r < move.row + move.size
                and move.col <= c < move.col + move.size
            )
            if tri:
                colour = (TRI_LIT if inside else TRI_TILES)[tile]
            else:
                colour = (BLACK_LIT if tile else WHITE_LIT) if inside else (BLACK if tile else WHITE)
            x, y = GAP + c * step, GAP + r * step
            parts.append(f'<rect x="{x}" y="{y}" width="{side}" height="{side}" fill="{colour}"/>')
    if move is not None:
        # Centred on the gaps around the square, so it covers no tile's middle.
        corner, span = GAP / 2, move.size * step
        parts.append(
            f'<rect class="outline" x="{corner + move.col * step:g}" y="{corner + move.row * step:g}" '
            f'width="{span}" height="{span}" fill="none" stroke="{OUTLINE}" stroke-width="{STROKE}"/>'
        )
    return "".join(parts)


def labelled_board_svg(board: Board, move: Move | None) -> str:
    """The board with 1-based column numbers above it and row numbers on its left, at (0, 0)."""
    height, width = shape(board)
    step = pitch(board)
    size = min(11, step - 2)
    centre = GAP + (step - GAP) / 2
    # Two digits a column are wider than a tile below 12 units (boards past 18 tiles): every other column
    # is numbered there, from the first.
    numbered = range(0, width, 1 if step >= NUMBERED_PITCH else 2)
    numbers = [
        f'<text x="{LABEL + centre + c * step:g}" y="{LABEL - 5}" text-anchor="middle">{c + 1}</text>'
        for c in numbered
    ] + [
        f'<text x="{LABEL - 4}" y="{LABEL + centre + r * step + size * 0.35:g}" '
        f'text-anchor="end">{r + 1}</text>'
        for r in range(height)
    ]
    return (
        f'<g font-size="{size}" fill="{MUTED}">{"".join(numbers)}</g>'
        f'<g class="board" data-height="{height}" data-width="{width}" '
        f'transform="translate({LABEL} {LABEL})">'
        f"{board_svg(board, move)}</g>"
    )


def card_size(board: Board) -> tuple[int, int]:
    """A card is as wide as a square board of the longer side would make it, so its two lines of text fit
    above a narrow board too, and as tall as the board."""
    return PAD + LABEL + longer_extent(board) + PAD, PAD + HEADING + LABEL + board_extent(board)[1] + PAD


def card_svg(index: int, card: Card, x: int, y: int) -> str:
    width, height = card_size(card.board)
    return (
        f'<g class="card" id="card-{index}" transform="translate({x} {y})">'
        f'<rect width="{width}" height="{height}" rx="8" fill="#ffffff" stroke="#ced4da"/>'
        f'<text x="{PAD}" y="{PAD + 15}" font-size="15" font-weight="bold" fill="{TEXT}">'
        f"{html.escape(card.heading)}</text>"
        f'<text x="{PAD}" y="{PAD + 34}" font-size="12" fill="{MUTED}">{html.escape(card.detail)}</text>'
        f'<g transform="translate({PAD} {PAD + HEADING})">{labelled_board_svg(card.board, card.move)}</g>'
        "</g>"
    )


COLUMNS = 4
GUTTER = 12
TITLE = 56
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


def walkthrough_svg(level: Level, solution: Solution, boards: list[Board]) -> str:
    """Every card in rows of four under a title: one picture of the whole solution."""
    shown = cards(solution, boards)
    width, height = card_size(level.board)
    columns = min(COLUMNS, len(shown))
    rows = -(-len(shown) // columns)
    total_width = GUTTER + columns * (width + GUTTER)
    total_height = TITLE + rows * (height + GUTTER)
    name, proven = summary(level, solution)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_width}" height="{total_height}" '
        f'viewBox="0 0 {total_width} {total_height}" font-family="{FONT}">',
        f"<title>{html.escape(name)}: {html.escape(proven)}</title>",
        f'<rect width="{total_width}" height="{total_height}" fill="#f1f3f5"/>',
        f'<text x="{GUTTER}" y="26" font-size="18" font-weight="bold" fill="{TEXT}">'
        f"{html.escape(name)}</text>",
        f'<text x="{GUTTER}" y="46" font-size="13" fill="{MUTED}">{html.escape(proven)}</text>',
    ]
    for index, card in enumerate(shown):
        row, column = divmod(index, columns)
        parts.append(
            card_svg(index, card, GUTTER + column * (width + GUTTER), TITLE + row * (height + GUTTER))
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


PAGE_STYLE = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0 auto; padding: 12px 16px 24px; max-width: 34rem; background: #f1f3f5; color: #212529;
  font: 16px/1.4 DejaVu Sans, Verdana, Arial, sans-serif; }
h1 { font-size: 1.2rem; margin: 0.2rem 0; }
header p { margin: 0 0 0.8rem; color: #495057; }
.card { background: #ffffff; border: 1px solid #ced4da; border-radius: 8px; padding: 12px; margin: 0 0 12px; }
.card h2 { font-size: 1.1rem; margin: 0; }
.card p { margin: 0.2rem 0 0.6rem; color: #495057; }
.card svg { display: block; width: 100%; height: auto; }
nav { display: none; gap: 8px; align-items: center; justify-content: space-between; margin: 0 0 12px; }
nav button { font: inherit; min-height: 48px; min-width: 7.5rem; border: 1px solid #adb5bd;
  border-radius: 8px; background: #ffffff; color: #212529; }
nav button:disabled { color: #adb5bd; }
.stepping nav { display: flex; }
.stepping .card { display: none; }
.stepping .card.current { display: block; }
"""

# Without JavaScript every card shows, one under another; with it, one at a time.
PAGE_SCRIPT = """
(function () {
  var cards = document.querySelectorAll('.card');
  var previous = document.getElementById('previous'), next = document.getElementById('next');
  var where = document.getElementById('where');
  var current = 0;
  function show(index) {
    current = Math.max(0, Math.min(cards.length - 1, index));
    for (var i = 0; i < cards.length; i++) cards[i].classList.toggle('current', i === current);
    previous.disabled = current === 0;
    next.disabled = current === cards.length - 1;
    where.textContent = (current + 1) + ' / ' + cards.length;
    // A link to the step; some browsers refuse this for a page opened from a file, which is no matter.
    try { history.replaceState(null, '', '#' + cards[current].id); } catch (ignored) {}
  }
  previous.addEventListener('click', function () { show(current - 1); });
  next.addEventListener('click', function () { show(current + 1); });
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var moves = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
    if (event.key in moves) { show(current + moves[event.key]); event.preventDefault(); }
    else if (event.key === 'Home') { show(0); event.preventDefault(); }
    else if (event.key === 'End') { show(cards.length - 1); event.preventDefault(); }
  });
  document.body.classList.add('stepping');
  var start = document.getElementById(location.hash.slice(1));
  show(start ? Array.prototype.indexOf.call(cards, start) : 0);
})();
"""


def walkthrough_html(level: Level, solution: Solution, boards: list[Board]) -> str:
    """One page, no external assets: the cards as inline SVG, stepped through by buttons or arrow keys."""
    name, proven = summary(level, solution)
    sections = []
    for index, card in enumerate(cards(solution, boards)):
        scheme = scheme_of(card.board)
        detail = card.detail if card.move is None else describe_move(card.move, UNICODE, scheme, card.again)
        # Room for an outline on the far edges.
        across, down = (LABEL + extent + STROKE // 2 for extent in board_extent(card.board))
        # A board taller than wide is drawn at the scale of a square one of its height, not stretched to the
        # page's width and so made taller than the screen.
        longest = LABEL + longer_extent(card.board) + STROKE // 2
        narrower = f' style="width: {100 * across / longest:.1f}%"' if across < longest else ""
        sections.append(
            f'<section class="card" id="card-{index}"><h2>{html.escape(card.heading)}</h2>'
            f"<p>{html.escape(detail[0].upper() + detail[1:])}</p>"
            f'<svg viewBox="0 0 {across} {down}"{narrower} font-family="{FONT}" role="img" '
            f'aria-label="{html.escape(card.heading)}">'
            f"{labelled_board_svg(card.board, card.move)}</svg></section>"
        )
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(name)}</title>\n<style>{PAGE_STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{html.escape(name)}</h1><p>{html.escape(proven)}</p></header>\n"
        '<nav><button id="previous" type="button">&#9664; Previous</button>'
        '<span id="where" aria-live="polite"></span>'
        '<button id="next" type="button">Next &#9654;</button></nav>\n'
        + "\n".join(sections)
        + f"\n<script>{PAGE_SCRIPT}</script>\n</body>\n</html>\n"
    )
