"""The records of --json: what each command found, as JSON objects a script can rely on. The schema is
schema/unflip-output.schema.json (docs/usage.md, "JSON output", sums it up). Nothing here prints; the command
layer writes each record as one line on standard output as soon as it is known.

Every record carries "schema": SCHEMA_VERSION and "record": its kind. A field is only ever added as an
optional one; a change that could break a reader (a field removed, renamed or given another meaning) bumps
SCHEMA_VERSION."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .boards import TRI, Board, Move, scheme_of
from .books import Book, Level
from .protocol import Optima, Outcome, Solution, Stopped, Unsolvable
from .solver import SolverSettings

if TYPE_CHECKING:  # report.py imports this module; the rest are loaded only when used
    from .annotate import LevelAudit
    from .difficulty import Signals
    from .hints import Hint
    from .level_checks import Failure, LevelCheck, Tally
    from .report import Measured, Report

SCHEMA_VERSION = 1

Record = dict[str, Any]


def json_line(record: Record) -> str:
    """One record, one line: ASCII-only, so any terminal or pipe encoding carries it."""
    import json  # loaded only under --json

    return json.dumps(record, ensure_ascii=True) + "\n"


def record(kind: str, /, **fields: Any) -> Record:
    return {"schema": SCHEMA_VERSION, "record": kind, **fields}


def board_rows(board: Board) -> list[str]:
    """Rows of 0/1 digits, 0 white: the text-board form, which reads back with the same parser. A tri
    board's are the game's digits 1 (cream) to 3 (red), which read back as a tri board's."""
    offset = scheme_of(board) == TRI
    return ["".join(str(tile + offset) for tile in row) for row in board]


def move_object(move: Move) -> Record:
    return {"row": move.row, "col": move.col, "size": move.size}


def level_object(level: Level) -> Record:
    if level.problem is not None:
        unread = dict.fromkeys(("par", "height", "width", "board"))
        return {"name": level.name, "number": level.number, "title": level.title or None, **unread} | {
            "problem": level.problem
        }
    fields = {
        "name": level.name,
        "number": level.number,
        "title": level.title or None,
        "par": level.par,
        # Both sides, not one size: a rectangular board is then a new value, not a new field.
        "height": len(level.board),
        "width": len(level.board[0]),
        "board": board_rows(level.board),
    }
    # Only a tri level says its scheme, so that a two-colour record is what it always was.
    scheme = {"scheme": TRI} if scheme_of(level.board) == TRI else {}
    return fields | scheme | ({"link": level.link} if level.link is not None else {})


def settings_object(settings: SolverSettings) -> Record:
    return {
        "target": settings.target,
        "threads": settings.threads,
        "max_seconds": settings.max_seconds,
        "max_nodes": settings.max_nodes,
    }


def moves_array(moves: tuple[Move, ...]) -> list[Record]:
    return [move_object(move) for move in moves]


def outcome_fields(level: Level, outcome: Outcome, listed: bool = True) -> Record:
    """What the solver found, in the same fields for a single solve and for a level of --all. With every
    optimal solution, their count, whether that is all of them, and, when listed, the solutions."""
    if isinstance(outcome, Solution):
        count = len(outcome.moves)
        fields: Record = {
            "outcome": "solved",
            "target": outcome.target,
            "moves": moves_array(outcome.moves),
            "move_count": count,
            "optimal": True,
            "verified": True,
            "at_par": None if level.par is None else count == level.par,
            "nodes": outcome.nodes,
            "seconds": outcome.seconds,
        }
        if isinstance(outcome, Optima):
            if listed:
                fields["solutions"] = [moves_array(moves) for moves in outcome.solutions]
            fields["solution_count"] = len(outcome.solutions)
            fields["enumeration_complete"] = outcome.complete
        return fields
    if isinstance(outcome, Unsolvable):
        return {"outcome": "unsolvable", "target": outcome.target, "seconds": outcome.seconds}
    assert isinstance(outcome, Stopped)
    stopped: Record = {
        "outcome": "stopped",
        "target": outcome.target,
        "lower_bound": outcome.bound,
        "nodes": outcome.nodes,
        "seconds": outcome.seconds,
    }
    if outcome.found is not None:  # only the counting stopped: the optimum stands
        stopped |= {
            "move_count": outcome.bound,
            "optimal": True,
            "at_par": None if level.par is None else outcome.bound == level.par,
            "solution_count": outcome.found,
            "enumeration_complete": False,
        }
        if listed:
            stopped["solutions"] = [moves_array(moves) for moves in outcome.solutions]
    return stopped


def solve_record(
    level: Level,
    settings: SolverSettings,
    outcome: Outcome,
    exit_status: int,
    listed: bool = True,
    signals: Signals | None = None,
) -> Record:
    """With signals (--signals), the level's difficulty signals too."""
    measured: Record = {}
    if signals is not None:
        from .difficulty import signals_object  # loaded already, by the signals

        measured = {"signals": signals_object(signals)}
    return record(
        "solve",
        level=level_object(level),
        settings=settings_object(settings),
        **outcome_fields(level, outcome, listed),
        **measured,
        exit_status=exit_status,
    )


def solution_records(optima: Optima | Stopped) -> list[Record]:
    """Every optimal solution a record (those found, when a budget stopped the count), ahead of the solve
    record that counts them."""
    return [
        record("solution", index=index, target=optima.target, moves=moves_array(moves))
        for index, moves in enumerate(optima.solutions, 1)
    ]


