"""unflip.py on the game's published books, read from ../shared/books next to the repository.

The books are never copied into the repository. conftest.py's books_dir and books fixtures find them,
and skip these tests without them, except under CI=true, where a missing book is a failure.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import oracle
import pytest
from helpers import REPO
from support import json_records, run


def solve(books_dir: Path, *args: str):
    return run(*args, "--books", str(books_dir))


@pytest.mark.parametrize(("name", "number"), [("daily", 5), ("main", 1)])
def test_a_published_level_is_solved_in_its_par_with_a_card_per_move(books_dir, books, name, number):
    par = books[name][number - 1]["par"]
    result = solve(books_dir, name, str(number))
    assert result.exit_code == 0, result.stderr
    assert f"Optimal: {par} move" in result.stdout
    assert len(re.findall(rf"^Step \d+ of {par} — flip the", result.stdout, re.M)) == par
    assert "✓ Verified: replaying " in result.stdout


def test_weekly_challenge_20_is_solved_and_verified(books_dir, books):
    title = books["weekly"][19]["title"]
    result = solve(books_dir, "weekly", "20", "--compact")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"weekly level 20 — 11×11 — no par — {title}\nOptimal: ")
    assert "✓ Verified: replaying " in result.stdout


def test_list_shows_every_level_of_the_daily_book(books_dir, books):
    result = solve(books_dir, "daily", "--list")
    assert result.exit_code == 0, result.stderr
    rows = [line.split()[:3] for line in result.stdout.splitlines() if re.match(r"\s+\d+\s+\d+×\d+", line)]
    sizes = [len(level["tiles"]) for level in books["daily"]]
    pars = [level["par"] for level in books["daily"]]
    assert rows == [
        [str(i), f"{n}×{n}", str(par)] for i, (n, par) in enumerate(zip(sizes, pars, strict=True), 1)
    ]


@pytest.mark.parametrize("name", ["daily", "main"])
def test_every_published_daily_and_main_level_is_solved_at_par(books_dir, books, name):
    # Exactly the regression command CI runs: UNFLIP_BOOKS=../shared/books python unflip.py <book> --all
    result = subprocess.run(
        [sys.executable, "unflip.py", name, "--all"],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "UNFLIP_BOOKS": os.path.relpath(books_dir, REPO)},
    )
    assert result.returncode == 0, result.stderr
    with_par = sum(1 for level in books[name] if level.get("par") is not None)
    assert f"par matched on {with_par} of {with_par} levels with a par" in result.stdout


def test_every_exhaustive_daily_level_counts_as_many_optima_as_the_book_lists(books_dir, books):
    result = solve(books_dir, "daily", "--all", "--count", "--json")
    *levels, summary = json_records(result)
    assert summary["outcome"] == "passed", summary
    exhaustive = [
        (record, level)
        for record, level in zip(levels, books["daily"], strict=True)
        if level.get("solutionType") == "exhaustive"
    ]
    assert len(exhaustive) >= 100
    for record, level in exhaustive:
        assert (record["solution_count"], record["enumeration_complete"]) == (len(level["solutions"]), True)


@pytest.mark.parametrize("number", [5, 22, 40])
def test_a_daily_levels_listed_solutions_are_exactly_the_books(books_dir, books, number):
    level = books["daily"][number - 1]
    assert level.get("solutionType") == "exhaustive", "premise: a level the book lists every optimum of"
    *_, record = json_records(solve(books_dir, "daily", str(number), "--all-solutions", "--json"))
    n = len(level["tiles"])
    expected = {frozenset(oracle.book_vector_moves(n, vector)) for vector in level["solutions"]}
    listed = {frozenset((m["row"], m["col"], m["size"]) for m in moves) for moves in record["solutions"]}
    assert listed == expected and record["solution_count"] == len(expected) > 1
