"""The game's three-colour ("tri") levels in the front end: read from text boards that say so, m_3 links and
books; written back as links and books; every answer replayed mod 3 and shown as step cards, records and
walkthroughs in the game's colours. The tiles here are the game's digits (1 cream, 2 blue, 3 red), replayed
by `game_press` below, the game's own rule written out, not the front end's arithmetic."""

from __future__ import annotations

import itertools
import json

import pytest
from support import REPO, json_records, one_line, run, schema_errors, write, write_book

from unflip_frontend import api
from unflip_frontend.boards import (
    TRI,
    TWO,
    Move,
    TriBoard,
    apply_move,
    board_image,
    parse_board_text,
    replay,
    scheme_of,
)
from unflip_frontend.books import Level, parse_book
from unflip_frontend.errors import InputError, SolverError, VerificationError
from unflip_frontend.game_vectors import (
    game_moves,
    least_optimum_by_probing,
    moves_to_vector,
    vector_to_moves,
)
from unflip_frontend.links import parse_link
from unflip_frontend.protocol import Solution, parse_solver_output
from unflip_frontend.render import ASCII, TRI_STYLES, UNICODE, solution_report
from unflip_frontend.verify import verified

# The game's press, its `unsquare`: 1 → 3, 3 → 2, 2 → 1.
UNSQUARE = {1: 3, 3: 2, 2: 1}


def game_press(tiles: list[list[int]], move: tuple[int, int, int]) -> list[list[int]]:
    """The game's digits after one press of the square (row, col, size)."""
    row, col, size = move
    return [
        [
            UNSQUARE[tile] if row <= r < row + size and col <= c < col + size else tile
            for c, tile in enumerate(line)
        ]
        for r, line in enumerate(tiles)
    ]


def game_digits(board) -> list[list[int]]:
    return [[tile + 1 for tile in row] for row in board]


TRI_TEXT = "scheme tri\n123\n312\n231\n"  # no presses clear it (GF(3) rank)


def editor_board(height: int, width: int, presses: dict[tuple[int, int, int], int]) -> list[list[int]]:
    """The game's digits of the level a link's presses make (the editor's way): tile − 1 = (A·x) mod 3."""
    tiles = [[0] * width for _ in range(height)]
    for (row, col, size), times in presses.items():
        for r in range(row, row + size):
            for c in range(col, col + size):
                tiles[r][c] += times
    return [[1 + tile % 3 for tile in line] for line in tiles]


THREE = editor_board(3, 3, {(0, 0, 2): 2, (0, 0, 3): 1, (1, 1, 2): 1})
THREE_TEXT = "scheme tri\n" + "\n".join("".join(map(str, row)) for row in THREE) + "\n"


# Reading


def test_a_text_board_is_tri_only_when_its_first_line_or_the_scheme_given_says_so():
    said = parse_board_text(TRI_TEXT, "b")
    given = parse_board_text("123\n312\n231\n", "b", TRI)
    assert scheme_of(said) == scheme_of(given) == TRI and said == given
    assert game_digits(said) == [[1, 2, 3], [3, 1, 2], [2, 3, 1]]


def test_a_two_colour_board_of_1s_and_2s_is_never_read_as_tri():
    board = parse_board_text("12\n21\n", "b")
    assert scheme_of(board) == TWO and board == ((0, 1), (1, 0))
    assert scheme_of(parse_board_text("scheme two\n12\n21\n", "b")) == TWO


