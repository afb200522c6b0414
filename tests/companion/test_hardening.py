"""Regression tests of the QA pass on the companion (findings F1..F9 and the hardening items)."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from companion.pages import local_path
from companion.store.base import StorageUnavailable
from companion.store.sqlite import EventStore
from tests.companion.conftest import Seats, act, flask_post, make_app, seat_both

JSON_HEADERS = {"Content-Type": "application/json"}


def dice_body(client_id: str, purpose: str = "test") -> dict[str, Any]:
    return {"client_action_id": client_id, "count": 2, "sides": 6, "purpose": purpose}


# --------------------------------------------------------------------------------- F3 redirect


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/t/abc?x=1", "/t/abc?x=1"),
        ("/", "/"),
        ("/\t/evil.example", "/"),
        ("/\n/evil.example", "/"),
        ("//evil.example", "/"),
        ("/\\evil.example", "/"),
        ("\\\\evil.example", "/"),
        ("https://evil.example/", "/"),
        ("javascript:alert(1)", "/"),
        (" /x", "/"),
        ("/x\u2028", "/"),
        ("t/abc", "/"),
        ("/" + "a" * 3000, "/"),
    ],
)
def test_language_switch_redirects_only_to_a_local_path(target: str, expected: str) -> None:
    assert local_path(target) == expected


def test_language_switch_with_a_tab_trick_goes_home(client: FlaskClient) -> None:
    response = client.get("/lang/de?next=/%09/evil.example")
    assert response.status_code == 303 and response.headers["Location"] == "/"
    ok = client.get("/lang/de?next=/t/xyz")
    assert ok.headers["Location"] == "/t/xyz"


# ------------------------------------------------------------------------- F4 malformed input


@pytest.mark.parametrize("path", ["/actions", "/dice"])
def test_deeply_nested_json_is_400_not_500(client: FlaskClient, seats: Seats, path: str) -> None:
    body = "[" * 30_000 + "]" * 30_000  # 60 KB: under the size limit, too deep for the parser
    response = client.post(
        seats.api + path, data=body, headers={**JSON_HEADERS, **seats.headers("A")}
    )
    assert response.status_code == 400
    assert response.get_json() == {
        "error": "malformed",
        "message": "the JSON body is nested too deeply",
    }


def test_deeply_nested_json_creating_a_table_is_400(client: FlaskClient) -> None:
    response = client.post(
        "/api/tables", data='{"a":' * 10_000 + "1" + "}" * 10_000, headers=JSON_HEADERS
    )
    assert response.status_code == 400 and response.get_json()["error"] == "malformed"
    listed = client.post("/api/tables", json=["asteroids"])
    assert listed.status_code == 400 and listed.get_json()["error"] == "malformed"


@pytest.mark.parametrize("since", ["\u00b2", "\u0661\u0664", "9" * 5000, "9" * 16, "-1", "1.0"])
def test_since_must_be_ascii_digits(client: FlaskClient, seats: Seats, since: str) -> None:
    response = client.get(seats.api + "/events", query_string={"since": since, "token": seats.a})
    assert response.status_code == 400
    message = response.get_json()["message"]
    assert message.startswith("since must be a sequence number") and len(message) < 160


def test_last_event_id_with_a_superscript_digit_is_400(client: FlaskClient, seats: Seats) -> None:
    response = client.get(
        seats.api + "/events", query_string={"token": seats.a}, headers={"Last-Event-ID": "\u00b2"}
    )
    assert response.status_code == 400 and response.get_json()["error"] == "malformed"


def test_big_bodies_get_json_413(client: FlaskClient, seats: Seats) -> None:
    body = {**dice_body("big"), "pad": "x" * 70_000}
    response = client.post(seats.api + "/dice", json=body, headers=seats.headers("A"))
    assert response.status_code == 413
    assert response.get_json()["error"] == "request_entity_too_large"


def test_echoed_input_is_cut_short(client: FlaskClient, seats: Seats) -> None:
    response = client.post(
        seats.api + "/dice", json=dice_body("long", "p" * 50_000), headers=seats.headers("A")
    )
    assert response.status_code == 400
    message = response.get_json()["message"]
    assert message.startswith("purpose must be 1..80 characters") and len(message) < 120
    huge = act(client, seats, "A", {"type": "undo"}, revision=10**4000)
    assert huge.status_code == 400 and len(huge.get_json()["message"]) < 160


# ---------------------------------------------------------------------------- F5 variant types


@pytest.mark.parametrize(
    ("variant", "word"),
    [
        ({"ships_in_play": 7.0}, "ships_in_play"),
        ({"ships_in_play": True}, "ships_in_play"),
        ({"jump_mandatory": "no"}, "jump_mandatory"),
        ({"stack_on_enemy": []}, "stack_on_enemy"),
        ({"immediate_repush": 1}, "immediate_repush"),
        ({"scored_ships_mobile": None}, "scored_ships_mobile"),
        ({"colour": "red"}, "unknown variant flags"),
        (None, "variant must be a JSON object"),
    ],
)
def test_setup_refuses_wrongly_typed_variant_flags(
    client: FlaskClient, seats: Seats, variant: Any, word: str
) -> None:
    action = {"type": "setup", "mode": "random", "variant": variant}
    response = act(client, seats, "A", action)
    assert response.status_code == 400 and word in response.get_json()["message"]
    view = client.get(seats.api + "/state", headers=seats.headers("A")).get_json()
    assert view["state"] is None and view["revision"] == 1  # nothing was stored


def test_setup_stores_exactly_typed_variant_flags(client: FlaskClient, seats: Seats) -> None:
    variant = {"ships_in_play": 7, "jump_mandatory": True}
    response = act(client, seats, "A", {"type": "setup", "mode": "random", "variant": variant})
    assert response.status_code == 200
    stored = response.get_json()["view"]["state"]["variant"]
    assert stored["ships_in_play"] == 7 and stored["jump_mandatory"] is True
    assert stored["stack_on_enemy"] is True  # unnamed flags keep their defaults


# ----------------------------------------------------------------------- F6 storage failures


def test_a_locked_database_is_a_prompt_json_503(tmp_path: Path) -> None:
    app = make_app(tmp_path, BUSY_SECONDS=0.3)
    client = app.test_client()
    seats = seat_both(flask_post(client))
    blocker = sqlite3.connect(tmp_path / "companion.sqlite", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        start = time.monotonic()
        response = client.post(
            seats.api + "/dice", json=dice_body("d1"), headers=seats.headers("A")
        )
        elapsed = time.monotonic() - start
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert response.status_code == 503 and elapsed < 2.0
    assert response.get_json()["error"] == "storage_unavailable"
    assert response.headers["Retry-After"] == "5"
    again = client.post(seats.api + "/dice", json=dice_body("d1"), headers=seats.headers("A"))
    assert again.status_code == 200 and again.get_json()["duplicate"] is False
    assert again.get_json()["revision"] == 2  # join, then this roll: the failed one left nothing


class FailingCommit:
    """A connection stand-in whose COMMIT fails as on a full disk."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    @property
    def in_transaction(self) -> bool:
        return self.db.in_transaction

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT":
            raise sqlite3.OperationalError("database or disk is full")
        return self.db.execute(sql, *args)

    def executemany(self, sql: str, rows: Any) -> Any:
        return self.db.executemany(sql, rows)


