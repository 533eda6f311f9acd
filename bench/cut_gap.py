#!/usr/bin/env python3
"""How much of the gap between the covering LP with parity rows and the optimum {0, 1/2} cuts close.

    .venv/bin/python bench/cut_gap.py --sizes 11-12 --boards 3 --deep 3
    .venv/bin/python bench/cut_gap.py --sizes 11 --boards 3 --nodes
    .venv/bin/python bench/cut_gap.py --sizes 12-13 --boards 3 --nodes --gurobi
    .venv/bin/python bench/cut_gap.py --sizes 13 --first 2 --boards 1 --by-budget

Per board (bench/peers.py's `uniform-N-i`), with LPs of its own (GLOP), nothing shared with the
solver's, on the corner lattice with every move 0 <= x <= 1:

  cover   the covering LP (a 1-point needs a move);
  parity  with every parity row (a move used at a 0-point needs another there) at once: at least what
          the solver's separated rounds reach;
  half    with {0, 1/2}-Chvatal-Gomory cuts too: for a set P of points, the moves with an odd number of
          corners in P are used D(P) times mod 2, so for any F of them with |F| + D(P) odd,
              sum over the others of x + sum over F of (1 - x) >= 1.
          Separated by enumerating every P of up to --largest points that the LP's moves join, with
          each P's best F, rounds until none is violated by more than --tolerance: the {0, 1/2}
          closure of the parity system over sets that small (CP-SAT over every P, tried first, did
          not find the violated ones within 30 s a round);
  optimum the solver's (`--threads 2`, capped at --cap seconds).

--line-sets: the cuts also from every set P inside one lattice row or column, of any size (all
2^(side+1) subsets of each line at once, with numpy): a move puts two corners or none on a line, so
these are each line's T-join odd-set rows, the exact relaxation of a single line, which bounds what a
Lagrangian over lines whose subproblems are tabulated could add.

--deep K: the same at K positions on the solver's optimal solution (its first j moves made and
forbidden). --nodes: at every node where the search re-solved its LP (`--lp-after`) and was not
refuted, from a copy of the solver built to print them (one thread): how many of these nodes all
the parity rows, and the cuts besides, would refute, and the nodes their subtrees took after that,
which is what those rows could save (an outermost refuted node's subtree counted once). Its columns:
such nodes; the mean of budget + 1 - the parity LP (what refuting takes); the mean the cuts add;
the nodes all the parity rows refute and what they save; the nodes the cuts refute besides and what
they save; the search's nodes in all.

--nodes --gurobi: at the same nodes, Gurobi's root instead (its presolve and whole cut loop, zero-half
and mod-k among them; gurobipy from requirements-bench.txt, whose size-limited licence covers every
board up to 15x15) on the corner model, every lattice point's moves summing to its colour plus twice
an integer, the node's forbidden moves held at 0: what the strongest cut loop at hand would refute
there, and what that would save. Its columns: such nodes; those Gurobi's root refutes and what they
save; its seconds a node (median, one thread); the search's nodes in all.
--gurobi-cuts sets its Cuts parameter (3: the most aggressive). Without --nodes, --gurobi adds Gurobi's
root bound at each position as a column.

--by-budget: no LPs of its own; a copy of the solver built to count (one thread; arguments this script
does not know go to the solver, e.g. --no-annealing or --lp-after 1) prints, per moves left, the nodes
the search entered, the LPs it re-solved there, how many of those refuted and the dual simplex pivots
they took, then the run's pivots in all: where the tree is, where the LP runs, and what it costs.
"""

import argparse
import math
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ortools.linear_solver import pywraplp

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_book import level_numbers, uniform_rows  # noqa: E402


def lattice(h, w):
    points = [(i, j) for i in range(h + 1) for j in range(w + 1)]
    index = {p: n for n, p in enumerate(points)}
    moves = []
    for k in range(2, min(h, w) + 1):
        for r in range(h - k + 1):
            for c in range(w - k + 1):
                moves.append(
                    ((r, c, k), [index[(r, c)], index[(r, c + k)], index[(r + k, c)], index[(r + k, c + k)]])
                )
    return points, moves


def difference(rows):
    h, w = len(rows), len(rows[0])
    t = [[int(ch) for ch in row] for row in rows]

    def tile(i, j):
        return t[i][j] if 0 <= i < h and 0 <= j < w else 0

    return [
        tile(i, j) ^ tile(i - 1, j) ^ tile(i, j - 1) ^ tile(i - 1, j - 1)
        for i in range(h + 1)
        for j in range(w + 1)
    ]


