#!/usr/bin/env python3
"""The share of H×W boards that can be solved, as a Markdown table (docs/results.md, "Limits"):

    .venv/bin/python bench/solvable_fraction.py            # H and W from 2 to 8
    .venv/bin/python bench/solvable_fraction.py --largest 15

The moves reach 2^rank of the 2^(H·W) boards, the rank being that of the moves over GF(2); the figure is
tests/oracle.py's solvable_fraction, the test suite's independent method (it needs numpy, which the
test requirements, and so `make test`'s venv, carry).
"""

import argparse
import sys
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from oracle import solvable_fraction  # noqa: E402 (the tests folder is no package)


def share(height: int, width: int) -> str:
    fraction = Fraction(solvable_fraction(height, width))
    return "all" if fraction == 1 else f"1/{fraction.denominator}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--largest",
        type=int,
        default=8,
        choices=range(2, 16),
        metavar="N",
        help="the largest height and width (2-15, default 8)",
    )
    sides = range(2, parser.parse_args().largest + 1)
    print("| H \\ W | " + " | ".join(map(str, sides)) + " |")
    print("|---|" + "---|" * len(sides))
    for height in sides:
        print(f"| {height} | " + " | ".join(share(height, width) for width in sides) + " |")


if __name__ == "__main__":
    main()
