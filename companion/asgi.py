"""The companion as an ASGI application: live streams on the event loop, the rest in threads.

``tablesmith serve`` runs this under uvicorn (:mod:`companion.evented`). A live stream
(``GET /api/t/<table>/events``) is a coroutine here, not a thread: thousands of open phones
cost memory, not threads (issue 9, point 1). Every other request goes to the Flask app
(WSGI) in a small thread pool, but only once its whole body has arrived: a client that
trickles its body holds no thread and is cut off after :data:`BODY_SECONDS` (slowloris; the
header deadline is in :mod:`companion.evented`). Flask's answer is collected in the thread and
sent from the event loop, so a slow reader holds no thread either.

``POST /api/t/<table>/actions``, the request every tap makes, skips Flask where Flask would
accept the request as it is (:meth:`CompanionASGI._action`): it is decided on the event loop
(:meth:`companion.tables.writes.Writes.submit_soon`: the checks and rules of
:func:`companion.api.post_action`) and answered once the store's committer thread has made it
durable, so no worker thread is involved; where that cannot be done without waiting (the
table's lock is taken, the table is not loaded, other processes share the log)
:func:`companion.api.post_action` runs in a worker thread as before. The Flask app's error
handlers answer its refusals, and anything unusual (cross-site, not JSON, too large,
ambiguous headers) is left to Flask.

The stream endpoint answers exactly like the Flask route it replaces (same tokens, same
``since`` rules, the same JSON errors ``{"error", "message"}``), plus the budgets of
:meth:`companion.tables.budgets.StreamBudgets.open` (429 ``watchers_full``, 503 ``server_full``).
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs

from a2wsgi.wsgi import build_environ
from flask import Flask
from werkzeug.http import parse_options_header
from werkzeug.sansio.utils import get_host

from companion.api import post_action
from companion.security import is_cross_site
from companion.store.base import StorageUnavailable
from companion.tables.rejected import Rejected, brief
from companion.tables.service import EXTENSION, TableService
from companion.tables.sse import HEARTBEAT, RETRY, pending

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

STREAM_PATH = re.compile(r"/api/t/([^/]+)/events")
ACTION_PATH = re.compile(r"/api/t/([A-Za-z0-9_-]{1,64})/actions")
"""The actions route as the event loop answers it directly (table ids are URL-safe tokens)."""
ACTION_HEADERS = {
    "HTTP_HOST": "host",
    "HTTP_ORIGIN": "origin",
    "HTTP_SEC_FETCH_SITE": "sec_fetch_site",
    "CONTENT_TYPE": "content_type",
    "HTTP_X_SEAT_TOKEN": "token",
}
"""Headers the direct action route reads, by their WSGI environ name (:func:`wsgi_name`),
and what it calls them."""


def wsgi_name(name: bytes) -> str:
    """A header's name in the WSGI environ, exactly as a2wsgi's ``build_environ`` makes it
    (so ``X_Seat_Token`` is ``X-Seat-Token`` there, as Werkzeug then sees it)."""
    text = name.decode("latin-1")
    if text == "content-length":
        return "CONTENT_LENGTH"
    if text == "content-type":
        return "CONTENT_TYPE"
    return f"HTTP_{text}".upper().replace("-", "_")


SEQUENCE = re.compile(r"[0-9]{1,15}")
BODY_SECONDS = 10.0
"""A request body must arrive completely within this many seconds (else 408)."""
MAX_REQUEST_BODY = 256 * 1024
"""Bodies above this are refused (413) while reading; the app's own limit is 64 KiB."""
RETRY_BYTES = RETRY.encode()
HEARTBEAT_BYTES = HEARTBEAT.encode()
STREAM_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),
]


def _json_error(status: int, reason: str, message: str, view: Any = None) -> tuple[int, bytes]:
    body: dict[str, Any] = {"error": reason, "message": message}
    if view is not None:
        body["view"] = view
    return status, json.dumps(body, separators=(",", ":")).encode()


