"""The files unflip writes (--svg, --html, generate --out, books --out): never the run's own input, never
one output over another, only a regular file or what a link points to, atomically, keeping the target's
mode; '-' is standard output; a missing folder, a loop of links or a read-only file is one line."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest
from helpers import REPO
from support import SPEC_BOARD, SPEC_OUTPUT, one_line, run, write

from unflip_frontend.files import write_atomically


@pytest.fixture
def board(tmp_path):
    return write(tmp_path / "b.txt", SPEC_BOARD)


def test_a_walkthrough_over_the_runs_own_book_is_refused_and_the_book_kept(tmp_path, fake_solver):
    book = tmp_path / "b.json"
    book.write_bytes((REPO / "daily_levels_book.json").read_bytes())
    result = run(str(book), "5", "--html", str(book), env=fake_solver(SPEC_OUTPUT))
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"error: cannot write {book}: it is this run's input {book}"
    assert book.read_bytes() == (REPO / "daily_levels_book.json").read_bytes()


def test_a_walkthrough_over_a_named_books_file_is_refused(tmp_path, fake_solver):
    books = tmp_path / "books"
    books.mkdir()
    daily = books / "daily_levels_book.json"
    daily.write_bytes((REPO / "daily_levels_book.json").read_bytes())
    result = run("daily", "5", "--books", str(books), "--svg", str(daily), env=fake_solver(SPEC_OUTPUT))
    assert result.exit_code == 2
    assert "it is this run's input" in one_line(result.stderr)


def test_a_walkthrough_through_a_link_to_the_input_is_refused(tmp_path, board, fake_solver):
    link = tmp_path / "link.svg"
    link.symlink_to(board)
    result = run(str(board), "--svg", str(link), env=fake_solver(SPEC_OUTPUT))
    assert result.exit_code == 2
    assert "it is this run's input" in one_line(result.stderr)
    assert board.read_text() == SPEC_BOARD


def test_svg_and_html_to_one_file_is_refused_before_any_work(tmp_path, board, fake_solver):
    out = tmp_path / "x"
    result = run(str(board), "--svg", str(out), "--html", str(out), env=fake_solver(SPEC_OUTPUT))
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        f"error: cannot write {out}: --svg writes it too; give each output a name of its own"
    )
    assert not out.exists() and not (tmp_path / "record.json").exists()


@pytest.mark.parametrize("option", ["--svg", "--html"])
def test_an_empty_walkthrough_name_is_one_line_not_silence(board, option, fake_solver):
    result = run(str(board), option, "", env=fake_solver(SPEC_OUTPUT))
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"error: cannot write the {option} output to '': the file name is empty"


def test_svg_dash_writes_the_picture_to_standard_output_and_nothing_else(tmp_path, board, fake_solver):
    result = run(str(board), "--svg", "-", env=fake_solver(SPEC_OUTPUT))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("<svg") or result.stdout.startswith("<?xml")
    assert result.stdout.rstrip().endswith("</svg>")
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize(("extra", "clash"), [(["--json"], "--json"), (["--html", "-"], "--html -")])
def test_svg_dash_beside_another_user_of_standard_output_is_refused(board, extra, clash, fake_solver):
    result = run(str(board), "--svg", "-", *extra, env=fake_solver(SPEC_OUTPUT))
    assert result.exit_code == 2
    assert clash.split()[0] in one_line(result.stderr.splitlines()[-1])


@pytest.mark.parametrize("command", ["svg", "generate"])
def test_a_loop_of_links_as_output_is_refused_and_stays_a_loop(tmp_path, board, command, fake_solver):
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    if command == "svg":
        result = run(str(board), "--svg", str(a), env=fake_solver(SPEC_OUTPUT))
    else:
        result = run("generate", "--count", "1", "--size", "4", "--out", str(a))
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"error: cannot write {a}: its symbolic links form a loop"
    assert a.is_symlink() and b.is_symlink()


def test_a_loop_of_links_as_source_says_so(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.symlink_to(b)
    b.symlink_to(a)
    result = run(str(a))
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"error: cannot read {a}: Too many levels of symbolic links"


def test_a_missing_folder_is_an_error_not_made_on_the_quiet(tmp_path, board, fake_solver):
    out = tmp_path / "nodir" / "x" / "y.svg"
    result = run(str(board), "--svg", str(out), env=fake_solver(SPEC_OUTPUT))
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"error: cannot write {out}: the folder {out.parent} does not exist"
    assert not (tmp_path / "nodir").exists()


def test_replacing_a_file_keeps_its_mode(tmp_path):
    book = tmp_path / "book.json"
    book.write_text("old")
    book.chmod(0o600)
    result = run("generate", "--count", "1", "--size", "4", "--out", str(book))
    assert result.exit_code == 0, result.stderr
    assert stat.S_IMODE(book.stat().st_mode) == 0o600
    assert book.read_text() != "old"


@pytest.mark.parametrize("command", ["svg", "generate"])
def test_a_read_only_file_is_not_replaced(tmp_path, board, command, fake_solver):
    out = tmp_path / "out"
    out.write_text("keep me")
    out.chmod(0o444)
    if command == "svg":
        result = run(str(board), "--svg", str(out), env=fake_solver(SPEC_OUTPUT))
    else:
        result = run("generate", "--count", "1", "--size", "4", "--out", str(out))
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        f"error: cannot write {out}: it is read-only; make it writable or give another name"
    )
    assert out.read_text() == "keep me"


def test_generate_to_dev_stdout_in_a_pipe_points_to_dash(tmp_path):
    result = subprocess.run(
        [sys.executable, "unflip.py", "generate", "--count", "1", "--size", "4", "--out", "/dev/stdout"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2
    assert one_line(result.stderr) == (
        "error: cannot write /dev/stdout: it is a FIFO, and only a regular file is replaced; "
        "give - for standard output"
    )


def test_write_atomically_keeps_the_mode_and_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "f.txt"
    target.write_text("old")
    target.chmod(0o640)
    write_atomically(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["f.txt"]


# --- smaller reading and option fixes -------------------------------------------------------------------


def test_a_seed_that_is_not_utf8_is_one_line_not_a_traceback(tmp_path):
    result = subprocess.run(
        [
            sys.executable,
            "unflip.py",
            "generate",
            "--size",
            "4",
            "--count",
            "2",
            "--seed",
            b"\xff",
            "--out",
            str(tmp_path / "x.json"),
            "--json",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "--seed" in result.stderr.strip().splitlines()[-1]
    assert not (tmp_path / "x.json").exists()


def test_a_board_with_lone_cr_line_ends_reads_as_with_newlines(tmp_path, fake_solver):
    env = fake_solver(SPEC_OUTPUT)
    result = run(str(write(tmp_path / "cr.txt", SPEC_BOARD.replace("\n", "\r"))), "--compact", env=env)
    assert result.exit_code == 0, result.stderr
    assert json.loads((tmp_path / "record.json").read_text())["stdin"] == SPEC_BOARD


def test_a_whole_par_written_as_a_float_is_read_as_that_number(tmp_path):
    book = write(tmp_path / "b.json", json.dumps({"levels": [{"tiles": [[2, 2], [2, 2]], "par": 1.0}]}))
    result = run(str(book), "--list")
    assert result.exit_code == 0, result.stderr
    assert "1.0" not in result.stdout and " 1 " in result.stdout


def test_a_book_name_in_capitals_gets_a_suggestion():
    result = run("DAILY", "5")
    assert result.exit_code == 2
    assert "did you mean 'daily'?" in one_line(result.stderr)
