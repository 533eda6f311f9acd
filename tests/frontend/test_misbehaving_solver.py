"""A solver gone wrong (flooding its output, hanging past its budget) and a build interrupted halfway are cut
off with one line, within bounded memory, leaving nothing running and nothing behind."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import REPO
from support import one_line, run, write

from unflip_frontend.solver import MAX_STDERR_CHARS, MAX_STDOUT_CHARS


def script(tmp_path: Path, body: str) -> dict[str, str]:
    path = write(tmp_path / "solver.sh", f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return {"UNFLIP_SOLVER": str(path)}


def peak_kib() -> int:
    """This process's peak resident memory so far."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM in /proc/self/status")


@pytest.mark.parametrize(
    ("stream", "cap"), [("", MAX_STDOUT_CHARS), (" >&2", MAX_STDERR_CHARS)], ids=["stdout", "stderr"]
)
def test_a_solver_flooding_its_output_is_cut_off_with_exit_4_in_bounded_memory(tmp_path, stream, cap):
    before = peak_kib()
    result = run(
        str(write(tmp_path / "b.txt", "11\n11\n")), "--json", env=script(tmp_path, f"exec yes MOVES{stream}")
    )
    assert result.exit_code == 4
    assert f"more than {cap >> 20} MiB" in one_line(result.stderr)
    # What was kept is the cap and no more: the peak grew by a few times the cap at most, never by gigabytes.
    assert peak_kib() - before < 8 * (MAX_STDOUT_CHARS >> 10)


def test_a_solver_still_running_well_past_its_time_budget_is_stopped_with_exit_4(tmp_path):
    started = time.monotonic()
    result = run(
        str(write(tmp_path / "b.txt", "11\n11\n")),
        "--max-seconds",
        "0.01",
        env=script(tmp_path, "exec sleep 300"),
    )
    assert result.exit_code == 4
    assert one_line(result.stderr) == (
        "error: the solver was still running 5.015 s into a 0.01 s budget; it was stopped"
    )
    assert time.monotonic() - started < 60


def alive(pid: int) -> bool:
    """Running, not a zombie waiting for a parent (in a container, init may never reap it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


@pytest.mark.skipif(not shutil.which("make"), reason="make is not installed")
def test_sigterm_during_the_first_build_stops_make_and_the_compiler_and_leaves_no_files(tmp_path):
    """A stand-in compiler that, like cc1plus, runs a child of its own and writes to $TMPDIR: SIGTERM to
    unflip must end every process of the build and leave none of its files."""
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(REPO / "unflip.py", repo)
    shutil.copy(REPO / "Makefile", repo)
    shutil.copytree(
        REPO / "unflip_frontend", repo / "unflip_frontend", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(REPO / "solver", repo / "solver")
    shutil.copy(REPO / "unflip_solver.cpp", repo)
    write(repo / "board.txt", "11\n11\n")
    pids = tmp_path / "pids"
    compiler = write(
        tmp_path / "slow-c++",
        "#!/bin/sh\n"
        f"echo $$ >> {pids}\n"
        f"sleep 300 & echo $! >> {pids}\n"
        'touch "$TMPDIR/cc-temp.s"\n'
        f'echo "$TMPDIR" > {tmp_path / "tmpdir"}\n'
        "wait\n",
    )
    compiler.chmod(0o755)
    environment = {k: v for k, v in os.environ.items() if k != "UNFLIP_SOLVER"}
    process = subprocess.Popen(
        [sys.executable, "unflip.py", "board.txt"],
        cwd=repo,
        env={**environment, "CXX": str(compiler)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (tmp_path / "tmpdir").exists() or len(pids.read_text().split()) < 2:
            assert time.monotonic() < deadline and process.poll() is None, process.communicate()
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 143, stderr
    assert "Traceback" not in stderr
    started = [int(pid) for pid in pids.read_text().split()]
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in started if alive(pid)]
    assert not Path((tmp_path / "tmpdir").read_text().strip()).exists()
    assert not list(repo.glob(".unflip_solver*")) and not (repo / "unflip_solver").exists()
