"""Hints: from the board as it is, one move that belongs to an optimal solution and how many moves remain
after it, and nothing more, so the rest stays the player's to find.

The hinted move is taken from the solver's optimal solution, which is verified first: of its moves, the
one that comes first in reading order (the topmost, then the leftmost, then the smallest square). The
solver runs on one thread for a hint, because with several the threads race and which of several optimal
solutions wins can vary; on one it is the same every time, and so is the hint. That the count is right
needs no second search: the other moves of an optimal solution of m moves clear the board the hint leaves
in m - 1, and none can do it in fewer, or the whole board would take fewer than m."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .boards import Board, Move
from .protocol import Outcome, Solution
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


def hint_settings(target: str, max_seconds: float | None, max_nodes: int | None) -> SolverSettings:
    return SolverSettings(target, HINT_THREADS, max_seconds, max_nodes)


def find_hint(
    solver: Path, board: Board, settings: SolverSettings, on_progress: OnProgress
) -> Hint | Outcome:
    """A hint, or, when there is no move to hint, the outcome that says why: a solution of no moves (the
    board is already solved), unsolvable, or stopped by the budget."""
    outcome = solve_board(solver, board, settings, on_progress)
    if not isinstance(outcome, Solution) or not outcome.moves:
        return outcome
    move = min(outcome.moves, key=lambda move: (move.row, move.col, move.size))
    return Hint(outcome.target, move, len(outcome.moves) - 1, outcome.nodes, outcome.seconds)
