"""How hard a level feels: the game's own difficulty signals, taken over every optimal solution
(docs/designer.md defines each figure).

The game's editor (Paul-Andre/unsquare, web/src/modules/core/algo.ts) measures a solution two ways:
- the Eric number: the tiles cut into classes by which chosen squares cover them (a tile's signature), and
  the classes counted, the empty signature always among them; about how many regions the squares make;
- the obvious score: for every move of the level, chosen or not, the share o of the unit edges around its
  square where the tile inside differs from the tile outside (outside the board is white), and the mean of
  (o - x)² over the moves, x 1 for a chosen move and 0 for the others: low when the chosen squares sit on
  the board's colour edges and the others do not.
The editor shows the least of each over the solutions a level stores; here they are taken over every optimal
solution, with the greatest too, and the solution that attains each. The game's level generator
(level_generator/filters/quality.py) scores a board's compactness, symmetry and density; those three come
from the tiles alone.

Every figure is computed exactly (the obvious score as a fraction, only the result a float), so it is the
same on every run and at every thread count; a solution that attains a least or greatest figure is the
first of those that do, its moves sorted, in the order of sorted move tuples.

FIGURES are those a designer ranks levels by, each one of a level's signals: `report` draws each as a
curve, `generate --order-by` orders a book by one. Nothing here runs the solver.

A level breaks the curve of a figure when it is harder, by that figure, than the levels that follow it: its
value exceeds the median of the values of the next BREAK_AHEAD levels (of those that have one) by more than
BREAK_SHARE of the figure's range over the whole book (its largest value less its smallest). A book that
rises in difficulty has no break; a hard level dropped among easy ones is one. The last level has nothing
after it and never breaks."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

from .boards import RECTANGLE_MAPS, SYMMETRY_GROUPS, TILE_MAPS, Board, Move, board_image, shape, shape_text
from .errors import InputError
from .game_vectors import game_moves
from .option_values import FIGURE_NAMES

HALF = Fraction(1, 2)


def half_up(value: Fraction) -> int:
    """Rounded to the nearest whole number, a half upwards, as the game's Math.round rounds (Python's
    round() would take a half to the even neighbour)."""
    return math.floor(value + HALF)


def chosen_moves(height: int, width: int, moves: Iterable[Move]) -> tuple[Move, ...]:
    """A solution's moves as the set the game's 0/1 vector stands for, sorted; a move that does not fit
    the board is bad input."""
    chosen = sorted(set(map(Move._make, moves)))
    for move in chosen:
        if not move.fits(height, width):
            raise InputError(f"move {tuple(move)} does not fit a {shape_text(height, width)} board")
    return tuple(chosen)


def eric_number(height: int, width: int, moves: Iterable[Move]) -> int:
    """How many distinct signatures the tiles have, a tile's signature being the set of chosen squares that
    cover it; the empty signature counts once whether or not a tile has it, as the game counts it.

    >>> eric_number(3, 3, [Move(0, 0, 2)])
    2
    >>> eric_number(2, 2, [Move(0, 0, 2)])  # every tile covered, and the empty signature still counted
    2
    """
    chosen = chosen_moves(height, width, moves)
    # A tile is covered by the squares that span both its row and its column: its signature, as bits, is
    # the AND of the two spans.
    rows = [sum(1 << i for i, m in enumerate(chosen) if m.row <= r < m.row + m.size) for r in range(height)]
    cols = [sum(1 << i for i, m in enumerate(chosen) if m.col <= c < m.col + m.size) for c in range(width)]
    return len({0} | {row & col for row in rows for col in cols})


@functools.lru_cache(maxsize=64)
def edge_shares(board: Board) -> dict[Move, Fraction]:
    """For every move of the board's shape, the share of the unit edges around its square (4k of them) where
    the tile just inside differs from the tile just outside, a tile off the board counting as white."""
    height, width = shape(board)

    def tile(r: int, c: int) -> int:
        return board[r][c] if 0 <= r < height and 0 <= c < width else 0

    shares = {}
    for move in game_moves(height, width):
        top, left, last = move.row, move.col, move.size - 1
        differing = 0
        for i in range(move.size):
            differing += tile(top, left + i) != tile(top - 1, left + i)
            differing += tile(top + last, left + i) != tile(top + last + 1, left + i)
            differing += tile(top + i, left) != tile(top + i, left - 1)
            differing += tile(top + i, left + last) != tile(top + i, left + last + 1)
        shares[move] = Fraction(differing, 4 * move.size)
    return shares


@functools.lru_cache(maxsize=64)
def unchosen_total(board: Board) -> Fraction:
    """The sum of o² over every move: the obvious score's numerator with no move chosen."""
    return sum((share * share for share in edge_shares(board).values()), Fraction(0))


