"""Shared fixtures: the solver binary, a strict parser for its line protocol, the official books."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import subprocess
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from helpers import REPO, in_ci, needed
from hypothesis import settings
from oracle import Board, replay, uniform

from unflip_frontend.books import BOOK_FILES
from unflip_frontend.contract import build_settings, solver_contract

SOLVER_BINARY = REPO / "unflip_solver"
BOOKS_DIR = REPO.parent / "shared" / "books"


def _still_ignored(_number: int, _frame: object) -> None:
    """What the test run was started ignoring, it goes on ignoring."""


# A run started in a script's background ignores SIGINT, one under nohup SIGHUP, and an ignored signal is
# ignored in every child too: the tests that stop the front end with them need a terminal's defaults. A
# handler ignores them here as before, and every program started resets a handled signal to its default.
for _number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    if signal.getsignal(_number) is signal.SIG_IGN:
        signal.signal(_number, _still_ignored)

# A safety net against a hung solver, not a performance assertion: nothing the suite asks for
# comes anywhere near it.
SOLVER_TIMEOUT = 900

# The slow tier, by node id prefix: `make check` leaves these out (`pytest -m "not slow"`), `make test` and
# CI run them with the rest. What is left covers every module on small boards, the protocol, each
# command and each output once; docs/checks.md ("Two tiers") says what each tier proves. Kept here, in
# one place, so that no test file changes to move a test between tiers.
SLOW = (
    # builds of their own: sanitizers, libFuzzer, a copy with a stand-in bound, a pip install
    "tests/test_sanitizers.py::",
    "tests/test_fuzz.py::",
    "tests/test_solver_bound_seam.py::",
    "tests/frontend/test_install.py::",
    "tests/frontend/test_building.py::test_editing_any_source",
    "tests/frontend/test_building.py::test_a_changed_solver_source",
    "tests/frontend/test_building.py::test_an_installed_package",
    "tests/frontend/test_building.py::test_first_uses_started_together",
    "tests/frontend/test_building.py::test_a_solver_older_than",
    "tests/frontend/test_misbehaving_solver.py::test_sigterm_during_the_first_build",
    # Chromium, the WebAssembly core (its build takes a minute), tmux, Dask clusters (a request refused
    # before one starts is fast), Hypothesis's 4,800 cases
    "tests/frontend/test_browser.py::",
    "tests/frontend/test_report_page.py::",
    "tests/frontend/test_web_page.py::",
    "tests/test_solver_wasm.py::",
    "tests/frontend/test_stepper.py::test_the_arrow_keys",
    "tests/frontend/test_stepper.py::test_ctrl_c_in_the_stepper",
    "tests/frontend/test_stepper.py::test_a_rectangles_cards_step_in_place",
    "tests/frontend/test_live_display.py::",
    *(
        f"tests/frontend/test_dask.py::test_{name}"
        for name in (
            "the_optimum_on_the_cluster",
            "the_moves_are_the_first_solving_cubes",
            "split_cubes_give_the_same_moves",
            "the_command_line_prints_the_same_moves",
            "a_budget_stops_the_cluster",
            "the_cluster_shows",
            "killing_a_worker",
            "all_over_the_daily_book_on_the_cluster",
            "annotate_on_the_cluster",
            "generate_on_the_cluster",
            "ctrl_c_on_an_embedded_cluster",
            "ctrl_c_on_annotate_or_generate_on_the_cluster",
            "a_running_scheduler",
            "a_scheduler_that_goes_away",
        )
    ),
    "tests/frontend/test_properties.py::",
    # every board of a shape, the official books, the shipped books rebuilt
    "tests/test_solver_all_boards.py::",
    "tests/test_solver_tri.py::test_every_reachable_3x4_and_4x3_tri_board",
    "tests/test_solver_optimality.py::test_every_solvable_4x4",
    "tests/test_solver_optimality.py::test_unsolvable_4x4",
    "tests/test_solver_enumeration.py::test_every_solvable_4x4",
    "tests/test_solver_bounds.py::test_no_4x4_board",
    "tests/test_oracle.py::test_coset_optimum_equals_the_bfs_distance_on_every_4x4_board",
    "tests/test_certificates.py::test_every_solvable_4x4",
    "tests/test_certificates.py::test_random_boards_up_to_13x13",
    "tests/test_certificates.py::test_every_official_level",
    "tests/test_certificates.py::test_every_switch",
    *(
        f"tests/test_certificates.py::test_rectangles_have_valid_certificates_for_both_targets[{shape}]"
        for shape in ("7-10", "6-9", "9-6")
    ),
    "tests/frontend/test_official_books.py::",
    "tests/test_solver_enumeration.py::test_every_exhaustive_daily_level",
    "tests/frontend/test_designer.py::test_annotate_changes_no_par_and_no_valid_vector_of_the_official",
    "tests/frontend/test_generator.py::test_make_books_rebuilds",
    # the oracle's CP-SAT on 7x7 and larger boards, and the bigger samples beside each small one kept
    "tests/test_solver_optimality.py::test_uniformly_random_boards_get_the_cpsat_optimum",
    "tests/test_solver_optimality.py::test_boards_made_by_6_to_14_random_moves",
    "tests/test_solver_optimality.py::test_uniformly_random_solvable_boards_get_the_coset_optimum[6",
    "tests/test_solver_optimality.py::test_one_two_and_four_threads",
    "tests/test_solver_optimality.py::test_every_solvable_4x4_board_reaches_target_1",
    "tests/test_solver_rectangles.py::test_uniformly_random_solvable_rectangles_get_the_cpsat_optimum",
    "tests/test_solver_bounds.py::test_mended_duals",
    "tests/test_solver_bounds.py::test_positions_along_optimal_solutions",
    "tests/test_solver_bounds.py::test_weights_handed_below_a_node",
    "tests/test_solver_bounds.py::test_uniformly_random_boards_get_a_bound_at_most_the_coset_optimum[6",
    "tests/test_solver_bounds.py::test_uniformly_random_boards_get_a_bound_at_most_the_coset_optimum[5-0]",
    "tests/test_solver_enumeration.py::test_random_boards_list_exactly_the_oracle_optimal_sets[6",
    "tests/test_solver_enumeration.py::test_random_boards_list_exactly_the_oracle_optimal_sets[5-0]",
    "tests/test_solver_enumeration.py::test_a_budget_that_runs_out_while_counting",
    "tests/test_solver_enumeration.py::test_a_count_stopped_by_its_budget",
    "tests/test_solver_symmetry.py::test_symmetric_boards_whose_every_optimal_solution_is_asymmetric",
    "tests/test_solver_symmetry.py::test_several_threads_agree",
    *(  # each group but the whole one, which has every symmetry the others do
        "tests/test_solver_symmetry.py::test_boards_invariant_under_each_symmetry_group_get_the_oracle_"
        f"optimum[{group}]"
        for group in ("half turn", "quarter turns", "left-right mirror", "up-down mirror", "both mirrors")
        + ("diagonal mirror", "antidiagonal mirror", "both diagonals")
    ),
    "tests/test_solver_switches.py::test_each_switch_configuration",
    "tests/test_solver_switches.py::test_two_threads_sharing_the_table",
    "tests/test_solver_cubes.py::test_the_split_and_its_exhausted_cubes_add_up_to_the_undivided_search_at_"
    "every_bound[either target]",
    "tests/test_solver_cubes.py::test_the_split_and_its_exhausted_cubes_add_up_to_the_undivided_search_at_"
    "every_bound[random",
    "tests/test_solver_cubes.py::test_the_split_and_its_exhausted_cubes_add_up_to_the_undivided_search_at_"
    "every_bound[rectangle",
    "tests/test_solver_cubes.py::test_the_optimum_over_the_cubes_is_the_solvers_with_the_default_switches[",
    "tests/test_solver_cubes.py::test_a_cube_split_further",
    # tri: the oracle's CP-SAT on dense 6x6 boards (up to 20 s a board), the bigger samples beside the small
    "tests/test_solver_tri.py::test_uniformly_random_press_vectors_on_larger_shapes_get_the_cpsat_optimum[6-6",
    "tests/test_solver_tri.py::test_uniformly_random_press_vectors_get_the_coset_optimum[5-5-300]",
    *(
        f"tests/test_solver_tri.py::test_designer_boards_of_random_presses_get_the_cpsat_optimum[{n}-{n}-60]"
        for n in (6, 7, 8)
    ),
    # budgets and signals that wait for a search to run long enough
    "tests/test_solver_contract.py::test_a_transposition_table_the_solver_cannot_map",
    "tests/test_solver_protocol.py::test_a_one_node_budget_stops",
    "tests/frontend/test_misbehaving_solver.py::test_a_solver_still_running_well_past",
    "tests/frontend/test_interrupt.py::test_under_nohup",
    "tests/frontend/test_designer.py::test_ctrl_c_or_sigterm_in_the_middle_of_annotate",
    "tests/frontend/test_generator.py::test_ctrl_c_while_generating",
    "tests/frontend/test_generator.py::test_an_impossible_plan_is_one_clear_error",
    "tests/frontend/test_generator.py::test_min_gap_levels",
    "tests/frontend/test_generator.py::test_a_sample_of_weekly_challenges_has_one_optimal_solution_by_cpsat",
    "tests/frontend/test_generator.py::test_shipped_par_is_the_optimum_an_independent_method_proves[weekly]",
    "tests/frontend/test_list_and_all.py::test_the_books_errors_and_the_solvers_failures",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # An entry that no longer names a test (renamed, moved) would drop its test into the fast tier unseen.
    stale = [
        prefix
        for prefix in SLOW
        for path, _, name in [prefix.partition("::")]
        if not (REPO / path).is_file() or f"def {name.split('[')[0]}" not in (REPO / path).read_text()
    ]
    if stale:
        raise pytest.UsageError(f"tests/conftest.py's SLOW names no test: {', '.join(stale)}")
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


class ProtocolError(AssertionError):
    """The solver's output does not have the shape docs/protocol.md promises for its exit status."""


