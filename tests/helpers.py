"""What several test files need: the repository's root, its Makefile's programs built, whether this is
CI, boards made by flipping squares, and boards in the game's tile encoding. Written apart from the front
end (on the oracle's boards), so a test built on these does not lean on the code it checks."""

from __future__ import annotations

import functools
import os
import random
import resource
import subprocess
from pathlib import Path

import numpy as np
import pytest
from oracle import Board, Move, TriBoard, board_text, random_board, replay, uniform

from unflip_frontend.contract import solver_contract

REPO = Path(__file__).resolve().parent.parent
# The sides a board may have, as solver/contract.def states them: a test at the limit reads it from there.
MIN_SIDE, MAX_SIDE = solver_contract().limits.min_side, solver_contract().limits.max_side


def built(target: str) -> Path:
    """The Makefile's `target` brought up to date, as a path; a build that fails fails the test with
    make's output."""
    build = subprocess.run(["make", "--no-print-directory", target], cwd=REPO, capture_output=True, text=True)
    if build.returncode != 0:
        pytest.fail(f"`make {target}` failed:\n{build.stdout}\n{build.stderr}")
    return REPO / target


def limit_memory() -> None:
    """A preexec_fn: 1 GiB of address space, so that a program reading without a cap fails fast (MemoryError)
    instead of filling the machine."""
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run_checker(*args: object) -> subprocess.CompletedProcess[str]:
    """The independent certificate checker as a program, as a sceptic runs it (python3, nothing installed)."""
    command = ["python3", str(REPO / "unflip_frontend" / "certificate_check.py"), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, preexec_fn=limit_memory, timeout=120)


def in_ci() -> bool:
    """Under CI=true, what a test needs from the machine must be there: its absence fails, never skips."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1")


def needed(why: str) -> None:
    """What a test needs from the machine is missing: a skip, but a failure under CI=true."""
    if in_ci():
        pytest.fail(why + "; CI=true requires it")
    pytest.skip(why)


def needs_dask() -> None:
    """Called at a test module's top: the module is skipped without Dask (an optional extra), and fails
    without it under CI=true."""
    try:
        import distributed  # noqa: F401  (what the cluster module needs)
    except ImportError:
        if in_ci():
            raise
        pytest.skip("Dask is not installed (pip install -r requirements-dask.txt)", allow_module_level=True)


def flipped(n: int, squares: list[Move]) -> Board:
    """An all-white n×n board with the given (row, col, size) squares flipped."""
    return replay(uniform(n, 0), squares)


def scrambled(size: int, moves: int, seed: int) -> str:
    """A solvable board's text: `moves` random squares flipped on an all-white board."""
    rng = random.Random(seed)
    squares = []
    for _ in range(moves):
        k = rng.randint(2, size)
        squares.append((rng.randint(0, size - k), rng.randint(0, size - k), k))
    return board_text(flipped(size, squares))


def random_board_text(n: int, seed: int) -> str:
    """A uniformly random board: beyond 12×12 or so, far beyond what the solver finishes in a test's time."""
    return board_text(random_board(random.Random(seed), n))


def book_tiles(board: Board) -> list[list[int]]:
    """A board in the game's books' encoding: 1 white, 2 black."""
    return [[1 + tile for tile in row] for row in board]


@functools.cache
def tri_optima_table(h: int, w: int) -> np.ndarray:
    """Every h x w tri board's fewest presses from tests/tri_boards.cpp's breadth-first search (255 when it
    cannot be solved), indexed by tri_table_index; built with `make unflip_tri_boards`, run once a session."""
    run = subprocess.run([str(built("unflip_tri_boards")), str(h), str(w)], capture_output=True, timeout=120)
    if run.returncode != 0 or len(run.stdout) != 3 ** (h * w):
        pytest.fail(
            f"unflip_tri_boards {h} {w} exited {run.returncode}: {run.stderr.decode(errors='replace')}"
        )
    return np.frombuffer(run.stdout, dtype=np.uint8)


def tri_table_index(board: TriBoard) -> int:
    """The board's entry in tri_optima_table: Σ (tile − 1)·3^(r·W + c)."""
    w = len(board[0])
    return sum((v - 1) * 3 ** (r * w + c) for r, row in enumerate(board) for c, v in enumerate(row))


def tri_board_at(index: int, h: int, w: int) -> TriBoard:
    """The h x w tri board at entry `index` of tri_optima_table."""
    return tuple(tuple(index // 3 ** (r * w + c) % 3 + 1 for c in range(w)) for r in range(h))


def annealing_tally(runs) -> tuple[list[str], int, int]:
    """Runs with annealing after every bound beside the same runs without it, on one thread, each given as
    (with, without, what is wrong with the run with annealing or None): (what is wrong, that or annealing
    taking more nodes; how many runs exhausted a bound; how many annealing ended early, in fewer nodes)."""
    failures, exhausted_one, ended_by_annealing = [], 0, 0
    for with_it, without_it, problem in runs:
        if problem is None and with_it.nodes > without_it.nodes:
            problem = f"annealing took more nodes: {with_it.nodes:,} against {without_it.nodes:,}"
        if problem:
            failures.append(problem)
        exhausted_one += "exhausted" in with_it.stderr
        ended_by_annealing += with_it.nodes < without_it.nodes
    return failures, exhausted_one, ended_by_annealing