@pytest.mark.parametrize(
    "text, scheme, words",
    [
        (
            "scheme tri\n120\n111\n",
            None,
            "line 2: '0' is not a tile (a tri board's tiles are 1 cream, 2 blue, 3 red)",
        ),
        ("124\n111\n", TRI, "line 1: '4' is not a tile (a tri board's tiles are 1 cream, 2 blue, 3 red)"),
        ("scheme quad\n12\n21\n", None, "line 1: scheme 'quad' is not one of two, tri"),
        ("scheme tri\n12\n21\n", TWO, "line 1 says scheme tri, but the scheme asked for is two"),
        ("scheme tri\n", None, "the board is empty after its scheme line"),
    ],
)
def test_a_bad_tri_text_board_is_one_clear_line(text, scheme, words):
    with pytest.raises(InputError) as caught:
        parse_board_text(text, "b", scheme)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_printed_tri_board_reads_back_as_itself_in_both_glyph_sets():
    board = parse_board_text(THREE_TEXT, "b")
    level = Level("b", None, board, None, "")
    for glyphs in (UNICODE, ASCII):
        solved = Solution(0, (), 1, 0.0)
        printed = solution_report(level, solved, [board], glyphs, compact=False)[2].plain.split("\n", 1)[1]
        assert parse_board_text("scheme tri\n" + printed, "printed") == board


def test_a_hand_built_m_3_link_reads_as_the_games_rule_makes_it_in_both_data_forms():
    # The 2×3 board's moves in the game's order: (0, 0, 2), then (0, 1, 2). Pressed 2 and 1 times, the
    # editor's way: column 1 is covered twice (tile 3), column 2 three times (tile 1), column 3 once (tile 2).
    assert game_moves(2, 3) == (Move(0, 0, 2), Move(0, 1, 2))
    for compact in (
        "s_3_2$m_3$v$21",
        "s_3_2$m_3$v$_2_1",
        "https://unflipgame.com/?custom=s_3_2%24m_3%24v%2421",
    ):
        shared = parse_link(compact)
        assert scheme_of(shared.board) == TRI
        assert (
            game_digits(shared.board)
            == [[3, 1, 2], [3, 1, 2]]
            == editor_board(2, 3, {(0, 0, 2): 2, (0, 1, 2): 1})
        )
        assert shared.par == 3


def test_a_link_pressed_as_the_game_presses_its_vector_is_solved():
    shared = parse_link("s_3_3$m_3$v$" + "".join(map(str, moves_to_vector([], 3, 3, TRI))))
    assert all(tile == 0 for row in shared.board for tile in row)
    # 3×3 in the game's order: (0,0,2), (0,0,3), (1,0,2), (0,1,2), (1,1,2).
    vector = (2, 1, 0, 0, 1)
    assert vector_to_moves(vector, 3, 3, TRI) == (Move(0, 0, 2), Move(0, 0, 2), Move(0, 0, 3), Move(1, 1, 2))
    tiles = game_digits(parse_link("s_3_3$m_3$v$" + "".join(map(str, vector))).board)
    assert tiles == THREE
    for move in vector_to_moves(vector, 3, 3, TRI):
        tiles = game_press(tiles, move)
    assert tiles == [[1] * 3] * 3


@pytest.mark.parametrize(
    "link, words",
    [
        ("s_3_2$m_3$v$13", "the solution vector has 3 at entry 2; every entry is 0, 1 or 2"),
        ("s_3_2$m_3$v$_2_9", "the solution vector has 9 at entry 2; every entry is 0, 1 or 2"),
        ("s_3_2$m_4$v$11", "m_4 would be a 4-colour arithmetic"),
        ("s_3_2$m_3$t$1_2_3_4_1_1", "tile 4 at row 2, col 1 (expected 1 = cream, 2 = blue or 3 = red)"),
    ],
)
def test_a_bad_tri_link_is_one_line_and_exit_2(link, words):
    result = run(link)
    assert result.exit_code == 2 and words in one_line(result.stderr)


def test_a_tri_link_with_a_two_colour_scheme_asked_is_refused():
    result = run("s_3_2$m_3$v$21", "--scheme", "two")
    assert result.exit_code == 2
    assert (
        one_line(result.stderr)
        == "error: game link is a three-colour (tri) level, but --scheme two was given"
    )
    book = run("daily", "1", "--scheme", "tri", "--books", str(REPO))
    assert book.exit_code == 2
    assert one_line(book.stderr) == "error: daily level 1 is a two-colour level, but --scheme tri was given"


