"""Every pruning technique still does its work: on a board where it matters, the defaults expand fewer
nodes than the same run with that one technique switched off. test_solver_switches.py shows a switch
changes only the speed; this shows the speed it buys has not silently gone, as it would if, say, the root's
symmetry group came out trivial (every answer still right, every node count the same with the switch on or
off). Node counts on one thread are deterministic, so each comparison is exact.

The boards are a level of the project's own weekly book (weekly #1), uniformly random 10x10 and 11x11
boards (bench/peers.py's `uniform-10-0`, tests/helpers.py's random_board_text(11, 0) and (11, 2): on the
last, annealing run after 50,000 nodes, `--anneal-after`, since its bound 24 takes 68,565, under the
default 100,000, meets the solution: 68,565 nodes against 134,057, from 35 M proposals) and a
random 11x11 board both mirrors map to itself (tests/oracle.py's symmetric_board(Random(0), 11, "both
mirrors"): symmetry halves its nodes with the parity rows, their duals or the work estimate switched off,
too) and a random 4x15 rectangle (random_solvable_board(Random(2), 4, 15): the adjacent-lines bound takes
it from 1,057 nodes to 965, where on the 21 seeded 11x11-13x13 boards of bench/frontier.py it saves one
node at most) and a 31x31 board with a random blob in its last rows and columns (the split line costs of the
32-point layout's long lines), written out here so that a rebuilt book or a changed generator cannot move
them. The weekly level is searched in a few dozen nodes once the work estimate picks its branch points,
too few for the LP below the root or sibling exclusion to show; the random boards still need about 7,000."""

from __future__ import annotations

import pytest
from helpers import REPO
from test_solver_switches import list_switches

WEEKLY_1 = """\
0110000000110
0010100010100
1101000001011
1101000001011
1111000001111
1111111111111
1111111111111
0000001000000
0000001000000
1000101010001
1100010100011
1101110111011
0000000000000
"""

BOTH_MIRRORS_11 = """\
10110001101
01100100110
11010001011
11101010111
00101110100
01111111110
00101110100
11101010111
11010001011
01100100110
10110001101
"""

UNIFORM_10 = """\
0011110011
1100100001
0000111000
1100110111
0110110000
1100101100
1111100010
0000000010
0101110100
1100100000
"""

UNIFORM_11 = """\
10110011111
00000001101
00000110110
11111011111
01101111100
10100011000
11010100110
01010010000
01000011101
10000011100
11111000111
"""

# Narrow rectangles are where two adjacent lines' costs add up to more than the covering LP proves.
RECTANGLE_4X15 = """\
000010010010111
001101110101001
001110010100111
000111000001011
"""

RANDOM_11_2 = """\
11001110100
10101011111
01001011111
00110011101
11010010111
10011101111
01111001001
01100100101
01001111111
11010111011
01010011011
"""

# A dense tri board (bench/tri.py's 6x6 #0): its bound 20 exhausted, annealing over press counts meets a
# 21 (608,354 nodes against 780,988).
TRI_6 = """\
332212
221212
112232
323231
123321
232212
"""
# A tri board a quarter turn maps to itself (tests/test_solver_tri.py's symmetric_tri_board(Random(1), 7,
# "quarter turn", False)): symmetry breaking under its character takes it from 38,531 nodes to 30,205.
TRI_QUARTER_TURN = """\
2313232
3312233
2221211
3211123
1121222
3322133
2323132
"""
# A 31x31 board whose 1-points all lie in its last 15 rows and columns: every lattice line of its 32 points
# has them in its upper 16, the half the split line costs (solver/line_costs.h) take from a second table.
# A random 4x6 blob in its corner, where the pair bound saves 1,116 against 1,808 nodes, and still saves
# with the move ordering, fewest branches, the work estimate or exclusion off (at 03480d2; the board of 19
# presses before it saved 29 against 35 nodes, and none with the ordering or fewest branches off).
CORNER_31 = ("0" * 31 + "\n") * 27 + (
    """\
0000000000000000000000000110010
0000000000000000000000000001000
0000000000000000000000000101101
0000000000000000000000000110000
"""
)

