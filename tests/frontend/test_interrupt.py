"""Ctrl-C: the solver is stopped and reaped, the exit status is 130, and no process is left behind."""

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


@pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="needs Linux /proc to find the solver process"
)
@pytest.mark.parametrize("who", ["front end only", "whole process group, as a terminal does"])
def test_ctrl_c_stops_the_solver_and_exits_130_leaving_no_process(tmp_path, who):
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
            front.send_signal(signal.SIGINT)
        else:
            os.killpg(front.pid, signal.SIGINT)
        _, stderr = front.communicate(timeout=60)
    finally:
        if front.poll() is None:
            front.kill()
    assert front.returncode == 130
    assert stderr.strip().splitlines()[-1] == "interrupted: stopped at your request"
    assert "Traceback" not in stderr
    assert not Path(f"/proc/{solver[0]}").exists()
