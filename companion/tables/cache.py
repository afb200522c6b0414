"""The tables in memory: each loaded and folded from its log on first use, then kept while used.

:class:`TableCache` is the one place a :class:`~companion.tables.table.Table` comes from, and
the one place its new views are published (:meth:`TableCache.publish`: recomputed once, the
table's streams here woken, and the other processes told through the hub). It remembers when
each table was last asked for, so that an idle one can be let go (:meth:`TableCache.evict_idle`,
driven by :mod:`companion.tables.retention`) and is folded again from its log when a phone comes
back; a table the retention sweep removed is answered 410 ``removed`` (:meth:`TableCache.gone`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from companion.durations import describe_duration
from companion.hub.base import Hub
from companion.store.base import Store
from companion.tables.fold import Fold
from companion.tables.rejected import Rejected
from companion.tables.table import DEFAULT_COLOURS, Table, dumps, iso_utc, roles_of
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
        self.clock: Callable[[], float] = time.time
        """UNIX seconds now (tests replace it)."""
        self._tables: dict[str, Table] = {}
        self._used: dict[str, float] = {}
        """table id -> when a request last asked for it (:attr:`clock`)."""
        self._guard = threading.Lock()  # held while a table loads
        self._use = threading.Lock()  # a lookup and its use time against an eviction

    def get(self, table_id: str, *, touch: bool = True) -> Table | None:
        """The table if it is loaded already, else None (never reads the store); ``touch``:
        count this as a use (False for a mere note from another process)."""
        with self._use:
            table = self._tables.get(table_id)
            if table is not None and touch:
                self._used[table_id] = self.clock()
            return table

    def holds(self, table: Table) -> bool:
        """True while ``table`` is this process's copy of its table (not evicted or dropped
        since the caller got it)."""
        return self._tables.get(table.id) is table

    def loaded(self) -> list[Table]:
        """Every table loaded in this process."""
        return list(self._tables.values())

    def table(self, table_id: str) -> Table:
        """The cached table, loading and folding its log on first use.

        Raises:
            Rejected: 404 unknown table, 410 removed by the retention sweep (:meth:`gone`).
            StorageUnavailable: the store cannot be read.
        """
        table = self.get(table_id)
        if table is not None:
            return table
        with self._guard:
            table = self.get(table_id)
            if table is not None:
                return table
            row = self.store.table(table_id)
            if row is None:
                raise self.gone(table_id)
            table = Table(
                id=table_id,
                game=row.game,
                fold=Fold(game=registry.get(row.game)),
                roles=roles_of(row),
                join_token=row.join_token,
                watch_token=row.watch_token,
                colours={**DEFAULT_COLOURS, **(row.colours or {})},
            )
            events = self.store.events(table_id)
            played = events[-1].created_at if events else 0.0
            away_since = max(row.created_at, self.started_at, played)
            table.presence = dict.fromkeys(SEATS, (False, away_since))
            table.presence_json = dumps(table.presence_view())
            for event in events:
                table.add(event)
            table.publish()
            with self._use:
                self._used[table_id] = self.clock()
                self._tables[table_id] = table
            return table

    def gone(self, table_id: str) -> Rejected:
        """The refusal for a table that is not in the store: 410 ``removed`` (with
        ``removed_at``, ``retention_seconds`` and ``retention``, the period in words such as "45
        seconds" or "30 days") where the retention sweep
        removed it, else 404 ``unknown``.

        Raises:
            StorageUnavailable: the store cannot be read.
        """
        removed = self.store.removed(table_id)
        if removed is None:
            return Rejected(404, "unknown", "no such table")
        when = iso_utc(removed.removed_at)
        return Rejected(
            410,
            "removed",
            f"this table was removed after {describe_duration(removed.retention)} without play "
            f"(at {when})",
            details={
                "removed_at": when,
                "retention_seconds": removed.retention,
                "retention": describe_duration(removed.retention),
            },
        )

    def evict_idle(self, now: float, idle: float, busy: Callable[[Table], bool]) -> list[str]:
        """Let go of the tables nobody asked for in the ``idle`` seconds before ``now`` (UNIX
        seconds) and that are not ``busy`` (a live stream open), so they hold no memory here;
        the next request folds them again from the log. A table whose lock is held (a write
        under way) stays. Returns the ids let go."""
        evicted = []
        for table in self.loaded():
            if now - self._used.get(table.id, now) < idle or busy(table):
                continue
            if not table.lock.acquire(blocking=False):
                continue
            try:
                with self._use:
                    if self.holds(table) and now - self._used.get(table.id, now) >= idle:
                        del self._tables[table.id]
                        self._used.pop(table.id, None)
                        evicted.append(table.id)
            finally:
                table.lock.release()
        if evicted:  # a dict keeps its size after deletions: copy it to give that back too
            with self._use:
                self._tables, self._used = dict(self._tables), dict(self._used)
        return evicted

    def drop(self, table_id: str) -> Table | None:
        """Forget a table at once (the retention sweep removed it from the store); the table
        that was loaded, or None."""
        with self._use:
            self._used.pop(table_id, None)
            return self._tables.pop(table_id, None)

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
