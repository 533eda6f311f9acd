"""`unflip report`: how hard each level of a book feels, by the game's own difficulty signals over every
optimal solution (difficulty.py), as a table on the terminal, JSON records, a sheet (--csv) and a page a
designer looks at (--html, report_page.py, imported only when asked for). Each level is measured by one
search (api.signals); a level without figures (unsolvable, malformed, stopped by the budget, or the solver
failing on it) is said to be so, and the others are measured all the same."""

from __future__ import annotations

import csv
import io
import itertools
import threading
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from rich.console import Console
from rich.text import Text

from . import api
from .boards import shape
from .books import Book, Level
from .commands import book_outcome, end_book_run
from .difficulty import FIGURES, SOLUTION_FIELDS, Signals, curve_breaks, figure_named, signals_object
from .errors import SolverError
from .files import STANDARD_STREAM, write_atomically
from .outputs import Records as RecordStream
from .outputs import Stream
from .protocol import SearchProgress, Stopped, Unsolvable, shortfall
from .records import Record, json_line, report_record, reported_record
from .render import Glyphs, RowTable, level_cells
from .solver import RUNNING
from .terminal import Terminal, progress_bar

MEASURED = "measured"
# A level without figures, by why, and whose failure that is (commands.FAILURE_HEADINGS): the book's, the
# solver's or the budget's.
UNMEASURED = {"unsolvable": "book", "malformed": "book", "failed": "solver", "stopped": "budget"}


@dataclass(frozen=True)
class Measured:
    """One level of a report: its signals, or why it has none."""

    level: Level
    outcome: str  # MEASURED, or a key of UNMEASURED
    signals: Signals | None = None
    note: str = ""  # why there are no figures, in words

    @property
    def place(self) -> int:
        """The level's number in its book; a lone board is a book of one."""
        return self.level.number or 1


@dataclass(frozen=True)
class ReportSettings:
    threads: int | None
    max_seconds: float | None
    max_solutions: int | None


def measure(
    level: Level, settings: ReportSettings, on_progress: api.OnProgress, terminal: Terminal
) -> Measured:
    """A level's signals over its optimal solutions, or why it has none."""
    if level.problem is not None:
        return Measured(level, "malformed", note=level.problem)
    try:
        found = api.signals(
            level,
            threads=settings.threads,
            max_seconds=settings.max_seconds,
            max_solutions=settings.max_solutions,
            on_progress=on_progress,
            on_build=terminal.announce_build,
        )
    except SolverError as exc:
        return Measured(level, "failed", note=str(exc))
    if isinstance(found, Unsolvable):
        return Measured(level, "unsolvable", note=shortfall(found))
    if isinstance(found, Stopped):
        return Measured(level, "stopped", note=shortfall(found))
    return Measured(level, MEASURED, found)


@dataclass(frozen=True)
class Report:
    """The levels measured, in the book's order (fewer than the book's when the run was interrupted)."""

    name: str
    total: int  # levels in the book
    rows: tuple[Measured, ...]

    def values(self, figure_name: str) -> list[int | None]:
        figure = figure_named(figure_name)
        return [None if row.signals is None else figure.value(row.signals) for row in self.rows]

    @cached_property
    def breaks(self) -> dict[str, tuple[int, ...]]:
        """For each figure, the numbers of the levels that break its curve (difficulty.py)."""
        return {
            figure.name: tuple(self.rows[index].place for index in curve_breaks(self.values(figure.name)))
            for figure in FIGURES
        }

    def breaking(self, row: Measured) -> tuple[str, ...]:
        """The figures whose curve a level breaks."""
        return tuple(name for name, places in self.breaks.items() if row.place in places)

    @property
    def unmeasured(self) -> dict[str, list[int]]:
        """For each reason a level can have no figures (UNMEASURED), the numbers of the levels with it."""
        return {why: [row.place for row in self.rows if row.outcome == why] for why in UNMEASURED}

    @property
    def seconds(self) -> float:
        """The solver's time over the levels measured."""
        return round(sum(row.signals.seconds for row in self.rows if row.signals is not None), 3)


def par_cell(row: Measured) -> str:
    """The proven optimum, the par a level should have; '*' when the book's par is another."""
    if row.signals is None:
        return "-"
    optimum = row.signals.optimum
    return f"{optimum}*" if row.level.par not in (None, optimum) else str(optimum)


def optima_cell(row: Measured) -> str:
    """How many optima the figures are over ('+' when there may be more), or why a level has none."""
    if row.signals is None:
        return "error" if row.outcome == "failed" else row.outcome
    return f"{row.signals.optima}{'' if row.signals.complete else '+'}"


