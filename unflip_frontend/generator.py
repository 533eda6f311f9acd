"""The level generator: new puzzles whose par is the optimum the solver proved, never the number of random
moves that made them. Everything it draws comes from SHA-256 of the seed, so a book is the same bytes on
every machine and Python version, and each level records what remakes it."""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterator, Set
from dataclasses import dataclass
from pathlib import Path

from .annotate import Proof, solver_prover
from .boards import (
    RECTANGLE_GROUPS,
    SCHEMES,
    SYMMETRY_GROUPS,
    TILE_MAPS,
    TRI,
    TWO,
    Board,
    Move,
    all_moves,
    apply_move,
    board_image,
    move_image,
    moves_word,
    scheme_of,
    shape,
)
from .books import book_tiles
from .bound_and_count import LowerBound, OptimaCount
from .difficulty import Signals, figure_named, level_signals
from .errors import InputError, SolverError
from .game_vectors import Vector, game_moves, vector_board, vector_to_moves
from .protocol import Solution, Stopped, Unsolvable, shortfall
from .solver import SolverSettings, count_optima, covering_bound, no_progress
from .verify import solve_board

GENERATOR_VERSION = 2
# Draws per level before a plan is declared impossible; many more when it asks for a unique optimum or a
# gap, which only a few boards in a hundred have.
MAX_ATTEMPTS = 400
MAX_FILTERED_ATTEMPTS = 4000
# Optima listed to find a level's canonical solution. A level with more gets it by probing (game_vectors.py),
# a proof per move at most, after a second listing on one thread: far dearer than listing a few hundred more
# (annotate on the game's weekly book took 132 s with a cap of 200, 40 s listing every optimum), but a cap
# keeps a level with a flood of optima from filling memory.
CANONICAL_LISTING = 10_000


