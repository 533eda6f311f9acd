"""annotate on hostile books, with the real solver on tiny boards: a level that is not an object, solutions
holding what is not a vector, a byte-order mark, duplicate keys and a --max-solutions cap equal to the number
of optima each get the documented answer; and, over books Hypothesis makes up (any JSON in any field,
duplicate keys, byte-order marks, any line ends), annotate never gives a traceback, writes a whole book or
nothing, touches no file but the one it was asked to write, and changes nothing on a second run."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import oracle
import pytest
from helpers import book_tiles
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import SPEC_BOARD, one_line, run, square_board, write

from unflip_frontend.solver import MAX_SOLUTIONS

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


def test_max_solutions_at_the_solvers_limit_lists_every_optimum(tmp_path):
    # One more than the limit is a cap the solver refuses; a listing as long as the limit is never made.
    book = write(tmp_path / "book.json", unique_optima_book())
    before = book.read_bytes()
    result = annotate(str(book), "--in-place", "--max-solutions", str(MAX_SOLUTIONS), "--exhaustive")
    assert result.exit_code == 0, result.stderr
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


# --- the property: any hostile book --------------------------------------------------------------------


class Members(list[tuple[str, object]]):
    """A JSON object as its members in the text's order, so that a key can come twice."""


GAME_KEYS = ["tiles", "par", "solutions", "solutionVector", "solutionType"]
KEYS = st.sampled_from([*GAME_KEYS, "title", "levels", "id"]) | st.text(max_size=3)
LEAVES = st.none() | st.booleans() | st.integers(-2, 20) | st.integers() | st.floats() | st.text(max_size=4)
ANY_JSON = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.lists(st.tuples(KEYS, inner), max_size=3).map(Members),
    max_leaves=8,
)
# Between any two tokens: nothing, spaces, tabs or a line end of any kind.
GAPS = st.sampled_from(["", " ", "  ", "\t", "\n", "\r\n", "\r", "\n    "])


@st.composite
def hostile_levels(draw: st.DrawFn) -> object:
    """A level of a tiny board, each field of it maybe missing, repeated or (one time in six) any JSON: its
    tiles a board made by moves (whose vector then clears it) or any 1/2 tiles (often no moves clear
    them), in either encoding; its vectors that one or any 0/1 vectors, of its length or not."""
    if draw(st.integers(0, 9)) == 0:
        return draw(ANY_JSON)  # a level that is not one
    height, width = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    order = oracle.game_order(height, width)
    made = draw(st.lists(st.booleans(), min_size=len(order), max_size=len(order)))
    board = oracle.replay(
        oracle.uniform(height, 0, width), [move for move, bit in zip(order, made, strict=True) if bit]
    )
    if draw(st.integers(0, 2)) == 0:
        row = st.lists(st.integers(0, 1), min_size=width, max_size=width).map(tuple)
        board = tuple(draw(st.lists(row, min_size=height, max_size=height)))
    tiles: object = book_tiles(board)
    if draw(st.booleans()):
        tiles = {
            "array": [tile for row in book_tiles(board) for tile in row],
            "width": width,
            "height": height,
        }
    vector = st.sampled_from([[int(bit) for bit in made]]) | st.lists(
        st.integers(0, 1), min_size=len(order) - 1, max_size=len(order) + 1
    )
    plausible = {
        "tiles": st.just(tiles),
        "par": st.none() | st.integers(0, 9) | st.sampled_from([1.0, 2.0]),
        "solutions": st.lists(vector | LEAVES | ANY_JSON, max_size=3),
        "solutionVector": vector,
        "solutionType": st.sampled_from(["optimal", "exhaustive", "impossible", "minizinc"]),
        "title": st.text(max_size=4),
    }
    members = Members()
    for key, value in plausible.items():
        copies = draw(st.sampled_from([1, 1, 1, 1, 2, 0] if key == "tiles" else [0, 1, 1, 2]))
        members += [(key, draw(ANY_JSON if draw(st.integers(0, 5)) == 0 else value)) for _ in range(copies)]
    return Members(draw(st.permutations(members)))


