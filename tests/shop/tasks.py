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
