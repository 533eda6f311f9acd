"""What the cube path costs, and what it would give on a real cluster (issue 22; README, "On a cluster").

On uniformly random boards it times one solver process on two threads against the cube path on an embedded
LocalCluster of two workers of one thread each (the same two cores), checks both give the same optimum,
and reports, per board, the cubes (listed at the last bound below the optimum and at the optimum, and the
tasks run after splitting), their size balance (the largest listed cube over the median, in nodes, each
cube's pieces summed) and the largest cube's share of its bound. From the measurements it estimates how
long 14×14 and 15×15 boards would take on 16, 64 and 256 cores (from the runs issue 22 saw stop on this
machine), and prints what that estimate assumes.

    .venv/bin/python bench/dask_overhead.py                       # five 12×12 and five 13×13 boards
    .venv/bin/python bench/dask_overhead.py --boards 12:1,12:4,13:2 --max-seconds 120

Needs the dask extra (pip install -r requirements-dask.txt). Boards the single process does not finish
within --max-seconds are reported and left out of the comparison.
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from helpers import random_board_text  # noqa: E402  (the tests' random boards)

from unflip_frontend import api  # noqa: E402
from unflip_frontend.cluster import Cluster  # noqa: E402
from unflip_frontend.cubes import Split, search_cube  # noqa: E402
from unflip_frontend.protocol import Solution  # noqa: E402

CORES = (16, 64, 256)


@dataclass
class Single:
    optimum: int | None
    seconds: float
    nodes: int
    per_bound: dict[int, int]  # nodes each exhausted bound took


def run_single(solver: Path, text: str, max_seconds: float) -> Single:
    started = time.monotonic()
    done = subprocess.run(
        [str(solver), "--threads", "2", "--max-seconds", str(max_seconds)],
        input=text,
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - started
    per_bound, before = {}, 0
    for match in re.finditer(r"bound (\d+) exhausted, nodes=(\d+)", done.stderr):
        per_bound[int(match[1])] = int(match[2]) - before
        before = int(match[2])
    moves = re.search(r"MOVES (\d+)", done.stdout)
    nodes = int(re.search(r"NODES (\d+)", done.stdout)[1])  # type: ignore[index]
    return Single(int(moves[1]) if moves else None, seconds, nodes, per_bound)


@dataclass
class Spread:
    optimum: int
    seconds: float
    nodes: int
    rows: list[str]  # per bound: cubes, tasks, balance, largest share
    last_balance: float
    last_share: float


def cube_sizes(finished: list, bound: int) -> tuple[list[int], int, int]:
    """Each listed cube's nodes at the bound, its pieces summed; the tasks run; the splits among them."""
    sizes: dict[int, int] = {}
    tasks = splits = 0
    for at, cube, outcome in finished:
        if at != bound:
            continue
        tasks += 1
        splits += isinstance(outcome, Split)
        sizes[cube[0].order[0]] = sizes.get(cube[0].order[0], 0) + outcome.nodes
    return list(sizes.values()), tasks, splits


def run_spread(cluster: Cluster, text: str) -> Spread:
    cluster.finished.clear()
    started = time.monotonic()
    found = cluster.solve(api.Board.from_text(text), "0", None, None, lambda _progress: None)
    seconds = time.monotonic() - started
    assert isinstance(found, Solution), found
    optimum = len(found.moves)
    rows, balance, share = [], 0.0, 0.0
    for bound in sorted({at for at, _, _ in cluster.finished})[-2:]:
        sizes, tasks, splits = cube_sizes(cluster.finished, bound)
        if not sizes:
            continue
        largest, median = max(sizes), statistics.median(sizes)
        ratio, part = largest / max(median, 1), largest / max(sum(sizes), 1)
        kind = "optimum" if bound == optimum else "exhausted"
        rows.append(
            f"    bound {bound} ({kind}): {len(sizes)} cubes, {tasks} tasks ({splits} split), "
            f"largest/median {ratio:.1f}, largest cube {part:.0%} of the bound's nodes"
        )
        if bound != optimum:
            balance, share = ratio, part
    rows.append(where_it_goes(cluster, text, seconds))
    return Spread(optimum, seconds, found.nodes, rows, balance, share)


def where_it_goes(cluster: Cluster, text: str, seconds: float) -> str:
    """What the cube path spends beyond searching: a solver started (and its root's bounds prepared) for
    each task; the nodes of tasks that stopped at their node limit and handed back their rest (searched
    once: before --hand-back, their pieces searched them again); and the wait at each bound for its
    longest task past an even share of the two workers."""
    solver, board = api.build_solver(), api.Board.from_text(text)
    first = cluster.finished[0][1]
    starts = []
    for _ in range(5):
        began = time.monotonic()
        search_cube(solver, board, first, cluster.finished[0][0], 1, None)
        starts.append(time.monotonic() - began)
    tasks = len(cluster.finished)
    nodes = sum(outcome.nodes for _, _, outcome in cluster.finished)
    handed = sum(outcome.nodes for _, _, outcome in cluster.finished if isinstance(outcome, Split))
    finished = [
        (at, outcome.seconds) for at, _, outcome in cluster.finished if not isinstance(outcome, Split)
    ]
    tail = 0.0
    for bound in {at for at, _ in finished}:
        times = [spent for at, spent in finished if at == bound]
        tail += max(0.0, max(times) - sum(times) / 2)
    start = statistics.median(starts)
    return (
        f"    where it goes: {tasks} tasks x {start * 1000:.0f} ms to start a solver on its cubes = "
        f"{tasks * start / 2:.1f} s a worker; {handed:,} nodes ({handed / max(nodes, 1):.0%}) in tasks that "
        f"handed back their rest; a bound's longest task past the even share: {tail:.1f} s; the tasks that "
        f"finished their cubes searched {sum(spent for _, spent in finished):.1f} s of {seconds:.1f} s x 2"
    )


