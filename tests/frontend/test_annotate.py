"""annotate.py with the real solver: the official books keep every par and valid optimal vector, the
daily book's exhaustive lists come back as they are, and a book made wrong on purpose (raised and lowered
pars, corrupted vectors, a truncated exhaustive list, an unsolvable level, rectangles in both tile
encodings) is fixed exactly where it is wrong, its report naming each case, every other byte untouched.
Vectors are replayed by the independent oracle."""

from __future__ import annotations

import json
from pathlib import Path

import oracle
import pytest
from oracle import replay, uniform
from support import SPEC_BOARD

from unflip_frontend.annotate import (
    Proof,
    Unproven,
    annotate_text,
    annotated_book,
    annotated_text,
    audit_book,
    solver_prover,
)
from unflip_frontend.books import BOOK_FILES
from unflip_frontend.build import ensure_solver
from unflip_frontend.errors import InputError
from unflip_frontend.solver import SolverSettings

SETTINGS = SolverSettings("0", threads=None, max_seconds=None, max_nodes=None, max_solutions=1000)


@pytest.fixture(scope="module")
def solver() -> Path:
    return ensure_solver(lambda _command: None)


@pytest.fixture(scope="module")
def prove(solver):
    return solver_prover(solver, SETTINGS)


def vector_of(height: int, width: int, moves) -> list[int]:
    return [int(move in set(moves)) for move in oracle.game_order(height, width)]


def clears_in(level: dict, vector: list[int]) -> int:
    """The vector's move count, once the oracle has replayed it on the level's board to white."""
    board = oracle.book_board(level)
    height, width = oracle.shape(board)
    moves = [move for move, bit in zip(oracle.game_order(height, width), vector, strict=True) if bit]
    assert replay(board, moves) == uniform(height, 0, width)
    return len(moves)


def official_text(books_dir: Path, name: str) -> str:
    return (books_dir / BOOK_FILES[name]).read_text()


def test_an_annotation_without_changes_leaves_every_official_book_byte_for_byte(books_dir, prove):
    # The three books are written three ways (compact, spaced, indented): only text edits keep them all.
    for name in ("daily", "main", "weekly"):
        text = official_text(books_dir, name)
        audits = audit_book(json.loads(text), name, lambda _board: Unproven(0), exhaustive=False)
        assert not any(audit.changed for audit in audits)
        assert annotated_text(text, audits) == text


def test_annotating_the_official_main_book_changes_only_the_one_missing_par(books_dir, books, prove):
    text = official_text(books_dir, "main")
    out, audits = annotate_text(text, "main", prove, exhaustive=False)
    assert text.count('"par":null') == 1
    assert out == text.replace('"par":null', '"par":2')
    assert [audit.number for audit in audits if audit.changed] == [8]
    assert not any(audit.findings for audit in audits)
    for level in json.loads(out)["levels"]:
        for vector in [*level["solutions"], level["solutionVector"]]:
            assert clears_in(level, vector) == level["par"]


def test_annotating_the_official_daily_book_adds_each_solution_vector_and_changes_nothing_else(
    books_dir, books, prove
):
    text = official_text(books_dir, "daily")
    out, audits = annotate_text(text, "daily", prove, exhaustive=False)
    assert not any(audit.findings for audit in audits)
    restored = out
    for level in books["daily"]:
        added = ', "solutionVector": ' + json.dumps(level["solutions"][0])
        assert added in restored
        restored = restored.replace(added, "", 1)
    assert restored == text
    for old, new in zip(books["daily"], json.loads(out)["levels"], strict=True):
        assert list(new) == [*old, "solutionVector"]
        assert new["par"] == old["par"] == clears_in(new, new["solutionVector"])


def test_exhaustive_annotation_reproduces_every_exhaustive_daily_list_and_completes_the_others(
    books_dir, books, prove
):
    text = official_text(books_dir, "daily")
    out, audits = annotate_text(text, "daily", prove, exhaustive=True)
    new_levels = json.loads(out)["levels"]
    exhaustive = 0
    for old, new, audit in zip(books["daily"], new_levels, audits, strict=True):
        assert new["par"] == old["par"]
        assert new["solutions"][: len(old["solutions"])] == old["solutions"]
        assert (audit.outcome, new["solutionType"]) == ("exhaustive", "exhaustive")
        if old["solutionType"] == "exhaustive":
            exhaustive += 1
            assert new["solutions"] == old["solutions"]
        board = oracle.book_board(old)
        if len(oracle.game_order(*oracle.shape(board))) <= 64:
            height, width = oracle.shape(board)
            sets = oracle.optimal_solution_sets(board)
            assert sets is not None
            assert sorted(vector_of(height, width, chosen) for chosen in sets) == sorted(new["solutions"])
    assert exhaustive >= 100


