"""Cubes: one bound's search split into independent pieces by the solver (--cubes), and one piece searched
alone (--cube), read strictly (docs/protocol.md, "Cubes"). What a cluster (cluster.py) hands its workers;
nothing here needs one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .boards import TWO, Board, scheme_of, shape
from .contract import solver_contract
from .protocol import ProtocolReader, Solution, Stopped, Unsolvable, read_outcome
from .solver import no_progress, run_search

# A move row.col.size; under tri an entry pressing its square twice row.col.size.2.
MOVE = r"\d+\.\d+\.\d+(\.2)?"
CUBE_SPEC = re.compile(rf"[01]:\d+:({MOVE}(,{MOVE})*)?(:({MOVE}(,{MOVE})*)?){{2}}")
# A cube handed back is cut into about this many tasks, so that its biggest pieces (its shallowest
# untried branches) go to workers of their own; each task costs a solver's start, tens of milliseconds.
RESUMED_TASKS = 8
# How much bigger a piece one decision shallower is taken to be, for cutting them into tasks.
PIECE_GROWTH = 2.0


@dataclass(frozen=True, order=True)
class Cube:
    """A cube of one bound's search. Cubes sort in the undivided search's order: `order` is the cube's place
    in its listing, after its parent's when it was split from one."""

    order: tuple[int, ...]
    bound: int  # every solution in the cube has at least this many moves
    spec: str  # the solver's one-word form, target:group:path:excluded:refuted

    @property
    def target(self) -> int:
        return int(self.spec[0])

    @property
    def depth(self) -> int:
        """The moves its path makes."""
        path = self.spec.split(":")[2]
        return path.count(",") + 1 if path else 0


@dataclass(frozen=True)
class CubeListing:
    cubes: tuple[Cube, ...]  # in the search's order
    dropped: int  # branches whose bound already exceeds the bound
    nodes: int  # what the split entered above the cubes
    seconds: float


@dataclass(frozen=True)
class Exhausted:
    """A cube with no solution within `bound` moves."""

    bound: int
    nodes: int
    seconds: float


@dataclass(frozen=True)
class Split:
    """Cubes that ran past their node limit: what they had not searched, handed back as cubes in the
    search's order, and the nodes they had searched (none of which a piece searches again)."""

    cubes: tuple[Cube, ...]
    nodes: int


CubeOutcome = Solution | Exhausted | Split | Stopped
# Cubes searched in turn by one solver, as one: a task. In the search's order, each task's cubes before
# the next task's.
Cubes = tuple[Cube, ...]


def list_cubes(solver: Path, board: Board, target: str, bound: int, depth: int) -> CubeListing | Unsolvable:
    """The cubes of the board's search at `bound`, `depth` decisions down."""
    arguments = ["--cubes", str(depth), "--bound", str(bound), "--target", target]
    returncode, stdout, stderr = run_search(solver, board, arguments, no_progress, None)
    if returncode == 0:
        return read_listing(stdout, (), scheme_of(board))
    # The one other outcome a listing has: no target reachable, in the shape every mode shares.
    outcome = read_outcome(returncode, stdout, stderr, target, reject, scheme=scheme_of(board))
    assert isinstance(outcome, Unsolvable), outcome  # a listing is never stopped
    return outcome


def reject(reader: ProtocolReader, _target: int) -> None:
    raise reader.error("'CUBE', 'CUBES' or 'UNSOLVABLE'")


def read_listing(stdout: str, parent: tuple[int, ...], scheme: str = TWO) -> CubeListing:
    """CUBE c SPEC lines, then CUBES k (k of them), DROPPED d, NODES n, TIME s; under tri after SCHEME tri."""
    reader = ProtocolReader(stdout)
    reader.scheme(scheme)
    cubes = read_cubes(reader, parent)
    dropped, nodes = reader.number("DROPPED", int), reader.number("NODES", int)
    listing = CubeListing(cubes, dropped, nodes, reader.number("TIME", float))
    reader.end()
    return listing


