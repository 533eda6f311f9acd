"""The unflip.py command line: commands, options, errors, the solver protocol, building, Ctrl-C.

End-to-end tests run the real ./unflip_solver (unflip.py builds it when it is missing or stale). Tests of
malformed solver output and crashes use small fake solvers written here, selected with UNFLIP_SOLVER.
"""

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
import unflip  # noqa: E402

SPEC_BOARD = "00000\n00010\n00000\n01000\n00000\n"  # the specification's example: 8 moves
# The specification's own solver output for SPEC_BOARD.
SPEC_OUTPUT = (
    "TARGET 0\nMOVES 8\n1 1 2\n1 1 3\n0 3 2\n0 0 3\n0 0 5\n2 2 2\n2 2 3\n3 0 2\nNODES 65\nTIME 0.002\n"
)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run(*args: str, env: dict | None = None, input: str | None = None):
    """Invoke the CLI in-process; the solver still runs as a real subprocess."""
    return CliRunner().invoke(unflip.cli, list(args), env=env, input=input, prog_name="unflip.py")


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got {text!r}"
    return lines[0]


def random_board(seed: int) -> str:
    """A uniformly random 13×13 board: far beyond what the solver finishes in a test's time."""
    rng = random.Random(seed)
    return "".join("".join(rng.choice("01") for _ in range(13)) + "\n" for _ in range(13))


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def write_book(path: Path, levels: list[dict]) -> Path:
    return write(path, json.dumps({"levels": levels}))


def square_board(n: int, squares: list[tuple[int, int, int]]) -> list[list[int]]:
    """Book tiles (1 white, 2 black) of an all-white n×n board with the given squares flipped."""
    tiles = [[1] * n for _ in range(n)]
    for row, col, size in squares:
        for r in range(row, row + size):
            for c in range(col, col + size):
                tiles[r][c] = 3 - tiles[r][c]
    return tiles


@pytest.fixture
def fake_solver(tmp_path):
    """Make a stand-in solver that records its arguments and input, then answers as told."""

    def make(stdout: str = "", stderr: str = "", code: int = 0, signal_number: int | None = None) -> dict:
        script = tmp_path / "fake_solver"
        die = f"os.kill(os.getpid(), {signal_number})\n" if signal_number else ""
        script.write_text(
            f"#!{sys.executable}\n"
            "import json, os, sys\n"
            "record = {'argv': sys.argv[1:], 'stdin': sys.stdin.read()}\n"
            f"open({str(tmp_path / 'record.json')!r}, 'w').write(json.dumps(record))\n"
            f"sys.stdout.write({stdout!r})\nsys.stderr.write({stderr!r})\nsys.stdout.flush()\n"
            f"{die}sys.exit({code})\n"
        )
        script.chmod(0o755)
        return {"UNFLIP_SOLVER": str(script)}

    return make


def recorded(tmp_path: Path) -> dict:
    return json.loads((tmp_path / "record.json").read_text())


# --- solving: each command form -----------------------------------------------------------------------------


def test_a_board_file_is_solved_verified_and_printed_as_one_card_per_move(tmp_path):
    result = run(str(write(tmp_path / "board.txt", SPEC_BOARD)))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "Optimal: 8 moves" in out
    assert [int(n) for n in re.findall(r"^Step (\d+) of 8 — flip the", out, re.M)] == list(range(1, 9))
    assert "\nSolved:\n     1 2 3 4 5\n" + "".join(f"  {r}  · · · · ·\n" for r in range(1, 6)) in out
    assert out.rstrip().endswith(
        "✓ Verified: replaying all 8 moves on the original board leaves every tile white."
    )


def test_a_board_on_standard_input_is_read_with_a_dash():
    result = run("-", "--compact", input=SPEC_BOARD)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("standard input — 5×5\nOptimal: 8 moves")


