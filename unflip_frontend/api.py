"""The public Python API: proven move-optimal Unflip solutions inside your own program, with no command line
to run and no text to parse.

    >>> from unflip_frontend import Solution, solve
    >>> result = solve("00000\\n00010\\n00000\\n01000\\n00000\\n")
    >>> isinstance(result, Solution), len(result.moves), result.optimal
    (True, 8, True)
    >>> result.moves[0]
    Move(row=1, col=1, size=2)
    >>> row, col, size = result.moves[0]

Boards. Every function takes a board as
  - a text, in any format the command line reads: H lines of W digits, 0/1 with 0 white or 1/2 with 1
    white, the digits of a line together or apart, or a board this program printed (a byte-order mark
    before it is skipped, as in a file);
  - rows of tiles, 0 white and 1 black: [[0, 1], [1, 0]], or a Board;
  - a three-colour ("tri") board, the game's m_3 levels: Board(rows, scheme="tri") with tiles 0 (the game's
    1, cream, the solved colour), 1 (its 2, blue) and 2 (its 3, red); a text with a first line
    `scheme tri` and the game's digits 1 to 3; or a game link or a book's level that is tri. A press turns
    each tile of its square one step (the game's 1 → 3 → 2 → 1), so an optimal solution presses a square at
    most twice, and its .moves list such a square twice, one after the other;
  - a level of a book: read_book("daily").levels[4] is daily level 5.
Each side is 2 to 31 tiles (solver/contract.def's min_side and max_side); a move is a k×k square,
2 ≤ k ≤ the shorter side, given by its top-left tile.

Options, keywords only, as the command line's: target (0 or "white", the game's goal; 1 or "black";
"either", whichever takes fewer moves), threads (default: all cores), max_seconds and max_nodes (a budget:
when it runs out the result is Stopped), max_solutions (a cap on all_solutions, count_solutions and signals).
on_progress is called with a SearchProgress each time the search starts on a longer bound, proves one
impossible or anneals for a solution of the next (its .state says which); on_build with the compile
command, just before the solver is built.

Results are frozen dataclasses, one type per outcome, told apart with isinstance or match:
  - Solution: .moves, a tuple of Move, each a (row, col, size) triple counting from 0, with .row, .col
    and .size; .target, the colour every tile ends as (0 white, 1 black); .optimal, always True;
  - Optima, a Solution with every optimal solution in .solutions (.complete is False when max_solutions
    stopped the search, so there may be more);
  - OptimaCount: .count optimal solutions of .optimum moves each (.unique: exactly one);
  - Hint: one .move of an optimal solution and the moves .remaining after it;
  - LowerBound: the root's proven .bound, without a search;
  - Signals: how hard a level feels, by the game's own measures, over its optimal solutions (difficulty.py,
    docs/designer.md);
  - Unsolvable: no sequence of moves reaches the target;
  - Stopped: the budget ran out first; every solution needs at least .bound moves (.optimum, when it ran
    out only while the solutions were counted: .found of them met by then).
Every solution is replayed on the board before it is returned.

Errors: InputError for a board, book or option that is unusable, one of the wrong type too (a board that is
None, a number or bytes; a book or certificate path that is not a str or os.PathLike); SolverError when the
solver cannot be built or run or says something that cannot be trusted, and its VerificationError when a
solution does not survive the replay. Each message is one line a person can read.

The solver is a C++ program, built the first time it is needed, and again whenever its source changes,
exactly as the command line builds it (in a checkout, with make; installed, into the user's cache). Set
UNFLIP_SOLVER to run a ready executable instead; call build_solver() to build ahead of the first search.
"""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar, cast

from . import boards
from .books import Book, Level, load_source, two_colour_only
from .build import OnBuild, ensure_solver, quiet_build
from .errors import InputError, SolverError, VerificationError
from .files import writable_target, write_atomically
from .option_values import PREFERENCES
from .protocol import Optima, SearchProgress, Solution, Stopped, Unsolvable
from .solver import (
    MAX_NODES,
    MAX_SOLUTIONS,
    MAX_THREADS,
    SECONDS_RANGE,
    TARGETS,
    OnProgress,
    RootBound,
    SolverSettings,
    no_progress,
    root_bound,
)
from .verify import solve_board

