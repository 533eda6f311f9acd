"""Every output a run can be asked for, in one registry: the stream formats, each a class that decides what
standard output shows of every result (the step cards, --compact, --step, --json), and the file formats,
each a function that draws the walkthrough for a file (--svg, --html). The command layer chooses the
formats once, from the options, and sends every result through them; nothing else asks which is on."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from rich.console import Console
from rich.text import Text

from .boards import Board, moves_word
from .books import Book, Level
from .errors import InputError
from .files import STANDARD_STREAM, write_atomically
from .protocol import Optima, Solution, Stopped, Unsolvable, shortfall
from .records import (
    Record,
    all_record,
    annotate_record,
    annotated_record,
    error_record,
    generate_record,
    hint_record,
    json_line,
    level_record,
    list_record,
    share_record,
    solution_records,
    solve_record,
)
from .render import (
    Glyphs,
    RowTable,
    board_cards,
    describe_level,
    level_cells,
    solution_report,
    solution_summary,
    verified_line,
)
from .render_optima import (
    OPTIMA_COLUMN_KEY,
    already_solved,
    count_cell,
    hint_card,
    optima_report,
    signals_report,
)
from .solver import SolverSettings
from .terminal import ERROR_OUTCOMES, EXIT_FAILED, EXIT_OK, EXIT_STOPPED, Terminal

if TYPE_CHECKING:
    from .annotate import LevelAudit
    from .difficulty import Signals
    from .hints import Hint
    from .level_checks import Failure, LevelCheck, Tally


def unsolved_status(outcome: Unsolvable | Stopped) -> tuple[str, int]:
    """The label and exit status of an outcome without a solution."""
    if isinstance(outcome, Stopped):
        return "stopped by budget", EXIT_STOPPED
    return "unsolvable", EXIT_FAILED


def annotation_summary(audits: list[LevelAudit]) -> str:
    """What annotate did to a book, in one line."""
    changed = sum(audit.changed for audit in audits)
    wrong = sum(bool(audit.findings) for audit in audits)
    unproven = sum(audit.outcome == "unproven" for audit in audits)
    parts = [
        f"{changed} of {len(audits)} levels changed",
        f"the book was wrong on {wrong}" if wrong else "the book was wrong on none",
    ]
    if unproven:
        parts.append(f"{unproven} not proven (fields kept)")
    malformed = sum(audit.outcome == "malformed" for audit in audits)
    if malformed:
        parts.append(f"{malformed} malformed (kept as they are)")
    return "; ".join(parts)


def unsolved_message(outcome: Unsolvable | Stopped) -> str:
    """What an outcome without a solution proves, and for a budget, what the search spent."""
    if isinstance(outcome, Stopped):
        return f"{shortfall(outcome)}; searched {outcome.nodes:,} nodes in {outcome.seconds:.2f} s"
    return shortfall(outcome)


class Stream(ABC):
    """What standard output shows of every result a command can have: a stream format. Each answers every
    kind of result, so a new format is one class and one row of FORMATS. Standard error is the same
    whatever the format: the failures, the progress, the files written."""

    def __init__(self, terminal: Terminal, glyphs: Glyphs) -> None:
        self.terminal, self.glyphs = terminal, glyphs

    def fail(self, message: str, code: int, label: str = "error") -> NoReturn:
        """The run ends without a result: bad input, the solver failing, or an interruption."""
        self.terminal.leave(message, code, label)

    def unsolved(self, level: Level, settings: SolverSettings, outcome: Unsolvable | Stopped) -> NoReturn:
        """The run of a board without a solution ends: the line and the exit status say why."""
        label, code = unsolved_status(outcome)
        self.terminal.leave(unsolved_message(outcome), code, label)

    def counting_stopped(
        self, level: Level, settings: SolverSettings, stopped: Stopped, listed: bool
    ) -> NoReturn:
        """The optimum proven, the budget ran out while its solutions were counted (listed: with
        --all-solutions): what was found, then the run ends as stopped."""
        Stream.unsolved(self, level, settings, stopped)

    @abstractmethod
    def searching(self, level: Level) -> None:
        """A level's search starts."""

    @abstractmethod
    def solved(self, level: Level, settings: SolverSettings, solution: Solution, boards: list[Board]) -> None:
        """One optimal solution, and the boards along the way."""

    @abstractmethod
    def optima(self, level: Level, settings: SolverSettings, optima: Optima, listed: bool) -> None:
        """Every optimal solution (listed: --all-solutions), or only how many there are (--count)."""

    @abstractmethod
    def measured(self, level: Level, signals: Signals) -> None:
        """--signals: the level's difficulty signals, known before its solution (or its optima) is shown."""

    @abstractmethod
    def hinted(self, level: Level, settings: SolverSettings, hint: Hint) -> None:
        """A hint's move and the moves that remain after it."""

    @abstractmethod
    def already_solved(self, level: Level, settings: SolverSettings, solution: Solution) -> None:
        """A hint asked for on a board with nothing to flip: the solution of no moves."""

    @abstractmethod
    def levels(self, book: Book) -> None:
        """--list: the book's levels."""

    @abstractmethod
    def checking(self, book: Book, counted: bool) -> tuple[Console, bool]:
        """--all starts (counted: with each level's number of optimal solutions). Returns the console its
        progress bar is drawn by, and whether it is shown at all."""

    @abstractmethod
    def checked(self, check: LevelCheck, moves: str, failure: Failure | None, counted: bool) -> None:
        """A level of --all is done: what its moves column says, and why it fails the run (None if not)."""

    @abstractmethod
    def summed_up(
        self, book: Book, tallied: Tally, failures: list[Failure], outcome: str, code: int, counted: bool
    ) -> None:
        """--all is over, or was interrupted: the totals, the levels that fail the run, its exit status."""

    @abstractmethod
    def passed(self, count: int) -> None:
        """Every level of --all solved, verified and at par."""

    @abstractmethod
    def wrote_book(self, kind: str, seed: str, out: str, text: str) -> None:
        """generate has written a book to a file (standard error has said so already)."""

    def progress_console(self) -> tuple[Console, bool]:
        """The console a progress bar over many levels is drawn by, and whether it is shown at all."""
        out = self.terminal.out
        return (out if out.is_terminal else self.terminal.err), True

    @abstractmethod
    def annotated(self, level: Level, audit: LevelAudit) -> None:
        """annotate has proven a level: what the book got wrong about it, and what is added."""

    @abstractmethod
    def annotation_written(self, book: str, out: str, audits: list[LevelAudit], code: int) -> None:
        """annotate has written the book: what changed, and the run's exit status."""

    @abstractmethod
    def shared(self, level: Level, link: str, optimum: int) -> None:
        """share: the level's link, its vector an optimal solution."""


