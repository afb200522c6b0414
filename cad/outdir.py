"""Replacing an output folder as a whole, safely: nothing half-written, nothing foreign lost.

A kit is written into a hidden staging folder beside the target
(``.<name>.partial-<pid>-<random>``) and swapped into place only when complete. The swap runs
under an exclusive lock on the parent folder, so two runs into the same folder never interleave.
Staging and old folders left by a killed run (their process is gone) are removed by the next
run into the same parent folder.

What is refused (``OutputError``, option ``--out``): a path that is a file; the current folder
or one of its parents; an existing folder that is not empty and is not a previous kit (it has
no ``manifest.json`` naming ``marker``); a previous kit that holds anything its manifest does
not name (G-code a slicer saved beside the plates, the user's notes): the swap would delete
it. We replace our own output, never a user's file.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cad.settings import OptionError

try:  # POSIX: lock the parent folder during the swap
    import fcntl
except ImportError:  # pragma: no cover - Windows: swaps are not serialised
    fcntl = None  # type: ignore[assignment]


class OutputError(OptionError):
    """The output folder cannot or must not be written (option ``--out``)."""

    def __init__(self, message: str) -> None:
        super().__init__("--out", message)


def check_target(out: Path, marker: str) -> Path:
    """Resolve ``out`` and refuse targets we must not replace.

    Args:
        out: the folder the user asked for (relative to the current folder, may be a link).
        marker: the ``kit`` value a previous kit's ``manifest.json`` carries.

    Returns:
        The resolved absolute path.

    Raises:
        OutputError: a file, the current folder or a parent of it, or a foreign folder.
    """
    target = Path(os.path.expanduser(str(out))).resolve()
    here = Path.cwd().resolve()
    if target == here or target in here.parents:
        raise OutputError(f"{target} is the current folder or contains it; choose a new folder")
    if target.exists() and not target.is_dir():
        raise OutputError(f"{target} exists and is not a folder")
    existing = next(p for p in target.parents if p.exists())
    if not existing.is_dir():
        raise OutputError(f"cannot write to {target}: {existing} is a file, not a folder")
    if target.is_dir() and any(target.iterdir()):
        manifest = _kit_manifest(target, marker)
        if manifest is None:
            raise OutputError(
                f"{target} is not empty and holds no {marker} kit; choose a new or empty folder "
                "(it would be replaced as a whole)"
            )
        foreign = foreign_files(target, manifest)
        if foreign:
            shown = ", ".join(foreign[:3]) + (
                f" and {len(foreign) - 3} more" if len(foreign) > 3 else ""
            )
            raise OutputError(
                f"{target} holds a kit and files the kit did not write ({shown}); move them "
                "out or choose another folder (the folder is replaced as a whole)"
            )
    return target


KIT_FILES = ("manifest.json", "PRINT-NOTES.md")
"""The files of every kit besides those its manifest lists."""


def foreign_files(folder: Path, manifest: dict[str, Any]) -> list[str]:
    """What ``folder`` holds that the kit described by ``manifest`` did not write, as sorted
    paths relative to ``folder`` (``plates/plate-1-board.gcode``; a folder of its own once,
    ``notes/``).

    The kit's files are :data:`KIT_FILES` and every path the manifest names: each part's STL,
    STEP, multi-material STLs and STEPs and preview, each plate's 3MF and preview. Symbolic
    links are not followed.
    """
    ours: list[Any] = list(KIT_FILES)
    for part in manifest.get("parts") or ():
        if isinstance(part, dict):
            ours += [part.get(key) for key in ("file", "step", "preview")]
            ours += part.get("multi_material_files") or ()
            ours += part.get("multi_material_step") or ()
    for plate in manifest.get("plates") or ():
        if isinstance(plate, dict):
            ours += [plate.get(key) for key in ("file", "preview")]
    names = {name for name in ours if isinstance(name, str)}
    folders = {Path(name).parent.as_posix() for name in names} - {"."}
    found = []
    for root, dirs, files in os.walk(folder):  # links are listed, not followed
        here = Path(root).relative_to(folder)
        for name in sorted(dirs):
            relative = (here / name).as_posix()
            if relative not in folders:
                found.append(relative + "/")
                dirs.remove(name)  # reported whole
        found.extend(
            relative for name in files if (relative := (here / name).as_posix()) not in names
        )
    return sorted(found)


def _kit_manifest(folder: Path, marker: str) -> dict[str, Any] | None:
    """The manifest of the ``marker`` kit in ``folder``, or None where there is none."""
    try:
        data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (
        isinstance(data, dict)
        and data.get("generator") == "tablesmith"
        and data.get("kit") == marker
    ):
        return data
    return None


def write_failure(error: OSError, target: Path) -> str:
    """Why writing the kit into ``target`` failed, in words for the user: ``no space left on
    the disk`` when that is the cause (the kernel's STL writer reports no reason, and a cached
    kit's copy reports one per file), else the system's reason, without the staging folder's
    name (which means nothing to the user)."""
    text = (
        str(error.args[0][0][2]) if isinstance(error, shutil.Error) and error.args else str(error)
    )
    existing = next((p for p in (target, *target.parents) if p.exists()), target.anchor)
    try:  # only asked of an error that gives no reason (the kernel's STL writer)
        full = shutil.disk_usage(existing).free < 16 * 1024 * 1024
    except OSError:
        full = False
    if error.errno == errno.ENOSPC or "[Errno 28]" in text or (error.errno is None and full):
        return "no space left on the disk"  # a reasonless error on a full disk: its cause
    reason = error.strerror or text
    return re.sub(r"\S*\.partial-[^/\s]*/", "", reason).strip()[:160]


@contextlib.contextmanager
def replacing(target: Path) -> Iterator[Path]:
    """Yield a staging folder; on success swap it into ``target``, on any error remove it.

    Args:
        target: the checked, resolved output folder (``check_target``).

    Raises:
        OutputError: the parent folder cannot be created or written.
    """
    parent = target.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot write to {target}: {exc.strerror or exc}") from None
    try:
        _sweep_stale(parent, target.name)
        staging = Path(
            tempfile.mkdtemp(prefix=f".{target.name}.partial-{os.getpid()}-", dir=parent)
        )
        os.chmod(staging, 0o777 & ~_umask())
    except OSError as exc:
        raise OutputError(
            f"cannot write to {target}: no new folder can be made in {parent} "
            f"({exc.strerror or exc})"
        ) from None
    try:
        yield staging
        with _locked(parent):
            old = None
            if target.exists():
                old = Path(
                    tempfile.mkdtemp(prefix=f".{target.name}.old-{os.getpid()}-", dir=parent)
                )
                target.rename(old / "kit")
            staging.rename(target)
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    if fcntl is None:  # pragma: no cover
        yield
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _sweep_stale(parent: Path, name: str) -> None:
    """Remove staging/old folders of ``name`` whose process no longer runs."""
    pattern = re.compile(rf"^\.{re.escape(name)}\.(?:partial|old)-(\d+)-")
    for entry in parent.iterdir():
        match = pattern.match(entry.name)
        if match and entry.is_dir() and not process_alive(int(match.group(1))):
            shutil.rmtree(entry, ignore_errors=True)


def process_alive(pid: int) -> bool:
    """Whether a process with this id runs (this one does; one of another user's counts as
    running): a leftover folder named after a process that is gone may be removed."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