class Relaxation:
    """The LP at a position: d the lattice's colours, `forbidden` moves held at 0."""

    def __init__(self, points, moves, d, forbidden=()):
        self.moves, self.d = moves, d
        self.solver = pywraplp.Solver.CreateSolver("GLOP")
        self.x = [self.solver.NumVar(0, 0 if n in forbidden else 1, f"x{n}") for n in range(len(moves))]
        self.at = [[] for _ in points]
        for n, (_, corners) in enumerate(moves):
            for p in corners:
                self.at[p].append(n)
        for p, used in enumerate(self.at):
            if d[p] and used:
                self.solver.Add(sum(self.x[n] for n in used) >= 1)
        self.solver.Minimize(sum(self.x))
        self.cuts = 0

    def solve(self):
        status = self.solver.Solve()
        if status != pywraplp.Solver.OPTIMAL:
            return float("inf")
        return self.solver.Objective().Value()

    def values(self):
        return [v.solution_value() for v in self.x]

    def add_parity_rows(self):
        for q, used in enumerate(self.at):
            if self.d[q]:
                continue
            for m in used:
                self.solver.Add(sum(self.x[n] for n in used if n != m) >= self.x[m])

    def add_half_cut(self, odd, flipped):
        self.solver.Add(
            sum(self.x[n] for n in odd if n not in flipped) + sum(1 - self.x[n] for n in flipped) >= 1
        )
        self.cuts += 1


def separate(moves, at, d, x, largest, most):
    """The {0, 1/2} cuts x violates most, over every set P of up to `largest` points that the moves x uses
    join: for each P the best F (the odd moves over 1/2, then the parity mended at the cheapest move).
    Up to `most` of them, most violated first, as (violation, odd moves, F)."""
    support = [n for n, v in enumerate(x) if v > 1e-7]
    near = {}
    for n in support:
        for p in moves[n][1]:
            near.setdefault(p, set()).update(moves[n][1])
    seen, found = set(), []
    frontier = [frozenset([p]) for p in near]
    for size in range(1, largest + 1):
        grown = []
        for points in frontier:
            if points in seen:
                continue
            seen.add(points)
            touched = {}
            for p in points:
                for n in at[p]:
                    touched[n] = touched.get(n, 0) + 1
            odd = [n for n, times in touched.items() if times % 2]
            flipped = {n for n in odd if x[n] > 0.5}
            cost = sum(min(x[n], 1 - x[n]) for n in odd)
            if (len(flipped) + sum(d[p] for p in points)) % 2 == 0:
                mend = min(odd, key=lambda n: abs(1 - 2 * x[n]), default=None)
                if mend is None:
                    continue
                cost += abs(1 - 2 * x[mend])
                flipped ^= {mend}
            if cost < 1 - 1e-6:
                found.append((1 - cost, odd, flipped))
            if size < largest:
                for p in points:
                    for q in near[p]:
                        if q not in points:
                            grown.append(points | {q})
        frontier = grown
    found.sort(key=lambda cut: -cut[0])
    return found[:most]


def separate_lines(points, moves, d, x, most):
    """The {0, 1/2} cuts x violates most over every set P inside one lattice row or column, of any size:
    a move with corners on that line has two there, so it is odd in P when exactly one of them is in P
    (a pair crossing P's border), and P's cuts are the line's T-join odd-set rows with their F. Every
    subset of every line is tried at once (numpy), each with its best F. Up to `most` of them."""
    import numpy as np

    height = max(i for i, _ in points)
    width = max(j for _, j in points)
    index = {p: n for n, p in enumerate(points)}
    lines = [[index[(i, j)] for j in range(width + 1)] for i in range(height + 1)]
    lines += [[index[(i, j)] for i in range(height + 1)] for j in range(width + 1)]
    found = []
    for line in lines:
        where = {p: position for position, p in enumerate(line)}
        ends = [
            (n, where[a], where[b])
            for n, (_, corners) in enumerate(moves)
            for a, b in pairs_on(corners, where)
        ]
        support = [(n, a, b) for n, a, b in ends if x[n] > 1e-9]
        if not support:
            continue
        subsets = np.arange(1 << len(line), dtype=np.int64)
        a = np.array([e[1] for e in support])
        b = np.array([e[2] for e in support])
        crossing = ((subsets[:, None] >> a) ^ (subsets[:, None] >> b)) & 1 == 1
        values = np.array([x[e[0]] for e in support])
        cost = (crossing * np.minimum(values, 1 - values)).sum(axis=1)
        heavy = (crossing & (values > 0.5)).sum(axis=1)
        colour = sum(((subsets >> position) & 1) * d[p] for position, p in enumerate(line)) % 2
        even = (heavy + colour) % 2 == 0
        mend = np.where(crossing, np.abs(1 - 2 * values), np.inf).min(axis=1)
        cost = np.where(even, cost + mend, cost)
        for subset in np.flatnonzero(cost < 1 - 1e-6):
            inside = {line[position] for position in range(len(line)) if subset >> position & 1}
            odd = [n for n, (_, corners) in enumerate(moves) if sum(p in inside for p in corners) % 2]
            flipped = {n for n in odd if x[n] > 0.5}
            if (len(flipped) + sum(d[p] for p in inside)) % 2 == 0:
                flipped ^= {min(odd, key=lambda n: abs(1 - 2 * x[n]))}
            found.append((1 - float(cost[subset]), odd, flipped))
    found.sort(key=lambda cut: -cut[0])
    return found[:most]


