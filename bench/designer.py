#!/usr/bin/env python3
"""Designer boards past 15: how long the solver takes to prove boards made by a few random presses, the
boards a level designer draws, on sides from 16 to 31 (issue 37's goal: each within 10 s on 2 threads).

    python bench/designer.py                                   # 16, 20, 24, 28, 31; 10-40 presses
    python bench/designer.py --sizes 16x31,31x2 --presses 10,40 --boards 3
    python bench/designer.py --solver /tmp/other_solver --threads 1

Board i of a shape is the one `presses` random squares flip on an all-white board, the squares drawn by
random.Random(f"designer-HxW-P-i") (size 2 to the board's smaller side, then a place), so the boards are
the same on every run and machine. Per board: the presses made (an upper bound on the optimum), the root's
proven bound, the optimum or `STOPPED b`, the solver's own TIME, its NODES, and the whole process's wall
time (which adds the start-up: building the 32-point lattice, its line cost tables and the root's LP).
Runs on a bare python3.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from frontier import result_of, root_bound, run, shapes_of  # noqa: E402


def designer_rows(h, w, presses, index):
    """The board `presses` seeded random squares flip, as solver rows."""
    rng = random.Random(f"designer-{h}x{w}-{presses}-{index}")
    tiles = [[0] * w for _ in range(h)]
    for _ in range(presses):
        k = rng.randint(2, min(h, w))
        r, c = rng.randint(0, h - k), rng.randint(0, w - k)
        for i in range(r, r + k):
            for j in range(c, c + k):
                tiles[i][j] ^= 1
    return ["".join(map(str, row)) for row in tiles]


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="16,20,24,28,31", help="N, A-B or HxW, comma-separated")
    parser.add_argument("--presses", default="10,20,30,40", help="press counts, comma-separated")
    parser.add_argument("--boards", type=int, default=2, help="boards per size and press count")
    parser.add_argument("--cap", type=float, default=60, help="seconds per board (0: none)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--solver", type=Path, default=REPO / "unflip_solver")
    parser.add_argument("--solver-arg", action="append", default=[], help="passed to every solver run")
    options = parser.parse_args()

    print(f"{'board':<18} {'root':>4} {'result':>10} {'TIME':>8} {'wall':>8} {'nodes':>12}", flush=True)
    walls, proven, total = [], 0, 0
    for h, w in shapes_of(options.sizes):
        for presses in map(int, options.presses.split(",")):
            for i in range(options.boards):
                rows = designer_rows(h, w, presses, i)
                name = f"{h}x{w} p{presses}#{i}"
                bound = root_bound(options.solver, rows, options.solver_arg)
                args = ["--threads", str(options.threads), "--quiet", *options.solver_arg]
                if options.cap:
                    args += ["--max-seconds", str(options.cap)]
                start = time.perf_counter()
                fields, _ = run(options.solver, rows, args)
                wall = time.perf_counter() - start
                result = result_of(fields)
                total += 1
                proven += not result.startswith("STOPPED")
                walls.append(wall)
                print(
                    f"{name:<18} {bound:>4} {result:>10} {float(fields['TIME']):>8.3f} {wall:>8.3f} "
                    f"{int(fields['NODES']):>12,}",
                    flush=True,
                )
    print(
        f"{proven} of {total} proven; wall median {statistics.median(walls):.3f} s, "
        f"slowest {max(walls):.3f} s (cap {options.cap} s, threads={options.threads})",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
