#!/usr/bin/env python3
"""Measure what each pruning technique is worth: the same boards with one switch flipped at a time.

    python bench/switches.py ../shared/books/weekly_challenges_book.json --levels 2,5,14,20 --repeat 5
    python bench/switches.py --uniform 11 --levels 1-5 --threads 2 --repeat 3

With --uniform N the boards are bench/peers.py's seeded uniformly random N×N boards, numbered from 1.

The configurations come from the solver's own switch list (`unflip_solver --list-switches`): the
defaults, each flag switch alone, and each number switch at its low end, at half and at twice its
default (within its range).

Every configuration runs once per round, in the same order, rounds interleaved, so a noisy machine
affects them alike; the table gives the median solver time (the solver's own TIME) and the node count
over the chosen levels, and the time relative to the defaults. Runs that hit --max-seconds count
as that many seconds and are marked with `>`.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_book import level_numbers, level_rows, uniform_rows  # noqa: E402


def configurations(solver):
    """(name, arguments) for the defaults and each switch setting, from the solver's --list-switches."""
    listing = subprocess.run([str(solver), "--list-switches"], capture_output=True, text=True, check=True)
    chosen = [("defaults", [])]
    for line in listing.stdout.splitlines():
        kind, name, *rest = line.split()
        if kind == "flag":
            chosen.append((name, [name]))
            continue
        low, high, default = map(int, rest)
        for value in sorted({low, max(low, default // 2), min(high, default * 2)} - {default}):
            chosen.append((f"{name} {value}", [name, str(value)]))
    return chosen


def solve(solver, rows, args, max_seconds):
    result = subprocess.run(
        [str(solver), "--quiet", "--max-seconds", str(max_seconds), *args],
        input="\n".join(rows) + "\n",
        capture_output=True,
        text=True,
    )
    fields = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line)
    return float(fields["TIME"]), int(fields["NODES"]), result.returncode == 3


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("book", type=Path, nargs="?")
    source.add_argument("--uniform", type=int, metavar="N", help="seeded uniformly random N×N boards")
    parser.add_argument("--levels", required=True, help="1-based level numbers: 2,5,14 or 1-5")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=60)
    parser.add_argument("--solver", type=Path, default=REPO / "unflip_solver")
    parser.add_argument(
        "--only", help="configurations to run beside the defaults, comma-separated: --only=--tt,--no-symmetry"
    )
    options = parser.parse_args()
    chosen = [
        (name, args)
        for name, args in configurations(options.solver)
        if name == "defaults" or not options.only or name in options.only.split(",")
    ]

    numbers = level_numbers(options.levels)
    if options.uniform:
        boards = [uniform_rows(options.uniform, n - 1) for n in numbers]
        source = f"uniform {options.uniform}x{options.uniform}"
    else:
        levels = json.loads(options.book.read_text())["levels"]
        boards = [level_rows(levels[n - 1]) for n in numbers]
        source = options.book.name
    times = {name: [] for name, _ in chosen}
    nodes = {name: 0 for name, _ in chosen}
    capped = {name: False for name, _ in chosen}
    for round_number in range(options.repeat):
        for name, args in chosen:
            total = 0.0
            node_total = 0
            for rows in boards:
                seconds, count, stopped = solve(
                    options.solver, rows, ["--threads", str(options.threads), *args], options.max_seconds
                )
                total += seconds
                node_total += count
                capped[name] |= stopped
            times[name].append(total)
            nodes[name] = node_total
        print(f"round {round_number + 1}/{options.repeat} done", file=sys.stderr, flush=True)

    baseline = statistics.median(times["defaults"])
    print(
        f"levels {options.levels} of {source}, threads={options.threads}, "
        f"median of {options.repeat} interleaved rounds, cpu count {os.cpu_count()}"
    )
    print(f"{'configuration':<26} {'median s':>9} {'vs defaults':>12} {'nodes':>15}")
    for name, _ in chosen:
        median = statistics.median(times[name])
        mark = ">" if capped[name] else " "
        print(f"{name:<26} {mark}{median:>8.3f} {median / baseline:>11.2f}x {nodes[name]:>15,}")


if __name__ == "__main__":
    main()