def exact_obvious(board: Board, moves: Iterable[Move]) -> Fraction:
    """The game's obvious score of a solution on the level's starting tiles (0 white, 1 black), as a
    fraction: from 0, every chosen square and no other exactly on colour edges, up to 1. It is the mean over
    every move of (o - x)², which is the sum of o² over every move and of 1 - 2o over the chosen ones, over
    the number of moves.

    >>> exact_obvious(((1, 1), (1, 1)), [Move(0, 0, 2)]), exact_obvious(((1, 1), (1, 1)), [])
    (Fraction(0, 1), Fraction(1, 1))
    """
    shares = edge_shares(board)
    chosen = chosen_moves(*shape(board), moves)
    total = unchosen_total(board) + sum((1 - 2 * shares[move] for move in chosen), Fraction(0))
    return total / len(shares)


# --- the game generator's figures of a board ------------------------------------------------------------


def shape_keeping_maps(board: Board) -> tuple[str, ...]:
    """The turns and mirrors (besides the identity) that map the board's shape onto itself: all seven of a
    square, the mirrors and the half turn of a rectangle."""
    height, width = shape(board)
    return tuple(TILE_MAPS) if height == width else RECTANGLE_MAPS


def symmetry_group(board: Board) -> str:
    """The name of the board's symmetry group: the maps (SYMMETRY_GROUPS) that leave it as it is, or
    "none"."""
    kept = {name for name in shape_keeping_maps(board) if board_image(board, name) == board}
    if not kept:
        return "none"
    return next(group for group, maps in SYMMETRY_GROUPS.items() if set(maps) == kept)


@dataclass(frozen=True)
class BoardFigures:
    """The three figures the game's level generator scores a board by, and its share of black tiles."""

    black_fraction: float
    compactness: float
    symmetry_score: float
    density: float


def board_figures(board: Board) -> BoardFigures:
    """black_fraction: the black tiles over all. compactness: 1 - the area of the smallest rectangle holding
    every black tile over the board's, 0 with no black tile. density: 1 - 2·|black_fraction - ½|, 1 at half
    black. symmetry_score: the best share of tiles that keep their colour under a turn or mirror that keeps
    the board's shape but changes the board (a map under which the board is symmetric is skipped, as the
    generator skips it; `symmetry` names those), 0 when every such map leaves the board as it is."""
    height, width = shape(board)
    area = height * width
    black = [(r, c) for r, row in enumerate(board) for c, tile in enumerate(row) if tile]
    fraction = Fraction(len(black), area)
    compactness = Fraction(0)
    if black:
        rows, cols = [r for r, _ in black], [c for _, c in black]
        box = (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1)
        compactness = 1 - Fraction(box, area)
    tiles = [tile for row in board for tile in row]
    best = 0
    for name in shape_keeping_maps(board):
        image = [tile for row in board_image(board, name) for tile in row]
        if image != tiles:
            best = max(best, sum(a == b for a, b in zip(tiles, image, strict=True)))
    return BoardFigures(
        black_fraction=float(fraction),
        compactness=float(compactness),
        symmetry_score=float(Fraction(best, area)),
        density=float(1 - 2 * abs(fraction - HALF)),
    )


# --- the signals of a level over its optima --------------------------------------------------------------


@dataclass(frozen=True)
class Signals:
    """A level's difficulty signals over its optimal solutions (those listed: complete says whether that is
    every one), with the search's figures and the board's own."""

    target: int  # the colour the optima end on: 0 white, 1 black
    optimum: int  # the proven fewest moves, which the per-par figures take as par
    optima: int  # optimal solutions listed, and measured
    complete: bool  # every optimum listed: no cap or budget stopped the listing
    unique: bool | None  # exactly one optimum; None when the listing stopped at one, so it cannot tell
    min_eric: int
    max_eric: int
    min_eric_solution: tuple[Move, ...]
    max_eric_solution: tuple[Move, ...]
    min_obvious: float
    max_obvious: float
    min_obvious_solution: tuple[Move, ...]
    max_obvious_solution: tuple[Move, ...]
    eric_per_par: int  # half-up round(10·min_eric / par); 0 for par 0 (a solved board), as the game has it
    obvious_per_par: int  # half-up round(1000·min_obvious / par); 0 for par 0
    obvious_100: int  # half-up round(100·min_obvious), as the game's editor shows it
    root_bound: int  # the solver's lower bound at the start, with no search
    gap: int  # optimum - root_bound: the moves the search itself had to prove
    nodes: int
    seconds: float
    symmetry: str  # the board's symmetry group (boards.SYMMETRY_GROUPS), or "none"
    black_fraction: float
    compactness: float
    symmetry_score: float
    density: float

    @property
    def over(self) -> str:
        """Which optima the figures are over, in words: never every one when the listing stopped."""
        if not self.complete:
            return f"the {self.optima} optima listed (there may be more)"
        return "the only optimum" if self.optima == 1 else f"all {self.optima} optima"


Score = TypeVar("Score", int, Fraction)