# Where one machine stops (issue 22, a uniformly random board each, --threads 2 on this machine): the size,
# the root's bound, the bound it was searching when stopped, the seconds it had.
STOPPED_RUNS = ((14, 36, 38, 300.0), (15, 40, 42, 420.0))


def estimate(results: dict[int, list[tuple[Single, Spread]]], gaps: list[int]) -> list[str]:
    """Hours for 14×14 and 15×15 on 16, 64 and 256 cores, from the boards measured and the stopped runs."""
    pairs = [pair for found in results.values() for pair in found]
    growths = [
        s.per_bound[b] / s.per_bound[b - 1]
        for s, _ in pairs
        for b in s.per_bound
        if b - 1 in s.per_bound and s.per_bound[b - 1] > 1000
    ]
    if not pairs or not growths or not gaps:
        return ["  (an estimate needs finished boards with two exhausted bounds)"]
    growth = math.exp(statistics.mean(map(math.log, growths)))
    gap = statistics.mean(gaps)
    rate = statistics.mean(s.nodes / (2 * s.seconds) for s, _ in pairs)
    overhead = statistics.median(p.seconds / s.seconds for s, p in pairs)
    lines = [
        f"  measured: a bound takes {growth:.1f}x the nodes of the one before (geometric mean); the optimum"
        f" is {gap:.1f} moves above the root's bound (mean); one thread searches {rate / 1e6:.2f}M nodes/s;"
        f" the cube path takes {overhead:.2f}x one process's time on the same two cores (median)",
    ]
    for n, root, stopped_at, seconds in STOPPED_RUNS:
        spent = seconds * 2 * rate
        left = max(1, round(root + gap) - stopped_at + 1)  # bounds still to search, the stopped one included
        work = spent * growth**left
        cells = [f"{duration(work / rate * overhead / cores)} on {cores}" for cores in CORES]
        lines.append(
            f"  {n}x{n} (root {root}, stopped at {stopped_at} after {seconds:.0f} s): {left} bounds to go,"
            f" about {work:.2g} nodes, {work / rate / 3600:,.0f} core-hours: " + ", ".join(cells)
        )
    lines += [
        "  assumes: the stopped runs above are typical of their size; the optimum is as far above the root's",
        "  bound as on the boards measured, and each bound still grows by the measured factor (the work done",
        "  so far counts as the size of the bound it stopped in); every core is as fast as one here and the",
        "  cube path keeps on P cores its overhead on two, the scheduler's milliseconds a task small next to",
        "  tasks of seconds. The largest listed cube holds a third to two thirds of a bound's nodes (above),",
        "  so the estimate counts on big cubes being split on the workers; without that no bound goes faster",
        "  than its largest cube. Single boards vary tenfold.",
    ]
    return lines


def duration(seconds: float) -> str:
    return f"{seconds / 3600:,.1f} h" if seconds >= 3600 else f"{seconds / 60:,.0f} min"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--boards",
        default="12:1,12:2,12:3,12:4,12:5,13:1,13:2,13:3,13:4,13:5",
        help="size:seed of each random board",
    )
    parser.add_argument("--max-seconds", type=float, default=600, help="the single process's budget a board")
    options = parser.parse_args()
    solver = api.build_solver()
    boards = [tuple(map(int, item.split(":"))) for item in options.boards.split(",")]
    results: dict[int, list[tuple[Single, Spread]]] = {}
    gaps: list[int] = []
    with Cluster(None, 2) as cluster:
        started = time.monotonic()
        cluster.threads()
        print(f"LocalCluster of 2 workers x 1 thread started in {time.monotonic() - started:.1f} s")
        for n, seed in boards:
            text = random_board_text(n, seed)
            single = run_single(solver, text, options.max_seconds)
            if single.optimum is None:
                print(f"{n}x{n} #{seed}: the single process stopped after {single.seconds:.0f} s; left out")
                continue
            spread = run_spread(cluster, text)
            assert spread.optimum == single.optimum, (n, seed, spread.optimum, single.optimum)
            results.setdefault(n, []).append((single, spread))
            lower = api.lower_bound(text)
            assert isinstance(lower, api.LowerBound)
            gaps.append(single.optimum - lower.bound)
            print(
                f"{n}x{n} #{seed}: optimum {single.optimum}; one process (2 threads) {single.seconds:.1f} s, "
                f"{single.nodes:,} nodes; cube path (2 workers x 1) {spread.seconds:.1f} s, {spread.nodes:,} "
                f"nodes: {spread.seconds / single.seconds:.2f}x"
            )
            print("\n".join(spread.rows))
    pairs = [pair for found in results.values() for pair in found]
    if pairs:
        total = sum(p.seconds for _, p in pairs) / sum(s.seconds for s, _ in pairs)
        print(f"cube path over one process, all boards: {total:.2f}x the time")
    print("estimate:")
    print("\n".join(estimate(results, gaps)))


if __name__ == "__main__":
    main()
