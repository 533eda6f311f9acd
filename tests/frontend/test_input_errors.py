"""Bad input: every unusable book, board, level or option is one line on standard error, exit status 2,
never a traceback, never a hang."""

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import MAX_SIDE, REPO, limit_memory
from support import SIDE_RANGE, one_line, recorded, run, write, write_book

OVER = MAX_SIDE + 1  # the first side refused


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
    assert input_error(tmp_path, "novel", "5") == (
        "error: no such book or board file: novel (the named books are daily, main, weekly)"
    )


def test_a_mistyped_book_name_is_answered_with_the_book_it_resembles(tmp_path):
    assert input_error(tmp_path, "dialy", "5") == (
        "error: no such book or board file: dialy "
        "(did you mean 'daily'? the named books are daily, main, weekly)"
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
            "level 2: tiles row 2 has 1 entries, but row 1 has 2",
        ),
        (
            '{"levels": [{"tiles": [[1, 1, 2], [1, 1, 2], [2, 1]]}]}',
            "level 1: tiles row 3 has 2 entries, but row 1 has 3",
        ),
        ('{"levels": [{"tiles": []}]}', "level 1: 'tiles' has no rows"),
        ('{"levels": [{"tiles": [[1, 2]]}]}', f"level 1: the board is 1×2; {SIDE_RANGE}"),
        (
            '{"levels": [{"tiles": [' + ", ".join(["[" + ", ".join(["1"] * OVER) + "]"] * 2) + "]}]}",
            f"level 1: the board is 2×{OVER}; {SIDE_RANGE}",
        ),
        (
            '{"levels": [{"tiles": [[1, 1], [1, 0]]}]}',
            "level 1: tile 0 at row 2, col 2 (expected 1 = white or 2 = black)",
        ),
        ('{"levels": [{"tiles": [[1]]}]}', f"level 1: the board is 1×1; {SIDE_RANGE}"),
        (
            '{"levels": [{"tiles": {"array": [1, 1, 1], "width": 2, "height": 2}}]}',
            "level 1: tiles array has 3 entries, but height 2 × width 2 is 4",
        ),
        (
            '{"levels": [{"tiles": {"array": [1, 1, 1, 1, 1, 2, 2], "width": 3, "height": 2}}]}',
            "level 1: tiles array has 7 entries, but height 2 × width 3 is 6",
        ),
        (
            '{"levels": [{"tiles": {"array": [1, 1, 1, 1, 1, 1, 1, 1], "width": 1, "height": 8}}]}',
            f"level 1: the board is 8×1; {SIDE_RANGE}",
        ),
        (
            json.dumps({"levels": [{"tiles": {"array": [1, 1, 1, 1], "width": 2, "height": OVER}}]}),
            f"level 1: the board is {OVER}×2; {SIDE_RANGE}",
        ),
        (
            '{"levels": [{"tiles": {"array": [1, 1, 1, 1], "width": 0, "height": -3}}]}',
            f"level 1: the board is -3×0; {SIDE_RANGE}",
        ),
        (
            '{"levels": [{"tiles": {"array": [1, 1, 1, 1, 1, 1], "width": 3.0, "height": 2}}]}',
            "level 1: tiles object needs 'array' (a list), 'width' and 'height' (whole numbers)",
        ),
        (
            '{"levels": [{"tiles": {"array": [1, 1, 1, 1, 1, 1], "width": 3, "height": "2"}}]}',
            "level 1: tiles object needs 'array' (a list), 'width' and 'height' (whole numbers)",
        ),
        (
            '{"levels": [{"tiles": {"array": [1, 1, 1, 1], "width": true, "height": 2}}]}',
            "level 1: tiles object needs 'array' (a list), 'width' and 'height' (whole numbers)",
        ),
        (
            '{"levels": [{"tiles": {"array": [1, 1, 1, 1, 1, 3], "width": 3, "height": 2}}]}',
            "level 1: tile 3 at row 2, col 3 (expected 1 = white or 2 = black)",
        ),
        (
            '{"levels": [{"tiles": [[1, 1], [1, 1]], "par": "five"}]}',
            "level 1: par must be a whole number or null, not 'five'",
        ),
    ],
)
def test_a_malformed_book_says_what_is_wrong_and_where(tmp_path, book, message):
    path = write(tmp_path / "book.json", book)
    # A malformed level is named when it is asked for; the book's other levels still read.
    number = message.split()[1].rstrip(":") if message.startswith("level ") else "1"
    separator = ":" if message[0] != "l" else ""
    assert input_error(tmp_path, str(path), number) == f"error: {path}{separator} {message}"


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ("", ": the board is empty"),
        ("0\n", f": the board is 1×1; {SIDE_RANGE}"),
        ("010\n01\n000\n", " line 2: 2 tiles, but line 1 has 3"),
        ("010\n0x0\n000\n", " line 2: 'x' is not a tile (use digits 0/1 or 1/2)"),
        ("\n01\n10\n", " line 1 is blank; board rows must be consecutive"),
        ("0101\n", f": the board is 1×4; {SIDE_RANGE}"),
        ("0\n1\n0\n", f": the board is 3×1; {SIDE_RANGE}"),
        ("01\n" * OVER, f": the board is {OVER}×2; {SIDE_RANGE}"),
        ("010\n101\n01\n", " line 3: 2 tiles, but line 1 has 3"),
        ("02\n10\n", ": mixes 0 and 2; use 0/1 (0 = white) or 1/2 (1 = white) throughout"),
        (("0" * OVER + "\n") * OVER, f": the board is {OVER}×{OVER}; {SIDE_RANGE}"),
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


