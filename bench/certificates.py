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
_spec = importlib.util.spec_from_file_location(
    "certificate_check", REPO / "unflip_frontend" / "certificate_check.py"
)
checker = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(checker)


def solve(solver, board_path, args):
    result = subprocess.run([str(solver), str(board_path), "--quiet", *args], capture_output=True, text=True)
    fields = dict(
        line.split(" ", 1) for line in result.stdout.splitlines() if " " in line and line[0].isalpha()
    )
    moves = int(fields["MOVES"]) if result.returncode == 0 else None
    return result.returncode, moves, float(fields.get("TIME", "nan")), result.stderr.strip()


COLUMNS = "solve s", "cert s", "cert MB", "gzip MB", "check s"


def certify(solver, rows, par, args, folder):
    """One level: its optimum, the figures of COLUMNS (None when no certificate), the checker's verdict,
    and whether it failed."""
    board = folder / "board.txt"
    board.write_text("\n".join(rows) + "\n")
    _, plain_moves, plain_seconds, _ = solve(solver, board, args)
    raw = folder / "certificate.txt"
    code, moves, seconds, error = solve(solver, board, [*args, "--certificate", str(raw)])
    if code != 0:
        return moves, None, f"the solver exited {code} with --certificate: {error}", True
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
    sizes = raw.stat().st_size / 1e6, zipped.stat().st_size / 1e6
    return moves, (plain_seconds, seconds, *sizes, checked), verdict, failed


def row(name, size, par, moves, figures, verdict):
    shown = " ".join(f"{value:>8.3f}" for value in figures) if figures else " " * 44
    return f"{name:>12} {size:>6} {par:>4} {moves:>5} {shown}  {verdict}"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
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
            name = f"{options.uniform}x{options.uniform} #{number}"
            cases.append((name, uniform_rows(options.uniform, number), None))
    for book in options.books:
        levels = json.loads(book.read_text())["levels"]
        chosen = level_numbers(options.levels) if options.levels else range(1, len(levels) + 1)
        for number in chosen:
            level = levels[number - 1]
            cases.append((f"{book.name.split('_')[0]} {number}", level_rows(level), level.get("par")))

    print(f"{'level':>12} {'board':>6} {'par':>4} {'moves':>5} " + " ".join(f"{c:>8}" for c in COLUMNS))
    failures = 0
    totals = [0.0] * len(COLUMNS)
    with tempfile.TemporaryDirectory() as folder:
        for name, rows, par in cases:
            args = ["--threads", str(options.threads)]
            moves, figures, verdict, failed = certify(options.solver, rows, par, args, Path(folder))
            size = f"{len(rows)}x{len(rows[0])}"
            shown_par = "-" if par is None else par
            print(row(name, size, shown_par, moves, figures, verdict + (" !" if failed else "")), flush=True)
            failures += failed
            totals = [
                total + value for total, value in zip(totals, figures or [0.0] * len(COLUMNS), strict=True)
            ]
    print(row("total", len(cases), "", "", totals, f"{len(cases) - failures} of {len(cases)} VALID"))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
