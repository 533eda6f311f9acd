#!/usr/bin/env python3
"""unflip against a general-purpose MIP solver (HiGHS), board by board, in one run.

    python bench/peers.py book ../shared/books/weekly_challenges_book.json
    python bench/peers.py book BOOK --levels 6,16 --repeat 3
    python bench/peers.py uniform --sizes 6-13 --boards 5 --cap 60

Needs the bench requirements (`pip install -r requirements-bench.txt`, HiGHS's Python binding).

HiGHS gets the natural model on the corner lattice: a binary x per move, and for every lattice point p
the parity row  sum of x over the moves with a corner at p  -  2 y_p  =  D_p  with y_p a bounded integer;
its LP relaxation is the covering LP. Its time is `run()` alone, the model already built. unflip's time
is the TIME it reports (the solver process's own clock, from reading the board to the answer). Both
answers are replayed on the board; a disagreement on the optimum, or a solution that does not solve
the board, is flagged with `!` and makes the exit status 1. With --repeat R each board runs R times,
the two solvers alternating, and the median time is shown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import highspy
import numpy as np
from run_book import level_numbers, level_rows, uniform_rows

REPO = Path(__file__).resolve().parent.parent


def moves_of(n):
    return [(r, c, k) for k in range(2, n + 1) for r in range(n - k + 1) for c in range(n - k + 1)]


def solved_by(rows, moves):
    n = len(rows)
    grid = [[int(ch) for ch in row] for row in rows]
    for r, c, k in moves:
        for i in range(r, r + k):
            for j in range(c, c + k):
                grid[i][j] ^= 1
    return all(v == 0 for row in grid for v in row) and all(len(row) == n for row in grid)


def run_unflip(solver, rows, threads, cap):
    args = [str(solver), "--quiet", "--threads", str(threads)]
    if cap:
        args += ["--max-seconds", str(cap)]
    done = subprocess.run(args, input="\n".join(rows) + "\n", capture_output=True, text=True, check=False)
    lines = done.stdout.splitlines()
    fields = dict(line.split(" ", 1) for line in lines if " " in line and line[0].isalpha())
    seconds = float(fields.get("TIME", "nan"))
    if "MOVES" in fields:
        count = int(fields["MOVES"])
        start = lines.index(f"MOVES {count}") + 1
        moves = [tuple(int(v) for v in line.split()) for line in lines[start : start + count]]
        return {"optimum": count, "seconds": seconds, "valid": solved_by(rows, moves)}
    if "UNSOLVABLE" in lines:
        return {"optimum": "unsolvable", "seconds": seconds, "valid": True}
    if "STOPPED" in fields:
        return {"optimum": None, "seconds": seconds, "valid": True, "bound": int(fields["STOPPED"])}
    raise RuntimeError(f"unflip failed (exit {done.returncode}): {done.stderr.strip()}")


def quiet_highs():
    """A Highs instance; the first one prints a banner on standard output before any option can stop
    it, so that one is made with standard output pointed elsewhere."""
    if not quiet_highs.banner_shown:
        sys.stdout.flush()
        saved = os.dup(1)
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 1)
            highspy.Highs()
        os.dup2(saved, 1)
        os.close(saved)
        quiet_highs.banner_shown = True
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    return h


quiet_highs.banner_shown = False


def run_highs(rows, threads, cap):
    n = len(rows)
    t = [[int(ch) for ch in row] for row in rows]

    def tile(i, j):
        return t[i][j] if 0 <= i < n and 0 <= j < n else 0

    moves = moves_of(n)
    touching = {}
    for index, (r, c, k) in enumerate(moves):
        for corner in ((r, c), (r, c + k), (r + k, c), (r + k, c + k)):
            touching.setdefault(corner, []).append(index)
    h = quiet_highs()
    h.setOptionValue("threads", threads)
    if cap:
        h.setOptionValue("time_limit", float(cap))
    count = len(moves)
    h.addVars(count, np.zeros(count), np.ones(count))
    h.changeColsCost(count, np.arange(count, dtype=np.int32), np.ones(count))
    integer = highspy.HighsVarType.kInteger
    h.changeColsIntegrality(count, np.arange(count, dtype=np.int32), np.array([integer] * count))
    for (i, j), incident in sorted(touching.items()):
        d = tile(i, j) ^ tile(i - 1, j) ^ tile(i, j - 1) ^ tile(i - 1, j - 1)
        slack = h.getNumCol()
        h.addVar(0, len(incident) // 2)
        h.changeColIntegrality(slack, integer)
        h.addRow(d, d, len(incident) + 1, np.array([*incident, slack], dtype=np.int32),
                 np.array([1.0] * len(incident) + [-2.0]))
    started = time.perf_counter()
    h.run()
    seconds = time.perf_counter() - started
    status = h.getModelStatus()
    if status == highspy.HighsModelStatus.kInfeasible:
        return {"optimum": "unsolvable", "seconds": seconds, "valid": True}
    if status != highspy.HighsModelStatus.kOptimal:
        return {"optimum": None, "seconds": seconds, "valid": True}
    values = h.getSolution().col_value
    chosen = [moves[index] for index in range(count) if values[index] > 0.5]
    return {"optimum": len(chosen), "seconds": seconds, "valid": solved_by(rows, chosen)}


def compare(name, rows, options):
    """Both solvers on one board, --repeat times alternating; median seconds of each."""
    ours, theirs = [], []
    for _ in range(options.repeat):
        ours.append(run_unflip(options.solver, rows, options.threads, options.cap))
        theirs.append(run_highs(rows, options.threads, options.cap))
    a, b = ours[0], theirs[0]
    a_seconds = statistics.median(r["seconds"] for r in ours)
    b_seconds = statistics.median(r["seconds"] for r in theirs)
    answers = {r["optimum"] for r in ours + theirs if r["optimum"] is not None}
    bad = len(answers) > 1 or not all(r["valid"] for r in ours + theirs)
    return {"name": name, "size": len(rows), "ours": a, "theirs": b, "ours_s": a_seconds,
            "theirs_s": b_seconds, "bad": bad}


def shown(result, seconds):
    if result["optimum"] is None:
        return f"{'>=' + str(result['bound']) if 'bound' in result else 'cap':>10} {seconds:>9.3f}"
    return f"{result['optimum']!s:>10} {seconds:>9.3f}"


def print_row(row):
    ratio = row["theirs_s"] / row["ours_s"] if row["ours_s"] > 0 else float("inf")
    flag = "!" if row["bad"] else " "
    print(f"{row['name']:<14} {row['size']:>2}x{row['size']:<2} {shown(row['ours'], row['ours_s'])}  "
          f"{shown(row['theirs'], row['theirs_s'])} {ratio:>9.1f}x {flag}", flush=True)


HEADER = (f"{'board':<14} {'size':>5} {'unflip':>10} {'seconds':>9}  {'HiGHS':>10} {'seconds':>9} "
          f"{'HiGHS/unflip':>10}")


def book(options):
    levels = json.loads(options.book.read_text())["levels"]
    chosen = level_numbers(options.levels) if options.levels else range(1, len(levels) + 1)
    print(HEADER)
    rows = []
    for number in chosen:
        level = levels[number - 1]
        row = compare(level.get("title", f"level {number}"), level_rows(level), options)
        print_row(row)
        rows.append(row)
    ours = sum(r["ours_s"] for r in rows)
    theirs = sum(r["theirs_s"] for r in rows)
    slowest = max(rows, key=lambda r: r["ours_s"])
    faster = sum(r["ours_s"] < r["theirs_s"] for r in rows)
    print(f"total: unflip {ours:.3f} s, HiGHS {theirs:.3f} s, ratio {theirs / ours:.1f}x; unflip faster on "
          f"{faster} of {len(rows)}; slowest unflip level {slowest['name']} {slowest['ours_s']:.3f} s; "
          f"threads={options.threads}, repeat={options.repeat}")
    return 1 if any(r["bad"] for r in rows) else 0


def proven_and_median(results, side):
    proven = sum(r[side]["optimum"] is not None for r in results)
    return proven, statistics.median(r[f"{side}_s"] for r in results)


def uniform(options):
    sizes = level_numbers(options.sizes)
    print(HEADER)
    summary, bad = [], False
    for n in sizes:
        results = []
        for i in range(options.boards):
            row = compare(f"uniform {n}#{i}", uniform_rows(n, i), options)
            print_row(row)
            results.append(row)
            bad |= row["bad"]

        summary.append((n, *proven_and_median(results, "ours"), *proven_and_median(results, "theirs")))
    print(f"\nsize  unflip proven  median s   HiGHS proven  median s   (of {options.boards} boards, "
          f"cap {options.cap} s, a capped board counts at its cap, threads={options.threads})")
    for n, ours, ours_s, theirs, theirs_s in summary:
        print(f"{n:>2}x{n:<2} {ours:>8} {ours_s:>14.3f} {theirs:>10} {theirs_s:>13.3f}")
    return 1 if bad else 0


def main():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--threads", type=int, default=os.cpu_count())
    common.add_argument("--repeat", type=int, default=1, help="runs of each solver per board (median shown)")
    common.add_argument("--cap", type=float, default=0, help="seconds per board and solver (0: none)")
    common.add_argument("--solver", type=Path, default=REPO / "unflip_solver")
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    on_book = commands.add_parser("book", parents=[common], help="every level of a book")
    on_book.add_argument("book", type=Path)
    on_book.add_argument("--levels", help="1-based level numbers: 6,16 or 1-5 (default: all)")
    on_uniform = commands.add_parser("uniform", parents=[common], help="uniformly random boards, seeded")
    on_uniform.add_argument("--sizes", default="6-11", help="N or A-B")
    on_uniform.add_argument("--boards", type=int, default=5, help="boards per size")
    options = parser.parse_args()
    return book(options) if options.command == "book" else uniform(options)


if __name__ == "__main__":
    sys.exit(main())