async def _answer(
    send: Send, status: int, body: bytes, *, close: bool = False, extra: list[Any] | None = None
) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *(extra or []),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class CompanionASGI:
    """ASGI application around the companion's Flask app.

    Args:
        app: the Flask app from :func:`companion.create_app`.
        threads: worker threads for the Flask requests (actions, state, pages ...).
        body_seconds: deadline for a request body.

    The app's ``HEARTBEAT_SECONDS`` and ``STREAM_SECONDS`` apply to the live streams.
    """

    def __init__(self, app: Flask, *, threads: int, body_seconds: float = BODY_SECONDS) -> None:
        self.flask = app
        self.service: TableService = app.extensions[EXTENSION]
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="companion")
        self.body_seconds = body_seconds
        self.heartbeat = float(app.config["HEARTBEAT_SECONDS"])
        self.lifetime = float(app.config["STREAM_SECONDS"])
        self.script_name = os.environ.get("SCRIPT_NAME", "")
        """a2wsgi puts this before every path: then the direct action route stays off (as
        with an ASGI ``root_path`` or Flask's ``TRUSTED_HOSTS``)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Dispatch one ASGI connection scope (lifespan, http; websockets are refused)."""
        kind = scope["type"]
        if kind == "lifespan":
            await self._lifespan(receive, send)
        elif kind == "http":
            method = scope["method"]
            if method == "POST" and (match := ACTION_PATH.fullmatch(scope["path"])):
                await self._action(scope, receive, send, match.group(1))
            elif method == "GET" and (match := STREAM_PATH.fullmatch(scope["path"])):
                await self._stream(scope, receive, send, match.group(1))
            else:
                await self._wsgi(scope, receive, send)
        elif kind == "websocket":
            await send({"type": "websocket.close", "code": 1000})

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self.service.hub.start()
                except Exception as exc:  # noqa: BLE001 - reported to the server, which stops
                    await send({"type": "lifespan.startup.failed", "message": str(exc)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.service.close()
                await self.service.hub.stop()
                self.executor.shutdown(wait=False, cancel_futures=True)
                await send({"type": "lifespan.shutdown.complete"})
                return

    # ------------------------------------------------------------------------------ WSGI part

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole request body, or None after answering 408/413 (the connection closes)."""
        for name, value in scope["headers"]:
            if name == b"content-length" and value.isdigit() and int(value) > MAX_REQUEST_BODY:
                await _answer(send, *self._too_large(), close=True)
                return None
        chunks: list[bytes] = []
        size = 0
        too_large = False
        try:
            # one deadline for the whole body (asyncio.timeout: no task per receive, unlike
            # wait_for; the body of a small request is usually there already)
            async with asyncio.timeout(self.body_seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > MAX_REQUEST_BODY:
                        too_large = True
                        break
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            status, body = _json_error(
                408,
                "request_timeout",
                f"the request body did not arrive within {self.body_seconds:g} s",
            )
            await _answer(send, status, body, close=True)
            return None
        if too_large:
            await _answer(send, *self._too_large(), close=True)
            return None
        return b"".join(chunks)

    @staticmethod
    def _too_large() -> tuple[int, bytes]:
        return _json_error(
            413,
            "request_entity_too_large",
            f"request bodies are limited to {MAX_REQUEST_BODY} bytes",
        )

    @staticmethod
    def _environ(scope: Scope, body: bytes) -> dict[str, Any]:
        """The WSGI environ of a request whose whole body has arrived."""
        environ: dict[str, Any] = dict(build_environ(scope, io.BytesIO(body)))  # type: ignore[arg-type]
        environ["wsgi.errors"] = sys.stderr
        environ["CONTENT_LENGTH"] = str(len(body))
        return environ

    async def _wsgi(
        self, scope: Scope, receive: Receive, send: Send, body: bytes | None = None
    ) -> None:
        if body is None:
            body = await self._read_body(scope, receive, send)
            if body is None:
                return
        environ = self._environ(scope, body)
        loop = asyncio.get_running_loop()
        status, headers, content = await loop.run_in_executor(self.executor, self._call, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    # ------------------------------------------------------------------ direct action route

    async def _action(self, scope: Scope, receive: Receive, send: Send, table_id: str) -> None:
        """``POST /api/t/<table>/actions`` without Flask where Flask would accept the request
        as it is (issue 9, point 1: Flask and its WSGI environ cost a third of an action).

        The request goes to the Flask app unchanged (and is answered there, refusals
        included) unless: its headers are unambiguous (``Host``, ``Origin``,
        ``Sec-Fetch-Site``, ``Content-Type`` and ``X-Seat-Token`` at most once each, a
        ``Host`` given), it is not cross-site (:func:`companion.security.is_cross_site`, the
        test Flask runs before every request), the body is within ``MAX_CONTENT_LENGTH`` and
        is ``application/json`` that parses. Then the action is decided on the event loop
        (:meth:`companion.tables.writes.Writes.submit_soon`), or, where it cannot be there,
        by :func:`companion.api.post_action` (the Flask route's own function) in one worker
        thread; a refusal is answered by the Flask app's error handlers
        (:meth:`_flask_error`), so the shapes are the same.
        """
        body = await self._read_body(scope, receive, send)
        if body is None:
            return
        direct = self._direct_request(scope, body)
        if direct is None:
            await self._wsgi(scope, receive, send, body)
            return
        token, parsed = direct
        loop = asyncio.get_running_loop()
        try:
            text = await self.service.submit_soon(table_id, token, parsed)
        except Exception as exc:  # noqa: BLE001 - answered by the app's error handlers
            status, headers, content = await loop.run_in_executor(
                self.executor, self._flask_error, self._environ(scope, body), exc
            )
        else:
            if text is None:  # not on the loop now: the whole action in a worker thread
                status, headers, content = await loop.run_in_executor(
                    self.executor, self._direct_action, scope, body, table_id, token, parsed
                )
            else:
                status, headers, content = self._ok(text)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def _direct_request(self, scope: Scope, body: bytes) -> tuple[str | None, Any] | None:
        """(token, parsed JSON body) of an action request the Flask app would accept as it
        is, else None (Flask answers it)."""
        if scope.get("root_path") or self.script_name or self.flask.config.get("TRUSTED_HOSTS"):
            return None
        seen: dict[str, str] = {}
        for name, value in scope["headers"]:
            field = ACTION_HEADERS.get(wsgi_name(name))
            if field is not None:
                if field in seen:
                    return None  # Werkzeug would see both, joined
                seen[field] = value.decode("latin-1")
        host_header = seen.get("host")
        if host_header is None:
            return None
        host = get_host(scope.get("scheme", "http"), host_header)
        if is_cross_site("POST", host, seen.get("sec_fetch_site"), seen.get("origin")):
            return None
        limit = self.flask.config["MAX_CONTENT_LENGTH"]
        if limit is not None and len(body) > limit:
            return None
        mimetype = parse_options_header(seen.get("content_type", ""))[0].lower()
        if mimetype != "application/json":
            return None
        try:
            parsed = json.loads(body)
        except Exception:  # noqa: BLE001 - whatever fails, Flask answers it its own way
            return None
        return seen.get("token"), parsed

    def _direct_action(
        self, scope: Scope, body: bytes, table_id: str, token: str | None, parsed: Any
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """Worker thread: :func:`companion.api.post_action`, answered like the Flask route."""
        try:
            text = post_action(self.service, table_id, token, lambda: parsed)
        except Exception as exc:  # noqa: BLE001 - answered by the app's error handlers
            return self._flask_error(self._environ(scope, body), exc)
        return self._ok(text)

    @staticmethod
    def _ok(text: str) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """The 200 answer of an action, as the Flask route sends it."""
        content = text.encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(content)).encode()),
        ]
        return 200, headers, content

    def _flask_error(
        self, environ: dict[str, Any], error: Exception
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """The Flask app's answer to ``error`` raised by its view for this request: its
        registered error handler (JSON under ``/api/``), as ``full_dispatch_request`` does."""
        app = self.flask
        with app.request_context(environ):
            try:
                response = app.finalize_request(app.handle_user_exception(error))
            except Exception as unhandled:  # noqa: BLE001 - as Flask's wsgi_app does
                response = app.handle_exception(unhandled)
            return self._call(environ, response)

    def _call(
        self, environ: dict[str, Any], wsgi: Callable[..., Any] | None = None
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """Run the Flask app (or another WSGI callable) in a worker thread and collect its
        whole answer."""
        started: list[Any] = []
        written: list[bytes] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Any:
            started[:] = [status, headers]
            return written.append

        result = (wsgi or self.flask)(environ, start_response)
        try:
            for chunk in result:
                written.append(chunk)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status, headers = started
        encoded = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers]
        return int(status.split(" ", 1)[0]), encoded, b"".join(written)

    # ----------------------------------------------------------------------------- live stream

    async def _stream(self, scope: Scope, receive: Receive, send: Send, table_id: str) -> None:
        """``GET /api/t/<table>/events``: Server-Sent Events from ``since`` on (see
        :meth:`companion.tables.sse` for the format)."""
        query = parse_qs(scope["query_string"].decode("latin-1"))
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        token = headers.get("x-seat-token") or (query.get("token") or [None])[0]
        since_text = (query.get("since") or [None])[0] or headers.get("last-event-id") or "0"
        service = self.service
        try:
            loop = asyncio.get_running_loop()
            seat = await loop.run_in_executor(self.executor, service.authorise, table_id, token)
            if service.shared:  # a phone resuming here after another process: our copy may lag
                await loop.run_in_executor(self.executor, service.fresh, table_id)
            if not SEQUENCE.fullmatch(since_text):
                raise Rejected(
                    400,
                    "malformed",
                    f"since must be a sequence number (1..15 digits 0-9), got {brief(since_text)}",
                )
            slot = service.open_stream(seat)
        except Rejected as exc:
            status, body = _json_error(exc.status, exc.reason, str(exc), exc.view)
            extra = [(b"retry-after", b"5")] if exc.status in (429, 503) else []
            await _answer(send, status, body, extra=extra)
            return
        except StorageUnavailable as exc:
            status, body = _json_error(
                503, "storage_unavailable", f"the database is not available now ({exc})"
            )
            await _answer(send, status, body, extra=[(b"retry-after", b"5")])
            return
        table = slot.table
        wake = service.hub.subscribe(table_id)
        gone = False

        async def watch_disconnect() -> None:
            nonlocal gone
            while (await receive())["type"] != "http.disconnect":
                pass
            gone = True
            wake.set()

        watcher = asyncio.create_task(watch_disconnect())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": STREAM_HEADERS})
            await send({"type": "http.response.body", "body": RETRY_BYTES, "more_body": True})
            sent = max(0, min(int(since_text), table.published[0]))
            deadline = time.monotonic() + self.lifetime
            while not gone and not slot.ended and not service.closed.is_set():
                wake.clear()  # before looking: a change after this sets it again
                text, sent = pending(slot, sent)
                if text:
                    await send(
                        {"type": "http.response.body", "body": text.encode(), "more_body": True}
                    )
                    continue
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                try:
                    async with asyncio.timeout(min(self.heartbeat, remaining)):
                        await wake.wait()  # no task per wait, unlike wait_for
                except TimeoutError:
                    if time.monotonic() < deadline:
                        await send(
                            {
                                "type": "http.response.body",
                                "body": HEARTBEAT_BYTES,
                                "more_body": True,
                            }
                        )
            if not gone:
                await send({"type": "http.response.body", "body": b""})
        except OSError:
            pass  # the phone went away while we wrote
        finally:
            watcher.cancel()
            service.hub.unsubscribe(table_id, wake)
            slot.release()
