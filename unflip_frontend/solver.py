"""One search: the solver as a child process, fed a board, read through the line protocol."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import IO, TYPE_CHECKING

from .boards import Board, scheme_of, shape
from .contract import solver_contract
from .errors import SolverError
from .protocol import (
    Outcome,
    SearchProgress,
    Stopped,
    Unsolvable,
    board_to_protocol,
    parse_progress,
    parse_solver_output,
    scheme_arguments,
)

if TYPE_CHECKING:  # loaded only when a bound or a count is asked for
    from .bound_and_count import LowerBound, OptimaCount

OnProgress = Callable[[SearchProgress], None]

# The solver's own limits (solver/contract.def). The command line checks them too, so a value out of range
# is bad input, named as such, rather than a solver that refused to start.
LIMITS = solver_contract().limits
MAX_THREADS = LIMITS.max_threads
SECONDS_RANGE = (LIMITS.min_seconds, LIMITS.max_seconds)
MAX_NODES = LIMITS.max_nodes
MAX_SOLUTIONS = LIMITS.max_solutions

# --target's words: the solver's digits, and the colours they stand for.
TARGETS = {"0": "0", "1": "1", "either": "either", "white": "0", "black": "1"}

# Signals that end a run the way Ctrl-C does: a `kill`, a closed terminal.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class StoppedBySignal(KeyboardInterrupt):
    """SIGTERM or SIGHUP arrived. It is a KeyboardInterrupt so that it is handled wherever Ctrl-C is: a search
    under way is stopped and reaped, the levels of --all already done are kept; only its words and exit
    status differ."""

    def __init__(self, number: int) -> None:
        super().__init__(signal.Signals(number).name)
        self.number = number
        self.name = signal.Signals(number).name


def raise_stop(number: int, _frame: object) -> None:
    raise StoppedBySignal(number)


@contextlib.contextmanager
def signals_stop_the_run() -> Iterator[None]:
    """Within this block SIGTERM and SIGHUP raise StoppedBySignal, except one the caller chose to ignore
    (nohup ignores SIGHUP). Only the main thread can set handlers; elsewhere the defaults stay."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {
        number: signal.signal(number, raise_stop)
        for number in STOP_SIGNALS
        if signal.getsignal(number) is not signal.SIG_IGN
    }
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def signals_held() -> Iterator[Callable[[], None]]:
    """Within this block Ctrl-C, SIGTERM and SIGHUP are held back instead of raised, until the function it
    gives is called (or the block ends): then the first that came is raised, by its own handler. A child
    process exists before Popen returns it, so an interrupt raised in between would leave the child with
    nobody to stop or reap it; a caller starts the child inside the block and calls the function inside the
    try that stops the child. Only the main thread runs signal handlers; elsewhere nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: None
        return
    came: list[tuple[int, FrameType | None]] = []
    held: dict[int, Callable[[int, FrameType | None], object]] = {}
    for number in (signal.SIGINT, *STOP_SIGNALS):
        handler = signal.getsignal(number)
        if callable(handler):  # what the default action or an ignored signal does, the child does too
            held[number] = handler
            signal.signal(number, lambda number, frame: came.append((number, frame)))

    def release() -> None:
        handlers = dict(held)
        held.clear()
        for number, handler in handlers.items():
            signal.signal(number, handler)
        if handlers and came:
            number, frame = came[0]
            handlers[number](number, frame)

    try:
        yield release
    finally:
        release()


def no_progress(_progress: SearchProgress) -> None:
    """For callers with nowhere to show progress."""


class RootBound:
    """The root's lower bound, read off a search's own progress, so that no second run of the solver is
    needed for it: the search starts at that bound and says so of every bound it rules out on its way to
    the optimum (docs/protocol.md), so the least of them is the root's bound, and none means the optimum
    was it. Called with each progress report, it passes it on."""

    def __init__(self, then: OnProgress = no_progress) -> None:
        self.then = then
        self.exhausted: list[int] = []

    def __call__(self, progress: SearchProgress) -> None:
        if progress.state == "exhausted":
            self.exhausted.append(progress.bound)
        self.then(progress)

    def bound(self, optimum: int) -> int:
        """The root's bound, given the optimum the search proved."""
        found = min(self.exhausted, default=optimum)
        if found > optimum:
            raise SolverError(f"the solver ruled out {found} moves, yet proved an optimum of {optimum}")
        return found


