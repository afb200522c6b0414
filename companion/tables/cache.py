"""The tables in memory: each loaded and folded from its log on first use, then kept.

:class:`TableCache` is the one place a :class:`~companion.tables.table.Table` comes from, and
the one place its new views are published (:meth:`TableCache.publish`: recomputed once, the
table's streams here woken, and the other processes told through the hub).
"""

from __future__ import annotations

import threading
import time

from companion.hub.base import Hub
from companion.store.base import Store
from companion.tables.fold import Fold
from companion.tables.rejected import Rejected
from companion.tables.table import DEFAULT_COLOURS, Table, dumps, roles_of
from games import registry
from games.protocol import SEATS


class TableCache:
    """The tables of one process, by id.

    Args:
        store: the event store the tables are loaded from.
        hub: the fan-out told of every published revision.
    """

    def __init__(self, store: Store, hub: Hub) -> None:
        self.store = store
        self.hub = hub
        self.started_at = time.time()
        """When this process started (a seat never seen is "away since" then at the latest)."""
        self._tables: dict[str, Table] = {}
        self._guard = threading.Lock()

    def get(self, table_id: str) -> Table | None:
        """The table if it is loaded already, else None (never reads the store)."""
        return self._tables.get(table_id)

    def loaded(self) -> list[Table]:
        """Every table loaded in this process."""
        return list(self._tables.values())

    def table(self, table_id: str) -> Table:
        """The cached table, loading and folding its log on first use.

        Raises:
            Rejected: 404 unknown table.
            StorageUnavailable: the store cannot be read.
        """
        table = self._tables.get(table_id)
        if table is not None:
            return table
        with self._guard:
            if table_id in self._tables:
                return self._tables[table_id]
            row = self.store.table(table_id)
            if row is None:
                raise Rejected(404, "unknown", "no such table")
            table = Table(
                id=table_id,
                game=row.game,
                fold=Fold(game=registry.get(row.game)),
                roles=roles_of(row),
                join_token=row.join_token,
                watch_token=row.watch_token,
                colours={**DEFAULT_COLOURS, **(row.colours or {})},
            )
            away_since = max(row.created_at, self.started_at)
            table.presence = dict.fromkeys(SEATS, (False, away_since))
            table.presence_json = dumps(table.presence_view())
            for event in self.store.events(table_id):
                table.add(event)
            table.publish()
            self._tables[table_id] = table
            return table

    def publish(self, table: Table, *, broadcast: bool = True) -> None:
        """Recompute the table's views and wake its streams (here; and, if ``broadcast``, tell
        the other processes through the hub). The caller holds ``table.lock``."""
        table.publish()
        with table.changed:
            table.changed.notify_all()
        if broadcast:
            self.hub.notify(table.id, table.revision)
        else:
            self.hub.wake_table(table.id)
