"""One authority per request: every route answers the same bytes whichever server runs the app.

The same requests go to two copies of one database: one served as ``tablesmith serve`` serves it
(uvicorn, the ASGI layer of :mod:`companion.asgi` with its direct action route and its live
streams on the event loop), one by waitress (Flask over plain WSGI, ``--server waitress``).
Status, headers and body must be equal byte for byte, refusals included (400, 403, 404, 405,
409, 413, 422, 429, 503). Excepted, by name:

* the headers each server writes for itself (:data:`SERVER_HEADERS`); header names are compared
  without case (uvicorn writes them in lower case);
* what is random or a clock reading in the answers (:data:`VOLATILE`): event times, presence
  times, reclaim codes and their expiry, and the ids and tokens of tables and seats made by the
  requests themselves (the tables made beforehand are the same in both copies); and the
  ``Content-Length`` of such an answer (a time's digits change it).

A second test fails when the Flask app has a hook the direct action route does not run.
"""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask, abort, request

from companion.asgi import unknown_hooks
from companion.evented import serve_in_thread
from tests.companion.conftest import (
    Seats,
    act,
    flask_post,
    make_app,
    seat_both,
    serve_with_waitress,
)

SERVER_HEADERS = {"date", "server", "connection", "keep-alive", "transfer-encoding"}
"""Written by the HTTP server, not the app (and chunked framing of a stream)."""
VOLATILE = [
    (re.compile(rb'"created_at":[-+.0-9eE]+'), b'"created_at":<time>'),
    (re.compile(rb'"since":"[-0-9T:Z]+"'), b'"since":"<time>"'),
    (re.compile(rb'"expires_at":"[-0-9T:Z]+"'), b'"expires_at":"<time>"'),
    (re.compile(rb'"code":"[A-Z0-9]{6,8}"'), b'"code":"<code>"'),
]
"""Clock readings and reclaim codes, in any answer."""
FRESH = [
    (re.compile(rb'"(table_id|token)":"[A-Za-z0-9_-]+"'), rb'"\1":"<fresh>"'),
    (re.compile(rb"/(t|j|w)/[A-Za-z0-9_-]+"), rb"/\1/<fresh>"),
    (re.compile(rb"ts_seat_[A-Za-z0-9_-]+=[A-Za-z0-9_-]+"), b"ts_seat_<fresh>=<fresh>"),
    (re.compile(rb'"seat_key":"[A-Z0-9]{10}"'), b'"seat_key":"<fresh>"'),
    (re.compile(rb"ts_key_[A-Za-z0-9_-]+=[A-Z0-9]{10}"), b"ts_key_<fresh>=<fresh>"),
]
"""Ids and tokens a request made just now (created tables, taken or reclaimed seats)."""
CONFIG = {
    "BASE_URL": "http://tablesmith.test",
    "MAX_STREAMS": 4,  # 2 for watchers (WATCH_SHARE), then 503 server_full
    "JOIN_RATE_LIMIT": (3, 600.0),
    "STREAM_SECONDS": 30.0,
}


