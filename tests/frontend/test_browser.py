"""The walkthroughs in a real browser: headless Chromium (Debian's package) opens the HTML page and the SVG
picture, and every check is read from screenshot pixels: how many tiles each step shows black, and which
square is outlined. The page is stepped through with the arrow keys and the buttons, at a phone's width.

Without Chromium these tests skip, except under CI=true, where they fail (.ci/run installs it)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from oracle import replay as oracle_replay
from PIL import Image
from test_tri import game_press
from walkthrough_cases import CASES, WIDE_CASES, tri_case

from unflip_frontend.boards import replay, shape
from unflip_frontend.walkthrough import FRAME, OUTLINE, TRI_LIT, TRI_TILES, walkthrough_html, walkthrough_svg

PHONE = (390, 844)  # CSS pixels of a common phone held upright
DRAWN = {**CASES, **WIDE_CASES}  # every case the browser reads, the 31×31 board among them


@dataclass(frozen=True)
class Reading:
    """What a board in a screenshot shows."""

    black: frozenset[tuple[int, ...]]  # (row, col) of the dark tiles; of a tri board, (row, col, colour)
    outlined: tuple[int, int, int] | None  # (row, col, size) of the outlined square


def colour_mask(pixels: np.ndarray, colour: str) -> np.ndarray:
    target = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
    return np.all(np.abs(pixels - target) <= 12, axis=2)


def bounds(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) of the set pixels, inclusive."""
    ys, xs = np.nonzero(mask)
    return None if len(xs) == 0 else (int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max()))


