"""Boards past 15 a side, up to solver/contract.def's max_side (issue 37): the limit is the contract's at
every way a board comes in (the solver, a text board, a game link, a book's level, generate --size), and
every output works at 16 to 31 a side. The boards are a designer's, a few random presses, which the solver
proves at once; a move count is checked by the oracle's replay, never taken from the front end."""

from __future__ import annotations

import json
import random
import subprocess

import oracle
import pytest
from helpers import MAX_SIDE, MIN_SIDE, REPO, book_tiles
from oracle import board_text, replay, uniform
from support import SIDE_RANGE, json_records, one_line, run, write, write_book
from test_annotate import clears_in, vector_of
from test_rectangles import moves_in, solved_in

from unflip_frontend.boards import parse_board_text
from unflip_frontend.links import share_link

OVER = MAX_SIDE + 1  # the first side refused
WIDE = oracle.board_from_random_moves(random.Random(37), MAX_SIDE, 4)  # 31×31
TWENTY = oracle.board_from_random_moves(random.Random(20), 20, 6)
LONG = oracle.board_from_random_moves(random.Random(1631), 16, 5, w=MAX_SIDE)  # 16×31


# --- the limit, the same at every way in ---------------------------------------------------------


def ways_in(tmp_path, board: oracle.Board, vector_link: str) -> dict[str, list[str]]:
    """The front end's arguments that read this board: as a text board, a book's level, a game link of its
    tiles, and the given link of a solution vector."""
    height, width = oracle.shape(board)
    tiles = "_".join(str(tile) for row in book_tiles(board) for tile in row)
    return {
        "text board": [str(write(tmp_path / "b.txt", board_text(board)))],
        "book": [str(write_book(tmp_path / "book.json", [{"tiles": book_tiles(board)}])), "1"],
        "tile link": [f"s_{width}_{height}$m_2$t${tiles}"],
        "vector link": [vector_link],
    }


@pytest.mark.parametrize(
    ("height", "width"), [(MAX_SIDE, MAX_SIDE), (MAX_SIDE, MIN_SIDE), (MIN_SIDE, MAX_SIDE)]
)
def test_the_largest_sides_are_accepted_by_the_solver_a_text_board_a_book_and_a_link(tmp_path, height, width):
    board = replay(uniform(height, 0, width), [(0, 0, min(height, width))])  # one move from white
    solver = subprocess.run(
        [str(REPO / "unflip_solver"), "--quiet"], input=board_text(board), capture_output=True, text=True
    )
    assert solver.returncode == 0 and solver.stdout.startswith("TARGET 0\nMOVES 1\n"), solver.stderr
    vector = tuple(vector_of(height, width, [(0, 0, min(height, width))]))
    for way, args in ways_in(tmp_path, board, share_link(board, vector)).items():
        result = run(*args, "--compact")
        assert result.exit_code == 0, (way, result.stderr)
        assert solved_in(board, result.stdout) == 1, way


@pytest.mark.parametrize(("height", "width"), [(OVER, OVER), (OVER, MIN_SIDE), (MIN_SIDE, OVER)])
def test_one_side_past_the_largest_is_refused_in_one_line_naming_the_contracts_range_at_every_way_in(
    tmp_path, height, width
):
    board = uniform(height, 1, width)
    solver = subprocess.run(
        [str(REPO / "unflip_solver")], input=board_text(board), capture_output=True, text=True
    )
    assert (solver.returncode, solver.stdout) == (2, "")
    assert one_line(solver.stderr).endswith(f"each must be {MIN_SIDE} to {MAX_SIDE}")
    # Refused as it is read: no solver is needed to say so.
    for way, args in ways_in(tmp_path, board, f"s_{width}_{height}$m_2$v$0").items():
        result = run(*args, env={"UNFLIP_SOLVER": "/nonexistent"})
        assert (result.exit_code, result.stdout) == (2, ""), (way, result.output)
        assert one_line(result.stderr).endswith(SIDE_RANGE), way


