"""The command line: a click group whose default command keeps the positional forms working, its
options and their types, shell completion, and the mapping of errors to exit statuses. What the commands
do is in commands.py, what they print in outputs.py."""

from __future__ import annotations

import contextlib
import math
import os
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import click

from . import __version__, api
from .boards import MAX_SIZE, MIN_SIZE, SCHEMES, SYMMETRY_GROUPS, TRI, Board
from .books import (
    BOOK_FILES,
    Book,
    Level,
    book_text,
    load_source,
    parse_book,
    pick_level,
    source_file,
    two_colour_only,
)
from .commands import (
    annotate_book,
    certify_levels,
    give_hint,
    make_book,
    share_level,
    solve_all,
    solve_single,
)
from .errors import ClusterError, InputError, OutputError, SolverError, likely_meant, whole_number
from .files import (
    STANDARD_STREAM,
    Output,
    check_outputs,
    same_file,
    writable_folder,
    writable_target,
    write_atomically,
)
from .layout import find_layout
from .option_values import FIGURE_NAMES, GAME_PAGE, PREFERENCES
from .outputs import Outputs, Stream, choose_outputs, stream_in_words
from .render import Glyphs
from .solver import (
    MAX_NODES,
    MAX_SOLUTIONS,
    MAX_THREADS,
    SECONDS_RANGE,
    TARGETS,
    SolverSettings,
    signals_stop_the_run,
)
from .terminal import (
    EXIT_CLUSTER,
    EXIT_INPUT,
    EXIT_OK,
    EXIT_OUTPUT,
    EXIT_SOLVER,
    Terminal,
    interruption,
    output_closed,
)

# The certificates, the generator, certificate_check, hints, links, webbrowser and click's completion are
# loaded inside the commands that use them: a solve does not pay for their import
# (tests/frontend/test_solving.py).
if TYPE_CHECKING:  # Dask is an optional extra: cluster.py is imported only when --dask asks for it
    from click.shell_completion import CompletionItem

    from .book_certificates import CertificateFolder
    from .cluster import Cluster
    from .generator import Shapes


class Run:
    """One invocation: its terminal, and the stream its command chose from its options, where every
    failure goes (until a command has chosen, the stream its words name)."""

    def __init__(self, words: list[str]) -> None:
        self.words = words
        self.terminal = Terminal()
        self.stream: Stream | None = None

    def choose(self, given: dict[str, bool | str | None], glyphs: Glyphs) -> Outputs:
        """The outputs the options given ask for ({option: value}); failures from here on go to their
        stream."""
        outputs = choose_outputs(self.terminal, glyphs, given)
        self.stream = outputs.stream
        return outputs

    def fail(self, message: str, code: int = EXIT_INPUT, label: str = "error") -> NoReturn:
        (self.stream or stream_in_words(self.terminal, self.words)).fail(message, code, label)


def invocation(ctx: click.Context) -> str:
    """How the user ran us, for the examples in the help: `unflip` installed, `python unflip.py` from a
    checkout."""
    name = ctx.find_root().info_name or "unflip"
    return f"python {name}" if name.endswith(".py") else name


def filled(help_text: str, ctx: click.Context) -> str:
    """Help texts write `{prog}` where an example names the program, and `{sides}` for the sides a board may
    have (the solver's contract's)."""
    return help_text.replace("{prog}", invocation(ctx)).replace("{sides}", f"{MIN_SIZE} to {MAX_SIZE}")


class Command(click.Command):
    def get_help(self, ctx: click.Context) -> str:
        return filled(super().get_help(ctx), ctx)


class DefaultCommandGroup(click.Group):
    """A command group that keeps the positional forms working as more commands are added: an unknown
    first word (a book name, a file, '-', or an option) goes to the default command, unless it is a near
    miss of a command's name; --help shows the default command's options with the list of commands. Every
    error is one line on standard error."""

    default_command = "solve"

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.commands)  # the default command first, then in the order they are defined

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        # --version answers alone wherever it stands among the options ('--json --version' too).
        options = args[: args.index("--")] if "--" in args else args
        if "--version" in options:
            args = ["--version"]
        if args and self.goes_to_default(ctx, args[0]):
            args = [self.default_command, *args]
        return super().parse_args(ctx, args)

    def goes_to_default(self, ctx: click.Context, word: str) -> bool:
        if word in self.commands:
            return False
        if word.startswith("-"):
            return word not in {name for param in self.get_params(ctx) for name in param.opts}
        if ctx.resilient_parsing or word in BOOK_FILES or os.path.exists(word):  # no error for a long name
            return True
        # A word like no book and no file, but like a command, is a mistyped command ('genrate --size 5'),
        # which the default command would answer with a misleading complaint about --size.
        command = likely_meant(word, self.commands)
        if command and not likely_meant(word, BOOK_FILES):
            raise click.UsageError(f"No such command '{word}'. Did you mean '{command}'?", ctx)
        return True

    def get_help(self, ctx: click.Context) -> str:
        return filled(super().get_help(ctx), ctx)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        command = self.commands[self.default_command]
        sub = click.Context(command, info_name=ctx.info_name, help_option_names=ctx.help_option_names)
        command.format_usage(sub, formatter)
        command.format_help_text(sub, formatter)
        command.format_options(sub, formatter)
        self.format_commands(ctx, formatter)
        command.format_epilog(sub, formatter)

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        """The first word is a command or the default command's source: offer both."""
        source = next(param for param in self.commands[self.default_command].params if param.name == "source")
        # Sources first: bash's completion script starts over at a 'file' item.
        return source.shell_complete(ctx, incomplete) + super().shell_complete(ctx, incomplete)

    def main(self, *args: Any, **kwargs: Any) -> NoReturn:
        # A usage error comes before any command has read its options: the words say where it goes then.
        run = Run(list(kwargs.get("args") or (args[0] if args else None) or sys.argv[1:]))
        kwargs["standalone_mode"] = False
        kwargs["obj"] = run
        try:
            with signals_stop_the_run():
                super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as exc:
            exc.show()
            raise SystemExit(exc.exit_code) from None
        except click.NoSuchOption as exc:
            run.fail(self.no_such_option(exc), exc.exit_code)
        except click.ClickException as exc:
            run.fail(exc.format_message() + help_pointer(getattr(exc, "ctx", None)), exc.exit_code)
        except (click.Abort, KeyboardInterrupt) as exc:
            # click turns Ctrl-C, and SIGTERM or SIGHUP (solver.py), into Abort; by now any solver we started
            # has been stopped and reaped.
            run.fail(
                *interruption(exc.__cause__ if isinstance(exc, click.Abort) else exc), label="interrupted"
            )
        except OutputError as exc:
            # Past the stream, which would only try standard output again.
            run.terminal.leave(str(exc), EXIT_OUTPUT)
        except BrokenPipeError:
            output_closed(sys.stdout)
        except OSError as exc:
            # Every module turns its own file errors into InputError or SolverError, so what arrives here is
            # click's writing of --help or --version.
            run.terminal.leave(f"cannot write standard output: {exc.strerror or exc}", EXIT_OUTPUT)
        except InputError as exc:
            run.fail(str(exc), EXIT_INPUT)
        except SolverError as exc:
            run.fail(str(exc), EXIT_SOLVER)
        except ClusterError as exc:
            run.fail(str(exc), EXIT_CLUSTER)
        raise SystemExit(EXIT_OK)

    def no_such_option(self, exc: click.NoSuchOption) -> str:
        """An option the command does not have: the one of its own it most likely stands for, or, when it is
        another command's ('hint --count'), whose it is. click's own guess is looser ('--count' for
        '--json')."""
        context = exc.ctx
        command = context.command if context else None
        message = f"No such option '{exc.option_name}'"
        if command is not None and context is not None:
            own = [name for param in command.get_params(context) for name in param.opts]
            guess = likely_meant(exc.option_name, own)
            elsewhere = [
                name
                for name, other in self.commands.items()
                if other is not command and any(exc.option_name in param.opts for param in other.params)
            ]
            if guess:
                message += f". Did you mean '{guess}'?"
            elif elsewhere:
                default = " (the default command)" if elsewhere[0] == self.default_command else ""
                message += f" for {command.name}: it is an option of {elsewhere[0]}{default}"
        return message + help_pointer(context)


