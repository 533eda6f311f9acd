"""A new lower bound is one class and one line of solver/bounds.def, nothing else: a copy of the solver's
sources gets docs/bounds.md's stand-in bound by text insertion at the two places that page names (the
class at the end of solver/bounds.h, its line at the end of solver/bounds.def), builds, lists the
bound's switch, prunes with it, and still finds every optimum."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import oracle
import pytest
from helpers import REPO
from oracle import board_text

from unflip_frontend.contract import build_settings

# docs/bounds.md's worked example, word for word.
STAND_IN_CLASS = """
// Each move changes four points of the difference grid, so n points that differ need at least ceil(n / 4)
// moves. (Under three colours a press can leave a point it changes still differing: counting it as cleared
// only underestimates what remains, which keeps the refutation sound.)
template <class L>
class PointCountBound : public BoundDefaults {
    using Grid = unflip::Grid<L>;
    using Move = unflip::Move<L>;

public:
    explicit PointCountBound(const BoundContext<L>&) {}
    void reset(const Grid&, const Root&) {}
    void apply(const Move&, const Grid&) {}
    void undo(const Move&, const Grid&) {}
    int value(const Grid& d, int) const { return (differing(d) + 3) / 4; }
    bool refutes(const Move& m, const Grid& d, int budget) const {
        int after = differing(d);
        for (int p : m.corner) after += d.test(p) ? -1 : 1;
        return (after + 3) / 4 > budget;
    }

private:
    static int differing(const Grid& d) {
        int count = 0;
        d.for_each([&](int) { ++count; });
        return count;
    }
};
"""
STAND_IN_ROW = (
    'UNFLIP_BOUND(PointCountBound, point_count_bound, "--no-point-count-bound", '
    '"the ceil(1-points / 4) bound")\n'
)
NAMESPACE_END = "}  // namespace\n}  // namespace unflip\n"
OTHER_BOUNDS = ("--no-pair-bound", "--no-cover-bound", "--no-line-bound")


@pytest.fixture(scope="module")
def solver_with_stand_in(tmp_path_factory) -> Path:
    compiler = shutil.which("g++")
    if compiler is None:
        pytest.skip("needs g++ to build the solver with a stand-in bound")
    folder = tmp_path_factory.mktemp("stand_in")
    for source in [REPO / name for name in build_settings().sources]:
        copy = folder / source.relative_to(REPO)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, copy)
    bounds_h = folder / "solver" / "bounds.h"
    text = bounds_h.read_text()
    assert text.endswith(NAMESPACE_END), "solver/bounds.h no longer ends where docs/bounds.md says"
    bounds_h.write_text(text[: -len(NAMESPACE_END)] + STAND_IN_CLASS + "\n" + NAMESPACE_END)
    bounds_def = folder / "solver" / "bounds.def"
    bounds_def.write_text(bounds_def.read_text() + STAND_IN_ROW)
    binary = folder / "unflip_solver"
    build = subprocess.run(
        [
            compiler,
            *build_settings().std_flags,
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-o",
            str(binary),
            "unflip_solver.cpp",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    return binary


@pytest.fixture(scope="module")
def cases():
    """Small boards whose search is short even with no other bound: random solvable 4x4 and 5x5 boards,
    and 6x6 boards made by a few random moves, with their optima."""
    rng = random.Random(17)
    boards = [oracle.random_solvable_board(rng, n) for n in (4, 4, 5, 5)]
    boards += [oracle.board_from_random_moves(rng, 6, count) for count in (4, 5, 6)]
    return [(board, oracle.optimum(board)) for board in boards]


def solve(binary: Path, board: oracle.Board, *args: str) -> tuple[int, int]:
    """(moves, nodes) for one board at --threads 1, its moves checked to reach the target."""
    run = subprocess.run(
        [str(binary), "--threads", "1", "--quiet", *args],
        input=board_text(board),
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run
    lines = run.stdout.splitlines()
    count = int(lines[1].split()[1])
    moves = [tuple(map(int, line.split())) for line in lines[2 : 2 + count]]
    assert oracle.replay(board, moves) == oracle.uniform(len(board), 0, len(board[0]))
    return count, int(lines[-2].split()[1])


def test_the_stand_in_bound_switch_is_listed_and_in_the_help(solver_with_stand_in):
    listed = subprocess.run([str(solver_with_stand_in), "--list-switches"], capture_output=True, text=True)
    assert "flag --no-point-count-bound point_count_bound" in listed.stdout.splitlines()
    usage = subprocess.run([str(solver_with_stand_in), "--help"], capture_output=True, text=True).stdout
    assert "  --no-point-count-bound the ceil(1-points / 4) bound" in usage


def test_with_the_stand_in_bound_every_answer_is_still_optimal(solver_with_stand_in, cases):
    for board, optimum in cases:
        assert solve(solver_with_stand_in, board)[0] == optimum
        assert solve(solver_with_stand_in, board, *OTHER_BOUNDS)[0] == optimum


def test_the_stand_in_bound_prunes_when_it_is_the_only_bound(solver_with_stand_in, cases):
    alone = sum(solve(solver_with_stand_in, board, *OTHER_BOUNDS)[1] for board, _ in cases)
    none = sum(
        solve(solver_with_stand_in, board, *OTHER_BOUNDS, "--no-point-count-bound")[1] for board, _ in cases
    )
    assert alone < none
