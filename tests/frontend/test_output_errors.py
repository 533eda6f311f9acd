"""Standard output that cannot be written (a full disk, a stream closed before the run) is one line on
standard error and exit status 5, never a traceback, and never status 1 (which says "unsolvable"); usage
errors name the help of the command they were given to."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import REPO
from support import one_line, run

FULL = "error: cannot write standard output: No space left on device"


def unflip(*args: str, stdout: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "unflip.py", *args], cwd=REPO, stdout=stdout, stderr=subprocess.PIPE, text=True
    )


@pytest.mark.parametrize(
    "args",
    [
        ("daily", "5"),
        ("daily", "5", "--json"),
        ("daily", "--list"),
        ("generate", "--count", "1", "--size", "4"),
        ("--help",),
        ("--version",),
        ("hint", "--help"),
    ],
)
def test_a_full_disk_on_standard_output_is_one_line_and_exit_5(args):
    with open("/dev/full", "w") as full:
        result = unflip(*args, stdout=full)
    assert result.returncode == 5, result.stderr
    assert one_line(result.stderr) == FULL


def test_a_standard_output_closed_before_the_run_is_one_line_and_exit_5():
    result = subprocess.run(
        f"{sys.executable} unflip.py daily 5 --json >&-", shell=True, cwd=REPO, capture_output=True, text=True
    )
    assert result.returncode == 5, result.stderr
    assert one_line(result.stderr) == "error: cannot write standard output: it is closed"


def test_an_option_of_another_command_says_whose_it_is_not_a_loose_guess():
    result = run("hint", "daily", "5", "--count")
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        "error: No such option '--count' for hint: it is an option of solve (the default command) "
        "(see 'unflip.py hint --help')"
    )


@pytest.mark.parametrize(
    ("args", "pointer"),
    [
        (("hint", "daily", "5", "--bogus"), "unflip.py hint --help"),
        (("generate", "--sizes", "4"), "unflip.py generate --help"),
        (("daily", "5", "--bogus"), "unflip.py --help"),
        (("solve", "daily", "5", "--bogus"), "unflip.py --help"),
    ],
)
def test_a_usage_error_points_to_the_help_of_its_own_command(args, pointer):
    result = run(*args)
    assert result.exit_code == 2
    assert one_line(result.stderr).endswith(f"(see '{pointer}')")


def test_version_is_answered_beside_other_options():
    result = run("--json", "--version")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("unflip ")


@pytest.mark.parametrize(
    ("board", "line"),
    [
        (
            "0000\n0110\n0110\n0000\n",
            "✓ Verified: replaying the 1 move on the original board leaves every tile white.",
        ),
        ("0000\n0000\n0000\n0000\n", "✓ Verified: every tile of the board is white already."),
    ],
)
def test_the_verified_line_counts_one_move_and_none_in_words(tmp_path, board, line):
    path = tmp_path / "b.txt"
    path.write_text(board)
    result = run(str(path), "--compact")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.rstrip().splitlines()[-1] == line
