"""The companion as an ASGI application: live streams on the event loop, the rest in threads.

``tablesmith serve`` runs this under uvicorn (:mod:`companion.evented`). Every request goes to
the Flask app (WSGI) in a small thread pool, but only once its whole body has arrived: a
client that trickles its body holds no thread and is cut off after :data:`BODY_SECONDS`
(slowloris; the header deadline is in :mod:`companion.evented`). Flask's answer is collected
in the thread and sent from the event loop, so a slow reader holds no thread either. Flask is
the one authority on every request: its hooks, its checks, its refusals (the app's error
handlers, :mod:`companion.refusals`, also answer the 408 and 413 this layer gives itself).

A live stream (``GET /api/t/<table>/events``) is answered by Flask like any request, but its
body is not iterated in a thread: the route hands the opened stream over
(:data:`companion.api.LIVE_STREAM`), and the event loop drives the same loop a WSGI server
would (:func:`companion.tables.sse.stream_loop`), woken by the hub instead of a condition, so
thousands of open phones cost memory, not threads.

``POST /api/t/<table>/actions``, the request every tap makes, skips Flask where Flask would
accept the request as it is and would run nothing but what this route does itself
(:meth:`CompanionASGI._action`, :func:`unknown_hooks`): it is decided on the event loop
(:meth:`companion.tables.writes.Writes.submit_soon`: the checks and rules of
:func:`companion.api.post_action`) and answered once the store's committer thread has made it
durable, so no worker thread is involved; where that cannot be done without waiting (the
table's lock is taken, the table is not loaded, other processes share the log)
:func:`companion.api.post_action` runs in a worker thread. Its answer is framed by
:func:`companion.api.action_answer`, its refusals by the Flask app's error handlers, and
anything unusual (cross-site, not JSON, too large, ambiguous headers, a hook of the app it
does not know) is left to Flask.

A WebSocket (``GET /api/t/<table>/socket``, :mod:`companion.sockets`) carries a phone's stream
and writes on one connection: each of its messages is answered as the HTTP request it stands
for, by :meth:`CompanionASGI.action_answer` and :meth:`CompanionASGI.flask_answer`, and its
stream is driven by :meth:`CompanionASGI.pump`, the driver of the SSE answers.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import sys
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from a2wsgi.wsgi import build_environ
from flask import Flask
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge, RequestTimeout
from werkzeug.http import parse_options_header
from werkzeug.sansio.utils import get_host

from companion.api import LIVE_STREAM, action_answer, post_action
from companion.security import cross_site_guard, is_cross_site
from companion.sockets import Answer, SocketChannel
from companion.tables.service import EXTENSION, TableService
from companion.tables.sse import Stream

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

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


UNPARSED: Any = object()
"""An action's body not parsed yet (:meth:`CompanionASGI.action_answer`)."""
BODY_SECONDS = 10.0
"""A request body must arrive completely within this many seconds (else 408)."""
MAX_REQUEST_BODY = 256 * 1024
"""Bodies above this are refused (413) while reading; the app's own limit is 64 KiB."""
HOOKS = (
    "before_request_funcs",
    "after_request_funcs",
    "teardown_request_funcs",
    "url_value_preprocessors",
    "url_default_functions",
)
"""The Flask app's per-request hooks (app-wide under the key None, and per blueprint)."""
HONOURED_HOOKS: dict[str, dict[str | None, tuple[Callable[..., Any], ...]]] = {
    "before_request_funcs": {None: (cross_site_guard,)},
}
"""The hooks the direct action route does itself: the cross-site test
(:func:`companion.security.is_cross_site`, in :meth:`CompanionASGI._direct_request`)."""


def unknown_hooks(app: Flask) -> list[str]:
    """The hooks of ``app`` the direct action route would skip (empty: it may run): any
    per-request hook (:data:`HOOKS`) beyond :data:`HONOURED_HOOKS`, and any
    ``teardown_appcontext`` function (the route pushes no app context), and a WSGI middleware
    put around ``app.wsgi_app`` (ProxyFix, say). Template context processors do not count: an
    action's answer renders no template."""
    found = []
    for name in HOOKS:
        honoured = HONOURED_HOOKS.get(name, {})
        for key, functions in getattr(app, name).items():
            found += [
                f"{name}[{key!r}]: {getattr(f, '__qualname__', f)!s}"
                for f in functions
                if f not in honoured.get(key, ())
            ]
    found += [f"teardown_appcontext: {f.__qualname__}" for f in app.teardown_appcontext_funcs]
    if "wsgi_app" in vars(app):
        found.append("a WSGI middleware around app.wsgi_app")
    return found


