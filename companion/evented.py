"""The companion's default server: uvicorn (event loop) around :class:`companion.asgi.CompanionASGI`.

Why: with waitress every open live stream held a worker thread, so a few
hundred phones used up the server. Here a stream is a coroutine; threads only run the short
Flask requests. uvicorn runs on Linux, macOS and Windows: with uvloop where it is installed
(Linux, macOS), else asyncio's own loop (Windows: the proactor loop); HTTP is parsed by
httptools (wheels for all three). ``tablesmith serve --server waitress`` keeps the previous
thread-per-stream server for a machine where uvicorn cannot run.

Measured and not taken: granian 2.8.9 (a Rust HTTP server) running the same
:class:`CompanionASGI` through its ASGI interface (one runtime thread, the app's 16 worker
threads, ``benchmarks/companion_load.py``, alternating with uvicorn on one 2-core machine,
2026-12-03). At 500 tables x 2 phones it used 1.25 ms of CPU per action against uvicorn's 1.09;
at 1,000 tables 1.10-1.15 ms against 0.79-0.83, and it fell behind (686-713 actions/s of 1,000,
action p99 over 100 s, against 973-979 actions/s and 190-340 ms). Its ASGI bridge costs more
per request than uvicorn's httptools protocol; its fast path (RSGI) is an interface of its own
that the live streams and the header deadlines below would have to be rewritten for.

Protection against clients that hold connections without finishing anything:

* request headers must be complete within :data:`HEADER_SECONDS` of the connection or of the
  first byte of the next request on it (slowloris), else the connection is closed;
  bodies within :data:`companion.asgi.BODY_SECONDS` (408); an idle keep-alive connection is
  closed after :data:`KEEP_ALIVE_SECONDS`;
* a phone that vanished without closing its connection (Wi-Fi gone, battery flat) is noticed by
  the next heartbeat write: ``TCP_USER_TIMEOUT`` (Linux) aborts a connection whose sent data
  stays unacknowledged for :data:`UNACKED_SECONDS`, so its stream is freed within
  ``HEARTBEAT_SECONDS + UNACKED_SECONDS`` (5 + 5 s by default), not after minutes of TCP
  retransmissions; elsewhere TCP keepalive probes do it more slowly;
* the open connections are capped (:func:`connection_cap`, from the descriptor limit, which is
  raised to its hard maximum at start); beyond the cap uvicorn answers 503 at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import socket
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import uvicorn
from flask import Flask
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from companion.asgi import BODY_SECONDS, MAX_REQUEST_BODY, CompanionASGI
from companion.proxy import NO_PROXY, TrustedProxies
from companion.sockets import max_message

HEADER_SECONDS = 10.0
"""Request headers must be complete within this many seconds."""
KEEP_ALIVE_SECONDS = 15
"""An idle keep-alive connection is closed after this many seconds."""
UNACKED_SECONDS = 5.0
"""A connection whose sent data stays unacknowledged this long is aborted (Linux)."""
RESERVED_FDS = 256
"""Descriptors kept free for everything that is not a client connection."""
MAX_CONNECTIONS = 20_000
"""Client connections at most, whatever the descriptor limit."""
ACTION_CONNECTIONS = 256
"""Connections kept free of live streams, for actions and page loads."""
GC_THRESHOLDS = (50_000, 20, 100)
"""Python's cyclic garbage collector thresholds while serving (default 700, 10, 10)."""


def tune_gc() -> None:
    """Keep the cyclic garbage collector's pauses out of the phones' answers.

    With the default thresholds a full collection runs every few seconds under load and walks
    every object of every table and stream, which shows as a long tail of slow answers. Here
    what exists at start is frozen (:func:`gc.freeze`: never scanned again) and collections run
    less often (:data:`GC_THRESHOLDS`), at the same memory; ``benchmarks/companion_load.py``
    measures the effect (numbers in docs/companion.md, *Speed*). Called by ``tablesmith serve``
    only (not by tests that run a server inside their own process).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def raise_fd_limit() -> int:
    """Raise the soft descriptor limit to the hard one (Unix); returns the limit now in force
    (Windows: :data:`MAX_CONNECTIONS` + :data:`RESERVED_FDS`, it has no such limit)."""
    try:
        import resource
    except ImportError:
        return MAX_CONNECTIONS + RESERVED_FDS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 1 << 20
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    return int(soft if soft != resource.RLIM_INFINITY else 1 << 20)


def connection_cap(fd_limit: int) -> int:
    """Client connections allowed at once: ``fd_limit - RESERVED_FDS``, between 64 and
    :data:`MAX_CONNECTIONS`."""
    return max(64, min(MAX_CONNECTIONS, fd_limit - RESERVED_FDS))


def stream_cap(connections: int) -> int:
    """Live streams allowed at once: the connections less :data:`ACTION_CONNECTIONS`
    (at least half of them)."""
    return max(connections // 2, connections - ACTION_CONNECTIONS)


def tune_socket(sock: socket.socket | None) -> None:
    """Per-connection TCP options: no Nagle delay, keepalive, and (Linux) TCP_USER_TIMEOUT."""
    if sock is None:
        return
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    user_timeout = getattr(socket, "TCP_USER_TIMEOUT", None)
    if user_timeout is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, user_timeout, int(UNACKED_SECONDS * 1000))
    for name, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 2)):
        option = getattr(socket, name, None)
        if option is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_TCP, option, value)


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline for request headers and tuned sockets."""

    header_seconds = HEADER_SECONDS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Tune the socket and start the header deadline."""
        self._header_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        tune_socket(transport.get_extra_info("socket"))
        self._arm()

    def on_message_begin(self) -> None:
        """A request starts: its headers must be complete in time."""
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        """Headers complete: the deadline is met."""
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the deadline with the connection."""
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


