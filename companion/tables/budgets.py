"""Stream budgets: who holds a live stream of which table, how many may, and presence.

Each seat of a table holds at most :data:`SEAT_STREAMS` streams in a process (a new one ends
the seat's oldest, so a reloaded phone always gets through); the watchers of a table share
:data:`WATCH_STREAMS`, and watchers of all tables at most :data:`WATCH_SHARE` of the process's
``max_streams``, so they can never starve the seats. Whether a seat has a stream open, here or
in another process (counts heard through the hub), is the table's presence.
"""

from __future__ import annotations

import threading
import time

from companion.hub.base import Hub
from companion.store.base import token_hash
from companion.tables.cache import TableCache
from companion.tables.rejected import RETRY_AFTER_SECONDS, Rejected
from companion.tables.seats import Seat
from companion.tables.table import Table, dumps
from games.protocol import SEATS

SEAT_STREAMS = 4
"""Live streams one seat of a table may hold in a process (reloads, a second tab); a new
stream beyond this ends the seat's oldest one, so a player is never locked out."""
WATCH_STREAMS = 8
"""Live streams the watchers of one table may hold together; beyond: 429 ``watchers_full``."""
WATCH_SHARE = 0.5
"""Watchers of all tables together get at most this share of a process's streams, so the
seated phones always find a stream (beyond: 429 ``watchers_full``)."""


class StreamSlot:
    """One open live stream of a token holder (from :meth:`StreamBudgets.open`).

    ``ended`` turns True when the slot was taken back (its seat opened more than
    :data:`SEAT_STREAMS` streams): the stream then ends and the page reconnects.
    ``presence_sent`` is the table's presence version this stream last sent a view with
    (:func:`companion.tables.sse.pending`).
    """

    def __init__(self, budgets: StreamBudgets, seat: Seat, table: Table) -> None:
        self.budgets = budgets
        self.seat = seat
        self.table = table
        self.token_hash = token_hash(seat.token)
        """Whose stream: it ends once the table's roles no longer hold this token."""
        self.ended = False
        self.presence_sent = -1
        self._released = False

    def release(self) -> None:
        """Give the slot back (idempotent)."""
        if not self._released:
            self._released = True
            self.budgets.release(self)


