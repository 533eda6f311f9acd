"""The command line itself: help, the default command, --version, suggestions for mistyped words, the
range options and the solver's own ranges, --target's words, and shell completion."""

import re

import click
import pytest
from helpers import MAX_SIDE, MIN_SIDE, REPO
from support import one_line, recorded, run, write

from unflip_frontend import __version__
from unflip_frontend.cli import solve


def test_help_shows_the_positional_forms_every_option_with_an_example_and_the_commands():
    result = run("--help")
    assert result.exit_code == 0
    help_text = result.stdout
    assert help_text.startswith("Usage: unflip.py [OPTIONS] SOURCE [LEVEL]\n")
    assert "python unflip.py path/to/book.json 3" in help_text
    assert re.search(r"^Commands:\n  solve ", help_text, re.M)
    options = [p for p in solve.params if isinstance(p, click.Option)]
    for option in options:
        assert option.opts[0] in help_text
        assert "Example:" in option.help, option.opts


def test_help_gives_the_sides_of_a_board_as_the_solvers_contract_does():
    help_text = " ".join(run("--help").stdout.split())  # as one line, however the help wraps
    assert f"H lines of W digits, {MIN_SIDE} to {MAX_SIDE} each" in help_text and "{sides}" not in help_text


def test_running_with_no_arguments_shows_the_help():
    result = run()
    assert result.exit_code == 2
    assert "Usage: unflip.py [OPTIONS] SOURCE [LEVEL]" in result.output


def test_the_installed_commands_help_names_it_in_every_example():
    help_text = run("--help", prog="unflip").stdout
    assert help_text.startswith("Usage: unflip [OPTIONS] SOURCE [LEVEL]\n")
    assert "\n    unflip path/to/book.json 3  " in help_text
    assert "Example: unflip daily --list" in help_text
    assert "unflip.py" not in help_text and "{prog}" not in help_text


def test_version_prints_the_package_version_and_exits_0():
    result = run("--version")
    assert result.exit_code == 0
    assert result.stdout == f"unflip {__version__}\n"


def test_the_version_is_a_release_number():
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


# --- mistyped words -----------------------------------------------------------------------------------------


def test_a_mistyped_command_is_named_with_the_command_it_resembles():
    result = run("genrate", "--size", "5")
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        "error: No such command 'genrate'. Did you mean 'generate'? (see 'unflip.py --help')"
    )


def test_a_file_named_like_a_mistyped_command_is_still_solved(tmp_path, monkeypatch, fake_solver):
    env = fake_solver("TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n")
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "genrate", "11\n11\n")
    result = run("genrate", "--compact", env=env)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("genrate — 2×2\nOptimal: 1 move")


# --- the range options --------------------------------------------------------------------------------------


def test_size_and_optimum_show_a_range_metavar_in_the_help():
    help_text = run("generate", "--help").stdout
    assert re.search(r"^  --size N\|A-B\|HxW ", help_text, re.M)
    assert re.search(r"^  --optimum N\|A-B ", help_text, re.M)


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--size", str(MAX_SIDE + 1), f"'{MAX_SIDE + 1}' is not a range within {MIN_SIDE}-{MAX_SIDE}"),
        ("--size", "9-4", f"'9-4' is not a range within {MIN_SIDE}-{MAX_SIDE}"),
        ("--size", f"7x{MAX_SIDE + 1}", f"'{MAX_SIDE + 1}' is not a range within {MIN_SIDE}-{MAX_SIDE}"),
        ("--size", "7x", "expected N, A-B or HxW, not '7x'"),
        ("--size", "3x4x5", "expected N, A-B or HxW, not '3x4x5'"),
        ("--size", "ax5", "expected N or A-B, not 'a'"),
        ("--optimum", "3-x", "expected N or A-B, not '3-x'"),
        ("--optimum", "0-4", "'0-4' is not a range within 1-200"),
    ],
)
def test_a_range_outside_its_limits_or_malformed_is_one_line_naming_the_option(option, value, message):
    result = run("generate", option, value)
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        f"error: Invalid value for '{option}': {message} (see 'unflip.py generate --help')"
    )


