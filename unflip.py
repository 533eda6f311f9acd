#!/usr/bin/env python3
"""unflip: the human-facing front end of the Unflip solver.

It loads a level (from one of the game's JSON books, a text board, or standard input), hands the board
to ./unflip_solver over the line protocol described in README.md, checks the answer by replaying it, and
prints each move as a step card. All search happens in the C++ solver; nothing here solves anything.

The file is organised in families: output, boards, books, the solver process, verification, rendering,
and the click commands at the bottom.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn, TypeVar

import click
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn
from rich.table import Table
from rich.text import Text

HERE = Path(__file__).resolve().parent
SOLVER_SOURCE = HERE / "unflip_solver.cpp"
SOLVER_BINARY = HERE / "unflip_solver"
BOOK_FILES = {
    "daily": "daily_levels_book.json",
    "main": "main_levels_book.json",
    "weekly": "weekly_challenges_book.json",
}
MIN_SIZE, MAX_SIZE = 2, 15

# Exit statuses, distinct so scripts (and CI) can tell "no answer exists" from "we could not find out".
EXIT_OK = 0
EXIT_FAILED = 1  # unsolvable board, or a failing level under --all
EXIT_INPUT = 2  # bad command line, book or board (click also uses 2 for usage errors)
EXIT_STOPPED = 3  # the time or node budget ran out first
EXIT_SOLVER = 4  # the solver could not be built, crashed, spoke garbage, or gave a wrong answer
EXIT_INTERRUPTED = 130  # the shell convention for death by SIGINT

COLOUR_NAMES = {0: "white", 1: "black"}
HIGHLIGHT = "bold yellow"


# ---------------------------------------------------------------------------------------------------------
# Output: one console for results, one for errors and progress, and the single way to give up.
# ---------------------------------------------------------------------------------------------------------


class Output:
    """The two consoles. They are rebuilt for every invocation because rich reads the terminal and the
    colour environment (NO_COLOR, FORCE_COLOR) when a console is created, and tests invoke many times."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.out = Console(highlight=False)
        self.err = Console(stderr=True, highlight=False)

    def disable_colour(self) -> None:
        self.out.no_color = self.err.no_color = True


ui = Output()


class InputError(Exception):
    """A book, board or level the user pointed at is unusable; the message says where."""


class SolverError(Exception):
    """The solver could not be run, or what it said cannot be trusted."""


class VerificationError(SolverError):
    """The solver's moves, replayed on the board, do not leave it uniform."""


def fail(message: str, code: int = EXIT_INPUT, label: str = "error") -> NoReturn:
    """Print one line on standard error and exit: every failure the user sees goes through here."""
    line = Text.assemble((f"{label}: ", "bold red"), message)
    ui.err.print(line, soft_wrap=True)
    raise SystemExit(code)


def status_line(message: str) -> None:
    ui.err.print(Text(message, style="dim"), soft_wrap=True)


# ---------------------------------------------------------------------------------------------------------
# Boards and moves. A board is a tuple of rows of 0/1 in the solver's terms: 0 is the game's white.
# ---------------------------------------------------------------------------------------------------------

Board = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Move:
    row: int  # top-left corner, 0-based, as the protocol gives it
    col: int
    size: int

    def fits(self, n: int) -> bool:
        return (
            MIN_SIZE <= self.size
            and 0 <= self.row
            and 0 <= self.col
            and max(self.row, self.col) + self.size <= n
        )


def apply_move(board: Board, move: Move) -> Board:
    rows = range(move.row, move.row + move.size)
    cols = range(move.col, move.col + move.size)
    return tuple(
        tuple(tile ^ (r in rows and c in cols) for c, tile in enumerate(line)) for r, line in enumerate(board)
    )


def moves_word(count: int) -> str:
    return f"{count} move" + ("" if count == 1 else "s")


def board_to_protocol(board: Board) -> str:
    return "".join("".join(map(str, line)) + "\n" for line in board)


def check_size(n: int, where: str) -> None:
    if not MIN_SIZE <= n <= MAX_SIZE:
        raise InputError(f"{where}: the board is {n}×{n}; sizes {MIN_SIZE} to {MAX_SIZE} are supported")


