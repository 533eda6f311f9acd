"""The designer's page of `unflip report --html` in a real browser (headless Chromium, as test_browser.py
reads the walkthroughs): every curve has a point per level, the levels that break a curve are ringed, each
curve's colour is on screen, every board is a thumbnail that shows its own tiles, the histogram counts
every par, and a click on a heading sorts the table. The page fetches nothing: it works from file://.

Without Chromium these tests skip, except under CI=true, where they fail (.ci/run installs it)."""

import io
import json
import re

import numpy as np
import pytest
from PIL import Image
from support import run
from test_browser import colour_mask, read_board

from unflip_frontend.boards import shape
from unflip_frontend.books import BOOK_FILES
from unflip_frontend.report_page import BREAK, CURVE_COLOURS
from unflip_frontend.walkthrough import FRAME

FIGURES = ("par", "eric", "obv", "gap")
WINDOW = (1200, 900)


def report_page(tmp_path, *args: str) -> tuple:
    """The page of a report, and the report's records, from the same run."""
    page = tmp_path / "report.html"
    result = run("report", *args, "--html", str(page), "--json")
    assert result.exit_code == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    return page, records[:-1], records[-1]


@pytest.fixture(scope="module")
def weekly(tmp_path_factory):
    """The shipped weekly book's page: 25 levels of 9×9 to 13×13."""
    return report_page(tmp_path_factory.mktemp("weekly"), "weekly")


def points(browser, figure: str) -> list[tuple[int, float]]:
    """(level, y) of each point of a figure's curve, as drawn."""
    return browser.evaluate(
        f"Array.from(document.querySelectorAll('#curves g.panel[data-figure=\"{figure}\"] circle.point'),"
        " c => [Number(c.getAttribute('data-level')), c.getBoundingClientRect().y])"
    )


def test_every_curve_has_a_point_per_level_of_the_official_daily_book(browser, tmp_path, books_dir):
    levels = json.loads((books_dir / BOOK_FILES["daily"]).read_text())["levels"]
    page, _, last = report_page(tmp_path, "daily", "--books", str(books_dir))
    browser.open(page, *WINDOW)
    for figure in FIGURES:
        drawn = points(browser, figure)
        assert [level for level, _ in drawn] == list(range(1, len(levels) + 1)), figure
    assert len(levels) == 159 and last["measured"] == 159


def check_curves(browser, records: list[dict], breaks: dict) -> None:
    """Each figure's curve: one line, a point per level in the book's order, a higher value drawn higher and
    equal values level, and a ring on each level that breaks it."""
    for figure, field in zip(FIGURES, ("optimum", "min_eric", "obvious_100", "gap"), strict=True):
        drawn = points(browser, figure)
        assert [level for level, _ in drawn] == [record["level"]["number"] for record in records], figure
        values = [record["signals"][field] for record in records]
        for (_, y1), (_, y2), v1, v2 in zip(drawn, drawn[1:], values, values[1:], strict=False):
            assert (y1 < y2) == (v1 > v2) and (abs(y1 - y2) < 0.5) == (v1 == v2), figure
        ringed = browser.evaluate(
            f"Array.from(document.querySelectorAll('#curves g.panel[data-figure=\"{figure}\"] circle.break'),"
            " c => Number(c.previousElementSibling.getAttribute('data-level')))"
        )
        assert ringed == breaks[figure], figure
        lines = browser.evaluate(
            f"document.querySelectorAll('#curves g.panel[data-figure=\"{figure}\"] polyline.curve').length"
        )
        assert lines == 1, figure


def check_thumbnails(browser, records: list[dict], read: tuple[int, ...]) -> None:
    """A thumbnail per level in the book's order, each its board's frame and a tile for each tile; those of
    the levels `read` read back from the screen, their dark tiles the board's black ones."""
    boards = [tuple(tuple(map(int, row)) for row in record["level"]["board"]) for record in records]
    thumbnails = browser.evaluate(
        "Array.from(document.querySelectorAll('figure.thumbnail'), f => [f.id,"
        " f.querySelectorAll('svg rect.frame').length, f.querySelectorAll('svg rect').length - 1])"
    )
    assert [name for name, _, _ in thumbnails] == [f"level-{record['level']['number']}" for record in records]
    for (name, frames, tiles), board in zip(thumbnails, boards, strict=True):
        height, width = shape(board)
        assert (frames, tiles) == (1, height * width), name
    for number in read:
        region = browser.evaluate(
            f"(() => {{ const f = document.getElementById('level-{number}'); f.scrollIntoView();"
            " const r = f.querySelector('svg').getBoundingClientRect();"
            " return [r.x, r.y, r.width, r.height]; })()"
        )
        board = boards[number - 1]
        shown = read_board(browser.screenshot(), shape(board), tuple(region))
        black = {(r, c) for r, row in enumerate(board) for c, tile in enumerate(row) if tile}
        assert shown.black == black and shown.outlined is None, f"level {number}"


