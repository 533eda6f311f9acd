"""Every pruning technique still does its work: on a board where it matters, the defaults expand fewer
nodes than the same run with that one technique switched off. test_solver_switches.py shows a switch
changes only the speed; this shows the speed it buys has not silently gone, as it would if, say, the root's
symmetry group came out trivial (every answer still right, every node count the same with the switch on or
off). Node counts on one thread are deterministic, so each comparison is exact.

The boards are levels of the project's own weekly book (weekly #1 and #8), written out here so that a
rebuilt book cannot move them."""

from __future__ import annotations

import pytest

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

WEEKLY_8 = """\
01111000110
00011100110
11100101000
00011001011
01000111011
00100000100
11011100010
11010011000
00010100111
01100111000
01100011110
"""

# (technique, the switch that turns it off, the board it matters on)
PREMISES = [
    ("symmetry breaking", ("--no-symmetry",), WEEKLY_8),
    ("the covering LP bound", ("--no-cover-bound",), WEEKLY_1),
    ("re-solving the LP below the root", ("--lp-after", "0"), WEEKLY_1),
    ("the parity rows", ("--parity-rounds", "0"), WEEKLY_1),
    ("sibling exclusion", ("--no-exclusion",), WEEKLY_8),
    ("move ordering", ("--no-ordering",), WEEKLY_1),
    ("branching at the point with fewest moves", ("--no-fewest-branches",), WEEKLY_1),
    ("the pair bound", ("--no-pair-bound",), WEEKLY_1),
]


@pytest.mark.parametrize(("technique", "off", "board"), PREMISES, ids=[p[0] for p in PREMISES])
def test_each_technique_expands_fewer_nodes_than_the_same_run_without_it(run_solver, technique, off, board):
    with_it = run_solver(board, "--threads", "1", "--quiet")
    without_it = run_solver(board, "--threads", "1", "--quiet", *off)
    assert with_it.outcome == without_it.outcome == "solved", with_it.describe() + without_it.describe()
    assert with_it.move_count == without_it.move_count
    assert with_it.nodes < without_it.nodes, (
        f"{technique} saved no nodes: {with_it.nodes:,} with it, {without_it.nodes:,} with {' '.join(off)}"
    )
