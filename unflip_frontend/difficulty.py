"""The figures a designer ranks levels by, and where a book's difficulty curve breaks. Each figure is one of a
level's signals (signals.py), taken over every optimal solution: `report` draws it as a curve, `generate
--order-by` orders a book by it. Nothing here runs the solver.

A level breaks the curve of a figure when it is harder, by that figure, than the levels that follow it: its
value exceeds the median of the values of the next BREAK_AHEAD levels (of those that have one) by more than
BREAK_SHARE of the figure's range over the whole book (its largest value less its smallest). A book that
rises in difficulty has no break; a hard level dropped among easy ones is one. The last level has nothing
after it and never breaks."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .signals import Signals

BREAK_AHEAD = 5
BREAK_SHARE = 0.25


@dataclass(frozen=True)
class Figure:
    name: str  # as --order-by takes it, and as records and sheets name it
    heading: str  # as the table and the page show it
    meaning: str  # in words, for the page's legend
    value: Callable[[Signals], int]


FIGURES = (
    Figure("par", "par", "the proven optimum, in moves", lambda signals: signals.optimum),
    Figure(
        "eric",
        "minEric",
        "the least Eric number of any optimal solution (distinct tile signatures under its squares)",
        lambda signals: signals.min_eric,
    ),
    Figure(
        "obv",
        "obv×100",
        "the least obvious score of any optimal solution, ×100 (how much its squares stand out)",
        lambda signals: signals.obvious_100,
    ),
    Figure(
        "gap",
        "gap",
        "the optimum less the solver's lower bound at the start: how hard the optimum is to prove",
        lambda signals: signals.gap,
    ),
)
FIGURE_NAMES = tuple(figure.name for figure in FIGURES)


def figure_named(name: str) -> Figure:
    return next(figure for figure in FIGURES if figure.name == name)


def curve_breaks(values: Sequence[float | None]) -> list[int]:
    """The indexes of the levels that break the curve of one figure, given its value for each level in the
    book's order (None for a level without one, which neither breaks nor counts among the next levels)."""
    known = [value for value in values if value is not None]
    if not known:
        return []
    margin = BREAK_SHARE * (max(known) - min(known))
    breaks = []
    for index, value in enumerate(values):
        if value is None:
            continue
        ahead = [later for later in values[index + 1 :] if later is not None][:BREAK_AHEAD]
        if ahead and value - statistics.median(ahead) > margin:
            breaks.append(index)
    return breaks
