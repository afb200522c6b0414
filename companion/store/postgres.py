"""The event store in PostgreSQL: the same tables, seats and logs as :mod:`companion.store.sqlite`,
for several ``tablesmith serve`` processes (or machines) that serve the same tables
(ARCHITECTURE.md, *Next shape of the companion*: storage is a seam chosen by URL).

``tablesmith serve --db postgresql://user:password@host/dbname`` opens it through
:func:`companion.store.factory.open_store`. It behaves like the SQLite :class:`~companion.store.sqlite.EventStore`
call for call, including the optimistic concurrency of :meth:`PgEventStore.append`: every write
first locks its table's row (``SELECT ... FOR UPDATE``), so writers of one table take turns
across all processes while other tables go on in parallel; a writer that based its events on
a revision another process has moved past is refused with the same :class:`StoreError`
(``log of <table> is at N, expected M``) as in SQLite, and nothing of it is stored. The primary
key ``(table_id, seq)`` and the unique ``(table_id, client_action_id)`` stay as a second guard.

Durability (``--fsync/--no-fsync``): ``"power"`` keeps PostgreSQL's ``synchronous_commit=on``
(the commit is flushed to the database server's disk before the phone gets its answer);
``"crash"`` sets ``synchronous_commit=off`` for our sessions: an acknowledged action survives a
killed ``tablesmith serve`` (the database server has it), but the last fraction of a second may
be lost if the database server itself crashes.

Connections come from a small pool (psycopg_pool, at most :data:`POOL_MAX` per process) shared
by the worker threads; reads run in autocommit, writes in one transaction each. A database
that cannot be reached, or a pool that stays empty for ``busy_seconds``, raises
:class:`~companion.store.base.StorageUnavailable` (the app answers 503 ``storage_unavailable``); a
broken connection is dropped by the pool and replaced on the next request. Messages never show
the password of the URL.

The schema (:data:`companion.store.sql.SCHEMA`, the same as SQLite's) is created on first use
(``CREATE TABLE IF NOT EXISTS`` under an advisory lock, so processes starting together do not
trip over each other).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from companion.store.base import (
    BUSY_SECONDS,
    DURABILITY,
    Event,
    StorageUnavailable,
    StoreError,
)
from companion.store.sql import SqlStore
from companion.urls import redact_url, url_error

SCHEMA_LOCK = 0x7461626C65736D  # "tablesm": the advisory lock taken while creating the schema
POOL_MAX = 8
"""Connections per process at most (each is a PostgreSQL backend process on the server)."""
CONNECT_SECONDS = 5.0
"""How long opening the first connection may take before ``serve`` gives up."""
SYNCHRONOUS_COMMIT = {"power": "on", "crash": "off"}
"""Durability level -> PostgreSQL ``synchronous_commit`` for our sessions."""

T = TypeVar("T")


class PgEventStore(SqlStore):
    """PostgreSQL-backed tables, seats and event logs (the interface of
    :class:`companion.store.sqlite.EventStore`).

    Args:
        url: ``postgresql://[user[:password]@][host][:port]/dbname[?param=value...]`` (libpq's
            URL form; ``postgres://`` too; ``?host=/path`` for a Unix socket folder).
        durability: ``"crash"`` or ``"power"`` (see the module docstring).
        busy_seconds: how long a request waits for a free pooled connection (then
            :class:`StorageUnavailable`).

    Raises:
        StoreError: unknown durability.
        StorageUnavailable: the server cannot be reached or refuses us (the message names the
            URL without its password).
    """

    PLACEHOLDER = "%s"
    integrity_error = psycopg.IntegrityError
    shared = True
    """Other processes may append to the same logs: :class:`~companion.tables.service.TableService`
    catches a table up before each write."""

    def __init__(
        self, url: str, durability: str = "power", busy_seconds: float = BUSY_SECONDS
    ) -> None:
        if durability not in DURABILITY:
            raise StoreError(f"durability must be one of {list(DURABILITY)}, got {durability!r}")
        self.url = url
        self.location = redact_url(url)
        self.busy_seconds = busy_seconds
        self._local = threading.local()  # .db: this thread's connection inside locked()
        self._committer: ThreadPoolExecutor | None = None  # append_soon's thread, made on use
        self._committer_lock = threading.Lock()
        synchronous = SYNCHRONOUS_COMMIT[durability]

        def configure(db: psycopg.Connection[Any]) -> None:
            db.execute(f"SET synchronous_commit = {synchronous}")

        try:  # one direct connection first: a clear reason if the server cannot be used
            with psycopg.connect(url, connect_timeout=int(CONNECT_SECONDS)) as db:
                db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                self._create_schema(db)
        except (psycopg.Error, ValueError) as exc:
            raise StorageUnavailable(
                f"cannot open the database {self.location}: {self._clean(exc)}"
            ) from exc
        self._pool: ConnectionPool[psycopg.Connection[Any]] = ConnectionPool(
            url,
            min_size=1,
            max_size=POOL_MAX,
            kwargs={"autocommit": True, "connect_timeout": int(CONNECT_SECONDS)},
            configure=configure,
            timeout=busy_seconds,
            name="tablesmith",
            open=False,
        )
        try:
            self._pool.open(wait=True, timeout=CONNECT_SECONDS)
        except PoolTimeout as exc:
            self._pool.close(timeout=1)
            raise StorageUnavailable(
                f"cannot open the database {self.location}: no connection within "
                f"{CONNECT_SECONDS:g} s"
            ) from exc

    def _clean(self, exc: BaseException) -> str:
        """The first line of an error's message, without the URL's password."""
        return url_error(exc, self.url)

    @property
    def connections(self) -> int:
        """PostgreSQL connections open now (the pool's size)."""
        return int(self._pool.get_stats().get("pool_size", 0))

    def close(self) -> None:
        """Close every connection (the store cannot be used afterwards)."""
        if self._committer is not None:
            self._committer.shutdown(wait=False)
        self._pool.close(timeout=5)

    # ------------------------------------------------------------------------------ plumbing

    @contextmanager
    def locked(self, table_id: str) -> Iterator[None]:
        """Hold the table's row lock (``SELECT ... FOR UPDATE``) for the block, in one
        transaction that every store call of this thread inside the block joins (as a
        savepoint); committed when the block ends, rolled back if it raises.

        :class:`~companion.tables.service.TableService` catches the table up and appends inside it, so
        another process cannot append in between: writers of a table queue up across processes
        instead of racing and retrying (40 racing writes from two processes would otherwise
        starve one side). Commit happens before the block's caller tells the other processes.

        Raises:
            StorageUnavailable: the database cannot be used (also when the commit fails).
        """
        if getattr(self._local, "db", None) is not None:  # nested: the outer block holds it
            yield
            return
        try:
            with self._connection() as db, db.transaction():
                self._lock_table(db, table_id)
                self._local.db = db
                try:
                    yield
                finally:
                    self._local.db = None
        except psycopg.Error as exc:
            raise StorageUnavailable(f"the database cannot be written: {self._clean(exc)}") from exc

    @contextmanager
    def _connection(self) -> Iterator[psycopg.Connection[Any]]:
        held = getattr(self._local, "db", None)
        if held is not None:  # inside locked(): the same connection and transaction
            yield held
            return
        try:
            with self._pool.connection() as db:
                yield db
        except PoolTimeout as exc:
            raise StorageUnavailable(
                f"no database connection was free for {self.busy_seconds:g} s"
            ) from exc

    def _read(self, query: Callable[[psycopg.Connection[Any]], T]) -> T:
        """Run ``query`` on a pooled connection (autocommit: each statement sees the newest
        committed data)."""
        try:
            with self._connection() as db:
                return query(db)
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            raise StorageUnavailable(f"the database cannot be read: {self._clean(exc)}") from exc

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Connection[Any]]:
        """One transaction on a pooled connection, committed at the end, rolled back on any
        failure.

        Raises:
            psycopg.IntegrityError: a constraint failed (the caller turns it into StoreError).
            StorageUnavailable: any other database error (unreachable, disk full, read-only ...).
        """
        try:
            with self._connection() as db, db.transaction():
                yield db
        except (psycopg.IntegrityError, StoreError):
            raise
        except psycopg.Error as exc:
            raise StorageUnavailable(f"the database cannot be written: {self._clean(exc)}") from exc

    def _executemany(self, db: Any, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """Run ``sql`` once per row (a psycopg connection runs many rows through a cursor)."""
        with db.cursor() as cursor:
            cursor.executemany(sql, rows)

    @staticmethod
    def _lock_table(db: psycopg.Connection[Any], table_id: str) -> bool:
        """Lock a table's row until the transaction ends (its writers take turns across every
        process); False if there is no such table."""
        row = db.execute("SELECT 1 FROM tables WHERE id = %s FOR UPDATE", (table_id,)).fetchone()
        return row is not None

    # ----------------------------------------------------------------------------- the store

    def append(self, table_id: str, expected_seq: int, events: Sequence[Event]) -> None:
        """Append events in ONE transaction, committed durably before returning.

        Args:
            table_id: the table.
            expected_seq: the table's last seq the caller based the events on.
            events: numbered ``expected_seq + 1, + 2, ...``.

        Raises:
            StoreError: the log moved on meanwhile (another writer, in this or another
                process), a client action id repeats, or the table is unknown.
        """
        try:
            with self._transaction() as db:
                if not self._lock_table(db, table_id):
                    raise StoreError(f"append to {table_id} refused: no such table")
                self._insert(db, table_id, expected_seq, events)
        except psycopg.IntegrityError as exc:
            raise StoreError(f"append to {table_id} refused: {self._clean(exc)}") from exc

    def append_soon(
        self,
        table_id: str,
        expected_seq: int,
        events: Sequence[Event],
        done: Callable[[Exception | None], None],
    ) -> None:
        """:meth:`append` in this store's committer thread; ``done(None)`` from there once it
        is committed, ``done(error)`` with the :class:`StoreError` or
        :class:`StorageUnavailable` :meth:`append` raised (nothing of it is in). The append
        takes the table's row lock on its own connection, so it must not be called inside
        :meth:`locked` (which holds that lock on this thread's connection)."""
        with self._committer_lock:
            if self._committer is None:
                self._committer = ThreadPoolExecutor(1, thread_name_prefix="commit")
        rows = tuple(events)

        def commit() -> None:
            error: Exception | None = None
            try:
                self.append(table_id, expected_seq, rows)
            except (StoreError, StorageUnavailable) as exc:
                error = exc
            with suppress(Exception):  # the caller's callback never breaks the committer
                done(error)

        self._committer.submit(commit)
