#!/usr/bin/env python3
"""Run the solver over a level book and print, per level, size, optimum, nodes, seconds and peak memory.

    python bench/run_book.py ../shared/books/weekly_challenges_book.json
    python bench/run_book.py ../shared/books/daily_levels_book.json --threads 2 --max-seconds 60
    python bench/run_book.py BOOK --levels 6,16 --solver-arg=--tt   # measure one switch

Levels are numbered from 1 as in `unflip.py`. Each level runs in its own solver process; its peak
resident memory is sampled from /proc while it runs (a level solved in a few milliseconds may be gone
before the first sample, and shows 0). A level whose par is set and differs from
the proven optimum is flagged with `!`.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def level_rows(level):
    """A book level as solver rows (1 = white -> 0, 2 = black -> 1). unflip.py has its own reader, but the
    benchmarks run on a bare python3, without the front end's packages."""
    tiles = level["tiles"]
    if isinstance(tiles, dict):
        width = tiles["width"]
        flat = tiles["array"]
        tiles = [flat[i : i + width] for i in range(0, len(flat), width)]
    return ["".join("0" if tile == 1 else "1" for tile in row) for row in tiles]


def level_numbers(text):
    """'2,5,14', '1-5' or both ('1-3,7'): 1-based level numbers (or sizes), as the bench scripts take them."""
    numbers = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        numbers += range(int(low), int(high or low) + 1)
    return numbers


def uniform_rows(n, index, width=None):
    """The index-th seeded uniformly random n×n board (each tile black with probability 1/2), as solver
    rows: the boards bench/peers.py and bench/switches.py share. With a width, n rows of that many tiles,
    seeded apart from the squares (`uniform-HxW-i`)."""
    if width is None or width == n:
        rng, width = random.Random(f"uniform-{n}-{index}"), n
    else:
        rng = random.Random(f"uniform-{n}x{width}-{index}")
    return ["".join(str(rng.getrandbits(1)) for _ in range(width)) for _ in range(n)]


def peak_resident_mb(pid):
    """The process's own high-water mark (VmHWM). rusage is no use here: a child forked from Python
    inherits the interpreter's resident size as its starting peak."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run_level(solver, rows, args):
    command = [str(solver), "--quiet", *args]
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    process.stdin.write("\n".join(rows) + "\n")
    process.stdin.close()
    # The solver writes a few lines at the very end, so polling cannot fill a pipe; the last reading
    # before it exits is its peak.
    peak = 0.0
    while process.poll() is None:
        peak = max(peak, peak_resident_mb(process.pid))
        time.sleep(0.005)
    out = process.stdout.read()
    err = process.stderr.read()
    wall = time.perf_counter() - started
    fields = dict(line.split(" ", 1) for line in out.splitlines() if " " in line and line[0].isalpha())
    return {
        "exit": process.returncode,
        "moves": int(fields["MOVES"]) if "MOVES" in fields else None,
        "stopped": fields.get("STOPPED"),
        "nodes": int(fields.get("NODES", 0)),
        "seconds": float(fields.get("TIME", wall)),
        "peak_mb": peak,
        "error": err.strip(),
    }


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("book", type=Path)
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--max-seconds", type=float, default=0)
    parser.add_argument("--levels", help="1-based level numbers: 6,16 or 1-5 (default: all)")
    parser.add_argument("--solver", type=Path, default=REPO / "unflip_solver")
    parser.add_argument("--solver-arg", action="append", default=[], help="extra solver flag, repeatable")
    options = parser.parse_args()

    levels = json.loads(options.book.read_text())["levels"]
    chosen = level_numbers(options.levels) if options.levels else range(1, len(levels) + 1)
    args = ["--threads", str(options.threads), *options.solver_arg]
    if options.max_seconds:
        args += ["--max-seconds", str(options.max_seconds)]

    print(
        f"{'lvl':>4} {'board':>6} {'par':>4} {'moves':>6} {'nodes':>14} {'seconds':>9} {'peak MB':>8}  title"
    )
    total_seconds, total_nodes, peak, mismatches = 0.0, 0, 0.0, 0
    for number in chosen:
        level = levels[number - 1]
        rows = level_rows(level)
        result = run_level(options.solver, rows, args)
        par = level.get("par")
        if result["moves"] is not None:
            moves = str(result["moves"])
        elif result["stopped"]:
            moves = f">={result['stopped']}"
        else:
            moves = "unsolv" if result["exit"] == 1 else f"exit{result['exit']}"
        flag = "!" if par is not None and result["moves"] != par else " "
        mismatches += flag == "!"
        total_seconds += result["seconds"]
        total_nodes += result["nodes"]
        peak = max(peak, result["peak_mb"])
        size = f"{len(rows)}x{len(rows)}"
        print(
            f"{number:>4} {size:>6} {par if par is not None else '-':>4} {moves:>6}{flag}"
            f"{result['nodes']:>14,} {result['seconds']:>9.3f} {result['peak_mb']:>8.1f}"
            f"  {level.get('title', '')}",
            flush=True,
        )
    print(
        f"total: {len(chosen)} levels, {total_nodes:,} nodes, {total_seconds:.3f} s solver time, "
        f"peak {peak:.1f} MB, {mismatches} not at par, threads={options.threads}"
    )
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