@pytest.mark.parametrize(
    "tiles",
    [
        [[3, 1, 2], [3, 1, 2]],
        {"array": [3, 1, 2, 3, 1, 2], "width": 3, "height": 2},
    ],
)
def test_a_book_level_with_color_scheme_tri_is_read_in_both_tile_encodings(tiles):
    book = parse_book(json.dumps({"levels": [{"tiles": tiles, "colorScheme": "tri", "par": 3}]}), "b")
    board = book.levels[0].board
    assert scheme_of(board) == TRI and game_digits(board) == [[3, 1, 2], [3, 1, 2]]


@pytest.mark.parametrize(
    "level, problem",
    [
        (
            {"tiles": [[1, 4], [1, 1]], "colorScheme": "tri"},
            "tile 4 at row 1, col 2 (expected 1 = cream, 2 = blue or 3 = red)",
        ),
        ({"tiles": [[1, 3], [1, 1]]}, "tile 3 at row 1, col 2 (expected 1 = white or 2 = black)"),
        ({"tiles": [[1, 2], [1, 1]], "colorScheme": "RGB"}, "colorScheme 'RGB' is not one unflip reads"),
    ],
)
def test_a_book_level_outside_its_scheme_is_malformed_with_its_reason(level, problem):
    read = parse_book(json.dumps({"levels": [level]}), "b").levels[0]
    assert read.problem is not None and problem in read.problem


# Replay and the protocol


def test_a_press_turns_each_tile_of_its_square_one_step_and_three_presses_undo_it():
    board = parse_board_text(THREE_TEXT, "b")
    once = apply_move(board, Move(0, 0, 2))
    assert scheme_of(once) == TRI
    assert game_digits(once) == game_press(THREE, (0, 0, 2))
    assert replay(board, (Move(0, 0, 2),) * 3)[-1] == board


TRI_OUTPUT = "SCHEME tri\nTARGET 0\nMOVES 4\n0 0 2\n0 0 2\n0 0 3\n1 1 2\nNODES 7\nTIME 0.001\n"


def test_the_solvers_tri_output_is_read_with_a_double_press_as_two_moves_and_replayed():
    board = parse_board_text(THREE_TEXT, "b")
    outcome = parse_solver_output(0, TRI_OUTPUT, "", (3, 3), "0", scheme=TRI)
    assert isinstance(outcome, Solution)
    assert outcome.moves == (Move(0, 0, 2), Move(0, 0, 2), Move(0, 0, 3), Move(1, 1, 2))
    assert verified(board, outcome) is outcome


@pytest.mark.parametrize(
    "stdout, scheme, words",
    [
        (TRI_OUTPUT.removeprefix("SCHEME tri\n"), TRI, "line 1: expected 'SCHEME tri', got 'TARGET 0'"),
        (TRI_OUTPUT, TWO, "line 1: expected 'TARGET 0', got 'SCHEME tri'"),
        (
            TRI_OUTPUT.replace("0 0 2\n0 0 3\n", "0 0 3\n0 0 2\n"),
            TRI,
            "a square pressed twice is not on two lines",
        ),
    ],
)
def test_tri_output_out_of_protocol_is_malformed(stdout, scheme, words):
    with pytest.raises(SolverError, match=words):
        parse_solver_output(0, stdout, "", (3, 3), "0", scheme=scheme)


def test_a_solution_line_whose_double_press_is_not_side_by_side_is_malformed():
    listed = "SCHEME tri\nTARGET 0\nMOVES 4\nSOLUTION {}\nSOLUTIONS 1\nNODES 7\nTIME 0.001\n"
    together = parse_solver_output(
        0, listed.format("0 0 2 0 0 2 0 0 3 1 1 2"), "", (3, 3), "0", True, scheme=TRI
    )
    assert isinstance(together, Solution) and together.moves[:2] == (Move(0, 0, 2),) * 2
    with pytest.raises(SolverError, match="line 4: expected 'SOLUTION' and 4 moves"):
        parse_solver_output(0, listed.format("0 0 2 0 0 3 0 0 2 1 1 2"), "", (3, 3), "0", True, scheme=TRI)