@pytest.mark.parametrize("form", ["file argument", "standard input"])
def test_the_script_runs_as_a_program_on_a_board_file_or_standard_input(tmp_path, form):
    board = write(tmp_path / "board.txt", SPEC_BOARD)
    args, stdin = ([str(board)], None) if form == "file argument" else (["-"], SPEC_BOARD)
    result = subprocess.run(
        [sys.executable, str(REPO / "unflip.py"), *args, "--compact"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "Optimal: 8 moves" in result.stdout
    assert result.stdout.endswith(
        "Verified: replaying all 8 moves on the original board leaves every tile white.\n"
    )


def test_a_board_of_1s_and_2s_is_read_with_1_as_white(tmp_path, fake_solver):
    env = fake_solver("TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n")
    result = run(str(write(tmp_path / "b.txt", "221\r\n221  \n111\n\n")), env=env)
    assert result.exit_code == 0, result.stderr
    assert recorded(tmp_path)["stdin"] == "110\n110\n000\n"


def test_the_explicit_solve_command_is_the_same_as_the_positional_form(tmp_path):
    board = str(write(tmp_path / "b.txt", "0110\n0110\n0000\n0000\n"))
    result = run("solve", board, "--compact", "--ascii")
    assert result.exit_code == 0, result.stderr
    assert "   1. flip the 2x2 square covering rows 1-2, cols 2-3\n" in result.stdout


def test_a_level_of_a_book_file_is_converted_to_0_1_and_solved_with_target_0(tmp_path, fake_solver):
    book = write_book(tmp_path / "book.json", [{"tiles": [[1, 1], [1, 1]]}, {"tiles": [[2, 2], [2, 1]]}])
    env = fake_solver("TARGET 0\nUNSOLVABLE\nNODES 0\nTIME 0.001\n", code=1)
    result = run(str(book), "2", env=env)
    assert recorded(tmp_path) == {"argv": ["--target", "0"], "stdin": "11\n10\n"}
    assert result.stdout.startswith(f"{book} level 2 — 2×2 — no par\n")


def test_tiles_given_as_array_width_height_are_read_row_major(tmp_path):
    tiles = {"array": [2, 2, 1, 2, 2, 1, 1, 1, 1], "width": 3, "height": 3}
    book = write_book(tmp_path / "book.json", [{"tiles": tiles, "par": 1, "title": "Corner"}])
    result = run(str(book), "1", "--compact", "--ascii")
    assert result.exit_code == 0, result.stderr
    assert "level 1 - 3x3 - par 1 - Corner" in result.stdout
    assert "   1. flip the 2x2 square covering rows 1-2, cols 1-2\n" in result.stdout


def test_named_books_come_from_the_books_option_or_UNFLIP_BOOKS(tmp_path):
    write_book(
        tmp_path / "weekly_challenges_book.json", [{"tiles": square_board(4, [(1, 1, 3)]), "title": "W1"}]
    )
    by_option = run("weekly", "1", "--compact", "--books", str(tmp_path))
    by_env = run("weekly", "1", "--compact", env={"UNFLIP_BOOKS": str(tmp_path)})
    for result in (by_option, by_env):
        assert result.exit_code == 0, result.stderr
        assert result.stdout.startswith("weekly level 1 — 4×4 — no par — W1\nOptimal: 1 move")


def test_an_already_white_board_needs_no_moves_and_says_so(tmp_path):
    result = run(str(write(tmp_path / "b.txt", "000\n000\n000\n")))
    assert result.exit_code == 0, result.stderr
    assert "Optimal: 0 moves" in result.stdout
    assert "Already solved, nothing to flip:" in result.stdout
    assert "Step" not in result.stdout


def test_compact_prints_the_numbered_move_list_and_no_boards(tmp_path, fake_solver):
    env = fake_solver(SPEC_OUTPUT)
    result = run(str(write(tmp_path / "board.txt", SPEC_BOARD)), "--compact", env=env)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        f"{tmp_path / 'board.txt'} — 5×5\n"
        "Optimal: 8 moves — 65 nodes, 0.002 s\n"
        "   1. flip the 2×2 square covering rows 2–3, cols 2–3\n"
        "   2. flip the 3×3 square covering rows 2–4, cols 2–4\n"
        "   3. flip the 2×2 square covering rows 1–2, cols 4–5\n"
        "   4. flip the 3×3 square covering rows 1–3, cols 1–3\n"
        "   5. flip the 5×5 square covering rows 1–5, cols 1–5\n"
        "   6. flip the 2×2 square covering rows 3–4, cols 3–4\n"
        "   7. flip the 3×3 square covering rows 3–5, cols 3–5\n"
        "   8. flip the 2×2 square covering rows 4–5, cols 1–2\n"
        "✓ Verified: replaying all 8 moves on the original board leaves every tile white.\n"
    )


def test_the_specification_example_prints_its_first_card_with_the_board_before_the_move(
    tmp_path, fake_solver
):
    env = fake_solver(SPEC_OUTPUT)
    result = run(str(write(tmp_path / "board.txt", SPEC_BOARD)), env=env)
    assert result.exit_code == 0, result.stderr
    assert (
        "\nStep 1 of 8 — flip the 2×2 square covering rows 2–3, cols 2–3:\n"
        "     1 2 3 4 5\n"
        "  1  · · · · ·\n"
        "      ┌───┐\n"
        "  2  ·│· ·│■ ·\n"
        "  3  ·│· ·│· ·\n"
        "      └───┘\n"
        "  4  · ■ · · ·\n"
        "  5  · · · · ·\n"
        "\nStep 2 of 8 — flip the 3×3 square covering rows 2–4, cols 2–4:\n"
        "     1 2 3 4 5\n"
        "  1  · · · · ·\n"
        "      ┌─────┐\n"
        "  2  ·│■ ■ ■│·\n"
        "  3  ·│■ ■ ·│·\n"
        "  4  ·│■ · ·│·\n"
        "      └─────┘\n"
        "  5  · · · · ·\n"
    ) in result.stdout


def test_target_either_and_the_budgets_and_threads_are_passed_to_the_solver(tmp_path, fake_solver):
    env = fake_solver("TARGET 1\nMOVES 1\n0 0 2\nNODES 3\nTIME 0.5\n")
    args = ["--threads", "3", "--target", "either", "--max-seconds", "2.5", "--max-nodes", "100"]
    result = run(str(write(tmp_path / "b.txt", "00\n00\n")), *args, env=env)
    assert result.exit_code == 0, result.stderr
    assert recorded(tmp_path)["argv"] == [
        "--target",
        "either",
        "--threads",
        "3",
        "--max-seconds",
        "2.5",
        "--max-nodes",
        "100",
    ]
    assert "leaves every tile black." in result.stdout


# --- colour -------------------------------------------------------------------------------------------------


def test_a_colour_terminal_gets_the_flip_square_highlighted(tmp_path, fake_solver):
    env = {**fake_solver(SPEC_OUTPUT), "FORCE_COLOR": "1", "TERM": "xterm"}
    result = run(str(write(tmp_path / "board.txt", SPEC_BOARD)), env=env)
    assert result.exit_code == 0, result.stderr
    assert "\x1b[1;33m┌───┐\x1b[0m" in result.stdout


@pytest.mark.parametrize("how", ["--no-color option", "NO_COLOR variable"])
def test_no_color_removes_every_colour_but_keeps_the_card(tmp_path, fake_solver, how):
    env = {**fake_solver(SPEC_OUTPUT), "FORCE_COLOR": "1", "TERM": "xterm"}
    args = [str(write(tmp_path / "board.txt", SPEC_BOARD))]
    if how == "--no-color option":
        args.append("--no-color")
    else:
        env["NO_COLOR"] = "1"
    result = run(*args, env=env)
    assert result.exit_code == 0, result.stderr
    assert not re.search(r"\x1b\[[0-9;]*3[0-9]m", result.stdout)
    assert "  2  ·│· ·│■ ·\n" in ANSI.sub("", result.stdout)


# --- books: --list and --all --------------------------------------------------------------------------------


@pytest.fixture
def small_book():
    """Three levels with known optima: one square (1 move), two squares whose union is no square (2),
    and one more square (1)."""
    return [
        {"tiles": square_board(4, [(0, 0, 2)]), "par": 1, "title": "One square"},
        {"tiles": square_board(5, [(0, 0, 2), (3, 3, 2)]), "par": 2, "title": "Two corners"},
        {"tiles": square_board(6, [(1, 1, 4)]), "par": None},
    ]


def test_list_reads_the_book_without_running_the_solver(tmp_path, small_book):
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--list", env={"UNFLIP_SOLVER": str(tmp_path / "absent")})
    assert result.exit_code == 0, result.stderr


def test_list_shows_each_level_with_number_size_par_and_title(tmp_path, small_book):
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--list")
    assert result.exit_code == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if re.match(r"\s+\d", line)]
    assert rows == [
        ["1", "4×4", "1", "One", "square"],
        ["2", "5×5", "2", "Two", "corners"],
        ["3", "6×6", "-"],
    ]