def help_pointer(context: click.Context | None) -> str:
    """Where to read on after a usage error: the help of the command it was given to. The top-level help is
    the default command's, whose forms are typed without its name."""
    if context is None:
        return ""
    root = context.find_root()
    own_help = (
        context.command is not root.command and context.command.name != DefaultCommandGroup.default_command
    )
    return f" (see '{(context if own_help else root).command_path} --help')"


class RangeType(click.ParamType[tuple[int, int], str | tuple[int, int]]):
    """'7' or '4-10': an inclusive range of whole numbers within fixed limits."""

    name = "range"

    def __init__(self, smallest: int, largest: int) -> None:
        self.smallest, self.largest = smallest, largest

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return "N|A-B"

    def convert(
        self, value: str | tuple[int, int], param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[int, int]:
        if isinstance(value, tuple):  # click may convert a value twice
            return value
        low, dash, high = value.partition("-")
        first, last = whole_number(low), whole_number(high if dash else low)
        if first is None or last is None:  # '4-' too: a range is written whole
            self.fail(f"expected N or A-B, not {value!r}", param, ctx)
        if not self.smallest <= first <= last <= self.largest:
            self.fail(f"{value!r} is not a range within {self.smallest}-{self.largest}", param, ctx)
        return first, last


class ShapesType(click.ParamType["Shapes", "str | Shapes"]):
    """'7' or '4-10' for square boards; 'HxW' for H rows of W tiles, where either side may be a range
    ('5-7x8-12'), the height and the width then drawn apart."""

    name = "size"

    def __init__(self) -> None:
        self.side = RangeType(MIN_SIZE, MAX_SIZE)

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return "N|A-B|HxW"

    def convert(
        self, value: str | Shapes, param: click.Parameter | None, ctx: click.Context | None
    ) -> Shapes:
        from .generator import Shapes  # loaded only when generate reads its --size

        if isinstance(value, Shapes):  # click may convert a value twice
            return value
        sides = re.split(r"[x×X]", value)
        if len(sides) > 2 or not all(sides):
            self.fail(f"expected N, A-B or HxW, not {value!r}", param, ctx)
        ranges = [self.side.convert(side, param, ctx) for side in sides]
        return Shapes(*ranges)


class GroupsType(click.ParamType[tuple[str, ...], str | tuple[str, ...]]):
    """One symmetry group's name, or several separated by commas, one drawn for each level."""

    name = "group"

    def get_metavar(self, param: click.Parameter, ctx: click.Context) -> str:
        return "GROUP[,GROUP...]"

    def convert(
        self, value: str | tuple[str, ...], param: click.Parameter | None, ctx: click.Context | None
    ) -> tuple[str, ...]:
        if isinstance(value, tuple):  # click may convert a value twice
            return value
        groups = tuple(value.split(","))
        unknown = next((group for group in groups if group not in SYMMETRY_GROUPS), None)
        if unknown is not None:
            self.fail(f"{unknown!r} is not a group; the groups are {', '.join(SYMMETRY_GROUPS)}", param, ctx)
        return groups


class Seconds(click.FloatRange):
    """The solver's range of seconds; click's FloatRange lets NaN through every bound."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return seconds


def complete_source(_ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Files, and the shipped books by name."""
    from click.shell_completion import CompletionItem  # loaded only when a shell completes a word

    books = [
        CompletionItem(name, help="a shipped book") for name in BOOK_FILES if name.startswith(incomplete)
    ]
    return [CompletionItem(incomplete, type="file"), *books]


F = TypeVar("F", bound=Callable[..., Any])

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 110}

# What --dask means given alone: a cluster started here.
LOCAL_CLUSTER = "local"

# Every command that runs the solver takes the same --threads.
threads_option = click.option(
    "--threads",
    metavar="T",
    type=click.IntRange(1, MAX_THREADS),
    help="\b\nSolver worker threads (default: all cores).\nExample: --threads 2",
)


# annotate's and generate's certificates: a folder of them, one a level.
certificate_folder_option = click.option(
    "--certificate",
    "certificate_folder",
    metavar="DIR",
    type=click.Path(),  # checked by writable_folder, which says what is wrong in the words of files.py
    help="\b\nAlso write each level's certificate of optimality\n"
    "into the folder DIR (made if missing): DIR/007.cert\nfor level 7, for '{prog} check-certificate'.\n"
    "Example: --certificate certs",
)
gzip_option = click.option(
    "--gzip",
    "gzipped",
    is_flag=True,
    help="\b\nWith --certificate: gzip each one (DIR/007.cert.gz).\nExample: --certificate certs --gzip",
)


CERTIFICATE_HERE = "--certificate is written by a search on this machine: drop --dask"


def certificates_asked(folder: str | None, gzipped: bool, dask: str | None) -> CertificateFolder | None:
    """--certificate DIR and --gzip, checked before any work."""
    if folder is not None and dask is not None:
        raise InputError(CERTIFICATE_HERE)
    if folder is None:
        if gzipped:
            raise InputError("--gzip is for the certificates of --certificate DIR: give that too")
        return None
    from .book_certificates import CertificateFolder  # loaded only when certificates are asked for

    return CertificateFolder(writable_folder(folder, "--certificate"), folder, gzipped)


def certificate_outputs(certificates: CertificateFolder | None, count: int) -> list[Output]:
    """The files --certificate DIR may write for a book of count levels, for check_outputs to compare with
    the run's input and its other outputs; of a folder still to be made, the folder itself."""
    if certificates is None:
        return []
    if not certificates.folder.is_dir():
        return [Output("--certificate", certificates.shown)]
    from .book_certificates import certificate_name  # loaded only when certificates are asked for

    return [
        Output(
            "--certificate",
            os.path.join(certificates.shown, certificate_name(number, count, certificates.gzipped)),
        )
        for number in range(1, count + 1)
    ]


