"""The terminal side of the command layer: the two consoles, the one way to fail, progress display, and
what each command prints. With cli.py, the only code that prints or exits; everything below them raises
typed errors and returns outcomes, and here they become output, one-line errors and exit statuses."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, NoReturn

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from .boards import Board, moves_word, replay
from .books import Book, Level
from .build import ensure_solver
from .generator import Plan, book_json, generate_levels
from .protocol import SearchProgress, Solution, Stopped, Unsolvable, shortfall
from .render import Glyphs, describe_level, glyphs_for, level_cells, level_table, solution_report
from .solver import OnProgress, SolverSettings, no_progress
from .verify import LevelCheck, check_level, solve_board

# Exit statuses, distinct so scripts (and CI) can tell "no answer exists" from "we could not find out".
EXIT_OK = 0
EXIT_FAILED = 1  # unsolvable board, or a failing level under --all
EXIT_INPUT = 2  # bad command line, book or board (click also uses 2 for usage errors)
EXIT_STOPPED = 3  # the time or node budget ran out first
EXIT_SOLVER = 4  # the solver could not be built, crashed, spoke garbage, or gave a wrong answer
EXIT_INTERRUPTED = 130  # the shell convention for death by SIGINT: 128 + the signal's number
EXIT_OUTPUT_CLOSED = 128 + signal.SIGPIPE  # 141: the reader of standard output went away (`| head`)


def signal_status(number: int) -> int:
    """The exit status of a run a signal stopped: 129 for SIGHUP, 143 for SIGTERM, as a shell reports them."""
    return 128 + number


# ---------------------------------------------------------------------------------------------------------
# Output: one console for results, one for errors and progress, and the single way to give up.
# ---------------------------------------------------------------------------------------------------------


class PipeConsole(Console):
    """A console that, when its reader goes away, ends the run as a shell expects of `... | head`."""

    def on_broken_pipe(self) -> None:
        output_closed(self.file)


def output_closed(stream: IO[str]) -> NoReturn:
    """Stop quietly with the status of a program SIGPIPE ended, the stream now pointing at /dev/null so the
    interpreter's last flush has nowhere to fail."""
    with contextlib.suppress(OSError, ValueError):  # a stream with no file descriptor (tests) needs none
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    raise SystemExit(EXIT_OUTPUT_CLOSED)


