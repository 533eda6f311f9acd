"""Three-colour ("tri") boards (issue 36) against the independent oracle: the solver, run as
`./unflip_solver --scheme tri`, must give the fewest presses that tests/tri_boards.cpp's breadth-first
search, GF(3) coset enumeration or CP-SAT (tests/oracle.py) prove, list exactly the optimal press multisets,
name exactly the boards GF(3) elimination cannot solve UNSOLVABLE, and every answer must replay, mod 3, to
all 1s. The output's shape is docs/protocol.md's (the `SCHEME tri` line first, a double press as its line
twice in a row); boards are the game's digits 1..3."""

from __future__ import annotations

import random
import re
import subprocess
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np
import oracle
import pytest
from helpers import annealing_tally, built, tri_board_at, tri_optima_table, tri_table_index
from oracle import TriBoard, shape, tri_board_text

if TYPE_CHECKING:  # (tests/frontend has a conftest of its own, which a run of both would import instead)
    from conftest import SolverResult

TRI = ("--scheme", "tri", "--quiet")
SINGLE = (*TRI, "--threads", "1")


def tri_mismatch(result: SolverResult, board: TriBoard, optimum: int | None) -> str | None:
    """None if the run is exactly right for the board under the oracle's optimum (None: unsolvable), else a
    report of what is wrong with a command that repeats it."""
    h, w = shape(board)
    expected = "UNSOLVABLE" if optimum is None else f"{optimum} presses"
    problems = []
    if result.scheme != "tri" or result.target != 0:
        problems.append("the output does not start 'SCHEME tri', 'TARGET 0'")
    if optimum is None:
        if result.outcome != "unsolvable" or result.nodes != 0:
            problems.append("not UNSOLVABLE before any search")
    elif result.outcome != "solved" or result.moves is None:
        problems.append(f"outcome {result.outcome}")
    else:
        moves = result.moves
        if len(moves) != optimum:
            problems.append(f"{len(moves)} presses")
        try:
            if oracle.tri_replay(board, moves) != oracle.tri_solved(h, w):
                problems.append("the presses do not turn every tile to 1")
        except ValueError as error:
            problems.append(str(error))
        # A square pressed twice is its line twice, one after the other.
        runs = [m for i, m in enumerate(moves) if i == 0 or moves[i - 1] != m]
        if len(runs) != len(set(runs)) or max(Counter(moves).values(), default=0) > 2:
            problems.append("a square's presses are not one or two adjacent lines")
    if not problems:
        return None
    rows = " ".join("".join(map(str, row)) for row in board)
    return f"board {rows}: oracle says {expected}; {'; '.join(problems)}\n{result.describe()}"


def check(run_solver_many, cases: list[tuple[TriBoard, int | None]], *args: object) -> None:
    """Every (board, oracle optimum) case through the solver, one process a board; all must be right."""
    results = run_solver_many([tri_board_text(board) for board, _ in cases], *(args or SINGLE))
    failures = [
        problem
        for (board, optimum), result in zip(cases, results, strict=True)
        if (problem := tri_mismatch(result, board, optimum))
    ]
    shown = "\n\n".join(failures[:5])
    assert not failures, (
        f"{len(failures)} of {len(cases)} boards wrong; the first {min(5, len(failures))}:\n\n{shown}"
    )


def coset_optimum(board: TriBoard) -> int | None:
    optima = oracle.tri_coset_optima(board)
    return None if optima is None else len(next(iter(optima)))


# --- 4x4: the breadth-first search over all 3^16 boards ----------------------------------------------


def test_a_seeded_sample_of_4x4_tri_boards_gets_the_bfs_optimum_or_is_named_unsolvable(run_solver_many):
    # A process a board, as a user runs it (the one-process check below calls the driver directly). The
    # sample: every board one press away, boards at every depth, the deepest (12), and uniformly random
    # tiles, nearly all (80 in 81) unsolvable.
    table = tri_optima_table(4, 4)
    rng = random.Random(3610)
    picked = np.flatnonzero(table == 1).tolist()
    for depth in range(2, 13):
        at_depth = np.flatnonzero(table == depth).tolist()
        picked += rng.sample(at_depth, min(len(at_depth), 30))
    cases = [(tri_board_at(i, 4, 4), int(table[i])) for i in picked]
    for _ in range(150):
        board = oracle.random_tri_tiles(rng, 4)
        depth = int(table[tri_table_index(board)])
        cases.append((board, None if depth == 255 else depth))
    assert sum(optimum is None for _, optimum in cases) > 100
    check(run_solver_many, cases)