def test_all_exits_0_when_every_level_is_solved_verified_and_at_par(tmp_path, small_book):
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all")
    assert result.exit_code == 0, result.stderr
    rows = [line.split() for line in result.stdout.splitlines() if re.match(r"\s+\d", line)]
    assert [row[:4] for row in rows] == [
        ["1", "4×4", "1", "1"],
        ["2", "5×5", "2", "2"],
        ["3", "6×6", "-", "1"],
    ]
    assert "par matched on 2 of 2 levels with a par" in result.stdout
    assert "✓ All 3 levels solved and verified" in result.stdout
    assert re.search(r"^total solver time: \d+\.\d\ds$", result.stdout, re.M)


def test_all_exits_1_and_names_the_level_whose_par_is_wrong(tmp_path, small_book):
    small_book[1]["par"] = 3
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all")
    assert result.exit_code == 1
    assert "par matched on 1 of 2 levels with a par" in result.stdout
    assert one_line(result.stderr) == "error: 1 of 3 levels failed: level 2 (2 moves, par 3)"


def test_all_exits_1_when_a_level_is_unsolvable_and_goes_on_with_the_rest(tmp_path, small_book):
    small_book.insert(0, {"tiles": [[2, 1], [1, 1]], "par": 1})
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all")
    assert result.exit_code == 1
    assert one_line(result.stderr) == "error: 1 of 4 levels failed: level 1 (unsolvable)"
    assert "par matched on 2 of 3 levels with a par" in result.stdout


