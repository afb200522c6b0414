"""Fixtures for the companion tests: app, client, a seated table, a live waitress server."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
import waitress
from flask import Flask
from flask import request as flask_request
from flask.testing import FlaskClient

from companion import create_app
from companion.evented import serve_in_thread


def make_app(tmp_path: Path, **config: Any) -> Flask:
    """A companion app on a fresh database under ``tmp_path`` with seeded dice."""
    settings = {
        "DATABASE": str(tmp_path / "companion.sqlite"),
        "DICE_RNG": random.Random(4),
        "I18N_CACHE": str(tmp_path / "i18n"),
        "HEARTBEAT_SECONDS": 0.5,
        **config,
    }
    return create_app(settings)


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return make_app(tmp_path)


class LiveResponse:
    """A ``requests`` answer with the parts of Flask's test response the API tests read."""

    def __init__(self, response: requests.Response) -> None:
        self.status_code = response.status_code
        self.headers = response.headers
        self.data = response.content

    def get_json(self) -> Any:
        if not self.headers.get("Content-Type", "").startswith("application/json"):
            return None
        return json.loads(self.data)


class LiveClient:
    """Flask's test client's ``get``/``post`` against the app served by uvicorn
    (:func:`companion.evented.serve_in_thread`): what a phone's requests go through.

    ``actions`` counts the action POSTs sent, ``via_flask`` the paths the Flask app itself
    dispatched (the rest of the action POSTs took the event loop's direct route; requests of
    Flask's test client on the same app are counted there too). It counts in the app's
    dispatch, not in a ``before_request`` hook: a hook the direct route does not know would
    send every action through Flask (:func:`companion.asgi.unknown_hooks`).
    """

    def __init__(self, app: Flask) -> None:
        self.via_flask: list[str] = []
        dispatch = app.full_dispatch_request

        def counted() -> Any:
            self.via_flask.append(flask_request.path)
            return dispatch()

        app.full_dispatch_request = counted  # type: ignore[method-assign]
        self.base, self.stop = serve_in_thread(app)
        self.session = requests.Session()
        self.actions = 0

    def get(self, path: str, **kw: Any) -> LiveResponse:
        return LiveResponse(self.session.get(self.base + path, timeout=10, **kw))

    def post(self, path: str, **kw: Any) -> LiveResponse:
        if path.split("?")[0].endswith("/actions"):
            self.actions += 1
        return LiveResponse(self.session.post(self.base + path, timeout=10, **kw))

    @property
    def direct_actions(self) -> int:
        """Action POSTs answered without the Flask app."""
        return self.actions - sum(p.endswith("/actions") for p in self.via_flask)


@pytest.fixture
def client(app: Flask, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Flask's test client; parametrised indirectly with ``"uvicorn"``, a :class:`LiveClient`
    (the API through the default server, the direct action route included)."""
    if getattr(request, "param", "flask") != "uvicorn":
        yield app.test_client()
        return
    live = LiveClient(app)
    yield live
    live.stop()
    assert live.actions == 0 or live.direct_actions > 0, "no action took the direct route"


@dataclass
class Seats:
    """A table with both seats taken: ids, tokens, links and the seats' keys."""

    table_id: str
    a: str
    b: str
    watch_url: str
    join_url: str
    key_a: str = ""
    key_b: str = ""

    def headers(self, seat: str) -> dict[str, str]:
        return {"X-Seat-Token": self.a if seat == "A" else self.b}

    @property
    def api(self) -> str:
        return f"/api/t/{self.table_id}"


def seat_both(post: Any) -> Seats:
    """Create a table and join it through ``post(path, json=..., headers=...)``."""
    created = post("/api/tables", json={"game": "asteroids"}).json()
    join_path = "/api/join/" + created["join_url"].rsplit("/", 1)[1]
    joined = post(join_path, json={}).json()
    return Seats(
        table_id=created["table_id"],
        a=created["token"],
        b=joined["token"],
        watch_url=created["watch_url"],
        join_url=created["join_url"],
        key_a=created["seat_key"],
        key_b=joined["seat_key"],
    )


def flask_post(client: FlaskClient) -> Any:
    """Adapt the Flask test client to the ``requests``-style ``post`` of :func:`seat_both`."""

    class Result:
        def __init__(self, response: Any) -> None:
            self.response = response

        def json(self) -> Any:
            return self.response.get_json()

    return lambda path, **kw: Result(client.post(path, **kw))


@pytest.fixture
def seats(client: FlaskClient) -> Seats:
    return seat_both(flask_post(client))


def act(
    client: FlaskClient,
    seats: Seats,
    seat: str,
    action: dict[str, Any],
    *,
    revision: int | None = None,
    client_id: str | None = None,
) -> Any:
    """POST an action as ``seat`` based on the current (or a given) revision."""
    if revision is None:
        revision = client.get(seats.api + "/state", headers=seats.headers(seat)).get_json()[
            "revision"
        ]
    body = {
        "expected_revision": revision,
        "client_action_id": client_id or f"cid-{random.getrandbits(48):x}",
        "action": action,
    }
    return client.post(seats.api + "/actions", json=body, headers=seats.headers(seat))


@pytest.fixture
def set_up(client: FlaskClient, seats: Seats) -> dict[str, Any]:
    """Set the table up with a random layout; returns the view after setup."""
    response = act(client, seats, "A", {"type": "setup", "mode": "random"})
    assert response.status_code == 200, response.get_json()
    view: dict[str, Any] = response.get_json()["view"]
    return view


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Serve ``live_server`` by the default server (uvicorn) only, and also by waitress (the
    ``--server waitress`` fallback) for tests marked ``both_servers``: the stream tests and the
    Asteroids browser test. Running every phone test twice doubled the suite's browser time."""
    if "live_server" in metafunc.fixturenames:
        both = metafunc.definition.get_closest_marker("both_servers") is not None
        servers = ["uvicorn", "waitress"] if both else ["uvicorn"]
        metafunc.parametrize("live_server", servers, indirect=True)


@pytest.fixture
def live_server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[str, Flask]]:
    """The app served on a free loopback port in a background thread: by the default evented
    server (uvicorn, live streams on the event loop) or by waitress (a thread per stream);
    which one is chosen by :func:`pytest_generate_tests`."""
    app = make_app(tmp_path)
    if request.param == "uvicorn":
        base, stop = serve_in_thread(app)
        yield base, app
        stop()
        return
    base, stop = serve_with_waitress(app, threads=16)
    yield base, app
    stop()


def serve_with_waitress(app: Flask, *, threads: int) -> tuple[str, Callable[[], None]]:
    """Serve ``app`` by waitress (Flask over plain WSGI) on a free loopback port in a thread:
    (base URL, stop function)."""
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=threads)

    def run() -> None:
        try:
            server.run()
        except (OSError, ValueError):  # the sockets were closed under the loop at teardown
            return

    thread = threading.Thread(target=run, daemon=True)
    thread.start()

    def stop() -> None:
        app.extensions["tablesmith.tables"].close()
        server.task_dispatcher.shutdown(timeout=5)  # type: ignore[union-attr]
        server.close()
        thread.join(timeout=5)

    return f"http://127.0.0.1:{server.effective_port}", stop  # type: ignore[union-attr]


@pytest.fixture
def browser() -> Iterator[Any]:
    """A headless chromium (:func:`tests.companion.phones.launch`)."""
    from tests.companion.phones import launch

    yield from launch()
