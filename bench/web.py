#!/usr/bin/env python3
"""The WebAssembly core (`make web`) beside the native one, on one thread, in one run: every level of the
shipped daily and weekly books (or the books named), each solved by ./unflip_solver --threads 1, by the wasm
core under node a process a level (web/core_node.js), and by the wasm core as the page runs it, one module
for the whole book whose main is called for each level (bench/web_module.js); then the weekly book in the
page itself, in headless Chromium.

    make web unflip_solver && python3 bench/web.py --rounds 3
    python3 bench/web.py --core /tmp/unflip_core_simd.js    # another build of the core (its .wasm beside it)
    python3 bench/web.py --books daily --no-page
    python3 bench/web.py --threaded-core /tmp/webthreads/unflip_core.js --rounds 5   # what 2 threads pay

Per book and core: the median and the sum of the solver's own TIME (the search, without process or node
start-up, the tables and the root's bounds) and of the wall-clock time per level, and the ratios of the sums
to the native core's; the optima are checked equal. A wasm process a level pays V8's compiling of each
function at its first call inside TIME (about 2 ms on the smallest board); one module pays it once, as the
page does. Its wall is main's alone (no node start, no compile), where the others' is the whole process.
With --rounds N each level's figures are its medians over N rounds (the cores take turns in each). The
page's figures are the wall-clock times of loading and solving every weekly level in turn, as a player
would: the sum of the times until each walkthrough is shown (the lower bound and the search), and the whole
run with each level's count of optimal solutions.
With --threaded-core, a build of the core with threads (-pthread, not in `make web`: docs/web.md says how
to build it) runs with --threads 2 and --threads 1 beside the default core and the native one, each on one
module, on the weekly book and on THREADED_BOARDS, bigger boards, the configurations taking turns in each
round; it prints the medians of TIME, wall (main's call) and nodes, and the builds' sizes.
Not a test: figures depend on the machine and on what else it runs.
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

from run_book import level_rows, uniform_rows

REPO = Path(__file__).resolve().parent.parent
BOOKS = {
    "daily": "daily_levels_book.json",
    "main": "main_levels_book.json",
    "weekly": "weekly_challenges_book.json",
}


def protocol_fields(stdout):
    return dict(line.split(" ", 1) for line in stdout.splitlines() if " " in line)


def timed(command, text):
    """(optimum, the solver's TIME, wall-clock seconds, nodes) of one run."""
    started = time.perf_counter()
    done = subprocess.run(command, input=text, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    return figures(protocol_fields(done.stdout), wall)


def figures(fields, wall):
    return int(fields["MOVES"]), float(fields["TIME"]), wall, int(fields["NODES"])


def in_one_module(node, core, texts, threads=1):
    """timed's figures for every board, each a call of main of one wasm module (wall: main's alone)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as boards:
        json.dump(texts, boards)
        boards.flush()
        command = [node, str(REPO / "bench" / "web_module.js"), core, boards.name]
        command += ["--threads", str(threads), "--quiet"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    runs = json.loads(done.stdout)
    if any(run["status"] != 0 for run in runs):
        sys.exit(f"{' '.join(command)}: a level did not solve")
    return [figures(protocol_fields(run["stdout"]), run["seconds"]) for run in runs]


def level_medians(rounds, name, figure):
    """Each board's median over the rounds of one figure (1 TIME, 2 wall, 3 nodes) of one core."""
    return [
        statistics.median(measured[name][board][figure] for measured in rounds)
        for board in range(len(rounds[0][name]))
    ]


def same_optima(rounds, what):
    if len({tuple(run[0] for run in runs) for measured in rounds for runs in measured.values()}) != 1:
        sys.exit(f"{what}: the optima differ between the cores")


# The bigger boards of the threads' comparison: bench/run_book.py's uniform 11x11 #0, 12x12 #3, 13x13 #0 and
# 13x13 #1 (about 0.1, 2.3, 1.9 and 1.4 s natively on one thread) and tests/helpers.py's
# random_board_text(12, 1) (0.2 s).
THREADED_BOARDS = {
    "uniform 11x11 #0": (11, 0),
    "random 12x12 #1": None,
    "uniform 12x12 #3": (12, 3),
    "uniform 13x13 #0": (13, 0),
    "uniform 13x13 #1": (13, 1),
}


def core_bytes(core):
    """The bytes of a core's files: its JS, its wasm and, built with threads, its pthreads' worker script."""
    files = [core, core.replace(".js", ".wasm"), core.replace(".js", ".worker.js")]
    return sum(os.path.getsize(file) for file in files if os.path.exists(file))


def threads_comparison(args):
    """The threaded core with 2 threads and 1 beside the default core and the native one (see the top)."""
    sys.path[:0] = [str(REPO), str(REPO / "tests")]
    from helpers import random_board_text  # the tests' random boards (as bench/dask_overhead.py takes them)

    boards = {
        name: random_board_text(12, 1) if size is None else "\n".join(uniform_rows(*size)) + "\n"
        for name, size in THREADED_BOARDS.items()
    }
    levels = json.loads((REPO / BOOKS["weekly"]).read_text())["levels"]
    runs = {"weekly book": ["\n".join(level_rows(level)) + "\n" for level in levels], **boards}
    cores = {
        "native, 1 thread": ("native", 1),
        "native, 2 threads": ("native", 2),
        "default wasm": (args.core, 1),
        "threaded wasm, 1": (args.threaded_core, 1),
        "threaded wasm, 2": (args.threaded_core, 2),
    }
    print(f"load average at the start: {os.getloadavg()}")
    for core in (args.core, args.threaded_core):
        print(f"{core}: {core_bytes(core):,} bytes (JS, wasm and any worker script)")
    rounds = []
    for _ in range(args.rounds):
        measured = {}
        for name, (core, threads) in cores.items():
            if core == "native":
                command = [args.native, "--threads", str(threads), "--quiet"]
                measured[name] = [timed(command, text) for text in runs["weekly book"]]
                measured[name] += [timed(command, text) for text in boards.values()]
            else:
                # One module for the book and one for the bigger boards, as a page's worker would do each.
                measured[name] = in_one_module(args.node, core, runs["weekly book"], threads)
                measured[name] += in_one_module(args.node, core, list(boards.values()), threads)
        rounds.append(measured)
    same_optima(rounds, "the threads' comparison")
    print(f"load average at the end: {os.getloadavg()}")
    print(f"{'boards':18} {'core':18} {'TIME':>8} {'wall':>8} {'nodes':>10} {'TIME/default':>13}")
    book = len(levels)
    for run, first, last in [("weekly book", 0, book)] + [
        (name, book + i, book + i + 1) for i, name in enumerate(boards)
    ]:
        default_time = sum(level_medians(rounds, "default wasm", 1)[first:last])
        for name in cores:
            solver_time, wall, nodes = (
                sum(level_medians(rounds, name, figure)[first:last]) for figure in (1, 2, 3)
            )
            print(
                f"{run:18} {name:18} {solver_time:7.3f}s {wall:7.3f}s {nodes:10,.0f} "
                f"{solver_time / default_time:12.2f}x"
            )


def page_seconds(page, book):
    """Wall-clock seconds for the page to load and solve every level of a shipped book in turn."""
    sys.path.insert(0, str(REPO / "tests" / "frontend"))
    from browser import Browser, find_chromium

    executable = find_chromium()
    if executable is None:
        sys.exit("chromium not found: --no-page, or apt-get install chromium")
    with Browser(executable) as browser:
        browser.open(page, 1000, 900)
        while browser.evaluate("typeof window.unflipPage") != "object":
            time.sleep(0.02)
        answer = browser.page(
            "Runtime.evaluate",
            awaitPromise=True,
            returnByValue=True,
            expression=f"""(async () => {{
                const started = performance.now();
                const levels = window.unflipPage.books[{json.dumps(book)}].levels.length;
                let shown = 0;
                for (let level = 1; level <= levels; level++) {{
                  const result = await window.unflipPage.loadLevel({json.dumps(book)}, level);
                  if (result.outcome !== 'solved') throw new Error(`level ${{level}}: ${{result.outcome}}`);
                  shown += result.shownAfter;
                }}
                return [levels, shown, (performance.now() - started) / 1000];
            }})()""",
        )
        return answer["result"]["value"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--books", default="daily,weekly", help="shipped books, comma-separated")
    parser.add_argument("--core", default=str(REPO / "web" / "unflip_core.js"), help="the wasm core's JS")
    parser.add_argument("--native", default=str(REPO / "unflip_solver"))
    parser.add_argument("--node", default="node")
    parser.add_argument("--rounds", type=int, default=1, help="each level's figures: medians of this many")
    parser.add_argument("--no-page", action="store_true", help="skip the page's figure (no Chromium)")
    parser.add_argument("--threaded-core", help="a build of the core with threads: compare 2 threads with 1")
    args = parser.parse_args()
    if args.threaded_core:
        threads_comparison(args)
        return
    processes = {
        "native": [args.native, "--threads", "1", "--quiet"],
        "wasm": [args.node, str(REPO / "web" / "core_node.js"), args.core, "--quiet"],
    }
    print(f"core: {args.core}")
    print(
        f"{'book':8} {'levels':>6} {'core':12} {'median TIME':>12} {'sum TIME':>9} "
        f"{'median wall':>12} {'sum wall':>9}"
    )
    for book in args.books.split(","):
        levels = json.loads((REPO / BOOKS[book]).read_text())["levels"]
        texts = ["\n".join(level_rows(level)) + "\n" for level in levels]
        rounds = []
        for _ in range(args.rounds):
            measured = {name: [timed(command, text) for text in texts] for name, command in processes.items()}
            measured["wasm, 1 module"] = in_one_module(args.node, args.core, texts)
            rounds.append(measured)
        same_optima(rounds, book)
        sums = {}
        for name in rounds[0]:
            solver_times, walls = (level_medians(rounds, name, figure) for figure in (1, 2))
            sums[name] = (sum(solver_times), sum(walls))
            print(
                f"{book:8} {len(levels):6} {name:12} {statistics.median(solver_times):11.4f}s "
                f"{sum(solver_times):8.3f}s {statistics.median(walls):11.4f}s {sum(walls):8.2f}s"
            )
        native = sums.pop("native")
        for name, wasm in sums.items():
            ratio = f"{wasm[0] / native[0]:.1f}x" if native[0] > 0 else "n/a (native TIME rounds to 0)"
            print(f"{book:8} {name}/native: TIME {ratio}, wall {wasm[1] / native[1]:.1f}x")
    if not args.no_page:
        levels, shown, seconds = page_seconds(REPO / "web" / "unflip.html", "weekly")
        print(
            f"page: the weekly book's {levels} levels: {shown:.2f} s in all until each walkthrough is shown "
            f"(lower bound, search), {seconds:.2f} s with the counts of optimal solutions"
        )


if __name__ == "__main__":
    main()
