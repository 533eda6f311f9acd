"""unflip solve --certificate and unflip check-certificate (docs/certificates.md): the certificate goes to
its file through files.py (whole or not at all, gzipped for a .gz name, never over the run's input), is
refused where it proves nothing, and the check answers VALID k for the target asked (and for a book's level,
whether k is its par), INVALID with exit status 1, or for a certificate it cannot read one line and 2."""

from __future__ import annotations

import gzip
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import MAX_SIDE, MIN_SIDE, REPO, book_tiles, limit_memory, run_checker
from oracle import board_from_mask
from support import SPEC_BOARD, one_line, run, square_board, write, write_book

from unflip_frontend import certificate_check


def test_a_solved_board_writes_a_certificate_that_checks_valid(tmp_path):
    board = write(tmp_path / "b.txt", SPEC_BOARD)
    solved = run(str(board), "--compact", "--certificate", str(tmp_path / "b.cert"))
    assert solved.exit_code == 0, solved.stderr
    assert f"wrote the certificate of optimality to {tmp_path / 'b.cert'}" in solved.stderr
    assert (tmp_path / "b.cert").read_text().startswith("unflip-certificate 2\nboard 5 5\n")
    checked = run("check-certificate", str(board), str(tmp_path / "b.cert"))
    assert (checked.exit_code, checked.stdout) == (0, "VALID 8 (target 0)\n")


def test_a_gz_name_gets_a_gzipped_certificate_and_a_book_level_checks_by_its_number(tmp_path):
    cert = tmp_path / "daily5.cert.gz"
    assert run("daily", "5", "--compact", "--certificate", str(cert)).exit_code == 0
    assert gzip.decompress(cert.read_bytes()).startswith(b"unflip-certificate 2\n")
    checked = run("check-certificate", "daily", "5", str(cert))
    assert (checked.exit_code, checked.stdout) == (0, "VALID 11 (target 0), the level's par\n")


def test_a_certificate_checked_against_another_level_is_invalid_with_status_1(tmp_path):
    cert = tmp_path / "daily5.cert"
    assert run("daily", "5", "--compact", "--certificate", str(cert)).exit_code == 0
    checked = run("check-certificate", "daily", "6", str(cert))
    assert checked.exit_code == 1
    assert one_line(checked.stdout) == "INVALID: line 3: the certificate is for another board"


def test_a_missing_certificate_is_one_error_line_with_status_2(tmp_path):
    checked = run("check-certificate", "daily", "5", str(tmp_path / "none"))
    assert checked.exit_code == 2
    assert one_line(checked.stderr).startswith(f"error: cannot read the certificate {tmp_path / 'none'}: ")


def test_a_certificate_is_refused_over_the_runs_input_before_any_work(tmp_path):
    board = write(tmp_path / "b.txt", SPEC_BOARD)
    refused = run(str(board), "--certificate", str(board))
    assert refused.exit_code == 2
    assert one_line(refused.stderr) == f"error: cannot write {board}: it is this run's input {board}"
    assert board.read_text() == SPEC_BOARD


def test_a_certificate_is_refused_where_it_proves_nothing(tmp_path):
    cert = str(tmp_path / "c")
    for args, why in [
        (("daily", "--all"), "--certificate is for one level: give a level, not --list or --all"),
        (
            ("daily", "5", "--count"),
            "--certificate proves one solution optimal: drop --all-solutions and --count",
        ),
        (("daily", "5"), "--certificate needs a file name: standard output shows the solution"),
    ]:
        refused = run(*args, "--certificate", "-" if len(args) == 2 and args[1] == "5" else cert)
        assert (refused.exit_code, one_line(refused.stderr)) == (2, f"error: {why}")
    assert not (tmp_path / "c").exists()


def test_an_unsolvable_board_writes_a_certificate_that_checks_valid_unsolvable(tmp_path):
    board = write(tmp_path / "b.txt", "10\n00\n")
    result = run(str(board), "--certificate", str(tmp_path / "c"))
    assert result.exit_code == 1
    assert f"wrote the certificate that no moves solve it to {tmp_path / 'c'}" in result.stderr
    assert "\nclaim unsolvable\n" in (tmp_path / "c").read_text()
    checked = run("check-certificate", str(board), str(tmp_path / "c"))
    assert (checked.exit_code, checked.stdout) == (0, "VALID unsolvable (target 0)\n")


def test_the_checker_imports_nothing_of_the_solver_or_the_front_end():
    source = (REPO / "unflip_frontend" / "certificate_check.py").read_text()
    imports = {line.split()[1] for line in source.splitlines() if line.startswith(("import ", "from "))}
    assert imports == {"__future__", "gzip", "sys", "zlib", "collections.abc", "typing"}


def test_the_checkers_sides_are_the_contracts_though_it_reads_nothing_of_the_solver():
    assert certificate_check.SIDES == range(MIN_SIDE, MAX_SIDE + 1)


def test_a_certificate_is_not_asked_of_a_cluster(tmp_path):
    result = run("daily", "5", "--certificate", str(tmp_path / "c.cert"), "--dask")
    assert result.exit_code == 2
    assert (
        one_line(result.stderr) == "error: --certificate is written by a search on this machine: drop --dask"
    )
    assert not (tmp_path / "c.cert").exists()


# --- the target asked, and the par (issue 34) ---------------------------------------------------


