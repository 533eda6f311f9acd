"""--dask against servers that are not a Dask scheduler (issue 34): one that answers with another protocol's
banner, one that takes the connection and never answers, a tls:// address with no TLS settings. Each is one
line and exit status 6 within the connect timeout. The servers are the test's own, on 127.0.0.1, each
living a few seconds at most."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator

import pytest
from helpers import needs_dask, random_board_text
from support import one_line, run

needs_dask()

from unflip_frontend import cluster as cluster_module  # noqa: E402

# How long a test's server lives: longer than any run below should take, so a client it held to the end
# is seen to have waited too long.
SERVER_SECONDS = 8.0
CONNECT_SECONDS = 1  # the connect timeout the runs below are given, for speed
# What a run may take beyond the connect timeout: the scheduler's answer's grace, reading the board, Dask's
# first use in the process.
MARGIN_SECONDS = 2.5


def serve(greeting: bytes | None) -> Callable[[], Iterator[str]]:
    """A fixture: a server on 127.0.0.1 that, on every connection it takes, sends greeting at once (None:
    nothing, ever), then holds the connection open until it stops; it stops after SERVER_SECONDS, or when
    the test ends. Yields its tcp:// address."""

    def fixture() -> Iterator[str]:
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(0.1)
        stop = threading.Event()
        taken: list[socket.socket] = []

        def accept() -> None:
            deadline = time.monotonic() + SERVER_SECONDS
            while not stop.is_set() and time.monotonic() < deadline:
                try:
                    connection, _ = listener.accept()
                except TimeoutError:
                    continue
                taken.append(connection)
                if greeting is not None:
                    connection.sendall(greeting)
            for connection in taken:
                connection.close()
            listener.close()

        server = threading.Thread(target=accept, daemon=True)
        server.start()
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
        stop.set()
        server.join()

    return fixture


http_server = pytest.fixture(serve(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
ssh_server = pytest.fixture(serve(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n"))
silent_server = pytest.fixture(serve(None))


def dask_run(tmp_path, monkeypatch, address: str) -> tuple[str, float]:
    """A solve of a board that needs a search, on the cluster at address: its one line of error, after
    checking it is exit status 6, and the seconds it took."""
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", CONNECT_SECONDS)
    board = tmp_path / "board.txt"
    board.write_text(random_board_text(9, 1))
    started = time.monotonic()
    result = run(str(board), "--compact", f"--dask={address}")
    seconds = time.monotonic() - started
    assert result.exit_code == 6, (result.output, result.exception)
    return one_line(result.stderr), seconds


@pytest.mark.parametrize("server", ["http_server", "ssh_server"])
def test_a_server_that_answers_in_another_protocol_is_one_line_and_exit_status_6(
    tmp_path, monkeypatch, request, server
):
    address = request.getfixturevalue(server)
    line, seconds = dask_run(tmp_path, monkeypatch, address)
    assert line == (
        f"error: cannot reach the Dask scheduler at {address}: what answers there does not speak Dask's "
        "protocol"
    )
    assert seconds < CONNECT_SECONDS + MARGIN_SECONDS


def test_a_server_that_never_answers_is_given_up_within_the_connect_timeout(
    tmp_path, monkeypatch, silent_server
):
    line, seconds = dask_run(tmp_path, monkeypatch, silent_server)
    assert seconds < CONNECT_SECONDS + MARGIN_SECONDS < SERVER_SECONDS
    assert line == (
        f"error: cannot reach the Dask scheduler at {silent_server}: it took the connection but gave no "
        f"answer in {CONNECT_SECONDS} s"
    )


def test_a_tls_address_without_tls_settings_is_one_line_and_exit_status_6(tmp_path, monkeypatch):
    line, _ = dask_run(tmp_path, monkeypatch, "tls://127.0.0.1:1")
    assert line == (
        "error: cannot reach the Dask scheduler at tls://127.0.0.1:1: a tls:// address needs Dask's TLS "
        "settings (the configuration's distributed.comm.tls.ca-file and distributed.comm.tls.client.cert)"
    )
