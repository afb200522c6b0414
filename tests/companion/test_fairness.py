"""Stream budgets (issue 9, point 2): seats keep their streams, watchers have their own."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask

from companion.evented import serve_in_thread
from companion.tables.budgets import SEAT_STREAMS, WATCH_STREAMS
from tests.companion.conftest import Seats, make_app, seat_both

LIMITS = {"JOIN_RATE_LIMIT": (10_000, 60.0), "LOOKUP_RATE_LIMIT": (10_000, 60.0)}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    app = make_app(tmp_path, MAX_STREAMS=40, **LIMITS)
    base, stop = serve_in_thread(app)
    yield base, app
    stop()


class Phone:
    """A live stream read in a thread: ``frames`` gets every ``data:`` (parsed) and the end."""

    def __init__(self, url: str) -> None:
        self.frames: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.response = requests.get(url, stream=True, timeout=10)
        self.status = self.response.status_code
        if self.status == 200:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for line in self.response.iter_lines(decode_unicode=True):
                if line.startswith("data: "):
                    self.frames.put(json.loads(line[6:]))
        except Exception:  # noqa: BLE001 - closed under the reader
            pass
        self.frames.put(None)

    def view_where(self, test: Any, timeout: float = 3.0) -> dict[str, Any]:
        """The first view (from now on) for which ``test(view)`` holds."""
        end = time.monotonic() + timeout
        while True:
            frame = self.frames.get(timeout=max(0.01, end - time.monotonic()))
            assert frame is not None, "the stream ended"
            if frame.get("view") and test(frame["view"]):
                return frame["view"]

    def ended(self, timeout: float = 3.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                if self.frames.get(timeout=0.1) is None:
                    return True
            except queue.Empty:
                continue
        return False

    def close(self) -> None:
        self.response.close()


def seat(base: str) -> Seats:
    return seat_both(lambda path, **kw: requests.post(base + path, timeout=10, **kw))


def stream_url(base: str, seats: Seats, token: str) -> str:
    return f"{base}{seats.api}/events?since=0&token={token}"


def test_watchers_have_their_own_budget_and_get_a_clear_429(served: tuple[str, Flask]) -> None:
    base, _ = served
    seats = seat(base)
    watch_token = seats.watch_url.rsplit("/", 1)[1]
    watchers = [Phone(stream_url(base, seats, watch_token)) for _ in range(WATCH_STREAMS)]
    try:
        assert [w.status for w in watchers] == [200] * WATCH_STREAMS
        refused = requests.get(stream_url(base, seats, watch_token), timeout=5)
        assert refused.status_code == 429
        assert refused.json()["error"] == "watchers_full"
        assert refused.headers["Retry-After"] == "5"
        # the seats still get their streams
        phone_a, phone_b = (
            Phone(stream_url(base, seats, seats.a)),
            Phone(stream_url(base, seats, seats.b)),
        )
        assert (phone_a.status, phone_b.status) == (200, 200)
        phone_a.close()
        phone_b.close()
        watchers.pop().close()  # one watcher leaves: room for another
        time.sleep(0.3)
        again = Phone(stream_url(base, seats, watch_token))
        assert again.status == 200
        again.close()
    finally:
        for watcher in watchers:
            watcher.close()


def test_watchers_of_many_tables_never_starve_the_seats(served: tuple[str, Flask]) -> None:
    base, app = served  # MAX_STREAMS 40: watchers get at most 20 of them
    tables = [seat(base) for _ in range(4)]
    watchers = []
    try:
        for seats in tables[:3]:
            token = seats.watch_url.rsplit("/", 1)[1]
            watchers += [Phone(stream_url(base, seats, token)) for _ in range(WATCH_STREAMS)]
        statuses = [w.status for w in watchers]
        assert statuses.count(200) == 20 and statuses.count(429) == 4
        last = tables[3]
        phones = [Phone(stream_url(base, last, t)) for t in (last.a, last.b)]
        assert [p.status for p in phones] == [200, 200]
        for p in phones:
            p.close()
    finally:
        for watcher in watchers:
            watcher.close()


def test_a_full_server_says_so(tmp_path: Path) -> None:
    app = make_app(tmp_path, MAX_STREAMS=2, **LIMITS)
    base, stop = serve_in_thread(app)
    try:
        one, two = seat(base), seat(base)
        phones = [Phone(stream_url(base, one, one.a)), Phone(stream_url(base, one, one.b))]
        refused = requests.get(stream_url(base, two, two.a), timeout=5)
        assert refused.status_code == 503 and refused.json()["error"] == "server_full"
        for p in phones:
            p.close()
    finally:
        stop()


def test_a_seat_over_its_budget_ends_its_oldest_stream(served: tuple[str, Flask]) -> None:
    base, app = served
    seats = seat(base)
    phones = [Phone(stream_url(base, seats, seats.a)) for _ in range(SEAT_STREAMS)]
    newest = Phone(stream_url(base, seats, seats.a))  # e.g. a reload whose old stream lingers
    try:
        assert newest.status == 200
        assert phones[0].ended()  # the oldest was taken back; the page reconnects
        assert app.extensions["tablesmith.tables"].streams_open == SEAT_STREAMS
    finally:
        for p in [*phones, newest]:
            p.close()
