"""What each command does, as a client of the public API (api.py): the search, and its result through the
outputs the run chose (outputs.py). Here the run's settings become the API's options, an --all keeps going
past a level the solver failed on, and Ctrl-C keeps what --all has done."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, cast

from . import api
from .boards import Board, moves_word, replay, scheme_of, shape
from .books import Book, BookText, Level, parse_book
from .build import OnBuild
from .errors import SolverError
from .files import write_atomically
from .outputs import Outputs, Stream, unsolved_status
from .protocol import Optima, Outcome, Solution, Stopped, Unsolvable, shortfall
from .solver import OnProgress, SolverSettings
from .terminal import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_SOLVER,
    EXIT_STOPPED,
    Terminal,
    interruption,
    progress_bar,
    solving_status,
)

# annotate, the certificates, the generator, the difficulty figures and --all's level checks are loaded
# inside the commands that use them: a solve does not pay for their import (tests/frontend/test_solving.py).
if TYPE_CHECKING:  # Dask is an optional extra: cluster.py is imported only when --dask asks for it
    from .annotate import LevelAudit, Proof
    from .book_certificates import Certifiable, CertificateFolder, Written
    from .cluster import Cluster
    from .generator import Plan
    from .level_checks import Failure, LevelCheck


def search(
    level: Level,
    settings: SolverSettings,
    on_progress: OnProgress,
    on_build: OnBuild,
    certificate: str | None = None,
) -> Outcome:
    """The search the settings ask for: one optimal solution (with its certificate written to the file
    named), or every one (up to their cap)."""
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
        certificate=certificate,
    )


def solve_single(
    level: Level,
    settings: SolverSettings,
    outputs: Outputs,
    optima: str | None,
    certificate: str | None = None,
    cluster: Cluster | None = None,
    signals: bool = False,
) -> None:
    """One level: its solution (and its certificate, when a file is named), or with optima, every optimal
    solution ("list") or their count ("count"); on the cluster when one is given. With signals, the level's
    difficulty signals first, over the optima api.listed_signals lists."""
    stream = outputs.stream
    listed = optima == "list"
    # Built before the level is named, so a build that fails leaves standard output empty.
    api.build_solver(stream.terminal.announce_build)
    stream.searching(level)
    on_build = stream.terminal.announce_build
    measured = None
    with solving_status(level.name, stream.glyphs, stream.terminal.err) as on_progress:
        if cluster is not None:
            outcome: Outcome = cluster.solve(
                level.board, settings.target, settings.max_seconds, settings.max_nodes, on_progress
            )
        elif signals:  # a capped listing the same on every run, as api.signals makes it
            outcome, measured = api.listed_signals(
                level,
                cast(api.Target, settings.target),
                settings.threads,
                settings.max_seconds,
                settings.max_nodes,
                settings.max_solutions,
                on_progress,
                on_build,
            )
        else:
            outcome = search(level, settings, on_progress, on_build, certificate)
    if measured is not None:
        stream.measured(level, measured)
    if isinstance(outcome, Stopped) and outcome.found is not None:
        stream.counting_stopped(level, settings, outcome, listed)
    if certificate is not None and isinstance(outcome, Solution):
        stream.terminal.status(f"wrote the certificate of optimality to {certificate}")
    if certificate is not None and isinstance(outcome, Unsolvable):
        stream.terminal.status(f"wrote the certificate that no moves solve it to {certificate}")
    if not isinstance(outcome, Solution):
        stream.unsolved(level, settings, outcome)
    if isinstance(outcome, Optima) and optima is not None:
        stream.optima(level, settings, outcome, listed)
    else:  # with signals alone, the first optimum listed, as one solution
        shown = Solution(outcome.target, outcome.moves, outcome.nodes, outcome.seconds)
        outputs.solved(level, settings, shown, replay(level.board, outcome.moves))


def give_hint(
    level: Level, settings: SolverSettings, stream: Stream, prefer: api.Prefer | None = None
) -> None:
    """One move of an optimal solution and the moves that remain after it, or why there is none; with
    prefer, the move the game's hint rule picks."""
    api.build_solver(stream.terminal.announce_build)
    stream.searching(level)
    with solving_status(level.name, stream.glyphs, stream.terminal.err) as on_progress:
        found = api.hint(
            level,
            target=cast(api.Target, settings.target),
            max_seconds=settings.max_seconds,
            max_nodes=settings.max_nodes,
            prefer=prefer,
            on_progress=on_progress,
            on_build=stream.terminal.announce_build,
        )
    if isinstance(found, api.Hint):
        stream.hinted(level, settings, found)
    elif isinstance(found, Solution):
        stream.already_solved(level, settings, found)
    else:
        stream.unsolved(level, settings, found)


