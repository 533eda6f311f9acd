"""The oracle checked against itself: its three exact methods must agree wherever they overlap."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import oracle
import pytest
from helpers import tri_board_at, tri_optima_table, tri_table_index
from oracle import all_moves, board_from_mask, board_mask, replay, uniform


def test_bfs_from_the_all_zero_4x4_board_reaches_exactly_4096_boards():
    dist = oracle.bfs_distances_4x4()
    assert len(dist) == 4096
    assert dist[0] == 0


def test_bfs_distance_one_boards_are_exactly_the_14_single_moves():
    dist = oracle.bfs_distances_4x4()
    singles = {board_mask(replay(uniform(4, 0), [m])) for m in all_moves(4)}
    assert len(all_moves(4)) == 14
    assert {mask for mask, d in dist.items() if d == 1} == singles


def test_kernel_dimensions_are_2_8_20_for_4x4_5x5_6x6():
    assert [oracle.kernel_dimension(n) for n in (4, 5, 6)] == [2, 8, 20]


def test_coset_optimum_equals_the_bfs_distance_on_every_4x4_board():
    dist = oracle.bfs_distances_4x4()
    disagreements = [
        (mask, dist.get(mask), oracle.coset_optimum(board_from_mask(mask, 4)))
        for mask in range(1 << 16)
        if oracle.coset_optimum(board_from_mask(mask, 4)) != dist.get(mask)
    ]
    assert disagreements == []


def test_a_4x4_board_reaches_target_1_iff_it_reaches_target_0_and_the_optima_differ_by_at_most_one():
    dist = oracle.bfs_distances_4x4()
    full = (1 << 16) - 1
    for mask in range(1 << 16):
        to_zero, to_one = dist.get(mask), dist.get(mask ^ full)
        assert (to_zero is None) == (to_one is None), mask
        if to_zero is not None:
            assert abs(to_zero - to_one) <= 1, mask


def test_coset_target_1_agrees_with_bfs_on_the_complemented_4x4_board():
    dist = oracle.bfs_distances_4x4()
    full = (1 << 16) - 1
    rng = random.Random(41)
    for mask in rng.sample(range(1 << 16), 2000):
        assert oracle.coset_optimum(board_from_mask(mask, 4), target=1) == dist.get(mask ^ full), mask


@pytest.mark.parametrize("n", [5, 6])
def test_targets_0_and_1_are_reachable_together_and_their_optima_differ_by_at_most_one(n):
    rng = random.Random(100 + n)
    for _ in range(40):
        board = oracle.random_board(rng, n) if rng.random() < 0.5 else oracle.random_solvable_board(rng, n)
        zero, one = oracle.coset_optimum(board, 0), oracle.coset_optimum(board, 1)
        assert (zero is None) == (one is None), board
        if zero is not None:
            assert abs(zero - one) <= 1, board


@pytest.mark.parametrize("n, count", [(5, 12), (6, 8)])
def test_cpsat_agrees_with_coset_enumeration_on_random_boards_of_both_targets(n, count):
    rng = random.Random(7 * n)
    for i in range(count):
        board = oracle.random_solvable_board(rng, n)
        target = i % 2
        assert oracle.cpsat_optimum(board, target) == oracle.coset_optimum(board, target), board


@pytest.mark.parametrize("n", [4, 5, 6])
def test_cpsat_and_coset_both_report_unsolvable_boards_as_none(n):
    rng = random.Random(300 + n)
    found = 0
    while found < 3:
        board = oracle.random_board(rng, n)
        if oracle.coset_optimum(board) is None:
            found += 1
            assert not oracle.is_solvable(board)
            assert oracle.cpsat_optimum(board) is None, board


def test_cpsat_agrees_with_bfs_on_sample_4x4_boards():
    dist = oracle.bfs_distances_4x4()
    rng = random.Random(5)
    for mask in rng.sample(sorted(dist), 25):
        assert oracle.cpsat_optimum(board_from_mask(mask, 4)) == dist[mask], mask


@pytest.mark.parametrize("n", [5, 6, 7, 8])
def test_oracle_solutions_replay_to_the_target_and_never_exceed_the_moves_that_made_the_board(n):
    rng = random.Random(n)
    for _ in range(3):
        count = rng.randint(3, 9)
        board = oracle.board_from_random_moves(rng, n, count)
        solve = oracle.coset_solution if n <= 6 else oracle.cpsat_solution
        moves = solve(board)
        assert replay(board, moves) == uniform(n, 0)
        assert len(moves) <= count


@pytest.mark.parametrize("n", [2, 3, 5, 9])
def test_the_corner_lattice_moves_exactly_the_four_corners_of_each_move(n):
    zero = uniform(n, 0)
    for r, c, k in all_moves(n):
        lattice = oracle.corner_lattice(replay(zero, [(r, c, k)]))
        ones = {(i, j) for i in range(n + 1) for j in range(n + 1) if lattice[i][j]}
        assert ones == {(r, c), (r, c + k), (r + k, c), (r + k, c + k)}


def test_the_corner_lattice_is_all_zero_only_on_the_target_colour():
    rng = random.Random(9)
    for n in (2, 4, 7):
        assert not any(map(any, oracle.corner_lattice(uniform(n, 1), target=1)))
        assert any(map(any, oracle.corner_lattice(uniform(n, 1), target=0)))
        for _ in range(20):
            board = oracle.random_board(rng, n)
            if board != uniform(n, 0):
                assert any(map(any, oracle.corner_lattice(board)))


def test_from_7x7_on_the_moves_reach_every_board():
    # Checked by the rank of the tile/move matrix here; the solver tests rely on it when they
    # look for unsolvable boards only at sizes 2 to 6.
    for n in range(7, 16):
        assert len(all_moves(n)) - oracle.kernel_dimension(n) == n * n, n
    for n in range(2, 7):
        assert len(all_moves(n)) - oracle.kernel_dimension(n) < n * n, n


def test_random_solvable_boards_are_solvable_and_random_boards_mostly_are_not():
    rng = random.Random(11)
    for n in range(2, 16):
        assert all(oracle.is_solvable(oracle.random_solvable_board(rng, n)) for _ in range(3)), n
    # 4x4 solvable boards are 1 in 16, so 200 random boards without an unsolvable one would be a broken check.
    assert not all(oracle.is_solvable(oracle.random_board(rng, 4)) for _ in range(200))


def test_replay_rejects_moves_that_do_not_fit_and_undoes_a_move_applied_twice():
    board = oracle.as_board(["0110", "1001", "0000", "1111"])
    for bad in [(0, 0, 1), (0, 0, 5), (3, 0, 2), (0, 3, 2), (-1, 0, 2)]:
        with pytest.raises(ValueError):
            replay(board, [bad])
    for move in all_moves(4):
        assert replay(board, [move, move]) == board


def test_book_tiles_map_white_1_to_0_and_black_2_to_1_in_both_encodings():
    rows = {"tiles": [[1, 2, 1], [2, 2, 1], [1, 1, 1]]}
    flat = {"tiles": {"array": [1, 2, 1, 2, 2, 1, 1, 1, 1], "width": 3, "height": 3}}
    expected = ((0, 1, 0), (1, 1, 0), (0, 0, 0))
    assert oracle.book_board(rows) == expected
    assert oracle.book_board(flat) == expected


def test_book_tiles_of_a_rectangle_read_row_major_in_both_encodings():
    rows = {"tiles": [[1, 2, 1, 1], [2, 2, 1, 2]]}
    flat = {"tiles": {"array": [1, 2, 1, 1, 2, 2, 1, 2], "width": 4, "height": 2}}
    expected = ((0, 1, 0, 0), (1, 1, 0, 1))
    assert oracle.book_board(rows) == oracle.book_board(flat) == expected


def test_every_stored_book_solution_vector_clears_its_board_with_par_moves(books):
    for name in ("daily", "main"):
        for level in books[name]:
            board = oracle.book_board(level)
            n = len(board)
            vectors = list(level.get("solutions") or [])
            if level.get("solutionVector"):
                vectors.append(level["solutionVector"])
            assert vectors, (name, level["index"])
            for vector in vectors:
                moves = oracle.book_vector_moves(n, vector)
                assert replay(board, moves) == uniform(n, 0), (name, level["index"])
                if level.get("par") is not None:
                    assert len(moves) == level["par"], (name, level["index"])


def readme_solvable_share(h: int, w: int) -> Fraction:
    """The rule in docs/results.md ("Limits") for the share of h x w boards that can be solved."""
    short, long = sorted((h, w))
    if short == 2:
        return Fraction(1, 2 ** (long + 1))
    if short in (3, 4):
        return Fraction(1, 16)
    if short == 5:
        return Fraction(1, {3: 16, 4: 16, 5: 8, 6: 4}.get(long, 2))
    return Fraction(1, 2) if long == 6 else Fraction(1)


def test_the_solvable_share_of_every_shape_to_15x15_follows_the_readmes_rule():
    for h in range(2, 16):
        for w in range(2, 16):
            assert Fraction(oracle.solvable_fraction(h, w)) == readme_solvable_share(h, w), (h, w)


def test_a_rectangle_is_invariant_under_its_mirrors_and_never_under_a_turn_onto_its_side():
    board = oracle.as_board(["1001", "0110", "1001"])
    for group in ("left-right mirror", "up-down mirror", "half turn", "both mirrors"):
        assert oracle.is_invariant(board, group), group
    for group in ("diagonal mirror", "quarter turns", "every symmetry"):
        assert not oracle.is_invariant(board, group), group
    assert not oracle.is_invariant(oracle.as_board(["1000", "0110", "1001"]), "left-right mirror")


def test_cpsat_excluding_a_solution_finds_another_optimum_exactly_when_there_is_one():
    rng = random.Random(11)
    seen = set()
    for _ in range(30):
        board = oracle.random_solvable_board(rng, 5)
        sets = oracle.optimal_solution_sets(board)
        best = min(sets, key=sorted)
        other = oracle.cpsat_optimum(board, excluding=best)
        seen.add(len(sets) > 1)
        assert (other == len(best)) == (len(sets) > 1), board
    assert seen == {True, False}


# --- three colours (issue 36): the BFS table, brute force, GF(3) elimination, the coset and CP-SAT ------


def test_a_tri_press_turns_its_tiles_1_to_3_to_2_to_1_and_three_presses_do_nothing():
    board = oracle.as_tri_board(["123", "111", "111"])
    once = oracle.tri_replay(board, [(0, 0, 2)])
    assert once == ((3, 1, 3), (3, 3, 1), (1, 1, 1))
    assert oracle.tri_replay(board, [(0, 0, 2)] * 3) == board
    assert oracle.tri_board_made_by(3, 3, [(0, 0, 2)]) == ((2, 2, 1), (2, 2, 1), (1, 1, 1))
    with pytest.raises(ValueError):
        oracle.tri_replay(board, [(2, 2, 2)])


def test_the_presses_that_make_a_tri_board_solve_it():
    rng = random.Random(3601)
    for h, w in [(4, 4), (5, 7), (8, 3)]:
        presses = [rng.choice(all_moves(h, w)) for _ in range(12)]
        made = oracle.tri_board_made_by(h, w, presses)
        assert oracle.tri_replay(made, presses) == oracle.tri_solved(h, w)


@pytest.mark.parametrize(("h", "w"), [(3, 3), (4, 4), (3, 5), (2, 6)])
def test_the_tri_bfs_reaches_exactly_the_3_to_the_rank_boards_that_gf3_elimination_counts(h, w):
    table = tri_optima_table(h, w)
    rank = len(all_moves(h, w)) - oracle.tri_kernel_dimension(h, w)
    assert np.count_nonzero(table != 255) == 3**rank
    assert table[0] == 0
    singles = {tri_table_index(oracle.tri_board_made_by(h, w, [m])) for m in all_moves(h, w)}
    assert set(np.flatnonzero(table == 1).tolist()) == singles


def test_every_3x3_tri_board_gets_the_bfs_optimum_from_brute_force_over_every_press_vector():
    moves = all_moves(3, 3)
    best: dict[int, int] = {}
    for vector in itertools.product(range(3), repeat=len(moves)):
        index = tri_table_index(oracle.tri_board_made_by(3, 3, oracle.presses_of(vector, moves)))
        best[index] = min(best.get(index, 99), sum(vector))
    table = tri_optima_table(3, 3)
    assert {i: int(table[i]) for i in np.flatnonzero(table != 255).tolist()} == best
    assert all(oracle.tri_is_solvable(tri_board_at(i, 3, 3)) == (table[i] != 255) for i in range(3**9))


def test_every_solvable_3x3_tri_board_and_a_sample_of_the_others_get_the_bfs_optimum_from_cpsat():
    table = tri_optima_table(3, 3)
    unsolvable = np.flatnonzero(table == 255).tolist()
    cases = np.flatnonzero(table != 255).tolist() + random.Random(3603).sample(unsolvable, 60)
    wrong = [
        (i, table[i], got)
        for i in cases
        if (got := oracle.tri_cpsat_optimum(tri_board_at(i, 3, 3), workers=1, on_tiles=True))
        != (None if table[i] == 255 else table[i])
    ]
    assert wrong == []


def test_random_4x4_tri_boards_get_the_bfs_optimum_from_cpsat_the_coset_and_elimination():
    table = tri_optima_table(4, 4)
    rng = random.Random(3604)
    # Boards from uniform press vectors (all solvable) and from uniform tiles (one in 81 solvable), and
    # some of the deepest, 12 presses.
    deepest = np.flatnonzero(table == 12).tolist()
    boards = [oracle.random_tri_board(rng, 4) for _ in range(80)] + [
        oracle.random_tri_tiles(rng, 4) for _ in range(40)
    ]
    boards += [tri_board_at(i, 4, 4) for i in rng.sample(deepest, 12)]
    wrong = []
    for board in boards:
        depth = table[tri_table_index(board)]
        expected = None if depth == 255 else depth
        coset = oracle.tri_coset_optima(board)
        found = (
            oracle.tri_cpsat_optimum(board, workers=1),
            oracle.tri_cpsat_optimum(board, workers=1, on_tiles=True),
            None if coset is None else len(next(iter(coset))),
            oracle.tri_is_solvable(board),
        )
        if found != (expected, expected, expected, expected is not None):
            wrong.append((board, expected, found))
    assert wrong == []


def test_cpsat_enumerates_exactly_the_coset_optima_of_random_tri_boards():
    rng = random.Random(3605)
    boards = [oracle.random_tri_board(rng, 4) for _ in range(10)] + [
        oracle.random_tri_board(rng, 4, 5) for _ in range(5)
    ]
    boards += [oracle.random_tri_board(rng, 5) for _ in range(5)]
    for board in boards:
        assert oracle.tri_optimal_solutions(board) == oracle.tri_coset_optima(board), board