def parse_board_text(text: str, where: str) -> Board:
    """Read N lines of N digits, all 0/1 or all 1/2, as README.md's protocol does: trailing spaces,
    CRLF and trailing blank lines are fine; 1/2 maps to 0/1; a board of only 1s is read as 0/1."""
    lines = [line.rstrip(" \t\r") for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    if not lines:
        raise InputError(f"{where}: the board is empty")
    width = len(lines[0])
    for number, line in enumerate(lines, 1):
        if not line:
            raise InputError(f"{where} line {number} is blank; board rows must be consecutive")
        bad = next((ch for ch in line if ch not in "012"), None)
        if bad is not None:
            raise InputError(f"{where} line {number}: {bad!r} is not a tile (use digits 0/1 or 1/2)")
        if len(line) != width:
            raise InputError(f"{where} line {number}: {len(line)} tiles, but line 1 has {width}")
    if len(lines) != width:
        raise InputError(f"{where}: the board is {width} tiles wide and {len(lines)} high; it must be square")
    check_size(width, where)
    digits = set("".join(lines))
    if {"0", "2"} <= digits:
        raise InputError(f"{where}: mixes 0 and 2; use 0/1 (0 = white) or 1/2 (1 = white) throughout")
    offset = 1 if "2" in digits else 0
    return tuple(tuple(int(ch) - offset for ch in line) for line in lines)


# ---------------------------------------------------------------------------------------------------------
# Books: the game's JSON format ({"levels": [...]}, tiles 1 = white, 2 = black) and text boards.
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    name: str  # how messages refer to it: "daily level 5", "board.txt"
    number: int | None  # 1-based position in its book; None for a text board
    board: Board
    par: int | None
    title: str


@dataclass(frozen=True)
class Book:
    name: str
    levels: tuple[Level, ...]


def read_source(path: str) -> tuple[str, str]:
    """Return (text, display name) of a file, or of standard input for '-'."""
    if path == "-":
        return sys.stdin.read(), "standard input"
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text file (it is not UTF-8)") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def book_path(name: str, books_dir: str | None) -> Path:
    folder = Path(books_dir) if books_dir else HERE
    path = folder / BOOK_FILES[name]
    if not path.is_file():
        raise InputError(
            f"book '{name}' not found: {path} does not exist "
            "(point --books DIR or UNFLIP_BOOKS at its folder)"
        )
    return path


def parse_tiles(tiles: object, where: str) -> Board:
    """Accept both encodings the game writes: a list of rows, or {"array", "width", "height"} row-major."""
    if isinstance(tiles, dict):
        array, width, height = tiles.get("array"), tiles.get("width"), tiles.get("height")
        if not (isinstance(array, list) and isinstance(width, int) and isinstance(height, int)):
            raise InputError(f"{where}: tiles object needs 'array' (a list), 'width' and 'height' (integers)")
        if width != height:
            raise InputError(f"{where}: the board is {width} wide and {height} high; it must be square")
        if len(array) != width * height:
            raise InputError(f"{where}: tiles array has {len(array)} entries, expected {width}×{height}")
        tiles = [array[r * width : (r + 1) * width] for r in range(height)]
    if not isinstance(tiles, list) or not all(isinstance(row, list) for row in tiles):
        raise InputError(
            f"{where}: 'tiles' must be a list of rows or an object with 'array', 'width', 'height'"
        )
    n = len(tiles)
    check_size(n, where)
    for r, row in enumerate(tiles, 1):
        if len(row) != n:
            raise InputError(f"{where}: tiles row {r} has {len(row)} entries, expected {n}")
        for c, value in enumerate(row, 1):
            if type(value) is not int or value not in (1, 2):
                raise InputError(
                    f"{where}: tile {value!r} at row {r}, col {c} (expected 1 = white or 2 = black)"
                )
    return tuple(tuple(value - 1 for value in row) for row in tiles)


def parse_level(entry: object, number: int, book_name: str) -> Level:
    where = f"{book_name} level {number}"
    if not isinstance(entry, dict) or "tiles" not in entry:
        raise InputError(f"{where}: expected an object with 'tiles'")
    par = entry.get("par")
    if par is not None and (type(par) is not int or par < 0):
        raise InputError(f"{where}: par must be a whole number or null, not {par!r}")
    title = entry.get("title")
    return Level(where, number, parse_tiles(entry["tiles"], where), par, "" if title is None else str(title))


def parse_book(text: str, name: str) -> Book:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{name}: malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("levels"), list):
        raise InputError(f"{name}: not a level book (expected a JSON object with a 'levels' list)")
    if not data["levels"]:
        raise InputError(f"{name}: the book has no levels")
    return Book(name, tuple(parse_level(entry, i, name) for i, entry in enumerate(data["levels"], 1)))


def load_source(source: str, books_dir: str | None) -> Book | Level:
    """A book name, a book file, a text board, or '-'. Books are told from boards by content, not by
    extension, so a book can arrive on standard input too."""
    if source in BOOK_FILES:
        path = book_path(source, books_dir)
        text, _ = read_source(str(path))
        return parse_book(text, source)
    if source != "-" and not Path(source).exists():
        names = ", ".join(BOOK_FILES)
        raise InputError(f"no such book or board file: {source} (the named books are {names})")
    text, name = read_source(source)
    if text.lstrip()[:1] in ("{", "["):
        return parse_book(text, name)
    return Level(name, None, parse_board_text(text, name), None, "")


def pick_level(book: Book, number: int) -> Level:
    count = len(book.levels)
    if not 1 <= number <= count:
        raise InputError(f"{book.name} has {count} levels; level {number} is out of range (1–{count})")
    return book.levels[number - 1]


# ---------------------------------------------------------------------------------------------------------
# The solver process: build it when needed, run it, read its line protocol (README.md).
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SolverSettings:
    target: str  # "0", "1" or "either"
    threads: int | None
    max_seconds: float | None
    max_nodes: int | None

    def arguments(self) -> list[str]:
        args = ["--target", self.target]
        for flag, value in (
            ("--threads", self.threads),
            ("--max-seconds", self.max_seconds),
            ("--max-nodes", self.max_nodes),
        ):
            if value is not None:
                args += [flag, str(value)]
        return args


@dataclass(frozen=True)
class Solution:
    target: int
    moves: tuple[Move, ...]
    nodes: int
    seconds: float


@dataclass(frozen=True)
class Unsolvable:
    target: int
    seconds: float

    # The full N×N square is itself a move, so a board that cannot reach one colour cannot reach the other
    # either: the message need not name the target.
    problem = "no sequence of moves clears this board"
    label = "unsolvable"
    code = EXIT_FAILED


@dataclass(frozen=True)
class Stopped:
    target: int
    bound: int
    nodes: int
    seconds: float
    label = "stopped by budget"
    code = EXIT_STOPPED

    @property
    def problem(self) -> str:
        return f"no solution with fewer than {self.bound} moves"


Outcome = Solution | Unsolvable | Stopped


@dataclass(frozen=True)
class SearchProgress:
    bound: int
    state: str  # "searching" or "exhausted"
    nodes: int

    def __str__(self) -> str:
        if self.state == "exhausted":
            return f"no solution in {self.bound} moves ({self.nodes:,} nodes)"
        return f"trying {self.bound} moves ({self.nodes:,} nodes)"


PROGRESS_LINE = re.compile(r"bound (\d+) (exhausted|searching), nodes=(\d+)")


def find_compiler() -> str | None:
    for name in (os.environ.get("CXX"), "g++", "clang++", "c++"):
        if name and shutil.which(name):
            return name
    return None


def build_command() -> list[str]:
    compiler = find_compiler()
    if compiler is None:
        fail(
            "the solver needs building and no C++ compiler was found; "
            "install one (e.g. apt-get install g++ make)",
            EXIT_SOLVER,
        )
    if shutil.which("make") and (HERE / "Makefile").is_file() and compiler == os.environ.get("CXX", "g++"):
        return ["make", "--no-print-directory", "-C", str(HERE), SOLVER_BINARY.name]
    return [
        compiler,
        "-O3",
        "-march=native",
        "-std=c++17",
        "-pthread",
        "-o",
        str(SOLVER_BINARY),
        str(SOLVER_SOURCE),
    ]


