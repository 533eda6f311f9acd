"""The files unflip writes (books, pictures, pages), each checked before any work goes into it and written
so that nothing is ever lost or half-written:

- a target is a regular file or a new name in a folder that exists (a folder of outputs, a folder or a
  new name in one), and that folder may be written in; a device, a FIFO, a folder, a symbolic
  link loop, a read-only file or a folder that cannot be written in is refused, and no missing folder is
  made on the quiet;
- a symbolic link is followed: the file it points to is replaced and the link keeps pointing at it;
- the new text goes to a temporary file beside the target, renamed over it once it is whole, with the
  target's own mode (a new file gets the mode any new file would);
- files written together (a book's certificates) are all written or none: each old file is kept aside
  until every new one is in place;
- one run never writes over its own input, nor two of its outputs over each other, however the names
  differ (links, hard links, '..').
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .errors import InputError, printable

# The name every option that writes a file takes for standard output, as every source takes it for input.
STANDARD_STREAM = "-"

FILE_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
)


def refuse(path: str, why: str) -> InputError:
    return InputError(f"cannot write {printable(path)}: {why}")


def resolve(path: str) -> Path:
    """The file a path names once every symbolic link in it is followed. A link whose target does not exist
    yet names that target (the new file is made there); a loop of links names nothing."""
    try:
        return Path(os.path.realpath(path, strict=True))
    except (FileNotFoundError, NotADirectoryError):
        return Path(os.path.realpath(path))
    except OSError as exc:
        raise refuse(path, reason(exc)) from None


def reason(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "its symbolic links form a loop"
    return exc.strerror or str(exc)


def writable_target(path: str, what: str = "a book") -> Path:
    """Where a file named path is written, checked before any work goes into it."""
    if not path:
        raise InputError(f"cannot write {what} to '': the file name is empty")
    try:
        mode = os.stat(path).st_mode  # through the links: /dev/stdout is whatever standard output is
    except OSError as exc:
        if exc.errno not in (errno.ENOENT, errno.ENOTDIR):
            raise refuse(path, reason(exc)) from None
        return new_file(path)
    if stat.S_ISDIR(mode):
        raise refuse(path, os.strerror(errno.EISDIR))
    kind = next((kind for test, kind in FILE_KINDS if test(mode)), None)
    if kind is not None:
        hint = f"; give {STANDARD_STREAM} for standard output" if stat.S_ISFIFO(mode) else ""
        raise refuse(path, f"it is {kind}, and only a regular file is replaced{hint}")
    # Permission bits, not access(2): root may write anything, but a file made read-only was made so on
    # purpose, and replacing it by a rename would not even ask.
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise refuse(path, "it is read-only; make it writable or give another name")
    target = resolve(path)
    check_folder_writable(target.parent, path)  # a file is replaced by a rename in its folder
    return target


def new_file(path: str) -> Path:
    """A file to be made: its folder must be there already, since a mistyped folder made on the quiet
    would hide the output where nobody looks."""
    target = resolve(path)
    existing = next(folder for folder in target.parents if os.path.exists(folder))
    if not os.path.isdir(existing):
        raise refuse(path, f"{printable(str(existing))} is not a folder")
    if existing != target.parent:
        raise refuse(path, f"the folder {printable(str(target.parent))} does not exist")
    check_folder_writable(target.parent, path)
    return target


def check_folder_writable(folder: Path, path: str) -> None:
    """A file is made in a folder by a new name in it, which takes a folder this run may write in (root
    may write in any, but not on a file system mounted read-only): found before any work, not after it."""
    # The effective ids are the ones files are made with, and a test may take on another user's by them.
    if os.access(folder, os.W_OK | os.X_OK, effective_ids=os.access in os.supports_effective_ids):
        return
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    why = "is on a read-only file system" if read_only else "may not be written in"
    raise refuse(path, f"the folder {printable(str(folder))} {why}")


def writable_folder(path: str, what: str) -> Path:
    """A folder files are written into, checked before any work goes into them: one that exists and may be
    written in, or a new name in a folder that exists (made when the first file is written)."""
    if not path or path == STANDARD_STREAM:
        raise InputError(f"{what} needs a folder to write its files into, not {printable(path) or 'nothing'}")
    if not os.path.lexists(path):
        return new_file(path)
    target = resolve(path)
    if not target.is_dir():
        raise refuse(path, "it is not a folder")
    check_folder_writable(target, path)
    return target


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write a file of a name no other run uses, beside the target, and rename it over the target: Ctrl-C,
    a crash or a second run writing the same file never leaves half a file. (click.open_file(atomic=True)
    would do the same, but it renames the partial file over the target even when the write fails.) Text is
    written as UTF-8, bytes as they are."""
    target = writable_target(str(path))
    temporary = staged(str(path), target, text)
    try:
        os.replace(temporary, target)
    except OSError as exc:
        raise refuse(str(path), reason(exc)) from None
    finally:
        temporary.unlink(missing_ok=True)


