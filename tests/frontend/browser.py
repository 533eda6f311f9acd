"""A headless Chromium driven over the DevTools protocol through a pipe (--remote-debugging-pipe: the
browser reads commands on its file descriptor 3 and answers on 4, each message JSON ended by a NUL), so
the browser tests need no driver package and no port. Screenshots come back as PNG bytes."""

from __future__ import annotations

import base64
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

# What Debian's package installs; `.ci/run` installs it when it is missing.
CHROMIUM = "chromium"

# Headless, as root, on a machine with no network: no sandbox (it refuses to run as root with one), and
# none of the background connections a first start makes.
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)

# A safety net against a browser that stops answering, not a performance assertion.
ANSWER_TIMEOUT = 60


def find_chromium() -> str | None:
    return shutil.which(CHROMIUM)


class Browser:
    """One browser with one page; a context manager that leaves no browser process behind."""

    def __init__(self, executable: str) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="unflip-chromium-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()

        def pipes_as_3_and_4() -> None:
            # dup first: dup2 onto a descriptor's own number would keep its close-on-exec flag.
            read, write = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(read, 3)
            os.dup2(write, 4)

        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,  # every other descriptor is close-on-exec already; 3 and 4 must stay open
            preexec_fn=pipes_as_3_and_4,
            start_new_session=True,  # its helper processes too can be ended as one group
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.last_id = 0
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def call(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        """Send one command and wait for its answer, setting aside the events that arrive first."""
        self.last_id += 1
        message: dict[str, Any] = {"id": self.last_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while True:
            while b"\0" not in self.buffer:
                if not select.select([self.from_browser], [], [], max(0.0, deadline - time.monotonic()))[0]:
                    raise TimeoutError(f"Chromium did not answer {method}")
                chunk = os.read(self.from_browser, 1 << 16)
                if not chunk:
                    raise ConnectionError(f"Chromium closed the pipe during {method}")
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self.last_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer["result"]

    def page(self, method: str, **params: Any) -> dict[str, Any]:
        return self.call(method, session=True, **params)

    def open(self, path: Path, width: int, height: int, mobile: bool = False, fragment: str = "") -> None:
        """Load a file (at #fragment, if given) in a window of this size (in CSS pixels, one device pixel
        each), and wait for it."""
        self.page(
            "Emulation.setDeviceMetricsOverride",
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )
        self.page("Page.navigate", url=path.resolve().as_uri() + (f"#{fragment}" if fragment else ""))
        deadline = time.monotonic() + ANSWER_TIMEOUT
        while self.evaluate("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{path} did not finish loading")
            time.sleep(0.02)

    def evaluate(self, expression: str) -> Any:
        return self.page("Runtime.evaluate", expression=expression, returnByValue=True)["result"].get("value")

    def press(self, key: str, code: int) -> None:
        """A key pressed and released, as the keyboard would send it."""
        for kind in ("keyDown", "keyUp"):
            self.page("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.page("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def screenshot(self, full_page: bool = False) -> bytes:
        """PNG of the window, or with full_page of the whole document."""
        return base64.b64decode(
            self.page("Page.captureScreenshot", format="png", captureBeyondViewport=full_page)["data"]
        )

    def close(self) -> None:
        try:
            self.call("Browser.close")
            self.process.wait(timeout=ANSWER_TIMEOUT)
        except (OSError, RuntimeError, TimeoutError, subprocess.TimeoutExpired):
            pass
        finally:
            # Its renderer and helper processes share its session: end any of them still running.
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
            os.close(self.to_browser)
            os.close(self.from_browser)
            self.profile.cleanup()
