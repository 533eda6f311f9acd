"""Files annotate and generate must not replace, or leave half-made (issue 34, items 7-11): --certificate
DIR never writes over the book read nor over --out, however the names differ; a certificate in DIR that may
not be replaced, a folder that cannot be made or written in (a read-only file system, a user without root)
is refused before any work, in one line naming it, exit 2; a book's certificates are written all or none;
annotate --out - is refused rather than made a file named '-'."""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import Result
from helpers import REPO, in_ci
from support import json_records, one_line, run, square_board, write_book
from test_book_certificates import LEVELS, fake_solve

from unflip_frontend.book_certificates import write_certificates
from unflip_frontend.errors import InputError

# Three small levels, each proven in a few nodes.
LEVELS_OF_A_BOOK = [
    {"tiles": square_board(4, squares)} for squares in ([(0, 0, 2)], [(0, 0, 2), (1, 1, 3)], [(2, 2, 2)])
]
GENERATE = ["generate", "--count", "3", "--size", "4", "--seed", "s"]


def folder_contents(folder: Path) -> dict[str, bytes]:
    """Every entry of a folder, hidden ones too, with its bytes."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def records(result: Result) -> list[tuple[str, str | None]]:
    """Each --json record's kind, with its message if it has one."""
    return [(record["record"], record.get("message")) for record in json_records(result)]


def old_certificates(folder: Path, numbers: tuple[int, ...] = (1, 2, 3)) -> dict[str, bytes]:
    folder.mkdir()
    for number in numbers:
        (folder / f"{number:03d}.cert").write_text(f"old certificate {number}")
    return folder_contents(folder)


# --- 7: never over the book read, nor over --out ----------------------------------------------------------


@pytest.mark.parametrize("name", ["the book itself", "a hard link", "a symbolic link", "a path through .."])
def test_a_certificate_folder_holding_the_book_read_is_refused_before_any_work(tmp_path, name):
    folder = tmp_path / "ci"
    folder.mkdir()
    linked = name in ("a hard link", "a symbolic link")
    book = write_book(tmp_path / "b.json" if linked else folder / "002.cert", LEVELS_OF_A_BOOK)
    if name == "a hard link":
        os.link(book, folder / "002.cert")
    if name == "a symbolic link":
        (folder / "002.cert").symlink_to(book)
    given = tmp_path / "ci" / ".." / "ci" if name == "a path through .." else folder
    before = folder_contents(folder)
    refused = run("annotate", str(book), "--out", str(tmp_path / "o.json"), "--certificate", str(given))
    assert refused.exit_code == 2
    assert one_line(refused.stderr) == f"error: cannot write {given}/002.cert: it is this run's input {book}"
    assert refused.stdout == ""  # no level was proven
    assert folder_contents(folder) == before and not (tmp_path / "o.json").exists()


def test_a_certificate_folder_holding_the_book_written_in_place_is_refused(tmp_path):
    folder = tmp_path / "ci"
    folder.mkdir()
    book = write_book(folder / "002.cert", LEVELS_OF_A_BOOK)
    before = folder_contents(folder)
    refused = run("annotate", str(book), "--in-place", "--certificate", str(folder))
    assert (refused.exit_code, one_line(refused.stderr)) == (
        2,
        f"error: cannot write {folder}/002.cert: it is this run's input {book}",
    )
    assert folder_contents(folder) == before


@pytest.mark.parametrize("command", ["annotate", "generate"])
def test_out_over_a_certificate_of_the_same_run_is_refused_before_any_work(tmp_path, command):
    folder = tmp_path / "cc"
    before = old_certificates(folder)
    book = write_book(tmp_path / "b.json", LEVELS_OF_A_BOOK)
    given = ["annotate", str(book)] if command == "annotate" else GENERATE
    refused = run(*given, "--out", str(folder / "001.cert"), "--certificate", str(folder))
    assert refused.exit_code == 2
    assert one_line(refused.stderr) == (
        f"error: cannot write {folder}/001.cert: --certificate writes it too; "
        "give each output a name of its own"
    )
    assert folder_contents(folder) == before


def test_out_where_the_certificate_folder_is_to_be_made_is_refused_before_any_work(tmp_path):
    out = tmp_path / "certs"
    refused = run(*GENERATE, "--out", str(out), "--certificate", str(out))
    assert (refused.exit_code, one_line(refused.stderr)) == (
        2,
        f"error: cannot write {out}: --certificate writes it too; give each output a name of its own",
    )
    assert os.listdir(tmp_path) == []


