"""The event store for a ``--db`` value (SQLite file or PostgreSQL URL)."""

from __future__ import annotations

from pathlib import Path

from companion.store.base import BUSY_SECONDS, Store, StoreError
from companion.store.sqlite import EventStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
"""``--db`` values that name a PostgreSQL database rather than an SQLite file."""


def open_store(
    database: str | Path, durability: str = "power", busy_seconds: float = BUSY_SECONDS
) -> Store:
    """The event store for a ``--db`` value: a ``postgresql://`` or ``postgres://`` URL opens
    :class:`companion.store.postgres.PgEventStore`, anything else is an SQLite file
    (:class:`companion.store.sqlite.EventStore`, the default).

    Raises:
        StoreError: PostgreSQL asked for without the ``store`` extra installed, or a bad
            durability.
        StorageUnavailable: the database cannot be opened (server unreachable, wrong password,
            unwritable file ...).
    """
    text = str(database)
    if text.lower().startswith(POSTGRES_SCHEMES):
        try:
            from companion.store.postgres import PgEventStore
        except ImportError as exc:
            raise StoreError(
                "PostgreSQL needs psycopg, which is not installed: pip install 'tablesmith[store]'"
                "  (from a checkout: pip install -r requirements/store.txt)"
            ) from exc
        return PgEventStore(text, durability, busy_seconds)
    return EventStore(database, durability, busy_seconds)
