"""Books and sources: the game's JSON books ({"levels": [...]}, tiles 1 = white, 2 = black), text boards
and standard input, and writing a book without ever leaving half of one. A level with "colorScheme": "tri"
is a three-colour level, its tiles 1 (cream), 2 (blue) and 3 (red): unflip's books may hold them, though the
game itself loads tri levels only from a link (its book loader takes two colours)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .boards import SCHEMES, TRI, TWO, Board, check_shape, in_scheme, parse_board_text, scheme_of
from .errors import InputError, likely_meant, printable
from .layout import find_layout

BOOK_FILES = {
    "daily": "daily_levels_book.json",
    "main": "main_levels_book.json",
    "weekly": "weekly_challenges_book.json",
}


@dataclass(frozen=True)
class Level:
    name: str  # how messages refer to it: "daily level 5", "board.txt"
    number: int | None  # 1-based position in its book; None for a text board
    board: Board
    par: int | None
    title: str
    link: str | None = None  # the game link or compact string it was read from, as given
    # The solutions the book stores for it, each named as a finding names it (stored_vectors), as stored:
    # checked against the proven optimum by --all and annotate, not here.
    vectors: tuple[tuple[str, object], ...] = field(default=(), compare=False)
    # Why a book's level cannot be read, without the level's name (its board is then empty): the other levels
    # of the book still can, and only asking for this one, or checking the whole book, says what is wrong.
    problem: str | None = None


@dataclass(frozen=True)
class Book:
    name: str
    levels: tuple[Level, ...]


# Books are read whole; this is far above any book of the game's (10,000 levels of 15×15 take 7 MB; a 31×31
# level with its solutions and vector, as generate writes it, some 40 KB, so 1,500 of those), and keeps
# endless input such as /dev/zero from filling memory.
MAX_BOOK_BYTES = 64 << 20

BOM = "\ufeff"  # the UTF-8 byte-order mark, as text


def read_source(path: str, keep_bom: bool = False) -> tuple[str, str]:
    """Return (text, display name) of a file, or of standard input for '-'. A UTF-8 byte-order mark, which
    some editors write, is not part of the text, unless keep_bom asks for it (for a book written back)."""
    name = printable(path) if path != "-" else "standard input"
    if path == "-":
        if sys.stdin is None:
            raise InputError("- reads standard input, which is closed")
        if sys.stdin.isatty():
            raise InputError(
                "- reads a board or book from standard input, which is a terminal here; "
                "redirect one in (- < board.txt) or name the file"
            )
        data = sys.stdin.buffer.read(MAX_BOOK_BYTES + 1)
    else:
        try:
            with open(path, "rb") as file:
                data = file.read(MAX_BOOK_BYTES + 1)
        except OSError as exc:
            raise InputError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > MAX_BOOK_BYTES:
        raise InputError(f"{name} is larger than {MAX_BOOK_BYTES >> 20} MiB; no book or board is that large")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{name}: not a text file (it is not UTF-8)") from None
    return (text if keep_bom else text.removeprefix(BOM)), name


def book_path(name: str, books_dir: str | None) -> Path:
    folder = Path(books_dir) if books_dir else find_layout().books
    path = folder / BOOK_FILES[name]
    if not path.is_file():
        raise InputError(
            f"book '{name}' not found: {path} does not exist "
            "(point --books DIR or UNFLIP_BOOKS at its folder)"
        )
    return path


# A level's "colorScheme", as the game writes it ("BW", the default) and as a tri level says it.
COLOR_SCHEMES = {"bw": TWO, "tri": TRI}


def level_scheme(entry: dict[str, object], where: str) -> str:
    """The scheme a book's level is in: two colours unless its colorScheme says tri."""
    value = entry.get("colorScheme", "BW")
    scheme = COLOR_SCHEMES.get(value.lower()) if isinstance(value, str) else None
    if scheme is None:
        raise InputError(f'{where}: colorScheme {value!r} is not one unflip reads ("BW" or "tri")')
    return scheme


