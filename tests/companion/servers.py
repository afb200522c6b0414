"""Real servers for the tests that run several ``tablesmith serve`` processes (the scale-out
tests and the game-store setup): free ports, ``tablesmith serve`` on PostgreSQL and Redis, a
phone's live stream read from a raw socket, a roll. The session's own PostgreSQL and Redis are
the ``postgres_url`` and ``redis_url`` fixtures of ``tests/companion/conftest.py``.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import json
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests

from tests.companion.wsclient import WebSocket, ws_url

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30.0
"""How long a server program may take to start."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} within {seconds:g} s")


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@dataclass
class Serve:
    """One server process (a ``tablesmith serve``, or the proxy in front of some) and the base
    URL it answers at."""

    process: subprocess.Popen[bytes]
    base: str

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def serve_process(options: Sequence[str], log: Path, base: str | None = None) -> Serve:
    """``tablesmith serve`` with ``options`` (its output to ``log``), once it answers: at
    ``base``, or where its first line says (``--port 0``, no ``--base-url``)."""
    out = open(log, "wb")  # noqa: SIM115 - the child holds it; closed with the file object
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "tablesmith.py"), "serve", *options],
        cwd=ROOT,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    out.close()
    found: list[str] = []

    def started() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"serve ended: {log.read_text(encoding='utf-8')}")
        match = re.search(
            r"open (http\S+)/ (?:on a phone|in a browser)", log.read_text(encoding="utf-8")
        )
        if match:
            found.append(base or match.group(1))
        return bool(found)

    try:
        wait_until(started, START_SECONDS, "serve did not start")
        serve = Serve(process, found[0])
        wait_until(lambda: requests.get(serve.base + "/", timeout=5).ok, 10, "serve did not answer")
    except BaseException:
        Serve(process, "").stop()  # a server that did not come up is not left running
        raise
    return serve


def start_serve(postgres_url: str, redis_url: str, log: Path) -> Serve:
    """``tablesmith serve`` on a free loopback port with ``--db postgres_url`` and ``--pubsub
    redis_url``."""
    options = ["--db", postgres_url, "--pubsub", redis_url, "--host", "127.0.0.1"]
    return serve_process([*options, "--port", "0", "--no-mdns", "--no-qr"], log)


@dataclass
class Table:
    """A table created through one process and joined through the other."""

    id: str
    a: str
    b: str

    def headers(self, seat: str) -> dict[str, str]:
        return {"X-Seat-Token": self.a if seat == "A" else self.b}


def seat_both(first: Serve, second: Serve) -> Table:
    created = requests.post(first.base + "/api/tables", json={"game": "asteroids"}, timeout=10)
    created.raise_for_status()
    body = created.json()
    join = body["join_url"].rsplit("/", 1)[1]
    joined = requests.post(second.base + f"/api/join/{join}", json={}, timeout=10)
    joined.raise_for_status()
    return Table(id=body["table_id"], a=body["token"], b=joined.json()["token"])


@dataclass
class StreamReader:
    """A phone's live stream read from a raw socket (HTTP/1.0: no chunking, no buffering in
    between), recording the answer's head and when each event id arrives."""

    base: str
    table: Table
    seat: str
    since: int = 0
    arrived: dict[int, float] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)
    ended: threading.Event = field(default_factory=threading.Event)
    head: list[str] = field(default_factory=list)
    """The answer's status line and header lines, complete once ``headed`` is set."""
    headed: threading.Event = field(default_factory=threading.Event)

    def header(self, name: str) -> str | None:
        """The value of the answer's header ``name`` (any case), None when it has none."""
        for line in self.head[1:]:
            key, _, value = line.partition(":")
            if key.strip().lower() == name.lower():
                return value.strip()
        return None

    def start(self) -> StreamReader:
        host, port = self.base.rsplit("//", 1)[1].split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        token = self.table.a if self.seat == "A" else self.table.b
        request = (
            f"GET /api/t/{self.table.id}/events?since={self.since} HTTP/1.0\r\n"
            f"Host: {host}\r\nX-Seat-Token: {token}\r\nAccept: text/event-stream\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        return self

    def _read(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                now = time.perf_counter()
                if not chunk:
                    break
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if not self.headed.is_set():
                        if line.rstrip(b"\r"):
                            self.head.append(line.rstrip(b"\r").decode("latin-1"))
                        else:
                            self.headed.set()
                    elif line.startswith(b"id: "):
                        seq = int(line[4:])
                        self.arrived.setdefault(seq, now)
                        self.order.append(seq)
        except OSError:
            pass
        finally:
            self.ended.set()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


class SocketReader(StreamReader):
    """:class:`StreamReader`'s record of a phone's stream, on a table socket
    (``companion/sockets.py``: the hello with the token and ``since``), which also carries the
    phone's rolls (:meth:`roll`). ``head`` is the handshake's status and headers."""

    def start(self) -> SocketReader:
        token = self.table.a if self.seat == "A" else self.table.b
        self.ws = WebSocket(ws_url(self.base, self.table.id))
        self.head = [f"HTTP/1.1 {self.ws.status}", *(f"{k}: {v}" for k, v in self.ws.headers)]
        self.headed.set()
        self.answers: dict[int, dict[str, Any]] = {}
        self.answered = threading.Condition()
        self.numbers = itertools.count(1)
        if self.ws.status == 101:
            self.ws.send(json.dumps({"token": token, "since": self.since}))
            self.thread = threading.Thread(target=self._read_socket, daemon=True)
            self.thread.start()
        else:
            self.ended.set()
        return self

    def _read_socket(self) -> None:
        while (text := self.ws.messages.get()) is not None:
            now = time.perf_counter()
            if text.startswith("{"):
                answer = json.loads(text)
                with self.answered:
                    self.answers[answer["re"]] = answer
                    self.answered.notify_all()
                continue
            for line in text.split("\n"):
                if line.startswith("id: "):
                    seq = int(line[4:])
                    self.arrived.setdefault(seq, now)
                    self.order.append(seq)
        self.ended.set()
        with self.answered:
            self.answered.notify_all()

    def roll(self, client_id: str, seconds: float = 10) -> tuple[int, Any] | None:
        """A roll on the socket as :func:`roll` posts it: (status, answer body), or None when
        the socket ended before the answer came (the phone sends it again, same id)."""
        number = next(self.numbers)
        body = {"client_action_id": client_id, "count": 1, "sides": 6, "purpose": "scale-out test"}
        try:
            self.ws.send(json.dumps({"re": number, "post": "dice", "body": body}))
        except OSError:
            return None
        deadline = time.monotonic() + seconds
        with self.answered:
            while number not in self.answers and not self.ended.is_set():
                if not self.answered.wait(max(0.0, deadline - time.monotonic())):
                    return None
        answer = self.answers.pop(number, None)
        return None if answer is None else (answer["status"], answer["body"])

    def close(self) -> None:
        self.ws.close()


def roll(serve: Serve, table: Table, seat: str, client_id: str) -> requests.Response:
    body = {"client_action_id": client_id, "count": 1, "sides": 6, "purpose": "scale-out test"}
    return requests.post(
        f"{serve.base}/api/t/{table.id}/dice", json=body, headers=table.headers(seat), timeout=10
    )
