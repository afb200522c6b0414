"""Real browser (Debian chromium via Playwright), two phones at a PocketModel table served by
uvicorn: they play over sockets (companion/static/socket.js), one loses its network for 5 s and
catches up, and one behind a proxy that lets no socket through falls back to SSE + POST by
itself and plays on with the other on its socket."""

from __future__ import annotations

import time
from typing import Any

import pytest
from flask import Flask

from tests.companion.phones import Link, pocketmodel_table
from tests.companion.test_phone_connection import count_text, seconds_until, wait_count

pytestmark = pytest.mark.slow
OUTAGE_SECONDS = 5


def transport(phone: Any, seconds: float = 10) -> str:
    """The page's transport once its stream is open: "socket" or "sse"."""
    phone.wait_for_function("Tablesmith.transport() !== null", timeout=seconds * 1000)
    found: str = phone.evaluate("Tablesmith.transport()")
    return found


class Wire:
    """The POSTs to the API a phone sends from now on (its route names)."""

    def __init__(self, phone: Any) -> None:
        self.posts: list[str] = []
        phone.on("request", self._request)

    def _request(self, request: Any) -> None:
        if request.method == "POST" and "/api/" in request.url:
            self.posts.append(request.url.rsplit("/", 1)[1])


def tap(phone: Any, other: Any, unit: str) -> None:
    """``phone`` adds or takes a counter on ``unit``; both phones show it (4 s at most)."""
    sign, want = ("plus", 1) if count_text(phone, unit).startswith("0/") else ("minus", 0)
    phone.wait_for_function(
        "!document.getElementById('app').classList.contains('busy')", timeout=4000
    )
    phone.click(f"#{sign}-{unit}")
    for page in (phone, other):
        wait_count(page, unit, want, 4000)


def test_two_phones_play_over_sockets(browser: Any, live_server: tuple[str, Flask]) -> None:
    base, app = live_server
    phone_a, phone_b = pocketmodel_table(browser, base)  # the decks came over the sockets
    assert (transport(phone_a), transport(phone_b)) == ("socket", "socket")
    table = app.extensions["tablesmith.tables"].table(phone_a.url.rsplit("/", 1)[1])
    before = table.revision
    wires = Wire(phone_a), Wire(phone_b)
    for _round in range(3):
        tap(phone_a, phone_b, "A1")
        tap(phone_b, phone_a, "B1")
    assert [w.posts for w in wires] == [[], []]  # no write over HTTP ...
    assert table.revision == before + 6  # ... and every tap applied: they came on the sockets


def test_a_phone_that_lost_its_network_for_5_s_catches_up_on_its_socket(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, _ = live_server
    with Link(base) as link:
        phone_a, phone_b = pocketmodel_table(browser, link.url, base_b=base)
        assert transport(phone_a) == "socket"
        link.drop(hold=True)  # a lost Wi-Fi: the socket is cut, new connections hang
        sign, want = ("plus", 1) if count_text(phone_b, "B1").startswith("0/") else ("minus", 0)
        phone_b.click(f"#{sign}-B1")
        wait_count(phone_b, "B1", want, 3000)
        time.sleep(OUTAGE_SECONDS)
        assert not count_text(phone_a, "B1").startswith(f"{want}/")  # A could not know
        link.restore()
        caught_up = seconds_until(phone_a, "B1", want, 15.0)
        print(f"\ncaught up {caught_up:.2f} s after a {OUTAGE_SECONDS} s outage")
        assert caught_up < 8.0
        phone_a.wait_for_function("Tablesmith.transport() === 'socket'", timeout=10_000)
        wire = Wire(phone_a)
        tap(phone_a, phone_b, "A1")  # and plays on over its socket
        assert wire.posts == []


def test_a_phone_whose_sockets_are_blocked_falls_back_to_sse_and_plays_on(
    browser: Any, live_server: tuple[str, Flask]
) -> None:
    base, _ = live_server
    with Link(base, sockets=False) as proxy:
        phone_a, phone_b = pocketmodel_table(browser, base, base_b=proxy.url)
        assert (transport(phone_a), transport(phone_b)) == ("socket", "sse")
        wire_a, wire_b = Wire(phone_a), Wire(phone_b)
        for _round in range(2):
            tap(phone_a, phone_b, "A1")
            tap(phone_b, phone_a, "B1")
        assert wire_a.posts == [] and len(wire_b.posts) == 2  # B's writes are POSTs
        assert transport(phone_b) == "sse"  # it stays there
