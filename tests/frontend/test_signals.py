"""The game's difficulty signals (difficulty.py, docs/designer.md): each definition pinned by a case worked by
hand; the front end against the oracle's own implementation on every level of the three shipped books and
over every optimum the official daily book lists exhaustively; the figures over every optimum, not just
the first stored; --signals in the API, the solve record and annotate (byte for byte at every thread
count); and hint --prefer against the game's hint rule written again from the oracle's optima."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import json
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import oracle
import pytest
from helpers import REPO, book_tiles
from oracle import board_text
from support import SPEC_BOARD, json_records, no_second_bound_run, one_line, run, solver_lower_bound, write

from unflip_frontend import api
from unflip_frontend.boards import Move
from unflip_frontend.books import BOOK_FILES
from unflip_frontend.difficulty import (
    board_figures,
    eric_number,
    exact_obvious,
    level_signals,
    signals_object,
    symmetry_group,
)

# --- each definition, worked by hand ---------------------------------------------------------------


def both_measures(board: oracle.Board, moves: list[oracle.Move]) -> tuple[int, Fraction, int, Fraction]:
    """The front end's Eric number and obvious score of the moves, then the oracle's."""
    h, w = oracle.shape(board)
    ours = [Move(*move) for move in moves]
    return (
        eric_number(h, w, ours),
        exact_obvious(board, ours),
        oracle.eric(h, w, moves),
        oracle.obvious(board, moves),
    )


def test_a_single_square_makes_two_signatures_and_the_obvious_score_worked_by_hand():
    # 110/110/000 and the 2×2 square on it. Its own edges all lie on colour edges (o = 1, chosen: 0); the
    # squares at (0,1) and (1,0) cross 2 of 8 edges (o = 1/4, not chosen: 1/16 each); the one at (1,1)
    # none (0); the whole board 4 of 12 (o = 1/3: 1/9). Mean over the 5 moves: (1/8 + 1/9) / 5 = 17/360.
    board = oracle.as_board("110 110 000")
    assert both_measures(board, [(0, 0, 2)]) == (2, Fraction(17, 360), 2, Fraction(17, 360))


def test_two_overlapping_squares_cut_the_board_into_four_signatures():
    # 110/101/011: the squares at (0,0) and (1,1), overlapping on the centre. Signatures: A alone, A and B,
    # B alone, and none (two corners). Both squares sit wholly on colour edges (o = 1); (0,1) and (1,0)
    # cross half their edges (1/4 each); the whole board 8 of 12 (o = 2/3: 4/9). (1/2 + 4/9) / 5 = 17/90.
    board = oracle.as_board("110 101 011")
    assert both_measures(board, [(0, 0, 2), (1, 1, 2)]) == (4, Fraction(17, 90), 4, Fraction(17, 90))


def test_a_square_on_the_board_edge_counts_the_tiles_outside_as_white():
    # 110/110 with the square on the left edge: outside white, all 8 of its edges are colour edges (o = 1);
    # the other square crosses 2 (o = 1/4). Were the outside black, the first would cross only 2.
    board = oracle.as_board("110 110")
    assert both_measures(board, [(0, 0, 2)]) == (2, Fraction(1, 32), 2, Fraction(1, 32))


def test_the_empty_signature_counts_once_even_when_every_tile_is_covered():
    assert eric_number(2, 2, [Move(0, 0, 2)]) == oracle.eric(2, 2, [(0, 0, 2)]) == 2
    assert eric_number(3, 3, [Move(0, 0, 3), Move(0, 0, 2)]) == 3  # {big}, {big, small}, and the empty one
    assert eric_number(3, 3, []) == oracle.eric(3, 3, []) == 1


def test_the_per_par_figures_round_a_half_up_as_the_game_does():
    # Four separate 2×2 corners of a 5×5 board: 5 signatures over 4 moves, 10·5/4 = 12.5, which the game's
    # Math.round takes to 13 (Python's round would say 12).
    corners = [(0, 0, 2), (0, 3, 2), (3, 0, 2), (3, 3, 2)]
    board = oracle.replay(oracle.uniform(5, 0), corners)
    signals = level_signals(board, 0, [[Move(*move) for move in corners]], True, 4)
    assert (signals.min_eric, signals.eric_per_par, round(12.5)) == (5, 13, 12)
    figures = oracle.signals_over(board, [corners])
    assert signals.obvious_100 == figures["obvious_100"]
    assert signals.obvious_per_par == figures["obvious_per_par"]


def test_the_difficulty_modules_examples_hold():
    tested = doctest.testmod(importlib.import_module("unflip_frontend.difficulty"))
    assert (tested.failed, tested.attempted) == (0, 3)


def test_a_bad_move_is_one_line_of_bad_input():
    with pytest.raises(api.InputError, match=r"move \(0, 2, 2\) does not fit a 2×3 board"):
        eric_number(2, 3, [Move(0, 2, 2)])


# --- the oracle's signals against the front end's ---------------------------------------------------


def front_end_figures(board: oracle.Board, optima: list[list[oracle.Move]]) -> dict[str, object]:
    """The front end's signals over the optima, in the oracle's terms (exact fractions, plain tuples)."""
    signals = level_signals(board, 0, [[Move(*move) for move in moves] for moves in optima], True, 0)
    measured = {name: getattr(signals, name) for name in oracle.signals_over(board, optima)}
    for name in ("min_obvious", "max_obvious"):
        solution = getattr(signals, f"{name}_solution")
        assert measured[name] == float(exact_obvious(board, solution))
        measured[name] = exact_obvious(board, solution)
    return measured


def check_level(board: oracle.Board, optima: list[list[oracle.Move]]) -> None:
    """Every optimum measured alike by both, the figures over them equal, and the board's own figures."""
    h, w = oracle.shape(board)
    for moves in optima:
        ours = [Move(*move) for move in moves]
        assert (eric_number(h, w, ours), exact_obvious(board, ours)) == (
            oracle.eric(h, w, moves),
            oracle.obvious(board, moves),
        ), (board_text(board), moves)
    assert front_end_figures(board, optima) == oracle.signals_over(board, optima), board_text(board)
    exact = oracle.generator_figures(board)
    figures = board_figures(board)
    assert {name: getattr(figures, name) for name in exact} == {name: float(v) for name, v in exact.items()}
    assert symmetry_group(board) == oracle.symmetry_name(board), board_text(board)


