"""`unflip hint`: from any position (a level, a board file of a game in progress, standard input), one move
of an optimal solution and how many moves remain after it, checked against the oracle's exhaustive
enumeration of the optimal move sets; a solved board and an unsolvable one each say so."""

from __future__ import annotations

import random
import re

import oracle
import pytest
from helpers import book_tiles, random_board_text
from oracle import all_moves, as_board, board_text, replay, uniform
from support import json_records, one_line, recorded, run, write, write_book

from unflip_frontend.boards import parse_board_text


def hint_json(board: oracle.Board, *args: str) -> dict:
    """The one record of a --json hint for the board, given on standard input."""
    result = run("hint", "-", "--json", *args, input=board_text(board))
    [record] = json_records(result)
    return record


def hinted_move(record: dict) -> oracle.Move:
    move = record["move"]
    return move["row"], move["col"], move["size"]


def check_hint(board: oracle.Board, target: int = 0) -> oracle.Move:
    """Ask for a hint and check it against the oracle: the move belongs to some optimal solution, the count
    after it is the optimum less one, and the board the move leaves needs exactly that many. Returns the
    move."""
    optimal_sets = oracle.optimal_solution_sets(board, target)
    assert optimal_sets, "premise: a board with a solution and a move to hint"
    optimum = len(next(iter(optimal_sets)))
    record = hint_json(board, "--target", str(target))
    assert (record["record"], record["target"]) == ("hint", target), record
    move = hinted_move(record)
    assert any(move in solution for solution in optimal_sets), (board_text(board), move, optimal_sets)
    assert record["moves_remaining"] == optimum - 1, (board_text(board), record)
    assert oracle.coset_optimum(replay(board, [move]), target) == optimum - 1
    return move


def mid_game(rng: random.Random, n: int) -> oracle.Board:
    """A position a player might reach: a solvable board, then some moves of an optimal solution (progress)
    and some random moves (mistakes), in no particular order."""
    start = oracle.random_solvable_board(rng, n)
    [*solution] = next(iter(oracle.optimal_solution_sets(start)), frozenset())
    progress = rng.sample(solution, rng.randint(0, len(solution)))
    mistakes = rng.sample(all_moves(n), rng.randint(0, 3))
    moves = progress + mistakes
    rng.shuffle(moves)
    return replay(start, moves)


@pytest.mark.parametrize(("n", "target"), [(4, 0), (5, 0), (5, 1), (6, 0)])
def test_every_hint_on_a_random_board_is_a_move_of_an_optimal_solution_with_the_right_count_after_it(
    n, target
):
    rng = random.Random(4100 + 10 * n + target)
    boards = [oracle.random_solvable_board(rng, n) for _ in range(40)]
    for board in boards:
        if board != uniform(n, target):
            check_hint(board, target)


@pytest.mark.parametrize("n", [4, 5, 6])
def test_every_hint_in_a_game_in_progress_is_a_move_of_an_optimal_solution_with_the_right_count_after_it(n):
    rng = random.Random(4200 + n)
    positions = [mid_game(rng, n) for _ in range(40)]
    positions = [position for position in positions if position != uniform(n, 0)]
    assert len(positions) >= 30, "premise: positions with moves still to make"
    for position in positions:
        check_hint(position)


@pytest.mark.parametrize("seed", range(3))
def test_following_the_hints_from_a_position_solves_it_in_exactly_the_optimum(seed):
    rng = random.Random(4300 + seed)
    position = mid_game(rng, 6)
    optimum = oracle.coset_optimum(position)
    for step in range(optimum):
        move = check_hint(position)
        position = replay(position, [move])
        assert oracle.coset_optimum(position) == optimum - step - 1
    assert position == uniform(6, 0)
    assert hint_json(position)["move_count"] == 0  # and then there is nothing left to hint


