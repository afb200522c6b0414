"""How ``tablesmith cards`` words its errors: a deck's problems in one line (or all of them,
in file order), a library setting by the option the user typed. Pure text, no I/O.
"""

from __future__ import annotations

import re

MAX_PROBLEMS_SHOWN = 3
"""A multi-problem error line shows this many problems, then ``and N more``."""

_LINE_NUMBER = re.compile(r": line (\d+)\b")


def by_line(problem: str) -> int:
    """Sort key: the file line a problem names (``deck.csv: line 7: ...``); 0 for a problem of
    the whole file, so that it comes first."""
    found = _LINE_NUMBER.search(problem)
    return int(found.group(1)) if found else 0


def one_line(exc: BaseException, *, every: bool = False) -> str:
    """The error of ``exc`` (one problem per line of its text) as one line, problems in file
    order: ``N problems: first; second; third; and N-3 more (--all-problems lists every
    one)``. With ``every``: ``N problems, in file order:``, then every problem on a line of its
    own."""
    lines = sorted((line for line in str(exc).splitlines() if line.strip()), key=by_line)
    if len(lines) <= 1:
        return lines[0] if lines else type(exc).__name__
    if every:
        return "\n".join([f"{len(lines)} problems, in file order:", *(f"  {x}" for x in lines)])
    more = len(lines) - MAX_PROBLEMS_SHOWN
    return (
        f"{len(lines)} problems: "
        + "; ".join(lines[:MAX_PROBLEMS_SHOWN])
        + (f"; and {more} more (--all-problems lists every one)" if more > 0 else "")
    )


def short(text: str) -> str:
    """``repr(text)`` cut to about 60 characters."""
    return repr(text if len(text) <= 58 else text[:57] + "…")


CARD_OPTIONS = {
    "paper": "--paper",
    "bleed": "--bleed",
    "gutter": "--gutter",
    "page_margin": "--page-margin",
    "dx": "--back-offset DX",
    "dy": "--back-offset DY",
    "rotation_deg": "--back-rotation",
    "qr_base": "--qr-base",
    "dpi": "--png-dpi",
    "duplex": "--duplex",
    "layout": "--layout",
}
"""``cards``: library setting name -> the option the user typed."""


def size_message(option: str, text: str, exc: Exception) -> str:
    """``--card-size must be ...`` for a card size that is no size or out of range."""
    from printables.layout import SettingError

    if isinstance(exc, SettingError) and exc.setting == "card size":
        return f"{option} must be {exc.allowed}, got {exc.found_text}"
    return f"{option} {short(text)}: {exc}"