def extremes(
    scored: Sequence[tuple[Score, tuple[Move, ...]]],
) -> tuple[Score, Score, tuple[Move, ...], tuple[Move, ...]]:
    """The least and greatest score, and the first solution (in sorted order) attaining each."""
    low = min(score for score, _ in scored)
    high = max(score for score, _ in scored)
    return (
        low,
        high,
        min(moves for score, moves in scored if score == low),
        min(moves for score, moves in scored if score == high),
    )


def level_signals(
    board: Board,
    target: int,
    solutions: Sequence[Sequence[Move]],
    complete: bool,
    root_bound: int,
    nodes: int = 0,
    seconds: float = 0.0,
) -> Signals:
    """The signals of a level over the optimal solutions given (at least one, all of the optimum's length):
    complete when they are every optimum."""
    height, width = shape(board)
    listed = [chosen_moves(height, width, moves) for moves in solutions]
    optimum = len(listed[0])
    erics = [(eric_number(height, width, moves), moves) for moves in listed]
    obvious = [(exact_obvious(board, moves), moves) for moves in listed]
    min_eric, max_eric, min_eric_solution, max_eric_solution = extremes(erics)
    min_obvious, max_obvious, min_obvious_solution, max_obvious_solution = extremes(obvious)
    figures = board_figures(board)
    return Signals(
        target=target,
        optimum=optimum,
        optima=len(listed),
        complete=complete,
        unique=len(listed) == 1 if complete or len(listed) > 1 else None,
        min_eric=min_eric,
        max_eric=max_eric,
        min_eric_solution=min_eric_solution,
        max_eric_solution=max_eric_solution,
        min_obvious=float(min_obvious),
        max_obvious=float(max_obvious),
        min_obvious_solution=min_obvious_solution,
        max_obvious_solution=max_obvious_solution,
        eric_per_par=half_up(Fraction(10 * min_eric, optimum)) if optimum else 0,
        obvious_per_par=half_up(1000 * min_obvious / optimum) if optimum else 0,
        obvious_100=half_up(100 * min_obvious),
        root_bound=root_bound,
        gap=optimum - root_bound,
        nodes=nodes,
        seconds=seconds,
        symmetry=symmetry_group(board),
        black_fraction=figures.black_fraction,
        compactness=figures.compactness,
        symmetry_score=figures.symmetry_score,
        density=figures.density,
    )


SOLUTION_FIELDS = ("min_eric_solution", "max_eric_solution", "min_obvious_solution", "max_obvious_solution")
SEARCH_FIELDS = ("nodes", "seconds")


def signals_object(signals: Signals, search: bool = True) -> dict[str, Any]:
    """The signals as a JSON object, one member a field (and "over", which optima they are over), each
    solution a list of {"row", "col", "size"}; without search, the figures that depend on the run (nodes,
    seconds) are left out, so that what remains is the same on every run."""
    fields: dict[str, Any] = {"over": signals.over}
    for name in Signals.__dataclass_fields__:
        if name in SEARCH_FIELDS and not search:
            continue
        value = getattr(signals, name)
        fields[name] = [dict(move._asdict()) for move in value] if name in SOLUTION_FIELDS else value
    return fields


# --- the figures a designer ranks levels by, and where a book's curve breaks --------------------------------


BREAK_AHEAD = 5
BREAK_SHARE = 0.25


@dataclass(frozen=True)
class Figure:
    name: str  # as --order-by takes it, and as records and sheets name it
    heading: str  # as the table and the page show it
    meaning: str  # in words, for the page's legend
    value: Callable[[Signals], int]


PAR, ERIC, OBV, GAP = FIGURE_NAMES  # the command line declares the names without loading this module
FIGURES = (
    Figure(PAR, "par", "the proven optimum, in moves", lambda signals: signals.optimum),
    Figure(
        ERIC,
        "minEric",
        "the least Eric number of any optimal solution (distinct tile signatures under its squares)",
        lambda signals: signals.min_eric,
    ),
    Figure(
        OBV,
        "obv×100",
        "the least obvious score of any optimal solution, ×100 (how much its squares stand out)",
        lambda signals: signals.obvious_100,
    ),
    Figure(
        GAP,
        "gap",
        "the optimum less the solver's lower bound at the start: how hard the optimum is to prove",
        lambda signals: signals.gap,
    ),
)


def figure_named(name: str) -> Figure:
    return next(figure for figure in FIGURES if figure.name == name)


def curve_breaks(values: Sequence[float | None]) -> list[int]:
    """The indexes of the levels that break the curve of one figure, given its value for each level in the
    book's order (None for a level without one, which neither breaks nor counts among the next levels)."""
    import statistics  # loaded only by the report, which draws the curve: a solve does not need it

    known = [value for value in values if value is not None]
    if not known:
        return []
    margin = BREAK_SHARE * (max(known) - min(known))
    breaks = []
    for index, value in enumerate(values):
        if value is None:
            continue
        ahead = [later for later in values[index + 1 :] if later is not None][:BREAK_AHEAD]
        if ahead and value - statistics.median(ahead) > margin:
            breaks.append(index)
    return breaks
