"""The solver built with sanitizers runs clean: no memory error, no undefined behaviour, no data race.

`make asan` builds ./unflip_solver_asan (AddressSanitizer + UndefinedBehaviorSanitizer, every report
fatal), `make tsan` builds ./unflip_solver_tsan (ThreadSanitizer). Each sanitized run must give the same
answer as the plain build and leave no sanitizer report on standard error.
"""

import os
import subprocess

import pytest
from helpers import MAX_SIDE, built, random_board_text, scrambled

SANITIZER_ENV = {
    **os.environ,
    "ASAN_OPTIONS": "halt_on_error=1:abort_on_error=0:exitcode=99:detect_leaks=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1:exitcode=99",
    "TSAN_OPTIONS": "halt_on_error=1:exitcode=99",
}
REPORT_MARKERS = ("ERROR: AddressSanitizer", "runtime error:", "WARNING: ThreadSanitizer", "LeakSanitizer")


def run(binary, board_text, *args):
    result = subprocess.run(
        [str(binary), "--quiet", *args],
        input=board_text,
        capture_output=True,
        text=True,
        env=SANITIZER_ENV,
        timeout=600,
    )
    reports = [marker for marker in REPORT_MARKERS if marker in result.stderr]
    assert not reports, result.stderr
    assert result.returncode != 99, result.stderr
    return result


BOARDS = [
    ("the spec's 5x5 example", "00000\n00010\n00000\n01000\n00000\n"),
    ("an all-white 2x2", "00\n00\n"),
    ("a solvable 2x2", "11\n11\n"),
    ("an unsolvable 4x4", "1000\n0000\n0000\n0000\n"),
    ("a 1/2-encoded 3x3", "222\n222\n222\n"),
    ("a scrambled 8x8", scrambled(8, 9, 1)),
    ("a scrambled 11x11", scrambled(11, 9, 2)),
    ("a scrambled 15x15", scrambled(15, 6, 3)),
    ("a 2x15 strip", "01" * 7 + "0\n" + "10" * 7 + "1\n"),
    ("a 15x3 rectangle", "110\n011\n" * 7 + "000\n"),
    ("a 7x12 rectangle", "".join(("101100111010" if i % 2 else "010011100101") + "\n" for i in range(7))),
    ("ragged rows", "000\n00\n000\n"),
    ("a stray letter", "000\n0x0\n000\n"),
    ("mixed encodings", "010\n020\n000\n"),
    ("empty input", ""),
    ("a board one side too large", ("0" * (MAX_SIDE + 1) + "\n") * (MAX_SIDE + 1)),
    ("CRLF lines and trailing spaces", "0000 \r\n0110\r\n0110\r\n0000\r\n\r\n"),
]


@pytest.mark.parametrize("name,board_text", BOARDS, ids=[name for name, _ in BOARDS])
def test_the_address_and_ub_sanitized_solver_agrees_with_the_plain_build_and_reports_nothing(
    name, board_text
):
    sanitized = built("unflip_solver_asan")
    plain = built("unflip_solver")
    for target in ("0", "either"):
        expected = subprocess.run(
            [str(plain), "--quiet", "--threads", "2", "--target", target],
            input=board_text,
            capture_output=True,
            text=True,
            timeout=600,
        )
        got = run(sanitized, board_text, "--threads", "2", "--target", target)
        assert got.returncode == expected.returncode, got.stderr
        assert got.stdout.split("MOVES")[0] == expected.stdout.split("MOVES")[0]
        moves_line = [line for line in got.stdout.splitlines() if line.startswith(("MOVES", "UNSOLVABLE"))]
        expected_line = [
            line for line in expected.stdout.splitlines() if line.startswith(("MOVES", "UNSOLVABLE"))
        ]
        assert moves_line == expected_line


def test_the_address_sanitized_solver_rejects_bad_flags_without_a_report():
    sanitized = built("unflip_solver_asan")
    for args in (
        ["--threads", "0"],
        ["--threads", "-1"],
        ["--target", "2"],
        ["--max-nodes", "x"],
        ["--bogus"],
    ):
        result = run(sanitized, "00\n00\n", *args)
        assert result.returncode == 2 and result.stderr.startswith("error: "), (args, result.stderr)


# configuration: (board for a seed, solver arguments, seeds whose boards take hundreds of nodes or more)
SHARED_STATE_CONFIGURATIONS = {
    # Threads share the transposition table (at every budget) and race for the solution.
    "table": (
        lambda seed: scrambled(9, 18, seed),
        ["--tt", "--tt-min-budget", "1", "--no-cover-bound"],
        [24, 26, 33],
    ),
    # Each thread keeps its own covering LP, solved at nodes after a few descendants; they share the
    # root's LP state and weights.
    # (Without the Lagrangian, which leaves these boards too few nodes.)
    "covering LP": (
        lambda seed: random_board_text(9, seed),
        ["--lp-after", "20", "--parity-rounds", "0", "--no-lagrangian"],
        [26, 28, 33],
    ),
    # Each thread keeps its own Lagrangian, here at every node; a task handed over starts it afresh.
    "Lagrangian": (lambda seed: random_board_text(9, seed), ["--lagrangian-from", "1"], [2, 5, 7]),
    # The same with parity rows cutting nearly every node's LP.
    "parity rows": (lambda seed: random_board_text(9, seed), ["--lp-after", "5"], [5, 7, 9]),
}
CASES = [
    (name, seed) for name, (_, _, seeds) in sorted(SHARED_STATE_CONFIGURATIONS.items()) for seed in seeds
]


@pytest.mark.parametrize("threads", [2, 3, 4])
@pytest.mark.parametrize("configuration, seed", CASES, ids=[f"{name}-{seed}" for name, seed in CASES])
def test_the_multithreaded_search_has_no_data_race(configuration, seed, threads):
    """Boards that take hundreds of nodes or more, many of them solving an LP, so the threads have time
    to meet."""
    sanitized = built("unflip_solver_tsan")
    make_board, args, _ = SHARED_STATE_CONFIGURATIONS[configuration]
    result = run(sanitized, make_board(seed), "--threads", str(threads), "--target", "either", *args)
    assert result.returncode == 0, result.stderr
    nodes = int(next(line for line in result.stdout.splitlines() if line.startswith("NODES")).split()[1])
    assert nodes >= 400, "the board was too easy to exercise the threads"
