"""The table service: one object per app that composes the table modules, and its accessor.

:class:`TableService` is a thin facade: every job is done by the module that names it
(:mod:`companion.tables`); it wires them to the one store, dice service and hub of the app and
answers the few reads (the log, the dice history). :func:`tables` gives the app's service
inside a request (flaskr's ``get_db``).
"""

from __future__ import annotations

import json
import time
from typing import Any

from flask import current_app

from companion.dice import DiceService, frequencies
from companion.hub.base import Hub
from companion.hub.local import LocalHub
from companion.store.base import Store
from companion.tables.budgets import StreamBudgets
from companion.tables.cache import TableCache
from companion.tables.catchup import CatchUp
from companion.tables.retention import Retention
from companion.tables.seats import Seat, Seats
from companion.tables.sse import Stream, stream_loop
from companion.tables.writes import Writes

LOG_EVENTS = 500
"""Events the action log returns at most (the newest)."""
EXTENSION = "tablesmith.tables"
"""The key of the app's service in ``app.extensions``."""


class TableService:
    """Tables over an event store; one instance per app (registered by
    :func:`companion.create_app`).

    Args:
        store: the event store.
        dice: the dice service.
        max_streams: live streams allowed at once (None: no limit).
        hub: the fan-out that wakes async live streams (default: in-process).
    """

    def __init__(
        self,
        store: Store,
        dice: DiceService,
        max_streams: int | None = None,
        hub: Hub | None = None,
    ) -> None:
        self.store = store
        self.dice = dice
        self.hub: Hub = hub if hub is not None else LocalHub()
        self.shared = self.hub.url != "local" or store.shared
        """True when other processes may write the same tables: catch up before using one."""
        self.cache = TableCache(store, self.hub)
        self.catch_up = CatchUp(store, self.cache, self.shared)
        self.seats = Seats(store, self.cache, self.catch_up)
        self.writes = Writes(store, self.cache, self.catch_up, self.seats, dice)
        self.budgets = StreamBudgets(self.cache, self.hub, max_streams)
        self.retention = Retention(store, self.cache, self.budgets)
        self.closed = self.budgets.closed
        self.hub.on_remote = self._remote
        self.hub.on_counts = self.budgets.counts
        self.hub.on_expire = self.budgets.expire_remote
        # the calls every channel makes, bound once
        self.table = self.cache.table
        self.fresh = self.catch_up.fresh
        self.create = self.seats.create
        self.join = self.seats.join
        self.table_for_token = self.seats.table_for_token
        self.authorise = self.seats.authorise
        self.reclaim_code = self.seats.reclaim_code
        self.reclaim = self.seats.reclaim
        self.submit = self.writes.submit
        self.roll = self.writes.roll
        self.counter = self.writes.counter
        self.submit_soon = self.writes.submit_soon
        self.open_stream = self.budgets.open
        self.stream_counts = self.budgets.counts
        self.expire_remote = self.budgets.expire_remote

    @property
    def streams_open(self) -> int:
        """Live streams open in this process now."""
        return self.budgets.streams_open

    @property
    def max_streams(self) -> int | None:
        """Live streams allowed at once in this process (None: no limit); the server sets it
        where the app's config leaves it open (:mod:`companion.evented`)."""
        return self.budgets.max_streams

    @max_streams.setter
    def max_streams(self, value: int | None) -> None:
        self.budgets.max_streams = value

    def close(self) -> None:
        """End every live stream (server shutdown)."""
        self.closed.set()
        for table in self.cache.loaded():
            with table.changed:
                table.changed.notify_all()
        self.hub.wake_all()

    def _remote(self, message: dict[str, Any]) -> None:
        """A message from another process (:mod:`companion.hub`), on the event loop: presence
        counts and a seat's last request are merged at once; a new revision is caught up from the log in a thread."""
        table = self.cache.get(str(message.get("t")), touch=False)
        if table is None:
            return  # nobody here streams that table
        counts = message.get("p")
        if isinstance(counts, dict):
            self.budgets.heard(table, str(message.get("o")), counts)
            return
        heard = message.get("h")
        if isinstance(heard, dict):
            self.seats.heard_elsewhere(table, heard)
            return
        revision = message.get("r")
        if isinstance(revision, int):
            self.catch_up.heard(table, revision)

    def log(self, seat: Seat, limit: int = LOG_EVENTS) -> dict[str, Any]:
        """The table's newest ``limit`` events, oldest first: ``{"events": [...], "total"}``
        (each event with ``seq``, ``kind``, ``seat``, ``payload``, ``created_at``)."""
        table = self.cache.table(seat.table_id)
        with table.lock:
            total = len(table.messages)
            newest = [
                table.message(seq, seat.role) for seq in range(max(1, total - limit + 1), total + 1)
            ]
        return {"events": [json.loads(m) for m in newest], "total": total}

    def dice_history(self, seat: Seat) -> dict[str, Any]:
        """All rolls of the table and observed versus expected frequencies per die size."""
        table = self.cache.table(seat.table_id)
        with table.lock:
            rolls = list(table.rolls)
        return {"rolls": rolls, "frequencies": frequencies(rolls)}

    def stream(self, seat: Seat, since: int, heartbeat: float, lifetime: float = 600.0) -> Stream:
        """Server-Sent Events for a table from ``since`` (exclusive) on, until :meth:`close`,
        for the Flask route: a WSGI server iterates it in a thread, ``tablesmith serve`` drives
        the same loop on its event loop (:mod:`companion.asgi`); framing in
        :mod:`companion.tables.sse`. Such a stream holds a server thread, so the stream
        budgets apply (:mod:`companion.tables.budgets`), and a stream ends after ``lifetime``
        seconds (the page reconnects with ``since``).

        Raises:
            Rejected: 429 ``watchers_full``, 503 ``server_full``
                (:meth:`companion.tables.budgets.StreamBudgets.open`).
        """
        self.fresh(seat.table_id)  # a phone resuming from another process's log
        slot = self.open_stream(seat)
        deadline = time.monotonic() + lifetime
        loop = stream_loop(slot, since, heartbeat, deadline, self.closed)
        return Stream(slot, loop, self.closed)


def tables() -> TableService:
    """The app's :class:`TableService` (inside a request or app context)."""
    service: TableService = current_app.extensions[EXTENSION]
    return service
