"""The game's move vectors: a level's solution as the game stores it, one 0/1 entry per move of the board's
shape, in the game's move order (the top-left column outermost, then the row, then the size from 2 up, over
the squares that fit; a tile's index is col + row·W). The front end's moves (boards.Move, 0-based top-left
corner) convert both ways; a vector replays on a board; a stored vector is checked with its fault in words.

The canonical optimal solution, which unflip writes first wherever it writes a level's solutions, is the
optimal solution whose moves, as indices in the game's move order, sorted, come first lexicographically: the
optimum that makes the game's earliest move it can, then the earliest it can after that, and so on. As a
string of digits its vector is the greatest of all the optima's. It is a property of the board alone, so it
is the same on every run, at every thread count and under every solver that proves the optimum; and it is
cheap: the solver's --all-solutions lists every optimum of a level in one search, and the canonical one is the
first of them in CANONICAL_ORDER. A board with more optima than a listing may hold gets the same vector from
least_optimum_by_probing, at one proof per move at most: 'is there an optimum that makes this move too?' is
'is the board with this move made one move closer to white?', which the solver answers like any board (the
reverse order, earliest move avoided, has no such question to ask)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

from .boards import (
    MIN_SIZE,
    SCHEMES,
    TWO,
    Board,
    Move,
    apply_move,
    colour_names,
    colours,
    in_scheme,
    moves_word,
    scheme_of,
    shape,
    shape_text,
)
from .errors import SolverError

Vector = tuple[int, ...]


@functools.cache
def game_moves(height: int, width: int) -> tuple[Move, ...]:
    """Every move of an H×W board, in the game's order."""
    return tuple(
        Move(row, col, size)
        for col in range(width)
        for row in range(height)
        for size in range(MIN_SIZE, min(width - col, height - row) + 1)
    )


@functools.cache
def move_indices(height: int, width: int) -> dict[Move, int]:
    return {move: index for index, move in enumerate(game_moves(height, width))}


def vector_length(height: int, width: int) -> int:
    return len(game_moves(height, width))


def moves_to_vector(moves: Iterable[Move], height: int, width: int, scheme: str = TWO) -> Vector:
    """The vector of a set of moves: how many times each is made. ValueError for a move that does not fit or
    is made once too often (a two-colour move made twice undoes itself, a tri move made three times)."""
    indices = move_indices(height, width)
    vector = [0] * len(indices)
    for move in moves:
        index = indices.get(move)
        if index is None:
            raise ValueError(f"{move} does not fit a {shape_text(height, width)} board")
        vector[index] += 1
        if vector[index] == SCHEMES[scheme]:
            raise ValueError(f"{move} is made {'twice' if scheme == TWO else 'three times'}")
    return tuple(vector)


def vector_to_moves(vector: Sequence[int], height: int, width: int, scheme: str = TWO) -> tuple[Move, ...]:
    """The moves a vector makes, in the game's order, a move made twice listed twice; ValueError, with
    vector_fault's words, for a vector that is not one of this shape's."""
    fault = vector_fault(vector, height, width, scheme)
    if fault is not None:
        raise ValueError(fault)
    made = zip(game_moves(height, width), vector, strict=True)
    return tuple(move for move, times in made for _ in range(times))


def vector_fault(vector: object, height: int, width: int, scheme: str = TWO) -> str | None:
    """Why a value is not a move vector of an H×W board of the scheme (not a list, the wrong length, an entry
    other than 0 or 1, or 0 to 2 under tri), in words that follow 'the vector'; None when it is one."""
    expected = vector_length(height, width)
    entries = "0 or 1" if scheme == TWO else "0, 1 or 2"
    if not isinstance(vector, list | tuple):
        return f"is {type(vector).__name__}, not a list of {expected} entries {entries}"
    if len(vector) != expected:
        return (
            f"has {len(vector)} entries, but a {shape_text(height, width)} board has {expected} moves "
            "(one entry each)"
        )
    # type() and not isinstance(): JSON's true and false are ints to Python, and the game's are not.
    values = range(SCHEMES[scheme])
    bad = next((i for i, times in enumerate(vector) if type(times) is not int or times not in values), None)
    if bad is not None:
        return f"has {vector[bad]!r} at entry {bad + 1}; every entry is {entries}"
    return None


