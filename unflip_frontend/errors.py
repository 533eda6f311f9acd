"""The errors the front end raises. Each message is one line a user can read as it is; the command layer
decides how it is shown and which exit status it gets."""

import unicodedata
from collections.abc import Iterable


class InputError(Exception):
    """Something the user gave is unusable: a book, board, level, generator plan, or a file to write."""


class SolverError(Exception):
    """The solver could not be built or run, or what it said cannot be trusted."""


class ClusterError(Exception):
    """The Dask scheduler cannot be reached, or went away during the run (cluster.py)."""


class OutputError(Exception):
    """Standard output cannot be written: a full disk, a stream closed before the run began, an I/O error.
    (A reader that went away is not one: that run ends quietly, as `... | head` expects.)"""


class VerificationError(SolverError):
    """The solver's moves, replayed on the board, do not leave it uniform."""


# The whole numbers the front end reads from text (a link's fields, a level's number, a size) are small. One
# of more digits than this is refused as it is, not handed to int(), which raises ValueError past 4,300
# digits (sys.get_int_max_str_digits) and is slow well before.
MAX_DIGITS = 18


def whole_number(text: str) -> int | None:
    """The value of text written in ASCII digits (no sign, space or '_', which int() would take), at most
    MAX_DIGITS of them; None when it is not that."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_DIGITS:
        return None
    return int(text)


def likely_meant(word: str, choices: Iterable[str]) -> str | None:
    """The choice a mistyped word most likely stands for, if any is close: 'dialy' for daily, 'genrate' for
    generate, 'DAILY' for daily, but not 'novel' for solve."""
    import difflib  # loaded only for a word that is not one of the choices

    by_lower_case = {choice.lower(): choice for choice in choices}
    matches = difflib.get_close_matches(word.lower(), list(by_lower_case), n=1, cutoff=0.75)
    return by_lower_case[matches[0]] if matches else None


def printable(text: str) -> str:
    """Text as it can be shown: control characters (escape sequences, line breaks) and lone surrogates (from
    JSON escapes or file names that are not UTF-8), which no terminal should get, become U+FFFD."""
    return "".join("\ufffd" if unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in text)
