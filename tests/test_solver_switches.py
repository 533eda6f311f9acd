"""Every pruning switch changes only the speed, never the answer: each configuration, alone and with
threads sharing the transposition table, gives the oracle's optimum on the same boards. The switches are
the solver's own list (`--list-switches`), so a new one is tested without editing this file, and the list
is the one `--help` documents."""

from __future__ import annotations

import random
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import oracle
import pytest
from oracle import board_text


@dataclass(frozen=True)
class NumberSwitch:
    name: str
    low: int
    high: int
    default: int


def list_switches(solver: Path) -> tuple[list[str], list[NumberSwitch]]:
    """The solver's flag switches and number switches, in its table's order."""
    listing = subprocess.run([str(solver), "--list-switches"], capture_output=True, text=True, check=True)
    flags, numbers = [], []
    for line in listing.stdout.splitlines():
        kind, name, *rest = line.split()
        if kind == "flag":
            flags.append(name)
        else:
            assert kind == "number", line
            low, high, default = map(int, rest)
            numbers.append(NumberSwitch(name, low, high, default))
    return flags, numbers


def configurations(flags: list[str], numbers: list[NumberSwitch]) -> list[tuple[str, ...]]:
    """The defaults; every flag alone; every number switch at its low end, one above it and its high end,
    alone and with every flag (a number often matters only beside a flag, as --tt-min-budget beside --tt)."""
    configs: list[tuple[str, ...]] = [()]
    configs += [(flag,) for flag in flags]
    for switch in numbers:
        for value in sorted({switch.low, switch.low + 1, switch.high} - {switch.default}):
            setting = (switch.name, str(value))
            configs.append(setting)
            configs += [(*setting, flag) for flag in flags]
    return configs


@pytest.fixture(scope="module")
def switches(solver_path):
    return list_switches(solver_path)


@pytest.fixture(scope="module")
def cases():
    """Uniform random 5x5 and 6x6 boards, and 7x7 and 8x8 boards made by random moves, with their optima."""
    rng = random.Random(2024)
    boards = [oracle.random_solvable_board(rng, n) for n in (5, 5, 5, 6, 6, 6)]
    boards += [oracle.board_from_random_moves(rng, 7, count) for count in (5, 7, 9)]
    boards += [oracle.board_from_random_moves(rng, 8, count) for count in (10, 12)]
    return [(board, oracle.optimum(board)) for board in boards]


@pytest.mark.parametrize("threads", ["1", "2"])
def test_each_switch_configuration_finds_the_oracle_optimum(run_solver_many, cases, switches, threads):
    failures = []
    for config in configurations(*switches):
        results = run_solver_many([board_text(board) for board, _ in cases], "--threads", threads, *config)
        failures += [
            problem
            for (board, optimum), result in zip(cases, results, strict=True)
            if (problem := result.mismatch(board, 0, optimum))
        ]
    assert not failures, "\n\n".join(failures)


# An 8x8 board on which threads sharing the table once answered 13 moves, or 14, for the optimum 12: a
# node whose branches went to the other thread recorded its failure before they were searched.
TABLE_RACE_BOARD = oracle.as_board(
    ["00101111", "10011101", "10111101", "10001010", "01001110", "00110110", "00111000", "00111100"]
)
TABLE_RACE_RUNS = 10  # the race lost about one run in ten on the first board, most runs on the second


@pytest.fixture(scope="module")
def table_race_cases():
    """That board and uniformly random 8x8 ones: searches of some 20,000 nodes, big enough that the two
    threads hand each other work many times, small enough for many runs."""
    rng = random.Random(19)
    boards = [TABLE_RACE_BOARD] + [oracle.random_solvable_board(rng, 8) for _ in range(3)]
    return [(board, oracle.optimum(board)) for board in boards]


def test_two_threads_sharing_the_table_find_the_oracle_optimum_beside_every_flag_run_after_run(
    run_solver_many, table_race_cases, switches
):
    flags, _ = switches
    configs = [("--tt", flag) for flag in flags if flag != "--tt"] + [("--tt",), ("--tt", "--lp-after", "0")]
    failures = []
    for config in configs:
        texts = [board_text(board) for board, _ in table_race_cases] * TABLE_RACE_RUNS
        results = run_solver_many(texts, "--threads", "2", *config)
        failures += [
            problem
            for (board, optimum), result in zip(table_race_cases * TABLE_RACE_RUNS, results, strict=True)
            if (problem := result.mismatch(board, 0, optimum))
        ]
    assert not failures, f"{len(failures)} wrong runs; the first:\n" + failures[0]


def test_the_protocol_names_every_switch_the_solver_lists(switches):
    flags, numbers = switches
    protocol = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text()
    missing = [name for name in [*flags, *(number.name for number in numbers)] if f"`{name}" not in protocol]
    assert not missing, f"docs/protocol.md does not name {missing}"


def test_the_switch_list_covers_every_technique_and_each_number_default_is_in_its_range(switches):
    flags, numbers = switches
    assert {"--tt", "--no-pair-bound", "--no-cover-bound", "--no-line-bound"} <= set(flags)
    assert len(set(flags)) == len(flags)
    for switch in numbers:
        assert switch.low <= switch.default <= switch.high, switch


def test_every_listed_switch_is_in_the_help_and_every_switch_in_the_help_is_listed(solver_path, switches):
    usage = subprocess.run([str(solver_path), "--help"], capture_output=True, text=True, check=True).stdout
    section = usage.split("switches, each turning one technique on or off", 1)[1].split("\n\n", 1)[0]
    documented = re.findall(r"^  (--[a-z-]+)", section, flags=re.MULTILINE)
    flags, numbers = switches
    assert documented == flags + [switch.name for switch in numbers]