def replay_vector(board: Board, vector: Sequence[int]) -> Board:
    """The board after the vector's moves."""
    height, width = shape(board)
    for move in vector_to_moves(vector, height, width, scheme_of(board)):
        board = apply_move(board, move)
    return board


def vector_board(vector: Sequence[int], height: int, width: int, scheme: str = TWO) -> Board:
    """The level a vector makes, as the game's editor makes it: the board its presses clear. The editor
    presses the other way from the player (1 → 2 → 3 → 1 of the game's tiles), so a tile is the number of
    presses that cover it, mod the colours: tile − 1 = (A·x) mod 3 under tri (of two colours, either way)."""
    tiles = [[0] * width for _ in range(height)]
    for move in vector_to_moves(vector, height, width, scheme):
        for r in range(move.row, move.row + move.size):
            for c in range(move.col, move.col + move.size):
                tiles[r][c] += 1
    modulus = SCHEMES[scheme]
    return in_scheme(tuple(tuple(tile % modulus for tile in row) for row in tiles), scheme)


def vector_problem(board: Board, vector: object, optimum: int | None) -> str | None:
    """What is wrong with a stored vector for this board, in words that follow 'the vector': not a vector of
    its shape, or its moves do not leave every tile white, or, given the proven optimum, it takes more moves;
    None for an optimal solution (or, with no optimum given, any solution)."""
    height, width = shape(board)
    fault = vector_fault(vector, height, width, scheme_of(board))
    if fault is not None:
        return fault
    assert isinstance(vector, list | tuple)
    after = replay_vector(board, vector)
    wrong = [(r, c) for r, row in enumerate(after) for c, tile in enumerate(row) if tile]
    weight = sum(vector)
    if wrong:
        r, c = wrong[0]
        solved = colour_names(board)[0]
        return (
            f"does not replay: its {moves_word(weight)} leave {len(wrong)} tiles not {solved} "
            f"(first at row {r + 1}, col {c + 1})"
        )
    if optimum is not None and weight > optimum:
        return f"is not optimal: {moves_word(weight)}, optimum {optimum}"
    return None


def canonical_key(vector: Sequence[int]) -> tuple[int, ...]:
    """Where a vector sorts in the canonical order: its moves' indices in the game's order, ascending, a move
    made twice twice."""
    return tuple(index for index, times in enumerate(vector) for _ in range(times))


def canonical_order(vectors: Iterable[Vector]) -> list[Vector]:
    """Optimal vectors (all of one weight) in the canonical order, the canonical one first."""
    return sorted(vectors, key=canonical_key)


# The optimum of a board (None when no moves clear it), proven; a caller whose budget runs out raises.
ProveOptimum = Callable[[Board], int | None]


def least_optimum_by_probing(
    board: Board, optimum: int, known: Iterable[Vector], prove_optimum: ProveOptimum
) -> Vector:
    """The canonical optimal solution of a board with the given proven optimum, without listing every
    optimum. In the game's order each move is taken when some optimum makes it along with the moves taken so
    far: when a known optimum does, or else when the board with the move made proves one move closer. A move
    passed over is in no optimum that makes the moves taken, so no later answer can bring it back. On a tri
    board a move taken is asked about once more, since an optimum may make it twice."""
    height, width = shape(board)
    known_keys = [canonical_key(vector) for vector in known]
    taken: list[int] = []
    remaining = optimum
    for index, move in enumerate(game_moves(height, width)):
        for _ in range(colours(board) - 1):
            if remaining == 0:
                break
            depth = len(taken)
            witnessed = any(key[:depth] == tuple(taken) and key[depth] == index for key in known_keys)
            after = apply_move(board, move)
            if not (witnessed or prove_optimum(after) == remaining - 1):
                break
            taken.append(index)
            board, remaining = after, remaining - 1
    if remaining or any(any(row) for row in board):
        raise SolverError(f"no solution of {moves_word(optimum)} found: the optimum given was not proven")
    return tuple(taken.count(index) for index in range(vector_length(height, width)))
