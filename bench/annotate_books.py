#!/usr/bin/env python3
"""What `unflip annotate --exhaustive` costs on the game's three official books: the wall time of the whole
command (solver build check, every level's optima listed and replayed, the book written), the median of
--repeat runs per book, with the levels the run changed and found wrong, read from its --json records.

    .venv/bin/python bench/annotate_books.py                          # ../shared/books, 3 runs each
    .venv/bin/python bench/annotate_books.py --books DIR --repeat 5 --threads 1
    .venv/bin/python bench/annotate_books.py --plain                  # without --exhaustive

The times depend on the machine and on what else it runs: say which, and how busy, beside them.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from unflip_frontend.books import BOOK_FILES  # noqa: E402 (the repository is the package's home)


def annotate_once(book: Path, out: Path, exhaustive: bool, threads: int | None) -> tuple[float, dict]:
    command = [sys.executable, str(REPO / "unflip.py"), "annotate", str(book), "--out", str(out), "--json"]
    command += ["--exhaustive"] * exhaustive + (["--threads", str(threads)] if threads else [])
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.strip()}")
    return seconds, json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--books", type=Path, default=REPO.parent / "shared" / "books")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int)
    parser.add_argument("--plain", action="store_true", help="without --exhaustive")
    options = parser.parse_args()
    threads = options.threads or "default"
    print(f"cores: {os.cpu_count()}, threads: {threads}, exhaustive: {not options.plain}")
    print(f"{'book':<8} {'levels':>6} {'changed':>7} {'wrong':>5}  median of {options.repeat} (runs)")
    with tempfile.TemporaryDirectory() as folder:
        for name, file in BOOK_FILES.items():
            times, summary = [], {}
            for _ in range(options.repeat):
                seconds, summary = annotate_once(
                    options.books / file, Path(folder) / file, not options.plain, options.threads
                )
                times.append(seconds)
            runs = ", ".join(f"{seconds:.1f}" for seconds in times)
            print(
                f"{name:<8} {summary['levels']:>6} {len(summary['changed']):>7} {len(summary['wrong']):>5}  "
                f"{statistics.median(times):.1f} s ({runs})",
                flush=True,
            )


if __name__ == "__main__":
    main()
