#!/usr/bin/env python3
"""unflip on three-colour ("tri") boards side by side with CP-SAT, board by board, in one run (issue 36).

    .venv/bin/python bench/tri.py                                  # 5x5 to 12x12, 5 boards each, 60 s caps
    .venv/bin/python bench/tri.py --sizes 5-7 --boards 2 --cap 5   # a quick look
    python3 bench/tri.py --sizes 5-10 --no-peer                    # unflip alone, on a bare python3

Each board is the one a uniformly random press vector (0, 1 or 2 presses of every square, seeded by size
and board number) makes, so every board is solvable and dense (tests/oracle.py says why). unflip runs as
`unflip_solver --scheme tri --threads T --quiet --max-seconds CAP`, its time the TIME it reports (its own
clock, from reading the board to the answer); its presses are replayed, mod 3, here. CP-SAT gets the test
oracle's model (tests/oracle.py's tri_cpsat_run: x in {0, 1, 2} per square, on the signed corner lattice)
with T workers and the same cap, its time its solve's wall time, the model already built; it needs the venv
(ortools). A disagreement on an optimum, or presses that do not solve the board, is flagged `!` and makes
the exit status 1. The summary gives per size the boards each proves within the cap, the median and the
largest time (a capped board counts at its cap), and the least and median CP-SAT/unflip ratio over the
boards both prove; a board only unflip proves shows the ratio as more than the cap over unflip's time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
from pathlib import Path

from frontier import fields_of
from run_book import level_numbers

REPO = Path(__file__).resolve().parent.parent


def moves_of(n):
    return [(r, c, k) for k in range(2, n + 1) for r in range(n - k + 1) for c in range(n - k + 1)]


def board_of(n, seed):
    """The board (rows of digits 1..3) that a seeded uniformly random press vector makes: tile − 1 = A·x mod
    3. Written apart from tests/oracle.py's, so that the solver's side runs on a bare python3."""
    rng = random.Random(seed)
    needs = [[0] * n for _ in range(n)]
    for r, c, k in moves_of(n):
        times = rng.randrange(3)
        for i in range(r, r + k):
            for j in range(c, c + k):
                needs[i][j] = (needs[i][j] + times) % 3
    return ["".join(str(v + 1) for v in row) for row in needs]


def solves(rows, presses):
    """Whether the presses, each turning its square's tiles 1 -> 3 -> 2 -> 1, leave every tile 1."""
    needs = [[int(ch) - 1 for ch in row] for row in rows]
    for r, c, k in presses:
        for i in range(r, r + k):
            for j in range(c, c + k):
                needs[i][j] = (needs[i][j] - 1) % 3
    return all(v == 0 for row in needs for v in row)


def run_unflip(solver, rows, threads, cap):
    args = [str(solver), "--scheme", "tri", "--quiet", "--threads", str(threads), "--max-seconds", str(cap)]
    done = subprocess.run(args, input="\n".join(rows) + "\n", capture_output=True, text=True, check=False)
    lines = done.stdout.splitlines()
    if not lines or lines[0] != "SCHEME tri":
        raise RuntimeError(f"unflip failed (exit {done.returncode}): {done.stderr.strip()}")
    fields = fields_of(done.stdout)
    seconds = float(fields.get("TIME", "nan"))
    if "MOVES" in fields:
        count = int(fields["MOVES"])
        start = lines.index(f"MOVES {count}") + 1
        presses = [tuple(int(v) for v in line.split()) for line in lines[start : start + count]]
        return {"optimum": count, "seconds": seconds, "valid": solves(rows, presses)}
    if "STOPPED" in fields:
        return {"optimum": None, "seconds": seconds, "valid": True, "bound": int(fields["STOPPED"])}
    # A board made by presses is solvable: anything else is wrong.
    return {"optimum": "?", "seconds": seconds, "valid": False}


