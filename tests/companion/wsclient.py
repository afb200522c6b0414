"""Phones for the WebSocket tests: one on a socket (:class:`SocketPhone`, a small blocking
WebSocket client on wsproto, the library uvicorn serves the sockets with) and one on Server-Sent
Events + POST (:class:`SsePhone`), with the same interface: ``post(kind, body)`` answers
``(status, body bytes, Retry-After)``, ``stream`` is the stream's text so far (heartbeats left
out: when they come is a matter of timing)."""

from __future__ import annotations

import contextlib
import itertools
import json
import queue
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import urlsplit

import requests
from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    CloseConnection,
    Message,
    RejectConnection,
    RejectData,
    Request,
    TextMessage,
)

HEARTBEAT = ": heartbeat\n\n"
Answer = tuple[int, bytes, int | None]


class WebSocket:
    """A blocking WebSocket client: ``status`` is 101 once accepted (else the refusal's
    status); ``messages`` gets every text message, then None when the socket closed
    (``close_code`` says how)."""

    def __init__(
        self, url: str, headers: Sequence[tuple[str, str]] = (), timeout: float = 10
    ) -> None:
        parts = urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port or 80), timeout=timeout)
        self.conn = WSConnection(ConnectionType.CLIENT)
        self.lock = threading.Lock()
        self.messages: queue.Queue[str | None] = queue.Queue()
        self.close_code: int | None = None
        self.status = 0
        self.headers: list[tuple[str, str]] = []
        """The handshake answer's headers (name, value), once accepted."""
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        host = parts.netloc
        extra = [(k.encode(), v.encode()) for k, v in headers]
        self.sock.sendall(self.conn.send(Request(host=host, target=target, extra_headers=extra)))
        pending: list[Any] = []
        while not self.status:
            data = self.sock.recv(65536)
            if not data:
                self.status = -1
                break
            self.conn.receive_data(data)
            for event in self.conn.events():
                if isinstance(event, AcceptConnection):
                    self.status = 101
                    self.headers = [(k.decode(), v.decode()) for k, v in event.extra_headers]
                elif isinstance(event, RejectConnection):
                    self.status = event.status_code
                elif self.status == 101:
                    pending.append(event)
        self.sock.settimeout(None)
        self.buffer = ""
        for event in pending:
            self._event(event)
        self.thread = threading.Thread(target=self._read, daemon=True)
        if self.status == 101:
            self.thread.start()

    def send(self, text: str) -> None:
        """Send one text message (raises OSError once the socket is gone)."""
        with self.lock:
            self.sock.sendall(self.conn.send(Message(data=text)))

    def send_bytes(self, data: bytes) -> None:
        """Send one binary message."""
        with self.lock:
            self.sock.sendall(self.conn.send(Message(data=data)))

    def _event(self, event: Any) -> None:
        if isinstance(event, TextMessage):
            self.buffer += event.data
            if event.message_finished:
                self.messages.put(self.buffer)
                self.buffer = ""
        elif isinstance(event, CloseConnection):
            self.close_code = event.code
            with self.lock, contextlib.suppress(Exception):
                self.sock.sendall(self.conn.send(event.response()))
        elif isinstance(event, RejectData):
            pass

    def _read(self) -> None:
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    break
                self.conn.receive_data(data)
                for event in self.conn.events():
                    self._event(event)
        except OSError:
            pass
        finally:
            self.messages.put(None)

    def close(self) -> None:
        """Close without the closing handshake (as a phone that goes away)."""
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        if self.thread.is_alive():
            self.thread.join(timeout=5)


def ws_url(base: str, table_id: str) -> str:
    return base.replace("http://", "ws://") + f"/api/t/{table_id}/socket"