def test_each_curve_rises_with_its_figure_and_rings_the_levels_that_break_it(browser, weekly):
    page, records, last = weekly
    browser.open(page, *WINDOW)
    assert len(records) == 25
    check_curves(browser, records, last["breaks"])


def test_each_curve_and_the_rings_are_on_screen_in_their_colours(browser, weekly):
    page, _, last = weekly
    browser.open(page, *WINDOW)
    x, y, width, height = browser.evaluate(
        "(() => { const r = document.getElementById('curves').getBoundingClientRect();"
        " window.scrollTo(0, r.y); const s = document.getElementById('curves').getBoundingClientRect();"
        " return [s.x, s.y, s.width, Math.min(s.height, window.innerHeight - s.y)]; })()"
    )
    image = Image.open(io.BytesIO(browser.screenshot())).convert("RGB")
    pixels = np.asarray(image.crop((round(x), round(y), round(x + width), round(y + height))), dtype=np.int16)
    for figure, colour in CURVE_COLOURS.items():
        assert colour_mask(pixels, colour).sum() > 200, f"the {figure} curve is not on screen"
    assert any(last["breaks"].values())
    assert colour_mask(pixels, BREAK).sum() > 50, "no ring on screen"
    assert not colour_mask(pixels, FRAME).any(), "a board's frame colour in the curves"


def test_every_board_is_a_thumbnail_that_shows_its_own_tiles(browser, weekly):
    page, records, _ = weekly
    browser.open(page, *WINDOW)
    check_thumbnails(browser, records, (1, 13, 25))


@pytest.mark.parametrize(
    ("taken_out", "check"),
    [
        (r'<polyline class="curve"[^>]*stroke="{gap}"[^>]*/>', "curves"),
        (r'<a href="#level-9"><circle class="point"[^>]*fill="{eric}".*?</a>', "curves"),
        (r'<figure class="thumbnail[^"]*" id="level-7".*?</figure>', "thumbnails"),
        (r'(<figure class="thumbnail[^"]*" id="level-4"[^>]*>)<svg.*?</svg>', "thumbnails"),
    ],
)
def test_a_page_missing_a_curve_a_point_or_a_thumbnail_fails_the_checks(
    browser, weekly, tmp_path, taken_out, check
):
    page, records, last = weekly
    pattern = taken_out.format(gap=CURVE_COLOURS["gap"], eric=CURVE_COLOURS["eric"])
    text, taken = re.subn(
        pattern, lambda match: match.group(1) if match.groups() else "", page.read_text(), count=1, flags=re.S
    )
    assert taken == 1
    broken = tmp_path / "broken.html"
    broken.write_text(text)
    browser.open(broken, *WINDOW)
    with pytest.raises(AssertionError):
        if check == "curves":
            check_curves(browser, records, last["breaks"])
        else:
            check_thumbnails(browser, records, ())


def test_the_histogram_counts_the_levels_of_each_par(browser, weekly):
    page, records, _ = weekly
    browser.open(page, *WINDOW)
    bars = browser.evaluate(
        "Array.from(document.querySelectorAll('#histogram rect.bar'),"
        " b => [Number(b.getAttribute('data-par')), Number(b.getAttribute('data-count')),"
        " b.getBoundingClientRect().height])"
    )
    pars = [record["signals"]["optimum"] for record in records]
    assert [par for par, _, _ in bars] == list(range(min(pars), max(pars) + 1))
    assert [count for _, count, _ in bars] == [pars.count(par) for par, _, _ in bars]
    tallest = max(height for _, _, height in bars)
    for _, count, height in bars:
        assert abs(height - tallest * count / max(pars.count(p) for p in pars)) < 1


def test_a_click_on_a_heading_sorts_the_table_and_a_second_click_reverses_it(browser, weekly):
    page, records, _ = weekly
    browser.open(page, *WINDOW)

    def click_heading(text: str) -> list[int]:
        x, y = browser.evaluate(
            "(() => { const h = Array.from(document.querySelectorAll('#levels th'))"
            f".find(h => h.textContent === '{text}'); h.scrollIntoView();"
            " const r = h.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        browser.click(x, y)
        return browser.evaluate(
            "Array.from(document.querySelectorAll('#levels tbody tr'), r => Number(r.cells[0].textContent))"
        )

    eric = {record["level"]["number"]: record["signals"]["min_eric"] for record in records}
    rising = click_heading("minEric")
    assert rising == sorted(eric, key=lambda number: (eric[number], number))
    falling = click_heading("minEric")
    assert falling == sorted(eric, key=lambda number: (-eric[number], number))
    assert click_heading("level") == list(range(1, 26))


def test_the_page_fetches_nothing(weekly):
    text = weekly[0].read_text()
    assert not re.search(r"""(src|href)=["'](?!#)""", text), "the page refers to something outside it"
    assert "http://" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "") and "https://" not in text