def book_optima(level: dict) -> tuple[oracle.Board, list[list[oracle.Move]]]:
    board = oracle.book_board(level)
    h, w = oracle.shape(board)
    order = oracle.game_order(h, w)
    vectors = level["solutions"]
    return board, [[move for move, bit in zip(order, vector, strict=True) if bit] for vector in vectors]


@pytest.mark.parametrize("name", sorted(BOOK_FILES))
def test_the_oracle_and_the_front_end_agree_on_every_level_of_a_shipped_book(name):
    levels = json.loads((REPO / BOOK_FILES[name]).read_text())["levels"]
    for level in levels:
        check_level(*book_optima(level))


def test_the_oracle_and_the_front_end_agree_over_every_optimum_of_the_official_exhaustive_daily_levels(books):
    exhaustive = [level for level in books["daily"] if level.get("solutionType") == "exhaustive"]
    assert len(exhaustive) >= 100 and any(len(level["solutions"]) > 1 for level in exhaustive)
    for level in exhaustive:
        check_level(*book_optima(level))


def test_the_oracle_names_every_symmetry_group_as_the_front_end_does():
    rng = random.Random(33)
    for group in oracle.SYMMETRY_GROUPS:
        board = oracle.symmetric_board(rng, 6, group)
        assert symmetry_group(board) == oracle.symmetry_name(board) != "none"
    assert symmetry_group(oracle.as_board("100 000")) == "none"


