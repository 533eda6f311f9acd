#!/usr/bin/env python3
"""What the covering LP costs per node: the share of the solver's time spent in it, from perf's samples.

    python bench/lp_cost.py --sizes 12 --boards 1
    python bench/lp_cost.py --sizes 11-12 --boards 2 --solver-arg=--lp-after --solver-arg=500
    python bench/lp_cost.py --sizes 12 --solver /tmp/old_solver     # another build, to compare

Per board (bench/peers.py's `uniform-N-i`): the nodes, the solver's TIME, the share of the CPU samples
in the LP (the functions of `CoverLp`, which `CoverBound` calls to re-solve it), and what that makes per
node: the LP's microseconds and the rest's. The search re-solves the LP at a node once its subtree has
taken `--lp-after` nodes, so the LP's time per node is the price of that bound, and lowering it is what
lets the LP run more often. One thread by default, where the tree, and so the nodes, are the same on
every run. Needs perf (Debian's linux-perf); runs on a bare python3.
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_book import level_numbers, uniform_rows  # noqa: E402

SAMPLE = re.compile(r"^\s*([0-9.]+)%\s+.*\[\.\]\s+(.*)$")


def lp_share(report):
    """The percentage of samples in CoverLp's functions, from `perf report --sort sym` text."""
    share = 0.0
    for line in report.splitlines():
        match = SAMPLE.match(line)
        if match and "CoverLp::" in match.group(2):
            share += float(match.group(1))
    return share


def measure(solver, rows, threads, extra, work):
    board = work / "board.txt"
    board.write_text("\n".join(rows) + "\n")
    data = work / "perf.data"
    done = subprocess.run(
        [
            "perf",
            "record",
            "-q",
            "-o",
            str(data),
            "--",
            str(solver),
            str(board),
            "--threads",
            str(threads),
            "--quiet",
            *extra,
        ],
        capture_output=True,
        text=True,
    )
    if done.returncode not in (0, 3):
        raise SystemExit(
            f"error: perf or the solver failed (exit {done.returncode}): {done.stderr.strip()[-300:]}"
        )
    fields = dict(
        line.split(" ", 1) for line in done.stdout.splitlines() if " " in line and line[0].isalpha()
    )
    report = subprocess.run(
        ["perf", "report", "-i", str(data), "--no-children", "--stdio", "-g", "none", "--sort", "sym"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return int(fields["NODES"]), float(fields["TIME"]), lp_share(report)


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="12", help="N or A-B")
    parser.add_argument("--boards", type=int, default=1, help="boards per size")
    parser.add_argument("--first", type=int, default=0, help="index of the first board")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--solver", default=str(REPO / "unflip_solver"))
    parser.add_argument("--solver-arg", action="append", default=[], help="passed to every solver run")
    args = parser.parse_args()

    print(
        f"{'board':<14} {'nodes':>11} {'TIME s':>8} {'LP share':>9} {'LP us/node':>11} {'rest us/node':>13}"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for n in level_numbers(args.sizes):
            for i in range(args.first, args.first + args.boards):
                nodes, seconds, share = measure(
                    args.solver, uniform_rows(n, i), args.threads, args.solver_arg, Path(scratch)
                )
                per_node = seconds * args.threads * 1e6 / max(nodes, 1)
                lp, rest = per_node * share / 100, per_node * (1 - share / 100)
                board = f"uniform-{n}-{i}"
                print(f"{board:<14} {nodes:>11,} {seconds:>8.2f} {share:>8.1f}% {lp:>11.2f} {rest:>13.2f}")


if __name__ == "__main__":
    main()