def test_all_counts_a_level_stopped_by_its_budget_as_a_failure(tmp_path, small_book):
    tiles = [[1 + int(ch) for ch in row] for row in random_board(13).split()]
    small_book.append({"tiles": tiles, "title": "Random"})
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all", "--max-nodes", "1000")
    assert result.exit_code == 1
    assert re.fullmatch(
        r"error: 1 of 4 levels failed: level 4 \(stopped by budget, no solution with fewer than \d+ moves\)",
        one_line(result.stderr),
    )
    assert re.search(r"^\s+4\s+13×13\s+-\s+stopped\s", result.stdout, re.M)


# --- outcomes other than a solution -------------------------------------------------------------------------


def test_an_unsolvable_board_is_reported_in_one_line_with_status_1(tmp_path):
    result = run(str(write(tmp_path / "b.txt", "10\n00\n")))
    assert result.exit_code == 1
    assert one_line(result.stderr) == "unsolvable: no sequence of moves clears this board"


def test_a_search_stopped_by_its_budget_is_neither_solved_nor_unsolvable(tmp_path):
    result = run(str(write(tmp_path / "b.txt", random_board(13))), "--max-nodes", "1000")
    assert result.exit_code == 3
    line = one_line(result.stderr)
    assert re.fullmatch(r"stopped by budget: no solution with fewer than \d+ moves", line)
    assert "Verified" not in result.stdout and "Optimal" not in result.stdout


