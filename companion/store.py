"""The companion's event store: an append-only log per table in SQLite (WAL mode).

Every accepted write is appended in one ``BEGIN IMMEDIATE`` transaction that is committed
before the phone gets its answer, so an acknowledged action survives ``kill -9`` of the server
(issue 4; ARCHITECTURE.md, *Companion*). Two durability levels (decision, measured with
``benchmarks/companion_load.py``, 100 tables x 2 phones, on the shared 2-core machine):

* ``"power"`` (default, ``synchronous=FULL``): every commit is also flushed to the disk (one
  fsync per commit; actions of different tables arriving together share one commit, see
  :meth:`EventStore.append`), so it survives a power cut of the computer too. Action p99 14-36 ms in
  five runs; 56-77 ms while other jobs were writing heavily to the same disk.
* ``"crash"`` (``synchronous=NORMAL``): the commit reaches the operating system before the
  answer; it survives a killed or crashed server, not a power cut. Action p99 17-24 ms.

Seat tokens (which authorise writes) are stored as SHA-256 hashes only; the join and watch
tokens are kept as they are because seat A's page shows their links again after a reload.

The store is thread-safe and holds few file descriptors whatever the number of worker threads:
ONE writer connection, on which writers take turns under a process-wide lock (SQLite's own busy
handler would sleep in steps of up to 100 ms, measured as a 1.4 s p99 under load), and a small
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

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    join_token TEXT NOT NULL UNIQUE,
    watch_token TEXT NOT NULL UNIQUE,
    created_at REAL NOT NULL
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
    expires_at REAL NOT NULL,
    PRIMARY KEY (table_id, code_hash)
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    seat TEXT,
    client_action_id TEXT,
    payload TEXT NOT NULL,
    created_at REAL NOT NULL,
    PRIMARY KEY (table_id, seq),
    UNIQUE (table_id, client_action_id)
);
"""


DURABILITY = {"crash": "NORMAL", "power": "FULL"}
"""Durability level -> SQLite ``synchronous`` setting."""

READERS = 4
"""Reader connections kept at most (each holds three file descriptors)."""
BUSY_SECONDS = 3.0
"""How long a write waits for a lock held by another program before giving up (503)."""


class StoreError(ValueError):
    """A write the store refuses (duplicate seat, unknown table)."""


class StorageUnavailable(RuntimeError):
    """The database cannot be read or written now (locked, disk full, read-only, corrupt)."""


def redact_url(url: str) -> str:
    """The URL with its password replaced by ``***`` (for messages and the startup banner)."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url.split("://", 1)[0] + "://..."
    if not password:
        return url
    netloc = parts.netloc.replace(":" + password + "@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def url_error(exc: BaseException, url: str) -> str:
    """The first line of an error's message, with the URL's password (if any) blanked out."""
    text = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    return text.replace(password, "***") if password else text


def token_hash(token: str) -> str:
    """SHA-256 hex digest of a token: the only form in which tokens are stored."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, kw_only=True)
