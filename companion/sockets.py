"""The WebSocket channel: one socket per table page carries the phone's writes and the table's
live stream (``tablesmith serve``, uvicorn; waitress keeps Server-Sent Events + POST only).

Why: a tap over HTTP costs a request (uvicorn's protocol, the ASGI round trip, headers); on a
socket it is one message. Nothing about a write or a stream is decided here: every message is
turned into the HTTP request it stands for and answered by the same code
(:meth:`companion.asgi.CompanionASGI.action_answer` for actions, the Flask routes for the
other writes and for the stream), so the checks, refusals, acknowledgements (after the
commit), duplicate answers and catch-up are those of SSE + POST, byte for byte.

The protocol (JSON text frames; the page's side is ``companion/static/socket.js``):

1. ``GET /api/t/<table>/socket`` upgrades. A cross-site ``Origin`` (or ``Sec-Fetch-Site:
   cross-site``) is refused at the handshake (403, as a cross-site POST).
2. The phone's first message, within :data:`HELLO_SECONDS`: ``{"token": "<seat or watch
   token>", "since": <the last seq it has>}``. The token travels in the message, never in the
   URL (which proxies log). It opens the stream exactly as ``GET /api/t/<table>/events?since=``
   with ``X-Seat-Token`` would (:func:`companion.api.events`): refused, the socket gets
   ``{"re": 0, "status": <the status>, "body": <the refusal's JSON>}`` and is closed with code
   ``4000 + status`` (4403, 4404, 4429, 4503 ...); accepted, the stream's frames follow.
3. Stream frames are the Server-Sent Events text of :mod:`companion.tables.sse` unchanged, one
   or more events per message (``retry: 1500`` first, then ``id: <seq>\\ndata: {...}`` and
   ``: heartbeat``): one stream loop for both channels (:meth:`CompanionASGI.pump`).
4. A write: ``{"re": <1..10^15>, "post": "actions" | "deck" | "dice" | "counters" | "clock",
   "body": {...}}``, the body that ``POST /api/t/<table>/<post>`` takes. The answer:
   ``{"re": <the same>, "status": <the HTTP status>, "body": <the HTTP answer's body, the same
   bytes>}`` with ``"retry_after": <seconds>`` where the HTTP answer has ``Retry-After``. A
   socket's writes are decided one after another, in the order sent.
5. The stream ends (its ``STREAM_SECONDS`` lifetime, the seat's slot taken back, a revoked
   token after its ``revoked`` frame) -> the socket closes with 1000; server shutdown -> 1012.
   The page reconnects with its ``since``, or falls back to SSE + POST by itself.

Limits (each refused as stated; ``tests/companion/test_sockets.py`` tests at and past them):

* a message is at most :func:`max_message` bytes (``MAX_CONTENT_LENGTH`` + :data:`ENVELOPE`):
  beyond, uvicorn closes the socket with 1009;
* at most :data:`RATE` messages (any: a malformed one counts too) per :data:`RATE_SECONDS`
  per socket: beyond, the message is
  answered 429 ``rate_limited`` (``retry_after``: the seconds until one may pass, rounded up)
  and not carried out;
* the hello within :data:`HELLO_SECONDS` of the upgrade, else closed with 1008;
* sockets per table: a socket holds a live stream's slot, so the stream budgets apply
  (:mod:`companion.tables.budgets`: a seat's :data:`~companion.tables.budgets.SEAT_STREAMS`,
  a new one ending its oldest; a table's watchers 429 past
  :data:`~companion.tables.budgets.WATCH_STREAMS`; 503 ``server_full`` past the server's).
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import Executor
from typing import Any, Protocol
from urllib.parse import quote

from werkzeug.sansio.utils import get_host

from companion.security import is_cross_site
from companion.tables.rejected import Rejected
from companion.tables.service import TableService
from companion.tables.sse import Stream

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]
"""An HTTP answer collected from the app: status, headers, body."""


class Server(Protocol):
    """What the channel uses of the ASGI application that serves it
    (:class:`companion.asgi.CompanionASGI`): its routes' answers and its stream driver."""

    @property
    def service(self) -> TableService:
        """The app's tables."""

    @property
    def executor(self) -> Executor:
        """The worker threads of the Flask requests."""

    async def flask_answer(self, scope: Scope, body: bytes) -> tuple[Answer, Stream | None]:
        """The Flask app's answer, and the live stream its route opened."""

    async def action_answer(
        self, scope: Scope, body: bytes, table_id: str, parsed: Any = ...
    ) -> Answer:
        """The answer to an action (on the event loop where it can be), its body parsed."""

    async def pump(
        self,
        stream: Stream,
        emit: Callable[[str], Awaitable[None]],
        watch: Callable[[], Awaitable[None]],
    ) -> bool:
        """Drive a live stream until it ends or ``watch`` returns."""

    def environ(self, scope: Scope, body: bytes) -> dict[str, Any]:
        """The WSGI environ of a request."""

    def flask_error(self, environ: dict[str, Any], error: Exception) -> Answer:
        """The app's error handlers' answer to ``error``."""