# tests/all_boards.cpp under --scheme tri: 20,000 unreachable boards, and every reachable one (a sample
# of 4x4's 531,441, which take 4 minutes), through the tri core in one process.
ALL_BOARDS_SAMPLE = {(3, 4): None, (4, 3): None, (4, 4): 30000}
TRI_SUMMARY = re.compile(r"(\d+)x(\d+) tri: (\d+) boards, (\d+) solved, (\d+) unsolvable, (\d+) wrong")


def run_all_boards(h: int, w: int, table: bytes, sample: int | None) -> subprocess.CompletedProcess[bytes]:
    """tests/all_boards.cpp under --scheme tri with tri_boards' table of h x w after its header."""
    sampled = ["--sample", str(sample)] if sample else []
    args = [str(built("unflip_all_boards")), "--scheme", "tri", *sampled]
    return subprocess.run(args, input=f"{h} {w} 0\n".encode() + table, capture_output=True, timeout=300)


def test_every_reachable_3x4_and_4x3_tri_board_and_a_4x4_sample_get_the_bfs_optimum_in_one_process():
    def run(shape: tuple[int, int]) -> tuple[tuple[int, int], int, str]:
        table = tri_optima_table(*shape)
        result = run_all_boards(*shape, table.tobytes(), ALL_BOARDS_SAMPLE[shape])
        return shape, int((table != 255).sum()), result.stdout.decode() + result.stderr.decode()

    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = list(pool.map(run, ALL_BOARDS_SAMPLE))
    failures = []
    for (h, w), reachable, output in runs:
        summary = TRI_SUMMARY.search(output)
        expected = (h, w, 3 ** (h * w), ALL_BOARDS_SAMPLE[h, w] or reachable, 20000, 0)
        if not summary or tuple(map(int, summary.groups())) != expected:
            failures.append(f"{h}x{w}: expected {expected}, got:\n{output}")
    assert not failures, "\n".join(failures)


def test_a_wrong_tri_optimum_is_caught_by_the_one_process_check():
    """The check can fail: a table with one optimum off by one is reported, with the board's index."""
    table = bytearray(tri_optima_table(2, 3).tobytes())
    index = next(i for i, optimum in enumerate(table) if optimum not in (0, 255))
    table[index] += 1
    result = run_all_boards(2, 3, bytes(table), None)
    assert result.returncode == 1
    assert f"tri board index {index}: the oracle's optimum is {table[index]}" in result.stdout.decode()
    assert ", 1 wrong" in result.stdout.decode()


def test_the_solved_4x4_tri_board_takes_no_presses(run_solver):
    result = run_solver(tri_board_text(oracle.tri_solved(4, 4)), *SINGLE)
    assert tri_mismatch(result, oracle.tri_solved(4, 4), 0) is None, result.describe()
    assert result.stdout.startswith("SCHEME tri\nTARGET 0\nMOVES 0\nNODES ")


# --- 5x5 to 8x8 and rectangles: the coset and CP-SAT -------------------------------------------------


@pytest.mark.parametrize(("h", "w", "count"), [(5, 5, 60), (4, 5, 20), (5, 4, 20), (3, 6, 20), (5, 5, 300)])
def test_uniformly_random_press_vectors_get_the_coset_optimum(run_solver_many, h, w, count):
    rng = random.Random(3620 + 100 * h + w + count)
    cases = []
    for _ in range(count):
        board = oracle.random_tri_board(rng, h, w)
        cases.append((board, coset_optimum(board)))
    check(run_solver_many, cases)


@pytest.mark.parametrize(
    ("h", "w", "count"),
    [
        (6, 6, 10),
        (7, 7, 10),
        (8, 8, 10),
        (5, 7, 10),
        (3, 8, 10),
        (8, 4, 10),
        (6, 6, 60),
        (7, 7, 60),
        (8, 8, 60),
    ],
)
def test_designer_boards_of_random_presses_get_the_cpsat_optimum(run_solver_many, h, w, count):
    rng = random.Random(3630 + 100 * h + w + count)
    cases = []
    for _ in range(count):
        board = oracle.tri_board_from_random_presses(rng, h, rng.randint(4, 14), w)
        cases.append((board, oracle.tri_cpsat_optimum(board)))
    check(run_solver_many, cases)