@dataclass(frozen=True)
class SolverResult:
    returncode: int
    stdout: str
    stderr: str
    # The exit status's name in solver/contract.def ("solved", "unsolvable", "rejected", "stopped", "failed"),
    # or "lower bound" for a solved --lower-bound run.
    outcome: str
    target: int | None = None
    moves: tuple[tuple[int, int, int], ...] | None = None
    bound: int | None = None  # the b of "STOPPED b" or "LOWER_BOUND b"
    # With --all-solutions / --count / --max-solutions: the listed sets, SOLUTIONS k, and INCOMPLETE
    # (also when a budget stopped the counting after the optimum was proven: outcome "stopped", optimum m).
    solutions: tuple[frozenset[tuple[int, int, int]], ...] | None = None
    solution_count: int | None = None
    incomplete: bool = False
    # Under --scheme tri (the output's first line `SCHEME tri`): "tri", and each SOLUTION line's moves as
    # listed, a square pressed twice twice, which `solutions`' sets cannot hold.
    scheme: str = "two"
    solution_presses: tuple[tuple[tuple[int, int, int], ...], ...] | None = None
    nodes: int | None = None
    seconds: float | None = None
    args: tuple[str, ...] = ()
    stdin: bytes | None = None

    optimum: int | None = None  # MOVES m, with or without the moves themselves

    @property
    def move_count(self) -> int | None:
        return None if self.moves is None else len(self.moves)

    def repro(self) -> str:
        """A shell command, run from the repository root, that repeats this run."""
        command = " ".join(["./unflip_solver", *(shlex.quote(a) for a in self.args)])
        if self.stdin is None:
            return command
        return f"printf %s {shlex.quote(self.stdin.decode('utf-8', 'replace'))} | {command}"

    def describe(self) -> str:
        return f"$ {self.repro()}\nexit {self.returncode}\n--- stdout\n{self.stdout}--- stderr\n{self.stderr}"

    def mismatch(self, board: Board, target: int, optimum: int | None) -> str | None:
        """None if this run is exactly right for board and target, else a report of what is wrong.

        optimum is the oracle's answer: a move count, or None for an unsolvable board.
        """
        rows = " ".join("".join(map(str, row)) for row in board)
        expected = "UNSOLVABLE" if optimum is None else f"{optimum} moves"
        if optimum is None:
            ok = self.outcome == "unsolvable" and self.target == target and self.nodes == 0
        else:
            ok = self.outcome == "solved" and self.target == target and self.move_count == optimum
            if ok:
                try:
                    ok = replay(board, self.moves) == uniform(len(board), target, len(board[0]))
                except ValueError:
                    ok = False
                if not ok:
                    expected += " (and the returned moves do not reach the target)"
        if ok:
            return None
        return f"board {rows} target {target}: oracle says {expected}\n{self.describe()}"


