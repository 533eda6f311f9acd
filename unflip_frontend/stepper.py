"""The stepper of --step: a solution's cards one at a time in the terminal, the current card redrawn in
place; → or n shows the next, ← or p the previous, q (or end of input) leaves it. Part of the command
layer, as it reads keys and draws."""

from __future__ import annotations

import contextlib
import os
import select
import sys
import termios
import tty
from collections.abc import Iterator

from rich.console import Console
from rich.live import Live
from rich.text import Text

from .render import Glyphs

NEXT = {"\x1b[C", "\x1bOC", "n", "N"}  # the right arrow, in both of the modes a terminal may send it in
PREVIOUS = {"\x1b[D", "\x1bOD", "p", "P"}
QUIT = {"q", "Q", ""}  # "" is the end of input


def interactive(console: Console) -> bool:
    """Keys can be read and a card redrawn: both ends are a terminal."""
    return console.is_terminal and sys.stdin.isatty()


@contextlib.contextmanager
def keys_unbuffered(fd: int) -> Iterator[None]:
    """Each key as it is pressed, not echoed; the terminal's own settings back however we leave (Ctrl-C
    still interrupts)."""
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def read_key(fd: int) -> str:
    """One key: a character, or a whole escape sequence, which arrives in one burst (a lone Escape
    does not wait for more)."""
    data = os.read(fd, 1)
    if data == b"\x1b":
        while len(data) < 8 and select.select([fd], [], [], 0.05)[0]:
            data += os.read(fd, 1)
            if data[-1:].isalpha() and len(data) > 2:
                break
    return data.decode("utf-8", "replace")


def footer(index: int, count: int, glyphs: Glyphs) -> Text:
    left, right = glyphs.arrows
    return Text(f"card {index + 1} of {count}  {left}/p previous  {right}/n next  q quit", style="dim")


def framed(cards: list[Text], index: int, glyphs: Glyphs) -> Text:
    """A card as the stepper shows it: the footer with the keys below it."""
    return Text("\n").join([cards[index], Text(), footer(index, len(cards), glyphs)])


def tallest(cards: list[Text], console: Console, glyphs: Glyphs) -> int:
    """The lines the tallest framed card takes on this console, its lines wrapped at the console's width:
    one taller than the screen is shown with its bottom cut off, as Live crops what it redraws in place (a
    31×31 card is 36 lines)."""
    return max(
        len(console.render_lines(framed(cards, index, glyphs), console.options, pad=False))
        for index in range(len(cards))
    )


def step_through(cards: list[Text], console: Console, glyphs: Glyphs) -> None:
    """Show the cards one at a time until q; the last card shown stays on the screen."""
    fd = sys.stdin.fileno()
    index = 0
    with keys_unbuffered(fd), Live(console=console, auto_refresh=False, redirect_stdout=False) as live:
        while True:
            live.update(framed(cards, index, glyphs), refresh=True)
            key = read_key(fd)
            if key in QUIT:
                live.update(cards[index], refresh=True)  # the keys are no use once it has ended
                return
            if key in NEXT:
                index = min(index + 1, len(cards) - 1)
            elif key in PREVIOUS:
                index = max(index - 1, 0)