@dataclass(frozen=True)
class Answer:
    """One answer as compared: status, headers (lower-case names, sorted), body."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes

    def header(self, name: str) -> str | None:
        """The value of a header (lower-case name), or None."""
        return next((v for k, v in self.headers if k == name), None)


def answer_of(response: requests.Response, body: bytes, *, fresh: bool) -> Answer:
    """An answer with :data:`SERVER_HEADERS` left out and :data:`VOLATILE` (and, for a request
    that made ids or tokens, :data:`FRESH`) replaced."""
    rules = VOLATILE + (FRESH if fresh else [])
    raw_headers = response.raw.headers
    pairs = []
    for name in raw_headers:
        for value in raw_headers.getlist(name):
            if name.lower() not in SERVER_HEADERS:
                pairs.append((name.lower(), value))
    original = body
    for pattern, replacement in rules:
        body = pattern.sub(replacement, body)
        pairs = [(k, pattern.sub(replacement, v.encode()).decode()) for k, v in pairs]
    if body != original:  # a clock reading's digits change the length, nothing else does
        pairs = [(k, v) for k, v in pairs if k != "content-length"]
    return Answer(response.status_code, tuple(sorted(pairs)), body)


@dataclass
class Prepared:
    """The tables both databases hold before the requests."""

    asteroids: Seats
    pocketmodel: Seats
    open_join: str
    """The join token of a table whose seat B is free."""
    action: dict[str, Any]
    """A legal action of the asteroids table, and who may take it."""
    mover: str


def prepare(folder: Path) -> tuple[Path, Prepared]:
    """A database with the tables of :class:`Prepared` (asteroids set up, one action taken)."""
    app = make_app(folder)
    client = app.test_client()
    asteroids = seat_both(flask_post(client))
    setup = {"type": "setup", "mode": "random"}
    view = act(client, asteroids, "A", setup).get_json()["view"]
    view = act(client, asteroids, view["to_act"], view["legal"][0]).get_json()["view"]
    created = client.post("/api/tables", json={"game": "pocketmodel"}).get_json()
    joined = client.post("/api/join/" + created["join_url"].rsplit("/", 1)[1], json={})
    pocketmodel = Seats(
        table_id=created["table_id"],
        a=created["token"],
        b=joined.get_json()["token"],
        watch_url=created["watch_url"],
        join_url=created["join_url"],
    )
    variant = {"destroy_above_shields": False, "icon_gates_bonus": True}
    assert act(client, pocketmodel, "A", {"type": "setup", "variant": variant}).status_code == 200
    open_table = client.post("/api/tables", json={"game": "asteroids"}).get_json()
    app.extensions["tablesmith.tables"].store.close()
    prepared = Prepared(
        asteroids=asteroids,
        pocketmodel=pocketmodel,
        open_join=open_table["join_url"].rsplit("/", 1)[1],
        action=view["legal"][0],
        mover=view["to_act"],
    )
    return Path(app.config["DATABASE"]), prepared


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[tuple[dict[str, str], Prepared]]:
    """The same database served by uvicorn (as ``tablesmith serve``) and by waitress."""
    seed, prepared = prepare(tmp_path / "seed")
    apps: dict[str, Flask] = {}
    for name in ("uvicorn", "waitress"):
        folder = tmp_path / name
        folder.mkdir()
        shutil.copy(seed, folder / "companion.sqlite")
        apps[name] = make_app(folder, DICE_RNG=random.Random(9), **CONFIG)
    base, stop = serve_in_thread(apps["uvicorn"])
    wsgi_base, wsgi_stop = serve_with_waitress(apps["waitress"], threads=12)
    yield {"uvicorn": base, "waitress": wsgi_base}, prepared
    stop()
    wsgi_stop()


Request = tuple[str, str, dict[str, Any]]
"""(method, path, keyword arguments of :func:`requests.request`)."""


def requests_of(p: Prepared) -> list[tuple[str, Request, bool]]:
    """Every route's requests, in order: (what it checks, the request, whether it makes fresh
    ids or tokens)."""
    a = p.asteroids
    pm = p.pocketmodel
    token = {"A": a.a, "B": a.b}
    mover, other = token[p.mover], token["B" if p.mover == "A" else "A"]
    watch = a.watch_url.rsplit("/", 1)[1]
    json_headers = {"Content-Type": "application/json"}

    def post_action(body: Any, seat_token: str | None, **headers: str) -> Request:
        sent = {**json_headers, **headers}
        if seat_token is not None:
            sent["X-Seat-Token"] = seat_token
        return ("POST", a.api + "/actions", {"json": body, "headers": sent})

    move = {"expected_revision": 5, "client_action_id": "m1", "action": p.action}
    return [
        ("home page", ("GET", "/", {}), False),
        ("static file", ("GET", "/static/app.css", {}), False),
        ("unknown page 404", ("GET", "/nowhere", {}), False),
        ("api 404", ("GET", "/api/nowhere", {}), False),
        ("api 405", ("DELETE", "/api/tables", {}), False),
        ("state", ("GET", a.api + "/state", {"headers": {"X-Seat-Token": a.a}}), False),
        ("state, token in the query", ("GET", a.api + f"/state?token={watch}", {}), False),
        ("state 403", ("GET", a.api + "/state", {}), False),
        (
            "state 404",
            ("GET", "/api/t/nosuchtable/state", {"headers": {"X-Seat-Token": a.a}}),
            False,
        ),
        ("action 200", post_action(move, mover), False),
        ("action retried 200", post_action(move, mover), False),
        ("id reused 409", post_action({**move, "action": {"type": "undo"}}, mover), False),
        ("stale 409", post_action({**move, "client_action_id": "m2"}, mover), False),
        ("malformed 400", post_action({**move, "client_action_id": "a b"}, mover), False),
        ("not an action 400", post_action({**move, "action": {"type": "fly"}}, mover), False),
        ("watcher 403", post_action(move, watch), False),
        ("no token 403", post_action(move, None), False),
        ("cross-site 403", post_action(move, mover, Origin="http://evil.test"), False),
        (
            "undo by the other seat 422",
            post_action(
                {"expected_revision": 6, "client_action_id": "u1", "action": {"type": "undo"}},
                other,
            ),
            False,
        ),
        (
            "not JSON 400",
            (
                "POST",
                a.api + "/actions",
                {"data": b"{}", "headers": {"Content-Type": "text/plain", "X-Seat-Token": mover}},
            ),
            False,
        ),
        ("too large 413", post_action({**move, "pad": "x" * 70_000}, mover), False),
        (
            "dice 200",
            (
                "POST",
                a.api + "/dice",
                {
                    "json": {"client_action_id": "d1", "count": 2, "sides": 6, "purpose": "test"},
                    "headers": {"X-Seat-Token": a.b},
                },
            ),
            False,
        ),
        (
            "dice 400",
            (
                "POST",
                a.api + "/dice",
                {"json": {"client_action_id": "d2", "count": 0}, "headers": {"X-Seat-Token": a.b}},
            ),
            False,
        ),
        ("dice history", ("GET", a.api + "/dice", {"headers": {"X-Seat-Token": a.a}}), False),
        ("log", ("GET", a.api + "/log", {"headers": {"X-Seat-Token": a.a}}), False),
        (
            "deck 200",
            (
                "POST",
                pm.api + "/deck",
                {
                    "json": {
                        "client_action_id": "k1",
                        "expected_revision": 1,
                        "demo": "pocketmodel",
                    },
                    "headers": {"X-Seat-Token": pm.a},
                },
            ),
            False,
        ),
        (
            "deck of another game 422",
            (
                "POST",
                a.api + "/deck",
                {
                    "json": {
                        "client_action_id": "k2",
                        "expected_revision": 7,
                        "demo": "pocketmodel",
                    },
                    "headers": {"X-Seat-Token": a.a},
                },
            ),
            False,
        ),
        (
            "reclaim code",
            ("POST", a.api + "/reclaim-code", {"json": {}, "headers": {"X-Seat-Token": a.a}}),
            False,
        ),
        ("reclaim 403", ("POST", a.api + "/reclaim", {"json": {"code": "AAAAAA"}}), False),
        ("reclaim 400", ("POST", a.api + "/reclaim", {"json": {"code": "0"}}), False),
        ("table page 403", ("GET", f"/t/{a.table_id}", {}), False),
        (
            "table page",
            ("GET", f"/t/{a.table_id}", {"headers": {"Cookie": f"ts_seat_{a.table_id}={a.a}"}}),
            False,
        ),
        ("watch page", ("GET", f"/w/{watch}", {}), False),
        ("join page", ("GET", f"/j/{p.open_join}", {}), False),
        ("language", ("GET", "/lang/de?next=/", {"allow_redirects": False}), False),
        ("card page 404", ("GET", "/card/asteroids/nodeck/nocard", {}), False),
        ("join 201", ("POST", f"/api/join/{p.open_join}", {"json": {}}), True),
        ("join 409", ("POST", f"/api/join/{p.open_join}", {"json": {}}), False),
        ("join 404", ("POST", "/api/join/nosuchtoken", {"json": {}}), False),
        ("create 201", ("POST", "/api/tables", {"json": {"game": "asteroids"}}), True),
        ("create 429", ("POST", "/api/tables", {"json": {"game": "asteroids"}}), False),
        ("create 400", ("POST", "/api/tables", {"json": {"game": "chess"}}), False),
    ]


def difference(ours: Answer, theirs: Answer) -> str:
    """Where two answers part (for the failure message)."""
    if (ours.status, ours.headers) != (theirs.status, theirs.headers):
        return f"{ours.status} {ours.headers} != {theirs.status} {theirs.headers}"
    at = next(
        (i for i, (x, y) in enumerate(zip(ours.body, theirs.body)) if x != y),
        min(len(ours.body), len(theirs.body)),
    )
    return f"bodies part at byte {at}: {ours.body[at - 80 : at + 80]!r} != {theirs.body[at - 80 : at + 80]!r}"


def send(base: str, request: Request) -> requests.Response:
    method, path, options = request
    return requests.request(method, base + path, timeout=10, **options)


def open_stream(
    base: str, path: str, frames: int, headers: dict[str, str]
) -> tuple[requests.Response, Iterator[bytes], bytes]:
    """GET a live stream; its body up to ``frames`` frames (blank-line ends), or all of a
    refusal's body. The stream stays open while the caller holds the chunk iterator (dropping
    it closes the connection)."""
    response = requests.get(base + path, stream=True, timeout=10, headers=headers)
    if response.status_code != 200:
        return response, iter(()), response.content
    body = b""
    chunks = response.iter_content(chunk_size=None)
    for chunk in chunks:
        body += chunk
        if body.count(b"\n\n") >= frames:
            break
    return response, chunks, body


def test_every_route_answers_the_same_bytes_under_uvicorn_and_waitress(
    servers: tuple[dict[str, str], Prepared],
) -> None:
    bases, prepared = servers
    answers: dict[str, list[tuple[str, Answer]]] = {name: [] for name in bases}
    for what, sent, fresh in requests_of(prepared):
        for name, base in bases.items():
            response = send(base, sent)
            answers[name].append((what, answer_of(response, response.content, fresh=fresh)))
    # the live streams last: a stream a server has not noticed closing changes the presence
    a = prepared.asteroids
    watch = a.watch_url.rsplit("/", 1)[1]
    streams = [  # (what, path, since: the frames to read are retry + the events after it)
        ("stream 400", f"{a.api}/events?since=x&token={a.a}", None),
        ("stream 403", f"{a.api}/events?since=0&token=nobody", None),
        ("stream 404", f"/api/t/nosuchtable/events?since=0&token={a.a}", None),
        ("stream from 0", f"{a.api}/events?since=0&token={a.a}", 0),
        ("stream of a watcher", f"{a.api}/events?since=0&token={watch}", 0),
        ("stream, second watcher", f"{a.api}/events?since=3&token={watch}", 3),
        ("watchers full 429", f"{a.api}/events?since=0&token={watch}", None),
        ("stream of seat B", f"{a.api}/events", 0),
        ("server full 503", f"{a.api}/events?since=0&token={a.b}", None),
    ]
    held: list[tuple[requests.Response, Iterator[bytes]]] = []
    revision = 0
    try:
        for name, base in bases.items():
            state = requests.get(f"{base}{a.api}/state", headers={"X-Seat-Token": a.a}, timeout=10)
            revision = int(state.json()["revision"])
            for what, path, since in streams:
                frames = 1 if since is None else 1 + revision - since
                headers = {"X-Seat-Token": a.b} if "token=" not in path else {}
                response, chunks, body = open_stream(base, path, frames, headers)
                held.append((response, chunks))
                answers[name].append((what, answer_of(response, body, fresh=False)))
    finally:
        for response, _ in held:
            response.close()
    uvicorn, waitress_answers = answers["uvicorn"], answers["waitress"]
    offered = 0
    for (what, ours), (_, theirs) in zip(uvicorn, waitress_answers, strict=True):
        if b'data-socket="1"' in ours.body:  # the one difference: uvicorn serves the socket
            assert b'data-socket="0"' in theirs.body, what
            ours = replace(ours, body=ours.body.replace(b'data-socket="1"', b'data-socket="0"'))
            offered += 1
        assert ours == theirs, f"{what}: {difference(ours, theirs)}"
    assert offered == 2  # the table page and the watch page
    statuses = {what: answer.status for what, answer in uvicorn}
    assert statuses["action 200"] == statuses["action retried 200"] == 200
    assert {statuses[k] for k in ("id reused 409", "stale 409", "join 409")} == {409}
    assert statuses["undo by the other seat 422"] == statuses["deck of another game 422"] == 422
    assert statuses["too large 413"] == 413 and statuses["api 405"] == 405
    assert statuses["create 429"] == statuses["watchers full 429"] == 429
    assert statuses["server full 503"] == 503
    assert {statuses[k] for k in ("stream 400", "malformed 400", "not JSON 400")} == {400}
    assert {statuses[k] for k in ("stream 403", "watcher 403", "cross-site 403")} == {403}
    assert statuses["stream 404"] == statuses["state 404"] == 404
    found = dict(uvicorn)
    assert found["watchers full 429"].header("retry-after") == "5"
    assert found["server full 503"].header("retry-after") == "5"
    stream = found["stream from 0"]
    assert stream.status == 200 and stream.header("content-type") == (
        "text/event-stream; charset=utf-8"
    )
    assert stream.body.startswith(b"retry: 1500\n\nid: 1\ndata: {")
    assert stream.body.count(b"\nid: ") == revision  # every event once, then up to date
    assert f"\nid: {revision}\ndata: ".encode() in stream.body


# ------------------------------------------------------------------------------- Flask hooks


def hooked(app: Flask, kind: str, record: list[str]) -> None:
    """Add one hook of ``kind`` to ``app`` that records that it ran."""
    if kind == "before_request":
        app.before_request(lambda: record.append(kind))
    elif kind == "after_request":

        def after(response: Any) -> Any:
            record.append(kind)
            response.headers["X-Hooked"] = "yes"
            return response

        app.after_request(after)
    elif kind == "teardown_request":
        app.teardown_request(lambda error: record.append(kind))
    elif kind == "url_value_preprocessor":
        app.url_value_preprocessor(lambda endpoint, values: record.append(kind))
    elif kind == "blueprint before_request":
        app.before_request_funcs.setdefault("api", []).append(lambda: record.append(kind))
    elif kind == "teardown_appcontext":
        app.teardown_appcontext(lambda error: record.append(kind))
    elif kind == "wsgi middleware":
        inner = app.wsgi_app

        def middleware(environ: Any, start_response: Callable[..., Any]) -> Any:
            record.append(kind)
            return inner(environ, start_response)

        app.wsgi_app = middleware  # type: ignore[method-assign]


def test_the_direct_action_route_knows_every_hook_the_app_has(tmp_path: Path) -> None:
    """create_app registers only hooks the direct route does itself; a new one must be taught
    to it (companion.asgi.HONOURED_HOOKS) or it turns the route off."""
    assert unknown_hooks(make_app(tmp_path)) == []


@pytest.mark.parametrize(
    "kind",
    [
        "before_request",
        "after_request",
        "teardown_request",
        "url_value_preprocessor",
        "blueprint before_request",
        "teardown_appcontext",
        "wsgi middleware",
    ],
)
def test_a_hook_the_direct_route_does_not_know_runs_for_every_action(
    tmp_path: Path, kind: str
) -> None:
    app = make_app(tmp_path)
    record: list[str] = []
    hooked(app, kind, record)  # before the app's first request, as Flask wants
    assert unknown_hooks(app) != []
    seats = seat_both(flask_post(app.test_client()))
    base, stop = serve_in_thread(app)
    try:
        for number in range(2):  # the first and a later one (the table is loaded then)
            state = requests.get(base + seats.api + "/state", headers=seats.headers("A"))
            body = {
                "expected_revision": state.json()["revision"],
                "client_action_id": f"s{number}",
                "action": {"type": "setup", "mode": "random"},
            }
            record.clear()
            answer = requests.post(
                base + seats.api + "/actions", json=body, headers=seats.headers("A"), timeout=10
            )
            assert answer.status_code in (200, 422), answer.text
            assert kind in record
            if kind == "after_request":
                assert answer.headers["X-Hooked"] == "yes"
    finally:
        stop()


def test_a_hook_that_refuses_is_obeyed_by_the_direct_route(tmp_path: Path) -> None:
    """A before_request hook that answers (here: 418 for every action) is the answer, and
    nothing is applied."""
    app = make_app(tmp_path)

    @app.before_request
    def refuse() -> None:
        if request.path.endswith("/actions"):
            abort(418)

    seats = seat_both(flask_post(app.test_client()))

    base, stop = serve_in_thread(app)
    try:
        body = {"expected_revision": 1, "client_action_id": "s", "action": {"type": "setup"}}
        answer = requests.post(
            base + seats.api + "/actions", json=body, headers=seats.headers("A"), timeout=10
        )
        assert answer.status_code == 418
    finally:
        stop()
    assert app.extensions["tablesmith.tables"].table(seats.table_id).revision == 1
