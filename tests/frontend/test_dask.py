"""--dask: the search spread over a Dask cluster (an embedded LocalCluster of two workers here) gives the
single-process solver's optimum on random, scrambled, rectangular and symmetric boards; stops with a true
bound under a budget; answers an unsolvable board without any cluster; gives the same optimum when a worker
is killed in the middle; prints the same moves, the first solving cube's, on one worker or two and whatever
order the cubes are taken in; and --all over the shipped daily book gives the sequential run's table."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import oracle
import pytest
from helpers import REPO, book_tiles, needs_dask, random_board_text, scrambled
from support import one_line, run, write_book

from unflip_frontend import api

needs_dask()

import psutil  # noqa: E402  (distributed's own dependency)

from unflip_frontend import cluster as cluster_module  # noqa: E402
from unflip_frontend.cluster import Cluster, ClusterProgress  # noqa: E402
from unflip_frontend.cubes import search_cube  # noqa: E402

UNREACHABLE = "tcp://127.0.0.1:9"  # the discard port: nothing listens there


def ignore(_progress: api.SearchProgress) -> None:
    """Progress nobody watches."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with Cluster(None, 2) as started:
        yield started


def boards() -> list[tuple[str, str, str]]:
    """(name, board text, target): quick boards, each a second or less on one process."""
    rng = random.Random(2222)
    cases = [
        (f"random {n}x{n} #{seed}", random_board_text(n, seed), "0") for n, seed in ((9, 1), (9, 2), (10, 3))
    ]
    cases += [(f"scrambled {n}x{n}", scrambled(n, 14, n), "0") for n in (11, 12)]
    cases += [
        ("rectangle 7x11", oracle.board_text(oracle.random_board(rng, 7, 11)), "0"),
        ("rectangle 10x8, target 1", oracle.board_text(oracle.random_board(rng, 10, 8)), "1"),
    ]
    for group in ("every symmetry", "half turn", "both mirrors", "diagonal mirror"):
        cases.append((group, oracle.board_text(oracle.symmetric_board(rng, 9, group)), "0"))
    cases.append(("random 9x9, either target", random_board_text(9, 4), "either"))
    return cases


CASES = boards()


@pytest.mark.parametrize(("name", "text", "target"), CASES, ids=[case[0] for case in CASES])
def test_the_optimum_on_the_cluster_is_the_single_process_solvers(cluster, name, text, target):
    alone = api.solve(text, target=target, threads=1)  # type: ignore[arg-type]
    board = api.Board.from_text(text)
    # A small split limit, so that cubes are split further on the workers too.
    spread = cluster.solve(board, target, None, None, ignore, 20_000)
    assert isinstance(alone, api.Solution) and isinstance(spread, api.Solution), (alone, spread)
    assert len(spread.moves) == len(alone.moves), name
    assert oracle.replay(board, spread.moves) == oracle.uniform(board.height, spread.target, board.width)


TRI_CASES = [
    (f"tri {h}x{w} #{i}", oracle.random_tri_board(random.Random(3680 + i), h, w))
    for i, (h, w) in enumerate(((6, 6), (6, 6), (5, 7)))
]


@pytest.mark.parametrize(("name", "tri_board"), TRI_CASES, ids=[case[0] for case in TRI_CASES])
def test_a_tri_optimum_on_the_cluster_is_the_single_process_solvers_and_replays_mod_3(
    cluster, name, tri_board
):
    text = "scheme tri\n" + oracle.tri_board_text(tri_board)
    alone = api.solve(text, threads=1)
    board = api.Board.from_text(text)
    # A split limit small enough that cubes are handed back and split on the workers.
    spread = cluster.solve(board, "0", None, None, ignore, 2_000)
    assert isinstance(alone, api.Solution) and isinstance(spread, api.Solution), (alone, spread)
    assert len(spread.moves) == len(alone.moves), name
    assert oracle.tri_replay(tri_board, spread.moves) == oracle.tri_solved(*oracle.shape(tri_board)), name


# Boards whose optimum several cubes reach, so that the cubes race.
RACED = [("random 9x9 #2", random_board_text(9, 2)), ("random 10x10 #2", random_board_text(10, 2))]


def first_solving_cube(board: api.Board, text: str) -> tuple[tuple[int, int, int], ...]:
    """The rule, with no cube split: at the optimum, the cubes listed as the cluster lists them (at least
    CUBES_LISTED, as few decisions down as that takes), each searched alone on one thread, in the search's
    order; the first one's solution."""
    solver = api.build_solver()
    optimum = len(api.solve(text, threads=1).moves)  # type: ignore[union-attr]
    for cube in cluster_module.enough_cubes(solver, board, "0", optimum).cubes:
        found = search_cube(solver, board, (cube,), optimum, None, None)
        if isinstance(found, api.Solution):
            return found.moves
    raise AssertionError("no cube holds the optimum")


