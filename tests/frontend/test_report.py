"""`unflip report`: a row per level with its signals over every optimum, --json records, a --csv sheet, the
levels that break the curve, a level without figures said to be so; and `generate` to a difficulty
(--eric, --obv) and in its order (--order-by). The page (--html) is read in a browser in
test_report_page.py."""

import csv
import io
import json
import re
import signal
from pathlib import Path

import pytest
from helpers import MAX_SIDE, scrambled
from support import (
    json_records,
    no_second_bound_run,
    one_line,
    run,
    solver_lower_bound,
    square_board,
    write,
    write_book,
)
from test_interrupt import HARD_BOARD, STOPS, ctrl_c, needs_proc, read_until, running, searching_solver

from unflip_frontend import api
from unflip_frontend.books import parse_book
from unflip_frontend.difficulty import BREAK_AHEAD, curve_breaks

# A row of the table: level, board, par, optima, minEric, obv×100, gap, time, title (empty for a lone board).
ROW = re.compile(r"^ +(\d+) +(\d+×\d+) +(\S+) +(\S+) +(\S+) +(\S+) +(\S+) +(\S+)(?: +(.*))?$", re.M)

ERIC_MOST = MAX_SIDE * MAX_SIDE + 1  # the most --eric takes: the largest board's tiles, and one


def table_rows(stdout: str) -> list[tuple[str, ...]]:
    return [match.groups() for match in ROW.finditer(stdout)]


@pytest.fixture
def book(tmp_path, small_book):
    return write_book(tmp_path / "book.json", small_book)


def test_the_table_has_a_row_per_level_with_its_par_optima_figures_and_time(book):
    result = run("report", str(book), "--threads", "1")
    assert result.exit_code == 0, result.stderr
    rows = table_rows(result.stdout)
    assert [row[:2] for row in rows] == [("1", "4×4"), ("2", "5×5"), ("3", "6×6")]
    for row, level in zip(rows, parse_book(book.read_text(), "book").levels, strict=True):
        signals = api.signals(level, threads=1)
        assert row[2:7] == (
            str(signals.optimum),
            str(signals.optima),
            str(signals.min_eric),
            str(signals.obvious_100),
            str(signals.gap),
        )
        assert re.fullmatch(r"\d+\.\d{3}s", row[7])
    assert [row[2] for row in rows] == ["1", "2", "1"]  # the optima the fixture was made with


def test_a_level_whose_book_par_is_not_the_optimum_is_starred(tmp_path):
    book = write_book(tmp_path / "book.json", [{"tiles": square_board(4, [(0, 0, 2)]), "par": 3}])
    result = run("report", str(book))
    assert result.exit_code == 0, result.stderr
    assert table_rows(result.stdout)[0][2] == "1*"
    assert "*: the book's par is another" in result.stdout


def test_json_gives_a_record_per_level_then_the_reports_with_the_breaks_and_exit_status(book):
    result = run("report", str(book), "--json")
    records = json_records(result)  # each checked against the schema
    assert result.exit_code == 0
    assert [record["record"] for record in records] == ["reported"] * 3 + ["report"]
    assert [record["level"]["number"] for record in records[:3]] == [1, 2, 3]
    assert [record["signals"]["optimum"] for record in records[:3]] == [1, 2, 1]
    assert all(record["outcome"] == "measured" and record["note"] is None for record in records[:3])
    last = records[-1]
    assert (last["levels"], last["measured"], last["outcome"]) == (3, 3, "passed")
    assert set(last["breaks"]) == {"par", "eric", "obv", "gap"}
    assert last["breaks"]["par"] == [2]  # par 2 between two levels of par 1


def test_the_csv_sheet_has_a_row_per_level_with_the_figures_of_the_records(tmp_path, book):
    sheet = tmp_path / "book.csv"
    result = run("report", str(book), "--csv", str(sheet), "--json")
    assert result.exit_code == 0, result.stderr
    *records, last = json_records(result)
    rows = list(csv.DictReader(io.StringIO(sheet.read_text())))
    assert len(rows) == 3
    for row, record in zip(rows, records, strict=True):
        signals = record["signals"]
        assert row["level"] == str(record["level"]["number"])
        assert (row["height"], row["width"]) == (
            str(record["level"]["height"]),
            str(record["level"]["width"]),
        )
        for name in ("optimum", "optima", "min_eric", "max_eric", "obvious_100", "gap", "root_bound"):
            assert row[name] == str(signals[name]), name
        assert float(row["min_obvious"]) == signals["min_obvious"]
        assert (row["complete"], row["unique"]) == ("true", json.dumps(signals["unique"]))
    breaking = [[name for name, levels in last["breaks"].items() if number in levels] for number in (1, 2, 3)]
    assert [row["breaks"].split() for row in rows] == breaking
    assert "par" in rows[1]["breaks"]
    assert "wrote the report's csv to" in result.stderr


def test_csv_to_standard_output_is_the_sheet_alone(book):
    result = run("report", str(book), "--csv", "-")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("level,title,height,width,book_par,outcome,optimum,")
    assert len(result.stdout.splitlines()) == 4


