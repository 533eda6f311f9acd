"""unflip solve --certificate and unflip check-certificate (docs/certificates.md): the certificate goes to
its file through files.py (whole or not at all, gzipped for a .gz name, never over the run's input), is
refused where it proves nothing, and the check answers VALID k, or INVALID with exit status 1."""

from __future__ import annotations

import gzip

from helpers import REPO
from support import SPEC_BOARD, one_line, run, write


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


def test_a_certificate_is_not_asked_of_a_cluster(tmp_path):
    result = run("daily", "5", "--certificate", str(tmp_path / "c.cert"), "--dask")
    assert result.exit_code == 2
    assert (
        one_line(result.stderr) == "error: --certificate is written by a search on this machine: drop --dask"
    )
    assert not (tmp_path / "c.cert").exists()
