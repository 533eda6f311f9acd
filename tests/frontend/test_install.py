"""`pip install` of the repository into a fresh venv, as a user would install it: the `unflip` command works
from any folder, with the pinned dependencies, the shipped books, and a solver it builds into the user's
cache on first use. Installed from a copy of the files git tracks, so nothing left in this working tree
can make it pass."""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest
from helpers import REPO
from support import square_board, write_book

from unflip_frontend import __version__
from unflip_frontend.contract import build_settings
from unflip_frontend.layout import BUILD_SETTINGS_NAME

# A safety net against a hung install, not a performance assertion.
INSTALL_TIMEOUT = 600


def tracked_files() -> list[str]:
    listed = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
    )
    if listed.returncode != 0:
        pytest.fail(
            f"the install test copies the files git tracks, and git could not list them: {listed.stderr}"
        )
    return [name for name in listed.stdout.split("\0") if name and (REPO / name).is_file()]


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    """A copy of the files git tracks."""
    copy = tmp_path_factory.mktemp("install") / "source"
    for name in tracked_files():
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, copy / name)
    return copy


@pytest.fixture(scope="module")
def venv(source) -> Path:
    """A fresh venv with the repository pip-installed into it."""
    root = source.parent
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True, timeout=INSTALL_TIMEOUT)
    installed = subprocess.run(
        [
            str(root / "venv" / "bin" / "pip"),
            "install",
            "--quiet",
            "--disable-pip-version-check",
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT,
    )
    assert installed.returncode == 0, installed.stderr
    return root / "venv"


@pytest.fixture
def unflip(venv, tmp_path):
    """run(*args, env=...) the installed command from an empty folder, with a cache of the test's own."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    base = {k: v for k, v in os.environ.items() if k not in ("UNFLIP_SOLVER", "UNFLIP_BOOKS", "CXX")}

    def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(venv / "bin" / "unflip"), *args],
            capture_output=True,
            text=True,
            cwd=folder,
            env={**base, "XDG_CACHE_HOME": str(tmp_path / "cache"), **(env or {})},
            timeout=INSTALL_TIMEOUT,
        )

    return run


def test_the_installed_command_solves_a_shipped_level_building_its_solver_into_the_cache(
    unflip, venv, tmp_path
):
    par = json.loads((REPO / "daily_levels_book.json").read_text())["levels"][4]["par"]
    result = unflip("daily", "5")
    assert result.returncode == 0, result.stderr
    assert f"Optimal: {par} moves" in result.stdout
    assert result.stdout.rstrip().endswith("leaves every tile white.")
    cache = re.escape(str(tmp_path / "cache" / "unflip"))
    assert re.match(
        rf"building the solver: \S*\+\+ -O3 -march=native -std=c\+\+17 -pthread -o {cache}/", result.stderr
    )
    assert len(list((tmp_path / "cache" / "unflip").glob("*/unflip_solver"))) == 1
    packages = list(venv.glob("lib/python*/site-packages/unflip_frontend"))
    assert len(packages) == 1 and not list(packages[0].rglob("unflip_solver"))
    again = unflip("daily", "5", "--compact")
    assert again.returncode == 0 and again.stderr == ""


def test_the_installed_command_reads_other_books_from_UNFLIP_BOOKS_or_books(unflip, tmp_path):
    books = tmp_path / "books"
    books.mkdir()
    write_book(books / "main_levels_book.json", [{"tiles": square_board(3, [(1, 1, 2)]), "title": "Mine"}])
    for result in (
        unflip("main", "1", env={"UNFLIP_BOOKS": str(books)}),
        unflip("main", "1", "--books", str(books)),
    ):
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("main level 1 — 3×3 — no par — Mine\nOptimal: 1 move")


def test_the_installed_version_is_the_packages_and_the_distributions(unflip, venv):
    metadata = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import importlib.metadata as m; print(m.version('unflip'))"],
        capture_output=True,
        text=True,
    )
    assert metadata.stdout.strip() == __version__
    assert unflip("--version").stdout == f"unflip {__version__}\n"


def test_the_installed_dependencies_are_exactly_the_pins_of_requirements_txt(venv):
    frozen = subprocess.run(
        [str(venv / "bin" / "pip"), "freeze", "--exclude", "unflip", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
    )
    pins = [line for line in (REPO / "requirements.txt").read_text().splitlines() if "==" in line]
    assert sorted(frozen.stdout.lower().split()) == sorted(pin.lower() for pin in pins)


def test_the_installed_help_names_the_command_it_was_run_as(unflip):
    help_text = unflip("--help").stdout
    assert help_text.startswith("Usage: unflip [OPTIONS] SOURCE [LEVEL]\n")
    assert "unflip.py" not in help_text


# Every file the solver is compiled from, and build.mk, which lists them for the installed front end.
SOLVER_FILES = [*build_settings().sources, BUILD_SETTINGS_NAME]


def test_the_installed_package_carries_every_solver_source_at_its_relative_path(venv):
    packages = list(venv.glob("lib/python*/site-packages/unflip_frontend"))
    assert len(packages) == 1
    for name in SOLVER_FILES:
        shipped = packages[0] / "data" / name
        assert shipped.is_file(), f"the wheel has no data/{name}"
        assert shipped.read_bytes() == (REPO / name).read_bytes(), name


def test_the_source_distribution_carries_every_solver_source(venv, source, tmp_path):
    """What a wheel built from the sdist (pip install from an index) needs: MANIFEST.in's part."""
    backend = tomllib.loads((REPO / "pyproject.toml").read_text())["build-system"]["requires"]
    python = str(venv / "bin" / "python")
    pip = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *backend]
    subprocess.run(pip, check=True, capture_output=True, timeout=INSTALL_TIMEOUT)
    build = f"from setuptools import build_meta; print(build_meta.build_sdist({str(tmp_path)!r}))"
    built = subprocess.run([python, "-c", build], cwd=source, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    with tarfile.open(tmp_path / built.stdout.split()[-1]) as sdist:
        names = {name.partition("/")[2] for name in sdist.getnames()}
    assert [name for name in SOLVER_FILES if name not in names] == []
