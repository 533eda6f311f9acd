"""The technique premises (tests/test_solver_premises.py) notice a technique that silently stops working.

For each technique this copies the solver's sources (solver/build.mk's SOLVER_SOURCES) to a temporary
folder, disables the technique *in the code* with a small text patch (never through its switch: the
root's symmetry group made trivial, the covering bound proving nothing, the parity rounds skipped, ...),
builds the copy, runs tests/test_solver_premises.py against it (UNFLIP_TEST_SOLVER, see tests/conftest.py)
and reports which premises failed. A sabotage is caught when its own premise fails; the only other
premises allowed to fail with it are those of the techniques built on it (the LP re-solve and the parity
rows are parts of the covering bound, symmetry breaking works through exclusion). Every patch must match
its source exactly once, so a patch that no longer applies is an error, never a silent no-op. The
unsabotaged copy is built and checked first: every premise must hold on it.

Not collected by pytest (it builds the solver nine times, several minutes on two cores). Run it from the
repository root, after a change to the search or to the premises:

    .venv/bin/python tests/sabotage.py            # every technique
    .venv/bin/python tests/sabotage.py parity     # the ones whose name contains a word

It prints one line per sabotage and exits 1 when one was not caught. docs/checks.md has its last output.
"""

from __future__ import annotations

import os
import re
import shutil
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


COVER_LP = frozenset({"re-solving the LP below the root", "the parity rows"})

SABOTAGES = (
    Sabotage(
        "symmetry breaking",
        (("solver/driver.h", "root.group = lattice_.symmetries_of(root.d);", "root.group = kTrivialGroup;"),),
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
                "int value(const Bits&, int) const { return CoverWeights::moves_for(sum_); }",
                "int value(const Bits&, int) const { return 0; }",
            ),
            (
                "solver/bounds.h",
                "        return CoverWeights::moves_for(sum) > budget;",
                "        return false;",
            ),
            (
                "solver/bounds.h",
                "        return std::max(proven, CoverWeights::moves_for(sum_));",
                "        return 0;",
            ),
        ),
        also=COVER_LP,
    ),
    Sabotage(
        "re-solving the LP below the root",
        (
            (
                "solver/bounds.h",
                "return sw_.lp_after && subtree_nodes > static_cast<uint64_t>(sw_.lp_after);",
                "return false;",
            ),
        ),
        also=frozenset({"the parity rows"}),
    ),
    Sabotage(
        "the parity rows",
        (
            (
                "solver/cover_lp.h",
                "if (parity_rounds-- > 0 && add_violated_parity_cuts()) continue;",
                "if (false) continue;",
            ),
        ),
    ),
    Sabotage(
        "sibling exclusion",
        (
            (
                "solver/search.h",
                "if (sw_.exclusion && !(use_tt && frame.current_handed)) {",
                "if (false) {",
            ),
        ),
        also=frozenset({"symmetry breaking"}),
    ),
    Sabotage(
        "move ordering",
        (("solver/search.h", "const int gain = sw_.ordering ? ", "const int gain = false ? "),),
    ),
    Sabotage(
        "branching at the point with fewest moves",
        (
            (
                "solver/search.h",
                "if (!sw_.fewest_branches) return d_.lowest();",
                "return d_.lowest();",
            ),
        ),
    ),
    Sabotage(
        "the pair bound",
        (
            (
                "solver/bounds.h",
                "int value(const Bits&, int) const { return std::max((lines_.row_sum() + 1) / 2, "
                "(lines_.col_sum() + 1) / 2); }",
                "int value(const Bits&, int) const { return 0; }",
            ),
            (
                "solver/bounds.h",
                "return std::max((lines_.row_sum_after(m) + 1) / 2, (lines_.col_sum_after(m) + 1) / 2) > "
                "budget;",
                "return false;",
            ),
        ),
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


RESULT = re.compile(r"^(PASSED|FAILED) \S+::\w+\[(.+)\]", re.M)


def failed_premises(binary: Path) -> set[str]:
    """The premises that fail against the binary, by their technique."""
    env = {**os.environ, "UNFLIP_TEST_SOLVER": str(binary)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", str(PREMISES)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    results = {premise: outcome for outcome, premise in RESULT.findall(run.stdout)}
    if not results:
        raise SystemExit(f"sabotage.py: no premise results from pytest:\n{run.stdout}\n{run.stderr}")
    return {premise for premise, outcome in results.items() if outcome == "FAILED"}


def main(words: list[str]) -> int:
    chosen = [s for s in SABOTAGES if not words or any(word in s.premise for word in words)]
    caught_all = True
    with tempfile.TemporaryDirectory(prefix="unflip-sabotage-") as scratch:
        intact = failed_premises(build(Path(scratch) / "intact", ()))
        print(f"{'no sabotage':<42} failing premises: {', '.join(sorted(intact)) or 'none'}")
        if intact:
            return 1
        for number, sabotage in enumerate(chosen):
            failed = failed_premises(build(Path(scratch) / str(number), sabotage.patches))
            caught = sabotage.premise in failed and failed <= {sabotage.premise} | sabotage.also
            caught_all &= caught
            named = ", ".join(sorted(failed)) or "none"
            print(f"{sabotage.premise:<42} failing premises: {named}: {'caught' if caught else 'NOT CAUGHT'}")
    return 0 if caught_all else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
