"""The solver's line protocol (docs/protocol.md): the board going in, and the outcomes coming out, each read
strictly. An outcome says what the solver found and nothing about how to show it."""

from __future__ import annotations

import math
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from .boards import TRI, TWO, Board, Move, moves_word, scheme_of, shape_text
from .contract import solver_contract
from .errors import SolverError


@dataclass(frozen=True)
class Solution:
    """A solution of the fewest moves there are, replayed on the board before anyone sees it."""

    target: int  # the colour every tile ends as: 0 white, 1 black
    moves: tuple[Move, ...]
    nodes: int
    seconds: float

    @property
    def optimal(self) -> bool:
        """Always true: the solver reports a solution only once it has proven that none is shorter."""
        return True


@dataclass(frozen=True)
class Optima(Solution):
    """Every optimal solution (--all-solutions), or the first max_solutions of them. Each is a set of moves:
    moves commute and undo themselves, so no order of the same moves is another solution. The solutions
    come in the solver's order, each sorted, and moves is the first of them."""

    solutions: tuple[tuple[Move, ...], ...]
    complete: bool  # False: --max-solutions stopped the enumeration, so there may be more


@dataclass(frozen=True)
class Unsolvable:
    target: int
    seconds: float
    either: bool = False  # asked for either colour: neither can be reached


@dataclass(frozen=True)
class Stopped:
    """The caller's budget ran out: no claim either way, beyond the proven lower bound. When it ran out
    while the optimal solutions were being counted (--all-solutions, --count), after the optimum was
    proven, the bound is that optimum, and found says how many optimal solutions were met before it ran
    out: there may be more."""

    target: int
    bound: int  # every solution needs at least this many moves
    nodes: int
    seconds: float
    found: int | None = None  # counting stopped: optimal solutions met by then; None: the optimum is unknown
    solutions: tuple[tuple[Move, ...], ...] = ()  # those of them the solver listed

    @property
    def optimum(self) -> int | None:
        """The proven optimum, when only the counting was stopped."""
        return None if self.found is None else self.bound


Outcome = Solution | Unsolvable | Stopped  # an Optima is a Solution


def shortfall(outcome: Unsolvable | Stopped) -> str:
    """What an outcome without a solution proves, in words."""
    if isinstance(outcome, Stopped) and outcome.found is not None:
        return f"counting stopped after {counted_words(outcome.found)} of {moves_word(outcome.bound)}"
    if isinstance(outcome, Stopped):
        return f"no solution with fewer than {outcome.bound} moves"
    # On a square board the whole board is itself a move, so one colour is reachable exactly when the other
    # is; on a rectangle it is not, and the words say which colours were ruled out.
    if outcome.either:
        return "no sequence of moves makes every tile white or every tile black"
    if outcome.target:
        return "no sequence of moves makes every tile black"
    return "no sequence of moves clears this board"


def counted_words(found: int) -> str:
    return f"{found} optimal solution{'s' * (found != 1)}"


@dataclass(frozen=True)
class SearchProgress:
    bound: int
    state: str  # "searching", "exhausted" or "annealing" (looking for a solution of `bound` moves)
    nodes: int

    def __str__(self) -> str:
        if self.state == "exhausted":
            return f"no solution in {self.bound} moves ({self.nodes:,} nodes)"
        if self.state == "annealing":
            return f"annealing for a {self.bound}-move solution ({self.nodes:,} nodes)"
        return f"trying {self.bound} moves ({self.nodes:,} nodes)"


# The solver's counts fit 64 bits (20 digits); a longer number is no progress line, and never reaches int(),
# which raises past 4,300 digits.
PROGRESS_LINE = re.compile(r"bound ([0-9]{1,20}) (exhausted|searching|annealing), nodes=([0-9]{1,20})")


def parse_progress(line: str) -> SearchProgress | None:
    match = PROGRESS_LINE.fullmatch(line.strip())
    return SearchProgress(int(match[1]), match[2], int(match[3])) if match else None


def board_to_protocol(board: Board) -> str:
    """The board as the solver reads it: 0/1 digits, or a tri board's in the game's numbers 1 to 3."""
    offset = scheme_of(board) == TRI
    return "".join("".join(str(tile + offset) for tile in line) + "\n" for line in board)


def scheme_arguments(board: Board) -> list[str]:
    """What tells the solver the board's scheme: nothing for two colours, its default."""
    return [] if scheme_of(board) == TWO else ["--scheme", scheme_of(board)]


