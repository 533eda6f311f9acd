#!/usr/bin/env python3
"""What `unflip report` costs: the wall time of the whole command on a book (start-up, every level's optima
listed, replayed and measured, the table printed), the median of --repeat runs, beside the solver's own time
summed over the levels (from the run's --json record) and the start-up alone (`unflip.py --version`). With
--workers 1 the levels are measured one at a time instead of report.WORKERS at a time, for comparison.

    .venv/bin/python bench/report.py                          # the shipped books, 5 runs each
    .venv/bin/python bench/report.py --books ../shared/books  # the game's official books
    .venv/bin/python bench/report.py --repeat 9 --workers 1 --names daily

The times depend on the machine and on what else it runs: say which, and how busy, beside them.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from unflip_frontend.books import BOOK_FILES  # noqa: E402 (the repository is the package's home)

# The command as `python unflip.py` runs it, with the levels measured `workers` at a time.
RUN_WITH_WORKERS = (
    "import sys; import unflip_frontend.report as report; report.WORKERS = int(sys.argv.pop(1)); "
    "from unflip_frontend.cli import main; main('unflip.py')"
)


def timed(command: list[str]) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=REPO)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
    return seconds, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--books", type=Path, help="folder of the books (default: the shipped ones)")
    parser.add_argument("--names", default="daily,main,weekly", help="which books, comma-separated")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workers", type=int, help="levels measured at once (default: report.WORKERS)")
    parser.add_argument("--threads", type=int, help="solver threads of each level's search")
    options = parser.parse_args()
    folder = options.books or REPO
    startup = statistics.median(
        timed([sys.executable, "unflip.py", "--version"])[0] for _ in range(options.repeat)
    )
    print(f"start-up (unflip.py --version): median {startup:.2f} s of {options.repeat}")
    print(
        f"{'book':<8} {'levels':>6} {'optima':>7} {'solver s':>9} {'median s':>9} {'min s':>6} {'max s':>6}"
    )
    for name in options.names.split(","):
        book = folder / BOOK_FILES[name]
        command = [sys.executable, "unflip.py"]
        if options.workers is not None:
            command = [sys.executable, "-c", RUN_WITH_WORKERS, str(options.workers)]
        command += ["report", str(book), "--json"]
        command += ["--threads", str(options.threads)] if options.threads else []
        runs = [timed(command) for _ in range(options.repeat)]
        seconds = [elapsed for elapsed, _ in runs]
        records = [json.loads(line) for line in runs[-1][1].splitlines()]
        optima = sum(record["signals"]["optima"] for record in records if record.get("signals"))
        solver = records[-1]["seconds"]
        print(
            f"{name:<8} {records[-1]['levels']:>6} {optima:>7} {solver:>9.2f} "
            f"{statistics.median(seconds):>9.2f} {min(seconds):>6.2f} {max(seconds):>6.2f}"
        )


if __name__ == "__main__":
    main()