_INT = r"(0|[1-9][0-9]*)"
_SECONDS = re.compile(r"TIME [0-9]+(\.[0-9]+)?")


def parse_solver_output(returncode: int, stdout: str, stderr: str) -> SolverResult:
    """Parse stdout strictly by docs/protocol.md's outcome table; any deviation raises ProtocolError."""
    outcome = solver_contract().exits.name(returncode)

    def bad(why: str) -> ProtocolError:
        return ProtocolError(f"{why}\nexit {returncode}\n--- stdout\n{stdout}--- stderr\n{stderr}")

    if outcome is None:
        raise bad(f"unexpected exit status {returncode}")
    if outcome in ("rejected", "failed"):  # one error line on stderr, nothing on stdout to read
        return SolverResult(returncode, stdout, stderr, outcome)
    if stdout and not stdout.endswith("\n"):
        raise bad("stdout does not end with a newline")
    lines = stdout.split("\n")[:-1]
    scheme = "two"
    if lines and lines[0] == "SCHEME tri":  # docs/protocol.md: only a tri run has it, and first
        scheme, lines = "tri", lines[1:]
    if len(lines) < 4:
        raise bad("too few lines")
    m = re.fullmatch(r"TARGET ([01])", lines[0])
    if not m:
        raise bad("first line is not 'TARGET t'")
    target = int(m.group(1))
    head = lines[1]
    moves = bound = solutions = solution_presses = solution_count = move_count = None
    incomplete = False
    if outcome == "solved" and head.startswith("LOWER_BOUND"):
        m = re.fullmatch(r"LOWER_BOUND " + _INT, head)
        if not m:
            raise bad("not 'LOWER_BOUND b'")
        outcome = "lower bound"
        bound = int(m.group(1))
        tail = lines[2:]
    elif (
        outcome in ("solved", "stopped")
        and len(lines) > 2
        and head.startswith("MOVES")
        and lines[2].split(" ")[0] in ("SOLUTION", "SOLUTIONS")
    ):
        m = re.fullmatch(r"MOVES " + _INT, head)
        if not m:
            raise bad(f"exit {returncode} without 'MOVES m'")
        optimum = int(m.group(1))
        at = 2
        listed = []
        while lines[at] == "SOLUTION" or lines[at].startswith("SOLUTION "):
            numbers = [int(v) for v in lines[at].split()[1:]]
            if len(numbers) != 3 * optimum:
                raise bad(f"a SOLUTION line without {optimum} moves: {lines[at]!r}")
            listed.append(tuple(tuple(numbers[i : i + 3]) for i in range(0, len(numbers), 3)))
            at += 1
        solutions = tuple(frozenset(presses) for presses in listed)
        solution_presses = tuple(listed)
        m = re.fullmatch(r"SOLUTIONS " + _INT, lines[at])
        if not m:
            raise bad("no 'SOLUTIONS k' after the solutions")
        solution_count = int(m.group(1))
        incomplete = at + 1 < len(lines) and lines[at + 1] == "INCOMPLETE"
        if outcome == "stopped" and not incomplete:
            raise bad("a counting stopped by its budget without 'INCOMPLETE'")
        tail = lines[at + 1 + incomplete :]
        moves = None
        move_count = optimum
    elif outcome == "solved":
        m = re.fullmatch(r"MOVES " + _INT, head)
        if not m:
            raise bad("exit 0 without 'MOVES m'")
        count = int(m.group(1))
        move_lines = lines[2 : 2 + count]
        tail = lines[2 + count :]
        moves = []
        for line in move_lines:
            m = re.fullmatch(rf"{_INT} {_INT} {_INT}", line)
            if not m:
                raise bad(f"not a 'row col size' move line: {line!r}")
            moves.append(tuple(int(g) for g in m.groups()))
        moves = tuple(moves)
    elif outcome == "unsolvable":
        if head != "UNSOLVABLE":
            raise bad("exit 1 without 'UNSOLVABLE'")
        tail = lines[2:]
        if tail and tail[0] == "SOLUTIONS 0":
            solution_count = 0
            tail = tail[1:]
    else:
        m = re.fullmatch(r"STOPPED " + _INT, head)
        if not m:
            raise bad("exit 3 without 'STOPPED b'")
        bound = int(m.group(1))
        tail = lines[2:]
    if len(tail) != 2:
        raise bad("expected exactly 'NODES n' and 'TIME s' after the result")
    m = re.fullmatch(r"NODES " + _INT, tail[0])
    if not m:
        raise bad("missing 'NODES n'")
    if not _SECONDS.fullmatch(tail[1]):
        raise bad("missing 'TIME s'")
    return SolverResult(
        returncode,
        stdout,
        stderr,
        outcome,
        target=target,
        moves=moves,
        bound=bound,
        solutions=solutions,
        solution_count=solution_count,
        incomplete=incomplete,
        scheme=scheme,
        solution_presses=solution_presses,
        optimum=move_count if moves is None else len(moves),
        nodes=int(m.group(1)),
        seconds=float(tail[1].split()[1]),
    )


