"""The event loop's direct action route (:mod:`companion.asgi`) answers exactly as Flask does.

Every request below is sent twice on the same app: through uvicorn (the direct route, or Flask
behind it where the route hands over) and through Flask's test client (Flask alone). Status,
Content-Type and body must be the same bytes; which requests took the direct route is checked
too, so a route that silently always handed over would fail.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.companion.conftest import (
    LiveClient,
    LiveResponse,
    Seats,
    flask_post,
    make_app,
    seat_both,
)


@pytest.fixture
def both(tmp_path: Path) -> Iterator[tuple[LiveClient, FlaskClient, Seats, Flask]]:
    app = make_app(tmp_path)
    live = LiveClient(app)
    test = app.test_client()
    seats = seat_both(flask_post(test))
    yield live, test, seats, app
    live.stop()


def send(
    live: LiveClient,
    test: FlaskClient,
    seats: Seats,
    raw: bytes,
    headers: dict[str, str],
) -> tuple[tuple[int, str, bytes], tuple[int, str, bytes], bool]:
    """POST ``raw`` to the actions route both ways; ``HOST`` in a header is each side's host.
    Returns (uvicorn's answer, Flask's answer, whether uvicorn's skipped Flask)."""
    host = live.base.removeprefix("http://")
    before = len(live.via_flask)
    answer = live.post(
        seats.api + "/actions",
        data=raw,
        headers={k: v.replace("HOST", host) for k, v in headers.items()},
    )
    direct = len(live.via_flask) == before
    expected = test.post(
        seats.api + "/actions",
        data=raw,
        headers={k: v.replace("HOST", "localhost") for k, v in headers.items()},
    )
    return (
        (answer.status_code, answer.headers["Content-Type"], answer.data),
        (expected.status_code, expected.headers["Content-Type"], expected.data),
        direct,
    )


JSON = {"Content-Type": "application/json"}
BODY = {"expected_revision": 1, "client_action_id": "c1", "action": {"type": "fly"}}


def encoded(body: Any) -> bytes:
    return json.dumps(body).encode()


@pytest.mark.parametrize(
    ("raw", "headers", "status", "direct"),
    [
        # refused by the table (the direct route; Flask's error handlers shape the answer)
        (encoded(BODY), JSON, 403, True),  # no token
        (encoded(BODY), {**JSON, "X-Seat-Token": "guess"}, 403, True),
        (encoded(BODY), {**JSON, "X-Seat-Token": "WATCH"}, 403, True),
        (encoded(BODY), {**JSON, "X-Seat-Token": "A"}, 400, True),  # type fly
        (encoded([1]), {**JSON, "X-Seat-Token": "A"}, 400, True),
        (encoded({**BODY, "client_action_id": "a b"}), {**JSON, "X-Seat-Token": "A"}, 400, True),
        (encoded({**BODY, "expected_revision": True}), {**JSON, "X-Seat-Token": "A"}, 400, True),
        (
            encoded({**BODY, "expected_revision": 0, "action": {"type": "undo"}}),
            {**JSON, "X-Seat-Token": "A"},
            409,
            True,
        ),
        (
            encoded({**BODY, "action": {"type": "undo"}}),
            {**JSON, "X-Seat-Token": "A"},
            422,
            True,
        ),
        (
            encoded(BODY),
            {"Content-Type": "application/json; charset=utf-8", "X-Seat-Token": "A"},
            400,
            True,
        ),
        (encoded(BODY), {**JSON, "X-Seat-Token": "A", "Origin": "http://HOST"}, 400, True),
        (encoded(BODY), {**JSON, "X-Seat-Token": "A", "Sec-Fetch-Site": "same-origin"}, 400, True),
        # left to Flask: cross-site, not JSON, too large, ambiguous headers
        (encoded(BODY), {**JSON, "X-Seat-Token": "A", "Origin": "http://evil.test"}, 403, False),
        (encoded(BODY), {**JSON, "X-Seat-Token": "A", "Origin": "null"}, 403, False),
        (encoded(BODY), {**JSON, "X-Seat-Token": "A", "Sec-Fetch-Site": "cross-site"}, 403, False),
        (encoded(BODY), {"Content-Type": "text/plain", "X-Seat-Token": "A"}, 400, False),
        (
            encoded(BODY),
            {"Content-Type": "text/plain", "Content_Type": "application/json", "X-Seat-Token": "A"},
            400,
            False,
        ),
        (encoded(BODY), {**JSON, "X-Seat-Token": "A", "X_Seat_Token": "B"}, 403, False),
        (b"{not json", {**JSON, "X-Seat-Token": "A"}, 400, False),
        (b"[" * 20_000 + b"]" * 20_000, {**JSON, "X-Seat-Token": "A"}, 400, False),
        (encoded({**BODY, "pad": "x" * 70_000}), {**JSON, "X-Seat-Token": "A"}, 413, False),
    ],
)
def test_refusals_are_the_same_bytes_as_flasks(
    both: tuple[LiveClient, FlaskClient, Seats, Flask],
    raw: bytes,
    headers: dict[str, str],
    status: int,
    direct: bool,
) -> None:
    live, test, seats, _ = both
    tokens = {"A": seats.a, "B": seats.b, "WATCH": seats.watch_url.rsplit("/", 1)[1]}
    headers = {k: tokens.get(v, v) if "eat" in k else v for k, v in headers.items()}
    answer, expected, took_direct = send(live, test, seats, raw, headers)
    assert answer == expected
    assert answer[0] == status and answer[1] == "application/json"
    assert json.loads(answer[2])["error"]
    assert took_direct is direct


def test_an_action_is_applied_once_and_answered_like_flask(
    both: tuple[LiveClient, FlaskClient, Seats, Flask],
) -> None:
    live, test, seats, app = both
    setup = {"expected_revision": 1, "client_action_id": "s1", "action": {"type": "setup"}}
    setup["action"]["mode"] = "random"
    headers = {**JSON, "X-Seat-Token": seats.a}
    answer, retried, direct = send(live, test, seats, encoded(setup), headers)
    assert direct and answer[0] == retried[0] == 200
    first, second = json.loads(answer[2]), json.loads(retried[2])
    assert (first["duplicate"], second["duplicate"]) == (False, True)
    assert first["view"] == second["view"] and first["revision"] == second["revision"] == 4
    assert answer[1] == "application/json"
    # the same action again through the direct route: the very bytes Flask answered
    before = len(live.via_flask)
    again = live.post(seats.api + "/actions", data=encoded(setup), headers=headers)
    assert again.data == retried[2] and len(live.via_flask) == before
    # the setup is in the log once: the join, the setup's dice rolls and the setup
    log = test.get(seats.api + "/log", headers={"X-Seat-Token": seats.a}).get_json()
    assert [e["kind"] for e in log["events"]] == ["join", "roll", "roll", "setup"]
    view = first["view"]
    me = view["state"]["player"]
    move = {"expected_revision": view["revision"], "client_action_id": "m1"}
    move["action"] = view["legal"][0]
    moved = live.post(
        seats.api + "/actions", data=encoded(move), headers={**JSON, "X-Seat-Token": seats.a}
    )
    expected = 200 if me == "A" else 422
    assert moved.status_code == expected
    assert app.extensions["tablesmith.tables"].table(seats.table_id).revision == 4 + (me == "A")


def test_an_action_is_decided_on_the_event_loop_and_answered_after_its_commit(
    both: tuple[LiveClient, FlaskClient, Seats, Flask],
) -> None:
    live, _test, seats, app = both
    service = app.extensions["tablesmith.tables"]
    store = service.store
    threads: list[str] = []
    append, append_soon = store.append, store.append_soon

    def watched_append(*args: Any) -> None:
        threads.append("worker")
        append(*args)

    def watched_append_soon(table_id: str, expected: int, events: Any, done: Any) -> None:
        threads.append(threading.current_thread().name)

        def tell(error: Exception | None) -> None:  # the commit is in the file by now
            logged = [e.seq for e in store.events(table_id)]
            threads.append(f"committed {logged[-1]}")
            done(error)

        append_soon(table_id, expected, events, tell)

    store.append, store.append_soon = watched_append, watched_append_soon
    setup = {"expected_revision": 1, "client_action_id": "s1", "action": {"type": "setup"}}
    setup["action"]["mode"] = "random"
    answer = live.post(seats.api + "/actions", json=setup, headers={"X-Seat-Token": seats.a})
    assert answer.status_code == 200 and answer.get_json()["revision"] == 4
    assert threads[1:] == ["committed 4"]
    assert not threads[0].startswith("companion")  # not a worker thread: the event loop's
    # the table's lock is taken (another write under way): the action waits in a worker
    # thread instead of blocking the loop, and is applied after it
    table = service.table(seats.table_id)
    view = answer.get_json()["view"]
    move = {"expected_revision": 4, "client_action_id": "m1", "action": view["legal"][0]}
    token = seats.a if view["to_act"] == "A" else seats.b
    result: list[LiveResponse] = []
    with table.lock:
        sender = threading.Thread(
            target=lambda: result.append(
                live.post(seats.api + "/actions", json=move, headers={"X-Seat-Token": token})
            )
        )
        sender.start()
        time.sleep(0.3)
        assert not result  # waiting for the lock, and the loop still answers others:
        assert live.get(seats.api + "/state", headers={"X-Seat-Token": seats.a}).status_code == 200
    sender.join(10)
    assert result[0].status_code == 200 and result[0].get_json()["revision"] == 5
    assert threads[-1] == "worker"
    assert [e.seq for e in store.events(seats.table_id)][-1] == 5
