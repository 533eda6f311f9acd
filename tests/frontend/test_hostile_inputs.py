"""Hostile input, round three (issue 34): numbers too long for Python's int() in a game link, a level's
number and a size; one spelling of a link's numbers (no leading zeros); pages `share` cannot make a link
from; the API given things that are not boards or paths; and an interrupt landing while a child process
starts, which must not leave the child behind."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator

import pytest
from support import one_line, run

from unflip_frontend import api, build, solver
from unflip_frontend.errors import InputError
from unflip_frontend.links import parse_link
from unflip_frontend.solver import StoppedBySignal, raise_stop

# Past the 4,300 digits Python's int() reads from text (sys.get_int_max_str_digits).
HUGE = "1" * 5000


def refused(*args: str) -> str:
    """The one line of a run refused as bad input (exit status 2, nothing on standard output)."""
    result = run(*args)
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.stdout == ""
    return one_line(result.stderr)


# --- 4: a number of thousands of digits ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "link",
    [
        f"s_{HUGE}_2$m_2$v$1",
        f"s_2_2$m_{HUGE}$v$1",
        f"s_2_2$m_2$v$_{HUGE}",
        f"s_2_2$m_2$t$1_2_1_{HUGE}",
    ],
    ids=["size", "arithmetic", "vector", "tiles"],
)
@pytest.mark.parametrize("command", ["share", "solve", "annotate"])
def test_a_number_of_5000_digits_in_a_game_link_is_one_line_and_exit_status_2(tmp_path, link, command):
    args = {
        "share": ["share", link],
        "solve": [link],
        "annotate": ["annotate", link, "--out", str(tmp_path / "out.json")],
    }[command]
    message = refused(*args)
    assert message.startswith("error: game link: '11111")
    assert message.endswith("is 5,000 characters long; no number in a level has more than 18 digits")
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("level", [HUGE, "²"])
def test_check_certificates_level_is_whole_ascii_digits_of_a_sane_length(tmp_path, level):
    assert refused("check-certificate", "daily", level, str(tmp_path / "c.cert")) == (
        "error: give SOURCE, a LEVEL for a book, and the CERTIFICATE file"
    )


def test_a_solvers_progress_line_with_a_number_of_5000_digits_is_no_progress_not_a_traceback(
    tmp_path, fake_solver
):
    env = fake_solver("TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0\n", f"bound {HUGE} searching, nodes=1\n")
    board = tmp_path / "board.txt"
    board.write_text("11\n11\n")
    result = run(str(board), "--compact", env=env)
    assert result.exit_code == 0, (result.output, result.exception)
    assert "flip the 2×2 square covering rows 1–2, cols 1–2" in result.stdout


# --- 16: one rule for a link's numbers, and for the pages and sizes given -----------------------------------


@pytest.mark.parametrize(
    ("link", "words"),
    [
        ("s_2_2$m_02$v$1", "'02' in 'm_02' has a leading zero; the game writes numbers without"),
        ("s_02_02$m_2$v$1", "'02' in 's_02_02' has a leading zero"),
        ("s_3_2$m_2$v$_01_0", "'01' in '_01_0' has a leading zero"),
        ("s_3_2$m_2$t$1_2_1_01_1_1", "'01' in '1_2_1_01_1_1' has a leading zero"),
        ("s_٣_٢$m_2$v$10", "'٣' in 's_٣_٢' is not a number"),
    ],
)
def test_a_links_numbers_are_ascii_digits_without_leading_zeros_everywhere(link, words):
    with pytest.raises(InputError) as caught:
        parse_link(link)
    assert str(caught.value).startswith("game link: ") and words in str(caught.value)


def test_a_links_numbers_without_leading_zeros_read_as_ever():
    rectangle = ((1, 1, 0), (1, 1, 0))
    assert parse_link("s_3_2$m_2$v$_1_0").board == parse_link("s_3_2$m_2$v$10").board == rectangle


def test_a_link_with_two_custom_parameters_is_refused_not_read_as_either():
    assert refused("https://x/?custom=s_3_2$m_2$v$10&custom=zzz") == (
        "error: game link: 'https://x/?custom=s_3_2$m_2$v$10&custom=zzz' has 2 custom parameters; "
        "a link holds one level"
    )


@pytest.mark.parametrize(
    ("page", "words"),
    [
        ("https://x/?custom=zzz", "has a custom parameter already; give the page without it"),
        ("https://x/?lang=en&custom=", "has a custom parameter already"),
        ("https://x/\nplay", "has a space or a control character; a URL has none"),
        ("https://x/ play", "has a space or a control character"),
        ("", "the game's page is empty"),
        ("https://x/#play", "has a '#' fragment"),
    ],
)
def test_share_refuses_a_page_it_cannot_make_one_link_of_before_any_search(page, words):
    # The fake solver's absence is the point: the page is refused before a solver is needed.
    result = run("share", "s_3_2$m_2$v$10", "--page", page, env={"UNFLIP_SOLVER": "/nonexistent"})
    assert result.exit_code == 2, result.output
    message = one_line(result.stderr)
    assert message.startswith("error: the game's page") and words in message


@pytest.mark.parametrize("size", ["4-", "-4", "4_0", "+4", " 4", "٤", "4-5-6", "5x4-", HUGE])
def test_a_size_is_whole_numbers_written_whole(size):
    assert "expected N or A-B" in refused("generate", "--size", size, "--count", "1", "--out", "-")


# --- 17: the API given what is not a board or a path --------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: api.solve(None), "board: expected a text, rows of tiles or a book's level, not NoneType"),
        (lambda: api.solve(5), "board: expected a text, rows of tiles or a book's level, not int"),
        (lambda: api.solve(b"11\n11"), "board: expected a text, rows of tiles or a book's level, not bytes"),
        (lambda: api.hint(None), "board: expected a text, rows of tiles or a book's level, not NoneType"),
        (lambda: api.lower_bound(3.5), "not float"),
        (lambda: api.Board(None), "board: expected rows of tiles (0 white, 1 black), not NoneType"),
        (lambda: api.Board("11\n11"), "board: expected rows of tiles (0 white, 1 black), not str"),
        (lambda: api.Board([[1, 1], 5]), "board row 2: expected a row of tiles, not int"),
        (lambda: api.Board.from_text(None), "board: expected a text, not NoneType"),
        (lambda: api.read_book(None), "source must be a path (a str or an os.PathLike), not NoneType"),
        (lambda: api.read_book(b"daily"), "source must be a path (a str or an os.PathLike), not bytes"),
        (lambda: api.read_book("daily", books=5), "books must be a path (a str or an os.PathLike), not int"),
        (lambda: api.solve([[1, 1], [1, 1]], certificate=5), "certificate must be a path"),
    ],
)
def test_the_api_answers_what_is_not_a_board_or_a_path_with_input_error(call, message):
    with pytest.raises(InputError) as raised:
        call()
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_board_from_text_ignores_a_byte_order_mark_as_the_command_line_does():
    assert api.Board.from_text("\ufeff10\n01\n") == api.Board([[1, 0], [0, 1]])


# --- 15: an interrupt while a child process starts ----------------------------------------------------------


@pytest.fixture
def handlers() -> Iterator[None]:
    """Ctrl-C raising KeyboardInterrupt and SIGTERM raising StoppedBySignal, as on the command line, whatever
    the test run was started with; the run's own handlers are put back after."""
    previous = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, raise_stop)
    yield
    for number, handler in previous.items():
        signal.signal(number, handler)


