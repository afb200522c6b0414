"""The print shop's card job: ``tablesmith cards`` itself, run by a worker (:mod:`shop.jobs`).

Decision: the card door runs the command (``python -m tablesmith cards ...``) in its worker
instead of calling the card printer's functions. The command's option handling (printer
profiles, back offsets, print scale, card sizes, cut files, every check and its message) is
about 200 lines of ``tablesmith.py`` that the shop cannot import (the arrows point from the
command to the shop); running the command means the PDF, the cut file and every message are
the command's own, byte for byte and word for word, and a cancel ends the command like Ctrl-C.
Moving that handling into ``printables`` so that both call one function is the cleaner shape
(issue 28 asks for the ``cards`` command to be split); until then, this keeps one definition.

The deck comes as a demo name or as the text of an uploaded or pasted file; the text is saved
under the job's folder with a safe name (:func:`safe_deck_name`) and the command reads it from
there. Previews of every page are the command's ``--png`` pictures.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from shop.jobs import die_with_parent

PREVIEW_DPI = 60
"""Resolution of the page previews on the page (the PDF is what prints)."""

DECK_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,79}\.(yaml|yml|csv)$")
"""A deck file name the shop keeps as given (else :func:`safe_deck_name` makes one)."""

ERROR_PREFIX = "tablesmith: error: "


def safe_deck_name(name: str) -> str:
    """``name`` (an uploaded file's name, any path dropped) where it is a plain deck file name,
    else ``deck.yaml`` / ``deck.csv`` by its ending: no request chooses a path on disk."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1].strip()
    if DECK_NAME.match(base):
        return base
    return "deck.csv" if base.lower().endswith(".csv") else "deck.yaml"


def run(payload: dict[str, Any], work: Path, progress: Callable[[str], None]) -> None:
    """Print the deck of ``payload`` with its options into ``work``.

    Args:
        payload: ``deck`` (``demo:NAME``) or ``filename`` and ``text``; ``options``, the
            command's options as a list of arguments (``["--paper", "letter"]``).
        work: the job's empty folder: the PDF(s) and cut files go here, the previews under
            ``preview/``.
        progress: takes each line the command prints.

    Raises:
        RuntimeError: the command refused or failed; its one-line message.
    """
    if payload.get("deck"):
        deck = str(payload["deck"])
        stem = deck.removeprefix("demo:")
        cwd = work
    else:
        name = safe_deck_name(str(payload.get("filename", "")))
        folder = work.parent / "deck"
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(str(payload["text"]), encoding="utf-8")
        deck, stem, cwd = name, name.rsplit(".", 1)[0], folder
    command = [
        sys.executable, "-m", "tablesmith", "cards", deck,
        "--out", str(work / f"{stem}.pdf"),
        "--png", str(work / "preview"), "--png-dpi", str(PREVIEW_DPI),
        *[str(a) for a in payload.get("options", [])],
    ]  # fmt: skip
    done = subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        preexec_fn=lambda: die_with_parent(signal.SIGKILL),  # a killed worker takes it along
    )
    for line in (done.stderr + done.stdout).splitlines():
        shop_own = line.startswith(f"wrote {work / 'preview'}") or line.startswith("note: --png")
        if line.strip() and not shop_own:  # not the previews the shop itself asked for
            progress(line.replace(str(work) + "/", ""))
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if line.startswith(ERROR_PREFIX)]
        message = errors[-1].removeprefix(ERROR_PREFIX) if errors else done.stderr.strip()
        raise RuntimeError(message.replace(str(work) + "/", "") or f"exit {done.returncode}")