def test_a_single_board_and_a_level_of_a_book_are_reports_of_one_level(tmp_path, book):
    board = write(tmp_path / "board.txt", "00000\n00010\n00000\n01000\n00000\n")
    for args in ((str(board),), (str(book), "2")):
        result = run("report", *args)
        assert result.exit_code == 0, result.stderr
        assert len(table_rows(result.stdout)) == 1
    assert table_rows(run("report", str(board)).stdout)[0][:4] == ("1", "5×5", "8", "2")


def test_an_unsolvable_level_has_no_figures_and_the_book_is_wrong_on_it(tmp_path):
    levels = [
        {"tiles": square_board(4, [(0, 0, 2)])},
        {"tiles": [[2, 1], [1, 1]]},  # one black corner: no moves clear it
        {"tiles": square_board(5, [(1, 1, 3)])},
    ]
    book = write_book(tmp_path / "book.json", levels)
    result = run("report", str(book), "--json")
    records = json_records(result)
    assert result.exit_code == 1
    assert [record["outcome"] for record in records[:3]] == ["measured", "unsolvable", "measured"]
    assert records[1]["signals"] is None and records[1]["note"] == "no sequence of moves clears this board"
    assert records[-1]["unsolvable"] == [2] and records[-1]["measured"] == 2
    table = run("report", str(book))
    assert table.exit_code == 1
    assert table_rows(table.stdout)[1][2:4] == ("-", "unsolvable")
    assert one_line(table.stderr) == (
        "error: the book is wrong on 1 of 3 levels: "
        "level 2 (unsolvable: no sequence of moves clears this board)"
    )


def test_a_level_the_budget_stops_has_no_figures_and_the_run_exits_3(tmp_path):
    book = write_book(
        tmp_path / "book.json",
        [{"tiles": [[1 + tile for tile in map(int, line)] for line in scrambled(13, 60, 7).split()]}],
    )
    result = run("report", str(book), "--max-seconds", "0.001", "--json")
    records = json_records(result)
    assert result.exit_code == 3
    assert records[0]["outcome"] == "stopped" and records[-1]["stopped"] == [1]


