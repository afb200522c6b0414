"""Phones in a real browser for the browser tests: Debian's chromium through Playwright at a
phone viewport (:data:`PHONE`), and the steps every game's browser test starts with."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("TABLESMITH_CHROMIUM", "/usr/bin/chromium")
"""The browser the tests drive (Debian package chromium; .ci/run installs it)."""
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "en-GB",
}
"""A phone's browser context: 390 x 844 CSS px, touch, English (pass locale="de-DE" for German)."""


def launch(extra_args: Sequence[str] = ()) -> Iterator[Any]:
    """A headless chromium for one test (a generator for a fixture); skips, saying why, where
    Playwright or chromium is missing."""
    playwright = pytest.importorskip("playwright.sync_api", reason="Playwright (the test extra)")
    if not Path(CHROMIUM).exists():
        pytest.skip(
            f"chromium not found at {CHROMIUM} (Debian package chromium; .ci/run installs it)"
        )
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(
            executable_path=CHROMIUM, args=[*ARGS, *extra_args], headless=True
        )
        yield browser
        browser.close()


SHOTS = os.environ.get("TABLESMITH_SHOTS")
"""A folder to keep the screenshots in (else they go to the test's tmp_path)."""


def shots_folder(tmp_path: Path) -> Path:
    """Where a test's screenshots go: ``$TABLESMITH_SHOTS`` or ``tmp_path`` (created)."""
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shot(page: Any, folder: Path, name: str) -> None:
    """A full-page screenshot ``folder/name.png``."""
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def two_phones(browser: Any, base: str, game: str, locale: str = "en-GB") -> tuple[Any, Any]:
    """Phone A starts a ``game`` table on the start page, phone B opens the join link and
    takes seat B; both pages are returned (A first)."""
    context = {**PHONE, "locale": locale}
    phone_a = browser.new_context(**context).new_page()
    phone_b = browser.new_context(**context).new_page()
    phone_a.goto(base + "/")
    phone_a.click(f"#new-table-{game}")
    phone_b.goto(phone_a.locator("#join-link").get_attribute("href"))
    phone_b.click("#take-seat")
    return phone_a, phone_b


def count_is(page: Any, piece: str, text: str) -> None:
    """Wait (3 s at most) until the counter of unit or character ``piece`` reads ``text``
    ("counters/limit")."""
    page.wait_for_function(
        f"(document.getElementById('count-{piece}') || {{}}).textContent === '{text}'",
        timeout=3000,
    )


def bring_offered_decks(phone_a: Any, phone_b: Any, section: str) -> tuple[str, str]:
    """Both phones bring the demo deck their picker offers first (seat B's is the side
    opposing seat A's) and wait until both teams or fleets are on the table; ``section`` is
    the game's deck section (``pm-fleets``, ``tf-teams``). Returns the two demo names."""
    chosen = []
    for phone in (phone_a, phone_b):
        phone.wait_for_selector(f"#{section}:not([hidden]) #deck-bring")
        chosen.append(phone.eval_on_selector("#deck-demo", "s => s.value"))
        phone.click("#deck-bring")
    piece = "unit" if section == "pm-fleets" else "char"
    for phone in (phone_a, phone_b):
        phone.wait_for_selector(f"#{piece}-A1")
        phone.wait_for_selector(f"#{piece}-B1")
    return chosen[0], chosen[1]