class Cards(Stream):
    """Standard output as text: the level, then a step card per move; every optimal solution, a hint, a
    book's levels and the table of --all as the terminal shows them."""

    def __init__(self, terminal: Terminal, glyphs: Glyphs) -> None:
        super().__init__(terminal, glyphs)
        self.table: RowTable | None = None  # --all's, once its head is out

    def searching(self, level: Level) -> None:
        """The level is named before its search starts, so a long one shows what it is working on."""
        self.terminal.show(describe_level(level, self.glyphs))

    def solved(self, level: Level, settings: SolverSettings, solution: Solution, boards: list[Board]) -> None:
        self.terminal.show(*solution_report(level, solution, boards, self.glyphs, compact=False))

    def optima(self, level: Level, settings: SolverSettings, optima: Optima, listed: bool) -> None:
        self.terminal.show(*optima_report(level, optima, self.glyphs, listed))

    def measured(self, level: Level, signals: Signals) -> None:
        self.terminal.show(*signals_report(signals, self.glyphs))

    def counting_stopped(
        self, level: Level, settings: SolverSettings, stopped: Stopped, listed: bool
    ) -> NoReturn:
        self.terminal.show(*optima_report(level, stopped, self.glyphs, listed))
        super().counting_stopped(level, settings, stopped, listed)

    def hinted(self, level: Level, settings: SolverSettings, hint: Hint) -> None:
        self.terminal.show(hint_card(hint, level.board, self.glyphs))

    def already_solved(self, level: Level, settings: SolverSettings, solution: Solution) -> None:
        self.terminal.show(already_solved(solution.target, level.board))

    def levels(self, book: Book) -> None:
        table = RowTable(book.name, book.levels, self.glyphs)
        self.terminal.show(table.head())
        for level in book.levels:
            self.terminal.show(table.row([*level_cells(level, self.glyphs), level.title]))
        self.terminal.show(table.foot())

    def checking(self, book: Book, counted: bool) -> tuple[Console, bool]:
        """The table's head. The bar is drawn by the console the rows go to when that is a terminal, so rich
        prints each row above it."""
        self.table = RowTable(
            f"{book.name}: solving all {len(book.levels)} levels",
            book.levels,
            self.glyphs,
            ("moves", 10),
            *([("optima", 6)] if counted else []),
            ("time", 8),
        )
        self.terminal.show(self.table.head())
        out = self.terminal.out
        return (out if out.is_terminal else self.terminal.err), True

    def checked(self, check: LevelCheck, moves: str, failure: Failure | None, counted: bool) -> None:
        """The level's row, its moves column red when it fails the run."""
        assert self.table is not None, "checking() comes first"
        level, outcome = check.level, check.outcome
        seconds = "-" if outcome is None else f"{outcome.seconds:.3f}s"
        cells: list[str | Text] = [
            *level_cells(level, self.glyphs),
            Text(moves, style="red" if failure else ""),
        ]
        if counted:
            cells.append(count_cell(outcome))
        self.terminal.show(self.table.row([*cells, seconds, level.title]))

    def summed_up(
        self, book: Book, tallied: Tally, failures: list[Failure], outcome: str, code: int, counted: bool
    ) -> None:
        """The table closed, and its totals."""
        assert self.table is not None, "checking() comes first"
        self.terminal.show(self.table.foot(), f"total solver time: {tallied.seconds:.2f}s")
        if counted:
            self.terminal.show(OPTIMA_COLUMN_KEY)
        if tallied.with_par:
            self.terminal.show(f"par matched on {tallied.at_par} of {tallied.with_par} levels with a par")

    def passed(self, count: int) -> None:
        self.terminal.show(Text(f"{self.glyphs.check}All {count} levels solved and verified", style="green"))

    def wrote_book(self, kind: str, seed: str, out: str, text: str) -> None:
        """Standard error has said so; standard output is the book's only when it is written there."""

    def annotated(self, level: Level, audit: LevelAudit) -> None:
        """A line for each error the book made, with its fix, then for each thing added; none for a level
        that was right."""
        for finding in audit.findings:
            self.terminal.show(Text.assemble((f"{audit.name}: ", "bold"), ("wrong: ", "red"), finding))
        for note in audit.notes:
            self.terminal.show(Text.assemble((f"{audit.name}: ", "bold"), note))

    def annotation_written(self, book: str, out: str, audits: list[LevelAudit], code: int) -> None:
        self.terminal.show(annotation_summary(audits))

    def shared(self, level: Level, link: str, optimum: int) -> None:
        """The link alone on standard output, for a script or a paste; what it holds on standard error."""
        self.terminal.status(
            f"{level.name}: optimum {moves_word(optimum)}, proven; the link's solution is the canonical "
            f"optimal one, so the game shows par {optimum}"
        )
        self.terminal.write(link + "\n")