def write_together(files: Sequence[tuple[Path, Path]]) -> None:
    """Each (target, source): the target gets the source file's bytes, every one of them or none. Every
    target is checked first and each new file staged whole beside its target, as write_atomically does;
    only then are they renamed into place, each old file renamed aside until the last new one is in, so
    that a failure or an interruption anywhere puts back what was there. (Only a crash in those renames
    can leave a '.NAME.*.old' file beside a target.)"""
    targets = [writable_target(str(target)) for target, _ in files]
    temporaries: list[Path] = []
    placed: list[tuple[Path, Path | None]] = []  # each target renamed into, and its old file kept aside
    try:
        for (shown, source), target in zip(files, targets, strict=True):
            try:
                data = source.read_bytes()
            except OSError as exc:
                raise refuse(str(shown), reason(exc)) from None
            temporaries.append(staged(str(shown), target, data))
        for (shown, _), target, temporary in zip(files, targets, temporaries, strict=True):
            kept = temporary.with_suffix(".old") if target.exists() else None
            placed.append((target, kept))  # before the renames, so an interruption between them is undone
            try:
                if kept is not None:
                    os.replace(target, kept)
                os.replace(temporary, target)
            except OSError as exc:
                raise refuse(str(shown), reason(exc)) from None
    except BaseException:
        for target, kept in reversed(placed):
            with contextlib.suppress(OSError):
                if kept is None:
                    target.unlink(missing_ok=True)
                elif kept.exists():
                    os.replace(kept, target)
        raise
    finally:
        for temporary in temporaries:
            temporary.unlink(missing_ok=True)
    for _, kept in placed:
        if kept is not None:
            kept.unlink(missing_ok=True)


def staged(path: str, target: Path, data: str | bytes) -> Path:
    """A file of a name no other run uses beside target, holding data whole (on the disk, not only in its
    cache) and the target's mode, or a new file's: ready to be renamed over the target. Text is written as
    UTF-8, bytes as they are. Nothing is left behind when it cannot be made."""
    try:
        mode = stat.S_IMODE(target.stat().st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    except OSError as exc:
        raise refuse(path, reason(exc)) from None
    import tempfile  # loaded only when a file is written: a solve to the terminal does not need it

    temporary: Path | None = None
    try:
        with tempfile.NamedTemporaryFile(
            "w" if isinstance(data, str) else "wb",
            encoding="utf-8" if isinstance(data, str) else None,
            dir=target.parent,
            prefix=f".{target.name}.",
            suffix=".partial",
            delete=False,
        ) as file:
            temporary = Path(file.name)
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        # A temporary file is private to its owner; the file gets the target's mode, or a new file's.
        temporary.chmod(mode)
        return temporary
    except BaseException as exc:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise refuse(path, reason(exc)) from None
        raise


@dataclass(frozen=True)
class Output:
    option: str  # how the user named it: "--svg", "--out"
    path: str


def check_outputs(outputs: Iterable[Output], inputs: Iterable[str] = ()) -> None:
    """Refuse a run whose outputs would replace one of its inputs or each other, before any work. Paths
    are compared as the files they name (same_file); standard output is never a file."""
    # An input that cannot be resolved is not this function's to report: reading it will say why.
    sources = {identity(Path(path)): path for path in inputs if path and path != STANDARD_STREAM}
    written: dict[tuple[int, int] | Path, Output] = {}
    for output in outputs:
        if output.path == STANDARD_STREAM:
            continue
        target = identity(writable_target(output.path, f"the {output.option} output"))
        if target in sources:
            raise refuse(output.path, f"it is this run's input {printable(sources[target])}")
        if target in written:
            earlier = written[target]
            raise refuse(output.path, f"{earlier.option} writes it too; give each output a name of its own")
        written[target] = output


def same_file(first: Path, second: Path) -> bool:
    """Whether two names are one file's: through symbolic links, '..' and hard links."""
    return identity(first) == identity(second)


def identity(path: Path) -> tuple[int, int] | Path:
    """What one file's names have in common: its device and inode while it exists (hard links share them),
    else the path its symbolic links lead to, where it would be made."""
    try:
        found = os.stat(path)
    except OSError:
        return Path(os.path.realpath(path))
    return found.st_dev, found.st_ino
