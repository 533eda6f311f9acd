"""The solver's two answers besides a search's outcome: the root's proven lower bound (--lower-bound, with no
search) and how many optimal solutions there are (--count), each read strictly, as protocol.py reads every
outcome. Only the API's lower_bound and count_solutions, the signals and the generator ask for them: a solve
does not load them (docs/results.md, "Start-up")."""

from __future__ import annotations

from dataclasses import dataclass

from .boards import TWO
from .protocol import ProtocolReader, Stopped, Unsolvable, read_outcome


@dataclass(frozen=True)
class OptimaCount:
    """How many optimal solutions there are (--count), each a set of moves, up to the limit asked for."""

    target: int
    optimum: int
    count: int
    complete: bool  # False when the limit stopped the count: there may be more
    nodes: int
    seconds: float

    @property
    def unique(self) -> bool:
        return self.count == 1 and self.complete


@dataclass(frozen=True)
class LowerBound:
    """The root's proven lower bound (--lower-bound): every solution needs at least this many moves."""

    target: int
    bound: int
    seconds: float


def parse_count_output(
    returncode: int, stdout: str, stderr: str, target: str, scheme: str = TWO
) -> OptimaCount | Unsolvable | Stopped:
    """--count (with --max-solutions K): the optimum, SOLUTIONS k, and INCOMPLETE when K stopped it."""

    def counted(reader: ProtocolReader, reported: int) -> OptimaCount:
        optimum = reader.number("MOVES", int)
        count = reader.number("SOLUTIONS", int)
        complete = not reader.optional_keyword("INCOMPLETE")
        nodes, seconds = reader.number("NODES", int), reader.number("TIME", float)
        return OptimaCount(reported, optimum, count, complete, nodes, seconds)

    return read_outcome(returncode, stdout, stderr, target, counted, counting=True, scheme=scheme)


def parse_lower_bound_output(
    returncode: int, stdout: str, stderr: str, target: str, scheme: str = TWO
) -> LowerBound | Unsolvable | Stopped:
    """--lower-bound: LOWER_BOUND b, with no search."""

    def bound(reader: ProtocolReader, reported: int) -> LowerBound:
        value = reader.number("LOWER_BOUND", int)
        reader.number("NODES", int)
        return LowerBound(reported, value, reader.number("TIME", float))

    return read_outcome(returncode, stdout, stderr, target, bound, scheme=scheme)