def test_out_as_a_hard_link_of_the_book_is_the_book_itself(tmp_path):
    book, out = write_book(tmp_path / "b.json", LEVELS_OF_A_BOOK), tmp_path / "o.json"
    os.link(book, out)
    refused = run("annotate", str(book), "--out", str(out))
    assert (refused.exit_code, one_line(refused.stderr)) == (
        2,
        f"error: --out {out} is BOOK itself: give --in-place to write over it, or another file",
    )
    assert refused.stdout == ""


# --- 8: a certificate that may not be replaced; all of them or none ---------------------------------------


@pytest.mark.parametrize("command", ["annotate", "generate"])
def test_a_read_only_certificate_is_refused_before_any_work_and_the_folder_kept(tmp_path, command):
    folder = tmp_path / "cc"
    before = old_certificates(folder, (1, 2))
    (folder / "002.cert").chmod(0o444)
    book, out = write_book(tmp_path / "b.json", LEVELS_OF_A_BOOK), tmp_path / "o.json"
    given = ["annotate", str(book)] if command == "annotate" else GENERATE
    refused = run(*given, "--out", str(out), "--certificate", str(folder), "--json")
    assert refused.exit_code == 2
    message = f"cannot write {folder}/002.cert: it is read-only; make it writable or give another name"
    assert records(refused) == [("error", message)]  # and no level's record before it
    assert folder_contents(folder) == before and not out.exists()


@pytest.mark.parametrize("failure", [OSError(5, "Input/output error"), KeyboardInterrupt()])
@pytest.mark.parametrize("folder_was_there", [True, False])
def test_certificates_that_cannot_all_be_written_leave_the_folder_as_it_was(
    tmp_path, monkeypatch, failure, folder_was_there
):
    folder = tmp_path / "certs"
    before = old_certificates(folder, (1, 2)) if folder_was_there else None
    rename = os.replace

    def failing_at_the_last(source, target):  # the renames of 001 and 002 have been done by then
        if Path(target).name == "003.cert":
            raise failure
        rename(source, target)

    monkeypatch.setattr(os, "replace", failing_at_the_last)
    with pytest.raises(InputError if isinstance(failure, OSError) else KeyboardInterrupt):
        write_certificates(LEVELS, 3, folder, False, fake_solve(), lambda _: None)
    monkeypatch.undo()
    if folder_was_there:
        assert folder_contents(folder) == before
    else:
        assert not folder.exists()
    assert sorted(os.listdir(tmp_path)) == (["certs"] if folder_was_there else [])


def test_certificates_written_together_replace_the_old_ones_and_leave_nothing_aside(tmp_path):
    folder = tmp_path / "certs"
    old_certificates(folder, (2,))
    written = write_certificates(LEVELS, 3, folder, False, fake_solve(), lambda _: None)
    assert written.names == ("001.cert", "002.cert", "003.cert")
    assert folder_contents(folder) == {f"00{n}.cert": f"certificate of level {n}".encode() for n in (1, 2, 3)}


# --- 9 and 10: a folder that cannot be made or written in, found before any work --------------------------