def test_a_certificate_for_another_target_is_invalid_unless_that_target_is_asked(tmp_path):
    # Daily 9's par, 5, is for white, the game's goal; all black takes 4.
    cert = tmp_path / "daily9-black.cert"
    assert run("daily", "9", "--target", "1", "--compact", "--certificate", str(cert)).exit_code == 0
    checked = run("check-certificate", "daily", "9", str(cert))
    assert (checked.exit_code, one_line(checked.stdout)) == (
        1,
        "INVALID: line 8: the certificate is for target 1, not the target asked, 0",
    )
    for asked in ("1", "black"):
        checked = run("check-certificate", "daily", "9", str(cert), "--target", asked)
        answer = "VALID 4 (target 1); the level's par, 5, is for target 0\n"
        assert (checked.exit_code, checked.stdout) == (0, answer)


def test_either_asks_for_a_certificate_of_the_fewest_moves_to_either_colour(tmp_path):
    # The specification's board takes 8 moves to white and 7 to black: neither proof answers the other.
    board = write(tmp_path / "b.txt", SPEC_BOARD)
    white, either = tmp_path / "white.cert", tmp_path / "either.cert"
    assert run(str(board), "--compact", "--certificate", str(white)).exit_code == 0
    assert run(str(board), "--target", "either", "--compact", "--certificate", str(either)).exit_code == 0
    assert run("check-certificate", str(board), str(either)).exit_code == 1
    assert run("check-certificate", str(board), str(white), "--target", "either").exit_code == 1
    checked = run("check-certificate", str(board), str(either), "--target", "either")
    assert (checked.exit_code, checked.stdout) == (0, "VALID 7 (target either)\n")


def test_a_proven_optimum_that_is_not_the_levels_par_says_the_par_is_wrong(tmp_path):
    solvable = square_board(5, [(1, 1, 2), (0, 2, 3)])  # two moves
    unsolvable = book_tiles(board_from_mask(1, 2, 2))  # one black corner: no move reaches it alone
    book = write_book(tmp_path / "own.json", [{"tiles": solvable, "par": 9}, {"tiles": unsolvable, "par": 3}])
    answers = []
    for level in ("1", "2"):
        cert = tmp_path / f"{level}.cert"
        run(str(book), level, "--compact", "--certificate", str(cert))
        checked = run("check-certificate", str(book), level, str(cert))
        answers.append((checked.exit_code, checked.stdout))
    assert answers == [
        (0, "VALID 2 (target 0), not the level's par 9: the par is wrong\n"),
        (0, "VALID unsolvable (target 0), not the level's par 3: the par is wrong\n"),
    ]


# --- hostile certificates (issue 34), through both programs: each was a traceback, read as INVALID -----


@pytest.fixture(scope="module")
def spec_certificate(tmp_path_factory) -> tuple[Path, str]:
    """The specification's board, in a file, and its certificate's text (its tree branches)."""
    folder = tmp_path_factory.mktemp("spec")
    board, cert = write(folder / "board.txt", SPEC_BOARD), folder / "board.cert"
    assert run(str(board), "--compact", "--certificate", str(cert)).exit_code == 0
    return board, cert.read_text()


def nested_by_t(text: str) -> str:
    """The certificate's root weighting, then 20,000 branches at the root's point, each going on with 'T'
    as the same node, and a leaf whose bound is 1 move, of the 7 left."""
    head, root = text.split("\nproof 0\n")
    declaration, branch = root.split("\n")[:2]
    return f"{head}\nproof 0\n{declaration}\n" + f"{branch}\nT\n" * 20_000 + "O\nend\n"


def hostile(case: str, text: str, folder: Path) -> tuple[str, int, str]:
    """The certificate's path, and the exit status and line (less 'error: ' or its path) it must give."""
    path = folder / "hostile.cert"
    if case == "a number of 5,000 digits":
        path.write_text(text.replace("\ndenominator 1048576\n", "\ndenominator " + "9" * 5000 + "\n"))
        line = text[: text.index("denominator")].count("\n") + 1
        cap = certificate_check.LONGEST_WORD
        return str(path), 2, f"line {line}: a word of 5,000 characters, more than this checker's cap of {cap}"
    if case == "20,000 branches nested by T":
        path.write_text(nested_by_t(text))
        line = nested_by_t(text).count("\n") - 1
        why = "a leaf's bound O proves 1 moves, not more than the 7 left"
        return str(path), 1, f"INVALID: line {line}: {why}"
    too_long = "line 1 is over 1,048,576 characters, this checker's cap"
    if case == "/dev/zero":
        return "/dev/zero", 2, too_long
    path.write_bytes(gzip.compress(bytes(64 << 20), compresslevel=1))  # 64 MiB of zero bytes, 64 KB
    return str(path), 2, too_long


@pytest.mark.parametrize("program", ["check-certificate", "certificate_check.py"])
@pytest.mark.parametrize(
    "case",
    ["a number of 5,000 digits", "20,000 branches nested by T", "/dev/zero", "64 MiB of zeros gzipped"],
)
def test_a_hostile_certificate_is_one_line_and_its_status_never_a_traceback(
    spec_certificate, tmp_path, program, case
):
    board, text = spec_certificate
    path, status, line = hostile(case, text, tmp_path)
    if program == "check-certificate":  # as a program too: 1 GiB of memory, a traceback's exit status
        command = [sys.executable, str(REPO / "unflip.py"), "check-certificate", str(board), path]
        result = subprocess.run(command, capture_output=True, text=True, preexec_fn=limit_memory, timeout=120)
        error = f"error: cannot read the certificate {path}: {line}"
    else:
        result = run_checker(board, path)
        error = f"error: {line}"
    assert "Traceback" not in result.stderr
    if status == 1:
        assert (result.returncode, one_line(result.stdout), result.stderr) == (1, line, "")
    else:
        assert (result.returncode, result.stdout, one_line(result.stderr)) == (2, "", error)
