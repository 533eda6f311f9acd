"""The level generator and the three books it ships: solvable levels, par the proven optimum, made again
byte for byte from their seeds."""

import json
import os
import signal
import stat
import subprocess
import sys
import time

import oracle
import pytest
from helpers import MAX_SIDE, REPO
from support import one_line, run

from unflip_frontend.books import BOOK_FILES
from unflip_frontend.errors import InputError
from unflip_frontend.files import write_atomically
from unflip_frontend.generator import (
    GENERATOR_VERSION,
    SHIPPED_BOOKS,
    Plan,
    Shapes,
    scrambled_board,
    symmetry_key,
)

# The generator's names of symmetry groups, and the oracle's.
# The generator's yardstick for --min-gap: the solver's root bound without the parity rows.
COVERING_BOUND = ("--lower-bound", "--parity-rounds", "0", "--quiet")

ORACLE_GROUPS = {
    "mirror": "left-right mirror",
    "mirror-ud": "up-down mirror",
    "half-turn": "half turn",
    "mirrors": "both mirrors",
    "diagonal": "diagonal mirror",
    "antidiagonal": "antidiagonal mirror",
    "diagonals": "both diagonals",
    "quarter-turn": "quarter turns",
    "square": "every symmetry",
}
RECTANGLE_GROUPS = ["mirror", "mirror-ud", "half-turn", "mirrors"]


def shipped_levels(kind: str) -> list[dict]:
    return json.loads((REPO / BOOK_FILES[kind]).read_text())["levels"]


def shipped_parts(kind: str):
    """Each plan of a shipped book with the levels it made, in order."""
    levels = shipped_levels(kind)
    parts, start = [], 0
    for plan in SHIPPED_BOOKS[kind]:
        parts.append((plan, levels[start : start + plan.count]))
        start += plan.count
    assert start == len(levels)
    return parts


def remade(level: dict) -> tuple:
    """The board a level's generator record makes again."""
    made = level["generator"]
    height, width = (made["size"],) * 2 if "size" in made else (made["height"], made["width"])
    return scrambled_board(height, width, made["scramble"], made["seed"], made.get("symmetry"))


@pytest.mark.parametrize("kind", ["daily", "main", "weekly"])
def test_each_shipped_book_has_the_planned_count_sizes_and_par_range(kind):
    for plan, levels in shipped_parts(kind):
        for level in levels:
            n = len(level["tiles"])
            assert plan.shapes.widths is None and plan.shapes.heights[0] <= n <= plan.shapes.heights[1]
            assert all(len(row) == n for row in level["tiles"])
            assert isinstance(level["par"], int) and plan.optimum[0] <= level["par"] <= plan.optimum[1]
            assert any(2 in row for row in level["tiles"]), "a level must not be solved already"
    low, high = SHIPPED_BOOKS[kind][0].shapes.heights
    assert {len(level["tiles"]) for level in shipped_levels(kind)} == set(range(low, high + 1))


def test_the_shipped_books_mirror_the_games_shape():
    def counts_and_shapes(kind):
        return sum(plan.count for plan in SHIPPED_BOOKS[kind]), {plan.shapes for plan in SHIPPED_BOOKS[kind]}

    assert counts_and_shapes("daily") == (159, {Shapes((4, 10))})
    assert counts_and_shapes("main") == (120, {Shapes((4, 9))})
    assert counts_and_shapes("weekly") == (25, {Shapes((9, 13))})
    assert min(level["par"] for level in shipped_levels("weekly")) >= 14
    assert all(level["mode"] == "challenge" for level in shipped_levels("weekly"))


def test_every_weekly_challenge_is_symmetric_under_its_recorded_group_like_the_games_own():
    groups = set()
    for level in shipped_levels("weekly"):
        group = level["generator"]["symmetry"]
        assert oracle.is_invariant(oracle.book_board(level), ORACLE_GROUPS[group]), level["id"]
        groups.add(group)
    assert groups == {"square", "half-turn", "quarter-turn", "mirror", "diagonals"}