# --- hostile files: each was a traceback, a hang or a misreading before -------------------------------------


def test_a_book_with_a_number_of_5000_digits_is_one_line_not_a_traceback(tmp_path):
    par = "9" * 5000
    path = write(tmp_path / "book.json", '{"levels": [{"tiles": [[1, 2], [2, 1]], "par": ' + par + "}]}")
    assert input_error(tmp_path, str(path), "1") == f"error: {path}: a number in it has more than 4300 digits"


def test_a_book_nested_100000_brackets_deep_is_one_line_not_a_traceback(tmp_path):
    path = write(tmp_path / "book.json", '{"levels": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert input_error(tmp_path, str(path), "1") == (
        f"error: {path}: its JSON is nested too deeply to be a level book"
    )


def run_limited(*args: str, stdin: object = None) -> subprocess.CompletedProcess:
    """The front end as a program with 1 GiB of address space, so reading without a limit fails fast
    (MemoryError) instead of filling the machine."""

    return subprocess.run(
        [sys.executable, str(REPO / "unflip.py"), *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        preexec_fn=limit_memory,
        timeout=120,
    )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("how", ["named", "on standard input"])
def test_endless_input_is_read_only_up_to_the_cap_and_refused_in_one_line(how):
    if how == "named":
        result = run_limited("/dev/zero", "1")
        name = "/dev/zero"
    else:
        with open("/dev/zero", "rb") as zeros:
            result = run_limited("-", stdin=zeros)
        name = "standard input"
    assert result.returncode == 2, result.stderr
    assert one_line(result.stderr) == f"error: {name} is larger than 64 MiB; no book or board is that large"


def test_a_board_longer_than_the_solvers_cap_is_refused_as_the_solver_refuses_it(tmp_path):
    assert input_error(tmp_path, "-", input="01\n10\n" + " " * 70_000) == (
        "error: standard input is larger than 65536 characters; "
        f"a board is at most {MAX_SIDE} lines of {MAX_SIDE} digits"
    )


@pytest.mark.parametrize("kind", ["book", "board"])
def test_a_utf8_byte_order_mark_at_the_start_is_not_part_of_the_text(tmp_path, fake_solver, kind):
    env = fake_solver("TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n")
    text = '{"levels": [{"tiles": [[2, 2], [2, 2]], "par": 1}]}' if kind == "book" else "11\n11\n"
    path = tmp_path / "level.txt"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    result = run(str(path), *(["1"] if kind == "book" else []), "--compact", env=env)
    assert result.exit_code == 0, result.stderr
    assert recorded(tmp_path)["stdin"] == "11\n11\n"


def test_a_file_name_too_long_for_the_system_is_no_such_file(tmp_path):
    name = "a" * 5000
    assert input_error(tmp_path, name) == (
        f"error: no such book or board file: {name} (the named books are daily, main, weekly)"
    )


def test_a_dash_with_a_terminal_on_standard_input_says_so_instead_of_waiting():
    controller, terminal = pty.openpty()
    try:
        result = subprocess.run(
            [sys.executable, str(REPO / "unflip.py"), "-"],
            stdin=terminal,
            capture_output=True,
            text=True,
            timeout=60,  # a safety net: reading the terminal would wait forever
        )
    finally:
        os.close(controller)
        os.close(terminal)
    assert result.returncode == 2
    assert one_line(result.stderr) == (
        "error: - reads a board or book from standard input, which is a terminal here; "
        "redirect one in (- < board.txt) or name the file"
    )