class Output:
    """The two consoles. They are rebuilt for every invocation because rich reads the terminal and the
    colour environment (NO_COLOR, FORCE_COLOR) when a console is created, and tests invoke many times."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.out = PipeConsole(highlight=False)
        self.err = PipeConsole(stderr=True, highlight=False)

    def write(self, text: str) -> None:
        """Text exactly as it is (a book's JSON), not through rich."""
        try:
            self.out.file.write(text)
            self.out.file.flush()
        except BrokenPipeError:
            output_closed(self.out.file)

    def disable_colour(self) -> None:
        self.out.no_color = self.err.no_color = True

    def glyphs(self, ascii_: bool = False) -> Glyphs:
        return glyphs_for(self.out.encoding, ascii_)


ui = Output()


def fail(message: str, code: int = EXIT_INPUT, label: str = "error") -> NoReturn:
    """Print one line on standard error and exit: every failure the user sees goes through here."""
    ui.err.print(Text.assemble((f"{label}: ", "bold red"), message), soft_wrap=True)
    raise SystemExit(code)


def status_line(message: str) -> None:
    ui.err.print(Text(message, style="dim"), soft_wrap=True)


def announce_build(command: list[str]) -> None:
    status_line(f"building the solver: {' '.join(command)}")


def progress_bar(glyphs: Glyphs) -> Progress:
    """A bar over many solver runs, with elapsed and estimated remaining time; silent off a terminal."""
    return Progress(
        SpinnerColumn(glyphs.spinner),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=ui.err,
        transient=True,
        disable=not ui.err.is_terminal,
    )


@contextlib.contextmanager
def solving_status(what: str, glyphs: Glyphs) -> Iterator[OnProgress]:
    """A live spinner with the bound and node count on a terminal; silence anywhere else (logs, pipes)."""
    if not ui.err.is_terminal:
        yield no_progress
        return
    with ui.err.status(Text(f"solving {what}"), spinner=glyphs.spinner) as status:
        yield lambda progress: status.update(Text(f"solving {what}: {progress}"))


# ---------------------------------------------------------------------------------------------------------
# What the commands do.
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class View:
    glyphs: Glyphs
    compact: bool


def unsolved_status(outcome: Unsolvable | Stopped) -> tuple[str, int]:
    """The label and exit status of an outcome without a solution."""
    if isinstance(outcome, Stopped):
        return "stopped by budget", EXIT_STOPPED
    return "unsolvable", EXIT_FAILED


def solve_single(level: Level, settings: SolverSettings, view: View) -> None:
    solver = ensure_solver(announce_build)
    ui.out.print(describe_level(level, view.glyphs), soft_wrap=True)
    with solving_status(level.name, view.glyphs) as on_progress:
        outcome = solve_board(solver, level.board, settings, on_progress)
    if not isinstance(outcome, Solution):
        label, code = unsolved_status(outcome)
        fail(shortfall(outcome), code, label)
    boards = replay(level.board, outcome.moves)
    for part in solution_report(level, outcome, boards, view.glyphs, view.compact):
        ui.out.print(part, soft_wrap=True)


def list_levels(book: Book, view: View) -> None:
    table = level_table(book.name, view.glyphs)
    for level in book.levels:
        table.add_row(*level_cells(level, view.glyphs), Text(level.title))
    ui.out.print(table)


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


def solve_all(book: Book, settings: SolverSettings, view: View) -> None:
    solver = ensure_solver(announce_build)
    checks = []
    with progress_bar(view.glyphs) as bar:
        task = bar.add_task(book.name, total=len(book.levels))
        for level in book.levels:

            def on_progress(progress: SearchProgress, level: Level = level) -> None:
                bar.update(task, description=f"{level.name}: {progress}")

            bar.update(task, description=level.name)
            checks.append(check_level(solver, level, settings, on_progress))
            bar.advance(task)

    table = level_table(f"{book.name}: solving all {len(book.levels)} levels", view.glyphs, "moves", "time")
    failures = []
    for check in checks:
        moves, failure = check_columns(check)
        seconds = None if check.outcome is None else check.outcome.seconds
        table.add_row(
            *level_cells(check.level, view.glyphs),
            Text(moves, style="red" if failure else ""),
            "-" if seconds is None else f"{seconds:.3f}s",
            Text(check.level.title),
        )
        if failure:
            failures.append(f"level {check.level.number} ({failure})")
    ui.out.print(table)
    with_par = [check for check in checks if check.level.par is not None]
    total_time = sum(check.outcome.seconds for check in checks if check.outcome is not None)
    ui.out.print(f"total solver time: {total_time:.2f}s", soft_wrap=True)
    if with_par:
        matched = sum(1 for check in with_par if check.at_par)
        ui.out.print(f"par matched on {matched} of {len(with_par)} levels with a par", soft_wrap=True)
    if failures:
        fail(f"{len(failures)} of {len(checks)} levels failed: {'; '.join(failures)}", EXIT_FAILED)
    ui.out.print(
        Text(f"{view.glyphs.check}All {len(checks)} levels solved and verified", style="green"),
        soft_wrap=True,
    )


def make_book(plan: Plan, seen: set[Board], threads: int | None) -> str:
    solver = ensure_solver(announce_build)
    settings = SolverSettings("0", threads, None, None)
    with progress_bar(ui.glyphs()) as bar:
        task = bar.add_task(f"generating {plan.kind} levels", total=plan.count)
        levels = generate_levels(plan, solver, settings, seen, lambda _index: bar.advance(task))
    return book_json(plan, levels)