def test_a_failed_commit_is_rolled_back_and_answered_503(client: FlaskClient, seats: Seats) -> None:
    store: EventStore = client.application.extensions["tablesmith.tables"].store
    real = store._writer
    store._writer = FailingCommit(real)  # type: ignore[assignment]
    try:
        full = client.post(seats.api + "/dice", json=dice_body("f1"), headers=seats.headers("A"))
    finally:
        store._writer = real
    assert full.status_code == 503 and full.get_json()["error"] == "storage_unavailable"
    assert "disk is full" in full.get_json()["message"]
    assert not real.in_transaction
    assert [e.seq for e in store.events(seats.table_id)] == [1]
    ok = client.post(seats.api + "/dice", json=dice_body("f1"), headers=seats.headers("A"))
    assert ok.status_code == 200 and ok.get_json()["revision"] == 2


def test_storage_errors_on_pages_are_html_503(client: FlaskClient, seats: Seats) -> None:
    store: EventStore = client.application.extensions["tablesmith.tables"].store

    def broken(*_: Any) -> Any:
        raise StorageUnavailable("disk I/O error")

    store.table_by_token = broken  # type: ignore[method-assign]
    response = client.get("/w/some-watch-token")
    assert response.status_code == 503 and response.mimetype == "text/html"


@pytest.mark.parametrize(
    ("method", "path", "status", "reason"),
    [
        ("GET", "/api/nothing-here", 404, "not_found"),
        ("DELETE", "/api/tables", 405, "method_not_allowed"),
        ("GET", "/api/t/unknown-table/state", 404, "unknown"),
    ],
)
def test_every_api_error_is_json(
    client: FlaskClient, method: str, path: str, status: int, reason: str
) -> None:
    response = client.open(path, method=method)
    assert response.status_code == status and response.mimetype == "application/json"
    assert response.get_json()["error"] == reason


def test_api_crash_is_json_500_and_page_crash_is_html(client: FlaskClient, seats: Seats) -> None:
    service = client.application.extensions["tablesmith.tables"]

    def crash(*_: Any) -> Any:
        raise RuntimeError("boom")

    service.dice_history = crash
    response = client.get(seats.api + "/dice", headers=seats.headers("A"))
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal", "message": "internal server error"}
    page = client.get("/t/unknown-table")
    assert page.status_code == 404 and page.mimetype == "text/html"


