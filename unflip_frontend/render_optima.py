"""Rendering of every optimal solution (--all-solutions, --count) and of a hint, as rich text. Nothing here
prints; the command layer decides where each piece goes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from .boards import Board, Move, colour_names, moves_word, scheme_of
from .books import Level
from .protocol import Optima, Outcome, Stopped, counted_words
from .render import Glyphs, describe_move, par_note, render_board, verb

if TYPE_CHECKING:  # difficulty and hints are loaded only by the commands that use them
    from .difficulty import Signals
    from .hints import Hint


def move_code(move: Move, glyphs: Glyphs) -> str:
    """A move in a few characters, so that a solution fits on a line: 2×2@1,3 is the 2×2 square whose
    top-left tile is in row 1, column 3, counting from 1 as the cards do."""
    return f"{move.size}{glyphs.times}{move.size}@{move.row + 1},{move.col + 1}"


def count_words(optima: Optima, level: Level) -> str:
    """How many optimal solutions there are: 'unique' for one, and never more than is known."""
    found, each = len(optima.solutions), moves_word(len(optima.moves)) + par_note(level, len(optima.moves))
    if not optima.complete:
        return (
            f"at least {found} optimal solution{'s' * (found > 1)} of {each}: "
            f"--max-solutions stopped the search at {found}, so there may be more"
        )
    if found == 1:
        return f"1 optimal solution of {each}: unique"
    return f"{found} optimal solutions of {each}"


OPTIMA_COLUMN_KEY = (
    "optima: how many optimal solutions a level has (1: unique; 3+: at least 3, where --max-solutions "
    "or a budget stopped)"
)


def count_cell(outcome: Outcome | None) -> str:
    """The count in a table's column: 3, or 3+ when --max-solutions or a budget stopped the search there;
    - for a level with no count."""
    if isinstance(outcome, Stopped) and outcome.found is not None:
        return f"{outcome.found}+"
    if isinstance(outcome, Optima):
        return f"{len(outcome.solutions)}{'' if outcome.complete else '+'}"
    return "-"


def optima_report(level: Level, optima: Optima | Stopped, glyphs: Glyphs, listed: bool) -> list[Text]:
    """The count, then (when listed) every solution on a numbered line, then the verification. For a count
    the budget stopped, the proven optimum and the solutions found by then."""
    if isinstance(optima, Stopped):
        each = moves_word(optima.bound) + par_note(level, optima.bound)
        stop = f"counting stopped by budget after {counted_words(optima.found or 0)}, so there may be more"
        words = f"Optimal: {each}, proven; {stop}"
    else:
        words = count_words(optima, level)
    summary = f"{words} {glyphs.dash} {optima.nodes:,} nodes, {optima.seconds:.3f} s"
    parts = [Text(summary, style="bold")]
    if listed and optima.solutions:
        k = glyphs.times.join("kk")
        parts.append(Text(f"Each move is {k}@row,col: a {k} square and its top-left tile.", style="dim"))
        for number, moves in enumerate(optima.solutions, 1):
            line = " ".join(move_code(move, glyphs) for move in moves) or "no moves: already solved"
            parts.append(Text(f"{number:>4}. {line}"))
    found = len(optima.solutions)
    if not found:
        return parts
    which = "the solution" if found == 1 else f"each of the {found} solutions"
    parts.append(
        Text(
            f"{glyphs.check}Verified: {which}, replayed on the original board, leaves every tile "
            f"{colour_names(level.board)[optima.target]}.",
            style="green",
        )
    )
    return parts


def signals_report(signals: Signals, glyphs: Glyphs) -> list[Text]:
    """The difficulty signals, a line a measure, saying which optima they are over."""

    def solution(moves: tuple[Move, ...]) -> str:
        return " ".join(move_code(move, glyphs) for move in moves) or "no moves"

    return [
        Text(f"Signals over {signals.over} (the game's measures, docs/designer.md):", style="bold"),
        Text(
            f"  Eric number    least {signals.min_eric}, most {signals.max_eric}; "
            f"eric/par {signals.eric_per_par}"
        ),
        Text(
            f"  obvious score  least {signals.min_obvious:.3f} (the editor's {signals.obvious_100}), "
            f"most {signals.max_obvious:.3f}; obv/par {signals.obvious_per_par}"
        ),
        Text(f"  root bound     {signals.root_bound}, gap {signals.gap} to the optimum of {signals.optimum}"),
        Text(
            f"  board          symmetry {signals.symmetry}; black {signals.black_fraction:.2f}, compactness "
            f"{signals.compactness:.2f}, symmetry score {signals.symmetry_score:.2f}, "
            f"density {signals.density:.2f}"
        ),
        Text(f"  least Eric     {solution(signals.min_eric_solution)}", style="dim"),
        Text(f"  least obvious  {solution(signals.min_obvious_solution)}", style="dim"),
    ]


# How the hint's move was picked, by hint --prefer.
PREFERRED = {
    "eric": "the game's hint rule: the least Eric number left after it",
    "obvious": "the game's hint rule: the least obvious score left after it",
}


def hint_card(hint: Hint, board: Board, glyphs: Glyphs) -> Text:
    """One step card: the move, how many moves remain after it, and the board with its square outlined."""
    if hint.remaining:
        after = f"then {moves_word(hint.remaining)} {'remains' if hint.remaining == 1 else 'remain'}"
    else:
        after = "that solves the board"
    words = describe_move(hint.move, glyphs, scheme_of(board))
    heading = Text(f"Hint {glyphs.dash} {words}; {after}:", style="bold")
    lines = [heading, render_board(board, glyphs, hint.move)]
    if hint.prefer is not None:
        lines.append(Text(f"Picked by {PREFERRED[hint.prefer]}.", style="dim"))
    return Text("\n").join(lines)


def already_solved(target: int, board: Board) -> Text:
    colour = colour_names(board)[target]
    return Text(f"Already solved: every tile is {colour}; nothing to {verb(board)}.", style="green")
