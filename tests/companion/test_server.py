"""The served companion: descriptor budget, idle connections, SIGTERM, and startup errors."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from flask import Flask

from companion import server as companion_server
from companion.server import (
    FD_SETSIZE,
    RESERVED_FDS,
    bound_port,
    connection_limit,
    create_server,
    max_streams,
)
from tests.companion.conftest import make_app, seat_both
from tests.companion.test_durability import start_server, stop

ROOT = Path(__file__).resolve().parents[2]
CLI = "import tablesmith\ntablesmith.main()"


def run_cli(*args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def idle_sockets(base: str, count: int) -> list[socket.socket]:
    host, port = base.removeprefix("http://").split(":")
    return [socket.create_connection((host, int(port)), timeout=5) for _ in range(count)]


def fd_numbers(pid: int) -> list[int]:
    return [int(name) for name in os.listdir(f"/proc/{pid}/fd")]


@pytest.mark.parametrize(("fd_limit", "expected"), [(20_000, 640), (1024, 640), (256, 128)])
def test_connection_cap_keeps_every_descriptor_under_select_limit(
    fd_limit: int, expected: int
) -> None:
    limit = connection_limit(fd_limit)
    assert limit == expected
    assert limit + RESERVED_FDS <= min(fd_limit, FD_SETSIZE)


def test_streams_leave_threads_and_connections_for_actions() -> None:
    assert max_streams(256, 640) == 224  # 1/8 of the threads stay free
    assert max_streams(1024, 640) == 320  # half the connections at most
    assert max_streams(8, 640) == 6


@pytest.fixture
def small_server(tmp_path: Path) -> Iterator[tuple[str, Flask]]:
    """A companion server capped at 40 connections, in a background thread."""
    app = make_app(tmp_path)
    server = create_server(app, host="127.0.0.1", port=0, threads=8, connections=40)

    def run() -> None:
        try:
            server.run()
        except (OSError, ValueError):
            return

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{bound_port(server)}", app
    app.extensions["tablesmith.tables"].close()
    server.task_dispatcher.shutdown(timeout=5)
    server.close()
    thread.join(timeout=5)


@pytest.mark.slow
def test_idle_connections_beyond_the_cap_do_not_lock_phones_out(
    small_server: tuple[str, Flask],
) -> None:
    base, _ = small_server
    seats = seat_both(lambda path, **kw: requests.post(base + path, timeout=10, **kw))
    sockets = idle_sockets(base, 120)  # 3x the cap: the rest waits in the kernel's queue
    try:
        start = time.monotonic()
        response = requests.get(base + seats.api + "/state", headers=seats.headers("A"), timeout=15)
        elapsed = time.monotonic() - start
    finally:
        for sock in sockets:
            sock.close()
    assert response.status_code == 200 and response.json()["revision"] == 1
    assert elapsed < companion_server.IDLE_GRACE_SECONDS + 6


@pytest.mark.slow
@pytest.mark.parametrize("server", ["uvicorn", "waitress"])
def test_served_companion_survives_1100_idle_connections(tmp_path: Path, server: str) -> None:
    """QA F1: ~500 idle connections used to crash ``tablesmith serve`` (select() > 1023).

    waitress (select/poll) must keep every descriptor under 1024; uvicorn (epoll/kqueue) has no
    such limit and raises the descriptor limit itself."""
    pytest.importorskip("resource")
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1300:
        pytest.skip("this test needs 1300 file descriptors")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1300), hard))
    process, base = start_server(tmp_path / "c.sqlite", "--threads", "256", "--server", server)
    sockets: list[socket.socket] = []
    try:
        seats = seat_both(lambda path, **kw: requests.post(base + path, timeout=10, **kw))
        sockets = idle_sockets(base, 1100)
        time.sleep(1.0)
        start = time.monotonic()
        response = requests.get(base + seats.api + "/state", headers=seats.headers("B"), timeout=20)
        assert response.status_code == 200 and response.json()["you"] == "B"
        assert process.poll() is None
        if server == "waitress":
            assert max(fd_numbers(process.pid)) < FD_SETSIZE
        else:
            assert time.monotonic() - start < 1.0  # idle sockets cost nothing on the event loop
    finally:
        for sock in sockets:
            sock.close()
        stop(process)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_40_idle_connections_do_not_freeze_8_threads(tmp_path: Path) -> None:
    """QA F2: with --threads 8 the cap was 32 connections and idle ones lasted 300 s."""
    process, base = start_server(tmp_path / "c.sqlite")  # --threads 8
    sockets: list[socket.socket] = []
    try:
        seats = seat_both(lambda path, **kw: requests.post(base + path, timeout=10, **kw))
        sockets = idle_sockets(base, 40)
        start = time.monotonic()
        response = requests.get(base + seats.api + "/state", headers=seats.headers("A"), timeout=10)
        assert response.status_code == 200 and time.monotonic() - start < 2.0
    finally:
        for sock in sockets:
            sock.close()
        stop(process)


def test_sigterm_ends_open_streams_promptly(tmp_path: Path) -> None:
    process, base = start_server(tmp_path / "c.sqlite")
    try:
        seats = seat_both(lambda path, **kw: requests.post(base + path, timeout=10, **kw))
        stream = requests.get(
            base + seats.api + "/events", params={"token": seats.a}, stream=True, timeout=10
        )
        assert stream.status_code == 200
        start = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        assert time.monotonic() - start < 3.0  # waitress waits up to 5 s for busy workers
        stream.close()
    finally:
        stop(process)


# ------------------------------------------------------------------------ startup errors (F7/F8)


def assert_one_line_error(result: subprocess.CompletedProcess[str], prefix: str) -> None:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"tablesmith: error: {prefix}"), lines[0]
    assert "Traceback" not in result.stderr


def serve_args(tmp_path: Path, *extra: str) -> list[str]:
    return [
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--no-qr",
        "--db",
        str(tmp_path / "ok.sqlite"),
        *extra,
    ]


def test_corrupt_database_is_a_one_line_db_error(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"this is not a database" * 100)
    result = run_cli(*serve_args(tmp_path, "--db", str(corrupt)))
    assert_one_line_error(result, "--db: ")
    assert "not a database" in result.stderr


@pytest.mark.parametrize(
    "make_db",
    [
        lambda tmp: str(tmp / "file" / "c.sqlite"),  # the parent is a file
        lambda tmp: "/dev/null",
        lambda tmp: "/proc/tablesmith/c.sqlite",
        lambda tmp: str(tmp),  # a folder
        lambda tmp: "",
    ],
    ids=["parent-is-a-file", "dev-null", "proc", "folder", "empty"],
)
def test_unusable_db_paths_are_one_line_db_errors(tmp_path: Path, make_db: object) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    result = run_cli(*serve_args(tmp_path, "--db", make_db(tmp_path)))  # type: ignore[operator]
    assert_one_line_error(result, "--db: ")


CLI_IMPORT = "import tablesmith"


def test_read_only_database_is_a_db_error() -> None:
    """A database file the user may only read. Root writes read-only files anyway, so as root
    (CI's containers) the server runs as ``nobody`` (``setpriv``) on a file root owns."""
    folder = Path(tempfile.mkdtemp(prefix="tablesmith-ro-"))
    try:
        path = folder / "ro.sqlite"
        sqlite3.connect(path).close()
        path.chmod(0o444)
        as_user: list[str] = []
        if os.geteuid() == 0:
            folder.chmod(0o755)
            as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            probe = subprocess.run(
                [*as_user, sys.executable, "-c", CLI_IMPORT], cwd=ROOT, check=False
            )
            if probe.returncode != 0:
                pytest.skip(f"root, and user nobody cannot run {sys.executable} from {ROOT}")
        args = serve_args(folder, "--db", str(path))
        result = subprocess.run(
            [*as_user, sys.executable, "-c", CLI, *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=20,
        )
        assert_one_line_error(result, "--db: ")
        assert "read" in result.stderr, result.stderr
    finally:
        shutil.rmtree(folder)


def test_port_in_use_is_a_port_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run_cli(*serve_args(tmp_path, "--port", str(port)))
    assert_one_line_error(result, "--port: ")
    assert f"port {port} is already in use" in result.stderr


@pytest.mark.parametrize("host", ["bad host!", "nonexistent.invalid", "10.254.254.254", " "])
def test_bad_host_is_a_host_error(tmp_path: Path, host: str) -> None:
    assert_one_line_error(run_cli(*serve_args(tmp_path, "--host", host)), "--host: ")


@pytest.mark.parametrize(
    "url",
    [
        "gameroom.local:8765",
        "ftp://gameroom.local",
        "http://",
        "http://host/?x=1",
        "http://host/#top",
        "http://host:99999",
        "http://ho st",
        "http://host/" + "x" * 3000,
    ],
)
def test_bad_base_url_is_a_base_url_error(tmp_path: Path, url: str) -> None:
    assert_one_line_error(run_cli(*serve_args(tmp_path, "--base-url", url)), "--base-url: ")


def test_base_url_loses_one_trailing_slash(tmp_path: Path) -> None:
    args = serve_args(tmp_path, "--base-url", "http://127.0.0.1:1/")
    process = subprocess.Popen(
        [sys.executable, "-u", "-c", CLI, *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert process.stdout.readline().startswith(
            "Tablesmith companion: open http://127.0.0.1:1/ on a phone"
        )
    finally:
        process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()