def last_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers take the cubes last first, so that a later cube's solution comes in first."""
    ordered = cluster_module.search_priority
    monkeypatch.setattr(cluster_module, "search_priority", lambda cube: -ordered(cube))


def moves_on(cluster: Cluster, board: api.Board, split_nodes: int) -> tuple[tuple[int, int, int], ...]:
    answer = cluster.solve(board, "0", None, None, ignore, split_nodes)
    assert isinstance(answer, api.Solution), answer
    return answer.moves


@pytest.mark.parametrize(("name", "text"), RACED, ids=[case[0] for case in RACED])
def test_the_moves_are_the_first_solving_cubes_whatever_the_workers_and_the_order(
    cluster, monkeypatch, name, text
):
    board = api.Board.from_text(text)
    unsplit = 1 << 40
    with Cluster(None, 1) as alone:
        answers = [moves_on(alone, board, unsplit)]
    answers.append(moves_on(cluster, board, unsplit))
    last_first(monkeypatch)
    answers += [moves_on(cluster, board, unsplit) for _ in range(2)]
    assert answers == [first_solving_cube(board, text)] * 4, name


def test_split_cubes_give_the_same_moves_on_one_worker_and_on_two_in_either_order(cluster, monkeypatch):
    board = api.Board.from_text(RACED[0][1])
    with Cluster(None, 1) as alone:
        answers = [moves_on(alone, board, 5_000)]
    answers.append(moves_on(cluster, board, 5_000))
    last_first(monkeypatch)
    answers.append(moves_on(cluster, board, 5_000))
    assert answers[1:] == [answers[0]] * 2