# --- the solver protocol, with fake solvers -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("stdout", "code", "message"),
    [
        ("", 0, "malformed solver output: line 1: expected 'TARGET 0', the output ended"),
        (
            "TARGET 1\nMOVES 0\nNODES 1\nTIME 0\n",
            0,
            "malformed solver output: line 1: expected 'TARGET 0', got 'TARGET 1'",
        ),
        (
            "TARGET 0\nMOVES two\n",
            0,
            "malformed solver output: line 2: expected 'MOVES <count>', got 'MOVES two'",
        ),
        (
            "TARGET 0\nMOVES 2\n0 0 2\nNODES 5\nTIME 0\n",
            0,
            "malformed solver output: line 4: expected a move 'row col size' that fits the 3×3 board, "
            "got 'NODES 5'",
        ),
        (
            "TARGET 0\nMOVES 1\n2 0 2\nNODES 5\nTIME 0\n",
            0,
            "malformed solver output: line 3: expected a move 'row col size' that fits the 3×3 board, "
            "got '2 0 2'",
        ),
        (
            "TARGET 0\nMOVES 1\n0 0 1\nNODES 5\nTIME 0\n",
            0,
            "malformed solver output: line 3: expected a move 'row col size' that fits the 3×3 board, "
            "got '0 0 1'",
        ),
        (
            "TARGET 0\nMOVES 1\n0 0 2\nNODES -5\nTIME 0\n",
            0,
            "malformed solver output: line 4: expected 'NODES <count>', got 'NODES -5'",
        ),
        (
            "TARGET 0\nMOVES 1\n0 0 2\nNODES 5\nTIME 0\nsurprise\n",
            0,
            "malformed solver output: line 6: expected nothing after 'TIME', got 'surprise'",
        ),
        (
            "TARGET 0\nSTOPPED 4\nNODES 5\n",
            3,
            "malformed solver output: line 4: expected 'TIME <seconds>', the output ended",
        ),
        (
            "TARGET 0\nMOVES 0\nNODES 0\nTIME 0\n",
            1,
            "malformed solver output: line 2: expected 'UNSOLVABLE', got 'MOVES 0'",
        ),
    ],
)
def test_malformed_solver_output_is_a_one_line_error_naming_the_line(
    tmp_path, fake_solver, stdout, code, message
):
    env = fake_solver(stdout, code=code)
    result = run(str(write(tmp_path / "b.txt", "110\n110\n000\n")), env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr) == f"error: {message}"


def test_a_solution_that_does_not_clear_the_board_fails_verification(tmp_path, fake_solver):
    env = fake_solver("TARGET 0\nMOVES 1\n1 1 2\nNODES 1\nTIME 0\n")
    result = run(str(write(tmp_path / "b.txt", "110\n110\n000\n")), env=env)
    assert result.exit_code == 4
    assert "Verified" not in result.stdout
    assert one_line(result.stderr) == (
        "error: verification failed: replaying the solver's 1 move leaves 6 tiles not white "
        "(first at row 1, col 1)"
    )


def test_a_crashing_solver_is_reported_with_its_signal(tmp_path, fake_solver):
    env = fake_solver("TARGET 0\n", signal_number=signal.SIGSEGV)
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr) == "error: the solver was killed by SIGSEGV"


def test_an_unexpected_exit_status_is_reported_with_the_solvers_last_complaint(tmp_path, fake_solver):
    env = fake_solver(stderr="bound 3 exhausted, nodes=9\nout of memory\n", code=7)
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr) == "error: the solver exited with status 7: out of memory"


def test_a_board_the_solver_rejects_is_reported_with_its_reason(tmp_path, fake_solver):
    env = fake_solver(stderr="error: line 2: bad digit\n", code=2)
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env=env)
    assert result.exit_code == 4
    assert one_line(result.stderr) == "error: the solver rejected the board: line 2: bad digit"


