"""The companion's event store: an append-only log per table in SQLite (WAL mode).

Every accepted write is appended in one ``BEGIN IMMEDIATE`` transaction that is committed
before the phone gets its answer, so an acknowledged action survives ``kill -9`` of the server
(ARCHITECTURE.md, *Companion*). Two durability levels (``benchmarks/companion_load.py``
measures what each costs):

* ``"power"`` (default, ``synchronous=FULL``): every commit is also flushed to the disk (one
  fsync per commit; actions of different tables arriving together share one commit, see
  :meth:`EventStore.append`), so it survives a power cut of the computer too.
* ``"crash"`` (``synchronous=NORMAL``): the commit reaches the operating system before the
  answer; it survives a killed or crashed server, not a power cut.

Seat tokens (which authorise writes) are stored as SHA-256 hashes only; the join and watch
tokens are kept as they are because seat A's page shows their links again after a reload.

The store is thread-safe and holds few file descriptors whatever the number of worker threads:
ONE writer connection, on which writers take turns under a process-wide lock (SQLite's own busy
handler sleeps in steps of up to 100 ms, a long tail under load), and a small
pool of at most ``READERS`` reader connections that a request borrows and gives back (WAL
readers never wait for the writer). Each connection holds three descriptors (database, WAL,
shared memory), and the server multiplexes its sockets with ``select()`` on some systems, whose
limit is 1024 descriptors (see :mod:`companion.server`).

When the database cannot be used (locked by another program for more than ``BUSY_SECONDS``,
disk full, read-only, corrupt) the store raises :class:`StorageUnavailable`, which the app
answers promptly with 503 ``storage_unavailable``; a failed ``COMMIT`` is rolled back, so the
log and the server's cache stay equal.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from pathlib import Path
from typing import Any

from companion.store.base import (
    BUSY_SECONDS,
    DURABILITY,
    Event,
    StorageUnavailable,
    StoreError,
)
from companion.store.sql import SqlStore

READERS = 4
"""Reader connections kept at most (each holds three file descriptors)."""


class _Append:
    """One queued :meth:`EventStore.append` (or :meth:`EventStore.append_soon`): its rows, its
    outcome once ``done``, and whom to tell then (``callback``, for ``append_soon``)."""

    __slots__ = ("table_id", "expected_seq", "events", "done", "error", "callback")

    def __init__(
        self,
        table_id: str,
        expected_seq: int,
        events: Sequence[Event],
        callback: Callable[[Exception | None], None] | None = None,
    ) -> None:
        self.table_id = table_id
        self.expected_seq = expected_seq
        self.events = events
        self.done = threading.Event()
        self.error: Exception | None = None
        self.callback = callback


class EventStore(SqlStore):
    """SQLite-backed tables, seats and event logs.

    Args:
        path: the database file; its folder is created.
        durability: ``"crash"`` or ``"power"`` (see the module docstring).
        busy_seconds: how long a write waits for another program's lock (then
            :class:`StorageUnavailable`).

    Raises:
        StoreError: unknown durability.
    """

    def __init__(
        self, path: str | Path, durability: str = "power", busy_seconds: float = BUSY_SECONDS
    ) -> None:
        if durability not in DURABILITY:
            raise StoreError(f"durability must be one of {list(DURABILITY)}, got {durability!r}")
        self.synchronous = DURABILITY[durability]
        self.busy_seconds = busy_seconds
        self.path = Path(path)
        self.location = str(self.path)
        self.shared = False  # one process writes (the file is not shared between servers)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._write_lock = threading.Lock()  # one writer at a time: no SQLite busy-wait sleeps
        self._pending_lock = threading.Lock()
        self._pending: list[_Append] = []  # appends waiting for the writer (group commit)
        self._committing = False  # the committer thread is draining _pending (append_soon)
        self._committer: ThreadPoolExecutor | None = None
        self._readers = threading.BoundedSemaphore(READERS)
        self._pool_lock = threading.Lock()
        self._idle: list[sqlite3.Connection] = []
        self._all: list[sqlite3.Connection] = []
        self._writer = self._open()
        with self._transaction() as db:
            self._create_schema(db)
            columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
            if "colours" not in columns:  # databases made before tables had colours
                db.execute("ALTER TABLE tables ADD COLUMN colours TEXT")

    def _open(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(
                self.path, isolation_level=None, timeout=self.busy_seconds, check_same_thread=False
            )
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute(f"PRAGMA synchronous={self.synchronous}")
                db.execute("PRAGMA foreign_keys=ON")
            except BaseException:
                db.close()
                raise
        except sqlite3.Error as exc:
            raise StorageUnavailable(f"cannot open the database {self.path}: {exc}") from exc
        with self._pool_lock:
            self._all.append(db)
        return db

    @property
    def connections(self) -> int:
        """SQLite connections open now (the writer plus the pooled readers)."""
        with self._pool_lock:
            return len(self._all)

    def close(self) -> None:
        """Close every connection (the store cannot be used afterwards)."""
        if self._committer is not None:
            self._committer.shutdown(wait=False)
        with self._write_lock, self._pool_lock:
            for db in self._all:
                db.close()
            self._all.clear()
            self._idle.clear()

    integrity_error = sqlite3.IntegrityError

    def _lock_table(self, db: Any, table_id: str) -> bool:
        """Nothing to lock: ``BEGIN IMMEDIATE`` holds the whole file for the transaction."""
        return True

    def locked(self, table_id: str) -> AbstractContextManager[None]:
        """A block in which no other process writes the table: nothing to do here (one process
        writes an SQLite file; its writers of a table take turns under the table's lock in
        :class:`companion.tables.service.TableService`). :meth:`companion.store.postgres.PgEventStore.locked`
        holds the table's row lock, so that catching up and appending cannot be overtaken."""
        return nullcontext()

    def _read(self, query: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``query`` on a pooled reader connection, given back afterwards."""
        with self._readers:
            with self._pool_lock:
                db = self._idle.pop() if self._idle else None
            if db is None:
                db = self._open()
            try:
                return query(db)
            except sqlite3.Error as exc:
                raise StorageUnavailable(f"the database cannot be read: {exc}") from exc
            finally:
                with self._pool_lock:
                    self._idle.append(db)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One ``BEGIN IMMEDIATE`` .. ``COMMIT`` on the writer; rolled back on any failure.

        Raises:
            sqlite3.IntegrityError: a constraint failed (the caller turns it into StoreError).
            StorageUnavailable: any other database error (locked, disk full, read-only ...).
        """
        if not self._write_lock.acquire(timeout=self.busy_seconds):
            raise StorageUnavailable(f"the database stayed busy for {self.busy_seconds:g} s")
        try:
            with self._begun() as db:
                yield db
        finally:
            self._write_lock.release()

    @contextmanager
    def _begun(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` .. ``COMMIT`` on the writer, whose lock the caller holds; errors
        as in :meth:`_transaction`."""
        db = self._writer
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    # if even this fails, SQLite rolls back on its own or at the next BEGIN
                    with suppress(sqlite3.Error):
                        db.execute("ROLLBACK")
                raise
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise StorageUnavailable(f"the database cannot be written: {exc}") from exc

    def append(self, table_id: str, expected_seq: int, events: Sequence[Event]) -> None:
        """Append events in ONE transaction, committed durably before returning.

        Args:
            table_id: the table.
            expected_seq: the table's last seq the caller based the events on.
            events: numbered ``expected_seq + 1, + 2, ...``.

        Appends of different tables that wait for the writer at the same time are committed
        together (group commit): the writer that gets the lock commits every append queued
        by then in one transaction, each in its own savepoint (so one refused append leaves the
        others in), with ONE fsync for all of them. Under load the disk's flushes then no
        longer limit the actions per second (at 500 tables a flush per
        action queued the writers for up to 2 s).

        Raises:
            StoreError: the log moved on meanwhile (another writer) or a client action id
                repeats.
            StorageUnavailable: the database cannot be written (nothing of this append is in).
        """
        request = _Append(table_id, expected_seq, tuple(events))
        with self._pending_lock:
            self._pending.append(request)
        if not self._write_lock.acquire(timeout=self.busy_seconds):
            with self._pending_lock:
                if request in self._pending:  # no writer took it: nothing was written
                    self._pending.remove(request)
                    raise StorageUnavailable(
                        f"the database stayed busy for {self.busy_seconds:g} s"
                    )
            request.done.wait()  # a writer is committing it right now
        else:
            try:
                if not request.done.is_set():
                    with self._pending_lock:
                        batch, self._pending = self._pending, []
                    self._commit(batch)
            finally:
                self._write_lock.release()
        if request.error is not None:
            raise request.error

    def append_soon(
        self,
        table_id: str,
        expected_seq: int,
        events: Sequence[Event],
        done: Callable[[Exception | None], None],
    ) -> None:
        """:meth:`append` without waiting: the append is queued for one committer thread and
        ``done(error)`` is called from that thread (or from the writer that committed it with
        its own) once it is committed durably (``error`` None) or refused (the
        :class:`StoreError` or :class:`StorageUnavailable` :meth:`append` would raise; nothing
        of it is in).

        For the event loop (:mod:`companion.asgi`): an action waits for its commit without a
        thread of its own, and appends queued while a commit runs share the next one (the same
        group commit as :meth:`append`, one hand-off to the committer per batch, not per
        action).
        """
        request = _Append(table_id, expected_seq, tuple(events), done)
        with self._pending_lock:
            self._pending.append(request)
            start = not self._committing
            self._committing = True
            if start and self._committer is None:
                self._committer = ThreadPoolExecutor(1, thread_name_prefix="commit")
        if start:
            assert self._committer is not None
            self._committer.submit(self._commit_pending)

    def _commit_pending(self) -> None:
        """Committer thread: commit what is queued, batch after batch, until nothing is."""
        try:
            self._drain()
        except BaseException:
            with self._pending_lock:  # the next append_soon starts a committer again
                self._committing = False
            raise

    def _drain(self) -> None:
        while True:
            with self._pending_lock:
                if not self._pending:
                    self._committing = False
                    return
            if not self._write_lock.acquire(timeout=self.busy_seconds):
                with self._pending_lock:  # append() callers time out on their own
                    mine = [item for item in self._pending if item.callback is not None]
                    self._pending = [item for item in self._pending if item.callback is None]
                for item in mine:
                    item.error = StorageUnavailable(
                        f"the database stayed busy for {self.busy_seconds:g} s"
                    )
                    item.done.set()
                    _tell(item)
                continue
            try:
                with self._pending_lock:
                    batch, self._pending = self._pending, []
                if batch:
                    self._commit(batch)
            finally:
                self._write_lock.release()

    def _commit(self, batch: list[_Append]) -> None:
        """Commit queued appends in one transaction (write lock held); every append's outcome
        is in its ``error`` (None: committed) when its ``done`` is set."""
        try:
            with self._begun() as db:
                for item in batch:
                    db.execute("SAVEPOINT append")
                    try:
                        self._insert(db, item.table_id, item.expected_seq, item.events)
                    except StoreError as exc:
                        item.error = exc
                    except sqlite3.IntegrityError as exc:
                        item.error = StoreError(f"append to {item.table_id} refused: {exc}")
                    if item.error is not None:
                        db.execute("ROLLBACK TO append")
                    db.execute("RELEASE append")
        except (StorageUnavailable, sqlite3.Error) as exc:
            for item in batch:  # the whole transaction was rolled back
                item.error = StorageUnavailable(str(exc))
        except BaseException as exc:
            for item in batch:
                item.error = StorageUnavailable(f"the write was interrupted: {exc!r}")
            raise
        finally:
            for item in batch:
                item.done.set()
                _tell(item)


def _tell(item: _Append) -> None:
    """Call an :meth:`EventStore.append_soon` caller back with the outcome (never raises)."""
    if item.callback is not None:
        with suppress(Exception):
            item.callback(item.error)
