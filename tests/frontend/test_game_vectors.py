"""game_vectors.py: the game's move order on squares and rectangles, moves and vectors both ways, a vector
replayed, a stored vector's fault named, and the canonical optimum: the first of every optimum in the
canonical order, which probing finds too without the list. Checked against the independent oracle and the
official main book's stored vectors."""

from __future__ import annotations

import random

import oracle
import pytest
from oracle import as_board, replay, uniform

from unflip_frontend.boards import Move
from unflip_frontend.game_vectors import (
    canonical_key,
    canonical_order,
    game_moves,
    least_optimum_by_probing,
    moves_to_vector,
    replay_vector,
    vector_length,
    vector_problem,
    vector_to_moves,
)

SHAPES = [(2, 2), (4, 4), (5, 5), (3, 5), (5, 3), (2, 7), (6, 4)]


@pytest.mark.parametrize(("height", "width"), SHAPES)
def test_the_move_order_is_the_games_column_then_row_then_size_on_squares_and_rectangles(height, width):
    assert [(m.row, m.col, m.size) for m in game_moves(height, width)] == oracle.game_order(height, width)
    assert vector_length(height, width) == len(oracle.all_moves(height, width))


@pytest.mark.parametrize("n", range(2, 9))
def test_the_move_order_on_squares_is_the_one_the_oracle_decodes_books_with(n):
    vector = [1] * vector_length(n, n)
    moves = vector_to_moves(vector, n, n)
    assert [(m.row, m.col, m.size) for m in moves] == oracle.book_vector_moves(n, vector)


@pytest.mark.parametrize(("height", "width"), SHAPES)
def test_moves_and_vectors_convert_both_ways_and_a_vector_replays_as_its_moves(height, width):
    rng = random.Random(height * 100 + width)
    for _ in range(20):
        vector = tuple(rng.randint(0, 1) for _ in range(vector_length(height, width)))
        moves = vector_to_moves(vector, height, width)
        assert moves_to_vector(reversed(moves), height, width) == vector
        white = uniform(height, 0, width)
        expected = replay(white, [(m.row, m.col, m.size) for m in moves])
        assert replay_vector(white, vector) == expected


def test_a_move_that_does_not_fit_or_is_made_twice_has_no_vector():
    with pytest.raises(ValueError, match="does not fit"):
        moves_to_vector([Move(0, 3, 2)], 4, 4)
    with pytest.raises(ValueError, match="made twice"):
        moves_to_vector([Move(0, 0, 2), Move(0, 0, 2)], 4, 4)


def test_every_stored_vector_of_the_official_main_book_replays_to_white_in_its_par(books):
    for level in books["main"]:
        board = oracle.book_board(level)
        for vector in [*level["solutions"], level["solutionVector"]]:
            assert vector_problem(board, vector, level["par"]) is None
            moves = [(m.row, m.col, m.size) for m in vector_to_moves(vector, *oracle.shape(board))]
            height, width = oracle.shape(board)
            assert replay(board, moves) == uniform(height, 0, width)
            assert level["par"] is None or len(moves) == level["par"]


BOARD = as_board(["1100", "1100", "0000", "0000"])  # one 2×2 move clears it


def game_vector(height: int, width: int, moves: list[oracle.Move]) -> list[int]:
    return [int(move in moves) for move in oracle.game_order(height, width)]


# The whole board and three of its 2×2 corners flip what the fourth corner does: 4 moves where 1 will do.
LONG_WAY = game_vector(4, 4, [(0, 2, 2), (2, 0, 2), (2, 2, 2), (0, 0, 4)])


@pytest.mark.parametrize(
    ("vector", "words"),
    [
        ([0] * 13, "has 13 entries, but a 4×4 board has 14 moves (one entry each)"),
        ([2] + [0] * 13, "has 2 at entry 1; every entry is 0 or 1"),
        ([True] + [0] * 13, "has True at entry 1; every entry is 0 or 1"),
        ("1" * 14, "is str, not a list of 14 entries 0 or 1"),
        ([0] * 14, "does not replay: its 0 moves leave 4 tiles not white (first at row 1, col 1)"),
        (LONG_WAY, "is not optimal: 4 moves, optimum 1"),
    ],
)
def test_a_stored_vector_that_is_not_an_optimal_solution_is_named_with_its_fault(vector, words):
    assert vector_problem(BOARD, vector, 1) == words


def test_an_optimal_vector_has_no_fault_and_without_an_optimum_any_solution_has_none():
    assert vector_problem(BOARD, game_vector(4, 4, [(0, 0, 2)]), 1) is None
    assert vector_problem(BOARD, LONG_WAY, None) is None


def oracle_optima(board: oracle.Board) -> list[tuple[int, ...]]:
    h, w = oracle.shape(board)
    order = oracle.game_order(h, w)
    sets = oracle.optimal_solution_sets(board)
    assert sets is not None
    return [tuple(int(move in chosen) for move in order) for chosen in sets]


def solvable_boards(seed: int, count: int) -> list[oracle.Board]:
    rng = random.Random(seed)
    shapes = [(4, 4), (5, 5), (3, 5), (4, 6)]
    return [oracle.random_solvable_board(rng, *shapes[i % len(shapes)]) for i in range(count)]


def test_the_canonical_order_sorts_by_the_moves_indices_so_its_first_is_the_greatest_digit_string():
    boards = [board for board in solvable_boards(7, 40) if len(oracle.optimal_solution_sets(board) or ()) > 1]
    assert len(boards) >= 5
    for board in boards:
        optima = oracle_optima(board)
        ordered = canonical_order(optima)
        assert [canonical_key(v) for v in ordered] == sorted(canonical_key(v) for v in optima)
        digits = ["".join(map(str, v)) for v in optima]
        assert "".join(map(str, ordered[0])) == max(digits)


@pytest.mark.parametrize("known_share", [0.0, 0.5])
def test_probing_finds_the_canonical_optimum_without_the_list(known_share):
    rng = random.Random(11)
    for board in solvable_boards(3, 24):
        optima = canonical_order(oracle_optima(board))
        known = [v for v in optima if rng.random() < known_share]
        found = least_optimum_by_probing(board, sum(optima[0]), known, oracle.coset_optimum)
        assert found == optima[0]
