"""Live sync: two phones on the Server-Sent Events stream of a real (waitress) server."""

from __future__ import annotations

import json
import queue
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask

from tests.companion.conftest import Seats, make_app, seat_both

pytestmark = pytest.mark.both_servers  # the streams on both servers


class Listener:
    """Reads an SSE stream in a thread; ``events`` receives (id, data, arrival time)."""

    def __init__(self, url: str) -> None:
        self.events: queue.Queue[tuple[int, dict[str, Any], float]] = queue.Queue()
        self.comments = 0
        self.response = requests.get(url, stream=True, timeout=10)
        assert self.response.status_code == 200
        assert self.response.headers["Content-Type"].startswith("text/event-stream")
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event_id, data = None, None
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line.startswith(":"):
                    self.comments += 1
                elif line.startswith("id: "):
                    event_id = int(line[4:])
                elif line.startswith("data: "):
                    data = json.loads(line[6:])
                elif line == "" and event_id is not None:
                    self.events.put((event_id, data or {}, time.perf_counter()))
                    event_id, data = None, None
        except Exception:  # noqa: BLE001 - the stream was closed under the reader
            return

    def next(self, timeout: float = 2.0) -> tuple[int, dict[str, Any], float]:
        return self.events.get(timeout=timeout)

    def close(self) -> None:
        self.response.close()


def post(base: str) -> Any:
    return lambda path, **kw: requests.post(base + path, timeout=10, **kw)


def action(base: str, seats: Seats, seat: str, body: dict[str, Any]) -> requests.Response:
    return requests.post(
        f"{base}{seats.api}/actions", json=body, headers=seats.headers(seat), timeout=10
    )


def test_two_phones_see_every_event_within_a_second_and_catch_up(
    live_server: tuple[str, Flask],
) -> None:
    base, _ = live_server
    seats = seat_both(post(base))
    stream = f"{base}{seats.api}/events?since=1&token="
    phone_a, phone_b = Listener(stream + seats.a), Listener(stream + seats.b)
    setup = {
        "expected_revision": 1,
        "client_action_id": "s1",
        "action": {"type": "setup", "mode": "random"},
    }
    sent = time.perf_counter()
    view = action(base, seats, "A", setup).json()["view"]
    for phone in (phone_a, phone_b):
        ids = [phone.next()[0] for _ in range(3)]
        assert ids == [2, 3, 4]  # two rolls and the setup, in order, each with its seq
    mover = view["state"]["player"]
    move = next(a for a in view["legal"] if a["type"] == "move")
    sent = time.perf_counter()
    acted = action(
        base, seats, mover, {"expected_revision": 4, "client_action_id": "m1", "action": move}
    )
    assert acted.status_code == 200
    for phone in (phone_a, phone_b):
        seq, data, arrived = phone.next()
        assert seq == 5 and data["event"]["payload"]["action"] == move
        assert data["view"]["revision"] == 5 and data["view"]["state"]["ply"] == 1
        assert arrived - sent < 1.0
    # Phone B drops off; an action happens; B reconnects with ?since and gets what it missed.
    phone_b.close()
    second = next(a for a in acted.json()["view"]["legal"] if a["type"] == "move")
    action(base, seats, mover, {"expected_revision": 5, "client_action_id": "m2", "action": second})
    again = Listener(f"{base}{seats.api}/events?since=5&token={seats.b}")
    seq, data, _ = again.next()
    assert seq == 6 and data["view"]["state"]["phase"] == "push"
    replay = Listener(f"{base}{seats.api}/events?since=3&token={seats.b}")
    got = [replay.next() for _ in range(3)]
    assert [g[0] for g in got] == [4, 5, 6]
    assert [g[1]["view"] is None for g in got] == [True, True, False]  # view on the newest
    for phone in (phone_a, again, replay):
        phone.close()


def test_heartbeat_keeps_an_idle_stream_open(live_server: tuple[str, Flask]) -> None:
    base, _ = live_server  # HEARTBEAT_SECONDS is 0.5 in the tests
    seats = seat_both(post(base))
    idle = Listener(f"{base}{seats.api}/events?since=1&token={seats.a}")
    time.sleep(1.3)
    assert idle.comments >= 2 and idle.events.empty()
    idle.close()
    assert (
        requests.get(f"{base}{seats.api}/events?since=x&token={seats.a}", timeout=5).status_code
        == 400
    )


def test_a_stream_ends_after_its_lifetime_and_resumes_with_since(tmp_path: Path) -> None:
    app = make_app(tmp_path, STREAM_SECONDS=1.2)  # heartbeats every 0.5 s meanwhile
    client = app.test_client()
    created = client.post("/api/tables", json={}).get_json()
    url = f"/api/t/{created['table_id']}/events?since=0&token={created['token']}"
    started = time.perf_counter()
    body = client.get(url).get_data(as_text=True)  # returns only because the stream ended
    assert 1.2 <= time.perf_counter() - started < 3
    assert body.startswith("retry:") and ": heartbeat" in body