class SeededDraws:
    """Whole numbers drawn from SHA-256 in counter mode (random.Random's algorithms are not promised to
    stay the same across Python versions; a shipped book must)."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.counter = 0

    def below(self, bound: int) -> int:
        limit = (1 << 64) - (1 << 64) % bound  # reject the uneven tail, so every value is equally likely
        while True:
            digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
            self.counter += 1
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                return value % bound

    def between(self, low: int, high: int) -> int:
        return low + self.below(high - low + 1)


def orbits(height: int, width: int, seed: str, symmetry: str | None) -> Iterator[frozenset[Move]]:
    """Endless random draws of a move, each with its images under the symmetry group (without one, the
    move alone)."""
    draws = SeededDraws(f"{seed}/flips")
    moves = all_moves(height, width)
    maps = SYMMETRY_GROUPS[symmetry] if symmetry else ()
    while True:
        move = moves[draws.below(len(moves))]
        yield frozenset([move, *(move_image(move, tile_map, height, width) for tile_map in maps)])


def scrambled_board(
    height: int, width: int, scramble: int, seed: str, symmetry: str | None = None, scheme: str = TWO
) -> Board:
    """The board that `scramble` random draws make of an all-white one, each flipping a square and its
    images under the symmetry: solvable by construction, and symmetric, since the flips are. A tri board is
    made as the game's editor makes one, each draw pressing its squares the editor's way (1 → 2 → 3 of the
    game's tiles), so that the draws themselves are a solution, as a link's vector is."""
    if scheme == TRI:
        presses = Counter(itertools.chain(*itertools.islice(orbits(height, width, seed, symmetry), scramble)))
        vector = [presses[move] % 3 for move in game_moves(height, width)]
        return vector_board(vector, height, width, TRI)
    board: Board = tuple((0,) * width for _ in range(height))
    for orbit in itertools.islice(orbits(height, width, seed, symmetry), scramble):
        for move in orbit:
            board = apply_move(board, move)
    return board


def scramble_within(
    height: int, width: int, flips: int, seed: str, symmetry: str | None, scheme: str = TWO
) -> tuple[int, int]:
    """How many draws flip at most `flips` squares in all (without a symmetry each draw is one flip), and
    how many presses the squares drawn come to once a square's presses that undo each other are dropped
    (two-colour: one for a square drawn an odd number of times; tri: its draws mod 3): a solution, so the
    optimum is no more."""
    scramble = flipped = 0
    presses: Counter[Move] = Counter()
    for orbit in orbits(height, width, seed, symmetry):
        if flipped + len(orbit) > flips:
            return scramble, sum(times % SCHEMES[scheme] for times in presses.values())
        scramble, flipped = scramble + 1, flipped + len(orbit)
        presses.update(orbit)
    raise AssertionError("orbits() never ends")


def symmetry_key(board: Board) -> Board:
    """The same key for a board and its rotations and reflections."""
    return min([board, *(board_image(board, tile_map) for tile_map in TILE_MAPS)])


@dataclass(frozen=True)
class Shapes:
    """The board shapes a plan draws from: squares whose side is drawn from `heights` when `widths` is None
    (--size 4-10), else a height drawn from `heights`, then a width from `widths` (--size 7x10,
    --size 5-7x8-12)."""

    heights: tuple[int, int]
    widths: tuple[int, int] | None = None

    def draw(self, draws: SeededDraws) -> tuple[int, int]:
        height = draws.between(*self.heights)
        return height, height if self.widths is None else draws.between(*self.widths)

    def squares_only(self) -> bool:
        return self.widths is None or self.heights == self.widths == (self.heights[0],) * 2

    def __str__(self) -> str:
        """As --size gives them: '4–10', '7×10', '5–7×8–12'."""
        sides = [self.heights] if self.widths is None else [self.heights, self.widths]
        return "×".join(f"{low}" if low == high else f"{low}–{high}" for low, high in sides)

    def boards(self) -> str:
        """In words: '4×4 boards', '4×4 to 10×10 boards', '7×10 boards', '5–7×8–12 boards'."""
        if self.widths is not None:
            return f"{self} boards"
        low, high = self.heights
        return f"{low}×{low} boards" if low == high else f"{low}×{low} to {high}×{high} boards"


@dataclass(frozen=True)
class Plan:
    """What a book asks of its levels: how many, their shapes, the optimum (par) accepted, the seed, and
    what makes a challenge: a symmetry (a group drawn for each level from those given), a unique optimal
    solution, and a gap of at least min_gap between the optimum and the covering bound at the root, which
    makes an optimum hard to prove. A difficulty asked for is a range of the level's minEric, its obv×100,
    or both (difficulty.py, over every optimum); order_by, a figure of difficulty.FIGURES, orders the levels
    by it, rising."""

    kind: str  # daily, main or weekly: titles, ids, ordering, and mode "challenge" for weekly
    count: int
    shapes: Shapes
    optimum: tuple[int, int]  # accepted par, inclusive
    seed: str
    symmetries: tuple[str, ...] = ()
    unique: bool = False
    min_gap: int = 0
    eric: tuple[int, int] | None = None  # accepted minEric, inclusive
    obvious: tuple[int, int] | None = None  # accepted obv×100, inclusive
    order_by: str | None = None
    scheme: str = TWO  # the levels' colours: tri draws the game's three-colour levels

    def draw(self, draws: SeededDraws) -> tuple[int, int, int, str | None]:
        """A height and width, a number of squares to flip that can reach the accepted optimum (the optimum
        is at most the flips made, and a few more than the top of the range may still come out inside
        it), and a symmetry group when the plan asks for one."""
        height, width = self.shapes.draw(draws)
        low, high = self.optimum
        flips = draws.between(low, high + 2)
        symmetry = self.symmetries[draws.below(len(self.symmetries))] if self.symmetries else None
        return height, width, flips, symmetry

    def filtered(self) -> bool:
        return self.unique or self.min_gap > 0 or self.eric is not None or self.obvious is not None

    def measured(self) -> bool:
        """Whether the levels' signals are needed: for a difficulty asked for, or for the order."""
        return self.eric is not None or self.obvious is not None or self.order_by is not None

    def fits(self, signals: Signals) -> bool:
        """Whether a level's figures are within the difficulty asked for. Its least figures over some of its
        optima are not the least over all, so a level with more optima than were listed never fits."""
        asked = ((self.eric, signals.min_eric), (self.obvious, signals.obvious_100))
        if self.eric is None and self.obvious is None:
            return True
        return signals.complete and all(
            bounds is None or bounds[0] <= value <= bounds[1] for bounds, value in asked
        )

    def check(self) -> None:
        """A plan whose shapes lack a symmetry it asks for, or a minEric its boards cannot have: refused
        before any level is drawn, not after thousands of draws."""
        if self.scheme == TRI and (self.measured() or self.order_by is not None):
            raise InputError(
                "--eric, --obv and --order-by are the game's two-colour measures: drop them for --scheme tri"
            )
        for group in self.symmetries:
            if not self.shapes.squares_only() and group not in RECTANGLE_GROUPS:
                raise InputError(
                    f"--symmetric {group} needs square boards, and --size {self.shapes} draws rectangles, "
                    f"which have only {', '.join(RECTANGLE_GROUPS)}"
                )
        # No more signatures than tiles, and the empty one.
        most = self.shapes.heights[1] * (self.shapes.widths or self.shapes.heights)[1] + 1
        if self.eric is not None and self.eric[0] > most:
            raise InputError(
                f"--eric {self.eric[0]}–{self.eric[1]} is out of reach: an Eric number on "
                f"{self.shapes.boards()} is at most {most} (a signature a tile, and the empty one)"
            )

    def described(self) -> str:
        asked = [f"an optimum of {self.optimum[0]}–{self.optimum[1]}"]
        if self.symmetries:
            asked.append(f"symmetric ({', '.join(self.symmetries)})")
        if self.unique:
            asked.append("a unique optimum")
        if self.min_gap:
            asked.append(f"a gap of {self.min_gap} or more over the lower bound")
        for name, bounds in (("minEric", self.eric), ("obv×100", self.obvious)):
            if bounds is not None:
                asked.append(f"a {name} of {bounds[0]}–{bounds[1]}")
        return ", ".join(asked)


# The groups of the weekly challenges: those the game's own challenges have most (all eight symmetries, the
# half turn, the quarter turns, a mirror, the diagonals).
WEEKLY_SYMMETRIES = ("square", "half-turn", "quarter-turn", "mirror", "diagonals")

# The shipped books, each made of its plans' levels in turn. Every weekly challenge is symmetric with one
# optimal solution, and the last few have an optimum at least 4 over the root's lower bound.
SHIPPED_BOOKS: dict[str, tuple[Plan, ...]] = {
    "daily": (Plan("daily", 159, Shapes((4, 10)), (3, 16), "unflip-daily"),),
    "main": (Plan("main", 120, Shapes((4, 9)), (1, 13), "unflip-main"),),
    "weekly": (
        Plan("weekly", 22, Shapes((9, 13)), (14, 20), "unflip-weekly", WEEKLY_SYMMETRIES, unique=True),
        Plan(
            "weekly", 3, Shapes((9, 13)), (14, 20), "unflip-weekly-hard", WEEKLY_SYMMETRIES, True, min_gap=4
        ),
    ),
}


@dataclass(frozen=True)
class Generated:
    board: Board
    par: int
    seed: str
    scramble: int
    solution: Vector  # the canonical optimal solution, in the game's move order
    only_optimum: bool  # the level has no other optimal solution: `solutions` lists every one
    symmetry: str | None = None
    signals: Signals | None = None  # when the plan measures its levels (Plan.measured)

    def made(self) -> dict[str, object]:
        """What remakes the level: a square's side as `size` (as books have always had it), else `height`
        and `width`; the symmetry group, when there is one."""
        height, width = shape(self.board)
        sides: dict[str, object] = {"size": height} if height == width else {"height": height, "width": width}
        made = {"version": GENERATOR_VERSION, "seed": self.seed, **sides, "scramble": self.scramble}
        tri = {"scheme": TRI} if scheme_of(self.board) == TRI else {}
        return made | ({"symmetry": self.symmetry} if self.symmetry else {}) | tri


def no_optimum(seed: str, outcome: Unsolvable | Stopped) -> SolverError:
    return SolverError(f"the solver gave no optimum for generated level {seed} ({shortfall(outcome)})")


def proven_par(
    plan: Plan, board: Board, at_most: int, seed: str, solver: Path, settings: SolverSettings
) -> int | None:
    """The board's optimum, proven and its solution replayed, when the board is what the plan asks for;
    None when it is not. at_most is the squares that made it, which no optimum exceeds. The cheap checks go
    first: the root's covering bound (no search) rules out most boards that cannot have the gap asked for."""
    low, high = plan.optimum
    bound = 0
    if plan.min_gap:
        root = covering_bound(solver, board, settings)
        if not isinstance(root, LowerBound):
            raise no_optimum(seed, root)
        bound = root.bound
        if bound > high or bound + plan.min_gap > at_most:
            return None
    outcome = solve_board(solver, board, settings, no_progress)
    if not isinstance(outcome, Solution):
        raise no_optimum(seed, outcome)
    par = len(outcome.moves)
    if not low <= par <= high or par - bound < plan.min_gap:
        return None
    if plan.unique:
        counted = count_optima(solver, board, settings, 2)
        if not isinstance(counted, OptimaCount):
            raise no_optimum(seed, counted)
        if counted.optimum != par:
            raise SolverError(
                f"the solver solved generated level {seed} in {moves_word(par)} but counted optimal "
                f"solutions of {moves_word(counted.optimum)}"
            )
        if not counted.unique:
            return None
    return par


def canonical_solution(board: Board, par: int, seed: str, solver: Path, settings: SolverSettings) -> Proof:
    """The level's optima as annotate proves them: the canonical one first, the same at every thread
    count, so the book is the same bytes."""
    listing = dataclasses.replace(settings, max_solutions=CANONICAL_LISTING)
    proof = solver_prover(solver, listing)(board)
    if not isinstance(proof, Proof) or proof.optimum != par or proof.canonical is None:
        raise SolverError(
            f"the solver proved an optimum of {moves_word(par)} for generated level {seed}, "
            "but listed no optimal solution of that many"
        )
    return proof


def proof_signals(board: Board, proof: Proof) -> Signals:
    """A level's signals over the optima its canonical listing holds: every one, up to CANONICAL_LISTING."""
    assert proof.root_bound is not None  # canonical_solution checked that it has an optimum
    height, width = shape(board)
    solutions = [vector_to_moves(vector, height, width, scheme_of(board)) for vector in proof.optima]
    return level_signals(board, 0, solutions, proof.complete, proof.root_bound)


# A plan's level i drawn and proven: (the attempt that made it, the level), given the boards seen when the
# book began. What generate_levels draws from: a search on this machine, or a cluster's task (cluster.py).
Draft = Callable[["Plan", int], tuple[int, "Generated"]]


def find_level(
    plan: Plan, index: int, solver: Path, settings: SolverSettings, seen: Set[Board], first: int = 0
) -> tuple[int, Generated]:
    """The plan's level `index`: the first attempt from `first` on, with seed '<seed>/<index>/<attempt>',
    that gives a new board (also under symmetry, and not already white) that is what the plan asks for."""
    attempts = MAX_FILTERED_ATTEMPTS if plan.filtered() else MAX_ATTEMPTS
    for attempt in range(first, attempts):
        seed = f"{plan.seed}/{index}/{attempt}"
        height, width, flips, symmetry = plan.draw(SeededDraws(f"{seed}/shape"))
        scramble, at_most = scramble_within(height, width, flips, seed, symmetry, plan.scheme)
        board = scrambled_board(height, width, scramble, seed, symmetry, plan.scheme)
        if symmetry_key(board) in seen or not any(map(any, board)):
            continue
        par = proven_par(plan, board, at_most, seed, solver, settings)
        if par is None:
            continue
        proof = canonical_solution(board, par, seed, solver, settings)
        assert proof.canonical is not None  # canonical_solution checked it
        signals = proof_signals(board, proof) if plan.measured() else None
        if signals is not None and not plan.fits(signals):
            continue
        only = proof.complete and len(proof.optima) == 1
        return attempt, Generated(board, par, seed, scramble, proof.canonical, only, symmetry, signals)
    raise InputError(
        f"no level with {plan.described()} on {plan.shapes.boards()} after {attempts} tries; widen the ranges"
    )


def generate_levels(
    plan: Plan,
    solver: Path,
    settings: SolverSettings,
    seen: set[Board],
    on_level: Callable[[int], None],
    draft: Draft | None = None,
) -> list[Generated]:
    """The plan's levels in draw order, each board added to `seen`. A draft made before the levels ahead
    of it were (on a cluster, all at once) may have drawn a board one of them took since: the level is
    then drawn on from the attempt after it, here, as it would have been had it been drawn last. Every
    attempt before it found its board seen already or not what the plan asks for, either of which it
    still is, so the level is the one drawn in turn."""
    plan.check()
    levels: list[Generated] = []
    for index in range(1, plan.count + 1):
        if draft is None:
            attempt, level = find_level(plan, index, solver, settings, seen)
        else:
            attempt, level = draft(plan, index)
            if symmetry_key(level.board) in seen:
                attempt, level = find_level(plan, index, solver, settings, seen, attempt + 1)
        seen.add(symmetry_key(level.board))
        levels.append(level)
        on_level(index)
    if plan.order_by is not None:
        # Rising by the figure asked for; levels that tie keep the order they were drawn in.
        figure = figure_named(plan.order_by)
        levels.sort(key=lambda level: figure.value(measured(level)))
    elif plan.kind == "main":
        # Difficulty rises gently through the main book: by par, then board size.
        levels.sort(key=lambda level: (level.par, shape(level.board)))
    return levels


def measured(level: Generated) -> Signals:
    assert level.signals is not None, "a plan with an order measures its levels"
    return level.signals


def generate_book(
    plans: tuple[Plan, ...],
    solver: Path,
    settings: SolverSettings,
    seen: set[Board],
    on_level: Callable[[int], None],
    draft: Draft | None = None,
) -> str:
    """A book of the plans' levels in turn, in the first plan's kind, named by its seed."""
    levels = [
        level for plan in plans for level in generate_levels(plan, solver, settings, seen, on_level, draft)
    ]
    return book_json(plans[0].kind, plans[0].seed, levels)


def book_json(kind: str, seed: str, levels: list[Generated]) -> str:
    """The game's own format, one level a line so diffs read well. A level's par is also in its
    `solutions` (the canonical optimum), which the game takes par from, and in `solutionVector`, which its
    earlier loader reads; `solutionType` is "exhaustive" when that one is the only optimum."""
    titles = {"daily": "Daily #{}", "main": "Level {}", "weekly": "Weekly #{}"}
    entries = []
    for number, level in enumerate(levels, 1):
        entry: dict[str, object] = {
            "id": f"{seed}-{number:03d}",
            "index": number - 1,
            "title": titles[kind].format(number),
            "tiles": book_tiles(level.board),
            "par": level.par,
            "solutions": [list(level.solution)],
            "solutionVector": list(level.solution),
            "solutionType": "exhaustive" if level.only_optimum else "optimal",
            "colorScheme": "tri" if scheme_of(level.board) == TRI else "BW",
            "tileShape": "square",
            "__type__": "Level",
            "generator": level.made(),
        }
        if kind == "weekly":
            entry["mode"] = "challenge"
        entries.append(json.dumps(entry, separators=(",", ":")))
    header = json.dumps(
        {"id": seed, "title": f"unflip {kind} levels, made by unflip.py generate"},
        separators=(",", ":"),
    )
    return header[:-1] + ',"levels":[\n' + ",\n".join(entries) + "\n]}\n"
