"""The game clock on two real phones (Debian chromium via Playwright): chosen on the start page,
shown on both phones within 1 s of the server's own clock, also on a phone whose date is 10
minutes off, after a reload and on a new server started on the same database; paused and
resumed by each seat; the chess clock's increment; at zero both phones signal it and the log
records it once, and the game goes on."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask

from companion.evented import serve_in_thread
from tests.companion.conftest import make_app
from tests.companion.phones import PHONE, shot, shots_folder

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright (the test extra)")

WITHIN = 1.0
"""Seconds a phone's clock may differ from the server's."""
OFF_MS = 10 * 60 * 1000
"""How far the second phone's own date is off: 10 minutes ahead."""
SHIFTED_DATE = f"""(() => {{
  const Real = Date;
  class Shifted extends Real {{
    constructor(...args) {{ if (args.length) super(...args); else super(Real.now() + {OFF_MS}); }}
    static now() {{ return Real.now() + {OFF_MS}; }}
  }}
  window.Date = Shifted;
}})();"""
"""An init script: the page's ``Date`` runs 10 minutes ahead (its timers and
``performance.now()`` are untouched, as on a phone whose clock is set wrong)."""


def start_with_clock(
    browser: Any, base: str, mode: str, amount: str, increment: str = "0"
) -> tuple[Any, Any]:
    """Phone A starts an Asteroids table with a clock chosen on the start page; phone B, its
    date 10 minutes off, joins; phone A sets the game up. Both pages, A first."""
    phone_a = browser.new_context(**PHONE).new_page()
    shifted = browser.new_context(**PHONE)
    shifted.add_init_script(SHIFTED_DATE)
    phone_b = shifted.new_page()
    phone_a.goto(base + "/")
    phone_a.click("#clock-choice summary")
    phone_a.select_option("#clock-mode", mode)
    phone_a.fill("#clock-turn-seconds" if mode == "turn" else "#clock-minutes", amount)
    phone_a.fill("#clock-increment", increment)
    phone_a.click("#new-table-asteroids")
    phone_b.goto(phone_a.locator("#join-link").get_attribute("href"))
    phone_b.click("#take-seat")
    phone_b.wait_for_selector("#random-setup")
    skew = phone_b.evaluate("Date.now()") - time.time() * 1000
    assert abs(skew - OFF_MS) < 5000, skew  # phone B's date really is 10 minutes off
    phone_a.click("#random-setup")
    for phone in (phone_a, phone_b):
        phone.wait_for_function("document.getElementById('clock-A').dataset.running !== ''")
        phone.wait_for_selector("#clock.clock:not([hidden])")
    return phone_a, phone_b


def shown(phone: Any) -> dict[str, float]:
    """The seconds the phone's clock faces show now (their ``data-remaining``)."""
    values: dict[str, str] = phone.evaluate(
        "({A: document.getElementById('clock-A').dataset.remaining,"
        " B: document.getElementById('clock-B').dataset.remaining})"
    )
    return {side: float(value) for side, value in values.items()}


def server_left(app: Flask, phone: Any) -> dict[str, float]:
    """The server's own remaining seconds of the phone's table, now."""
    table = app.extensions["tablesmith.tables"].table(phone.url.rsplit("/", 1)[1])
    return table.clock.left(time.time())


def assert_in_step(app: Flask, *phones: Any) -> None:
    """Every phone's clock is within :data:`WITHIN` of the server's, both seats."""
    for phone in phones:
        on_phone, on_server = shown(phone), server_left(app, phone)
        for side in ("A", "B"):
            assert abs(on_phone[side] - on_server[side]) < WITHIN, (side, on_phone, on_server)


def wait_paused(phone: Any, paused: bool) -> None:
    flag = "true" if paused else "false"
    phone.wait_for_function(
        f"document.getElementById('clock').dataset.paused === '{flag}'", timeout=3000
    )