def test_progress_lines_are_read_and_the_outcome_is_parsed_from_stdout():
    seen = []
    stderr = "bound 1 exhausted, nodes=1\nbound 2 searching, nodes=5\n"
    outcome = unflip.parse_solver_output(3, "TARGET 0\nSTOPPED 2\nNODES 5\nTIME 1.5\n", stderr, 4, "0")
    assert outcome == unflip.Stopped(target=0, bound=2, nodes=5, seconds=1.5)
    for line in stderr.splitlines():
        match = unflip.PROGRESS_LINE.fullmatch(line)
        seen.append(str(unflip.SearchProgress(int(match[1]), match[2], int(match[3]))))
    assert seen == ["no solution in 1 moves (1 nodes)", "trying 2 moves (5 nodes)"]


def test_a_stopped_outcome_from_the_solver_exits_3_with_the_proven_bound(tmp_path, fake_solver):
    env = fake_solver("TARGET 0\nSTOPPED 12\nNODES 1234567\nTIME 60.0\n", code=3)
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env=env)
    assert result.exit_code == 3
    assert one_line(result.stderr) == "stopped by budget: no solution with fewer than 12 moves"


def test_an_UNFLIP_SOLVER_that_is_not_executable_is_an_error(tmp_path):
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), env={"UNFLIP_SOLVER": str(tmp_path / "nope")})
    assert result.exit_code == 4
    assert one_line(result.stderr) == f"error: UNFLIP_SOLVER={tmp_path / 'nope'} is not an executable file"


# --- input errors: one line, status 2, never a traceback ----------------------------------------------------


def input_error(tmp_path: Path, *args: str, input: str | None = None) -> str:
    result = run(*args, input=input, env={"UNFLIP_BOOKS": str(tmp_path)})
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    return one_line(result.stderr)


def test_a_missing_book_file_says_where_it_looked(tmp_path):
    assert input_error(tmp_path, "daily", "5") == (
        f"error: book 'daily' not found: {tmp_path / 'daily_levels_book.json'} does not exist "
        "(point --books DIR or UNFLIP_BOOKS at its folder)"
    )


def test_an_unknown_book_name_lists_the_known_ones(tmp_path):
    assert input_error(tmp_path, "dialy", "5") == (
        "error: no such book or board file: dialy (the named books are daily, main, weekly)"
    )


@pytest.mark.parametrize("level", ["0", "4"])
def test_a_level_out_of_range_gives_the_valid_range(tmp_path, small_book, level):
    write_book(tmp_path / "main_levels_book.json", small_book)
    assert input_error(tmp_path, "main", level) == (
        f"error: main has 3 levels; level {level} is out of range (1–3)"
    )


def test_a_book_without_a_level_number_asks_for_one(tmp_path, small_book):
    write_book(tmp_path / "main_levels_book.json", small_book)
    assert (
        input_error(tmp_path, "main")
        == "error: main is a book: give one of a level number (1–3), --list or --all"
    )


def test_a_board_file_with_a_level_number_is_refused(tmp_path):
    board = str(write(tmp_path / "b.txt", "11\n11\n"))
    assert input_error(tmp_path, board, "2") == (
        f"error: {board} is a single board: drop the level number, --list and --all"
    )


