"""Searching on a Dask cluster (`pip install 'unflip[dask]'`, docs/cluster.md): a board by iterative deepening
over cubes, each live cube of a bound one task; a book's levels one task each. The only module that imports
Dask, and only the command line's --dask imports it.

A board's answer never depends on the workers, its moves included: a bound is only given up once every one
of its cubes is exhausted, so a solution at the first bound that has one is optimal, and the one kept is the
solution of the first cube in the search's order that has one. The cubes themselves are cut by the board's
search alone (how many are listed, where a big one is split), never by how many workers there are, and a
cube searched on one thread finds the same solution on any worker. A worker that dies has its tasks run
again by the scheduler, and a cube's task is a pure function of the cube."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import distributed

from .annotate import Proof, Prove, Unproven, solver_prover
from .boards import Board
from .books import Level
from .bound_and_count import LowerBound
from .build import ensure_solver, quiet_build
from .cubes import Cube, CubeListing, CubeOutcome, Cubes, Split, list_cubes, resumed_tasks, search_or_split
from .errors import ClusterError, SolverError
from .generator import Draft, Generated, Plan, find_level
from .protocol import Outcome, SearchProgress, Solution, Stopped
from .solver import RUNNING, OnProgress, SolverSettings, no_progress, root_bound
from .verify import solve_board, verified

T = TypeVar("T")

NO_LOG_RECORDS = logging.CRITICAL + 1  # a level above every record distributed writes
# How long to wait for a scheduler to answer, at the start and when it stops answering.
CONNECT_SECONDS = 10
# Beyond CONNECT_SECONDS, for the scheduler's answer once connected, so that a connection that cannot be made
# is said in distributed's own words (it gives up at CONNECT_SECONDS).
ANSWER_GRACE_SECONDS = 0.5
# Cubes listed at a bound at the least. A fixed number, not one per worker: which cube holds the solution
# kept depends on how the search is cut, and the moves printed must not depend on the cluster's size. The
# bigger cubes are split on the workers, which spreads a bound over more workers than this.
CUBES_LISTED = 16
MAX_LISTING_DEPTH = 8
# A cube's task stops at 1/SPLIT_PIECES of what its bound is expected to take (the bound before, times the
# growth from the one before that, at most MAX_GROWTH), and hands back what it has not searched, to be spread
# as new tasks: never below SPLIT_NODES (about a second on one thread), never above MAX_SPLIT_NODES (a few
# seconds). Nothing is searched twice, so what a split costs is its pieces' solvers started (tens of
# milliseconds each, RESUMED_TASKS of them), and the cap keeps a bound's last task short. Like CUBES_LISTED,
# it is the search's and not the cluster's.
SPLIT_PIECES = 8
SPLIT_NODES = 1 << 19
MAX_SPLIT_NODES = 1 << 21
MAX_GROWTH = 20
POLL_SECONDS = 0.1


@dataclass(frozen=True)
class ClusterProgress(SearchProgress):
    """Progress of a bound searched on a cluster: its cubes done and still to do."""

    cubes_done: int = 0
    cubes_left: int = 0

    def __str__(self) -> str:
        cubes = f"{self.cubes_done:,} of {self.cubes_done + self.cubes_left:,} cubes"
        if self.state == "exhausted":
            return f"no solution in {self.bound} moves ({cubes}, {self.nodes:,} nodes)"
        return f"trying {self.bound} moves: {cubes} done ({self.nodes:,} nodes)"


def search_priority(cubes: Cubes) -> float:
    """Workers take the tasks in the undivided search's order, the pieces of a split cube in its place: the
    order the search's branching puts the likeliest moves first in, so at the optimum a solution tends to
    come early. (Exact for the first three levels of splitting; deeper ones break ties only roughly.)"""
    return -sum(place / float(1 << 16) ** level for level, place in enumerate(cubes[0].order))


def always_needed() -> bool:
    return True


@contextlib.contextmanager
def cancelled_by(stop: distributed.Event, needed: Callable[[], bool] = always_needed) -> Iterator[None]:
    """On a worker, while a task runs: once its run's stop event is set (the run ended or was interrupted),
    or the task is no longer `needed`, the solver the task is waiting on is cut off. Dask cannot stop a
    running task's thread; this stops its work."""
    task_thread, finished = threading.get_ident(), threading.Event()

    def watch() -> None:
        with contextlib.suppress(Exception):  # a scheduler gone takes its workers' tasks with it
            while not finished.is_set():
                if stop.wait(timeout=1) or not needed():
                    watched = RUNNING.get(task_thread)
                    if watched is not None:
                        watched.cut_off("its run was cancelled")
                    return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        finished.set()