@pytest.mark.parametrize(
    "path",
    ["/no-such-page", "/t/unknown-table", "/j/no-such-join", "/w/no-such-watch", "/card/chess/d/q"],
)
@pytest.mark.parametrize(
    ("language", "title"), [("en", "Page not found"), ("de", "Seite nicht gefunden")]
)
def test_a_page_that_does_not_exist_is_the_apps_own_page_in_its_language(
    client: FlaskClient, path: str, language: str, title: str
) -> None:
    """Not Werkzeug's bare 404: the styled page, translated, with a way back to the start."""
    page = client.get(path, headers={"Accept-Language": language})
    html = page.get_data(as_text=True)
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert f"<h1>{title}</h1>" in html
    assert f'<html lang="{language}">' in html and "app.css" in html
    assert '<a href="/">' + ("Startseite" if language == "de" else "Start page") + "</a>" in html
    assert "Not Found" not in html and "requested URL" not in html


def test_a_page_method_not_allowed_keeps_its_allow_header(client: FlaskClient) -> None:
    page = client.delete("/", headers={"Accept-Language": "de"})
    assert page.status_code == 405 and "GET" in page.headers["Allow"]
    assert "<h1>Das hat nicht geklappt</h1>" in page.get_data(as_text=True)
    assert "(Fehler 405)" in page.get_data(as_text=True)


def test_cross_site_api_write_is_json_403_and_origin_null_counts(
    client: FlaskClient, seats: Seats
) -> None:
    for origin in ("http://evil.example", "null"):
        response = client.post(
            seats.api + "/dice",
            json=dice_body("x" + str(len(origin))),
            headers={**seats.headers("A"), "Origin": origin},
        )
        assert response.status_code == 403
        assert response.get_json()["error"] == "cross_site"
    form = client.post("/tables", data={"game": "asteroids"}, headers={"Origin": "null"})
    assert form.status_code == 403 and form.mimetype == "text/html"


# ------------------------------------------------------------------------- F9 idempotency keys


def test_client_action_id_with_a_trailing_newline_is_400(client: FlaskClient, seats: Seats) -> None:
    response = client.post(seats.api + "/dice", json=dice_body("abc\n"), headers=seats.headers("A"))
    assert response.status_code == 400 and "client_action_id" in response.get_json()["message"]


def test_reused_client_action_id_with_another_body_is_409(
    client: FlaskClient, seats: Seats, set_up: dict[str, Any]
) -> None:
    mover = str(set_up["state"]["player"])
    move = next(a for a in set_up["legal"] if a["type"] == "move")
    first = act(client, seats, mover, move, client_id="tap-1")
    assert first.status_code == 200
    retry = act(client, seats, mover, move, client_id="tap-1", revision=set_up["revision"])
    assert retry.status_code == 200 and retry.get_json()["duplicate"] is True
    other = act(client, seats, mover, {"type": "undo"}, client_id="tap-1")
    assert other.status_code == 409 and other.get_json()["error"] == "client_action_id_reused"
    assert other.get_json()["view"]["revision"] == first.get_json()["revision"]
    dice = client.post(seats.api + "/dice", json=dice_body("tap-1"), headers=seats.headers("B"))
    assert dice.status_code == 409 and dice.get_json()["error"] == "client_action_id_reused"


def test_dice_retry_matches_after_a_restart(tmp_path: Path) -> None:
    client = make_app(tmp_path).test_client()
    seats = seat_both(flask_post(client))
    first = client.post(
        seats.api + "/dice", json=dice_body("r1", " why "), headers=seats.headers("A")
    )
    assert first.status_code == 200
    client = make_app(tmp_path).test_client()  # the log is folded again from the database
    same = client.post(
        seats.api + "/dice", json=dice_body("r1", " why "), headers=seats.headers("A")
    )
    assert same.status_code == 200 and same.get_json()["duplicate"] is True
    changed = client.post(
        seats.api + "/dice", json=dice_body("r1", "other"), headers=seats.headers("A")
    )
    assert changed.status_code == 409


# ------------------------------------------------------------------------- hardening: lookups


def test_join_and_watch_lookups_are_rate_limited_404s_included(tmp_path: Path) -> None:
    client = make_app(tmp_path, LOOKUP_RATE_LIMIT=(3, 60.0)).test_client()
    codes = [client.get(f"/w/guess-{n}").status_code for n in range(3)]
    assert codes == [404, 404, 404]
    assert client.get("/j/guess-4").status_code == 429
    api = client.post("/api/join/guess-5")
    assert api.status_code == 429 and api.get_json()["error"] == "rate_limited"


# ----------------------------------------------------------------- F1 the store's descriptors


def test_store_keeps_a_few_connections_whatever_the_threads(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "s.sqlite")
    store.create_table(table_id="t", game="asteroids", join_token="j", watch_token="w")
    found: list[str | None] = []

    def read() -> None:
        for _ in range(20):
            found.append(store.table_by_token("join", "j"))

    workers = [threading.Thread(target=read) for _ in range(64)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert found == ["t"] * 64 * 20
    assert 1 < store.connections <= 5  # one writer + at most READERS readers
    store.close()
    assert store.connections == 0