def check_level(level: Level, settings: SolverSettings, searched: Callable[[], Outcome]) -> LevelCheck:
    """A level of --all: its verified outcome (what `searched` returns: here, or from a cluster) and what
    it shows the book got wrong, or the solver failure that leaves it without one and the run going on
    to the next. A malformed level is not searched."""
    from .level_checks import LevelCheck  # loaded only when it runs

    if level.problem is not None:
        return LevelCheck(level, None, None, (level.problem,))
    try:
        outcome = searched()
        if isinstance(outcome, Stopped):
            return LevelCheck(level, outcome, None)
        if (
            settings.target != "0"
        ):  # the book's vectors clear its level to white: nothing else to check them on
            at_par = isinstance(outcome, Solution) and level.par in (None, len(outcome.moves))
            return LevelCheck(level, outcome, None, () if at_par else (par_missed(level, outcome),))
        from .annotate import book_errors  # loaded only when it runs

        optimum = len(outcome.moves) if isinstance(outcome, Solution) else None
        return LevelCheck(level, outcome, None, tuple(book_errors(level, optimum)))
    except SolverError as exc:
        return LevelCheck(level, None, exc)


def par_missed(level: Level, outcome: Solution | Unsolvable) -> str:
    if isinstance(outcome, Unsolvable):
        return "unsolvable"
    return f"{moves_word(len(outcome.moves))}, par {level.par}"


def check_columns(check: LevelCheck) -> tuple[str, Failure | None]:
    """What the moves column shows for a checked level, and why the level fails the run (None if not)."""
    from .level_checks import Failure  # loaded only when it runs

    outcome, number = check.outcome, check.level.number or 0
    if check.level.problem is not None:
        return "malformed", Failure(number, check.level.problem, "book")
    if outcome is None:
        return "error", Failure(number, str(check.error), "solver")
    if isinstance(outcome, Stopped):
        # A count the budget stopped still shows the optimum it proved.
        shown = "stopped" if outcome.optimum is None else str(outcome.optimum)
        return shown, Failure(number, f"{unsolved_status(outcome)[0]}, {shortfall(outcome)}", "budget")
    failure = Failure(number, "; ".join(check.book_errors), "book") if check.book_errors else None
    return "unsolvable" if isinstance(outcome, Unsolvable) else str(len(outcome.moves)), failure


def solve_all(
    book: Book, settings: SolverSettings, stream: Stream, counted: bool, cluster: Cluster | None = None
) -> None:
    """Solve every level, each row (or record) out as its level finishes; counted, how many optimal
    solutions each has too. On a cluster, the levels are its tasks, one a level, and the rows come in the
    book's order. Ctrl-C keeps what is done: the rows so far, closed and summed up, then exit status 130."""
    api.build_solver(stream.terminal.announce_build)
    bar_console, bar_shown = stream.checking(book, counted)
    checks: list[LevelCheck] = []
    failures: list[Failure] = []
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
                check = check_level(level, settings, searched)
                moves, failure = check_columns(check)
                stream.checked(check, moves, failure, counted)
                # Counted once shown, so a Ctrl-C in between cannot sum up a level the table lacks.
                checks.append(check)
                if failure:
                    failures.append(failure)
                bar.advance(task)
        interrupted = None
    except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM or SIGHUP: the levels done are kept
        interrupted = stop
    summarise_all(book, checks, failures, interrupted, stream, counted)


# The exit status of --all when levels fail, by the kind of failure: the solver's failing on any level
# outweighs the book's errors, which outweigh a budget's stop (no claim either way).
EXIT_BY_FAILURE = (("solver", EXIT_SOLVER), ("book", EXIT_FAILED), ("budget", EXIT_STOPPED))
FAILURE_HEADINGS = {
    "book": "the book is wrong on",
    "solver": "the solver failed on",
    "budget": "a budget stopped",
}


def summarise_all(
    book: Book,
    checks: list[LevelCheck],
    failures: list[Failure],
    interrupted: KeyboardInterrupt | None,
    stream: Stream,
    counted: bool,
) -> None:
    from .level_checks import tally  # loaded only when it runs

    outcome, code = book_outcome(interrupted, {failure.kind for failure in failures})
    stream.summed_up(book, tally(checks), failures, outcome, code, counted)
    failed = [(failure.kind, f"level {failure.number} ({failure.why})") for failure in failures]
    end_book_run(stream.terminal, interrupted, len(checks), len(book.levels), failed, code)
    stream.passed(len(checks))


