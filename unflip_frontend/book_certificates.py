"""A book's certificates of optimality (annotate and generate --certificate DIR, docs/certificates.md): one
file a level, named by its number in the book, so that `unflip check-certificate BOOK 7 DIR/007.cert`
checks level 7. Each is made by a solve of its own, which must agree with the par the book is given, and
all of them reach DIR only once every level's is made: until then they wait in a private folder, so Ctrl-C
leaves DIR as it was. Then they are written all or none (files.write_together), so a failure or Ctrl-C while
they are written leaves DIR as it was too."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from . import api
from .boards import Board, moves_word
from .errors import SolverError
from .files import reason, refuse, write_together
from .protocol import Solution, Stopped, Unsolvable


@dataclass(frozen=True)
class CertificateFolder:
    """--certificate DIR of annotate and generate: where each level's certificate goes, and how."""

    folder: Path
    shown: str  # as the user gave it
    gzipped: bool


@dataclass(frozen=True)
class Certifiable:
    """A level whose certificate is asked for, and the optimum it must prove (None: no moves clear it)."""

    number: int  # 1-based, in the book's order
    name: str
    board: Board
    optimum: int | None


@dataclass(frozen=True)
class Written:
    names: tuple[str, ...]  # the files written into the folder, in the book's order
    stopped: tuple[Certifiable, ...]  # the levels a budget left without a certificate


def certificate_name(number: int, count: int, gzipped: bool) -> str:
    """'007.cert' (or '007.cert.gz'): as wide as the book's last number, at least three digits, so that
    the names sort as the levels do."""
    return f"{number:0{max(3, len(str(count)))}d}.cert" + (".gz" if gzipped else "")


def write_certificates(
    levels: Iterable[Certifiable],
    count: int,
    folder: Path,
    gzipped: bool,
    solve: Callable[[Certifiable, Path], Solution | Unsolvable | Stopped],
    on_level: Callable[[Certifiable], None],
) -> Written:
    """Each level's certificate, made by solve(level, file) into a private folder and checked against the
    level's optimum, then all of them written into folder (made if need be), all or none: a folder made
    for them is removed again when they cannot be written. A level the budget stopped gets none; a solve
    that disagrees with the optimum is the solver's failure, and then nothing is written."""
    made: list[tuple[str, Path]] = []
    stopped: list[Certifiable] = []
    with tempfile.TemporaryDirectory(prefix="unflip-certificates-") as private:
        for level in levels:
            name = certificate_name(level.number, count, gzipped)
            outcome = solve(level, Path(private) / name)
            on_level(level)
            if isinstance(outcome, Stopped):
                stopped.append(level)
                continue
            found = len(outcome.moves) if isinstance(outcome, Solution) else None
            if found != level.optimum:
                said = "unsolvable" if found is None else moves_word(found)
                asked = "unsolvable" if level.optimum is None else moves_word(level.optimum)
                raise SolverError(f"{level.name}: the solve for its certificate found {said}, proven {asked}")
            made.append((name, Path(private) / name))
        new_folder = not folder.exists()
        try:
            try:
                folder.mkdir(exist_ok=True)
            except OSError as exc:
                raise refuse(str(folder), reason(exc)) from None
            write_together([(folder / name, path) for name, path in made])
        except BaseException:
            if new_folder:
                with contextlib.suppress(OSError):
                    folder.rmdir()
            raise
    return Written(tuple(name for name, _ in made), tuple(stopped))


def solver_certifier(
    threads: int | None, max_seconds: float | None, on_progress: api.OnProgress | None = None
) -> Callable[[Certifiable, Path], Solution | Unsolvable | Stopped]:
    """solve for write_certificates: the solver's --certificate on the level's board, target white."""

    def solve(level: Certifiable, path: Path) -> Solution | Unsolvable | Stopped:
        return api.solve(
            level.board, threads=threads, max_seconds=max_seconds, on_progress=on_progress, certificate=path
        )

    return solve