@pytest.mark.parametrize(
    ("book", "message"),
    [
        (
            '{"levels": [\n  {"tiles": [[1, 2], [2, 1]]}\n  {"tiles": []}]}',
            "malformed JSON at line 3, column 3: Expecting ',' delimiter",
        ),
        ("[1, 2]", "not a level book (expected a JSON object with a 'levels' list)"),
        ('{"levels": []}', "the book has no levels"),
        ('{"levels": [{"par": 3}]}', "level 1: expected an object with 'tiles'"),
        (
            '{"levels": [{"tiles": [[1, 1], [1, 1]]}, {"tiles": [[1, 1], [1]]}]}',
            "level 2: tiles row 2 has 1 entries, expected 2",
        ),
        (
            '{"levels": [{"tiles": [[1, 1], [1, 0]]}]}',
            "level 1: tile 0 at row 2, col 2 (expected 1 = white or 2 = black)",
        ),
        ('{"levels": [{"tiles": [[1]]}]}', "level 1: the board is 1×1; sizes 2 to 15 are supported"),
        (
            '{"levels": [{"tiles": {"array": [1, 1, 1, 1, 1, 1], "width": 3, "height": 2}}]}',
            "level 1: the board is 3 wide and 2 high; it must be square",
        ),
        (
            '{"levels": [{"tiles": {"array": [1, 1, 1], "width": 2, "height": 2}}]}',
            "level 1: tiles array has 3 entries, expected 2×2",
        ),
        (
            '{"levels": [{"tiles": [[1, 1], [1, 1]], "par": "five"}]}',
            "level 1: par must be a whole number or null, not 'five'",
        ),
    ],
)
def test_a_malformed_book_says_what_is_wrong_and_where(tmp_path, book, message):
    path = write(tmp_path / "book.json", book)
    assert (
        input_error(tmp_path, str(path), "1") == f"error: {path}{':' if message[0] != 'l' else ''} {message}"
    )


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ("", ": the board is empty"),
        ("0\n", ": the board is 1×1; sizes 2 to 15 are supported"),
        ("010\n01\n000\n", " line 2: 2 tiles, but line 1 has 3"),
        ("010\n0x0\n000\n", " line 2: 'x' is not a tile (use digits 0/1 or 1/2)"),
        ("\n01\n10\n", " line 1 is blank; board rows must be consecutive"),
        ("0101\n", ": the board is 4 tiles wide and 1 high; it must be square"),
        ("010\n101\n", ": the board is 3 tiles wide and 2 high; it must be square"),
        ("02\n10\n", ": mixes 0 and 2; use 0/1 (0 = white) or 1/2 (1 = white) throughout"),
        ("0" * 16 + "\n" + ("0" * 16 + "\n") * 15, ": the board is 16×16; sizes 2 to 15 are supported"),
    ],
)
def test_a_malformed_board_says_what_is_wrong_and_where(tmp_path, board, message):
    assert input_error(tmp_path, "-", input=board) == f"error: standard input{message}"


def test_an_unknown_option_is_one_line_pointing_at_help(tmp_path):
    assert input_error(tmp_path, "daily", "5", "--colour") == (
        "error: No such option '--colour'. Did you mean '--no-color'? (see 'unflip.py --help')"
    )


def test_an_unreadable_board_file_is_one_line(tmp_path):
    folder = tmp_path / "dir"
    folder.mkdir()
    assert input_error(tmp_path, str(folder)) == f"error: cannot read {folder}: Is a directory"


# --- help ---------------------------------------------------------------------------------------------------


def test_help_shows_the_positional_forms_every_option_with_an_example_and_the_commands():
    result = run("--help")
    assert result.exit_code == 0
    help_text = result.stdout
    assert help_text.startswith("Usage: unflip.py [OPTIONS] SOURCE [LEVEL]\n")
    assert "python unflip.py path/to/book.json 3" in help_text
    assert re.search(r"^Commands:\n  solve ", help_text, re.M)
    options = [p for p in unflip.solve.params if isinstance(p, unflip.click.Option)]
    for option in options:
        assert option.opts[0] in help_text
        assert "Example:" in option.help, option.opts


def test_running_with_no_arguments_shows_the_help():
    result = run()
    assert result.exit_code == 2
    assert "Usage: unflip.py [OPTIONS] SOURCE [LEVEL]" in result.output


# --- building the solver ------------------------------------------------------------------------------------

# A stand-in solver source that compiles in a moment: it answers every board with one 2×2 move.
TINY_SOLVER = r"""
#include <iostream>
#include <string>
int main() {
    std::string line;
    while (std::getline(std::cin, line)) {}
    std::cout << "TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0.000\n";
}
"""


@pytest.fixture
def scratch_repo(tmp_path):
    """unflip.py alone in a folder with a tiny solver source and no binary."""
    if not (shutil.which("g++") or shutil.which("clang++") or shutil.which("c++")):
        pytest.skip("no C++ compiler on this machine")
    folder = tmp_path / "repo"
    folder.mkdir()
    shutil.copy(REPO / "unflip.py", folder)
    write(folder / "unflip_solver.cpp", TINY_SOLVER)
    write(folder / "board.txt", "11\n11\n")
    return folder