def hint_record(level: Level, settings: SolverSettings, hint: Hint) -> Record:
    return record(
        "hint",
        level=level_object(level),
        settings=settings_object(settings),
        target=hint.target,
        move=move_object(hint.move),
        moves_remaining=hint.remaining,
        **({} if hint.prefer is None else {"prefer": hint.prefer}),
        nodes=hint.nodes,
        seconds=hint.seconds,
        exit_status=0,
    )


def level_record(check: LevelCheck, failure: Failure | None) -> Record:
    """One level of --all: its outcome, or the solver failure that left it without one, and what the book
    got wrong about it; failure says why the level fails the run, and failure_kind whose failure that is
    (both None when it passes). With --count, how many optimal solutions it has, not the solutions
    themselves."""
    fields: Record
    if check.level.problem is not None:
        fields = {"outcome": "malformed"}
    elif check.outcome is None:
        fields = {"outcome": "failed", "error": str(check.error)}
    else:
        fields = outcome_fields(check.level, check.outcome, listed=False)
    return record(
        "level",
        level=level_object(check.level),
        **fields,
        book_errors=list(check.book_errors),
        failure=None if failure is None else failure.why,
        failure_kind=None if failure is None else failure.kind,
    )


def all_record(book: Book, tallied: Tally, failures: list[Failure], outcome: str, exit_status: int) -> Record:
    """The end of --all: the tally of the levels that finished, which of them fail the run, and for each
    kind of failure, which fail for it."""
    from .level_checks import FAILURE_KINDS  # loaded already, by --all

    kinds = {
        name: [failure.number for failure in failures if failure.kind == kind]
        for kind, name in zip(FAILURE_KINDS, ("book_wrong", "solver_failed", "stopped"), strict=True)
    }
    return record(
        "all",
        book=book.name,
        levels=len(book.levels),
        finished=tallied.finished,
        solved=tallied.solved,
        with_par=tallied.with_par,
        at_par=tallied.at_par,
        failed=[failure.number for failure in failures],
        **kinds,
        seconds=round(tallied.seconds, 3),  # a sum of the solver's figures, which have three decimals
        outcome=outcome,
        exit_status=exit_status,
    )


def list_record(book: Book) -> Record:
    return record(
        "list", book=book.name, levels=[level_object(level) for level in book.levels], exit_status=0
    )


def generate_record(kind: str, seed: str, out: str, book_text: str) -> Record:
    """A summary of a book just written, read back from its text, so it says what the file says."""
    import json  # loaded only when it runs

    levels = []
    for number, entry in enumerate(json.loads(book_text)["levels"], 1):
        made = entry["generator"]
        levels.append(
            {
                "number": number,
                "id": entry["id"],
                "title": entry["title"],
                "par": entry["par"],
                "height": len(entry["tiles"]),
                "width": len(entry["tiles"][0]),
                "seed": made["seed"],
                "scramble": made["scramble"],
            }
        )
    return record("generate", kind=kind, seed=seed, out=out, levels=levels, exit_status=0)


def annotated_record(level: Level, audit: LevelAudit) -> Record:
    """One level of annotate, as it is proven: its outcome, the optimum (for "unproven", the lower bound the
    budget left), the book's errors with their fixes, what was added, and the fields written."""
    proven = {"lower_bound": audit.optimum} if audit.outcome == "unproven" else {"optimum": audit.optimum}
    return record(
        "annotated",
        level=level_object(level),
        outcome=audit.outcome,
        **proven,
        findings=list(audit.findings),
        notes=list(audit.notes),
        changed=[key for key, _ in audit.fields],
    )


def annotate_record(book: str, out: str, audits: list[LevelAudit], exit_status: int) -> Record:
    """The end of annotate, once the book is written: which levels changed, which the book was wrong
    about, which a budget left unproven."""
    return record(
        "annotate",
        book=book,
        out=out,
        levels=len(audits),
        changed=[audit.number for audit in audits if audit.changed],
        wrong=[audit.number for audit in audits if audit.findings],
        unproven=[audit.number for audit in audits if audit.outcome == "unproven"],
        malformed=[audit.number for audit in audits if audit.outcome == "malformed"],
        exit_status=exit_status,
    )


def share_record(level: Level, link: str, optimum: int) -> Record:
    return record("share", level=level_object(level), link=link, optimum=optimum, exit_status=0)


def error_record(outcome: str, message: str, exit_status: int) -> Record:
    """A run that ended without a result: input rejected, the solver failing, or Ctrl-C."""
    return record("error", outcome=outcome, message=message, exit_status=exit_status)


def reported_record(row: Measured) -> Record:
    """One level of a report, as it is measured: its signals (difficulty.py), or why it has none."""
    from .difficulty import signals_object  # loaded already, by the report

    return record(
        "reported",
        level=level_object(row.level),
        outcome=row.outcome,
        signals=None if row.signals is None else signals_object(row.signals),
        note=row.note or None,
    )


def report_record(report: Report, outcome: str, exit_status: int) -> Record:
    """The end of a report: the levels measured, those that break each figure's curve, and those without
    figures, by why."""
    return record(
        "report",
        book=report.name,
        levels=report.total,
        measured=sum(row.signals is not None for row in report.rows),
        breaks=dict(report.breaks),
        **report.unmeasured,
        seconds=report.seconds,
        outcome=outcome,
        exit_status=exit_status,
    )