# The options solve and hint share.
source_argument = click.argument("source", metavar="SOURCE", shell_complete=complete_source)
level_argument = click.argument("level_number", metavar="[LEVEL]", type=int, required=False)
books_option = click.option(
    "--books",
    metavar="DIR",
    envvar="UNFLIP_BOOKS",
    type=click.Path(file_okay=False),
    help="\b\nFolder of the daily, main and weekly books (default:\n"
    "the shipped books; env UNFLIP_BOOKS).\nExample: --books ../shared/books",
)
ascii_option = click.option(
    "--ascii",
    "ascii_",
    is_flag=True,
    help="\b\nPlain ASCII: '.' white, '#' black, +---+ outlines.\nExample: {prog} board.txt --ascii",
)
no_color_option = click.option(
    "--no-color",
    is_flag=True,
    help="\b\nNo colours; setting NO_COLOR does the same.\nExample: {prog} daily 5 --no-color",
)
scheme_option = click.option(
    "--scheme",
    type=click.Choice(list(SCHEMES)),
    help="\b\nA text board's colours: tri reads the game's three-\ncolour tiles 1 cream, 2 blue, 3 red "
    "(a first\nline 'scheme tri' says it too; a link or a book says\nits own).\n"
    "Example: {prog} board.txt --scheme tri",
)
target_option = click.option(
    "--target",
    type=click.Choice(list(TARGETS)),
    default="0",
    show_default=True,
    help="\b\nColour every tile must end as: 0 or white (the game's\n"
    "goal), 1 or black, or either (whichever is fewer moves).\nExample: --target either",
)
max_seconds_option = click.option(
    "--max-seconds",
    metavar="S",
    type=Seconds(*SECONDS_RANGE),
    help="\b\nGive up after S seconds and report the proven lower\n"
    "bound (exit status 3).\nExample: --max-seconds 60",
)
max_nodes_option = click.option(
    "--max-nodes",
    metavar="N",
    type=click.IntRange(1, MAX_NODES),
    help="\b\nGive up after N search nodes and report the proven\n"
    "lower bound (exit status 3).\nExample: --max-nodes 1000000",
)


def json_option(example: str) -> Callable[[F], F]:
    return click.option(
        "--json",
        "json_",
        is_flag=True,
        help="\b\nJSON records on standard output, one a line, for\nscripts (docs/usage.md, JSON output).\n"
        f"Example: {example}",
    )


def dask_option(what: str, example: str) -> Callable[[F], F]:
    return click.option(
        "--dask",
        metavar="[ADDRESS]",
        is_flag=False,
        flag_value=LOCAL_CLUSTER,
        help=f"\b\n{what}\n(pip install 'unflip[dask]'): the scheduler at\n"
        "ADDRESS, or with none, one started on this\nmachine's cores (--threads: how many).\n"
        f"Example: {example}",
    )


@click.group(cls=DefaultCommandGroup, context_settings=CONTEXT, no_args_is_help=True)
@click.version_option(__version__, "--version", prog_name="unflip", message="%(prog)s %(version)s")
def cli() -> None:
    """Solve Unflip boards in the fewest moves."""


