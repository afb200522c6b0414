"""The companion's WSGI server: waitress, sized so that it cannot run out of file descriptors.

waitress multiplexes its sockets with ``select()`` unless told otherwise, and ``select()``
cannot watch a descriptor numbered 1024 or more: with more open connections than that the whole
server used to die ("filedescriptor out of range in select()"). So:

* ``poll()`` is used where the system has it (Linux, macOS): no descriptor limit;
* the open connections are capped anyway (:func:`connection_limit`) so that connections plus
  the rest of the process (:data:`RESERVED_FDS`: standard streams, listening sockets, waitress's
  wake-up pipe, the SQLite connections of :mod:`companion.store.sqlite`, at most 3 x 5) stay well
  under 1024 and under the process's own descriptor limit; the thread count does not matter,
  because the store no longer keeps a SQLite connection per thread;
* at the cap waitress stops accepting (new connections wait in the kernel's queue, nothing is
  dropped), and connections that sit idle are closed: after :data:`CHANNEL_TIMEOUT` seconds
  always, and after :data:`IDLE_GRACE_SECONDS` while the server is at its cap, so idle sockets
  cannot lock the phones out. A connection in the middle of a request, such as a
  live stream, is never closed for being idle (its heartbeats keep it active anyway).
"""

from __future__ import annotations

import select
import time
import types
from typing import Any

import waitress
from flask import Flask
from waitress.server import BaseWSGIServer

from companion.proxy import NO_PROXY, TrustedProxies

FD_SETSIZE = 1024
"""``select()`` cannot watch descriptors numbered at or above this."""
RESERVED_FDS = 128
"""Descriptors kept free for everything that is not a client connection."""
MAX_CONNECTIONS = 640
"""Client connections open at once, at most (live streams included)."""
CHANNEL_TIMEOUT = 45.0
"""Seconds after which an idle connection (no request in progress) is closed."""
IDLE_GRACE_SECONDS = 2.0
"""While at the connection cap, idle connections older than this are closed."""
CLEANUP_SECONDS = 1.0
"""How often waitress looks for idle connections."""
MAX_REQUEST_BODY = 256 * 1024
"""waitress refuses bodies above this itself (plain-text 413) while reading them, so it never
spills a body into a temporary file (waitress does above 512 KiB: one more descriptor per
connection). The app's own limit (``MAX_CONTENT_LENGTH``, 64 KiB) answers with JSON 413."""


def connection_limit(fd_limit: int | None = None) -> int:
    """Client connections allowed at once, so that all descriptors stay below 1024.

    Args:
        fd_limit: the process's descriptor limit; default: the soft ``RLIMIT_NOFILE``.

    Returns:
        ``min(MAX_CONNECTIONS, min(fd_limit, FD_SETSIZE) - RESERVED_FDS)``, at least 16.
    """
    if fd_limit is None:
        try:
            import resource
        except ImportError:  # Windows: select() there limits sockets, not descriptor numbers
            fd_limit = FD_SETSIZE
        else:
            soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
            fd_limit = FD_SETSIZE if soft == resource.RLIM_INFINITY else soft
    return max(16, min(MAX_CONNECTIONS, min(fd_limit, FD_SETSIZE) - RESERVED_FDS))


def max_streams(threads: int, connections: int) -> int:
    """Live streams allowed at once: 1/8 of the threads (at least 2) stay free for actions,
    and at most half of the connections stream."""
    return max(1, min(threads - max(2, threads // 8), connections // 2))


def _maintenance(server: Any, now: float) -> None:
    """waitress's idle sweep, stricter while the server is at its connection cap."""
    cutoff = now - server.adj.channel_timeout
    if len(server._map) >= server.adj.connection_limit - 1:
        cutoff = max(cutoff, now - IDLE_GRACE_SECONDS)
    for channel in list(server.active_channels.values()):
        if not channel.requests and channel.last_activity < cutoff:
            channel.will_close = True


def create_server(
    app: Flask,
    *,
    host: str,
    port: int,
    threads: int,
    connections: int | None = None,
    channel_timeout: float = CHANNEL_TIMEOUT,
    proxies: TrustedProxies = NO_PROXY,
) -> Any:
    """A waitress server for the companion (not yet running: call ``.run()``).

    Args:
        app: the companion app.
        host: address to listen on.
        port: TCP port (0: a free one, see ``effective_port``).
        threads: worker threads.
        connections: the connection cap; default :func:`connection_limit`.
        channel_timeout: seconds before an idle connection is closed.
        proxies: the proxy whose X-Forwarded-For/-Proto are believed (:mod:`companion.proxy`).

    Raises:
        OSError: the address cannot be used (port taken, unknown host ...).
        ValueError: waitress refuses an argument, or ``proxies`` has more than one address
            (the message starts with ``--trusted-proxy``).
    """
    limit = connection_limit() if connections is None else connections
    server = waitress.create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        connection_limit=limit,
        channel_timeout=channel_timeout,
        cleanup_interval=CLEANUP_SECONDS,
        max_request_body_size=MAX_REQUEST_BODY,
        asyncore_use_poll=hasattr(select, "poll"),
        **proxies.waitress_options(),
    )
    listeners = [server] if isinstance(server, BaseWSGIServer) else list(server.map.values())
    for listener in listeners:
        if isinstance(listener, BaseWSGIServer):
            listener.maintenance = types.MethodType(_maintenance, listener)
            listener.next_channel_cleanup = time.time()
    return server


def bound_port(server: Any) -> int:
    """The TCP port a server from :func:`create_server` listens on (several sockets: the first)."""
    port = getattr(server, "effective_port", None)
    if port is None:
        port = server.effective_listen[0][1]
    return int(port)
