#!/usr/bin/env python3
"""What a solve spends on imports, beside the floor of any click + rich program (`import click,
rich.console`): `python -X importtime`'s top-level times summed, the commands run in turn --runs times,
the medians of each and the median of the pairs' ratios (a pair shares the machine's load of its moment).

    .venv/bin/python bench/startup.py                     # board.txt --compact --threads 1, 21 pairs
    .venv/bin/python bench/startup.py --runs 41 --against ../old   # and another checkout's, in turn

--against names another checkout (its solver built), measured in the same turns, so before and after are
side by side. Their unflip_frontend is compiled to bytecode first, as an installed program's is (click's and
rich's are already).

On a busy machine the times, and their ratio, move with the load. --instructions counts instead, once each,
the instructions that importing takes, the floor's and `from unflip_frontend.cli import main` (all a solve
imports: it imports nothing more as it runs), with valgrind: exact, whatever the load, but a count of work,
not of time (a file's reading, say, costs the time of its system calls).
"""

import argparse
import compileall
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FLOOR = ["-c", "import click, rich.console"]
SOLVE_IMPORTS = ["-c", "from unflip_frontend.cli import main"]


def import_ms(arguments: list[str], checkout: Path) -> float:
    """The milliseconds a process spends importing: the sum of importtime's top-level entries."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *arguments], cwd=checkout, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(arguments)} in {checkout} exited {done.returncode}: {done.stderr[-300:]}"
        )
    # "import time: self | cumulative | name", the name indented two spaces a level: top-level ones are not.
    rows = [line.split("|") for line in done.stderr.splitlines() if line.startswith("import time:")]
    return sum(int(row[1]) for row in rows[1:] if not row[2].startswith("  ")) / 1000


def instructions(arguments: list[str], checkout: Path) -> int:
    """The instructions a process executes, by valgrind's callgrind (hash seed fixed, so a count repeats)."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, *arguments]
    done = subprocess.run(
        command, cwd=checkout, capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}
    )
    counted = re.search(r"Collected : ([0-9]+)", done.stderr)
    if done.returncode != 0 or not counted:
        raise SystemExit(f"{' '.join(command)} in {checkout} exited {done.returncode}: {done.stderr[-300:]}")
    return int(counted[1])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=21, help="pairs (default 21)")
    parser.add_argument("--against", type=Path, help="another checkout, measured in the same turns")
    parser.add_argument("--instructions", action="store_true", help="count instructions (valgrind) instead")
    parser.add_argument("call", nargs="*", default=["board.txt", "--compact", "--threads", "1"])
    options = parser.parse_args()
    checkouts = {"this checkout": REPO}
    if options.against:
        checkouts[f"{options.against}"] = options.against.resolve()
    for checkout in checkouts.values():
        compileall.compile_dir(checkout / "unflip_frontend", quiet=1)
    if options.instructions:
        floor_count = instructions(FLOOR, REPO)
        print(f"instructions, millions: floor (import click, rich.console) {floor_count / 1e6:.1f}")
        for name, checkout in checkouts.items():
            count = instructions(SOLVE_IMPORTS, checkout)
            print(f"{name}: {count / 1e6:.1f}, {count / floor_count:.2f}x the floor")
        return
    commands = [("floor", FLOOR, REPO)]
    commands += [(name, ["unflip.py", *options.call], checkout) for name, checkout in checkouts.items()]
    times: dict[str, list[float]] = {name: [] for name, _, _ in commands}
    for turn in range(options.runs):
        first = turn % len(commands)  # each command goes first in its turn, so none always follows another
        for name, arguments, checkout in commands[first:] + commands[:first]:
            times[name].append(import_ms(arguments, checkout))
    floor = times.pop("floor")
    call = " ".join(options.call)
    print(f"`python unflip.py {call}`: imports in ms, medians of {options.runs} runs in turn")
    print(f"floor (import click, rich.console): {statistics.median(floor):.1f}")
    for name, solves in times.items():
        ratios = [solve / base for solve, base in zip(solves, floor, strict=True)]
        low, middle, high = statistics.quantiles(ratios, n=4)
        print(
            f"{name}: {statistics.median(solves):.1f}, {middle:.2f}x the floor "
            f"(the middle half of the pairs {low:.2f}-{high:.2f}x)"
        )


if __name__ == "__main__":
    main()
