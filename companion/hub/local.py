"""Fan-out: wake the live streams of a table when it changes (the pub/sub seam).

Two implementations, chosen by URL (``tablesmith serve --pubsub``; ARCHITECTURE.md, *Next
shape of the companion*):

* :class:`LocalHub` (default): one process. A write (in a worker thread) wakes the table's
  streams on the event loop with one ``call_soon_threadsafe`` per write, whatever the number of
  streams.
* :class:`companion.redis_hub.RedisHub` (``redis://...``): several processes serve the same
  tables; every write is also published on a Redis channel, and every other process catches
  the table up from the shared event log and wakes its own streams.

Messages are small JSON objects ``{"t": table id, "r": revision, "o": origin process}`` or, for
presence, ``{"t", "p": {seat: open stream count}, "o"}``; the event log itself never travels
through the hub (the store is the truth, the hub only says "look again").
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

RemoteHandler = Callable[[dict[str, Any]], None]
"""Called (on the event loop) with each message another process published."""
CountsSource = Callable[[], dict[str, dict[str, int]]]
"""This process's open streams per seat, per table that has any
(:meth:`companion.tables.TableService.stream_counts`)."""
ExpireHandler = Callable[[float], None]
"""Forget other processes' stream counts not heard for that many seconds
(:meth:`companion.tables.TableService.expire_remote`)."""
REDIS_SCHEMES = ("redis://", "rediss://", "unix://")
"""``--pubsub`` URLs served by :class:`companion.redis_hub.RedisHub`."""


class LocalHub:
    """In-process fan-out: asyncio events per table, woken from any thread.

    Streams :meth:`subscribe` on the event loop; writers call :meth:`notify` from any thread.
    Before :meth:`attach` (no event loop yet, e.g. the WSGI-only test client) notifications are
    ignored: nothing async listens then.
    """

    url = "local"

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self.on_remote: RemoteHandler | None = None
        self.on_counts: CountsSource | None = None
        self.on_expire: ExpireHandler | None = None

    # -------------------------------------------------------------------------- event loop side

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Bind to the server's event loop (first call wins; later calls are ignored)."""
        if self._loop is None or self._loop.is_closed():
            self._loop = loop
            self._loop_thread = threading.get_ident()

    async def start(self) -> None:
        """Start listening to other processes (nothing to do in one process)."""
        self.attach(asyncio.get_running_loop())

    async def stop(self) -> None:
        """Stop listening (nothing to do in one process)."""

    def subscribe(self, table_id: str) -> asyncio.Event:
        """An event set whenever ``table_id`` changes (event loop thread only)."""
        self.attach(asyncio.get_running_loop())
        wake = asyncio.Event()
        self._waiters.setdefault(table_id, set()).add(wake)
        return wake

    def unsubscribe(self, table_id: str, wake: asyncio.Event) -> None:
        """Forget a subscription (event loop thread only)."""
        waiters = self._waiters.get(table_id)
        if waiters is not None:
            waiters.discard(wake)
            if not waiters:
                del self._waiters[table_id]

    def wake(self, table_id: str) -> None:
        """Set every subscription of a table (event loop thread only)."""
        for wake in self._waiters.get(table_id, ()):
            wake.set()

    def wake_all(self) -> None:
        """Set every subscription (server shutdown); callable from any thread."""

        def wake_every() -> None:
            for waiters in self._waiters.values():
                for wake in waiters:
                    wake.set()

        self._call(wake_every)

    # --------------------------------------------------------------------------- writer side

    def notify(self, table_id: str, revision: int) -> None:
        """A table changed in this process (any thread): wake its streams here (and, for a
        shared hub, tell the other processes)."""
        self._call(lambda: self.wake(table_id))

    def wake_table(self, table_id: str) -> None:
        """Wake a table's streams in this process only (any thread)."""
        self._call(lambda: self.wake(table_id))

    def notify_presence(self, table_id: str, counts: dict[str, int], *, wake: bool) -> None:
        """This process's open streams per seat of a table changed (any thread); ``wake``:
        the table's presence changed, so its streams here send it."""
        if wake:
            self._call(lambda: self.wake(table_id))

    def _call(self, callback: Callable[[], Any]) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            callback()
        else:
            try:
                loop.call_soon_threadsafe(callback)
            except RuntimeError:  # the loop closed meanwhile (shutdown)
                return


def make_hub(url: str | None) -> LocalHub:
    """The hub for a ``--pubsub`` URL: None or ``"local"`` in-process (:class:`LocalHub`);
    ``redis://``, ``rediss://`` (TLS) or ``unix://`` (a Unix socket) a
    :class:`companion.redis_hub.RedisHub` shared by every process given the same URL.

    Raises:
        ValueError: any other URL, or Redis asked for without the ``redis`` package (the
            message names the allowed URLs, or what to install).
    """
    if url is None or url == "local":
        return LocalHub()
    if url.lower().startswith(REDIS_SCHEMES):
        try:
            from companion.redis_hub import RedisHub
        except ImportError as exc:
            raise ValueError(
                "--pubsub redis:// needs the redis package, which is not installed: "
                "pip install 'tablesmith[store]'"
            ) from exc
        return RedisHub(url)
    raise ValueError(
        "--pubsub must be 'local' or a redis://, rediss:// or unix:// URL, "
        f"got {url.split('@')[-1][:60]!r}"
    )
