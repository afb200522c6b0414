"""Fixtures for the companion tests: app, client, a seated table, a live waitress server, and
the session's own PostgreSQL and Redis servers (for several ``tablesmith serve`` processes)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import tempfile
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
from tests.companion.servers import START_SECONDS, free_port, postgres_bin, wait_until


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


def seat_both(post: Any, game: str = "asteroids", **table: Any) -> Seats:
    """Create a ``game`` table (``table``: more fields of ``POST /api/tables``, e.g. ``clock``)
    and join it through ``post(path, json=..., headers=...)``."""
    created = post("/api/tables", json={"game": game, **table}).json()
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
    """Adapt the Flask test client (or a :class:`LiveClient`) to the ``requests``-style
    ``post`` of :func:`seat_both`."""

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
        # the connections still open (a stream, a keep-alive) are closed here, not left to the
        # garbage collector (a ResourceWarning, an error in whatever test runs next)
        for channel in list(server._map.values()):  # type: ignore[union-attr]
            with contextlib.suppress(Exception):
                channel.close()

    return f"http://127.0.0.1:{server.effective_port}", stop  # type: ignore[union-attr]


@pytest.fixture
def browser() -> Iterator[Any]:
    """A headless chromium (:func:`tests.companion.phones.launch`)."""
    from tests.companion.phones import launch

    yield from launch()


# ------------------------------------------- PostgreSQL and Redis of the session's own


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL server of its own (trust auth on 127.0.0.1) for the session: its URL."""
    pytest.importorskip("psycopg", reason="psycopg is missing: pip install 'tablesmith[store]'")
    binaries = postgres_bin()
    if binaries is None:
        pytest.skip(
            "PostgreSQL server programs (initdb, postgres) not found: Debian package postgresql"
        )
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="tablesmith-pg-", dir="/tmp"))
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root: run it as the postgres user
        import pwd

        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(folder)
            pytest.skip("running as root and there is no postgres user to run PostgreSQL as")
        runuser = shutil.which("runuser")
        if runuser is None:
            shutil.rmtree(folder)
            pytest.skip("running as root and runuser (util-linux) is missing")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = [runuser, "-u", "postgres", "--"]
    data = folder / "data"
    port = free_port()
    subprocess.run(
        [*as_user, str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"]
        + ["-E", "UTF8", "--no-sync"],
        check=True,
        capture_output=True,
    )
    log = open(folder / "server.log", "wb")  # noqa: SIM115 - closed at teardown
    server = subprocess.Popen(
        [*as_user, str(binaries / "postgres"), "-D", str(data), "-p", str(port), "-k", str(folder)]
        + ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def ready() -> bool:
        import psycopg

        if server.poll() is not None:
            raise AssertionError(
                f"PostgreSQL ended: {(folder / 'server.log').read_text(encoding='utf-8')}"
            )
        try:
            psycopg.connect(url, connect_timeout=2).close()
        except psycopg.Error:
            return False
        return True

    try:
        wait_until(ready, START_SECONDS, "PostgreSQL did not start")
        yield url
    finally:
        pid_file = data / "postmaster.pid"  # runuser may not pass signals on: stop the server
        if pid_file.exists():
            with contextlib.suppress(OSError, ValueError):
                os.kill(
                    int(pid_file.read_text(encoding="utf-8").split()[0]), signal.SIGINT
                )  # fast shutdown
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A redis-server of its own (no persistence) for the session: its URL."""
    pytest.importorskip(
        "redis", reason="the redis package is missing: pip install 'tablesmith[store]'"
    )
    program = shutil.which("redis-server")
    if program is None:
        pytest.skip("redis-server not found: Debian package redis-server")
    import redis

    port = free_port()
    server = subprocess.Popen(
        [program, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"

    def ready() -> bool:
        try:
            return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
        except redis.RedisError:
            return False

    try:
        wait_until(ready, START_SECONDS, "redis-server did not start")
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