def answer_variable(stop: str) -> str:
    """The name of the run's Dask variable that holds [bound, *order] of the first cube in the search's
    order known to have a solution: a cube after it at that bound is no longer needed."""
    return f"{stop}-answer"


def cube_task(
    board: Board, cubes: Cubes, bound: int, split_nodes: int, max_seconds: float | None, stop: str
) -> CubeOutcome:
    """A worker's task: cubes at one bound, in turn (what they had not searched handed back past
    split_nodes), cut off once a cube before them in the search's order has a solution at the bound."""
    answer = distributed.Variable(answer_variable(stop))

    def needed() -> bool:
        try:
            found = answer.get(timeout=0)
        except TimeoutError:  # no cube has a solution yet
            return True
        return found[0] != bound or tuple(found[1:]) > cubes[0].order

    with cancelled_by(distributed.Event(stop), needed):
        return search_or_split(ensure_solver(quiet_build), board, cubes, bound, split_nodes, max_seconds)


W = TypeVar("W")
R = TypeVar("R")


def whole_task(work: Callable[[Path, W], R], item: W, stop: str) -> R:
    """A worker's task: one piece of whole work (a level solved, proven or drawn) with this worker's
    solver, on one thread."""
    with cancelled_by(distributed.Event(stop)):
        return work(ensure_solver(quiet_build), item)


def solved_level(settings: SolverSettings, solver: Path, board: Board) -> Outcome:
    """A level of --all, solved and verified."""
    return solve_board(solver, board, settings, no_progress)


def proven_level(settings: SolverSettings, solver: Path, board: Board) -> Proof | Unproven:
    """A level of annotate, proven as on the command line's machine (annotate.solver_prover)."""
    return solver_prover(solver, settings)(board)


def drafted_level(
    settings: SolverSettings, seen: frozenset[Board], solver: Path, planned: tuple[Plan, int]
) -> tuple[int, Generated]:
    """A level of generate, drawn and proven against the boards seen when the book began."""
    return find_level(*planned, solver, settings, seen)


def enough_cubes(solver: Path, board: Board, target: str, bound: int) -> CubeListing:
    """The bound's cubes, at least CUBES_LISTED of them, as few decisions down as that takes (at most
    MAX_LISTING_DEPTH). Each bound from one decision down again: a depth that a bound near the root's
    needed lists hundreds of cubes a few bounds on, and each cube's task costs a solver's start."""
    depth = 1
    while True:
        listing = list_cubes(solver, board, target, bound, depth)
        assert isinstance(listing, CubeListing)  # the board was found solvable
        if len(listing.cubes) >= CUBES_LISTED or depth == MAX_LISTING_DEPTH:
            return listing
        depth += 1


class Budget:
    """The caller's budget over the whole run: wall-clock seconds and nodes, every worker's summed."""

    def __init__(self, max_seconds: float | None, max_nodes: int | None) -> None:
        self.started = time.monotonic()
        self.deadline = None if max_seconds is None else self.started + max_seconds
        self.max_nodes = max_nodes
        self.nodes = 0

    def seconds_left(self) -> float | None:
        if self.deadline is None:
            return None
        return max(self.deadline - time.monotonic(), 1e-3)

    def spent(self) -> bool:
        out_of_time = self.deadline is not None and time.monotonic() >= self.deadline
        return out_of_time or (self.max_nodes is not None and self.nodes >= self.max_nodes)

    def seconds(self) -> float:
        return time.monotonic() - self.started


