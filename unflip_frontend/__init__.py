"""The Unflip front end: everything but the search, which is the C++ solver's. Its public Python API is
what this package exports (api.py says how to use it); the modules below are its workings.

It loads a level (from one of the game's JSON books, a text board, or standard input), hands the board to
the solver over the line protocol described in docs/protocol.md, checks the answer by replaying it, and prints
each move as a step card. The modules, one family each:

    boards     boards, moves, text boards
    books      the game's JSON books: reading, choosing a level, writing
    layout     where the solver source, the built solver and the shipped books are
    build      compiling the solver when it is missing or stale
    protocol   the solver's line protocol and the outcomes it names
    solver     running one search as a process
    verify     replaying every answer on the original board
    level_checks  --all's checks of a book's levels against their par
    hints      one move of an optimal solution from any position
    option_values  what the options are declared with: choices, a default
    render     step cards, boards and level tables as rich text
    render_optima  every optimal solution, their count, and a hint's card
    records    the --json records
    walkthrough  the --svg picture and the --html page
    generator  new levels whose par is the proven optimum
    api        the public Python API: solve, all_solutions, count_solutions, hint, lower_bound, books
    terminal   a run's two consoles, exit statuses, one-line failures, live progress
    stepper    the --step stepper: one card at a time, keys read in the terminal
    outputs    every output in one registry: the stream formats (cards, --compact, --step, --json) and
               the file formats (--svg, --html)
    commands   what each command does, as a client of api
    cli        the commands' options, completion, errors to exit statuses

Only the command layer (terminal, stepper, outputs, commands, cli) prints, reads keys or exits; the rest
raise the typed errors of errors.py and return outcomes.
"""

__version__ = "1.0.0"

from typing import TYPE_CHECKING  # noqa: E402 (after the version that setup reads)

from . import api  # noqa: E402
from .api import __all__ as __all__  # noqa: E402

if TYPE_CHECKING:
    from .api import *  # noqa: F403 (the public surface)
else:  # the same, but a star import would load api.LAZY_EXPORTS, which load when first asked for
    globals().update((name, getattr(api, name)) for name in __all__ if name not in api.LAZY_EXPORTS)


def __getattr__(name: str) -> object:
    if name not in api.LAZY_EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(api, name)
