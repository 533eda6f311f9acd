"""The designer's book annotation and audit: each level's proven optimum written back into the game's own
fields, and what the book got wrong, each as the book's error with its fix.

For each level, from its proof (a Proof, or Unproven when a budget ran out):
- `par`: the optimum (null for a level no moves clear). A par above or below it is a finding.
- `solutions`: the stored vectors that are optimal solutions keep their place (the book's first stays first,
  so the par the game shows and the vector a designer chose are untouched); a vector of the wrong length,
  one that does not replay, one that is not optimal or one listed twice is dropped, as the game drops it. A
  level left with none gets its valid `solutionVector`, else the canonical optimum (game_vectors.py). With
  exhaustive (or where the book claims "exhaustive"), the optima the list lacks follow in the canonical order,
  so a level with no valid vector lists every optimum in that order, the canonical one first.
- `solutionVector`: kept when it is an optimal solution, else (or when missing) the list's first.
- `solutionType`: "impossible" for an unsolvable level; "exhaustive" when the list holds every optimum and
  that was asked for (or claimed); "optimal" where the list changed or the label is missing or wrong. Any
  other label of the game's tooling ("minizinc", "running") on a list that needed no change is kept.
- An unproven level keeps every field; what can be seen without its optimum (a vector that does not replay, a
  par under the proven bound) is reported, not fixed.
Every other field, the key order (new keys go last), the level order and the book's metadata are kept, and
annotated_text changes the book's text only where a field changes, so every untouched byte stays as it was,
whatever the book's formatting: the game's own books come in three (compact, spaced, indented)."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .boards import Board, scheme_of, shape
from .books import Level, parse_book, readable_level, stored_vectors
from .errors import SolverError
from .game_vectors import (
    Vector,
    canonical_order,
    least_optimum_by_probing,
    moves_to_vector,
    vector_problem,
)
from .protocol import Optima, Outcome, Solution, Unsolvable
from .solver import MAX_SOLUTIONS, OnProgress, RootBound, SolverSettings, no_progress
from .verify import solve_board


@dataclass(frozen=True)
class Proof:
    """A level's outcome, proven: its optimum (None when no moves clear it), the canonical optimal vector,
    and optimal vectors in the canonical order: every one when complete, else as many as a cap allowed."""

    optimum: int | None
    canonical: Vector | None
    optima: tuple[Vector, ...]
    complete: bool
    root_bound: int | None  # the solver's lower bound at the start, read off the listing's search


@dataclass(frozen=True)
class Unproven:
    """A budget ran out before the level was proven."""

    bound: int  # every solution needs at least this many moves


Prove = Callable[[Board], Proof | Unproven]
# annotate --signals: a proven level's figures (difficulty.py), in the form stored under UNFLIP_KEY.
Measure = Callable[[Board, Proof], dict[str, object]]
# unflip's own key in a level, as the game's generator has its "_gen": the game's loader reads only the
# fields it knows, so the book still loads as it did (docs/designer.md).
UNFLIP_KEY = "_unflip"


class Removed:
    """A field annotate takes out of a level (the solutionVector of a level no moves clear)."""

    def __repr__(self) -> str:
        return "REMOVED"


REMOVED = Removed()


@dataclass(frozen=True)
class LevelAudit:
    number: int  # 1-based, in the book's order
    name: str  # "main level 7"
    outcome: str  # "optimal", "exhaustive", "impossible", "unproven" or "malformed"
    optimum: int | None  # for "unproven", the proven lower bound
    findings: tuple[str, ...]  # the book's errors, each with its fix
    notes: tuple[str, ...]  # what was missing and is added, and what could not be checked
    fields: tuple[tuple[str, object], ...]  # each field to write, or REMOVED, in the order written

    @property
    def changed(self) -> bool:
        return bool(self.fields)


OnLevel = Callable[[LevelAudit], None]


def as_vector(vector: object) -> Vector:
    """A stored vector vector_problem found no fault in."""
    assert isinstance(vector, list | tuple)
    return tuple(vector)


def checked_problem(level: Level, where: str, vector: object, optimum: int | None) -> str | None:
    """vector_problem, trusting no proof that a stored vector contradicts."""
    problem = vector_problem(level.board, vector, optimum)
    if problem is None and isinstance(vector, list) and (optimum is None or sum(vector) < optimum):
        proven = "no moves clear it" if optimum is None else f"its optimum is {optimum}"
        raise SolverError(f"{level.name}: its {where} clears the board in {sum(vector)}, but {proven}")
    return problem


def par_error(par: int, optimum: int) -> str:
    """A par that is not the proven optimum, in words."""
    if par > optimum:
        return f"par {par}, optimum {optimum}, proven"
    return f"par {par}, below the optimum {optimum}, proven: no solution has fewer than {optimum} moves"


def book_errors(level: Level, optimum: int | None) -> list[str]:
    """What --all can tell the book got wrong in a level from its proven optimum alone (None: no moves clear
    it), each error with its fix: its par, and each vector it stores (the game drops one that is not an
    optimal solution, and its par changes with it). The optima a list claims to exhaust take a listing,
    which annotate makes."""
    errors = []
    if optimum is None:
        par = "" if level.par is None else f"par {level.par}, but "
        errors.append(
            f"{par}no moves clear this board, proven; the game's word for it is 'impossible', par null"
        )
    elif level.par is not None and level.par != optimum:
        errors.append(f"{par_error(level.par, optimum)}; the par should be {optimum}")
    for where, vector in level.vectors:
        problem = checked_problem(level, where, vector, optimum)
        if problem is not None:
            errors.append(f"{where} {problem}; the game drops it")
    return errors


def audit_level(
    entry: dict[str, object], level: Level, proof: Proof | Unproven, exhaustive: bool
) -> LevelAudit:
    """What is wrong or missing in one level, and the fields that put it right."""
    if isinstance(proof, Unproven):
        return unproven_audit(entry, level, proof)
    if proof.optimum is None:
        return impossible_audit(entry, level)
    return solved_audit(entry, level, proof, exhaustive)


def malformed_audit(level: Level, problem: str) -> LevelAudit:
    """A level that cannot be read is the book's error too, and one only a person can mend: it is kept as it
    is, and the book's other levels are annotated."""
    note = "kept as it is: mend it by hand, then annotate again"
    return LevelAudit(level.number or 0, level.name, "malformed", None, (problem,), (note,), ())


