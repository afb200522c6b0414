"""A casual deck on two real phones (Debian chromium via Playwright, 390 x 844): the cards
guide's example deck is refused with the rule and the numbers, "Play anyway" brings it, and both
phones show for the whole game that it is casual and why, on the German phones in German (the
reason travels with its message id; it stayed English before, issue 31.5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import two_phones
from tests.companion.test_casual_decks import DECK_SIZE, example_deck
from tests.companion.whole_game import ARTEFACTS

WHY = "Das Kartenset hat 3 Karten, mindestens 30 (PM-5)"
"""The broken rule as a German phone shows it."""


def bring_file(browser: Any, base: str, deck: Path, text: str) -> tuple[Any, Any]:
    """Two German phones at a new PocketModel table; phone A brings ``text`` as the file
    ``deck``."""
    deck.write_text(text, encoding="utf-8")
    phone_a, phone_b = two_phones(browser, base, "pocketmodel", locale="de-DE")
    phone_a.click("#pm-open")
    phone_a.wait_for_selector("#pm-fleets:not([hidden]) #deck-bring")
    phone_a.select_option("#deck-demo", "")
    phone_a.set_input_files("#deck-file", str(deck))
    phone_a.click("#deck-bring")
    return phone_a, phone_b


@pytest.mark.slow
def test_the_example_deck_is_played_anyway_and_both_phones_say_it_is_casual(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    base, app = live_server
    phone_a, phone_b = bring_file(browser, base, tmp_path / "my-deck.yaml", example_deck())
    phone_a.wait_for_selector("#deck-casual:not([hidden])")
    assert phone_a.inner_text("#toast").startswith("Nicht ausgeführt")  # the refusal, 7 s
    assert phone_a.inner_text("#deck-problems") == WHY
    assert phone_a.inner_text("#deck-casual") == "Trotzdem spielen (ein freies Deck)"
    phone_a.click("#deck-casual")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#casual-A")
        assert phone.inner_text("#casual-A") == f"Freies Deck: {WHY}"
    assert phone_a.locator("#toast").is_hidden()  # the deck was brought: no "not applied" left
    phone_b.click("#deck-bring")  # B's default demo fleet: legal, not casual
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#zone-home_B #unit-B1")
        assert phone.inner_text("#casual-A") == f"Freies Deck: {WHY}"  # still on screen
        assert phone.locator("#casual-B").count() == 0
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    assert table.view("A")["state"]["players"]["A"]["casual"] == [DECK_SIZE]
    for phone in (phone_a, phone_b):
        assert "deck has" not in phone.inner_text("body")  # no English reason anywhere


@pytest.mark.slow
def test_a_broken_deck_file_s_problems_show_in_german_on_a_german_phone(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    """Issue 31.5: the file's own problems (line, field, allowed values), not only the
    building rules, in the phone's language; "Play anyway" is not offered for a broken file."""
    text = (
        "game: pocketmodel\ncards:\n  - {kind: unit, name: X, stars: 9, attack: 1, damage: 1, "
        "defense: 6, shields: 1, icons: Lazer}\n"
    )
    phone_a, _ = bring_file(browser, live_server[0], tmp_path / "flotte.yaml", text)
    phone_a.wait_for_selector("#deck-problems:not([hidden])")
    shown = phone_a.inner_text("#deck-problems").splitlines()
    assert shown == [
        "flotte.yaml: Zeile 3 (Karte 1): Feld 'stars': erlaubt ist eine ganze Zahl 1..5; "
        "gefunden 9",
        "flotte.yaml: Zeile 3 (Karte 1): Feld 'icons': erlaubt ist 1..4 von Droid, Laser, "
        "Leader, Torpedo, Troops, Carrier, Turbolaser (getrennt durch Leerzeichen oder Kommas); "
        "gefunden 'Lazer'",
    ]
    assert phone_a.locator("#deck-casual").is_hidden()
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    phone_a.screenshot(path=str(ARTEFACTS / "pocketmodel-deck-problems-de.png"))
