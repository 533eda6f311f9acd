"""Cubes: one bound's search split into independent pieces by the solver (--cubes), and one piece searched
alone (--cube), read strictly (docs/protocol.md, "Cubes"). What a cluster (cluster.py) hands its workers;
nothing here needs one."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .boards import Board, shape
from .contract import solver_contract
from .protocol import ProtocolReader, Solution, Stopped, Unsolvable, read_outcome
from .solver import no_progress, run_search

CUBE_SPEC = re.compile(r"[01]:\d+:(\d+\.\d+\.\d+(,\d+\.\d+\.\d+)*)?(:(\d+\.\d+\.\d+(,\d+\.\d+\.\d+)*)?){2}")
# Too-big cubes are split this many decisions further.
RESPLIT_DEPTH = 2


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
    """A cube that ran past its node limit, split further: its pieces, and the nodes spent on finding out."""

    cubes: tuple[Cube, ...]
    nodes: int


CubeOutcome = Solution | Exhausted | Split | Stopped


def list_cubes(
    solver: Path, board: Board, target: str, bound: int, depth: int, within: Cube | None = None
) -> CubeListing | Unsolvable:
    """The cubes of the board's search at `bound`, `depth` decisions down (below `within` when given)."""
    arguments = ["--cubes", str(depth), "--bound", str(bound)]
    arguments += ["--cube", within.spec] if within else ["--target", target]
    returncode, stdout, stderr = run_search(solver, board, arguments, no_progress, None)
    if returncode == 0:
        return read_listing(stdout, within.order if within else ())
    # The one other outcome a listing has: no target reachable, in the shape every mode shares.
    outcome = read_outcome(
        returncode, stdout, stderr, target if within is None else str(within.target), reject
    )
    assert isinstance(outcome, Unsolvable), outcome  # a listing is never stopped
    return outcome


def reject(reader: ProtocolReader, _target: int) -> None:
    raise reader.error("'CUBE', 'CUBES' or 'UNSOLVABLE'")


def read_listing(stdout: str, parent: tuple[int, ...]) -> CubeListing:
    """CUBE c SPEC lines, then CUBES k (k of them), DROPPED d, NODES n, TIME s."""
    reader = ProtocolReader(stdout)
    cubes: list[Cube] = []

    def cube(parts: list[str]) -> Cube:
        if len(parts) != 3 or parts[0] != "CUBE" or not CUBE_SPEC.fullmatch(parts[2]):
            raise ValueError
        return Cube((*parent, len(cubes)), int(parts[1]), parts[2])

    while reader.starts("CUBE"):
        cubes.append(reader.take("'CUBE <bound> <target:group:path:excluded:refuted>'", cube))
    reader.number("CUBES", int, allowed=(len(cubes),))
    dropped, nodes = reader.number("DROPPED", int), reader.number("NODES", int)
    listing = CubeListing(tuple(cubes), dropped, nodes, reader.number("TIME", float))
    reader.end()
    return listing


def search_cube(
    solver: Path, board: Board, cube: Cube, bound: int, max_nodes: int | None, max_seconds: float | None
) -> Solution | Exhausted | Stopped:
    """The cube searched alone at `bound`, on one thread, so that its answer is the same on any worker:
    its solution (the whole line, the cube's moves first), Exhausted, or Stopped by the budget. Progress
    lines stay on: they are the solver's heartbeat, which ends it (by SIGPIPE) within a second of its
    worker's death."""
    arguments = ["--cube", cube.spec, "--bound", str(bound), "--threads", "1"]
    for flag, value in (("--max-nodes", max_nodes), ("--max-seconds", max_seconds)):
        if value is not None:
            arguments += [flag, str(value)]
    returncode, stdout, stderr = run_search(solver, board, arguments, no_progress, max_seconds)

    def solution(reader: ProtocolReader, reported: int) -> Solution:
        count = reader.number("MOVES", int)
        moves = tuple(reader.move(*shape(board)) for _ in range(count))
        return Solution(reported, moves, reader.number("NODES", int), reader.number("TIME", float))

    if returncode == solver_contract().exits.unsolvable:  # within this cube: EXHAUSTED
        reader = ProtocolReader(stdout)
        reader.number("TARGET", int, allowed=(cube.target,))
        exhausted = reader.number("EXHAUSTED", int, allowed=(bound,))
        nodes, seconds = reader.number("NODES", int), reader.number("TIME", float)
        reader.end()
        return Exhausted(exhausted, nodes, seconds)
    outcome = read_outcome(returncode, stdout, stderr, str(cube.target), solution)
    assert not isinstance(outcome, Unsolvable)  # exit 1 is EXHAUSTED, read above
    return outcome


def search_or_split(
    solver: Path, board: Board, cube: Cube, bound: int, split_nodes: int, max_seconds: float | None
) -> CubeOutcome:
    """The cube searched within `split_nodes` nodes; past them, split RESPLIT_DEPTH decisions further, for
    its pieces to be spread in its place."""
    found = search_cube(solver, board, cube, bound, split_nodes, max_seconds)
    if not isinstance(found, Stopped) or found.nodes < split_nodes:
        return found
    listing = list_cubes(solver, board, str(cube.target), bound, RESPLIT_DEPTH, cube)
    assert not isinstance(listing, Unsolvable)
    return Split(listing.cubes, found.nodes + listing.nodes)
