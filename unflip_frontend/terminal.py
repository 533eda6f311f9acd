"""The terminal: the two consoles of one run, the exit statuses, the one way to give up, and the live
progress displays. With outputs.py, commands.py, stepper.py and cli.py, the command layer: the only code
that prints or exits; everything below it raises typed errors and returns outcomes, and here they become
output, one-line errors and exit statuses."""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import time
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, NoReturn

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.text import Text

from .errors import OutputError
from .protocol import SearchProgress
from .render import Glyphs, glyphs_for
from .solver import STOP_SIGNALS, OnProgress, StoppedBySignal, no_progress

if TYPE_CHECKING:
    from rich.progress import Progress

# Exit statuses, distinct so scripts (and CI) can tell "no answer exists" from "we could not find out".
EXIT_OK = 0
EXIT_FAILED = 1  # unsolvable board, or a failing level under --all
EXIT_INPUT = 2  # bad command line, book or board (click also uses 2 for usage errors)
EXIT_STOPPED = 3  # the time or node budget ran out first
EXIT_SOLVER = 4  # the solver could not be built, crashed, spoke garbage, or gave a wrong answer
EXIT_OUTPUT = 5  # standard output could not be written: a full disk, a closed stream, an I/O error
EXIT_CLUSTER = 6  # --dask: the scheduler could not be reached, or went away
EXIT_INTERRUPTED = 130  # the shell convention for death by SIGINT: 128 + the signal's number
EXIT_OUTPUT_CLOSED = 128 + signal.SIGPIPE  # 141: the reader of standard output went away (`| head`)

# The outcome an error record names for each exit status a failure can have.
ERROR_OUTCOMES = {
    EXIT_INPUT: "rejected",
    EXIT_SOLVER: "failed",
    EXIT_CLUSTER: "failed",
    **dict.fromkeys([EXIT_INTERRUPTED, *(128 + number for number in STOP_SIGNALS)], "interrupted"),
}


def interruption(cause: BaseException | None) -> tuple[str, int]:
    """What stopped a run, in words, and its exit status: Ctrl-C (130), or SIGTERM (143) or SIGHUP (129),
    each 128 + the signal's number as a shell reports it."""
    if isinstance(cause, StoppedBySignal):
        return f"stopped by {cause.name}", 128 + cause.number
    return "stopped at your request", EXIT_INTERRUPTED


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


class Terminal:
    """One run's two consoles: results on standard output, errors and progress on standard error. Made
    afresh for every run, because rich reads the terminal and the colour environment (NO_COLOR,
    FORCE_COLOR) when a console is created, and tests run many in one process."""

    def __init__(self) -> None:
        self.out = PipeConsole(highlight=False)
        self.err = PipeConsole(stderr=True, highlight=False)

    def show(self, *parts: RenderableType) -> None:
        """Each part on standard output, as rich draws it."""
        with self.writing():
            for part in parts:
                self.out.print(part, soft_wrap=True)

    def write(self, text: str) -> None:
        """Text exactly as it is (a book's JSON, a record), past rich, which would wrap and colour it."""
        with self.writing():
            self.out.file.write(text)
            self.out.file.flush()

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Standard output that cannot take what is written is an OutputError, never a traceback; one that
        was closed before the run began (`>&-`) is one too, where rich would write into nothing."""
        if sys.stdout is None:
            raise OutputError("cannot write standard output: it is closed")
        try:
            yield
        except BrokenPipeError:
            output_closed(self.out.file)
        except OSError as exc:
            # Standard output now points nowhere, so the interpreter's last flush has nothing to fail on.
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), self.out.file.fileno())
            raise OutputError(f"cannot write standard output: {exc.strerror or exc}") from None

    def disable_colour(self) -> None:
        self.out.no_color = self.err.no_color = True

    def glyphs(self, ascii_: bool = False) -> Glyphs:
        return glyphs_for(self.out.encoding, ascii_)

    def status(self, message: str) -> None:
        self.err.print(Text(message, style="dim"), soft_wrap=True)

    def announce_build(self, command: list[str]) -> None:
        self.status(f"building the solver: {' '.join(command)}")

    def leave(self, message: str, code: int, label: str = "error") -> NoReturn:
        """End the run with one line on standard error and the exit status: every failure the user sees
        ends here."""
        self.say(message, label)
        raise SystemExit(code)

    def say(self, message: str, label: str = "error") -> None:
        """One line on standard error, as a failure's, that does not end the run."""
        self.err.print(Text.assemble((f"{label}: ", "bold red"), message), soft_wrap=True)


class LeaveRoom:
    """A renderable drawn a few columns narrower than the console. A terminal echoes Ctrl-C as '^C' where
    the cursor is; at the end of a full line that wraps, and rich, clearing a live display, would then
    erase the wrong line and leave the display standing above what is printed next."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from console.render(self.renderable, options.update_width(max(1, options.max_width - 3)))


@functools.cache
def live_progress() -> type[Progress]:
    """rich's Progress, drawn with room left for a '^C'. rich.progress (a tenth of a solve's start-up) is
    loaded only when a bar or a spinner is drawn: a solve off a terminal shows neither."""
    from rich.progress import Progress

    class LiveProgress(Progress):
        def get_renderables(self) -> Iterable[RenderableType]:
            yield LeaveRoom(self.make_tasks_table(self.tasks))

    return LiveProgress


def progress_bar(glyphs: Glyphs, console: Console, shown: bool = True) -> Progress:
    """A bar over many solver runs, with elapsed and estimated remaining time; silent off a terminal. Its
    console draws it, so lines printed through the same console appear above it."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return live_progress()(
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
def solving_status(what: str, glyphs: Glyphs, console: Console) -> Iterator[OnProgress]:
    """On a terminal: a spinner, the time so far, and, as the solver reports them, the bound being tried,
    the nodes searched and the nodes per second. Silence anywhere else (logs, pipes)."""
    if not console.is_terminal:
        yield no_progress
        return
    from rich.progress import SpinnerColumn, TextColumn, TimeElapsedColumn

    started = time.monotonic()
    columns = (SpinnerColumn(glyphs.spinner), TextColumn("{task.description}"), TimeElapsedColumn())
    with live_progress()(
        *columns, console=console, transient=True, redirect_stdout=False, redirect_stderr=False
    ) as live:
        task = live.add_task(f"solving {what}", total=None)

        def on_progress(progress: SearchProgress) -> None:
            rate = per_second(progress.nodes, time.monotonic() - started)
            live.update(task, description=f"solving {what}: {progress}, {rate}")

        yield on_progress