class Compact(Cards):
    """--compact: a solution as the numbered list of its moves, with no boards."""

    def solved(self, level: Level, settings: SolverSettings, solution: Solution, boards: list[Board]) -> None:
        self.terminal.show(*solution_report(level, solution, boards, self.glyphs, compact=True))


class Step(Cards):
    """--step: the cards one at a time, a key for the next and the previous, when keys can be read and a
    card redrawn in a terminal it fits; anywhere else, every card as without it."""

    def solved(self, level: Level, settings: SolverSettings, solution: Solution, boards: list[Board]) -> None:
        from .stepper import interactive, step_through, tallest  # loaded only when it runs

        out = self.terminal.out
        if not interactive(out):
            super().solved(level, settings, solution, boards)
            return
        cards = board_cards(solution, boards, self.glyphs)
        if (lines := tallest(cards, out, self.glyphs)) > out.height:
            self.terminal.status(
                f"--step: a card takes {lines} lines here, more than this terminal's {out.height}; "
                "every card follows"
            )
            super().solved(level, settings, solution, boards)
            return
        self.terminal.show(solution_summary(level, solution, self.glyphs), Text())
        step_through(cards, out, self.glyphs)
        self.terminal.show(Text(), verified_line(solution, self.glyphs, boards[0]))


class Records(Stream):
    """--json: standard output carries records only, one a line, each written whole as soon as it is known,
    errors included (the schema is schema/unflip-output.schema.json); standard error is as without it."""

    def emit(self, record: Record) -> None:
        self.terminal.write(json_line(record))

    def fail(self, message: str, code: int, label: str = "error") -> NoReturn:
        self.emit(error_record(ERROR_OUTCOMES.get(code, "rejected"), message, code))
        super().fail(message, code, label)

    def __init__(self, terminal: Terminal, glyphs: Glyphs) -> None:
        super().__init__(terminal, glyphs)
        self.signals: Signals | None = None  # measured, for the solve record to carry

    def searching(self, level: Level) -> None:
        """The record names the level."""

    def solved(self, level: Level, settings: SolverSettings, solution: Solution, boards: list[Board]) -> None:
        self.emit(solve_record(level, settings, solution, EXIT_OK, signals=self.signals))

    def optima(self, level: Level, settings: SolverSettings, optima: Optima, listed: bool) -> None:
        if listed:
            for solution in solution_records(optima):
                self.emit(solution)
        self.emit(solve_record(level, settings, optima, EXIT_OK, listed, self.signals))

    def measured(self, level: Level, signals: Signals) -> None:
        """Carried by the solve record that follows."""
        self.signals = signals

    def hinted(self, level: Level, settings: SolverSettings, hint: Hint) -> None:
        self.emit(hint_record(level, settings, hint))

    def already_solved(self, level: Level, settings: SolverSettings, solution: Solution) -> None:
        self.emit(solve_record(level, settings, solution, EXIT_OK))

    def unsolved(self, level: Level, settings: SolverSettings, outcome: Unsolvable | Stopped) -> NoReturn:
        self.emit(solve_record(level, settings, outcome, unsolved_status(outcome)[1]))
        super().unsolved(level, settings, outcome)

    def counting_stopped(
        self, level: Level, settings: SolverSettings, stopped: Stopped, listed: bool
    ) -> NoReturn:
        if listed:
            for solution in solution_records(stopped):
                self.emit(solution)
        self.emit(solve_record(level, settings, stopped, EXIT_STOPPED, listed, self.signals))
        super().counting_stopped(level, settings, stopped, listed)

    def levels(self, book: Book) -> None:
        self.emit(list_record(book))

    def checking(self, book: Book, counted: bool) -> tuple[Console, bool]:
        # Records never pass through rich, so a bar on the same terminal would tear them: none then.
        return self.terminal.err, not self.terminal.out.is_terminal

    def checked(self, check: LevelCheck, moves: str, failure: Failure | None, counted: bool) -> None:
        self.emit(level_record(check, failure))

    def summed_up(
        self, book: Book, tallied: Tally, failures: list[Failure], outcome: str, code: int, counted: bool
    ) -> None:
        self.emit(all_record(book, tallied, failures, outcome, code))

    def passed(self, count: int) -> None:
        """The summary record has said so."""

    def wrote_book(self, kind: str, seed: str, out: str, text: str) -> None:
        self.emit(generate_record(kind, seed, out, text))

    def progress_console(self) -> tuple[Console, bool]:
        return self.terminal.err, not self.terminal.out.is_terminal  # as checking() says why

    def annotated(self, level: Level, audit: LevelAudit) -> None:
        self.emit(annotated_record(level, audit))

    def annotation_written(self, book: str, out: str, audits: list[LevelAudit], code: int) -> None:
        self.emit(annotate_record(book, out, audits, code))

    def shared(self, level: Level, link: str, optimum: int) -> None:
        self.emit(share_record(level, link, optimum))