if TYPE_CHECKING:
    from .bound_and_count import LowerBound, OptimaCount
    from .difficulty import Signals
    from .hints import Hint

Move = boards.Move

# The exports whose modules a solve does not otherwise load (difficulty.py and fractions, hints.py,
# bound_and_count.py) load when first asked for (PEP 562), as do the functions that need them: a solve does
# not pay for them (docs/results.md, "Start-up").
LAZY_EXPORTS = {
    "Signals": ".difficulty",
    "Hint": ".hints",
    "LowerBound": ".bound_and_count",
    "OptimaCount": ".bound_and_count",
}

__all__ = [
    "Board",
    "BoardSource",
    "Book",
    "Hint",
    "InputError",
    "Level",
    "LowerBound",
    "Move",
    "OnBuild",
    "OnProgress",
    "Optima",
    "OptimaCount",
    "SearchProgress",
    "Signals",
    "Solution",
    "SolverError",
    "Stopped",
    "Target",
    "Unsolvable",
    "VerificationError",
    "all_solutions",
    "build_solver",
    "count_solutions",
    "hint",
    "lower_bound",
    "read_book",
    "signals",
    "solve",
]


def __getattr__(name: str) -> object:
    if name not in LAZY_EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(LAZY_EXPORTS[name], __package__), name)


class Board(tuple[tuple[int, ...], ...]):
    """A board checked once: a rectangle of 2 to 31 rows of 2 to 31 tiles (the contract's sides), each 0
    (white) or 1 (black); with scheme="tri", each 0 (cream), 1 (blue) or 2 (red), the game's tile − 1. It is
    the tuple of its rows, so it can be indexed, compared and hashed as one; .scheme is "two" or "tri".

    >>> board = Board([[1, 1, 0], [1, 1, 0]])
    >>> board.height, board.width, board[0][1]
    (2, 3, 1)
    >>> print(board)
    110
    110
    >>> Board.from_text("2 2 1\\n2 2 1") == board
    True
    >>> tri = Board([[0, 2], [1, 0]], scheme="tri")
    >>> tri.scheme, str(tri)
    ('tri', 'scheme tri\\n13\\n21')
    """

    __slots__ = ()
    scheme = boards.TWO

    def __new__(cls, rows: Iterable[Iterable[int]], scheme: str | None = None) -> Board:
        """scheme: "two" or "tri"; by default the rows' own (a tri board's rows are tri), else "two"."""
        if scheme is None:
            scheme = boards.scheme_of(rows) if isinstance(rows, tuple) else boards.TWO
        if not isinstance(scheme, str) or scheme not in boards.SCHEMES:
            raise InputError(f"board: scheme must be 'two' or 'tri', not {scheme!r}")
        # A text is iterable too, by character; Board.from_text is what reads one.
        if isinstance(rows, str | bytes | bytearray) or not isinstance(rows, Iterable):
            raise InputError(f"board: expected rows of tiles (0 white, 1 black), not {type(rows).__name__}")
        listed = list(rows)
        bad = next((r for r, row in enumerate(listed, 1) if not isinstance(row, Iterable)), None)
        if bad is not None:
            kind = type(listed[bad - 1]).__name__
            raise InputError(f"board row {bad}: expected a row of tiles, not {kind}")
        board = tuple(tuple(row) for row in listed)
        if not board or not board[0]:
            raise InputError("board: it has no tiles")
        for r, row in enumerate(board, 1):
            if len(row) != len(board[0]):
                raise InputError(f"board row {r}: {len(row)} tiles, but row 1 has {len(board[0])}")
        boards.check_shape(len(board), len(board[0]), "board")
        expected = "0 = white or 1 = black" if scheme == boards.TWO else "0 = cream, 1 = blue or 2 = red"
        for r, row in enumerate(board, 1):
            for c, tile in enumerate(row, 1):
                # type() and not isinstance(): True and False are ints to Python, but not tiles.
                if type(tile) is not int or tile not in range(boards.SCHEMES[scheme]):
                    raise InputError(f"board: tile {tile!r} at row {r}, col {c} (expected {expected})")
        return super().__new__(TriBoard if scheme == boards.TRI else cls, board)

    @classmethod
    def from_text(cls, text: str, scheme: str | None = None) -> Board:
        """A board in any text format the command line reads (see the module's help); a tri board when its
        first line says `scheme tri`, or scheme="tri" is given.

        >>> Board.from_text("1 2\\n2 1\\n")
        Board.from_text('01\\n10')
        """
        if not isinstance(text, str):
            raise InputError(f"board: expected a text, not {type(text).__name__}")
        if scheme is not None and scheme not in boards.SCHEMES:
            raise InputError(f"board: scheme must be 'two' or 'tri', not {scheme!r}")
        return cls(boards.parse_board_text(text, "board", scheme))

    @property
    def height(self) -> int:
        return len(self)

    @property
    def width(self) -> int:
        return len(self[0])

    def __str__(self) -> str:
        """The rows as lines of digits, 0 white: what from_text reads back; a tri board's the game's digits
        1 to 3 under a first line `scheme tri`."""
        return "\n".join("".join(map(str, row)) for row in self)

    def __repr__(self) -> str:
        return f"Board.from_text({str(self)!r})"

    def __getnewargs__(self) -> tuple[tuple[tuple[int, ...], ...], str]:
        """What a copy or an unpickled board (a cluster's task) is made from: the rows and the scheme, which
        the rows alone, plain tuples then, do not carry."""
        return tuple(self), self.scheme