@st.composite
def hostile_books(draw: st.DrawFn) -> bytes:
    """The text of a book of up to 3 hostile levels, with what else a book may hold, sometimes a 'levels'
    before the one read among it, written with any gaps and line ends, keys spelled with escapes
    or not, after a byte-order mark or not."""
    levels = [] if draw(st.integers(0, 19)) == 0 else draw(st.lists(hostile_levels(), min_size=1, max_size=3))
    others = draw(st.lists(st.tuples(KEYS.filter(lambda key: key != "levels"), ANY_JSON), max_size=2))
    book = Members(draw(st.permutations([("levels", levels), *others])))
    if draw(st.integers(0, 4)) == 0:
        book.insert(0, ("levels", draw(ANY_JSON)))  # json.loads, like the game, reads the last

    def written(value: object) -> str:
        def gap() -> str:
            return draw(GAPS)

        if isinstance(value, Members):
            members = [
                gap() + spelled(key) + gap() + ":" + gap() + written(item) + gap() for key, item in value
            ]
            return "{" + ",".join(members) + gap() + "}"
        if isinstance(value, list):
            return "[" + ",".join(gap() + written(item) + gap() for item in value) + gap() + "]"
        return json.dumps(value)

    def spelled(key: str) -> str:
        """The key as json.dumps writes it, or as escapes alone: "\\u0070\\u0061\\u0072" for "par"."""
        if draw(st.booleans()):
            return json.dumps(key)
        units = key.encode("utf-16-be")  # a character past the first 65,536 is a pair of escapes
        return '"' + "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2)) + '"'

    bom = BOM if draw(st.booleans()) else ""
    return (bom + written(book) + draw(GAPS)).encode()


def folder_bytes(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def kept_apart_from_game_fields(book: bytes) -> tuple[str, str]:
    """What annotate never changes in a book: its other members, and every level but a level's game fields
    (as json.loads reads them: the last of a key repeated)."""
    data = json.loads(book.decode().removeprefix(BOM))
    levels = [
        {key: value for key, value in level.items() if key not in GAME_KEYS}
        if isinstance(level, dict)
        else level
        for level in data["levels"]
    ]
    return json.dumps({key: value for key, value in data.items() if key != "levels"}), json.dumps(levels)


# Each level, of up to 4×4, is proven by the real solver, the command run in-process (support.run): 100 books
# of up to 3 levels, each annotated twice, take about 4 s of CPU.
@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(book=hostile_books(), in_place=st.booleans(), exhaustive=st.booleans())
def test_annotate_on_any_hostile_book_writes_a_whole_book_or_nothing_and_a_second_run_changes_nothing(
    book, in_place, exhaustive
):
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        source = folder / "book.json"
        source.write_bytes(book)
        write(folder / "other.json", "{}")  # a file no run is asked to write
        out = source if in_place else folder / "out.json"
        target = ["--in-place"] if in_place else ["--out", str(out)]
        flags = ["--exhaustive"] if exhaustive else []
        before = folder_bytes(folder)
        result = annotate(str(source), *target, *flags)
        after = folder_bytes(folder)
        assert result.exit_code in (0, 1, 2), result.stderr
        if result.exit_code == 2:  # a book that cannot be read: one line, and nothing written
            assert one_line(result.stderr).startswith("error: ")
            assert after == before
            return
        if result.exit_code == 1:  # a malformed level, named
            assert "levels malformed, kept as they are" in result.stderr.splitlines()[-1]
        assert after == {**before, out.name: after[out.name]}
        written = after[out.name]
        assert written.startswith(BOM.encode()) == book.startswith(BOM.encode())
        assert kept_apart_from_game_fields(written) == kept_apart_from_game_fields(book)

        again = annotate(str(out), "--in-place", *flags)
        assert again.exit_code == result.exit_code, again.stderr
        assert folder_bytes(folder) == after
        assert again.stdout.splitlines()[-1].startswith("0 of "), again.stdout  # "0 of N levels changed"