def pairs_on(corners, where):
    """The pair of a move's corners that lie on a line (none, or the two on it)."""
    on = [p for p in corners if p in where]
    return [(on[0], on[1])] if len(on) == 2 else []


def measure(points, moves, d, forbidden, rounds, tolerance, largest, per_round, line_sets=False):
    lp = Relaxation(points, moves, d, forbidden)
    cover = lp.solve()
    lp.add_parity_rows()
    parity = lp.solve()
    half = parity
    started = time.perf_counter()
    for _ in range(rounds if parity < math.inf else 0):  # no LP solution: the position is unsolvable
        x = lp.values()
        found = separate(moves, lp.at, d, x, largest, per_round)
        if line_sets:
            found = sorted(found + separate_lines(points, moves, d, x, per_round), key=lambda cut: -cut[0])
        found = [cut for cut in found[:per_round] if cut[0] > tolerance]
        if not found:
            break
        for _, odd, flipped in found:
            lp.add_half_cut(odd, flipped)
        half = lp.solve()
        if half == math.inf:  # the cuts prove the position unsolvable
            break
    return cover, parity, half, lp.cuts, time.perf_counter() - started


def solve(solver, rows, cap):
    done = subprocess.run(
        [str(solver), "--threads", "2", "--quiet", "--max-seconds", str(cap)],
        input="\n".join(rows) + "\n",
        capture_output=True,
        text=True,
    )
    lines = done.stdout.split("\n")
    for n, line in enumerate(lines):
        if line.startswith("MOVES "):
            count = int(line.split()[1])
            return count, [tuple(map(int, lines[n + 1 + i].split())) for i in range(count)]
        if line.startswith("STOPPED "):
            return f"STOPPED {line.split()[1]}", []
    raise SystemExit(f"error: the solver failed: {done.stderr.strip()[-200:]}")


# The lines that make a copy of the solver print each node it re-solved the LP at and was not refuted
# by, with what its subtree took after that: (its file under solver/, text to find there, text to put
# after it).
DUMP_EDITS = [
    (
        "search.h",
        "        bool refined = false;\n",
        "        std::string dump;   // the node, once refined\n        uint64_t dump_start = 0;\n",
    ),
    (
        "search.h",
        "                if (refuted_here) break;\n",
        "                dump_start = local_nodes_;\n"
        '                dump = "REFINE " + std::to_string(budget) + " " +\n'
        '                        std::to_string(here.depth) + " D";\n'
        "                for (int p = 0; p < kLatticePoints; ++p)\n"
        '                    if (d_.test(p)) dump += " " + std::to_string(p);\n'
        '                dump += " X";\n'
        "                for (size_t m = 0; m < lattice_.moves.size(); ++m)\n"
        "                    if (here.blocked[m])\n"
        '                        dump += " " + std::to_string(moves_[m].row) + "," +\n'
        '                                 std::to_string(moves_[m].col) + "," +\n'
        "                                 std::to_string(moves_[m].size);\n",
    ),
    (
        "search.h",
        "        if (refined) bounds_.leave(here);\n",
        '        if (refined && !dump.empty()) std::fprintf(stderr, "%s N %llu\\n", dump.c_str(),\n'
        "            (unsigned long long)(local_nodes_ - dump_start));\n",
    ),
]