class TriBoard(Board, boards.TriBoard):
    """A three-colour Board: what Board(rows, scheme="tri") makes."""

    __slots__ = ()
    scheme = boards.TRI

    def __str__(self) -> str:
        return "\n".join(["scheme tri", *("".join(str(tile + 1) for tile in row) for row in self)])


BoardSource = str | Sequence[Sequence[int]] | Level
Target = Literal[0, 1, "0", "1", "white", "black", "either"]
Prefer = Literal["eric", "obvious"]


def as_level(board: BoardSource) -> Level:
    """Any board a function takes as the level the front end works on; a bare board is named "board"."""
    if isinstance(board, Level):
        if board.problem is not None:  # a malformed level of a book that read_book still gave
            raise InputError(f"{board.name}: {board.problem}")
        return board
    if isinstance(board, bytes | bytearray) or not isinstance(board, str | Iterable):
        kind = type(board).__name__
        raise InputError(f"board: expected a text, rows of tiles or a book's level, not {kind}")
    checked = Board.from_text(board) if isinstance(board, str) else Board(board)
    return Level("board", None, checked, None, "")


def read_book(source: str | os.PathLike[str], *, books: str | os.PathLike[str] | None = None) -> Book:
    """A book of levels: a shipped book by name ("daily", "main", "weekly"; from the folder books when
    given, as --books and UNFLIP_BOOKS do), or a book file in the game's JSON format. Its .levels count
    from 0; each level has .number (counting from 1, as the game does), .board, .par and .title.

    >>> level = read_book("daily").levels[4]
    >>> level.name, level.par == len(solve(level).moves)
    ('daily level 5', True)
    """
    loaded = load_source(file_name(source, "source"), None if books is None else file_name(books, "books"))
    if isinstance(loaded, Level):
        raise InputError(f"{loaded.name} is a board, not a book of levels")
    return loaded


def file_name(value: object, argument: str) -> str:
    """An argument that names a file or a folder: a str, or an os.PathLike of one."""
    name = os.fspath(value) if isinstance(value, str | os.PathLike) else None
    if not isinstance(name, str):
        raise InputError(f"{argument} must be a path (a str or an os.PathLike), not {type(value).__name__}")
    return name


def build_solver(on_build: OnBuild | None = None) -> Path:
    """The solver executable every search runs: $UNFLIP_SOLVER, or the one built from this package's
    source, compiled now if it is missing or older than its source. Every function calls it; calling it
    first moves the wait of a first build (about a minute) to a moment of your choosing."""
    return ensure_solver(on_build or quiet_build)


