"""Independent exact oracle for Unflip optima, used to check ./unflip_solver.

Nothing here is shared with the C++ solver. The BFS and the coset search work
on tiles directly (a move is the set of k*k tiles it flips); only the CP-SAT
model uses the corner lattice, because per-tile parity constraints make
CP-SAT far slower on 7x7 and up, and CP-SAT's own search is still unrelated
to the solver's IDA*.

Boards are tuples of rows of 0/1 ints (row-major, board[row][col]). A move is
(row, col, size): the top-left tile and the side of the square, as in the
solver's line protocol.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import random
from collections.abc import Iterable, Sequence
from fractions import Fraction

import numpy as np

Board = tuple[tuple[int, ...], ...]
Move = tuple[int, int, int]


class OracleError(RuntimeError):
    """The oracle could not prove an answer; a test hitting this must error, not pass."""


# --- boards and moves --------------------------------------------------------------------------


def as_board(rows: str | Iterable[str | Sequence[int]]) -> Board:
    """Accept "01\\n10", ["01", "10"] or [[0, 1], [1, 0]]; return a 0/1 board of equal rows."""
    if isinstance(rows, str):
        rows = rows.split()
    board = tuple(tuple(int(ch) for ch in row) for row in rows)
    if not board or not board[0] or any(len(row) != len(board[0]) for row in board):
        raise ValueError(f"not a rectangular board: {board!r}")
    if any(v not in (0, 1) for row in board for v in row):
        raise ValueError(f"tiles must be 0/1: {board!r}")
    return board


def board_text(board: Board) -> str:
    """The board in the solver's 0/1 input format."""
    return "".join("".join(str(v) for v in row) + "\n" for row in board)


def shape(board: Board) -> tuple[int, int]:
    return len(board), len(board[0])


def uniform(h: int, colour: int, w: int | None = None) -> Board:
    """The h x w board (square when w is omitted) of one colour."""
    return tuple(tuple([colour] * (w or h)) for _ in range(h))


def all_moves(h: int, w: int | None = None) -> list[Move]:
    """Every legal move on an h x w board (square when w is omitted): k from 2 to min(h, w), every
    top-left corner where it fits."""
    w = w or h
    return [(r, c, k) for k in range(2, min(h, w) + 1) for r in range(h - k + 1) for c in range(w - k + 1)]


def legal_move(h: int, w: int, move: Sequence[int]) -> Move:
    """The move as a (row, col, size) triple; ValueError when it is not a square that fits an h x w board."""
    r, c, k = move
    if not (2 <= k <= min(h, w) and 0 <= r and 0 <= c and r + k <= h and c + k <= w):
        raise ValueError(f"illegal move {tuple(move)} on a {h}x{w} board")
    return r, c, k


def replay(board: Board, moves: Iterable[Sequence[int]]) -> Board:
    """Apply moves to a board; raise ValueError on a move that is not legal on it."""
    h, w = shape(board)
    grid = [list(row) for row in board]
    for move in moves:
        r, c, k = legal_move(h, w, move)
        for i in range(r, r + k):
            for j in range(c, c + k):
                grid[i][j] ^= 1
    return tuple(tuple(row) for row in grid)


def board_mask(board: Board) -> int:
    """Tile (r, c) is bit r*w + c."""
    h, w = shape(board)
    return sum(1 << (r * w + c) for r in range(h) for c in range(w) if board[r][c])


def board_from_mask(mask: int, h: int, w: int | None = None) -> Board:
    w = w or h
    return tuple(tuple((mask >> (r * w + c)) & 1 for c in range(w)) for r in range(h))


def move_mask(w: int, move: Move) -> int:
    """The tiles a move flips, as a mask over a board w tiles wide."""
    r, c, k = move
    row_bits = ((1 << k) - 1) << c
    return sum(row_bits << (i * w) for i in range(r, r + k))


def random_board(rng: random.Random, h: int, w: int | None = None) -> Board:
    return board_from_mask(rng.getrandbits(h * (w or h)), h, w)


def random_solvable_board(rng: random.Random, h: int, w: int | None = None) -> Board:
    """Uniform over boards that reach all-0 (and so all-1).

    Solvable boards are exactly the image of the linear map from move subsets to
    tile flips, and a linear map sends the uniform distribution on its domain to
    the uniform distribution on its image, so a uniformly random move subset
    gives a uniformly random solvable board.
    """
    moves = [m for m in all_moves(h, w) if rng.getrandbits(1)]
    return replay(uniform(h, 0, w), moves)


def board_from_random_moves(rng: random.Random, h: int, count: int, w: int | None = None) -> Board:
    """count distinct random moves applied to all-0: the optimum is at most count."""
    return replay(uniform(h, 0, w), rng.sample(all_moves(h, w), count))


# --- breadth-first search, 4x4 -----------------------------------------------------------------


def bfs_distances_4x4() -> dict[int, int]:
    return bfs_distances(4, 4)