class CompanionASGI:
    """ASGI application around the companion's Flask app.

    Args:
        app: the Flask app from :func:`companion.create_app`.
        threads: worker threads for the Flask requests (actions, state, pages ...).
        body_seconds: deadline for a request body.

    The app's ``HEARTBEAT_SECONDS`` and ``STREAM_SECONDS`` apply to the live streams (the
    Flask route reads them).
    """

    def __init__(self, app: Flask, *, threads: int, body_seconds: float = BODY_SECONDS) -> None:
        self.flask = app
        self.service: TableService = app.extensions[EXTENSION]
        self.executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="companion")
        self.body_seconds = body_seconds
        self.script_name = os.environ.get("SCRIPT_NAME", "")
        """a2wsgi puts this before every path: then the direct action route stays off (as
        with an ASGI ``root_path`` or Flask's ``TRUSTED_HOSTS``)."""
        self.sockets = SocketChannel(self)
        """The WebSocket channel (:mod:`companion.sockets`)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Dispatch one ASGI connection scope (lifespan, http, websocket)."""
        kind = scope["type"]
        if kind == "lifespan":
            await self._lifespan(receive, send)
        elif kind == "http":
            method = scope["method"]
            if method == "POST" and (match := ACTION_PATH.fullmatch(scope["path"])):
                await self._action(scope, receive, send, match.group(1))
            else:
                await self._wsgi(scope, receive, send)
        elif kind == "websocket":
            await self.sockets(scope, receive, send)

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
                await self._refuse(scope, send, self._too_large())
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
            late = f"the request body did not arrive within {self.body_seconds:g} s"
            await self._refuse(scope, send, RequestTimeout(late))
            return None
        if too_large:
            await self._refuse(scope, send, self._too_large())
            return None
        return b"".join(chunks)

    @staticmethod
    def _too_large() -> HTTPException:
        return RequestEntityTooLarge(f"request bodies are limited to {MAX_REQUEST_BODY} bytes")

    async def _refuse(self, scope: Scope, send: Send, error: HTTPException) -> None:
        """Answer a request this layer refuses before its body is in (408, 413) with the Flask
        app's own error handler, and close the connection (the rest of the body is unread)."""
        loop = asyncio.get_running_loop()
        status, headers, content = await loop.run_in_executor(
            self.executor, self.flask_error, self.environ(scope, b""), error
        )
        headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    @staticmethod
    def environ(scope: Scope, body: bytes) -> dict[str, Any]:
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
        (status, headers, content), stream = await self.flask_answer(scope, body)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if stream is not None:  # Flask answered with a live stream: drive it here
            await self._drive(stream, receive, send)
        else:
            await send({"type": "http.response.body", "body": content})

    async def flask_answer(self, scope: Scope, body: bytes) -> tuple[Answer, Stream | None]:
        """The Flask app's whole answer to a request whose body has arrived (in a worker
        thread), and the live stream its route opened where it answered 200 with one (the
        caller drives it, :meth:`pump`; else None)."""
        environ = self.environ(scope, body)
        taken: list[Stream] = []
        environ[LIVE_STREAM] = taken
        loop = asyncio.get_running_loop()
        answer = await loop.run_in_executor(self.executor, self._call, environ)
        return answer, taken[0] if taken and answer[0] == 200 else None

    # ------------------------------------------------------------------ direct action route

    async def _action(self, scope: Scope, receive: Receive, send: Send, table_id: str) -> None:
        """``POST /api/t/<table>/actions`` without Flask where Flask would accept the request
        as it is (Flask and its WSGI environ cost a third of an action).

        The request goes to the Flask app unchanged (and is answered there, refusals
        included) unless: its headers are unambiguous (``Host``, ``Origin``,
        ``Sec-Fetch-Site``, ``Content-Type`` and ``X-Seat-Token`` at most once each, a
        ``Host`` given), it is not cross-site (:func:`companion.security.is_cross_site`, the
        test Flask runs before every request), the app has no hook this route would skip
        (:func:`unknown_hooks`), the body is within ``MAX_CONTENT_LENGTH`` and is
        ``application/json`` that parses. Then the action is decided on the event loop
        (:meth:`companion.tables.writes.Writes.submit_soon`), or, where it cannot be there,
        by :func:`companion.api.post_action` (the Flask route's own function) in one worker
        thread; a refusal is answered by the Flask app's error handlers
        (:meth:`flask_error`), so the shapes are the same.
        """
        body = await self._read_body(scope, receive, send)
        if body is None:
            return
        status, headers, content = await self.action_answer(scope, body, table_id)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    async def action_answer(
        self, scope: Scope, body: bytes, table_id: str, parsed: Any = UNPARSED
    ) -> Answer:
        """The answer to an action whose body has arrived, as :meth:`_action` says: decided
        on the event loop where Flask would accept the request as it is, else by Flask
        (:meth:`flask_answer`). The WebSocket channel's actions come here too
        (:mod:`companion.sockets`), with ``parsed``: the body already parsed (``body`` is its
        JSON text), so it is not parsed again."""
        direct = self._direct_request(scope, body, parsed)
        if direct is None:
            return (await self.flask_answer(scope, body))[0]
        token, parsed = direct
        loop = asyncio.get_running_loop()
        try:
            text = await self.service.submit_soon(table_id, token, parsed)
        except Exception as exc:  # noqa: BLE001 - answered by the app's error handlers
            return await loop.run_in_executor(
                self.executor, self.flask_error, self.environ(scope, body), exc
            )
        if text is None:  # not on the loop now: the whole action in a worker thread
            return await loop.run_in_executor(
                self.executor, self._direct_action, scope, body, table_id, token, parsed
            )
        return self._ok(text)

    def _direct_request(
        self, scope: Scope, body: bytes, parsed: Any = UNPARSED
    ) -> tuple[str | None, Any] | None:
        """(token, parsed JSON body) of an action request the Flask app would accept as it
        is, else None (Flask answers it)."""
        app = self.flask
        if scope.get("root_path") or self.script_name or app.config.get("TRUSTED_HOSTS"):
            return None
        if unknown_hooks(app):
            return None  # Flask runs the hooks
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
        if parsed is UNPARSED:
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
            return self.flask_error(self.environ(scope, body), exc)
        return self._ok(text)

    @staticmethod
    def _ok(text: str) -> Answer:
        """The 200 answer of an action (:func:`companion.api.action_answer`)."""
        content, headers = action_answer(text)
        return (
            200,
            [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
            content,
        )

    def flask_error(
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

    def _call(self, environ: dict[str, Any], wsgi: Callable[..., Any] | None = None) -> Answer:
        """Run the Flask app (or another WSGI callable) in a worker thread and collect its
        whole answer; the body of a live stream the route handed over (:data:`LIVE_STREAM`)
        is not read here (:meth:`_drive` sends it), unless the answer is not its 200."""
        started: list[Any] = []
        written: list[bytes] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Any:
            started[:] = [status, headers]
            return written.append

        result = (wsgi or self.flask)(environ, start_response)
        taken = environ.get(LIVE_STREAM)
        stream: Stream | None = taken[0] if taken else None
        try:
            if stream is not None and started[0].startswith("200 "):
                stream.detach()  # the event loop drives it; closing the answer keeps it open
            else:
                if stream is not None:
                    stream.close()  # a hook answered something else: give the slot back
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

    async def _drive(self, stream: Stream, receive: Receive, send: Send) -> None:
        """Send a live stream the Flask route opened as the body of its answer (:meth:`pump`),
        until the phone goes away (``http.disconnect``)."""

        async def emit(text: str) -> None:
            await send({"type": "http.response.body", "body": text.encode(), "more_body": True})

        async def until_gone() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        try:
            if not await self.pump(stream, emit, until_gone):
                await send({"type": "http.response.body", "body": b""})
        except OSError:
            pass  # the phone went away while we wrote

    async def pump(
        self,
        stream: Stream,
        emit: Callable[[str], Awaitable[None]],
        watch: Callable[[], Awaitable[None]],
    ) -> bool:
        """Drive a live stream the Flask route opened, on the event loop: its frames as
        :func:`companion.tables.sse.stream_loop` yields them go to ``emit``, each wait is on
        the hub's wake-up for the table; ``watch`` runs beside it and returns when the phone
        went away (the SSE answer's disconnect, the WebSocket's reader). The one driver of
        both channels; the slot is given back at the end.

        Returns:
            True when the phone went away (``watch`` returned or raised), False when the
            stream ended by itself (its deadline, the slot taken back, server shutdown).

        Raises:
            OSError: from ``emit`` (the phone went away while we wrote).
        """
        slot = stream.slot
        hub = self.service.hub
        table_id = slot.table.id
        wake = hub.subscribe(table_id)
        gone = False

        async def watcher() -> None:
            nonlocal gone
            try:
                await watch()
            finally:
                gone = True
                wake.set()

        watching = asyncio.create_task(watcher())
        frames = stream.loop
        reply: bool | None = None
        try:
            while not gone:
                try:
                    step = frames.send(reply)
                except StopIteration:
                    break
                if isinstance(step, str):
                    reply = None
                    await emit(step)
                    continue
                try:
                    async with asyncio.timeout(step.seconds):
                        await wake.wait()  # no task per wait, unlike wait_for
                    reply = False
                except TimeoutError:
                    reply = True
                wake.clear()  # before the loop looks again: a later change sets it anew
            return gone
        finally:
            watching.cancel()
            hub.unsubscribe(table_id, wake)
            frames.close()
            slot.release()
