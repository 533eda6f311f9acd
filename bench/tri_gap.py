#!/usr/bin/env python3
"""How far below the optimum of a dense three-colour ("tri") board the relaxations that carry over from two
colours fall: measured before building any of them into the solver (issue 36).

    .venv/bin/python bench/tri_gap.py --sizes 5-8 --boards 3 --cap 30

Per board (bench/tri.py's: the one a seeded uniformly random press vector makes, so solvable and dense), on
the signed corner lattice (the presses must make D, the 2D difference of what each tile needs; a square
(r, c, k) pressed t times makes +t at (r, c) and (r + k, c + k) and -t at its other two corners, mod 3), with
models of its own, nothing shared with the solver's:

  nonzero  the lattice points that are not 0;
  pair     the pair bound max(ceil(sum of row costs / 2), ceil(sum of column costs / 2)), and
  adjacent the adjacent-lines bound max(R_i + R_i+1): a line's cost is the fewest unit dipoles
           +-(e_a - e_b), a and b 2 or more apart (no further than a square that fits there reaches), that
           make its values mod 3, from a breadth-first search over all 3^points values of the line;
  cover    the covering LP (GLOP) over (square, times) entries, each 0..1, a square's two entries at most
           1 together, each costing its presses: a point that is not 0 needs an entry with a corner there;
  wrong    with, besides, a row for each entry whose step alone does not make a point's value: it needs
           another square's entry at that point;
  parity   with, besides, the same for every entry at a 0-point (the mod-3 parity rows: the solver's
           "-1/2 on its own move" in units of presses);
  root     the solver's `--lower-bound`;
  optimum  the solver's (`--threads 2`, capped at --cap seconds; `>b` when stopped, b its bound).
"""

import argparse
import functools
import subprocess
import sys
from pathlib import Path

import numpy as np
from ortools.linear_solver import pywraplp

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from frontier import fields_of  # noqa: E402
from run_book import level_numbers  # noqa: E402
from tri import board_of, moves_of  # noqa: E402


def difference(rows):
    """D, the 2D difference mod 3 of the presses each tile needs (tile - 1), on the (h+1) x (w+1) lattice."""
    h, w = len(rows), len(rows[0])
    needs = [[int(ch) - 1 for ch in row] for row in rows]

    def at(i, j):
        return needs[i][j] if 0 <= i < h and 0 <= j < w else 0

    return [
        [(at(i, j) - at(i - 1, j) - at(i, j - 1) + at(i - 1, j - 1)) % 3 for j in range(w + 1)]
        for i in range(h + 1)
    ]


@functools.cache
def line_costs(points, reach):
    """The cost of every value of a line of `points` points mod 3 (index: the values as base-3 digits, the
    first point lowest), by breadth-first search from all 0s over unit dipoles 2 to `reach` apart."""
    states = np.arange(3**points)
    digits = np.stack([(states // 3**p) % 3 for p in range(points)], axis=1)
    cost = np.full(3**points, 255, np.uint8)
    cost[0] = 0
    dipoles = [
        (a, b, t) for a in range(points) for b in range(a + 2, min(points, a + reach + 1)) for t in (1, 2)
    ]
    frontier, level = np.array([0]), 0
    while len(frontier):
        level += 1
        reached = []
        for a, b, t in dipoles:
            da, db = digits[frontier, a], digits[frontier, b]
            after = frontier + ((da + t) % 3 - da) * 3**a + ((db - t) % 3 - db) * 3**b
            after = after[cost[after] == 255]
            cost[after] = level
            reached.append(after)
        frontier = np.unique(np.concatenate(reached))
    return cost


def line_bounds(d):
    h, w = len(d) - 1, len(d[0]) - 1

    def cost_of(values, reach):
        return int(line_costs(len(values), reach)[sum(v * 3**p for p, v in enumerate(values))])

    # Row i takes dipoles of squares whose top or bottom edge it is: k up to max(i, h - i), and at most w.
    rows = [cost_of(d[i], min(w, max(i, h - i))) for i in range(h + 1)]
    columns = [cost_of([d[i][j] for i in range(h + 1)], min(h, max(j, w - j))) for j in range(w + 1)]
    pair = max((sum(rows) + 1) // 2, (sum(columns) + 1) // 2)
    adjacent = max(
        max(rows[i] + rows[i + 1] for i in range(h)), max(columns[j] + columns[j + 1] for j in range(w))
    )
    return pair, adjacent


def lp_bound(d, n, wrong_rows, parity_rows):
    solver = pywraplp.Solver.CreateSolver("GLOP")
    objective, at_point = [], {}
    for square, (r, c, k) in enumerate(moves_of(n)):
        entries = []
        for times in (1, 2):
            entry = solver.NumVar(0, 1, "")
            entries.append(entry)
            objective.append(times * entry)
            for i, j, sign in ((r, c, 1), (r, c + k, -1), (r + k, c, -1), (r + k, c + k, 1)):
                at_point.setdefault((i, j), []).append((square, sign * times % 3, entry))
        solver.Add(entries[0] + entries[1] <= 1)
    for (i, j), entries in at_point.items():
        value = d[i][j]
        if value:
            solver.Add(sum(entry for _, _, entry in entries) >= 1)
        for square, step, entry in entries:
            if (value and step != value and wrong_rows) or (not value and parity_rows):
                solver.Add(entry <= sum(other for s, _, other in entries if s != square))
    solver.Minimize(sum(objective))
    if solver.Solve() != pywraplp.Solver.OPTIMAL:
        raise RuntimeError("GLOP did not solve the LP")
    return solver.Objective().Value()


def run_solver(rows, *args):
    done = subprocess.run(
        [str(REPO / "unflip_solver"), "--scheme", "tri", "--quiet", *args],
        input="\n".join(rows) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    return fields_of(done.stdout)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="5-8", help="board sides, as '5-8' or '6,7'")
    parser.add_argument("--boards", type=int, default=3, help="boards of each size")
    parser.add_argument("--cap", type=float, default=30, help="seconds for the solver's optimum")
    options = parser.parse_args()
    print(
        f"{'board':<10} {'nonzero':>7} {'pair':>5} {'adjacent':>8} {'cover':>7} {'wrong':>7} {'parity':>7}"
        f" {'root':>5} {'optimum':>7}"
    )
    for n in level_numbers(options.sizes):
        for i in range(options.boards):
            rows = board_of(n, 1000 * n + i)
            d = difference(rows)
            pair, adjacent = line_bounds(d)
            lps = [
                lp_bound(d, n, wrong, parity)
                for wrong, parity in ((False, False), (True, False), (True, True))
            ]
            root = run_solver(rows, "--lower-bound").get("LOWER_BOUND", "?")
            found = run_solver(rows, "--threads", "2", "--max-seconds", str(options.cap))
            optimum = found.get("MOVES") or f">{found.get('STOPPED', '?')}"
            nonzero = sum(1 for line in d for value in line if value)
            print(
                f"{f'tri {n}#{i}':<10} {nonzero:>7} {pair:>5} {adjacent:>8} "
                + " ".join(f"{value:>7.2f}" for value in lps)
                + f" {root:>5} {optimum:>7}",
                flush=True,
            )


if __name__ == "__main__":
    main()