def parse_tiles(tiles: object, where: str, scheme: str = TWO) -> Board:
    """Accept both encodings the game writes: a list of rows of equal length, or {"array", "width",
    "height"}, the array row-major. Either may be a rectangle. A tri level's tiles are 1 to 3."""
    if isinstance(tiles, dict):
        array, width, height = tiles.get("array"), tiles.get("width"), tiles.get("height")
        # type() and not isinstance(): JSON's true and false are ints to Python.
        if not (isinstance(array, list) and type(width) is int and type(height) is int):
            raise InputError(
                f"{where}: tiles object needs 'array' (a list), 'width' and 'height' (whole numbers)"
            )
        check_shape(height, width, where)
        if len(array) != width * height:
            raise InputError(
                f"{where}: tiles array has {len(array)} entries, but height {height} × width {width} "
                f"is {width * height}"
            )
        tiles = [array[r * width : (r + 1) * width] for r in range(height)]
    if not isinstance(tiles, list) or not all(isinstance(row, list) for row in tiles):
        raise InputError(
            f"{where}: 'tiles' must be a list of rows or an object with 'array', 'width', 'height'"
        )
    if not tiles:
        raise InputError(f"{where}: 'tiles' has no rows")
    width = len(tiles[0])
    for r, row in enumerate(tiles, 1):
        if len(row) != width:
            raise InputError(f"{where}: tiles row {r} has {len(row)} entries, but row 1 has {width}")
    check_shape(len(tiles), width, where)
    expected = "1 = white or 2 = black" if scheme == TWO else "1 = cream, 2 = blue or 3 = red"
    for r, row in enumerate(tiles, 1):
        for c, value in enumerate(row, 1):
            if type(value) is not int or not 1 <= value <= SCHEMES[scheme]:
                raise InputError(f"{where}: tile {value!r} at row {r}, col {c} (expected {expected})")
    return in_scheme(tuple(tuple(value - 1 for value in row) for row in tiles), scheme)


def book_tiles(board: Board) -> list[list[int]]:
    """The board in the game's tiles (1 = white, 2 = black; a tri board's 1 to 3): what parse_tiles reads
    back."""
    return [[tile + 1 for tile in row] for row in board]


def scheme_fields(board: Board) -> dict[str, str]:
    """What a book's level says of its scheme: nothing for two colours (the game's default, so a two-colour
    book is as it always was), "colorScheme": "tri" for three."""
    return {"colorScheme": TRI} if scheme_of(board) == TRI else {}


def stored_vectors(entry: dict[str, object]) -> Iterator[tuple[str, object]]:
    """Each solution vector a level stores (its `solutions`, then its `solutionVector`), named as a finding
    names it."""
    listed = entry.get("solutions")
    if isinstance(listed, list):
        for number, vector in enumerate(listed, 1):
            yield f"solutions entry {number}", vector
    if "solutionVector" in entry:
        yield "solutionVector", entry["solutionVector"]


def parse_level(entry: object, number: int, book_name: str) -> Level:
    where = f"{book_name} level {number}"
    if not isinstance(entry, dict) or "tiles" not in entry:
        raise InputError(f"{where}: expected an object with 'tiles'")
    par = entry.get("par")
    if type(par) is float and par.is_integer():  # 2.0 is how some JSON writers spell 2
        par = int(par)
    if par is not None and (type(par) is not int or par < 0):
        raise InputError(f"{where}: par must be a whole number or null, not {par!r}")
    title = entry.get("title")
    shown = "" if title is None else printable(str(title))
    board = parse_tiles(entry["tiles"], where, level_scheme(entry, where))
    return Level(where, number, board, par, shown, vectors=tuple(stored_vectors(entry)))


def link_level(link: str) -> Level:
    """The level a game link or compact string holds; its par is the one the game shows for the link, the
    weight of its vector (none for the tile form), which is checked like a book's."""
    from .links import parse_link  # loaded only for a link

    shared = parse_link(link)
    name = "game link" if shared.identifier is None else f"game link {printable(shared.identifier)}"
    vectors = () if shared.vector is None else (("link's solution vector", list(shared.vector)),)
    return Level(name, None, shared.board, shared.par, "", link.strip(), vectors)


def parse_book(text: str, name: str) -> Book:
    import json  # loaded only for a book: a text board does not need it

    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{name}: malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except ValueError:  # Python's own cap on the digits of a whole number
        digits = sys.get_int_max_str_digits()
        raise InputError(f"{name}: a number in it has more than {digits} digits") from None
    except RecursionError:
        raise InputError(f"{name}: its JSON is nested too deeply to be a level book") from None
    if not isinstance(data, dict) or not isinstance(data.get("levels"), list):
        raise InputError(f"{name}: not a level book (expected a JSON object with a 'levels' list)")
    if not data["levels"]:
        raise InputError(f"{name}: the book has no levels")
    return Book(name, tuple(readable_level(entry, i, name) for i, entry in enumerate(data["levels"], 1)))


def readable_level(entry: object, number: int, book_name: str) -> Level:
    """A book's level as parse_level reads it, or, when it is malformed, a level that says why."""
    try:
        return parse_level(entry, number, book_name)
    except InputError as exc:
        title = entry.get("title") if isinstance(entry, dict) else None
        shown = "" if title is None else printable(str(title))
        where = f"{book_name} level {number}"
        problem = str(exc).removeprefix(f"{where}: ")
        return Level(where, number, (), None, shown, problem=problem)


def source_file(source: str, books_dir: str | None) -> str:
    """The file a source is read from ('-' for standard input), for telling it apart from the run's
    outputs."""
    return str(book_path(source, books_dir)) if source in BOOK_FILES else source


def is_link(source: str) -> bool:
    """A source meant as a game link or its compact string: no file of that name, and like a link. links.py
    loads only for a source that is no file: a solve of a board file does not pay for it."""
    if os.path.lexists(source):
        return False
    from .links import looks_like_link

    return looks_like_link(source)