def ensure_solver() -> Path:
    """The solver to run: $UNFLIP_SOLVER as given, else ./unflip_solver, (re)built when missing or older
    than its source so an edited solver is never run stale."""
    override = os.environ.get("UNFLIP_SOLVER")
    if override:
        if not (os.path.isfile(override) and os.access(override, os.X_OK)):
            fail(f"UNFLIP_SOLVER={override} is not an executable file", EXIT_SOLVER)
        return Path(override)
    has_source = SOLVER_SOURCE.is_file()
    if SOLVER_BINARY.is_file() and (
        not has_source or SOLVER_BINARY.stat().st_mtime >= SOLVER_SOURCE.stat().st_mtime
    ):
        return SOLVER_BINARY
    if not has_source:
        fail(
            f"the solver is missing: neither {SOLVER_BINARY.name} nor {SOLVER_SOURCE.name} is in {HERE}",
            EXIT_SOLVER,
        )
    command = build_command()
    status_line(f"building the solver: {' '.join(command)}")
    result = subprocess.run(command, cwd=HERE, capture_output=True, text=True)
    if result.returncode != 0 or not SOLVER_BINARY.is_file():
        output = (result.stderr + result.stdout).splitlines()
        first_error = next(
            (line for line in output if "error" in line), output[-1] if output else "no output"
        )
        fail(
            f"building the solver failed ({first_error.strip()}); run `make unflip_solver` to see everything",
            EXIT_SOLVER,
        )
    return SOLVER_BINARY


def describe_exit(returncode: int) -> str:
    if returncode < 0:
        try:
            return f"was killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"was killed by signal {-returncode}"
    return f"exited with status {returncode}"


T = TypeVar("T")


class ProtocolReader:
    """Walks the solver's standard output line by line, naming the line at fault when it is malformed."""

    def __init__(self, stdout: str) -> None:
        self.lines = stdout.splitlines()
        while self.lines and not self.lines[-1].strip():
            self.lines.pop()
        self.index = 0

    def error(self, expected: str) -> SolverError:
        got = (
            f"got {self.lines[self.index].strip()!r}" if self.index < len(self.lines) else "the output ended"
        )
        return SolverError(f"malformed solver output: line {self.index + 1}: expected {expected}, {got}")

    def take(self, expected: str, parse: Callable[[list[str]], T]) -> T:
        """The next line through parse, which raises ValueError to reject it."""
        if self.index >= len(self.lines):
            raise self.error(expected)
        try:
            value = parse(self.lines[self.index].split())
        except ValueError:
            raise self.error(expected) from None
        self.index += 1
        return value

    def value(self, keyword: str, kind: type = int, allowed: tuple[int, ...] = ()) -> int | float:
        def parse(parts: list[str]) -> int | float:
            if len(parts) != 2 or parts[0] != keyword:
                raise ValueError
            value = kind(parts[1])
            if value < 0 or not math.isfinite(value) or (allowed and value not in allowed):
                raise ValueError
            return value

        if allowed:
            expected = " or ".join(f"'{keyword} {choice}'" for choice in allowed)
        else:
            expected = f"'{keyword} <{'seconds' if kind is float else 'count'}>'"
        return self.take(expected, parse)

    def keyword(self, keyword: str) -> None:
        def parse(parts: list[str]) -> None:
            if parts != [keyword]:
                raise ValueError

        self.take(f"'{keyword}'", parse)

    def move(self, n: int) -> Move:
        def parse(parts: list[str]) -> Move:
            if len(parts) != 3:
                raise ValueError
            move = Move(*map(int, parts))
            if not move.fits(n):
                raise ValueError
            return move

        return self.take(f"a move 'row col size' that fits the {n}×{n} board", parse)

    def end(self) -> None:
        if self.index < len(self.lines):
            raise self.error("nothing after 'TIME'")


def parse_solver_output(returncode: int, stdout: str, stderr: str, n: int, target: str) -> Outcome:
    """Turn one run's exit status and output into an outcome, trusting nothing the protocol does not allow."""
    complaints = [
        line.strip()
        for line in stderr.splitlines()
        if line.strip() and not PROGRESS_LINE.fullmatch(line.strip())
    ]
    if returncode == 2:
        reason = complaints[-1].removeprefix("error:").strip() if complaints else "no reason given"
        raise SolverError(f"the solver rejected the board: {reason}")
    if returncode not in (0, 1, 3):
        detail = f": {complaints[-1]}" if complaints else ""
        raise SolverError(f"the solver {describe_exit(returncode)}{detail}")
    reader = ProtocolReader(stdout)
    reported = reader.value("TARGET", allowed=(0, 1) if target == "either" else (int(target),))
    outcome: Outcome
    if returncode == 0:
        count = reader.value("MOVES")
        moves = tuple(reader.move(n) for _ in range(count))
        outcome = Solution(reported, moves, reader.value("NODES"), reader.value("TIME", float))
    elif returncode == 1:
        reader.keyword("UNSOLVABLE")
        reader.value("NODES")
        outcome = Unsolvable(reported, reader.value("TIME", float))
    else:
        bound = reader.value("STOPPED")
        outcome = Stopped(reported, bound, reader.value("NODES"), reader.value("TIME", float))
    reader.end()
    return outcome


