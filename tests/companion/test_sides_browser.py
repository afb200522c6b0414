"""Two sides at the table in a real browser (Debian chromium via Playwright, two phones at
390 x 844): seat B's deck picker starts on the demo deck opposing seat A's (another fleet, the
Decepticons against the Autobots), and a log line about a unit or character names whose it is,
in English and in German."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import bring_offered_decks, count_is, two_phones


def log_lines(phone: Any) -> list[str]:
    """The texts of the phone's "What happened" list (opened), newest first."""
    if not phone.evaluate("document.getElementById('log').open"):
        phone.click("#log summary")
    return [phone.inner_text(f"#log-list li >> nth={i}") for i in range(3)]


@pytest.mark.slow
def test_pocketmodel_seat_b_gets_the_opposing_fleet_and_the_log_says_whose_unit(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "pocketmodel")
    phone_a.click("#pm-open")
    chosen = bring_offered_decks(phone_a, phone_b, "pm-fleets")
    assert chosen == ("pocketmodel", "pocketmodel-corsairs")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    state = table.view("A")["state"]
    names = {seat: [u["name"] for u in state["units"] if u["seat"] == seat] for seat in "AB"}
    assert names["A"][0] == "Halo Frigate" and names["B"][0] == "Cinder Dreadnought"
    assert not set(names["A"]) & set(names["B"])
    assert phone_b.inner_text("#unit-B1 .unit-name") == "Cinder Dreadnought"

    # A puts a damage counter on B's unit: both logs say whose unit it is
    phone_a.click("#plus-B1")
    for phone in (phone_a, phone_b):
        count_is(phone, "B1", "1/6")
    for phone in (phone_a, phone_b):
        assert "damage counter +1 on Cinder Dreadnought (Player B)" in log_lines(phone)[0]


@pytest.mark.slow
def test_transformers_seat_b_gets_the_decepticons_and_the_german_log_says_whose(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "transformers", locale="de-DE")
    phone_a.click("#tf-open")
    chosen = bring_offered_decks(phone_a, phone_b, "tf-teams")
    assert chosen == ("transformers", "transformers-decepticons")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    characters = table.view("A")["state"]["characters"]
    team = {seat: [c["name"] for c in characters if c["seat"] == seat] for seat in "AB"}
    assert team == {
        "A": ["Bulwark", "Quickstep", "Lanternfish"],
        "B": ["Gravelmaw", "Shrike", "Sludge"],
    }
    assert "Quarry Raiders" in phone_a.inner_text("#team-B .zone-title")

    phone_b.click("#plus-A2")
    for phone in (phone_a, phone_b):
        count_is(phone, "A2", "1/9")
    for phone in (phone_a, phone_b):
        assert "Schadensmarker +1 auf Quickstep (Spieler A)" in log_lines(phone)[0]