class Cluster:
    """A Dask cluster to search on: the scheduler at `address`, or, with none, a LocalCluster of `workers`
    processes of one thread each (default: this machine's cores). It is connected to on first use, so a
    board answered without a search (unsolvable, already solved) needs none."""

    def __init__(self, address: str | None, workers: int | None = None) -> None:
        self.address = address
        self.workers = workers or os.cpu_count() or 1
        self.local: distributed.LocalCluster | None = None
        self.connected: distributed.Client | None = None
        # Every cube task finished, with its bound: what bench/dask_overhead.py measures the cubes by.
        self.finished: list[tuple[int, Cubes, CubeOutcome]] = []

    def __enter__(self) -> Cluster:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(Exception):  # a scheduler already gone has nothing left to close
            if self.connected is not None:
                self.connected.close()
            if self.local is not None:
                self.local.close()
        self.connected = self.local = None

    @property
    def where(self) -> str:
        return f"the Dask scheduler at {self.address}" if self.address else "the local Dask cluster"

    @property
    def client(self) -> distributed.Client:
        if self.connected is None:
            self.connected = self.connect()
        return self.connected

    def connect(self) -> distributed.Client:
        # Failures reach the user as one line each (ClusterError), not as distributed's log records: none
        # of them, not even the CRITICAL one its scheduler writes when Ctrl-C closes a client while it
        # is cancelling cubes.
        for name in ["distributed", *logging.root.manager.loggerDict]:
            if name.startswith("distributed"):
                logging.getLogger(name).setLevel(NO_LOG_RECORDS)
        try:
            if self.address is None:
                self.local = distributed.LocalCluster(
                    n_workers=self.workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # the scheduler always serves HTTP; any free port
                    silence_logs=NO_LOG_RECORDS,
                )
                return distributed.Client(self.local, timeout=CONNECT_SECONDS)
            self.check_scheduler(self.address)
            return distributed.Client(self.address, timeout=CONNECT_SECONDS)
        # RuntimeError: a local worker failed to start; TypeError: a scheme distributed lists but cannot use
        except (OSError, ValueError, RuntimeError, TypeError) as exc:
            # One line, without distributed's traceback: what was tried and why it failed.
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ClusterError(f"cannot reach {self.where}: {reason}") from None

    def check_scheduler(self, address: str) -> None:
        """That a Dask scheduler answers at the address within CONNECT_SECONDS, the whole exchange counted.
        distributed's own timeout covers only the connection: a server that takes it and never answers
        would hold the client for ever, and one that answers in another protocol is read as Dask's (an HTTP
        or SSH banner as the length of a message of exabytes)."""
        connection = distributed.security.Security().get_connection_args("client")
        if address.startswith("tls://") and connection["ssl_context"] is None:
            raise ClusterError(
                f"cannot reach {self.where}: a tls:// address needs Dask's TLS settings (the configuration's "
                "distributed.comm.tls.ca-file and distributed.comm.tls.client.cert)"
            )

        async def identity() -> object:
            comm = await distributed.comm.core.connect(address, timeout=CONNECT_SECONDS, **connection)
            try:
                return await distributed.core.send_recv(comm, op="identity")
            finally:
                comm.abort()

        try:
            # The connection has CONNECT_SECONDS, and gives up within them; what goes past them is the answer.
            answer = asyncio.run(asyncio.wait_for(identity(), CONNECT_SECONDS + ANSWER_GRACE_SECONDS))
        except TimeoutError:
            raise ClusterError(
                f"cannot reach {self.where}: it took the connection but gave no answer in {CONNECT_SECONDS} s"
            ) from None
        except distributed.comm.core.CommClosedError:
            raise ClusterError(
                f"cannot reach {self.where}: it closed the connection without answering as a Dask scheduler"
            ) from None
        except (OSError, ValueError, TypeError):  # no connection, or an address that cannot be one
            raise
        except Exception:  # what it sent, read as Dask's protocol, makes no sense
            answer = None
        kind = answer.get("type") if isinstance(answer, dict) else None
        if kind != "Scheduler":
            what = "does not speak Dask's protocol" if kind is None else f"is a Dask {kind}, not a scheduler"
            raise ClusterError(f"cannot reach {self.where}: what answers there {what}")

    def threads(self) -> int:
        return max(1, int(sum(self.client.nthreads().values())))

    def result(self, future: distributed.Future[T]) -> T:
        """A finished task's result, its failure as the front end's errors."""
        try:
            return future.result()
        except distributed.KilledWorker as exc:
            raise SolverError(f"a task ended every worker that ran it ({exc})") from None
        except distributed.CancelledError:
            # A scheduler that went away takes its tasks with it.
            gone = self.client.status != "running"
            raise ClusterError(
                f"{self.where} {'went away' if gone else 'cancelled a task of this run'}"
            ) from None
        except OSError:  # the connection to the scheduler closed under a task
            raise ClusterError(f"{self.where} went away") from None

    def alive(self, since: list[float]) -> None:
        """The scheduler still answers, or has not been silent for long (since[0]: when it last did)."""
        if self.client.status == "running":
            since[0] = time.monotonic()
        elif time.monotonic() - since[0] > CONNECT_SECONDS:
            raise ClusterError(f"{self.where} went away")

    @contextlib.contextmanager
    def run(self) -> Iterator[tuple[str, list[distributed.Future[Any]]]]:
        """One run's stop event and the futures it submitted: however the run ends (answered, stopped,
        interrupted, failed), its tasks are cancelled and their solvers cut off."""
        stop = f"unflip-stop-{uuid.uuid4().hex}"
        event = distributed.Event(stop, client=self.client)
        futures: list[distributed.Future[Any]] = []
        try:
            yield stop, futures
        finally:
            with contextlib.suppress(Exception):
                event.set()
                self.client.cancel(futures)
                distributed.Variable(answer_variable(stop), client=self.client).delete()

    def solve(
        self,
        board: Board,
        target: str,
        max_seconds: float | None,
        max_nodes: int | None,
        on_progress: OnProgress,
        split_nodes: int = SPLIT_NODES,
    ) -> Outcome:
        """The board's optimum by iterative deepening over cubes: one optimal solution, verified, or why
        there is none. Unsolvable and already-solved boards are answered here, without the cluster."""
        budget = Budget(max_seconds, max_nodes)
        solver = ensure_solver(quiet_build)
        settings = SolverSettings(target, 1, max_seconds, max_nodes)
        root = root_bound(solver, board, settings)
        if not isinstance(root, LowerBound) or root.bound == 0:
            return solve_board(solver, board, settings, on_progress)  # nothing to search
        spent = [0, 0]  # the nodes of the bounds before, the last one last
        with self.run() as (stop, futures):
            for bound in itertools.count(root.bound):
                listing = enough_cubes(solver, board, target, bound)
                before = budget.nodes
                budget.nodes += listing.nodes
                growth = min(spent[-1] / spent[-2], MAX_GROWTH) if spent[-2] else MAX_GROWTH
                share = int(spent[-1] * growth) // SPLIT_PIECES
                split_at = max(split_nodes, min(share, MAX_SPLIT_NODES))
                answer = self.search_bound(
                    board, bound, list(listing.cubes), split_at, budget, on_progress, stop, futures
                )
                spent.append(budget.nodes - before)
                if isinstance(answer, Solution):
                    return verified(board, replace(answer, nodes=budget.nodes, seconds=budget.seconds()))
                if answer is not None:
                    return answer
        raise AssertionError("unreachable: the bounds go on until one has a solution")

    def search_bound(
        self,
        board: Board,
        bound: int,
        cubes: list[Cube],
        split_nodes: int,
        budget: Budget,
        on_progress: OnProgress,
        stop: str,
        futures: list[distributed.Future[Any]],
    ) -> Solution | Stopped | None:
        """Every cube of the bound a task; the solution of the first cube in the search's order that has one
        (optimal: every smaller bound was exhausted in full), or None when every cube is exhausted; Stopped
        when the budget runs out. Once a task has a solution, the tasks after it are cancelled and those
        before it awaited: whichever finishes first, the same cube's solution is kept. A task's cubes are
        in order, and its first is its place: it holds no cube of another task's place."""
        pending: dict[distributed.Future[CubeOutcome], Cubes] = {}
        done, heard = 0, [time.monotonic()]
        first: tuple[Cubes, Solution] | None = None
        answer = distributed.Variable(answer_variable(stop), client=self.client)

        def submit(task: Cubes) -> None:
            future = self.client.submit(
                cube_task,
                board,
                task,
                bound,
                split_nodes,
                budget.seconds_left(),
                stop,
                key=f"unflip-cube-{stop[12:]}-{bound}-{'.'.join(map(str, task[0].order))}",
                priority=search_priority(task),
            )
            pending[future] = task
            futures.append(future)

        for cube in cubes:
            submit((cube,))
        while pending:
            ready = [future for future in pending if future.done()]
            if not ready:
                if budget.spent():
                    return Stopped(cubes[0].target, bound, budget.nodes, budget.seconds())
                self.alive(heard)
                time.sleep(POLL_SECONDS)
                continue
            for future in ready:
                if future not in pending:
                    continue  # cancelled by a solution earlier in this batch
                task = pending.pop(future)
                outcome = self.result(future)
                done += 1
                self.finished.append((bound, task, outcome))
                budget.nodes += outcome.nodes
                if isinstance(outcome, Stopped):  # the time budget ran out inside the cube
                    return Stopped(outcome.target, bound, budget.nodes, budget.seconds())
                if first is not None and task[0].order > first[0][0].order:
                    continue  # finished before it could be cancelled: not needed
                if isinstance(outcome, Solution):
                    first = task, outcome
                    answer.set([bound, *task[0].order])  # cuts off the later tasks already running
                    later = [future for future, other in pending.items() if other[0].order > task[0].order]
                    self.client.cancel(later)
                    for future in later:
                        del pending[future]
                elif isinstance(outcome, Split):
                    for pieces in resumed_tasks(outcome.cubes):
                        submit(pieces)
            on_progress(ClusterProgress(bound, "searching", budget.nodes, done, len(pending)))
        if first is not None:
            return first[1]
        on_progress(ClusterProgress(bound, "exhausted", budget.nodes, done, 0))
        return None

    @contextlib.contextmanager
    def in_order(
        self, work: Callable[[Path, W], R], items: Sequence[W], name: str
    ) -> Iterator[list[Callable[[], R]]]:
        """Each item's work a task on one thread, all submitted at once, and for each item in turn the
        wait for its result (raised as the front end's errors, its own errors as they were raised on the
        worker). However the caller leaves (done, failed, interrupted), the tasks are cancelled and their
        solvers cut off."""
        heard = [time.monotonic()]

        def result_of(future: distributed.Future[R]) -> R:
            while not future.done():
                self.alive(heard)
                time.sleep(POLL_SECONDS)
            return self.result(future)

        with self.run() as (stop, futures):
            for number, item in enumerate(items):
                key = f"unflip-{name}-{stop[12:]}-{number}"
                futures.append(self.client.submit(whole_task, work, item, stop, key=key))
            yield [partial(result_of, future) for future in list(futures)]

    def searches(
        self, levels: Sequence[Level], settings: SolverSettings
    ) -> Iterator[tuple[Level, Callable[[], Outcome]]]:
        """Each level of --all solved whole on a worker; in the book's order, each level with the wait for
        its outcome, verified here again (a SolverError when the worker failed on it). A malformed level
        is not sent: check_level never searches it."""
        work = partial(solved_level, replace(settings, threads=1))
        wellformed = [level for level in levels if level.problem is None]
        with self.in_order(work, [level.board for level in wellformed], "level") as waits:
            wait_of = iter(waits)
            for level in levels:
                searched = not_searched if level.problem is not None else next(wait_of)
                yield level, partial(verified_wait, level.board, searched)

    @contextlib.contextmanager
    def proofs(self, boards: Sequence[Board], settings: SolverSettings) -> Iterator[Prove]:
        """annotate's proofs of the boards, each proven whole on a worker: the proof of a board waits for
        its task."""
        unique = list(dict.fromkeys(boards))
        work = partial(proven_level, replace(settings, threads=1))
        with self.in_order(work, unique, "proof") as waits:
            proof_of = dict(zip(unique, waits, strict=True))
            yield lambda board: proof_of[board]()

    @contextlib.contextmanager
    def drafts(self, plans: Sequence[Plan], settings: SolverSettings, seen: set[Board]) -> Iterator[Draft]:
        """generate's levels of every plan, each drawn and proven on a worker against the boards seen now
        (generator.generate_levels draws again a level whose board a level before it took since)."""
        planned = [(plan, index) for plan in plans for index in range(1, plan.count + 1)]
        work = partial(drafted_level, replace(settings, threads=1), frozenset(seen))
        with self.in_order(work, planned, "draft") as waits:
            draft_of = dict(zip(planned, waits, strict=True))
            yield lambda plan, index: draft_of[plan, index]()


def not_searched() -> Outcome:
    raise AssertionError("a malformed level is never searched")


def verified_wait(board: Board, wait: Callable[[], Outcome]) -> Outcome:
    return verified(board, wait())
