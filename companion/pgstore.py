"""The event store in PostgreSQL: the same tables, seats and logs as :mod:`companion.store`, for
several ``tablesmith serve`` processes (or machines) that serve the same tables (issue 9,
point 3; ARCHITECTURE.md, *Next shape of the companion*: storage is a seam chosen by URL).

``tablesmith serve --db postgresql://user:password@host/dbname`` opens it through
:func:`companion.store.open_store`. It behaves like the SQLite :class:`~companion.store.EventStore`
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
:class:`~companion.store.StorageUnavailable` (the app answers 503 ``storage_unavailable``); a
broken connection is dropped by the pool and replaced on the next request. Messages never show
the password of the URL.

The schema is created on first use (``CREATE TABLE IF NOT EXISTS`` under an advisory lock, so
processes starting together do not trip over each other). Payloads are stored as the exact
JSON text (``TEXT``, not ``jsonb``, which would reorder the keys), so every process folds and
streams the same bytes.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from companion.store import (
    BUSY_SECONDS,
    DURABILITY,
    Event,
    StorageUnavailable,
    StoreError,
    TableRow,
    redact_url,
    token_hash,
    url_error,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    join_token TEXT NOT NULL UNIQUE,
    watch_token TEXT NOT NULL UNIQUE,
    created_at DOUBLE PRECISION NOT NULL,
    colours TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS reclaim_codes (
    table_id TEXT NOT NULL REFERENCES tables(id),
    code_hash TEXT NOT NULL,
    seat TEXT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, code_hash)
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    seat TEXT,
    client_action_id TEXT,
    payload TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq),
    UNIQUE (table_id, client_action_id)
)
"""

SCHEMA_LOCK = 0x7461626C65736D  # "tablesm": the advisory lock taken while creating the schema
POOL_MAX = 8
"""Connections per process at most (each is a PostgreSQL backend process on the server)."""
CONNECT_SECONDS = 5.0
"""How long opening the first connection may take before ``serve`` gives up."""
SYNCHRONOUS_COMMIT = {"power": "on", "crash": "off"}
"""Durability level -> PostgreSQL ``synchronous_commit`` for our sessions."""

T = TypeVar("T")


