"""Hints: from the board as it is, one move that belongs to an optimal solution and how many moves remain
after it, and nothing more, so the rest stays the player's to find.

The hinted move is taken from the solver's optimal solution, which is verified first: of its moves, the
one that comes first in reading order (the topmost, then the leftmost, then the smallest square). The
solver runs on one thread for a hint, because with several the threads race and which of several optimal
solutions wins can vary; on one it is the same every time, and so is the hint. That the count is right
needs no second search: the other moves of an optimal solution of m moves clear the board the hint leaves
in m - 1, and none can do it in fewer, or the whole board would take fewer than m.

With a preference (hint --prefer), the move is the one the game's own hint would pick (Paul-Andre/unsquare,
the Game's findNextHintMove, built but switched off in its page): among the optimal solutions, every one of
them listed, each move they make is scored by the least, over the solutions that make it, Eric number of the
moves that remain after it ("obvious": their obvious score, on the board as it is); the move with the least
score wins, a tie going to the move that comes first in the game's move order (game_vectors.py), as the
game keeps the first it meets. The game scores the solutions its level stores that the player's moves so far
agree with; here the position is all there is, so its optimal solutions are the ones to agree with. The
listing is complete, so the hint is a property of the board alone, the same on every run."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from .boards import Board, Move, shape
from .difficulty import eric_number, exact_obvious
from .game_vectors import move_indices
from .protocol import Optima, Outcome, Solution
from .solver import OnProgress, SolverSettings
from .verify import solve_board

HINT_THREADS = 1


@dataclass(frozen=True)
class Hint:
    target: int
    move: Move
    remaining: int  # moves still needed after this one, optimally
    nodes: int
    seconds: float
    prefer: str | None = None  # the signal the move was picked by (hint --prefer), or None: reading order


def hint_settings(target: str, max_seconds: float | None, max_nodes: int | None) -> SolverSettings:
    return SolverSettings(target, HINT_THREADS, max_seconds, max_nodes)


def find_hint(
    solver: Path, board: Board, settings: SolverSettings, on_progress: OnProgress, prefer: str | None = None
) -> Hint | Outcome:
    """A hint, or, when there is no move to hint, the outcome that says why: a solution of no moves (the
    board is already solved), unsolvable, or stopped by the budget. With prefer, the move the game's hint
    rule picks among every optimal solution's moves."""
    if prefer is not None:
        settings = dataclasses.replace(settings, all_solutions=True)
    outcome = solve_board(solver, board, settings, on_progress)
    if not isinstance(outcome, Solution) or not outcome.moves:
        return outcome
    if isinstance(outcome, Optima) and prefer is not None:
        move = preferred_move(board, outcome.solutions, prefer)
    else:
        move = min(outcome.moves, key=lambda move: (move.row, move.col, move.size))
    return Hint(outcome.target, move, len(outcome.moves) - 1, outcome.nodes, outcome.seconds, prefer)


def preferred_move(board: Board, solutions: Sequence[tuple[Move, ...]], prefer: str) -> Move:
    """The game's hint rule over the optimal solutions (the module's help)."""
    height, width = shape(board)

    def left_after(moves: tuple[Move, ...], move: Move) -> Fraction:
        rest = [other for other in moves if other != move]
        return Fraction(eric_number(height, width, rest)) if prefer == "eric" else exact_obvious(board, rest)

    best: dict[Move, Fraction] = {}
    for moves in solutions:
        for move in moves:
            score = left_after(moves, move)
            if move not in best or score < best[move]:
                best[move] = score
    order = move_indices(height, width)
    return min(best, key=lambda move: (best[move], order[move]))
