"""Issue 18 through the command line, as a level designer meets it: every level unflip writes (generate,
books, annotate) loads in the game with its proven par, annotate fixes a book exactly where it is wrong and
never leaves half a file, and share writes a game link that reads back as the same board. Every vector is
replayed by the independent oracle, in the game's move order as test_annotate.py writes it."""

from __future__ import annotations

import json
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import oracle
import pytest
from helpers import MAX_SIDE, REPO
from support import SIDE_RANGE, SPEC_BOARD, json_records, one_line, run, write
from test_annotate import STYLES, clears_in, tiles, vector_of, wrong_book

from unflip_frontend.books import BOOK_FILES

GAME_FIELDS = ("par", "solutions", "solutionVector", "solutionType")


def check_game_fields(levels: list[dict], ours: bool = True) -> None:
    """Each level has solutions and solutionVector of its shape's length, each clearing the board in exactly
    par moves as the oracle replays it. Where unflip chose them (ours), solutionVector is the first of
    solutions and solutionType one of unflip's; a book's own valid choices and labels are kept."""
    for level in levels:
        height, width = oracle.shape(oracle.book_board(level))
        assert len(level["solutionVector"]) == len(oracle.game_order(height, width)), level.get("id")
        if ours:
            assert level["solutions"][0] == level["solutionVector"]
            assert level["solutionType"] in ("optimal", "exhaustive")
        for vector in [*level["solutions"], level["solutionVector"]]:
            assert clears_in(level, vector) == level["par"], level.get("id")


def oracle_optima(level: dict) -> list[list[int]] | None:
    """Every optimal vector of a level small enough for the oracle's coset enumeration, else None."""
    board = oracle.book_board(level)
    height, width = oracle.shape(board)
    if len(oracle.game_order(height, width)) > 64:
        return None
    sets = oracle.optimal_solution_sets(board)
    assert sets is not None
    return [vector_of(height, width, chosen) for chosen in sets]


@pytest.mark.parametrize("kind", ["daily", "main", "weekly"])
def test_every_shipped_level_carries_its_canonical_optimum_which_the_oracle_replays_in_par_moves(kind):
    levels = json.loads((REPO / BOOK_FILES[kind]).read_text())["levels"]
    check_game_fields(levels)
    checked = 0
    for level in levels:
        optima = oracle_optima(level)
        if optima is None:
            continue
        checked += 1
        # The canonical optimum is the greatest digit string of all the optima; exhaustive means it is alone.
        assert level["solutionVector"] == max(optima), level["id"]
        assert (level["solutionType"] == "exhaustive") == (len(optima) == 1), level["id"]
    assert checked or kind == "weekly"


def test_generate_writes_the_same_canonical_vectors_at_one_and_two_threads_for_rectangles_too(tmp_path):
    arguments = ["generate", "--size", "3-6x4-7", "--optimum", "3-8", "--count", "6", "--seed", "designer"]
    for threads in ("1", "2"):
        result = run(*arguments, "--threads", threads, "--out", str(tmp_path / f"{threads}.json"))
        assert result.exit_code == 0, result.output
    assert (tmp_path / "1.json").read_bytes() == (tmp_path / "2.json").read_bytes()
    levels = json.loads((tmp_path / "1.json").read_text())["levels"]
    assert any(len(level["tiles"]) != len(level["tiles"][0]) for level in levels)
    check_game_fields(levels)
    for level in levels:
        optima = oracle_optima(level)
        if optima is not None:
            assert level["solutionVector"] == max(optima)


# --- annotate -------------------------------------------------------------------------------------------


def annotate(*arguments: str) -> tuple[int, str, str]:
    result = run("annotate", *arguments)
    return result.exit_code, result.stdout, result.stderr