@functools.cache
def bfs_distances(h: int, w: int) -> dict[int, int]:
    """Distance from the all-0 h x w board to every board reachable from it, keyed by board_mask.

    Moves commute and undo themselves, so this is also every board's optimum for target 0.
    """
    masks = [move_mask(w, m) for m in all_moves(h, w)]
    dist = {0: 0}
    frontier = [0]
    depth = 0
    while frontier:
        depth += 1
        nxt = []
        for state in frontier:
            for m in masks:
                s = state ^ m
                if s not in dist:
                    dist[s] = depth
                    nxt.append(s)
        frontier = nxt
    return dist


# --- coset enumeration over GF(2), up to 6x6 ---------------------------------------------------


@functools.cache
def _reduced_system(h: int, w: int) -> tuple[list[Move], list[tuple[int, int, int]], list[int]]:
    """Row-reduce the tile/move incidence matrix once per size.

    Each tile equation is a bitmask over moves plus a bitmask over the original
    equations (which tiles' right-hand sides it sums), so a board's right-hand
    side can be pushed through the same elimination later.
    Returns (moves, [(pivot move, row over moves, combination of tiles)], zero-row combinations).
    """
    moves = all_moves(h, w)
    rows = []
    for r in range(h):
        for c in range(w):
            bits = 0
            for idx, (mr, mc, k) in enumerate(moves):
                if mr <= r < mr + k and mc <= c < mc + k:
                    bits |= 1 << idx
            rows.append([bits, 1 << (r * w + c)])
    pivots = []
    remaining = rows
    for col in range(len(moves)):
        bit = 1 << col
        hit = next((row for row in remaining if row[0] & bit), None)
        if hit is None:
            continue
        remaining = [row for row in remaining if row is not hit]
        for row in remaining:
            if row[0] & bit:
                row[0] ^= hit[0]
                row[1] ^= hit[1]
        for p in pivots:
            if p[1] & bit:
                p[1] ^= hit[0]
                p[2] ^= hit[1]
        pivots.append([col, hit[0], hit[1]])
    return moves, [tuple(p) for p in pivots], [row[1] for row in remaining]


def _parity(x: int) -> int:
    return x.bit_count() & 1


@functools.cache
def _kernel_table(h: int, w: int) -> np.ndarray:
    """All 2**dim move subsets that leave every tile unchanged, as uint64 bitmasks over moves."""
    moves, pivots, _ = _reduced_system(h, w)
    if len(moves) > 64:
        raise OracleError(f"{len(moves)} moves do not fit a 64-bit mask; coset enumeration stops at 6x6")
    pivot_cols = {p[0] for p in pivots}
    basis = []
    for f in range(len(moves)):
        if f in pivot_cols:
            continue
        vec = 1 << f
        for col, row, _ in pivots:
            if row >> f & 1:
                vec |= 1 << col
        basis.append(vec)
    table = np.zeros(1, dtype=np.uint64)
    for vec in basis:
        table = np.concatenate([table, table ^ np.uint64(vec)])
    return table


def kernel_dimension(h: int, w: int | None = None) -> int:
    moves, pivots, _ = _reduced_system(h, w or h)
    return len(moves) - len(pivots)


def solvable_fraction(h: int, w: int) -> float:
    """The share of h x w boards that can be solved: the moves reach 2**rank of the 2**(h*w) boards."""
    _, pivots, _ = _reduced_system(h, w)
    return 2.0 ** (len(pivots) - h * w)


def _particular(board: Board, target: int) -> int | None:
    h, w = shape(board)
    flip = board_mask(board)
    if target:
        flip ^= (1 << (h * w)) - 1
    _, pivots, zero_rows = _reduced_system(h, w)
    if any(_parity(comb & flip) for comb in zero_rows):
        return None
    x = 0
    for col, _, comb in pivots:
        if _parity(comb & flip):
            x |= 1 << col
    return x


def _solution_coset(board: Board, target: int) -> tuple[np.ndarray, list[Move]] | None:
    """Every move set taking board to all-`target`, as bit masks over the moves listed beside them (the
    particular solution plus each kernel element), or None when there is none."""
    h, w = shape(board)
    if len(all_moves(h, w)) > 64:
        raise OracleError(f"coset enumeration is for boards of at most 64 moves (6x6), not {h}x{w}")
    x = _particular(board, target)
    if x is None:
        return None
    return _kernel_table(h, w) ^ np.uint64(x), _reduced_system(h, w)[0]


def coset_solution(board: Board, target: int = 0) -> list[Move] | None:
    """A minimum-length move list taking board to all-`target`, or None when none exists.

    Enumerates the whole coset particular + kernel, so it is exact; meant for up to 64 moves (6x6)
    (2**20 candidates at 6x6).
    """
    board = as_board(board)
    coset = _solution_coset(board, target)
    if coset is None:
        return None
    candidates, moves = coset
    best = int(candidates[int(np.argmin(np.bitwise_count(candidates)))])
    solution = [moves[i] for i in range(len(moves)) if best >> i & 1]
    h, w = shape(board)
    if replay(board, solution) != uniform(h, target, w):
        raise OracleError(f"coset solution does not reach target {target}: {board!r}")
    return solution