@dataclass(frozen=True)
class SolverSettings:
    target: str  # "0", "1" or "either"
    threads: int | None
    max_seconds: float | None
    max_nodes: int | None
    # Every optimal solution (--all-solutions), at most max_solutions of them when that is given.
    all_solutions: bool = False
    max_solutions: int | None = None
    certificate: str | None = None  # where the solver writes the proof of optimality (--certificate)

    def arguments(self) -> list[str]:
        args = ["--target", self.target]
        if self.all_solutions:
            args.append("--all-solutions")
        for flag, value in (
            ("--threads", self.threads),
            ("--max-seconds", self.max_seconds),
            ("--max-nodes", self.max_nodes),
            ("--max-solutions", self.max_solutions),
            ("--certificate", self.certificate),
        ):
            if value is not None:
                args += [flag, str(value)]
        return args


def run_solver(solver: Path, board: Board, settings: SolverSettings, on_progress: OnProgress) -> Outcome:
    """One optimal solution (every one, with settings.all_solutions), or why there is none."""
    returncode, stdout, stderr = run_search(
        solver, board, settings.arguments(), on_progress, settings.max_seconds
    )
    return parse_solver_output(
        returncode,
        stdout,
        stderr,
        shape(board),
        settings.target,
        settings.all_solutions,
        settings.max_solutions,
        scheme_of(board),
    )


def count_optima(
    solver: Path, board: Board, settings: SolverSettings, limit: int
) -> OptimaCount | Unsolvable | Stopped:
    """How many optimal solutions the board has, counting no further than limit."""
    from .bound_and_count import parse_count_output  # loaded only when it runs

    arguments = [*settings.arguments(), "--count", "--max-solutions", str(limit)]
    returncode, stdout, stderr = run_search(solver, board, arguments, no_progress, settings.max_seconds)
    return parse_count_output(returncode, stdout, stderr, settings.target, scheme_of(board))


def root_bound(
    solver: Path, board: Board, settings: SolverSettings, *switches: str
) -> LowerBound | Unsolvable | Stopped:
    """The root's lower bound (--lower-bound, with the technique switches given), without a search: every
    solution needs at least that many moves."""
    from .bound_and_count import parse_lower_bound_output  # loaded only when it runs

    arguments = [*settings.arguments(), "--lower-bound", *switches]
    returncode, stdout, stderr = run_search(solver, board, arguments, no_progress, settings.max_seconds)
    return parse_lower_bound_output(returncode, stdout, stderr, settings.target, scheme_of(board))


def covering_bound(solver: Path, board: Board, settings: SolverSettings) -> LowerBound | Unsolvable | Stopped:
    """The root's covering bound (--lower-bound without the parity rows). It is the generator's fixed
    yardstick of how hard an optimum is to prove: the parity rows raise the bound on some boards, and a
    gap measured against the solver's best bound would move, and the shipped books with it, whenever that
    bound improves."""
    return root_bound(solver, board, settings, "--parity-rounds", "0")


# What the front end keeps of a solver's output, so that a solver gone wrong (one that floods its pipes)
# is cut off instead of filling memory. Far above anything the solver writes: a SOLUTION line of 40 moves
# is under 400 characters (under 9 a move even on 31×31), so the cap holds some 160,000 optimal solutions;
# --max-solutions asks for fewer.
MAX_STDOUT_CHARS = 64 << 20
MAX_STDERR_CHARS = 1 << 20  # progress lines, a few dozen characters an iteration, and one error line
MAX_LINE_CHARS = 4096
# A solver given --max-seconds S stops itself in S; one still running this long after is hung.
HANG_GRACE = (1.5, 5.0)  # cut off at S × 1.5 + 5 s