def test_annotate_changes_no_par_and_no_valid_vector_of_the_official_main_and_daily_books(
    tmp_path, books_dir
):
    for name in ("main", "daily"):
        source = books_dir / BOOK_FILES[name]
        out = tmp_path / f"{name}.json"
        code, stdout, stderr = annotate(str(source), "--out", str(out))
        assert code == 0, stderr
        assert "the book was wrong on none" in stdout
        old_levels = json.loads(source.read_text())["levels"]
        new_levels = json.loads(out.read_text())["levels"]
        for old, new in zip(old_levels, new_levels, strict=True):
            assert new["par"] == (old["par"] if old["par"] is not None else 2)  # main level 8 had none
            assert new["solutions"] == old["solutions"]
            if "solutionVector" in old:
                assert new["solutionVector"] == old["solutionVector"]
            assert {key: value for key, value in new.items() if key not in GAME_FIELDS} == {
                key: value for key, value in old.items() if key not in GAME_FIELDS
            }
        check_game_fields(new_levels, ours=False)


def test_annotate_exhaustive_reproduces_each_exhaustive_daily_list(tmp_path, books_dir):
    source = books_dir / BOOK_FILES["daily"]
    out = tmp_path / "daily.json"
    code, _, stderr = annotate(str(source), "--exhaustive", "--out", str(out))
    assert code == 0, stderr
    old_levels = json.loads(source.read_text())["levels"]
    new_levels = json.loads(out.read_text())["levels"]
    exhaustive = [
        pair for pair in zip(old_levels, new_levels, strict=True) if pair[0]["solutionType"] == "exhaustive"
    ]
    assert len(exhaustive) >= 100
    for old, new in exhaustive:
        assert (new["solutions"], new["solutionType"], new["par"]) == (
            old["solutions"],
            "exhaustive",
            old["par"],
        )
    assert all(new["solutionType"] == "exhaustive" for new in new_levels)
    check_game_fields(new_levels)


@pytest.mark.parametrize("style", STYLES)
def test_annotate_fixes_a_book_made_wrong_on_purpose_exactly_where_it_is_wrong(tmp_path, style):
    book, expected = wrong_book()
    source = write(tmp_path / "wrong.json", json.dumps(book, **STYLES[style]))
    out = tmp_path / "fixed.json"
    code, stdout, stderr = annotate(str(source), "--out", str(out))
    assert code == 0, stderr
    lines = stdout.splitlines()
    for number, phrases in expected.items():
        said = [line for line in lines if line.startswith(f"{source} level {number}:")]
        for phrase in phrases:
            assert any(phrase in line for line in said), (number, phrase, said)
    assert not any(line.startswith(f"{source} level 8:") for line in lines)  # the level that was right
    assert lines[-1] == "7 of 8 levels changed; the book was wrong on 6"

    text, fixed = source.read_text(), out.read_text()
    new = json.loads(fixed)
    assert {key: value for key, value in new.items() if key != "levels"} == {
        key: value for key, value in book.items() if key != "levels"
    }
    for old_level, new_level in zip(book["levels"], new["levels"], strict=True):
        kept = [key for key in old_level if key in new_level]  # all but an impossible level's solutionVector
        assert [key for key in new_level if key in old_level] == kept
        for key, value in old_level.items():
            if key not in GAME_FIELDS:
                assert new_level[key] == value
        if new_level["solutionType"] != "impossible":
            assert new_level["par"] == oracle.coset_optimum(oracle.book_board(new_level))
            check_game_fields([new_level])
    if style == "compact":
        # Every byte outside the levels that changed is as it was: put the old levels back, get the book.
        restored = fixed
        for old_level, new_level in zip(book["levels"], new["levels"], strict=True):
            restored = restored.replace(
                json.dumps(new_level, **STYLES[style]), json.dumps(old_level, **STYLES[style])
            )
        assert restored == text


def test_annotate_json_records_each_level_then_the_book_written(tmp_path):
    book, _ = wrong_book()
    source = write(tmp_path / "wrong.json", json.dumps(book))
    result = run("annotate", str(source), "--out", str(tmp_path / "fixed.json"), "--json")
    assert result.exit_code == 0, result.stderr
    *levels, summary = json_records(result)
    assert [record["record"] for record in levels] == ["annotated"] * 8
    assert [record["outcome"] for record in levels][3:5] == ["exhaustive", "impossible"]
    assert levels[0]["findings"] == ["par 4, optimum 2, proven; par set to 2"]
    assert levels[7]["changed"] == []
    assert (summary["record"], summary["wrong"], summary["changed"]) == (
        "annotate",
        [1, 2, 3, 4, 5, 7],
        [1, 2, 3, 4, 5, 6, 7],
    )


