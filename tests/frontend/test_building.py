"""Building the solver: on first use and when stale (any file solver/build.mk lists is newer), beside its
sources in a checkout and in the user's cache when installed, with one status line; every way a build can
fail is one line and leaves no solver."""

import dataclasses
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import REPO
from support import one_line, write

from unflip_frontend.build import cache_key
from unflip_frontend.contract import build_settings, read_build_settings
from unflip_frontend.layout import find_layout

# A stand-in solver source that compiles in a moment: it answers every board with one 2×2 move.
TINY_SOLVER = r"""
#include <iostream>
#include <string>
int main() {
    std::string line;
    while (std::getline(std::cin, line)) {}
    std::cout << "TARGET 0\nMOVES 1\n0 0 2\nNODES 1\nTIME 0.000\n";
}
"""
# The same, with its move from a header, as the split solver includes its families.
TINY_SOLVER_WITH_A_HEADER = r"""
#include <iostream>
#include <string>
#include "solver/stand_in.h"
int main() {
    std::string line;
    while (std::getline(std::cin, line)) {}
    std::cout << "TARGET 0\nMOVES 1\n" STAND_IN_MOVE "NODES 1\nTIME 0.000\n";
}
"""
FLAGS = re.escape(" ".join(build_settings().compile_flags))
BUILD_LINE = rf"building the solver: \S*\+\+ {FLAGS} -o (\S+) (\S+)\n"
# A header the tiny solver includes, listed in a scratch copy of build.mk beside the real sources.
STAND_IN_HEADER = "solver/stand_in.h"


def copy_package(folder: Path) -> Path:
    """The front-end package, as it is in this checkout, copied into folder."""
    copied = shutil.copytree(
        REPO / "unflip_frontend", folder / "unflip_frontend", ignore=shutil.ignore_patterns("__pycache__")
    )
    return Path(copied)


def copy_solver_folder(folder: Path) -> None:
    """This checkout's solver/ (the contract, build.mk, the headers) into folder, beside a tiny solver."""
    shutil.copytree(REPO / "solver", folder / "solver")


def list_stand_in_header(folder: Path) -> list[str]:
    """Adds a header the tiny solver includes to folder's build.mk; every listed source but the top-level
    one."""
    build_file = folder / "solver" / "build.mk"
    listed, count = re.subn(
        r"^SOLVER_SOURCES :=.*$", rf"\g<0> {STAND_IN_HEADER}", build_file.read_text(), flags=re.M
    )
    assert count == 1
    write(build_file, listed)
    write(folder / STAND_IN_HEADER, '#define STAND_IN_MOVE "0 0 2\\n"\n')
    write(folder / "unflip_solver.cpp", TINY_SOLVER_WITH_A_HEADER)
    sources = read_build_settings(build_file).sources
    return [name for name in sources if name != "unflip_solver.cpp"]


@pytest.fixture(autouse=True)
def needs_a_compiler():
    if not (shutil.which("g++") or shutil.which("clang++") or shutil.which("c++")):
        pytest.skip("no C++ compiler on this machine")


@pytest.fixture
def scratch_repo(tmp_path):
    """A checkout's layout: unflip.py and the front-end package in a folder with a tiny solver source and
    no binary."""
    folder = tmp_path / "repo"
    folder.mkdir()
    shutil.copy(REPO / "unflip.py", folder)
    copy_package(folder)
    copy_solver_folder(folder)
    write(folder / "unflip_solver.cpp", TINY_SOLVER)
    write(folder / "board.txt", "11\n11\n")
    return folder


@pytest.fixture
def installed(tmp_path):
    """An installed package's layout: the package with its data/ folder (the solver's sources, build.mk and
    a book, as the wheel carries them) on the import path, away from any checkout."""
    site = tmp_path / "site-packages"
    site.mkdir()
    data = copy_package(site) / "data"
    data.mkdir()
    copy_solver_folder(data)
    write(data / "unflip_solver.cpp", TINY_SOLVER)
    write(data / "daily_levels_book.json", '{"levels": [{"tiles": [[2, 2], [2, 2]], "par": 1}]}')
    return site