# The solver tests can run against another build, as tests/sabotage.py runs them against a solver with
# one technique disabled in its code: UNFLIP_TEST_SOLVER=/path/to/unflip_solver names it, used as it is.
TEST_SOLVER_VARIABLE = "UNFLIP_TEST_SOLVER"


@pytest.fixture(scope="session")
def solver_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A snapshot of ./unflip_solver, rebuilt first with `make unflip_solver` when missing or stale; or of
    the binary that UNFLIP_TEST_SOLVER names, never rebuilt.

    The tests run a private copy so that a rebuild in the working tree during the session cannot
    swap or truncate the binary under them halfway through.
    """
    if other := os.environ.get(TEST_SOLVER_VARIABLE):
        if not Path(other).is_file():
            pytest.fail(f"{TEST_SOLVER_VARIABLE}={other}: no such file")
        snapshot = tmp_path_factory.mktemp("solver") / SOLVER_BINARY.name
        shutil.copy2(other, snapshot)
        return snapshot
    stale = not SOLVER_BINARY.exists() or any(
        (REPO / name).stat().st_mtime > SOLVER_BINARY.stat().st_mtime for name in build_settings().sources
    )
    if stale:
        build = subprocess.run(
            ["make", "-B", "unflip_solver"], cwd=REPO, capture_output=True, text=True, timeout=SOLVER_TIMEOUT
        )
        if build.returncode != 0 or not SOLVER_BINARY.exists():
            pytest.fail(f"`make unflip_solver` failed:\n{build.stdout}\n{build.stderr}")
    snapshot = tmp_path_factory.mktemp("solver") / SOLVER_BINARY.name
    shutil.copy2(SOLVER_BINARY, snapshot)
    return snapshot


RunSolver = Callable[..., SolverResult]


def solver_runner(command: list[str], timeout: float = SOLVER_TIMEOUT) -> RunSolver:
    """run_solver for the solver that `command` starts (a binary, or node with the WebAssembly core)."""

    def run(board_text: str | bytes | None, *args: object) -> SolverResult:
        data = board_text.encode() if isinstance(board_text, str) else board_text
        proc = subprocess.run(
            [*command, *map(str, args)],
            input=data,
            stdin=subprocess.DEVNULL if data is None else None,
            capture_output=True,
            timeout=timeout,
        )
        result = parse_solver_output(
            proc.returncode, proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
        )
        return replace(result, args=tuple(map(str, args)), stdin=data)

    return run


@pytest.fixture(scope="session")
def run_solver(solver_path: Path) -> RunSolver:
    """run_solver(board_text, *args) -> SolverResult.

    board_text (str or bytes) goes to standard input byte for byte; None gives the solver no
    standard input at all (for runs that name a board file in args).
    """
    return solver_runner([str(solver_path)])


@pytest.fixture(scope="session")
def run_solver_many(run_solver: RunSolver) -> Callable[..., list[SolverResult]]:
    """run_solver_many(board_texts, *args) -> results in input order, one solver process per core.

    Pass --threads 1 in args so the parallel processes do not oversubscribe the machine.
    """
    workers = max(1, os.cpu_count() or 1)

    def run_many(board_texts: Iterable[str | bytes], *args: object) -> list[SolverResult]:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(lambda text: run_solver(text, *args), board_texts))

    return run_many


@pytest.fixture(scope="session")
def make_solver_runner() -> Callable[..., RunSolver]:
    """make_solver_runner(command, timeout=...) -> a run_solver for another build of the solver."""
    return solver_runner


@pytest.fixture(scope="session")
def web_build() -> Path:
    """`make web`, once a session: web/unflip_core.js (the solver as WebAssembly, docs/web.md) and the page
    web/unflip.html; returns web/. Skipped without em++ (Debian's emscripten), a failure under CI=true."""
    if shutil.which("em++") is None:
        needed("em++ not found: the page's tests need Debian's emscripten (apt-get install emscripten)")
    build = subprocess.run(
        ["make", "--no-print-directory", "web"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=SOLVER_TIMEOUT,
    )
    if build.returncode != 0:
        pytest.fail(f"`make web` failed:\n{build.stdout}\n{build.stderr}")
    return REPO / "web"


@pytest.fixture(scope="session")
def node() -> str:
    """node, which runs the WebAssembly core outside a browser; skipped when absent, failed under CI=true."""
    found = shutil.which("node")
    if found is None:
        needed("node not found: the WebAssembly core's tests run it under node (Debian's nodejs)")
    assert found is not None
    return found


@pytest.fixture(scope="session")
def books_dir() -> Path:
    """The official level books in ../shared/books; skipped when absent, but a failure under CI=true."""
    missing = [name for name in BOOK_FILES.values() if not (BOOKS_DIR / name).is_file()]
    if missing:
        why = f"official level books not found in {BOOKS_DIR} (missing {', '.join(missing)})"
        if in_ci():
            pytest.fail(why + "; CI=true requires them")
        pytest.skip(why)
    return BOOKS_DIR


@pytest.fixture(scope="session")
def books(books_dir: Path) -> dict[str, list[dict]]:
    """{"daily": levels, "main": levels, "weekly": levels}, each level the game's own JSON object."""
    return {key: json.loads((books_dir / name).read_text())["levels"] for key, name in BOOK_FILES.items()}



# Hypothesis's per-example deadline is a timed assertion, which this suite does not make: it is off.
settings.register_profile("unflip", deadline=None)
settings.load_profile("unflip")