def test_the_least_over_every_optimum_can_be_below_the_first_stored_solutions():
    # Shipped daily level 54 stores one of its two optima; the other cuts the board into fewer regions.
    level = json.loads((REPO / BOOK_FILES["daily"]).read_text())["levels"][53]
    board, [first] = book_optima(level)
    signals = api.signals(api.read_book("daily").levels[53], threads=1)
    assert (signals.optima, signals.complete) == (2, True)
    assert signals.min_eric == 12 < oracle.eric(5, 5, first) == 13
    assert signals.min_obvious < float(oracle.obvious(board, first))
    assert sorted(signals.min_eric_solution) != sorted(first)


# --- the API ----------------------------------------------------------------------------------------


def test_the_packages_signals_is_the_api_function_with_no_module_of_that_name_behind_it():
    # A module unflip_frontend.signals would be shadowed by the function the package exports: importing it
    # by its full name would give the function.
    import unflip_frontend

    assert unflip_frontend.signals is api.signals
    assert importlib.util.find_spec("unflip_frontend.signals") is None


def test_the_api_gives_the_signals_over_every_optimum_and_says_so():
    signals = api.signals(SPEC_BOARD)
    optima = [sorted(moves) for moves in oracle.optimal_solution_sets(oracle.as_board(SPEC_BOARD))]
    assert (signals.optimum, signals.optima, signals.complete, signals.unique) == (8, 2, True, False)
    assert signals.over == "all 2 optima"
    assert front_end_figures(oracle.as_board(SPEC_BOARD), optima) == oracle.signals_over(
        oracle.as_board(SPEC_BOARD), optima
    )
    assert (signals.root_bound, signals.gap) == (api.lower_bound(SPEC_BOARD).bound, 8 - signals.root_bound)
    assert signals.symmetry == "diagonals"


def test_a_capped_listing_is_over_the_optima_listed_and_cannot_tell_uniqueness():
    signals = api.signals(SPEC_BOARD, max_solutions=1, threads=2)
    assert (signals.optima, signals.complete, signals.unique) == (1, False, None)
    assert signals.over == "the 1 optima listed (there may be more)"
    # Listed again on one thread, the cap holds the same optimum as a listing on one thread from the start.
    alone = api.signals(SPEC_BOARD, max_solutions=1, threads=1)
    assert replace(signals, nodes=0, seconds=0.0) == replace(alone, nodes=0, seconds=0.0)


def test_a_solved_board_has_per_par_figures_of_zero_and_an_unsolvable_one_has_no_signals():
    signals = api.signals("0000\n0000\n")
    assert (signals.optimum, signals.min_eric, signals.eric_per_par, signals.obvious_per_par) == (0, 1, 0, 0)
    assert (signals.unique, signals.min_eric_solution, signals.gap) == (True, (), 0)
    assert isinstance(api.signals("10\n00\n"), api.Unsolvable)


def test_a_budget_that_runs_out_before_the_optimum_gives_stopped():
    stopped = api.signals(oracle.random_board(random.Random(5), 9), max_nodes=1)
    assert isinstance(stopped, api.Stopped) and stopped.optimum is None


# --- the command line ---------------------------------------------------------------------------------


def test_solve_signals_adds_the_signals_to_the_solve_record():
    result = run("-", "--signals", "--json", input=SPEC_BOARD)
    [record] = json_records(result)
    expected = signals_object(api.signals(SPEC_BOARD))
    del expected["nodes"], expected["seconds"], record["signals"]["nodes"], record["signals"]["seconds"]
    assert record["signals"] == expected
    assert (record["outcome"], record["move_count"], "solutions" not in record) == ("solved", 8, True)


def test_a_capped_solve_signals_says_it_is_over_the_optima_listed():
    result = run("-", "--signals", "--max-solutions", "1", input=SPEC_BOARD)
    assert result.exit_code == 0, result.stderr
    assert "Signals over the 1 optima listed (there may be more)" in result.stdout
    [record] = json_records(run("-", "--signals", "--max-solutions", "1", "--json", input=SPEC_BOARD))
    assert (record["signals"]["complete"], record["signals"]["over"]) == (
        False,
        "the 1 optima listed (there may be more)",
    )