def run_script(folder: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if k not in ("UNFLIP_SOLVER", "CXX")}
    return subprocess.run(
        [sys.executable, str(folder / "unflip.py"), *args],
        capture_output=True,
        text=True,
        env={**environment, **(env or {})},
        cwd=folder,
        timeout=120,
    )


def run_installed(site: Path, cache: Path, *args: str) -> subprocess.CompletedProcess:
    """What the console script does, run from an unrelated folder with site on the import path."""
    environment = {k: v for k, v in os.environ.items() if k not in ("UNFLIP_SOLVER", "CXX", "UNFLIP_BOOKS")}
    return subprocess.run(
        [sys.executable, "-c", "from unflip_frontend.cli import main; main()", *args],
        capture_output=True,
        text=True,
        env={**environment, "PYTHONPATH": str(site), "XDG_CACHE_HOME": str(cache)},
        cwd=site.parent,
        timeout=120,
    )


# --- in a checkout ------------------------------------------------------------------------------------------


def test_a_missing_solver_is_built_on_first_use_with_one_status_line(scratch_repo):
    first = run_script(scratch_repo, "board.txt", "--compact")
    assert first.returncode == 0, first.stderr
    assert re.fullmatch(BUILD_LINE, first.stderr)
    assert (scratch_repo / "unflip_solver").is_file()
    second = run_script(scratch_repo, "board.txt", "--compact")
    assert second.returncode == 0 and second.stderr == ""


@pytest.mark.parametrize("source", ["unflip_solver.cpp", "solver/contract.def"])
def test_a_solver_older_than_any_of_its_sources_is_rebuilt_with_make_when_there_is_a_makefile(
    scratch_repo, source
):
    if not shutil.which("make"):
        pytest.skip("make is not installed")
    shutil.copy(REPO / "Makefile", scratch_repo)
    assert run_script(scratch_repo, "board.txt").returncode == 0
    built = (scratch_repo / "unflip_solver").stat()
    later = built.st_mtime + 10
    os.utime(scratch_repo / source, (later, later))
    rebuilt = run_script(scratch_repo, "board.txt")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert rebuilt.stderr.startswith("building the solver: make ")
    # make renames a new binary into place: it did build, not just look.
    assert (scratch_repo / "unflip_solver").stat().st_ino != built.st_ino


def test_editing_any_source_build_mk_lists_not_only_unflip_solver_cpp_rebuilds_the_solver_on_the_next_run(
    scratch_repo,
):
    others = list_stand_in_header(scratch_repo)
    assert STAND_IN_HEADER in others and "solver/contract.def" in others
    sources = ["unflip_solver.cpp", *others]
    first = run_script(scratch_repo, "board.txt", "--compact")
    assert first.returncode == 0 and re.fullmatch(BUILD_LINE, first.stderr), first.stderr
    # Times in the past, so that the binary each rebuild leaves is newer than every source.
    past = time.time() - 1000
    for name in sources:
        os.utime(scratch_repo / name, (past, past))
    binary = scratch_repo / "unflip_solver"
    for name in others:
        os.utime(binary, (past + 10, past + 10))
        assert run_script(scratch_repo, "board.txt", "--compact").stderr == "", "rebuilt with nothing edited"
        os.utime(scratch_repo / name, (past + 20, past + 20))
        rebuilt = run_script(scratch_repo, "board.txt", "--compact")
        assert rebuilt.returncode == 0, rebuilt.stderr
        assert re.fullmatch(BUILD_LINE, rebuilt.stderr), f"editing {name} did not rebuild: {rebuilt.stderr}"
        assert "Optimal: 1 move" in rebuilt.stdout
        os.utime(scratch_repo / name, (past, past))