def unproven_audit(entry: dict[str, object], level: Level, proof: Unproven) -> LevelAudit:
    findings = []
    for where, vector in stored_vectors(entry):
        problem = vector_problem(level.board, vector, None)
        if problem is not None:
            findings.append(f"{where} {problem} (kept: the level is not proven)")
    if level.par is not None and level.par < proof.bound:
        findings.append(
            f"par {level.par}, but every solution needs at least {proof.bound} moves, proven "
            "(kept: the level is not proven)"
        )
    note = f"not proven: the budget ran out with no solution of fewer than {proof.bound} moves; fields kept"
    return LevelAudit(level.number or 0, level.name, "unproven", proof.bound, tuple(findings), (note,), ())


def impossible_audit(entry: dict[str, object], level: Level) -> LevelAudit:
    findings, notes = [], []
    fields: dict[str, object] = {}
    for where, vector in stored_vectors(entry):
        problem = checked_problem(level, where, vector, None)
        findings.append(f"{where} {problem}; dropped: no moves clear this board, proven")
    if level.par is not None:
        findings.append(f"par {level.par}, but no moves clear this board, proven; par set to null")
    if level.par is not None or "par" not in entry:
        fields["par"] = None
        if "par" not in entry:
            notes.append("par null added")
    if entry.get("solutions") != []:
        fields["solutions"] = []
    if "solutionVector" in entry:
        fields["solutionVector"] = REMOVED
    stored_type = entry.get("solutionType")
    if stored_type != "impossible":
        if stored_type is None:
            notes.append("solutionType 'impossible' added")
        else:
            findings.append(
                f"solutionType {stored_type!r}, but no moves clear this board; set to 'impossible'"
            )
        fields["solutionType"] = "impossible"
    return LevelAudit(
        level.number or 0,
        level.name,
        "impossible",
        None,
        tuple(findings),
        tuple(notes),
        tuple(fields.items()),
    )


