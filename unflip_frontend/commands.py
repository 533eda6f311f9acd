"""What each command does, as a client of the public API (api.py): the search, and its result through the
outputs the run chose (outputs.py). Here the run's settings become the API's options, an --all keeps going
past a level the solver failed on, and Ctrl-C keeps what --all has done."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING, cast

from . import api
from .boards import Board, moves_word, replay
from .books import Book, Level
from .build import OnBuild
from .errors import SolverError
from .generator import Plan, generate_book
from .outputs import Outputs, Stream, unsolved_status
from .protocol import Optima, Outcome, Solution, Stopped, Unsolvable, shortfall
from .solver import OnProgress, SolverSettings
from .terminal import EXIT_FAILED, EXIT_OK, Terminal, interruption, progress_bar, solving_status
from .verify import LevelCheck, tally

if TYPE_CHECKING:  # Dask is an optional extra: cluster.py is imported only when --dask asks for it
    from .cluster import Cluster


def search(level: Level, settings: SolverSettings, on_progress: OnProgress, on_build: OnBuild) -> Outcome:
    """The search the settings ask for: one optimal solution, or every one (up to their cap)."""
    target = cast(api.Target, settings.target)  # one of the solver's words, which the API takes as they are
    if settings.all_solutions:
        return api.all_solutions(
            level,
            target=target,
            threads=settings.threads,
            max_seconds=settings.max_seconds,
            max_nodes=settings.max_nodes,
            max_solutions=settings.max_solutions,
            on_progress=on_progress,
            on_build=on_build,
        )
    return api.solve(
        level,
        target=target,
        threads=settings.threads,
        max_seconds=settings.max_seconds,
        max_nodes=settings.max_nodes,
        on_progress=on_progress,
        on_build=on_build,
    )


def solve_single(
    level: Level, settings: SolverSettings, outputs: Outputs, listed: bool, cluster: Cluster | None = None
) -> None:
    """One level: its solution, or with settings.all_solutions, every optimal solution (listed) or their
    count; on the cluster when one is given."""
    stream = outputs.stream
    # Built before the level is named, so a build that fails leaves standard output empty.
    api.build_solver(stream.terminal.announce_build)
    stream.searching(level)
    with solving_status(level.name, stream.glyphs, stream.terminal.err) as on_progress:
        if cluster is None:
            outcome = search(level, settings, on_progress, stream.terminal.announce_build)
        else:
            budget = (settings.max_seconds, settings.max_nodes)
            outcome = cluster.solve(level.board, settings.target, *budget, on_progress)
    if not isinstance(outcome, Solution):
        stream.unsolved(level, settings, outcome)
    if isinstance(outcome, Optima):
        stream.optima(level, settings, outcome, listed)
    else:
        outputs.solved(level, settings, outcome, replay(level.board, outcome.moves))


def give_hint(level: Level, settings: SolverSettings, stream: Stream) -> None:
    """One move of an optimal solution and the moves that remain after it, or why there is none."""
    api.build_solver(stream.terminal.announce_build)
    stream.searching(level)
    with solving_status(level.name, stream.glyphs, stream.terminal.err) as on_progress:
        found = api.hint(
            level,
            target=cast(api.Target, settings.target),
            max_seconds=settings.max_seconds,
            max_nodes=settings.max_nodes,
            on_progress=on_progress,
            on_build=stream.terminal.announce_build,
        )
    if isinstance(found, api.Hint):
        stream.hinted(level, settings, found)
    elif isinstance(found, Solution):
        stream.already_solved(level, settings, found)
    else:
        stream.unsolved(level, settings, found)


def check_level(level: Level, searched: Callable[[], Outcome]) -> LevelCheck:
    """A level of --all: its verified outcome (what `searched` returns: here, or from a cluster), or the
    solver failure that leaves it without one and the run going on to the next."""
    try:
        return LevelCheck(level, searched(), None)
    except SolverError as exc:
        return LevelCheck(level, None, exc)


def check_columns(check: LevelCheck) -> tuple[str, str | None]:
    """What the moves column shows for a checked level, and why the level fails the run (None if not)."""
    outcome = check.outcome
    if outcome is None:
        return "error", str(check.error)
    if isinstance(outcome, Unsolvable):
        return "unsolvable", "unsolvable"
    if isinstance(outcome, Stopped):
        return "stopped", f"{unsolved_status(outcome)[0]}, {shortfall(outcome)}"
    count = len(outcome.moves)
    return str(count), None if check.at_par else f"{moves_word(count)}, par {check.level.par}"


def solve_all(
    book: Book, settings: SolverSettings, stream: Stream, counted: bool, cluster: Cluster | None = None
) -> None:
    """Solve every level, each row (or record) out as its level finishes; counted, how many optimal
    solutions each has too. On a cluster, the levels are its tasks, one a level, and the rows come in the
    book's order. Ctrl-C keeps what is done: the rows so far, closed and summed up, then exit status 130."""
    api.build_solver(stream.terminal.announce_build)
    bar_console, bar_shown = stream.checking(book, counted)
    checks: list[LevelCheck] = []
    failures: list[tuple[int, str]] = []
    try:
        with progress_bar(stream.glyphs, bar_console, bar_shown) as bar:
            task = bar.add_task(book.name, total=len(book.levels))

            def searches_here() -> Iterator[tuple[Level, Callable[[], Outcome]]]:
                for level in book.levels:

                    def on_progress(progress: api.SearchProgress, level: Level = level) -> None:
                        bar.update(task, description=f"{level.name}: {progress}")

                    bar.update(task, description=level.name)
                    yield level, partial(search, level, settings, on_progress, stream.terminal.announce_build)

            searches = searches_here() if cluster is None else cluster.searches(book.levels, settings)
            for level, searched in searches:
                check = check_level(level, searched)
                moves, failure = check_columns(check)
                stream.checked(check, moves, failure, counted)
                # Counted once shown, so a Ctrl-C in between cannot sum up a level the table lacks.
                checks.append(check)
                if failure:
                    failures.append((len(checks), failure))  # levels run in order: this is its number
                bar.advance(task)
        interrupted = None
    except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM or SIGHUP: the levels done are kept
        interrupted = stop
    summarise_all(book, checks, failures, interrupted, stream, counted)


def summarise_all(
    book: Book,
    checks: list[LevelCheck],
    failures: list[tuple[int, str]],
    interrupted: KeyboardInterrupt | None,
    stream: Stream,
    counted: bool,
) -> None:
    tallied = tally(checks)
    why, code = interruption(interrupted)
    if interrupted is not None:
        outcome = "interrupted"
    else:
        outcome, code = ("failed", EXIT_FAILED) if failures else ("passed", EXIT_OK)
    stream.summed_up(book, tallied, [number for number, _ in failures], outcome, code, counted)
    if interrupted is not None:
        stream.terminal.leave(f"{why} after {len(checks)} of {len(book.levels)} levels", code, "interrupted")
    if failures:
        named = "; ".join(f"level {number} ({failure})" for number, failure in failures)
        stream.terminal.leave(f"{len(failures)} of {len(checks)} levels failed: {named}", code)
    stream.passed(len(checks))


def make_book(plans: tuple[Plan, ...], seen: set[Board], threads: int | None, terminal: Terminal) -> str:
    solver = api.build_solver(terminal.announce_build)
    settings = SolverSettings("0", threads, None, None)
    with progress_bar(terminal.glyphs(), terminal.err) as bar:
        task = bar.add_task(f"generating {plans[0].kind} levels", total=sum(plan.count for plan in plans))
        return generate_book(plans, solver, settings, seen, lambda _index: bar.advance(task))