def presses_together(moves: tuple[Move, ...]) -> bool:
    """Whether each square pressed twice has its presses one after the other, as the solver writes them."""
    return all(moves[i - 1] == move or move not in moves[: i - 1] for i, move in enumerate(moves) if i)


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with status {returncode}"


T = TypeVar("T")
N = TypeVar("N", int, float)


def fitting_moves(words: list[str], height: int, width: int) -> tuple[Move, ...]:
    """Words read as 'row col size' triples, each a move that fits the board; ValueError when they are not."""
    if len(words) % 3:
        raise ValueError
    numbers = list(map(int, words))
    moves = tuple(Move(*numbers[i : i + 3]) for i in range(0, len(numbers), 3))
    if not all(move.fits(height, width) for move in moves):
        raise ValueError
    return moves


class ProtocolReader:
    """Walks the solver's standard output line by line, naming the line at fault when it is malformed."""

    def __init__(self, stdout: str) -> None:
        self.lines = stdout.splitlines()
        while self.lines and not self.lines[-1].strip():
            self.lines.pop()
        self.index = 0

    def error(self, expected: str) -> SolverError:
        got = (
            f"got {self.lines[self.index].strip()!r}" if self.index < len(self.lines) else "the output ended"
        )
        return SolverError(f"malformed solver output: line {self.index + 1}: expected {expected}, {got}")

    def take(self, expected: str, parse: Callable[[list[str]], T]) -> T:
        """The next line through parse, which raises ValueError to reject it."""
        if self.index >= len(self.lines):
            raise self.error(expected)
        try:
            value = parse(self.lines[self.index].split())
        except ValueError:
            raise self.error(expected) from None
        self.index += 1
        return value

    def number(self, keyword: str, kind: type[N], allowed: tuple[int, ...] = ()) -> N:
        def parse(parts: list[str]) -> N:
            if len(parts) != 2 or parts[0] != keyword:
                raise ValueError
            value = kind(parts[1])
            if value < 0 or not math.isfinite(value) or (allowed and value not in allowed):
                raise ValueError
            return value

        if allowed:
            expected = " or ".join(f"'{keyword} {choice}'" for choice in allowed)
        else:
            expected = f"'{keyword} <{'seconds' if kind is float else 'count'}>'"
        return self.take(expected, parse)

    def keyword(self, keyword: str) -> None:
        def parse(parts: list[str]) -> None:
            if parts != keyword.split():
                raise ValueError

        self.take(f"'{keyword}'", parse)

    def optional_keyword(self, keyword: str) -> bool:
        """Whether the next line is the keyword alone; taken if it is."""
        present = self.index < len(self.lines) and self.lines[self.index].split() == [keyword]
        self.index += present
        return present

    def move(self, height: int, width: int) -> Move:
        def parse(parts: list[str]) -> Move:
            if len(parts) != 3:
                raise ValueError
            return fitting_moves(parts, height, width)[0]

        return self.take(f"a move 'row col size' that fits the {shape_text(height, width)} board", parse)

    def starts(self, keyword: str) -> bool:
        """Whether the next line's first word is keyword."""
        return self.index < len(self.lines) and self.lines[self.index].split()[:1] == [keyword]

    def solution(self, shape: tuple[int, int], optimum: int) -> tuple[Move, ...]:
        def parse(parts: list[str]) -> tuple[Move, ...]:
            if parts[:1] != ["SOLUTION"] or len(parts) != 1 + 3 * optimum:
                raise ValueError
            moves = fitting_moves(parts[1:], *shape)
            if not presses_together(moves):
                raise ValueError
            return moves

        fit = f"that fit the {shape_text(*shape)} board, a square pressed twice side by side"
        return self.take(f"'SOLUTION' and {optimum} moves 'row col size' {fit}", parse)

    def end(self) -> None:
        if self.index < len(self.lines):
            raise self.error("nothing after 'TIME'")

    def scheme(self, scheme: str) -> None:
        """A tri board's output opens with SCHEME tri; a two-colour board's has no such line."""
        if scheme != TWO:
            self.keyword(f"SCHEME {scheme}")