def interrupted_popen(monkeypatch: pytest.MonkeyPatch, number: int) -> list[subprocess.Popen[str]]:
    """Popen, with the signal sent to this process once the child exists and before Popen returns it: the
    moment an interrupt leaves a child that nobody stops or reaps. The children started are listed."""
    real_popen = subprocess.Popen
    started: list[subprocess.Popen[str]] = []

    def popen(*args: object, **kwargs: object) -> subprocess.Popen[str]:
        process = real_popen(*args, **kwargs)  # type: ignore[call-overload]
        started.append(process)
        os.kill(os.getpid(), number)
        return process

    monkeypatch.setattr(subprocess, "Popen", popen)
    return started


def reaped(started: list[subprocess.Popen[str]]) -> bool:
    """Whether every child was ended and waited for; one that was not is killed here, not left behind."""
    left = [process for process in started if process.returncode is None]
    for process in left:
        process.kill()
        process.wait()
    return bool(started) and not left


STOPS: list[tuple[int, type[BaseException]]] = [
    (signal.SIGINT, KeyboardInterrupt),
    (signal.SIGTERM, StoppedBySignal),
]


@pytest.mark.parametrize(("number", "raised"), STOPS, ids=["Ctrl-C", "SIGTERM"])
def test_an_interrupt_as_the_solver_starts_stops_and_reaps_it(monkeypatch, handlers, number, raised):
    solver_path = api.build_solver()
    started = interrupted_popen(monkeypatch, number)
    with pytest.raises(raised):
        solver.run_search(solver_path, ((1, 1), (1, 1)), [], solver.no_progress, None)
    assert reaped(started)


@pytest.mark.parametrize(("number", "raised"), STOPS, ids=["Ctrl-C", "SIGTERM"])
def test_an_interrupt_as_the_build_starts_stops_and_reaps_it(tmp_path, monkeypatch, handlers, number, raised):
    started = interrupted_popen(monkeypatch, number)
    with pytest.raises(raised):
        build.run_build(["sleep", "30"], tmp_path / "unflip_solver", "make")
    assert reaped(started)


def interrupted_wait(monkeypatch: pytest.MonkeyPatch, process: subprocess.Popen[str]) -> None:
    """The process's first wait is preceded by a second Ctrl-C, as a user pressing it again while the child
    is being stopped."""
    real_wait = process.wait
    interrupted: list[bool] = []

    def wait(timeout: float | None = None) -> int:
        if not interrupted:
            interrupted.append(True)
            os.kill(os.getpid(), signal.SIGINT)
        return real_wait(timeout)

    monkeypatch.setattr(process, "wait", wait)


def test_a_second_ctrl_c_while_the_solver_is_stopped_is_raised_once_it_is_reaped(monkeypatch, handlers):
    process = subprocess.Popen(["sleep", "30"], text=True)
    interrupted_wait(monkeypatch, process)
    with pytest.raises(KeyboardInterrupt):
        solver.stop_process(process)
    assert reaped([process])


def test_a_second_ctrl_c_while_the_build_is_stopped_is_raised_once_it_is_reaped(monkeypatch, handlers):
    process = subprocess.Popen(["sleep", "30"], text=True, start_new_session=True)
    interrupted_wait(monkeypatch, process)
    with pytest.raises(KeyboardInterrupt):
        build.stop_group(process)
    assert reaped([process])


def test_held_signals_are_raised_by_their_own_handlers_once_released(handlers):
    calls: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _frame: calls.append(number))
    try:
        with solver.signals_held() as release:
            os.kill(os.getpid(), signal.SIGINT)
            assert calls == []
            release()
            assert calls == [signal.SIGINT]
    finally:
        signal.signal(signal.SIGINT, previous)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler

