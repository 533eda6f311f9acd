"""The one thing pyproject.toml cannot say: the wheel carries the solver's sources and the shipped books,
which stay at the top of the repository (where the specification's file table puts them), inside the
package as unflip_frontend/data/. The sources are every file solver/build.mk lists, at the same relative
paths (so unflip_solver.cpp's `#include "solver/..."` lines resolve there too), and build.mk itself, which the
installed front end reads for the list and the flags. It compiles them on first use (unflip_frontend/layout.py
says where)."""

import importlib
import importlib.util
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
PACKAGE = HERE / "unflip_frontend"


def solver_files() -> list[str]:
    """SOLVER_SOURCES as the front end reads it (unflip_frontend/contract.py), and build.mk: the reader is
    imported without the package's __init__, which may import the front end's dependencies, and a build
    environment has only setuptools."""
    spec = importlib.util.spec_from_file_location(
        PACKAGE.name, PACKAGE / "__init__.py", submodule_search_locations=[str(PACKAGE)]
    )
    assert spec is not None
    sys.modules[PACKAGE.name] = importlib.util.module_from_spec(spec)
    try:
        layout = importlib.import_module(f"{PACKAGE.name}.layout")
        contract = importlib.import_module(f"{PACKAGE.name}.contract")
        settings = contract.read_build_settings(HERE / layout.BUILD_SETTINGS_NAME)
        return [*settings.sources, layout.BUILD_SETTINGS_NAME]
    finally:
        for name in [name for name in sys.modules if name.partition(".")[0] == PACKAGE.name]:
            del sys.modules[name]


class build_py_with_data(build_py):
    def run(self) -> None:
        super().run()
        data = Path(self.build_lib) / PACKAGE.name / "data"
        books = sorted(path.name for path in HERE.glob("*_book.json"))
        for name in [*solver_files(), *books]:
            self.mkpath(str((data / name).parent))
            self.copy_file(str(HERE / name), str(data / name))


setup(cmdclass={"build_py": build_py_with_data})
