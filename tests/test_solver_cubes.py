"""Cubes (--cubes, --cube): one bound's search split into independent pieces covers exactly the undivided
search. On one thread, with the LP solved at the root only (--lp-after 0, so that no node's LP depends on
how big its subtree grew), the nodes of the split plus the nodes of every exhausted cube equal the nodes
the undivided search spends on that bound, on symmetric boards, rectangles and both targets too; and at
the optimum, some cube holds an optimal solution while none holds a shorter one. Three-colour boards
(--scheme tri) too, their cubes naming a square pressed twice as row.col.size.2."""

from __future__ import annotations

import functools
import random
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import oracle
import pytest
from helpers import random_board_text, scrambled
from oracle import board_text

# A cube searched alone meets its nodes as the undivided search did: one thread, the LP solved at the root
# only, and no Lagrangian, which starts a node from the multipliers of the node above it (a cube begun
# afresh has none).
EXACT = ("--threads", "1", "--lp-after", "0", "--no-lagrangian")
CUBE_LINE = re.compile(r"CUBE (\d+) ([01]):(\d+):([0-9.,]*):([0-9.,]*):([0-9.,]*)")


@dataclass(frozen=True)
class Listing:
    cubes: list[tuple[int, str]]  # (bound, spec), in the search's order
    dropped: int
    nodes: int


@dataclass(frozen=True)
class CubeRun:
    returncode: int
    moves: list[tuple[int, int, int]] | None
    nodes: int