@cli.command(
    cls=Command,
    context_settings=CONTEXT,
    short_help="Solve a level or a board (the default: 'daily 5' means 'solve daily 5').",
    epilog="Exit status: 0 solved and verified (with --all: every level, at par); 1 unsolvable (with --all: "
    "the book is wrong on a level, its par or a stored solution); 2 bad input; 3 stopped by budget (with "
    "--all: a level, and the book wrong on none); 4 solver failure (with --all: on any level); 5 standard "
    "output could not be written; 6 the Dask scheduler of --dask unreachable or gone; 130 interrupted "
    "(Ctrl-C), 143 and 129 stopped by SIGTERM and SIGHUP; 141 the output's reader went away (| head).",
)
@source_argument
@level_argument
# Option help is laid out by hand ("\b" keeps click from rewrapping) so an example is never split at a hyphen.
@click.option(
    "--list",
    "list_",
    is_flag=True,
    help="\b\nList the levels of a book: number, size, par, title.\nExample: {prog} daily --list",
)
@click.option(
    "--all",
    "all_",
    is_flag=True,
    help="\b\nSolve every level and print a summary table; exit 0\n"
    "only if all are solved, verified and at par.\nExample: {prog} main --all",
)
@books_option
@scheme_option
@click.option(
    "--compact",
    is_flag=True,
    help="\b\nPrint the move list only, no boards.\nExample: {prog} daily 5 --compact",
)
@ascii_option
@no_color_option
@json_option("{prog} daily 5 --json")
@click.option(
    "--step",
    is_flag=True,
    help="\b\nStep through the cards in the terminal: right arrow\n"
    "or n next, left arrow or p back, q quits.\nExample: {prog} daily 5 --step",
)
@click.option(
    "--svg",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="\b\nAlso draw the walkthrough as one SVG picture.\nExample: --svg daily5.svg",
)
@click.option(
    "--html",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="\b\nAlso write the walkthrough as one page to step\n"
    "through in a browser.\nExample: --html daily5.html",
)
@click.option(
    "--all-solutions",
    is_flag=True,
    help="\b\nEvery optimal solution, one numbered line each, and\nhow many there are.\n"
    "Example: {prog} daily 5 --all-solutions",
)
@click.option(
    "--count",
    is_flag=True,
    help="\b\nOnly how many optimal solutions there are ('unique'\n"
    "when one); with --all, a column of them.\nExample: {prog} daily --all --count",
)
@click.option(
    "--certificate",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="\b\nAlso write a proof that no solution is shorter (or,\nunsolvable, that there is none), for\n"
    "'{prog} check-certificate' (gzipped when FILE ends\nin .gz).\nExample: --certificate daily5.cert.gz",
)
@click.option(
    "--signals",
    is_flag=True,
    help="\b\nHow hard the level feels, by the game's own measures,\nover its optimal solutions: "
    "Eric number, obvious\nscore, root bound and gap, symmetry "
    "(docs/designer.md).\nExample: {prog} daily 5 --signals",
)
@click.option(
    "--max-solutions",
    metavar="K",
    type=click.IntRange(1, MAX_SOLUTIONS),
    help="\b\nWith --all-solutions, --count or --signals: stop at K\n"
    "solutions and say there may be more.\nExample: --max-solutions 10",
)
@threads_option
@target_option
@max_seconds_option
@max_nodes_option
@dask_option("Search on a Dask cluster", "{prog} big.txt --dask tcp://HOST:8786")
@click.pass_obj
def solve(
    run: Run,
    source: str,
    level_number: int | None,
    list_: bool,
    all_: bool,
    books: str | None,
    scheme: str | None,
    compact: bool,
    ascii_: bool,
    no_color: bool,
    json_: bool,
    step: bool,
    svg: str | None,
    html: str | None,
    all_solutions: bool,
    count: bool,
    certificate: str | None,
    signals: bool,
    max_solutions: int | None,
    threads: int | None,
    target: str,
    max_seconds: float | None,
    max_nodes: int | None,
    dask: str | None,
) -> None:
    """Solve Unflip boards in the fewest moves, proven optimal, and print each move as a step card.

    SOURCE is a book name (daily, main, weekly), a book file in the game's JSON format, a text board
    (H lines of W digits, {sides} each, square or not; 0/1 with 0 = white, or 1/2 with 1 = white; the
    digits of a line may be separated by spaces or commas, and a board this program printed reads back as
    itself), - for standard input, or a game link (…?custom=s_W_H$m_2$v$…, or the part after custom=).
    Three-colour (tri) levels come from m_3 links, books with "colorScheme": "tri", and text boards
    whose first line is 'scheme tri' (or --scheme tri), in the game's digits 1 cream, 2 blue, 3 red.
    LEVEL is a level number in a book, counting from 1.

    \b
    Examples:
      {prog} daily 5              solve daily level 5, print step cards
      {prog} daily 5 --count      how many optimal solutions ("unique": one)
      {prog} hint daily 5         one move of an optimal solution, no more
      {prog} weekly 20            a weekly challenge
      {prog} daily --list         the levels of a book: number, size, par, title
      {prog} weekly --all         solve every level, print a summary table
      {prog} board.txt            a text board
      {prog} - < board.txt        a board (or a book) on standard input
      {prog} path/to/book.json 3  any book file in the game's format

    Environment: UNFLIP_BOOKS (as --books), NO_COLOR (as --no-color), UNFLIP_SOLVER (run this solver
    executable instead of building one), XDG_CACHE_HOME (where an installed unflip builds its solver).
    """
    if no_color:
        run.terminal.disable_colour()
    given = {"--json": json_, "--step": step, "--compact": compact, "--svg": svg, "--html": html}
    outputs = run.choose(given, run.terminal.glyphs(ascii_))
    optima = check_optima_options(all_solutions, count, max_solutions, list_, all_, signals)
    if step and (json_ or compact):
        raise InputError("--step shows the cards one at a time: drop --json and --compact")
    if optima and outputs.one_solution:
        raise InputError(f"{outputs.one_solution[0]} shows one solution: drop --all-solutions and --count")
    check_certificate_options(certificate, optima, list_, all_, dask)
    if signals and certificate is not None:
        raise InputError("--signals lists every optimum, --certificate proves one: give one of them")
    if signals and dask is not None:
        raise InputError("--signals lists every optimum here: drop --dask")
    settings = SolverSettings(
        TARGETS[target], threads, max_seconds, max_nodes, optima is not None or signals, max_solutions
    )
    check_walkthrough_files(source, books, outputs, certificate)
    loaded = load_source(source, books, scheme)
    two_colour_only(
        loaded, ("--target 1 or either", target not in ("0", "white")), ("--certificate", bool(certificate))
    )
    two_colour_only(loaded, ("--signals", signals))
    if (list_ or all_) and outputs.one_solution:
        raise InputError(f"{outputs.one_solution[0]} shows one solution: give a level, not --list or --all")
    if dask is not None and optima and not all_:
        raise InputError("--dask searches for one optimal solution: drop --all-solutions and --count")
    cluster = click.get_current_context().with_resource(open_cluster(dask, threads))
    if isinstance(loaded, Level):
        if list_ or all_ or level_number is not None:
            raise InputError(f"{source} is a single board: drop the level number, --list and --all")
        solve_single(loaded, settings, outputs, optima, certificate, cluster, signals)
    elif sum((list_, all_, level_number is not None)) != 1:
        raise InputError(
            f"{loaded.name} is a book: give one of a level number (1–{len(loaded.levels)}), --list or --all"
        )
    elif list_:
        outputs.stream.levels(loaded)
    elif all_:
        solve_all(loaded, settings, outputs.stream, optima == "count", cluster)
    elif level_number is not None:
        level = pick_level(loaded, level_number)
        solve_single(level, settings, outputs, optima, certificate, cluster, signals)


@contextlib.contextmanager
def open_cluster(dask: str | None, threads: int | None) -> Iterator[Cluster | None]:
    """The cluster --dask names (None without it), closed however the run ends. Dask is an optional extra,
    imported only here."""
    if dask is None:
        yield None
        return
    if dask != LOCAL_CLUSTER and threads is not None:
        raise InputError("--threads sizes the cluster a bare --dask starts here: drop it, or the ADDRESS")
    if dask != LOCAL_CLUSTER and "://" not in dask and ":" not in dask:
        raise InputError(
            f"--dask takes a scheduler's address such as tcp://HOST:8786, not {dask!r}; "
            "give a bare --dask after the level, or --dask=ADDRESS"
        )
    try:
        from .cluster import Cluster
    except ImportError as exc:
        raise InputError(f"--dask needs Dask ({exc}): pip install 'unflip[dask]'") from None
    with Cluster(None if dask == LOCAL_CLUSTER else dask, threads) as cluster:
        yield cluster


def check_optima_options(
    all_solutions: bool, count: bool, max_solutions: int | None, list_: bool, all_: bool, signals: bool
) -> str | None:
    """What --all-solutions, --count and --max-solutions ask for together: "list", "count" or neither.
    --count has the solver list the solutions too, so that each one counted is replayed first; so does
    --signals, which measures one level's optima."""
    if all_solutions and count:
        raise InputError("give --all-solutions or --count, not both")
    optima = "list" if all_solutions else "count" if count else None
    if max_solutions is not None and optima is None and not signals:
        raise InputError("--max-solutions caps --all-solutions, --count or --signals: give one of them")
    if signals and (list_ or all_):
        raise InputError("--signals measures one level: give a level, not --list or --all")
    if optima and list_:
        raise InputError("--list reads the book without solving: drop --all-solutions and --count")
    if optima == "list" and all_:
        raise InputError(
            "--all-solutions lists one level's solutions: give a level number, or count each level's "
            "with --all --count"
        )
    return optima


def text_seed(seed: str) -> str:
    """The seed is recorded in the book, which is UTF-8 text: bytes that are not (a shell's $'\\xff'
    arrive as lone surrogates) cannot be."""
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        raise click.BadParameter("it must be text (UTF-8), since every level records it") from None
    return seed


def check_certificate_options(
    certificate: str | None, optima: str | None, list_: bool, all_: bool, dask: str | None
) -> None:
    """A certificate proves one level's one solution optimal, and goes to a file of its own; the search
    that writes it runs here, not on a cluster."""
    if certificate is None:
        return
    if dask is not None:
        raise InputError(CERTIFICATE_HERE)
    if optima:
        raise InputError("--certificate proves one solution optimal: drop --all-solutions and --count")
    if list_ or all_:
        raise InputError("--certificate is for one level: give a level, not --list or --all")
    if certificate == STANDARD_STREAM:
        raise InputError("--certificate needs a file name: standard output shows the solution")


def check_walkthrough_files(
    source: str, books: str | None, outputs: Outputs, certificate: str | None = None
) -> None:
    """Before any work: each file a run writes is a file of its own, and not the run's input."""
    files = [Output(option, path) for option, path, _ in outputs.files]
    if certificate is not None:
        files.append(Output("--certificate", certificate))
    check_outputs(files, [source_file(source, books)])


@cli.command(
    cls=Command,
    context_settings=CONTEXT,
    short_help="One move of an optimal solution from any position, and how many moves remain.",
    epilog="Exit status: 0 a hint, or the board is already solved; 1 unsolvable; 2 bad input; 3 stopped "
    "by budget; 4 solver failure; 130, 143, 129 stopped by Ctrl-C, SIGTERM, SIGHUP.",
)
@source_argument
@level_argument
@books_option
@scheme_option
@ascii_option
@no_color_option
@json_option("{prog} hint daily 5 --json")
@click.option(
    "--prefer",
    type=click.Choice(PREFERENCES),
    help="\b\nThe move the game's own hint would pick: of every\noptimal solution's moves, the one "
    "leaving the least\nEric number (or obvious score) to play after it.\nExample: {prog} hint daily 5 "
    "--prefer eric",
)
@target_option
@max_seconds_option
@max_nodes_option
@click.pass_obj
def hint(
    run: Run,
    source: str,
    level_number: int | None,
    books: str | None,
    scheme: str | None,
    ascii_: bool,
    no_color: bool,
    json_: bool,
    prefer: api.Prefer | None,
    target: str,
    max_seconds: float | None,
    max_nodes: int | None,
) -> None:
    """One move that belongs to an optimal solution from the board as it is, and how many moves remain
    after it, drawn as a step card: nothing more of the solution is shown.

    SOURCE and LEVEL are as for solving: a level of a book, or a text board, such as a game in progress,
    in a file or on standard input (-). The hint is the first, in reading order (top row first, then
    left), of the moves of an optimal solution the solver finds on one thread, so the same position always
    gets the same hint. With --prefer, it is the move the game's own hint rule picks from every optimal
    solution (docs/designer.md), the same on every run too.

    \b
    Examples:
      {prog} hint daily 5         the first hint of daily level 5
      {prog} hint position.txt    a hint for a game in progress
      {prog} hint - < position.txt
    """
    if no_color:
        run.terminal.disable_colour()
    stream = run.choose({"--json": json_}, run.terminal.glyphs(ascii_)).stream
    from .hints import hint_settings  # loaded only when it runs

    level = chosen_level(source, level_number, books, scheme)
    two_colour_only(
        level, ("--target 1 or either", target not in ("0", "white")), ("--prefer", prefer is not None)
    )
    give_hint(level, hint_settings(TARGETS[target], max_seconds, max_nodes), stream, prefer)


@cli.command(
    "check-certificate",
    cls=Command,
    context_settings=CONTEXT,
    short_help="Check a certificate of optimality with the independent checker.",
    epilog="Exit status (the checker's own): 0 VALID; 1 INVALID, the certificate proves nothing about the "
    "board and target; 2 a board or certificate that cannot be read (the checker's caps included).",
)
@source_argument
@click.argument("words", metavar="[LEVEL] CERTIFICATE", nargs=-1, required=True)
@books_option
@click.option(
    "--target",
    type=click.Choice(list(TARGETS)),
    default="0",
    show_default=True,
    help="\b\nThe target the certificate must prove: 0 or white (the\n"
    "game's goal), 1 or black, or either (the fewest moves to\neither colour: a certificate of "
    "--target either).\nExample: --target 1",
)
@click.pass_obj
def check_certificate(run: Run, source: str, words: tuple[str, ...], books: str | None, target: str) -> None:
    """Check that a certificate (written by --certificate, as it is or gzipped) proves its solution
    optimal for the board and the target: the solution reaches the target, and no solution has fewer
    moves. Prints 'VALID k (target t)' ('VALID unsolvable (target t)' for the proof that no moves reach
    it), and for a book's level whether k is its par; or 'INVALID: ' and the first thing found wrong, a
    certificate for another target among them.

    SOURCE and LEVEL are as for solving. The check is unflip_frontend/certificate_check.py's, which
    shares nothing with the solver or the search: `python unflip_frontend/certificate_check.py BOARD
    CERTIFICATE` runs the same check on a text board with the standard library alone
    (docs/certificates.md).

    \b
    Examples:
      {prog} daily 5 --certificate daily5.cert.gz
      {prog} check-certificate daily 5 daily5.cert.gz
      {prog} check-certificate board.txt board.cert --target 1
    """
    level_number = whole_number(words[0]) if len(words) == 2 else None
    if len(words) > 2 or (len(words) == 2 and level_number is None):
        raise InputError("give SOURCE, a LEVEL for a book, and the CERTIFICATE file")
    loaded = load_source(source, books)
    two_colour_only(loaded, ("check-certificate", True))
    if isinstance(loaded, Level):
        if len(words) == 2:
            raise InputError(f"{source} is a single board: drop the level number")
        level = loaded
    elif level_number is None:
        raise InputError(f"{loaded.name} is a book: give a level number (1–{len(loaded.levels)})")
    else:
        level = pick_level(loaded, level_number)
    from . import certificate_check  # loaded only when it runs

    asked = TARGETS[target]
    try:
        proven = certificate_check.check_board([list(row) for row in level.board], words[-1], asked)
    except certificate_check.Unreadable as exc:
        raise InputError(f"cannot read the certificate {words[-1]}: {exc}") from None
    except certificate_check.Invalid as exc:
        run.terminal.write(f"INVALID: {exc}\n")
        raise SystemExit(certificate_check.EXIT_INVALID) from None
    run.terminal.write(f"VALID {proven} (target {asked}){par_comparison(level, asked, proven)}\n")


def par_comparison(level: Level, target: str, proven: int | str) -> str:
    """What a book level's par is beside the optimum a certificate proves: the par is the game's goal's,
    so a proof for another target says nothing of it, and one that differs proves the par wrong."""
    if level.par is None:
        return ""
    if target != "0":
        return f"; the level's par, {level.par}, is for target 0"
    if proven == level.par:
        return ", the level's par"
    return f", not the level's par {level.par}: the par is wrong"


