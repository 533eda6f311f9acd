"""What the front end's tests share: invoking the command line, writing boards and books, the
specification's example board with the solver output the specification prints for it, and reading --json
output against the schema."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from helpers import MAX_SIDE, MIN_SIDE, REPO, book_tiles, flipped
from jsonschema import Draft202012Validator

from unflip_frontend import api
from unflip_frontend.cli import cli

SPEC_BOARD = "00000\n00010\n00000\n01000\n00000\n"  # the specification's example: 8 moves
# The specification's own solver output for SPEC_BOARD.
SPEC_OUTPUT = (
    "TARGET 0\nMOVES 8\n1 1 2\n1 1 3\n0 3 2\n0 0 3\n0 0 5\n2 2 2\n2 2 3\n3 0 2\nNODES 65\nTIME 0.002\n"
)
SIDE_RANGE = f"each side must be {MIN_SIDE} to {MAX_SIDE} tiles"  # how the front end refuses a side
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def run(
    *args: str, env: dict[str, str] | None = None, input: str | None = None, prog: str = "unflip.py"
) -> Result:
    """Invoke the command line in-process; the solver still runs as a real subprocess."""
    return CliRunner().invoke(cli, list(args), env=env, input=input, prog_name=prog)


def one_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got {text!r}"
    return lines[0]


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def write_book(path: Path, levels: list[dict]) -> Path:
    return write(path, json.dumps({"levels": levels}))


def square_board(n: int, squares: list[tuple[int, int, int]]) -> list[list[int]]:
    """Book tiles of an all-white n×n board with the given squares flipped."""
    return book_tiles(flipped(n, squares))


def recorded(tmp_path: Path) -> dict:
    """What the fake solver (conftest.py) was given: its arguments and its standard input."""
    return json.loads((tmp_path / "record.json").read_text())


SCHEMA_FILE = REPO / "schema" / "unflip-output.schema.json"
SCHEMA = json.loads(SCHEMA_FILE.read_text())


def schema_errors(record: dict) -> list[str]:
    validator = Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)
    return [
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in validator.iter_errors(record)
    ]


def json_records(result: Result) -> list[dict]:
    """Standard output of a --json run as records, each checked against the schema; the run's exit status
    is in the last one, and in no other."""
    lines = result.stdout.splitlines()
    assert lines, f"no JSON on standard output; stderr: {result.stderr!r}"
    records = [json.loads(line) for line in lines]
    for record in records:
        assert not schema_errors(record), (record, schema_errors(record))
    assert [("exit_status" in record) for record in records] == [False] * (len(records) - 1) + [True]
    assert records[-1]["exit_status"] == result.exit_code, result.stderr
    return records


def solver_lower_bound(board: tuple[tuple[int, ...], ...]) -> int:
    """The root's bound as `unflip_solver --lower-bound` prints it, with nothing of the front end between."""
    text = "".join("".join(map(str, row)) + "\n" for row in board)
    solver = subprocess.run(
        [str(REPO / "unflip_solver"), "--lower-bound", "--quiet"], input=text, capture_output=True, text=True
    )
    found = re.search(r"LOWER_BOUND (\d+)", solver.stdout)
    assert found is not None, solver.stdout
    return int(found[1])


def no_second_bound_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any solver run for the root's bound alone fails the test: the signals read it off the listing's own
    search (solver.RootBound)."""

    def second_run(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a second solver run for the root's bound")

    monkeypatch.setattr(api, "lower_bound", second_run)
    monkeypatch.setattr(api, "root_bound", second_run)
