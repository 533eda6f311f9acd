"""--json: every outcome of every command is records that validate against
schema/unflip-output.schema.json, with the run's exit status in the last record; the moves in a record
replay to its target on its own board, and that board, given back to unflip, solves the same."""

import copy
import json

import pytest
from helpers import random_board_text
from jsonschema import Draft202012Validator
from oracle import as_board, replay, uniform
from support import (
    SCHEMA,
    SPEC_BOARD,
    SPEC_OUTPUT,
    json_records,
    one_line,
    run,
    schema_errors,
    write,
    write_book,
)


def replays_to_target(record: dict, board: list[str] | None = None) -> bool:
    start = as_board(board or record["level"]["board"])
    moves = [(move["row"], move["col"], move["size"]) for move in record["moves"]]
    return replay(start, moves) == uniform(len(start), record["target"])


def test_the_schema_file_is_itself_a_valid_json_schema():
    Draft202012Validator.check_schema(SCHEMA)


def test_a_solved_board_is_one_record_whose_moves_replay_to_the_target_in_the_optimum(tmp_path):
    result = run(str(write(tmp_path / "board.txt", SPEC_BOARD)), "--json")
    [record] = json_records(result)
    assert (record["record"], record["outcome"], record["exit_status"]) == ("solve", "solved", 0)
    assert record["move_count"] == len(record["moves"]) == 8  # the specification's optimum
    assert record["optimal"] is record["verified"] is True
    assert record["level"]["board"] == SPEC_BOARD.split()
    assert replays_to_target(record)
    assert record["at_par"] is None  # a text board has no par


def test_the_board_in_a_record_read_back_as_a_text_board_solves_to_the_same_optimum():
    [first] = json_records(run("daily", "7", "--json"))
    again = run("-", "--json", input="\n".join(first["level"]["board"]) + "\n")
    [second] = json_records(again)
    assert second["move_count"] == first["move_count"] == first["level"]["par"]
    assert replays_to_target(second, first["level"]["board"])


def test_a_book_level_record_names_the_level_and_says_it_is_at_par():
    [record] = json_records(run("daily", "5", "--json"))
    level = record["level"]
    assert (level["name"], level["number"], level["title"]) == ("daily level 5", 5, "Daily #5")
    assert level["height"] == level["width"] == len(level["board"])
    assert record["at_par"] is True and record["move_count"] == level["par"]
    assert replays_to_target(record)


@pytest.mark.parametrize("target", ["1", "either"])
def test_the_target_asked_for_and_the_target_reached_are_both_recorded(tmp_path, target):
    board = write(tmp_path / "b.txt", "1111\n1111\n1100\n1100\n")  # black except one 2x2 square
    [record] = json_records(run(str(board), "--json", "--target", target))
    assert record["settings"]["target"] == target
    assert record["target"] == 1 and record["move_count"] == 1
    assert replays_to_target(record)


def test_an_unsolvable_board_is_a_record_with_no_moves_and_exit_status_1(tmp_path):
    result = run(str(write(tmp_path / "b.txt", "10\n00\n")), "--json")
    assert result.exit_code == 1
    [record] = json_records(result)
    assert record["outcome"] == "unsolvable" and "moves" not in record
    assert one_line(result.stderr) == "unsolvable: no sequence of moves clears this board"


def test_a_search_stopped_by_its_budget_records_the_proven_lower_bound_and_exit_status_3(tmp_path):
    result = run(str(write(tmp_path / "b.txt", random_board_text(13, 13))), "--json", "--max-nodes", "1000")
    assert result.exit_code == 3
    [record] = json_records(result)
    assert record["outcome"] == "stopped" and record["lower_bound"] >= 1
    assert record["settings"]["max_nodes"] == 1000 and "moves" not in record