def test_a_source_build_mk_lists_that_is_missing_is_one_line_naming_it(scratch_repo):
    list_stand_in_header(scratch_repo)
    (scratch_repo / STAND_IN_HEADER).unlink()
    result = run_script(scratch_repo, "board.txt")
    assert result.returncode == 4
    assert one_line(result.stderr) == (
        f"error: the solver cannot be built: {STAND_IN_HEADER}, listed in solver/build.mk, "
        f"is not in {scratch_repo}"
    )


def test_without_a_compiler_the_error_says_how_to_get_one(scratch_repo, tmp_path):
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    result = run_script(scratch_repo, "board.txt", env={"PATH": str(empty)})
    assert result.returncode == 4
    assert one_line(result.stderr) == (
        "error: the solver needs building and no C++ compiler was found; "
        "install one (e.g. apt-get install g++ make)"
    )


def test_a_solver_that_does_not_compile_is_one_line_naming_the_first_error_leaving_no_binary(scratch_repo):
    write(scratch_repo / "unflip_solver.cpp", "int main() { return undeclared; }\n")
    result = run_script(scratch_repo, "board.txt")
    assert result.returncode == 4
    line = result.stderr.splitlines()[-1]
    assert line.startswith("error: building the solver failed (") and "undeclared" in line
    assert line.endswith("; run `make unflip_solver` to see everything")
    assert not list(scratch_repo.glob(".unflip_solver*"))
    assert not (scratch_repo / "unflip_solver").exists()


def test_the_layout_of_a_checkout_keeps_source_books_and_binary_beside_unflip_py(scratch_repo):
    layout = find_layout(scratch_repo / "unflip_frontend")
    assert not layout.installed
    assert layout.source == scratch_repo / "unflip_solver.cpp"
    assert layout.contract_file == scratch_repo / "solver" / "contract.def"
    assert layout.build_file == scratch_repo / "solver" / "build.mk"
    assert layout.books == scratch_repo


def test_this_repository_is_a_checkout_whose_books_are_the_shipped_ones():
    layout = find_layout()
    assert not layout.installed
    assert layout.source == REPO / "unflip_solver.cpp" and layout.books == REPO


# --- installed ----------------------------------------------------------------------------------------------


def test_the_layout_of_an_installed_package_reads_source_and_books_from_its_data_folder(installed):
    layout = find_layout(installed / "unflip_frontend")
    assert layout.installed
    data = installed / "unflip_frontend" / "data"
    assert layout.source == data / "unflip_solver.cpp"
    assert (layout.contract_file, layout.build_file) == (
        data / "solver" / "contract.def",
        data / "solver" / "build.mk",
    )
    assert layout.books == data


def test_an_installed_package_builds_its_solver_once_into_the_cache_and_not_beside_its_source(
    installed, tmp_path
):
    cache = tmp_path / "cache"
    data = installed / "unflip_frontend" / "data"
    shipped = sorted(data.rglob("*"))
    first = run_installed(installed, cache, "daily", "1", "--compact")
    assert first.returncode == 0, first.stderr
    output, source = re.fullmatch(BUILD_LINE, first.stderr).groups()
    assert Path(source) == installed / "unflip_frontend" / "data" / "unflip_solver.cpp"
    assert Path(output).parent.parent == cache / "unflip"
    built = list((cache / "unflip").glob("*/unflip_solver"))
    assert [path.parent for path in built] == [Path(output).parent]
    assert sorted(data.rglob("*")) == shipped
    assert "Optimal: 1 move" in first.stdout
    second = run_installed(installed, cache, "daily", "1", "--compact")
    assert second.returncode == 0 and second.stderr == ""


@pytest.mark.parametrize("source", ["unflip_solver.cpp", "solver/contract.def"])
def test_a_changed_solver_source_gets_its_own_build_in_the_cache(installed, tmp_path, source):
    cache = tmp_path / "cache"
    assert run_installed(installed, cache, "daily", "1").returncode == 0
    path = installed / "unflip_frontend" / "data" / source
    write(path, path.read_text() + "// another release\n")
    again = run_installed(installed, cache, "daily", "1")
    assert again.returncode == 0, again.stderr
    assert again.stderr.startswith("building the solver: ")
    assert len(list((cache / "unflip").glob("*/unflip_solver"))) == 2


