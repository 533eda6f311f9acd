"""--step in a real pseudo-terminal: tmux runs unflip, keys are sent to it, and the screen is read back.
The right cards come up for →, n, ← and p, each redrawn in place of the last; q exits 0 and Ctrl-C 130,
both leaving the terminal as it was. Off a terminal --step prints every card, as without it.

Without tmux these tests skip, except under CI=true, where they fail (.ci/run installs it)."""

from __future__ import annotations

import shlex
import sys

import pytest
from helpers import REPO
from support import SPEC_BOARD, SPEC_OUTPUT, one_line, run, write
from tmux_session import Terminal, require_tmux
from walkthrough_cases import SPEC_MOVES, strip

from unflip_frontend.boards import Move, parse_board_text, replay
from unflip_frontend.render import UNICODE, step_card


@pytest.fixture
def stepper(tmp_path, fake_solver):
    """The stepper on the specification's board, answered by a stand-in solver with the specification's
    own moves. After unflip exits, the shell prints its exit status and the terminal's echo and
    line-editing modes (a '-' before one means it was left switched off)."""
    require_tmux()
    env = fake_solver(SPEC_OUTPUT)
    board = write(tmp_path / "board.txt", SPEC_BOARD)
    unflip = shlex.join(
        ["env", *(f"{k}={v}" for k, v in env.items()), sys.executable, str(REPO / "unflip.py"), str(board)]
    )
    modes = "stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '"
    terminal = Terminal(f"{unflip} --step; echo EXIT=$?; echo MODES: $({modes}); sleep 3600")
    try:
        yield terminal
    finally:
        terminal.close()


BOARDS = replay(parse_board_text(SPEC_BOARD, "board.txt"), SPEC_MOVES)


def card(step: int) -> str:
    """The card for a step, as the screen shows it (without colour)."""
    return step_card(step, 8, SPEC_MOVES[step - 1], BOARDS[step - 1], UNICODE).plain


def shows_only(screen: str, step: int) -> bool:
    """The screen holds this step's card, and no other card's heading: redrawn in place, not appended."""
    return card(step) in screen and screen.count("Step ") == 1


def test_the_arrow_keys_and_n_and_p_bring_up_the_right_card_in_place_and_q_exits_0(stepper):
    assert shows_only(stepper.wait_for("Step 1 of 8"), 1)
    for key, step in [("Right", 2), ("n", 3), ("Left", 2), ("p", 1), ("p", 1), ("n", 2)]:
        stepper.keys(key)
        assert shows_only(stepper.wait_for(f"Step {step} of 8"), step), key
    stepper.keys(*["Right"] * 6)
    assert shows_only(stepper.wait_for("Step 8 of 8"), 8)
    stepper.keys("n", "n")  # the solved board is the last card
    screen = stepper.wait_for("Solved:")
    assert "Step " not in screen
    stepper.keys("q")
    screen = stepper.wait_for("MODES:")
    assert "EXIT=0" in screen
    assert "MODES: icanon echo" in screen
    assert "Solved:" in screen and "q quit" not in screen  # the last card stays, without the keys
    assert "✓ Verified: replaying all 8 moves" in screen


def test_ctrl_c_in_the_stepper_exits_130_and_leaves_the_terminal_as_it_was(stepper):
    stepper.wait_for("Step 1 of 8")
    stepper.keys("C-c")
    screen = stepper.wait_for("MODES:")
    assert "EXIT=130" in screen and "MODES: icanon echo" in screen
    assert "interrupted: stopped at your request" in screen


def test_a_rectangles_cards_step_in_place_as_a_squares_do(tmp_path, fake_solver):
    require_tmux()
    level, solution = strip()
    moves = "".join(f"{move.row} {move.col} {move.size}\n" for move in solution.moves)
    env = fake_solver(f"TARGET 0\nMOVES {len(solution.moves)}\n{moves}NODES 4\nTIME 0\n")
    board = write(tmp_path / "strip.txt", "".join("".join(map(str, row)) + "\n" for row in level.board))
    unflip = shlex.join(
        ["env", *(f"{k}={v}" for k, v in env.items()), sys.executable, str(REPO / "unflip.py"), str(board)]
    )
    terminal = Terminal(f"{unflip} --step; echo EXIT=$?; sleep 3600")
    try:
        boards = replay(level.board, solution.moves)
        for step in (1, 2, 3):
            screen = terminal.wait_for(f"Step {step} of 3")
            assert step_card(step, 3, solution.moves[step - 1], boards[step - 1], UNICODE).plain in screen
            assert screen.count("Step ") == 1
            terminal.keys("n")
        terminal.wait_for("Solved:")
        terminal.keys("q")
        assert "EXIT=0" in terminal.wait_for("EXIT=")
    finally:
        terminal.close()


@pytest.mark.parametrize(("height", "stepped"), [(40, True), (30, False)])
def test_a_31x31_board_is_stepped_where_its_card_fits_the_screen_and_else_every_card_is_printed_with_a_note(
    tmp_path, fake_solver, height, stepped
):
    # A 31×31 card and its footer take 37 lines: on 30, redrawn in place, its bottom rows and the keys
    # were cut off and shown as '...'.
    require_tmux()
    moves = (Move(29, 29, 2), Move(2, 0, 27))
    board = replay(tuple((0,) * 31 for _ in range(31)), moves)[-1]
    env = fake_solver("TARGET 0\nMOVES 2\n29 29 2\n2 0 27\nNODES 3\nTIME 0\n")
    path = write(tmp_path / "wide.txt", "".join("".join(map(str, row)) + "\n" for row in board))
    unflip = shlex.join(
        ["env", *(f"{k}={v}" for k, v in env.items()), sys.executable, str(REPO / "unflip.py"), str(path)]
    )
    terminal = Terminal(f"{unflip} --step; echo EXIT=$?; sleep 3600", height=height)
    try:
        if stepped:
            assert "card 1 of 3" in terminal.wait_for("Step 1 of 2")
            terminal.keys("q")
        screen = terminal.wait_for("EXIT=")
        history = terminal.tmux("capture-pane", "-p", "-S", "-200")
        assert "EXIT=0" in screen and "..." not in history
        assert ("every card follows" in history) != stepped
        if not stepped:
            assert (
                "--step: a card takes 37 lines here, more than this terminal's 30; every card follows"
                in history
            )
            assert history.count("Step ") == 2 and "Solved:" in history
    finally:
        terminal.close()


def test_step_off_a_terminal_prints_every_card_as_without_it(tmp_path, fake_solver):
    env = fake_solver(SPEC_OUTPUT)
    board = str(write(tmp_path / "board.txt", SPEC_BOARD))
    stepped, plain = run(board, "--step", env=env), run(board, env=env)
    assert stepped.exit_code == plain.exit_code == 0
    assert stepped.stdout == plain.stdout and card(8) in stepped.stdout


def test_step_with_compact_is_rejected_as_one_line(tmp_path):
    result = run(str(write(tmp_path / "board.txt", SPEC_BOARD)), "--step", "--compact")
    assert result.exit_code == 2
    assert one_line(result.stderr) == "error: --step shows the cards one at a time: drop --json and --compact"