@pytest.mark.parametrize(
    ("args", "board"),
    [
        (["no-such-file.txt"], None),
        (["{board}"], "01\n1x\n"),
        (["daily", "5", "--threads", "0"], None),
        (["daily", "5", "--step"], None),
        (["daily", "--all", "--svg", "out.svg"], None),
    ],
    ids=["missing file", "bad board", "bad option value", "--step with --json", "--svg with --all"],
)
def test_rejected_input_is_an_error_record_with_exit_status_2_and_the_same_line_on_stderr(
    tmp_path, args, board
):
    if board is not None:
        args = [str(write(tmp_path / "bad.txt", board)) if arg == "{board}" else arg for arg in args]
    result = run(*args, "--json")
    assert result.exit_code == 2
    [record] = json_records(result)
    assert (record["record"], record["outcome"]) == ("error", "rejected")
    assert one_line(result.stderr) == f"error: {record['message']}"


@pytest.mark.parametrize(
    ("stdout", "code", "signal_number"),
    [("", 0, 11), ("TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n", 0, None), ("TARGET 0\nMOVES 9\n", 0, None)],
    ids=["crash", "wrong answer", "malformed output"],
)
def test_a_solver_failure_is_an_error_record_with_exit_status_4(
    tmp_path, fake_solver, stdout, code, signal_number
):
    env = fake_solver(stdout, code=code, signal_number=signal_number)
    result = run(str(write(tmp_path / "b.txt", "1100\n1100\n0000\n0001\n")), "--json", env=env)
    assert result.exit_code == 4
    [record] = json_records(result)
    assert (record["record"], record["outcome"]) == ("error", "failed")


def test_list_is_one_record_with_every_level_and_its_board(tmp_path, small_book):
    book = write_book(tmp_path / "book.json", small_book)
    [record] = json_records(run(str(book), "--list", "--json"))
    assert record["record"] == "list" and len(record["levels"]) == 3
    for level, entry in zip(record["levels"], small_book, strict=True):
        tiles = [[int(ch) + 1 for ch in row] for row in level["board"]]
        assert tiles == entry["tiles"] and level["par"] == entry["par"]


def test_all_is_a_record_per_level_in_order_then_a_summary_that_passes(tmp_path, small_book):
    book = write_book(tmp_path / "book.json", small_book)
    result = run(str(book), "--all", "--json")
    assert result.exit_code == 0
    *levels, summary = json_records(result)
    assert [level["level"]["number"] for level in levels] == [1, 2, 3]
    assert all(level["record"] == "level" and replays_to_target(level) for level in levels)
    assert [level["at_par"] for level in levels] == [True, True, None]
    assert summary["record"] == "all"
    assert {
        key: summary[key] for key in ("levels", "finished", "solved", "with_par", "at_par", "failed")
    } == {
        "levels": 3,
        "finished": 3,
        "solved": 3,
        "with_par": 2,
        "at_par": 2,
        "failed": [],
    }
    assert summary["outcome"] == "passed"


def test_all_names_the_levels_the_book_is_wrong_about_in_the_summary_and_exits_1(tmp_path, small_book):
    small_book[1]["par"] = 3
    small_book.insert(0, {"tiles": [[2, 1], [1, 1]], "par": 1})  # unsolvable
    result = run(str(write_book(tmp_path / "book.json", small_book)), "--all", "--json")
    assert result.exit_code == 1
    *levels, summary = json_records(result)
    assert [level["failure_kind"] for level in levels] == ["book", None, "book", None]
    assert levels[2]["failure"] == "par 3, optimum 2, proven; the par should be 2"
    assert levels[2]["book_errors"] == [levels[2]["failure"]]
    assert levels[0]["failure"].startswith("par 1, but no moves clear this board, proven")
    assert (summary["outcome"], summary["failed"], summary["book_wrong"]) == ("failed", [1, 3], [1, 3])
    assert (summary["solver_failed"], summary["stopped"]) == ([], [])