def solved_audit(entry: dict[str, object], level: Level, proof: Proof, exhaustive: bool) -> LevelAudit:
    optimum, canonical = proof.optimum, proof.canonical
    assert optimum is not None and canonical is not None
    findings: list[str] = []
    notes: list[str] = []
    fields: dict[str, object] = {}

    if level.par is None:
        fields["par"] = optimum
        notes.append(f"par {optimum} added (the book had {'null' if 'par' in entry else 'none'})")
    elif level.par != optimum:
        findings.append(f"{par_error(level.par, optimum)}; par set to {optimum}")
        fields["par"] = optimum

    stored = entry.get("solutions")
    listed: list[Vector] = []  # the optimal solutions of the stored list, each once, in its order
    if "solutions" in entry and not isinstance(stored, list):
        findings.append("solutions is not a list of vectors; replaced")
    for where, vector in stored_vectors(entry):
        if where == "solutionVector":
            continue
        problem = checked_problem(level, where, vector, optimum)
        if problem is not None:
            findings.append(f"{where} {problem}; dropped")
        elif as_vector(vector) in listed:
            findings.append(f"{where} repeats entry {listed.index(as_vector(vector)) + 1}; dropped")
        else:
            listed.append(as_vector(vector))
    kept = list(listed)
    vector_kept = False
    if "solutionVector" in entry:
        problem = checked_problem(level, "solutionVector", entry["solutionVector"], optimum)
        if problem is not None:
            findings.append(f"solutionVector {problem}; replaced by the first of solutions")
        else:
            vector_kept = True
            if not kept:
                kept.append(as_vector(entry["solutionVector"]))
    if proof.complete:
        unlisted = [vector for vector in kept if vector not in proof.optima]
        if unlisted:
            raise SolverError(
                f"{level.name}: the book holds an optimal solution the solver's complete list lacks"
            )

    stored_type = entry.get("solutionType")
    claims_all = stored_type == "exhaustive"
    listing = optima_listing(proof)
    if exhaustive or claims_all:
        missing = [vector for vector in listing if vector not in kept]
        if claims_all and kept and missing:
            count = f"{len(missing)} of {len(proof.optima)}" if proof.complete else f"at least {len(missing)}"
            findings.append(f"the exhaustive list misses {count} optima; added")
        written = kept + missing
    else:
        written = kept or [canonical]
    every_optimum = proof.complete and len(written) == len(proof.optima)
    # A capped listing proves more optima than it holds: a stored list no longer than it cannot hold them all.
    claim_unchecked = claims_all and not proof.complete and len(kept) > len(proof.optima)
    if claims_all and not every_optimum and not claim_unchecked:
        findings.append(
            f"solutionType 'exhaustive', but the level has more than the {len(written)} optima listed; "
            "set to 'optimal'"
        )
    if claim_unchecked:
        notes.append(f"the exhaustive list is unchecked: the listing stopped at {len(proof.optima)} optima")
    if not proof.complete and (exhaustive or claims_all):
        notes.append(f"--max-solutions stopped the listing at {len(proof.optima)}: there may be more optima")

    # The stored list stays when it loses no entry and gains none. (Not stored == written: to Python true is
    # 1 and 1.0 is 1, and to the game neither is an entry of a vector.)
    if not (isinstance(stored, list) and len(stored) == len(listed) and written == listed):
        fields["solutions"] = [list(vector) for vector in written]
        if "solutions" not in entry:
            notes.append(f"solutions added ({len(written)})")
        elif len(written) > len(kept):
            added = len(written) - len(kept)
            notes.append(f"{added} {'optimum' if added == 1 else 'optima'} added to solutions")
    if not vector_kept:
        fields["solutionVector"] = list(written[0])
        if "solutionVector" not in entry:
            notes.append("solutionVector added")

    exhaustive_now = every_optimum and (exhaustive or claims_all)
    new_type = "exhaustive" if exhaustive_now or claim_unchecked else "optimal"
    if stored_type == "impossible":
        findings.append(
            f"solutionType 'impossible', but a solution of {optimum} moves exists; set to {new_type!r}"
        )
    if stored_type != new_type and (
        stored_type in (None, "impossible", "exhaustive") or exhaustive_now or "solutions" in fields
    ):
        fields["solutionType"] = new_type
        if stored_type is None:
            notes.append(f"solutionType {new_type!r} added")
        elif exhaustive_now:
            notes.append("every optimum listed: solutionType set to 'exhaustive'")
    outcome = "exhaustive" if exhaustive_now else "optimal"
    return LevelAudit(
        level.number or 0, level.name, outcome, optimum, tuple(findings), tuple(notes), tuple(fields.items())
    )