class PgEventStore:
    """PostgreSQL-backed tables, seats and event logs (the interface of
    :class:`companion.store.EventStore`).

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

    shared = True
    """Other processes may append to the same logs: :class:`~companion.tables.TableService`
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
        synchronous = SYNCHRONOUS_COMMIT[durability]

        def configure(db: psycopg.Connection[Any]) -> None:
            db.execute(f"SET synchronous_commit = {synchronous}")

        try:  # one direct connection first: a clear reason if the server cannot be used
            with psycopg.connect(url, connect_timeout=int(CONNECT_SECONDS)) as db:
                db.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
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
        self._pool.close(timeout=5)

    # ------------------------------------------------------------------------------ plumbing

    @contextmanager
    def locked(self, table_id: str) -> Iterator[None]:
        """Hold the table's row lock (``SELECT ... FOR UPDATE``) for the block, in one
        transaction that every store call of this thread inside the block joins (as a
        savepoint); committed when the block ends, rolled back if it raises.

        :class:`~companion.tables.TableService` catches the table up and appends inside it, so
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

    @staticmethod
    def _lock_table(db: psycopg.Connection[Any], table_id: str) -> bool:
        """Lock a table's row until the transaction ends (its writers take turns across every
        process); False if there is no such table."""
        row = db.execute("SELECT 1 FROM tables WHERE id = %s FOR UPDATE", (table_id,)).fetchone()
        return row is not None

    # ----------------------------------------------------------------------------- the store

    def create_table(
        self,
        *,
        table_id: str,
        game: str,
        join_token: str,
        watch_token: str,
        colours: dict[str, str] | None = None,
    ) -> None:
        """Insert a new table with its join and watch tokens and its fleet colours.

        Raises:
            StoreError: the id or a token is taken already.
        """
        try:
            with self._transaction() as db:
                db.execute(
                    "INSERT INTO tables (id, game, join_token, watch_token, created_at, colours) "
                    "VALUES (%s, %s, %s, %s, %s, %s)",
                    (
                        table_id,
                        game,
                        join_token,
                        watch_token,
                        time.time(),
                        None if colours is None else json.dumps(colours),
                    ),
                )
        except psycopg.IntegrityError as exc:
            raise StoreError(f"table {table_id} or one of its tokens exists already") from exc

    def replace_seat(self, *, table_id: str, seat: str, token: str, event: Event) -> None:
        """Give a seat a new token (the old one stops working), logging ``event`` (a
        ``reclaim``) in the same transaction.

        Raises:
            StoreError: the seat is not taken, or the log moved on meanwhile.
        """
        try:
            with self._transaction() as db:
                self._lock_table(db, table_id)
                changed = db.execute(
                    "UPDATE seats SET token_hash = %s WHERE table_id = %s AND seat = %s",
                    (token_hash(token), table_id, seat),
                ).rowcount
                if changed != 1:
                    raise StoreError(f"seat {seat} of table {table_id} is not taken")
                self._insert(db, table_id, event.seq - 1, [event])
        except psycopg.IntegrityError as exc:
            raise StoreError(
                f"reclaim of seat {seat} of {table_id} refused: {self._clean(exc)}"
            ) from exc

    def add_reclaim_code(self, *, table_id: str, seat: str, code: str, expires_at: float) -> None:
        """Remember a reclaim code (hashed) for a seat until ``expires_at`` (UNIX seconds);
        expired codes of the table are dropped.

        Raises:
            StoreError: no such table.
        """
        try:
            with self._transaction() as db:
                db.execute(
                    "DELETE FROM reclaim_codes WHERE table_id = %s AND expires_at < %s",
                    (table_id, time.time()),
                )
                db.execute(
                    "INSERT INTO reclaim_codes VALUES (%s, %s, %s, %s) "
                    "ON CONFLICT (table_id, code_hash) "
                    "DO UPDATE SET seat = EXCLUDED.seat, expires_at = EXCLUDED.expires_at",
                    (table_id, token_hash(code), seat, expires_at),
                )
        except psycopg.IntegrityError as exc:
            raise StoreError(f"no table {table_id} for a reclaim code") from exc

    def take_reclaim_code(self, *, table_id: str, code: str) -> str | None:
        """The seat an unexpired reclaim code of a table is for, or None; a found code is
        used up (deleted; of two processes taking the same code at once, one gets it)."""
        with self._transaction() as db:
            row = db.execute(
                "DELETE FROM reclaim_codes WHERE table_id = %s AND code_hash = %s "
                "RETURNING seat, expires_at",
                (table_id, token_hash(code)),
            ).fetchone()
        if row is None:
            return None
        return str(row[0]) if row[1] >= time.time() else None

    def add_seat(self, *, table_id: str, seat: str, token: str, event: Event | None = None) -> None:
        """Seat a phone, logging ``event`` (if any) in the same transaction.

        Raises:
            StoreError: the seat is taken (or the table is unknown).
        """
        try:
            with self._transaction() as db:
                if event is not None:
                    self._lock_table(db, table_id)
                db.execute(
                    "INSERT INTO seats VALUES (%s, %s, %s)", (table_id, seat, token_hash(token))
                )
                if event is not None:
                    self._insert(db, table_id, event.seq - 1, [event])
        except psycopg.IntegrityError as exc:
            raise StoreError(f"seat {seat} of table {table_id} is taken") from exc

    def table(self, table_id: str) -> TableRow | None:
        """The table with its tokens, or None."""

        def query(db: psycopg.Connection[Any]) -> TableRow | None:
            row = db.execute(
                "SELECT game, join_token, watch_token, colours, created_at FROM tables "
                "WHERE id = %s",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            seats = db.execute(
                "SELECT seat, token_hash FROM seats WHERE table_id = %s", (table_id,)
            ).fetchall()
            return TableRow(
                id=table_id,
                game=row[0],
                join_token=row[1],
                watch_token=row[2],
                seat_hashes={str(s): str(h) for s, h in seats},
                colours=None if row[3] is None else json.loads(row[3]),
                created_at=float(row[4]),
            )

        return self._read(query)

    def table_by_token(self, kind: str, token: str) -> str | None:
        """The id of the table whose ``kind`` ("join" or "watch") token this is, or None."""
        column = {"join": "join_token", "watch": "watch_token"}[kind]
        query = f"SELECT id FROM tables WHERE {column} = %s"
        row = self._read(lambda db: db.execute(query, (token,)).fetchone())
        return None if row is None else str(row[0])

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

    @staticmethod
    def _insert(
        db: psycopg.Connection[Any], table_id: str, expected_seq: int, events: Sequence[Event]
    ) -> None:
        row = db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = %s", (table_id,)
        ).fetchone()
        last = int(row[0]) if row is not None else 0
        if last != expected_seq:
            raise StoreError(f"log of {table_id} is at {last}, expected {expected_seq}")
        with db.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO events VALUES (%s, %s, %s, %s, %s, %s, %s)",
                [
                    (
                        table_id,
                        e.seq,
                        e.kind,
                        e.seat,
                        e.client_action_id,
                        json.dumps(e.payload, separators=(",", ":")),
                        e.created_at,
                    )
                    for e in events
                ],
            )

    def events(self, table_id: str, after: int = 0) -> list[Event]:
        """The log of a table after seq ``after`` (default: all of it), in order."""
        rows = self._read(
            lambda db: db.execute(
                "SELECT seq, kind, seat, client_action_id, payload, created_at FROM events "
                "WHERE table_id = %s AND seq > %s ORDER BY seq",
                (table_id, after),
            ).fetchall()
        )
        return [
            Event(
                seq=int(r[0]),
                kind=r[1],
                seat=r[2],
                client_action_id=r[3],
                payload=json.loads(r[4]),
                created_at=float(r[5]),
            )
            for r in rows
        ]