def test_a_level_the_solver_fails_on_under_all_is_a_failed_level_record(tmp_path, fake_solver, small_book):
    env = fake_solver("garbage\n")
    result = run(str(write_book(tmp_path / "book.json", small_book[:1])), "--all", "--json", env=env)
    assert result.exit_code == 4
    level, summary = json_records(result)
    assert level["outcome"] == "failed" and level["error"].startswith("malformed solver output")
    assert level["failure_kind"] == "solver"
    assert (summary["failed"], summary["solver_failed"], summary["exit_status"]) == ([1], [1], 4)


def test_generate_records_the_book_it_wrote_level_by_level(tmp_path):
    out = tmp_path / "made.json"
    result = run("generate", "--size", "5", "--count", "3", "--seed", "j", "--out", str(out), "--json")
    [record] = json_records(result)
    book = json.loads(out.read_text())["levels"]
    assert record["out"] == str(out) and [level["par"] for level in record["levels"]] == [
        level["par"] for level in book
    ]
    assert [level["seed"] for level in record["levels"]] == [level["generator"]["seed"] for level in book]


def test_generate_with_json_needs_a_file_for_the_book():
    result = run("generate", "--count", "1", "--json")
    assert result.exit_code == 2
    [record] = json_records(result)
    assert "--out FILE" in record["message"]


SOLVED = {
    "schema": 1,
    "record": "solve",
    "level": {
        "name": "b.txt",
        "number": None,
        "title": None,
        "par": None,
        "height": 2,
        "width": 2,
        "board": ["11", "11"],
    },
    "settings": {"target": "0", "threads": None, "max_seconds": None, "max_nodes": None},
    "outcome": "solved",
    "target": 0,
    "moves": [{"row": 0, "col": 0, "size": 2}],
    "move_count": 1,
    "optimal": True,
    "verified": True,
    "at_par": None,
    "nodes": 1,
    "seconds": 0.0,
    "exit_status": 0,
}


def changed(**fields) -> dict:
    record = copy.deepcopy(SOLVED)
    for key, value in fields.items():
        if value is None:
            del record[key]
        else:
            record[key] = value
    return record


def test_the_schema_accepts_a_well_formed_solved_record():
    assert schema_errors(SOLVED) == []


@pytest.mark.parametrize(
    "record",
    [
        changed(lower_bound=1),
        changed(exit_status=1),
        changed(moves=None),
        changed(surprise=True),
        changed(outcome="stopped"),
        changed(moves=[{"row": 0, "col": 0, "size": 1}]),
        changed(schema=2),
    ],
    ids=[
        "bound on a solution",
        "wrong exit",
        "no moves",
        "unknown field",
        "fields of another outcome",
        "1x1 move",
        "another schema",
    ],
)
def test_the_schema_rejects_records_that_break_it(record):
    assert schema_errors(record)


def test_the_fields_reserved_for_later_features_already_validate():
    """All optimal solutions, a hint, and a rectangular board fit schema 1 as it stands."""
    every = changed(solutions=[SOLVED["moves"]], solution_count=1, enumeration_complete=False)
    rectangle = changed(level={**SOLVED["level"], "height": 2, "width": 3, "board": ["110", "110"]})
    hint = {
        "schema": 1,
        "record": "hint",
        "level": SOLVED["level"],
        "target": 0,
        "move": {"row": 0, "col": 0, "size": 2},
        "moves_remaining": 0,
        "exit_status": 0,
    }
    solution = {"schema": 1, "record": "solution", "index": 1, "target": 0, "moves": SOLVED["moves"]}
    assert [schema_errors(record) for record in (every, rectangle, hint, solution)] == [[], [], [], []]


def test_standard_output_has_nothing_but_the_record_when_solving(tmp_path, fake_solver):
    result = run(str(write(tmp_path / "b.txt", SPEC_BOARD)), "--json", env=fake_solver(SPEC_OUTPUT))
    assert result.stdout.count("\n") == 1 and result.stdout.startswith('{"schema": 1, "record": "solve"')
