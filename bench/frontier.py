#!/usr/bin/env python3
"""The proof frontier: how far the solver proves seeded uniformly random boards, and at what cost.

    python bench/frontier.py --sizes 12-13 --boards 5 --cap 60 --threads 2
    python bench/frontier.py --sizes 13 --boards 3 --threads 1 --solver-arg=--lp-after --solver-arg=500
    python bench/frontier.py --sizes 14 --first 5 --boards 2 --cap 180   # boards the others never drew
    python bench/frontier.py --sizes 13x15,14x15 --boards 2 --cap 600    # rectangles: H rows of W tiles

Per board: the root's proven lower bound (`--lower-bound`), then the solve capped at --cap seconds:
the optimum, or `STOPPED b` (no solution has fewer than b moves), the solver's own TIME, its NODES,
and the nodes each bound below the answer took to exhaust (from its progress lines). The boards are
bench/peers.py's (`uniform-N-i`, i from --first), so the figures line up with its table; a rectangle
HxW is seeded `uniform-HxW-i`, a size no other bench draws. On one
thread the node counts are deterministic: the yardstick for a change to the bounds or the branching.
Runs on a bare python3.
"""

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_book import level_numbers, uniform_rows  # noqa: E402

EXHAUSTED = re.compile(r"^bound (\d+) exhausted, nodes=(\d+)$")


def fields_of(stdout):
    return dict(line.split(" ", 1) for line in stdout.splitlines() if " " in line and line[0].isalpha())


def run(solver, rows, args):
    done = subprocess.run([str(solver), *args], input="\n".join(rows) + "\n", capture_output=True, text=True)
    unsolvable = done.returncode == 1 and "UNSOLVABLE" in done.stdout.splitlines()
    if done.returncode not in (0, 3) and not unsolvable:
        raise SystemExit(f"error: the solver failed (exit {done.returncode}): {done.stderr.strip()[-200:]}")
    return fields_of(done.stdout), done.stderr


def result_of(fields):
    """The optimum, or `STOPPED b` for a run its budget stopped."""
    return fields["MOVES"] if "MOVES" in fields else f"STOPPED {fields['STOPPED']}"


def root_bound(solver, rows, extra):
    """The root's proven bound, or None for a board no moves solve (some rectangles' boards)."""
    fields, _ = run(solver, rows, ["--lower-bound", "--threads", "1", *extra])
    return int(fields["LOWER_BOUND"]) if "LOWER_BOUND" in fields else None


def solve(solver, rows, threads, cap, extra):
    args = ["--threads", str(threads), *extra]
    if cap:
        args += ["--max-seconds", str(cap)]
    fields, stderr = run(solver, rows, args)
    # Each progress line gives the running total; a bound's own nodes are the difference.
    per_bound, before = [], 0
    for line in stderr.splitlines():
        match = EXHAUSTED.match(line)
        if match:
            total = int(match.group(2))
            per_bound.append((int(match.group(1)), total - before))
            before = total
    return result_of(fields), float(fields["TIME"]), int(fields["NODES"]), per_bound


def shapes_of(text):
    """'12-13', '14' or '13x15' (comma-separated, mixed): the boards' (rows, width) in order."""
    shapes = []
    for part in text.split(","):
        if "x" in part:
            rows, _, width = part.partition("x")
            shapes.append((int(rows), int(width)))
        else:
            shapes += [(n, n) for n in level_numbers(part)]
    return shapes


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="12-13", help="N, A-B or HxW, comma-separated")
    parser.add_argument("--boards", type=int, default=5, help="boards per size")
    parser.add_argument(
        "--first", type=int, default=0, help="index of the first board (peers.py's start at 0)"
    )
    parser.add_argument("--cap", type=float, default=60, help="seconds per board (0: none)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--solver", type=Path, default=REPO / "unflip_solver")
    parser.add_argument("--solver-arg", action="append", default=[], help="passed to every solver run")
    options = parser.parse_args()

    print(
        f"{'board':<14} {'root':>4} {'result':>10} {'seconds':>9} {'nodes':>14}  nodes per exhausted bound",
        flush=True,
    )
    for n, width in shapes_of(options.sizes):
        shape = f"{n}x{width}"
        times, proven = [], 0
        for i in range(options.first, options.first + options.boards):
            rows = uniform_rows(n, i, width)
            name = f"uniform {n}#{i}" if n == width else f"{shape}#{i}"
            bound = root_bound(options.solver, rows, options.solver_arg)
            if bound is None:
                print(f"{name:<14} unsolvable: no moves reach all white, nothing to search", flush=True)
                continue
            result, seconds, nodes, per_bound = solve(
                options.solver, rows, options.threads, options.cap, options.solver_arg
            )
            proven += not result.startswith("STOPPED")
            times.append(seconds)
            bounds = ", ".join(f"{b}: {count:,}" for b, count in per_bound)
            print(
                f"{name:<14} {bound:>4} {result:>10} {seconds:>9.2f} {nodes:>14,}  {bounds}",
                flush=True,
            )
        if not times:
            continue
        print(
            f"{shape}: {proven} of {len(times)} solvable proven, median {statistics.median(times):.2f} s, "
            f"slowest {max(times):.2f} s, total {sum(times):.2f} s (cap {options.cap} s, "
            f"threads={options.threads}{', ' + ' '.join(options.solver_arg) if options.solver_arg else ''})",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