# A file format: the walkthrough of a solution as a file's text.
Draw = Callable[[Level, Solution, list[Board]], str]


# The walkthrough's writers are loaded only when one draws, not by every run that could ask for one.
def walkthrough_svg(level: Level, solution: Solution, boards: list[Board]) -> str:
    from . import walkthrough

    return walkthrough.walkthrough_svg(level, solution, boards)


def walkthrough_html(level: Level, solution: Solution, boards: list[Board]) -> str:
    from . import walkthrough

    return walkthrough.walkthrough_html(level, solution, boards)


class Picture(Cards):
    """A file format named '-': standard output carries its drawing and nothing else; the rest is the
    cards' (an unsolvable board's line goes to standard error as ever)."""

    def __init__(self, terminal: Terminal, glyphs: Glyphs, draw: Draw) -> None:
        super().__init__(terminal, glyphs)
        self.draw = draw

    def searching(self, level: Level) -> None:
        """Nothing: the level is named inside the drawing."""

    def measured(self, level: Level, signals: Signals) -> None:
        """On standard error, which has room for them."""
        for line in signals_report(signals, self.glyphs):
            self.terminal.err.print(line, soft_wrap=True)

    def solved(self, level: Level, settings: SolverSettings, solution: Solution, boards: list[Board]) -> None:
        self.terminal.write(self.draw(level, solution, boards))