def test_the_files_are_written_when_a_level_has_no_figures(tmp_path):
    """A report with a level without figures is still a report: the files are written, the exit status says
    what went wrong."""
    book = write_book(tmp_path / "book.json", [{"tiles": [[2, 1], [1, 1]]}])
    page = tmp_path / "book.html"
    result = run("report", str(book), "--html", str(page))
    assert result.exit_code == 1
    assert "unsolvable" in page.read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("daily", "999"), "error: daily has 159 levels; level 999 is out of range (1–159)"),
        (("BOARD", "2"), "error: BOARD is a single board: drop the level number"),
        (("daily", "--csv", "-", "--html", "-"), "error: --csv - writes standard output, and so does --html"),
        (("daily", "--csv", "-", "--json"), "error: --csv - writes standard output, and so does --json"),
        (
            ("daily", "--csv", "NOWHERE/book.csv"),
            "error: cannot write NOWHERE/book.csv: the folder NOWHERE does not exist",
        ),
        (("daily", "--csv", "SAME", "--html", "SAME"), "error: cannot write SAME: --csv writes it too"),
        (("BOOK", "--html", "BOOK"), "error: cannot write BOOK: it is this run's input BOOK"),
        (("daily", "--max-solutions", "0"), "error: Invalid value for '--max-solutions'"),
        (("daily", "--max-seconds", "nan"), "error: Invalid value for '--max-seconds'"),
        (("nosuchbook",), "error: no such book or board file: nosuchbook"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(tmp_path, book, args, message):
    board = write(tmp_path / "board.txt", "11\n11\n")
    names = {
        "BOARD": str(board),
        "BOOK": str(book),
        "NOWHERE": str(tmp_path / "nowhere"),
        "SAME": str(tmp_path / "same"),
    }
    given = [re.sub("|".join(names), lambda match: names[match[0]], arg) for arg in args]
    result = run("report", *given)
    assert result.exit_code == 2, result.output
    line = one_line(result.stderr)
    expected = re.sub("|".join(names), lambda match: names[match[0]], message)
    assert line.startswith(expected), line
    assert not list(tmp_path.glob("*.csv")) and not list(tmp_path.glob("*.html"))


def test_the_root_bound_comes_from_the_listing_search_and_is_the_solvers_lower_bound(monkeypatch):
    """One solver run a level: the bound the listing's search started from is what --lower-bound says."""
    weekly = api.read_book("weekly").levels
    levels = [weekly[22], weekly[23], weekly[0]]  # gaps 2, 2 and 0 on the shipped book
    expected = [solver_lower_bound(level.board) for level in levels]
    no_second_bound_run(monkeypatch)
    found = [api.signals(level) for level in levels]
    assert [signals.root_bound for signals in found] == expected
    assert [signals.gap for signals in found] == [2, 2, 0]


@pytest.mark.parametrize(
    ("values", "breaks"),
    [
        ([1, 2, 3, 4, 5, 6], []),  # rising: no break
        ([1, 9, 2, 2, 3, 3, 4], [1]),  # a hard level among easy ones
        ([9, 1, 1, 1, 1, 1, 9], [0]),  # the last level has nothing after it
        ([5, None, 1, 1, None, 1], [0]),  # a level without the figure neither breaks nor counts
        ([3, 3, 3], []),
        ([None, None], []),
    ],
)
def test_a_level_breaks_the_curve_when_harder_than_the_next_levels_median_by_a_quarter_of_the_range(
    values, breaks
):
    assert curve_breaks(values) == breaks


def test_a_level_compares_with_the_next_five_levels_only():
    assert BREAK_AHEAD == 5
    # The next five are 9, 9, 9, 1, 1 (median 9); all eight after the first have median 1.
    assert 0 not in curve_breaks([5, 9, 9, 9, 1, 1, 1, 1, 1])
    assert 0 in curve_breaks([5, 9, 9, 1, 1, 1])


# --- generate to a difficulty ------------------------------------------------------------------------------


def generated(tmp_path, *args: str) -> list:
    out = tmp_path / "made.json"
    result = run("generate", "--size", "4-5", "--count", "4", "--seed", "designer", *args, "--out", str(out))
    assert result.exit_code == 0, result.stderr
    return [api.signals(level) for level in parse_book(out.read_text(), "made").levels]


def test_generate_keeps_only_levels_within_the_eric_and_obv_ranges(tmp_path):
    made = generated(tmp_path, "--eric", "8-12", "--obv", "20-30")
    assert all(8 <= signals.min_eric <= 12 for signals in made), [s.min_eric for s in made]
    assert all(20 <= signals.obvious_100 <= 30 for signals in made), [s.obvious_100 for s in made]
    unfiltered = generated(tmp_path)
    assert not all(8 <= s.min_eric <= 12 and 20 <= s.obvious_100 <= 30 for s in unfiltered), (
        "the ranges would not have filtered anything"
    )


@pytest.mark.parametrize(
    ("figure", "value", "plan"),
    [
        ("par", "optimum", ()),
        ("eric", "min_eric", ()),
        ("obv", "obvious_100", ()),
        # Levels whose optimum is above the root's bound are rarer: on these, two in five.
        ("gap", "gap", ("--size", "7-8", "--optimum", "11-16", "--count", "5", "--seed", "b")),
    ],
)
def test_generate_orders_the_book_by_the_figure_asked_for(tmp_path, figure, value, plan):
    drawn = [getattr(signals, value) for signals in generated(tmp_path, *plan)]
    assert drawn != sorted(drawn), "the levels as drawn are in order already"
    ordered = [getattr(signals, value) for signals in generated(tmp_path, *plan, "--order-by", figure)]
    assert ordered == sorted(drawn)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--eric", "9-3"), f"error: Invalid value for '--eric': '9-3' is not a range within 1-{ERIC_MOST}"),
        (("--obv", "101"), "error: Invalid value for '--obv': '101' is not a range within 0-100"),
        (("--order-by", "fun"), "error: Invalid value for '--order-by': 'fun' is not one of"),
        (
            ("--size", "4x5", "--eric", "30-40"),
            "error: --eric 30–40 is out of reach: an Eric number on 4×5 boards is at most 21",
        ),
    ],
)
def test_generate_refuses_a_bad_difficulty_in_one_line(args, message):
    result = run("generate", *args)
    assert result.exit_code == 2
    assert one_line(result.stderr).startswith(message)


def test_the_json_record_of_a_report_names_the_book(book):
    last = json.loads(run("report", str(book), "--json").stdout.splitlines()[-1])
    assert last["book"] == str(book)


@needs_proc
@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["Ctrl-C", "SIGTERM"])
def test_a_stopped_report_keeps_the_rows_done_writes_no_file_and_leaves_no_solver(tmp_path, sent):
    """Level 1 is measured at once, level 2 searches until the signal (sent to the front end alone for
    SIGTERM, as `kill` sends it, while the search runs on a worker thread): level 1's row stays, the page
    is not written, no solver is left running."""
    easy = square_board(4, [(0, 0, 2)])
    hard = [[1 + int(tile) for tile in line] for line in HARD_BOARD.split()]
    book = write_book(tmp_path / "book.json", [{"tiles": easy}, {"tiles": hard}, {"tiles": easy}])
    page = tmp_path / "book.html"
    with running("report", str(book), "--html", str(page), "--max-seconds", "120") as front:
        read_until(front.stdout, lambda line: re.match(r"^\s+1\s+4×4\s+1\s", line))
        solver = searching_solver(front)
        after, stderr = ctrl_c(front, whole_group=sent == signal.SIGINT, sent=sent)
    status, last_line = STOPS[sent]
    assert front.returncode == status
    assert stderr.strip().splitlines()[-1] == f"{last_line} after 1 of 3 levels"
    assert not re.search(r"^\s+[23]\s+", after, re.M), "a row for a level that was not measured"
    assert not page.exists() and not list(tmp_path.glob(".book.html*"))
    assert not Path(f"/proc/{solver}").exists()