# The lines that make a copy of the solver count, per moves left, the nodes it entered, the LPs it
# re-solved there, the ones of those that refuted and the dual simplex pivots they took, and print them
# when it exits, with the pivots of the whole run (--by-budget).
COUNT_EDITS = [
    (
        "search.h",
        "    bool dfs(int budget, SymmetryGroup group) {\n",
        "        ++budget_counts[std::min(budget, 63)][0];\n",
    ),
    (
        "search.h",
        "                const bool refuted_here = bounds_.refine(here, budget) > budget;\n",
        "                ++budget_counts[std::min(budget, 63)][1];\n"
        "                if (refuted_here) ++budget_counts[std::min(budget, 63)][2];\n"
        "                budget_counts[std::min(budget, 63)][3] += lp_pivots - pivots_before;\n",
    ),
    (
        "search.h",
        "            if (!refined && due) {\n",
        "                const unsigned long long pivots_before = lp_pivots;\n",
    ),
    (
        "cover_lp.h",
        "    bool pivot(const Leaving& leave) {\n",
        "        ++lp_pivots;\n",
    ),
]
COUNTS_HEADER = """#include <cstdio>
inline unsigned long long budget_counts[64][4], lp_pivots;
struct BudgetCounts {
    ~BudgetCounts() {
        for (int b = 0; b < 64; ++b)
            if (budget_counts[b][0])
                std::fprintf(stderr, "BUDGET %d %llu %llu %llu %llu\\n", b, budget_counts[b][0],
                             budget_counts[b][1], budget_counts[b][2], budget_counts[b][3]);
        std::fprintf(stderr, "PIVOTS %llu\\n", lp_pivots);
    }
};
inline BudgetCounts budget_counts_printed;
"""


def dumping_solver(folder, edits=DUMP_EDITS):
    """A copy of the solver with `edits` made to its files under solver/: by default one that prints
    its re-solved, unrefuted nodes on standard error."""
    source = folder / "src"
    shutil.copytree(REPO / "solver", source / "solver")
    shutil.copy(REPO / "unflip_solver.cpp", source)
    (source / "counts.h").write_text(COUNTS_HEADER)
    for name, find, after in edits:
        edited = source / "solver" / name
        text = edited.read_text()
        if text.count(find) != 1:
            raise SystemExit(f"error: solver/{name} has changed: {find.strip()!r} is not there once")
        edited.write_text(text.replace(find, find + after))
    binary = folder / "dumping_solver"
    subprocess.run(
        [
            "g++",
            "-std=c++17",
            "-O3",
            "-march=native",
            "-pthread",
            "-include",
            "string",
            "-include",
            "cstdio",
            "-include",
            str(source / "counts.h"),
            "-o",
            str(binary),
            str(source / "unflip_solver.cpp"),
        ],
        check=True,
    )
    return binary


def by_budget(binary, rows, name, solver_args):
    """Per moves left: the nodes the search entered, the LPs it re-solved there, how many refuted and their
    pivots; and the run's pivots in all (the root's LP, and annealing's, besides)."""
    done = subprocess.run(
        [str(binary), "--threads", "1", "--quiet", *solver_args],
        input="\n".join(rows) + "\n",
        capture_output=True,
        text=True,
    )
    total = int(re.search(r"^NODES (\d+)$", done.stdout, re.M).group(1))
    print(f"{name}: {total} nodes")
    print(f"{'moves left':>10} {'nodes':>10} {'share':>6} {'LPs':>6} {'refuted':>7} {'pivots':>9}")
    for line in done.stderr.splitlines():
        if line.startswith("BUDGET "):
            budget, nodes, lps, refuted, pivots = map(int, line.split()[1:])
            print(f"{budget:>10} {nodes:>10} {nodes / total:>6.1%} {lps:>6} {refuted:>7} {pivots:>9}")
        elif line.startswith("PIVOTS "):
            print(f"pivots in all: {line.split()[1]}")
    print(flush=True)


