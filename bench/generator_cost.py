#!/usr/bin/env python3
"""What the level generator costs: the wall time of making each shipped book, plan by plan, as `unflip.py
books` (and `make books`) makes them, one after the other, no level repeating one of an earlier book; the
median of --repeat runs, and what each plan asks of its levels.

    .venv/bin/python bench/generator_cost.py                 # 3 runs, the solver's default threads
    .venv/bin/python bench/generator_cost.py --repeat 5 --threads 1

Each run checks that it made the shipped book byte for byte, so the time is that of the real thing.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from unflip_frontend.books import BOOK_FILES  # noqa: E402 (the repository is the package's home)
from unflip_frontend.build import ensure_solver  # noqa: E402
from unflip_frontend.generator import SHIPPED_BOOKS, Plan, book_json, generate_levels  # noqa: E402
from unflip_frontend.solver import SolverSettings  # noqa: E402


def asks(plan: Plan) -> str:
    """A plan in a few words: its levels, shapes and optima, and the filters of a challenge."""
    words = [f"{plan.count} levels", f"{plan.shapes}", f"optimum {plan.optimum[0]}–{plan.optimum[1]}"]
    if plan.symmetries:
        words.append("symmetric")
    if plan.unique:
        words.append("unique")
    if plan.min_gap:
        words.append(f"gap ≥ {plan.min_gap}")
    return ", ".join(words)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs (default 3); the median is shown")
    parser.add_argument("--threads", type=int, help="solver threads (default: all cores)")
    args = parser.parse_args()
    solver = ensure_solver(lambda command: print("building:", " ".join(command), file=sys.stderr))
    settings = SolverSettings("0", args.threads, None, None)
    plans = [(kind, plan) for kind, book in SHIPPED_BOOKS.items() for plan in book]
    seconds: list[list[float]] = [[] for _ in plans]
    for _ in range(args.repeat):
        seen: set = set()
        made: dict[str, list] = {kind: [] for kind in SHIPPED_BOOKS}
        for times, (kind, plan) in zip(seconds, plans, strict=True):
            started = time.perf_counter()
            made[kind] += generate_levels(plan, solver, settings, seen, lambda _index: None)
            times.append(time.perf_counter() - started)
        for kind, book in SHIPPED_BOOKS.items():
            if book_json(kind, book[0].seed, made[kind]) != (REPO / BOOK_FILES[kind]).read_text():
                sys.exit(f"the {kind} book made differs from {BOOK_FILES[kind]}: rebuild it (make books)")
    print(f"| book | plan | median s (of {args.repeat}) |")
    print("|---|---|---|")
    for times, (kind, plan) in zip(seconds, plans, strict=True):
        print(f"| {kind} | {asks(plan)} | {statistics.median(times):.1f} |")
    total = statistics.median(map(sum, zip(*seconds, strict=True)))
    print(f"| all three | | {total:.1f} |")


if __name__ == "__main__":
    main()
