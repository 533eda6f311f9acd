"""Every board of every rectangular shape up to 4x5 (and the 2xk strips to 2x7, 3x6 and their transposes;
5x4 is 4x5 turned), solvable or not, gets the oracle's breadth-first optimum or is named unsolvable, and
its moves replay to the target. The boards run through the solver's own search in one process
(tests/all_boards.cpp calls solver/driver.h as the command line does): 1.8 million boards would take a
process each for many minutes."""

from __future__ import annotations

import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

import oracle
import pytest
from helpers import built

# (height, width, targets): every shape inside 4x5 but the squares (tests/test_solver_optimality.py has
# every 4x4 board) and strips to 2x7, each way up and for both targets; 3x6 and 6x3 for white only, and the
# million boards of 4x5 alone. The larger shapes each cost as much as all the others: what their transposes
# and their black targets would add, the shapes above prove on every board, taller ones and black included.
# The largest first, so that the workers below finish together.
SHAPES = [(4, 5, (0,)), (3, 6, (0,)), (6, 3, (0,))]
SHAPES += [(h, w, (0, 1)) for h, w in [(2, 3), (2, 4), (2, 5), (2, 6), (2, 7), (3, 4), (3, 5)]]
SHAPES += [(w, h, targets) for h, w, targets in SHAPES[3:]]
CASES = [(h, w, target) for h, w, targets in SHAPES for target in targets]
SUMMARY = re.compile(r"(\d+)x(\d+) target (\d): (\d+) boards, (\d+) solved, (\d+) unsolvable, (\d+) wrong")


@pytest.fixture(scope="module")
def all_boards():
    return built("unflip_all_boards")


def oracle_optima(h: int, w: int, target: int) -> bytes:
    """The oracle's optimum of every h x w board for the target, one byte per board mask, 255 when the
    target cannot be reached: a board needs as many moves as its difference from the target's board."""
    distances = oracle.bfs_distances(h, w)
    target_mask = (1 << (h * w)) - 1 if target else 0
    return bytes(distances.get(mask ^ target_mask, 255) for mask in range(1 << (h * w)))


def check_every_board(program, h: int, w: int, target: int) -> tuple[str, int]:
    optima = oracle_optima(h, w, target)
    result = subprocess.run(
        [str(program)], input=f"{h} {w} {target}\n".encode() + optima, capture_output=True, timeout=600
    )
    reachable = sum(optimum != 255 for optimum in optima)
    return result.stdout.decode() + result.stderr.decode(), reachable


def test_every_board_up_to_4x5_gets_the_oracle_optimum_or_is_named_unsolvable(all_boards):
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        runs = list(pool.map(lambda case: (case, *check_every_board(all_boards, *case)), CASES))
    failures = []
    for (h, w, target), output, reachable in runs:
        summary = SUMMARY.search(output)
        expected = (h, w, target, 1 << (h * w), reachable, (1 << (h * w)) - reachable, 0)
        if not summary or tuple(map(int, summary.groups())) != expected:
            failures.append(f"{h}x{w} target {target}: expected {expected}, got:\n{output}")
    assert not failures, "\n".join(failures)


def test_a_wrong_optimum_is_caught(all_boards):
    """The check can fail: an oracle table with one optimum off by one is reported, with the board."""
    optima = bytearray(oracle_optima(3, 4, 0))
    mask = next(m for m, optimum in enumerate(optima) if optimum not in (0, 255))
    optima[mask] += 1
    result = subprocess.run([str(all_boards)], input=b"3 4 0\n" + bytes(optima), capture_output=True)
    assert result.returncode == 1
    assert f"board mask {mask}: the oracle's optimum is {optima[mask]}" in result.stdout.decode()
    assert ", 1 wrong" in result.stdout.decode()
