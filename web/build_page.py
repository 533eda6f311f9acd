"""Writes web/unflip.html, the one self-contained page (`make web`, docs/web.md): web/page.html with its
stylesheet, its scripts, the WebAssembly core (its wasm deflated, as base64), the shipped books and the
solver's limits (solver/contract.def) put in place of its /*NAME*/ marks, so that the page fetches nothing
and works opened from a file. Only the standard library: `make web` needs no venv.

    python3 web/build_page.py CORE_JS CORE_WASM OUT_HTML KEY=BOOK.json ...   (as the Makefile runs it)
"""

from __future__ import annotations

import base64
import importlib
import importlib.util
import json
import os
import re
import sys
import tempfile
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
CONTRACT = HERE.parent / "solver" / "contract.def"
FRONT_END = HERE.parent / "unflip_frontend"
MARK = re.compile(r"/\*([A-Z_]+)\*/")


def in_script(text: str) -> str:
    """Text for inside a <script> element: nothing in it may read as its end tag."""
    return text.replace("</", "<\\/")


def book_levels(path: Path) -> list[dict[str, object]]:
    """A book's levels as the page needs them: title, par, and rows of 0 (white) and 1 (the books write
    1 white, 2 black)."""
    levels = json.loads(path.read_text(encoding="utf-8"))["levels"]
    return [
        {
            "title": level.get("title", ""),
            "par": level.get("par"),
            "rows": ["".join(str(tile - 1) for tile in row) for row in level["tiles"]],
        }
        for level in levels
    ]


def board_limits(contract: Path) -> dict[str, int]:
    """The sides a board may have, from the contract as the front end reads it (unflip_frontend/contract.py),
    so that the page's link reader and board picker (web/links.js) take what the solver takes; and the most
    digits the front end reads in a number (unflip_frontend/errors.py, which the reader imports). The reader
    is imported under a name of its own, without the package's __init__, which may import the front end's
    dependencies (setup.py does the same): `make web` runs on a bare python3."""
    reader = "_unflip_contract_reader"
    spec = importlib.util.spec_from_file_location(
        reader, FRONT_END / "__init__.py", submodule_search_locations=[str(FRONT_END)]
    )
    assert spec is not None
    sys.modules[reader] = importlib.util.module_from_spec(spec)
    try:
        module = importlib.import_module(f"{reader}.contract")
        max_digits = importlib.import_module(f"{reader}.errors").MAX_DIGITS
        try:
            limits = module.read_contract(contract).limits
        except module.SolverError as error:
            raise SystemExit(str(error)) from None
    finally:
        for name in [name for name in sys.modules if name.partition(".")[0] == reader]:
            del sys.modules[name]
    return {"min_side": limits.min_side, "max_side": limits.max_side, "max_digits": max_digits}


def deflated(wasm: bytes) -> str:
    """The wasm as the worker inflates it (DecompressionStream('deflate'), web/worker.js): zlib's format, as
    base64. Deflated, the core's four lattice layouts fit the page's megabyte, where as SINGLE_FILE's plain
    base64 they did not."""
    return base64.b64encode(zlib.compress(wasm, 9)).decode("ascii")


def page(core: str, wasm: bytes, books: dict[str, Path], contract: Path = CONTRACT) -> str:
    embedded = {key: {"name": key.capitalize(), "levels": book_levels(path)} for key, path in books.items()}
    own = {
        name: (HERE / name).read_text(encoding="utf-8")
        for name in ("page.css", "links.js", "page.js", "worker.js")
    }
    for name in ("links.js", "page.js"):
        if "</script" in own[name].lower():
            raise SystemExit(f"web/{name} holds '</script', which would end its element early")
    parts = {
        "PAGE_CSS": own["page.css"],
        "BOOKS_JSON": in_script(json.dumps(embedded, separators=(",", ":"), ensure_ascii=False)),
        "CORE_SOURCE": in_script(json.dumps(core)),
        "CORE_WASM": json.dumps(deflated(wasm)),
        "WORKER_SOURCE": in_script(json.dumps(own["worker.js"])),
        "BOARD_LIMITS": json.dumps(board_limits(contract)),
        "LINKS_JS": own["links.js"],
        "PAGE_JS": own["page.js"],
    }
    template = (HERE / "page.html").read_text(encoding="utf-8")
    return MARK.sub(lambda mark: parts[mark[1]], template)


def main(arguments: list[str]) -> None:
    if len(arguments) < 4 or not all("=" in word for word in arguments[3:]):
        raise SystemExit(f"usage: {sys.argv[0]} CORE_JS CORE_WASM OUT_HTML KEY=BOOK.json ...")
    core, wasm, out = Path(arguments[0]), Path(arguments[1]), Path(arguments[2])
    books = {key: Path(path) for key, path in (word.split("=", 1) for word in arguments[3:])}
    text = page(core.read_text(encoding="utf-8"), wasm.read_bytes(), books)
    # Written whole or not at all: a page cut short by an error or Ctrl-C is never left in its place.
    handle, partial = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".partial")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(partial, 0o644)
        os.replace(partial, out)
    except BaseException:
        os.unlink(partial)
        raise


if __name__ == "__main__":
    main(sys.argv[1:])
