"""Verification: an answer is only reported after replaying it on the original board. (A book's level checked
against its par, for --all, is level_checks.py's.)"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from .boards import Board, Move, colour_names, colours, moves_word, replay
from .errors import VerificationError
from .protocol import Optima, Outcome, Solution, Stopped
from .solver import OnProgress, SolverSettings, run_solver


def verify(boards: list[Board], target: int, whose: str = "the solver's") -> None:
    wrong = [(r, c) for r, line in enumerate(boards[-1]) for c, tile in enumerate(line) if tile != target]
    if wrong:
        r, c = wrong[0]
        raise VerificationError(
            f"verification failed: replaying {whose} {moves_word(len(boards) - 1)} leaves "
            f"{len(wrong)} tiles not {colour_names(boards[-1])[target]} (first at row {r + 1}, col {c + 1})"
        )


def undone(board: Board, moves: tuple[Move, ...]) -> str:
    """What is wrong with a solution that makes a move as often as there are colours, which undoes it (a
    two-colour move made twice, a tri move three times): no optimal solution does. Empty when none is."""
    made = Counter(moves)
    if any(times >= colours(board) for times in made.values()):
        return "makes a move twice" if colours(board) == 2 else "makes a move three times"
    return ""


def verify_optima(board: Board, optima: Optima | Stopped) -> None:
    """Each solution reaches the target, and each is a different set of moves, none made as often as the
    board has colours: a two-colour move made twice undoes itself (a tri move made three times), and a set
    listed twice is one solution, not two. (A count the budget stopped has the solutions found by then.)"""
    for index, moves in enumerate(optima.solutions, 1):
        if fault := undone(board, moves):
            raise VerificationError(f"verification failed: the solver's solution {index} {fault}")
        verify(replay(board, moves), optima.target, f"solution {index}'s")
    if len({tuple(sorted(moves)) for moves in optima.solutions}) != len(optima.solutions):
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
        if fault := undone(board, outcome.moves):
            raise VerificationError(f"verification failed: the solver's solution {fault}")
    return outcome
