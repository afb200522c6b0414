"""Retention: how long a table is kept, in the database and in this process's memory.

Two clocks run over the tables, both from the time of a table's last action (the
``created_at`` of its last event, server UNIX seconds; a table without events counts from its
creation):

* the **retention sweep** (:meth:`Retention.sweep`): a table not played for
  :attr:`Retention.retention` seconds (``tablesmith serve --retention``, default
  :data:`DEFAULT_RETENTION`, 30 days; 0 keeps every table) is deleted from the database with
  everything of it (log, idempotency keys, seats, reclaim codes and seat keys) in one
  transaction per table, and from memory; what is left is its id and when and why it went, so
  a phone coming back is answered 410 ``removed`` ("this table was removed after 30 days
  without play"), for one more retention period, then 404. A finished game is no exception: it
  is removed only once the retention period has passed since its last action. Decision: a
  table on which a seat has a live stream open (a player's phone is on the table page, here or
  in another process) is in use and is not removed until that stream closes, however short the
  retention (``--retention 45s`` and a player thinking for a minute); a watcher's stream does
  not keep a table. With several
  processes on one PostgreSQL database every process sweeps; a removal takes the table's row
  lock and checks again inside it, so the second process removes nothing and an action that
  came first keeps the table.
* the **idle eviction** (:meth:`Retention.evict`): a table no request asked for in
  :attr:`Retention.idle` seconds (default :data:`DEFAULT_IDLE`, 5 minutes) and with no live
  stream open (here, or a seat's elsewhere) is let go from memory; the next request folds it
  again from its log, the same state, revision, undo and idempotency keys.

:meth:`Retention.start` runs both in one background thread (``tablesmith serve`` starts it):
the sweep at start and then every :data:`SWEEP_SECONDS` (or every half retention period when
that is shorter), the eviction every :data:`EVICT_SECONDS` (or every half idle period). Every
step takes ``now`` (UNIX seconds) so that tests need not wait.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable

from companion.store.base import StorageUnavailable, Store
from companion.tables.budgets import StreamBudgets
from companion.tables.cache import TableCache
from companion.tables.table import Table

DEFAULT_RETENTION = 30 * 86400.0
"""Seconds without play after which a table is removed (``--retention 30d``)."""
DEFAULT_IDLE = 300.0
"""Seconds without a request or a live stream after which a table leaves memory."""
SWEEP_SECONDS = 3600.0
"""How often the retention sweep runs at most (hourly)."""
EVICT_SECONDS = 60.0
"""How often the idle eviction runs at most (every minute)."""
BATCH = 500
"""Tables the sweep asks the store for at a time."""

log = logging.getLogger(__name__)


class Retention:
    """The retention sweep and the idle eviction of one process (see the module docstring).

    Args:
        store: the event store the tables are removed from.
        cache: this process's tables.
        budgets: the live streams (a table with one is not idle; a removed one's streams end).
        retention: seconds without play before a table is removed; 0: never.
        idle: seconds without use before a table leaves memory; 0: never.

    Raises:
        ValueError: a negative ``retention`` or ``idle``.
    """

    def __init__(
        self,
        store: Store,
        cache: TableCache,
        budgets: StreamBudgets,
        retention: float = DEFAULT_RETENTION,
        idle: float = DEFAULT_IDLE,
    ) -> None:
        self.store = store
        self.cache = cache
        self.budgets = budgets
        self.retention = retention
        self.idle = idle
        self.clock: Callable[[], float] = time.time
        """UNIX seconds now (tests replace it)."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._check()

    def _check(self) -> None:
        for name in ("retention", "idle"):
            value = getattr(self, name)
            if not value >= 0:
                raise ValueError(f"{name} must be 0 (never) or more seconds, got {value!r}")

    def sweep(self, now: float | None = None) -> list[str]:
        """Remove the tables not played for :attr:`retention` seconds before ``now`` (default:
        the clock) from the database and from memory, end their live streams here, and forget
        the tables removed more than one more retention period ago. Nothing with a retention
        of 0.

        Returns:
            The ids this process removed (another process may have removed others).

        Raises:
            StorageUnavailable: the database cannot be used now (what was removed stays
                removed; the next sweep goes on).
        """
        if not self.retention:
            return []
        now = self.clock() if now is None else now
        before = now - self.retention
        removed: list[str] = []
        seen: set[str] = set()
        while True:
            batch = [i for i in self.store.idle_tables(before, BATCH) if i not in seen]
            if not batch:
                break
            seen.update(batch)
            for table_id in batch:
                if self._remove(table_id, before, now):
                    removed.append(table_id)
        if self.store.shared:  # another process may have removed a table loaded here
            for table in self.cache.loaded():
                if _last_played(table) < before and self.store.table(table.id) is None:
                    self._let_go(table.id)
        self.store.forget_removed(before)
        return removed

    def _remove(self, table_id: str, before: float, now: float) -> bool:
        """Remove one table (under its lock where it is loaded, so no write of this process
        is half-way through), then let go of it here."""
        table = self.cache.get(table_id, touch=False)
        if table is not None and self.budgets.seated(table):
            return False  # a player's phone is on it: never removed under the players' hands
        if table is None:
            done = self.store.remove_table(
                table_id, before=before, retention=self.retention, now=now
            )
        else:
            with table.lock:
                done = self.store.remove_table(
                    table_id, before=before, retention=self.retention, now=now
                )
        if done or self.store.table(table_id) is None:
            self._let_go(table_id)
        return done

    def _let_go(self, table_id: str) -> None:
        table = self.cache.drop(table_id)
        if table is not None:
            self.budgets.end(table)
        self.budgets.forget(table_id)

    def evict(self, now: float | None = None) -> list[str]:
        """Let go of the tables idle for :attr:`idle` seconds before ``now`` (default: the
        clock): no request and no live stream (:meth:`TableCache.evict_idle`). Nothing with
        an idle time of 0. Returns the ids let go."""
        if not self.idle:
            return []
        now = self.clock() if now is None else now
        evicted = self.cache.evict_idle(now, self.idle, self.budgets.streaming)
        for table_id in evicted:
            self.budgets.forget(table_id)
        return evicted

    def start(self) -> None:
        """Run the sweep (now, then periodically) and the eviction in a background thread
        until :meth:`stop`; errors are logged, never raised (a busy database is retried at
        the next turn)."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="retention", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the background thread (waits for a step under way)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def periods(self) -> tuple[float, float]:
        """(seconds between sweeps, seconds between evictions) of :meth:`start`."""
        sweep = min(SWEEP_SECONDS, self.retention / 2) if self.retention else SWEEP_SECONDS
        evict = min(EVICT_SECONDS, self.idle / 2) if self.idle else EVICT_SECONDS
        return max(sweep, 0.5), max(evict, 0.5)

    def _run(self) -> None:
        sweep_every, evict_every = self.periods()
        next_sweep = next_evict = time.monotonic()
        while not self._stop.is_set():
            now = time.monotonic()
            if now >= next_sweep:
                self._step(self.sweep, "the retention sweep")
                next_sweep = time.monotonic() + sweep_every
            if now >= next_evict:
                self._step(self.evict, "the idle eviction")
                next_evict = time.monotonic() + evict_every
            self._stop.wait(max(0.0, min(next_sweep, next_evict) - time.monotonic()))

    @staticmethod
    def _step(step: Callable[[], list[str]], what: str) -> None:
        try:
            done = step()
        except StorageUnavailable as exc:
            log.warning("%s is put off: %s", what, exc)
        except Exception:  # noqa: BLE001 - the thread must keep running
            log.exception("%s failed", what)
        else:
            if done:
                log.info("%s: %d table(s)", what, len(done))


def _last_played(table: Table) -> float:
    """When a loaded table was last played: its last event's time, or 0 without events."""
    if not table.messages:
        return 0.0
    return float(json.loads(table.messages[-1])["created_at"])
