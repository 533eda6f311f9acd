"""A pseudo-terminal for the tests: tmux runs a command in a window, keys are sent to it, and the screen
is read back as text."""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from collections.abc import Callable

import pytest
from helpers import in_ci

# A safety net for a screen that never shows what is expected, not a performance assertion.
SCREEN_TIMEOUT = 60


class Terminal:
    """A tmux server of its own running one command in a window of 40 lines (or as many as asked). The
    window closes when the command ends, so a command whose last screen matters ends in a long sleep;
    close() ends it all."""

    def __init__(self, command: str, width: int = 100, height: int = 40) -> None:
        self.socket = f"unflip-test-{uuid.uuid4().hex[:12]}"
        # COLUMNS and LINES, which a test run may carry, would override the window's own size.
        self.tmux("new-session", "-d", "-x", str(width), "-y", str(height), f"unset COLUMNS LINES; {command}")

    def tmux(self, *args: str) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, *args], check=True, capture_output=True, text=True, timeout=30
        ).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.tmux("send-keys", key)

    def wait_until(self, shows: Callable[[str], object], what: str) -> str:
        """The screen, once shows(screen) is true."""
        deadline = time.monotonic() + SCREEN_TIMEOUT
        while not shows(screen := self.screen()):
            assert time.monotonic() < deadline, f"{what} never showed; the screen:\n{screen}"
            time.sleep(0.05)
        return screen

    def wait_for(self, text: str) -> str:
        return self.wait_until(lambda screen: text in screen, repr(text))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


def require_tmux() -> None:
    """Skip without tmux, except under CI=true, where its absence fails (.ci/run installs it)."""
    if shutil.which("tmux") is None:
        why = "tmux not found (apt-get install tmux)"
        if in_ci():
            pytest.fail(why + "; CI=true requires it")
        pytest.skip(why)