def run(solver: Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The solver's run; under --scheme tri its output's first line, SCHEME tri, checked and taken off, so
    that what follows reads as two colours' does."""
    done = subprocess.run([str(solver), *args], input=text, capture_output=True, text=True, timeout=600)
    if "--scheme" in args and done.returncode != 2:
        assert done.stdout.startswith("SCHEME tri\n"), done.stdout
        done.stdout = done.stdout.removeprefix("SCHEME tri\n")
    return done


def listing(solver: Path, text: str, bound: int, depth: int, *args: str) -> Listing:
    """--cubes, read strictly: CUBE lines, then CUBES k, DROPPED d, NODES n, TIME s."""
    done = run(solver, text, "--cubes", str(depth), "--bound", str(bound), *args)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    cubes = []
    for line in lines[:-4]:
        match = CUBE_LINE.fullmatch(line)
        assert match, line
        cubes.append((int(match[1]), line.split()[2]))
    tail = [line.split() for line in lines[-4:]]
    assert [words[0] for words in tail] == ["CUBES", "DROPPED", "NODES", "TIME"], done.stdout
    assert int(tail[0][1]) == len(cubes)
    return Listing(cubes, int(tail[1][1]), int(tail[2][1]))


def solve_cube(solver: Path, text: str, bound: int, spec: str, *args: str) -> CubeRun:
    """--cube, read strictly: a solution (exit 0), EXHAUSTED b (exit 1) or STOPPED b (exit 3)."""
    return solve_cubes(solver, text, bound, [spec], *args)


def solve_cubes(solver: Path, text: str, bound: int, specs: list[str], *args: str) -> CubeRun:
    """--cube given once for each cube, searched in turn as one, read as solve_cube reads one."""
    spec = specs[0]
    cubes = [word for one in specs for word in ("--cube", one)]
    done = run(solver, text, *cubes, "--bound", str(bound), "--quiet", *args)
    lines = done.stdout.splitlines()
    assert lines[0] == f"TARGET {spec[0]}", done.stdout
    assert lines[-1].startswith("TIME ") and lines[-2].startswith("NODES "), done.stdout
    nodes = int(lines[-2].split()[1])
    if done.returncode == 0:
        count = int(lines[1].removeprefix("MOVES "))
        moves = [tuple(map(int, line.split())) for line in lines[2:-2]]
        assert len(moves) == count <= bound, done.stdout
        return CubeRun(0, moves, nodes)  # type: ignore[arg-type]
    expected = {1: "EXHAUSTED", 3: "STOPPED"}[done.returncode]
    assert lines[1:-2] == [f"{expected} {bound}"], done.stdout
    return CubeRun(done.returncode, None, nodes)


@functools.cache
def nodes_by_bound(solver: Path, text: str, *args: str) -> tuple[dict[int, int], int]:
    """The undivided search's nodes on each bound it exhausted, from its progress lines, and its optimum
    (kept: several tests ask it of the same board)."""
    done = run(solver, text, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    spent, before = {}, 0
    for match in re.finditer(r"bound (\d+) exhausted, nodes=(\d+)", done.stderr):
        spent[int(match[1])] = int(match[2]) - before
        before = int(match[2])
    return spent, int(re.search(r"MOVES (\d+)", done.stdout)[1])  # type: ignore[index]


def boards() -> list[tuple[str, str, tuple[str, ...]]]:
    """(name, board text, extra solver arguments): random and scrambled squares, symmetric boards,
    rectangles, and target 1 and either."""
    cases = [(f"random {n}x{n}", random_board_text(n, seed), ()) for n, seed in ((7, 1), (8, 3), (9, 5))]
    cases.append(("scrambled 8x8", scrambled(8, 20, 4), ()))
    # Each seed draws a board whose root bound is below its optimum, so that some bound is exhausted
    # (a symmetric board's often is not: its bound is the optimum at once).
    symmetric = [
        ("every symmetry", 9, 3, ()),
        ("half turn", 8, 1, ()),
        ("both mirrors", 8, 0, ()),
        ("diagonal mirror", 8, 1, ()),
        ("half turn", 9, 1, ("--target", "1")),
    ]
    for group, n, seed, extra in symmetric:
        name = group + (", target 1" if extra else "")
        cases.append((name, board_text(oracle.symmetric_board(random.Random(seed), n, group)), extra))
    rng = random.Random(22)
    for h, w in ((6, 9), (9, 7), (8, 10)):
        cases.append((f"rectangle {h}x{w}", board_text(oracle.random_board(rng, h, w)), ()))
    cases.append(("either target", random_board_text(8, 11), ("--target", "either")))
    return cases


CASES = boards()


@pytest.mark.parametrize(("name", "text", "extra"), CASES, ids=[case[0] for case in CASES])
def test_the_split_and_its_exhausted_cubes_add_up_to_the_undivided_search_at_every_bound(
    solver_path, name, text, extra
):
    spent, _ = nodes_by_bound(solver_path, text, *EXACT, *extra)
    assert spent, f"{name}: premise: the root's bound is below the optimum, so some bound is exhausted"
    for bound in sorted(spent)[-2:]:
        for depth in (1, 3):
            split = listing(solver_path, text, bound, depth, *EXACT, *extra)
            # A cube names its own target, so it is searched without --target.
            runs = [solve_cube(solver_path, text, bound, spec, *EXACT) for _, spec in split.cubes]
            assert all(run.returncode == 1 for run in runs), (
                f"{name}: a cube below the optimum has a solution"
            )
            assert split.nodes + sum(run.nodes for run in runs) == spent[bound], (name, bound, depth)


def test_a_cube_split_further_adds_up_to_the_cube(solver_path):
    text = random_board_text(9, 5)
    spent, _ = nodes_by_bound(solver_path, text, *EXACT)
    bound = max(spent)
    for _, spec in listing(solver_path, text, bound, 1, *EXACT).cubes:
        whole = solve_cube(solver_path, text, bound, spec, *EXACT)
        parts = listing(solver_path, text, bound, 2, *EXACT, "--cube", spec)
        pieces = [solve_cube(solver_path, text, bound, part, *EXACT) for _, part in parts.cubes]
        assert parts.nodes + sum(piece.nodes for piece in pieces) == whole.nodes


@pytest.mark.parametrize(("name", "text", "extra"), CASES[::3], ids=[case[0] for case in CASES[::3]])
def test_the_optimum_over_the_cubes_is_the_solvers_with_the_default_switches(solver_path, name, text, extra):
    _, optimum = nodes_by_bound(solver_path, text, "--threads", "1", *extra)
    below = listing(solver_path, text, optimum - 1, 2, *extra)
    assert all(solve_cube(solver_path, text, optimum - 1, spec).returncode == 1 for _, spec in below.cubes)
    at = listing(solver_path, text, optimum, 2, *extra)
    found = [(spec, solve_cube(solver_path, text, optimum, spec)) for _, spec in at.cubes]
    solved = [(spec, run) for spec, run in found if run.returncode == 0]
    assert solved, name
    board = oracle.as_board(text)
    height, width = oracle.shape(board)
    for spec, run in solved:
        assert run.moves is not None and len(run.moves) == optimum
        assert oracle.replay(board, run.moves) == oracle.uniform(height, int(spec[0]), width), spec


def handed_back(solver: Path, text: str, bound: int, specs: list[str], max_nodes: int, *args: str):
    """--hand-back, read strictly: the CUBE lines (their specs), CUBES k, then the STOPPED outcome."""
    cubes = [word for one in specs for word in ("--cube", one)]
    done = run(
        solver,
        text,
        *cubes,
        "--bound",
        str(bound),
        "--quiet",
        "--max-nodes",
        str(max_nodes),
        "--hand-back",
        *args,
    )
    assert done.returncode == 3, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    rest = [CUBE_LINE.fullmatch(line) for line in lines[:-5]]
    assert all(rest) and lines[-5] == f"CUBES {len(rest)}", done.stdout
    assert lines[-4:-2] == [f"TARGET {specs[0][0]}", f"STOPPED {bound}"], done.stdout
    return [line.split()[2] for line in lines[:-5]], int(lines[-2].removeprefix("NODES "))


@pytest.mark.parametrize(("name", "text", "extra"), CASES, ids=[case[0] for case in CASES])
def test_a_cube_stopped_by_its_node_budget_hands_back_exactly_what_it_had_not_searched(
    solver_path, name, text, extra
):
    spent, optimum = nodes_by_bound(solver_path, text, *EXACT, *extra)
    stopped_in_one = stopped_in_several = 0
    # A cube names its own target, so it is searched without --target.
    for bound in (*sorted(spent)[-1:], optimum):
        specs = [spec for _, spec in listing(solver_path, text, bound, 1, *EXACT, *extra).cubes]
        wholes = {spec: solve_cube(solver_path, text, bound, spec, *EXACT) for spec in specs[:3]}
        for spec, whole in wholes.items():
            if whole.nodes < 30:  # too small a search to stop a third of the way in
                continue
            rest, searched = handed_back(solver_path, text, bound, [spec], whole.nodes // 3, *EXACT)
            after = solve_cubes(solver_path, text, bound, rest, *EXACT)
            assert searched + after.nodes == whole.nodes, (name, bound, spec)
            assert (after.returncode, after.moves) == (whole.returncode, whole.moves), (name, bound, spec)
            stopped_in_one += 1
        # Stopped in its first cube, a search of several hands back the cubes it had not begun as they were.
        specs = [spec for spec in specs if spec[0] == specs[0][0]]  # one target a search
        first = wholes[specs[0]]
        if len(specs) > 1 and first.returncode == 1 and first.nodes > 1:
            rest, _ = handed_back(solver_path, text, bound, specs, first.nodes // 2, *EXACT)
            assert rest[-len(specs) + 1 :] == specs[1:], name
            stopped_in_several += 1
    assert stopped_in_one and stopped_in_several, f"{name}: premise: both kinds of stop were made and checked"


def test_cubes_whose_bound_exceeds_the_bound_are_dropped_and_counted(solver_path):
    text = random_board_text(8, 3)
    spent, optimum = nodes_by_bound(solver_path, text, "--threads", "1")
    root_bound = min(spent) if spent else optimum
    assert listing(solver_path, text, root_bound - 1, 2) == Listing([], 1, 0)
    split = listing(solver_path, text, optimum - 1, 2)
    assert split.dropped > 0
    assert all(bound <= optimum - 1 for bound, _ in split.cubes)
    assert len(listing(solver_path, text, optimum, 2).cubes) > len(split.cubes)


def test_a_cube_out_of_budget_is_stopped_at_its_bound(solver_path):
    text = random_board_text(11, 2)
    _, spec = listing(solver_path, text, 30, 0).cubes[0]
    stopped = solve_cube(solver_path, text, 30, spec, "--max-nodes", "2000")
    assert stopped.returncode == 3


def test_an_unsolvable_board_has_no_cubes(solver_path):
    done = run(solver_path, "0000\n0010\n0000\n0000\n", "--cubes", "2", "--bound", "5")
    assert (done.returncode, done.stdout.splitlines()[:2]) == (1, ["TARGET 0", "UNSOLVABLE"])


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (("--cubes", "2"), "--cubes needs --bound B"),
        (("--bound", "3"), "--bound is the bound of --cubes or --cube"),
        (("--cube", "0:1:::", "--bound", "3", "--target", "0"), "--cube names its own target"),
        (("--cube", "2:1:::", "--bound", "3"), "target 0 or 1"),
        (("--cube", "0:1::", "--bound", "3"), "5 fields"),
        (("--cube", "0:2:::", "--bound", "3"), "group '2'"),
        (("--cube", "0:1:9.9.2::", "--bound", "3"), "the move 9.9.2 does not fit the 5x5 board"),
        (("--cube", "0:1:1.1.2:1.1.2:", "--bound", "3"), "names the move 1.1.2 twice"),
        (("--cube", "0:1:1.1.2,0.0.2:", "--bound", "1"), "5 fields"),
        (("--cube", "0:1:1.1.2,0.0.2::", "--bound", "1"), "--bound 1 is below the cube's 2 moves"),
        (("--cubes", "1", "--bound", "8", "--max-nodes", "9"), "drop --max-seconds and --max-nodes"),
        (("--cubes", "1", "--bound", "8", "--count"), "cannot be given with --all-solutions"),
        (("--cubes", "65", "--bound", "8"), "--cubes needs a whole number from 0 to 64"),
        (("--cube", "0:1:::", "--cube", "1:1:::", "--bound", "3"), "the cubes of one --cube search share a"),
        (("--cubes", "1", "--cube", "0:1:::", "--cube", "0:1:1.1.2::", "--bound", "3"), "below one --cube"),
        (("--hand-back",), "--hand-back hands back what a --cube search's --max-nodes left"),
        (
            ("--cube", "0:1:::", "--bound", "3", "--hand-back", "--threads", "1"),
            "--max-nodes left, on --threads 1",
        ),
        (("--cube", "0:1:::", "--bound", "3", "--hand-back", "--max-nodes", "9"), "on --threads 1"),
    ],
)
def test_a_cube_request_that_cannot_be_met_is_rejected_in_one_line(solver_path, args, complaint):
    done = run(solver_path, "00000\n00010\n00000\n01000\n00000\n", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and complaint in done.stderr, done.stderr


# --- three colours -------------------------------------------------------------------------------------

TRI = ("--scheme", "tri")
TRI_CASES = [
    (f"tri {h}x{w} #{i}", oracle.tri_board_text(oracle.random_tri_board(random.Random(3670 + i), h, w)))
    for i, (h, w) in enumerate(((5, 5), (6, 6), (5, 7)))
]


@pytest.mark.parametrize(("name", "text"), TRI_CASES, ids=[case[0] for case in TRI_CASES])
def test_tri_cubes_add_up_to_the_undivided_search_and_hold_its_optimum_and_no_fewer_presses(
    solver_path, name, text
):
    spent, optimum = nodes_by_bound(solver_path, text, *EXACT, *TRI)
    assert spent, f"{name}: premise: some bound is exhausted"
    twice = 0
    for bound in sorted(spent)[-2:]:
        for depth in (1, 3):
            split = listing(solver_path, text, bound, depth, *EXACT, *TRI)
            twice += sum(".2" in re.sub(r"\d+\.\d+\.\d+\.2", ".2", spec) for _, spec in split.cubes)
            runs = [solve_cube(solver_path, text, bound, spec, *EXACT, *TRI) for _, spec in split.cubes]
            assert all(run.returncode == 1 for run in runs), (
                f"{name}: a cube below the optimum has a solution"
            )
            assert split.nodes + sum(run.nodes for run in runs) == spent[bound], (name, bound, depth)
    assert twice, f"{name}: premise: some cube names a square pressed twice"
    at = listing(solver_path, text, optimum, 2, *TRI)
    solved = [
        run for _, spec in at.cubes if (run := solve_cube(solver_path, text, optimum, spec, *TRI)).moves
    ]
    assert solved, name
    board = tuple(tuple(int(ch) for ch in line) for line in text.split())
    for found in solved:
        assert found.moves is not None and len(found.moves) == optimum
        assert oracle.tri_replay(board, found.moves) == oracle.tri_solved(*oracle.shape(board)), found.moves


def test_a_tri_cube_stopped_by_its_node_budget_hands_back_exactly_what_it_had_not_searched(solver_path):
    _, text = TRI_CASES[1]
    spent, _ = nodes_by_bound(solver_path, text, *EXACT, *TRI)
    bound = max(spent)
    stopped = 0
    for _, spec in listing(solver_path, text, bound, 1, *EXACT, *TRI).cubes[:3]:
        whole = solve_cube(solver_path, text, bound, spec, *EXACT, *TRI)
        if whole.nodes < 30:
            continue
        rest, searched = handed_back(solver_path, text, bound, [spec], whole.nodes // 3, *EXACT, *TRI)
        after = solve_cubes(solver_path, text, bound, rest, *EXACT, *TRI)
        assert searched + after.nodes == whole.nodes and after.returncode == whole.returncode == 1, spec
        stopped += 1
    assert stopped, "premise: a cube big enough to stop was searched"


@pytest.mark.parametrize(
    ("spec", "complaint"),
    [
        ("0:1:1.1.2.3::", "'1.1.2.3' is not a move row.col.size or row.col.size.2"),
        ("0:1:1.1.2.2.2::", "is not a move row.col.size or row.col.size.2"),
        ("0:1:1.1.2.2,0.0.5.2::", "--bound 3 is below the cube's 4 moves"),
    ],
)
def test_a_tri_cube_word_that_is_not_an_entry_is_rejected_in_one_line(solver_path, spec, complaint):
    # Solvable (one press of 1.1.2 makes it): an unsolvable board's cubes are never read.
    done = run(solver_path, "11111\n12211\n12211\n11111\n11111\n", *TRI, "--cube", spec, "--bound", "3")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and complaint in done.stderr, done.stderr


def test_a_two_colour_cube_word_never_takes_a_press_count(solver_path):
    done = run(solver_path, "00000\n00010\n00000\n01000\n00000\n", "--cube", "0:1:1.1.2.2::", "--bound", "3")
    assert done.returncode == 2 and "'1.1.2.2' is not a move row.col.size\n" in done.stderr, done.stderr