def test_the_last_weekly_challenges_are_harder_to_prove_than_any_before_them(run_solver):
    """Their optimum is at least 4 over the covering bound at the start; every other challenge's is less."""
    gaps = []
    for level in shipped_levels("weekly"):
        root = run_solver(oracle.board_text(oracle.book_board(level)), *COVERING_BOUND)
        assert root.outcome == "lower bound", root.describe()
        gaps.append(level["par"] - root.bound)
    hard = SHIPPED_BOOKS["weekly"][-1]
    assert hard.min_gap == 4 and all(gap >= 4 for gap in gaps[-hard.count :]), gaps
    assert max(gaps[: -hard.count]) < 4, gaps


def test_a_sample_of_weekly_challenges_has_one_optimal_solution_by_cpsat():
    """The oracle finds an optimal solution, then the best solution other than it: it is longer. Two 9×9
    challenges: on the larger boards, and the last challenges with their larger gaps, CP-SAT takes seconds
    to minutes; --unique is checked on small boards by enumeration below."""
    levels = shipped_levels("weekly")
    for level in (levels[3], levels[10]):
        board = oracle.book_board(level)
        assert len(board) == 9
        best = oracle.cpsat_solution(board)
        assert len(best) == level["par"]
        assert oracle.cpsat_optimum(board, excluding=best) > level["par"], level["id"]


def test_no_two_shipped_levels_are_the_same_even_rotated_or_reflected():
    keys = [
        symmetry_key(oracle.book_board(level))
        for kind in ("daily", "main", "weekly")
        for level in shipped_levels(kind)
    ]
    assert len(keys) == len(set(keys))


def test_the_symmetry_key_is_the_same_for_all_eight_images_of_a_board():
    board = ((1, 0, 0), (1, 1, 0), (0, 0, 0))
    rotated = tuple(zip(*board[::-1], strict=True))
    mirrored = tuple(row[::-1] for row in board)
    transposed = tuple(zip(*board, strict=True))
    keys = {symmetry_key(b) for b in (board, rotated, mirrored, transposed)}
    assert len(keys) == 1
    assert symmetry_key(((1, 1, 0), (0, 0, 0), (0, 0, 0))) != symmetry_key(board)


def test_main_levels_rise_in_difficulty_by_par_then_size():
    order = [(level["par"], len(level["tiles"])) for level in shipped_levels("main")]
    assert order == sorted(order)


