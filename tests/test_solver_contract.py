"""The solver keeps its side of the contract (solver/contract.def): `--contract` lists every entry as
written, memory it cannot get ends it with `failed` (exit 4) and one error line, never `rejected`, and
solver/build.mk's SOLVER_SOURCES names exactly the files the solver is compiled from."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from helpers import REPO, random_board_text

from unflip_frontend.contract import build_settings

CONTRACT = REPO / "solver" / "contract.def"
ENTRY = re.compile(r"UNFLIP_(EXIT|LIMIT)\((\w+), ([^,]+), \".*\"\)")

# Under this much address space the solver starts and searches, but the transposition table it grows to
# on a board of 9x9 or more (64 MiB and up, beside the table it replaces) does not fit.
ADDRESS_SPACE_KIB = 80_000


def test_contract_listing_gives_each_entry_of_contract_def_in_order_with_its_value_as_written(solver_path):
    written = [
        f"{kind} {name} {value}"
        for line in CONTRACT.read_text().splitlines()
        if (match := ENTRY.fullmatch(line))
        for kind, name, value in [match.groups()]
    ]
    listed = subprocess.run([str(solver_path), "--contract"], capture_output=True, text=True, check=True)
    assert written and listed.stdout.splitlines() == written


def test_a_transposition_table_the_solver_cannot_map_fails_with_exit_4_and_one_error_line(solver_path):
    if shutil.which("bash") is None:
        pytest.skip("needs bash for ulimit")
    # Without lower bounds each iteration of the search takes many nodes, and the table grows with them.
    command = (
        f"ulimit -v {ADDRESS_SPACE_KIB} && exec {solver_path} --tt --threads 1 --quiet --max-seconds 120"
        " --no-pair-bound --no-cover-bound --no-line-bound"
    )
    result = subprocess.run(
        ["bash", "-c", command], input=random_board_text(10, 1), capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 4, result
    assert result.stdout == ""
    one_line = r"error: cannot allocate the transposition table \(\d+ MiB\)\n"
    assert re.fullmatch(one_line, result.stderr), result


def test_solver_sources_are_exactly_the_files_the_build_includes_command_line_first():
    """g++ -MM says which files the build reads; every one of them, and nothing else, is in SOLVER_SOURCES."""
    compiler = shutil.which("g++")
    if compiler is None:
        pytest.skip("needs g++ to list the build's includes")
    deps = subprocess.run(
        [compiler, *build_settings().std_flags, "-MM", "unflip_solver.cpp"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    included = deps.stdout.split(":", 1)[1].replace("\\\n", " ").split()
    sources = list(build_settings().sources)
    assert sources[:2] == ["unflip_solver.cpp", "solver/contract.def"]
    assert len(sources) == len(set(sources))
    assert set(sources) == set(included)
    under_solver = {path.relative_to(REPO).as_posix() for path in (REPO / "solver").iterdir()}
    assert under_solver - {"solver/build.mk"} == {name for name in sources if name.startswith("solver/")}