def load_source(source: str, books_dir: str | None, scheme: str | None = None) -> Book | Level:
    """A book name, a book file, a text board, '-', or a game link (or its compact string). Books are told
    from boards by content, not by extension, so a book can arrive on standard input too. A scheme given
    (--scheme) is a text board's; a link or a book says its own, which must then be the same."""
    loaded: Book | Level
    if source in BOOK_FILES:  # first: no book's name is like a link, and links.py need not load
        path = book_path(source, books_dir)
        text, _ = read_source(str(path))
        loaded = parse_book(text, source)
    elif is_link(source):
        loaded = link_level(source)
    else:
        check_exists(source)
        text, name = read_source(source)
        loaded = parse_book(text, name) if is_book_text(text) else board_level(text, name, scheme)
    check_scheme(loaded, scheme)
    return loaded


def check_scheme(loaded: Book | Level, scheme: str | None) -> None:
    """A link's or a book's levels are in the scheme asked for, when one is."""
    levels = loaded.levels if isinstance(loaded, Book) else (loaded,)
    other = next(
        (level for level in levels if level.problem is None and scheme_of(level.board) != scheme), None
    )
    if scheme is not None and other is not None:
        kind = "three-colour (tri)" if scheme_of(other.board) == TRI else "two-colour"
        raise InputError(f"{other.name} is a {kind} level, but --scheme {scheme} was given")


def is_book_text(text: str) -> bool:
    return text.lstrip()[:1] in ("{", "[")


def board_level(text: str, name: str, scheme: str | None = None) -> Level:
    return Level(name, None, parse_board_text(text, name, scheme), None, "")


def check_exists(source: str) -> None:
    """A source that is neither standard input nor a file gets the book name it resembles."""
    # os.path.lexists, unlike Path.exists, is False (not an error) for a name too long to be a file; a
    # dangling link or a loop of links is there, and reading it says what is wrong with it.
    if source != "-" and not os.path.lexists(source):
        names = ", ".join(BOOK_FILES)
        guess = likely_meant(source, BOOK_FILES)
        hint = f"did you mean '{guess}'? " if guess else ""
        raise InputError(
            f"no such book or board file: {printable(source)} ({hint}the named books are {names})"
        )


def two_colour_only(loaded: Book | Level, *asked: tuple[str, bool]) -> None:
    """What a three-colour level cannot have yet, each named with whether it was asked for: the game's goal
    (every tile cream) is its one target, and certificates, the game's difficulty measures and the web page
    are two-colour ones."""
    levels = loaded.levels if isinstance(loaded, Book) else (loaded,)
    tri = next((level for level in levels if level.problem is None and scheme_of(level.board) == TRI), None)
    given = [what for what, wanted in asked if wanted]
    if tri is not None and given:
        raise InputError(
            f"{tri.name} is a three-colour (tri) level: {given[0]} is for two-colour levels only"
        )


@dataclass(frozen=True)
class BookText:
    """A source as the text of a book, as annotate edits it: a book's own text, or a single level (a text
    board, a game link) as a book of one level."""

    text: str
    name: str
    file: str | None  # the book file it was read from; None for standard input and a single level
    bom: str = ""  # the byte-order mark the book's text came after: the annotated book keeps it


def book_text(source: str, books_dir: str | None, scheme: str | None = None) -> BookText:
    if is_link(source):
        level = link_level(source)
        check_scheme(level, scheme)
        return BookText(one_level_book(level), level.name, None)
    file = source_file(source, books_dir)
    if source not in BOOK_FILES:
        check_exists(source)
    text, name = read_source(file, keep_bom=True)
    bom = BOM if text.startswith(BOM) else ""
    text = text.removeprefix(bom)
    if source in BOOK_FILES:
        name = source
    if not is_book_text(text):
        return BookText(one_level_book(board_level(text, name, scheme)), name, None)
    check_scheme(
        parse_book(text, name), scheme
    )  # a book that cannot be read is said to be so before any work
    return BookText(text, name, None if file == "-" else file, bom)


def one_level_book(level: Level) -> str:
    """A single level as a book: its tiles, and the par and vector of the link it came from."""
    import json  # loaded only when it runs

    entry: dict[str, object] = {"tiles": book_tiles(level.board), **scheme_fields(level.board)}
    if level.par is not None:
        entry["par"] = level.par
    vectors = [vector for _, vector in level.vectors]
    if vectors:
        entry["solutions"] = vectors
    return json.dumps({"levels": [entry]})


def pick_level(book: Book, number: int) -> Level:
    count = len(book.levels)
    if not 1 <= number <= count:
        raise InputError(f"{book.name} has {count} levels; level {number} is out of range (1–{count})")
    level = book.levels[number - 1]
    if level.problem is not None:
        raise InputError(f"{level.name}: {level.problem}")
    return level