SOCKET_PATH = re.compile(r"(.*/api/t/([A-Za-z0-9_-]{1,64})/)socket")
"""The socket's route (table ids are URL-safe tokens); group 1 is the table's API prefix."""
WRITES = ("actions", "deck", "dice", "counters", "clock")
"""The writes a socket carries: the POST routes of the table (:mod:`companion.api`)."""
HELLO_SECONDS = 10.0
"""The phone's first message (its token) must arrive within this many seconds."""
RATE = 20
"""Messages a socket may send per :data:`RATE_SECONDS` (a phone taps a few per second)."""
RATE_SECONDS = 1.0
ENVELOPE = 1024
"""Bytes a message may have beyond the app's ``MAX_CONTENT_LENGTH`` (its ``re`` and ``post``)."""
MAX_RE = 10**15
DROPPED = (
    b"upgrade",
    b"connection",
    b"content-length",
    b"content-type",
    b"x-seat-token",
    b"last-event-id",
)
"""Handshake headers the socket's requests do not carry over (a token only from the hello)."""
CLOSE_NORMAL = 1000
CLOSE_POLICY = 1008
CLOSE_RESTART = 1012


def max_message(max_content_length: int | None, fallback: int) -> int:
    """The largest message a socket takes, in bytes: the app's body limit plus
    :data:`ENVELOPE` (``fallback`` where the app has no limit)."""
    return (max_content_length if max_content_length is not None else fallback) + ENVELOPE


class Malformed(Exception):
    """A socket message that is not the protocol's (answered 400 ``malformed``)."""


