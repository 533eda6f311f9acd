"""Where the solver's sources, its contract, the built solver and the shipped books are.

Two layouts, told apart by what is on disk:

- a checkout: unflip_solver.cpp, the solver/ folder and the books sit beside unflip.py, one folder above this
  package, and the solver is built beside its source as ./unflip_solver (what `make` builds and the tests
  run);
- an installed package (pip, pipx): the wheel carries copies of the sources (every file solver/build.mk lists,
  at the same relative paths, so the includes resolve), build.mk itself and the books in the package's data/
  folder (setup.py puts them there), which may be read-only or shared, so the solver is built into the
  user's cache instead, in a folder named by a hash of what was compiled and how.

Either way unflip_solver.cpp marks the folder the sources' relative paths start from.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
SOURCE_NAME = "unflip_solver.cpp"
CONTRACT_NAME = "solver/contract.def"
BUILD_SETTINGS_NAME = "solver/build.mk"
BINARY_NAME = "unflip_solver"


@dataclass(frozen=True)
class Layout:
    root: Path  # the folder holding unflip_solver.cpp, solver/ and the shipped books
    installed: bool

    @property
    def source(self) -> Path:
        """The solver's top-level source: what the compiler is given; it includes the rest."""
        return self.root / SOURCE_NAME

    @property
    def contract_file(self) -> Path:
        return self.root / CONTRACT_NAME

    @property
    def build_file(self) -> Path:
        return self.root / BUILD_SETTINGS_NAME

    @property
    def books(self) -> Path:
        return self.root


def find_layout(package: Path = PACKAGE) -> Layout:
    shipped = package / "data"
    if (shipped / SOURCE_NAME).is_file():
        return Layout(shipped, installed=True)
    return Layout(package.parent, installed=False)


def cache_dir() -> Path:
    """$XDG_CACHE_HOME/unflip, or ~/.cache/unflip (a relative XDG_CACHE_HOME is ignored, as the XDG
    specification says)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "unflip"
