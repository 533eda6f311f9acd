"""--all's checks of a book's levels: each level checked in full (its verified outcome and what it shows the
book got wrong, or why there is none), why a level fails the run, and the tally of the levels checked so far.
Loaded only when a book is checked: a solve of one level does not pay for it (docs/results.md, "Start-up")."""

from __future__ import annotations

from dataclasses import dataclass

from .books import Level
from .errors import SolverError
from .protocol import Outcome, Solution


@dataclass(frozen=True)
class LevelCheck:
    """One level of a book checked in full: the verified outcome, or why there is none."""

    level: Level
    outcome: Outcome | None
    error: SolverError | None  # set exactly when outcome is None
    book_errors: tuple[str, ...] = ()  # what the outcome shows the book got wrong, each with its fix

    @property
    def at_par(self) -> bool:
        """Solved, and in the book's par when it gives one."""
        if not isinstance(self.outcome, Solution):
            return False
        return self.level.par is None or len(self.outcome.moves) == self.level.par


# Why a level of --all fails the run: the book is wrong about it (its par, a vector it stores, a level no
# moves clear), the solver failed on it, or a budget stopped it first. Each has its own exit status.
FAILURE_KINDS = ("book", "solver", "budget")


@dataclass(frozen=True)
class Failure:
    number: int  # the level's, in its book
    why: str
    kind: str  # one of FAILURE_KINDS


@dataclass(frozen=True)
class Tally:
    """The levels of a book checked so far: how many, solved, with a par, at it, and the solver's time."""

    finished: int
    solved: int
    with_par: int
    at_par: int
    seconds: float


def tally(checks: list[LevelCheck]) -> Tally:
    with_par = [check for check in checks if check.level.par is not None]
    return Tally(
        finished=len(checks),
        solved=sum(isinstance(check.outcome, Solution) for check in checks),
        with_par=len(with_par),
        at_par=sum(check.at_par for check in with_par),
        seconds=sum(check.outcome.seconds for check in checks if check.outcome is not None),
    )