@cli.command(
    cls=Command,
    context_settings=CONTEXT,
    short_help="Make a book of new levels whose par is the proven optimum.",
    epilog="The same options give the same book, byte for byte. Exit status: 0 written; 2 bad options "
    "or a plan no level fits; 4 solver failure; 130, 143, 129 stopped by Ctrl-C, SIGTERM, SIGHUP (nothing "
    "is written).",
)
@click.option(
    "--size",
    "shapes",
    type=ShapesType(),
    default="4-10",
    show_default=True,
    help=f"\b\nSquare boards N×N ({MIN_SIZE}-{MAX_SIZE}), or a range A-B drawn from;\n"
    "HxW for H rows of W tiles, each side N or A-B drawn\napart. Example: --size 7x10, --size 5-7x8-12",
)
@click.option(
    "--optimum",
    type=RangeType(1, 200),
    default="3-16",
    show_default=True,
    help="\b\nAccepted optimum (par), N or A-B.\nExample: --optimum 12-20",
)
@click.option(
    "--symmetric",
    "symmetries",
    type=GroupsType(),
    help="\b\nOnly boards the group maps to themselves: mirror\n(left-right), mirror-ud, "
    "half-turn, mirrors (both),\ndiagonal, antidiagonal, diagonals (both), quarter-turn,\n"
    "square (all eight); a rectangle has the first four.\nSeveral, comma-separated: one drawn a level.\n"
    "Example: --symmetric half-turn,square",
)
@click.option(
    "--unique",
    is_flag=True,
    help="\b\nOnly levels with one optimal solution (one set of\nmoves).\nExample: --unique",
)
@click.option(
    "--min-gap",
    metavar="G",
    type=click.IntRange(0, 200),
    default=0,
    show_default=True,
    help="\b\nOnly levels whose optimum exceeds the solver's lower\nbound at the start by G or more: "
    "optima hard to prove.\nExample: --min-gap 3",
)
@click.option(
    "--eric",
    type=RangeType(1, MAX_SIZE * MAX_SIZE + 1),
    help="\b\nOnly levels whose minEric (the least Eric number of\nany optimal solution) is N or within "
    "A-B.\nExample: --eric 20-40",
)
@click.option(
    "--obv",
    type=RangeType(0, 100),
    help="\b\nOnly levels whose obv×100 (the least obvious score of\nany optimal solution, ×100: 0 to "
    "100) is N or\nwithin A-B.\nExample: --obv 15-30",
)
@click.option(
    "--order-by",
    type=click.Choice(FIGURE_NAMES),
    help="\b\nOrder the book by a figure, rising: par, eric\n(minEric), obv (obv×100) or gap "
    "(optimum less the\nlower bound at the start).\nExample: --order-by eric",
)
@click.option(
    "--count",
    default=10,
    show_default=True,
    type=click.IntRange(1, 10000),
    help="\b\nNumber of levels.\nExample: --count 30",
)
@click.option(
    "--seed",
    default="1",
    show_default=True,
    callback=lambda _ctx, _param, seed: text_seed(seed),
    help="\b\nAny text; each level records the seed that remakes it.\nExample: --seed 42",
)
@click.option(
    "--scheme",
    type=click.Choice(list(SCHEMES)),
    default="two",
    show_default=True,
    help="\b\nThe levels' colours: tri makes the game's three-colour\nlevels (colorScheme tri; the game "
    "opens them from\nan m_3 link, not from a book).\nExample: --scheme tri",
)
@click.option(
    "--kind",
    type=click.Choice(["daily", "main", "weekly"]),
    default="daily",
    show_default=True,
    help="\b\nTitles and shape of the book: main is ordered by\n"
    "difficulty, weekly levels are challenges.\nExample: --kind weekly",
)
@click.option(
    "--out",
    default="-",
    show_default=True,
    metavar="FILE",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="\b\nWhere to write the book; - is standard output.\nExample: --out mybook.json",
)
@click.option(
    "--json",
    "json_",
    is_flag=True,
    help="\b\nA JSON record of the book written, for scripts;\nneeds --out FILE.\n"
    "Example: --out mybook.json --json",
)
@certificate_folder_option
@gzip_option
@threads_option
@dask_option("Make the levels on a Dask cluster, one a task", "--dask tcp://HOST:8786")
@click.pass_obj
def generate(
    run: Run,
    shapes: Shapes,
    optimum: tuple[int, int],
    symmetries: tuple[str, ...] | None,
    unique: bool,
    min_gap: int,
    eric: tuple[int, int] | None,
    obv: tuple[int, int] | None,
    order_by: str | None,
    count: int,
    seed: str,
    scheme: str,
    kind: str,
    out: str,
    json_: bool,
    certificate_folder: str | None,
    gzipped: bool,
    threads: int | None,
    dask: str | None,
) -> None:
    """Make a book of new Unflip levels in the game's JSON format. Each level is made by random flips of
    an all-white board, so it is solvable; its par is the optimum the solver then proves.

    \b
    Examples:
      {prog} generate --size 7 --count 10 --seed 42 --out mybook.json
      {prog} generate --size 9-13 --optimum 12-18 --kind weekly --count 5
      {prog} generate --size 7x10 --count 5   7 rows of 10 tiles
      {prog} generate --size 9-13 --optimum 12-20 --symmetric half-turn,square --unique --min-gap 2
      {prog} generate --size 6-8 --eric 15-30 --obv 10-25 --order-by eric   rising in difficulty
      {prog} generate --count 5 --out mybook.json --certificate certs   certs/001.cert ... 005.cert
      {prog} generate --size 5 --count 3 --scheme tri   three-colour levels
      {prog} mybook.json --all     check every level solves at its par
    """
    stream = run.choose({"--json": json_}, run.terminal.glyphs()).stream
    if json_ and out == "-":
        raise InputError(
            "--json puts its record on standard output: write the book to a file with --out FILE"
        )
    if out != STANDARD_STREAM:
        writable_target(out)  # before the work, not after it
    certificates = certificates_asked(certificate_folder, gzipped, dask)
    check_outputs([*certificate_outputs(certificates, count), Output("--out", out)])
    from .book_certificates import Certifiable  # loaded only when it runs
    from .generator import Plan

    plan = Plan(
        kind, count, shapes, optimum, seed, symmetries or (), unique, min_gap, eric, obv, order_by, scheme
    )
    if scheme == TRI and certificates is not None:
        raise InputError("--certificate is for two-colour levels only: drop it for --scheme tri")
    cluster = click.get_current_context().with_resource(open_cluster(dask, threads))
    text = make_book((plan,), set(), threads, run.terminal, cluster)
    if certificates is not None:  # written before the book, so a book written has every certificate
        levels = parse_book(text, out).levels
        proven = [Certifiable(level.number or 0, level.name, level.board, level.par) for level in levels]
        certify_levels(proven, len(levels), certificates, threads, None, run.terminal)
    if out == "-":
        run.terminal.write(text)
        return
    write_atomically(Path(out), text)
    run.terminal.status(f"wrote {count} {kind} levels to {out}")
    stream.wrote_book(kind, seed, out, text)