class StreamBudgets:
    """The live streams of one process and the presence they make.

    Args:
        cache: this process's tables.
        hub: told of this process's stream counts (other processes' presence).
        max_streams: live streams allowed at once (None: no limit).
    """

    def __init__(self, cache: TableCache, hub: Hub, max_streams: int | None) -> None:
        self.cache = cache
        self.hub = hub
        self.max_streams = max_streams
        self.streams_open = 0
        self.watchers_open = 0
        self.closed = threading.Event()
        """Set at server shutdown: every stream ends."""
        self._lock = threading.Lock()  # never held across I/O: the event loop takes it
        self._streams: dict[str, dict[str, list[StreamSlot]]] = {}
        """table id -> role -> this process's open streams of that role, oldest first."""
        self._remote: dict[str, dict[str, tuple[float, dict[str, int]]]] = {}
        """table id -> other process -> (when heard, open streams per seat there)."""

    def open(self, seat: Seat) -> StreamSlot:
        """Reserve a live stream for a token holder; release it with ``slot.release()``.

        The first stream of a seat makes it ``connected`` in the table's presence.

        Raises:
            Rejected: 429 ``watchers_full`` (this table's or this server's watcher budget), 503
                ``server_full`` (``max_streams`` streams open in this process).
        """
        table = self.cache.table(seat.table_id)
        role = seat.role
        evicted: StreamSlot | None = None
        with self._lock:
            if self.max_streams is not None and self.streams_open >= self.max_streams:
                raise Rejected(
                    503,
                    "server_full",
                    f"{self.streams_open} live streams are open on this server; try again soon",
                    retry_after=RETRY_AFTER_SECONDS,
                )
            mine = self._streams.setdefault(table.id, {}).setdefault(role, [])
            if role not in SEATS:
                if len(mine) >= WATCH_STREAMS:
                    raise Rejected(
                        429,
                        "watchers_full",
                        f"this table already has {WATCH_STREAMS} watchers; try again later",
                        retry_after=RETRY_AFTER_SECONDS,
                    )
                share = None if self.max_streams is None else int(self.max_streams * WATCH_SHARE)
                if share is not None and self.watchers_open >= share:
                    raise Rejected(
                        429,
                        "watchers_full",
                        "this server has no room for more watchers; the seated phones come first",
                        retry_after=RETRY_AFTER_SECONDS,
                    )
                self.watchers_open += 1
            elif len(mine) >= SEAT_STREAMS:
                evicted = mine.pop(0)
                evicted.ended = True
                evicted._released = True
                self.streams_open -= 1
            slot = StreamSlot(self, seat, table)
            mine.append(slot)
            self.streams_open += 1
            changed = self._presence(table)
        self._changed(table, changed or evicted is not None)
        return slot

    def release(self, slot: StreamSlot) -> None:
        """Give a slot back (:meth:`StreamSlot.release` calls this once)."""
        table = slot.table
        with self._lock:
            mine = self._streams.get(table.id, {}).get(slot.seat.role, [])
            if slot in mine:
                mine.remove(slot)
            self.streams_open -= 1
            if slot.seat.role not in SEATS:
                self.watchers_open -= 1
            changed = self._presence(table)
        self._changed(table, changed)

    def counts(self) -> dict[str, dict[str, int]]:
        """This process's open streams per seat, per table that has any (for the hub)."""
        with self._lock:
            return {
                table_id: {seat: len(roles.get(seat, ())) for seat in SEATS}
                for table_id, roles in self._streams.items()
                if any(roles.get(seat) for seat in SEATS)
            }

    def streaming(self, table: Table) -> bool:
        """True while the table has a live stream open here, or a seat one elsewhere (its
        presence): such a table is in use, however long ago it was last asked for."""
        with self._lock:
            here = any(self._streams.get(table.id, {}).values())
        return here or any(connected for connected, _ in table.presence.values())

    def seated(self, table: Table) -> bool:
        """True while a seat (not a watcher) has a live stream open on the table, here or
        elsewhere (its presence): a player is at the table, so retention leaves it alone."""
        with self._lock:
            here = any(
                slots for role, slots in self._streams.get(table.id, {}).items() if role in SEATS
            )
        return here or any(connected for connected, _ in table.presence.values())

    def forget(self, table_id: str) -> None:
        """Drop what is kept of a table let go of (:meth:`TableCache.evict_idle`): its empty
        stream lists and other processes' counts."""
        with self._lock:
            if not any(self._streams.get(table_id, {}).values()):
                self._streams.pop(table_id, None)
            self._remote.pop(table_id, None)

    def end(self, table: Table) -> None:
        """End every live stream of a table here (it was removed): the pages reconnect and
        are told it is gone."""
        with self._lock:
            for slots in self._streams.get(table.id, {}).values():
                for slot in slots:
                    slot.ended = True
        with table.changed:
            table.changed.notify_all()
        self.hub.wake_table(table.id)

    def heard(self, table: Table, origin: str, counts: dict[str, int]) -> None:
        """Another process's open streams per seat of a loaded table (on the event loop)."""
        with self._lock:
            self._remote.setdefault(table.id, {})[origin] = (time.monotonic(), counts)
            changed = self._presence(table)
        if changed:
            self.hub.wake(table.id)

    def expire_remote(self, older_than: float) -> None:
        """Forget other processes' stream counts not heard for ``older_than`` seconds (a
        process that died cannot say its phones left)."""
        cutoff = time.monotonic() - older_than
        for table in self.cache.loaded():
            with self._lock:
                remote = self._remote.get(table.id, {})
                stale = [o for o, (heard, _) in remote.items() if heard < cutoff]
                for origin in stale:
                    del remote[origin]
                changed = bool(stale) and self._presence(table)
            if changed:
                self.hub.wake(table.id)

    def _presence(self, table: Table) -> bool:
        """Recompute a table's presence from the streams here and elsewhere (caller holds
        ``_lock``); True when a seat connected or went away."""
        now = time.time()
        changed = False
        here = self._streams.get(table.id, {})
        elsewhere = self._remote.get(table.id, {}).values()
        for seat in SEATS:
            count = len(here.get(seat, ())) + sum(
                int(counts.get(seat, 0)) for _, counts in elsewhere
            )
            connected = count > 0
            if connected != table.presence[seat][0]:
                table.presence[seat] = (connected, now)
                changed = True
        if changed:
            table.presence_json = dumps(table.presence_view())
            table.presence_version += 1
        return changed

    def _changed(self, table: Table, wake: bool) -> None:
        """Tell the other processes this process's stream counts; wake the table's streams
        when the presence changed (or a stream was taken back)."""
        with self._lock:
            here = self._streams.get(table.id, {})
            counts = {seat: len(here.get(seat, ())) for seat in SEATS}
        self.hub.notify_presence(table.id, counts, wake=wake)
        if wake:
            with table.changed:
                table.changed.notify_all()
