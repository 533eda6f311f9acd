"""Building the solver: on first use, and again whenever its source has changed, so an edited solver is
never run stale. $UNFLIP_SOLVER names a ready executable instead."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shlex
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

from .errors import SolverError
from .layout import BINARY_NAME, SOURCE_NAME, cache_dir, find_layout

# The Makefile's optimisation flags: a solver built here runs as fast as one `make` builds.
COMPILE_FLAGS = ("-O3", "-march=native", "-std=c++17", "-pthread")

# Called with the build command just before it runs, so the caller can say why there is a pause.
OnBuild = Callable[[list[str]], None]


def find_compiler() -> str:
    for name in (os.environ.get("CXX"), "g++", "clang++", "c++"):
        if name and shutil.which(name):
            return name
    raise SolverError(
        "the solver needs building and no C++ compiler was found; install one (e.g. apt-get install g++ make)"
    )


def compile_command(compiler: str, output: Path, source: Path) -> list[str]:
    return [compiler, *COMPILE_FLAGS, "-o", str(output), str(source)]


def ensure_solver(on_build: OnBuild) -> Path:
    """The solver to run: $UNFLIP_SOLVER as given, else the one for this layout, built if need be."""
    override = os.environ.get("UNFLIP_SOLVER")
    if override:
        if not (os.path.isfile(override) and os.access(override, os.X_OK)):
            raise SolverError(f"UNFLIP_SOLVER={override} is not an executable file")
        return Path(override)
    layout = find_layout()
    if layout.installed:
        return cached_solver(layout.source, on_build)
    return checkout_solver(layout.root, on_build)


@contextlib.contextmanager
def one_build_at_a_time(source: Path) -> Iterator[None]:
    """Several first uses at once (a script starting four solves): one builds, the others wait for it and
    then find the solver built. The lock is on the source, which every build reads anyway, so it needs no
    file of its own and works where the source is read-only; the kernel drops it if the holder dies."""
    try:
        descriptor = os.open(source, os.O_RDONLY)
    except OSError as exc:
        raise SolverError(f"cannot read the solver's source {source}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def is_current(binary: Path, source: Path) -> bool:
    """A built solver no older than its source (or one whose source is not here to compare with)."""
    return binary.is_file() and (not source.is_file() or binary.stat().st_mtime >= source.stat().st_mtime)


def checkout_solver(root: Path, on_build: OnBuild) -> Path:
    """./unflip_solver beside its source, rebuilt when older than it; with make when the Makefile would
    use the same compiler, so both ways of building give the same binary."""
    source, binary = root / SOURCE_NAME, root / BINARY_NAME
    if is_current(binary, source):
        return binary
    if not source.is_file():
        raise SolverError(f"the solver is missing: neither {BINARY_NAME} nor {SOURCE_NAME} is in {root}")
    with one_build_at_a_time(source):
        if not is_current(binary, source):  # another run may have built it while this one waited
            build_in_checkout(root, source, binary, on_build)
    return binary


def build_in_checkout(root: Path, source: Path, binary: Path, on_build: OnBuild) -> None:
    compiler = find_compiler()
    hint = f"make {BINARY_NAME}"
    if shutil.which("make") and (root / "Makefile").is_file() and compiler == os.environ.get("CXX", "g++"):
        command = ["make", "--no-print-directory", "-C", str(root), BINARY_NAME]
        on_build(command)
        run_build(command, binary, hint)
    else:
        compile_into(compiler, source, binary, on_build, hint)


def cached_solver(source: Path, on_build: OnBuild) -> Path:
    """The installed package's solver, in the user's cache under a hash of the source and the flags: a new
    release (or new flags) builds afresh, and two versions installed side by side never share a binary."""
    try:
        code = source.read_bytes()
    except OSError as exc:
        raise SolverError(f"cannot read the solver's source {source}: {exc.strerror or exc}") from None
    digest = hashlib.sha256(code + " ".join(COMPILE_FLAGS).encode()).hexdigest()[:16]
    binary = cache_dir() / digest / BINARY_NAME
    if binary.is_file():
        return binary
    try:
        binary.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SolverError(f"cannot create {binary.parent} for the solver: {exc.strerror or exc}") from None
    with one_build_at_a_time(source):
        if not binary.is_file():  # another run may have built it while this one waited
            compiler = find_compiler()
            hint = shlex.join(compile_command(compiler, binary, source))
            compile_into(compiler, source, binary, on_build, hint)
    return binary


def compile_into(compiler: str, source: Path, binary: Path, on_build: OnBuild, hint: str) -> None:
    """Compile to a name of this process's own, then rename: an interrupted or concurrent build never
    leaves a half-written solver where a later run would take it for a finished one."""
    temporary = binary.with_name(f".{binary.name}.{os.getpid()}.partial")
    command = compile_command(compiler, temporary, source)
    on_build(command)
    try:
        run_build(command, temporary, hint)
        os.replace(temporary, binary)
    except OSError as exc:
        raise SolverError(f"cannot put the built solver at {binary}: {exc.strerror or exc}") from None
    finally:
        temporary.unlink(missing_ok=True)


def run_build(command: list[str], output: Path, hint: str) -> None:
    try:
        result = subprocess.run(command, cwd=output.parent, capture_output=True, text=True)
    except OSError as exc:
        raise SolverError(f"cannot run {command[0]}: {exc.strerror or exc}") from None
    if result.returncode != 0 or not output.is_file():
        lines = (result.stderr + result.stdout).splitlines()
        first_error = next((line for line in lines if "error" in line), lines[-1] if lines else "no output")
        raise SolverError(
            f"building the solver failed ({first_error.strip()}); run `{hint}` to see everything"
        )