@cli.command(
    cls=Command,
    context_settings=CONTEXT,
    short_help="Rebuild the three shipped books exactly (what 'make books' runs).",
)
@click.option(
    "--out",
    "folder",
    metavar="DIR",
    type=click.Path(file_okay=False),
    help="\b\nFolder to write the three books to (default: beside\n"
    "unflip.py in a checkout, else the current folder).\nExample: --out /tmp/books",
)
@threads_option
@click.pass_obj
def books(run: Run, folder: str | None, threads: int | None) -> None:
    """Rebuild daily_levels_book.json, main_levels_book.json and weekly_challenges_book.json from their
    fixed plans and seeds: the same bytes every time. No level repeats another in any of the three books,
    also under rotation and reflection."""
    from .generator import SHIPPED_BOOKS  # loaded only when it runs

    if folder is None:
        layout = find_layout()
        # An installed package's own books are not for overwriting.
        folder = "." if layout.installed else str(layout.books)
    paths = {kind: Path(folder) / BOOK_FILES[kind] for kind in SHIPPED_BOOKS}
    for path in paths.values():
        writable_target(str(path))  # before the work, not after it
    seen: set[Board] = set()
    for kind, plans in SHIPPED_BOOKS.items():
        write_atomically(paths[kind], make_book(plans, seen, threads, run.terminal))
        run.terminal.status(f"wrote {sum(plan.count for plan in plans)} {kind} levels to {paths[kind]}")


@cli.command(
    cls=Command,
    context_settings=CONTEXT,
    short_help="Write each level's proven optimum into a book, and say what the book got wrong.",
    epilog="Exit status: 0 the annotated book is written; 1 written, but a level is malformed (kept as it "
    "is); 2 bad input; 3 written, but a budget left a level unproven (its fields kept); 4 solver failure "
    "(nothing written); 130, 143, 129 stopped by Ctrl-C, SIGTERM, SIGHUP (nothing written).",
)
@click.argument("source", metavar="BOOK", shell_complete=complete_source)
@click.option(
    "--out",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="\b\nWhere to write the annotated book (not BOOK itself).\nExample: --out fixed.json",
)
@click.option(
    "--in-place",
    is_flag=True,
    help="\b\nWrite the annotated book over BOOK.\nExample: {prog} annotate mybook.json --in-place",
)
@click.option(
    "--exhaustive",
    is_flag=True,
    help="\b\nList every optimal solution of each level in solutions\n"
    "(solutionType exhaustive).\nExample: {prog} annotate mybook.json --exhaustive --out all.json",
)
@click.option(
    "--max-solutions",
    metavar="K",
    type=click.IntRange(1, MAX_SOLUTIONS),
    help="\b\nList at most K optimal solutions of a level; a level\n"
    "with more is then recorded as optimal, not exhaustive.\nExample: --max-solutions 1000",
)
@click.option(
    "--signals",
    is_flag=True,
    help="\b\nStore each level's difficulty signals (Eric number,\nobvious score, root bound, "
    'symmetry) over its optima\nunder the level\'s "_unflip" key (docs/designer.md).\n'
    "Example: {prog} annotate mybook.json --in-place --signals",
)
@click.option(
    "--max-seconds",
    metavar="S",
    type=Seconds(*SECONDS_RANGE),
    help="\b\nGive each search S seconds; a level it cannot prove\n"
    "keeps its fields (exit status 3).\nExample: --max-seconds 300",
)
@certificate_folder_option
@gzip_option
@threads_option
@books_option
@scheme_option
@json_option("{prog} annotate mybook.json --out fixed.json --json")
@dask_option("Prove the levels on a Dask cluster, one a task", "--dask tcp://HOST:8786")
@click.pass_obj
def annotate(
    run: Run,
    source: str,
    out: str | None,
    in_place: bool,
    exhaustive: bool,
    max_solutions: int | None,
    signals: bool,
    max_seconds: float | None,
    certificate_folder: str | None,
    gzipped: bool,
    threads: int | None,
    books: str | None,
    scheme: str | None,
    json_: bool,
    dask: str | None,
) -> None:
    """Prove every level of a book and write the book back with each level's par, solutions,
    solutionVector and solutionType, changing only what is wrong or missing: every other field, the key
    order, the level order and the book's own metadata are kept byte for byte. What the book got wrong
    (a par that is not the optimum, a stored solution that does not replay, has the wrong length or is not
    optimal, an exhaustive list that is not) is said level by level, with its fix.

    BOOK is a book file, a book name, - for standard input, or a single level (a text board, a game
    link), written as a book of one level. The book is written only once every level is done.

    \b
    Examples:
      {prog} annotate mybook.json --out fixed.json
      {prog} annotate mybook.json --in-place --exhaustive
      {prog} annotate daily --out daily.json --max-seconds 300
      {prog} annotate mybook.json --in-place --certificate certs --gzip
    """
    stream = run.choose({"--json": json_}, run.terminal.glyphs()).stream
    if in_place and out is not None:
        raise InputError("give --out FILE or --in-place, not both")
    if not in_place and out is None:
        raise InputError("give --out FILE for the annotated book, or --in-place to write it over BOOK")
    if out == STANDARD_STREAM:
        raise InputError(
            "annotate reports on standard output, where --out - would put the book too: give --out FILE, "
            "or --in-place"
        )
    book = book_text(source, books, scheme)
    two_colour_only(
        parse_book(book.text, book.name), ("--signals", signals), ("--certificate", bool(certificate_folder))
    )
    if in_place:
        if book.file is None:
            raise InputError(f"{book.name} is not a book file to write over: give --out FILE")
        shown, target = book.file, writable_target(book.file, "the annotated book")
    else:
        assert out is not None
        shown, target = out, writable_target(out, "the annotated book")
        if book.file is not None and same_file(target, Path(book.file)):
            raise InputError(f"--out {out} is BOOK itself: give --in-place to write over it, or another file")
    certificates = certificates_asked(certificate_folder, gzipped, dask)
    count = len(parse_book(book.text, book.name).levels) if certificates is not None else 0
    book_output = [] if in_place else [Output("--out", shown)]
    check_outputs([*certificate_outputs(certificates, count), *book_output], [book.file] if book.file else [])
    from .generator import CANONICAL_LISTING  # loaded only when it runs

    # Without --exhaustive only the canonical optimum is written, and a level with more optima than the
    # listing holds gets it by probing; --signals measures every optimum, unless --max-solutions caps them.
    listing = max_solutions or (None if exhaustive or signals else CANONICAL_LISTING)
    settings = SolverSettings("0", threads, max_seconds, None, True, listing)
    cluster = click.get_current_context().with_resource(open_cluster(dask, threads))
    annotate_book(book, target, shown, settings, exhaustive, stream, certificates, cluster, signals)


