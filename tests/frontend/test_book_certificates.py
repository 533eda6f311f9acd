"""annotate and generate --certificate DIR (book_certificates.py, docs/certificates.md): a certificate a
level, DIR/007.cert for level 7, each checking VALID at the par the book is given (VALID unsolvable for a
level no moves clear), written only once every level's is made, and refused before any work where no
folder can take them."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from helpers import book_tiles
from oracle import board_from_mask
from support import one_line, run, square_board, write_book

from unflip_frontend import certificate_check as checker
from unflip_frontend.book_certificates import Certifiable, certificate_name, write_certificates
from unflip_frontend.errors import SolverError
from unflip_frontend.protocol import Solution, Stopped, Unsolvable


def verdicts(book: Path, folder: Path, suffix: str = ".cert") -> dict[int, str]:
    """Each level's certificate checked by the checker alone, by the level's number."""
    found = {}
    for number, level in enumerate(json.loads(book.read_text())["levels"], 1):
        tiles = [[tile - 1 for tile in row] for row in level["tiles"]]
        path = folder / f"{number:03d}{suffix}"
        try:
            found[number] = f"VALID {checker.check_board(tiles, str(path))}"
        except checker.Invalid as exc:
            found[number] = f"INVALID: {exc}"
    return found


def test_a_generated_books_certificates_all_check_valid_at_their_par(tmp_path):
    book, folder = tmp_path / "g.json", tmp_path / "certs"
    made = run(
        "generate",
        "--size",
        "4-7",
        "--count",
        "5",
        "--seed",
        "c",
        "--out",
        str(book),
        "--certificate",
        str(folder),
    )
    assert made.exit_code == 0, made.stderr
    assert f"wrote 5 certificates of optimality to {folder}" in made.stderr
    pars = {number: level["par"] for number, level in enumerate(json.loads(book.read_text())["levels"], 1)}
    assert verdicts(book, folder) == {number: f"VALID {par}" for number, par in pars.items()}
    assert sorted(path.name for path in folder.iterdir()) == [f"00{n}.cert" for n in range(1, 6)]


def test_gzip_gzips_each_certificate_and_the_book_on_standard_output_gets_them_too(tmp_path):
    folder = tmp_path / "certs"
    made = run("generate", "--count", "2", "--seed", "z", "--certificate", str(folder), "--gzip")
    assert made.exit_code == 0, made.stderr
    book = tmp_path / "g.json"
    book.write_text(made.stdout)
    assert sorted(path.name for path in folder.iterdir()) == ["001.cert.gz", "002.cert.gz"]
    assert all(
        gzip.decompress(path.read_bytes()).startswith(b"unflip-certificate 2\n") for path in folder.iterdir()
    )
    assert all(found.startswith("VALID ") for found in verdicts(book, folder, ".cert.gz").values())


def test_annotate_writes_a_certificate_for_every_proven_level_of_our_own_book(tmp_path):
    unsolvable = book_tiles(board_from_mask(1, 2, 2))  # one black corner: no move reaches it alone
    book = write_book(
        tmp_path / "own.json",
        [
            {"tiles": square_board(5, [(1, 1, 2), (0, 2, 3)]), "par": 9},  # a wrong par, annotated to 2
            {"tiles": unsolvable, "par": 3},
            {"tiles": square_board(6, [(0, 0, 6), (2, 1, 3), (1, 3, 2), (4, 4, 2)])},
        ],
    )
    out, folder = tmp_path / "fixed.json", tmp_path / "certs"
    annotated = run("annotate", str(book), "--out", str(out), "--certificate", str(folder))
    assert annotated.exit_code == 0, annotated.stderr
    pars = [level.get("par") for level in json.loads(out.read_text())["levels"]]
    assert pars[0] == 2 and pars[1] is None
    assert verdicts(out, folder) == {1: "VALID 2", 2: "VALID unsolvable", 3: f"VALID {pars[2]}"}


@pytest.mark.parametrize(
    "args, why",
    [
        (("--gzip",), "--gzip is for the certificates of --certificate DIR: give that too"),
        (("--certificate", "-"), "--certificate needs a folder to write its files into, not -"),
    ],
)
def test_certificates_without_a_folder_are_refused_before_any_work(tmp_path, args, why):
    book = write_book(tmp_path / "own.json", [{"tiles": square_board(4, [(0, 0, 2)])}])
    refused = run("annotate", str(book), "--out", str(tmp_path / "out.json"), *args)
    assert (refused.exit_code, one_line(refused.stderr)) == (2, f"error: {why}")
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("command", ["annotate", "generate"])
def test_certificates_of_a_cluster_run_are_refused_before_any_work(tmp_path, command):
    book = write_book(tmp_path / "own.json", [{"tiles": square_board(4, [(0, 0, 2)])}])
    given = [str(book), "--out", str(tmp_path / "out.json")] if command == "annotate" else ["--count", "1"]
    refused = run(command, *given, "--certificate", str(tmp_path / "certs"), "--dask")
    assert (refused.exit_code, one_line(refused.stderr)) == (
        2,
        "error: --certificate is written by a search on this machine: drop --dask",
    )
    assert not (tmp_path / "certs").exists() and not (tmp_path / "out.json").exists()


def test_a_certificate_folder_that_is_a_file_or_under_a_missing_folder_is_refused(tmp_path):
    (tmp_path / "file").write_text("kept")
    for folder, why in [
        (tmp_path / "file", "it is not a folder"),
        (tmp_path / "missing" / "certs", f"the folder {tmp_path / 'missing'} does not exist"),
    ]:
        refused = run("generate", "--count", "1", "--certificate", str(folder))
        assert (refused.exit_code, one_line(refused.stderr)) == (2, f"error: cannot write {folder}: {why}")
    assert (tmp_path / "file").read_text() == "kept" and not (tmp_path / "missing").exists()


# --- write_certificates itself ---------------------------------------------------------------------------

LEVELS = [Certifiable(n, f"level {n}", board_from_mask(n, 3, 3), n) for n in (1, 2, 3)]


def fake_solve(stopped: int = 0, interrupted: int = 0, wrong: int = 0):
    def solve(level: Certifiable, path: Path) -> Solution | Unsolvable | Stopped:
        if level.number == interrupted:
            raise KeyboardInterrupt
        if level.number == stopped:
            return Stopped(0, 1, 0, 0.0)
        path.write_text(f"certificate of {level.name}")
        moves = level.number + (level.number == wrong)
        return Solution(0, tuple(object() for _ in range(moves)), 0, 0.0)  # type: ignore[misc]

    return solve


def test_ctrl_c_while_certificates_are_made_leaves_no_file_and_no_folder(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        write_certificates(LEVELS, 3, tmp_path / "certs", False, fake_solve(interrupted=3), lambda _: None)
    assert not (tmp_path / "certs").exists()


def test_a_level_the_budget_stopped_has_no_certificate_and_the_others_are_written(tmp_path):
    written = write_certificates(LEVELS, 3, tmp_path / "certs", False, fake_solve(stopped=2), lambda _: None)
    assert written.names == ("001.cert", "003.cert") and written.stopped == (LEVELS[1],)
    assert sorted(path.name for path in (tmp_path / "certs").iterdir()) == ["001.cert", "003.cert"]


def test_a_solve_that_disagrees_with_the_par_is_the_solvers_failure_and_writes_nothing(tmp_path):
    with pytest.raises(
        SolverError, match="level 2: the solve for its certificate found 3 moves, proven 2 moves"
    ):
        write_certificates(LEVELS, 3, tmp_path / "certs", False, fake_solve(wrong=2), lambda _: None)
    assert not (tmp_path / "certs").exists()


def test_certificate_names_sort_as_the_levels_do():
    assert [certificate_name(n, 1500, True) for n in (7, 1500)] == ["0007.cert.gz", "1500.cert.gz"]
    assert certificate_name(7, 20, False) == "007.cert"