def test_the_cache_key_changes_when_any_source_or_the_flags_change_and_only_then(installed):
    data = installed / "unflip_frontend" / "data"
    list_stand_in_header(data)
    layout = find_layout(installed / "unflip_frontend")
    settings = read_build_settings(layout.build_file)
    original = cache_key(layout, settings)
    assert cache_key(layout, settings) == original
    keys = {original}
    for name in settings.sources:
        text = (data / name).read_bytes()
        (data / name).write_bytes(text + b"\n")
        keys.add(cache_key(layout, settings))
        (data / name).write_bytes(text)
    assert len(keys) == 1 + len(settings.sources), "a source whose change leaves the key as it was"
    assert cache_key(layout, settings) == original
    assert cache_key(layout, dataclasses.replace(settings, opt_flags=("-O2",))) not in keys


def test_a_cache_that_cannot_be_created_is_one_line_naming_it(installed, tmp_path):
    blocked = write(tmp_path / "not-a-folder", "")
    result = run_installed(installed, blocked, "daily", "1")
    assert result.returncode == 4
    assert re.fullmatch(
        rf"error: cannot create {re.escape(str(blocked))}/unflip/[0-9a-f]{{16}} for the solver: "
        "Not a directory",
        one_line(result.stderr),
    )


# A compiler that writes its output the slow way a linker does: the file exists, incomplete and not yet
# executable, for a second before it is done. It logs each build, and when the output file is open.
SLOW_COMPILER = """#!{python}
import os, subprocess, sys, tempfile, time
args = sys.argv[1:]
output = args[args.index("-o") + 1]
sources = [arg for arg in args if arg.endswith(".cpp")]
with open({log!r}, "a") as log:
    log.write("build\\n")
with tempfile.TemporaryDirectory() as folder:
    subprocess.run(["g++", "-o", folder + "/solver", *sources], check=True)
    payload = open(folder + "/solver", "rb").read()
with open(output, "wb") as file:
    file.write(payload[: len(payload) // 2])
    file.flush()
    with open({log!r}, "a") as log:
        log.write("writing\\n")
    time.sleep(1)
    file.write(payload[len(payload) // 2 :])
os.chmod(output, 0o755)
"""


def test_first_uses_started_together_build_the_solver_once_and_all_of_them_solve(scratch_repo, tmp_path):
    if not (shutil.which("make") and shutil.which("g++")):
        pytest.skip("needs make and g++")
    shutil.copy(REPO / "Makefile", scratch_repo)
    log = tmp_path / "builds.log"
    compiler = write(tmp_path / "slow-c++", SLOW_COMPILER.format(python=sys.executable, log=str(log)))
    compiler.chmod(0o755)
    environment = {k: v for k, v in os.environ.items() if k != "UNFLIP_SOLVER"}
    environment["CXX"] = str(compiler)

    def start() -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "unflip.py", "board.txt", "--compact"],
            cwd=scratch_repo,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    runs = [start()]
    deadline = time.monotonic() + 60  # a safety net, not a timing assertion
    while not (log.exists() and "writing" in log.read_text()) and time.monotonic() < deadline:
        time.sleep(0.02)
    # The others start while the first build's output is half-written.
    runs += [start() for _ in range(3)]
    results = [(run.wait(timeout=120), *run.communicate()) for run in runs]
    for code, stdout, stderr in results:
        assert code == 0, stderr
        assert "Optimal: 1 move" in stdout
    assert log.read_text().count("build\n") == 1
    assert sorted(path.name for path in scratch_repo.iterdir() if "unflip_solver" in path.name) == [
        "unflip_solver",
        "unflip_solver.cpp",
    ]