def optimal_solution_sets(board: Board, target: int = 0) -> set[frozenset[Move]] | None:
    """Every minimum-length move set taking board to all-`target` (None when none exists), by
    enumerating the whole coset: exact, for boards of at most 64 moves."""
    board = as_board(board)
    coset = _solution_coset(board, target)
    if coset is None:
        return None
    candidates, moves = coset
    weights = np.bitwise_count(candidates)
    best = candidates[weights == weights.min()]
    sets = {frozenset(moves[i] for i in range(len(moves)) if int(c) >> i & 1) for c in best}
    h, w = shape(board)
    for solution in sets:
        if replay(board, solution) != uniform(h, target, w):
            raise OracleError(f"coset solution does not reach target {target}: {board!r}")
    return sets


def is_solvable(board: Board, target: int = 0) -> bool:
    """Whether any move set takes the board to all-`target`, by elimination in the tile domain."""
    return _particular(as_board(board), target) is not None


def coset_optimum(board: Board, target: int = 0) -> int | None:
    solution = coset_solution(board, target)
    return None if solution is None else len(solution)


# --- CP-SAT on the corner lattice, 7x7 and up --------------------------------------------------


def corner_lattice(board: Board, target: int = 0) -> list[list[int]]:
    """D[i][j] = t[i][j] ^ t[i-1][j] ^ t[i][j-1] ^ t[i-1][j-1] on (h+1)x(w+1) corners.

    t is the set of tiles still to flip; tiles outside the board count as 0.
    """
    h, w = shape(board)

    def t(i: int, j: int) -> int:
        return board[i][j] ^ target if 0 <= i < h and 0 <= j < w else 0

    return [
        [t(i, j) ^ t(i - 1, j) ^ t(i, j - 1) ^ t(i - 1, j - 1) for j in range(w + 1)] for i in range(h + 1)
    ]


