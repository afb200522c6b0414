"""Seats nobody can take: each way a browser can get a seat that is taken, through the API.

* A seat code (6 characters, made by either seated phone for the other seat) claims a seat only
  when that seat's phone is gone: no live stream and no request for ``SEAT_GONE_SECONDS``.
* A move code (8 characters, made by the seated phone for its own seat: its consent) claims the
  seat at once.
* The seat key (10 characters, given with the seat when the table is made or joined, shown only
  on that phone) always gets the rightful player's seat back at once, and is renewed.
* The phone whose seat was taken is told on its open streams at once; they close, and its token
  is refused.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient

from companion.evented import serve_in_thread
from tests.companion.conftest import Seats, flask_post, make_app, seat_both

GONE = 0.6
"""The seat-gone time the tests run with (seconds; the server's default is a minute)."""


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return make_app(tmp_path, SEAT_GONE_SECONDS=GONE)


def made(client: FlaskClient) -> tuple[Seats, str, str]:
    """A table with both seats taken; also A's and B's seat keys."""
    seats = seat_both(flask_post(client))
    return seats, seats.key_a, seats.key_b


def code_for(client: FlaskClient, seats: Seats, maker: str, seat: str | None = None) -> str:
    body = {} if seat is None else {"seat": seat}
    answer = client.post(seats.api + "/reclaim-code", json=body, headers=seats.headers(maker))
    assert answer.status_code == 200, answer.get_json()
    code: str = answer.get_json()["code"]
    return code


def claim(app: Flask, seats: Seats, code: str) -> Any:
    """A new browser (no cookie, no token) types ``code``."""
    return app.test_client().post(seats.api + "/reclaim", json={"code": code})


def works(client: FlaskClient, seats: Seats, token: str) -> bool:
    answer = client.get(seats.api + "/state", headers={"X-Seat-Token": token})
    return bool(answer.status_code == 200)


def test_a_seat_code_waits_until_the_seats_phone_is_gone(app: Flask, client: FlaskClient) -> None:
    seats, _, _ = made(client)
    code = code_for(client, seats, "A")  # A's code is for B by default
    assert len(code) == 6
    assert works(client, seats, seats.b)  # B's phone is at the table (a request just now)
    refused = claim(app, seats, code)
    assert refused.status_code == 409 and refused.get_json()["error"] == "seat_in_use"
    body = refused.get_json()
    assert body["seat"] == "B" and 0 < body["retry_in"] <= GONE + 1 and body["seen_at"]
    assert works(client, seats, seats.b)  # nothing changed: B still plays ...
    time.sleep(GONE + 0.2)  # ... until B's phone has been away long enough
    taken = claim(app, seats, code)  # the refused try did not use the code up
    assert taken.status_code == 200, taken.get_json()
    assert taken.get_json()["seat"] == "B" and "seat_key" not in taken.get_json()
    assert not works(client, seats, seats.b)
    assert claim(app, seats, code).status_code == 403  # a code works once


def test_a_move_code_is_the_seated_phones_consent_and_works_at_once(
    app: Flask, client: FlaskClient
) -> None:
    seats, _, _ = made(client)
    code = code_for(client, seats, "B", "B")  # B moves its own seat to another phone
    assert len(code) == 8
    assert works(client, seats, seats.b)
    taken = claim(app, seats, code.lower()[:4] + " " + code[4:])  # as typed
    assert taken.status_code == 200 and taken.get_json()["seat"] == "B"
    assert not works(client, seats, seats.b)
    assert works(client, seats, taken.get_json()["token"])
    # only a seat's own phone makes a move code: A asking for B gets a seat code
    assert len(code_for(client, seats, "A", "B")) == 6


def test_the_seat_key_brings_the_rightful_player_back_at_once(
    app: Flask, client: FlaskClient
) -> None:
    seats, key_a, key_b = made(client)
    assert len(key_a) == len(key_b) == 10 and key_a != key_b
    # A's phone goes away; B gets A's seat for an accomplice with a seat code
    time.sleep(GONE + 0.2)
    assert works(client, seats, seats.b)
    usurper = claim(app, seats, code_for(client, seats, "B")).get_json()
    assert usurper["seat"] == "A" and "seat_key" not in usurper
    assert not works(client, seats, seats.a)
    assert works(client, seats, usurper["token"])  # the usurper is at the table now
    # the rightful player types the seat key: back at once, though the usurper is present
    back = claim(app, seats, key_a[:5] + "-" + key_a[5:])
    assert back.status_code == 200 and back.get_json()["seat"] == "A"
    renewed = back.get_json()["seat_key"]
    assert len(renewed) == 10 and renewed != key_a
    assert not works(client, seats, usurper["token"])
    assert claim(app, seats, key_a).status_code == 403  # the used key is spent ...
    latest = claim(app, seats, renewed)  # ... the renewed one works
    assert latest.status_code == 200
    holder_a = latest.get_json()["token"]
    # the key is shown on the phones that hold it, never on a phone seated by a seat code
    browser = app.test_client()
    page = browser.post(seats.api + "/reclaim", json={"code": key_b})
    assert page.status_code == 200
    shown = browser.get(f"/t/{seats.table_id}").get_data(as_text=True)
    key = page.get_json()["seat_key"]
    assert f'id="seat-key" class="seat-code">{key[:5]}-{key[5:]}<' in shown
    assert key_b[:5] + "-" + key_b[5:] not in shown
    move = client.post(
        seats.api + "/reclaim-code", json={"seat": "A"}, headers={"X-Seat-Token": holder_a}
    ).get_json()["code"]
    other = app.test_client()
    assert other.post(seats.api + "/reclaim", json={"code": move}).status_code == 200
    assert 'id="seat-key"' not in other.get(f"/t/{seats.table_id}").get_data(as_text=True)


def test_a_seat_code_is_refused_while_the_seat_has_a_live_stream(tmp_path: Path) -> None:
    app = make_app(tmp_path, SEAT_GONE_SECONDS=GONE)
    base, stop = serve_in_thread(app)
    try:
        client = app.test_client()
        seats, _, _ = made(client)
        stream = requests.get(
            base + seats.api + "/events?since=0&token=" + seats.b, stream=True, timeout=10
        )
        assert stream.status_code == 200
        time.sleep(GONE + 0.3)  # no request from B, but its stream is open: B is at the table
        refused = claim(app, seats, code_for(client, seats, "A"))
        assert refused.status_code == 409 and refused.get_json()["error"] == "seat_in_use"
        stream.close()
    finally:
        stop()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    app = make_app(tmp_path, SEAT_GONE_SECONDS=GONE)
    base, stop = serve_in_thread(app)
    yield base, app
    stop()


def test_the_phone_whose_seat_was_taken_is_told_at_once_and_its_stream_closes(
    live: tuple[str, Flask],
) -> None:
    base, app = live
    client = app.test_client()
    seats, _, _ = made(client)
    stream = requests.get(
        base + seats.api + "/events?since=0&token=" + seats.b, stream=True, timeout=10
    )
    lines: list[str] = []
    ended = threading.Event()

    def read() -> None:
        for line in stream.iter_lines(decode_unicode=True):
            lines.append(str(line))
        ended.set()

    threading.Thread(target=read, daemon=True).start()
    time.sleep(0.3)
    code = code_for(client, seats, "B", "B")
    taken_at = time.monotonic()
    assert claim(app, seats, code).status_code == 200
    assert ended.wait(3), "the revoked token's stream stayed open"
    told = [json.loads(line[5:]) for line in lines if line.startswith("data:")]
    revoked = [m["revoked"] for m in told if m.get("revoked")]
    assert revoked and revoked[-1]["seat"] == "B" and revoked[-1]["at"]
    assert time.monotonic() - taken_at < 2.0
    # the old token opens no stream again
    again = requests.get(base + seats.api + "/events?since=0&token=" + seats.b, timeout=5)
    assert again.status_code == 403


@pytest.mark.slow
def test_a_phone_sees_at_once_that_its_seat_moved_and_the_new_phone_plays(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    from tests.companion.phones import PHONE, two_phones

    base, app = live_server
    phone_a, phone_b = two_phones(browser, base, "asteroids")
    phone_b.wait_for_selector("#random-setup")
    phone_b.click("#reclaim summary")
    assert len(phone_b.inner_text("#seat-key").replace("-", "")) == 10  # B took the seat first
    phone_b.click("#reclaim-move")
    phone_b.wait_for_selector("#reclaim-code:not([hidden])")
    code = phone_b.inner_text("#reclaim-code").strip()
    assert len(code) == 8
    table_url = phone_b.url
    new_phone = browser.new_context(**PHONE).new_page()
    new_phone.goto(table_url)
    new_phone.fill("#reclaim-input", code)
    started = time.monotonic()
    new_phone.click("#reclaim-submit")
    phone_b.wait_for_selector("#seat-taken:not([hidden])", timeout=3000)
    told = time.monotonic() - started
    assert "Another phone took this seat over" in phone_b.inner_text("#seat-taken")
    new_phone.wait_for_selector("#random-setup")
    assert new_phone.get_attribute("#app", "data-role") == "B"
    assert new_phone.locator("#seat-key").count() == 0  # a moved seat brings no key
    print(f"\nthe old phone was told {told:.2f} s after the move code was typed")
    assert told < 2.0
    # the old phone's page without a seat has its seat key filled in: one tap back
    phone_b.click("#seat-taken-link")
    phone_b.wait_for_selector("#reclaim-input")
    assert len(phone_b.input_value("#reclaim-input").replace("-", "")) == 10
    phone_b.click("#reclaim-submit")
    phone_b.wait_for_selector("#random-setup")
    assert phone_b.get_attribute("#app", "data-role") == "B"
    new_phone.wait_for_selector("#seat-taken:not([hidden])", timeout=3000)
