"""The default server (uvicorn + :mod:`companion.asgi`): streams without threads, slow clients."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from flask import Flask

from companion import evented
from companion.evented import serve_in_thread, tune_socket
from tests.companion.conftest import Seats, make_app, seat_both

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Flask]]:
    """The evented server with a 1 s header deadline and a 1 s body deadline."""
    monkeypatch.setattr(evented.GuardedProtocol, "header_seconds", 1.0)
    app = make_app(tmp_path, JOIN_RATE_LIMIT=(10_000, 60.0), LOOKUP_RATE_LIMIT=(10_000, 60.0))
    base, stop = serve_in_thread(app, body_seconds=1.0)
    yield base, app
    stop()


def seat(base: str) -> Seats:
    return seat_both(lambda path, **kw: requests.post(base + path, timeout=10, **kw))


def raw(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=5)


def closed_by_server(sock: socket.socket, within: float) -> bool:
    sock.settimeout(within)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


def test_300_streams_hold_no_thread_and_actions_stay_fast(served: tuple[str, Flask]) -> None:
    base, app = served
    service = app.extensions["tablesmith.tables"]
    tables = [seat(base) for _ in range(150)]
    sockets: list[socket.socket] = []
    try:
        for seats in tables:
            for token in (seats.a, seats.b):
                sock = raw(base)
                sock.sendall(
                    f"GET {seats.api}/events?since=1&token={token} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
                )
                sockets.append(sock)
        deadline = time.monotonic() + 10
        while service.streams_open < 300 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert service.streams_open == 300  # with 8 worker threads: streams are not threads
        seats = tables[-1]
        start = time.monotonic()
        body = {
            "expected_revision": 1,
            "client_action_id": "s1",
            "action": {"type": "setup", "mode": "random"},
        }
        acted = requests.post(
            f"{base}{seats.api}/actions", json=body, headers=seats.headers("A"), timeout=5
        )
        assert acted.status_code == 200 and acted.json()["revision"] == 4
        assert time.monotonic() - start < 1.0
        for sock in sockets[-2:]:  # both phones of that table get the setup (seq 4)
            sock.settimeout(5)
            received = b""
            while b"id: 4\n" not in received:
                received += sock.recv(65536)
    finally:
        for sock in sockets:
            sock.close()
    deadline = time.monotonic() + 3
    while service.streams_open and time.monotonic() < deadline:
        time.sleep(0.05)
    assert service.streams_open == 0  # closed phones free their streams at once


def test_trickled_headers_are_cut_off_and_delay_nobody(served: tuple[str, Flask]) -> None:
    base, _ = served
    seats = seat(base)
    slow = [raw(base) for _ in range(100)]
    for sock in slow:
        sock.sendall(b"GET /api/t/x/state HTTP/1.1\r\nHost: x\r\n")  # never finished
    start = time.monotonic()
    answer = requests.get(f"{base}{seats.api}/state", headers=seats.headers("A"), timeout=5)
    assert answer.status_code == 200 and time.monotonic() - start < 0.5
    assert all(closed_by_server(sock, 3.0) for sock in slow[:10])  # header deadline: 1 s
    idle = raw(base)  # connects, sends nothing
    assert closed_by_server(idle, 3.0)
    for sock in [*slow, idle]:
        sock.close()


def test_a_trickled_body_gets_408_and_holds_no_thread(served: tuple[str, Flask]) -> None:
    base, _ = served
    seats = seat(base)
    sock = raw(base)
    sock.sendall(
        (
            f"POST {seats.api}/actions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"X-Seat-Token: {seats.a}\r\nContent-Length: 200\r\n\r\n{{"
        ).encode()
    )
    sock.settimeout(5)
    answer = b""
    while b"\r\n\r\n" not in answer or not answer.endswith(b"}"):
        chunk = sock.recv(4096)
        if not chunk:
            break
        answer += chunk
    sock.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408")
    assert json.loads(body)["error"] == "request_timeout"


def test_too_large_bodies_are_refused_before_reading(served: tuple[str, Flask]) -> None:
    base, _ = served
    seats = seat(base)
    response = requests.post(
        f"{base}{seats.api}/actions",
        data=b"x" * (300 * 1024),
        headers={**seats.headers("A"), "Content-Type": "application/json"},
        timeout=10,
    )
    assert response.status_code == 413
    assert response.json()["error"] == "request_entity_too_large"


def test_stream_errors_are_the_apis_json(served: tuple[str, Flask]) -> None:
    base, _ = served
    seats = seat(base)
    bad_since = requests.get(f"{base}{seats.api}/events?since=x&token={seats.a}", timeout=5)
    assert bad_since.status_code == 400 and bad_since.json()["error"] == "malformed"
    no_token = requests.get(f"{base}{seats.api}/events", timeout=5)
    assert no_token.status_code == 403 and no_token.json()["error"] == "forbidden"
    unknown = requests.get(f"{base}/api/t/nope/events?token={seats.a}", timeout=5)
    assert unknown.status_code == 404 and unknown.json()["error"] == "unknown"
    wrong_method = requests.post(f"{base}{seats.api}/events", headers=seats.headers("A"), timeout=5)
    assert wrong_method.status_code == 405


@pytest.mark.skipif(not hasattr(socket, "TCP_USER_TIMEOUT"), reason="TCP_USER_TIMEOUT is Linux")
def test_vanished_phones_are_noticed_by_unacknowledged_heartbeats() -> None:
    with socket.socket() as sock:
        tune_socket(sock)
        timeout_ms = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT)
        assert timeout_ms == evented.UNACKED_SECONDS * 1000
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
    app_heartbeat = 5.0  # companion.DEFAULTS: a silent phone is freed within 5 + 5 s
    from companion import DEFAULTS

    assert DEFAULTS["HEARTBEAT_SECONDS"] == app_heartbeat
    assert app_heartbeat + evented.UNACKED_SECONDS <= 10


def test_caps_follow_the_descriptor_limit() -> None:
    assert evented.connection_cap(1024) == 768
    assert evented.connection_cap(1_048_576) == evented.MAX_CONNECTIONS
    assert evented.stream_cap(768) == 512  # 256 connections stay free for actions
    assert evented.stream_cap(100) == 50


def test_serving_freezes_what_exists_and_collects_garbage_less_often() -> None:
    # in a child process: the test process's own collector stays as it is
    code = (
        "import gc\n"
        "from companion.evented import GC_THRESHOLDS, tune_gc\n"
        "before = gc.get_freeze_count()\n"
        "tune_gc()\n"
        "print(gc.get_threshold() == GC_THRESHOLDS, before == 0, gc.get_freeze_count() > 10000)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.split() == ["True", "True", "True"]
