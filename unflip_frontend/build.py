"""Building the solver: on first use, and again whenever any of its sources (solver/build.mk lists them) has
changed, so an edited solver is never run stale. $UNFLIP_SOLVER names a ready executable instead."""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

from .contract import BuildSettings, build_settings
from .errors import SolverError
from .layout import BINARY_NAME, BUILD_SETTINGS_NAME, SOURCE_NAME, Layout, cache_dir, find_layout
from .solver import signals_held

# Called with the build command just before it runs, so the caller can say why there is a pause.
OnBuild = Callable[[list[str]], None]


def quiet_build(_command: list[str]) -> None:
    """For callers who need not be told that the solver is being built (a cluster's workers among them)."""


# hashlib, shlex, shutil and tempfile (a tenth of the solve's start-up) are loaded only when a build or the
# installed package's cache needs them: a solve with the solver built does not.


def find_compiler() -> str:
    import shutil

    for name in (os.environ.get("CXX"), "g++", "clang++", "c++"):
        if name and shutil.which(name):
            return name
    raise SolverError(
        "the solver needs building and no C++ compiler was found; install one (e.g. apt-get install g++ make)"
    )


def compile_command(compiler: str, settings: BuildSettings, output: Path, source: Path) -> list[str]:
    return [compiler, *settings.compile_flags, "-o", str(output), str(source)]


def ensure_solver(on_build: OnBuild) -> Path:
    """The solver to run: $UNFLIP_SOLVER as given, else the one for this layout, built if need be."""
    override = os.environ.get("UNFLIP_SOLVER")
    if override:
        if not (os.path.isfile(override) and os.access(override, os.X_OK)):
            raise SolverError(f"UNFLIP_SOLVER={override} is not an executable file")
        return Path(override)
    layout = find_layout()
    if layout.installed:
        return cached_solver(layout, build_settings(), on_build)
    return checkout_solver(layout, build_settings(), on_build)


@contextlib.contextmanager
def one_build_at_a_time(source: Path) -> Iterator[None]:
    """Several first uses at once (a script starting four solves): one builds, the others wait for it and
    then find the solver built. The lock is on the top-level source, which every build reads anyway, so it
    needs no file of its own and works where the source is read-only; the kernel drops it if the holder
    dies."""
    try:
        descriptor = os.open(source, os.O_RDONLY)
    except OSError as exc:
        raise SolverError(f"cannot read the solver's source {source}: {exc.strerror or exc}") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def is_current(binary: Path, sources: list[Path]) -> bool:
    """A built solver no older than the newest of its sources (of those here to compare with)."""
    if not binary.is_file():
        return False
    times = [source.stat().st_mtime for source in sources if source.is_file()]
    return not times or binary.stat().st_mtime >= max(times)


def checkout_solver(layout: Layout, settings: BuildSettings, on_build: OnBuild) -> Path:
    """./unflip_solver beside its sources, rebuilt when older than any of them; with make when the Makefile
    would use the same compiler, so both ways of building give the same binary."""
    binary = layout.root / BINARY_NAME
    sources = [layout.root / name for name in settings.sources]
    if is_current(binary, sources):
        return binary
    if not layout.source.is_file():
        raise SolverError(
            f"the solver is missing: neither {BINARY_NAME} nor {SOURCE_NAME} is in {layout.root}"
        )
    missing = [name for name in settings.sources if not (layout.root / name).is_file()]
    if missing:
        raise SolverError(
            f"the solver cannot be built: {missing[0]}, listed in {BUILD_SETTINGS_NAME}, "
            f"is not in {layout.root}"
        )
    with one_build_at_a_time(layout.source):
        if not is_current(binary, sources):  # another run may have built it while this one waited
            newest = max(source.stat().st_mtime for source in sources)
            build_in_checkout(layout, settings, binary, on_build)
            # A source stamped in the future (clock skew, a copied tree) would leave the new solver looking
            # stale and built again on every use: it was built from that source, so it is as new.
            if binary.stat().st_mtime < newest:
                os.utime(binary, (newest, newest))
    return binary


