#!/usr/bin/env python3
"""The WebAssembly core (`make web`) beside the native one, on one thread, in one run: every level of the
shipped daily and weekly books (or the books named), each solved by ./unflip_solver --threads 1, by the wasm
core under node a process a level (web/core_node.js), and by the wasm core as the page runs it, one module
for the whole book whose main is called for each level (bench/web_module.js); then the weekly book in the
page itself, in headless Chromium.

    make web unflip_solver && python3 bench/web.py --rounds 3
    python3 bench/web.py --core /tmp/unflip_core_simd.js    # another build of the core (its .wasm beside it)
    python3 bench/web.py --books daily --no-page

Per book and core: the median and the sum of the solver's own TIME (the search, without process or node
start-up, the tables and the root's bounds) and of the wall-clock time per level, and the ratios of the sums
to the native core's; the optima are checked equal. A wasm process a level pays V8's compiling of each
function at its first call inside TIME (about 2 ms on the smallest board); one module pays it once, as the
page does. Its wall is main's alone (no node start, no compile), where the others' is the whole process.
With --rounds N each level's figures are its medians over N rounds (the cores take turns in each). The
page's figures are the wall-clock times of loading and solving every weekly level in turn, as a player
would: the sum of the times until each walkthrough is shown (the lower bound and the search), and the whole
run with each level's count of optimal solutions.
Not a test: figures depend on the machine and on what else it runs.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from run_book import level_rows

REPO = Path(__file__).resolve().parent.parent
BOOKS = {
    "daily": "daily_levels_book.json",
    "main": "main_levels_book.json",
    "weekly": "weekly_challenges_book.json",
}


def protocol_fields(stdout):
    return dict(line.split(" ", 1) for line in stdout.splitlines() if " " in line)


def timed(command, text):
    """(optimum, the solver's TIME, wall-clock seconds) of one run."""
    started = time.perf_counter()
    done = subprocess.run(command, input=text, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    fields = protocol_fields(done.stdout)
    return int(fields["MOVES"]), float(fields["TIME"]), wall


def in_one_module(node, core, texts):
    """timed's figures for every board, each a call of main of one wasm module (wall: main's alone)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json") as boards:
        json.dump(texts, boards)
        boards.flush()
        command = [node, str(REPO / "bench" / "web_module.js"), core, boards.name, "--quiet"]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.strip()}")
    runs = json.loads(done.stdout)
    if any(run["status"] != 0 for run in runs):
        sys.exit(f"{' '.join(command)}: a level did not solve")
    fields = [protocol_fields(run["stdout"]) for run in runs]
    return [(int(f["MOVES"]), float(f["TIME"]), run["seconds"]) for f, run in zip(fields, runs, strict=True)]


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
    args = parser.parse_args()
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
        optima = {tuple(run[0] for run in runs) for measured in rounds for runs in measured.values()}
        if len(optima) != 1:
            sys.exit(f"{book}: the optima differ between the cores")
        sums = {}
        for name in rounds[0]:
            # Each level's median over the rounds, of TIME and of wall.
            per_level = [
                [
                    statistics.median(measured[name][level][figure] for measured in rounds)
                    for level in range(len(texts))
                ]
                for figure in (1, 2)
            ]
            solver_times, walls = per_level
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