def test_annotate_writes_over_its_book_only_with_in_place_and_keeps_its_mode(tmp_path):
    book, _ = wrong_book()
    source = write(tmp_path / "wrong.json", json.dumps(book))
    source.chmod(0o640)
    code, _, stderr = annotate(str(source), "--out", str(source))
    assert code == 2
    assert (
        one_line(stderr)
        == f"error: --out {source} is BOOK itself: give --in-place to write over it, or another file"
    )
    code, _, stderr = annotate(str(source))
    assert (code, one_line(stderr)) == (
        2,
        "error: give --out FILE for the annotated book, or --in-place to write it over BOOK",
    )
    assert json.loads(source.read_text()) == book
    code, _, stderr = annotate(str(source), "--in-place")
    assert code == 0, stderr
    assert json.loads(source.read_text())["levels"][0]["par"] == 2
    assert stat.S_IMODE(source.stat().st_mode) == 0o640
    assert sorted(path.name for path in tmp_path.iterdir()) == ["wrong.json"]


def hard_book(path: Path) -> Path:
    """Levels whose optima take the solver far longer to list than a test waits."""
    rng = random.Random(18)
    boards = [oracle.board_from_random_moves(rng, 13, 45) for _ in range(3)]
    return write(path, json.dumps({"title": "hard", "levels": [{"tiles": tiles(board)} for board in boards]}))