def build_in_checkout(layout: Layout, settings: BuildSettings, binary: Path, on_build: OnBuild) -> None:
    import shutil

    compiler = find_compiler()
    hint = f"make {BINARY_NAME}"
    makefile = layout.root / "Makefile"
    if shutil.which("make") and makefile.is_file() and compiler == os.environ.get("CXX", "g++"):
        # -B: this front end has found the solver stale by build.mk's list of sources, so make rebuilds it
        # even where the Makefile's own rule would not have noticed the file that changed.
        command = ["make", "--no-print-directory", "-B", "-C", str(layout.root), BINARY_NAME]
        on_build(command)
        run_build(command, binary, hint)
    else:
        compile_into(compiler, settings, layout.source, binary, on_build, hint)


def cache_key(layout: Layout, settings: BuildSettings) -> str:
    """A hash of every source (its path and its bytes) and the flags: what makes one build differ from
    another."""
    import hashlib

    digest = hashlib.sha256()
    for name in settings.sources:
        path = layout.root / name
        try:
            code = path.read_bytes()
        except OSError as exc:
            raise SolverError(f"cannot read the solver's source {path}: {exc.strerror or exc}") from None
        # Each part length-prefixed, so no two different sets of files hash alike by running together.
        for part in (name.encode(), code):
            digest.update(len(part).to_bytes(8, "big") + part)
    digest.update(" ".join(settings.compile_flags).encode())
    return digest.hexdigest()[:16]


def cached_solver(layout: Layout, settings: BuildSettings, on_build: OnBuild) -> Path:
    """The installed package's solver, in the user's cache under a hash of the sources and the flags: a new
    release (or new flags) builds afresh, and two versions installed side by side never share a binary."""
    binary = cache_dir() / cache_key(layout, settings) / BINARY_NAME
    if binary.is_file():
        return binary
    try:
        binary.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SolverError(f"cannot create {binary.parent} for the solver: {exc.strerror or exc}") from None
    with one_build_at_a_time(layout.source):
        if not binary.is_file():  # another run may have built it while this one waited
            import shlex

            compiler = find_compiler()
            hint = shlex.join(compile_command(compiler, settings, binary, layout.source))
            compile_into(compiler, settings, layout.source, binary, on_build, hint)
    return binary


def compile_into(
    compiler: str, settings: BuildSettings, source: Path, binary: Path, on_build: OnBuild, hint: str
) -> None:
    """Compile to a name of this process's own, then rename: an interrupted or concurrent build never
    leaves a half-written solver where a later run would take it for a finished one."""
    temporary = binary.with_name(f".{binary.name}.{os.getpid()}.partial")
    command = compile_command(compiler, settings, temporary, source)
    on_build(command)
    try:
        run_build(command, temporary, hint)
        os.replace(temporary, binary)
    except OSError as exc:
        raise SolverError(f"cannot put the built solver at {binary}: {exc.strerror or exc}") from None
    finally:
        temporary.unlink(missing_ok=True)


def run_build(command: list[str], output: Path, hint: str) -> None:
    """Run a build to its end, or, when the run is interrupted (Ctrl-C, SIGTERM), stop all of it: make, its
    shell, the compiler and the compiler's own passes form a process group of their own, the whole group
    is ended, and what they left (their temporary files, a half-linked solver) is removed."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="unflip-build-") as scratch, signals_held() as release:
        try:
            process = subprocess.Popen(
                command,
                cwd=output.parent,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env={**os.environ, "TMPDIR": scratch},
                start_new_session=True,
            )
        except OSError as exc:
            raise SolverError(f"cannot run {command[0]}: {exc.strerror or exc}") from None
        try:
            release()  # an interrupt that came while make started is raised here, where it is stopped
            stdout, stderr = process.communicate()
        except BaseException:
            stop_group(process)
            for partial in output.parent.glob(f".{BINARY_NAME}.*.partial"):
                partial.unlink(missing_ok=True)
            raise
    if process.returncode != 0 or not output.is_file():
        lines = (stderr + stdout).splitlines()
        first_error = next((line for line in lines if "error" in line), lines[-1] if lines else "no output")
        raise SolverError(
            f"building the solver failed ({first_error.strip()}); run `{hint}` to see everything"
        )


def stop_group(process: subprocess.Popen[str]) -> None:
    """SIGTERM to every process of the build, which lets the compiler driver remove its own files, then
    SIGKILL to whatever of the group is left once its leader has ended or after a few seconds. A second
    interrupt meanwhile is raised once the build is reaped."""
    with signals_held():
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