@pytest.fixture(scope="module")
def modules_loaded(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Every module annotate and generate load, loaded as root, before a run that takes on a user without
    root: such a user may not read them where this Python lives (under /root, say)."""
    folder = tmp_path_factory.mktemp("rehearsal")
    book = write_book(folder / "b.json", LEVELS_OF_A_BOOK[:1])
    for args in (
        ["annotate", str(book), "--out", str(folder / "a.json"), "--certificate", str(folder / "a")],
        [*GENERATE, "--out", str(folder / "g.json"), "--certificate", str(folder / "g"), "--json"],
    ):
        rehearsed = run(*args)
        assert rehearsed.exit_code == 0, rehearsed.stderr


@pytest.fixture
def shared(modules_loaded: None) -> Iterator[Path]:
    """A folder a user without root may read and write in (pytest's own are root's alone), holding a book and
    a folder 'locked' that such a user may not write in, with a file 'existing.json' such a user may write;
    removed after."""
    folder = Path(tempfile.mkdtemp(prefix="unflip-test-"))
    folder.chmod(0o777)
    write_book(folder / "b.json", LEVELS_OF_A_BOOK).chmod(0o644)
    (folder / "locked").mkdir()
    (folder / "locked" / "existing.json").write_text("kept")
    (folder / "locked" / "existing.json").chmod(0o666)  # replacing it takes the folder, all the same
    (folder / "locked").chmod(0o555)
    yield folder
    (folder / "locked").chmod(0o755)
    shutil.rmtree(folder)


def as_a_user_without_root(*args: str) -> Result:
    """The command line, run as a user without root: as it is when the tests are not root; when they are,
    with this process's effective user and group taken from 'nobody' for the run, and given back after
    (the saved ids stay root's). Root would write in any folder, whatever its permissions."""
    if os.geteuid() != 0:
        return run(*args)
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.fail("root's tests take on the user 'nobody', and this machine has none")
    groups, gid = os.getgroups(), os.getegid()
    try:
        os.setgroups([])
        os.setegid(nobody.pw_gid)
        os.seteuid(nobody.pw_uid)
        return run(*args)
    finally:
        os.seteuid(0)
        os.setegid(gid)
        os.setgroups(groups)


@pytest.mark.parametrize("command", ["annotate", "generate"])
@pytest.mark.parametrize("out", ["new.json", "existing.json"])
def test_out_into_a_folder_a_user_may_not_write_in_is_refused_before_any_work(shared, command, out):
    locked = shared / "locked"
    given = ["annotate", str(shared / "b.json")] if command == "annotate" else GENERATE
    refused = as_a_user_without_root(*given, "--out", str(locked / out), "--json")
    assert refused.exit_code == 2, refused.output
    message = f"cannot write {locked / out}: the folder {locked} may not be written in"
    assert records(refused) == [("error", message)]  # and no level's record before it
    assert folder_contents(locked) == {"existing.json": b"kept"}


@pytest.mark.parametrize("command", ["annotate", "generate"])
def test_a_certificate_folder_a_user_may_not_make_is_refused_before_any_work(shared, command):
    certificates = shared / "locked" / "certs"
    given = ["annotate", str(shared / "b.json")] if command == "annotate" else GENERATE
    refused = as_a_user_without_root(
        *given, "--out", str(shared / "o.json"), "--certificate", str(certificates), "--json"
    )
    assert refused.exit_code == 2, refused.output
    message = f"cannot write {certificates}: the folder {shared / 'locked'} may not be written in"
    assert records(refused) == [("error", message)]
    assert os.listdir(shared / "locked") == ["existing.json"] and not (shared / "o.json").exists()


@contextlib.contextmanager
def read_only_mount(folder: Path) -> Iterator[list[str]]:
    """The words that run a command with folder mounted read-only (a bind mount of itself) in a mount
    namespace of its own, so nothing outside sees it. It takes the privilege to mount (root here, and on a
    fresh CI machine); where unshare is missing the test skips, or fails under CI=true, and where mounting
    is not allowed (a container without CAP_SYS_ADMIN) it skips."""
    if shutil.which("unshare") is None:
        why = "unshare (util-linux) is not installed"
        if in_ci():
            pytest.fail(why + "; CI=true requires it")
        pytest.skip(why)
    words = [
        "unshare",
        "--mount",
        "sh",
        "-c",
        'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"',
        str(folder),
    ]
    probe = subprocess.run([*words, "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"a read-only mount needs the privilege to mount: {probe.stderr.strip()}")
    yield words


@pytest.mark.parametrize("option", ["--out", "--certificate"])
def test_a_folder_on_a_read_only_file_system_is_refused_before_any_work(tmp_path, option):
    mounted = tmp_path / "ro"
    mounted.mkdir()
    book = write_book(tmp_path / "b.json", LEVELS_OF_A_BOOK)
    written = mounted / ("o.json" if option == "--out" else "certs")
    outputs = ["--out", str(written)]
    if option == "--certificate":
        outputs = ["--out", str(tmp_path / "o.json"), "--certificate", str(written)]
    with read_only_mount(mounted) as words:
        result = subprocess.run(
            [*words, sys.executable, "unflip.py", "annotate", str(book), *outputs, "--json"],
            cwd=REPO,
            capture_output=True,
            text=True,
        )
    assert result.returncode == 2, result.stderr
    message = f"cannot write {written}: the folder {mounted} is on a read-only file system"
    assert [json.loads(line) for line in result.stdout.splitlines()] == [
        {"schema": 1, "record": "error", "outcome": "rejected", "message": message, "exit_status": 2}
    ]
    assert os.listdir(mounted) == [] and not (tmp_path / "o.json").exists()


# --- 11: annotate --out - -----------------------------------------------------------------------------------


def test_annotate_out_dash_is_refused_and_makes_no_file_named_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    book = write_book(tmp_path / "b.json", LEVELS_OF_A_BOOK)
    refused = run("annotate", str(book), "--out", "-")
    assert (refused.exit_code, one_line(refused.stderr)) == (
        2,
        "error: annotate reports on standard output, where --out - would put the book too: give --out FILE, "
        "or --in-place",
    )
    assert os.listdir(tmp_path) == ["b.json"]