class View(ABC):
    """What standard output shows of a report."""

    def __init__(self, terminal: Terminal, glyphs: Glyphs) -> None:
        self.terminal, self.glyphs = terminal, glyphs

    @abstractmethod
    def begin(self, book: Book) -> tuple[Console, bool]:
        """The report starts: the console its progress bar is drawn by, and whether it is shown at all."""

    @abstractmethod
    def measured(self, row: Measured) -> None:
        """A level is measured, or found to have no figures."""

    @abstractmethod
    def end(self, report: Report, outcome: str, code: int) -> None:
        """Every level is done (or the run interrupted): the curve's breaks, the exit status."""


class Table(View):
    """A row per level as it is measured, under the progress bar; then the levels that break a curve."""

    table: RowTable

    COLUMNS = (("optima", 10), ("minEric", 7), ("obv×100", 7), ("gap", 3), ("time", 8))

    def begin(self, book: Book) -> tuple[Console, bool]:
        self.table = RowTable(
            f"{book.name}: how hard each level feels", book.levels, self.glyphs, *self.COLUMNS
        )
        self.terminal.show(self.table.head())
        out = self.terminal.out
        return (out if out.is_terminal else self.terminal.err), True

    def measured(self, row: Measured) -> None:
        _, size, _ = level_cells(row.level, self.glyphs)
        signals = row.signals
        figures = (
            ["-"] * 3
            if signals is None
            else [str(signals.min_eric), str(signals.obvious_100), str(signals.gap)]
        )
        seconds = "-" if signals is None else f"{signals.seconds:.3f}s"
        unmeasured = row.outcome != MEASURED
        cells: list[str | Text] = [
            str(row.place),
            size,
            par_cell(row),
            Text(optima_cell(row), style="red" if unmeasured else ""),
            *figures,
            seconds,
            row.level.title,
        ]
        self.terminal.show(self.table.row(cells))

    def end(self, report: Report, outcome: str, code: int) -> None:
        lines: list[str | Text] = [self.table.foot(), f"total solver time: {report.seconds:.2f}s"]
        key = "par: the proven optimum; optima: the optimal solutions the figures are over"
        if any(row.signals is not None and not row.signals.complete for row in report.rows):
            key += " ('+': the listing stopped, there may be more)"
        if any(par_cell(row).endswith("*") for row in report.rows):
            key += "; *: the book's par is another"
        lines.append(key)
        for figure in FIGURES:
            places = report.breaks[figure.name]
            if places:
                levels = f"level{'s' * (len(places) > 1)} {', '.join(map(str, places))}"
                lines.append(Text.assemble((f"{figure.heading} curve broken by ", "bold"), levels))
        if not any(report.breaks.values()) and report.rows:
            lines.append("no level breaks a curve")
        self.terminal.show(*lines)


class Records(View):
    """--json: a record per level as it is measured, then the report's, which carries the exit status."""

    def emit(self, record: Record) -> None:
        self.terminal.write(json_line(record))

    def begin(self, book: Book) -> tuple[Console, bool]:
        # Records never pass through rich, so a bar on the same terminal would tear them: none then.
        return self.terminal.err, not self.terminal.out.is_terminal

    def measured(self, row: Measured) -> None:
        self.emit(reported_record(row))

    def end(self, report: Report, outcome: str, code: int) -> None:
        self.emit(report_record(report, outcome, code))


class Sheet(View):
    """A file's text alone on standard output (--csv -, --html -), once every level is done."""

    def __init__(self, terminal: Terminal, glyphs: Glyphs, draw: Callable[[Report], str]) -> None:
        super().__init__(terminal, glyphs)
        self.draw = draw

    def begin(self, book: Book) -> tuple[Console, bool]:
        return self.terminal.err, True

    def measured(self, row: Measured) -> None:
        """Nothing until the end."""

    def end(self, report: Report, outcome: str, code: int) -> None:
        if outcome != "interrupted":
            self.terminal.write(self.draw(report))


# The sheet's columns past the level's own, as signals_object names them: the figures, not the solutions,
# nor the target, which a report does not vary.
SHEET_FIELDS = tuple(
    name for name in Signals.__dataclass_fields__ if name not in (*SOLUTION_FIELDS, "target")
)


def sheet_cell(value: object) -> object:
    """A figure as the sheet shows it: true and false as JSON writes them, nothing for none."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else value


def sheet_csv(report: Report) -> str:
    """One row per level: its number, title, shape and the book's par, what became of it, its figures
    (empty without them) and the curves it breaks."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["level", "title", "height", "width", "book_par", "outcome", *SHEET_FIELDS, "breaks"])
    for row in report.rows:
        height, width = shape(row.level.board) if row.level.board else ("", "")
        fields = {} if row.signals is None else signals_object(row.signals)
        writer.writerow(
            [
                row.place,
                row.level.title,
                height,
                width,
                "" if row.level.par is None else row.level.par,
                row.outcome,
                *(sheet_cell(fields.get(name)) for name in SHEET_FIELDS),
                " ".join(report.breaking(row)),
            ]
        )
    return text.getvalue()


