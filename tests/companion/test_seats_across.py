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

from companion.dice import DiceService
from companion.store.factory import open_store
from companion.tables.rejected import Rejected
from companion.tables.service import TableService
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
    # a write is decided on the caught-up table: refused at once, even through the process
    # that has not heard of the move yet
    roll = {"client_action_id": "after-move", "count": 1, "sides": 6, "purpose": "test"}
    written = requests.post(
        first.base + api + "/dice", json=roll, headers=table.headers("A"), timeout=10
    )
    assert written.status_code == 403 and written.json()["reason"] == "seat_taken", written.text
    for serve in (first, second):  # reads: as soon as the hub has told the process
        deadline = time.monotonic() + 3
        while True:
            old = requests.get(serve.base + api + "/state", headers=table.headers("A"), timeout=10)
            if old.status_code == 403 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        refused = old.json()
        assert old.status_code == 403 and refused["reason"] == "seat_taken", refused
        assert refused["seat"] == "A" and "taken over by another phone" in refused["message"]


def test_a_write_through_a_process_that_has_not_heard_of_a_seat_move_is_refused(
    postgres_url: str,
) -> None:
    """Two services on one PostgreSQL with no hub between them (the hub's message can come
    late): process 1 still reads the moved seat's old token as seated, but its write is decided
    on the caught-up table and refused with the reason; the new phone writes through it."""
    first, second = (TableService(open_store(postgres_url), DiceService()) for _ in range(2))
    try:
        seat_a, join, _ = first.create("asteroids")
        first.join(join)
        first.authorise(seat_a.table_id, seat_a.token)  # process 1 has the table loaded
        code = second.reclaim_code(second.authorise(seat_a.table_id, seat_a.token), {"seat": "A"})
        moved = second.reclaim(seat_a.table_id, {"code": code["code"]})
        stale = first.authorise(seat_a.table_id, seat_a.token)
        assert stale.role == "A"  # a read: process 1 has not heard yet
        roll = {"client_action_id": "old-phone", "count": 1, "sides": 6, "purpose": "test"}
        with pytest.raises(Rejected) as refused:
            first.roll(stale, roll)
        assert refused.value.status == 403 and refused.value.details["reason"] == "seat_taken"
        answer = first.roll(
            first.authorise(seat_a.table_id, moved.token), roll | {"client_action_id": "new"}
        )
        assert '"duplicate":false' in answer
        rolls = [e for e in first.store.events(seat_a.table_id) if e.kind == "roll"]
        assert [e.client_action_id for e in rolls] == ["new"]
    finally:
        for service in (first, second):
            service.store.close()