def cpsat_solution(
    board: Board,
    target: int = 0,
    *,
    workers: int = 2,
    time_limit: float = 300.0,
    invariant_under: str | None = None,
    excluding: Iterable[Move] | None = None,
) -> list[Move] | None:
    """A proven minimum-length move list, or None when CP-SAT proves there is none.

    With `invariant_under`, only solutions that the named symmetry group maps to themselves count; with
    `excluding`, every solution but that set of moves (so an optimum no shorter than before means another
    optimal solution).
    Raises OracleError for any status other than OPTIMAL or INFEASIBLE (for
    instance the time limit), so an unproven answer can never pass a test.
    """
    from ortools.sat.python import cp_model

    board = as_board(board)
    h, w = shape(board)
    n = h  # symmetric solutions are asked for on square boards only
    d = corner_lattice(board, target)
    moves = all_moves(h, w)
    model = cp_model.CpModel()
    use = [model.new_bool_var(f"m{r}_{c}_{k}") for r, c, k in moves]
    touching: dict[tuple[int, int], list] = {}
    for var, (r, c, k) in zip(use, moves, strict=True):
        for corner in ((r, c), (r, c + k), (r + k, c), (r + k, c + k)):
            touching.setdefault(corner, []).append(var)
    for i in range(h + 1):
        for j in range(w + 1):
            lits = touching.get((i, j), [])
            if not lits:
                if d[i][j]:
                    return None
                continue
            # Parity as a linear equation with an integer slack rather than add_bool_xor: the
            # linear form feeds CP-SAT's LP relaxation, and with add_bool_xor some 7x7 boards with
            # 10-move optima ran past five minutes where this proves them in well under a second.
            half = model.new_int_var(0, len(lits) // 2, f"half{i}_{j}")
            model.add(sum(lits) == 2 * half + d[i][j])
    if invariant_under:
        index = {move: i for i, move in enumerate(moves)}
        for tile_map in SYMMETRY_GROUPS[invariant_under]:
            for i, move in enumerate(moves):
                model.add(use[i] == use[index[move_image(n, move, tile_map)]])
    if excluding is not None:
        left_out = set(excluding)
        # At least one move differs: one of the set unused, or one outside it used.
        model.add(sum(1 - var if m in left_out else var for var, m in zip(use, moves, strict=True)) >= 1)
    model.minimize(sum(use))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(model)
    if status == cp_model.INFEASIBLE:
        return None
    if status != cp_model.OPTIMAL:
        name = solver.status_name(status)
        raise OracleError(f"CP-SAT did not prove an optimum (status {name}) for {board!r}")
    solution = [m for var, m in zip(use, moves, strict=True) if solver.boolean_value(var)]
    if replay(board, solution) != uniform(h, target, w):
        raise OracleError(f"CP-SAT solution does not reach target {target}: {board!r}")
    if len(solution) != round(solver.objective_value):
        raise OracleError("CP-SAT objective disagrees with its own assignment")
    return solution


def cpsat_optimum(board: Board, target: int = 0, **kwargs) -> int | None:
    solution = cpsat_solution(board, target, **kwargs)
    return None if solution is None else len(solution)


def optimum(board: Board, target: int = 0) -> int | None:
    """The exact optimum by whichever oracle method suits the size."""
    board = as_board(board)
    h, w = shape(board)
    if h * w <= 20 and not target:
        return bfs_distances(h, w).get(board_mask(board))
    if len(all_moves(h, w)) <= 64:
        return coset_optimum(board, target)
    return cpsat_optimum(board, target)


# --- symmetric boards -------------------------------------------------------------------------

# Each subgroup of the square's eight symmetries, by generators acting on tiles (row, col) of an h×w board;
# a rectangle has only the mirrors and the half turn.
TileMap = tuple[str, ...]
_GENERATORS = {
    "left-right mirror": ("lr",),
    "up-down mirror": ("ud",),
    "diagonal mirror": ("diag",),
    "antidiagonal mirror": ("anti",),
    "half turn": ("half",),
    "quarter turns": ("quarter",),
    "both mirrors": ("lr", "ud"),
    "both diagonals": ("diag", "anti"),
    "every symmetry": ("quarter", "lr"),
}


def _apply(tile_map: TileMap, n: int, r: int, c: int, w: int | None = None) -> tuple[int, int]:
    """Where the map sends tile (r, c) of an n×n board, or of an n×w one for the rectangle's maps."""
    h, w = n, w or n
    for step in tile_map:
        r, c = {
            "lr": (r, w - 1 - c),
            "ud": (h - 1 - r, c),
            "diag": (c, r),
            "anti": (w - 1 - c, h - 1 - r),
            "half": (h - 1 - r, w - 1 - c),
            "quarter": (c, h - 1 - r),
        }[step]
    return r, c


_RECTANGLE_STEPS = {"lr", "ud", "half"}


def _closure(generators: tuple[str, ...]) -> list[TileMap]:
    """Every element of the generated group, as compositions of generators (checked on a 5×5 board)."""
    probe = [(r, c) for r in range(5) for c in range(5)]
    seen = {tuple(probe): ()}
    frontier = [()]
    while frontier:
        grown = []
        for word in frontier:
            for g in generators:
                candidate = (*word, g)
                image = tuple(_apply(candidate, 5, r, c) for r, c in probe)
                if image not in seen:
                    seen[image] = candidate
                    grown.append(candidate)
        frontier = grown
    return list(seen.values())


SYMMETRY_GROUPS: dict[str, list[TileMap]] = {name: _closure(gens) for name, gens in _GENERATORS.items()}


def move_image(n: int, move: Move, tile_map: TileMap) -> Move:
    r, c, k = move
    corners = [_apply(tile_map, n, r + dr, c + dc) for dr in (0, k - 1) for dc in (0, k - 1)]
    return (min(i for i, _ in corners), min(j for _, j in corners), k)


def symmetric_board(rng: random.Random, n: int, group: str) -> Board:
    """A random board the named group maps to itself: one random colour per orbit of tiles."""
    grid = [[-1] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            if grid[r][c] < 0:
                colour = rng.getrandbits(1)
                for tile_map in SYMMETRY_GROUPS[group]:
                    i, j = _apply(tile_map, n, r, c)
                    grid[i][j] = colour
    return tuple(tuple(row) for row in grid)


def is_invariant(board: Board, group: str) -> bool:
    """Whether every map of the group sends the board to itself; a rectangle is never invariant under a map
    that turns it on its side."""
    h, w = shape(board)
    if h != w and any(set(tile_map) - _RECTANGLE_STEPS for tile_map in SYMMETRY_GROUPS[group]):
        return False
    return all(
        board[r][c] == board[i][j]
        for tile_map in SYMMETRY_GROUPS[group]
        for r in range(h)
        for c in range(w)
        for i, j in [_apply(tile_map, h, r, c, w)]
    )


# --- the game's level books --------------------------------------------------------------------


def book_board(level: dict) -> Board:
    """Game tiles (1 = white, the goal; 2 = black) as solver digits (white -> 0, black -> 1).

    Books store a list of rows; other exports use {"array", "width", "height"} row-major.
    """
    tiles = level["tiles"]
    if isinstance(tiles, dict):
        w, h, flat = tiles["width"], tiles["height"], tiles["array"]
        if len(flat) != w * h:
            raise ValueError(f"tiles array of {len(flat)} entries is not a {h}x{w} board")
        rows = [flat[r * w : (r + 1) * w] for r in range(h)]
    else:
        rows = tiles
    colour = {1: 0, 2: 1}
    return as_board([[colour[v] for v in row] for row in rows])


def game_order(h: int, w: int) -> list[Move]:
    """The game's move order, the one its books' vectors use: top-left column outermost, then row, then
    size ascending, over the squares that fit (written here apart from game_vectors.py)."""
    return [(r, c, k) for c in range(w) for r in range(h) for k in range(2, min(w - c, h - r) + 1)]


def book_vector_moves(n: int, vector: Sequence[int]) -> list[Move]:
    """Decode a book's 0/1 move vector (game_order) on an n x n board."""
    order = game_order(n, n)
    if len(vector) != len(order):
        raise ValueError(f"move vector of length {len(vector)} on a {n}x{n} board, expected {len(order)}")
    return [m for m, bit in zip(order, vector, strict=True) if bit]


# --- the game's difficulty signals ---------------------------------------------------------------
# Written from the definitions in docs/designer.md, apart from difficulty.py: a tile's signature is the set of
# the chosen squares themselves, and the obvious score is summed term by term over every move.


def tile_signature(moves: Iterable[Move], r: int, c: int) -> frozenset[Move]:
    return frozenset(m for m in moves if m[0] <= r < m[0] + m[2] and m[1] <= c < m[1] + m[2])


def eric(h: int, w: int, moves: Iterable[Move]) -> int:
    """The distinct signatures of the tiles, the empty one always among them."""
    chosen = set(map(tuple, moves))
    return len({tile_signature(chosen, r, c) for r in range(h) for c in range(w)} | {frozenset()})


def framed(board: Board) -> list[list[int]]:
    """The board inside a frame of white tiles: what lies outside it."""
    h, w = shape(board)
    return [[0] * (w + 2)] + [[0, *row, 0] for row in board] + [[0] * (w + 2)]


def edges_across(frame: list[list[int]], move: Move) -> int:
    """Unit edges around the square whose inner and outer tiles differ, on the framed board."""
    r, c, k = move[0] + 1, move[1] + 1, move[2]
    across = 0
    for i in range(k):
        across += frame[r][c + i] != frame[r - 1][c + i]
        across += frame[r + k - 1][c + i] != frame[r + k][c + i]
        across += frame[r + i][c] != frame[r + i][c - 1]
        across += frame[r + i][c + k - 1] != frame[r + i][c + k]
    return across


def obvious(board: Board, moves: Iterable[Move]) -> Fraction:
    """The mean over every move of the level of (edges across / 4k - chosen)², the terms of one size k
    summed over their common denominator (4k)²."""
    h, w = shape(board)
    chosen = set(map(tuple, moves))
    frame = framed(board)
    every = all_moves(h, w)
    by_size: dict[int, int] = {}
    for m in every:
        by_size[m[2]] = by_size.get(m[2], 0) + (edges_across(frame, m) - 4 * m[2] * (m in chosen)) ** 2
    return sum((Fraction(total, 16 * k * k) for k, total in by_size.items()), Fraction(0)) / len(every)


def rounded_half_up(value: Fraction) -> int:
    """JavaScript's Math.round, on an exact value: the nearest whole number, a half going up."""
    return math.floor(value * 2 + 1) // 2


SYMMETRY_NAMES = {  # the oracle's groups by the names unflip gives them
    "left-right mirror": "mirror",
    "up-down mirror": "mirror-ud",
    "diagonal mirror": "diagonal",
    "antidiagonal mirror": "antidiagonal",
    "half turn": "half-turn",
    "quarter turns": "quarter-turn",
    "both mirrors": "mirrors",
    "both diagonals": "diagonals",
    "every symmetry": "square",
}


def symmetry_name(board: Board) -> str:
    """unflip's name of the largest group the board is invariant under (its whole symmetry group, since
    every subgroup of the square's is listed), or "none"."""
    invariant = [name for name in _GENERATORS if is_invariant(board, name)]
    if not invariant:
        return "none"
    return SYMMETRY_NAMES[max(invariant, key=lambda name: len(SYMMETRY_GROUPS[name]))]


def generator_figures(board: Board) -> dict[str, Fraction]:
    """The game generator's figures, as exact fractions: black share, bounding-box compactness, the best
    agreement with an image that differs from the board (the generator skips an image equal to the board),
    and density, 1 at half black."""
    h, w = shape(board)
    n = h * w
    black = [(r, c) for r in range(h) for c in range(w) if board[r][c]]
    compact = Fraction(0)
    if black:
        height = max(r for r, _ in black) - min(r for r, _ in black) + 1
        width = max(c for _, c in black) - min(c for _, c in black) + 1
        compact = 1 - Fraction(height * width, n)
    maps = SYMMETRY_GROUPS["every symmetry" if h == w else "both mirrors"]
    best = 0
    for tile_map in maps:
        images = [(r, c, *_apply(tile_map, h, r, c, w)) for r in range(h) for c in range(w)]
        same = sum(board[r][c] == board[i][j] for r, c, i, j in images)
        if same != n:
            best = max(best, same)
    share = Fraction(len(black), n)
    return {
        "black_fraction": share,
        "compactness": compact,
        "symmetry_score": Fraction(best, n),
        "density": 1 - abs(share - Fraction(1, 2)) * 2,
    }


def signals_over(board: Board, optima: Sequence[Iterable[Move]]) -> dict[str, object]:
    """The least and greatest Eric number and obvious score over the optima given, each with the first
    solution (moves sorted, solutions in sorted order) attaining it, and the editor's rounded figures."""
    h, w = shape(board)
    solutions = sorted(tuple(sorted(map(tuple, moves))) for moves in optima)
    par = len(solutions[0])
    figures: dict[str, object] = {}
    for name, measure in (("eric", lambda s: eric(h, w, s)), ("obvious", lambda s: obvious(board, s))):
        scores = [measure(solution) for solution in solutions]
        low, high = min(scores), max(scores)
        figures |= {
            f"min_{name}": low,
            f"max_{name}": high,
            f"min_{name}_solution": solutions[scores.index(low)],
            f"max_{name}_solution": solutions[scores.index(high)],
        }
    # The game's level menu shows 0 for a par of 0.
    figures["eric_per_par"] = rounded_half_up(Fraction(10 * figures["min_eric"], par)) if par else 0
    figures["obvious_per_par"] = rounded_half_up(1000 * figures["min_obvious"] / par) if par else 0
    figures["obvious_100"] = rounded_half_up(100 * figures["min_obvious"])
    return figures


# --- three colours ("tri", issue 36) -----------------------------------------------------------
# A tri board is a tuple of rows of the game's tile numbers 1, 2, 3 (1 cream, the solved colour; 2 blue;
# 3 red), as the solver reads them under --scheme tri (docs/protocol.md). A press of a square turns every
# tile in it one step, 1 -> 3 -> 2 -> 1: writing c = tile - 1, c -> c - 1 mod 3, so a tile showing c
# needs c presses of the squares over it, mod 3. A solution is a multiset of presses (a square pressed
# twice is listed twice; three presses of one square do nothing, so an optimum presses each at most
# twice), its length the par. Written from that rule alone, apart from the two-colour code above and
# from the solver: the arithmetic is on tiles, never on the solver's corner lattice.

TriBoard = tuple[tuple[int, ...], ...]


def as_tri_board(rows: str | Iterable[str | Sequence[int]]) -> TriBoard:
    """Accept "13\\n21", ["13", "21"] or [[1, 3], [2, 1]]; return a board of equal rows of tiles 1..3."""
    if isinstance(rows, str):
        rows = rows.split()
    board = tuple(tuple(int(ch) for ch in row) for row in rows)
    if not board or not board[0] or any(len(row) != len(board[0]) for row in board):
        raise ValueError(f"not a rectangular board: {board!r}")
    if any(v not in (1, 2, 3) for row in board for v in row):
        raise ValueError(f"tri tiles must be 1, 2 or 3: {board!r}")
    return board


def tri_board_text(board: TriBoard) -> str:
    """The board in the solver's --scheme tri input format: lines of the digits 1..3."""
    return board_text(board)


def tri_solved(h: int, w: int) -> TriBoard:
    return uniform(h, 1, w)


def tri_replay(board: TriBoard, presses: Iterable[Sequence[int]]) -> TriBoard:
    """Apply presses in order, each turning its square's tiles 1 -> 3 -> 2 -> 1; ValueError on a square that
    does not fit."""
    h, w = shape(board)
    needs = [[v - 1 for v in row] for row in board]
    for press in presses:
        r, c, k = legal_move(h, w, press)
        for i in range(r, r + k):
            for j in range(c, c + k):
                needs[i][j] = (needs[i][j] - 1) % 3
    return tuple(tuple(v + 1 for v in row) for row in needs)


def tri_board_made_by(h: int, w: int, presses: Iterable[Sequence[int]]) -> TriBoard:
    """The board a creator makes by pressing these squares in the editor (each turns its tiles the other
    way, 1 -> 2 -> 3 -> 1): tile - 1 = (A x) mod 3, the game's link rule; the presses solve it."""
    needs = [[0] * w for _ in range(h)]
    for press in presses:
        r, c, k = legal_move(h, w, press)
        for i in range(r, r + k):
            for j in range(c, c + k):
                needs[i][j] = (needs[i][j] + 1) % 3
    return tuple(tuple(v + 1 for v in row) for row in needs)


def presses_of(vector: Sequence[int], moves: Sequence[Move]) -> list[Move]:
    """A press vector (0..2 per move, moves in the order given) as the list of its presses, sorted."""
    return sorted(m for m, times in zip(moves, vector, strict=True) for _ in range(times))


def random_tri_board(rng: random.Random, h: int, w: int | None = None) -> TriBoard:
    """The board a uniformly random press vector (0..2 per square) makes: solvable by construction, and
    uniform over the solvable boards (the image of a uniform vector under a linear map is uniform on the
    image), so dense."""
    w = w or h
    moves = all_moves(h, w)
    return tri_board_made_by(h, w, presses_of([rng.randrange(3) for _ in moves], moves))


def tri_board_from_random_presses(rng: random.Random, h: int, count: int, w: int | None = None) -> TriBoard:
    """A designer's board: count presses of squares drawn at random (a square may come up twice), so the
    optimum is at most count."""
    w = w or h
    moves = all_moves(h, w)
    return tri_board_made_by(h, w, [rng.choice(moves) for _ in range(count)])


def random_tri_tiles(rng: random.Random, h: int, w: int | None = None) -> TriBoard:
    """Every tile drawn from 1..3 alone: most such boards of a small shape cannot be solved."""
    return tuple(tuple(rng.randint(1, 3) for _ in range(w or h)) for _ in range(h))


@functools.cache
def _tri_reduced_system(
    h: int, w: int
) -> tuple[list[Move], list[tuple[int, list[int], list[int]]], list[list[int]]]:
    """The tile equations Σ_{squares over j} x = c_j row-reduced over GF(3) once per shape, each row
    carrying beside its move coefficients the combination of tile equations it is (so a board's right-hand
    side goes through the same elimination later). Returns (moves, [(pivot move, row over moves, combination
    over tiles)], the combinations of the rows left all zero over the moves)."""
    moves = all_moves(h, w)
    tiles = h * w
    rows = [
        [int(mr <= r < mr + k and mc <= c < mc + k) for mr, mc, k in moves]
        + [int(t == r * w + c) for t in range(tiles)]
        for r in range(h)
        for c in range(w)
    ]
    rank = 0
    pivots = []
    for col in range(len(moves)):
        pivot = next((i for i in range(rank, len(rows)) if rows[i][col]), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        inverse = rows[rank][col]  # 1 and 2 are their own inverses mod 3
        rows[rank] = [v * inverse % 3 for v in rows[rank]]
        for i in range(len(rows)):
            if i != rank and rows[i][col]:
                factor = rows[i][col]
                rows[i] = [(a - factor * b) % 3 for a, b in zip(rows[i], rows[rank], strict=True)]
        pivots.append(col)
        rank += 1
    split = len(moves)
    reduced = [(col, rows[i][:split], rows[i][split:]) for i, col in enumerate(pivots)]
    return moves, reduced, [row[split:] for row in rows[rank:]]


def _tri_particular(board: TriBoard) -> list[int] | None:
    """One press vector solving the board (free moves 0), or None when it has none."""
    board = as_tri_board(board)
    h, w = shape(board)
    needs = [v - 1 for row in board for v in row]
    moves, reduced, zero_rows = _tri_reduced_system(h, w)

    def combined(combination: list[int]) -> int:
        return sum(a * b for a, b in zip(combination, needs, strict=True)) % 3

    # A row all zero over the moves whose right-hand side is not: 0 = nonzero, no solution.
    if any(combined(combination) for combination in zero_rows):
        return None
    vector = [0] * len(moves)
    for col, _, combination in reduced:
        vector[col] = combined(combination)
    return vector


def tri_is_solvable(board: TriBoard) -> bool:
    """Whether presses can take the board to all 1s: whether c = tile - 1 is in the span of the squares'
    incidence columns over GF(3), by Gaussian elimination mod 3 on the tile equations."""
    return _tri_particular(board) is not None


def tri_kernel_dimension(h: int, w: int) -> int:
    moves, reduced, _ = _tri_reduced_system(h, w)
    return len(moves) - len(reduced)


def tri_coset_optima(board: TriBoard) -> set[tuple[Move, ...]] | None:
    """Every fewest-presses solution, each its sorted presses, or None when there is none, by enumerating
    the whole coset: every press vector in {0, 1, 2}^moves that solves the board is the particular one plus
    a combination of the kernel basis mod 3, and each is one solution, its cost Σ x. Exact; 3^dim
    candidates (3^8 at 5x5, 3^4 at 4x5), meant for dim up to about 12."""
    board = as_tri_board(board)
    h, w = shape(board)
    particular = _tri_particular(board)
    if particular is None:
        return None
    moves, reduced, _ = _tri_reduced_system(h, w)
    if tri_kernel_dimension(h, w) > 12:
        raise OracleError(f"a {h}x{w} board's coset has 3^{tri_kernel_dimension(h, w)} vectors: too many")
    pivot_cols = [col for col, _, _ in reduced]
    coset = np.array([particular], dtype=np.int64)
    for free in sorted(set(range(len(moves))) - set(pivot_cols)):
        basis = np.zeros(len(moves), dtype=np.int64)
        basis[free] = 1
        for col, row, _ in reduced:
            basis[col] = -row[free] % 3
        coset = np.concatenate([coset, (coset + basis) % 3, (coset + 2 * basis) % 3])
    costs = coset.sum(axis=1)
    optima = {tuple(presses_of(list(vector), moves)) for vector in coset[costs == costs.min()].tolist()}
    if any(tri_replay(board, s) != tri_solved(h, w) for s in optima):
        raise OracleError(f"a coset solution does not solve {board!r}")
    return optima


def _tri_model(board: TriBoard, on_tiles: bool):  # type: ignore[no-untyped-def]
    """CP-SAT's model of the board, x in {0, 1, 2} per square. On tiles (the definition): for every tile j,
    the presses over it Σ x = c_j + 3 y_j, y_j a bounded integer. On corners (the default, as for two
    colours: CP-SAT proves 6x6 boards there in seconds where the tile model runs past minutes): the same
    equations through the 2D difference D_p = c(i, j) - c(i-1, j) - c(i, j-1) + c(i-1, j-1) (tiles off the
    board 0), invertible, so equivalent; a square's corners (r, c), (r, c+k), (r+k, c), (r+k, c+k) carry
    +1, -1, -1, +1, and at every corner p  Σ ±x = D_p + 3 y_p.  Returns (model, x, moves)."""
    from ortools.sat.python import cp_model

    h, w = shape(board)
    moves = all_moves(h, w)
    model = cp_model.CpModel()
    presses = [model.new_int_var(0, 2, f"x{r}_{c}_{k}") for r, c, k in moves]

    def needs(i: int, j: int) -> int:
        return board[i][j] - 1 if 0 <= i < h and 0 <= j < w else 0

    terms: dict[tuple[int, int], list] = {}
    for x, (r, c, k) in zip(presses, moves, strict=True):
        if on_tiles:
            for i in range(r, r + k):
                for j in range(c, c + k):
                    terms.setdefault((i, j), []).append(x)
        else:
            for corner, sign in (((r, c), 1), ((r, c + k), -1), ((r + k, c), -1), ((r + k, c + k), 1)):
                terms.setdefault(corner, []).append(sign * x)
    for i in range(h + (not on_tiles)):
        for j in range(w + (not on_tiles)):
            # Every tile lies under a square, but a corner of the frame may lie under none.
            over = terms.get((i, j), [])
            value = (
                needs(i, j)
                if on_tiles
                else (needs(i, j) - needs(i - 1, j) - needs(i, j - 1) + needs(i - 1, j - 1)) % 3
            )
            reach = 2 * len(over)  # |Σ ±x| is at most this
            turns = model.new_int_var(-(reach // 3) - 1, reach // 3 + 1, f"y{i}_{j}")
            model.add(sum(over) == value + 3 * turns)
    return model, presses, moves


@dataclasses.dataclass(frozen=True)
class TriCpsatRun:
    """One CP-SAT run on a tri board: its status name ("OPTIMAL", "INFEASIBLE", "FEASIBLE" or "UNKNOWN" when
    the time limit stopped it), the best presses found (sorted; None without any), the best bound, and the
    solve's wall seconds (the model already built)."""

    status: str
    presses: list[Move] | None
    bound: float
    seconds: float


def tri_cpsat_run(
    board: TriBoard, *, workers: int = 2, time_limit: float = 300.0, on_tiles: bool = False
) -> TriCpsatRun:
    """CP-SAT minimising the presses on the board's model; whatever it proved within the time limit (the
    benchmark's peer, bench/tri.py, reads it as is). A solution it returns is replayed first."""
    from ortools.sat.python import cp_model

    board = as_tri_board(board)
    h, w = shape(board)
    model, presses, moves = _tri_model(board, on_tiles)
    model.minimize(sum(presses))
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(model)
    solution = None
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        solution = presses_of([solver.value(x) for x in presses], moves)
        if tri_replay(board, solution) != tri_solved(h, w):
            raise OracleError(f"CP-SAT's tri solution does not solve {board!r}")
        if len(solution) != round(solver.objective_value):
            raise OracleError("CP-SAT objective disagrees with its own assignment")
    return TriCpsatRun(solver.status_name(status), solution, solver.best_objective_bound, solver.wall_time)


def tri_cpsat_solution(
    board: TriBoard, *, workers: int = 2, time_limit: float = 300.0, on_tiles: bool = False
) -> list[Move] | None:
    """A proven fewest-presses solution, its presses sorted (a double press twice), or None when CP-SAT
    proves there is none. Raises OracleError for any status but OPTIMAL or INFEASIBLE (the time limit), so
    an unproven answer can never pass a test."""
    run = tri_cpsat_run(board, workers=workers, time_limit=time_limit, on_tiles=on_tiles)
    if run.status not in ("OPTIMAL", "INFEASIBLE"):
        raise OracleError(f"CP-SAT did not prove a tri optimum (status {run.status}) for {board!r}")
    return run.presses


def tri_cpsat_optimum(board: TriBoard, **kwargs: float | bool) -> int | None:
    solution = tri_cpsat_solution(board, **kwargs)  # type: ignore[arg-type]
    return None if solution is None else len(solution)


def tri_optimal_solutions(board: TriBoard, *, time_limit: float = 120.0) -> set[tuple[Move, ...]] | None:
    """Every fewest-presses solution, each its sorted presses (a multiset: a double press twice), or None
    when the board cannot be solved: CP-SAT proves the optimum, then enumerates every assignment of the
    model with Σ x equal to it. Exact; meant for small boards (one worker, as enumeration needs)."""
    from ortools.sat.python import cp_model

    board = as_tri_board(board)
    best = tri_cpsat_optimum(board, time_limit=time_limit)
    if best is None:
        return None
    model, presses, moves = _tri_model(board, on_tiles=False)
    model.add(sum(presses) == best)
    found: set[tuple[Move, ...]] = set()

    class Collect(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def on_solution_callback(self) -> None:
            found.add(tuple(presses_of([self.value(x) for x in presses], moves)))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = time_limit
    status = solver.solve(model, Collect())
    if status != cp_model.OPTIMAL:  # OPTIMAL: the enumeration finished (FEASIBLE would mean it was cut short)
        raise OracleError(
            f"CP-SAT did not finish enumerating (status {solver.status_name(status)}) {board!r}"
        )
    h, w = shape(board)
    if any(tri_replay(board, s) != tri_solved(h, w) for s in found):
        raise OracleError(f"an enumerated tri solution does not solve {board!r}")
    return found