class Watch:
    """Why a solver was cut off, if it was: set by whichever reader or timer saw it go wrong first."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.process = process
        self.reason: str | None = None
        self.lock = threading.Lock()

    def cut_off(self, reason: str) -> None:
        with self.lock:
            if self.reason is None:
                self.reason = reason
                with contextlib.suppress(OSError):
                    self.process.kill()


def drain_stdout(stream: IO[str], watch: Watch, parts: list[str]) -> None:
    """Read standard output whole, on a thread so that neither pipe can fill up and stall the solver."""
    kept = 0
    while chunk := stream.read(1 << 16):
        kept += len(chunk)
        if kept > MAX_STDOUT_CHARS:
            watch.cut_off(
                f"the solver wrote more than {MAX_STDOUT_CHARS >> 20} MiB on standard output (a solution "
                "list that long needs --max-solutions)"
            )
            return
        parts.append(chunk)


def read_stderr(stream: IO[str], watch: Watch, on_progress: OnProgress) -> list[str]:
    lines: list[str] = []
    kept = 0
    while line := stream.readline(MAX_LINE_CHARS):
        kept += len(line)
        if kept > MAX_STDERR_CHARS:
            watch.cut_off(f"the solver wrote more than {MAX_STDERR_CHARS >> 20} MiB on standard error")
            break
        progress = parse_progress(line)
        if progress:
            on_progress(progress)
        lines.append(line)
    return lines


# The solvers running now, by the thread that started each: a cluster worker (cluster.py) cuts off the one of
# a task that was cancelled, which the task's own thread, waiting on the solver, cannot.
RUNNING: dict[int, Watch] = {}


def run_search(
    solver: Path, board: Board, arguments: list[str], on_progress: OnProgress, max_seconds: float | None
) -> tuple[int, str, str]:
    """Run the solver once on the board, reporting progress as it arrives; its exit status, standard output
    and standard error. On Ctrl-C the solver is stopped and reaped before the interrupt goes on, so no
    search is left running behind us. A solver that floods its output, or outlives its time budget, is
    killed and named as failing."""
    with signals_held() as release:
        try:
            process = subprocess.Popen(
                [str(solver), *scheme_arguments(board), *arguments],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                encoding="utf-8",
                errors="replace",
            )
        except OSError as exc:
            raise SolverError(f"cannot run the solver {solver}: {exc.strerror or exc}") from None
        # Popen with three pipes always has all three streams.
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        stdin, stdout, stderr = process.stdin, process.stdout, process.stderr
        watch = Watch(process)
        RUNNING[threading.get_ident()] = watch
        timer = None
        if max_seconds is not None:
            limit = max_seconds * HANG_GRACE[0] + HANG_GRACE[1]
            hung = f"the solver was still running {limit:g} s into a {max_seconds:g} s budget"
            timer = threading.Timer(limit, watch.cut_off, [hung])
            timer.daemon = True
            timer.start()
        with process:  # closes the pipes however we leave
            try:
                release()  # an interrupt that came as the solver started is raised here, where it is stopped
                stdout_parts: list[str] = []
                drain = threading.Thread(target=drain_stdout, args=(stdout, watch, stdout_parts), daemon=True)
                drain.start()
                # A solver that quits without reading the board says why in its exit status.
                with contextlib.suppress(BrokenPipeError), stdin:
                    stdin.write(board_to_protocol(board))
                stderr_lines = read_stderr(stderr, watch, on_progress)
                # Whatever stopped early, the pipes are closed by the kill, and the drain ends with them.
                drain.join()
                returncode = process.wait()
            except BaseException:
                stop_process(process)
                raise
            finally:
                RUNNING.pop(threading.get_ident(), None)
                if timer is not None:
                    timer.cancel()
    if watch.reason is not None:
        raise SolverError(f"{watch.reason}; it was stopped")
    # A terminal's Ctrl-C or hang-up reaches the whole process group: the solver may die of it first.
    if returncode == -signal.SIGINT:
        raise KeyboardInterrupt
    if -returncode in STOP_SIGNALS:
        raise StoppedBySignal(-returncode)
    return returncode, "".join(stdout_parts), "".join(stderr_lines)


def stop_process(process: subprocess.Popen[str]) -> None:
    # A second Ctrl-C while the solver stops is raised once it is reaped, so that it does not outlive us.
    with signals_held():
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
