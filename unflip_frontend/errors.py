"""The errors the front end raises. Each message is one line a user can read as it is; the command layer
decides how it is shown and which exit status it gets."""

import difflib
from collections.abc import Iterable


class InputError(Exception):
    """Something the user gave is unusable: a book, board, level, generator plan, or a file to write."""


class SolverError(Exception):
    """The solver could not be built or run, or what it said cannot be trusted."""


class VerificationError(SolverError):
    """The solver's moves, replayed on the board, do not leave it uniform."""


def likely_meant(word: str, choices: Iterable[str]) -> str | None:
    """The choice a mistyped word most likely stands for, if any is close: 'dialy' for daily, 'genrate' for
    generate, but not 'novel' for solve."""
    matches = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.75)
    return matches[0] if matches else None
