"""Output files: checked before any work starts, written whole or not at all.

* :func:`check_pdf_target` refuses an output that is the deck itself, does not end in ``.pdf``,
  or already exists without being a PDF (so a typo never replaces a deck, a photo or a
  spreadsheet with a PDF), and one whose folder cannot be created.
* :func:`check_target` does the same for the PNG, SVG and DXF files written beside it: an
  existing file of that name must be such a file (or empty) to be replaced.
* :func:`check_folder` says in advance whether a folder exists or can be created.
* :func:`atomic_outputs` writes through temporary files beside the targets and moves them into
  place only when everything succeeded. Folders it had to create are removed again when the
  run fails; temporary files a killed run left behind are removed
  (:func:`remove_leftovers`). New files get the usual mode (``0o666`` minus the umask, typically ``0o644``); a
  replaced file keeps its mode.

Messages name the target, never the temporary file, and carry no ``[Errno N]``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

PDF_MAGIC = b"%PDF-"
"""The first bytes of every PDF file (ISO 32000-1, 7.5.2)."""


class OutputError(ValueError):
    """An output file or folder cannot or must not be written.

    Attributes:
        path: the output in question.
    """

    def __init__(self, path: Path, message: str) -> None:
        self.path = path
        super().__init__(message)


def printable(text: str) -> str:
    """``text`` with control characters, line breaks and undecodable bytes (surrogates) shown
    as Python escapes (``\\n``, ``\\x07``, ``\\udcff``), so a message stays one printable line."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def shown(path: Path | str) -> str:
    """``path`` for a message: printable (:func:`printable`), its start cut off (``…``)
    beyond 60 characters."""
    text = printable(str(path))
    return text if len(text) <= 60 else "…" + text[-59:]


def os_reason(exc: OSError) -> str:
    """The reason of an OS error without ``[Errno N]`` or file names (``No such file ...``)."""
    return exc.strerror or type(exc).__name__


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError, ValueError):  # RuntimeError: a symlink loop (Python 3.11)
        return False


def check_folder(folder: Path) -> None:
    """Check that ``folder`` is a writable folder or can be created.

    A missing folder is created for a moment and removed again: only that shows whether the
    file system really allows it.

    Raises:
        OutputError: it is a file, it lies below a file, or it cannot be created or written.
    """
    missing = _missing_folders(folder)
    existing = missing[-1].parent if missing else folder
    if not existing.is_dir():
        detail = "it is a file" if existing == folder else f"{shown(existing)} is a file"
        raise OutputError(folder, f"cannot use folder {shown(folder)}: {detail}")
    if not missing:
        if not os.access(folder, os.W_OK | os.X_OK):
            raise OutputError(folder, f"cannot write into folder {shown(folder)}: not writable")
        return
    try:
        folder.mkdir(parents=True)
    except OSError as exc:
        raise OutputError(
            folder, f"cannot create folder {shown(folder)}: {os_reason(exc)}"
        ) from None
    finally:
        for created in missing:
            with contextlib.suppress(OSError):
                created.rmdir()


OUTPUT_KINDS = {
    ".pdf": ("a PDF", (PDF_MAGIC,)),
    ".png": ("a PNG image", (b"\x89PNG\r\n\x1a\n",)),
    ".svg": ("an SVG file", (b"<?xml", b"<svg")),
    ".dxf": ("a DXF file", (b"0", b"999")),
}
"""Output suffix -> (what it is, the ways such a file starts after leading white space).
An existing file of that name that starts otherwise is someone else's and is not replaced."""


def _looks_like(path: Path, starts: tuple[bytes, ...]) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(64).lstrip(b"\xef\xbb\xbf").lstrip()
    except OSError as exc:
        raise OutputError(path, f"cannot read {shown(path)}: {os_reason(exc)}") from None
    return not head or any(head.startswith(start) for start in starts)