def spec_level() -> tuple[oracle.Board, list[list[int]]]:
    """The specification's example: two optimal solutions of 8 moves."""
    board = oracle.as_board(SPEC_BOARD)
    sets = oracle.optimal_solution_sets(board)
    assert sets is not None and len(sets) == 2
    return board, sorted((vector_of(5, 5, chosen) for chosen in sets), reverse=True)


def tiles(board: oracle.Board) -> list[list[int]]:
    return [[tile + 1 for tile in row] for row in board]


def wrong_book() -> tuple[dict, dict[int, list[str]]]:
    """A book made wrong on purpose, and for each level (1-based) what its report must say."""
    four = oracle.replay(uniform(4, 0), [(0, 0, 2), (2, 1, 2)])  # optimum 2
    four_vector = vector_of(4, 4, [(0, 0, 2), (2, 1, 2)])
    spec_board, spec_optima = spec_level()
    corrupted = list(spec_optima[0])
    corrupted[0] ^= 1
    rectangle = oracle.replay(uniform(3, 0, 5), [(0, 0, 2), (1, 3, 2)])  # 3 rows of 5, optimum 2
    wide = oracle.replay(uniform(4, 0, 6), [(0, 0, 3), (2, 4, 2)])  # 4 rows of 6, optimum 2
    lone_black = ((1, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    assert not oracle.is_solvable(lone_black)
    levels = [
        {"id": "raised", "tiles": tiles(four), "par": 4, "title": "Raised", "__type__": "Level"},
        {
            "id": "lowered",
            "tiles": tiles(four),
            "par": 1,
            "solutions": [four_vector],
            "solutionType": "optimal",
        },
        {
            "id": "corrupted",
            "tiles": tiles(spec_board),
            "par": 8,
            "solutionVector": corrupted,
            "solutions": [corrupted, spec_optima[1][:-1], spec_optima[1]],
            "solutionType": "minizinc",
        },
        {
            "id": "truncated",
            "tiles": tiles(spec_board),
            "par": 8,
            "solutions": [spec_optima[1]],
            "solutionType": "exhaustive",
        },
        {
            "id": "unsolvable",
            "tiles": tiles(lone_black),
            "par": 3,
            "solutions": [[0] * 14],
            "solutionVector": [0] * 14,
            "solutionType": "optimal",
        },
        {"id": "rows", "tiles": tiles(rectangle), "colorScheme": "BW"},
        {
            "id": "array",
            "tiles": {"array": [t for row in tiles(wide) for t in row], "width": 6, "height": 4},
            "par": 5,
            "mode": "challenge",
        },
        {
            "id": "right",
            "tiles": tiles(four),
            "par": 2,
            "solutions": [four_vector],
            "solutionVector": four_vector,
            "solutionType": "optimal",
            "note": "kept",
        },
    ]
    expected = {
        1: ["par 4, optimum 2, proven; par set to 2", "solutions added (1)", "solutionVector added"],
        2: ["par 1, below the optimum 2, proven", "solutionVector added"],
        3: [
            "solutions entry 1 does not replay",
            "solutions entry 2 has 29 entries, but a 5×5 board has 30 moves",
            "solutionVector does not replay",
        ],
        4: ["the exhaustive list misses 1 of 2 optima; added"],
        5: [
            "solutions entry 1 does not replay",
            "solutionVector does not replay",
            "par 3, but no moves clear this board, proven; par set to null",
            "solutionType 'optimal', but no moves clear this board; set to 'impossible'",
        ],
        6: ["par 2 added (the book had none)", "solutionType 'optimal' added"],
        7: ["par 5, optimum 2, proven; par set to 2"],
        8: [],
    }
    return {"id": "book_wrong", "title": "Made wrong", "levels": levels, "source": "test"}, expected


STYLES = {
    "compact": {"separators": (",", ":")},
    "spaced": {},
    "indented": {"indent": 2},
}


@pytest.mark.parametrize("style", STYLES)
def test_a_book_made_wrong_on_purpose_is_fixed_exactly_where_it_is_wrong(prove, style):
    book, expected = wrong_book()
    text = json.dumps(book, **STYLES[style])
    out, audits = annotate_text(text, "wrong", prove, exhaustive=False)
    said = {audit.number: [*audit.findings, *audit.notes] for audit in audits}
    for number, phrases in expected.items():
        for phrase in phrases:
            assert any(phrase in line for line in said[number]), (number, phrase, said[number])
    assert said[8] == []
    assert [audit.outcome for audit in audits] == [
        *["optimal"] * 3,
        "exhaustive",
        "impossible",
        *["optimal"] * 3,
    ]

    new = json.loads(out)
    assert new == annotated_book(book, audits)
    assert [key for key in new if key != "levels"] == [key for key in book if key != "levels"]
    for old_level, new_level, audit in zip(book["levels"], new["levels"], audits, strict=True):
        written = dict(audit.fields)
        assert list(new_level)[: len(old_level)] == [key for key in old_level if key in new_level]
        for key, value in old_level.items():
            if key not in written:
                assert new_level[key] == value, (audit.name, key)
        if audit.outcome == "impossible":
            assert (new_level["par"], new_level["solutions"], new_level["solutionType"]) == (
                None,
                [],
                "impossible",
            )
            assert "solutionVector" not in new_level
            continue
        optimum = oracle.coset_optimum(oracle.book_board(new_level))
        assert new_level["par"] == optimum
        assert new_level["solutionVector"] in new_level["solutions"]
        for vector in new_level["solutions"]:
            assert clears_in(new_level, vector) == optimum
    assert new["levels"][3]["solutions"][0] == book["levels"][3]["solutions"][0]  # the book's first kept
    assert len(new["levels"][3]["solutions"]) == 2
    assert new["levels"][2]["solutions"] == [book["levels"][2]["solutions"][2]]

    # Untouched bytes: the level that was right is in the output as it was in the input, and in the
    # one-line styles the whole output is the expected book written the same way.
    right = json.dumps(book["levels"][7], **STYLES[style])
    if style == "indented":
        right = right.replace("\n", "\n    ")
    assert right in text and right in out
    if style != "indented":
        assert out == json.dumps(annotated_book(book, audits), **STYLES[style])


def test_a_level_the_budget_could_not_prove_keeps_every_field_and_is_not_marked_optimal(prove):
    book, _ = wrong_book()
    text = json.dumps(book)
    unproven = json.dumps(book["levels"][0]["tiles"])

    def budget(board):
        return Unproven(1) if json.dumps(tiles(board)) == unproven else prove(board)

    out, audits = annotate_text(text, "wrong", budget, exhaustive=False)
    assert audits[0].outcome == "unproven" and not audits[0].changed
    assert "not proven" in audits[0].notes[0]
    assert json.loads(out)["levels"][0] == book["levels"][0]


def test_exhaustive_mode_lists_every_optimum_canonical_first_where_no_stored_vector_is_kept(prove):
    board, optima = spec_level()
    text = json.dumps({"levels": [{"tiles": tiles(board)}]})
    out, audits = annotate_text(text, "spec", prove, exhaustive=True)
    level = json.loads(out)["levels"][0]
    assert level["solutions"] == optima  # canonical order: the greatest digit string first
    assert (level["solutionVector"], level["solutionType"], level["par"]) == (optima[0], "exhaustive", 8)


def test_a_capped_listing_is_recorded_as_optimal_with_the_same_canonical_vector(solver):
    board, optima = spec_level()
    capped = solver_prover(solver, SolverSettings("0", None, None, None, max_solutions=1))
    proof = capped(board)
    assert isinstance(proof, Proof) and not proof.complete and len(proof.optima) == 1
    assert list(proof.canonical or ()) == optima[0]
    text = json.dumps({"levels": [{"tiles": tiles(board), "solutionType": "exhaustive"}]})
    out, audits = annotate_text(text, "spec", capped, exhaustive=True)
    level = json.loads(out)["levels"][0]
    assert level["solutionType"] == "optimal" and level["solutions"][0] == optima[0]
    assert any("--max-solutions stopped the listing at 1" in note for note in audits[0].notes)


def test_the_canonical_vector_is_the_same_at_every_thread_count(solver, books):
    levels = sorted(books["daily"], key=lambda level: -len(level["solutions"]))[:4]
    for threads in (1, 2):
        prove = solver_prover(solver, SolverSettings("0", threads, None, None, max_solutions=1000))
        for level in levels:
            proof = prove(oracle.book_board(level))
            assert isinstance(proof, Proof) and proof.complete
            assert list(proof.canonical or ()) == max(level["solutions"])


def test_a_book_that_is_not_a_book_is_one_input_error(prove):
    with pytest.raises(InputError, match="malformed JSON"):
        annotate_text("{", "broken", prove, exhaustive=False)


def test_a_malformed_level_is_the_books_error_and_kept_byte_for_byte(prove):
    text = json.dumps({"levels": [{"tiles": [[3, 1], [1, 1]]}]})
    annotated, audits = annotate_text(text, "bad", prove, exhaustive=False)
    assert annotated == text
    assert [audit.outcome for audit in audits] == ["malformed"]
    assert "tile 3 at row 1" in audits[0].findings[0]
