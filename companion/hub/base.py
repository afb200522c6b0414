"""The hub's interface: how the live streams of a table learn that it changed (the pub/sub seam).

Two implementations, chosen by URL (``tablesmith serve --pubsub``, :mod:`companion.hub.factory`;
ARCHITECTURE.md, *Next shape of the companion*):

* :class:`companion.hub.local.LocalHub` (default): one process. A write (in a worker thread)
  wakes the table's streams on the event loop with one ``call_soon_threadsafe`` per write,
  whatever the number of streams.
* :class:`companion.hub.redis.RedisHub` (``redis://...``): several processes serve the same
  tables; every write is also published on a Redis channel, and every other process catches
  the table up from the shared event log and wakes its own streams.

Messages are small JSON objects ``{"t": table id, "r": revision, "o": origin process}`` or, for
presence, ``{"t", "p": {seat: open stream count}, "o"}`` (live streams and sockets) and ``{"t",
"h": {seat: UNIX seconds}, "o"}`` (a seat's last request, at most every
:data:`companion.tables.seats.HEARD_SHARE_SECONDS` per seat and process); the event log itself never travels
through the hub (the store is the truth, the hub only says "look again").
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

RemoteHandler = Callable[[dict[str, Any]], None]
"""Called (on the event loop) with each message another process published."""
CountsSource = Callable[[], dict[str, dict[str, int]]]
"""This process's open streams per seat, per table that has any
(:meth:`companion.tables.service.TableService.stream_counts`)."""
ExpireHandler = Callable[[float], None]
"""Forget other processes' stream counts not heard for that many seconds
(:meth:`companion.tables.service.TableService.expire_remote`)."""


class HubUnavailable(RuntimeError):
    """A shared hub's server cannot be reached (or refuses us); the message names the URL
    without its password."""


class Hub(Protocol):
    """What :class:`companion.tables.service.TableService` and the event loop
    (:mod:`companion.asgi`) need of a hub. Streams :meth:`subscribe` on the event loop;
    writers :meth:`notify` from any thread; the three ``on_*`` handlers are set by the table
    service before :meth:`start`."""

    url: str
    """``"local"``, or the shared hub's URL without its password."""
    on_remote: RemoteHandler | None
    on_counts: CountsSource | None
    on_expire: ExpireHandler | None

    def check(self) -> None:
        """Make sure the hub can be used before the server starts (a shared hub: that its
        server answers).

        Raises:
            HubUnavailable: it cannot (the message says why).
        """

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Bind to the server's event loop (first call wins)."""

    async def start(self) -> None:
        """Start listening to other processes (on the server's event loop)."""

    async def stop(self) -> None:
        """Stop listening."""

    def subscribe(self, table_id: str) -> asyncio.Event:
        """An event set whenever ``table_id`` changes (event loop thread only)."""
        ...

    def unsubscribe(self, table_id: str, wake: asyncio.Event) -> None:
        """Forget a subscription (event loop thread only)."""

    def wake(self, table_id: str) -> None:
        """Set every subscription of a table (event loop thread only)."""

    def wake_all(self) -> None:
        """Set every subscription (server shutdown); any thread."""

    def notify(self, table_id: str, revision: int) -> None:
        """A table changed in this process (any thread): wake its streams here and tell the
        other processes."""

    def wake_table(self, table_id: str) -> None:
        """Wake a table's streams in this process only (any thread)."""

    def notify_presence(self, table_id: str, counts: dict[str, int], *, wake: bool) -> None:
        """This process's open streams per seat of a table changed (any thread)."""

    def notify_heard(self, table_id: str, seat: str, at: float) -> None:
        """A seat's phone made a request here at ``at`` (UNIX seconds; any thread): tell the
        other processes (``{"t", "h": {seat: at}, "o"}``), so that none of them lets a seat
        code take the seat of a phone that is at the table through another process."""
