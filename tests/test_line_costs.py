"""The split line costs of the lines past 16 points (solver/line_costs.h's SplitLineCosts, for boards with a
side past 15) never overstate a line's fewest pairs. tests/line_costs_check.cpp checks them exhaustively,
with 8-point segments, on every mask of every line of up to 16 points against LineCosts' tables, and with
the solver's 16-point segments on random masks of lines of 17 to 32 points against an exact cost worked out
another way; under --overstate it adds one to the costs of masks with points in both segments, which the
checks must catch."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from helpers import built

SUMMARY = re.compile(r"^(.+): (\d+) masks, (\d+) failures", re.MULTILINE)
CHECKS = {
    "every short line, segments of 8",
    "every short line, segments of 16",
    "reachability as stated",
    "the exact method against LineCosts",
    "random wide lines, segments of 16",
}


@pytest.fixture(scope="module")
def line_costs_check() -> Path:
    return built("unflip_line_costs_check")


def failures_by_check(program: Path, *args: str) -> tuple[int, dict[str, int], str]:
    result = subprocess.run([str(program), *args], capture_output=True, text=True, timeout=120)
    found = {name: int(failures) for name, _, failures in SUMMARY.findall(result.stdout)}
    return result.returncode, found, result.stdout + result.stderr


def test_split_line_costs_never_overstate_and_are_exact_where_a_line_fits_one_segment(line_costs_check):
    status, failures, output = failures_by_check(line_costs_check)
    assert (status, failures) == (0, dict.fromkeys(CHECKS, 0)), output


def test_costs_overstated_by_one_where_pairs_cross_segments_are_caught(line_costs_check):
    status, failures, output = failures_by_check(line_costs_check, "--overstate")
    assert status == 1, output
    assert failures["every short line, segments of 8"] > 0, output
    assert failures["random wide lines, segments of 16"] > 0, output
    # The first mask with points in both segments: {0, 8}, four pairs 2 apart.
    assert output.startswith("every short line, segments of 8: width 9 limit 2 mask 0x101: R' 5 above R 4\n")


def test_a_bad_argument_is_refused_with_a_usage_line(line_costs_check):
    result = subprocess.run([str(line_costs_check), "--bogus"], capture_output=True, text=True, timeout=10)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith("usage: unflip_line_costs_check")