def book_outcome(interrupted: KeyboardInterrupt | None, kinds: set[str]) -> tuple[str, int]:
    """A run over a book's levels (--all, report): interrupted, with the interruption's exit status; failed,
    with that of the first kind of failure in EXIT_BY_FAILURE among those that came; or passed."""
    if interrupted is not None:
        return "interrupted", interruption(interrupted)[1]
    if kinds:
        return "failed", next(status for kind, status in EXIT_BY_FAILURE if kind in kinds)
    return "passed", EXIT_OK


def end_book_run(
    terminal: Terminal,
    interrupted: KeyboardInterrupt | None,
    done: int,
    total: int,
    failed: list[tuple[str, str]],
    code: int,
) -> None:
    """The end of a run over a book's levels, after its summary: where an interruption stopped it, or a line
    for each kind of failure (failed: (kind, the level in words) pairs), the kind that sets the exit status
    last, on the line the run ends with. Returns only when nothing failed."""
    if interrupted is not None:
        terminal.leave(f"{interruption(interrupted)[0]} after {done} of {total} levels", code, "interrupted")
    lines = []
    for kind, _ in EXIT_BY_FAILURE:  # the line of the kind that sets the exit status first
        named = [level for failure, level in failed if failure == kind]
        if named:
            lines.append(f"{FAILURE_HEADINGS[kind]} {len(named)} of {done} levels: {'; '.join(named)}")
    for line in lines[1:]:
        terminal.say(line)
    if lines:
        terminal.leave(lines[0], code)


def certify_levels(
    levels: list[Certifiable],
    count: int,
    asked: CertificateFolder,
    threads: int | None,
    max_seconds: float | None,
    terminal: Terminal,
) -> Written:
    """The levels' certificates written into the folder (book_certificates.py), under a bar of their own."""
    from .book_certificates import solver_certifier, write_certificates  # loaded only when it runs

    with progress_bar(terminal.glyphs(), terminal.err) as bar:
        task = bar.add_task("certificates", total=len(levels))
        current = [""]  # the level being certified

        def on_progress(progress: api.SearchProgress) -> None:
            bar.update(task, description=f"certificate of {current[0]}: {progress}")

        certify = solver_certifier(threads, max_seconds, on_progress)

        def solve(level: Certifiable, path: Path) -> Solution | Unsolvable | Stopped:
            current[0] = level.name
            return certify(level, path)

        def on_level(_level: Certifiable) -> None:
            bar.advance(task)

        written = write_certificates(levels, count, asked.folder, asked.gzipped, solve, on_level)
    terminal.status(f"wrote {len(written.names)} certificates of optimality to {asked.shown}")
    return written


def make_book(
    plans: tuple[Plan, ...],
    seen: set[Board],
    threads: int | None,
    terminal: Terminal,
    cluster: Cluster | None = None,
) -> str:
    """The plans' book; on a cluster, each level drawn and proven by a task of its own, the same bytes."""
    from .generator import generate_book  # loaded only when it runs

    solver = api.build_solver(terminal.announce_build)
    settings = SolverSettings("0", threads, None, None)
    with progress_bar(terminal.glyphs(), terminal.err) as bar:
        task = bar.add_task(f"generating {plans[0].kind} levels", total=sum(plan.count for plan in plans))
        drafts = contextlib.nullcontext(None) if cluster is None else cluster.drafts(plans, settings, seen)
        with drafts as draft:
            return generate_book(plans, solver, settings, seen, lambda _index: bar.advance(task), draft)


def proven_signals(board: Board, proof: Proof) -> dict[str, object]:
    """annotate --signals: a proven level's signals over the optima its proof lists, as they are stored:
    without the search's nodes and seconds, so that they are the same on every run."""
    from .difficulty import signals_object  # loaded only when it runs
    from .game_vectors import vector_to_moves

    height, width = shape(board)
    solutions = [vector_to_moves(vector, height, width, scheme_of(board)) for vector in proof.optima]
    measured = api.measured_optima(board, 0, solutions, proof.complete, None, bound=proof.root_bound)
    return signals_object(measured, search=False)