def read_cubes(reader: ProtocolReader, parent: tuple[int, ...]) -> Cubes:
    """CUBE c SPEC lines, then CUBES k (k of them): cubes placed in order after `parent`."""
    cubes: list[Cube] = []

    def cube(parts: list[str]) -> Cube:
        if len(parts) != 3 or parts[0] != "CUBE" or not CUBE_SPEC.fullmatch(parts[2]):
            raise ValueError
        return Cube((*parent, len(cubes)), int(parts[1]), parts[2])

    while reader.starts("CUBE"):
        cubes.append(reader.take("'CUBE <bound> <target:group:path:excluded:refuted>'", cube))
    reader.number("CUBES", int, allowed=(len(cubes),))
    return tuple(cubes)


def search_cube(
    solver: Path,
    board: Board,
    cubes: Cubes,
    bound: int,
    max_nodes: int | None,
    max_seconds: float | None,
    hand_back: bool = False,
) -> Solution | Exhausted | Stopped | Split:
    """The cubes searched in turn at `bound`, on one thread, so that the answer is the same on any worker:
    the first one's solution that has one (the whole line, the cube's moves first), Exhausted, or Stopped
    by the budget; with hand_back, cubes the node budget stopped hand back what they had not searched
    (Split). Progress lines stay on: they are the solver's heartbeat, which ends it (by SIGPIPE) within a
    second of its worker's death."""
    arguments = [word for cube in cubes for word in ("--cube", cube.spec)]
    arguments += ["--bound", str(bound), "--threads", "1"] + ["--hand-back"] * hand_back
    for flag, value in (("--max-nodes", max_nodes), ("--max-seconds", max_seconds)):
        if value is not None:
            arguments += [flag, str(value)]
    returncode, stdout, stderr = run_search(solver, board, arguments, no_progress, max_seconds)
    exits = solver_contract().exits

    def solution(reader: ProtocolReader, reported: int) -> Solution:
        count = reader.number("MOVES", int)
        moves = tuple(reader.move(*shape(board)) for _ in range(count))
        return Solution(reported, moves, reader.number("NODES", int), reader.number("TIME", float))

    target = cubes[0].target
    scheme = scheme_of(board)
    if returncode == exits.unsolvable:  # within these cubes: EXHAUSTED
        reader = ProtocolReader(stdout)
        reader.scheme(scheme)
        reader.number("TARGET", int, allowed=(target,))
        exhausted = reader.number("EXHAUSTED", int, allowed=(bound,))
        nodes, seconds = reader.number("NODES", int), reader.number("TIME", float)
        reader.end()
        return Exhausted(exhausted, nodes, seconds)
    rest: Cubes = ()
    if returncode == exits.stopped and hand_back:
        # The cubes handed back open the output, after the scheme's line; the outcome follows without it.
        reader = ProtocolReader(stdout)
        reader.scheme(scheme)
        rest = read_cubes(reader, cubes[0].order)
        stdout, scheme = "\n".join(reader.lines[reader.index :]), TWO
    outcome = read_outcome(returncode, stdout, stderr, str(target), solution, scheme=scheme)
    assert not isinstance(outcome, Unsolvable)  # exit 1 is EXHAUSTED, read above
    if rest and isinstance(outcome, Stopped):  # none when the time budget stopped it
        return Split(rest, outcome.nodes)
    return outcome


def search_or_split(
    solver: Path, board: Board, cubes: Cubes, bound: int, split_nodes: int, max_seconds: float | None
) -> CubeOutcome:
    """The cubes searched within `split_nodes` nodes; past them, what they had not searched handed back,
    for its pieces to be spread in their place."""
    return search_cube(solver, board, cubes, bound, split_nodes, max_seconds, hand_back=True)


def resumed_tasks(pieces: Cubes) -> list[Cubes]:
    """A split's pieces as about RESUMED_TASKS tasks, each a run of pieces in the search's order: the
    deep pieces (the first, and small) together, the shallow ones (the last, and big) alone."""
    if not pieces:
        return []
    shallowest = min(piece.depth for piece in pieces)
    weights = [PIECE_GROWTH ** (shallowest - piece.depth) for piece in pieces]
    share = sum(weights) / RESUMED_TASKS
    tasks: list[Cubes] = []
    run: list[Cube] = []
    held = 0.0
    for piece, weight in zip(pieces, weights, strict=True):
        if run and held + weight > share:
            tasks.append(tuple(run))
            run, held = [], 0.0
        run.append(piece)
        held += weight
    return [*tasks, tuple(run)]