def test_a_hint_is_one_step_card_with_the_move_and_the_count_and_nothing_more(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    board = as_board(["00000", "00010", "00000", "01000", "00000"])  # the specification's board: 8 moves
    write(tmp_path / "position.txt", board_text(board))
    result = run("hint", "position.txt")
    assert result.exit_code == 0, result.stderr
    title, heading, *card = result.stdout.splitlines()
    assert title == "position.txt — 5×5"
    match = re.fullmatch(
        r"Hint — flip the (\d)×\1 square covering rows (\d)–\d, cols (\d)–\d; then 7 moves remain:", heading
    )
    assert match, heading
    size, row, col = int(match[1]), int(match[2]) - 1, int(match[3]) - 1
    assert any((row, col, size) in solution for solution in oracle.optimal_solution_sets(board))
    # The card is the board as it is, with the square outlined: pasted back, it reads as the position.
    assert parse_board_text("\n".join(card), "the card") == board
    assert len(card) == 1 + 5 + 2  # column numbers, the rows, the outline's top and bottom
    assert "Step" not in result.stdout and "Verified" not in result.stdout and "Optimal" not in result.stdout


def test_a_hint_that_solves_the_board_says_so():
    board = replay(uniform(5, 0), [(1, 2, 3)])
    result = run("hint", "-", input=board_text(board))
    assert result.exit_code == 0, result.stderr
    assert "Hint — flip the 3×3 square covering rows 2–4, cols 3–5; that solves the board:" in result.stdout


def test_the_same_position_gets_the_same_hint_from_a_level_a_board_file_and_standard_input(tmp_path):
    rng = random.Random(4400)
    tiles = book_tiles(oracle.board_from_random_moves(rng, 8, 9))
    book = write_book(tmp_path / "book.json", [{"tiles": tiles, "par": None}])
    board = board_text(oracle.book_board({"tiles": tiles}))
    file = write(tmp_path / "position.txt", board)
    runs = [
        run("hint", str(book), "1", "--json"),
        run("hint", str(file), "--json"),
        run("hint", "-", "--json", input=board),
        run("hint", "-", "--json", input=board),
    ]
    hints = {
        (record["move"]["row"], record["move"]["col"], record["move"]["size"], record["moves_remaining"])
        for result in runs
        for record in json_records(result)
    }
    assert len(hints) == 1, hints


def test_a_hint_runs_the_solver_on_one_thread_so_its_answer_is_always_the_same(tmp_path, fake_solver):
    env = fake_solver("TARGET 0\nMOVES 2\n1 1 2\n0 0 2\nNODES 3\nTIME 0\n")
    result = run("hint", str(write(tmp_path / "b.txt", "110\n101\n011\n")), "--json", env=env)
    assert result.exit_code == 0, result.stderr
    assert " ".join(recorded(tmp_path)["argv"]) == "--target 0 --threads 1"
    [record] = json_records(result)
    # Of the solution's moves, the first in reading order: the top row first, then the left.
    assert (hinted_move(record), record["moves_remaining"]) == ((0, 0, 2), 1)


def test_a_hint_from_a_solution_that_fails_replay_is_a_solver_failure_with_no_hint(tmp_path, fake_solver):
    env = fake_solver("TARGET 0\nMOVES 2\n1 1 2\n0 1 2\nNODES 3\nTIME 0\n")
    result = run("hint", str(write(tmp_path / "b.txt", "110\n101\n011\n")), env=env)
    assert result.exit_code == 4
    assert "Hint" not in result.stdout
    assert one_line(result.stderr).startswith("error: verification failed: replaying the solver's 2 moves")


@pytest.mark.parametrize(
    ("board", "args", "colour"),
    [
        ("0000\n0000\n0000\n0000\n", [], "white"),
        ("111\n111\n111\n", ["--target", "1"], "black"),
        ("111\n111\n111\n", ["--target", "either"], "black"),
    ],
    ids=["white", "black", "either"],
)
def test_a_hint_on_a_solved_board_says_it_is_solved_and_exits_0(board, args, colour):
    result = run("hint", "-", *args, input=board)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[1:] == [f"Already solved: every tile is {colour}; nothing to flip."]
    assert "Hint" not in result.stdout


def test_a_hint_on_a_solved_board_under_json_is_the_positions_solve_record_of_no_moves():
    record = hint_json(uniform(4, 0))
    assert (record["record"], record["outcome"], record["moves"], record["move_count"]) == (
        "solve",
        "solved",
        [],
        0,
    )
    assert record["exit_status"] == 0 and record["settings"]["threads"] == 1


def test_a_hint_on_an_unsolvable_board_says_so_and_exits_1():
    rng = random.Random(4500)
    boards = [oracle.random_board(rng, 4) for _ in range(40)]
    unsolvable = [board for board in boards if not oracle.is_solvable(board)][:5]
    assert unsolvable, "premise: random 4×4 boards that cannot be solved"
    for board in unsolvable:
        result = run("hint", "-", input=board_text(board))
        assert result.exit_code == 1
        assert one_line(result.stderr) == "unsolvable: no sequence of moves clears this board"
        assert "Hint" not in result.stdout
        record = hint_json(board)
        assert (record["record"], record["outcome"], record["exit_status"]) == ("solve", "unsolvable", 1)


def test_a_hint_stopped_by_its_budget_exits_3_with_the_proven_bound_and_no_move(tmp_path):
    position = write(tmp_path / "big.txt", random_board_text(13, 4600))
    result = run("hint", str(position), "--max-nodes", "1000")
    assert result.exit_code == 3
    assert re.fullmatch(
        r"stopped by budget: no solution with fewer than \d+ moves; searched [\d,]+ nodes in [\d.]+ s",
        one_line(result.stderr),
    )
    assert "Hint" not in result.stdout
    [record] = json_records(run("hint", str(position), "--max-nodes", "1000", "--json"))
    assert (record["record"], record["outcome"], record["settings"]["max_nodes"]) == (
        "solve",
        "stopped",
        1000,
    )


def test_a_hint_record_validates_and_its_move_replays_on_its_board_to_leave_the_count_it_gives():
    rng = random.Random(4700)
    for _ in range(5):
        board = mid_game(rng, 5)
        if board == uniform(5, 0):
            continue
        record = hint_json(board)
        after = replay(as_board(record["level"]["board"]), [hinted_move(record)])
        assert oracle.coset_optimum(after) == record["moves_remaining"]
        # The board in the record, given back to unflip, is the same position, with the same hint.
        assert hint_json(as_board(record["level"]["board"]))["move"] == record["move"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hint", "daily"], "error: daily is a book: give a level number (1–159)"),
        (["hint", "daily", "999"], None),
        (["hint", "{board}", "3"], "error: {board} is a single board: drop the level number"),
        (["hint", "{board}", "--threads", "2"], None),
    ],
    ids=["book without a level", "no such level", "board with a level", "threads"],
)
def test_a_hint_asked_for_wrongly_is_one_line_and_exit_status_2(tmp_path, args, message):
    board = str(write(tmp_path / "b.txt", "11\n11\n"))
    result = run(*[board if arg == "{board}" else arg for arg in args])
    assert result.exit_code == 2
    line = one_line(result.stderr)
    if message:
        assert line == message.replace("{board}", board)
    else:
        assert line.startswith("error: ")