def read_outcome(
    returncode: int,
    stdout: str,
    stderr: str,
    target: str,
    found: Callable[[ProtocolReader, int], T],
    counting: bool = False,
    listing: tuple[tuple[int, int], int | None] | None = None,
    scheme: str = TWO,
) -> T | Unsolvable | Stopped:
    """One run's exit status and output as an outcome, trusting nothing the protocol does not allow: what
    `found` reads after TARGET when solved, or the unsolvable (which says SOLUTIONS 0 when counting) and
    stopped outcomes every mode shares; counting, a stop after the optimum was proven too, with the
    solutions found by then when listing gives the board's shape and the cap on them. A rejection or the
    solver's own failure is an error with its reason. A tri board's output opens with its SCHEME line."""
    exits = solver_contract().exits
    complaints = [line.strip() for line in stderr.splitlines() if line.strip() and not parse_progress(line)]
    reason = complaints[-1].removeprefix("error:").strip() if complaints else "no reason given"
    if returncode == exits.rejected:
        raise SolverError(f"the solver rejected the board: {reason}")
    if returncode == exits.failed:
        raise SolverError(f"the solver failed: {reason}")
    if returncode not in (exits.solved, exits.unsolvable, exits.stopped):
        detail = f": {complaints[-1]}" if complaints else ""
        raise SolverError(f"the solver {describe_exit(returncode)}{detail}")
    reader = ProtocolReader(stdout)
    reader.scheme(scheme)
    reported = reader.number("TARGET", int, allowed=(0, 1) if target == "either" else (int(target),))
    outcome: T | Unsolvable | Stopped
    if returncode == exits.solved:
        outcome = found(reader, reported)
    elif returncode == exits.unsolvable:
        reader.keyword("UNSOLVABLE")
        if counting:
            reader.number("SOLUTIONS", int, allowed=(0,))
        reader.number("NODES", int)
        outcome = Unsolvable(reported, reader.number("TIME", float), either=target == "either")
    elif counting and reader.starts("MOVES"):
        outcome = read_stopped_count(reader, reported, listing)
    else:
        bound = reader.number("STOPPED", int)
        outcome = Stopped(reported, bound, reader.number("NODES", int), reader.number("TIME", float))
    reader.end()
    return outcome


def read_stopped_count(
    reader: ProtocolReader, target: int, listing: tuple[tuple[int, int], int | None] | None
) -> Stopped:
    """MOVES m, the proven optimum; when listing, the SOLUTION lines found before the budget ran out
    (fewer than the cap, which would have ended the listing first); SOLUTIONS k; INCOMPLETE."""
    optimum = reader.number("MOVES", int)
    solutions: list[tuple[Move, ...]] = []
    if listing is None:
        found = reader.number("SOLUTIONS", int)
    else:
        shape, max_solutions = listing
        while reader.starts("SOLUTION") and len(solutions) + 1 != max_solutions:
            solutions.append(reader.solution(shape, optimum))
        found = reader.number("SOLUTIONS", int, allowed=(len(solutions),))
    reader.keyword("INCOMPLETE")
    nodes, seconds = reader.number("NODES", int), reader.number("TIME", float)
    return Stopped(target, optimum, nodes, seconds, found, tuple(solutions))


def parse_solver_output(
    returncode: int,
    stdout: str,
    stderr: str,
    shape: tuple[int, int],
    target: str,
    enumerating: bool = False,
    max_solutions: int | None = None,
    scheme: str = TWO,
) -> Outcome:
    """A search for one optimal solution, or, enumerating (--all-solutions), for every optimal solution, at
    most max_solutions of them when that is given. A tri square pressed twice is its line twice, one after
    the other."""

    def solution(reader: ProtocolReader, reported: int) -> Solution:
        if enumerating:
            return read_optima(reader, reported, shape, max_solutions)
        count = reader.number("MOVES", int)
        moves = tuple(reader.move(*shape) for _ in range(count))
        if not presses_together(moves):
            raise SolverError("malformed solver output: a square pressed twice is not on two lines in a row")
        return Solution(reported, moves, reader.number("NODES", int), reader.number("TIME", float))

    listing = (shape, max_solutions) if enumerating else None
    return read_outcome(
        returncode, stdout, stderr, target, solution, counting=enumerating, listing=listing, scheme=scheme
    )


def read_optima(
    reader: ProtocolReader, target: int, shape: tuple[int, int], max_solutions: int | None
) -> Optima:
    """MOVES m, a SOLUTION line per optimal set (at least one, at most the cap), SOLUTIONS k counting them,
    and INCOMPLETE exactly when the cap was reached: the solver stops there, so there may be more."""
    optimum = reader.number("MOVES", int)
    solutions = [reader.solution(shape, optimum)]
    while reader.starts("SOLUTION") and len(solutions) != max_solutions:
        solutions.append(reader.solution(shape, optimum))
    reader.number("SOLUTIONS", int, allowed=(len(solutions),))
    complete = len(solutions) != max_solutions
    if not complete:
        reader.keyword("INCOMPLETE")
    return Optima(
        target,
        solutions[0],
        reader.number("NODES", int),
        reader.number("TIME", float),
        solutions=tuple(solutions),
        complete=complete,
    )