def annotate_book(
    source: BookText,
    target: Path,
    shown: str,
    settings: SolverSettings,
    exhaustive: bool,
    stream: Stream,
    certificates: CertificateFolder | None = None,
    cluster: Cluster | None = None,
    signals: bool = False,
) -> None:
    """Every level of a book proven (on a cluster, each level a task of its own), what the book got wrong
    said level by level, and the book written with the fields that put it right; with certificates, each
    proven level's certificate too, written before the book. The book is written once, whole, at the end:
    Ctrl-C or SIGTERM before then leaves the output as it was. A level a budget stopped keeps its fields
    (or has no certificate), and the run exits 3. With signals, each proven level's signals are stored
    too."""
    from .annotate import annotate_text, solver_prover  # loaded only when it runs
    from .book_certificates import Certifiable

    solver = api.build_solver(stream.terminal.announce_build)
    book = parse_book(source.text, source.name)
    bar_console, bar_shown = stream.progress_console()
    with progress_bar(stream.glyphs, bar_console, bar_shown) as bar:
        task = bar.add_task(book.levels[0].name, total=len(book.levels))
        current = [book.levels[0].name]

        def on_progress(progress: api.SearchProgress) -> None:
            bar.update(task, description=f"{current[0]}: {progress}")

        def on_level(audit: LevelAudit) -> None:
            stream.annotated(book.levels[audit.number - 1], audit)
            bar.advance(task)
            if audit.number < len(book.levels):
                current[0] = book.levels[audit.number].name
                bar.update(task, description=current[0])

        here = contextlib.nullcontext(solver_prover(solver, settings, on_progress))
        boards = [level.board for level in book.levels if level.problem is None]
        with here if cluster is None else cluster.proofs(boards, settings) as prove:
            measure = proven_signals if signals else None
            text, audits = annotate_text(source.text, source.name, prove, exhaustive, on_level, measure)
    uncertified: tuple[Certifiable, ...] = ()
    if certificates is not None:
        proven = [
            Certifiable(audit.number, audit.name, book.levels[audit.number - 1].board, audit.optimum)
            for audit in audits
            if audit.outcome in ("optimal", "exhaustive", "impossible")
        ]
        threads, budget = settings.threads, settings.max_seconds
        uncertified = certify_levels(
            proven, len(audits), certificates, threads, budget, stream.terminal
        ).stopped
    write_atomically(target, source.bom + text)
    stream.terminal.status(f"wrote the annotated book to {shown}")
    unproven = [audit for audit in audits if audit.outcome == "unproven"]
    malformed = [audit for audit in audits if audit.outcome == "malformed"]
    # As under --all: the book's errors outweigh a budget's stop.
    code = EXIT_FAILED if malformed else EXIT_STOPPED if unproven or uncertified else EXIT_OK
    stream.annotation_written(source.name, shown, audits, code)
    if uncertified:
        named = "; ".join(f"level {level.number}" for level in uncertified)
        line = (
            f"{len(uncertified)} of {len(audits)} levels proven, but the budget ran out before their "
            f"certificates: {named}"
        )
        if malformed or unproven:  # their line ends the run
            stream.terminal.say(line, "stopped by budget")
        else:
            stream.terminal.leave(line, EXIT_STOPPED, "stopped by budget")
    if malformed:
        named = "; ".join(f"level {audit.number} ({audit.findings[0]})" for audit in malformed)
        stream.terminal.leave(
            f"{len(malformed)} of {len(audits)} levels malformed, kept as they are: {named}", code
        )
    if unproven:
        named = "; ".join(f"level {audit.number} (at least {audit.optimum} moves)" for audit in unproven)
        stream.terminal.leave(
            f"{len(unproven)} of {len(audits)} levels not proven, their fields kept: {named}",
            EXIT_STOPPED,
            "stopped by budget",
        )


def share_level(level: Level, settings: SolverSettings, page: str, stream: Stream) -> None:
    """The level's link for the game, with its canonical optimal solution as the link's vector, so the
    game shows the proven optimum as par."""
    from .annotate import Unproven, solver_prover  # loaded only when it runs
    from .generator import CANONICAL_LISTING
    from .links import share_link

    solver = api.build_solver(stream.terminal.announce_build)
    with solving_status(level.name, stream.glyphs, stream.terminal.err) as on_progress:
        outcome = search(level, settings, on_progress, stream.terminal.announce_build)
        if not isinstance(outcome, Solution):
            stream.unsolved(level, settings, outcome)
        listing = replace(settings, all_solutions=True, max_solutions=CANONICAL_LISTING)
        proof = solver_prover(solver, listing, on_progress)(level.board)
    if isinstance(proof, Unproven):  # the budget was enough for one solution, not for the listing
        stream.unsolved(level, settings, Stopped(outcome.target, proof.bound, outcome.nodes, outcome.seconds))
    assert proof.canonical is not None  # a board with a solution has a canonical one
    stream.shared(level, share_link(level.board, proof.canonical, page), len(outcome.moves))