def read_board(
    png: bytes,
    shape: tuple[int, int],
    region: tuple[float, float, float, float] | None = None,
    colour_of: Callable[[np.ndarray], int] | None = None,
) -> Reading:
    """Find the one board of this shape (rows, columns) in the screenshot (or in a region x, y, width,
    height of it) by its frame colour, then read each tile's middle as dark or light (or, given colour_of,
    as the colour it names: the tiles of any colour but 0 are read), and the outline's extent in whole
    tiles. Tiles must be square."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if region:
        x, y, width, height = region
        image = image.crop((round(x), round(y), round(x + width), round(y + height)))
    pixels = np.asarray(image, dtype=np.int16)
    frame, outline = colour_mask(pixels, FRAME), colour_mask(pixels, OUTLINE)
    found = bounds(frame | outline)
    assert found, "no board in the screenshot"
    left, top, right, bottom = found
    rows, columns = shape
    across, down = right - left + 1, bottom - top + 1
    # Both sides are whole tiles plus the same few pixels (the frame's edge, an outline standing out of it):
    # on a rectangle the difference of the sides gives the pitch without them.
    pitch = across / columns if rows == columns else (across - down) / (columns - rows)
    extra = across - columns * pitch
    assert abs(across - down) <= 3 if rows == columns else -3 <= extra <= pitch / 2, (
        f"not one {rows}×{columns} board of square tiles: {found} (more than one shown?)"
    )
    black = set()
    for r in range(rows):
        for c in range(columns):
            middle = pixels[int(top + (r + 0.5) * pitch), int(left + (c + 0.5) * pitch)]
            if colour_of is not None:
                if colour_of(middle):
                    black.add((r, c, colour_of(middle)))
                continue
            red, green, blue = middle
            if 0.2126 * red + 0.7152 * green + 0.0722 * blue < 128:
                black.add((r, c))
    outlined = None
    box = bounds(outline)
    if box:
        col, row = round((box[0] - left) / pitch), round((box[1] - top) / pitch)
        size = round((box[2] - left) / pitch) - col
        assert round((box[3] - top) / pitch) - row == size, f"the outline {box} is not a square"
        outlined = (row, col, size)
    return Reading(frozenset(black), outlined)


def expected_readings(name: str) -> list[Reading]:
    """Computed with the oracle's replay, not the front end's: start, each step (the board before the
    move, its square outlined), solved."""
    level, solution = DRAWN[name]()
    moves = [(move.row, move.col, move.size) for move in solution.moves]
    boards = [oracle_replay(level.board, moves[:count]) for count in range(len(moves) + 1)]

    def blacks(board) -> frozenset[tuple[int, int]]:
        return frozenset((r, c) for r, row in enumerate(board) for c, tile in enumerate(row) if tile)

    steps = [Reading(blacks(board), move) for board, move in zip(boards, moves, strict=False)]
    return [Reading(blacks(boards[0]), None), *steps, Reading(blacks(boards[-1]), None)]


def write_page(tmp_path, name: str) -> tuple:
    level, solution = DRAWN[name]()
    page = tmp_path / f"{name}.html"
    page.write_text(walkthrough_html(level, solution, replay(level.board, solution.moves)))
    return page, shape(level.board)


RIGHT, LEFT = ("ArrowRight", 39), ("ArrowLeft", 37)


@pytest.mark.parametrize("name", DRAWN)
def test_the_arrow_keys_step_through_the_page_and_each_step_shows_its_black_tiles_and_square(
    browser, tmp_path, name
):
    page, board_shape = write_page(tmp_path, name)
    browser.open(page, *PHONE, mobile=True)
    expected = expected_readings(name)
    for index, want in enumerate(expected):
        assert read_board(browser.screenshot(), board_shape) == want, f"card {index}"
        browser.press(*RIGHT)
    last = read_board(browser.screenshot(), board_shape)
    assert last == expected[-1], "the right arrow goes no further than the end"
    if len(expected) > 2:
        browser.press(*LEFT)
        back = read_board(browser.screenshot(), board_shape)
        assert back == expected[-2], "the left arrow goes back a step"


def test_the_buttons_step_forward_and_back_and_stop_at_the_start(browser, tmp_path):
    page, board_shape = write_page(tmp_path, "spec_board")
    browser.open(page, *PHONE, mobile=True)
    expected = expected_readings("spec_board")

    def press_button(name: str) -> None:
        x, y = browser.evaluate(
            f"(() => {{ const r = document.getElementById('{name}').getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        browser.click(x, y)

    press_button("next")
    press_button("next")
    assert read_board(browser.screenshot(), board_shape) == expected[2]
    press_button("previous")
    assert read_board(browser.screenshot(), board_shape) == expected[1]
    press_button("previous")
    press_button("previous")
    assert read_board(browser.screenshot(), board_shape) == expected[0]


def test_a_link_to_a_card_opens_the_page_at_that_step(browser, tmp_path):
    page, board_shape = write_page(tmp_path, "spec_board")
    browser.open(page, *PHONE, mobile=True, fragment="card-3")
    assert read_board(browser.screenshot(), board_shape) == expected_readings("spec_board")[3]


@pytest.mark.parametrize("name", ["fifteen", "thirty_one"])
def test_the_page_fits_a_phone_screen_with_no_sideways_scrolling(browser, tmp_path, name):
    page, _ = write_page(tmp_path, name)
    browser.open(page, *PHONE, mobile=True)
    assert browser.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    image = Image.open(io.BytesIO(browser.screenshot()))
    frame = bounds(colour_mask(np.asarray(image.convert("RGB"), dtype=np.int16), FRAME))
    assert frame and frame[2] < PHONE[0] and frame[3] < PHONE[1], "the board is cut off"
    assert frame[2] - frame[0] >= PHONE[0] * 0.75, "the board does not use the phone's width"


def test_a_board_taller_than_wide_has_the_tiles_of_a_square_board_its_height_and_fits_the_phone(
    browser, tmp_path
):
    pitches = {}
    for name in ("fifteen", "tower"):  # both 15 rows high
        page, _ = write_page(tmp_path, name)
        browser.open(page, *PHONE, mobile=True)
        image = Image.open(io.BytesIO(browser.screenshot()))
        frame = bounds(colour_mask(np.asarray(image.convert("RGB"), dtype=np.int16), FRAME))
        assert frame and frame[3] < PHONE[1], f"{name}: the board runs off the bottom of the screen"
        pitches[name] = (frame[3] - frame[1] + 1) / 15
    assert abs(pitches["tower"] - pitches["fifteen"]) <= 0.5, pitches


@pytest.mark.parametrize("name", DRAWN)
def test_every_card_of_the_svg_picture_shows_its_black_tiles_and_outlined_square(browser, tmp_path, name):
    level, solution = DRAWN[name]()
    picture = tmp_path / f"{name}.svg"
    picture.write_text(walkthrough_svg(level, solution, replay(level.board, solution.moves)))
    root = ElementTree.fromstring(picture.read_text())
    browser.open(picture, int(root.attrib["width"]), int(root.attrib["height"]))
    png = browser.screenshot()
    cards = browser.evaluate(
        "Array.from(document.querySelectorAll('g.card'), card => {"
        " const r = card.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })"
    )
    expected = expected_readings(name)
    assert len(cards) == len(expected)
    for index, (region, want) in enumerate(zip(cards, expected, strict=True)):
        assert read_board(png, shape(level.board), region) == want, f"card {index}"


def tri_colour(pixel: np.ndarray) -> int:
    """The game's tile a tri tile's pixel shows, 1 cream, 2 blue, 3 red, lit or not: the nearest of them."""
    colours = [
        (number, colour) for palette in (TRI_TILES, TRI_LIT) for number, colour in enumerate(palette, 1)
    ]
    rgb = [np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)]) for _, colour in colours]
    nearest = min(range(len(colours)), key=lambda i: int(np.abs(pixel - rgb[i]).sum()))
    return colours[nearest][0] - 1  # 0 for cream, which is not read


def test_the_page_of_a_tri_board_shows_each_step_in_the_games_colours_and_a_double_press_as_two(
    browser, tmp_path
):
    """The tiles expected come from the game's own press (test_tri.game_press), a press of the outlined
    square turning them 1 → 3 → 2 → 1."""
    level, solution = tri_case()
    page = tmp_path / "tri.html"
    page.write_text(walkthrough_html(level, solution, replay(level.board, solution.moves)))
    tiles = [[tile + 1 for tile in row] for row in level.board]
    moves = [(move.row, move.col, move.size) for move in solution.moves]
    expected = []
    for move in [*moves, None]:
        shown = frozenset(
            (r, c, tile - 1) for r, row in enumerate(tiles) for c, tile in enumerate(row) if tile != 1
        )
        expected.append(Reading(shown, move))
        if move is not None:
            tiles = game_press(tiles, move)
    browser.open(page, *PHONE, mobile=True)
    start = read_board(browser.screenshot(), shape(level.board), colour_of=tri_colour)
    assert start == Reading(expected[0].black, None)
    for index, want in enumerate(expected):
        browser.press(*RIGHT)
        assert read_board(browser.screenshot(), shape(level.board), colour_of=tri_colour) == want, (
            f"card {index + 1}"
        )
    assert expected[0].outlined == expected[1].outlined, "the case presses its first square twice"
