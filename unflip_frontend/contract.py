"""The solver's contract, read from its one home: solver/contract.def (how the solver's process ends, what it
accepts) and solver/build.mk (what it is compiled from, and how). The C++ core includes contract.def and the
Makefile includes build.mk; the front end reads both as text, strictly, so a fact written down there is never
restated here. `unflip_solver --contract` prints what the core compiled in, and a test compares the two.

A line that does not have the documented shape is a SolverError naming the file and the line: a contract
read loosely could let the two sides disagree without anyone noticing."""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TypeVar

from .errors import SolverError
from .layout import SOURCE_NAME, find_layout


@dataclass(frozen=True)
class ExitStatuses:
    """How the solver's process ends (UNFLIP_EXIT lines)."""

    solved: int
    unsolvable: int
    rejected: int
    stopped: int
    failed: int  # memory it could not get, and the like: the solver's fault, not the input's

    def name(self, status: int) -> str | None:
        """The name of an exit status, or None for one the contract does not have."""
        return next((field for field, value in dataclasses.asdict(self).items() if value == status), None)


@dataclass(frozen=True)
class Limits:
    """What the solver accepts (UNFLIP_LIMIT lines); the front end checks the same ranges."""

    min_side: int
    max_side: int
    max_input_bytes: int
    min_threads: int
    max_threads: int
    min_seconds: float
    max_seconds: float
    min_nodes: int
    max_nodes: int
    min_solutions: int
    max_solutions: int


@dataclass(frozen=True)
class Entry:
    kind: str  # "EXIT" or "LIMIT"
    name: str
    value: str  # exactly as written in contract.def

    def __str__(self) -> str:
        """The entry as `unflip_solver --contract` lists it."""
        return f"{self.kind} {self.name} {self.value}"


@dataclass(frozen=True)
class Contract:
    exits: ExitStatuses
    limits: Limits
    entries: tuple[Entry, ...]  # every entry in file order, those the front end has no field for too


@dataclass(frozen=True)
class BuildSettings:
    sources: tuple[str, ...]  # SOLVER_SOURCES: paths relative to the folder holding unflip_solver.cpp
    std_flags: tuple[str, ...]  # SOLVER_STD_FLAGS
    opt_flags: tuple[str, ...]  # SOLVER_OPT_FLAGS

    @property
    def compile_flags(self) -> tuple[str, ...]:
        """A solver built by the front end runs as fast as one `make` builds."""
        return (*self.opt_flags, *self.std_flags)


NAME = r"[A-Za-z_][A-Za-z0-9_]*"
# A C++ integer or floating literal, as the core compiles it: 65536, 1e-3, 18446744073709551615.
NUMBER = r"[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?"
CONTRACT_LINE = re.compile(
    rf'UNFLIP_(EXIT|LIMIT)\(\s*({NAME})\s*,\s*({NUMBER})\s*,\s*"(?:[^"\\]|\\.)*"\s*\)\s*(?://.*)?'
)
BUILD_LINE = re.compile(rf"({NAME})\s*:=(.*)")

T = TypeVar("T")


def read_text(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SolverError(f"cannot read the solver's contract {path}: {reason}") from None


def typed(path: Path, kind: str, cls: type[T], entries: dict[str, Entry]) -> T:
    """The dataclass cls with a field per entry of the kind; each field's type (int or float) says how its
    value must be written."""
    values: dict[str, int | float] = {}
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        entry = entries.get(field.name)
        if entry is None:
            raise SolverError(f"{path}: no UNFLIP_{kind}({field.name}, ...) line")
        try:
            values[field.name] = float(entry.value) if field.type == "float" else int(entry.value)
        except ValueError:
            raise SolverError(f"{path}: {field.name} is {entry.value}, not an integer") from None
    return cls(**values)


def read_contract(path: Path) -> Contract:
    """contract.def: `//` comments, blank lines, and one UNFLIP_EXIT or UNFLIP_LIMIT entry a line."""
    entries: list[Entry] = []
    for number, line in enumerate(read_text(path), start=1):
        text = line.strip()
        if not text or text.startswith("//"):
            continue
        match = CONTRACT_LINE.fullmatch(text)
        if not match:
            raise SolverError(
                f'{path}: line {number}: expected UNFLIP_EXIT(name, status, "meaning") or '
                f'UNFLIP_LIMIT(name, value, "meaning"), got {text!r}'
            )
        entry = Entry(*match.groups())
        if any((entry.kind, entry.name) == (other.kind, other.name) for other in entries):
            raise SolverError(f"{path}: line {number}: a second UNFLIP_{entry.kind}({entry.name}, ...)")
        if entry.kind == "EXIT":
            if not entry.value.isdigit():
                raise SolverError(f"{path}: line {number}: exit status {entry.value} is not an integer")
            if any(other.kind == "EXIT" and int(other.value) == int(entry.value) for other in entries):
                raise SolverError(f"{path}: line {number}: a second UNFLIP_EXIT with status {entry.value}")
        entries.append(entry)

    def of_kind(kind: str) -> dict[str, Entry]:
        return {entry.name: entry for entry in entries if entry.kind == kind}

    exits = typed(path, "EXIT", ExitStatuses, of_kind("EXIT"))
    return Contract(exits, typed(path, "LIMIT", Limits, of_kind("LIMIT")), tuple(entries))


def read_build_settings(path: Path) -> BuildSettings:
    """build.mk: `#` comments, blank lines, and `NAME := words` lines, each name once."""
    variables: dict[str, tuple[str, ...]] = {}
    for number, line in enumerate(read_text(path), start=1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        match = BUILD_LINE.fullmatch(text)
        # make would expand a reference, continue a line or end the value at a comment; this reader does
        # none of these, so it takes none of them.
        if not match or any(sign in text for sign in "$\\#"):
            raise SolverError(f"{path}: line {number}: expected NAME := words, got {text!r}")
        if match[1] in variables:
            raise SolverError(f"{path}: line {number}: a second {match[1]}")
        variables[match[1]] = tuple(match[2].split())

    def words(name: str) -> tuple[str, ...]:
        if name not in variables:
            raise SolverError(f"{path}: no {name} := line")
        return variables[name]

    sources = words("SOLVER_SOURCES")
    if sources[:1] != (SOURCE_NAME,):
        raise SolverError(f"{path}: SOLVER_SOURCES must start with {SOURCE_NAME}")
    for source in sources:
        relative = PurePosixPath(source)
        if relative.is_absolute() or ".." in relative.parts:
            raise SolverError(f"{path}: SOLVER_SOURCES: {source} is not a path inside the repository")
    return BuildSettings(sources, words("SOLVER_STD_FLAGS"), words("SOLVER_OPT_FLAGS"))


@functools.cache
def solver_contract() -> Contract:
    """This front end's contract, read once a process."""
    return read_contract(find_layout().contract_file)


@functools.cache
def build_settings() -> BuildSettings:
    """This front end's build settings, read once a process."""
    return read_build_settings(find_layout().build_file)