# (technique, the switch that turns it off, the board it matters on)
PREMISES = [
    ("symmetry breaking", ("--no-symmetry",), BOTH_MIRRORS_11),
    ("the covering LP bound", ("--no-cover-bound",), WEEKLY_1),
    ("the Lagrangian with parity rows of the node's own", ("--no-lagrangian",), UNIFORM_11),
    ("sibling exclusion", ("--no-exclusion",), UNIFORM_10),
    ("move ordering", ("--no-ordering",), WEEKLY_1),
    ("the pair bound", ("--no-pair-bound",), UNIFORM_10),
    ("the adjacent-lines bound", ("--no-line-bound",), RECTANGLE_4X15),
    ("the pair bound on lines past 16 points", ("--no-pair-bound",), CORNER_31),
]
# The search as it was before the Lagrangian (solver/lagrangian.h): at the nodes it runs at, it proves
# about what the node's LP with its parity rounds would, so on these small boards the node LP, the parity
# rows' rounds and duals, and the branch point's choices have too few nodes left to show their worth
# beside it (the weekly level takes 27 nodes). Each premise below holds in the search without it, where
# the LP solved ahead of a big subtree is also on (its default before the Lagrangian).
WITHOUT_LAGRANGIAN = ("--no-lagrangian", "--lp-ahead", "40")
PREMISES_WITHOUT_LAGRANGIAN = [
    ("re-solving the LP below the root", ("--lp-after", "0"), UNIFORM_10),
    ("the LP solved on entering a node the work estimate foresees big", ("--lp-ahead", "0"), UNIFORM_11),
    ("the parity rows", ("--parity-rounds", "0"), WEEKLY_1),
    # What it buys is the LP's pivots (docs/experiments/2026-12-02-parity-rounds-that-stop-paying.md);
    # that it also saves nodes here shows it still fires.
    ("the parity rounds ended once one gains little", ("--parity-gain", "0"), UNIFORM_11),
    ("the parity rows' duals handed down to the subtree", ("--no-parity-weights",), WEEKLY_1),
    # (On the uniform boards the LP, solved more often without them, saves nodes in 4x the time: results.md.)
    ("the parity rows' duals handed down below the root", ("--no-parity-weights",), BOTH_MIRRORS_11),
    ("the LP's rounded duals mended", ("--no-dual-repair",), UNIFORM_11),
    ("branching at the point with fewest moves", ("--no-fewest-branches",), WEEKLY_1),
    ("the work estimate choosing the branch point", ("--no-work-estimate",), WEEKLY_1),
]
# (technique, the switch that turns it off, the board, what both runs are given besides)
PREMISES_BESIDE = [
    # Its bound 24 takes 68,565 nodes, under the 100,000 after which annealing runs by default.
    (
        "annealing meeting the last bound's solution",
        ("--no-annealing",),
        RANDOM_11_2,
        ("--anneal-after", "50000"),
    ),
    (
        "annealing meeting the last bound's solution under tri",
        ("--no-annealing",),
        TRI_6,
        ("--scheme", "tri"),
    ),
    ("symmetry breaking under tri", ("--no-symmetry",), TRI_QUARTER_TURN, ("--scheme", "tri")),
    # What it buys is pivots: at the defaults it trades a few more nodes for cheaper LPs. With the LP at
    # every node, the rows it keeps refute nodes the covering LP alone lets through (690 nodes against 1,111).
    (
        "the parity rows kept for the LPs below",
        ("--no-kept-rows",),
        UNIFORM_10,
        (*WITHOUT_LAGRANGIAN, "--lp-after", "1"),
    ),
]
CASES = (
    [(*premise, ()) for premise in PREMISES]
    + [(*premise, WITHOUT_LAGRANGIAN) for premise in PREMISES_WITHOUT_LAGRANGIAN]
    + PREMISES_BESIDE
)


@pytest.mark.parametrize(("technique", "off", "board", "beside"), CASES, ids=[case[0] for case in CASES])
def test_each_technique_expands_fewer_nodes_than_the_same_run_without_it(
    run_solver, technique, off, board, beside
):
    with_it = run_solver(board, "--threads", "1", "--quiet", *beside)
    without_it = run_solver(board, "--threads", "1", "--quiet", *beside, *off)
    assert with_it.outcome == without_it.outcome == "solved", with_it.describe() + without_it.describe()
    assert with_it.move_count == without_it.move_count
    assert with_it.nodes < without_it.nodes, (
        f"{technique} saved no nodes: {with_it.nodes:,} with it, {without_it.nodes:,} with {' '.join(off)}"
    )


# The switches no premise holds, and why: none turns a technique off whose work a node count shows. Every
# other switch of `--list-switches` is a premise's (docs/checks.md's "Every switch" has both lists).
NOT_PREMISED = {
    "--no-lp-updates": "the LP's duals recomputed, rounding otherwise: nodes either way, more instructions",
    "--tt": "off by default, a diagnostic: beside exclusion the table saves nothing and gives up symmetry",
    "--tt-min-budget": "tunes --tt",
    "--lp-ahead-from": "tunes the LP solved where the work estimate foresees a big subtree",
    "--estimate-from": "tunes the work estimate",
    "--anneal-after": "tunes annealing, whose premise sets it",
    "--lagrangian-from": "tunes the Lagrangian",
    "--lagrangian-iterations": "tunes the Lagrangian",
}


def test_every_switch_has_a_premise_or_is_named_as_one_no_premise_holds(solver_path):
    flags, numbers = list_switches(solver_path)
    listed = {*flags, *(number.name for number in numbers)}
    premised = {off[0] for _, off, _, _ in CASES}
    assert listed - premised - NOT_PREMISED.keys() == set(), "a switch without a premise or a reason"
    assert NOT_PREMISED.keys() <= listed, "a reason for a switch the solver no longer has"
    checks = (REPO / "docs" / "checks.md").read_text().split("## Every switch", 1)[1].split("\n## ", 1)[0]
    assert [name for name in sorted(listed) if f"`{name}" not in checks] == []
