"""The level generator: new puzzles whose par is the optimum the solver proved, never the number of random
moves that made them. Everything it draws comes from SHA-256 of the seed, so a book is the same bytes on
every machine and Python version, and each level records what remakes it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .boards import Board, all_moves, apply_move, shape
from .books import book_tiles
from .errors import InputError, SolverError
from .protocol import Solution, shortfall
from .solver import SolverSettings, no_progress
from .verify import solve_board

GENERATOR_VERSION = 2
MAX_ATTEMPTS = 400  # draws per level before a plan is declared impossible


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


def scrambled_board(height: int, width: int, scramble: int, seed: str) -> Board:
    """The board that `scramble` random flips make of an all-white one: solvable by construction."""
    draws = SeededDraws(f"{seed}/flips")
    moves = all_moves(height, width)
    board: Board = tuple((0,) * width for _ in range(height))
    for _ in range(scramble):
        board = apply_move(board, moves[draws.below(len(moves))])
    return board


def symmetry_key(board: Board) -> Board:
    """The same key for a board and its rotations and reflections."""
    variants = []
    current = board
    for _ in range(4):
        current = tuple(zip(*current[::-1], strict=True))  # a quarter turn
        variants += [current, tuple(row[::-1] for row in current)]
    return min(variants)


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

    def __str__(self) -> str:
        sides = [self.heights] if self.widths is None else [self.heights, self.widths]
        return "×".join(f"{low}" if low == high else f"{low}–{high}" for low, high in sides)


@dataclass(frozen=True)
class Plan:
    """What a book asks of its levels."""

    kind: str  # daily, main or weekly: titles, ids, ordering, and mode "challenge" for weekly
    count: int
    shapes: Shapes
    optimum: tuple[int, int]  # accepted par, inclusive
    seed: str

    def draw_shape(self, draws: SeededDraws) -> tuple[int, int, int]:
        """A height and width, and a number of random flips that can reach the accepted optimum: the
        optimum is at most the flips made, and a few more than the top of the range may still come out
        inside it."""
        height, width = self.shapes.draw(draws)
        low, high = self.optimum
        return height, width, draws.between(low, high + 2)


SHIPPED_PLANS = (
    Plan("daily", 159, Shapes((4, 10)), (3, 16), "unflip-daily"),
    Plan("main", 120, Shapes((4, 9)), (1, 13), "unflip-main"),
    Plan("weekly", 25, Shapes((9, 13)), (12, 20), "unflip-weekly"),
)


@dataclass(frozen=True)
class Generated:
    board: Board
    par: int
    seed: str
    scramble: int

    def made(self) -> dict[str, object]:
        """What remakes the level: a square's side as `size` (as books have always had it), else `height`
        and `width`."""
        height, width = shape(self.board)
        sides: dict[str, object] = {"size": height} if height == width else {"height": height, "width": width}
        return {"version": GENERATOR_VERSION, "seed": self.seed, **sides, "scramble": self.scramble}


def generate_levels(
    plan: Plan, solver: Path, settings: SolverSettings, seen: set[Board], on_level: Callable[[int], None]
) -> list[Generated]:
    """The plan's levels in draw order. Level i tries seeds '<seed>/<i>/<attempt>' until one gives a new
    board (also under symmetry, and not already white) whose proven optimum is in range."""
    levels: list[Generated] = []
    for index in range(1, plan.count + 1):
        for attempt in range(MAX_ATTEMPTS):
            seed = f"{plan.seed}/{index}/{attempt}"
            height, width, scramble = plan.draw_shape(SeededDraws(f"{seed}/shape"))
            board = scrambled_board(height, width, scramble, seed)
            key = symmetry_key(board)
            if key in seen or not any(map(any, board)):
                continue
            outcome = solve_board(solver, board, settings, no_progress)
            if not isinstance(outcome, Solution):
                raise SolverError(
                    f"the solver gave no optimum for generated level {seed} ({shortfall(outcome)})"
                )
            if plan.optimum[0] <= len(outcome.moves) <= plan.optimum[1]:
                seen.add(key)
                levels.append(Generated(board, len(outcome.moves), seed, scramble))
                on_level(index)
                break
        else:
            raise InputError(
                f"no level with an optimum of {plan.optimum[0]}–{plan.optimum[1]} on "
                f"{plan.shapes} boards after {MAX_ATTEMPTS} tries; widen the ranges"
            )
    if plan.kind == "main":
        # Difficulty rises gently through the main book: by par, then board size.
        levels.sort(key=lambda level: (level.par, shape(level.board)))
    return levels


def book_json(plan: Plan, levels: list[Generated]) -> str:
    """The game's own format, one level a line so diffs read well."""
    titles = {"daily": "Daily #{}", "main": "Level {}", "weekly": "Weekly #{}"}
    entries = []
    for number, level in enumerate(levels, 1):
        entry: dict[str, object] = {
            "id": f"{plan.seed}-{number:03d}",
            "index": number - 1,
            "title": titles[plan.kind].format(number),
            "tiles": book_tiles(level.board),
            "par": level.par,
            "colorScheme": "BW",
            "tileShape": "square",
            "__type__": "Level",
            "generator": level.made(),
        }
        if plan.kind == "weekly":
            entry["mode"] = "challenge"
        entries.append(json.dumps(entry, separators=(",", ":")))
    header = json.dumps(
        {"id": plan.seed, "title": f"unflip {plan.kind} levels, made by unflip.py generate"},
        separators=(",", ":"),
    )
    return header[:-1] + ',"levels":[\n' + ",\n".join(entries) + "\n]}\n"