def optima_listing(proof: Proof) -> list[Vector]:
    """The optima a proof knows, canonical first, no more than its listing held."""
    assert proof.canonical is not None
    rest = [vector for vector in proof.optima if vector != proof.canonical]
    return [proof.canonical, *rest][: max(len(proof.optima), 1)]


def with_signals(entry: dict[str, object], audit: LevelAudit, signals: dict[str, object]) -> LevelAudit:
    """The audit with the level's signals stored under UNFLIP_KEY, beside what else unflip keeps there;
    unchanged when they are there already."""
    stored = entry.get(UNFLIP_KEY)
    kept = stored if isinstance(stored, dict) else {}
    if kept.get("signals") == signals:
        return audit
    return dataclasses.replace(audit, fields=(*audit.fields, (UNFLIP_KEY, {**kept, "signals": signals})))


def audit_book(
    data: dict[str, object],
    name: str,
    prove: Prove,
    exhaustive: bool,
    on_level: OnLevel | None = None,
    measure: Measure | None = None,
) -> list[LevelAudit]:
    """Every level of a parsed book (json.loads keeps its key order), in order; with measure, each proven
    level's signals stored too."""
    entries = data.get("levels")
    if not isinstance(entries, list) or not entries:
        raise ValueError(f"{name}: not a level book with levels")
    audits = []
    for number, entry in enumerate(entries, 1):
        level = readable_level(entry, number, name)
        if level.problem is not None:
            audit = malformed_audit(level, level.problem)
        else:
            assert isinstance(entry, dict)  # parse_level accepts only an object
            proof = prove(level.board)
            audit = audit_level(entry, level, proof, exhaustive)
            if measure is not None and isinstance(proof, Proof) and proof.optimum is not None:
                audit = with_signals(entry, audit, measure(level.board, proof))
        if on_level is not None:
            on_level(audit)
        audits.append(audit)
    return audits


def annotated_book(data: dict[str, object], audits: list[LevelAudit]) -> dict[str, object]:
    """The book with every audit's fields written: a field kept keeps its place, a new one goes last."""
    entries = data["levels"]
    assert isinstance(entries, list)
    levels = []
    for entry, audit in zip(entries, audits, strict=True):
        changed = dict(entry)
        for key, value in audit.fields:
            if value is REMOVED:
                del changed[key]
            else:
                changed[key] = value
        levels.append(changed)
    return {**data, "levels": levels}


def annotate_text(
    text: str,
    name: str,
    prove: Prove,
    exhaustive: bool,
    on_level: OnLevel | None = None,
    measure: Measure | None = None,
) -> tuple[str, list[LevelAudit]]:
    """A book's text annotated, and what was found in each level. A book that cannot be read is an
    InputError, as anywhere a book is read."""
    parse_book(text, name)
    data = json.loads(text)
    audits = audit_book(data, name, prove, exhaustive, on_level, measure)
    return annotated_text(text, audits), audits