class Waiting:
    """What both phones share: a condition notified on every arrival, and waiting on it."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.ended = False

    def wait(self, check: Callable[[], bool], seconds: float = 10) -> None:
        """Until ``check()`` (called under the condition) holds; AssertionError after
        ``seconds``."""
        deadline = time.monotonic() + seconds
        with self.changed:
            while not check():
                left = deadline - time.monotonic()
                assert left > 0, f"timed out waiting on {type(self).__name__}"
                self.changed.wait(left)


class SocketPhone(Waiting):
    """A phone on the WebSocket channel: hello with ``token`` and ``since``, then the stream's
    frames gather in :attr:`stream` and the answers are matched to their ``re``."""

    def __init__(
        self,
        base: str,
        table_id: str,
        token: str,
        since: int = 0,
        headers: Sequence[tuple[str, str]] = (),
    ) -> None:
        super().__init__()
        self.ws = WebSocket(ws_url(base, table_id), headers)
        assert self.ws.status == 101, self.ws.status
        self.frames: list[str] = []
        self.answers: dict[int | None, list[dict[str, Any]]] = {}
        self.raw_answers: dict[int | None, list[str]] = {}
        self.numbers = itertools.count(1)
        self.ws.send(json.dumps({"token": token, "since": since}))
        self.thread = threading.Thread(target=self._pump, daemon=True)
        self.thread.start()

    def _pump(self) -> None:
        while True:
            text = self.ws.messages.get()
            with self.changed:
                if text is None:
                    self.ended = True
                elif text.startswith("{"):
                    number = json.loads(text)["re"]
                    self.answers.setdefault(number, []).append(json.loads(text))
                    self.raw_answers.setdefault(number, []).append(text)
                else:
                    self.frames.append(text)
                self.changed.notify_all()
            if text is None:
                return

    @property
    def stream(self) -> str:
        with self.changed:
            return "".join(f for f in self.frames if f != HEARTBEAT)

    def post(self, kind: str, body: Any) -> Answer:
        number = next(self.numbers)
        self.ws.send(json.dumps({"re": number, "post": kind, "body": body}))
        return self.answer(number)

    def answer(self, number: int | None) -> Answer:
        """The answer to message ``number``, as (status, the body's bytes, retry_after)."""
        self.wait(lambda: bool(self.answers.get(number)) or self.ended)
        raw = self.raw_answers[number].pop(0)
        parsed = self.answers[number].pop(0)
        # the body's bytes as sent: between '"body":' and the end (or ',"retry_after"')
        body = raw[raw.index(',"body":') + 8 : -1]
        if "retry_after" in parsed:
            body = body[: body.rindex(',"retry_after":')]
        return parsed["status"], body.encode(), parsed.get("retry_after")

    def close(self) -> None:
        self.ws.close()
        self.thread.join(timeout=5)


def dechunked(body: bytes) -> bytes:
    """The complete chunks of a chunked HTTP body, joined."""
    parts = []
    while b"\r\n" in body:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0 or len(rest) < size + 2:
            break
        parts.append(rest[:size])
        body = rest[size + 2 :]
    return b"".join(parts)


class SsePhone(Waiting):
    """A phone on Server-Sent Events + POST: the stream read from a raw socket (HTTP/1.0, no
    chunking), the writes POSTed with the token in ``X-Seat-Token``."""

    def __init__(self, base: str, table_id: str, token: str, since: int = 0) -> None:
        super().__init__()
        self.base = base
        self.api = f"{base}/api/t/{table_id}/"
        self.token = token
        self.session = requests.Session()
        parts = urlsplit(base)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
        self.sock.sendall(
            (
                f"GET /api/t/{table_id}/events?since={since} HTTP/1.0\r\nHost: {parts.netloc}\r\n"
                f"X-Seat-Token: {token}\r\nAccept: text/event-stream\r\n\r\n"
            ).encode()
        )
        self.sock.settimeout(None)
        self.received = b""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                with self.changed:
                    self.received += chunk
                    self.changed.notify_all()
        except OSError:
            pass
        finally:
            with self.changed:
                self.ended = True
                self.changed.notify_all()

    @property
    def stream(self) -> str:
        with self.changed:
            head, _, body = self.received.partition(b"\r\n\r\n")
            if b"transfer-encoding: chunked" in head.lower():
                body = dechunked(body)
            return body.decode().replace(HEARTBEAT, "")

    def post(self, kind: str, body: Any) -> Answer:
        answer = self.session.post(
            self.api + kind,
            data=json.dumps(body),
            headers={"Content-Type": "application/json", "X-Seat-Token": self.token},
            timeout=10,
        )
        retry = answer.headers.get("Retry-After")
        return answer.status_code, answer.content, int(retry) if retry else None

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self.thread.join(timeout=5)
        self.session.close()
