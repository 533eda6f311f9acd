"""annotate on hostile books, with the real solver on tiny boards: a level that is not an object, solutions
holding what is not a vector, a byte-order mark, duplicate keys and a --max-solutions cap equal to the number
of optima each get the documented answer; and, over books Hypothesis makes up (any JSON in any field,
duplicate keys, byte-order marks, any line ends), annotate never gives a traceback, writes a whole book or
nothing, touches no file but the one it was asked to write, and changes nothing on a second run."""

from __future__ import annotations

import json

import oracle
import pytest
from helpers import book_tiles
from support import SPEC_BOARD, one_line, run, square_board, write

BOM = "\ufeff"
TWO_BY_TWO_BLACK = [[2, 2], [2, 2]]  # one move clears it: the only optimum, vector [1]
IMPOSSIBLE = [[2, 1], [1, 1]]  # a lone black tile: no moves clear a 2×2 board of it


def annotate(*arguments: str):
    result = run("annotate", *arguments)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# --- issue 34, item 2: a level that is not an object ---------------------------------------------------


@pytest.mark.parametrize("level", ["5", "[1,2]", '"level"', "null", "true"])
def test_a_level_that_is_not_an_object_is_kept_as_it_is_the_rest_annotated_and_the_run_exits_1(
    tmp_path, level
):
    source = write(tmp_path / "book.json", f'{{"levels":[{level},{{"tiles":[[1,2],[2,2]]}}]}}')
    out = tmp_path / "out.json"
    result = annotate(str(source), "--out", str(out))
    assert result.exit_code == 1, result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        "error: 1 of 2 levels malformed, kept as they are: level 1 (expected an object with 'tiles')"
    )
    written = out.read_text()
    assert written.startswith(f'{{"levels":[{level},{{"tiles":[[1,2],[2,2]],')
    assert json.loads(written)["levels"][1]["solutionType"] == "impossible"


# --- item 3: solutions holding what is not a vector ----------------------------------------------------


@pytest.mark.parametrize("entry", ["null", "3", "[true]", "[1.0]"])
def test_a_solutions_entry_that_is_not_a_vector_is_dropped_from_a_solvable_level(tmp_path, entry):
    # [true] and [1.0] equal the only optimum [1] to Python, but the game reads no vector from them.
    source = write(
        tmp_path / "book.json",
        json.dumps({"levels": [{"tiles": TWO_BY_TWO_BLACK, "par": 1}]}).replace(
            '"par": 1', f'"par": 1, "solutions": [{entry}]'
        ),
    )
    out = tmp_path / "out.json"
    result = annotate(str(source), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert "solutions entry 1 " in result.stdout and "; dropped" in result.stdout
    level = json.loads(out.read_text())["levels"][0]
    assert json.dumps(level["solutions"]) == "[[1]]" and json.dumps(level["solutionVector"]) == "[1]"
    assert run(str(out), "--all").exit_code == 0


# --- item 12: a byte-order mark ------------------------------------------------------------------------


def test_in_place_keeps_a_byte_order_mark_and_every_byte_of_a_book_it_need_not_change(tmp_path):
    text = json.dumps(
        {
            "levels": [
                {
                    "tiles": TWO_BY_TWO_BLACK,
                    "par": 1,
                    "solutions": [[1]],
                    "solutionVector": [1],
                    "solutionType": "exhaustive",
                }
            ]
        }
    )
    book = tmp_path / "book.json"
    book.write_bytes((BOM + text.replace(", ", ",\r\n")).encode())
    before = book.read_bytes()
    result = annotate(str(book), "--in-place")
    assert result.exit_code == 0, result.stderr
    assert book.read_bytes() == before


def test_the_annotated_book_keeps_the_byte_order_mark_of_its_source(tmp_path):
    source = tmp_path / "book.json"
    source.write_bytes((BOM + json.dumps({"levels": [{"tiles": TWO_BY_TWO_BLACK}]})).encode())
    out = tmp_path / "out.json"
    assert annotate(str(source), "--out", str(out)).exit_code == 0
    assert out.read_bytes().startswith(BOM.encode() + b'{"levels": [{"tiles": [[2, 2], [2, 2]], "par": 1')


# --- item 13: duplicate keys ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "members",
    [
        '"solutionVector":[1],"solutionVector":[0]',
        '"solutionVector":[0],"tiles":TILES,"solutionVector":[1]',
        '"solutionVector":[0],"solutionVector":[1],"tiles":TILES',
    ],
)
def test_every_copy_of_a_duplicated_solution_vector_leaves_an_impossible_level(tmp_path, members):
    level = members.replace("TILES", json.dumps(IMPOSSIBLE))
    if '"tiles"' not in level:
        level = f'"tiles":{json.dumps(IMPOSSIBLE)},{level}'
    source = write(tmp_path / "book.json", f'{{"levels":[{{{level}}}]}}')
    out = tmp_path / "out.json"
    assert annotate(str(source), "--out", str(out)).exit_code == 0
    written = out.read_text()
    assert "solutionVector" not in written
    assert json.loads(written)["levels"][0] == {
        "tiles": IMPOSSIBLE,
        "par": None,
        "solutions": [],
        "solutionType": "impossible",
    }
    checked = run(str(out), "--all")
    assert "solutionVector" not in checked.stderr
    assert "no moves clear this board" in checked.stderr  # as --all says of every impossible level


