"""What the SQL stores share (SQLite and PostgreSQL): the one schema and the statements on
tables, seats, reclaim codes and logs."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

from companion.store.base import Event, RemovedTable, StoreError, TableRow, token_hash

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
);
CREATE TABLE IF NOT EXISTS removed_tables (
    id TEXT PRIMARY KEY,
    removed_at DOUBLE PRECISION NOT NULL,
    retention DOUBLE PRECISION NOT NULL
)
"""
"""The one schema of both stores, created on first use. Written in the types both databases
know: SQLite gives ``DOUBLE PRECISION`` the REAL and ``BIGINT`` the INTEGER affinity, the same
as the ``REAL``/``INTEGER`` of the databases earlier versions made (so those open unchanged;
the one column they lack, ``tables.colours``, :class:`~companion.store.sqlite.EventStore`
adds). ``seq`` is BIGINT, not SQLite's ``INTEGER PRIMARY KEY`` rowid (the key is
``(table_id, seq)``). Payloads are TEXT, not PostgreSQL's ``jsonb``, which would reorder the
keys: every process folds and streams the same bytes."""

LAST_PLAYED = (
    "COALESCE((SELECT e.created_at FROM events e WHERE e.table_id = t.id "
    "ORDER BY e.seq DESC LIMIT 1), t.created_at)"
)
"""SQL: when table ``t`` was last played, the time of its last event (the primary key's index
finds it), or its creation while it has none (UNIX seconds)."""


class SqlStore:
    """What the SQLite and PostgreSQL stores share: the schema (:data:`SCHEMA`), the statements
    on tables, seats, reclaim codes and logs (written with ``?`` placeholders; :attr:`PLACEHOLDER` is the driver's) and the mapping of
    rows to :class:`TableRow` and :class:`Event`, and the retention sweep's removals
    (:meth:`idle_tables`, :meth:`remove_table`). A subclass gives the connection handling:
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

    def _create_schema(self, db: Any) -> None:
        """Create :data:`SCHEMA`'s tables that do not exist yet, in the caller's transaction."""
        for statement in SCHEMA.split(";"):
            db.execute(statement)

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

    def add_reclaim_code(self, *, table_id: str, seat: str, code: str, expires_at: float) -> None:
        """Remember a reclaim code (hashed) for a seat until ``expires_at`` (UNIX seconds);
        expired codes of the table are dropped.

        Raises:
            StoreError: no such table.
        """
        try:
            with self._transaction() as db:
                db.execute(
                    self._sql("DELETE FROM reclaim_codes WHERE table_id = ? AND expires_at < ?"),
                    (table_id, time.time()),
                )
                db.execute(
                    self._sql(
                        "INSERT INTO reclaim_codes VALUES (?, ?, ?, ?) "
                        "ON CONFLICT (table_id, code_hash) "
                        "DO UPDATE SET seat = EXCLUDED.seat, expires_at = EXCLUDED.expires_at"
                    ),
                    (table_id, token_hash(code), seat, expires_at),
                )
        except self.integrity_error as exc:
            raise StoreError(f"no table {table_id} for a reclaim code") from exc

    def take_reclaim_code(self, *, table_id: str, code: str) -> str | None:
        """The seat an unexpired reclaim code of a table is for, or None; a found code is
        used up (deleted; of two processes taking the same code at once, one gets it)."""
        with self._transaction() as db:
            row = db.execute(
                self._sql(
                    "DELETE FROM reclaim_codes WHERE table_id = ? AND code_hash = ? "
                    "RETURNING seat, expires_at"
                ),
                (table_id, token_hash(code)),
            ).fetchone()
        if row is None:
            return None
        return str(row[0]) if row[1] >= time.time() else None

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
                    e.payload_text,
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

    def idle_tables(self, before: float, limit: int) -> list[str]:
        """Up to ``limit`` ids of the tables last played (their last event, or their creation
        while they have none) before ``before`` (UNIX seconds), in id order."""
        query = self._sql(
            f"SELECT t.id FROM tables t WHERE {LAST_PLAYED} < ? ORDER BY t.id LIMIT ?"
        )
        rows = self._read(lambda db: db.execute(query, (before, limit)).fetchall())
        return [str(row[0]) for row in rows]

    def remove_table(self, table_id: str, *, before: float, retention: float, now: float) -> bool:
        """Delete a table that was last played before ``before`` with everything of it (its
        log with the idempotency keys, seats, reclaim codes and seat keys), in ONE transaction
        that holds the table's write lock, and remember it as removed at ``now`` after
        ``retention`` seconds without play (:meth:`removed`).

        Idempotent and safe to run in several processes at once: whoever takes the lock second
        finds the table gone (or played meanwhile, when an append came first) and removes
        nothing.

        Returns:
            True if this call removed it.

        Raises:
            StorageUnavailable: the database cannot be written now (nothing was removed).
        """
        with self._transaction() as db:
            if not self._lock_table(db, table_id):
                return False
            row = db.execute(
                self._sql(f"SELECT {LAST_PLAYED} FROM tables t WHERE t.id = ?"), (table_id,)
            ).fetchone()
            if row is None or float(row[0]) >= before:
                return False
            for name in ("events", "reclaim_codes", "seats"):
                db.execute(self._sql(f"DELETE FROM {name} WHERE table_id = ?"), (table_id,))
            db.execute(self._sql("DELETE FROM tables WHERE id = ?"), (table_id,))
            db.execute(
                self._sql(
                    "INSERT INTO removed_tables VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING"
                ),
                (table_id, now, retention),
            )
        return True

    def removed(self, table_id: str) -> RemovedTable | None:
        """What is left of a table :meth:`remove_table` removed, or None (never removed, or
        forgotten by :meth:`forget_removed`)."""
        query = self._sql("SELECT removed_at, retention FROM removed_tables WHERE id = ?")
        row = self._read(lambda db: db.execute(query, (table_id,)).fetchone())
        if row is None:
            return None
        return RemovedTable(id=table_id, removed_at=float(row[0]), retention=float(row[1]))

    def forget_removed(self, before: float) -> int:
        """Forget the tables removed before ``before`` (UNIX seconds): a phone coming back
        later gets "no such table". Returns how many were forgotten."""
        with self._transaction() as db:
            done = db.execute(
                self._sql("DELETE FROM removed_tables WHERE removed_at < ?"), (before,)
            ).rowcount
        return int(done or 0)