def refined_nodes(binary, rows, n, index_of):
    """(budget, depth, d, forbidden, nodes after) per re-solved node, in the order the search left them,
    and the search's nodes in all."""
    done = subprocess.run(
        [str(binary), "--threads", "1", "--quiet"],
        input="\n".join(rows) + "\n",
        capture_output=True,
        text=True,
    )
    nodes = []
    for line in done.stderr.splitlines():
        match = re.match(r"REFINE (\d+) (\d+) D(.*) X(.*) N (\d+)$", line)
        if not match:
            continue
        d = [0] * (n + 1) ** 2
        for bit in match.group(3).split():
            d[int(bit) // 16 * (n + 1) + int(bit) % 16] = 1
        forbidden = {index_of[tuple(map(int, m.split(",")))] for m in match.group(4).split()}
        nodes.append((int(match.group(1)), int(match.group(2)), d, forbidden, int(match.group(5))))
    total = int(re.search(r"^NODES (\d+)$", done.stdout, re.M).group(1))
    return nodes, total


def saved(nodes, refuted):
    """The nodes the refuted ones' subtrees took after their LP: the search prints a node after its
    subtree, so a node's descendants are the run of lines just before it that lie deeper."""
    total, i = 0, len(nodes) - 1
    while i >= 0:
        if refuted[i]:
            total += nodes[i][4]
            depth = nodes[i][1]
            i -= 1
            while i >= 0 and nodes[i][1] > depth:
                i -= 1
        else:
            i -= 1
    return total


def node_report(name, nodes, total, bounds):
    """bounds: per node (parity LP, with cuts)."""

    def refutes(value, budget):  # its rounded-up value passes the budget (an unsolvable LP's is infinite)
        return value - 1e-6 > budget

    by_parity = [refutes(p, node[0]) for node, (p, _) in zip(nodes, bounds, strict=True)]
    by_cuts = [refutes(h, node[0]) for node, (_, h) in zip(nodes, bounds, strict=True)]
    # The means over the positions whose LP has a solution (the others are refuted by it outright).
    left = [node[0] + 1 - p for node, (p, _) in zip(nodes, bounds, strict=True) if p < math.inf]
    raised = [h - p for p, h in bounds if h < math.inf]
    print(
        f"{name:<14} {len(nodes):>6} {sum(left) / max(1, len(left)):>9.2f}"
        f" {sum(raised) / max(1, len(raised)):>9.3f}"
        f" {sum(by_parity):>7} {saved(nodes, by_parity):>10} {sum(by_cuts) - sum(by_parity):>7}"
        f" {saved(nodes, by_cuts) - saved(nodes, by_parity):>10} {total:>11}",
        flush=True,
    )


def gurobi():
    try:
        import gurobipy
    except ImportError:
        raise SystemExit("error: --gurobi needs gurobipy: pip install -r requirements-bench.txt") from None
    return gurobipy


def gurobi_root(gp, points, moves, d, forbidden, cuts, budget=None):
    """Gurobi's root bound (presolve and cuts, no branching) and its seconds: infinite where it proves
    the position unsolvable or, given a budget as its cutoff, needing more than that."""

    with gp.Env(params={"OutputFlag": 0, "Threads": 1}) as env, gp.Model(env=env) as model:
        x = model.addVars(len(moves), vtype=gp.GRB.BINARY)
        for n in forbidden:
            x[n].UB = 0
        at = [[] for _ in points]
        for n, (_, corners) in enumerate(moves):
            for p in corners:
                at[p].append(n)
        for p, used in enumerate(at):
            if used:
                y = model.addVar(vtype=gp.GRB.INTEGER, ub=len(used) // 2)
                model.addConstr(gp.quicksum(x[n] for n in used) == d[p] + 2 * y)
        model.setObjective(gp.quicksum(x.values()), gp.GRB.MINIMIZE)
        model.Params.NodeLimit = 1
        model.Params.Cuts = cuts
        model.Params.Heuristics = 0
        if budget is not None:
            model.Params.Cutoff = budget + 0.5
        model.optimize()
        if model.Status in (gp.GRB.CUTOFF, gp.GRB.INFEASIBLE):
            return math.inf, model.Runtime
        return model.ObjBound, model.Runtime


def gurobi_report(name, nodes, total, verdicts):
    refuted = [verdict for verdict, _ in verdicts]
    seconds = sorted(s for _, s in verdicts)
    median = seconds[len(seconds) // 2] if seconds else 0
    print(
        f"{name:<14} {len(nodes):>6} {sum(refuted):>7} {saved(nodes, refuted):>10} {median:>7.2f}"
        f" {total:>11}",
        flush=True,
    )


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="11-12", help="N or A-B")
    parser.add_argument("--boards", type=int, default=3)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=40, help="separation rounds a position at most")
    parser.add_argument("--tolerance", type=float, default=0.01, help="smallest violation a cut is added for")
    parser.add_argument("--largest", type=int, default=3, help="points in a cut's set P at most")
    parser.add_argument(
        "--line-sets", action="store_true", help="also every set P inside one lattice row or column"
    )
    parser.add_argument("--per-round", type=int, default=30, help="cuts added a round at most")
    parser.add_argument("--deep", type=int, default=0, help="positions on the optimal path, besides the root")
    parser.add_argument("--cap", type=float, default=120, help="the solver's seconds a board")
    parser.add_argument("--solver", type=Path, default=REPO / "unflip_solver")
    parser.add_argument(
        "--nodes", action="store_true", help="at the search's re-solved nodes instead (one thread)"
    )
    parser.add_argument(
        "--by-budget",
        action="store_true",
        help="per moves left, the search's nodes and LPs (one thread; other arguments go to the solver)",
    )
    parser.add_argument(
        "--gurobi", action="store_true", help="Gurobi's root bound too (with --nodes, instead)"
    )
    parser.add_argument(
        "--gurobi-cuts", type=int, default=-1, help="Gurobi's Cuts parameter (-1 its own choice, 3 the most)"
    )
    options, solver_args = parser.parse_known_args()
    if solver_args and not options.by_budget:
        parser.error(f"unrecognized arguments: {' '.join(solver_args)}")
    indices = range(options.first, options.first + options.boards)
    boards = [(n, i) for n in level_numbers(options.sizes) for i in indices]
    cuts = (options.rounds, options.tolerance, options.largest, options.per_round, options.line_sets)
    if options.by_budget:
        with tempfile.TemporaryDirectory() as folder:
            binary = dumping_solver(Path(folder), COUNT_EDITS)
            for n, i in boards:
                by_budget(binary, uniform_rows(n, i), f"uniform-{n}-{i}", solver_args)
        return
    if options.nodes:
        gp = gurobi() if options.gurobi else None
        if gp:
            print(f"{'board':<14} {'nodes':>6} {'refuted':>7} {'saves':>10} {'s/node':>7} {'of nodes':>11}")
        else:
            print(
                f"{'board':<14} {'nodes':>6} {'to refute':>9} {'cuts add':>9} {'parity':>7} {'saves':>10}"
                f" {'cuts':>7} {'save':>10} {'of nodes':>11}"
            )
        with tempfile.TemporaryDirectory() as folder:
            binary = dumping_solver(Path(folder))
            for n, i in boards:
                points, moves = lattice(n, n)
                index_of = {m[0]: k for k, m in enumerate(moves)}
                nodes, total = refined_nodes(binary, uniform_rows(n, i), n, index_of)
                name = f"uniform-{n}-{i}"
                if gp:
                    verdicts = []
                    for budget, _, d, forbidden, _ in nodes:
                        bound, seconds = gurobi_root(
                            gp, points, moves, d, forbidden, options.gurobi_cuts, budget
                        )
                        verdicts.append((bound - 1e-6 > budget, seconds))  # its rounded-up bound passes it
                    gurobi_report(name, nodes, total, verdicts)
                else:
                    bounds = [
                        measure(points, moves, d, forbidden, *cuts)[1:3] for _, _, d, forbidden, _ in nodes
                    ]
                    node_report(name, nodes, total, bounds)
        return
    print(
        f"{'board':<14} {'depth':>5} {'cover':>7} {'parity':>7} {'half':>7} {'cuts':>5} {'sep s':>6}"
        f" {'gurobi':>7} {'optimum':>10}"
    )
    gp = gurobi() if options.gurobi else None
    for n, i in boards:
        points, moves = lattice(n, n)
        index_of = {m[0]: k for k, m in enumerate(moves)}
        rows = uniform_rows(n, i)
        d = difference(rows)
        optimum, solution = solve(options.solver, rows, options.cap)
        depths = [0] + [
            round(j * len(solution) / (options.deep + 1)) for j in range(1, options.deep + 1) if solution
        ]
        for depth in depths:
            here = list(d)
            forbidden = set()
            for move in solution[:depth]:
                m = index_of[tuple(move)]
                forbidden.add(m)
                for p in moves[m][1]:
                    here[p] ^= 1
            cover, parity, half, count, seconds = measure(points, moves, here, forbidden, *cuts)
            left = optimum - depth if isinstance(optimum, int) else optimum
            root = gurobi_root(gp, points, moves, here, forbidden, options.gurobi_cuts)[0] if gp else None
            print(
                f"uniform-{n}-{i:<4} {depth:>5} {cover:>7.2f} {parity:>7.2f} {half:>7.2f} {count:>5}"
                f" {seconds:>6.1f} {'-' if root is None else f'{root:.2f}':>7} {left:>10}",
                flush=True,
            )


if __name__ == "__main__":
    main()
