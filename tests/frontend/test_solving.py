"""Solving from the command line: each form of the command, the cards and the move list, colour, and
the outcomes other than a solution. These run the real ./unflip_solver (built when missing or stale),
except where a stand-in solver (conftest.py) answers as told."""

import re
import subprocess
import sys

import pytest
from helpers import REPO, random_board_text
from support import ANSI, SPEC_BOARD, SPEC_OUTPUT, one_line, recorded, run, square_board, write, write_book


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


# Loaded only where they are used (a command, --all, a game link as the source; docs/results.md, "Start-up"):
# a solve of a board file does not pay for them.
NOT_ON_THE_SOLVE_PATH = {
    f"unflip_frontend.{name}"
    for name in (
        "annotate",
        "book_certificates",
        "bound_and_count",
        "certificate_check",
        "cluster",
        "difficulty",
        "game_vectors",
        "generator",
        "hints",
        "level_checks",
        "links",
        "report",
        "report_page",
        "stepper",
        "walkthrough",
    )
}


@pytest.mark.parametrize(
    ("source", "output", "heading"),
    [
        (["board.txt"], [], "board.txt — 5×5\nOptimal: 8 moves"),
        (["board.txt"], ["--compact"], "board.txt — 5×5\nOptimal: 8 moves"),
        (["board.txt"], ["--json"], '"record": "solve", "level": {"name": "board.txt"'),
        (["daily", "1"], ["--compact"], "daily level 1 — 4×4 — par 3 — Daily #1\nOptimal: 3 moves"),
    ],
    ids=["cards", "compact", "json", "book"],
)
def test_the_solve_path_loads_none_of_the_modules_only_other_commands_use(tmp_path, source, output, heading):
    write(tmp_path / "board.txt", SPEC_BOARD)
    loaded = f"sorted({NOT_ON_THE_SOLVE_PATH!r} & set(sys.modules))"
    probe = (
        "import sys, atexit\n"
        f"sys.path.insert(0, {str(REPO)!r})\n"
        f"atexit.register(lambda: sys.stderr.write(repr({loaded})))\n"
        "from unflip_frontend.cli import main\n"
        "main('unflip.py')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *source, *output], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert heading in done.stdout
    assert done.stderr.endswith("[]"), done.stderr


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


# --- outcomes other than a solution -------------------------------------------------------------------------


def test_an_unsolvable_board_is_reported_in_one_line_with_status_1(tmp_path):
    result = run(str(write(tmp_path / "b.txt", "10\n00\n")))
    assert result.exit_code == 1
    assert one_line(result.stderr) == "unsolvable: no sequence of moves clears this board"


def test_a_search_stopped_by_its_budget_is_neither_solved_nor_unsolvable(tmp_path):
    result = run(str(write(tmp_path / "b.txt", random_board_text(13, 13))), "--max-nodes", "1000")
    assert result.exit_code == 3
    line = one_line(result.stderr)
    assert re.fullmatch(
        r"stopped by budget: no solution with fewer than \d+ moves; searched [\d,]+ nodes in [\d.]+ s", line
    )
    assert "Verified" not in result.stdout and "Optimal" not in result.stdout
