"""Replacing an output folder as a whole, safely: nothing half-written, nothing foreign lost.

A kit is written into a hidden staging folder beside the target
(``.<name>.partial-<pid>-<random>``) and swapped into place only when complete. The swap runs
under an exclusive lock on the parent folder, so two runs into the same folder never interleave.
Staging and old folders left by a killed run (their process is gone) are removed by the next
run into the same parent folder.

What is refused (``OutputError``, option ``--out``): a path that is a file; the current folder
or one of its parents; an existing folder that is not empty and is not a previous kit (it has
no ``manifest.json`` naming ``marker``). We replace our own output, never a user's folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

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
    if target.is_dir() and any(target.iterdir()) and not _is_kit(target, marker):
        raise OutputError(
            f"{target} is not empty and holds no {marker} kit; choose a new or empty folder "
            "(it would be replaced as a whole)"
        )
    return target


def _is_kit(folder: Path, marker: str) -> bool:
    try:
        data = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(data, dict)
        and data.get("generator") == "tablesmith"
        and data.get("kit") == marker
    )


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
        _sweep_stale(parent, target.name)
        staging = Path(
            tempfile.mkdtemp(prefix=f".{target.name}.partial-{os.getpid()}-", dir=parent)
        )
        os.chmod(staging, 0o777 & ~_umask())
    except OSError as exc:
        raise OutputError(f"cannot write to {target}: {exc.strerror or exc}") from None
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
        if match and entry.is_dir() and not _alive(int(match.group(1))):
            shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
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