def run_cpsat(rows, workers, cap):
    sys.path.insert(0, str(REPO / "tests"))
    from oracle import tri_cpsat_run

    run = tri_cpsat_run(tuple(tuple(int(ch) for ch in row) for row in rows), workers=workers, time_limit=cap)
    if run.status == "OPTIMAL":
        return {"optimum": len(run.presses), "seconds": run.seconds, "valid": True}
    # Stopped by the cap; an INFEASIBLE board made by presses would be CP-SAT's fault.
    return {
        "optimum": None,
        "seconds": run.seconds,
        "bound": int(run.bound),
        "valid": run.status != "INFEASIBLE",
    }


def shown(result, cap):
    if result is None:
        return f"{'-':>8} {'-':>8}"
    if result["optimum"] is None:
        return f"{'>=' + str(result.get('bound', '?')):>8} {cap:>8.3f}"
    return f"{result['optimum']!s:>8} {result['seconds']:>8.3f}"


def seconds_of(result, cap):
    return cap if result["optimum"] is None else result["seconds"]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="5-12", help="board sides, as '5-12' or '5,8,10'")
    parser.add_argument("--boards", type=int, default=5, help="boards of each size")
    parser.add_argument("--cap", type=float, default=60, help="seconds per board and solver")
    parser.add_argument("--threads", type=int, default=2, help="unflip's threads and CP-SAT's workers")
    parser.add_argument("--no-peer", action="store_true", help="unflip alone (no CP-SAT, no venv needed)")
    parser.add_argument("--solver", type=Path, default=REPO / "unflip_solver")
    options = parser.parse_args()
    print(f"{'board':<10} {'size':>5} {'unflip':>8} {'seconds':>8} {'CP-SAT':>8} {'seconds':>8} {'ratio':>8}")
    bad = False
    summary = []
    for n in level_numbers(options.sizes):
        rows_of_size = []
        for i in range(options.boards):
            rows = board_of(n, 1000 * n + i)
            ours = run_unflip(options.solver, rows, options.threads, options.cap)
            theirs = None if options.no_peer else run_cpsat(rows, options.threads, options.cap)
            answers = {r["optimum"] for r in (ours, theirs) if r and r["optimum"] is not None}
            wrong = len(answers) > 1 or not all(r["valid"] for r in (ours, theirs) if r)
            both = theirs and ours["optimum"] is not None and theirs["optimum"] is not None
            ratio = theirs["seconds"] / max(ours["seconds"], 1e-3) if both else None
            # CP-SAT capped where unflip proved: the ratio is at least the cap over unflip's time.
            at_least = theirs and ours["optimum"] is not None and theirs["optimum"] is None
            ratio_text = "-" if ratio is None else f"{ratio:.1f}x"
            if at_least:
                ratio_text = f">{options.cap / max(ours['seconds'], 1e-3):.0f}x"
            print(
                f"{f'tri {n}#{i}':<10} {n:>2}x{n:<2} {shown(ours, options.cap)} {shown(theirs, options.cap)} "
                f"{ratio_text:>8} {'!' if wrong else ' '}",
                flush=True,
            )
            bad |= wrong
            rows_of_size.append((ours, theirs, ratio))
        summary.append((n, rows_of_size))
    peer = "" if options.no_peer else "   CP-SAT proven  median s    max s   ratio min  median"
    print(
        f"\nsize  unflip proven  median s    max s{peer}"
        f"   (of {options.boards} boards, cap {options.cap:g} s, threads/workers {options.threads})"
    )
    for n, results in summary:
        line = f"{n:>2}x{n:<2}"
        for side in (0, 1):
            if options.no_peer and side:
                continue
            got = [r[side] for r in results]
            times = [seconds_of(r, options.cap) for r in got]
            proven = sum(r["optimum"] is not None for r in got)
            line += f" {proven:>10} {statistics.median(times):>12.3f} {max(times):>8.3f}    "
        ratios = [r[2] for r in results if r[2] is not None]
        if ratios:
            line += f"{min(ratios):>8.1f}x {statistics.median(ratios):>6.1f}x"
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