class EventedServer(uvicorn.Server):
    """uvicorn's server that ends the live streams as soon as it is asked to stop.

    ``on_exit`` is called on SIGINT/SIGTERM (before the graceful shutdown waits for open
    connections); the signal is not re-raised afterwards, so ``tablesmith serve`` ends normally.
    """

    on_exit: Callable[[], None] = staticmethod(lambda: None)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """Stop: first time gracefully (streams end at once), second SIGINT at once."""
        if self.should_exit and sig == 2:
            self.force_exit = True
        else:
            self.should_exit = True
        self.on_exit()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's shutdown, then the connections still open are closed: a request that
        outlived the graceful timeout has its task cancelled by uvicorn but its connection
        left open, and its socket would be closed only by the garbage collector (a
        ResourceWarning) after the event loop is gone."""
        await super().shutdown(sockets)
        for connection in list(self.server_state.connections):
            transport = getattr(connection, "transport", None)
            if transport is not None and not transport.is_closing():
                transport.close()
        await asyncio.sleep(0.05)  # let the transports finish closing on this loop

    @property
    def started_listening(self) -> bool:
        """True once the sockets accept connections."""
        return bool(self.started)


def listen_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket for ``host:port`` (0: a free port).

    Raises:
        OSError: the address cannot be used (``socket.gaierror`` for an unknown host).
    """
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        if sys.platform != "win32":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(2048)
        sock.set_inheritable(True)
    except BaseException:
        sock.close()
        raise
    return sock


def create_evented_server(
    app: Flask,
    *,
    host: str,
    port: int,
    threads: int,
    connections: int | None = None,
    log_level: str = "warning",
    body_seconds: float = BODY_SECONDS,
    proxies: TrustedProxies = NO_PROXY,
) -> tuple[EventedServer, socket.socket]:
    """The uvicorn server for the companion and its (already bound) listening socket.

    Run it with ``server.run(sockets=[sock])``. The app's stream budget (``MAX_STREAMS``) is
    set from the connection cap unless the config already has one.

    Args:
        app: the companion app.
        host: address to listen on.
        port: TCP port (0: a free one; ``sock.getsockname()[1]``).
        threads: worker threads for the Flask requests.
        connections: connection cap; default :func:`connection_cap` of the raised descriptor limit.
        log_level: uvicorn's log level.
        body_seconds: deadline for a request body (408 after it).
        proxies: the proxies whose X-Forwarded-For/-Proto are believed
            (:mod:`companion.proxy`; default none: the peer is the client).

    Raises:
        OSError: the address cannot be used.
    """
    cap = connections if connections is not None else connection_cap(raise_fd_limit())
    service = app.extensions["tablesmith.tables"]
    if service.max_streams is None:
        service.max_streams = stream_cap(cap)
    sock = listen_socket(host, port)
    config = uvicorn.Config(
        CompanionASGI(app, threads=threads, body_seconds=body_seconds),
        http=GuardedProtocol,
        # the WebSocket channel (companion.sockets): wsproto (pure Python, a dependency of
        # ours); no per-message deflate (CPU for a few hundred bytes) and no pings (the
        # stream's heartbeats and TCP_USER_TIMEOUT find a vanished phone)
        ws="wsproto",
        ws_max_size=max_message(app.config.get("MAX_CONTENT_LENGTH"), MAX_REQUEST_BODY),
        ws_per_message_deflate=False,
        ws_ping_interval=None,
        lifespan="on",
        log_level=log_level,
        access_log=False,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=3,
        limit_concurrency=cap,
        backlog=2048,
        server_header=False,
        date_header=False,
        **proxies.uvicorn_options(),
    )
    server = EventedServer(config)
    server.on_exit = service.close
    return server, sock


def serve_in_thread(
    app: Flask, *, threads: int = 8, **options: Any
) -> tuple[str, Callable[[], None]]:
    """Run the evented server on a free loopback port in a background thread (tests, tools).

    Returns:
        (base URL, stop function that ends the server and waits for the thread).
    """
    import threading
    import time

    server, sock = create_evented_server(app, host="127.0.0.1", port=0, threads=threads, **options)
    port = sock.getsockname()[1]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.01)

    def stop() -> None:
        server.should_exit = True
        app.extensions["tablesmith.tables"].close()
        thread.join(timeout=10)
        sock.close()

    return f"http://127.0.0.1:{port}", stop
