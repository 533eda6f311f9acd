"""The one thing pyproject.toml cannot say: the wheel carries the solver's source and the shipped books,
which stay at the top of the repository (where the specification's file table puts them), inside the
package as unflip_frontend/data/. The installed front end compiles that source on first use
(unflip_frontend/layout.py says where)."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SHIPPED = ["unflip_solver.cpp", *sorted(path.name for path in Path(__file__).parent.glob("*_book.json"))]


class build_py_with_data(build_py):
    def run(self) -> None:
        super().run()
        data = Path(self.build_lib) / "unflip_frontend" / "data"
        self.mkpath(str(data))
        for name in SHIPPED:
            self.copy_file(name, str(data / name))


setup(cmdclass={"build_py": build_py_with_data})
