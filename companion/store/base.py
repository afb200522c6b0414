"""The event store's interface: what the tables need of a log, whichever database keeps it.

:class:`Store` is the protocol :class:`companion.tables.service.TableService` is written
against; :mod:`companion.store.sqlite` (one process, the default) and
:mod:`companion.store.postgres` (several processes) implement it, with the same errors
(:class:`StoreError`, :class:`StorageUnavailable`); :mod:`companion.store.factory` picks one by
the ``--db`` value. Also here: the log's rows (:class:`Event`, :class:`TableRow`) and the one
hash under which seat tokens are kept (:func:`token_hash`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Protocol

_string = json.encoder.encode_basestring_ascii
"""A string as :func:`json.dumps` writes it (``ensure_ascii``), the C function it uses."""

DURABILITY = {"crash": "NORMAL", "power": "FULL"}
"""The durability levels (``--fsync``: ``"power"``, ``--no-fsync``: ``"crash"``), each with the
SQLite ``synchronous`` setting that gives it (PostgreSQL's own is in its module)."""

BUSY_SECONDS = 3.0
"""How long a write waits for a lock held by another program before giving up (503)."""


class StoreError(ValueError):
    """A write the store refuses (duplicate seat, unknown table)."""


class StorageUnavailable(RuntimeError):
    """The database cannot be read or written now (locked, disk full, read-only, corrupt)."""


def token_hash(token: str) -> str:
    """SHA-256 hex digest of a token: the only form in which tokens are stored."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, kw_only=True)
class Event:
    """One entry of a table's log.

    Attributes:
        seq: 1, 2, 3 ... per table; the table's revision is the last ``seq``.
        kind: ``"setup"``, ``"action"``, ``"undo"``, ``"roll"``, ``"join"``, ``"reclaim"`` or
            ``"counter"`` (:mod:`companion.tables.counters`).
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

    @cached_property
    def payload_text(self) -> str:
        """The payload as compact JSON text, made once: the store keeps exactly these bytes,
        and :meth:`to_text` puts them in the log line the streams send."""
        return json.dumps(self.payload, separators=(",", ":"))

    def to_text(self) -> str:
        """The whole event as compact JSON text, byte for byte
        ``json.dumps(self.to_json(), separators=(",", ":"))``, around :attr:`payload_text`
        (so a new event's payload is written to text once)."""
        seat, client_id = self.seat, self.client_action_id
        return (
            f'{{"seq":{_number(self.seq)},"kind":{_string(self.kind)},'
            f'"seat":{"null" if seat is None else _string(seat)},'
            f'"client_action_id":{"null" if client_id is None else _string(client_id)},'
            f'"payload":{self.payload_text},"created_at":{_number(self.created_at)}}}'
        )


def _number(value: Any) -> str:
    """A number as :func:`json.dumps` writes it (ints and finite floats without the call)."""
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if kind is float and value - value == 0.0:  # finite: json writes repr, inf/nan differently
        return float.__repr__(value)
    return json.dumps(value)


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
    """What :class:`companion.tables.service.TableService` needs of an event store:
    :class:`companion.store.sqlite.EventStore` (SQLite, the embedded default) and
    :class:`companion.store.postgres.PgEventStore` (PostgreSQL, several processes) both provide
    it, with the same errors (:class:`StoreError` for a refused write,
    :class:`StorageUnavailable` when the database cannot be used). The ``EventStore`` methods
    named below say the details."""

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
        """Append events at ``expected_seq``, durably, before returning (:meth:`EventStore.append`).

        Raises:
            StoreError: the log is not at ``expected_seq`` (another writer) or a client action
                id repeats; nothing of it is in.
            StorageUnavailable: the database cannot be written now; nothing of it is in.
        """

    def append_soon(
        self,
        table_id: str,
        expected_seq: int,
        events: Sequence[Event],
        done: Callable[[Exception | None], None],
    ) -> None:
        """:meth:`append` without waiting for it: ``done(None)`` is called (from another
        thread) once the events are committed durably, ``done(error)`` with the error
        :meth:`append` would raise once they are refused (:meth:`EventStore.append_soon`)."""

    def events(self, table_id: str, after: int = 0) -> list[Event]:
        """A table's log after seq ``after``, in order."""
