"""The live display on a terminal (tmux): a long solve shows the bound being tried, the nodes searched,
the nodes per second and the time so far, and a budget's stop message says how long it ran and how many
nodes it searched; --all prints each row above its progress bar as the level finishes, and Ctrl-C leaves
the finished rows and the totals, with no bar left standing."""

from __future__ import annotations

import json
import re
import shlex
import sys

import pytest
from helpers import REPO, book_tiles, random_board_text
from oracle import as_board
from support import write
from tmux_session import Terminal, require_tmux


@pytest.fixture
def terminal(tmp_path):
    """Runs unflip.py with the real solver in tmp_path (short names keep the live line within the
    window), then keeps the window for reading."""
    require_tmux()
    opened: list[Terminal] = []

    def open_with(*args: str, width: int = 100) -> Terminal:
        command = shlex.join(["env", "-u", "UNFLIP_SOLVER", sys.executable, str(REPO / "unflip.py"), *args])
        shell = f"cd {shlex.quote(str(tmp_path))} && {command}; echo EXIT=$?; sleep 3600"
        opened.append(Terminal(shell, width))
        return opened[-1]

    yield open_with
    for each in opened:
        each.close()


def test_a_long_solve_shows_the_bound_nodes_per_second_and_time_then_what_the_budget_bought(
    terminal, tmp_path
):
    write(tmp_path / "b.txt", random_board_text(15, 2024))
    window = terminal("b.txt", "--max-seconds", "3")
    live = re.compile(
        r"solving b\.txt: (trying|no solution in) \d+ moves \([\d,]+ nodes\), [\d.,]+M? nodes/s +0:00:0\d"
    )
    window.wait_until(live.search, "the bound, nodes, nodes per second and elapsed time")
    screen = window.wait_for("EXIT=3")
    assert re.search(
        r"^stopped by budget: no solution with fewer than \d+ moves; searched [\d,]+ nodes in 3\.\d\d s$",
        screen,
        re.M,
    )
    assert "solving" not in screen  # the live line is gone once the solve ends


def test_all_on_a_terminal_prints_rows_above_the_bar_and_ctrl_c_leaves_the_rows_and_totals_only(
    terminal, tmp_path
):
    easy = book_tiles(as_board(["1100", "1100", "0000", "0000"]))
    hard = book_tiles(as_board(random_board_text(15, 2024)))
    levels = [{"tiles": easy, "par": 1, "title": "Easy"}, {"tiles": hard, "title": "Hard"}, {"tiles": easy}]
    # A name long enough that the bar, once the solver reports, fills its line, at whose end a Ctrl-C
    # echoed as '^C' would wrap.
    name = "a-book-whose-name-fills-the-line.json"
    write(tmp_path / name, json.dumps({"levels": levels}))
    window = terminal(name, "--all", "--max-seconds", "120")
    screen = window.wait_until(re.compile(r"level 2: trying \d+ moves \(\d").search, "level 2's progress")
    row = re.search(r"^\s+1\s+4×4\s+1\s+1\s+[\d.]+s\s+Easy$", screen, re.M)
    assert row and screen.index(row[0]) < screen.index("level 2:")
    window.keys("C-c")
    screen = window.wait_for("EXIT=130")
    assert "interrupted: stopped at your request after 1 of 3 levels" in screen
    assert re.search(r"^total solver time: \d+\.\d\ds$", screen, re.M)
    assert "level 2:" not in screen and "━" not in screen, "the progress bar is still on the screen"
    assert not re.search(r"^\s+[23]\s+", screen, re.M)