@cli.command(
    cls=Command,
    context_settings=CONTEXT,
    short_help="Print a level's game link, its solution a proven optimal one.",
    epilog="Exit status: 0 the link is printed; 1 unsolvable (no link: the game's links carry a solution); "
    "2 bad input, such as a bad link; 3 stopped by budget; 4 solver failure; 130, 143, 129 stopped by "
    "Ctrl-C, SIGTERM, SIGHUP.",
)
@source_argument
@level_argument
@click.option(
    "--page",
    metavar="URL",
    default=GAME_PAGE,
    show_default=True,
    help="\b\nThe game's page the link opens: a URL with no space,\n"
    "'#' or custom parameter of its own.\nExample: --page http://localhost:5173/",
)
@books_option
@scheme_option
@threads_option
@max_seconds_option
@json_option("{prog} share daily 5 --json")
@click.pass_obj
def share(
    run: Run,
    source: str,
    level_number: int | None,
    page: str,
    books: str | None,
    scheme: str | None,
    threads: int | None,
    max_seconds: float | None,
    json_: bool,
) -> None:
    """Print the link that opens a level in the game with an optimal solution (the canonical one) as the
    link's solution vector, so the game shows the proven optimum as the level's par.

    SOURCE and LEVEL are as for solving: a level of a book, a text board, - for standard input, or a game
    link, shared again with an optimal solution.

    \b
    Examples:
      {prog} share daily 5
      {prog} share mybook.json 3 --page https://example.org/unflip/
      {prog} share 'https://unflipgame.com/?custom=s_5_5$m_2$v$...'
    """
    from .links import check_page  # loaded only when it runs

    check_page(page)  # before the search, not after it
    stream = run.choose({"--json": json_}, run.terminal.glyphs()).stream
    share_level(
        chosen_level(source, level_number, books, scheme),
        SolverSettings("0", threads, max_seconds, None),
        page,
        stream,
    )


@cli.command(
    cls=Command,
    context_settings=CONTEXT,
    short_help="How hard each level of a book feels: a table, a sheet, a page.",
    epilog="Exit status: 0 every level measured; 1 a level unsolvable or malformed; 2 bad input; 3 a budget "
    "stopped a level; 4 solver failure (on any level); 130, 143, 129 stopped by Ctrl-C, SIGTERM, SIGHUP (no "
    "file written).",
)
@source_argument
@level_argument
@click.option(
    "--csv",
    "csv_file",
    metavar="FILE",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="\b\nAlso write a sheet: a row per level, every figure a\ncolumn; - for standard output.\n"
    "Example: --csv daily.csv",
)
@click.option(
    "--html",
    "html_file",
    metavar="FILE",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="\b\nAlso write the designer's page: every board, the\ndifficulty curve, par's histogram, "
    "the table;\n- for standard output.\nExample: --html daily.html",
)
@click.option(
    "--max-solutions",
    metavar="K",
    type=click.IntRange(1, MAX_SOLUTIONS),
    help="\b\nList at most K optimal solutions of a level; its\nfigures are then over those ('+').\n"
    "Example: --max-solutions 1000",
)
@click.option(
    "--max-seconds",
    metavar="S",
    type=Seconds(*SECONDS_RANGE),
    help="\b\nGive each level S seconds; a level it cannot prove\nhas no figures (exit status 3).\n"
    "Example: --max-seconds 60",
)
@threads_option
@books_option
@ascii_option
@no_color_option
@json_option("{prog} report daily --json")
@click.pass_obj
def report(
    run: Run,
    source: str,
    level_number: int | None,
    csv_file: str | None,
    html_file: str | None,
    max_solutions: int | None,
    max_seconds: float | None,
    threads: int | None,
    books: str | None,
    ascii_: bool,
    no_color: bool,
    json_: bool,
) -> None:
    """How hard each level of a book feels, by the game's own difficulty signals taken over every optimal
    solution: a row per level with its number, board, par (the proven optimum), how many optima, the least
    Eric number of any (minEric), the least obvious score ×100 (obv×100), the gap between the optimum and
    the solver's lower bound at the start, and the solver's time; then the levels that break the
    difficulty curve (docs/designer.md).

    SOURCE and LEVEL are as for solving: a book (every level), a level of one, a text board or a game link.

    \b
    Examples:
      {prog} report daily
      {prog} report mybook.json --html mybook.html --csv mybook.csv
      {prog} report weekly --json
      {prog} report daily 5
    """
    from .report import ReportSettings, report_book  # the report's code is loaded only when it runs

    if no_color:
        run.terminal.disable_colour()
    stream = run.choose({"--json": json_}, run.terminal.glyphs(ascii_)).stream
    files = {"--csv": csv_file, "--html": html_file}
    streamed = [option for option, path in files.items() if path == STANDARD_STREAM]
    if streamed and (json_ or len(streamed) > 1):
        other = "--json" if json_ else streamed[1]
        raise InputError(f"{streamed[0]} - writes standard output, and so does {other}: name a file for one")
    given = [Output(option, path) for option, path in files.items() if path is not None]
    check_outputs(given, [source_file(source, books)])
    loaded = load_source(source, books)
    two_colour_only(loaded, ("report", True))
    if isinstance(loaded, Level):
        if level_number is not None:
            raise InputError(f"{source} is a single board: drop the level number")
        book = Book(loaded.name, (loaded,))
    elif level_number is not None:
        book = Book(loaded.name, (pick_level(loaded, level_number),))
    else:
        book = loaded
    report_book(book, ReportSettings(threads, max_seconds, max_solutions), stream, files)


@cli.command(
    cls=Command,
    context_settings=CONTEXT,
    short_help="Print the address of the web page (make web) with a level loaded, which it solves at once.",
    epilog="Exit status: 0 the address is printed; 2 bad input; 4 the page is not built (make web); 130, "
    "143, 129 stopped by Ctrl-C, SIGTERM, SIGHUP.",
)
@source_argument
@level_argument
@books_option
@click.option(
    "--open", "open_", is_flag=True, help="\b\nAlso open it in the default browser.\nExample: --open"
)
@click.pass_obj
def page(run: Run, source: str, level_number: int | None, books: str | None, open_: bool) -> None:
    """Print the file:// address of the page `make web` builds (web/unflip.html, docs/web.md) with the
    level in its fragment: opened, the page loads the level and proves its optimum in the browser, with
    no server and nothing installed.

    SOURCE and LEVEL are as for solving: a level of a book, a text board, - for standard input, or a game
    link.

    \b
    Examples:
      {prog} page daily 5
      {prog} page weekly 20 --open
      {prog} page board.txt
    """
    from .links import WEB_PAGE, page_address  # loaded only when it runs

    level = chosen_level(source, level_number, books)
    two_colour_only(level, ("page", True))
    built = find_layout().root / WEB_PAGE
    if not built.is_file():
        raise SolverError(f"{WEB_PAGE} is not built: `make web` in a clone of unflip writes it (docs/web.md)")
    address = page_address(built, level.board)
    run.terminal.write(address + "\n")
    import webbrowser  # loaded only when it runs

    if open_ and not webbrowser.open(address):
        raise InputError("--open: no browser could be started; open the address above in one")


def chosen_level(
    source: str, level_number: int | None, books: str | None, scheme: str | None = None
) -> Level:
    """The one level a command works on: a single board, or a level of a book."""
    loaded = load_source(source, books, scheme)
    if isinstance(loaded, Level):
        if level_number is not None:
            raise InputError(f"{source} is a single board: drop the level number")
        return loaded
    if level_number is None:
        raise InputError(f"{loaded.name} is a book: give a level number (1–{len(loaded.levels)})")
    return pick_level(loaded, level_number)


def main(prog_name: str | None = None) -> NoReturn:
    """The console script `unflip`, and what `python unflip.py` runs."""
    cli.main(prog_name=prog_name)
