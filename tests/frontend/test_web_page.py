"""The page `make web` builds (web/unflip.html, docs/web.md), in headless Chromium opened from its file: it
solves levels of the shipped books, a pasted game link and a board in its address with the WebAssembly core
in a worker, each optimum the native solver's and each walkthrough replayed here to all white; Stop gives
STOPPED with a proven bound; a bad link and a board past the limits are rejected with the Python reader's
own words. The session builds the page once (tests/conftest.py's web_build).

Without em++ or Chromium these tests skip, except under CI=true, where they fail (.ci/run installs both)."""

from __future__ import annotations

import importlib.util
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from browser import Browser, find_chromium
from helpers import REPO, needed, random_board_text
from oracle import as_board, board_text, book_board, replay, uniform
from support import run

from unflip_frontend.boards import MAX_SIZE, TRI, TRI_COLOUR_NAMES, Move, apply_move
from unflip_frontend.books import BOOK_FILES
from unflip_frontend.errors import InputError
from unflip_frontend.game_vectors import moves_to_vector, vector_board
from unflip_frontend.layout import CONTRACT_NAME, Layout
from unflip_frontend.links import compact_tiles, parse_link, share_link

PHONE = (390, 844)  # CSS pixels of a common phone held upright
# A safety net for a solve in the page, not a performance assertion.
SOLVE_TIMEOUT = 60
# Uniformly random 13x13 #2: more than 10 s on one native thread, so it is still searching when stopped.
LONG_BOARD = as_board(random_board_text(13, 2))


def shipped(book: str) -> list[dict[str, Any]]:
    """A shipped book's levels, read from the clone (whatever UNFLIP_BOOKS says)."""
    levels: list[dict[str, Any]] = json.loads((REPO / BOOK_FILES[book]).read_text())["levels"]
    return levels


@pytest.fixture(scope="module")
def browser(web_build):
    executable = find_chromium()
    if executable is None:
        needed("headless Chromium not found (apt-get install chromium)")
    with Browser(executable) as opened:
        yield opened


@pytest.fixture(scope="module")
def page_file(web_build: Path) -> Path:
    return web_build / "unflip.html"


def go(browser: Browser, address: str) -> None:
    """Open an address (the page, with a fragment perhaps) at a phone's size, and wait for it to load."""
    browser.page(
        "Emulation.setDeviceMetricsOverride",
        width=PHONE[0],
        height=PHONE[1],
        deviceScaleFactor=1,
        mobile=True,
    )
    browser.page("Page.navigate", url="about:blank")
    browser.page("Page.navigate", url=address)
    deadline = time.monotonic() + SOLVE_TIMEOUT
    while browser.evaluate("document.readyState === 'complete' && typeof window.unflipPage") != "object":
        assert time.monotonic() < deadline, f"{address} did not load"
        time.sleep(0.02)


def settled(browser: Browser, counted: bool = True) -> dict[str, Any]:
    """The outcome the page shows once it is no longer searching (and, with counted, no longer counting):
    the status line's outcome and words, the walkthrough's moves and words, the count's line."""
    deadline = time.monotonic() + SOLVE_TIMEOUT
    while True:
        shown = browser.evaluate(
            """(() => {
              const walk = document.getElementById('walkthrough');
              return {outcome: document.getElementById('status').dataset.outcome,
                      status: document.getElementById('status').textContent,
                      busy: window.unflipPage.state.busy,
                      moves: walk.hidden ? null : JSON.parse(walk.dataset.moves),
                      step: document.getElementById('step-text').textContent,
                      count: document.getElementById('count').textContent,
                      share: document.getElementById('share').href};
            })()"""
        )
        if shown["outcome"] != "searching" and not (counted and shown["busy"]):
            return shown
        assert time.monotonic() < deadline, f"the page is still at {shown}"
        time.sleep(0.05)