@dataclass(frozen=True)
class Format:
    """One output a run can be asked for by its option: a stream format, which decides what standard
    output shows, or a file format, which writes the walkthrough to the file the option names."""

    option: str
    stream: type[Stream] | None = None
    draw: Draw | None = None
    one_solution: bool = False  # shows a single solution: not a book's --list or --all, nor every optimum


# In order of precedence: the first stream format given is the one standard output gets (--json wins over
# --compact), and a complaint about options that show one solution names the first given.
FORMATS: tuple[Format, ...] = (
    Format("--json", stream=Records),
    Format("--step", stream=Step, one_solution=True),
    Format("--compact", stream=Compact),
    Format("--svg", draw=walkthrough_svg, one_solution=True),
    Format("--html", draw=walkthrough_html, one_solution=True),
)
DEFAULT_STREAM: type[Stream] = Cards


@dataclass(frozen=True)
class Outputs:
    """The formats one run was asked for: its stream, the files to write, and the options given that show a
    single solution."""

    stream: Stream
    files: tuple[tuple[str, str, Draw], ...]  # each file's option, its name as given, what to draw in it
    one_solution: tuple[str, ...]

    def solved(self, level: Level, settings: SolverSettings, solution: Solution, boards: list[Board]) -> None:
        """Files first: a file that cannot be written fails the run, and the stream must say so."""
        for _, path, draw in self.files:
            write_atomically(Path(path), draw(level, solution, boards))
            self.stream.terminal.status(f"wrote the walkthrough to {path}")
        self.stream.solved(level, settings, solution, boards)


def first_stream(chosen: Iterable[Format]) -> type[Stream]:
    return next((entry.stream for entry in chosen if entry.stream), DEFAULT_STREAM)


def choose_outputs(terminal: Terminal, glyphs: Glyphs, given: Mapping[str, bool | str | None]) -> Outputs:
    """The formats the options ask for, given as {option: its value}: a flag's bool, a file's name, or None
    when not given."""
    # An empty file name is chosen too, so that writing it is refused rather than skipped.
    chosen = [entry for entry in FORMATS if given.get(entry.option) not in (None, False)]
    one_solution = tuple(entry.option for entry in chosen if entry.one_solution)
    streamed = [entry for entry in chosen if entry.draw and given[entry.option] == STANDARD_STREAM]
    files = tuple(
        (entry.option, str(given[entry.option]), entry.draw)
        for entry in chosen
        if entry.draw and entry not in streamed
    )
    if not streamed:
        return Outputs(first_stream(chosen)(terminal, glyphs), files, one_solution)
    # '-' is standard output, as it is standard input for a source: one output alone can have it.
    others = [entry.option for entry in chosen if entry.stream] + [entry.option for entry in streamed[1:]]
    if others:
        raise InputError(
            f"{streamed[0].option} - writes standard output, and so does {others[0]}: name a file for one"
        )
    assert streamed[0].draw is not None  # a file format has a drawing
    return Outputs(Picture(terminal, glyphs, streamed[0].draw), files, one_solution)


def stream_in_words(terminal: Terminal, words: list[str]) -> Stream:
    """Where an error goes that click raises before the command has read its options: the first stream
    format named among the words (up to a '--', after which words are arguments)."""
    named = set(words[: words.index("--")] if "--" in words else words)
    return first_stream(entry for entry in FORMATS if entry.option in named)(terminal, terminal.glyphs())