def test_generate_takes_the_largest_side_and_refuses_one_past_it(tmp_path):
    made = run(
        "generate",
        "--size",
        f"{MAX_SIDE}x{MIN_SIDE}-{MAX_SIDE}",
        "--count",
        "1",
        "--seed",
        "w",
        "--out",
        str(tmp_path / "book.json"),
    )
    assert made.exit_code == 0, made.stderr
    level = json.loads((tmp_path / "book.json").read_text())["levels"][0]
    assert oracle.shape(oracle.book_board(level))[0] == MAX_SIDE
    refused = run("generate", "--size", str(OVER), "--count", "1", "--out", str(tmp_path / "no.json"))
    assert refused.exit_code == 2 and not (tmp_path / "no.json").exists()
    assert f"'{OVER}' is not a range within {MIN_SIDE}-{MAX_SIDE}" in one_line(refused.stderr)


# --- every output at 16 to 31 a side ---------------------------------------------------------------


@pytest.mark.parametrize("style", [[], ["--ascii"]], ids=["unicode", "ascii"])
def test_a_31_wide_step_card_fits_100_columns_and_pasted_back_is_the_board_before_its_move(tmp_path, style):
    result = run(str(write(tmp_path / "b.txt", board_text(WIDE))), "--no-color", *style)
    assert result.exit_code == 0, result.stderr
    assert max(map(len, result.stdout.splitlines())) <= 100
    cards = [card for card in result.stdout.split("\n\n") if card.startswith("Step ")]
    moves = moves_in(result.stdout)
    assert cards and len(cards) == len(moves)
    for step, card in enumerate(cards):
        board = card.split("\n", 1)[1]
        assert parse_board_text(board, "card") == replay(WIDE, moves[:step]), f"step {step + 1}"


def test_compact_and_json_on_a_16x31_board_list_moves_that_clear_it(tmp_path):
    path = str(write(tmp_path / "b.txt", board_text(LONG)))
    compact = run(path, "--compact")
    assert compact.exit_code == 0, compact.stderr
    count = solved_in(LONG, compact.stdout)
    record = json_records(run(path, "--json"))[-1]
    assert (record["level"]["height"], record["level"]["width"]) == (16, MAX_SIDE)
    assert oracle.as_board("\n".join(record["level"]["board"])) == LONG
    moves = [(move["row"], move["col"], move["size"]) for move in record["moves"]]
    assert len(moves) == count and replay(LONG, moves) == uniform(16, 0, MAX_SIDE)


def test_a_hint_on_a_20x20_board_is_a_move_that_leaves_the_count_it_gives(tmp_path):
    path = str(write(tmp_path / "b.txt", board_text(TWENTY)))
    record = json_records(run("hint", path, "--json"))[-1]
    move = record["move"]
    after = replay(TWENTY, [(move["row"], move["col"], move["size"])])
    assert record["moves_remaining"] == solved_in(TWENTY, run(path, "--compact").stdout) - 1
    assert record["moves_remaining"] == solved_in(
        after, run(str(write(tmp_path / "a.txt", board_text(after))), "--compact").stdout
    )


def test_annotate_a_book_holding_a_20x20_level_sets_its_par_and_a_vector_that_clears_it(tmp_path):
    book = write_book(tmp_path / "book.json", [{"tiles": book_tiles(TWENTY), "par": 1}])
    result = run("annotate", str(book), "--out", str(tmp_path / "fixed.json"))
    assert result.exit_code == 0, result.stderr
    level = json.loads((tmp_path / "fixed.json").read_text())["levels"][0]
    assert level["par"] == clears_in(level, level["solutionVector"]) > 1


def test_generate_at_20x20_makes_levels_whose_par_a_stored_vector_clears(tmp_path):
    result = run(
        "generate",
        "--size",
        "20",
        "--count",
        "2",
        "--unique",
        "--seed",
        "w",
        "--out",
        str(tmp_path / "book.json"),
    )
    assert result.exit_code == 0, result.stderr
    levels = json.loads((tmp_path / "book.json").read_text())["levels"]
    assert len(levels) == 2
    for level in levels:
        assert oracle.shape(oracle.book_board(level)) == (20, 20)
        assert level["par"] == clears_in(level, level["solutionVector"])