def evaluate_async(browser: Browser, expression: str) -> Any:
    """An expression's promise, awaited in the page."""
    answer = browser.page("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
    assert "exceptionDetails" not in answer, answer
    return answer["result"].get("value")


def middle(browser: Browser, selector: str) -> tuple[float, float]:
    """The middle of an element, scrolled into view, in the window's CSS pixels."""
    x, y = browser.evaluate(
        f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
        " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
        " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
    )
    return x, y


def click(browser: Browser, selector: str) -> None:
    """A real click of the mouse in the middle of the element."""
    browser.click(*middle(browser, selector))


def tap(browser: Browser, selector: str) -> None:
    """A finger's tap on the element, with touch input switched on as on a phone."""
    browser.page("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=1)
    x, y = middle(browser, selector)
    browser.page("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
    browser.page("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])


def type_into(browser: Browser, selector: str, text: str) -> None:
    browser.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
    browser.page("Input.insertText", text=text)


def assert_optimal_walkthrough(shown: dict[str, Any], board, optimum: int) -> None:
    assert shown["outcome"] == "solved", shown
    assert f"Optimal: {optimum} moves" in shown["status"], shown
    moves = [tuple(move) for move in shown["moves"]]
    assert len(moves) == optimum, shown
    assert replay(board, moves) == uniform(len(board), 0, len(board[0])), shown


def native_optimum(run_solver, board) -> int:
    result = run_solver(board_text(board), "--threads", "1", "--quiet")
    assert result.outcome == "solved", result.describe()
    return result.move_count


def test_page_daily_5_prints_an_address_the_page_opens_and_solves_at_once_at_the_native_optimum(
    browser, run_solver, page_file
):
    address = run("page", "daily", "5", "--books", str(REPO))
    assert address.exit_code == 0, address.output
    assert address.output.strip().startswith(page_file.resolve().as_uri() + "#s_")
    go(browser, address.output.strip())
    board = book_board(shipped("daily")[4])
    shown = settled(browser)
    assert_optimal_walkthrough(shown, board, native_optimum(run_solver, board))
    native_count = run_solver(board_text(board), "--count", "--quiet").solution_count
    expected = "Unique" if native_count == 1 else f"{native_count} optimal solutions"
    assert shown["count"].startswith(expected), shown
    assert parse_link(shown["share"]).board == board, shown
    # The walkthrough, stepped with the keyboard: each step's square is the one highlighted.
    browser.press("ArrowRight", 39)
    browser.press("ArrowRight", 39)
    assert browser.evaluate("document.getElementById('step-text').textContent").startswith(
        f"Step 3 of {len(shown['moves'])}: flip the"
    )
    row, col, size = shown["moves"][2]
    highlighted = browser.evaluate(
        "[...document.querySelectorAll('#board .in-move')].map(t => [+t.dataset.row, +t.dataset.col])"
    )
    assert sorted(map(tuple, highlighted)) == [
        (r, c) for r in range(row, row + size) for c in range(col, col + size)
    ]


def test_a_weekly_level_in_the_address_as_a_vector_is_solved_at_the_native_optimum(
    browser, run_solver, page_file
):
    level = shipped("weekly")[19]
    board = book_board(level)
    vector = "".join(map(str, level["solutionVector"]))
    go(browser, f"{page_file.resolve().as_uri()}#s_{len(board[0])}_{len(board)}$m_2$v${vector}")
    assert_optimal_walkthrough(settled(browser), board, native_optimum(run_solver, board))


def test_a_pasted_game_link_is_solved_at_the_native_optimum(browser, run_solver, page_file):
    board = as_board(["0000000", "0110000", "0111100", "0011110", "0000110", "0100000", "0000000"])
    result = run_solver(board_text(board), "--threads", "1", "--quiet")
    link = share_link(board, moves_to_vector(result.moves, 7, 7))
    go(browser, page_file.resolve().as_uri())
    type_into(browser, "#link", link)
    click(browser, "#link-form button")
    assert_optimal_walkthrough(settled(browser), board, result.move_count)


def test_a_20_by_20_designer_link_of_a_few_presses_is_solved_at_the_native_optimum(
    browser, run_solver, page_file
):
    """A board past 15 a side, the core's second lattice layout, made as the game's designer makes one."""
    presses = [Move(0, 0, 5), Move(3, 4, 9), Move(12, 11, 8), Move(17, 2, 3)]
    vector = moves_to_vector(presses, 20, 20)
    board = vector_board(vector, 20, 20)
    go(browser, page_file.resolve().as_uri())
    type_into(browser, "#link", share_link(board, vector))
    click(browser, "#link-form button")
    assert_optimal_walkthrough(settled(browser), board, native_optimum(run_solver, board))


def test_a_tri_link_is_shown_in_the_games_colours_and_solved_optimally_with_a_double_press_as_two_steps(
    browser, run_solver, page_file
):
    # The 2×2 square at the top left pressed twice, a 3×3 one once: the tiles are red where the first is.
    presses = [Move(0, 0, 2), Move(0, 0, 2), Move(2, 2, 3)]
    vector = moves_to_vector(presses, 5, 5, TRI)
    board = vector_board(vector, 5, 5, TRI)
    game_digits = board_text([[tile + 1 for tile in row] for row in board])
    native = run_solver(game_digits, "--scheme", "tri", "--quiet")
    assert native.outcome == "solved", native.describe()
    go(browser, page_file.resolve().as_uri())
    type_into(browser, "#link", share_link(board, vector))
    click(browser, "#link-form button")
    shown = settled(browser)
    assert shown["outcome"] == "solved" and f"Optimal: {native.move_count} moves" in shown["status"], shown
    moves = [Move(*move) for move in shown["moves"]]
    assert len(moves) == native.move_count and moves.count(Move(0, 0, 2)) == 2, shown
    assert moves[moves.index(Move(0, 0, 2)) + 1] == Move(0, 0, 2), shown  # the double press: two steps
    replayed = board
    for move in moves:  # each press turns its tiles 1 -> 3 -> 2 -> 1 (apply_move under tri)
        replayed = apply_move(replayed, move)
    assert all(tile == 0 for row in replayed for tile in row), shown
    assert parse_link(shown["share"]).board == board, shown
    tiles = browser.evaluate(
        "[...document.querySelectorAll('#board .tile')]"
        ".map(t => [t.className, getComputedStyle(t).backgroundColor])"
    )
    game_colours = {"cream": "rgb(249, 250, 200)", "blue": "rgb(4, 49, 212)", "red": "rgb(255, 0, 64)"}
    expected = [TRI_COLOUR_NAMES[tile] for row in board for tile in row]
    assert [next(word for word in name.split() if word in game_colours) for name, _ in tiles] == expected
    assert [colour for _, colour in tiles] == [game_colours[name] for name in expected]


def test_a_walkthrough_that_does_not_clear_the_board_is_shown_as_a_failure_not_a_walkthrough(
    browser, page_file
):
    go(browser, page_file.resolve().as_uri())
    # The page's replay made to leave every tile as it is: the solver's moves then clear nothing.
    browser.evaluate("UnflipLinks.flip = () => {}")
    type_into(browser, "#link", "s_3_3$m_3$v$12020")
    click(browser, "#link-form button")
    shown = settled(browser)
    assert shown["outcome"] == "failed" and shown["moves"] is None, shown
    assert shown["status"] == "Failed: the solver's moves do not clear the board", shown


def test_every_level_of_the_shipped_daily_and_main_books_gets_the_native_optimum_in_the_page(
    browser, run_solver_many, page_file
):
    go(browser, page_file.resolve().as_uri())
    for book in ("daily", "main"):
        levels = shipped(book)
        boards = [book_board(level) for level in levels]
        native = run_solver_many([board_text(board) for board in boards], "--threads", "1", "--quiet")
        answers = evaluate_async(
            browser,
            f"""(async () => {{
              const answers = [];
              for (let level = 1; level <= {len(levels)}; level++) {{
                const result = await window.unflipPage.loadLevel({json.dumps(book)}, level);
                answers.push([result.outcome, result.optimum, result.moves]);
              }}
              return answers;
            }})()""",
        )
        assert len(answers) == len(levels)
        for number, (board, expected, (outcome, optimum, moves)) in enumerate(
            zip(boards, native, answers, strict=True), 1
        ):
            assert (outcome, optimum) == ("solved", expected.move_count), (book, number, outcome, optimum)
            assert replay(board, [tuple(m) for m in moves]) == uniform(len(board), 0, len(board[0])), (
                book,
                number,
            )


def test_stop_ends_a_long_search_with_stopped_and_its_proven_bound_and_the_page_solves_again(
    browser, run_solver, page_file
):
    go(browser, f"{page_file.resolve().as_uri()}#{compact_tiles(LONG_BOARD)}")
    deadline = time.monotonic() + SOLVE_TIMEOUT
    while "Searching bound" not in browser.evaluate("document.getElementById('status').textContent"):
        assert time.monotonic() < deadline, "no progress line reached the page"
        time.sleep(0.05)
    click(browser, "#stop")
    shown = settled(browser)
    root = run_solver(board_text(LONG_BOARD), "--lower-bound").bound
    assert shown["outcome"] == "stopped" and shown["moves"] is None, shown
    bound = int(shown["status"].split("STOPPED ")[1].split()[0])
    assert bound >= root, shown
    # The search has ended, not only its display: a search still running writes a progress line a second.
    time.sleep(1.5)
    assert settled(browser) == shown
    # The stopped worker is replaced: the next board is solved.
    click(browser, "#level-form button")
    board = book_board(shipped("daily")[0])
    assert_optimal_walkthrough(settled(browser), board, native_optimum(run_solver, board))


def test_just_one_hint_shows_the_first_move_of_an_optimal_solution_only(browser, run_solver, page_file):
    go(browser, page_file.resolve().as_uri())
    board = book_board(shipped("daily")[0])
    click(browser, "#hint")
    shown = settled(browser)
    optimum = native_optimum(run_solver, board)
    assert_optimal_walkthrough(shown, board, optimum)
    assert shown["step"].startswith("Hint: flip the ") and f"Then {optimum - 1} more" in shown["step"], shown
    assert browser.evaluate("document.getElementById('next').disabled") is True


def test_a_board_drawn_by_tapping_and_the_keyboard_is_solved(browser, run_solver, page_file):
    go(browser, page_file.resolve().as_uri())
    browser.evaluate("document.getElementById('rows').value = 4; document.getElementById('cols').value = 5")
    click(browser, "#blank")
    tap(browser, '#board .tile[data-row="1"][data-col="1"]')
    browser.evaluate("document.getElementById('board').focus()")
    for key, code in (
        ("ArrowRight", 39),
        (" ", 32),
        ("ArrowDown", 40),
        (" ", 32),
        ("ArrowLeft", 37),
        (" ", 32),
    ):
        browser.press(key, code)
    browser.press("Enter", 13)
    board = as_board(["00000", "01100", "01100", "00000"])
    assert_optimal_walkthrough(settled(browser), board, 1)


# Links the JS reader must read as unflip_frontend/links.py does: the board, or the same one-line reason.
LINKS = [
    "https://unflipgame.com/?custom=s_5_5$m_2$v$" + "1" + "0" * 29,
    "https://unflipgame.com/?lang=en&custom=s_3_4%24m_2%24v%2410000000",
    "s_3_3$m_2$t$1_2_1_2_1_2_1_2_1",
    "daily-7$s_2_2$m_2$t$2_2_2_1",
    "s_2_2$m_2$v$_1",
    "",
    "https://unflipgame.com/?custom=",
    "https://unflipgame.com/?lang=en",
    "https://unflipgame.com/",
    "s_16_16$m_2$v$1",
    "s_1_5$m_2$v$1",
    "s_5_5$m_3$v$1",
    "s_5_5$m2$v$1",
    "s5_5$m_2$v$1",
    "s_5_5$m_2$x$1",
    "s_5_5$m_2$v$",
    "s_5_5$m_2$v$1_a",
    "s_2_2$m_2$v$2",
    "s_3_3$m_2$v$1",
    "s_2_2$m_2$t$1_1_1",
    "s_2_2$m_2$t$1_1_1_3",
    "no level here",
    "https://unflipgame.com/?custom=s_2_2$m_2$v$" + "x" * 80,
    "https://unflipgame.com/?custom=s_2_2$m_2$v$1&custom=s_2_2$m_2$v$0",
    "s_05_5$m_2$v$1",
    "s_5_5$m_02$v$1",
    "s_2_2$m_2$v$" + "1" * 19,
    "s_2_2$m_2$t$1_1_1_" + "9" * 19,
    # Three colours: a vector of 0 to 2 presses a move (tile - 1 = A·x mod 3), the tiles 1 to 3.
    "s_3_3$m_3$v$12020",
    "https://unflipgame.com/?custom=s_2_3$m_3$v$_2_1",
    "s_2_3$m_3$v$_2_0_1_1",
    "s_3_2$m_3$t$1_2_3_3_2_1",
    "s_3_3$m_3$v$12030",
    "s_3_3$m_3$v$1202",
    "s_2_2$m_3$t$1_2_3_4",
    "s_2_2$m_3$t$1_0_3_2",
    "s_5_5$m_4$v$1",
]


def test_the_pages_link_reader_reads_every_link_as_the_python_reader_does(browser, page_file):
    go(browser, page_file.resolve().as_uri())
    read = browser.evaluate(
        f"""{json.dumps(LINKS)}.map(link => {{
              try {{ return {{board: UnflipLinks.parseLink(link)}}; }}
              catch (e) {{ return {{error: e.message}}; }}
            }})"""
    )
    for link, page_read in zip(LINKS, read, strict=True):
        try:
            expected: dict[str, Any] = {"board": [list(row) for row in parse_link(link).board]}
        except InputError as error:
            expected = {"error": str(error)}
        assert page_read == expected, link


# One past the contract's max_side, which the page reads (web/build_page.py) as the front end does.
PAST_THE_LIMIT = MAX_SIZE + 1


@pytest.mark.parametrize(
    "link, reason",
    [
        ("https://unflipgame.com/?lang=en", "has no custom=… parameter"),
        (
            f"s_{PAST_THE_LIMIT}_{PAST_THE_LIMIT}$m_2$v$1",
            f"each side must be 2 to {PAST_THE_LIMIT - 1} tiles",
        ),
    ],
)
def test_a_bad_link_and_a_board_past_the_limits_are_rejected_with_their_one_line_reason(
    browser, page_file, link, reason
):
    go(browser, page_file.resolve().as_uri())
    type_into(browser, "#link", link)
    click(browser, "#link-form button")
    shown = settled(browser)
    with pytest.raises(InputError) as python:
        parse_link(link)
    assert shown["outcome"] == "rejected" and shown["status"] == f"Rejected: {python.value}", shown
    assert reason in shown["status"] and "\n" not in shown["status"], shown


def test_the_pages_board_limits_are_the_solvers_contract_so_a_new_max_side_there_changes_the_page(
    browser, web_build, tmp_path
):
    contract = tmp_path / "contract.def"
    written, changed = re.subn(
        r"UNFLIP_LIMIT\(max_side, [0-9]+,", "UNFLIP_LIMIT(max_side, 13,", (REPO / CONTRACT_NAME).read_text()
    )
    assert changed == 1
    contract.write_text(written)
    spec = importlib.util.spec_from_file_location("build_page", web_build / "build_page.py")
    assert spec is not None and spec.loader is not None
    build_page = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_page)
    page = tmp_path / "unflip.html"
    weekly = {"weekly": REPO / BOOK_FILES["weekly"]}
    core = (web_build / "unflip_core.js").read_text(), (web_build / "unflip_core.wasm").read_bytes()
    page.write_text(build_page.page(*core, weekly, contract))
    go(browser, page.resolve().as_uri())
    sizes = browser.evaluate(
        "[...document.getElementById('rows').options].map(option => Number(option.value))"
    )
    assert sizes == list(range(2, 14))
    reason = browser.evaluate(
        "(() => { try { UnflipLinks.parseLink('s_14_14$m_2$v$1'); } catch (e) { return e.message; } })()"
    )
    assert reason.endswith("each side must be 2 to 13 tiles"), reason


def test_page_without_the_built_page_says_how_to_build_it_and_exits_4(tmp_path, monkeypatch):
    monkeypatch.setattr("unflip_frontend.cli.find_layout", lambda: Layout(tmp_path, installed=False))
    result = run("page", "daily", "5", "--books", str(REPO))
    assert result.exit_code == 4, result.output
    assert "make web" in result.output and len(result.output.strip().splitlines()) == 1, result.output


def test_page_puts_a_text_board_or_a_game_link_in_the_address_as_its_board(tmp_path, monkeypatch):
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "unflip.html").write_text("")
    monkeypatch.setattr("unflip_frontend.cli.find_layout", lambda: Layout(tmp_path, installed=False))
    drawn = as_board(["0110", "0110", "1000", "0001"])
    (tmp_path / "board.txt").write_text(board_text(drawn))
    shared = replay(uniform(4, 0), [(0, 1, 2), (1, 1, 3)])
    link = share_link(shared, moves_to_vector([(0, 1, 2), (1, 1, 3)], 4, 4))
    for source, board in ((str(tmp_path / "board.txt"), drawn), (link, shared)):
        address = run("page", source)
        assert address.exit_code == 0, address.output
        page, fragment = address.output.strip().split("#")
        assert page == (tmp_path / "web" / "unflip.html").as_uri()
        assert parse_link(fragment).board == board, address.output
