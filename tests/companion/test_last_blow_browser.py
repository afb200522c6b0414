"""The last blow on two real phones (Debian chromium via Playwright, 390 x 844): the tap that
would end the game asks first ("Not yet" changes nothing), "End the game" ends it on both
phones, and the phone that struck it can still undo it; the game then goes on."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import count_is, two_phones


def quick_team(phone: Any, name: str) -> None:
    """Bring one character with Health 1 by quick entry (one counter KOs the team)."""
    phone.wait_for_selector("#tf-teams:not([hidden])")
    phone.click("#tf-quick summary")
    phone.fill("#tf-quick-rows .quick-row input.field >> nth=0", name)
    phone.fill("#tf-quick-rows .quick-row input.field >> nth=2", "1")  # Health
    phone.click("#tf-quick-bring")


@pytest.mark.slow
def test_the_ending_tap_asks_first_ends_on_both_phones_and_can_be_undone(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "transformers")
    phone_a.click("#tf-open")
    quick_team(phone_a, "Alpha")
    quick_team(phone_b, "Gamma")
    for phone in (phone_a, phone_b):
        count_is(phone, "B1", "0/1")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    revision = table.revision

    phone_a.click("#plus-B1")
    phone_a.wait_for_selector("#confirm-end:not([hidden])")
    assert phone_a.inner_text("#confirm-end-text") == (
        "This ends the game: Player A (you) wins! End it?"
    )
    phone_a.click("#confirm-end-no")
    assert phone_a.locator("#confirm-end").is_hidden()
    assert table.revision == revision and table.view("A")["outcome"] is None
    count_is(phone_a, "B1", "0/1")

    phone_a.wait_for_timeout(500)  # a second tap, not a double tap
    phone_a.click("#plus-B1")
    phone_a.wait_for_selector("#confirm-end:not([hidden])")
    phone_a.click("#confirm-end-yes")
    for phone in (phone_a, phone_b):
        phone.wait_for_function("document.getElementById('who').textContent.includes('wins')")
    assert "Player A (you) wins!" in phone_a.inner_text("#who")
    assert "Player A wins!" in phone_b.inner_text("#who")
    phone_a.wait_for_selector("#undo:not([hidden])")  # the last blow can be taken back
    assert phone_b.locator("#undo").is_hidden()

    phone_a.click("#undo")
    for phone in (phone_a, phone_b):
        phone.wait_for_function("!document.getElementById('who').textContent.includes('wins')")
        count_is(phone, "B1", "0/1")
    assert table.view("A")["outcome"] is None
