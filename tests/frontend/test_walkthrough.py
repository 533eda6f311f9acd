"""--svg and --html: the walkthrough files, away from a browser (test_browser.py reads them from
screenshots).

The SVG files are compared byte for byte with the golden files in golden/. Those were made by the code
and then checked: by eye, and by test_browser.py, whose pixel reading of every card is independent of
how they are drawn. After a deliberate change, UNFLIP_UPDATE_GOLDEN=1 rewrites them (never under CI);
look at the new files before committing them.
"""

import os
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from helpers import in_ci
from support import SPEC_BOARD, SPEC_OUTPUT, one_line, run, write
from walkthrough_cases import CASES, WIDE_CASES, spec_board

from unflip_frontend.boards import replay
from unflip_frontend.walkthrough import walkthrough_html, walkthrough_svg

GOLDEN = Path(__file__).parent / "golden"


def svg_of(name: str) -> str:
    level, solution = CASES[name]()
    return walkthrough_svg(level, solution, replay(level.board, solution.moves))


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("UNFLIP_UPDATE_GOLDEN") and not in_ci():
        path.write_text(text)
    assert text == path.read_text(), f"{path} differs; see this file's docstring"


@pytest.mark.parametrize("name", CASES)
def test_the_svg_walkthrough_matches_its_golden_file(name):
    check_golden(name, svg_of(name))


@pytest.mark.parametrize("name", CASES)
def test_the_svg_walkthrough_is_well_formed_xml_with_a_card_for_start_each_move_and_the_end(name):
    level, solution = CASES[name]()
    root = ElementTree.fromstring(svg_of(name))
    cards = root.findall("{http://www.w3.org/2000/svg}g[@class='card']")
    assert len(cards) == len(solution.moves) + 2
    outlines = root.findall(".//{http://www.w3.org/2000/svg}rect[@class='outline']")
    assert len(outlines) == len(solution.moves)


def test_a_31_wide_walkthrough_keeps_tiles_of_8_units_and_numbers_every_other_column():
    # At the 15×15 board's scale a 31×31 tile was 4 units with 2 of gap, and its two-digit column numbers
    # ran together ("10111213…").
    level, solution = WIDE_CASES["thirty_one"]()
    root = ElementTree.fromstring(walkthrough_svg(level, solution, replay(level.board, solution.moves)))
    card = root.find("{http://www.w3.org/2000/svg}g[@class='card']")
    assert card is not None
    tiles = card.findall(".//{http://www.w3.org/2000/svg}g[@class='board']/{http://www.w3.org/2000/svg}rect")
    assert len(tiles) == 1 + 31 * 31 and {tile.get("width") for tile in tiles[1:]} == {"8"}
    numbers = [text.text for text in card.iter("{http://www.w3.org/2000/svg}text")][2:]  # after the heading
    assert numbers == [str(c) for c in range(1, 32, 2)] + [str(r) for r in range(1, 32)]


def test_the_title_names_the_level_its_size_and_par_and_what_was_proven():
    root = ElementTree.fromstring(svg_of("twelve"))
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and title.text == (
        "weekly level 3 — 12×12 — par 3 — Corners & <edges>: "
        "2 moves, proven optimal and verified by replay (the book's par is 3)"
    )


def test_svg_from_the_command_line_is_the_golden_walkthrough(tmp_path, fake_solver, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "board.txt", SPEC_BOARD)
    result = run("board.txt", "--svg", "walk.svg", "--compact", env=fake_solver(SPEC_OUTPUT))
    assert result.exit_code == 0, result.stderr
    assert one_line(result.stderr) == "wrote the walkthrough to walk.svg"
    check_golden("spec_board", (tmp_path / "walk.svg").read_text())
    assert "Optimal: 8 moves" in result.stdout  # the terminal output is unchanged beside the file


def test_the_html_page_is_self_contained_and_sized_for_a_phone():
    level, solution = spec_board()
    page = walkthrough_html(level, solution, replay(level.board, solution.moves))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    for fetch in ("http:", "https:", "src=", "href=", "url(", "@import", "<link"):
        assert fetch not in page
    assert page.count('<section class="card"') == len(solution.moves) + 2


def test_html_from_the_command_line_writes_the_page_and_json_still_goes_to_stdout(tmp_path, fake_solver):
    page = tmp_path / "walk.html"
    board = write(tmp_path / "board.txt", SPEC_BOARD)
    result = run(str(board), "--html", str(page), "--json", env=fake_solver(SPEC_OUTPUT))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith('{"schema": 1, "record": "solve"')
    assert page.read_text().count('<section class="card"') == 10


def test_no_walkthrough_is_written_for_a_board_without_a_solution(tmp_path):
    result = run(str(write(tmp_path / "b.txt", "10\n00\n")), "--svg", str(tmp_path / "w.svg"))
    assert result.exit_code == 1
    assert not (tmp_path / "w.svg").exists()


def test_a_walkthrough_that_cannot_be_written_is_one_error_line_and_leaves_nothing(tmp_path, fake_solver):
    env = fake_solver(SPEC_OUTPUT)
    before = set(tmp_path.iterdir())
    blocker = write(tmp_path / "not-a-folder", "")
    result = run(str(write(tmp_path / "b.txt", SPEC_BOARD)), "--svg", str(blocker / "w.svg"), env=env)
    assert result.exit_code == 2
    assert one_line(result.stderr).startswith(f"error: cannot write {blocker / 'w.svg'}: ")
    # Checked before any work: the solver never ran (it would have left record.json).
    assert set(tmp_path.iterdir()) - before == {blocker, tmp_path / "b.txt"}