# --- shell completion ---------------------------------------------------------------------------------------


def complete(line: str) -> list[str]:
    """What bash completion offers for the last word of line, as click's bash script reads it."""
    words = line.split(" ")
    env = {"_UNFLIP_COMPLETE": "bash_complete", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)}
    result = run(env=env, prog="unflip")
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_the_first_word_completes_to_files_book_names_and_commands():
    offered = complete("unflip ")
    assert offered[0] == "file,"  # first: bash's script starts over at a file item
    assert set(offered[1:]) == {
        f"plain,{name}"
        for name in (
            "daily",
            "main",
            "weekly",
            "solve",
            "hint",
            "generate",
            "books",
            "annotate",
            "share",
            "page",
            "check-certificate",
            "report",
        )
    }


def test_a_partial_book_name_completes_to_that_book_with_or_without_solve():
    assert complete("unflip we") == ["file,we", "plain,weekly"]
    assert complete("unflip solve da") == ["file,da", "plain,daily"]


def test_the_bash_completion_script_is_printed_for_the_installed_command():
    result = run(env={"_UNFLIP_COMPLETE": "bash_source"}, prog="unflip")
    assert result.exit_code == 0
    assert "_UNFLIP_COMPLETE=bash_complete" in result.stdout
    assert "complete -o nosort -F _unflip_completion unflip" in result.stdout


# --- the solver's option ranges, checked before the solver runs ---------------------------------------------


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["board.txt", "--threads", "2000"], "--threads"),
        (["board.txt", "--max-seconds", "1e-9"], "--max-seconds"),
        (["board.txt", "--max-seconds", "1e10"], "--max-seconds"),
        (["board.txt", "--max-seconds", "nan"], "--max-seconds"),
        (["board.txt", "--max-seconds", "inf"], "--max-seconds"),
        (["board.txt", "--max-nodes", "99999999999999999999999"], "--max-nodes"),
        (["generate", "--threads", "100000"], "--threads"),
    ],
)
def test_a_value_the_solver_would_refuse_is_bad_input_naming_the_option(monkeypatch, args, option):
    monkeypatch.chdir(REPO)
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert one_line(result.stderr).startswith(f"error: Invalid value for '{option}': ")


@pytest.mark.parametrize(
    ("args", "passed"),
    [
        (["--threads", "1024", "--max-seconds", "0.001"], ["--threads", "1024", "--max-seconds", "0.001"]),
        (
            ["--max-seconds", "1e9", "--max-nodes", str(2**64 - 1)],
            ["--max-seconds", "1000000000.0", "--max-nodes", str(2**64 - 1)],
        ),
    ],
)
def test_the_ends_of_the_solvers_ranges_are_accepted_and_passed_on(tmp_path, fake_solver, args, passed):
    env = fake_solver("TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n")
    result = run(str(write(tmp_path / "b.txt", "11\n11\n")), *args, env=env)
    assert result.exit_code == 0, result.output
    argv = recorded(tmp_path)["argv"]
    assert " ".join(passed) in " ".join(argv)


@pytest.mark.parametrize(("word", "digit"), [("white", "0"), ("black", "1"), ("either", "either")])
def test_target_takes_the_colour_names_beside_the_digits(tmp_path, fake_solver, word, digit):
    reported = "1" if word == "black" else "0"
    env = fake_solver(f"TARGET {reported}\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n")
    board = "00\n00\n" if word == "black" else "11\n11\n"
    result = run(str(write(tmp_path / "b.txt", board)), "--target", word, "--compact", env=env)
    assert result.exit_code == 0, result.output
    assert recorded(tmp_path)["argv"][:2] == ["--target", digit]