def solve(
    board: BoardSource,
    *,
    target: Target = 0,
    threads: int | None = None,
    max_seconds: float | None = None,
    max_nodes: int | None = None,
    on_progress: OnProgress | None = None,
    on_build: OnBuild | None = None,
    certificate: str | os.PathLike[str] | None = None,
) -> Solution | Unsolvable | Stopped:
    """One solution of the fewest moves, or why there is none: Unsolvable, or Stopped by the budget.
    With certificate, a file name: the solver's proof that no solution is shorter is written there too
    (gzipped when the name ends in .gz; docs/certificates.md), for a Solution; for Unsolvable, the proof
    that no moves reach the target.

    >>> solve([[1, 1], [1, 1]]).moves
    (Move(row=0, col=0, size=2),)
    >>> isinstance(solve([[1, 0], [0, 0]]), Unsolvable)
    True
    """
    settings = search_settings(target, threads, max_seconds, max_nodes)
    if certificate is None:
        return search(board, settings, solve_board, on_progress, on_build)
    return certified(board, settings, Path(file_name(certificate, "certificate")), on_progress, on_build)


def certified(
    board: BoardSource,
    settings: SolverSettings,
    path: Path,
    on_progress: OnProgress | None,
    on_build: OnBuild | None,
) -> Solution | Unsolvable | Stopped:
    """A solve whose certificate the solver writes into a private folder; it reaches path, atomically,
    only once the outcome is verified (a solution replayed, or no solution), so the file is whole or not
    there."""
    import gzip  # loaded only when it runs
    import tempfile

    writable_target(str(path), "the certificate")
    with tempfile.TemporaryDirectory(prefix="unflip-certificate-") as folder:
        written = Path(folder) / "certificate"
        asked = replace(settings, certificate=str(written))
        outcome = search(board, asked, solve_board, on_progress, on_build)
        if isinstance(outcome, Solution | Unsolvable):
            text = written.read_bytes()
            write_atomically(path, gzip.compress(text) if path.name.endswith(".gz") else text)
    return outcome


def all_solutions(
    board: BoardSource,
    *,
    target: Target = 0,
    threads: int | None = None,
    max_seconds: float | None = None,
    max_nodes: int | None = None,
    max_solutions: int | None = None,
    on_progress: OnProgress | None = None,
    on_build: OnBuild | None = None,
) -> Optima | Unsolvable | Stopped:
    """Every optimal solution, each a set of moves (sorted; moves commute, so no other order of the same
    moves is another solution), at most max_solutions of them: .complete says whether that is all.

    >>> found = all_solutions("00000\\n00010\\n00000\\n01000\\n00000\\n")
    >>> len(found.solutions), found.complete
    (2, True)
    >>> all_solutions("00000\\n00010\\n00000\\n01000\\n00000\\n", max_solutions=1).complete
    False
    """
    settings = search_settings(target, threads, max_seconds, max_nodes, True, max_solutions)
    outcome = search(board, settings, solve_board, on_progress, on_build)
    assert isinstance(outcome, Optima | Unsolvable | Stopped)  # enumerating, a solution is every one
    return outcome


def count_solutions(
    board: BoardSource,
    *,
    target: Target = 0,
    threads: int | None = None,
    max_seconds: float | None = None,
    max_nodes: int | None = None,
    max_solutions: int | None = None,
    on_progress: OnProgress | None = None,
    on_build: OnBuild | None = None,
) -> OptimaCount | Unsolvable | Stopped:
    """How many optimal solutions there are, counting no further than max_solutions. Each one counted is
    listed and replayed first, as the command line's --count does.

    >>> counted = count_solutions("00000\\n00010\\n00000\\n01000\\n00000\\n")
    >>> counted.count, counted.optimum, counted.unique
    (2, 8, False)
    """
    from .bound_and_count import OptimaCount  # loaded only when it runs

    found = all_solutions(
        board,
        target=target,
        threads=threads,
        max_seconds=max_seconds,
        max_nodes=max_nodes,
        max_solutions=max_solutions,
        on_progress=on_progress,
        on_build=on_build,
    )
    if not isinstance(found, Optima):
        return found
    optimum, count = len(found.moves), len(found.solutions)
    return OptimaCount(found.target, optimum, count, found.complete, found.nodes, found.seconds)