def run_script(folder: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("UNFLIP_SOLVER", "CXX")}
    return subprocess.run(
        [sys.executable, str(folder / "unflip.py"), *args],
        capture_output=True,
        text=True,
        env={**environment, **(env or {})},
        cwd=folder,
        timeout=120,
    )


def test_a_missing_solver_is_built_on_first_use_with_one_status_line(scratch_repo):
    first = run_script(scratch_repo, "board.txt", "--compact")
    assert first.returncode == 0, first.stderr
    assert re.fullmatch(
        r"building the solver: \S*\+\+ -O3 -march=native -std=c\+\+17 -pthread -o \S+ \S+\n", first.stderr
    )
    assert (scratch_repo / "unflip_solver").is_file()
    second = run_script(scratch_repo, "board.txt", "--compact")
    assert second.returncode == 0 and second.stderr == ""


def test_a_solver_older_than_its_source_is_rebuilt_with_make_when_there_is_a_makefile(scratch_repo):
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    shutil.copy(REPO / "Makefile", scratch_repo)
    assert run_script(scratch_repo, "board.txt").returncode == 0
    later = (scratch_repo / "unflip_solver").stat().st_mtime + 10
    os.utime(scratch_repo / "unflip_solver.cpp", (later, later))
    rebuilt = run_script(scratch_repo, "board.txt")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert rebuilt.stderr.startswith("building the solver: make ")


def test_without_a_compiler_the_error_says_how_to_get_one(scratch_repo, tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    result = run_script(scratch_repo, "board.txt", env={"PATH": str(empty)})
    assert result.returncode == 4
    assert one_line(result.stderr) == (
        "error: the solver needs building and no C++ compiler was found; "
        "install one (e.g. apt-get install g++ make)"
    )


def test_a_solver_that_does_not_compile_is_one_line_naming_the_first_error(scratch_repo):
    write(scratch_repo / "unflip_solver.cpp", "int main() { return undeclared; }\n")
    result = run_script(scratch_repo, "board.txt")
    assert result.returncode == 4
    line = result.stderr.splitlines()[-1]
    assert line.startswith("error: building the solver failed (") and "undeclared" in line
    assert line.endswith("; run `make unflip_solver` to see everything")


# --- Ctrl-C -------------------------------------------------------------------------------------------------


def children_of(pid: int) -> list[tuple[int, str]]:
    """(pid, program) of each live child process, read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                program = (entry / "cmdline").read_bytes().split(b"\0")[0].decode()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == pid:
                found.append((int(entry.name), program))
    return found


@pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="needs Linux /proc to find the solver process"
)
@pytest.mark.parametrize("who", ["front end only", "whole process group, as a terminal does"])
def test_ctrl_c_stops_the_solver_and_exits_130_leaving_no_process(tmp_path, who):
    board = random_board(2024)
    # The budget only matters if the interrupt handling were broken: the solver then still ends.
    front = subprocess.Popen(
        [
            sys.executable,
            str(REPO / "unflip.py"),
            str(write(tmp_path / "b.txt", board)),
            "--max-seconds",
            "120",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={k: v for k, v in os.environ.items() if k != "UNFLIP_SOLVER"},
    )
    try:
        deadline = time.monotonic() + 120  # room for a first build of the real solver
        solver = []
        while not solver and time.monotonic() < deadline and front.poll() is None:
            solver = [pid for pid, program in children_of(front.pid) if Path(program).name == "unflip_solver"]
            time.sleep(0.05)
        assert solver, "the solver never started"
        if who == "front end only":
            front.send_signal(signal.SIGINT)
        else:
            os.killpg(front.pid, signal.SIGINT)
        _, stderr = front.communicate(timeout=60)
    finally:
        if front.poll() is None:
            front.kill()
    assert front.returncode == 130
    assert stderr.strip().splitlines()[-1] == "interrupted: stopped at your request"
    assert "Traceback" not in stderr
    assert not Path(f"/proc/{solver[0]}").exists()