def page_html(report: Report) -> str:
    from .report_page import report_page  # the page's writer is loaded only when a page is asked for

    return report_page(report)


# Each file a report can be written to: its option, and what it holds.
DRAWINGS: dict[str, Callable[[Report], str]] = {"--csv": sheet_csv, "--html": page_html}


def choose_view(stream: Stream, files: dict[str, str | None]) -> View:
    """Standard output's view: records with --json, a file's text when its option names '-', else the
    table."""
    if isinstance(stream, RecordStream):
        return Records(stream.terminal, stream.glyphs)
    streamed = [option for option, path in files.items() if path == STANDARD_STREAM]
    if streamed:
        return Sheet(stream.terminal, stream.glyphs, DRAWINGS[streamed[0]])
    return Table(stream.terminal, stream.glyphs)


# Levels measured at once. Most levels of a book take a few milliseconds of search, less than starting the
# solver and computing the figures in Python: two at a time keep both cores busy (bench/report.py).
WORKERS = 2


def measured_levels(
    book: Book, settings: ReportSettings, view: View, terminal: Terminal
) -> Iterator[Measured]:
    """Each level measured, WORKERS at a time, and given in the book's order, under a progress bar naming
    the level being searched. However the caller stops, no solver is left running: those still searching
    are cut off, and their threads waited for."""
    console, shown = view.begin(book)
    with progress_bar(view.glyphs, console, shown) as bar, ThreadPoolExecutor(WORKERS) as pool:
        task = bar.add_task(book.name, total=len(book.levels))

        stopping = threading.Event()

        def measured(level: Level) -> Measured | None:
            if stopping.is_set():  # the run is over: no new search
                return None

            def on_progress(progress: SearchProgress) -> None:
                bar.update(task, description=f"{level.name}: {progress}")

            bar.update(task, description=level.name)
            return measure(level, settings, on_progress, terminal)

        levels = iter(book.levels)
        pending = deque(pool.submit(measured, level) for level in itertools.islice(levels, WORKERS))
        try:
            while pending:
                row = pending[0].result()  # still pending while it waits, so a stop cuts its search off
                pending.popleft()
                assert row is not None, "only a stopped run skips a level"
                pending.extend(pool.submit(measured, level) for level in itertools.islice(levels, 1))
                yield row
                bar.advance(task)
        finally:
            # A search a worker was starting as the run stopped is cut off on the next round.
            stopping.set()
            while not all(future.cancel() or future.done() for future in pending):
                for watch in list(RUNNING.values()):  # only this run's searches are running
                    watch.cut_off("the report was stopped")
                wait(pending, timeout=0.05)


def report_book(book: Book, settings: ReportSettings, stream: Stream, files: dict[str, str | None]) -> None:
    """Measure every level, each shown as it is done; then the files asked for, and the run's end: its exit
    status the first of 4 (the solver failed on a level), 1 (a level unsolvable or malformed), 3 (a budget
    stopped a level) that applies, else 0. Ctrl-C keeps the rows shown, closes the table and writes no
    file."""
    terminal = stream.terminal
    api.build_solver(terminal.announce_build)
    view = choose_view(stream, files)
    rows: list[Measured] = []
    interrupted = None
    try:
        for row in measured_levels(book, settings, view, terminal):
            view.measured(row)
            rows.append(row)  # kept once shown, so a Ctrl-C in between cannot count a level not shown
    except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM or SIGHUP: the levels done are kept
        interrupted = stop
    report = Report(book.name, len(book.levels), tuple(rows))
    failed = [
        (UNMEASURED[row.outcome], f"level {row.place} ({row.outcome}: {row.note})")
        for row in rows
        if row.outcome != MEASURED
    ]
    outcome, code = book_outcome(interrupted, {kind for kind, _ in failed})
    written = []  # said after the table, but written before its end: a file that cannot be is the run's end
    if interrupted is None:
        for option, path in files.items():
            if path not in (None, STANDARD_STREAM):
                write_atomically(Path(path), DRAWINGS[option](report))
                written.append(f"wrote the report's {option[2:]} to {path}")
    view.end(report, outcome, code)
    for line in written:
        terminal.status(line)
    end_book_run(terminal, interrupted, len(rows), len(book.levels), failed, code)
