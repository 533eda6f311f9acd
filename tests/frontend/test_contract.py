"""The front end's reading of the solver's contract (solver/contract.def) and build settings
(solver/build.mk): the values this repository writes down, and every malformed line a SolverError naming
the file and the line. That the solver compiled in the same contract is tests/test_solver_protocol.py's
to show."""

import re

import pytest
from helpers import REPO
from support import write

from unflip_frontend import boards, solver
from unflip_frontend.contract import (
    build_settings,
    read_build_settings,
    read_contract,
    solver_contract,
)
from unflip_frontend.errors import SolverError

CONTRACT = REPO / "solver" / "contract.def"
BUILD = REPO / "solver" / "build.mk"
MAX_SIDE = f"UNFLIP_LIMIT(max_side, {solver_contract().limits.max_side},"


def test_the_exit_statuses_are_named_as_the_contract_names_them():
    exits = solver_contract().exits
    assert [exits.name(status) for status in range(6)] == [
        "solved",
        "unsolvable",
        "rejected",
        "stopped",
        "failed",
        None,
    ]


def test_the_front_ends_limits_are_the_contracts():
    limits = solver_contract().limits
    assert (boards.MIN_SIZE, boards.MAX_SIZE) == (limits.min_side, limits.max_side) == (2, 31)
    assert boards.MAX_BOARD_CHARS == limits.max_input_bytes
    assert solver.SECONDS_RANGE == (limits.min_seconds, limits.max_seconds) == (1e-3, 1e9)
    assert solver.MAX_THREADS == limits.max_threads
    assert solver.MAX_NODES == limits.max_nodes == solver.MAX_SOLUTIONS == 2**64 - 1
    assert isinstance(limits.max_nodes, int) and isinstance(limits.min_seconds, float)


def test_the_entries_keep_the_files_order_and_values_as_written():
    entries = [str(entry) for entry in solver_contract().entries]
    written = re.findall(r"^UNFLIP_(EXIT|LIMIT)\((\w+), ([^,]+),", CONTRACT.read_text(), flags=re.M)
    assert entries == [" ".join(entry) for entry in written]
    assert "LIMIT min_seconds 1e-3" in entries


def test_the_build_settings_list_the_top_level_source_first_and_the_flags():
    settings = build_settings()
    assert settings.sources[0] == "unflip_solver.cpp" and "solver/contract.def" in settings.sources
    assert all((REPO / name).is_file() for name in settings.sources)
    assert settings.compile_flags == (*settings.opt_flags, *settings.std_flags)
    assert "-std=c++17" in settings.std_flags and "-O3" in settings.opt_flags


def test_contract_entries_the_front_end_has_no_field_for_are_kept_for_the_listing(tmp_path):
    extended = write(tmp_path / "contract.def", CONTRACT.read_text() + 'UNFLIP_LIMIT(max_depth, 64, "new")\n')
    contract = read_contract(extended)
    assert str(contract.entries[-1]) == "LIMIT max_depth 64"
    assert contract.limits == solver_contract().limits


def contract_with(tmp_path, old: str, new: str):
    text = CONTRACT.read_text()
    assert old in text
    return write(tmp_path / "contract.def", text.replace(old, new, 1))


def line_of(path, text: str) -> int:
    return next(number for number, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("UNFLIP_EXIT(failed, 4,", "UNFLIP_EXIT(failed 4,", "expected UNFLIP_EXIT"),
        (MAX_SIDE, "UNFLIP_LIMIT(max_side, fifteen,", "expected UNFLIP_EXIT"),
        (MAX_SIDE, MAX_SIDE[:-1] + "u,", "expected UNFLIP_EXIT"),
        ('UNFLIP_EXIT(failed, 4, "the', "UNFLIP_EXIT(failed, 4, the", "expected UNFLIP_EXIT"),
        ("UNFLIP_EXIT(failed, 4,", "UNFLIP_EXIT(failed, 4.5,", "exit status 4.5 is not an integer"),
        ("UNFLIP_EXIT(failed, 4,", "UNFLIP_EXIT(failed, 3,", "a second UNFLIP_EXIT with status 3"),
        (
            "UNFLIP_LIMIT(max_threads, 1024,",
            "UNFLIP_LIMIT(min_threads, 1024,",
            "a second UNFLIP_LIMIT(min_threads, ...)",
        ),
    ],
    ids=[
        "no comma",
        "a word for a value",
        "a suffix",
        "an unquoted meaning",
        "a fraction",
        "a status twice",
        "a name twice",
    ],
)
def test_a_malformed_contract_line_is_an_error_naming_the_file_and_the_line(tmp_path, old, new, why):
    path = contract_with(tmp_path, old, new)
    number = line_of(path, new)
    with pytest.raises(SolverError, match=rf"^{re.escape(str(path))}: line {number}: {re.escape(why)}"):
        read_contract(path)