def signals(
    board: BoardSource,
    *,
    target: Target = 0,
    threads: int | None = None,
    max_seconds: float | None = None,
    max_nodes: int | None = None,
    max_solutions: int | None = None,
    on_progress: OnProgress | None = None,
    on_build: OnBuild | None = None,
) -> Signals | Unsolvable | Stopped:
    """How hard the level feels, by the game's own measures (docs/designer.md): the least and greatest Eric
    number and obvious score over its optimal solutions, the figures the game's editor shows, the root's
    lower bound and the gap to the optimum, and the board's symmetry and the game generator's figures.

    The optima are those all_solutions lists: when max_solutions or the budget stops the listing, the
    figures are over the optima listed (.complete is False, .over says so), and when the budget runs out
    before the optimum is proven, or before any optimum is listed, the result is Stopped. A capped listing
    on several threads is made again on one, as annotate makes it, so that which optima it holds, and every
    figure, is the same on every run.

    >>> found = signals("00000\\n00010\\n00000\\n01000\\n00000\\n")
    >>> found.optimum, found.optima, found.min_eric, found.eric_per_par, found.symmetry
    (8, 2, 10, 13, 'diagonals')
    """
    level = as_level(board)
    two_colour_only(level, ("signals", True))
    found, measured = listed_signals(
        level, target, threads, max_seconds, max_nodes, max_solutions, on_progress, on_build
    )
    if measured is None:
        assert not isinstance(found, Optima), "every listing of optima is measured"
        return found
    return measured


def listed_signals(
    level: Level,
    target: Target,
    threads: int | None,
    max_seconds: float | None,
    max_nodes: int | None,
    max_solutions: int | None,
    on_progress: OnProgress | None,
    on_build: OnBuild | None,
) -> tuple[Optima | Unsolvable | Stopped, Signals | None]:
    """The optima all_solutions lists, and the signals over them (None when it lists none). The listing is
    made again on one thread when max_solutions stopped it on several: the threads race, and which optima a
    capped listing holds varies with them; on one it is the same every time. The root's bound is read off
    the listing's own progress (solver.RootBound): no second solver run."""
    root = RootBound(on_progress or no_progress)

    def listing(threads: int | None) -> Optima | Unsolvable | Stopped:
        return all_solutions(
            level,
            target=target,
            threads=threads,
            max_seconds=max_seconds,
            max_nodes=max_nodes,
            max_solutions=max_solutions,
            on_progress=root,
            on_build=on_build,
        )

    found = listing(threads)
    if isinstance(found, Optima) and not found.complete and threads != 1:
        found = listing(1)
    if isinstance(found, Unsolvable) or not found.solutions:  # a Stopped listing may hold some
        return found, None
    # Racing both colours, the search starts at the lesser of their bounds; the figures are the winner's.
    bound = None if target == "either" else root.bound(len(found.solutions[0]))
    complete = isinstance(found, Optima) and found.complete
    measured = measured_optima(
        level, found.target, found.solutions, complete, on_build, found.nodes, found.seconds, bound
    )
    return found, measured


def measured_optima(
    board: BoardSource,
    target: int,
    solutions: Sequence[Sequence[Move]],
    complete: bool,
    on_build: OnBuild | None,
    nodes: int = 0,
    seconds: float = 0.0,
    bound: int | None = None,
) -> Signals:
    """The signals over optimal solutions of the board (every one when complete), with the root's lower
    bound: bound when the search that listed them gave it (solver.RootBound), else the solver's at once."""
    from .difficulty import level_signals  # loaded only when it runs

    level = as_level(board)
    optimum = len(solutions[0])
    if bound is None:
        from .bound_and_count import LowerBound  # loaded only when it runs

        asked = lower_bound(level, target=cast(Target, target), on_build=on_build)
        if not isinstance(asked, LowerBound):
            raise SolverError(
                f"the solver gave no lower bound at the start of a board it solved in {optimum} moves"
            )
        bound = asked.bound
    if bound > optimum:
        raise SolverError(f"the solver's lower bound at the start contradicts its optimum of {optimum} moves")
    return level_signals(level.board, target, solutions, complete, bound, nodes, seconds)