def test_a_tri_answer_that_does_not_clear_the_board_or_presses_a_square_three_times_fails_verification():
    board = parse_board_text(THREE_TEXT, "b")
    short = Solution(0, (Move(0, 0, 2), Move(0, 0, 3), Move(1, 1, 2)), 1, 0.0)
    with pytest.raises(VerificationError, match="leaves 4 tiles not cream"):
        verified(board, short)
    thrice = Solution(0, (Move(0, 0, 2),) * 3, 1, 0.0)
    with pytest.raises(VerificationError, match="makes a move three times"):
        verified(parse_board_text("scheme tri\n111\n111\n", "b"), thrice)


# Showing


def test_a_step_card_says_which_way_the_tiles_turn_and_a_double_press_is_two_steps_in_the_games_colours():
    board = parse_board_text(THREE_TEXT, "b")
    solution = parse_solver_output(0, TRI_OUTPUT, "", (3, 3), "0", scheme=TRI)
    assert isinstance(solution, Solution)
    level = Level("b", None, board, None, "")
    parts = solution_report(level, solution, replay(board, solution.moves), UNICODE, compact=False)
    text = "\n".join(part.plain for part in parts)
    turn = "(its tiles turn cream → red → blue → cream)"
    assert f"Step 1 of 4 — press the 2×2 square covering rows 1–2, cols 1–2 {turn}:" in text
    assert "Step 2 of 4 — press the 2×2 square covering rows 1–2, cols 1–2 again (its tiles turn" in text
    assert "leaves every tile cream." in text
    styles = {str(span.style) for part in parts for span in part.spans}
    assert {style.lower() for style in TRI_STYLES} <= {style.lower() for style in styles}
    compact = solution_report(level, solution, [board], ASCII, compact=True)
    turn = "(its tiles turn cream -> red -> blue -> cream)"
    assert compact[2].plain == f"   2. press the 2x2 square covering rows 1-2, cols 1-2 again {turn}"


# End to end, with the solver


def test_a_tri_board_is_solved_in_its_proven_fewest_presses_and_shown_as_cards(tmp_path):
    path = write(tmp_path / "three.txt", THREE_TEXT)
    result = run(str(path), "--ascii")
    assert result.exit_code == 0, result.output
    assert "Optimal: 4 moves" in result.output
    assert result.output.count("again") == 1
    assert "Verified: replaying all 4 moves on the original board leaves every tile cream." in result.output


def test_tri_json_says_its_scheme_and_a_two_colour_record_has_no_scheme(tmp_path):
    path = write(tmp_path / "three.txt", THREE_TEXT)
    [record] = json_records(run(str(path), "--json"))
    assert schema_errors(record) == []
    assert record["level"]["scheme"] == "tri" and record["level"]["board"] == [
        "".join(map(str, row)) for row in THREE
    ]
    tiles = [list(map(int, row)) for row in record["level"]["board"]]
    for move in record["moves"]:
        tiles = game_press(tiles, (move["row"], move["col"], move["size"]))
    assert tiles == [[1] * 3] * 3 and record["move_count"] == 4
    [two] = json_records(run(str(write(tmp_path / "two.txt", "11\n11\n")), "--json"))
    assert "scheme" not in two["level"]


def test_a_tri_board_no_presses_clear_is_unsolvable_exit_1(tmp_path):
    result = run(str(write(tmp_path / "t.txt", TRI_TEXT)))
    assert result.exit_code == 1
    assert one_line(result.stderr) == "unsolvable: no sequence of moves clears this board"


