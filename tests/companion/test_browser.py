"""Real browser: two phones (Debian chromium via Playwright, phone viewport) play a full turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright (the test extra)")

pytestmark = pytest.mark.both_servers  # a whole Asteroids game on both servers

from tests.companion.phones import PHONE  # noqa: E402


def tap_first(page: Any, selector: str) -> None:
    page.locator(selector).first.click()


@pytest.mark.slow
def test_two_phones_play_a_full_turn_and_see_each_other(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    base, app = live_server
    phone_a = browser.new_context(**PHONE).new_page()
    phone_b = browser.new_context(**PHONE).new_page()
    phone_a.goto(base + "/")
    phone_a.click("#new-table-asteroids")
    join_url = phone_a.locator("#join-link").get_attribute("href")
    assert phone_a.locator("#invite svg").count() == 1  # the QR code that seats phone B
    phone_b.goto(join_url)
    phone_b.click("#take-seat")
    phone_b.wait_for_selector("#random-setup")
    phone_a.click("#random-setup")
    for phone in (phone_a, phone_b):
        phone.wait_for_selector("#c-0-0")  # both boards drawn
    mover = phone_a if "Your turn" in phone_a.inner_text("#who") else phone_b
    watcher = phone_b if mover is phone_a else phone_a
    assert "Waiting" in watcher.inner_text("#who")

    tap_first(mover, ".base.origin")  # step 1: a ship out of the home base
    tap_first(mover, ".cell.target")
    watcher.wait_for_function(
        "document.querySelectorAll('.cell .ship').length === 1", timeout=2000
    )  # the other phone shows it within a second or two
    tap_first(mover, ".cell.origin")  # step 2: the same ship again
    tap_first(mover, ".cell.target")
    mover.wait_for_selector(".edge.push")  # push: the unstable rift's arrows
    mover.screenshot(path=str(tmp_path / "push.png"))
    tap_first(mover, ".edge.push")
    for phone, text in ((mover, "Waiting"), (watcher, "Your turn")):
        phone.wait_for_function(
            f"document.querySelector('#who').innerText.includes('{text}')", timeout=3000
        )
    table = app.extensions["tablesmith.tables"].table(mover.url.rsplit("/", 1)[1])
    assert table.view()["state"]["turn"] == 2 and table.view()["state"]["ply"] == 3
    # Now the other phone moves, and the first phone sees it.
    before = table.revision
    tap_first(watcher, ".base.origin")
    tap_first(watcher, ".cell.target")
    newer = f"Number(document.getElementById('app').dataset.revision) > {before}"
    watcher.wait_for_function(newer, timeout=2000)  # its own answer arrived
    mover.wait_for_function(newer, timeout=2000)  # the stream brought it to the first phone
    assert table.view()["state"]["ply"] == 4
    assert mover.locator(".cell .ship-" + table.view()["state"]["player"]).count() >= 1