def run_solver(
    solver: Path, board: Board, settings: SolverSettings, on_progress: Callable[[SearchProgress], None]
) -> Outcome:
    """Run one search, reporting progress as it arrives. On Ctrl-C the solver is stopped and reaped before
    the interrupt goes on, so no search is left running behind us."""
    try:
        process = subprocess.Popen(
            [str(solver), *settings.arguments()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            encoding="utf-8",
            errors="replace",
        )
    except OSError as exc:
        raise SolverError(f"cannot run the solver {solver}: {exc.strerror or exc}") from None
    with process:  # closes the pipes however we leave
        try:
            # stdout is drained on a thread so neither pipe can fill up and stall the solver.
            stdout_parts: list[str] = []
            drain = threading.Thread(target=lambda: stdout_parts.append(process.stdout.read()), daemon=True)
            drain.start()
            # A solver that quits without reading the board says why in its exit status.
            with contextlib.suppress(BrokenPipeError), process.stdin:
                process.stdin.write(board_to_protocol(board))
            stderr_lines = []
            for line in process.stderr:
                match = PROGRESS_LINE.fullmatch(line.strip())
                if match:
                    on_progress(SearchProgress(int(match[1]), match[2], int(match[3])))
                stderr_lines.append(line)
            drain.join()
            returncode = process.wait()
        except BaseException:
            stop_process(process)
            raise
    if returncode == -signal.SIGINT:
        # A terminal's Ctrl-C reaches the whole process group: the solver may die of it first.
        raise KeyboardInterrupt
    return parse_solver_output(
        returncode, "".join(stdout_parts), "".join(stderr_lines), len(board), settings.target
    )


def stop_process(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# ---------------------------------------------------------------------------------------------------------
# Verification: an answer is only reported after replaying it on the original board.
# ---------------------------------------------------------------------------------------------------------


def replay(board: Board, moves: tuple[Move, ...]) -> list[Board]:
    """Every board along the way: before the first move, ..., after the last."""
    boards = [board]
    for move in moves:
        boards.append(apply_move(boards[-1], move))
    return boards


def verify(boards: list[Board], target: int) -> None:
    wrong = [(r, c) for r, line in enumerate(boards[-1]) for c, tile in enumerate(line) if tile != target]
    if wrong:
        r, c = wrong[0]
        raise VerificationError(
            f"verification failed: replaying the solver's {moves_word(len(boards) - 1)} leaves "
            f"{len(wrong)} tiles not {COLOUR_NAMES[target]} (first at row {r + 1}, col {c + 1})"
        )


def solve_level(
    solver: Path, level: Level, settings: SolverSettings, on_progress: Callable[[SearchProgress], None]
) -> tuple[Outcome, list[Board]]:
    """Run the solver on a level and verify a solution; the boards are the replay (just the start when
    there is no solution)."""
    outcome = run_solver(solver, level.board, settings, on_progress)
    if not isinstance(outcome, Solution):
        return outcome, [level.board]
    boards = replay(level.board, outcome.moves)
    verify(boards, outcome.target)
    return outcome, boards


# ---------------------------------------------------------------------------------------------------------
# Rendering: step cards in the specification's layout, Unicode or ASCII, with or without colour.
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Glyphs:
    white: str
    black: str
    corners: str  # top-left, top-right, bottom-left, bottom-right
    horizontal: str
    vertical: str
    times: str
    dash: str  # between "Step 1 of 3" and the move
    through: str  # in ranges: rows 2–3
    check: str  # before a success line, space included
    spinner: str  # rich spinner name
    table_box: box.Box


UNICODE = Glyphs("·", "■", "┌┐└┘", "─", "│", "×", "—", "–", "✓ ", "dots", box.SIMPLE_HEAD)
ASCII = Glyphs(".", "#", "++++", "-", "|", "x", "-", "-", "", "line", box.ASCII)

LABEL_WIDTH = 5  # a row number right-aligned in 3 columns, then 2 spaces before the first tile


def tile_x(col: int, n: int) -> int:
    """Screen column of a tile. Boards of 10 and up get 3 columns per tile so two-digit column numbers
    line up above their tiles; the outline then sits in the gap, one space from each neighbour."""
    return LABEL_WIDTH + (2 if n < 10 else 3) * col


def render_board(board: Board, glyphs: Glyphs, square: Move | None = None) -> Text:
    """The board with column numbers on top and row numbers on the left, all 1-based; the square (if any)
    outlined by lines between the tiles: above its top row, below its bottom row, and on both sides."""
    n = len(board)
    width = tile_x(n - 1, n) + 2
    header = [" "] * width
    for c in range(n):
        end = tile_x(c, n) + 1
        header[end - len(str(c + 1)) : end] = str(c + 1)
    lines = [Text("".join(header), style="dim")]
    top = bottom = -1
    if square:
        top, bottom = square.row, square.row + square.size - 1
        left, right = tile_x(square.col, n) - 1, tile_x(square.col + square.size - 1, n) + 1

    def outlined(label: str, chars: str) -> Text:
        return Text.assemble(
            (label, "dim"), chars[len(label) : left], (chars[left : right + 1], HIGHLIGHT), chars[right + 1 :]
        )

    def rule(ends: str) -> Text:
        return outlined("", " " * left + ends[0] + glyphs.horizontal * (right - left - 1) + ends[1])

    for r, row in enumerate(board):
        if r == top:
            lines.append(rule(glyphs.corners[:2]))
        label = f"{r + 1:>3}"
        cells = list(label.ljust(width))
        for c, tile in enumerate(row):
            cells[tile_x(c, n)] = glyphs.black if tile else glyphs.white
        if top <= r <= bottom:
            cells[left] = cells[right] = glyphs.vertical
            lines.append(outlined(label, "".join(cells)))
        else:
            lines.append(Text.assemble((label, "dim"), "".join(cells[len(label) :])))
        if r == bottom:
            lines.append(rule(glyphs.corners[2:]))
    for line in lines:
        line.rstrip()
    return Text("\n").join(lines)


def describe_move(move: Move, glyphs: Glyphs) -> str:
    k, to = move.size, glyphs.through
    return (
        f"flip the {k}{glyphs.times}{k} square covering rows {move.row + 1}{to}{move.row + k}, "
        f"cols {move.col + 1}{to}{move.col + k}"
    )


def step_card(step: int, total: int, move: Move, board: Board, glyphs: Glyphs) -> Text:
    """The heading and the board before the move, with the move's square outlined."""
    heading = Text(f"Step {step} of {total} {glyphs.dash} {describe_move(move, glyphs)}:", style="bold")
    return Text("\n").join([heading, render_board(board, glyphs, move)])


def board_size(board: Board, glyphs: Glyphs) -> str:
    return f"{len(board)}{glyphs.times}{len(board)}"


def describe_level(level: Level, glyphs: Glyphs) -> str:
    parts = [level.name, board_size(level.board, glyphs)]
    if level.number is not None:
        parts.append("no par" if level.par is None else f"par {level.par}")
    if level.title:
        parts.append(level.title)
    return f" {glyphs.dash} ".join(parts)


def show_solution(
    level: Level, solution: Solution, boards: list[Board], glyphs: Glyphs, compact: bool
) -> None:
    out = ui.out
    total = len(solution.moves)
    summary = f"Optimal: {moves_word(total)}"
    if level.par is not None and level.par != total:
        summary += f" (the book's par is {level.par})"
    out.print(
        Text(f"{summary} {glyphs.dash} {solution.nodes:,} nodes, {solution.seconds:.3f} s", style="bold"),
        soft_wrap=True,
    )
    if compact:
        for step, move in enumerate(solution.moves, 1):
            out.print(f"{step:>4}. {describe_move(move, glyphs)}", soft_wrap=True)
    else:
        for step, (move, board) in enumerate(zip(solution.moves, boards, strict=False), 1):
            out.print()
            out.print(step_card(step, total, move, board, glyphs), soft_wrap=True)
        out.print()
        heading = "Solved:" if total else "Already solved, nothing to flip:"
        out.print(Text(heading, style="bold"), soft_wrap=True)
        out.print(render_board(boards[-1], glyphs), soft_wrap=True)
        out.print()
    colour = COLOUR_NAMES[solution.target]
    out.print(
        Text(
            f"{glyphs.check}Verified: replaying all {moves_word(total)} on the original board "
            f"leaves every tile {colour}.",
            style="green",
        ),
        soft_wrap=True,
    )


# ---------------------------------------------------------------------------------------------------------
# The level generator: new puzzles whose par is the optimum the solver proved, never the number of random
# moves that made them. Everything it draws comes from SHA-256 of the seed, so a book is the same bytes on
# every machine and Python version, and each level records what remakes it.
# ---------------------------------------------------------------------------------------------------------

GENERATOR_VERSION = 2
MAX_ATTEMPTS = 400  # draws per level before a plan is declared impossible


class SeededDraws:
    """Whole numbers drawn from SHA-256 in counter mode (random.Random's algorithms are not promised to
    stay the same across Python versions; a shipped book must)."""

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self.counter = 0

    def below(self, bound: int) -> int:
        limit = (1 << 64) - (1 << 64) % bound  # reject the uneven tail, so every value is equally likely
        while True:
            digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
            self.counter += 1
            value = int.from_bytes(digest[:8], "big")
            if value < limit:
                return value % bound

    def between(self, low: int, high: int) -> int:
        return low + self.below(high - low + 1)


def all_moves(n: int) -> list[Move]:
    return [Move(r, c, k) for k in range(MIN_SIZE, n + 1) for r in range(n - k + 1) for c in range(n - k + 1)]


def scrambled_board(size: int, scramble: int, seed: str) -> Board:
    """The board that `scramble` random flips make of an all-white one: solvable by construction."""
    draws = SeededDraws(f"{seed}/flips")
    moves = all_moves(size)
    board: Board = tuple((0,) * size for _ in range(size))
    for _ in range(scramble):
        board = apply_move(board, moves[draws.below(len(moves))])
    return board


def symmetry_key(board: Board) -> Board:
    """The same key for a board and its rotations and reflections."""
    variants = []
    current = board
    for _ in range(4):
        current = tuple(zip(*current[::-1], strict=True))  # a quarter turn
        variants += [current, tuple(row[::-1] for row in current)]
    return min(variants)


@dataclass(frozen=True)
class Plan:
    """What a book asks of its levels."""

    kind: str  # daily, main or weekly: titles, ids, ordering, and mode "challenge" for weekly
    count: int
    sizes: tuple[int, int]
    optimum: tuple[int, int]  # accepted par, inclusive
    seed: str

    def draw_shape(self, draws: SeededDraws) -> tuple[int, int]:
        """A size, and a number of random flips that can reach the accepted optimum: the optimum is at
        most the flips made, and a few more than the top of the range may still come out inside it."""
        size = draws.between(*self.sizes)
        low, high = self.optimum
        return size, draws.between(low, high + 2)


SHIPPED_PLANS = (
    Plan("daily", 159, (4, 10), (3, 16), "unflip-daily"),
    Plan("main", 120, (4, 9), (1, 13), "unflip-main"),
    Plan("weekly", 25, (9, 13), (12, 20), "unflip-weekly"),
)


@dataclass(frozen=True)
class Generated:
    board: Board
    par: int
    seed: str
    size: int
    scramble: int


def generate_levels(
    plan: Plan, solver: Path, settings: SolverSettings, seen: set[Board], on_level: Callable[[int], None]
) -> list[Generated]:
    """The plan's levels in draw order. Level i tries seeds '<seed>/<i>/<attempt>' until one gives a new
    board (also under symmetry, and not already white) whose proven optimum is in range."""
    levels: list[Generated] = []
    for index in range(1, plan.count + 1):
        for attempt in range(MAX_ATTEMPTS):
            seed = f"{plan.seed}/{index}/{attempt}"
            size, scramble = plan.draw_shape(SeededDraws(f"{seed}/shape"))
            board = scrambled_board(size, scramble, seed)
            key = symmetry_key(board)
            if key in seen or not any(map(any, board)):
                continue
            outcome = run_solver(solver, board, settings, lambda _progress: None)
            if not isinstance(outcome, Solution):
                raise SolverError(
                    f"the solver gave no optimum for generated level {seed} ({outcome.problem})"
                )
            verify(replay(board, outcome.moves), outcome.target)
            if plan.optimum[0] <= len(outcome.moves) <= plan.optimum[1]:
                seen.add(key)
                levels.append(Generated(board, len(outcome.moves), seed, size, scramble))
                on_level(index)
                break
        else:
            raise InputError(
                f"no level with an optimum of {plan.optimum[0]}–{plan.optimum[1]} on "
                f"{plan.sizes[0]}–{plan.sizes[1]} boards after {MAX_ATTEMPTS} tries; widen the ranges"
            )
    if plan.kind == "main":
        # Difficulty rises gently through the main book: by par, then board size.
        levels.sort(key=lambda level: (level.par, level.size))
    return levels


def book_json(plan: Plan, levels: list[Generated]) -> str:
    """The game's own format (tiles as rows of 1 = white, 2 = black), one level a line so diffs read well."""
    titles = {"daily": "Daily #{}", "main": "Level {}", "weekly": "Weekly #{}"}
    entries = []
    for number, level in enumerate(levels, 1):
        entry: dict[str, object] = {
            "id": f"{plan.seed}-{number:03d}",
            "index": number - 1,
            "title": titles[plan.kind].format(number),
            "tiles": [[tile + 1 for tile in row] for row in level.board],
            "par": level.par,
            "colorScheme": "BW",
            "tileShape": "square",
            "__type__": "Level",
            "generator": {
                "version": GENERATOR_VERSION,
                "seed": level.seed,
                "size": level.size,
                "scramble": level.scramble,
            },
        }
        if plan.kind == "weekly":
            entry["mode"] = "challenge"
        entries.append(json.dumps(entry, separators=(",", ":")))
    header = json.dumps(
        {"id": plan.seed, "title": f"unflip {plan.kind} levels, made by unflip.py generate"},
        separators=(",", ":"),
    )
    return header[:-1] + ',"levels":[\n' + ",\n".join(entries) + "\n]}\n"


def write_atomically(path: Path, text: str) -> None:
    """Write beside the target and rename over it, so Ctrl-C or a crash never leaves half a book."""
    temporary = path.with_name(f".{path.name}.partial")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}", EXIT_INPUT)
    finally:
        temporary.unlink(missing_ok=True)


def make_book(plan: Plan, seen: set[Board], settings: SolverSettings, glyphs: Glyphs) -> str:
    solver = ensure_solver()
    columns = (
        SpinnerColumn(glyphs.spinner),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
    )
    with Progress(*columns, console=ui.err, transient=True, disable=not ui.err.is_terminal) as bar:
        task = bar.add_task(f"generating {plan.kind} levels", total=plan.count)
        try:
            levels = generate_levels(plan, solver, settings, seen, lambda _index: bar.advance(task))
        except SolverError as exc:
            fail(str(exc), EXIT_SOLVER)
        except InputError as exc:
            fail(str(exc), EXIT_INPUT)
    return book_json(plan, levels)


# ---------------------------------------------------------------------------------------------------------
# Commands.
# ---------------------------------------------------------------------------------------------------------


def console_glyphs(ascii_: bool = False) -> Glyphs:
    """ASCII when asked for, or when the console cannot encode the Unicode glyphs (rather than a crash)."""
    unicode_ok = not ascii_ and ui.out.encoding.lower().replace("-", "").startswith("utf")
    return UNICODE if unicode_ok else ASCII


@dataclass(frozen=True)
class View:
    glyphs: Glyphs
    compact: bool


@contextlib.contextmanager
def solving_status(what: str, glyphs: Glyphs) -> Iterator[Callable[[SearchProgress], None]]:
    """A live spinner with the bound and node count on a terminal; silence anywhere else (logs, pipes)."""
    if not ui.err.is_terminal:
        yield lambda _progress: None
        return
    with ui.err.status(Text(f"solving {what}"), spinner=glyphs.spinner) as status:
        yield lambda progress: status.update(Text(f"solving {what}: {progress}"))


def solve_single(level: Level, settings: SolverSettings, view: View) -> None:
    solver = ensure_solver()
    ui.out.print(Text(describe_level(level, view.glyphs), style="bold cyan"), soft_wrap=True)
    try:
        with solving_status(level.name, view.glyphs) as on_progress:
            outcome, boards = solve_level(solver, level, settings, on_progress)
    except SolverError as exc:
        fail(str(exc), EXIT_SOLVER)
    if not isinstance(outcome, Solution):
        fail(outcome.problem, outcome.code, outcome.label)
    show_solution(level, outcome, boards, view.glyphs, view.compact)


def level_table(title: str, glyphs: Glyphs, *middle: str) -> Table:
    """A table of levels: number, board size and par first, the title last, the given columns between."""
    table = Table(box=glyphs.table_box, title=title)
    for heading in ("level", "board", "par", *middle):
        table.add_column(heading, justify="right")
    table.add_column("title")
    return table


def level_cells(level: Level, glyphs: Glyphs) -> tuple[str, str, str]:
    return str(level.number), board_size(level.board, glyphs), "-" if level.par is None else str(level.par)


def list_levels(book: Book, view: View) -> None:
    table = level_table(book.name, view.glyphs)
    for level in book.levels:
        table.add_row(*level_cells(level, view.glyphs), level.title)
    ui.out.print(table)


@dataclass(frozen=True)
class LevelReport:
    level: Level
    moves: str  # what the moves column shows
    seconds: float | None
    failure: str | None  # why the level fails the run, if it does


def check_level(
    solver: Path, level: Level, settings: SolverSettings, on_progress: Callable[[SearchProgress], None]
) -> LevelReport:
    try:
        outcome, _ = solve_level(solver, level, settings, on_progress)
    except SolverError as exc:
        return LevelReport(level, "error", None, str(exc))
    if isinstance(outcome, Unsolvable):
        return LevelReport(level, "unsolvable", outcome.seconds, "unsolvable")
    if isinstance(outcome, Stopped):
        return LevelReport(level, "stopped", outcome.seconds, f"{outcome.label}, {outcome.problem}")
    count = len(outcome.moves)
    if level.par is not None and count != level.par:
        return LevelReport(level, str(count), outcome.seconds, f"{moves_word(count)}, par {level.par}")
    return LevelReport(level, str(count), outcome.seconds, None)


def solve_all(book: Book, settings: SolverSettings, view: View) -> None:
    solver = ensure_solver()
    reports = []
    columns = (
        SpinnerColumn(view.glyphs.spinner),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
    )
    with Progress(*columns, console=ui.err, transient=True, disable=not ui.err.is_terminal) as bar:
        task = bar.add_task(book.name, total=len(book.levels))
        for level in book.levels:

            def on_progress(progress: SearchProgress, level: Level = level) -> None:
                bar.update(task, description=f"{level.name}: {progress}")

            bar.update(task, description=level.name)
            reports.append(check_level(solver, level, settings, on_progress))
            bar.advance(task)

    table = level_table(f"{book.name}: solving all {len(book.levels)} levels", view.glyphs, "moves", "time")
    for report in reports:
        table.add_row(
            *level_cells(report.level, view.glyphs),
            Text(report.moves, style="red" if report.failure else ""),
            "-" if report.seconds is None else f"{report.seconds:.3f}s",
            report.level.title,
        )
    ui.out.print(table)
    with_par = [r for r in reports if r.level.par is not None]
    matched = sum(1 for r in with_par if r.failure is None)
    total_time = sum(r.seconds or 0.0 for r in reports)
    ui.out.print(f"total solver time: {total_time:.2f}s", soft_wrap=True)
    if with_par:
        ui.out.print(f"par matched on {matched} of {len(with_par)} levels with a par", soft_wrap=True)
    failures = [r for r in reports if r.failure]
    if failures:
        named = "; ".join(f"level {r.level.number} ({r.failure})" for r in failures)
        fail(f"{len(failures)} of {len(reports)} levels failed: {named}", EXIT_FAILED)
    ui.out.print(
        Text(f"{view.glyphs.check}All {len(reports)} levels solved and verified", style="green"),
        soft_wrap=True,
    )


class DefaultCommandGroup(click.Group):
    """A command group that keeps the positional forms working as more commands are added: an unknown
    first word (a book name, a file, '-', or an option) goes to the default command, and --help shows the
    default command's options with the list of commands. Every error is one line on standard error."""

    default_command = "solve"

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)  # the default command first, then in the order they are defined

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ctx.help_option_names:
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        command = self.commands[self.default_command]
        sub = click.Context(command, info_name=ctx.info_name, help_option_names=ctx.help_option_names)
        command.format_usage(sub, formatter)
        command.format_help_text(sub, formatter)
        command.format_options(sub, formatter)
        self.format_commands(ctx, formatter)
        command.format_epilog(sub, formatter)

    def main(self, *args, **kwargs):
        ui.reset()
        kwargs["standalone_mode"] = False
        try:
            super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:
            exc.show()
            raise SystemExit(exc.exit_code) from None
        except click.ClickException as exc:
            # Name the top-level help: users type the default command's forms without saying "solve".
            hint = f" (see '{exc.ctx.find_root().command_path} --help')" if getattr(exc, "ctx", None) else ""
            fail(exc.format_message() + hint, exc.exit_code)
        except click.Abort:
            # click turns Ctrl-C into Abort; by now any solver we started has been stopped and reaped.
            fail("stopped at your request", EXIT_INTERRUPTED, label="interrupted")
        raise SystemExit(EXIT_OK)


CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 110}

# Every command that runs the solver takes the same --threads.
threads_option = click.option(
    "--threads",
    metavar="T",
    type=click.IntRange(min=1),
    help="\b\nSolver worker threads (default: all cores).\nExample: --threads 2",
)


@click.group(cls=DefaultCommandGroup, context_settings=CONTEXT, no_args_is_help=True)
def cli() -> None:
    """Solve Unflip boards in the fewest moves."""


@cli.command(
    context_settings=CONTEXT,
    short_help="Solve a level or a board (the default: 'unflip.py daily 5' is 'unflip.py solve daily 5').",
    epilog="Exit status: 0 solved and verified (with --all: every level, at par); 1 unsolvable, or a level "
    "failed under --all; 2 bad input; 3 stopped by budget; 4 solver failure; 130 interrupted.",
)
@click.argument("source", metavar="SOURCE")
@click.argument("level_number", metavar="[LEVEL]", type=int, required=False)
# Option help is laid out by hand ("\b" keeps click from rewrapping) so an example is never split at a hyphen.
@click.option(
    "--list",
    "list_",
    is_flag=True,
    help="\b\nList the levels of a book: number, size, par, title.\nExample: unflip.py daily --list",
)
@click.option(
    "--all",
    "all_",
    is_flag=True,
    help="\b\nSolve every level and print a summary table; exit 0\n"
    "only if all are solved, verified and at par.\nExample: unflip.py main --all",
)
@click.option(
    "--books",
    metavar="DIR",
    envvar="UNFLIP_BOOKS",
    help="\b\nFolder of the daily, main and weekly books (default:\n"
    "next to unflip.py; env UNFLIP_BOOKS).\nExample: --books ../shared/books",
)
@click.option(
    "--compact",
    is_flag=True,
    help="\b\nPrint the move list only, no boards.\nExample: unflip.py daily 5 --compact",
)
@click.option(
    "--ascii",
    "ascii_",
    is_flag=True,
    help="\b\nPlain ASCII: '.' white, '#' black, +---+ outlines.\nExample: unflip.py board.txt --ascii",
)
@click.option(
    "--no-color",
    is_flag=True,
    help="\b\nNo colours; setting NO_COLOR does the same.\nExample: unflip.py daily 5 --no-color",
)
@threads_option
@click.option(
    "--target",
    type=click.Choice(["0", "1", "either"]),
    default="0",
    show_default=True,
    help="\b\nColour every tile must end as: 0 white (the game's\n"
    "goal), 1 black, or either (whichever is fewer moves).\nExample: --target either",
)
@click.option(
    "--max-seconds",
    metavar="S",
    type=click.FloatRange(min=0, min_open=True),
    help="\b\nGive up after S seconds and report the proven lower\n"
    "bound (exit status 3).\nExample: --max-seconds 60",
)
@click.option(
    "--max-nodes",
    metavar="N",
    type=click.IntRange(min=1),
    help="\b\nGive up after N search nodes and report the proven\n"
    "lower bound (exit status 3).\nExample: --max-nodes 1000000",
)
def solve(
    source: str,
    level_number: int | None,
    list_: bool,
    all_: bool,
    books: str | None,
    compact: bool,
    ascii_: bool,
    no_color: bool,
    threads: int | None,
    target: str,
    max_seconds: float | None,
    max_nodes: int | None,
) -> None:
    """Solve Unflip boards in the fewest moves, proven optimal, and print each move as a step card.

    SOURCE is a book name (daily, main, weekly), a book file in the game's JSON format, a text board
    (N lines of N digits, 0/1 with 0 = white, or 1/2 with 1 = white), or - for standard input.
    LEVEL is a level number in a book, counting from 1.

    \b
    Examples:
      python unflip.py daily 5              solve daily level 5, print step cards
      python unflip.py weekly 20            a weekly challenge
      python unflip.py daily --list         the levels of a book: number, size, par, title
      python unflip.py weekly --all         solve every level, print a summary table
      python unflip.py board.txt            a text board
      python unflip.py - < board.txt        a board (or a book) on standard input
      python unflip.py path/to/book.json 3  any book file in the game's format

    Environment: UNFLIP_BOOKS (as --books), NO_COLOR (as --no-color), UNFLIP_SOLVER (run this solver
    executable instead of building and running ./unflip_solver).
    """
    if no_color:
        ui.disable_colour()
    view = View(console_glyphs(ascii_), compact)
    settings = SolverSettings(target, threads, max_seconds, max_nodes)
    try:
        loaded = load_source(source, books)
        if isinstance(loaded, Level):
            if list_ or all_ or level_number is not None:
                raise InputError(f"{source} is a single board: drop the level number, --list and --all")
            solve_single(loaded, settings, view)
            return
        if sum((list_, all_, level_number is not None)) != 1:
            raise InputError(
                f"{loaded.name} is a book: give one of a level number (1–{len(loaded.levels)}), "
                "--list or --all"
            )
        if list_:
            list_levels(loaded, view)
        elif all_:
            solve_all(loaded, settings, view)
        else:
            solve_single(pick_level(loaded, level_number), settings, view)
    except InputError as exc:
        fail(str(exc), EXIT_INPUT)


