"""A table removed by the retention sweep while both phones are on it (Debian chromium via
Playwright, two 390x844 phones): the phone whose live stream ends and the phone that tapped
while offline when its connection is back both show "This table was removed", not "Something went wrong; please try again"."""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import two_phones

DAY = 86400.0

REMOVED = "document.querySelector('h1') && document.querySelector('h1').textContent"


@pytest.mark.slow
def test_phones_on_a_table_the_sweep_removed_say_so(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "toy-battle")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#counters")
    table_id = phone_a.url.rsplit("/", 1)[1]
    # phone B taps a counter while it has no connection: the tap is kept on the phone
    phone_b.context.set_offline(True)
    phone_b.click("#counters summary")
    phone_b.fill("#counter-name", "VP")
    phone_b.click("#counter-add")
    phone_b.wait_for_selector("#outbox:not([hidden])")
    service = app.extensions["tablesmith.tables"]
    assert service.retention.sweep(now=time.time() + 31 * DAY) == [table_id]

    # phone A does nothing: its live stream ends, it asks why and shows the removal
    phone_a.wait_for_function(f"({REMOVED}) === 'This table was removed'", timeout=10000)
    # phone B is back: its kept tap is refused (410) and it shows the removal too
    phone_b.context.set_offline(False)
    phone_b.wait_for_function(f"({REMOVED}) === 'This table was removed'", timeout=10000)
    for phone in (phone_a, phone_b):
        assert "Something went wrong" not in phone.inner_text("body")