# --- writing the book back -------------------------------------------------------------------------------

WHITESPACE = re.compile(r"[ \t\n\r]*")
# Two entries of an array side by side: how the book separates them.
ARRAY_GAP = re.compile(r"[\d\]],(\s*)[\d\[]")
DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class Member:
    """Where one key and its value are in a JSON object's text."""

    key: str
    key_start: int
    key_end: int
    value_start: int
    value_end: int


def skip(text: str, index: int) -> int:
    match = WHITESPACE.match(text, index)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def object_members(text: str, start: int) -> list[Member]:
    """The members of the JSON object opening at text[start], in the text's order. The text is valid JSON
    (json.loads read it first)."""
    members: list[Member] = []
    index = skip(text, start + 1)
    while text[index] != "}":
        key, key_end = DECODER.raw_decode(text, index)
        value_start = skip(text, skip(text, key_end) + 1)
        _, value_end = DECODER.raw_decode(text, value_start)
        members.append(Member(key, index, key_end, value_start, value_end))
        index = skip(text, value_end)
        if text[index] == ",":
            index = skip(text, index + 1)
    return members


def array_elements(text: str, start: int) -> list[tuple[int, int]]:
    """Where each element of the JSON array opening at text[start] begins and ends."""
    spans: list[tuple[int, int]] = []
    index = skip(text, start + 1)
    while text[index] != "]":
        _, end = DECODER.raw_decode(text, index)
        spans.append((index, end))
        index = skip(text, end)
        if text[index] == ",":
            index = skip(text, index + 1)
    return spans


def level_members(text: str) -> list[list[Member]]:
    """The members of each level of a book's text, in order; none for a level that is not an object (a
    malformed level, which no field is written to)."""
    top = object_members(text, skip(text, 0))
    levels = [member for member in top if member.key == "levels"][-1]  # json.loads keeps the last
    return [
        object_members(text, start) if text[start] == "{" else []
        for start, _ in array_elements(text, levels.value_start)
    ]


def annotated_text(text: str, audits: list[LevelAudit]) -> str:
    """The book's text with each audit's fields written in the book's own separators, and nothing else
    touched: an audit without fields leaves its level's bytes as they were."""
    edits: list[tuple[int, int, str]] = []
    for members, audit in zip(level_members(text), audits, strict=True):
        if audit.fields:
            edits += level_edits(text, members, audit.fields)
    edits.sort(key=lambda edit: edit[0])  # stable: insertions at one place stay in the fields' order
    pieces, position = [], 0
    for start, end, replacement in edits:
        pieces += [text[position:start], replacement]
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def level_edits(
    text: str, members: list[Member], fields: tuple[tuple[str, object], ...]
) -> list[tuple[int, int, str]]:
    """(start, end, replacement) for each field: a value replaced where it is, a member taken out with the
    separator before it, or a member added after the last, separated as the level separates its own. A key
    the level holds more than once (json.loads, like the game, reads the last) is written in its last place
    and its other copies are taken out, so that no stale copy of a field written is left."""
    last = members[-1]
    key_gap = text[last.key_end : last.value_start]
    member_gap = (
        text[members[-2].value_end : last.key_start] if len(members) > 1 else "," + " " * (" " in key_gap)
    )
    start = members[0].key_start
    gap = ARRAY_GAP.search(text, start, last.value_end)
    element_gap = "," + (" " if gap and gap[1] == " " else "")

    def encoded(value: object) -> str:
        # The level's own separators inside a value too, an object's (the signals) as well as a list's.
        return json.dumps(value, separators=(element_gap, key_gap))

    last_of = {member.key: index for index, member in enumerate(members)}
    written = dict(fields)
    removed = [
        index
        for index, member in enumerate(members)
        if member.key in written and (written[member.key] is REMOVED or index != last_of[member.key])
    ]
    edits = []
    for key, value in fields:
        if key not in last_of:
            assert value is not REMOVED
            edits.append(
                (last.value_end, last.value_end, member_gap + json.dumps(key) + key_gap + encoded(value))
            )
        elif value is not REMOVED:
            member = members[last_of[key]]
            edits.append((member.value_start, member.value_end, encoded(value)))
    return edits + removal_edits(members, removed)


