#!/usr/bin/env python3
"""What a solve spends on imports, beside the floor of any click + rich program (`import click,
rich.console`): `python -X importtime`'s top-level times summed, the two commands run in turn --runs times,
the medians of each and the median of the pairs' ratios (a pair shares the machine's load of its moment).

    .venv/bin/python bench/startup.py                     # board.txt --compact --threads 1, 21 pairs
    .venv/bin/python bench/startup.py --runs 41 --against ../old   # and another checkout's, in turn

--against names another checkout (its solver built), measured in the same turns, so before and after are
side by side. The bytecode of every package is compiled first, as an installed program's is.
"""

import argparse
import compileall
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FLOOR = ["-c", "import click, rich.console"]


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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=21, help="pairs (default 21)")
    parser.add_argument("--against", type=Path, help="another checkout, measured in the same turns")
    parser.add_argument("call", nargs="*", default=["board.txt", "--compact", "--threads", "1"])
    options = parser.parse_args()
    checkouts = {"this checkout": REPO}
    if options.against:
        checkouts[f"{options.against}"] = options.against.resolve()
    for checkout in checkouts.values():
        compileall.compile_dir(checkout / "unflip_frontend", quiet=1)
    floor: list[float] = []
    solves: dict[str, list[float]] = {name: [] for name in checkouts}
    for _ in range(options.runs):
        floor.append(import_ms(FLOOR, REPO))
        for name, checkout in checkouts.items():
            solves[name].append(import_ms(["unflip.py", *options.call], checkout))
    call = " ".join(options.call)
    print(f"`python unflip.py {call}`: imports in ms, medians of {options.runs} runs in turn")
    print(f"floor (import click, rich.console): {statistics.median(floor):.1f}")
    for name, times in solves.items():
        ratios = [solve / base for solve, base in zip(times, floor, strict=True)]
        print(f"{name}: {statistics.median(times):.1f}, {statistics.median(ratios):.2f}x the floor")


if __name__ == "__main__":
    main()
