"""Verification: an answer is only reported after replaying it on the original board. (A book's level checked
against its par, for --all, is level_checks.py's.)"""

from __future__ import annotations

from pathlib import Path

from .boards import COLOUR_NAMES, Board, moves_word, replay
from .errors import VerificationError
from .protocol import Optima, Outcome, Solution, Stopped
from .solver import OnProgress, SolverSettings, run_solver


def verify(boards: list[Board], target: int, whose: str = "the solver's") -> None:
    wrong = [(r, c) for r, line in enumerate(boards[-1]) for c, tile in enumerate(line) if tile != target]
    if wrong:
        r, c = wrong[0]
        raise VerificationError(
            f"verification failed: replaying {whose} {moves_word(len(boards) - 1)} leaves "
            f"{len(wrong)} tiles not {COLOUR_NAMES[target]} (first at row {r + 1}, col {c + 1})"
        )


def verify_optima(board: Board, optima: Optima | Stopped) -> None:
    """Each solution reaches the target, and each is a different set of distinct moves: a move made twice
    undoes itself, and a set listed twice is one solution, not two. (A count the budget stopped has the
    solutions found by then.)"""
    for index, moves in enumerate(optima.solutions, 1):
        if len(set(moves)) != len(moves):
            raise VerificationError(f"verification failed: the solver's solution {index} makes a move twice")
        verify(replay(board, moves), optima.target, f"solution {index}'s")
    if len(set(map(frozenset, optima.solutions))) != len(optima.solutions):
        raise VerificationError("verification failed: the solver listed the same solution twice")


def solve_board(solver: Path, board: Board, settings: SolverSettings, on_progress: OnProgress) -> Outcome:
    """Run the solver on a board; a solution comes back only once it is replayed and verified, and with
    every optimal solution, each of them."""
    return verified(board, run_solver(solver, board, settings, on_progress))


def verified(board: Board, outcome: Outcome) -> Outcome:
    """The outcome, once its solution (each of every optimal solution) is replayed on the board and found
    to reach its target."""
    if isinstance(outcome, Optima | Stopped):
        verify_optima(board, outcome)
    elif isinstance(outcome, Solution):
        verify(replay(board, outcome.moves), outcome.target)
    return outcome