def test_the_command_line_prints_the_same_moves_whatever_the_workers(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(RACED[1][1])
    printed = [run(str(board), "--json", "--dask", "--threads", str(workers)) for workers in (1, 2, 2)]
    assert {result.exit_code for result in printed} == {0}, printed[0].output
    moves = [json.loads(result.stdout)["moves"] for result in printed]
    assert moves[1:] == [moves[0]] * 2


def test_a_budget_stops_the_cluster_at_a_true_lower_bound(cluster):
    text = random_board_text(12, 3)  # 40,666 nodes on one thread
    optimum = len(api.solve(text, threads=1).moves)  # type: ignore[union-attr]
    root = api.lower_bound(text).bound  # type: ignore[union-attr]
    stopped = cluster.solve(api.Board.from_text(text), "0", None, 10_000, ignore, 5_000)
    assert isinstance(stopped, api.Stopped)
    assert root <= stopped.bound <= optimum


def test_the_cluster_shows_the_bound_the_cubes_done_and_left_and_the_nodes(cluster):
    seen: list[ClusterProgress] = []
    cluster.solve(api.Board.from_text(random_board_text(9, 2)), "0", None, None, seen.append)
    assert seen and all(isinstance(progress, ClusterProgress) for progress in seen)
    assert re.fullmatch(r"trying \d+ moves: [\d,]+ of [\d,]+ cubes done \([\d,]+ nodes\)", str(seen[0]))
    exhausted = [progress for progress in seen if progress.state == "exhausted"]
    assert exhausted and all(progress.cubes_left == 0 for progress in exhausted)


def test_an_unsolvable_board_is_answered_without_a_cluster(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("0000\n0010\n0000\n0000\n")
    result = run(str(board), "--compact", f"--dask={UNREACHABLE}")
    assert result.exit_code == 1, result.output
    assert "unsolvable" in result.output.lower()


def test_an_unreachable_scheduler_is_one_line_and_exit_status_6(tmp_path, monkeypatch):
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 2)
    board = tmp_path / "board.txt"
    board.write_text(random_board_text(9, 1))
    result = run(str(board), "--compact", f"--dask={UNREACHABLE}")
    assert result.exit_code == 6
    assert one_line(result.stderr).startswith(f"error: cannot reach the Dask scheduler at {UNREACHABLE}")


def test_killing_a_worker_in_the_middle_of_a_run_gives_the_same_answer():
    text = random_board_text(10, 2)
    board = api.Board.from_text(text)
    with Cluster(None, 2) as calm:
        expected = calm.solve(board, "0", None, None, ignore, 5_000)
    with Cluster(None, 2) as troubled:
        killed = threading.Event()
        victims = troubled.client.run(os.getpid)

        def kill_one(progress: ClusterProgress) -> None:
            if progress.cubes_done >= 3 and not killed.is_set():
                killed.set()
                os.kill(next(iter(victims.values())), signal.SIGKILL)

        answer = troubled.solve(board, "0", None, None, kill_one, 5_000)
    assert killed.is_set(), "the run ended before a worker could be killed"
    assert isinstance(expected, api.Solution) and isinstance(answer, api.Solution)
    assert len(answer.moves) == len(expected.moves)
    assert oracle.replay(board, answer.moves) == oracle.uniform(board.height, 0, board.width)


def table_rows(output: str) -> list[list[str]]:
    """The --all table's rows without the time column: level, board, par, moves, title."""
    rows = [line.split() for line in output.splitlines() if re.match(r"\s+\d+\s+\d+×\d+", line)]
    return [row[:4] + row[5:] for row in rows]


def test_all_over_the_daily_book_on_the_cluster_equals_the_sequential_run():
    sequential = run("daily", "--all")
    spread = run("daily", "--all", "--dask", "--threads", "2")
    assert (spread.exit_code, sequential.exit_code) == (0, 0), spread.output
    assert table_rows(spread.output) == table_rows(sequential.output)
    assert len(table_rows(spread.output)) == len(api.read_book("daily").levels)


def our_book(path: Path) -> Path:
    """A book of our own that annotate has much to mend in: random levels with a wrong par or none, one no
    moves clear, one that cannot be read, and one level twice."""
    rng = random.Random(22)
    levels: list[dict] = [
        {"tiles": book_tiles(oracle.random_board(rng, h, w)), "par": 3}
        for h, w in ((5, 5), (6, 7), (7, 7), (8, 6))
    ]
    levels[1].pop("par")
    levels.append({"tiles": book_tiles(((0, 0, 0, 0), (0, 0, 1, 0), (0, 0, 0, 0), (0, 0, 0, 0))), "par": 2})
    levels.append({"tiles": [[1, 7], [1, 1]], "par": 1})
    levels.append(dict(levels[2]))
    return write_book(path, levels)


def test_annotate_on_the_cluster_writes_the_sequential_runs_book_and_report_byte_for_byte(tmp_path):
    book = our_book(tmp_path / "ours.json")
    here, spread = tmp_path / "here.json", tmp_path / "spread.json"
    sequential = run("annotate", str(book), "--out", str(here))
    clustered = run("annotate", str(book), "--out", str(spread), "--dask", "--threads", "2")
    assert sequential.exit_code == clustered.exit_code == 1, clustered.output  # the malformed level
    assert spread.read_bytes() == here.read_bytes() != book.read_bytes()
    assert clustered.stdout.replace(str(spread), str(here)) == sequential.stdout


@pytest.mark.parametrize(
    "plan",
    [
        ("--size", "5-8", "--optimum", "4-9", "--count", "6", "--seed", "d1"),
        # Few boards fit, so that levels drawn at once on the workers draw the same board: the later
        # one is drawn again, as in turn.
        ("--size", "3", "--optimum", "1-3", "--count", "8", "--seed", "d2", "--kind", "main"),
    ],
    ids=["random levels", "levels drawn alike"],
)
def test_generate_on_the_cluster_writes_the_sequential_runs_book_byte_for_byte(plan):
    sequential = run("generate", *plan)
    clustered = run("generate", *plan, "--dask", "--threads", "2")
    assert sequential.exit_code == clustered.exit_code == 0, clustered.output
    assert clustered.stdout == sequential.stdout
    assert len(json.loads(sequential.stdout)["levels"]) == int(plan[5])


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (("--dask", "--all-solutions"), "--dask searches for one optimal solution"),
        (("--dask=tcp://host:8786", "--threads", "2"), "--threads sizes the cluster a bare --dask starts"),
        (("--dask", "board"), "--dask takes a scheduler's address"),
    ],
)
def test_a_dask_request_that_cannot_be_met_is_one_line(tmp_path, args, complaint):
    board = tmp_path / "board.txt"
    board.write_text(random_board_text(5, 1))
    result = run(str(board), *args)
    assert result.exit_code == 2
    assert complaint in one_line(result.stderr)


@pytest.mark.parametrize("command", [("generate",), ("annotate", "daily", "--out", "fixed.json")])
def test_annotate_and_generate_refuse_threads_with_a_schedulers_address_in_one_line(command):
    result = run(*command, "--dask=tcp://host:8786", "--threads", "2")
    assert result.exit_code == 2
    assert "--threads sizes the cluster a bare --dask starts" in one_line(result.stderr)


# A board that takes the cluster well over ten seconds: long enough to interrupt in the middle. (11×11
# boards were, until the solver got 2-3 times faster on AVX2 machines: one then ended before the Ctrl-C.)
LONG_BOARD = (14, 1)
LONG_SIZE = LONG_BOARD[0]