class SocketChannel:
    """The WebSocket channel of a :class:`companion.asgi.CompanionASGI` (``scope["type"] ==
    "websocket"``). Stateless between sockets: each call serves one socket to its end."""

    def __init__(self, asgi: Server) -> None:
        self.asgi = asgi
        self.hello_seconds = HELLO_SECONDS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one socket: handshake, hello, then the stream and the writes."""
        if (await receive())["type"] != "websocket.connect":
            return
        match = SOCKET_PATH.fullmatch(scope["path"])
        if match is None or self._cross_site(scope):
            await send({"type": "websocket.close", "code": CLOSE_POLICY})  # 403 at the handshake
            return
        await send({"type": "websocket.accept"})
        try:
            async with asyncio.timeout(self.hello_seconds):
                hello = await receive()
        except TimeoutError:
            await send({"type": "websocket.close", "code": CLOSE_POLICY, "reason": "no hello"})
            return
        if hello["type"] != "websocket.receive":
            return
        await Socket(self.asgi, scope, match.group(1), match.group(2), receive, send).serve(hello)

    @staticmethod
    def _cross_site(scope: Scope) -> bool:
        """The cross-site test of every write (:func:`companion.security.is_cross_site`) on the
        handshake; a handshake without ``Host`` counts as cross-site."""
        seen: dict[bytes, str] = {}
        for name, value in scope["headers"]:
            if name in (b"host", b"origin", b"sec-fetch-site"):
                if name in seen:
                    return True  # ambiguous
                seen[name] = value.decode("latin-1")
        if b"host" not in seen:
            return True
        host = get_host("https" if scope.get("scheme") == "wss" else "http", seen[b"host"])
        return is_cross_site("POST", host, seen.get(b"sec-fetch-site"), seen.get(b"origin"))


class Socket:
    """One accepted socket: its requests' scopes, its rate, its answers."""

    def __init__(
        self,
        asgi: Server,
        scope: Scope,
        prefix: str,
        table_id: str,
        receive: Receive,
        send: Send,
    ) -> None:
        self.asgi = asgi
        self.scope = scope
        self.prefix = prefix
        self.table_id = table_id
        self.receive = receive
        self.send = send
        self.headers = [
            (k, v)
            for k, v in scope["headers"]
            if k not in DROPPED and not k.startswith(b"sec-websocket-")
        ]
        self.token: bytes | None = None
        self.sent_at: deque[float] = deque()
        self.closed = False

    def request(self, method: str, route: str, query: str = "") -> Scope:
        """The HTTP scope of the request a message stands for (``route`` under the table's
        API), with the handshake's headers and the hello's token."""
        path = self.prefix + route
        headers = list(self.headers)
        if method == "POST":
            headers.append((b"content-type", b"application/json"))
        if self.token is not None:
            headers.append((b"x-seat-token", self.token))
        return {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "https" if self.scope.get("scheme") == "wss" else "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": self.scope.get("root_path", ""),
            "query_string": query.encode(),
            "headers": headers,
            "client": self.scope.get("client"),
            "server": self.scope.get("server"),
        }

    async def serve(self, hello: Message) -> None:
        """Open the stream the hello asks for, then drive it and read the writes."""
        try:
            query = self._hello(hello)
        except Malformed as exc:
            answer = await self._refusal(Rejected(400, "malformed", str(exc)))
            await self._refuse(answer)
            return
        answer, stream = await self.asgi.flask_answer(self.request("GET", "events", query), b"")
        if stream is None:
            await self._refuse(answer)
            return
        try:
            gone = await self.asgi.pump(stream, self._emit, self._read)
        except OSError:
            return
        if not gone and not self.closed:
            code = CLOSE_RESTART if self.asgi.service.closed.is_set() else CLOSE_NORMAL
            await self._close(code)

    def _hello(self, hello: Message) -> str:
        """The hello's token (kept for the socket's requests) and the stream's query string.

        Raises:
            Malformed: not a JSON object with a string token and an integer since.
        """
        text = hello.get("text")
        try:
            parsed = json.loads(text) if text is not None else None
        except (ValueError, RecursionError):  # RecursionError: nested past Python's stack
            parsed = None
        if not isinstance(parsed, dict):
            raise Malformed('the first message must be {"token": ..., "since": ...}')
        token = parsed.get("token")
        if isinstance(token, str):
            try:
                encoded = token.encode("latin-1")
            except UnicodeEncodeError:
                encoded = b""
            if encoded and b"\r" not in encoded and b"\n" not in encoded:
                self.token = encoded
        since = parsed.get("since", 0)
        if isinstance(since, bool) or not isinstance(since, (int, str)):
            raise Malformed(f"since must be a sequence number, got {since!r:.60}")
        return "since=" + quote(str(since))

    async def _emit(self, text: str) -> None:
        await self.send({"type": "websocket.send", "text": text})

    async def _read(self) -> None:
        """The socket's reader (beside the stream): each write answered in turn, until the
        phone goes away."""
        while True:
            message = await self.receive()
            if message["type"] == "websocket.disconnect":
                self.closed = True
                return
            answer = await self._answer(message)
            await self.send({"type": "websocket.send", "text": answer})

    async def _answer(self, message: Message) -> str:
        """The answer to one write message (its ``re``, the HTTP status and body)."""
        re_: int | None = None
        wait = self._wait()  # every message counts, a malformed one too (each costs an answer)
        try:
            text = message.get("text")
            if text is None:
                raise Malformed("messages are JSON text frames")
            try:
                parsed = json.loads(text)
            except (ValueError, RecursionError):
                raise Malformed("the message is not JSON") from None
            if not isinstance(parsed, dict):
                raise Malformed('a write is {"re": ..., "post": ..., "body": ...}')
            re_ = parsed.get("re")
            if isinstance(re_, bool) or not isinstance(re_, int) or not 1 <= re_ <= MAX_RE:
                re_ = None
                raise Malformed(f"re must be an integer in 1..{MAX_RE}")
            if wait:
                return framed(re_, await self._refusal(self._rate_limited(wait)))
            post = parsed.get("post")
            if post not in WRITES:
                raise Malformed(f"post must be one of {', '.join(WRITES)}, got {post!r:.60}")
            content = parsed.get("body")
            body = json.dumps(content, separators=(",", ":"), ensure_ascii=False)
        except Malformed as exc:
            if wait:  # past the rate: refused as such, whatever the message was
                return framed(re_, await self._refusal(self._rate_limited(wait)))
            return framed(re_, await self._refusal(Rejected(400, "malformed", str(exc))))
        scope = self.request("POST", post)
        raw = body.encode()
        if post == "actions":
            return framed(re_, await self.asgi.action_answer(scope, raw, self.table_id, content))
        return framed(re_, (await self.asgi.flask_answer(scope, raw))[0])

    @staticmethod
    def _rate_limited(wait: float) -> Rejected:
        return Rejected(
            429,
            "rate_limited",
            f"a socket sends at most {RATE} messages per {RATE_SECONDS:g} s",
            retry_after=max(1, math.ceil(wait)),
        )

    def _wait(self) -> float:
        """Count a message against the socket's rate: 0 when it may pass, else (past
        :data:`RATE`, not counted) the seconds until the oldest counted one leaves the
        window."""
        now = time.monotonic()
        sent = self.sent_at
        while sent and sent[0] <= now - RATE_SECONDS:
            sent.popleft()
        if len(sent) >= RATE:
            return max(sent[0] + RATE_SECONDS - now, 1e-3)
        sent.append(now)
        return 0.0

    async def _refusal(self, error: Rejected) -> Answer:
        """A refusal of this layer, answered by the app's error handlers (the same shape as
        every refusal under ``/api/``)."""
        loop = asyncio.get_running_loop()
        environ = self.asgi.environ(self.request("POST", "socket"), b"")
        return await loop.run_in_executor(self.asgi.executor, self.asgi.flask_error, environ, error)

    async def _refuse(self, answer: Answer) -> None:
        """Tell the phone why its socket is refused, and close it with 4000 + the status."""
        await self.send({"type": "websocket.send", "text": framed(0, answer)})
        await self._close(4000 + answer[0])

    async def _close(self, code: int) -> None:
        self.closed = True
        await self.send({"type": "websocket.close", "code": code})


def framed(re_: int | None, answer: Answer) -> str:
    """``{"re", "status", "body", "retry_after"?}``: an HTTP answer as the socket sends it, the
    body's bytes unchanged (a JSON document under ``/api/``; any other body as a string)."""
    status, headers, content = answer
    retry = ""
    is_json = False
    for name, value in headers:
        if name == b"retry-after" and value.isdigit():
            retry = f',"retry_after":{int(value)}'
        elif name == b"content-type":
            is_json = value.split(b";")[0].strip() == b"application/json"
    body = content.decode() if is_json and content else json.dumps(content.decode("latin-1"))
    number = "null" if re_ is None else str(re_)
    return f'{{"re":{number},"status":{status},"body":{body}{retry}}}'
