"""Every text a phone shows is in the phone's language (issue 31.5): each refusal reason the
companion answers with has its own German text on the page (``err_<reason>``), and a casual
deck's reasons and a deck refusal's problems travel with their message ids (translated on the
phone from the game view's catalog, ``tests/companion/test_refusal_texts.py`` walks those ids
through German; ``test_casual_browser.py`` shows one on a German phone)."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask

from companion import i18n

ROOT = Path(__file__).resolve().parents[2]
ANSWERED_BY_THE_PAGE = {
    "confirm_end": "the page asks whether to end the game (askToEnd)",
    "clock_running": "the phone's clock ran ahead: it counts on with the server's view",
}
"""Reasons the page answers with its own dialog or silently, never as a text."""


def reasons() -> set[str]:
    """Every reason code the companion's code refuses with (``Rejected(status, "reason"``
    and the clock's ``refuse(status, "reason"``)."""
    found: set[str] = set()
    pattern = re.compile(r'(?:Rejected|refuse)\(\s*\d{3},\s*"([a-z_]+)"')
    for path in (ROOT / "companion").rglob("*.py"):
        found |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_refusal_reason_has_a_german_text_on_the_page(app: Flask) -> None:
    codes = reasons()
    assert {"deck", "deck_rules", "seat_in_use", "clock_stopped", "forbidden"} <= codes
    with app.test_request_context("/", headers={"Accept-Language": "en"}):
        english = i18n.js_strings()
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        german = i18n.js_strings()
    shown = sorted(codes - set(ANSWERED_BY_THE_PAGE))
    assert len(shown) >= 20, shown
    for code in shown:
        key = "err_" + code
        assert key in english, f"no text for the refusal {code!r}"
        assert german[key] != english[key], (code, german[key])
    assert german["err_clock_stopped"].startswith("die Uhr steht")
