"""The technique premises (tests/test_solver_premises.py) notice a technique that silently stops working.

For each technique this copies the solver's sources (solver/build.mk's SOLVER_SOURCES) to a temporary
folder, disables the technique *in the code* with a small text patch (never through its switch: the
root's symmetry group made trivial, the covering bound proving nothing, the parity rounds skipped, ...),
builds the copy, runs tests/test_solver_premises.py against it (UNFLIP_TEST_SOLVER, see tests/conftest.py)
and reports which premises failed. A sabotage is caught when its own premise fails; the only other
premises allowed to fail with it are those of the techniques built on it (the LP re-solve and the parity
rows are parts of the covering bound, symmetry breaking works through exclusion). A premise that a
sabotage makes hopelessly slow (two bounds gone at once) is stopped after PREMISE_TIMEOUT seconds and
reported as timed out, neither held nor failed. Every patch must match
its source exactly once, so a patch that no longer applies is an error, never a silent no-op. The
unsabotaged copy is built and checked first: every premise must hold on it.

Not collected by pytest (it builds the solver sixteen times, about 20 minutes on two cores). Run it from
the repository root, after a change to the search or to the premises:

    .venv/bin/python tests/sabotage.py            # every technique
    .venv/bin/python tests/sabotage.py parity     # the ones whose name contains a word

It prints one line per sabotage and exits 1 when one was not caught. docs/checks.md has its last output.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from unflip_frontend.contract import build_settings  # noqa: E402

PREMISES = REPO / "tests" / "test_solver_premises.py"


@dataclass(frozen=True)
class Sabotage:
    premise: str  # the premise's id in test_solver_premises.py: its technique
    patches: tuple[tuple[str, str, str], ...]  # (file, text, replacement), each text found exactly once
    also: frozenset[str] = frozenset()  # premises of techniques built on this one, allowed to fail too


PARITY_WEIGHTS = frozenset(
    {"the parity rows' duals handed down to the subtree", "the parity rows' duals handed down below the root"}
)
MENDED = frozenset({"the LP's rounded duals mended"})  # what the parity rows' duals lose to rounding
# How many of the nodes' parity rounds run: with no rounds at the nodes there is nothing to end.
ROUNDS_ENDED = frozenset({"the parity rounds ended once one gains little"})
# The branch point is steered by the covering weights: with the bound gone, neither the work estimate nor
# counting moves beats branching at the first 1-point on weekly #1 (seen at f2c736d).
STEERED = frozenset(
    {"the work estimate choosing the branch point", "branching at the point with fewest moves"}
)
# The LP solved where the work estimate foresees a big subtree: gone with the estimate or with the re-solve.
FORESEEN = frozenset({"the LP solved on entering a node the work estimate foresees big"})
# The parity rows kept for the LPs below: its premise runs the LP at every node, so with no LP below the
# root there is nothing to keep.
KEPT = frozenset({"the parity rows kept for the LPs below"})
COVER_LP = (
    frozenset({"re-solving the LP below the root", "the parity rows"})
    | FORESEEN
    | PARITY_WEIGHTS
    | MENDED
    | STEERED
    | ROUNDS_ENDED
    | KEPT
    | frozenset({"the Lagrangian with parity rows of the node's own"})
)

# The Lagrangian (part of the covering bound) never runs.
LAGRANGIAN_GONE = (
    "solver/bounds.h",
    "if (!sw_.lagrangian || budget < sw_.lagrangian_from) return 0;",
    "return 0;",
)

SABOTAGES = (
    Sabotage(
        "symmetry breaking",
        (("solver/driver.h", "root.group = lattice_.symmetries_of(root.d);", "root.group = kTrivialGroup;"),),
        also=frozenset({"symmetry breaking under tri"}),
    ),
    Sabotage(
        "the covering LP bound",
        (
            (
                "solver/bounds.h",
                "static int proven_at_root(const Root& root) { return root.lp_bound; }",
                "static int proven_at_root(const Root&) { return 0; }",
            ),
            (
                "solver/bounds.h",
                "int value(const Grid&, int) const { return CoverWeights::moves_for(strongest_sum()); }",
                "int value(const Grid&, int) const { return 0; }",
            ),
            (
                "solver/bounds.h",
                "        if (CoverWeights::moves_for(sum) > budget) return true;",
                "        return false;",
            ),
            (
                "solver/bounds.h",
                "        return std::max(proven, CoverWeights::moves_for(std::max(sum_, parity_sum_)));",
                "        return 0;",
            ),
            LAGRANGIAN_GONE,
        ),
        also=COVER_LP,
    ),
    Sabotage("the Lagrangian with parity rows of the node's own", (LAGRANGIAN_GONE,)),
    Sabotage(
        "re-solving the LP below the root",
        (
            (
                "solver/bounds.h",
                "return sw_.lp_after && (subtree_nodes",
                "return false && (subtree_nodes",
            ),
        ),
        also=frozenset({"the parity rows"}) | PARITY_WEIGHTS | MENDED | ROUNDS_ENDED | FORESEEN | KEPT,
    ),
    Sabotage(
        "the LP solved on entering a node the work estimate foresees big",
        (
            (
                "solver/bounds.h",
                "const bool foreseen = sw_.lp_ahead && budget",
                "const bool foreseen = false && budget",
            ),
        ),
        # on UNIFORM_11, the premise of the rounds ended early, the LP foreseen is where they end
        also=ROUNDS_ENDED,
    ),
    Sabotage(
        "the parity rows",
        (
            (
                "solver/cover_lp.h",
                "if (gaining && parity_rounds-- > 0 && add_violated_parity_cuts()) continue;",
                "if (false) continue;",
            ),
        ),
        # the duals handed down, and mended, are the parity rows', as are the rounds that end and the rows
        # kept below
        also=PARITY_WEIGHTS | MENDED | ROUNDS_ENDED | KEPT,
    ),
    Sabotage(
        "the parity rows kept for the LPs below",
        (
            (
                "solver/bounds.h",
                "if (!sw_.kept_parity_rows) {\n                if (covering_",
                "if (true) {\n                if (covering_",
            ),
            ("solver/bounds.h", "if (!sw_.kept_parity_rows) lp.restore(covering_", "lp.restore(covering_"),
        ),
        # the rounds ended early and the mended duals are tuned beside the kept rows (--parity-gain 80):
        # without them, their premises' boards lose nodes to both
        also=MENDED | ROUNDS_ENDED,
    ),
    Sabotage(
        "the parity rounds ended once one gains little",
        (
            (
                "solver/cover_lp.h",
                "const bool gaining = least_gain <= 0 || objective_ >= last_optimum + least_gain;",
                "const bool gaining = true;",
            ),
        ),
        # With every round run, the kept rows save no nodes on their board (UNIFORM_10, the LP at every
        # node: 557 against 528 with --no-kept-rows beside --parity-gain 0, at 03480d2)
        also=KEPT,
    ),
    Sabotage(
        "the LP's rounded duals mended",
        (("solver/cover_lp.h", "        return excess == 0;", "        return false;"),),
        # unmended, the rounds' weights handed down differ, and on UNIFORM_10 ending them early then costs
        # nodes (12,916 against 11,189 with --no-dual-repair, at 6ce7e3f); the rows kept below lose their
        # proofs to the rounding (UNIFORM_10, the LP at every node: 1,933 against 1,209 with --no-kept-rows
        # beside --no-dual-repair), and there exclusion costs nodes (14,763 against 13,593 with
        # --no-exclusion beside it; both at 03480d2)
        also=ROUNDS_ENDED | KEPT | frozenset({"sibling exclusion"}),
    ),
    Sabotage(
        "the parity rows' duals handed down to the subtree",
        (
            (
                "solver/bounds.h",
                "if (!context.sw.parity_weights || !lp.parity_weights(root.parity_weights)) "
                "root.parity_weights = root.weights;",
                "root.parity_weights = root.weights;",
            ),
            (
                "solver/bounds.h",
                "if (sw_.parity_weights && lp.parity_weights(fresh_)) adopt(",
                "if (false) adopt(",
            ),
        ),
        # the rounded duals mended are mostly the ones handed down, and the nodes the rounds ended early
        # save on their board come through the duals handed down (seen at 6ce7e3f)
        also=PARITY_WEIGHTS | MENDED | ROUNDS_ENDED,
    ),
    Sabotage(
        "sibling exclusion",
        (
            (
                "solver/search.h",
                "if (sw_.exclusion && !(use_tt && frame.current_handed)) {",
                "if (false) {",
            ),
            # The refuted siblings it also forbids, wherever the search forbids them.
            (
                "solver/search.h",
                "        if (sw_.exclusion)\n"
                "            for (int k = 0; k < next.refuted_count; ++k) blocked_[next",
                "        if (false)\n            for (int k = 0; k < next.refuted_count; ++k) blocked_[next",
            ),
            (
                "solver/search.h",
                "if (sw_.exclusion) exclude_here(frame, index);",
                "if (false) exclude_here(frame, index);",
            ),
        ),
        # Without exclusion, UNIFORM_11's mended duals and rounds ended early cost nodes: 8,615 and 8,080
        # against 10,203 with --no-exclusion beside them (seen at 19918c6).
        # Symmetry breaking works through exclusion, under tri too.
        also=frozenset({"symmetry breaking", "symmetry breaking under tri"}) | MENDED | ROUNDS_ENDED,
    ),
    Sabotage(
        "move ordering",
        (("solver/search.h", "} else if (sw_.ordering) {", "} else if (false) {"),),
        # Seen on weekly #1 (at 65f2f68): without the ordering, fewest branches saves no nodes there either.
        also=frozenset({"branching at the point with fewest moves"}),
    ),
    Sabotage(
        "branching at the point with fewest moves",
        (
            (
                "solver/search.h",
                "if (!sw_.fewest_branches) return {d_.lowest()};",
                "return {d_.lowest()};",
            ),
        ),
        # The work estimate is behind the same switch: the first 1-point everywhere. Seen on UNIFORM_11 (at
        # a2c714f): branching at the first 1-point, ending the parity rounds early saves no nodes there.
        also=frozenset({"the work estimate choosing the branch point"}) | FORESEEN | ROUNDS_ENDED,
    ),
    Sabotage(
        "the work estimate choosing the branch point",
        (
            (
                "solver/bounds.h",
                "std::memcpy(&work[q], &total, sizeof total);",
                "std::memset(&work[q], 0, sizeof total);",
            ),
        ),
        # As with fewest branches gone (seen at a2c714f).
        also=FORESEEN | ROUNDS_ENDED,
    ),
    Sabotage(
        "the pair bound",
        (
            (
                "solver/bounds.h",
                "int value(const Grid&, int) const { return std::max((lines_.row_sum() + 1) / 2, "
                "(lines_.col_sum() + 1) / 2); }",
                "int value(const Grid&, int) const { return 0; }",
            ),
            (
                "solver/bounds.h",
                "return std::max((lines_.row_sum_after(m) + 1) / 2, (lines_.col_sum_after(m) + 1) / 2) > "
                "budget;",
                "return false;",
            ),
        ),
        also=frozenset({"the pair bound on lines past 16 points"}),
    ),
    Sabotage(
        # Each long line's upper half costs nothing: its cost is its lower half's alone.
        "the pair bound on lines past 16 points",
        (
            (
                "solver/line_costs.h",
                "(low_[mask & kLowPoints] + high_[mask >> kSegmentPoints] + 1) >> 1",
                "(low_[mask & kLowPoints] + 0 * high_[mask >> kSegmentPoints] + 1) >> 1",
            ),
        ),
    ),
    Sabotage(
        "the adjacent-lines bound",
        (
            (
                "solver/bounds.h",
                "h = std::max({h, lines_.row_cost(i) + lines_.row_cost(i + 1), "
                "lines_.col_cost(i) + lines_.col_cost(i + 1)});",
                "h = 0;",
            ),
        ),
    ),
    Sabotage(
        "symmetry breaking under tri",
        (
            (
                "solver/lattice.h",
                "kept = character[g] > 0 ? one == d.one && two == d.two : one == d.two && two == d.one;",
                "kept = g == 0;",
            ),
        ),
    ),
    Sabotage(
        "annealing meeting the last bound's solution",
        (("solver/annealing.h", "if (residue_count_ == 0 && count_ < best_size_) {", "if (false) {"),),
        also=frozenset({"annealing meeting the last bound's solution under tri"}),
    ),
)


def build(folder: Path, patches: tuple[tuple[str, str, str], ...]) -> Path:
    """The solver built from a copy of its sources in folder, with the patches applied."""
    for name in build_settings().sources:
        copy = folder / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, copy)
    for name, text, replacement in patches:
        path = folder / name
        source = path.read_text()
        if source.count(text) != 1:
            raise SystemExit(f"sabotage.py: {name} has {source.count(text)} copies of {text!r}, not one")
        path.write_text(source.replace(text, replacement))
    binary = folder / "unflip_solver"
    command = ["g++", *build_settings().std_flags, *build_settings().opt_flags, "-o", str(binary)]
    done = subprocess.run([*command, "unflip_solver.cpp"], cwd=folder, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"sabotage.py: the build failed:\n{done.stderr}")
    return binary


PREMISE_TIMEOUT = 120  # seconds: a premise a sabotage makes hopelessly slow is reported, not waited for


def premise_ids() -> list[str]:
    """The premises' pytest node ids, in the file's order."""
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", str(PREMISES)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    return [line for line in listed.stdout.splitlines() if "::" in line]


def premise_outcome(binary: Path, node_id: str) -> str:
    """'passed', 'failed', or 'timed out' (the solver runs it started are stopped with it)."""
    env = {**os.environ, "UNFLIP_TEST_SOLVER": str(binary)}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", node_id]
    with subprocess.Popen(
        command,
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    ) as run:
        try:
            code = run.wait(timeout=PREMISE_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
            return "timed out"
    return {0: "passed", 1: "failed"}.get(code) or f"pytest exit {code}"


def premise_outcomes(binary: Path, node_ids: list[str]) -> dict[str, str]:
    """Each premise's outcome against the binary, by its technique (the node id's parameter)."""
    return {re.sub(r"^.*\[(.*)\]$", r"\1", node_id): premise_outcome(binary, node_id) for node_id in node_ids}


def summary(outcomes: dict[str, str]) -> str:
    failing = [
        f"{premise} ({outcome})" if outcome != "failed" else premise
        for premise, outcome in outcomes.items()
        if outcome != "passed"
    ]
    return ", ".join(failing) or "none"


def main(words: list[str]) -> int:
    chosen = [s for s in SABOTAGES if not words or any(word in s.premise for word in words)]
    node_ids = premise_ids()
    if len(node_ids) < len(SABOTAGES):
        raise SystemExit(f"sabotage.py: {len(node_ids)} premises collected, fewer than the sabotages")
    caught_all = True
    with tempfile.TemporaryDirectory(prefix="unflip-sabotage-") as scratch:
        intact = premise_outcomes(build(Path(scratch) / "intact", ()), node_ids)
        print(f"{'no sabotage':<42} premises not holding: {summary(intact)}", flush=True)
        if set(intact.values()) != {"passed"}:
            return 1
        for number, sabotage in enumerate(chosen):
            outcomes = premise_outcomes(build(Path(scratch) / str(number), sabotage.patches), node_ids)
            failed = {premise for premise, outcome in outcomes.items() if outcome == "failed"}
            caught = sabotage.premise in failed and failed <= {sabotage.premise} | sabotage.also
            caught_all &= caught
            verdict = "caught" if caught else "NOT CAUGHT"
            print(f"{sabotage.premise:<42} premises not holding: {summary(outcomes)}: {verdict}", flush=True)
    return 0 if caught_all else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