@pytest.mark.parametrize(("h", "w", "count"), [(3, 8, 15), (8, 3, 15), (8, 4, 10), (2, 8, 10), (6, 6, 4)])
def test_uniformly_random_press_vectors_on_larger_shapes_get_the_cpsat_optimum(run_solver_many, h, w, count):
    # CP-SAT proves dense boards of thin shapes at once; at 6x6 some take it 20 s, and at 7x7 minutes.
    rng = random.Random(3640 + 100 * h + w)
    cases = []
    for _ in range(count):
        board = oracle.random_tri_board(rng, h, w)
        cases.append((board, oracle.tri_cpsat_optimum(board)))
    check(run_solver_many, cases)


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_one_two_and_four_threads_give_the_oracle_optimum(run_solver_many, threads):
    rng = random.Random(3650)
    boards = [oracle.random_tri_board(rng, 5) for _ in range(6)]
    cases = [(board, coset_optimum(board)) for board in boards]
    for _ in range(4):
        board = oracle.tri_board_from_random_presses(rng, 7, 12)
        cases.append((board, oracle.tri_cpsat_optimum(board)))
    check(run_solver_many, cases, *TRI, "--threads", threads)


# --- annealing ---------------------------------------------------------------------------------------


def test_tri_annealing_after_every_bound_gets_the_coset_optimum_and_only_ever_saves_the_last_bound(
    run_solver_many,
):
    """As for two colours (test_solver_optimality.py): `--anneal-after 0` anneals after every exhausted
    bound over press counts 0-2, and presses it meets one over that bound are the answer, replayed here
    mod 3. On one thread the exhausted bounds are the same search either way, so a run with annealing
    takes the other's nodes less the last bound's whenever annealing met the solution, which must happen
    on most boards that exhausted a bound (at two colours' settings it met none on most dense 6x6 boards)."""
    rng = random.Random(3655)
    boards = [oracle.random_tri_board(rng, 5) for _ in range(20)] + [
        oracle.random_tri_board(rng, 4, 6) for _ in range(10)
    ]
    texts = [tri_board_text(board) for board in boards]
    # (Not quiet: the progress lines say which runs exhausted a bound.)
    annealed = run_solver_many(texts, "--scheme", "tri", "--anneal-after", "0", "--threads", "1")
    searched = run_solver_many(texts, *SINGLE, "--no-annealing")
    failures, exhausted_one, ended_by_annealing = annealing_tally(
        (with_it, without_it, tri_mismatch(with_it, board, coset_optimum(board)))
        for board, with_it, without_it in zip(boards, annealed, searched, strict=True)
    )
    assert not failures, "\n\n".join(failures[:5])
    assert ended_by_annealing >= exhausted_one * 3 // 4 > 0, (
        f"annealing ended {ended_by_annealing} of the {exhausted_one} runs that exhausted a bound"
    )


# --- symmetry ----------------------------------------------------------------------------------------

# The symmetries of an n x n board as maps of tiles: mirrors and quarter turns (character -1 on the corner
# lattice: they negate a square's corner signs) and transposes and the half turn (+1).
TILE_MAPS = {
    "left-right mirror": lambda n, i, j: (i, n - 1 - j),
    "quarter turn": lambda n, i, j: (j, n - 1 - i),
    "transpose": lambda n, i, j: (j, i),
    "half turn": lambda n, i, j: (n - 1 - i, n - 1 - j),
}


def symmetric_tri_board(rng: random.Random, n: int, symmetry: str, swapped: bool) -> TriBoard:
    """A board made by pressing squares in orbits of the symmetry, so that it maps the tiles to themselves;
    swapped: the image square pressed the other number of times (2 for 1), so that the symmetry maps the
    board to its colours swapped, blue for red, which it is no symmetry of: a search that broke it would
    lose solutions."""
    tile_map = TILE_MAPS[symmetry]

    def image(move: tuple[int, int, int]) -> tuple[int, int, int]:
        r, c, k = move
        corners = [tile_map(n, i, j) for i, j in ((r, c), (r + k - 1, c + k - 1))]
        return min(i for i, _ in corners), min(j for _, j in corners), k

    presses: dict[tuple[int, int, int], int] = {}
    for move in oracle.all_moves(n):
        if move in presses or rng.random() > 0.3:
            continue
        times = rng.randrange(1, 3)
        orbit, twin = [move], image(move)
        while twin != move:
            orbit.append(twin)
            twin = image(twin)
        for step, square in enumerate(orbit):
            presses[square] = 3 - times if swapped and step % 2 else times
    return oracle.tri_board_made_by(n, n, [m for m, t in presses.items() for _ in range(t)])


