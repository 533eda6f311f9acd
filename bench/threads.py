#!/usr/bin/env python3
"""How the search uses its threads: each thread count's time, nodes and speed-up over one thread, and how
many cores it kept busy, over the whole run and in each tenth of it.

    python bench/threads.py --size 13 --board 6
    python bench/threads.py --size 14 --board 3 --threads 1,2 --max-nodes 20000000

The board is bench/peers.py's `uniform-N-i`. Each run is one solver process; its CPU time (user + system,
from /proc/PID/stat) is sampled every --interval seconds, so a tenth's "cores busy" is the CPU time it
took over the wall time it lasted: 2.00 on two threads means neither was ever idle. The solver's start
(the root's LP, before the threads start) is in the first tenth. Runs on a bare python3, on Linux.
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from frontier import fields_of, result_of  # noqa: E402
from run_book import uniform_rows  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
SHARES = 10


def cpu_seconds(pid):
    """The process's user + system time so far, all its threads, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / TICKS   # utime, stime (fields 14 and 15 of stat)


def run(solver, rows, threads, extra, interval):
    """One solve: its result fields and the (wall, cpu) samples taken while it ran."""
    args = [str(solver), "--threads", str(threads), "--quiet", *extra]
    with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as process:
        process.stdin.write("\n".join(rows) + "\n")
        process.stdin.close()
        start = time.monotonic()
        samples = [(0.0, 0.0)]
        while process.poll() is None:
            time.sleep(interval)
            cpu = cpu_seconds(process.pid)
            if cpu is not None and process.poll() is None:
                samples.append((time.monotonic() - start, cpu))
        stdout, stderr = process.stdout.read(), process.stderr.read()   # a few lines: they fit the pipes
    if process.returncode not in (0, 3):
        raise SystemExit(f"error: the solver failed (exit {process.returncode}): {stderr.strip()[-200:]}")
    return fields_of(stdout), samples


def busy_by_share(samples):
    """Cores busy in each tenth of the sampled run (the samples after the last full interval are left out)."""
    if len(samples) < SHARES + 1:
        return []
    busy = []
    for share in range(SHARES):
        first = samples[share * (len(samples) - 1) // SHARES]
        last = samples[(share + 1) * (len(samples) - 1) // SHARES]
        busy.append((last[1] - first[1]) / max(last[0] - first[0], 1e-9))
    return busy


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=13, help="N of uniform-N-i")
    parser.add_argument("--board", type=int, default=6, help="i of uniform-N-i")
    parser.add_argument("--threads", default="1,2", help="thread counts, the first the yardstick")
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between samples")
    parser.add_argument("--max-nodes", type=int, help="stop each run after this many nodes")
    parser.add_argument("--solver", default=str(REPO / "unflip_solver"))
    options = parser.parse_args()
    counts = [int(word) for word in options.threads.split(",")]
    extra = ["--max-nodes", str(options.max_nodes)] if options.max_nodes else []
    rows = uniform_rows(options.size, options.board)
    print(f"uniform {options.size}#{options.board}, samples every {options.interval} s")
    print(f"{'threads':>7} {'result':>10} {'wall s':>9} {'nodes':>13} {'speed-up':>8} {'cores busy':>10}"
          f"  cores busy by tenth of the run")
    first_wall = None
    for threads in counts:
        began = time.monotonic()
        fields, samples = run(options.solver, rows, threads, extra, options.interval)
        wall = time.monotonic() - began
        first_wall = first_wall or wall
        result = result_of(fields)
        mean = samples[-1][1] / samples[-1][0] if samples[-1][0] else 0.0
        tenths = " ".join(f"{busy:.2f}" for busy in busy_by_share(samples))
        print(f"{threads:>7} {result:>10} {wall:>9.2f} {int(fields['NODES']):>13,} {first_wall / wall:>8.2f}"
              f" {mean:>10.2f}  {tenths}", flush=True)


if __name__ == "__main__":
    main()
