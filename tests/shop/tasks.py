"""Tasks for the job runner's tests, run in its worker processes (``module:function``)."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def write(payload: dict[str, Any], work: Path, progress: Callable[[str], None]) -> None:
    """Write ``payload["text"]`` to ``result.txt`` after ``payload["seconds"]``, saying so."""
    progress("starting")
    time.sleep(float(payload.get("seconds", 0)))
    (work / "sub").mkdir()
    (work / "sub" / "result.txt").write_text(payload.get("text", "done"), encoding="utf-8")
    progress("finished")


def fail(payload: dict[str, Any], work: Path, progress: Callable[[str], None]) -> None:
    """Write half a result, then fail with ``payload["message"]``."""
    (work / "half.txt").write_text("half", encoding="utf-8")
    raise ValueError(payload["message"])


def die(payload: dict[str, Any], work: Path, progress: Callable[[str], None]) -> None:
    """Write half a result, then be killed as the kernel kills a process out of memory."""
    (work / "half.txt").write_text("half", encoding="utf-8")
    progress("about to be killed")
    os.kill(os.getpid(), signal.SIGKILL)


def child(payload: dict[str, Any], work: Path, progress: Callable[[str], None]) -> None:
    """Start a long command as the card job starts its command (dying with its parent), say
    its process id, and wait for it."""
    import subprocess

    from shop.jobs import die_with_parent

    command = subprocess.Popen(["sleep", "60"], preexec_fn=lambda: die_with_parent(signal.SIGKILL))
    progress(f"child {command.pid}")
    command.wait()