@pytest.mark.parametrize("swapped", [False, True], ids=["symmetric", "colours swapped"])
@pytest.mark.parametrize("symmetry", list(TILE_MAPS))
def test_boards_a_symmetry_maps_to_themselves_or_to_their_colours_swapped_get_the_coset_optimum(
    run_solver_many, symmetry, swapped
):
    """Symmetry breaking under tri reads each symmetry's character: a board a mirror maps to itself may
    have the mirror broken; one it maps to its colours swapped may not (the mirror of a solution solves the
    swapped board). Ignoring the character breaks the second kind and loses optima."""
    rng = random.Random(3690 + len(symmetry) + swapped)
    boards = [symmetric_tri_board(rng, n, symmetry, swapped) for n in (4, 5, 5, 5) for _ in range(15)]
    check(run_solver_many, [(board, coset_optimum(board)) for board in boards])


# --- every optimal solution --------------------------------------------------------------------------


def test_all_solutions_lists_exactly_the_optimal_press_multisets_of_the_coset(run_solver_many):
    table = tri_optima_table(4, 4)
    rng = random.Random(3660)
    boards = [tri_board_at(i, 4, 4) for i in rng.sample(np.flatnonzero(table != 255).tolist(), 25)]
    boards += [oracle.random_tri_board(rng, 5) for _ in range(15)]
    boards += [oracle.random_tri_board(rng, 4, 5) for _ in range(5)] + [oracle.random_tri_board(rng, 3, 3)]
    expected = [oracle.tri_coset_optima(board) for board in boards]
    # The sample must hold boards with several optima and optima that press a square twice.
    assert sum(len(optima) > 1 for optima in expected if optima) >= 5
    assert any(len(set(s)) < len(s) for optima in expected if optima for s in optima)
    results = run_solver_many([tri_board_text(board) for board in boards], *SINGLE, "--all-solutions")
    failures = []
    for board, optima, result in zip(boards, expected, results, strict=True):
        assert optima is not None
        listed = result.solution_presses or ()
        ok = (
            result.outcome == "solved"
            and result.scheme == "tri"
            and result.optimum == len(next(iter(optima)))
            and all(list(presses) == sorted(presses) for presses in listed)
            and len(listed) == len(set(listed)) == result.solution_count
            and set(listed) == optima
        )
        if not ok:
            failures.append(
                f"board {board}: the coset's {len(optima)} optima {sorted(optima)}\n{result.describe()}"
            )
    assert not failures, "\n\n".join(failures[:3])


# --- unsolvable boards --------------------------------------------------------------------------------


@pytest.mark.parametrize(("h", "w"), [(2, 2), (3, 3), (2, 7), (5, 5), (6, 6), (7, 4)])
def test_exactly_the_boards_gf3_elimination_cannot_solve_are_named_unsolvable(run_solver_many, h, w):
    # Uniform tiles: of the 3^(h·w) boards only 3^rank can be solved (one in 3 at 6x6, one in 3^4 at 3x3).
    rng = random.Random(3670 + 10 * h + w)
    unsolvable = []
    solvable = []
    while len(unsolvable) < 25:
        board = oracle.random_tri_tiles(rng, h, w)
        (solvable if oracle.tri_is_solvable(board) else unsolvable).append(board)
    cases: list[tuple[TriBoard, int | None]] = [(board, None) for board in unsolvable]
    # The solvable ones drawn beside them, where the coset gives their optimum cheaply.
    if oracle.tri_kernel_dimension(h, w) <= 8:
        cases += [(board, coset_optimum(board)) for board in solvable[:10]]
    check(run_solver_many, cases)


# --- bad input ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "args"),
    [
        ("123\n101\n111\n", ()),
        ("123\n141\n111\n", ()),
        ("12\n3x\n", ()),
        ("111\n111\n111\n", ("--target", "1")),
        ("111\n111\n111\n", ("--target", "either")),
        ("111\n111\n111\n", ("--certificate", "{tmp}/certificate.txt")),
    ],
    ids=["a 0 tile", "a 4 tile", "a letter", "target 1", "target either", "a certificate"],
)
def test_bad_tri_input_and_flags_tri_does_not_take_get_one_error_line_and_exit_2(
    run_solver, tmp_path, text, args
):
    # The control: a good tri board, no such flag, is solved (so the refusal is of the input, not the scheme).
    control = run_solver("221\n221\n111\n", *SINGLE)
    assert control.outcome == "solved" and control.scheme == "tri", control.describe()
    result = run_solver(text, *SINGLE, *(arg.format(tmp=tmp_path) for arg in args))
    lines = result.stderr.splitlines()
    assert result.returncode == 2 and result.stdout == "", result.describe()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.describe()
    assert not (tmp_path / "certificate.txt").exists()