def check_target(
    path: Path, *, protect: Sequence[Path] = (), suffixes: Sequence[str] = tuple(OUTPUT_KINDS)
) -> None:
    """Check that writing the output ``path`` (a PDF, or a PNG, SVG or DXF written beside it)
    is safe and possible, before any work is done.

    Args:
        path: the file to (over)write; its suffix (case-insensitive) is one of
            :data:`OUTPUT_KINDS`.
        protect: files that must never be overwritten (the deck file).
        suffixes: the suffixes allowed here (``.pdf`` for ``--out``).

    Raises:
        OutputError: ``path`` is a protected file, has another suffix, is a folder, exists
            and does not start as such a file does (an empty file is allowed), or its folder
            cannot be created.
    """
    suffix = path.suffix.lower()
    for other in protect:
        if _same_file(path, other):
            raise OutputError(
                path, f"{shown(path)} is the deck file itself; choose another {suffixes[0]} name"
            )
    if suffix not in suffixes:
        raise OutputError(
            path, f"must be a file name ending in {' or '.join(suffixes)}, got {shown(path)!r}"
        )
    what, starts = OUTPUT_KINDS[suffix]
    if path.is_dir():
        raise OutputError(path, f"{shown(path)} is a folder, not a {suffix} file")
    if path.exists() and not _looks_like(path, starts):
        start = " (it does not start with %PDF-)" if suffix == ".pdf" else ""
        raise OutputError(
            path, f"{shown(path)} exists and is not {what}{start}; not overwriting it"
        )
    check_folder(path.parent)


def check_pdf_target(path: Path, *, protect: Sequence[Path] = ()) -> None:
    """Check that writing the PDF ``path`` is safe and possible, before any work is done.

    Args:
        path: the PDF to (over)write.
        protect: files that must never be overwritten (the deck file).

    Raises:
        OutputError: ``path`` is a protected file, does not end in ``.pdf``
            (case-insensitive), is a folder, exists and does not start with ``%PDF-`` (an
            empty file is allowed), or its folder cannot be created.
    """
    check_target(path, protect=protect, suffixes=(".pdf",))


def _missing_folders(folder: Path) -> list[Path]:
    """The folders from ``folder`` upwards that do not exist yet, deepest first."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def remove_leftovers(path: Path) -> list[Path]:
    """Remove the temporary files of ``path`` that a killed run left behind.

    A temporary file is named ``.<name>.<pid>-<random>.part`` (:func:`_new_temp`); one whose
    process no longer runs on this machine is a leftover. Files of running processes (another
    run writing the same output) are kept.

    Returns:
        The files removed.
    """
    removed = []
    for temp in path.parent.glob(f".{glob_escape(path.name)}.*-*.part"):
        pid_text = temp.name[len(path.name) + 2 :].split("-", 1)[0]
        if not pid_text.isdigit() or _running(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            temp.unlink()
            removed.append(temp)
    return removed


def glob_escape(name: str) -> str:
    """``name`` with the glob wildcards ``*?[`` escaped (:meth:`Path.glob` matches it literally)."""
    return "".join(f"[{ch}]" if ch in "*?[" else ch for ch in name)


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # OverflowError: no pid is that large
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def _new_temp(path: Path) -> Path:
    """Create an empty temporary file beside ``path`` with the default mode (umask applied),
    named with this process's id so that a later run can remove it if this one is killed."""
    while True:
        temp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.part")
        try:
            handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        os.close(handle)
        return temp


@contextlib.contextmanager
def atomic_outputs(paths: list[Path]) -> Iterator[list[Path]]:
    """Temporary files beside ``paths``; moved into place only if the block succeeds.

    Missing folders are created and removed again if the block fails. A replaced file keeps
    its permission bits; a new one gets ``0o666`` minus the umask.

    Raises:
        OutputError: a target cannot be written (its message names the target, not the
            temporary file).
    """
    temps: list[Path] = []
    created: list[Path] = []
    done = False
    try:
        try:
            for path in paths:
                missing = _missing_folders(path.parent)
                path.parent.mkdir(parents=True, exist_ok=True)
                created = missing + created
                remove_leftovers(path)
                temps.append(_new_temp(path))
        except OSError as exc:
            raise OutputError(path, f"cannot write {shown(path)}: {os_reason(exc)}") from None
        try:
            yield temps
        except OSError as exc:
            for temp, path in zip(temps, paths, strict=False):
                if exc.filename in (str(temp), temp):
                    raise OutputError(
                        path, f"cannot write {shown(path)}: {os_reason(exc)}"
                    ) from None
            raise
        for temp, path in zip(temps, paths, strict=True):
            try:
                if path.exists():
                    os.chmod(temp, stat.S_IMODE(path.stat().st_mode))
                os.replace(temp, path)
            except OSError as exc:
                raise OutputError(path, f"cannot write {shown(path)}: {os_reason(exc)}") from None
        done = True
    finally:
        for temp in temps:
            temp.unlink(missing_ok=True)
        if not done:
            for folder in created:
                with contextlib.suppress(OSError):
                    folder.rmdir()