def removal_edits(members: list[Member], removed: list[int]) -> list[tuple[int, int, str]]:
    """The edits that take out the members at the given indices, in order, each with the separator before
    it; those before the first member kept, with the separator after them. A level written to keeps at least
    its tiles."""
    first_kept = next(index for index in range(len(members)) if index not in removed)
    edits = [
        (members[index - 1].value_end, members[index].value_end, "")
        for index in removed
        if index > first_kept
    ]
    if first_kept:
        edits.append((members[0].key_start, members[first_kept].key_start, ""))
    return edits


# --- proofs from the solver ------------------------------------------------------------------------------


class BudgetSpent(Exception):
    """A search the proof needed ran out of its budget."""

    def __init__(self, bound: int) -> None:
        super().__init__(bound)
        self.bound = bound


def solver_prover(solver: Path, settings: SolverSettings, on_progress: OnProgress = no_progress) -> Prove:
    """Proofs from the solver, each solution replayed (verify.solve_board): every optimum of a level listed
    (--all-solutions, at most settings.max_solutions), the canonical one the first in the canonical order.
    The solver's listing asks for one optimum more than the cap: a listing that reaches its cap may have
    more, so only the one past it tells a level of exactly cap optima (complete) from one of more. Where
    that stops the listing, the listing is made again on one thread, so that which optima it holds is the
    same on every run, and the canonical one comes from probing (game_vectors.py). The budget
    (--max-seconds, --max-nodes) applies to each search."""
    cap = settings.max_solutions
    # The solver's own limit is past any listing that can be made: asking for all is the same.
    beyond_cap = None if cap is None or cap >= MAX_SOLUTIONS else cap + 1
    listing = dataclasses.replace(settings, target="0", all_solutions=True, max_solutions=beyond_cap)
    single = dataclasses.replace(settings, target="0", all_solutions=False, max_solutions=None)

    def search(board: Board, wanted: SolverSettings, progress: OnProgress = on_progress) -> Outcome:
        outcome = solve_board(solver, board, wanted, progress)
        if not isinstance(outcome, Solution | Unsolvable):
            raise BudgetSpent(outcome.bound)
        return outcome

    def prove_optimum(board: Board) -> int | None:
        outcome = search(board, single)
        return len(outcome.moves) if isinstance(outcome, Solution) else None

    def prove(board: Board) -> Proof | Unproven:
        root = RootBound(on_progress)  # the listing's own progress gives the root's bound
        try:
            outcome = search(board, listing, root)
            if isinstance(outcome, Optima) and not outcome.complete and listing.threads != 1:
                outcome = search(board, dataclasses.replace(listing, threads=1), root)
            if not isinstance(outcome, Optima):
                return Proof(None, None, (), True, None)
            height, width = shape(board)
            optima = tuple(
                canonical_order(
                    moves_to_vector(moves, height, width, scheme_of(board)) for moves in outcome.solutions
                )
            )
            optimum = len(outcome.moves)
            if outcome.complete:
                return Proof(optimum, optima[0], optima, True, root.bound(optimum))
            canonical = least_optimum_by_probing(board, optimum, optima, prove_optimum)
            return Proof(optimum, canonical, optima[:cap], False, root.bound(optimum))
        except BudgetSpent as spent:
            return Unproven(spent.bound)

    return prove


def report_lines(audits: list[LevelAudit]) -> list[str]:
    """One line per finding, then per note, each after its level's name."""
    return [f"{audit.name}: {line}" for audit in audits for line in (*audit.findings, *audit.notes)]
