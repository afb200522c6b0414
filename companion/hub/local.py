"""The in-process hub (the default, one ``tablesmith serve`` process): :class:`LocalHub`."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

from companion.hub.base import CountsSource, ExpireHandler, RemoteHandler


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

    def check(self) -> None:
        """Nothing to check: the hub lives in this process."""

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

    def notify_heard(self, table_id: str, seat: str, at: float) -> None:
        """Nothing: one process has no other to tell."""

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