@pytest.mark.parametrize("signal_number, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("in_place", [False, True])
def test_ctrl_c_or_sigterm_in_the_middle_of_annotate_leaves_no_partial_file(
    tmp_path, signal_number, status, in_place
):
    source = hard_book(tmp_path / "hard.json")
    before = source.read_bytes()
    target = ["--in-place"] if in_place else ["--out", str(tmp_path / "out.json")]
    process = subprocess.Popen(
        [sys.executable, "unflip.py", "annotate", str(source), "--exhaustive", *target],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(3)  # well into the first level's listing
        process.send_signal(signal_number)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == status, stderr
    assert "Traceback" not in stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["hard.json"]
    assert source.read_bytes() == before


def test_a_level_a_budget_cannot_prove_keeps_its_fields_and_annotate_exits_3(tmp_path):
    source = hard_book(tmp_path / "hard.json")
    out = tmp_path / "out.json"
    code, stdout, stderr = annotate(str(source), "--out", str(out), "--max-seconds", "0.2")
    assert code == 3, stderr
    assert one_line(stderr.replace(f"wrote the annotated book to {out}", "")).startswith(
        "stopped by budget: 3 of 3 levels not proven, their fields kept: level 1 (at least "
    )
    assert out.read_text() == source.read_text()
    assert "0 of 3 levels changed" in stdout


# --- game links -----------------------------------------------------------------------------------------

BOARDS = {
    "square": SPEC_BOARD,
    "3 rows of 5": oracle.board_text(
        oracle.replay(oracle.uniform(3, 0, 5), [(0, 0, 2), (1, 3, 2), (0, 1, 3)])
    ),
    "6 rows of 4": oracle.board_text(
        oracle.replay(oracle.uniform(6, 0, 4), [(0, 0, 4), (4, 2, 2), (2, 1, 3)])
    ),
}


@pytest.mark.parametrize("name", BOARDS)
def test_share_then_reading_the_link_back_gives_the_same_board_width_first(tmp_path, name):
    text = BOARDS[name]
    board = oracle.as_board(text)
    height, width = oracle.shape(board)
    result = run("share", str(write(tmp_path / "board.txt", text)))
    assert result.exit_code == 0, result.stderr
    link = one_line(result.stdout)
    prefix = f"https://unflipgame.com/?custom=s_{width}_{height}$m_2$v$"
    assert link.startswith(prefix)
    vector = [int(digit) for digit in link.removeprefix(prefix)]
    assert clears_in({"tiles": tiles(board)}, vector) == oracle.coset_optimum(board)

    [record] = json_records(run(link, "--json"))
    assert record["level"]["board"] == [line for line in text.splitlines() if line]
    assert (record["level"]["link"], record["level"]["par"]) == (link, record["move_count"])
    assert record["at_par"] is True


def test_a_link_is_a_source_like_any_level_for_hint_annotate_and_a_new_page(tmp_path):
    squares = [(0, 0, 5), (0, 0, 4), (1, 1, 3), (1, 3, 2), (3, 0, 2)]  # a creator's vector, not optimal
    creators = vector_of(5, 5, squares)
    made = oracle.replay(oracle.uniform(5, 0), squares)
    link = "s_5_5$m_2$v$" + "".join(map(str, creators))
    result = run("hint", link)
    assert result.exit_code == 0, result.output
    out = tmp_path / "one.json"
    code, stdout, stderr = annotate(link, "--out", str(out))
    assert code == 0, stderr
    [level] = json.loads(out.read_text())["levels"]
    assert oracle.book_board(level) == made and level["par"] == oracle.coset_optimum(made)
    check_game_fields([level])
    code, _, stderr = annotate(link, "--in-place")
    assert (code, one_line(stderr)) == (
        2,
        "error: game link is not a book file to write over: give --out FILE",
    )
    shared = run("share", link, "--page", "http://localhost:5173/play?x=1")
    assert shared.exit_code == 0, shared.stderr
    assert one_line(shared.stdout).startswith("http://localhost:5173/play?x=1&custom=s_5_5$m_2$v$")


@pytest.mark.parametrize(
    "link, message",
    [
        ("s_5_5$m_4$v$" + "0" * 30, "m_4 would be a 4-colour arithmetic"),
        ("s_5_5$m_3$v$3" + "0" * 29, "has 3 at entry 1; every entry is 0, 1 or 2"),
        ("s_5_5$m_2$v$" + "0" * 29, "has 29 entries, but a 5×5 board has 30 moves"),
        ("s_5_5$m_2$v$2" + "0" * 29, "has 2 at entry 1; every entry is 0 or 1"),
        (f"s_{MAX_SIDE + 1}_5$m_2$v$0", SIDE_RANGE),
        ("https://unflipgame.com/?custom=", "the custom parameter, which holds the level, is empty"),
    ],
)
@pytest.mark.parametrize("command", [[], ["share"], ["annotate", "--out", "x.json"]])
def test_a_bad_link_is_one_line_and_exit_2(tmp_path, monkeypatch, link, message, command):
    monkeypatch.chdir(tmp_path)
    result = run(*command[:1], link, *command[1:])
    assert result.exit_code == 2, result.output
    line = one_line(result.stderr)
    assert line.startswith("error: game link") and message in line
    assert list(tmp_path.iterdir()) == []


def test_share_json_names_the_level_its_link_and_the_optimum(tmp_path):
    [record] = json_records(run("share", str(write(tmp_path / "board.txt", SPEC_BOARD)), "--json"))
    assert (record["record"], record["optimum"], record["exit_status"]) == ("share", 8, 0)
    assert record["link"].startswith("https://unflipgame.com/?custom=s_5_5$m_2$v$")


def test_share_of_a_board_without_a_solution_says_so_and_exits_1(tmp_path):
    result = run("share", str(write(tmp_path / "board.txt", "10\n00\n")))
    assert (result.exit_code, result.stdout) == (1, "")
    assert one_line(result.stderr) == "unsolvable: no sequence of moves clears this board"


def test_the_canonical_vector_of_a_shared_level_does_not_depend_on_the_threads(tmp_path):
    source = str(write(tmp_path / "board.txt", SPEC_BOARD))
    links = {one_line(run("share", source, "--threads", threads).stdout) for threads in ("1", "2")}
    assert len(links) == 1
