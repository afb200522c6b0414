"""Cross-process catch-up: tables that other ``tablesmith serve`` processes write too.

Where the store is shared (PostgreSQL) or the hub is (Redis), another process may append to a
table this process has in memory. Before using such a table it is caught up from the shared
log (:meth:`CatchUp.fresh`); a write holds the table's lock across processes
(:meth:`CatchUp.writing`, the store's ``locked``) and catches up inside it, so that the append
cannot be overtaken; and a revision announced through the hub is caught up in a thread
(:meth:`CatchUp.heard`). In one process (SQLite, the in-process hub) all of it is skipped.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from companion.store.base import Store
from companion.tables.cache import TableCache
from companion.tables.rejected import Rejected
from companion.tables.table import Table, roles_of


class CatchUp:
    """Keeps this process's tables equal to the shared log.

    Args:
        store: the event store.
        cache: this process's tables.
        shared: True when other processes may write the same tables.
    """

    def __init__(self, store: Store, cache: TableCache, shared: bool) -> None:
        self.store = store
        self.cache = cache
        self.shared = shared

    def fresh(self, table_id: str) -> Table:
        """The table, caught up with the shared log first when other processes write too.

        Raises:
            Rejected: 404 unknown table.
        """
        table = self.cache.table(table_id)
        if self.shared:
            with table.lock:
                self.catch_up(table)
        return table

    @contextmanager
    def writing(self, table: Table) -> Iterator[None]:
        """The table's write lock across processes (:meth:`Store.locked`; the caller holds
        ``table.lock``), with the table caught up from the shared log first; committed before
        the streams are told.

        Raises:
            Rejected: 410 ``removed`` or 404 (:meth:`TableCache.gone`) when the table was
                removed since the caller got it, 503 ``busy`` when it was let go for being
                idle (:meth:`TableCache.evict_idle`; the next try loads it again): a write
                never lands on a copy the cache no longer holds.
        """
        if not self.cache.holds(table):
            if self.store.table(table.id) is None:
                raise self.cache.gone(table.id)
            raise Rejected(503, "busy", "the table was just reloaded; try again", retry_after=1)
        with self.store.locked(table.id):
            if self.shared:
                self.catch_up(table)
            yield

    def catch_up(self, table: Table, *, roles: bool = False) -> bool:
        """Fold in what other processes appended (caller holds ``table.lock``); True if any.

        Seats are re-read when asked or when a ``join`` or ``reclaim`` came in."""
        new = self.store.events(table.id, after=table.revision)
        if roles or any(e.kind in ("join", "reclaim") for e in new):
            row = self.store.table(table.id)
            if row is not None:
                table.roles = roles_of(row)
        for event in new:
            table.add(event)
        if new:
            self.cache.publish(table, broadcast=False)
        return bool(new)

    def heard(self, table: Table, revision: int) -> None:
        """Another process announced ``revision`` of a loaded table (on the event loop): catch
        it up in a thread of its own if it is ahead of ours."""
        if revision > table.revision:
            threading.Thread(target=self._catch_up_locked, args=(table,), daemon=True).start()

    def _catch_up_locked(self, table: Table) -> None:
        with table.lock:
            self.catch_up(table)