def hint(
    board: BoardSource,
    *,
    target: Target = 0,
    max_seconds: float | None = None,
    max_nodes: int | None = None,
    prefer: Prefer | None = None,
    on_progress: OnProgress | None = None,
    on_build: OnBuild | None = None,
) -> Hint | Solution | Unsolvable | Stopped:
    """One move of an optimal solution from the board as it is, and how many moves remain after it; the
    same board always gets the same hint (the search runs on one thread). A board already solved gets the
    Solution of no moves instead, and one without a solution Unsolvable or Stopped. With prefer ("eric" or
    "obvious"), the move the game's own hint rule picks, from every optimal solution (hints.py).

    >>> found = hint([[1, 1, 0], [1, 0, 1], [0, 1, 1]])
    >>> found.move, found.remaining
    (Move(row=0, col=0, size=2), 1)
    """
    from .hints import find_hint, hint_settings  # loaded only when it runs

    settings = search_settings(target, None, max_seconds, max_nodes)
    if prefer is not None and prefer not in PREFERENCES:
        raise InputError(f"prefer must be {' or '.join(map(repr, PREFERENCES))}, not {prefer!r}")
    two_colour_only(as_level(board), ("prefer", prefer is not None))
    asked = hint_settings(settings.target, max_seconds, max_nodes)
    return search(board, asked, partial(find_hint, prefer=prefer), on_progress, on_build)


def lower_bound(
    board: BoardSource, *, target: Target = 0, on_build: OnBuild | None = None
) -> LowerBound | Unsolvable | Stopped:
    """The solver's proven lower bound at the start, with no search: every solution needs at least .bound
    moves. Cheap on any board, and what a solver's progress starts from.

    >>> lower_bound([[1, 1, 0], [1, 0, 1], [0, 1, 1]]).bound
    2
    """
    settings = search_settings(target, None, None, None)
    level = as_level(board)
    return root_bound(build_solver(on_build), level.board, settings)


Found = TypeVar("Found")


def search(
    board: BoardSource,
    settings: SolverSettings,
    run: Callable[[Path, boards.Board, SolverSettings, OnProgress], Found],
    on_progress: OnProgress | None,
    on_build: OnBuild | None,
) -> Found:
    """One search of the board, the board checked before the solver is built."""
    level = as_level(board)
    two_colour_only(
        level,
        ("a target other than 0", settings.target != "0"),
        ("a certificate", bool(settings.certificate)),
    )
    return run(build_solver(on_build), level.board, settings, on_progress or no_progress)


def search_settings(
    target: Target,
    threads: int | None,
    max_seconds: float | None,
    max_nodes: int | None,
    all_solutions: bool = False,
    max_solutions: int | None = None,
) -> SolverSettings:
    """The options checked against the solver's limits, so a bad value is bad input, named as such, and not
    a solver that refused to start."""
    solver_target = None if isinstance(target, bool) else TARGETS.get(str(target))
    if solver_target is None:
        raise InputError(f"target must be 0, 1, 'white', 'black' or 'either', not {target!r}")
    check_count("threads", threads, MAX_THREADS)
    check_count("max_nodes", max_nodes, MAX_NODES)
    check_count("max_solutions", max_solutions, MAX_SOLUTIONS)
    if max_seconds is not None:
        low, high = SECONDS_RANGE
        number = type(max_seconds) in (int, float)
        if not (number and not math.isnan(max_seconds) and low <= max_seconds <= high):
            raise InputError(
                f"max_seconds must be a number of seconds from {low:g} to {high:g}, not {max_seconds!r}"
            )
    return SolverSettings(solver_target, threads, max_seconds, max_nodes, all_solutions, max_solutions)


def check_count(name: str, value: int | None, largest: int) -> None:
    if value is not None and (type(value) is not int or not 1 <= value <= largest):
        raise InputError(f"{name} must be a whole number from 1 to {largest}, not {value!r}")
