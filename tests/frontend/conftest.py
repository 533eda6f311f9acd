"""Fixtures of the front end's tests: a stand-in solver, a small book with known optima, and a headless
browser."""

import sys

import pytest
from browser import Browser, find_chromium
from helpers import in_ci
from support import square_board


@pytest.fixture
def fake_solver(tmp_path):
    """Make a stand-in solver that records its arguments and input (see support.recorded), then answers as
    told. Returns the environment that selects it."""

    def make(stdout: str = "", stderr: str = "", code: int = 0, signal_number: int | None = None) -> dict:
        script = tmp_path / "fake_solver"
        die = f"os.kill(os.getpid(), {signal_number})\n" if signal_number else ""
        script.write_text(
            f"#!{sys.executable}\n"
            "import json, os, sys\n"
            "record = {'argv': sys.argv[1:], 'stdin': sys.stdin.read()}\n"
            f"open({str(tmp_path / 'record.json')!r}, 'w').write(json.dumps(record))\n"
            f"sys.stdout.write({stdout!r})\nsys.stderr.write({stderr!r})\nsys.stdout.flush()\n"
            f"{die}sys.exit({code})\n"
        )
        script.chmod(0o755)
        return {"UNFLIP_SOLVER": str(script)}

    return make


@pytest.fixture
def small_book():
    """Three levels with known optima: one square (1 move), two squares whose union is no square (2),
    and one more square (1)."""
    return [
        {"tiles": square_board(4, [(0, 0, 2)]), "par": 1, "title": "One square"},
        {"tiles": square_board(5, [(0, 0, 2), (3, 3, 2)]), "par": 2, "title": "Two corners"},
        {"tiles": square_board(6, [(1, 1, 4)]), "par": None},
    ]


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium with one page, for the tests that read pages from screenshots; skipped without it,
    except under CI=true, where that fails."""
    executable = find_chromium()
    if executable is None:
        why = "headless Chromium not found (apt-get install chromium)"
        if in_ci():
            pytest.fail(why + "; CI=true requires it")
        pytest.skip(why)
    with Browser(executable) as opened:
        yield opened
