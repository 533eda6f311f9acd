"""The terminal side of the command layer: the two consoles, the one way to fail, progress display, and
what each command prints, as text or as --json records. With cli.py and stepper.py, the only code that
prints or exits; everything below them raises typed errors and returns outcomes, and here they become
output, one-line errors and exit statuses."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NoReturn, TypeVar

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
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
from .files import STANDARD_STREAM, write_atomically
from .generator import Plan, generate_book
from .hints import Hint, find_hint
from .protocol import Optima, SearchProgress, Solution, Stopped, Unsolvable, shortfall
from .records import (
    Record,
    all_record,
    error_record,
    hint_record,
    json_line,
    level_record,
    list_record,
    solution_records,
    solve_record,
)
from .render import (
    Glyphs,
    RowTable,
    board_cards,
    describe_level,
    glyphs_for,
    level_cells,
    solution_report,
    solution_summary,
    verified_line,
)
from .render_optima import OPTIMA_COLUMN_KEY, already_solved, count_cell, hint_card, optima_report
from .solver import STOP_SIGNALS, OnProgress, SolverSettings, StoppedBySignal, no_progress
from .stepper import interactive, step_through
from .verify import LevelCheck, check_level, solve_board, tally
from .walkthrough import walkthrough_html, walkthrough_svg

# Exit statuses, distinct so scripts (and CI) can tell "no answer exists" from "we could not find out".
EXIT_OK = 0
EXIT_FAILED = 1  # unsolvable board, or a failing level under --all
EXIT_INPUT = 2  # bad command line, book or board (click also uses 2 for usage errors)
EXIT_STOPPED = 3  # the time or node budget ran out first
EXIT_SOLVER = 4  # the solver could not be built, crashed, spoke garbage, or gave a wrong answer
EXIT_INTERRUPTED = 130  # the shell convention for death by SIGINT: 128 + the signal's number
EXIT_OUTPUT_CLOSED = 128 + signal.SIGPIPE  # 141: the reader of standard output went away (`| head`)


def interruption(cause: BaseException | None) -> tuple[str, int]:
    """What stopped a run, in words, and its exit status: Ctrl-C (130), or SIGTERM (143) or SIGHUP (129),
    each 128 + the signal's number as a shell reports it."""
    if isinstance(cause, StoppedBySignal):
        return f"stopped by {cause.name}", 128 + cause.number
    return "stopped at your request", EXIT_INTERRUPTED


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
        self.json = False  # --json: standard output carries records only, errors included

    def write(self, text: str) -> None:
        """Text exactly as it is (a book's JSON, a record), past rich, which would wrap and colour it."""
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


# The outcome an error record names for each exit status a failure can have.
ERROR_OUTCOMES = {
    EXIT_INPUT: "rejected",
    EXIT_SOLVER: "failed",
    **dict.fromkeys([EXIT_INTERRUPTED, *(128 + number for number in STOP_SIGNALS)], "interrupted"),
}


def emit(record: Record) -> None:
    """Write one --json record on standard output, whole, past rich (which would wrap and colour it)."""
    ui.write(json_line(record))


def fail(message: str, code: int = EXIT_INPUT, label: str = "error") -> NoReturn:
    """Print one line on standard error and exit: every failure the user sees goes through here. Under
    --json standard output gets the matching error record too."""
    if ui.json:
        emit(error_record(ERROR_OUTCOMES.get(code, "rejected"), message, code))
    leave(message, code, label)


def leave(message: str, code: int, label: str = "error") -> NoReturn:
    """fail() for a run whose record is already written: standard error is the same with or without
    --json."""
    ui.err.print(Text.assemble((f"{label}: ", "bold red"), message), soft_wrap=True)
    raise SystemExit(code)


def status_line(message: str) -> None:
    ui.err.print(Text(message, style="dim"), soft_wrap=True)


def announce_build(command: list[str]) -> None:
    status_line(f"building the solver: {' '.join(command)}")


class LeaveRoom:
    """A renderable drawn a few columns narrower than the console. A terminal echoes Ctrl-C as '^C' where
    the cursor is; at the end of a full line that wraps, and rich, clearing a live display, would then
    erase the wrong line and leave the display standing above what is printed next."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from console.render(self.renderable, options.update_width(max(1, options.max_width - 3)))


class LiveProgress(Progress):
    def get_renderables(self) -> Iterable[RenderableType]:
        yield LeaveRoom(self.make_tasks_table(self.tasks))


def progress_bar(glyphs: Glyphs, console: Console | None = None, shown: bool = True) -> Progress:
    """A bar over many solver runs, with elapsed and estimated remaining time; silent off a terminal. Its
    console draws it, so lines printed through the same console appear above it."""
    console = console or ui.err
    return LiveProgress(
        SpinnerColumn(glyphs.spinner),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not (shown and console.is_terminal),
        # Standard output is ours to print to: records and rows must never be routed to the bar's console.
        redirect_stdout=False,
        redirect_stderr=False,
    )


def per_second(nodes: int, seconds: float) -> str:
    rate = nodes / seconds if seconds > 0 else 0.0
    return f"{rate / 1e6:.1f}M nodes/s" if rate >= 1e6 else f"{rate:,.0f} nodes/s"


@contextlib.contextmanager
def solving_status(what: str, glyphs: Glyphs) -> Iterator[OnProgress]:
    """On a terminal: a spinner, the time so far, and, as the solver reports them, the bound being tried,
    the nodes searched and the nodes per second. Silence anywhere else (logs, pipes)."""
    if not ui.err.is_terminal:
        yield no_progress
        return
    started = time.monotonic()
    columns = (SpinnerColumn(glyphs.spinner), TextColumn("{task.description}"), TimeElapsedColumn())
    with LiveProgress(
        *columns, console=ui.err, transient=True, redirect_stdout=False, redirect_stderr=False
    ) as live:
        task = live.add_task(f"solving {what}", total=None)

        def on_progress(progress: SearchProgress) -> None:
            rate = per_second(progress.nodes, time.monotonic() - started)
            live.update(task, description=f"solving {what}: {progress}, {rate}")

        yield on_progress


# ---------------------------------------------------------------------------------------------------------
# What the commands do.
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class View:
    glyphs: Glyphs
    compact: bool
    json: bool = False  # records on standard output instead of text
    step: bool = False  # the cards one at a time, interactively, on a terminal
    svg: str | None = None  # files to write the walkthrough to
    html: str | None = None
    optima: str | None = None  # every optimal solution: "list" (--all-solutions) or "count" (--count)

    @property
    def data_on_stdout(self) -> bool:
        """Standard output carries data (records, or a picture for '-'), so no text goes there."""
        return self.json or STANDARD_STREAM in (self.svg, self.html)

    def one_solution_options(self) -> list[str]:
        """The options given that show a single solution, and so make no sense for a whole book."""
        given = (("--step", self.step), ("--svg", self.svg), ("--html", self.html))
        return [name for name, value in given if value]


def unsolved_status(outcome: Unsolvable | Stopped) -> tuple[str, int]:
    """The label and exit status of an outcome without a solution."""
    if isinstance(outcome, Stopped):
        return "stopped by budget", EXIT_STOPPED
    return "unsolvable", EXIT_FAILED


def unsolved_message(outcome: Unsolvable | Stopped) -> str:
    """What an outcome without a solution proves, and for a budget, what the search spent."""
    if isinstance(outcome, Stopped):
        return f"{shortfall(outcome)}; searched {outcome.nodes:,} nodes in {outcome.seconds:.2f} s"
    return shortfall(outcome)


def leave_unsolved(
    level: Level, settings: SolverSettings, outcome: Unsolvable | Stopped, view: View
) -> NoReturn:
    """End the run of a board without a solution: its record under --json, the line and exit status."""
    label, code = unsolved_status(outcome)
    if view.json:
        emit(solve_record(level, settings, outcome, code))
    leave(unsolved_message(outcome), code, label)


WALKTHROUGHS: tuple[tuple[str, Callable[[Level, Solution, list[Board]], str]], ...] = (
    ("svg", walkthrough_svg),
    ("html", walkthrough_html),
)


Found = TypeVar("Found")


def search_level(
    level: Level,
    settings: SolverSettings,
    view: View,
    search: Callable[[Path, Board, SolverSettings, OnProgress], Found],
) -> Found:
    """One search on a level's board: the solver built if need be, the level named first (not under
    --json), progress shown while it runs."""
    solver = ensure_solver(announce_build)
    if not view.data_on_stdout:
        ui.out.print(describe_level(level, view.glyphs), soft_wrap=True)
    with solving_status(level.name, view.glyphs) as on_progress:
        return search(solver, level.board, settings, on_progress)


def solve_single(level: Level, settings: SolverSettings, view: View) -> None:
    outcome = search_level(level, settings, view, solve_board)
    if not isinstance(outcome, Solution):
        leave_unsolved(level, settings, outcome, view)
    if isinstance(outcome, Optima):
        show_optima(level, settings, outcome, view)
        return
    boards = replay(level.board, outcome.moves)
    # Files before the record: a file that cannot be written fails the run, and the record must say so.
    streamed = False
    for attribute, draw in WALKTHROUGHS:
        path = getattr(view, attribute)
        if path == STANDARD_STREAM:
            ui.write(draw(level, outcome, boards))
            streamed = True
        elif path is not None:
            write_atomically(Path(path), draw(level, outcome, boards))
            status_line(f"wrote the walkthrough to {path}")
    if streamed:  # standard output holds the picture and nothing else
        return
    if view.json:
        emit(solve_record(level, settings, outcome, EXIT_OK))
    elif view.step and interactive(ui.out):
        ui.out.print(solution_summary(level, outcome, view.glyphs), Text(), sep="\n", soft_wrap=True)
        step_through(board_cards(outcome, boards, view.glyphs), ui.out, view.glyphs)
        ui.out.print(Text(), verified_line(outcome, view.glyphs), sep="\n", soft_wrap=True)
    else:
        for part in solution_report(level, outcome, boards, view.glyphs, view.compact):
            ui.out.print(part, soft_wrap=True)


def show_optima(level: Level, settings: SolverSettings, optima: Optima, view: View) -> None:
    listed = view.optima == "list"
    if view.json:
        if listed:
            for solution in solution_records(optima):
                emit(solution)
        emit(solve_record(level, settings, optima, EXIT_OK, listed))
        return
    for part in optima_report(level, optima, view.glyphs, listed):
        ui.out.print(part, soft_wrap=True)


def give_hint(level: Level, settings: SolverSettings, view: View) -> None:
    """One move of an optimal solution and the moves that remain after it, or why there is none."""
    found = search_level(level, settings, view, find_hint)
    if isinstance(found, Hint):
        if view.json:
            emit(hint_record(level, settings, found))
        else:
            ui.out.print(hint_card(found, level.board, view.glyphs), soft_wrap=True)
    elif isinstance(found, Solution):
        if view.json:
            emit(solve_record(level, settings, found, EXIT_OK))
        else:
            ui.out.print(already_solved(found.target), soft_wrap=True)
    else:
        leave_unsolved(level, settings, found, view)


def list_levels(book: Book, view: View) -> None:
    if view.json:
        emit(list_record(book))
        return
    table = RowTable(book.name, book.levels, view.glyphs)
    ui.out.print(table.head(), soft_wrap=True)
    for level in book.levels:
        ui.out.print(table.row([*level_cells(level, view.glyphs), level.title]), soft_wrap=True)
    ui.out.print(table.foot(), soft_wrap=True)


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
    """Solve every level, each row (or record) out as its level finishes. Ctrl-C keeps what is done: the
    rows so far, closed and summed up, then exit status 130."""
    solver = ensure_solver(announce_build)
    counted = view.optima == "count"
    table = RowTable(
        f"{book.name}: solving all {len(book.levels)} levels",
        book.levels,
        view.glyphs,
        ("moves", 10),
        *([("optima", 6)] if counted else []),
        ("time", 8),
    )
    if view.json:
        # Records never pass through rich, so a bar on the same terminal would tear them: none then.
        bar_console, bar_shown = ui.err, not ui.out.is_terminal
    else:
        ui.out.print(table.head(), soft_wrap=True)
        # Drawn by the console the rows go to when that is a terminal, so rich prints each row above it.
        bar_console, bar_shown = (ui.out if ui.out.is_terminal else ui.err), True
    checks: list[LevelCheck] = []
    failures: list[tuple[int, str]] = []
    try:
        with progress_bar(view.glyphs, bar_console, bar_shown) as bar:
            task = bar.add_task(book.name, total=len(book.levels))
            for level in book.levels:

                def on_progress(progress: SearchProgress, level: Level = level) -> None:
                    bar.update(task, description=f"{level.name}: {progress}")

                bar.update(task, description=level.name)
                check = check_level(solver, level, settings, on_progress)
                moves, failure = check_columns(check)
                if view.json:
                    error = None if check.error is None else str(check.error)
                    emit(level_record(level, check.outcome, error, failure))
                else:
                    seconds = "-" if check.outcome is None else f"{check.outcome.seconds:.3f}s"
                    cells: list[str | Text] = [*level_cells(level, view.glyphs)]
                    cells.append(Text(moves, style="red" if failure else ""))
                    if counted:
                        cells.append(count_cell(check.outcome) if isinstance(check.outcome, Optima) else "-")
                    ui.out.print(table.row([*cells, seconds, level.title]), soft_wrap=True)
                # Counted once shown, so a Ctrl-C in between cannot sum up a level the table lacks.
                checks.append(check)
                if failure:
                    failures.append((len(checks), failure))  # levels run in order: this is its number
                bar.advance(task)
        interrupted = None
    except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM or SIGHUP: the levels done are kept
        interrupted = stop
    summarise_all(book, checks, failures, interrupted, table, view)


def summarise_all(
    book: Book,
    checks: list[LevelCheck],
    failures: list[tuple[int, str]],
    interrupted: KeyboardInterrupt | None,
    table: RowTable,
    view: View,
) -> None:
    tallied = tally(checks)
    why, code = interruption(interrupted)
    if interrupted is not None:
        outcome = "interrupted"
    else:
        outcome, code = ("failed", EXIT_FAILED) if failures else ("passed", EXIT_OK)
    if view.json:
        emit(all_record(book, tallied, [number for number, _ in failures], outcome, code))
    else:
        ui.out.print(table.foot(), soft_wrap=True)
        ui.out.print(f"total solver time: {tallied.seconds:.2f}s", soft_wrap=True)
        if view.optima == "count":
            ui.out.print(OPTIMA_COLUMN_KEY, soft_wrap=True)
        if tallied.with_par:
            ui.out.print(
                f"par matched on {tallied.at_par} of {tallied.with_par} levels with a par", soft_wrap=True
            )
    if interrupted is not None:
        leave(f"{why} after {len(checks)} of {len(book.levels)} levels", code, "interrupted")
    if failures:
        named = "; ".join(f"level {number} ({failure})" for number, failure in failures)
        leave(f"{len(failures)} of {len(checks)} levels failed: {named}", code)
    if not view.json:
        ui.out.print(
            Text(f"{view.glyphs.check}All {len(checks)} levels solved and verified", style="green"),
            soft_wrap=True,
        )


def make_book(plans: tuple[Plan, ...], seen: set[Board], threads: int | None) -> str:
    solver = ensure_solver(announce_build)
    settings = SolverSettings("0", threads, None, None)
    with progress_bar(ui.glyphs()) as bar:
        task = bar.add_task(f"generating {plans[0].kind} levels", total=sum(plan.count for plan in plans))
        return generate_book(plans, solver, settings, seen, lambda _index: bar.advance(task))