class Event:
    """One entry of a table's log.

    Attributes:
        seq: 1, 2, 3 ... per table; the table's revision is the last ``seq``.
        kind: ``"setup"``, ``"action"``, ``"undo"`` or ``"roll"``.
        seat: who wrote it ("A"/"B"), or None.
        client_action_id: the phone's idempotency key, or None for server-made events.
        payload: the event's data (JSON object).
        created_at: UNIX time in seconds.
    """

    seq: int
    kind: str
    seat: str | None
    client_action_id: str | None
    payload: dict[str, Any]
    created_at: float

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of all fields."""
        return {
            "seq": self.seq,
            "kind": self.kind,
            "seat": self.seat,
            "client_action_id": self.client_action_id,
            "payload": self.payload,
            "created_at": self.created_at,
        }


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


@dataclass(frozen=True, kw_only=True)
class TableRow:
    """A table's identity: id, game, join and watch tokens, seat token hashes by seat, the
    fleet colours chosen at creation (``{"A": "#RRGGBB", "B": ...}``, or None: the defaults)
    and when it was created (UNIX seconds)."""

    id: str
    game: str
    join_token: str
    watch_token: str
    seat_hashes: dict[str, str]
    colours: dict[str, str] | None = None
    created_at: float = 0.0


class Store(Protocol):
    """What :class:`companion.tables.TableService` needs of an event store: :class:`EventStore`
    (SQLite, the embedded default) and :class:`companion.pgstore.PgEventStore` (PostgreSQL,
    several processes) both provide it, with the same errors (:class:`StoreError` for a refused
    write, :class:`StorageUnavailable` when the database cannot be used)."""

    shared: bool
    """True when other processes may append to the same logs (callers catch up first)."""
    location: str
    """Where the log is kept, for people (a file path, or a URL without its password)."""

    @property
    def connections(self) -> int:
        """Database connections open now."""
        ...

    def close(self) -> None:
        """Close every connection (the store cannot be used afterwards)."""

    def locked(self, table_id: str) -> AbstractContextManager[None]:
        """Hold a table's write lock across processes for the block (:meth:`EventStore.locked`)."""
        ...

    def create_table(
        self,
        *,
        table_id: str,
        game: str,
        join_token: str,
        watch_token: str,
        colours: dict[str, str] | None = None,
    ) -> None:
        """Insert a new table (:meth:`EventStore.create_table`)."""

    def replace_seat(self, *, table_id: str, seat: str, token: str, event: Event) -> None:
        """Give a taken seat a new token, logging ``event`` (:meth:`EventStore.replace_seat`)."""

    def add_reclaim_code(self, *, table_id: str, seat: str, code: str, expires_at: float) -> None:
        """Remember a reclaim code (:meth:`EventStore.add_reclaim_code`)."""

    def take_reclaim_code(self, *, table_id: str, code: str) -> str | None:
        """Use up a reclaim code (:meth:`EventStore.take_reclaim_code`)."""

    def add_seat(self, *, table_id: str, seat: str, token: str, event: Event | None = None) -> None:
        """Seat a phone (:meth:`EventStore.add_seat`)."""

    def table(self, table_id: str) -> TableRow | None:
        """The table with its tokens, or None."""

    def table_by_token(self, kind: str, token: str) -> str | None:
        """The table a join or watch token opens, or None."""

    def append(self, table_id: str, expected_seq: int, events: Sequence[Event]) -> None:
        """Append events at ``expected_seq`` (:meth:`EventStore.append`)."""

    def events(self, table_id: str, after: int = 0) -> list[Event]:
        """A table's log after seq ``after``, in order."""


POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""``--db`` values that name a PostgreSQL database rather than an SQLite file."""


def open_store(
    database: str | Path, durability: str = "power", busy_seconds: float = BUSY_SECONDS
) -> Store:
    """The event store for a ``--db`` value: a ``postgresql://`` or ``postgres://`` URL opens
    :class:`companion.pgstore.PgEventStore`, anything else is an SQLite file
    (:class:`EventStore`, the default).

    Raises:
        StoreError: PostgreSQL asked for without the ``store`` extra installed, or a bad
            durability.
        StorageUnavailable: the database cannot be opened (server unreachable, wrong password,
            unwritable file ...).
    """
    text = str(database)
    if text.lower().startswith(POSTGRES_SCHEMES):
        try:
            from companion.pgstore import PgEventStore
        except ImportError as exc:
            raise StoreError(
                "PostgreSQL needs psycopg, which is not installed: pip install 'tablesmith[store]'"
            ) from exc
        return PgEventStore(text, durability, busy_seconds)
    return EventStore(database, durability, busy_seconds)


class SqlStore:
    """What the SQLite and PostgreSQL stores share: the statements on tables, seats and logs
    (written with ``?`` placeholders; :attr:`PLACEHOLDER` is the driver's) and the mapping of
    rows to :class:`TableRow` and :class:`Event`. A subclass gives the connection handling:
    :meth:`_transaction` (one transaction; a constraint error is raised as
    :attr:`integrity_error`, any other failure as :class:`StorageUnavailable`), :meth:`_read`,
    :meth:`_lock_table` and :meth:`_clean`.
    """

    PLACEHOLDER = "?"
    """The driver's parameter marker (sqlite3: ``?``, psycopg: ``%s``)."""
    integrity_error: type[Exception] = Exception
    """The driver's constraint-violation error."""

    def _sql(self, text: str) -> str:
        """``text`` with its ``?`` markers in the driver's style."""
        return text if self.PLACEHOLDER == "?" else text.replace("?", self.PLACEHOLDER)

    def _transaction(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _read(self, query: Callable[[Any], Any]) -> Any:
        raise NotImplementedError

    def _lock_table(self, db: Any, table_id: str) -> bool:
        """Take the table's write lock for the transaction where the database needs one;
        False if there is no such table."""
        raise NotImplementedError

    def _clean(self, exc: BaseException) -> str:
        """An error's message as it may be shown (no password)."""
        return str(exc)

    def _executemany(self, db: Any, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """Run ``sql`` once per row (sqlite3 connections have ``executemany``)."""
        db.executemany(sql, rows)

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
                    self._sql(
                        "INSERT INTO tables (id, game, join_token, watch_token, created_at, "
                        "colours) VALUES (?, ?, ?, ?, ?, ?)"
                    ),
                    (
                        table_id,
                        game,
                        join_token,
                        watch_token,
                        time.time(),
                        None if colours is None else json.dumps(colours),
                    ),
                )
        except self.integrity_error as exc:
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
                    self._sql("UPDATE seats SET token_hash = ? WHERE table_id = ? AND seat = ?"),
                    (token_hash(token), table_id, seat),
                ).rowcount
                if changed != 1:
                    raise StoreError(f"seat {seat} of table {table_id} is not taken")
                self._insert(db, table_id, event.seq - 1, [event])
        except self.integrity_error as exc:
            raise StoreError(
                f"reclaim of seat {seat} of {table_id} refused: {self._clean(exc)}"
            ) from exc

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
                    self._sql("INSERT INTO seats VALUES (?, ?, ?)"),
                    (table_id, seat, token_hash(token)),
                )
                if event is not None:
                    self._insert(db, table_id, event.seq - 1, [event])
        except self.integrity_error as exc:
            raise StoreError(f"seat {seat} of table {table_id} is taken") from exc

    def table(self, table_id: str) -> TableRow | None:
        """The table with its tokens, or None."""

        def query(db: Any) -> TableRow | None:
            row = db.execute(
                self._sql(
                    "SELECT game, join_token, watch_token, colours, created_at FROM tables "
                    "WHERE id = ?"
                ),
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            seats = db.execute(
                self._sql("SELECT seat, token_hash FROM seats WHERE table_id = ?"), (table_id,)
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

        result: TableRow | None = self._read(query)
        return result

    def table_by_token(self, kind: str, token: str) -> str | None:
        """The id of the table whose ``kind`` ("join" or "watch") token this is, or None."""
        column = {"join": "join_token", "watch": "watch_token"}[kind]
        query = self._sql(f"SELECT id FROM tables WHERE {column} = ?")
        row = self._read(lambda db: db.execute(query, (token,)).fetchone())
        return None if row is None else str(row[0])

    def _insert(self, db: Any, table_id: str, expected_seq: int, events: Sequence[Event]) -> None:
        """Insert ``events`` after ``expected_seq`` in the caller's transaction.

        Raises:
            StoreError: the log is at another seq.
        """
        row = db.execute(
            self._sql("SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id = ?"), (table_id,)
        ).fetchone()
        last = int(row[0]) if row is not None else 0
        if last != expected_seq:
            raise StoreError(f"log of {table_id} is at {last}, expected {expected_seq}")
        self._executemany(
            db,
            self._sql("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)"),
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
        query = self._sql(
            "SELECT seq, kind, seat, client_action_id, payload, created_at FROM events "
            "WHERE table_id = ? AND seq > ? ORDER BY seq"
        )
        rows = self._read(lambda db: db.execute(query, (table_id, after)).fetchall())
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
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            columns = {row[1] for row in db.execute("PRAGMA table_info(tables)")}
            if "colours" not in columns:  # databases from before issue 9
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
        :class:`companion.tables.TableService`). :meth:`companion.pgstore.PgEventStore.locked`
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

    def add_reclaim_code(self, *, table_id: str, seat: str, code: str, expires_at: float) -> None:
        """Remember a reclaim code (hashed) for a seat until ``expires_at`` (UNIX seconds);
        expired codes of the table are dropped."""
        with self._transaction() as db:
            db.execute(
                "DELETE FROM reclaim_codes WHERE table_id = ? AND expires_at < ?",
                (table_id, time.time()),
            )
            db.execute(
                "INSERT OR REPLACE INTO reclaim_codes VALUES (?, ?, ?, ?)",
                (table_id, token_hash(code), seat, expires_at),
            )

    def take_reclaim_code(self, *, table_id: str, code: str) -> str | None:
        """The seat an unexpired reclaim code of a table is for, or None; a found code is
        used up (deleted)."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT seat, expires_at FROM reclaim_codes WHERE table_id = ? AND code_hash = ?",
                (table_id, token_hash(code)),
            ).fetchone()
            if row is None:
                return None
            db.execute(
                "DELETE FROM reclaim_codes WHERE table_id = ? AND code_hash = ?",
                (table_id, token_hash(code)),
            )
        return str(row[0]) if row[1] >= time.time() else None

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
        longer limit the actions per second (issue 9, point 1: at 500 tables a flush per
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
