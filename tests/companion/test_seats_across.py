"""Seats hold across processes (issue 32.5): two ``tablesmith serve`` processes on one
PostgreSQL and one Redis. A phone that makes a request through process 1 every 5 s and holds
no live stream lost its seat after 66 s to a seat code typed through process 2, because "last
seen" was kept per process; now the processes tell each other of a seat's requests through
the hub (``companion.tables.seats.Seats.note_heard``). A seat taken through one process is
refused through the other with the reason."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
import requests

from tests.companion.servers import Serve, seat_both
from tests.companion.test_scaleout import pair  # noqa: F401 - the fixture

GONE = 60.0
"""``SEAT_GONE_SECONDS``, as ``serve`` has it."""


def parse(stamp: str) -> float:
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC).timestamp()


@pytest.mark.slow
def test_a_phone_seen_through_one_process_keeps_its_seat_against_a_code_typed_on_the_other(
    pair: tuple[Serve, Serve],  # noqa: F811 - the fixture
) -> None:
    first, second = pair
    table = seat_both(first, second)  # A made it through process 1, B joined through 2
    api = f"/api/t/{table.id}"
    started = time.monotonic()
    last_request = time.time()
    while time.monotonic() - started < GONE + 6:  # A: a request every 5 s, no live stream
        seen = requests.get(first.base + api + "/state", headers=table.headers("A"), timeout=10)
        assert seen.status_code == 200
        last_request = time.time()
        time.sleep(5)
    code = requests.post(
        second.base + api + "/reclaim-code", json={}, headers=table.headers("B"), timeout=10
    ).json()
    assert code["seat"] == "A" and code["kind"] == "seat"
    typed = requests.post(second.base + api + "/reclaim", json={"code": code["code"]}, timeout=10)
    body = typed.json()
    assert typed.status_code == 409 and body["error"] == "seat_in_use", body
    assert abs(parse(body["seen_at"]) - last_request) <= 6, (body, last_request)
    still = requests.get(first.base + api + "/state", headers=table.headers("A"), timeout=10)
    assert still.status_code == 200 and still.json()["you"] == "A"

    # A moves to another phone through process 2 with a move code made through process 1:
    # its old token is refused through either process, saying why
    move = requests.post(
        first.base + api + "/reclaim-code",
        json={"seat": "A"},
        headers=table.headers("A"),
        timeout=10,
    ).json()
    moved = requests.post(second.base + api + "/reclaim", json={"code": move["code"]}, timeout=10)
    assert moved.status_code == 200 and moved.json()["seat"] == "A"
    for serve in (first, second):
        old = requests.get(serve.base + api + "/state", headers=table.headers("A"), timeout=10)
        refused = old.json()
        assert old.status_code == 403 and refused["reason"] == "seat_taken", refused
        assert refused["seat"] == "A" and "taken over by another phone" in refused["message"]
