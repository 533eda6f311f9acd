"""One search: the solver as a child process, fed a board, read through the line protocol."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .boards import Board, shape
from .errors import SolverError
from .protocol import (
    LowerBound,
    OptimaCount,
    Outcome,
    SearchProgress,
    Stopped,
    Unsolvable,
    board_to_protocol,
    parse_count_output,
    parse_lower_bound_output,
    parse_progress,
    parse_solver_output,
)

OnProgress = Callable[[SearchProgress], None]

# The solver's own limits (unflip_solver --help). The command line checks them too, so a value out of range
# is bad input, named as such, rather than a solver that refused to start.
MAX_THREADS = 1024
SECONDS_RANGE = (1e-3, 1e9)
MAX_NODES = 2**64 - 1
MAX_SOLUTIONS = 2**64 - 1

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


def no_progress(_progress: SearchProgress) -> None:
    """For callers with nowhere to show progress."""


@dataclass(frozen=True)
class SolverSettings:
    target: str  # "0", "1" or "either"
    threads: int | None
    max_seconds: float | None
    max_nodes: int | None
    # Every optimal solution (--all-solutions), at most max_solutions of them when that is given.
    all_solutions: bool = False
    max_solutions: int | None = None

    def arguments(self) -> list[str]:
        args = ["--target", self.target]
        if self.all_solutions:
            args.append("--all-solutions")
        for flag, value in (
            ("--threads", self.threads),
            ("--max-seconds", self.max_seconds),
            ("--max-nodes", self.max_nodes),
            ("--max-solutions", self.max_solutions),
        ):
            if value is not None:
                args += [flag, str(value)]
        return args


def run_solver(solver: Path, board: Board, settings: SolverSettings, on_progress: OnProgress) -> Outcome:
    """One optimal solution (every one, with settings.all_solutions), or why there is none."""
    returncode, stdout, stderr = run_search(solver, board, settings.arguments(), on_progress)
    return parse_solver_output(
        returncode,
        stdout,
        stderr,
        shape(board),
        settings.target,
        settings.all_solutions,
        settings.max_solutions,
    )


def count_optima(
    solver: Path, board: Board, settings: SolverSettings, limit: int
) -> OptimaCount | Unsolvable | Stopped:
    """How many optimal solutions the board has, counting no further than limit."""
    arguments = [*settings.arguments(), "--count", "--max-solutions", str(limit)]
    returncode, stdout, stderr = run_search(solver, board, arguments, no_progress)
    return parse_count_output(returncode, stdout, stderr, settings.target)


def root_bound(
    solver: Path, board: Board, settings: SolverSettings, *switches: str
) -> LowerBound | Unsolvable | Stopped:
    """The root's lower bound (--lower-bound, with the technique switches given), without a search: every
    solution needs at least that many moves."""
    arguments = [*settings.arguments(), "--lower-bound", *switches]
    returncode, stdout, stderr = run_search(solver, board, arguments, no_progress)
    return parse_lower_bound_output(returncode, stdout, stderr, settings.target)


def covering_bound(
    solver: Path, board: Board, settings: SolverSettings
) -> LowerBound | Unsolvable | Stopped:
    """The root's covering bound (--lower-bound without the parity rows). It is the generator's fixed
    yardstick of how hard an optimum is to prove: the parity rows raise the bound on some boards, and a
    gap measured against the solver's best bound would move, and the shipped books with it, whenever that
    bound improves."""
    return root_bound(solver, board, settings, "--parity-rounds", "0")


def run_search(
    solver: Path, board: Board, arguments: list[str], on_progress: OnProgress
) -> tuple[int, str, str]:
    """Run the solver once on the board, reporting progress as it arrives; its exit status, standard output
    and standard error. On Ctrl-C the solver is stopped and reaped before the interrupt goes on, so no
    search is left running behind us."""
    try:
        process = subprocess.Popen(
            [str(solver), *arguments],
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
    with process:  # closes the pipes however we leave
        try:
            # stdout is drained on a thread so neither pipe can fill up and stall the solver.
            stdout_parts: list[str] = []
            drain = threading.Thread(target=lambda: stdout_parts.append(stdout.read()), daemon=True)
            drain.start()
            # A solver that quits without reading the board says why in its exit status.
            with contextlib.suppress(BrokenPipeError), stdin:
                stdin.write(board_to_protocol(board))
            stderr_lines = []
            for line in stderr:
                progress = parse_progress(line)
                if progress:
                    on_progress(progress)
                stderr_lines.append(line)
            drain.join()
            returncode = process.wait()
        except BaseException:
            stop_process(process)
            raise
    # A terminal's Ctrl-C or hang-up reaches the whole process group: the solver may die of it first.
    if returncode == -signal.SIGINT:
        raise KeyboardInterrupt
    if -returncode in STOP_SIGNALS:
        raise StoppedBySignal(-returncode)
    return returncode, "".join(stdout_parts), "".join(stderr_lines)


def stop_process(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
