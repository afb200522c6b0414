"""Transformers icons by tapping on two real phones (Debian chromium via Playwright, 390 x
844): each side's phone gets a row of icon buttons per flipped card (TF-21, D23), the totals
grow on both phones card by card (neither phone holds the other's deck list), and a tap on a
character that cannot be picked says why (TF-20) instead of doing nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import bring_offered_decks, two_phones


def total(phone: Any, side: str) -> str:
    return str(phone.inner_text(f"#tf-total-{side}"))


@pytest.mark.slow
def test_icons_are_tapped_per_card_totals_grow_on_both_phones_and_a_wrong_target_says_why(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "transformers")
    phone_a.click("#tf-open")
    bring_offered_decks(phone_a, phone_b, "tf-teams")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    me = table.view("A")["state"]["player"]
    foe = "B" if me == "A" else "A"
    mover, other = (phone_a, phone_b) if me == "A" else (phone_b, phone_a)
    characters = {c["id"]: c for c in table.view("A")["state"]["characters"]}

    mover.click("#tf-draw")
    mover.click("#tf-attack-start")
    # a wrong pick says why, in words, and picks nothing
    mover.click(f"#char-{foe}1")
    mover.wait_for_selector("#toast:not([hidden])")
    assert mover.inner_text("#toast") == (
        f"{characters[foe + '1']['name']} is not yours: tap one of your untapped characters "
        "to attack with (TF-20)"
    )
    mover.click(f"#char-{me}1")
    mover.click(f"#char-{me}2")
    mover.wait_for_function(
        "document.getElementById('toast').textContent.includes('is on your team')"
    )
    assert table.view("A")["state"]["attack"] is None
    mover.click(f"#char-{foe}1")
    mover.wait_for_selector("#tf-attacker-flip")
    other.wait_for_selector("#tf-defender-flip")
    start = int(total(other, "attacker").split()[-1])
    defence = int(total(mover, "defender").split()[-1])
    assert other.locator("#tf-attacker-flip").count() == 0  # D19: each phone its own side

    # the attacker's first card: orange, then "no more icons": both phones count it at once
    mover.click("#tf-attacker-tap-orange")
    assert mover.inner_text("#tf-attacker-chosen") == "This card: orange"
    assert total(other, "attacker") == f"Total {start}"  # not sent until the card is complete
    mover.click("#tf-attacker-tap-none")
    for phone in (mover, other):
        phone.wait_for_function(
            f"document.getElementById('tf-total-attacker').textContent === 'Total {start + 1}'"
        )
    assert "card 2 of 2" in mover.inner_text("#tf-attacker-flip")
    # the second card shows two orange icons: the second tap completes the card
    mover.click("#tf-attacker-tap-orange")
    mover.click("#tf-attacker-tap-orange")
    for phone in (mover, other):
        phone.wait_for_function(
            f"document.getElementById('tf-total-attacker').textContent === 'Total {start + 3}'"
        )
    mover.wait_for_selector("#tf-attacker-flip", state="detached")

    # the defender's phone: a blue card, then a card without icons
    other.click("#tf-defender-tap-blue")
    other.click("#tf-defender-tap-none")
    mover.wait_for_function(
        f"document.getElementById('tf-total-defender').textContent === 'Total {defence + 1}'"
    )
    other.click("#tf-defender-tap-none")
    mover.wait_for_selector("#tf-resolve")
    attack = table.view("A")["state"]["attack"]
    assert attack["attacker"]["total"] == start + 3 and attack["defender"]["total"] == defence + 1
    assert mover.evaluate("document.documentElement.scrollWidth") <= 390