def test_a_budget_that_stops_the_listing_gives_the_signals_over_the_optima_listed():
    # Shipped daily level 13 has 4 optima; on one thread a node budget stops at the same node every run,
    # and some budget stops the listing after the optimum is proven and two or three optima are listed.
    for budget in range(40, 160, 10):
        args = ("daily", "13", "--signals", "--max-nodes", str(budget), "--threads", "1", "--json")
        [record] = json_records(run(*args))
        if record["outcome"] == "stopped" and record.get("solution_count", 0) >= 2:
            break
    else:
        pytest.fail("premise: no budget stopped the listing after two optima were listed")
    signals, count = record["signals"], record["solution_count"]
    # Two optima listed: not unique, whatever the rest.
    assert (record["exit_status"], signals["complete"], signals["unique"]) == (3, False, False)
    assert count < 4 and signals["optima"] == count
    assert signals["over"] == f"the {count} optima listed (there may be more)"


def test_solve_signals_reads_the_root_bound_off_the_listing_with_no_second_solver_run(monkeypatch):
    board = api.read_book("weekly").levels[22].board  # a gap of 2 on the shipped book
    expected = solver_lower_bound(board)
    no_second_bound_run(monkeypatch)
    [record] = json_records(run("weekly", "23", "--signals", "--json"))
    assert (record["signals"]["root_bound"], record["signals"]["gap"]) == (expected, 2)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["daily", "--all", "--signals"], "--signals measures one level: give a level, not --list or --all"),
        (["daily", "5", "--signals", "--certificate", "c.cert"], "--signals lists every optimum"),
    ],
)
def test_solve_signals_refuses_what_it_cannot_do_in_one_line(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in one_line(result.stderr)


# --- annotate --signals ------------------------------------------------------------------------------


@pytest.fixture
def signals_book(tmp_path: Path, small_book: list[dict]) -> Path:
    """The small book and a level with two optima, in the game's spaced style."""
    spec = {"tiles": book_tiles(oracle.as_board(SPEC_BOARD)), "par": 8, "title": "Two optima"}
    return write(tmp_path / "book.json", json.dumps({"levels": [*small_book, spec]}, indent=1))


def annotated(book: Path, out: Path, *args: str) -> bytes:
    result = run("annotate", str(book), "--out", str(out), "--signals", *args)
    assert result.exit_code == 0, result.stderr
    return out.read_bytes()


def test_annotate_signals_is_byte_for_byte_the_same_at_one_thread_and_at_two(signals_book, tmp_path):
    one = annotated(signals_book, tmp_path / "one.json", "--threads", "1")
    assert annotated(signals_book, tmp_path / "two.json", "--threads", "2") == one
    capped = ("--max-solutions", "1")
    alone = annotated(signals_book, tmp_path / "capped1.json", "--threads", "1", *capped)
    assert annotated(signals_book, tmp_path / "capped2.json", "--threads", "2", *capped) == alone
    # Annotating the result again finds the same signals stored, and changes nothing.
    assert annotated(tmp_path / "one.json", tmp_path / "again.json") == one


def test_annotate_signals_stores_the_oracles_figures_under_the_levels_own_key(signals_book, tmp_path):
    levels = json.loads(annotated(signals_book, tmp_path / "out.json"))["levels"]
    for level in levels:
        stored = level["_unflip"]["signals"]
        board = oracle.book_board(level)
        optima = [sorted(moves) for moves in oracle.optimal_solution_sets(board)]
        figures = oracle.signals_over(board, optima)
        assert stored["min_eric"] == figures["min_eric"] and stored["optima"] == len(optima)
        assert stored["min_obvious"] == float(figures["min_obvious"])
        solution = [(move["row"], move["col"], move["size"]) for move in stored["min_eric_solution"]]
        assert solution == list(figures["min_eric_solution"])
        assert "nodes" not in stored and "seconds" not in stored


def test_annotate_signals_reads_each_root_bound_off_the_listing_with_no_second_solver_run(
    monkeypatch, tmp_path
):
    weekly = api.read_book("weekly").levels
    boards = [weekly[22].board, weekly[23].board]  # gaps of 2 on the shipped book
    expected = [solver_lower_bound(board) for board in boards]
    book = write(tmp_path / "book.json", json.dumps({"levels": [{"tiles": book_tiles(b)} for b in boards]}))
    no_second_bound_run(monkeypatch)
    levels = json.loads(annotated(book, tmp_path / "out.json"))["levels"]
    stored = [level["_unflip"]["signals"] for level in levels]
    assert [(signals["root_bound"], signals["gap"]) for signals in stored] == [(b, 2) for b in expected]


def test_the_stored_figures_hold_no_key_the_games_loader_would_take_for_a_level(signals_book, tmp_path):
    # The game's book_reviver (web/src/modules/core/bookUtils.ts) turns any object with one of these keys,
    # at any depth, into a Level.
    taken = {"tiles", "levels", "tileShape", "__type__"}

    def keys(value: object) -> set[str]:
        if isinstance(value, dict):
            return set(value) | {key for item in value.values() for key in keys(item)}
        if isinstance(value, list):
            return {key for item in value for key in keys(item)}
        return set()

    for level in json.loads(annotated(signals_book, tmp_path / "out.json"))["levels"]:
        assert not keys(level["_unflip"]) & taken


# --- hint --prefer ---------------------------------------------------------------------------------


def games_hint(board: oracle.Board, prefer: str) -> oracle.Move:
    """The game's rule, from the oracle's optima: each move of an optimum scored by the least, over the
    optima that make it, signal of the moves left after it; the least score wins, ties to the game's first."""
    h, w = oracle.shape(board)
    scores: dict[oracle.Move, Fraction] = {}
    for solution in oracle.optimal_solution_sets(board):
        for move in solution:
            rest = solution - {move}
            score = Fraction(oracle.eric(h, w, rest)) if prefer == "eric" else oracle.obvious(board, rest)
            scores[move] = min(score, scores.get(move, score))
    order = oracle.game_order(h, w)
    return min(scores, key=lambda move: (scores[move], order.index(move)))


@pytest.mark.parametrize("prefer", ["eric", "obvious"])
def test_hint_prefer_picks_the_move_the_games_hint_rule_picks(prefer):
    rng = random.Random(prefer)
    for n in (4, 5, 5, 6):
        board = oracle.random_solvable_board(rng, n)
        if not any(map(any, board)):
            continue
        [record] = json_records(run("hint", "-", "--prefer", prefer, "--json", input=board_text(board)))
        move = record["move"]
        assert (move["row"], move["col"], move["size"]) == games_hint(board, prefer), board_text(board)
        assert record["prefer"] == prefer


def test_the_default_hint_is_unchanged_and_says_no_preference():
    [record] = json_records(run("hint", "-", "--json", input=SPEC_BOARD))
    assert "prefer" not in record
    assert (record["move"]["row"], record["move"]["col"], record["move"]["size"]) == (0, 0, 3)


def test_a_preferred_hint_names_the_rule_on_its_card():
    result = run("hint", "-", "--prefer", "eric", input=SPEC_BOARD)
    assert result.exit_code == 0, result.stderr
    assert "Picked by the game's hint rule: the least Eric number left after it." in result.stdout


def test_hint_refuses_an_unknown_preference_in_one_line():
    result = run("hint", "-", "--prefer", "easy", input=SPEC_BOARD)
    assert result.exit_code == 2
    assert "'easy' is not one of 'eric', 'obvious'" in one_line(result.stderr)
    with pytest.raises(api.InputError, match="prefer must be 'eric' or 'obvious'"):
        api.hint(SPEC_BOARD, prefer="easy")  # type: ignore[arg-type]


def test_the_api_hint_with_a_preference_is_the_game_rules_move():
    found = api.hint(SPEC_BOARD, prefer="obvious")
    assert isinstance(found, api.Hint) and found.prefer == "obvious"
    assert tuple(found.move) == games_hint(oracle.as_board(SPEC_BOARD), "obvious")
    assert found.remaining == 7