def size_range(_ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, int]:
    """'7' or '4-10' as an inclusive range, checked against what the solver takes."""
    low, _, high = value.partition("-")
    try:
        bounds = (int(low), int(high or low))
    except ValueError:
        raise click.BadParameter(f"expected N or A-B, not {value!r}", param=param) from None
    smallest = MIN_SIZE if param.name == "sizes" else 1
    largest = MAX_SIZE if param.name == "sizes" else 200
    if not smallest <= bounds[0] <= bounds[1] <= largest:
        raise click.BadParameter(f"{value!r} is not a range within {smallest}-{largest}", param=param)
    return bounds


def generation_settings(threads: int | None) -> SolverSettings:
    return SolverSettings("0", threads, None, None)


@cli.command(
    context_settings=CONTEXT,
    short_help="Make a book of new levels whose par is the proven optimum.",
    epilog="The same options give the same book, byte for byte. Exit status: 0 written; 2 bad options "
    "or a plan no level fits; 4 solver failure; 130 interrupted (nothing is written).",
)
@click.option(
    "--size",
    "sizes",
    default="4-10",
    show_default=True,
    callback=size_range,
    help="\b\nBoard size N, or a range A-B drawn from.\nExample: --size 7",
)
@click.option(
    "--optimum",
    default="3-16",
    show_default=True,
    callback=size_range,
    help="\b\nAccepted optimum (par), N or A-B.\nExample: --optimum 12-20",
)
@click.option(
    "--count",
    default=10,
    show_default=True,
    type=click.IntRange(1, 10000),
    help="\b\nNumber of levels.\nExample: --count 30",
)
@click.option(
    "--seed",
    default="1",
    show_default=True,
    help="\b\nAny text; each level records the seed that remakes it.\nExample: --seed 42",
)
@click.option(
    "--kind",
    type=click.Choice(["daily", "main", "weekly"]),
    default="daily",
    show_default=True,
    help="\b\nTitles and shape of the book: main is ordered by\n"
    "difficulty, weekly levels are challenges.\nExample: --kind weekly",
)
@click.option(
    "--out",
    default="-",
    show_default=True,
    metavar="FILE",
    help="\b\nWhere to write the book; - is standard output.\nExample: --out mybook.json",
)
@threads_option
def generate(
    sizes: tuple[int, int],
    optimum: tuple[int, int],
    count: int,
    seed: str,
    kind: str,
    out: str,
    threads: int | None,
) -> None:
    """Make a book of new Unflip levels in the game's JSON format. Each level is made by random flips of
    an all-white board, so it is solvable; its par is the optimum the solver then proves.

    \b
    Examples:
      python unflip.py generate --size 7 --count 10 --seed 42 --out mybook.json
      python unflip.py generate --size 9-13 --optimum 12-18 --kind weekly --count 5
      python unflip.py mybook.json --all     check every level solves at its par
    """
    plan = Plan(kind, count, sizes, optimum, seed)
    text = make_book(plan, set(), generation_settings(threads), console_glyphs())
    if out == "-":
        ui.out.file.write(text)
        return
    write_atomically(Path(out), text)
    status_line(f"wrote {count} {kind} levels to {out}")


@cli.command(
    context_settings=CONTEXT,
    short_help="Rebuild the three shipped books exactly (what 'make books' runs).",
)
@click.option(
    "--out",
    "folder",
    default=str(HERE),
    show_default=True,
    metavar="DIR",
    help="\b\nFolder to write the three books to.\nExample: --out /tmp/books",
)
@threads_option
def books(folder: str, threads: int | None) -> None:
    """Rebuild daily_levels_book.json, main_levels_book.json and weekly_challenges_book.json from their
    fixed plans and seeds: the same bytes every time. No level repeats another in any of the three books,
    also under rotation and reflection."""
    seen: set[Board] = set()
    for plan in SHIPPED_PLANS:
        text = make_book(plan, seen, generation_settings(threads), console_glyphs())
        write_atomically(Path(folder) / BOOK_FILES[plan.kind], text)
        status_line(f"wrote {plan.count} {plan.kind} levels to {Path(folder) / BOOK_FILES[plan.kind]}")


if __name__ == "__main__":
    cli(prog_name="unflip.py")