def start_unflip(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(REPO / "unflip.py"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def running_solvers(process: psutil.Process) -> list[psutil.Process]:
    """The solvers still running among a process's descendants."""
    found = []
    for child in process.children(recursive=True):
        try:
            if child.name() == "unflip_solver" and child.status() != psutil.STATUS_ZOMBIE:
                found.append(child)
        except psutil.NoSuchProcess:
            pass
    return found


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def interrupted_leaves_nothing_running(started: subprocess.Popen[str]) -> None:
    """Ctrl-C once the two local workers are at work: the run ends with 130 and its one line, and every
    process it had started (the cluster's, the solvers) is gone."""
    parent = psutil.Process(started.pid)
    assert wait_for(lambda: len(running_solvers(parent)) == 2, 60), "the workers never started their tasks"
    descendants = parent.children(recursive=True)
    started.send_signal(signal.SIGINT)
    _, stderr = started.communicate(timeout=60)
    assert started.returncode == 130, stderr
    assert one_line(stderr) == "interrupted: stopped at your request"
    assert wait_for(
        lambda: not any(p.is_running() and p.status() != psutil.STATUS_ZOMBIE for p in descendants), 5
    )


def test_ctrl_c_on_an_embedded_cluster_stops_the_run_and_leaves_nothing_running(tmp_path):
    board = tmp_path / "board.txt"
    board.write_text(random_board_text(*LONG_BOARD))
    interrupted_leaves_nothing_running(start_unflip(str(board), "--compact", "--dask", "--threads", "2"))


def test_ctrl_c_on_annotate_or_generate_on_the_cluster_writes_nothing_and_leaves_nothing_running(tmp_path):
    boards = [oracle.random_board(random.Random(seed), LONG_SIZE) for seed in (1, 2, 3)]
    levels = [{"tiles": book_tiles(board)} for board in boards]
    book = write_book(tmp_path / "long.json", levels)
    on_two = ("--dask", "--threads", "2")
    interrupted_leaves_nothing_running(
        start_unflip("annotate", str(book), "--out", str(tmp_path / "annotated.json"), *on_two)
    )
    made = ("--size", str(LONG_SIZE), "--optimum", "25-40", "--out", str(tmp_path / "made.json"))
    interrupted_leaves_nothing_running(start_unflip("generate", *made, *on_two))
    assert [path.name for path in tmp_path.iterdir()] == ["long.json"]


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes], subprocess.Popen[bytes]]]:
    """A running `dask scheduler` and a `dask worker` of two processes: (address, scheduler, worker)."""
    address_file = tmp_path / "scheduler.json"
    dask = [str(Path(sys.executable).parent / "dask")]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
    started = subprocess.Popen(
        [
            *dask,
            "scheduler",
            "--scheduler-file",
            str(address_file),
            "--port",
            "0",
            "--dashboard-address",
            ":0",
        ],
        **quiet,  # type: ignore[call-overload]
    )
    assert wait_for(address_file.exists, 30), "the scheduler did not start"
    time.sleep(0.5)  # written, not necessarily flushed
    address = json.loads(address_file.read_text())["address"]
    worker = subprocess.Popen(
        [*dask, "worker", "--scheduler-file", str(address_file), "--nthreads", "1", "--nworkers", "2"],
        **quiet,  # type: ignore[call-overload]
    )
    try:
        yield address, started, worker
    finally:
        for process in (worker, started):
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def test_a_running_scheduler_solves_and_ctrl_c_leaves_its_workers_idle(tmp_path, scheduler):
    address, _, worker = scheduler
    quick, long = tmp_path / "quick.txt", tmp_path / "long.txt"
    quick.write_text(random_board_text(10, 2))
    long.write_text(random_board_text(*LONG_BOARD))
    solved = start_unflip(str(quick), "--compact", "--dask", address)
    stdout, stderr = solved.communicate(timeout=120)
    assert solved.returncode == 0, stderr
    assert f"Optimal: {len(api.solve(quick.read_text(), threads=1).moves)} moves" in stdout  # type: ignore[union-attr]
    interrupted = start_unflip(str(long), "--compact", "--dask", address)
    workers = psutil.Process(worker.pid)
    assert wait_for(lambda: len(running_solvers(workers)) == 2, 60), "the workers never started their cubes"
    interrupted.send_signal(signal.SIGINT)
    interrupted.communicate(timeout=60)
    assert interrupted.returncode == 130
    assert wait_for(lambda: not running_solvers(workers), 5), "a cube's solver outlived its run"
    assert worker.poll() is None, "the workers themselves stay up for the next run"


def test_a_scheduler_that_goes_away_mid_run_is_one_line_and_exit_status_6(tmp_path, scheduler):
    address, started, worker = scheduler
    long = tmp_path / "long.txt"
    long.write_text(random_board_text(*LONG_BOARD))
    run = start_unflip(str(long), "--compact", "--dask", address)
    assert wait_for(lambda: len(running_solvers(psutil.Process(worker.pid))) == 2, 60)
    started.kill()
    _, stderr = run.communicate(timeout=120)
    assert run.returncode == 6
    assert one_line(stderr) == f"error: the Dask scheduler at {address} went away"