def test_a_missing_contract_entry_or_a_fractional_integer_limit_is_an_error_naming_the_file(tmp_path):
    path = contract_with(tmp_path, "UNFLIP_EXIT(failed, 4,", "// UNFLIP_EXIT(failed, 4,")
    with pytest.raises(
        SolverError, match=rf"^{re.escape(str(path))}: no UNFLIP_EXIT\(failed, \.\.\.\) line$"
    ):
        read_contract(path)
    path = contract_with(tmp_path, MAX_SIDE, "UNFLIP_LIMIT(max_side, 15.5,")
    with pytest.raises(SolverError, match=rf"^{re.escape(str(path))}: max_side is 15.5, not an integer$"):
        read_contract(path)


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("SOLVER_STD_FLAGS :=", "SOLVER_STD_FLAGS =", "expected NAME := words"),
        ("SOLVER_OPT_FLAGS := -O3", "SOLVER_OPT_FLAGS := $(CXXFLAGS) -O3", "expected NAME := words"),
        (
            "SOLVER_SOURCES := unflip_solver.cpp",
            "SOLVER_SOURCES := unflip_solver.cpp \\",
            "expected NAME := words",
        ),
        ("-O3 -march=native", "-O3 -march=native  # fast", "expected NAME := words"),
        ("SOLVER_OPT_FLAGS := -O3", "SOLVER_STD_FLAGS := -O3", "a second SOLVER_STD_FLAGS"),
    ],
    ids=["not :=", "a reference", "a continued line", "a comment after the value", "a name twice"],
)
def test_a_malformed_build_mk_line_is_an_error_naming_the_file_and_the_line(tmp_path, old, new, why):
    text = BUILD.read_text()
    assert old in text
    path = write(tmp_path / "build.mk", text.replace(old, new, 1))
    number = line_of(path, new)
    with pytest.raises(SolverError, match=rf"^{re.escape(str(path))}: line {number}: {re.escape(why)}"):
        read_build_settings(path)


@pytest.mark.parametrize(
    ("sources", "why"),
    [
        ("solver/contract.def unflip_solver.cpp", "SOLVER_SOURCES must start with unflip_solver.cpp"),
        (
            "unflip_solver.cpp ../elsewhere.h",
            "SOLVER_SOURCES: ../elsewhere.h is not a path inside the repository",
        ),
        ("unflip_solver.cpp /usr/include/x.h", "SOLVER_SOURCES: /usr/include/x.h is not a path inside"),
    ],
)
def test_build_mk_sources_start_with_the_top_level_file_and_stay_inside_the_repository(
    tmp_path, sources, why
):
    text = re.sub(r"^SOLVER_SOURCES :=.*$", f"SOLVER_SOURCES := {sources}", BUILD.read_text(), flags=re.M)
    path = write(tmp_path / "build.mk", text)
    with pytest.raises(SolverError, match=rf"^{re.escape(str(path))}: {re.escape(why)}"):
        read_build_settings(path)


def test_a_build_mk_without_a_setting_or_a_missing_file_is_an_error_naming_it(tmp_path):
    path = write(
        tmp_path / "build.mk", "SOLVER_SOURCES := unflip_solver.cpp\nSOLVER_STD_FLAGS := -std=c++17\n"
    )
    with pytest.raises(SolverError, match=rf"^{re.escape(str(path))}: no SOLVER_OPT_FLAGS := line$"):
        read_build_settings(path)
    missing = tmp_path / "nowhere.def"
    with pytest.raises(SolverError, match=rf"^cannot read the solver's contract {re.escape(str(missing))}: "):
        read_contract(missing)
