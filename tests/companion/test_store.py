"""The SQLite event store: WAL, one transaction per append, stale appends and repeated ids."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.store import Event, EventStore, StoreError, token_hash


def event(seq: int, client_id: str | None = None) -> Event:
    return Event(
        seq=seq,
        kind="roll",
        seat="A",
        client_action_id=client_id,
        payload={"faces": [seq]},
        created_at=1.0,
    )


def test_append_is_atomic_ordered_and_checks_the_expected_seq(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "deep" / "log.sqlite")
    store.create_table(table_id="t", game="asteroids", join_token="j", watch_token="w")
    store.add_seat(table_id="t", seat="A", token="secret")
    store.append("t", 0, [event(1), event(2, "c")])
    with pytest.raises(StoreError, match="log of t is at 2, expected 1"):
        store.append("t", 1, [event(2)])
    with pytest.raises(StoreError, match="refused"):
        store.append("t", 2, [event(3), event(4, "c")])  # repeated client id: nothing lands
    assert [e.seq for e in store.events("t")] == [1, 2]
    assert store.events("t")[1].payload == {"faces": [2]}
    row = store.table("t")
    assert row is not None and row.seat_hashes == {"A": token_hash("secret")}
    assert store.table_by_token("join", "j") == "t" and store.table_by_token("watch", "j") is None
    with pytest.raises(StoreError, match="seat A of table t is taken"):
        store.add_seat(table_id="t", seat="A", token="other")


def test_database_is_in_wal_mode_and_never_stores_seat_tokens(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    store = EventStore(path)
    store.create_table(table_id="t", game="asteroids", join_token="j", watch_token="w")
    store.add_seat(table_id="t", seat="B", token="very-secret-token")
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    dump = "\n".join(db.iterdump())
    assert "very-secret-token" not in dump and token_hash("very-secret-token") in dump


def test_durability_levels_set_sqlite_synchronous(tmp_path: Path) -> None:
    power = EventStore(tmp_path / "a.sqlite")  # the default
    crash = EventStore(tmp_path / "b.sqlite", "crash")
    assert crash._writer.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    assert power._writer.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with pytest.raises(StoreError, match=r"durability must be one of \['crash', 'power'\]"):
        EventStore(tmp_path / "c.sqlite", "paper")