def test_clock_on_a_phone_10_minutes_off_and_a_pause_by_each_seat(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    base, app = live_server
    phone_a, phone_b = start_with_clock(browser, base, "chess", "1", "2")
    time.sleep(1.5)  # seat A's time runs on both phones
    assert_in_step(app, phone_a, phone_b)
    assert 57 < shown(phone_b)["A"] < 59.5 and shown(phone_b)["B"] == 60.0
    assert "0:5" in phone_b.inner_text("#clock-time-A")

    for pauser, resumer in ((phone_a, phone_b), (phone_b, phone_a)):
        pauser.click("#clock-pause")
        for phone in (phone_a, phone_b):
            wait_paused(phone, True)
        frozen = shown(phone_b)
        time.sleep(1.2)
        player = "Player A" if pauser is phone_a else "Player B"
        for phone in (phone_a, phone_b):
            assert abs(shown(phone)["A"] - frozen["A"]) < 0.05  # the time stands still
            assert f"paused by {player}" in phone.inner_text("#clock-note")
        assert_in_step(app, phone_a, phone_b)
        assert phone_a.inner_text("#clock-pause") == "Resume the clock"
        resumer.click("#clock-pause")
        for phone in (phone_a, phone_b):
            wait_paused(phone, False)
    time.sleep(0.5)
    assert_in_step(app, phone_a, phone_b)
    phone_b.reload()  # a reload takes the time from the server again
    phone_b.wait_for_function("document.getElementById('clock-A').dataset.remaining !== ''")
    time.sleep(0.3)
    assert_in_step(app, phone_a, phone_b)

    before = shown(phone_a)["A"]
    end_turn(phone_a)  # A ends the turn: + 2 s on both phones, B's time runs
    for phone in (phone_a, phone_b):
        phone.wait_for_function("document.getElementById('clock').dataset.running === 'B'")
    time.sleep(0.3)
    assert_in_step(app, phone_a, phone_b)
    assert 1.0 < shown(phone_b)["A"] - before <= 2.0  # the increment, less the taps' time
    shot(phone_b, shots_folder(tmp_path), "clock-chess")

    again = make_app(tmp_path)  # a new server on the same database (a restart mid-turn)
    base_again, stop = serve_in_thread(again)
    try:
        phone_b.goto(base_again + "/t/" + phone_b.url.rsplit("/", 1)[1])
        phone_b.wait_for_function("document.getElementById('clock').dataset.running === 'B'")
        time.sleep(0.3)
        assert_in_step(again, phone_b)
        assert abs(shown(phone_b)["B"] - server_left(app, phone_a)["B"]) < WITHIN
    finally:
        phone_b.close()
        stop()


def end_turn(phone: Any) -> None:
    """The phone's seat plays the first legal action until its turn passes (through the API
    with the page's own token: the clock test is about the clock, not the game's taps)."""
    api = phone.evaluate("document.getElementById('app').dataset.api")
    token = phone.evaluate("document.getElementById('app').dataset.token")
    origin = phone.url.split("/t/")[0]
    headers = {"X-Seat-Token": token, "Origin": origin}
    view = requests.get(origin + api + "state", headers=headers, timeout=10).json()
    turn = view["state"]["turn"]
    for step in range(20):
        body = {
            "expected_revision": view["revision"],
            "client_action_id": f"clock-test-{step}",
            "action": view["legal"][0],
        }
        answer = requests.post(origin + api + "actions", json=body, headers=headers, timeout=10)
        view = answer.json()["view"]
        if view["state"]["turn"] != turn:
            return
    raise AssertionError("the turn did not pass in 20 actions")


def test_clock_at_zero_both_phones_signal_and_the_log_records_it_once(
    browser: Any, live_server: tuple[str, Flask], tmp_path: Path
) -> None:
    base, app = live_server
    phone_a, phone_b = start_with_clock(browser, base, "turn", "2")
    for phone in (phone_a, phone_b):
        phone.wait_for_function(
            "Number(document.getElementById('clock').dataset.signals || 0) >= 1", timeout=5000
        )
        assert "Player A is out of time" in phone.inner_text("#clock-note")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and not table.clock.expired:
        time.sleep(0.1)
    time.sleep(0.5)  # the second phone's report comes too, and is refused
    expired = [m for m in table.messages if '"op":"expired"' in m]
    assert len(expired) == 1 and table.view()["outcome"] is None  # no automatic loss
    assert table.view()["to_act"] == "A" and table.clock.left(time.time())["A"] < 0
    assert_in_step(app, phone_a, phone_b)  # overtime counts on, in step
    assert phone_b.inner_text("#clock-time-A").startswith("−")
    phone_a.click("#log summary")
    phone_a.wait_for_function(
        "document.getElementById('log-list').innerText.includes('Player A ran out of time')"
    )
    shot(phone_a, shots_folder(tmp_path), "clock-zero")
