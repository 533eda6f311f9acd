#!/usr/bin/env python3
"""Certificates of optimality for every level of books (or for seeded random boards): each one made by
the solver, checked by the independent checker, and measured.

    python bench/certificates.py daily_levels_book.json main_levels_book.json weekly_challenges_book.json
    python bench/certificates.py ../shared/books/weekly_challenges_book.json --levels 6,15
    python bench/certificates.py --uniform 11 --levels 1-5     # bench/peers.py's seeded random boards

Per level: the solver's time without a certificate and with one (its own TIME, --threads as given), the
certificate's size as written and gzipped (as `unflip --certificate FILE.gz` stores it), the checker's
time on the gzipped file (unflip_frontend/certificate_check.py, in this process), and its verdict. A level
whose certificate is not VALID at the solver's optimum, or whose optimum is not its par, is flagged `!`,
and the exit status is then 1: `make certify` runs this on the three shipped books.
"""

import argparse
import gzip
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_book import level_numbers, level_rows, uniform_rows  # noqa: E402

# The checker by its path: it needs nothing of the front end, so neither does this script.
_spec = importlib.util.spec_from_file_location("certificate_check", REPO / "unflip_frontend" / "certificate_check.py")
checker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(checker)


def solve(solver, board_path, args):
    result = subprocess.run([str(solver), str(board_path), "--quiet", *args], capture_output=True, text=True)
    fields = dict(line.split(" ", 1) for line in result.stdout.splitlines() if " " in line and line[0].isalpha())
    moves = int(fields["MOVES"]) if result.returncode == 0 else None
    return result.returncode, moves, float(fields.get("TIME", "nan")), result.stderr.strip()


def certify(solver, name, rows, par, args, folder):
    """One level's row of figures, and whether it failed."""
    board = folder / "board.txt"
    board.write_text("\n".join(rows) + "\n")
    _, plain_moves, plain_seconds, _ = solve(solver, board, args)
    raw = folder / "certificate.txt"
    code, moves, seconds, error = solve(solver, board, [*args, "--certificate", str(raw)])
    if code != 0:
        return f"{name}: the solver exited {code} with --certificate: {error}", True
    zipped = folder / "certificate.txt.gz"
    with open(raw, "rb") as source, gzip.open(zipped, "wb") as target:
        shutil.copyfileobj(source, target)
    started = time.perf_counter()
    try:
        verdict = f"VALID {checker.check(str(board), str(zipped))}"
    except (checker.Invalid, checker.Unreadable) as exc:
        verdict = f"INVALID: {exc}"
    checked = time.perf_counter() - started
    failed = verdict != f"VALID {moves}" or moves != plain_moves or (par is not None and moves != par)
    size = f"{len(rows)}x{len(rows[0])}"
    return (
        f"{name:>12} {size:>6} {par if par is not None else '-':>4} {moves:>5} {plain_seconds:>8.3f} {seconds:>8.3f}"
        f" {raw.stat().st_size / 1e6:>10.3f} {zipped.stat().st_size / 1e6:>9.3f} {checked:>8.2f}  {verdict}"
        f"{' !' if failed else ''}"
    ), failed


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("books", type=Path, nargs="*")
    parser.add_argument("--uniform", type=int, metavar="N", help="seeded uniformly random N×N boards instead")
    parser.add_argument("--levels", help="1-based level numbers: 6,16 or 1-5 (default: all)")
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--solver", type=Path, default=REPO / "unflip_solver")
    options = parser.parse_args()
    if bool(options.books) == bool(options.uniform):
        parser.error("give books, or --uniform N with --levels")

    cases = []
    if options.uniform:
        for number in level_numbers(options.levels or "1-5"):
            cases.append((f"{options.uniform}x{options.uniform} #{number}", uniform_rows(options.uniform, number), None))
    for book in options.books:
        levels = json.loads(book.read_text())["levels"]
        chosen = level_numbers(options.levels) if options.levels else range(1, len(levels) + 1)
        for number in chosen:
            level = levels[number - 1]
            cases.append((f"{book.name.split('_')[0]} {number}", level_rows(level), level.get("par")))

    print(f"{'level':>12} {'board':>6} {'par':>4} {'moves':>5} {'solve s':>8} {'cert s':>8} "
          f"{'cert MB':>10} {'gzip MB':>9} {'check s':>8}  verdict")
    failures = 0
    totals = [0.0, 0.0, 0.0, 0.0, 0.0]
    with tempfile.TemporaryDirectory() as folder:
        for name, rows, par in cases:
            line, failed = certify(options.solver, name, rows, par, ["--threads", str(options.threads)], Path(folder))
            print(line, flush=True)
            failures += failed
            if not failed:
                figures = line.split()
                for k, value in enumerate(map(float, figures[-7:-2])):
                    totals[k] += value
    print(f"{'total':>12} {len(cases):>6} {'':>4} {'':>5} {totals[0]:>8.3f} {totals[1]:>8.3f} {totals[2]:>10.3f} "
          f"{totals[3]:>9.3f} {totals[4]:>8.2f}  {len(cases) - failures} of {len(cases)} VALID")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
