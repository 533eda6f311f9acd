"""Ctrl-C, SIGTERM and SIGHUP: the solver is stopped and reaped, the exit status is 128 + the signal's number,
and no process is left behind. A closed standard output (`| head`) ends a run with 141 and no traceback."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import REPO, random_board_text
from support import write


def children_of(pid: int) -> list[tuple[int, str]]:
    """(pid, program) of each live child process, read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                program = (entry / "cmdline").read_bytes().split(b"\0")[0].decode()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == pid:
                found.append((int(entry.name), program))
    return found


STOPS = {
    signal.SIGINT: (130, "interrupted: stopped at your request"),
    signal.SIGTERM: (143, "terminated: stopped by SIGTERM"),
    signal.SIGHUP: (129, "terminated: stopped by SIGHUP"),
}


@pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="needs Linux /proc to find the solver process"
)
@pytest.mark.parametrize("sent", list(STOPS), ids=lambda number: signal.Signals(number).name)
@pytest.mark.parametrize("who", ["front end only", "whole process group, as a terminal does"])
def test_a_stopping_signal_stops_the_solver_and_exits_128_plus_its_number_leaving_no_process(
    tmp_path, who, sent
):
    board = random_board_text(13, 2024)
    # The budget only matters if the interrupt handling were broken: the solver then still ends.
    front = subprocess.Popen(
        [
            sys.executable,
            str(REPO / "unflip.py"),
            str(write(tmp_path / "b.txt", board)),
            "--max-seconds",
            "120",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={k: v for k, v in os.environ.items() if k != "UNFLIP_SOLVER"},
    )
    try:
        deadline = time.monotonic() + 120  # room for a first build of the real solver
        solver = []
        while not solver and time.monotonic() < deadline and front.poll() is None:
            solver = [pid for pid, program in children_of(front.pid) if Path(program).name == "unflip_solver"]
            time.sleep(0.05)
        assert solver, "the solver never started"
        if who == "front end only":
            front.send_signal(sent)
        else:
            os.killpg(front.pid, sent)
        _, stderr = front.communicate(timeout=60)
    finally:
        if front.poll() is None:
            front.kill()
    status, last_line = STOPS[sent]
    assert front.returncode == status
    assert stderr.strip().splitlines()[-1] == last_line
    assert "Traceback" not in stderr
    assert not Path(f"/proc/{solver[0]}").exists()


@pytest.mark.parametrize(
    "args",
    [["board.txt"], ["weekly", "--list"], ["generate", "--count", "1", "--size", "4"]],
    ids=["solve", "list", "generate"],
)
def test_a_run_whose_output_reader_has_gone_exits_141_without_a_word(args):
    front = subprocess.Popen(
        [sys.executable, str(REPO / "unflip.py"), *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    front.stdout.close()  # as `| head` does once it has its lines: the next write finds no reader
    stderr = front.stderr.read()
    assert front.wait(timeout=120) == 141
    assert stderr == ""
