"""Hidden information on real phones (Debian chromium via Playwright, 390 x 844): phone A's
objective picker lists A's own deck list, phone B's page (and its "What happened") never holds
a card of A's deck box; once A plays an objective, it lies on the table and phone B's log
names it."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from companion import decks
from tests.companion.phones import bring_offered_decks, two_phones


@pytest.mark.slow
def test_phone_b_never_holds_phone_a_s_deck_list_until_a_card_is_played(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "pocketmodel")
    phone_a.click("#pm-open")
    bring_offered_decks(phone_a, phone_b, "pm-fleets")
    boxed = [c for c in decks.demo_decks()["pocketmodel"].cards if hasattr(c, "type")]
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    if table.view("A")["to_act"] != "A":  # B starts: one move, then A's turn
        phone_b.click("#pm-move")
        phone_b.click("#unit-B1")
        phone_b.click("#move-contested")
        phone_b.click("#pm-end-turn")
    phone_a.wait_for_selector("#pm-objective")

    # B's page: no card of A's deck box anywhere, the log included (A's own page lists them)
    phone_b.click("#log summary")
    phone_b.wait_for_selector("#log-list li")
    page_b = phone_b.content()
    assert [c.name for c in boxed if c.name in page_b] == []
    phone_a.click("#pm-objective")
    options = phone_a.locator("#pm-objective-card option").all_inner_texts()
    objectives = [c.name for c in boxed if c.type == "objective"]
    assert [n for n in objectives if any(o.startswith(n) for o in options)] == objectives

    # A plays Relay Beacon: it lies face up, B's board and log name it; the rest stays hidden
    phone_a.select_option("#pm-objective-card", "relay-beacon")
    phone_a.click("#pm-objective-go")
    phone_b.wait_for_selector("#obj-A-1.face_up")
    assert "Relay Beacon" in phone_b.inner_text("#obj-A-1")
    phone_b.wait_for_function(
        "document.getElementById('log-list').textContent.includes('Objective: Slot 1 · Relay Beacon')",
        timeout=3000,
    )
    page_b = phone_b.content()
    assert [c.name for c in boxed if c.name in page_b] == ["Relay Beacon"]