def test_share_writes_an_m_3_link_at_the_optimum_that_reads_back_as_the_same_board(tmp_path):
    path = write(tmp_path / "three.txt", THREE_TEXT)
    result = run("share", str(path))
    assert result.exit_code == 0, result.output
    link = one_line(result.stdout)
    assert "$m_3$v$" in link
    shared = parse_link(link)
    assert shared.board == parse_board_text(THREE_TEXT, "b") and shared.par == 4
    again = run("share", link)
    assert one_line(again.stdout) == link


def test_hint_from_a_tri_position_is_a_press_of_an_optimal_solution(tmp_path):
    path = write(tmp_path / "three.txt", THREE_TEXT)
    result = run("hint", str(path), "--ascii")
    assert result.exit_code == 0, result.output
    assert "Hint - press the 2x2 square covering rows 1-2, cols 1-2" in result.output
    assert "then 3 moves remain" in result.output
    refused = run("hint", str(path), "--prefer", "eric")
    assert refused.exit_code == 2 and "--prefer is for two-colour" in one_line(refused.stderr)


@pytest.mark.parametrize("option", [["--target", "1"], ["--certificate", "x.cert"], ["--signals"]])
def test_what_a_tri_level_cannot_have_is_one_line_and_exit_2(tmp_path, option):
    path = write(tmp_path / "three.txt", THREE_TEXT)
    result = run(str(path), *option)
    assert result.exit_code == 2
    assert "is a three-colour (tri) level" in one_line(result.stderr)


def test_all_and_annotate_on_a_tri_book_prove_and_write_its_pars(tmp_path):
    levels = [
        {"tiles": THREE, "colorScheme": "tri", "par": 4},
        {"tiles": editor_board(4, 4, {(0, 0, 2): 1, (2, 2, 2): 2}), "colorScheme": "tri", "par": 9},
    ]
    book = write_book(tmp_path / "tri.json", levels)
    checked = run(str(book), "--all", "--ascii")
    assert checked.exit_code == 1, checked.output  # level 2's par is 3, not 9
    out = tmp_path / "fixed.json"
    annotated = run("annotate", str(book), "--out", str(out))
    assert annotated.exit_code == 0, annotated.output
    fixed = json.loads(out.read_text())["levels"]
    assert [level["par"] for level in fixed] == [4, 3]
    assert all(level["colorScheme"] == "tri" for level in fixed)
    for level in fixed:
        tiles = level["tiles"]
        for move in vector_to_moves(level["solutionVector"], len(tiles), len(tiles[0]), TRI):
            tiles = game_press(tiles, move)
        assert tiles == [[1] * len(tiles[0])] * len(tiles)
    assert run(str(out), "--all").exit_code == 0


def test_generate_scheme_tri_makes_unique_tri_levels_whose_par_is_proven(tmp_path):
    out = tmp_path / "tri.json"
    made = run(
        "generate",
        "--scheme",
        "tri",
        "--size",
        "4",
        "--optimum",
        "3-6",
        "--count",
        "2",
        "--unique",
        "--out",
        str(out),
    )
    assert made.exit_code == 0, made.output
    book = parse_book(out.read_text(), "tri.json")
    assert all(scheme_of(level.board) == TRI for level in book.levels)
    assert '"colorScheme":"tri"' in out.read_text()
    for level in book.levels:
        counted = api.count_solutions(level, max_solutions=2)
        assert isinstance(counted, api.OptimaCount) and counted.unique and counted.optimum == level.par


def test_generate_scheme_tri_takes_a_symmetry_and_a_gap_and_refuses_the_two_colour_measures(tmp_path):
    out = tmp_path / "tri.json"
    asked = [
        "generate",
        "--scheme",
        "tri",
        "--size",
        "5",
        "--optimum",
        "4-8",
        "--count",
        "2",
        "--out",
        str(out),
    ]
    made = run(*asked, "--symmetric", "half-turn", "--min-gap", "1")
    assert made.exit_code == 0, made.output
    for level in parse_book(out.read_text(), "tri.json").levels:
        assert scheme_of(level.board) == TRI and board_image(level.board, "half-turn") == level.board
    refused = run(*asked, "--order-by", "eric")
    assert refused.exit_code == 2 and "drop them for --scheme tri" in one_line(refused.stderr)