def test_a_written_field_leaves_no_stale_copy_of_itself_before_it(tmp_path):
    source = write(
        tmp_path / "book.json",
        '{"levels":[{"par":7,"tiles":[[2,2],[2,2]],"par":5,"solutions":[[1]],"solutions":[[0]]}]}',
    )
    out = tmp_path / "out.json"
    assert annotate(str(source), "--out", str(out)).exit_code == 0
    assert out.read_text() == (
        '{"levels":[{"tiles":[[2,2],[2,2]],"par":1,"solutions":[[1]],"solutionVector":[1],'
        '"solutionType":"optimal"}]}'
    )


# --- item 14: --max-solutions K with exactly K optima --------------------------------------------------


def unique_optima_book() -> str:
    """Levels of one optimum each, all listed and labelled exhaustive, as annotate --exhaustive writes
    them."""
    boards = [square_board(4, [(0, 0, 2)]), square_board(4, [(1, 1, 3)]), TWO_BY_TWO_BLACK]
    levels = []
    for tiles in boards:
        board = oracle.book_board({"tiles": tiles})
        sets = oracle.optimal_solution_sets(board)
        assert sets is not None and len(sets) == 1
        (moves,) = sets
        vector = [int(move in moves) for move in oracle.game_order(*oracle.shape(board))]
        levels.append(
            {
                "tiles": tiles,
                "par": len(moves),
                "solutions": [vector],
                "solutionVector": vector,
                "solutionType": "exhaustive",
            }
        )
    return json.dumps({"levels": levels})


@pytest.mark.parametrize("exhaustive", [[], ["--exhaustive"]])
def test_max_solutions_equal_to_the_number_of_optima_keeps_every_exhaustive_label(tmp_path, exhaustive):
    book = write(tmp_path / "book.json", unique_optima_book())
    before = book.read_bytes()
    result = annotate(str(book), "--in-place", "--max-solutions", "1", *exhaustive)
    assert result.exit_code == 0, result.stderr
    assert "0 of 3 levels changed; the book was wrong on none" in result.stdout
    assert "more than the 1 optima" not in result.stdout
    assert book.read_bytes() == before


def test_max_solutions_below_the_number_of_optima_still_says_there_may_be_more(tmp_path):
    two_optima = [{"tiles": book_tiles(oracle.as_board(SPEC_BOARD))}]
    source = write(tmp_path / "book.json", json.dumps({"levels": two_optima}))
    out = tmp_path / "out.json"
    result = annotate(str(source), "--out", str(out), "--max-solutions", "1", "--exhaustive")
    assert result.exit_code == 0, result.stderr
    assert "--max-solutions stopped the listing at 1: there may be more optima" in result.stdout
    level = json.loads(out.read_text())["levels"][0]
    assert (len(level["solutions"]), level["solutionType"]) == (1, "optimal")
    result = annotate(str(source), "--out", str(out), "--max-solutions", "2", "--exhaustive")
    level = json.loads(out.read_text())["levels"][0]
    assert (len(level["solutions"]), level["solutionType"]) == (2, "exhaustive")
    assert "may be more" not in one_line(result.stderr) + result.stdout