@pytest.mark.parametrize("kind", ["daily", "main", "weekly"])
def test_a_sample_of_shipped_levels_is_remade_exactly_from_its_recorded_seed(kind, run_solver):
    levels = shipped_levels(kind)
    for level in levels[:: max(1, len(levels) // 12)]:
        made = level["generator"]
        assert made["version"] == GENERATOR_VERSION
        board = remade(level)
        assert board == oracle.book_board(level), made
        result = run_solver(oracle.board_text(board), "--threads", "2")
        assert result.move_count == level["par"], result.describe()


@pytest.mark.parametrize("kind", ["daily", "main", "weekly"])
def test_shipped_par_is_the_optimum_an_independent_method_proves(kind):
    """Exhaustive coset enumeration for 6x6 and below, CP-SAT above: the oracle shares no code with the
    solver that set the par."""
    levels = shipped_levels(kind)
    small = [level for level in levels if len(level["tiles"]) <= 6][:8]
    large = [level for level in levels if len(level["tiles"]) >= 7][:: max(1, len(levels) // 5)][:4]
    assert small or kind == "weekly"
    for level in small + large:
        assert oracle.optimum(oracle.book_board(level)) == level["par"], level["id"]


def test_generating_twice_gives_the_same_bytes_and_every_par_is_proven(tmp_path, run_solver):
    arguments = ["generate", "--size", "5-8", "--optimum", "4-9", "--count", "6", "--seed", "t1"]
    first = run(*arguments, "--out", str(tmp_path / "a.json"))
    second = run(*arguments, "--out", str(tmp_path / "b.json"))
    assert first.exit_code == 0 and second.exit_code == 0, first.output + second.output
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    for level in json.loads((tmp_path / "a.json").read_text())["levels"]:
        board = oracle.book_board(level)
        assert oracle.optimum(board) == level["par"]
        assert 4 <= level["par"] <= 9 and 5 <= len(board) <= 8


def generated_levels(tmp_path, *arguments: str) -> list[dict]:
    result = run("generate", *arguments, "--out", str(tmp_path / "book.json"))
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "book.json").read_text())["levels"]


def test_a_size_HxW_makes_levels_of_H_rows_of_W_tiles_remade_from_their_record_at_the_oracles_par(tmp_path):
    levels = generated_levels(tmp_path, "--size", "3x7", "--optimum", "2-6", "--count", "4", "--seed", "r")
    for level in levels:
        board = oracle.book_board(level)
        assert oracle.shape(board) == (3, 7)
        assert oracle.optimum(board) == level["par"] and 2 <= level["par"] <= 6
        made = level["generator"]
        assert "size" not in made and (made["height"], made["width"]) == (3, 7)
        assert scrambled_board(3, 7, made["scramble"], made["seed"]) == board


def test_a_range_on_each_side_draws_the_height_and_the_width_apart(tmp_path):
    arguments = ["--size", "2-4x5-8", "--optimum", "1-5", "--count", "12", "--seed", "s"]
    levels = generated_levels(tmp_path, *arguments)
    shapes = [oracle.shape(oracle.book_board(level)) for level in levels]
    assert all(2 <= height <= 4 and 5 <= width <= 8 for height, width in shapes)
    assert len({height for height, _ in shapes}) > 1 and len({width for _, width in shapes}) > 1
    for level in levels:
        assert oracle.optimum(oracle.book_board(level)) == level["par"]


def test_a_square_size_written_HxW_makes_squares_and_records_their_side_as_a_size(tmp_path):
    [level] = generated_levels(tmp_path, "--size", "5x5", "--optimum", "3-6", "--count", "1")
    assert oracle.shape(oracle.book_board(level)) == (5, 5) and level["generator"]["size"] == 5


# --- what makes a challenge: --unique, --symmetric, --min-gap ----------------------------------------------


# Symmetric boards often have several optimal solutions (an asymmetric one and its images); plain scrambles
# this small seldom do.
SMALL_SYMMETRIC = ["--size", "4-6", "--optimum", "3-9", "--count", "12", "--symmetric", "mirror,half-turn"]


def test_unique_levels_have_exactly_one_optimal_set_of_moves_counted_by_coset_enumeration(tmp_path):
    for level in generated_levels(tmp_path, *SMALL_SYMMETRIC, "--unique"):
        optima = oracle.optimal_solution_sets(oracle.book_board(level))
        assert len(optima) == 1, level["generator"]
        assert len(next(iter(optima))) == level["par"]


def test_without_unique_the_same_plan_makes_levels_with_several_optimal_solutions(tmp_path):
    """What --unique filters out is there to filter: the test above could fail."""
    levels = generated_levels(tmp_path, *SMALL_SYMMETRIC)
    assert any(len(oracle.optimal_solution_sets(oracle.book_board(level))) > 1 for level in levels)


@pytest.mark.parametrize(
    ("group", "size"),
    [(group, "5-9") for group in ORACLE_GROUPS] + [(group, "5-7x8-10") for group in RECTANGLE_GROUPS],
)
def test_symmetric_levels_are_invariant_under_the_group_and_remade_from_their_record(tmp_path, group, size):
    arguments = ["--size", size, "--optimum", "2-12", "--count", "3", "--symmetric", group, "--seed", group]
    for level in generated_levels(tmp_path, *arguments):
        board = oracle.book_board(level)
        assert oracle.is_invariant(board, ORACLE_GROUPS[group]), level["generator"]
        assert level["generator"]["symmetry"] == group
        assert remade(level) == board
        assert oracle.optimum(board) == level["par"]


def test_several_groups_are_drawn_one_a_level(tmp_path):
    arguments = ["--size", "6-8", "--optimum", "3-10", "--count", "12", "--symmetric", "mirror,quarter-turn"]
    levels = generated_levels(tmp_path, *arguments)
    assert {level["generator"]["symmetry"] for level in levels} == {"mirror", "quarter-turn"}
    for level in levels:
        assert oracle.is_invariant(oracle.book_board(level), ORACLE_GROUPS[level["generator"]["symmetry"]])


def test_a_group_only_a_square_has_is_refused_for_rectangles_before_any_level(tmp_path):
    out = str(tmp_path / "b.json")
    result = run("generate", "--size", "7x10", "--symmetric", "quarter-turn", "--out", out)
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        "error: --symmetric quarter-turn needs square boards, and --size 7×10 draws rectangles, "
        "which have only mirror, mirror-ud, half-turn, mirrors"
    )
    assert not (tmp_path / "b.json").exists()


def test_min_gap_levels_have_an_optimum_at_least_that_far_over_the_covering_bound(tmp_path, run_solver):
    """The optimum is the oracle's (CP-SAT), the bound the solver's own --lower-bound without parity rows."""
    arguments = ["--size", "7-9", "--optimum", "6-14", "--count", "4", "--min-gap", "2", "--seed", "gap"]
    for level in generated_levels(tmp_path, *arguments):
        board = oracle.book_board(level)
        root = run_solver(oracle.board_text(board), *COVERING_BOUND)
        assert oracle.optimum(board) == level["par"]
        assert level["par"] - root.bound >= 2, (level["generator"], root.describe())


def test_every_filter_together_on_rectangles(tmp_path, run_solver):
    arguments = ["--size", "4-6x5-6", "--optimum", "3-10", "--count", "3", "--seed", "all"]
    arguments += ["--symmetric", "half-turn", "--unique", "--min-gap", "1"]
    for level in generated_levels(tmp_path, *arguments):
        board = oracle.book_board(level)
        assert oracle.is_invariant(board, "half turn")
        [optimum] = oracle.optimal_solution_sets(board)
        assert len(optimum) == level["par"]
        assert level["par"] - run_solver(oracle.board_text(board), *COVERING_BOUND).bound >= 1


def test_a_generated_book_is_solved_at_par_by_the_front_end(tmp_path):
    book = tmp_path / "book.json"
    made = subprocess.run(
        [
            sys.executable,
            "unflip.py",
            "generate",
            "--size",
            "9",
            "--optimum",
            "10-12",
            "--count",
            "3",
            "--kind",
            "weekly",
            "--seed",
            "w",
            "--out",
            str(book),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    solved = subprocess.run(
        [sys.executable, "unflip.py", str(book), "--all"], cwd=REPO, capture_output=True, text=True
    )
    assert solved.returncode == 0, solved.stdout + solved.stderr
    assert "par matched on 3 of 3" in solved.stdout


def test_make_books_rebuilds_the_shipped_books_byte_for_byte(tmp_path):
    rebuilt = subprocess.run(
        [sys.executable, "unflip.py", "books", "--out", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert rebuilt.returncode == 0, rebuilt.stderr
    for name in BOOK_FILES.values():
        assert (tmp_path / name).read_bytes() == (REPO / name).read_bytes(), name


def test_a_plan_that_no_level_fits_names_everything_it_asked_for():
    plan = Plan("daily", 1, Shapes((5, 7), (8, 9)), (3, 6), "s", ("mirror", "half-turn"), True, 5)
    assert f"no level with {plan.described()} on {plan.shapes.boards()}" == (
        "no level with an optimum of 3–6, symmetric (mirror, half-turn), a unique optimum, a gap of 5 or "
        "more over the lower bound on 5–7×8–9 boards"
    )
    assert Shapes((4, 10)).boards() == "4×4 to 10×10 boards"


def test_an_impossible_plan_is_one_clear_error():
    result = run("generate", "--size", "4", "--optimum", "15-20", "--count", "1")
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        "error: no level with an optimum of 15–20 on 4×4 boards after 400 tries; widen the ranges"
    )
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    "option, value",
    [
        ("--size", "1"),
        ("--size", str(MAX_SIDE + 1)),
        ("--size", "9-4"),
        ("--size", "7x"),
        ("--size", "x7"),
        ("--size", f"7x{MAX_SIDE + 1}"),
        ("--size", "1x7"),
        ("--size", "7x10x3"),
        ("--size", "5-3x7"),
        ("--size", "7 by 10"),
        ("--optimum", "x"),
        ("--count", "0"),
        ("--symmetric", "rotation"),
        ("--symmetric", "mirror,"),
        ("--min-gap", "-1"),
        ("--min-gap", "two"),
    ],
)
def test_bad_generator_options_are_rejected_with_one_line(option, value):
    result = run("generate", option, value)
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_an_unwritable_output_is_one_clear_error():
    result = run("generate", "--count", "1", "--out", "/proc/no/such/book.json")
    assert result.exit_code == 2
    assert result.output.startswith("error: cannot write /proc/no/such/book.json")
    assert len(result.output.strip().splitlines()) == 1


def test_a_written_book_gets_the_mode_any_new_file_gets_not_a_private_one(tmp_path):
    umask = os.umask(0o022)
    try:
        write_atomically(tmp_path / "book.json", "{}")
    finally:
        os.umask(umask)
    assert stat.S_IMODE((tmp_path / "book.json").stat().st_mode) == 0o644


def test_a_partial_file_left_by_another_run_of_the_same_book_does_not_block_the_write(tmp_path):
    (tmp_path / ".book.json.partial").mkdir()  # the name a fixed temporary file would take
    write_atomically(tmp_path / "book.json", "new")
    assert (tmp_path / "book.json").read_text() == "new"


def test_a_failed_write_keeps_what_was_there_and_leaves_no_temporary_file(tmp_path):
    (tmp_path / "book.json").mkdir()  # a folder in the way: the final rename fails
    with pytest.raises(InputError, match=r"^cannot write .*book\.json: Is a directory$"):
        write_atomically(tmp_path / "book.json", "new")
    assert [path.name for path in tmp_path.iterdir()] == ["book.json"]
    assert (tmp_path / "book.json").is_dir()


def test_ctrl_c_while_generating_leaves_no_book_and_no_partial_file(tmp_path):
    book = tmp_path / "book.json"
    process = subprocess.Popen(
        [
            sys.executable,
            "unflip.py",
            "generate",
            "--size",
            "12-13",
            "--optimum",
            "14-22",
            "--count",
            "500",
            "--seed",
            "interrupt",
            "--out",
            str(book),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(2)  # let it get well into the levels (the whole run would take minutes)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert list(tmp_path.iterdir()) == []


# --- where a book may be written ----------------------------------------------------------------------------


def generate_to(out: str):
    return run("generate", "--count", "1", "--size", "4", "--out", out)


def test_an_empty_output_name_is_one_line_before_any_work():
    result = generate_to("")
    assert result.exit_code == 2
    assert one_line(result.stderr) == "error: cannot write a book to '': the file name is empty"


def test_an_output_path_through_a_regular_file_names_that_file(tmp_path):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("keep me")
    result = generate_to(str(blocker / "sub.json"))
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"error: cannot write {blocker / 'sub.json'}: {blocker} is not a folder"
    assert blocker.read_text() == "keep me"


def test_a_fifo_as_output_is_refused_and_left_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = generate_to(str(fifo))
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        f"error: cannot write {fifo}: it is a FIFO, and only a regular file is replaced; "
        "give - for standard output"
    )
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["pipe"]


def test_a_symbolic_link_as_output_stays_a_link_to_the_new_book(tmp_path):
    target = tmp_path / "books" / "real.json"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    result = generate_to(str(link))
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and link.resolve() == target
    assert json.loads(target.read_text())["levels"][0]["tiles"]
    assert sorted(path.name for path in target.parent.iterdir()) == ["real.json"]


def test_an_output_path_too_long_for_the_system_is_one_line(tmp_path):
    out = tmp_path / ("a" * 300) / "book.json"
    result = generate_to(str(out))
    assert result.exit_code == 2
    assert one_line(result.stderr) == f"error: cannot write {out}: File name too long"


def test_books_checks_its_folder_before_making_any_level(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = run("books", "--out", str(blocker / "books"))
    assert result.exit_code == 2
    assert one_line(result.stderr) == (
        f"error: cannot write {blocker / 'books' / 'daily_levels_book.json'}: {blocker} is not a folder"
    )