def test_the_api_takes_the_scheme_on_board_and_solves_it():
    board = api.Board([[tile - 1 for tile in row] for row in THREE], scheme="tri")
    assert board.scheme == "tri" and api.Board.from_text(str(board)) == board
    found = api.solve(board)
    assert isinstance(found, api.Solution) and len(found.moves) == 4
    tiles = [list(row) for row in THREE]
    for move in found.moves:
        tiles = game_press(tiles, move)
    assert tiles == [[1] * 3] * 3
    with pytest.raises(InputError, match="three-colour"):
        api.solve(board, target=1)
    with pytest.raises(InputError, match=r"tile 3 at row 1, col 1 \(expected 0 = cream"):
        api.Board([[3, 0], [0, 0]], scheme="tri")


def test_the_svg_and_html_walkthroughs_draw_a_tri_board_in_the_games_colours(tmp_path):
    path = write(tmp_path / "three.txt", THREE_TEXT)
    svg, html = tmp_path / "w.svg", tmp_path / "w.html"
    assert run(str(path), "--svg", str(svg), "--html", str(html)).exit_code == 0
    for drawn in (svg.read_text(), html.read_text()):
        assert "#f9fac8" in drawn and "#0431d4" in drawn and "#ff0040" in drawn
    assert "again" in html.read_text()


def test_a_tri_board_is_an_internal_tri_board_whatever_made_it():
    assert isinstance(parse_link("s_3_2$m_3$v$21").board, TriBoard)


def test_all_solutions_of_a_tri_board_are_every_optimum_an_enumeration_of_all_presses_finds(tmp_path):
    """Every press vector of a 3×3 board (3⁵ of them), replayed by the game's press: the least presses and
    every vector of that many, against --all-solutions and --count."""
    moves = [(move.row, move.col, move.size) for move in game_moves(3, 3)]
    found: dict[int, list[tuple[int, ...]]] = {}
    for vector in itertools.product(range(3), repeat=len(moves)):
        tiles = [list(row) for row in THREE]
        for move, times in zip(moves, vector, strict=True):
            for _ in range(times):
                tiles = game_press(tiles, move)
        if tiles == [[1] * 3] * 3:
            found.setdefault(sum(vector), []).append(vector)
    optimum = min(found)
    path = write(tmp_path / "three.txt", THREE_TEXT)
    records = json_records(run(str(path), "--all-solutions", "--json"))
    listed = [record["moves"] for record in records if record["record"] == "solution"]
    as_vectors = sorted(
        moves_to_vector([Move(m["row"], m["col"], m["size"]) for m in solution], 3, 3, TRI)
        for solution in listed
    )
    assert as_vectors == sorted(found[optimum]) and records[-1]["move_count"] == optimum
    counted = run(str(path), "--count", "--ascii")
    count = len(found[optimum])
    assert counted.exit_code == 0 and f"{count} optimal solution" in counted.output


def test_probing_for_the_canonical_optimum_takes_a_square_twice_when_an_optimum_presses_it_twice():
    """least_optimum_by_probing, its proofs answered by an enumeration of every 3×3 press vector: the
    canonical optimum of THREE presses (0, 0, 2) twice, the game's first move, so probing must ask again."""
    optima: dict[tuple[tuple[int, ...], ...], int] = {}
    for vector in itertools.product(range(3), repeat=len(game_moves(3, 3))):
        board = parse_link("s_3_3$m_3$v$" + "".join(map(str, vector))).board
        optima[board] = min(optima.get(board, sum(vector)), sum(vector))
    board = parse_board_text(THREE_TEXT, "b")
    assert least_optimum_by_probing(board, optima[board], [], optima.get) == (2, 1, 0, 0, 1)
