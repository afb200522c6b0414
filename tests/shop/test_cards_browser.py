"""The cards door in a real browser (Debian chromium via Playwright; issue 27, point 6), on a
German phone against a real ``tablesmith serve``: a deck file with mistakes is chosen from
the phone, checked, fixed in the page's text box, checked again and printed; the PDF
downloaded through the page's link is the command's, byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.companion.phones import PHONE, shot, shots_folder
from tests.companion.servers import Serve
from tests.shop.test_cards import BROKEN, GOOD

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_a_deck_with_mistakes_is_fixed_on_the_phone_and_printed_as_the_command_prints_it(
    browser: Any, server: Serve, tmp_path: Path
) -> None:
    folder = shots_folder(tmp_path)
    deck = tmp_path / "tiny.yaml"
    deck.write_text(BROKEN, encoding="utf-8")
    phone = browser.new_context(**{**PHONE, "locale": "de-DE"}, accept_downloads=True).new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(server.base + "/")
    phone.click("#door-cards")
    assert phone.inner_text("h1") == "Die Karten drucken"
    # the chosen demo deck's first sheets appear by themselves, and follow a change
    phone.wait_for_selector("#live-pages img", timeout=60_000)
    first = phone.get_attribute("#live-pages img", "src")
    phone.select_option("#f-paper", "letter")
    phone.wait_for_function(
        f"(document.querySelector('#live-pages img') || {{}}).src && "
        f"!document.querySelector('#live-pages img').src.endsWith({first!r})",
        timeout=60_000,
    )
    assert phone.locator("#live-pages img").count() >= 2
    phone.set_input_files("#f-file", str(deck))
    phone.wait_for_function("document.getElementById('f-text').value.includes('stars: 9')")
    assert phone.is_checked("#source-own")
    assert phone.input_value("#f-filename") == "tiny.yaml"
    phone.click("#check-deck")
    problems = phone.inner_text("#deck-problems")
    assert "Das Deck hat Fehler" in problems
    assert "Zeile 4 (Karte 1): Feld 'stars'" in problems and "Feld 'icons': fehlt" in problems
    assert "field" not in problems  # the file's problems in the page's language (issue 31.5)
    shot(phone, folder, "cards-problems-de")
    phone.fill("#f-text", GOOD)  # fixed on the page
    phone.click("#check-deck")
    fixed = phone.inner_text("#deck-problems")  # it prints; one card breaks PM-5's 30
    assert "Das Deck lässt sich drucken" in fixed and "PM-5" in fixed and "line" not in fixed
    phone.click("#make-cards")
    phone.wait_for_selector("#job-status[data-state=done]", timeout=120_000)
    assert phone.inner_text("#job-status") == "Fertig: deine Kartenbögen sind bereit"
    assert phone.locator("#pages img").count() >= 2
    shot(phone, folder, "cards-done-de")
    with phone.expect_download() as caught:
        phone.click("#files a[href$='tiny.pdf']")
    made = Path(caught.value.path()).read_bytes()
    deck.write_text(GOOD, encoding="utf-8")
    subprocess.run(
        [sys.executable, str(ROOT / "tablesmith.py"), "cards", "tiny.yaml", "--out",
         str(tmp_path / "out" / "tiny.pdf"), "--paper", "letter"],
        check=True, capture_output=True, cwd=tmp_path,
    )  # fmt: skip
    assert made == (tmp_path / "out" / "tiny.pdf").read_bytes()
    # one tap to a table that offers this deck first; one card breaks PM-5, so "play anyway"
    phone.click("#play-deck")
    phone.click("#pm-open")  # the table opens; then each seat brings its deck
    phone.wait_for_selector("#deck-demo", timeout=30_000)
    assert phone.input_value("#deck-demo") == "@carried"
    assert phone.inner_text("#deck-demo option:checked") == "tiny.yaml"
    phone.click("#deck-bring")
    phone.wait_for_selector("#deck-casual:not([hidden])", timeout=10_000)
    assert "PM-5" in phone.inner_text("#deck-problems")
    phone.click("#deck-casual")
    phone.wait_for_selector("#deck-demo", state="hidden", timeout=10_000)
    shot(phone, folder, "cards-table-de")
    assert errors == []
