"""A table removed by the retention sweep while neither phone was connected (Debian chromium
via Playwright, two 390x844 phones): a phone whose page was left and comes back, and a phone
that tapped while offline when its connection is back, both show "This table was removed",
not "Something went wrong; please try again". (While a seat's phone streams the table, the
sweep leaves it alone: ``test_retention_keeps_a_table_while_a_players_phone_streams_it``.)"""

from __future__ import annotations

import time
from typing import Any

import pytest
import requests
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
    page_a = phone_a.url
    phone_a.goto("about:blank")  # phone A's page is left (a closed tab, a phone asleep)
    service = app.extensions["tablesmith.tables"]
    table = service.table(table_id)
    service.budgets.end(table)  # B's stream is cut (its Wi-Fi is gone: it cannot come back)
    deadline = time.monotonic() + 20
    while service.budgets.seated(table) and time.monotonic() < deadline:
        time.sleep(0.2)  # neither seat streams the table now
    assert service.retention.sweep(now=time.time() + 31 * DAY) == [table_id]

    # phone A comes back to the table's page and is told it was removed
    phone_a.goto(page_a)
    phone_a.wait_for_function(f"({REMOVED}) === 'This table was removed'", timeout=10000)
    # phone B is back: its kept tap is refused (410) and it shows the removal too
    phone_b.context.set_offline(False)
    phone_b.wait_for_function(f"({REMOVED}) === 'This table was removed'", timeout=10000)
    for phone in (phone_a, phone_b):
        assert "Something went wrong" not in phone.inner_text("body")


@pytest.mark.slow
def test_a_watch_page_open_when_the_sweep_removes_the_table_says_so(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    """The watch link's token goes with the table, so reloading the watch page (what the page
    did on its stream's 410) showed "Page not found"; it goes to the table's page, which says
    the table was removed and why."""
    base, app = live_server
    made = requests.post(base + "/api/tables", json={"game": "toy-battle"}, timeout=10).json()
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(made["watch_url"])
        page.wait_for_selector("#counters")
        service = app.extensions["tablesmith.tables"]
        assert service.retention.sweep(now=time.time() + 31 * DAY) == [made["table_id"]]
        page.wait_for_function(f"({REMOVED}) === 'This table was removed'", timeout=15000)
        assert "Page not found" not in page.inner_text("body")
    finally:
        page.close()
